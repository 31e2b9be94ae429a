//! The FIPS 203 internal algorithms, one by one, under their names in the
//! standard (feature `hazmat`), so that third-party test suites can check
//! them separately. **Not for applications**: FIPS 203 §6 keeps the
//! internal functions (and their explicit randomness) away from
//! applications, for testing only; use the [`Kem`](pqforge_core::Kem) API.
//!
//! Polynomials and NTT representations are `[u16; 256]` (NTT
//! representations in the standard's order: pairs `(2i, 2i + 1)` are the
//! residues modulo `X^2 - ζ^(2 BitRev7(i) + 1)`). An element of Z_m (m = q
//! = 3329, or 2^d for compressed values) may be given by any `u16`
//! representative: inputs are taken mod m, outputs are in [0, m). The
//! parameter set is a type parameter (`k_pke_encrypt::<MlKem768>(..)`).
//! Byte strings of the wrong length give [`Error::Length`], parameters
//! outside the standard's range (d, η) [`Error::InvalidInput`]: no input
//! panics.
//!
//! Every function wraps the crate's own kernels (NTT, NTT⁻¹, MultiplyNTTs,
//! SampleNTT, K-PKE and the internal algorithms through the backend
//! dispatch of the public API, so on AVX2 where this CPU has it); where
//! the kernels keep Montgomery forms or lazy reductions, the results are
//! converted here, at the boundary.
//!
//! ```
//! use pqforge_mlkem::MlKem768;
//! use pqforge_mlkem::hazmat::{
//!     compress, decompress, multiply_ntts, ntt, ntt_inverse, sample_ntt,
//! };
//!
//! assert_eq!(compress(1, 1665)?, 1); // Compress_1 rounds q/2 up
//! assert_eq!(decompress(1, 1)?, 1665); // Decompress_1(1) = ⌈q/2⌋
//!
//! // x · x^255 = x^256 = -1 in R_q, through the NTT domain.
//! let (mut f, mut g) = ([0u16; 256], [0u16; 256]);
//! f[1] = 1;
//! g[255] = 1;
//! ntt(&mut f);
//! ntt(&mut g);
//! let mut h = [0u16; 256];
//! multiply_ntts(&f, &g, &mut h);
//! ntt_inverse(&mut h);
//! assert_eq!(h[0], 3328);
//! assert!(h[1..].iter().all(|&c| c == 0));
//!
//! // Â[0][0] of some ρ: uniform in T_q.
//! let mut a = [0u16; 256];
//! sample_ntt(&[7u8; 34], &mut a);
//! assert!(a.iter().all(|&c| c < 3329));
//! # Ok::<(), pqforge_core::Error>(())
//! ```

use core::marker::PhantomData;

use pqforge_core::{Error, check_len, ct};

use crate::backend::{self, Backend, Op};
use crate::params::ParameterSet;
use crate::pke::{Pke, Write};
use crate::poly::{
    self, MONT_SQ, N, POLY_BYTES, Poly, Q, barrett_reduce, div_q, fqmul, montgomery_reduce,
    to_canonical,
};
use crate::{hash, ntt as kernels, sample};

/// x mod q for any u16 (multiply-shift, no division).
#[inline]
fn modq(x: u16) -> i16 {
    let x = u32::from(x);
    (x - div_q(x) * Q as u32) as i16
}

/// `f` into the crate's representation: coefficients in [0, q).
fn load(f: &[u16; N]) -> Poly {
    let mut p = Poly::ZERO;
    for (c, &x) in p.c.iter_mut().zip(f) {
        *c = modq(x);
    }
    p
}

/// Any `i16` coefficients out, reduced to [0, q).
fn store(p: &Poly, f: &mut [u16; N]) {
    for (o, &c) in f.iter_mut().zip(&p.c) {
        *o = to_canonical(barrett_reduce(c));
    }
}

/// Runs `f` on the value of `d` as a const generic, for d in 1..=12.
macro_rules! with_d {
    ($d:expr, $D:ident => $body:expr) => {
        match $d {
            1 => {
                const $D: u32 = 1;
                $body
            }
            2 => {
                const $D: u32 = 2;
                $body
            }
            3 => {
                const $D: u32 = 3;
                $body
            }
            4 => {
                const $D: u32 = 4;
                $body
            }
            5 => {
                const $D: u32 = 5;
                $body
            }
            6 => {
                const $D: u32 = 6;
                $body
            }
            7 => {
                const $D: u32 = 7;
                $body
            }
            8 => {
                const $D: u32 = 8;
                $body
            }
            9 => {
                const $D: u32 = 9;
                $body
            }
            10 => {
                const $D: u32 = 10;
                $body
            }
            11 => {
                const $D: u32 = 11;
                $body
            }
            12 => {
                const $D: u32 = 12;
                $body
            }
            _ => return Err(Error::InvalidInput("d outside 1..=12")),
        }
    };
}

/// BitsToBytes (Algorithm 3): packs the bits `b` (any nonzero value is a
/// one), least significant first, into `b.len() / 8` bytes.
///
/// # Errors
/// [`Error::Length`] unless `bytes.len() · 8 == bits.len()`.
pub fn bits_to_bytes(bits: &[u8], bytes: &mut [u8]) -> Result<(), Error> {
    check_len("bit array", 8 * bytes.len(), bits.len())?;
    for (byte, chunk) in bytes.iter_mut().zip(bits.chunks_exact(8)) {
        *byte = chunk
            .iter()
            .enumerate()
            .fold(0, |acc, (j, &b)| acc | (u8::from(b != 0) << j));
    }
    Ok(())
}

/// BytesToBits (Algorithm 4): the bits of `bytes`, least significant
/// first, as 0/1 values.
///
/// # Errors
/// [`Error::Length`] unless `bits.len() == 8 · bytes.len()`.
pub fn bytes_to_bits(bytes: &[u8], bits: &mut [u8]) -> Result<(), Error> {
    check_len("bit array", 8 * bytes.len(), bits.len())?;
    for (&byte, chunk) in bytes.iter().zip(bits.chunks_exact_mut(8)) {
        for (j, b) in chunk.iter_mut().enumerate() {
            *b = (byte >> j) & 1;
        }
    }
    Ok(())
}

/// ByteEncode_d (Algorithm 5): `f` ∈ Z_m^256 (m = 2^d for d < 12, q for
/// d = 12; coefficients taken mod m) into 32·d bytes.
///
/// # Errors
/// [`Error::InvalidInput`] for d outside 1..=12; [`Error::Length`] unless
/// `out` has 32·d bytes.
pub fn byte_encode(d: u32, f: &[u16; N], out: &mut [u8]) -> Result<(), Error> {
    with_d!(d, D => {
        check_len("ByteEncode output", 32 * D as usize, out.len())?;
        let mut v = [0u16; N];
        for (o, &x) in v.iter_mut().zip(f) {
            *o = if D == 12 { modq(x) as u16 } else { x & ((1 << D) - 1) };
        }
        poly::pack::<D>(&v, out);
    });
    Ok(())
}

/// ByteDecode_d (Algorithm 6): 32·d bytes into `f` ∈ Z_m^256; for d = 12
/// each 12-bit value is reduced mod q, as the standard says (so
/// ByteDecode_12 is not injective: [`byte_encode`] of the result differs
/// from the input exactly when a value was ≥ q, the §7.2 modulus check).
///
/// # Errors
/// [`Error::InvalidInput`] for d outside 1..=12; [`Error::Length`] unless
/// `bytes` has 32·d bytes.
pub fn byte_decode(d: u32, bytes: &[u8], f: &mut [u16; N]) -> Result<(), Error> {
    with_d!(d, D => {
        check_len("ByteDecode input", 32 * D as usize, bytes.len())?;
        poly::unpack::<D>(bytes, f);
        if D == 12 {
            // The crate's ByteDecode12 leaves values in [0, 4096).
            for x in f.iter_mut() {
                *x = modq(*x) as u16;
            }
        }
    });
    Ok(())
}

/// Compress_d (eq. 4.7): ⌈(2^d / q) · x⌋ mod 2^d, x taken mod q.
///
/// # Errors
/// [`Error::InvalidInput`] for d outside 1..=11 (the standard's d < 12).
pub fn compress(d: u32, x: u16) -> Result<u16, Error> {
    if !(1..=11).contains(&d) {
        return Err(Error::InvalidInput("d outside 1..=11"));
    }
    Ok(poly::compress(modq(x) as u16, d))
}

/// Decompress_d (eq. 4.8): ⌈(q / 2^d) · y⌋, y taken mod 2^d; in [0, q).
///
/// # Errors
/// [`Error::InvalidInput`] for d outside 1..=11.
pub fn decompress(d: u32, y: u16) -> Result<u16, Error> {
    if !(1..=11).contains(&d) {
        return Err(Error::InvalidInput("d outside 1..=11"));
    }
    Ok(poly::decompress(y & ((1 << d) - 1), d) as u16)
}

/// SampleNTT (Algorithm 7) of the 34-byte input B = ρ ‖ j ‖ i (Â\[i, j\] in
/// K-PKE): an element of T_q, coefficients in [0, q).
pub fn sample_ntt(b: &[u8; 34], a: &mut [u16; N]) {
    struct SampleNtt<'a>(&'a [u8; 34], &'a mut Poly);
    impl Op for SampleNtt<'_> {
        type Out = ();
        fn run<K: Pke>(self) {
            sample::sample_ntt_1::<K::Kernels>(self.0, self.1);
        }
    }
    let mut p = Poly::ZERO;
    backend::run(SampleNtt(b, &mut p));
    store(&p, a);
}

/// SamplePolyCBD_η (Algorithm 8) of 64·η bytes, η = 2 or 3 (the values
/// FIPS 203 uses): coefficients in [0, q) (−η..η mod q).
///
/// # Errors
/// [`Error::InvalidInput`] for another η; [`Error::Length`] unless `b` has
/// 64·η bytes.
pub fn sample_poly_cbd(eta: usize, b: &[u8], f: &mut [u16; N]) -> Result<(), Error> {
    if eta != 2 && eta != 3 {
        return Err(Error::InvalidInput("eta other than 2 or 3"));
    }
    check_len("SamplePolyCBD input", 64 * eta, b.len())?;
    let mut p = Poly::ZERO;
    sample::cbd(&mut p, b, eta);
    store(&p, f);
    ct::wipe(&mut p.c);
    Ok(())
}

/// NTT (Algorithm 9), in place: `f` ∈ R_q to f̂ ∈ T_q.
pub fn ntt(f: &mut [u16; N]) {
    struct Ntt<'a>(&'a mut Poly);
    impl Op for Ntt<'_> {
        type Out = ();
        fn run<K: Pke>(self) {
            K::Kernels::ntt(self.0);
        }
    }
    let mut p = load(f);
    backend::run(Ntt(&mut p));
    store(&p, f);
}

/// NTT⁻¹ (Algorithm 10), in place: f̂ ∈ T_q to f ∈ R_q.
pub fn ntt_inverse(f: &mut [u16; N]) {
    struct InvNtt<'a>(&'a mut Poly);
    impl Op for InvNtt<'_> {
        type Out = ();
        fn run<K: Pke>(self) {
            K::Kernels::invntt_tomont(self.0);
        }
    }
    let mut p = load(f);
    backend::run(InvNtt(&mut p));
    // The kernel leaves a factor 2^16: one Montgomery reduction removes it.
    for c in &mut p.c {
        *c = montgomery_reduce(i32::from(*c));
    }
    store(&p, f);
}

/// MultiplyNTTs (Algorithm 11): ĥ = f̂ ×_{T_q} ĝ, the plain product in T_q.
pub fn multiply_ntts(f: &[u16; N], g: &[u16; N], h: &mut [u16; N]) {
    struct Mul<'a>(&'a Poly, &'a Poly, &'a mut Poly);
    impl Op for Mul<'_> {
        type Out = ();
        fn run<K: Pke>(self) {
            K::Kernels::basemul_acc(
                self.2,
                core::slice::from_ref(self.0),
                core::slice::from_ref(self.1),
            );
            // The kernel leaves a factor 2^-16: Montgomery form undoes it.
            K::Kernels::tomont(self.2);
        }
    }
    let (mut a, mut b) = (load(f), load(g));
    // The kernel's contract: centred operands.
    poly::reduce(&mut a);
    poly::reduce(&mut b);
    let mut r = Poly::ZERO;
    backend::run(Mul(&a, &b, &mut r));
    store(&r, h);
}

/// BaseCaseMultiply (Algorithm 12): (a0 + a1 X)(b0 + b1 X) mod (X² − γ) as
/// (c0, c1), all values taken mod q.
#[must_use]
pub fn base_case_multiply(a0: u16, a1: u16, b0: u16, b1: u16, gamma: u16) -> (u16, u16) {
    let centred = |x: u16| i32::from(barrett_reduce(modq(x)));
    // γ in Montgomery form (γ · 2^16), as the kernel's twiddles are.
    let z = i32::from(fqmul(modq(gamma), MONT_SQ));
    let (c0, c1) = kernels::basemul_zeta(z, (centred(a0), centred(a1)), (centred(b0), centred(b1)));
    // The kernel leaves a factor 2^-16.
    let out = |c: i16| to_canonical(barrett_reduce(fqmul(c, MONT_SQ)));
    (out(c0), out(c1))
}

/// The lengths of ek_PKE (384k + 32) and dk_PKE (384k).
fn pke_lengths<P: ParameterSet>() -> (usize, usize) {
    (POLY_BYTES * P::K + 32, POLY_BYTES * P::K)
}

/// K-PKE.KeyGen (Algorithm 13) of the seed d: the encryption key ek_PKE
/// (384k + 32 bytes) and the decryption key dk_PKE (384k bytes).
///
/// # Errors
/// [`Error::Length`] for a wrong `ek` or `dk` length.
pub fn k_pke_key_gen<P: ParameterSet>(
    d: &[u8; 32],
    ek: &mut [u8],
    dk: &mut [u8],
) -> Result<(), Error> {
    struct KeyGen<'a, P>(
        &'a [u8; 32],
        &'a [u8; 32],
        &'a mut [u8],
        &'a mut [u8],
        PhantomData<P>,
    );
    impl<P: ParameterSet> Op for KeyGen<'_, P> {
        type Out = ();
        fn run<K: Pke>(self) {
            K::keygen::<P>(self.0, self.1, self.2, self.3);
        }
    }
    let (ek_len, dk_len) = pke_lengths::<P>();
    check_len("K-PKE encryption key", ek_len, ek.len())?;
    check_len("K-PKE decryption key", dk_len, dk.len())?;
    // (ρ, σ) = G(d ‖ k)
    let mut g = hash::g(&[d, &[P::K as u8]]);
    let (halves, _) = g.as_chunks::<32>();
    let (ek_t, ek_rho) = ek.split_at_mut(dk_len);
    backend::run(KeyGen::<P>(&halves[0], &halves[1], ek_t, dk, PhantomData));
    ek_rho.copy_from_slice(&halves[0]);
    ct::wipe(&mut g);
    Ok(())
}

/// K-PKE.Encrypt (Algorithm 14) of the message `m` with the randomness `r`
/// under ek_PKE: the ciphertext c (32(d_u k + d_v) bytes). The standard
/// applies no modulus check here: ByteDecode_12 reduces the values of
/// `ek`.
///
/// # Errors
/// [`Error::Length`] for a wrong `ek` or `c` length.
pub fn k_pke_encrypt<P: ParameterSet>(
    ek: &[u8],
    m: &[u8; 32],
    r: &[u8; 32],
    c: &mut [u8],
) -> Result<(), Error> {
    struct Encrypt<'a, P>(
        &'a [u8],
        &'a [u8; 32],
        &'a [u8; 32],
        &'a mut [u8],
        PhantomData<P>,
    );
    impl<P: ParameterSet> Op for Encrypt<'_, P> {
        type Out = ();
        fn run<K: Pke>(self) {
            K::encrypt::<P, _>(self.0, self.1, self.2, &mut Write(self.3));
        }
    }
    check_len("K-PKE encryption key", pke_lengths::<P>().0, ek.len())?;
    check_len("ciphertext", P::CT_BYTES, c.len())?;
    backend::run(Encrypt::<P>(ek, m, r, c, PhantomData));
    Ok(())
}

/// K-PKE.Decrypt (Algorithm 15) of the ciphertext `c` with dk_PKE: the
/// message m.
///
/// # Errors
/// [`Error::Length`] for a wrong `dk` or `c` length.
pub fn k_pke_decrypt<P: ParameterSet>(dk: &[u8], c: &[u8]) -> Result<[u8; 32], Error> {
    struct Decrypt<'a, P>(&'a [u8], &'a [u8], &'a mut [u8; 32], PhantomData<P>);
    impl<P: ParameterSet> Op for Decrypt<'_, P> {
        type Out = ();
        fn run<K: Pke>(self) {
            K::decrypt::<P>(self.0, self.1, self.2);
        }
    }
    check_len("K-PKE decryption key", pke_lengths::<P>().1, dk.len())?;
    check_len("ciphertext", P::CT_BYTES, c.len())?;
    let mut m = [0u8; 32];
    backend::run(Decrypt::<P>(dk, c, &mut m, PhantomData));
    Ok(m)
}

/// ML-KEM.KeyGen_internal (Algorithm 16) of the seeds d and z: the
/// encapsulation key ek (384k + 32 bytes) and the decapsulation key dk
/// (768k + 96 bytes).
///
/// # Errors
/// [`Error::Length`] for a wrong `ek` or `dk` length.
pub fn key_gen_internal<P: ParameterSet>(
    d: &[u8; 32],
    z: &[u8; 32],
    ek: &mut [u8],
    dk: &mut [u8],
) -> Result<(), Error> {
    check_len("encapsulation key", P::EK_BYTES, ek.len())?;
    check_len("decapsulation key", P::DK_BYTES, dk.len())?;
    backend::keygen::<P>(d, z, ek, dk, false);
    Ok(())
}

/// ML-KEM.Encaps_internal (Algorithm 17) of ek with the randomness m: the
/// shared key K, returned, and the ciphertext c, written. No input check
/// (ML-KEM.Encaps runs the §7.2 modulus check before it).
///
/// # Errors
/// [`Error::Length`] for a wrong `ek` or `c` length.
pub fn encaps_internal<P: ParameterSet>(
    ek: &[u8],
    m: &[u8; 32],
    c: &mut [u8],
) -> Result<[u8; 32], Error> {
    check_len("encapsulation key", P::EK_BYTES, ek.len())?;
    check_len("ciphertext", P::CT_BYTES, c.len())?;
    let mut key = [0u8; 32];
    backend::encaps::<P>(ek, &hash::h(ek), m, c, &mut key);
    Ok(key)
}

/// ML-KEM.Decaps_internal (Algorithm 18) of c with dk: the shared key K
/// (J(z ‖ c) when c does not re-encrypt identically). No input check
/// (ML-KEM.Decaps runs the §7.3 checks before it).
///
/// # Errors
/// [`Error::Length`] for a wrong `dk` or `c` length.
pub fn decaps_internal<P: ParameterSet>(dk: &[u8], c: &[u8]) -> Result<[u8; 32], Error> {
    check_len("decapsulation key", P::DK_BYTES, dk.len())?;
    check_len("ciphertext", P::CT_BYTES, c.len())?;
    let mut key = [0u8; 32];
    backend::decaps::<P>(dk, c, &mut key);
    Ok(key)
}
