//! Classic McEliece (NIST round 4, 2022): all ten parameter sets, plus the
//! plaintext-confirmation variants (`pc`, `pcf`), `no_std`, no heap,
//! bounded stack.
//!
//! # Status: at risk
//!
//! Every parameter set is registered with [`Status::AtRisk`]: the 2026
//! cryptanalysis in IACR ePrint 2026/1630 claims key recovery below NIST
//! category 1. Use these sets for interoperability and research only.
//!
//! # What is implemented
//!
//! * `mceliece348864`, `mceliece460896`, `mceliece6688128`,
//!   `mceliece6960119`, `mceliece8192128` and their `f` variants
//!   (semi-systematic key generation), bit-exact with the round-4 KATs
//!   (PQClean / SUPERCOP-20221025).
//! * `mceliece*pc` / `mceliece*pcf`: the round-3 construction (ciphertext
//!   `C0 || C1` with `C1 = SHAKE256(2 || e)`, key `SHAKE256(1 || e || C)`).
//!   Their KATs equal the round-3 KATs; that this is exactly the ISO
//!   draft's pc/pcf is an inference, so treat them as provisional.
//!
//! All twenty sets share one code path, generic over [`ParameterSet`].
//!
//! # Memory
//!
//! Public keys are 261 KB to 1.36 MB and are always written into a caller
//! buffer. Key generation uses that buffer as its work space (sort keys,
//! the Gaussian elimination, the Benes control-bit scratch; see the
//! `keygen` module source), so no operation needs a heap, and every
//! operation's stack stays below 64 KB.
//!
//! # Backends
//!
//! On x86_64 with AVX2 (detected at run time, once per call) key
//! generation and encapsulation use 256-bit kernels for the masked row
//! operations, the bitsliced field products of the parity-check columns,
//! the Goppa-polynomial elimination (16 field elements per register; the
//! powers of f by carry-less multiplication when the CPU also has
//! PCLMULQDQ), the inner products, the error-vector scatter and the
//! sorting networks, and decapsulation runs entirely in 256-bit registers
//! (256 field elements per bitsliced vector: additive FFT, Benes network,
//! Berlekamp–Massey); elsewhere, or when built with
//! `--cfg pqforge_backend="portable"`, the portable 64-bit bitsliced code
//! runs. Both give identical bytes (`tests/backends.rs`).
//!
//! # Constant time
//!
//! Secret-dependent data never selects a branch or a memory address. The
//! only declassified values are the key-generation retry decisions
//! (Goppa polynomial, repeated sort keys, systematic form / f-variant
//! pivots), the encapsulation rejection-sampling accept bits, and the
//! public outputs (public key, ciphertext), each at a commented call site.
//!
//! ```
//! use pqforge_mceliece::{McEliece348864, ParameterSet, decaps, encaps, keygen};
//! # let mut rng = pqforge_core::kat::KatSource::new(pqforge_core::KatRng::NistDrbg, &[1; 48]);
//! let mut pk = vec![0u8; McEliece348864::PK_BYTES];
//! let mut sk = vec![0u8; McEliece348864::SK_BYTES];
//! keygen::<McEliece348864, _>(&mut rng, &mut pk, &mut sk).unwrap();
//! let mut ct = [0u8; McEliece348864::CT_BYTES];
//! let (mut k1, mut k2) = ([0u8; 32], [0u8; 32]);
//! encaps::<McEliece348864, _>(&mut rng, &pk, &mut ct, &mut k1).unwrap();
//! decaps::<McEliece348864>(&sk, &ct, &mut k2).unwrap();
//! assert_eq!(k1, k2);
//! ```
#![no_std]

#[cfg(any(feature = "alloc", test))]
extern crate alloc;
#[cfg(test)]
extern crate std;

mod backend;
mod benes;
mod bm;
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
mod bm_avx2;
mod dynkem;
mod fft;
mod fft_consts;
mod genpoly;
mod gf;
mod kem;
mod keygen;
mod params;
mod radix;
mod sort;

pub use backend::testing;
pub use dynkem::*;
pub use params::*;
use pqforge_core::{CryptoRng, Error, Status, check_len};

/// Generates a key pair into `pk` (`P::PK_BYTES`) and `sk` (`P::SK_BYTES`),
/// drawing exactly 32 bytes (the seed delta) from `rng`.
///
/// # Errors
/// [`Error::Length`] if a buffer has the wrong size (checked first).
pub fn keygen<P: ParameterSet, R: CryptoRng + ?Sized>(
    rng: &mut R,
    pk: &mut [u8],
    sk: &mut [u8],
) -> Result<(), Error> {
    check_len("public key buffer", P::PK_BYTES, pk.len())?;
    check_len("secret key buffer", P::SK_BYTES, sk.len())?;
    let mut delta = [0u8; 32];
    rng.fill_bytes(&mut delta);
    backend::keygen_derand::<P>(&delta, pk, sk);
    zeroize::Zeroize::zeroize(&mut delta);
    Ok(())
}

/// Deterministic key generation from the 32-byte seed `delta`.
///
/// # Errors
/// [`Error::Length`] if a buffer has the wrong size.
pub fn keygen_derand<P: ParameterSet>(
    delta: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
) -> Result<(), Error> {
    check_len("public key buffer", P::PK_BYTES, pk.len())?;
    check_len("secret key buffer", P::SK_BYTES, sk.len())?;
    backend::keygen_derand::<P>(delta, pk, sk);
    Ok(())
}

/// Encapsulates to `pk`: writes the ciphertext (`P::CT_BYTES`) and the
/// 32-byte shared secret. Draws the error vector from `rng` exactly like
/// the reference (`4t`-byte requests, `2t` for `mceliece8192128*`, until a
/// valid sample).
///
/// # Errors
/// [`Error::Length`] for wrong sizes; [`Error::Encoding`] if the padding
/// bits of a `mceliece6960119*` public key are not zero.
pub fn encaps<P: ParameterSet, R: CryptoRng + ?Sized>(
    rng: &mut R,
    pk: &[u8],
    ct: &mut [u8],
    ss: &mut [u8; 32],
) -> Result<(), Error> {
    check_len("public key", P::PK_BYTES, pk.len())?;
    check_len("ciphertext buffer", P::CT_BYTES, ct.len())?;
    backend::encaps::<P, R>(rng, pk, ct, ss)
}

/// Decapsulates `ct` with `sk` into `ss`. Never fails for a correctly sized
/// ciphertext: an invalid one gives the implicit-rejection key
/// SHAKE256(0 || s || C).
///
/// For `mceliece6960119*`, nonzero C0 padding bits are treated as an
/// invalid ciphertext (rejection key); PQClean instead returns an all-0xFF
/// key with an error code. No KAT covers this case.
///
/// # Errors
/// [`Error::Length`] if `sk` or `ct` has the wrong size.
pub fn decaps<P: ParameterSet>(sk: &[u8], ct: &[u8], ss: &mut [u8; 32]) -> Result<(), Error> {
    check_len("secret key", P::SK_BYTES, sk.len())?;
    check_len("ciphertext", P::CT_BYTES, ct.len())?;
    kem::decaps::<P>(sk, ct, ss);
    Ok(())
}

/// Key generation into freshly allocated buffers: `(pk, sk)`, the secret
/// key wiped on drop.
#[cfg(feature = "alloc")]
pub fn keygen_boxed<P: ParameterSet, R: CryptoRng + ?Sized>(
    rng: &mut R,
) -> (
    alloc::boxed::Box<[u8]>,
    zeroize::Zeroizing<alloc::boxed::Box<[u8]>>,
) {
    let mut pk = alloc::vec![0u8; P::PK_BYTES].into_boxed_slice();
    let mut sk = zeroize::Zeroizing::new(alloc::vec![0u8; P::SK_BYTES].into_boxed_slice());
    let mut delta = [0u8; 32];
    rng.fill_bytes(&mut delta);
    backend::keygen_derand::<P>(&delta, &mut pk, &mut sk);
    zeroize::Zeroize::zeroize(&mut delta);
    (pk, sk)
}

const _: Status = Status::AtRisk;
