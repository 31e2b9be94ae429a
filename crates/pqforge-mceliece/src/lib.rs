//! Classic McEliece (NIST round 4, 2022): all ten parameter sets, plus the
//! plaintext-confirmation variants (`pc`, `pcf`), `no_std`, no heap,
//! bounded stack.
//!
//! # Status: at risk
//!
//! Every parameter set is registered with [`pqforge_core::Status::AtRisk`]: the 2026
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
//! The types, in registry order ([`SCHEMES`]): [`McEliece348864`],
//! [`McEliece348864f`], [`McEliece460896`], [`McEliece460896f`],
//! [`McEliece6688128`], [`McEliece6688128f`], [`McEliece6960119`],
//! [`McEliece6960119f`], [`McEliece8192128`], [`McEliece8192128f`], then
//! the same with the suffixes `pc` and `pcf` ([`McEliece348864pc`],
//! [`McEliece348864pcf`], ..., [`McEliece8192128pcf`]).
//!
//! # Memory
//!
//! Public keys are 261 KB to 1.36 MB and are always written into, or read
//! from, a caller buffer (the contract passes references, nothing is
//! copied). Key generation uses that buffer as its work space (sort keys,
//! the Gaussian elimination, the Benes control-bit scratch; see the
//! `keygen` module source), so no operation needs a heap, and every
//! operation's own stack stays below 64 KB.
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
//! # API
//!
//! Each set is a unit type implementing [`pqforge_core::Kem`] (re-exported
//! here as [`Kem`]), which gives the typed API: [`EncapsKey<P>`],
//! [`DecapsKey<P>`], [`Ciphertext<P>`] and [`SharedSecret<P>`] hold
//! exact-size arrays, and `P::keygen`, `P::encaps`, `P::decaps` work on
//! them. Parsing a public key (`EncapsKey::<P>::try_from(bytes)`) runs
//! the one check the specification asks for (zero padding bits in every
//! row of a `mceliece6960119*` key); private keys have a single form, the
//! expanded encoding (no seed form); there are no options. Deterministic
//! key generation (`P::keygen_derand`) takes the 32-byte seed delta; the
//! standard defines no deterministic encapsulation, so `P::encaps_derand`
//! returns [`pqforge_core::Error::Unsupported`].
//!
//! Randomness, exactly as the reference draws it (the KAT transcripts
//! depend on it): key generation draws the 32-byte seed delta with one
//! `fill_bytes` call; encapsulation draws the error vector with repeated
//! `fill_bytes` calls of `4t` bytes (`2t` for `mceliece8192128*`, where
//! every candidate is in range) until a sample is valid.
//!
//! Decapsulation never fails: a ciphertext that does not decode gives the
//! implicit-rejection key SHAKE256(0 || s || C). For `mceliece6960119*`,
//! nonzero C0 padding bits count as an invalid ciphertext (rejection key;
//! PQClean instead returns an all-0xFF key with an error code, and no KAT
//! covers the case). The specification asks for no check of a private
//! key, so parsing one checks its length only.
//!
//! The typed keys live wherever the caller puts them, so a public key of
//! up to 1.36 MB on the stack needs a thread with a large stack, as below.
//! Without one, use the dynamic API of [`SCHEMES`] (or
//! `pqforge_core::KemAlg::<P>::DYN`) on heap buffers: it borrows the
//! caller's bytes and copies no key.
//!
//! ```
//! use pqforge_mceliece::{Ciphertext, EncapsKey, Kem, McEliece348864};
//! # fn run() {
//! # let mut rng = pqforge_core::kat::KatSource::new(pqforge_core::KatRng::NistDrbg, &[1; 48]);
//! let (ek, dk) = McEliece348864::keygen(&mut rng);
//! let (ct, k1) = McEliece348864::encaps(&ek, &mut rng);
//! // Keys and ciphertexts travel as bytes and are checked when parsed.
//! let ek2 = EncapsKey::<McEliece348864>::try_from(ek.as_ref()).unwrap();
//! assert!(ek2 == ek);
//! let ct = Ciphertext::<McEliece348864>::try_from(ct.as_ref()).unwrap();
//! let k2 = McEliece348864::decaps(&dk, &ct);
//! assert_eq!(k1, k2);
//! # }
//! // Keys of 261 KB and more: give the thread a large stack.
//! std::thread::Builder::new()
//!     .stack_size(16 << 20)
//!     .spawn(run)
//!     .unwrap()
//!     .join()
//!     .unwrap();
//! ```
//!
//! The dynamic API on heap buffers:
//!
//! ```
//! use pqforge_core::Scheme;
//! use pqforge_mceliece::SCHEMES;
//! # let mut rng = pqforge_core::kat::KatSource::new(pqforge_core::KatRng::NistDrbg, &[1; 48]);
//! let Scheme::Kem(kem) = SCHEMES[6] else { unreachable!() };
//! let i = kem.info();
//! assert_eq!(i.name, "mceliece6960119");
//! let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
//! kem.keygen(&mut rng, &mut pk, &mut sk).unwrap();
//! let (mut ct, mut k1, mut k2) = (vec![0u8; i.ct_bytes], [0u8; 32], [0u8; 32]);
//! kem.encaps(&mut rng, &pk, &mut ct, &mut k1).unwrap();
//! kem.decaps(&sk, &ct, &mut k2).unwrap();
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
pub use params::*;
pub use pqforge_core::{Ciphertext, DecapsKey, EncapsKey, Kem, SharedSecret};

/// Key generation into freshly allocated buffers, `(pk, sk)` (the secret
/// key wiped on drop): the keys never pass through the stack. They work
/// with the dynamic API ([`SCHEMES`]) and parse into the typed keys
/// (`EncapsKey::<P>::try_from(&pk[..])`). Draws like `P::keygen` (one
/// 32-byte seed).
#[cfg(feature = "alloc")]
pub fn keygen_boxed<P: ParameterSet, R: pqforge_core::CryptoRng + ?Sized>(
    rng: &mut R,
) -> (
    alloc::boxed::Box<[u8]>,
    zeroize::Zeroizing<alloc::boxed::Box<[u8]>>,
) {
    use pqforge_core::ByteArray;
    let mut pk = alloc::vec![0u8; <P::EkBytes as ByteArray>::LEN].into_boxed_slice();
    let mut sk = zeroize::Zeroizing::new(
        alloc::vec![0u8; <P::DkBytes as ByteArray>::LEN].into_boxed_slice(),
    );
    // Always both: the buffers have the arrays' lengths.
    if let (Some(ek), Some(dk)) = (
        P::EkBytes::mut_from(&mut pk),
        P::DkBytes::mut_from(&mut sk[..]),
    ) {
        let _ = P::keygen_into(rng, ek, dk);
    }
    (pk, sk)
}
