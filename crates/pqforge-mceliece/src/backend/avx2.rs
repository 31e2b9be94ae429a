//! AVX2 backend (x86_64): masked row operations, bit-vector helpers,
//! bitsliced field products and sorting networks in 256-bit registers.
//!
//! Key generation is instantiated with [`Avx2`] inside a
//! `#[target_feature(enable = "avx2")]` entry point, so the call tree
//! down to the `#[inline(never)]` phases is compiled for AVX2 and the
//! kernels inline there (inside those phases they are calls). The only way in is a
//! [`Token`], which exists only after run-time detection succeeded.
//!
//! Sorting: the bitonic network in its direction-free form (each merge of
//! size k first compares `i` with the mirrored `k - 1 - i`, then runs
//! ascending half-cleaners), which sorts exactly like the portable
//! network's compare-exchanges: both produce the sorted sequence, and
//! sorting is a function of the input. Distances of a whole register and
//! more pair two registers; the smaller ones permute lanes inside one
//! register. Compare-exchange is `min`/`max` (u32) or a 64-bit compare and
//! blend (u64): no branch, no data-dependent address.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm_cvtsi128_si64, _mm_unpackhi_epi64, _mm_xor_si128, _mm256_and_si256,
    _mm256_blend_epi32, _mm256_blendv_epi8, _mm256_castsi256_si128, _mm256_cmpgt_epi64,
    _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_max_epu32, _mm256_min_epu32,
    _mm256_permute4x64_epi64, _mm256_permutevar8x32_epi32, _mm256_set1_epi8, _mm256_set1_epi64x,
    _mm256_setr_epi32, _mm256_setzero_si256, _mm256_shuffle_epi32, _mm256_storeu_si256,
    _mm256_xor_si256,
};

use core::arch::x86_64::{
    _mm_cvtsi32_si128, _mm256_cmpeq_epi8, _mm256_cmpeq_epi64, _mm256_cmpgt_epi8,
    _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi32, _mm256_setr_epi8, _mm256_setr_epi64x,
    _mm256_shuffle_epi8, _mm256_sll_epi16, _mm256_sub_epi64,
};

use super::{Backend, Portable};
use crate::ParameterSet;

/// Proof that the CPU supports AVX2 (obtained only from [`Token::get`]).
#[derive(Clone, Copy)]
pub(crate) struct Token(());

impl Token {
    /// The token, if this CPU (and OS) supports AVX2.
    #[inline]
    pub(crate) fn get() -> Option<Self> {
        pqforge_core::cpu::avx2().then_some(Token(()))
    }
}

/// The AVX2 kernels. Invariant: its methods run only inside the
/// `target_feature(enable = "avx2")` entry points below (reached through a
/// [`Token`]).
pub(crate) struct Avx2;

impl Backend for Avx2 {
    #[inline(always)]
    fn xor_masked(dst: &mut [u8], src: &[u8], mask: u8) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { xor_masked(dst, src, mask) }
    }
    #[inline(always)]
    fn xor_rows_masked(dst: &mut [u8], src: &[u8], stride: usize, masks: &[u8]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { xor_rows_masked(dst, src, stride, masks) }
    }
    #[inline(always)]
    fn and_parities(rows: &[u8], rb: usize, v: &[u8], out: &mut [u8]) {
        // SAFETY: see the invariant of `Avx2`.
        unsafe { and_parities(rows, rb, v, out) }
    }

    #[inline(always)]
    fn set_bits(e: &mut [u8], pos: &[u16]) {
        // SAFETY: see the invariant of `Avx2`.
        unsafe { set_bits(e, pos) }
    }

    #[inline]
    fn sort_u32(buf: &mut [u8]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { sort::<U32x8>(buf) }
    }
    #[inline(always)]
    fn sort_u64(buf: &mut [u8]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { sort::<U64x4>(buf) }
    }
    #[inline(always)]
    fn byte_planes(bytes: &[u8], planes: &mut [u64], stride: usize, nb: usize) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { byte_planes(bytes, planes, stride, nb) }
    }
    #[inline(always)]
    fn expand_bits(bits: &[u64], first: usize, out: &mut [u8]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { expand_bits(bits, first, out) }
    }
    #[inline(always)]
    fn vmul_planes(m: usize, v: &mut [u64], l: &[u64], stride: usize, n: usize) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe {
            if m == 12 {
                vmul_planes::<12>(v, l, stride, n);
            } else {
                vmul_planes::<13>(v, l, stride, n);
            }
        }
    }
    #[inline(always)]
    fn decrypt<P: ParameterSet>(e: &mut [u8], sk: &[u8], c0: &[u8]) -> u8 {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { super::avx2_dec::decrypt::<P>(e, sk, c0) }
    }
    #[inline(always)]
    fn gp_powers<P: ParameterSet>(f: &[u16], mat: &mut [u8]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { super::avx2_gp::powers::<P>(f, mat) }
    }
    #[inline(always)]
    fn gp_forward<P: ParameterSet>(mat: &mut [u8]) -> u16 {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { super::avx2_gp::forward::<P>(mat) }
    }
    #[inline(always)]
    fn gp_back<P: ParameterSet>(mat: &[u8], out: &mut [u16]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { super::avx2_gp::back::<P>(mat, out) }
    }
}

/// Key generation on AVX2.
pub(crate) fn keygen_derand<P: ParameterSet>(
    _t: Token,
    delta: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
) {
    // SAFETY: the token proves AVX2 support.
    unsafe { keygen_avx2::<P>(delta, pk, sk) }
}

#[target_feature(enable = "avx2")]
fn keygen_avx2<P: ParameterSet>(delta: &[u8; 32], pk: &mut [u8], sk: &mut [u8]) {
    crate::keygen::keygen_derand::<P, Avx2>(delta, pk, sk);
}

/// Encapsulation on AVX2.
pub(crate) fn encaps<P: ParameterSet, R: pqforge_core::CryptoRng + ?Sized>(
    _t: Token,
    rng: &mut R,
    pk: &[u8],
    ct: &mut [u8],
    ss: &mut [u8; 32],
) {
    // SAFETY: the token proves AVX2 support.
    unsafe { encaps_avx2::<P, R>(rng, pk, ct, ss) }
}

#[target_feature(enable = "avx2")]
fn encaps_avx2<P: ParameterSet, R: pqforge_core::CryptoRng + ?Sized>(
    rng: &mut R,
    pk: &[u8],
    ct: &mut [u8],
    ss: &mut [u8; 32],
) {
    crate::kem::encaps::<P, R, Avx2>(rng, pk, ct, ss);
}

/// Decapsulation on AVX2 (the FFT decoder of `avx2_dec`; hashing and
/// the constant-time selection are `kem::decaps_with`).
pub(crate) fn decaps<P: ParameterSet>(_t: Token, sk: &[u8], ct: &[u8], ss: &mut [u8; 32]) {
    // SAFETY: the token proves AVX2 support.
    unsafe { decaps_avx2::<P>(sk, ct, ss) }
}

#[target_feature(enable = "avx2")]
fn decaps_avx2<P: ParameterSet>(sk: &[u8], ct: &[u8], ss: &mut [u8; 32]) {
    crate::kem::decaps_with::<P, Avx2>(sk, ct, ss);
}

/// Sorts `w`-byte words (4 or 8) on AVX2 (tests; the caller checked AVX2
/// support and the power-of-two length).
pub(crate) fn sort_checked(buf: &mut [u8], w: usize) {
    if Token::get().is_none() {
        return;
    }
    // SAFETY: AVX2 support was checked above.
    unsafe {
        if w == 4 {
            sort::<U32x8>(buf);
        } else {
            sort::<U64x4>(buf);
        }
    }
}

/// Unaligned load of the 32 bytes at `off`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn ld(buf: &[u8], off: usize) -> __m256i {
    let s = &buf[off..off + 32];
    // SAFETY: `s` has 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

/// Unaligned store of 32 bytes at `off`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn st(buf: &mut [u8], off: usize, v: __m256i) {
    let s = &mut buf[off..off + 32];
    // SAFETY: `s` has 32 writable bytes; unaligned store.
    unsafe { _mm256_storeu_si256(s.as_mut_ptr().cast(), v) }
}

/// `a ^ b`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn xor(a: __m256i, b: __m256i) -> __m256i {
    _mm256_xor_si256(a, b)
}

/// `a & b`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn and(a: __m256i, b: __m256i) -> __m256i {
    _mm256_and_si256(a, b)
}

/// Overwrites registers spilled to the stack with zeros (secret scratch).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn wipe256(v: &mut [__m256i]) {
    for x in v.iter_mut() {
        // SAFETY: `x` is a valid, aligned `__m256i`; the volatile write
        // keeps the compiler from dropping the wipe.
        unsafe { core::ptr::write_volatile(x, _mm256_setzero_si256()) };
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn xor_masked(dst: &mut [u8], src: &[u8], mask: u8) {
    let len = dst.len().min(src.len());
    // CT: opaque mask, so the compiler cannot skip the loop when it is 0.
    let mask = core::hint::black_box(mask);
    let m = _mm256_set1_epi8(mask as i8);
    let mut i = 0;
    while i + 32 <= len {
        let v = _mm256_xor_si256(ld(dst, i), _mm256_and_si256(ld(src, i), m));
        st(dst, i, v);
        i += 32;
    }
    Portable::xor_masked(&mut dst[i..len], &src[i..len], mask);
}

/// `Q` registers of [`xor_rows_masked`] from byte `j` on, kept in
/// registers across all the sources (one bounds check per source row).
#[inline]
#[target_feature(enable = "avx2")]
fn rows_masked_run<const Q: usize>(
    dst: &mut [u8],
    src: &[u8],
    stride: usize,
    masks: &[u8],
    j: usize,
) {
    let d = &mut dst[j..j + 32 * Q];
    // SAFETY: `d` has 32 * Q bytes; unaligned loads.
    let mut a: [__m256i; Q] =
        core::array::from_fn(|q| unsafe { _mm256_loadu_si256(d.as_ptr().add(32 * q).cast()) });
    for (b, &mk) in masks.iter().enumerate() {
        let m = _mm256_set1_epi8(mk as i8);
        let o = b * stride + j;
        let s = &src[o..o + 32 * Q];
        for (q, x) in a.iter_mut().enumerate() {
            // SAFETY: `s` has 32 * Q bytes; unaligned load.
            let v = unsafe { _mm256_loadu_si256(s.as_ptr().add(32 * q).cast()) };
            *x = _mm256_xor_si256(*x, _mm256_and_si256(v, m));
        }
    }
    for (q, x) in a.iter().enumerate() {
        // SAFETY: `d` has 32 * Q bytes; unaligned store.
        unsafe { _mm256_storeu_si256(d.as_mut_ptr().add(32 * q).cast(), *x) };
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn xor_rows_masked(dst: &mut [u8], src: &[u8], stride: usize, masks: &[u8]) {
    let len = dst.len();
    // The whole 32-byte chunks in as few runs of at most twelve registers
    // as possible, of balanced sizes (13 chunks: 7 + 6, not 12 + 1): every
    // run reads each source row once, so fewer runs mean fewer passes
    // over the sources.
    let mut left = len / 32;
    let mut runs = left.div_ceil(12);
    let mut j = 0;
    while left > 0 {
        let q = left.div_ceil(runs);
        match q {
            1 => rows_masked_run::<1>(dst, src, stride, masks, j),
            2 => rows_masked_run::<2>(dst, src, stride, masks, j),
            3 => rows_masked_run::<3>(dst, src, stride, masks, j),
            4 => rows_masked_run::<4>(dst, src, stride, masks, j),
            5 => rows_masked_run::<5>(dst, src, stride, masks, j),
            6 => rows_masked_run::<6>(dst, src, stride, masks, j),
            7 => rows_masked_run::<7>(dst, src, stride, masks, j),
            8 => rows_masked_run::<8>(dst, src, stride, masks, j),
            9 => rows_masked_run::<9>(dst, src, stride, masks, j),
            10 => rows_masked_run::<10>(dst, src, stride, masks, j),
            11 => rows_masked_run::<11>(dst, src, stride, masks, j),
            _ => rows_masked_run::<12>(dst, src, stride, masks, j),
        }
        j += 32 * q;
        left -= q;
        runs -= 1;
    }
    if j < len && len >= 32 {
        // The last partial chunk: one vector over the last 32 bytes, the
        // bytes before `j` (already done) masked out of every source.
        let e = len - 32;
        let keep = _mm256_cmpgt_epi8(
            _mm256_setr_epi8(
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31,
            ),
            _mm256_set1_epi8((j - e) as i8 - 1),
        );
        let mut a = ld(dst, e);
        for (b, &mk) in masks.iter().enumerate() {
            let m = _mm256_and_si256(_mm256_set1_epi8(mk as i8), keep);
            a = _mm256_xor_si256(a, _mm256_and_si256(ld(src, b * stride + e), m));
        }
        st(dst, e, a);
    } else if j < len {
        for (b, &mk) in masks.iter().enumerate() {
            Portable::xor_masked(&mut dst[j..], &src[b * stride + j..b * stride + len], mk);
        }
    }
}

/// [`Backend::byte_planes`]: 32 bytes per register, one `vpmovmskb`
/// per plane after moving bit `i` of every byte to its top bit.
#[inline]
#[target_feature(enable = "avx2")]
fn byte_planes(bytes: &[u8], planes: &mut [u64], stride: usize, nb: usize) {
    let nw = bytes.len().div_ceil(64);
    for i in 0..nb {
        planes[i * stride..i * stride + nw].fill(0);
    }
    for (g, chunk) in bytes.chunks(32).enumerate() {
        let mut b = [0u8; 32];
        b[..chunk.len()].copy_from_slice(chunk);
        let v = ld(&b, 0);
        b.fill(0);
        let (q, s) = (g / 2, 32 * (g % 2));
        for i in 0..nb {
            // 16-bit lanes shifted left by 7 - i: bit i of both bytes
            // lands on the byte's top bit.
            let top = _mm256_sll_epi16(v, _mm_cvtsi32_si128(7 - i as i32));
            let bitsv = _mm256_movemask_epi8(top) as u32;
            planes[i * stride + q] |= u64::from(bitsv) << s;
        }
    }
}

/// [`Backend::expand_bits`]: 32 masks per register (the 32 bits
/// broadcast, byte `i` picks the byte holding its bit, then one compare).
#[inline]
#[target_feature(enable = "avx2")]
fn expand_bits(bits: &[u64], first: usize, out: &mut [u8]) {
    let word = |k: usize| bits.get(k).copied().unwrap_or(0);
    let spread = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3,
        3, 3,
    );
    let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
    for (g, chunk) in out.chunks_mut(32).enumerate() {
        let k = first + 32 * g;
        let (q, r) = (k / 64, k % 64);
        let w = if r == 0 {
            word(q)
        } else {
            (word(q) >> r) | (word(q + 1) << (64 - r))
        };
        let v = _mm256_shuffle_epi8(_mm256_set1_epi32(w as u32 as i32), spread);
        let m = _mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit);
        let mut b = [0u8; 32];
        st(&mut b, 0, m);
        chunk.copy_from_slice(&b[..chunk.len()]);
        zeroize::Zeroize::zeroize(&mut b);
    }
}

/// [`Backend::vmul_planes`] for `m = M`: four blocks per register
/// (schoolbook bitsliced product, then the field reduction).
#[inline]
#[target_feature(enable = "avx2")]
fn vmul_planes<const M: usize>(v: &mut [u64], l: &[u64], stride: usize, n: usize) {
    let ld4 = |s: &[u64], o: usize| {
        let s = &s[o..o + 4];
        // SAFETY: `s` has four words; unaligned load.
        unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
    };
    let mut q = 0;
    let mut a = [_mm256_setzero_si256(); M];
    let mut b = [_mm256_setzero_si256(); M];
    let mut t = [_mm256_setzero_si256(); 25];
    while q < n {
        for k in 0..M {
            a[k] = ld4(v, k * stride + q);
            b[k] = ld4(l, k * stride + q);
        }
        t = [_mm256_setzero_si256(); 25];
        for i in 0..M {
            for j in 0..M {
                t[i + j] = _mm256_xor_si256(t[i + j], _mm256_and_si256(a[i], b[j]));
            }
        }
        for i in (M..2 * M - 1).rev() {
            for &e in crate::gf::low_terms(M) {
                t[i - M + e] = _mm256_xor_si256(t[i - M + e], t[i]);
            }
        }
        for (k, x) in t[..M].iter().enumerate() {
            let d = &mut v[k * stride + q..k * stride + q + 4];
            // SAFETY: `d` has four words; unaligned store.
            unsafe { _mm256_storeu_si256(d.as_mut_ptr().cast(), *x) };
        }
        q += 4;
    }
    // The spilled products hold powers of the secret support.
    wipe256(&mut a);
    wipe256(&mut b);
    wipe256(&mut t);
}

/// XOR of the four 64-bit lanes of `x`.
#[inline]
#[target_feature(enable = "avx2")]
fn fold64(x: __m256i) -> u64 {
    let h = _mm_xor_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x));
    let h = _mm_xor_si128(h, _mm_unpackhi_epi64(h, h));
    _mm_cvtsi128_si64(h) as u64
}

/// [`Backend::and_parities`]: four rows at a time, so every 32-byte chunk
/// of `v` is loaded once per four rows. A row's last chunk is read as a
/// full vector (the bytes past the row meet the zeros of `v`) unless that
/// would run past `rows`; that happens only for the last row or two,
/// which take the portable path. Everything here is public-length control
/// flow.
#[inline]
#[target_feature(enable = "avx2")]
fn and_parities(rows: &[u8], rb: usize, v: &[u8], out: &mut [u8]) {
    let nr = rows.len() / rb;
    let nv = rb.div_ceil(32);
    // Rows whose vector reads stay inside `rows`.
    let mut fast = nr;
    while fast > 0 && (fast - 1) * rb + 32 * nv > rows.len() {
        fast -= 1;
    }
    let mut r = 0;
    while r + 4 <= fast {
        let base = r * rb;
        let mut acc = [_mm256_setzero_si256(); 4];
        for k in 0..nv {
            let e = ld(v, 32 * k);
            for (i, a) in acc.iter_mut().enumerate() {
                *a = _mm256_xor_si256(*a, _mm256_and_si256(ld(rows, base + i * rb + 32 * k), e));
            }
        }
        for (i, a) in acc.iter().enumerate() {
            let p = super::parity64(fold64(*a)) as u8;
            out[(r + i) / 8] ^= p << ((r + i) % 8);
        }
        r += 4;
    }
    while r < fast {
        let base = r * rb;
        let mut acc = _mm256_setzero_si256();
        for k in 0..nv {
            acc = _mm256_xor_si256(
                acc,
                _mm256_and_si256(ld(rows, base + 32 * k), ld(v, 32 * k)),
            );
        }
        out[r / 8] ^= (super::parity64(fold64(acc)) as u8) << (r % 8);
        r += 1;
    }
    if r < nr {
        // The remaining rows, through the portable kernel on a shifted
        // output: flip the bits into a zeroed byte buffer, then merge.
        let mut tmp = [0u8; 8];
        let k = nr - r;
        Portable::and_parities(&rows[r * rb..], rb, v, &mut tmp[..k.div_ceil(8)]);
        for i in 0..k {
            out[(r + i) / 8] ^= ((tmp[i / 8] >> (i % 8)) & 1) << ((r + i) % 8);
        }
    }
}

/// [`Backend::set_bits`]: 32 words of `e` at a time in eight registers;
/// every position is compared with every word index (`cmpeq`, no branch,
/// no secret address) and its bit ORed in where they match.
#[inline]
#[target_feature(enable = "avx2")]
fn set_bits(e: &mut [u8], pos: &[u16]) {
    let mut bit = [0u64; super::MAX_T];
    let mut hi = [0u64; super::MAX_T];
    super::split_positions(pos, &mut bit, &mut hi);
    let t = pos.len();
    let nw = e.len().div_ceil(8);
    let mut j0 = 0;
    while j0 < nw {
        let mut acc = [_mm256_setzero_si256(); 8];
        let base = _mm256_setr_epi64x(j0 as i64, j0 as i64 + 1, j0 as i64 + 2, j0 as i64 + 3);
        for (&b, &h) in bit[..t].iter().zip(&hi[..t]) {
            let hb = _mm256_set1_epi64x(h as i64);
            let bb = _mm256_set1_epi64x(b as i64);
            // Lane l of register k compares h with j0 + 4k + l.
            let d = _mm256_sub_epi64(hb, base);
            for (k, a) in acc.iter_mut().enumerate() {
                let same = _mm256_cmpeq_epi64(d, _mm256_set1_epi64x(4 * k as i64));
                *a = _mm256_or_si256(*a, _mm256_and_si256(same, bb));
            }
        }
        let mut words = [0u8; 256];
        for (k, a) in acc.iter().enumerate() {
            st(&mut words, 32 * k, *a);
        }
        let lo = 8 * j0;
        let hi_b = e.len().min(lo + 256);
        e[lo..hi_b].copy_from_slice(&words[..hi_b - lo]);
        zeroize::Zeroize::zeroize(&mut words);
        j0 += 32;
    }
    zeroize::Zeroize::zeroize(&mut bit);
    zeroize::Zeroize::zeroize(&mut hi);
}

/// One register of sort keys and the compare-exchange network pieces
/// that stay inside it.
trait Lanes {
    /// Words per register.
    const L: usize;
    /// Bytes per word.
    const W: usize;
    /// Lane-wise `(min, max)`.
    fn minmax(a: __m256i, b: __m256i) -> (__m256i, __m256i);
    /// Lanes in reverse order.
    fn rev(v: __m256i) -> __m256i;
    /// Sorts the register ascending (merges of size 2..=L).
    fn sort_in(v: __m256i) -> __m256i;
    /// Half-cleaners of distance L/2, ..., 1 inside the register.
    fn clean_in(v: __m256i) -> __m256i;
}

struct U32x8;

/// Compare-exchange of lane `l` with lane `l ^ d` (or the mirrored lane),
/// `t` holding the partner lanes, `$hi` the blend mask of the upper lanes.
macro_rules! cx_in {
    ($ty:ty, $v:expr, $t:expr, $hi:literal) => {{
        let (mn, mx) = <$ty>::minmax($v, $t);
        _mm256_blend_epi32::<$hi>(mn, mx)
    }};
}

impl Lanes for U32x8 {
    const L: usize = 8;
    const W: usize = 4;
    #[inline(always)]
    fn minmax(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
        // SAFETY: only reached from AVX2 code (invariant on `Avx2`).
        unsafe { (mm_u32(a, b, true), mm_u32(a, b, false)) }
    }
    #[inline(always)]
    fn rev(v: __m256i) -> __m256i {
        // SAFETY: as above.
        unsafe { rev_u32(v) }
    }
    #[inline(always)]
    fn sort_in(v: __m256i) -> __m256i {
        // SAFETY: as above.
        unsafe { sort_in_u32(v) }
    }
    #[inline(always)]
    fn clean_in(v: __m256i) -> __m256i {
        // SAFETY: as above.
        unsafe { clean_in_u32(v) }
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn mm_u32(a: __m256i, b: __m256i, min: bool) -> __m256i {
    if min {
        _mm256_min_epu32(a, b)
    } else {
        _mm256_max_epu32(a, b)
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn rev_u32(v: __m256i) -> __m256i {
    _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0))
}

#[inline]
#[target_feature(enable = "avx2")]
fn clean_in_u32(v: __m256i) -> __m256i {
    let v = cx_in!(U32x8, v, _mm256_permute4x64_epi64::<0x4E>(v), 0xF0); // d = 4
    let v = cx_in!(U32x8, v, _mm256_shuffle_epi32::<0x4E>(v), 0xCC); // d = 2
    cx_in!(U32x8, v, _mm256_shuffle_epi32::<0xB1>(v), 0xAA) // d = 1
}

#[inline]
#[target_feature(enable = "avx2")]
fn sort_in_u32(v: __m256i) -> __m256i {
    let v = cx_in!(U32x8, v, _mm256_shuffle_epi32::<0xB1>(v), 0xAA); // k = 2
    let v = cx_in!(U32x8, v, _mm256_shuffle_epi32::<0x1B>(v), 0xCC); // k = 4: mirror
    let v = cx_in!(U32x8, v, _mm256_shuffle_epi32::<0xB1>(v), 0xAA);
    let v = cx_in!(U32x8, v, rev_u32(v), 0xF0); // k = 8: mirror
    let v = cx_in!(U32x8, v, _mm256_shuffle_epi32::<0x4E>(v), 0xCC);
    cx_in!(U32x8, v, _mm256_shuffle_epi32::<0xB1>(v), 0xAA)
}

struct U64x4;

impl Lanes for U64x4 {
    const L: usize = 4;
    const W: usize = 8;
    #[inline(always)]
    fn minmax(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
        // SAFETY: only reached from AVX2 code (invariant on `Avx2`).
        unsafe { mm_u64(a, b) }
    }
    #[inline(always)]
    fn rev(v: __m256i) -> __m256i {
        // SAFETY: as above.
        unsafe { rev_u64(v) }
    }
    #[inline(always)]
    fn sort_in(v: __m256i) -> __m256i {
        // SAFETY: as above.
        unsafe { sort_in_u64(v) }
    }
    #[inline(always)]
    fn clean_in(v: __m256i) -> __m256i {
        // SAFETY: as above.
        unsafe { clean_in_u64(v) }
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn mm_u64(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    // Unsigned compare as a signed one on words with the top bit flipped.
    let s = _mm256_set1_epi64x(i64::MIN);
    let gt = _mm256_cmpgt_epi64(_mm256_xor_si256(a, s), _mm256_xor_si256(b, s));
    (_mm256_blendv_epi8(a, b, gt), _mm256_blendv_epi8(b, a, gt))
}

#[inline]
#[target_feature(enable = "avx2")]
fn rev_u64(v: __m256i) -> __m256i {
    _mm256_permute4x64_epi64::<0x1B>(v)
}

#[inline]
#[target_feature(enable = "avx2")]
fn clean_in_u64(v: __m256i) -> __m256i {
    let v = cx_in!(U64x4, v, _mm256_permute4x64_epi64::<0x4E>(v), 0xF0); // d = 2
    cx_in!(U64x4, v, _mm256_permute4x64_epi64::<0xB1>(v), 0xCC) // d = 1
}

#[inline]
#[target_feature(enable = "avx2")]
fn sort_in_u64(v: __m256i) -> __m256i {
    let v = cx_in!(U64x4, v, _mm256_permute4x64_epi64::<0xB1>(v), 0xCC); // k = 2
    let v = cx_in!(U64x4, v, rev_u64(v), 0xF0); // k = 4: mirror
    cx_in!(U64x4, v, _mm256_permute4x64_epi64::<0xB1>(v), 0xCC)
}

/// Sorts the little-endian words of `buf` ascending (power-of-two count).
#[inline]
#[target_feature(enable = "avx2")]
fn sort<V: Lanes>(buf: &mut [u8]) {
    let (l, w) = (V::L, V::W);
    let n = buf.len() / w;
    debug_assert!(n.is_power_of_two() && buf.len() == n * w);
    if n < 2 * l {
        if w == 4 {
            Portable::sort_u32(buf);
        } else {
            Portable::sort_u64(buf);
        }
        return;
    }
    let rb = 32; // bytes per register
    for off in (0..n * w).step_by(rb) {
        st(buf, off, V::sort_in(ld(buf, off)));
    }
    let mut k = 2 * l;
    while k <= n {
        // Merge: mirror stage, then half-cleaners down to one register.
        for blk in (0..n).step_by(k) {
            for i in (0..k / 2).step_by(l) {
                let (a, b) = ((blk + i) * w, (blk + k - l - i) * w);
                let (mn, mx) = V::minmax(ld(buf, a), V::rev(ld(buf, b)));
                st(buf, a, mn);
                st(buf, b, V::rev(mx));
            }
        }
        let mut j = k / 4;
        while j >= l {
            for blk in (0..n).step_by(2 * j) {
                for i in (0..j).step_by(l) {
                    let (a, b) = ((blk + i) * w, (blk + i + j) * w);
                    let (mn, mx) = V::minmax(ld(buf, a), ld(buf, b));
                    st(buf, a, mn);
                    st(buf, b, mx);
                }
            }
            j /= 2;
        }
        for off in (0..n * w).step_by(rb) {
            st(buf, off, V::clean_in(ld(buf, off)));
        }
        k *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::{Backend, Portable, Token};

    /// The bit-vector kernels of the elimination, AVX2 against portable,
    /// on lengths and offsets that are not multiples of the vector width.
    #[test]
    fn bit_kernels_match_portable() {
        if Token::get().is_none() {
            return;
        }
        let mut rng = pqforge_core::testing::TestRng::new(0x5EED);
        let mut next = || rng.next_u64();
        for len in [1usize, 7, 8, 31, 32, 33, 64, 65, 200, 1547, 1664] {
            let bytes: std::vec::Vec<u8> = (0..len).map(|_| next() as u8).collect();
            for nb in [1usize, 5, 8] {
                let mut p = std::vec![!0u64; 8 * 27];
                let mut a = p.clone();
                Portable::byte_planes(&bytes, &mut p, 27, nb);
                // SAFETY: AVX2 support was checked.
                unsafe { super::byte_planes(&bytes, &mut a, 27, nb) };
                assert_eq!(p, a, "byte_planes len {len} nb {nb}");
            }
            let bits: std::vec::Vec<u64> = (0..len.div_ceil(64)).map(|_| next()).collect();
            for first in [0usize, 1, 7, 63, 64, 65] {
                let n = len.saturating_sub(first).max(1);
                let mut p = std::vec![0x11u8; n];
                let mut a = std::vec![0x22u8; n];
                Portable::expand_bits(&bits, first, &mut p);
                // SAFETY: AVX2 support was checked.
                unsafe { super::expand_bits(&bits, first, &mut a) };
                assert_eq!(p, a, "expand_bits len {len} first {first}");
            }
        }
        // Bitsliced products of column blocks, m = 12 and 13, block counts
        // not multiples of 4.
        for m in [12usize, 13] {
            for n in [1usize, 3, 4, 27, 77] {
                let stride = n.next_multiple_of(4);
                let l: std::vec::Vec<u64> = (0..m * stride).map(|_| next()).collect();
                let v0: std::vec::Vec<u64> = (0..m * stride).map(|_| next()).collect();
                let mut p = v0.clone();
                let mut a = v0.clone();
                Portable::vmul_planes(m, &mut p, &l, stride, n);
                // SAFETY: AVX2 support was checked.
                unsafe {
                    if m == 12 {
                        super::vmul_planes::<12>(&mut a, &l, stride, n);
                    } else {
                        super::vmul_planes::<13>(&mut a, &l, stride, n);
                    }
                }
                for b in 0..m {
                    let r = b * stride..b * stride + n;
                    assert_eq!(p[r.clone()], a[r], "vmul_planes m {m} n {n}");
                }
            }
        }
        // Masked row sums with a partial last chunk (the overlapping
        // vector) and with balanced runs.
        for len in [5usize, 32, 45, 194, 208, 224, 416, 483, 608] {
            let stride = len + 40;
            for ns in [1usize, 3, 13] {
                let src: std::vec::Vec<u8> = (0..ns * stride).map(|_| next() as u8).collect();
                let masks: std::vec::Vec<u8> = (0..ns).map(|_| (next() & 1) as u8 * 0xFF).collect();
                let dst0: std::vec::Vec<u8> = (0..len).map(|_| next() as u8).collect();
                let mut p = dst0.clone();
                let mut a = dst0.clone();
                Portable::xor_rows_masked(&mut p, &src, stride, &masks);
                // SAFETY: AVX2 support was checked.
                unsafe { super::xor_rows_masked(&mut a, &src, stride, &masks) };
                assert_eq!(p, a, "xor_rows_masked len {len} sources {ns}");
            }
        }
    }
}
