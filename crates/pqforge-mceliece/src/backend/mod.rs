//! Kernels of key generation behind a backend trait, and the run-time
//! backend choice (once per public call).
//!
//! On x86_64 (unless built with `--cfg pqforge_backend="portable"`) key
//! generation runs on the AVX2 backend when the CPU has AVX2: the masked
//! row operations of the Gaussian elimination and of the public-key
//! product, the bit-vector helpers of the pivot decisions, the bitsliced
//! field products generating the parity-check columns, the
//! Goppa-polynomial kernels (`avx2_gp`: the powers of f by PCLMULQDQ
//! after its own run-time check) and the sorting networks, in 256-bit
//! registers. Every backend
//! computes bit-identical results; `portable` is the reference
//! (`tests/backends.rs` compares them).

#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
pub(crate) mod avx2;
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
mod avx2_dec;
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
mod avx2_gp;

use crate::ParameterSet;
use crate::sort::{sort_u32_le, sort_u64_le};

/// The kernels a backend provides. Byte buffers carry little-endian words
/// (they live in the caller's public-key buffer: no alignment).
pub(crate) trait Backend {
    /// `dst ^= src & mask` bytewise (`mask` is 0 or 0xFF), over the
    /// shorter of the two lengths.
    fn xor_masked(dst: &mut [u8], src: &[u8], mask: u8);
    /// `dst ^= src_0 & masks[0] ^ src_1 & masks[1] ^ ...` bytewise, with
    /// `src_b = src[b * stride..][..dst.len()]` and every mask 0 or 0xFF
    /// (the destination stays in registers across the sources).
    fn xor_rows_masked(dst: &mut [u8], src: &[u8], stride: usize, masks: &[u8]);
    /// Inner products over GF(2): for every `rb`-byte row `r` of `rows`,
    /// flips bit `r` of `out` (LSB-first) when `row_r & v[..rb]` has odd
    /// weight. `v` is zero from byte `rb` on and has at least
    /// `rb.next_multiple_of(32)` bytes (vector loads may run past a row;
    /// the zero bytes cancel whatever they read).
    fn and_parities(rows: &[u8], rb: usize, v: &[u8], out: &mut [u8]);
    /// Writes into `e` (zeroed first) the bits at the positions `pos`
    /// (each below `8 * e.len()`, at most [`MAX_T`] of them), in constant
    /// time: no branch or address depends on a position.
    fn set_bits(e: &mut [u8], pos: &[u16]);
    /// Sorts the little-endian `u32` words of `buf` ascending (constant
    /// time; the word count is a power of two).
    fn sort_u32(buf: &mut [u8]);
    /// Sorts the little-endian `u64` words of `buf` ascending (constant
    /// time; the word count is a power of two).
    fn sort_u64(buf: &mut [u8]);
    /// Bit planes of a byte string: for `i < nb` (`nb <= 8`), bit `k` of
    /// the bit vector `planes[i * stride..]` becomes bit `i` of `bytes[k]`;
    /// the first `bytes.len().div_ceil(64)` words of each plane are
    /// overwritten (bits past the end cleared), the others untouched.
    fn byte_planes(bytes: &[u8], planes: &mut [u64], stride: usize, nb: usize);
    /// `out[i] = 0xFF` if bit `first + i` of the bit vector `bits` is set,
    /// else 0 (bits past the end of `bits` read as 0).
    fn expand_bits(bits: &[u64], first: usize, out: &mut [u8]);
    /// Bitsliced GF(2^m) products of many blocks of 64 elements, in place:
    /// `v[b * stride + q]` is plane `b` of block `q` (same layout for `l`);
    /// every block `q < n` becomes `v_q * l_q`. `stride` is a multiple of
    /// 4 and at least `n`: the blocks `n..n.next_multiple_of(4)` may be
    /// multiplied too (vector backends work four blocks at a time).
    fn vmul_planes(m: usize, v: &mut [u64], l: &[u64], stride: usize, n: usize);
    /// Niederreiter decryption (see `kem::decrypt`): writes `e` (n/8
    /// bytes), returns 0xFF on success and 0 otherwise.
    fn decrypt<P: ParameterSet>(e: &mut [u8], sk: &[u8], c0: &[u8]) -> u8;
    /// Goppa polynomial, step 1 (see `genpoly`): column `c` of the
    /// zeroed matrix `mat` (rows of `genpoly::stride::<P>()` bytes) gets
    /// the coefficients of `f^c` mod F, for `c = 0..=t`.
    fn gp_powers<P: ParameterSet>(f: &[u16], mat: &mut [u8]);
    /// Goppa polynomial, step 2: forward elimination with the reference
    /// pivot rule, pivot rows scaled to 1. Returns 0xFFFF if the matrix
    /// is singular, else 0.
    fn gp_forward<P: ParameterSet>(mat: &mut [u8]) -> u16;
    /// Goppa polynomial, step 3: back substitution on the output of
    /// [`Backend::gp_forward`] (nonsingular), `out[j] = g_j` for `j < t`.
    fn gp_back<P: ParameterSet>(mat: &[u8], out: &mut [u16]);
}

/// Parity of a 64-bit word, branch-free (folding: no popcount instruction
/// needed).
#[inline(always)]
pub(crate) fn parity64(mut x: u64) -> u64 {
    x ^= x >> 32;
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    x ^= x >> 2;
    x ^= x >> 1;
    x & 1
}

/// Maximum error weight t of any parameter set.
pub(crate) const MAX_T: usize = 128;

/// Splits every position `v` into its bit within a 64-bit word (`bit`:
/// `1 << (v mod 64)`) and its word index (`hi`: `v / 64`), without a shift
/// by a secret amount.
#[inline(always)]
pub(crate) fn split_positions(pos: &[u16], bit: &mut [u64; MAX_T], hi: &mut [u64; MAX_T]) {
    for ((b, h), &v) in bit.iter_mut().zip(hi.iter_mut()).zip(pos) {
        let mut x = 1u64;
        for k in 0..6 {
            // CT: opaque mask, or the compiler rebuilds the variable shift.
            let bk = core::hint::black_box(u64::from((v >> k) & 1).wrapping_neg());
            x ^= (x ^ (x << (1 << k))) & bk;
        }
        *b = x;
        *h = u64::from(v >> 6);
    }
}

/// The portable reference backend (64-bit words).
pub(crate) struct Portable;

impl Backend for Portable {
    #[inline(always)]
    fn xor_masked(dst: &mut [u8], src: &[u8], mask: u8) {
        // CT: opaque mask, so the compiler cannot skip the loop when it is 0.
        let m8 = core::hint::black_box(mask);
        let m = u64::from(m8) * 0x0101_0101_0101_0101;
        let len = dst.len().min(src.len());
        let (dst, src) = (&mut dst[..len], &src[..len]);
        let mut d = dst.chunks_exact_mut(8);
        let mut s = src.chunks_exact(8);
        for (x, y) in (&mut d).zip(&mut s) {
            let mut a = [0u8; 8];
            let mut b = [0u8; 8];
            a.copy_from_slice(x);
            b.copy_from_slice(y);
            let v = u64::from_le_bytes(a) ^ (u64::from_le_bytes(b) & m);
            x.copy_from_slice(&v.to_le_bytes());
        }
        for (x, y) in d.into_remainder().iter_mut().zip(s.remainder()) {
            *x ^= y & m8;
        }
    }

    #[inline(always)]
    fn xor_rows_masked(dst: &mut [u8], src: &[u8], stride: usize, masks: &[u8]) {
        let len = dst.len();
        for (b, &mk) in masks.iter().enumerate() {
            Self::xor_masked(dst, &src[b * stride..b * stride + len], mk);
        }
    }

    #[inline(always)]
    fn and_parities(rows: &[u8], rb: usize, v: &[u8], out: &mut [u8]) {
        for (r, row) in rows.chunks_exact(rb).enumerate() {
            let mut acc = 0u64;
            let mut ac = row.chunks_exact(8);
            let mut bc = v[..rb].chunks_exact(8);
            for (x, y) in (&mut ac).zip(&mut bc) {
                let mut p = [0u8; 8];
                let mut q = [0u8; 8];
                p.copy_from_slice(x);
                q.copy_from_slice(y);
                acc ^= u64::from_le_bytes(p) & u64::from_le_bytes(q);
            }
            for (x, y) in ac.remainder().iter().zip(bc.remainder()) {
                acc ^= u64::from(x & y);
            }
            out[r / 8] ^= (parity64(acc) as u8) << (r % 8);
        }
    }

    #[inline(always)]
    fn set_bits(e: &mut [u8], pos: &[u16]) {
        let mut bit = [0u64; MAX_T];
        let mut hi = [0u64; MAX_T];
        split_positions(pos, &mut bit, &mut hi);
        // CT: opaque word indices: the compiler cannot tell that `h ^ j`
        // below is small, so it cannot turn the mask into a compare and a
        // branch.
        let hi = core::hint::black_box(&mut hi);
        let t = pos.len();
        for (j, chunk) in e.chunks_mut(8).enumerate() {
            let mut x = 0u64;
            for (&b, &h) in bit[..t].iter().zip(&hi[..t]) {
                // CT: all-ones iff h == j (h ^ j < 2^32), by the sign of
                // h ^ j - 1.
                let same = (((h ^ j as u64).wrapping_sub(1)) as i64 >> 63) as u64;
                x |= same & b;
            }
            chunk.copy_from_slice(&x.to_le_bytes()[..chunk.len()]);
        }
        zeroize::Zeroize::zeroize(&mut bit);
        zeroize::Zeroize::zeroize(hi);
    }

    #[inline]
    fn sort_u32(buf: &mut [u8]) {
        sort_u32_le(buf);
    }

    #[inline]
    fn sort_u64(buf: &mut [u8]) {
        sort_u64_le(buf);
    }

    #[inline]
    fn byte_planes(bytes: &[u8], planes: &mut [u64], stride: usize, nb: usize) {
        let nw = bytes.len().div_ceil(64);
        for i in 0..nb {
            planes[i * stride..i * stride + nw].fill(0);
        }
        for (g, chunk) in bytes.chunks(8).enumerate() {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            // 8 x 8 bit transpose: byte i of x becomes bit i of every
            // input byte.
            let mut x = u64::from_le_bytes(b);
            zeroize::Zeroize::zeroize(&mut b);
            let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
            x ^= t ^ (t << 7);
            let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
            x ^= t ^ (t << 14);
            let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
            x ^= t ^ (t << 28);
            let (q, s) = (g / 8, 8 * (g % 8));
            for i in 0..nb {
                planes[i * stride + q] |= ((x >> (8 * i)) & 0xFF) << s;
            }
        }
    }

    #[inline]
    fn expand_bits(bits: &[u64], first: usize, out: &mut [u8]) {
        for (i, o) in out.iter_mut().enumerate() {
            let k = first + i;
            let w = bits.get(k / 64).copied().unwrap_or(0);
            *o = (((w >> (k % 64)) & 1) as u8).wrapping_neg();
        }
    }

    #[inline]
    fn vmul_planes(m: usize, v: &mut [u64], l: &[u64], stride: usize, n: usize) {
        for q in 0..n {
            let mut a = [0u64; crate::gf::MAX_M];
            let mut b = [0u64; crate::gf::MAX_M];
            for k in 0..m {
                a[k] = v[k * stride + q];
                b[k] = l[k * stride + q];
            }
            let mut c = crate::gf::vmul(m, &a, &b);
            for k in 0..m {
                v[k * stride + q] = c[k];
            }
            zeroize::Zeroize::zeroize(&mut a);
            zeroize::Zeroize::zeroize(&mut b);
            zeroize::Zeroize::zeroize(&mut c);
        }
    }

    #[inline]
    fn decrypt<P: ParameterSet>(e: &mut [u8], sk: &[u8], c0: &[u8]) -> u8 {
        crate::kem::decrypt::<P>(e, sk, c0)
    }

    #[inline]
    fn gp_powers<P: ParameterSet>(f: &[u16], mat: &mut [u8]) {
        crate::genpoly::powers_portable::<P>(f, mat);
    }

    #[inline]
    fn gp_forward<P: ParameterSet>(mat: &mut [u8]) -> u16 {
        crate::genpoly::forward_portable::<P>(mat)
    }

    #[inline]
    fn gp_back<P: ParameterSet>(mat: &[u8], out: &mut [u16]) {
        crate::genpoly::back_portable::<P>(mat, out);
    }
}

/// Key generation (see `keygen::keygen_derand`) on the best backend.
pub(crate) fn keygen_derand<P: ParameterSet>(delta: &[u8; 32], pk: &mut [u8], sk: &mut [u8]) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if let Some(t) = avx2::Token::get() {
        return avx2::keygen_derand::<P>(t, delta, pk, sk);
    }
    crate::keygen::keygen_derand::<P, Portable>(delta, pk, sk);
}

/// Encapsulation (see `kem::encaps`; `pk` passed `prepare_ek`) on the
/// best backend.
pub(crate) fn encaps<P: ParameterSet, R: pqforge_core::CryptoRng + ?Sized>(
    rng: &mut R,
    pk: &[u8],
    ct: &mut [u8],
    ss: &mut [u8; 32],
) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if let Some(t) = avx2::Token::get() {
        return avx2::encaps::<P, R>(t, rng, pk, ct, ss);
    }
    crate::kem::encaps::<P, R, Portable>(rng, pk, ct, ss);
}

/// Decapsulation (see `kem::decaps_with`) on the best backend.
pub(crate) fn decaps<P: ParameterSet>(sk: &[u8], ct: &[u8], ss: &mut [u8; 32]) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if let Some(t) = avx2::Token::get() {
        return avx2::decaps::<P>(t, sk, ct, ss);
    }
    crate::kem::decaps_with::<P, Portable>(sk, ct, ss);
}

/// Backend names for the differential tests.
#[doc(hidden)]
pub mod testing {
    use crate::ParameterSet;

    /// The backends this build and CPU can run, portable first.
    #[must_use]
    pub fn available() -> &'static [&'static str] {
        #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
        if super::avx2::Token::get().is_some() {
            return &["portable", "avx2"];
        }
        &["portable"]
    }

    /// Key generation on the named backend; `false` if it is not
    /// available here. `pk` and `sk` must have the exact sizes.
    pub fn keygen_derand<P: ParameterSet>(
        backend: &str,
        delta: &[u8; 32],
        pk: &mut [u8],
        sk: &mut [u8],
    ) -> bool {
        if pk.len() != P::PK_BYTES || sk.len() != P::SK_BYTES {
            return false;
        }
        match backend {
            "portable" => {
                crate::keygen::keygen_derand::<P, super::Portable>(delta, pk, sk);
                true
            }
            #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
            "avx2" => match super::avx2::Token::get() {
                Some(t) => {
                    super::avx2::keygen_derand::<P>(t, delta, pk, sk);
                    true
                }
                None => false,
            },
            _ => false,
        }
    }

    /// Encapsulation on the named backend (`None` if unavailable), after
    /// the checks of the contract (lengths, `prepare_ek`).
    ///
    /// # Errors
    /// [`pqforge_core::Error::Length`] for wrong sizes, the public-key check.
    pub fn encaps<P: ParameterSet, R: pqforge_core::CryptoRng + ?Sized>(
        backend: &str,
        rng: &mut R,
        pk: &[u8],
        ct: &mut [u8],
        ss: &mut [u8; 32],
    ) -> Option<Result<(), pqforge_core::Error>> {
        let checks = pqforge_core::kem::prepare_ek::<P>(pk).and(pqforge_core::check_len(
            "ciphertext buffer",
            P::CT_BYTES,
            ct.len(),
        ));
        if let Err(e) = checks {
            return Some(Err(e));
        }
        match backend {
            "portable" => {
                crate::kem::encaps::<P, R, super::Portable>(rng, pk, ct, ss);
                Some(Ok(()))
            }
            #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
            "avx2" => super::avx2::Token::get().map(|t| {
                super::avx2::encaps::<P, R>(t, rng, pk, ct, ss);
                Ok(())
            }),
            _ => None,
        }
    }

    /// Decapsulation on the named backend (`None` if unavailable).
    ///
    /// # Errors
    /// [`pqforge_core::Error::Length`] for wrong sizes.
    pub fn decaps<P: ParameterSet>(
        backend: &str,
        sk: &[u8],
        ct: &[u8],
        ss: &mut [u8; 32],
    ) -> Option<Result<(), pqforge_core::Error>> {
        let lens = pqforge_core::check_len("secret key", P::SK_BYTES, sk.len())
            .and(pqforge_core::check_len("ciphertext", P::CT_BYTES, ct.len()));
        if let Err(e) = lens {
            return Some(Err(e));
        }
        match backend {
            "portable" => {
                crate::kem::decaps_with::<P, super::Portable>(sk, ct, ss);
                Some(Ok(()))
            }
            #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
            "avx2" => super::avx2::Token::get().map(|t| {
                super::avx2::decaps::<P>(t, sk, ct, ss);
                Ok(())
            }),
            _ => None,
        }
    }

    /// Sorts little-endian `u32` words on the named backend (`false` if
    /// unavailable or the word count is not a power of two).
    pub fn sort_u32(backend: &str, buf: &mut [u8]) -> bool {
        sort(backend, buf, 4)
    }

    /// Sorts little-endian `u64` words on the named backend.
    pub fn sort_u64(backend: &str, buf: &mut [u8]) -> bool {
        sort(backend, buf, 8)
    }

    fn sort(backend: &str, buf: &mut [u8], w: usize) -> bool {
        use super::Backend;
        if !buf.len().is_multiple_of(w) || !(buf.len() / w).is_power_of_two() {
            return false;
        }
        match (backend, w) {
            ("portable", 4) => super::Portable::sort_u32(buf),
            ("portable", _) => super::Portable::sort_u64(buf),
            #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
            ("avx2", _) if super::avx2::Token::get().is_some() => {
                super::avx2::sort_checked(buf, w);
            }
            _ => return false,
        }
        true
    }
}
