//! AVX2 refill of the sampler PRNG: the eight ChaCha20 blocks
//! of one refill computed side by side, block u in lane u of every state
//! word. The output layout of [`crate::rng`] (block u, word v at bytes
//! `4u + 32v`) is then exactly one 32-byte store per state word, so the
//! bytes are identical to the portable refill.
//!
//! CT: straight-line arithmetic, no branch or index on the key.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_add_epi64, _mm256_or_si256, _mm256_permute4x64_epi64,
    _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_setr_epi64x,
    _mm256_shuffle_epi8, _mm256_slli_epi32, _mm256_srli_epi32, _mm256_storeu_si256,
    _mm256_unpackhi_epi32, _mm256_unpacklo_epi32, _mm256_xor_si256,
};

use pqforge_core::cpu::Avx2;

use crate::rng::BUF_LEN;

/// ChaCha20 constants ("expand 32-byte k").
const CW: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

#[inline]
#[target_feature(enable = "avx2")]
fn rotl<const L: i32, const R: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi32::<L>(x), _mm256_srli_epi32::<R>(x))
}

#[inline]
#[target_feature(enable = "avx2")]
fn rotl16(x: __m256i) -> __m256i {
    let m = _mm256_setr_epi8(
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
        14, 15, 12, 13,
    );
    _mm256_shuffle_epi8(x, m)
}

#[inline]
#[target_feature(enable = "avx2")]
fn rotl8(x: __m256i) -> __m256i {
    let m = _mm256_setr_epi8(
        3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10,
        15, 12, 13, 14,
    );
    _mm256_shuffle_epi8(x, m)
}

#[inline]
#[target_feature(enable = "avx2")]
fn qround(s: &mut [__m256i; 16], a: usize, b: usize, c: usize, d: usize) {
    s[a] = _mm256_add_epi32(s[a], s[b]);
    s[d] = rotl16(_mm256_xor_si256(s[d], s[a]));
    s[c] = _mm256_add_epi32(s[c], s[d]);
    s[b] = rotl::<12, 20>(_mm256_xor_si256(s[b], s[c]));
    s[a] = _mm256_add_epi32(s[a], s[b]);
    s[d] = rotl8(_mm256_xor_si256(s[d], s[a]));
    s[c] = _mm256_add_epi32(s[c], s[d]);
    s[b] = rotl::<7, 25>(_mm256_xor_si256(s[b], s[c]));
}

/// The eight blocks for counters `cc .. cc + 8` (words 4..16 of the input
/// in `key`, the counter XORed into words 14 and 15), interleaved into
/// `buf`: [`crate::rng::chacha20x8`].
pub(crate) fn chacha20x8(_: Avx2, buf: &mut [u8; BUF_LEN], key: &[u32; 12], cc: u64) {
    // SAFETY: the token proves that the CPU supports AVX2.
    unsafe { chacha20x8_avx2(buf, key, cc) }
}

#[target_feature(enable = "avx2")]
fn chacha20x8_avx2(buf: &mut [u8; BUF_LEN], key: &[u32; 12], cc: u64) {
    // Counters cc + u as 64-bit values, split into low / high 32-bit lanes
    // ordered by block.
    let c0 = _mm256_add_epi64(
        _mm256_set1_epi64x(cc as i64),
        _mm256_setr_epi64x(0, 1, 2, 3),
    );
    let c1 = _mm256_add_epi64(
        _mm256_set1_epi64x(cc as i64),
        _mm256_setr_epi64x(4, 5, 6, 7),
    );
    // unpack within 128-bit halves: lo = [l0 l2 l1 l3 ...] reordered below.
    let lo = _mm256_unpacklo_epi32(c0, c1); // l0 l4 h0 h4 | l2 l6 h2 h6
    let hi = _mm256_unpackhi_epi32(c0, c1); // l1 l5 h1 h5 | l3 l7 h3 h7
    let a = _mm256_unpacklo_epi32(lo, hi); // l0 l1 l4 l5 | l2 l3 l6 l7
    let b = _mm256_unpackhi_epi32(lo, hi); // h0 h1 h4 h5 | h2 h3 h6 h7
    let clo = _mm256_permute4x64_epi64::<0xD8>(a); // l0 l1 l2 l3 l4 l5 l6 l7
    let chi = _mm256_permute4x64_epi64::<0xD8>(b);

    let mut init = [_mm256_set1_epi32(0); 16];
    for (v, w) in init.iter_mut().enumerate() {
        let word = if v < 4 { CW[v] } else { key[v - 4] };
        *w = _mm256_set1_epi32(word as i32);
    }
    init[14] = _mm256_xor_si256(init[14], clo);
    init[15] = _mm256_xor_si256(init[15], chi);
    let mut s = init;
    for _ in 0..10 {
        qround(&mut s, 0, 4, 8, 12);
        qround(&mut s, 1, 5, 9, 13);
        qround(&mut s, 2, 6, 10, 14);
        qround(&mut s, 3, 7, 11, 15);
        qround(&mut s, 0, 5, 10, 15);
        qround(&mut s, 1, 6, 11, 12);
        qround(&mut s, 2, 7, 8, 13);
        qround(&mut s, 3, 4, 9, 14);
    }
    for v in 0..16 {
        let w = _mm256_add_epi32(s[v], init[v]);
        let out = &mut buf[32 * v..32 * v + 32];
        // SAFETY: `out` is exactly 32 bytes; unaligned store.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), w) };
    }
}
