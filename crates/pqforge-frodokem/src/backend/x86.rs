//! The x86_64 backends: `Aesni` (AES-NI for the AES rows of A, everything
//! else portable), `Avx2` (AES-NI, paired four-lane Keccak for the SHAKE rows,
//! and the matrix products of `matrix` compiled for AVX2, where they
//! vectorise on 16 lanes of 16 bits: `vpmullw` / `vpaddw` on YMM) and
//! `Avx2Vaes` (the same with VAES: two AES blocks per instruction).
//!
//! Safety: the backend types are private to this module, and the only
//! generic code instantiated with them is reached through `run_aesni` /
//! `run_avx2`, which take the `pqforge_core::cpu` tokens by value. Every
//! `unsafe` call of a `#[target_feature]` function in the impls therefore
//! runs on a CPU with those features.
//!
//! Constant time: AES rounds in AES-NI are data-independent; the products
//! are multiplications and additions on vectors; nothing branches on or
//! indexes memory with secret data.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m128i, __m256i, _mm_aesenc_si128, _mm_aesenclast_si128, _mm_cvtsi32_si128, _mm_loadu_si128,
    _mm_storeu_si128, _mm_xor_si128, _mm256_aesenc_epi128, _mm256_aesenclast_epi128,
    _mm256_broadcastsi128_si256, _mm256_setr_epi32, _mm256_setzero_si256, _mm256_storeu_si256,
    _mm256_xor_si256,
};

use pqforge_core::cpu::{Aesni, Avx2, Avx2Vaes};
use pqforge_core::keccak_x4::Shake128x4;

use super::Operation;
use crate::aes::AesKey;
use crate::kem::Backend;
use crate::matrix;
use crate::params::{ParameterSet, SEED_A_BYTES};

/// AES-NI, portable products.
struct AesniBackend;

/// AVX2 products, AES-NI, four-lane Keccak.
struct Avx2Backend;

/// Runs `op` on the AES-NI backend.
pub(super) fn run_aesni<O: Operation>(_token: Aesni, op: O) -> O::Output {
    // SAFETY: the token proves AES-NI and SSE2.
    unsafe { run_aesni_features(op) }
}

#[target_feature(enable = "aes,sse2")]
fn run_aesni_features<O: Operation>(op: O) -> O::Output {
    op.run::<AesniBackend>()
}

/// Runs `op` on the AVX2 backend.
pub(super) fn run_avx2<O: Operation>(_avx2: Avx2, _aes: Aesni, op: O) -> O::Output {
    // SAFETY: the tokens prove AVX2, AES-NI and SSE2.
    unsafe { run_avx2_features(op) }
}

#[target_feature(enable = "avx2,aes,sse2")]
fn run_avx2_features<O: Operation>(op: O) -> O::Output {
    op.run::<Avx2Backend>()
}

/// AVX2 products, VAES, four-lane Keccak.
struct Avx2VaesBackend;

/// Runs `op` on the AVX2 + VAES backend.
pub(super) fn run_avx2_vaes<O: Operation>(_token: Avx2Vaes, op: O) -> O::Output {
    // SAFETY: the token proves AVX2, AES-NI and VAES.
    unsafe { run_avx2_vaes_features(op) }
}

#[target_feature(enable = "avx2,aes,vaes")]
fn run_avx2_vaes_features<O: Operation>(op: O) -> O::Output {
    op.run::<Avx2VaesBackend>()
}

impl Backend for Avx2VaesBackend {
    const NAME: &'static str = "avx2-vaes";
    const ROWS: usize = 8;
    type RowBuf<P: ParameterSet> = P::Rows8;

    fn rows_aes<P: ParameterSet>(key: &AesKey, r0: usize, out: &mut [u16]) {
        // SAFETY: this backend is reached only with the Avx2Vaes token.
        unsafe { rows_vaes::<P>(key, r0, out) }
    }

    fn rows_shake<P: ParameterSet>(seed: &[u8; SEED_A_BYTES], r0: usize, out: &mut [u16]) {
        rows_shake_x4::<P>(seed, r0, out);
    }

    fn mul_as<P: ParameterSet>(a: &[u16], st: &[u16], out: &mut [u16; 32]) {
        // SAFETY: this backend is reached only with the Avx2Vaes token.
        unsafe { mul_as_avx2::<P>(a, st, out) }
    }

    fn mul_sa<P: ParameterSet>(a: &[u16], s: &[u16], r0: usize, acc: &mut [u16]) {
        // SAFETY: this backend is reached only with the Avx2Vaes token.
        unsafe { mul_sa_avx2::<P>(a, s, r0, acc) }
    }
}

impl Backend for AesniBackend {
    const NAME: &'static str = "aesni";
    const ROWS: usize = 4;
    type RowBuf<P: ParameterSet> = P::Rows;

    fn rows_aes<P: ParameterSet>(key: &AesKey, r0: usize, out: &mut [u16]) {
        // SAFETY: this backend is reached only with the Aesni token.
        unsafe { rows_aesni::<P>(key, r0, out) }
    }
}

impl Backend for Avx2Backend {
    const NAME: &'static str = "avx2";
    const ROWS: usize = 8;
    type RowBuf<P: ParameterSet> = P::Rows8;

    fn rows_aes<P: ParameterSet>(key: &AesKey, r0: usize, out: &mut [u16]) {
        // SAFETY: this backend is reached only with the Aesni token.
        unsafe { rows_aesni::<P>(key, r0, out) }
    }

    fn rows_shake<P: ParameterSet>(seed: &[u8; SEED_A_BYTES], r0: usize, out: &mut [u16]) {
        rows_shake_x4::<P>(seed, r0, out);
    }

    fn mul_as<P: ParameterSet>(a: &[u16], st: &[u16], out: &mut [u16; 32]) {
        // SAFETY: this backend is reached only with the Avx2 token.
        unsafe { mul_as_avx2::<P>(a, st, out) }
    }

    fn mul_sa<P: ParameterSet>(a: &[u16], s: &[u16], r0: usize, acc: &mut [u16]) {
        // SAFETY: this backend is reached only with the Avx2 token.
        unsafe { mul_sa_avx2::<P>(a, s, r0, acc) }
    }
}

#[target_feature(enable = "avx2")]
fn mul_as_avx2<P: ParameterSet>(a: &[u16], st: &[u16], out: &mut [u16; 32]) {
    matrix::mul_as::<P>(a, st, out);
}

#[target_feature(enable = "avx2")]
fn mul_sa_avx2<P: ParameterSet>(a: &[u16], s: &[u16], r0: usize, acc: &mut [u16]) {
    matrix::mul_sa::<P>(a, s, r0, acc);
}

/// Rows r0.. of A with AES-NI, eight blocks in flight.
#[target_feature(enable = "aes,sse2")]
fn rows_aesni<P: ParameterSet>(key: &AesKey, r0: usize, out: &mut [u16]) {
    let n = P::N;
    let mut rk = [_mm_cvtsi32_si128(0); 11];
    for (r, k) in rk.iter_mut().zip(&key.bytes) {
        // SAFETY: k is 16 bytes; unaligned load.
        *r = unsafe { _mm_loadu_si128(k.as_ptr().cast()) };
    }
    let (mut row, mut col) = (r0, 0usize);
    for chunk in out.chunks_exact_mut(64) {
        let mut b = [_mm_cvtsi32_si128(0); 8];
        for x in &mut b {
            // Block (row, col, 0, ...) as 16-bit little-endian words.
            *x = _mm_xor_si128(_mm_cvtsi32_si128((row | (col << 16)) as i32), rk[0]);
            col += 8;
            if col == n {
                col = 0;
                row += 1;
            }
        }
        for k in &rk[1..10] {
            for x in &mut b {
                *x = _mm_aesenc_si128(*x, *k);
            }
        }
        for (x, o) in b.iter().zip(chunk.chunks_exact_mut(8)) {
            let y = _mm_aesenclast_si128(*x, rk[10]);
            #[allow(clippy::cast_ptr_alignment)] // an unaligned store
            // SAFETY: o is 8 words (16 bytes); unaligned store; x86 is
            // little-endian, so the bytes land as little-endian words.
            unsafe {
                _mm_storeu_si128(o.as_mut_ptr().cast::<__m128i>(), y);
            }
        }
    }
}

/// `K` YMM registers (2·K blocks, 16·K entries) of A's rows with VAES,
/// starting at block (row, col); returns the next (row, col).
#[target_feature(enable = "avx2,aes,vaes")]
#[inline]
fn vaes_group<const K: usize>(
    rk: &[__m256i; 11],
    n: usize,
    (mut row, mut col): (usize, usize),
    out: &mut [u16],
) -> (usize, usize) {
    let mut b = [_mm256_setzero_si256(); K];
    for x in &mut b {
        let mut w = [0i32; 2];
        for v in &mut w {
            *v = (row | (col << 16)) as i32;
            col += 8;
            if col == n {
                col = 0;
                row += 1;
            }
        }
        *x = _mm256_xor_si256(_mm256_setr_epi32(w[0], 0, 0, 0, w[1], 0, 0, 0), rk[0]);
    }
    for k in &rk[1..10] {
        for x in &mut b {
            *x = _mm256_aesenc_epi128(*x, *k);
        }
    }
    for (x, o) in b.iter().zip(out.chunks_exact_mut(16)) {
        let y = _mm256_aesenclast_epi128(*x, rk[10]);
        #[allow(clippy::cast_ptr_alignment)] // an unaligned store
        // SAFETY: o is 16 words (32 bytes); unaligned store; little-endian.
        unsafe {
            _mm256_storeu_si256(o.as_mut_ptr().cast::<__m256i>(), y);
        }
    }
    (row, col)
}

/// Rows r0.. of A with VAES: sixteen blocks in flight (eight YMM
/// registers of two blocks), then a group of eight for the rest (n = 976).
#[target_feature(enable = "avx2,aes,vaes")]
fn rows_vaes<P: ParameterSet>(key: &AesKey, r0: usize, out: &mut [u16]) {
    let n = P::N;
    let mut rk = [_mm256_setzero_si256(); 11];
    for (r, k) in rk.iter_mut().zip(&key.bytes) {
        // SAFETY: k is 16 bytes; unaligned load.
        *r = _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(k.as_ptr().cast()) });
    }
    let mut pos = (r0, 0usize);
    let mut chunks = out.chunks_exact_mut(128);
    for chunk in &mut chunks {
        pos = vaes_group::<8>(&rk, n, pos, chunk);
    }
    for chunk in chunks.into_remainder().chunks_exact_mut(64) {
        pos = vaes_group::<4>(&rk, n, pos, chunk);
    }
}

/// Rows r0.. of A with SHAKE128 on four-lane sponges (one lane per row):
/// eight rows at a time as a pair of four-lane sponges (one pass over
/// 512-bit registers with AVX-512), then four.
fn rows_shake_x4<P: ParameterSet>(seed: &[u8; SEED_A_BYTES], r0: usize, out: &mut [u16]) {
    let n = P::N;
    let mut r = r0;
    let mut rest = out;
    while rest.len() >= 8 * n {
        let (eight, tail) = rest.split_at_mut(8 * n);
        let (lo, hi) = eight.split_at_mut(4 * n);
        let mut x = sponge4(seed, r);
        let mut y = sponge4(seed, r + 4);
        let mut blk = [[0u8; 168]; 8];
        let mut off = 0;
        while off < n {
            let [b0, b1, b2, b3, b4, b5, b6, b7] = &mut blk;
            Shake128x4::squeeze_blocks_pair(&mut x, &mut y, [b0, b1, b2, b3, b4, b5, b6, b7]);
            let take = core::cmp::min(84, n - off);
            copy_rows(&blk[..4], lo, n, off, take);
            copy_rows(&blk[4..], hi, n, off, take);
            off += take;
        }
        r += 8;
        rest = tail;
    }
    if !rest.is_empty() {
        let mut x = sponge4(seed, r);
        let mut blk = [[0u8; 168]; 4];
        let mut off = 0;
        while off < n {
            let [b0, b1, b2, b3] = &mut blk;
            x.squeeze_blocks([b0, b1, b2, b3]);
            let take = core::cmp::min(84, n - off);
            copy_rows(&blk, rest, n, off, take);
            off += take;
        }
    }
}

/// Four SHAKE128 sponges on (row ‖ seed_A) for rows r..r+4.
fn sponge4(seed: &[u8; SEED_A_BYTES], r: usize) -> Shake128x4 {
    let mut inp = [[0u8; 2 + SEED_A_BYTES]; 4];
    for (t, x) in inp.iter_mut().enumerate() {
        x[..2].copy_from_slice(&((r + t) as u16).to_le_bytes());
        x[2..].copy_from_slice(seed);
    }
    Shake128x4::absorb_once([&inp[0], &inp[1], &inp[2], &inp[3]])
}

/// Entries off..off+take of four rows (of n) from one output block each.
fn copy_rows(blk: &[[u8; 168]], rows: &mut [u16], n: usize, off: usize, take: usize) {
    for (t, b) in blk.iter().enumerate() {
        let row = &mut rows[t * n + off..t * n + off + take];
        for (o, w) in row.iter_mut().zip(b.chunks_exact(2)) {
            *o = u16::from_le_bytes([w[0], w[1]]);
        }
    }
}
