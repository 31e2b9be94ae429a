//! SampleInBall for signing on 256-bit vectors, constant time in c̃: the
//! same algorithm as the portable `sample::sample_in_ball_ct` (every byte
//! of a whole XOF block processed with masked updates of the list of τ
//! (position, sign) entries; only "all τ found" declassified per block),
//! with the 64-entry list in two registers per field and byte compares.

use core::arch::x86_64::{
    __m256i, _mm_srli_si128, _mm256_add_epi8, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_blendv_epi8, _mm256_castsi256_si128, _mm256_cmpeq_epi8, _mm256_cvtepi8_epi32,
    _mm256_extracti128_si256, _mm256_or_si256, _mm256_set1_epi8, _mm256_setr_epi8,
    _mm256_setzero_si256, _mm256_storeu_si256,
};

use pqforge_core::ctgrind;
use pqforge_core::keccak::Shake256;

use super::Poly;
use super::ntt::store8;

/// The list: positions and values (0x01 / 0xFF for ±1) of entries 0..32
/// and 32..64.
struct List {
    pos: [__m256i; 2],
    val: [__m256i; 2],
}

/// One XOF byte `b` (see the portable version). `acc` is all ones iff the
/// byte is accepted; `i` the position it fills; `count` the next entry.
#[inline]
#[target_feature(enable = "avx2")]
fn step(l: &mut List, idx: &[__m256i; 2], acc: u8, b: u8, i: u8, count: u8, sign: u8) {
    let accv = _mm256_set1_epi8(acc as i8);
    let (bv, iv) = (_mm256_set1_epi8(b as i8), _mm256_set1_epi8(i as i8));
    let (cv, sv) = (_mm256_set1_epi8(count as i8), _mm256_set1_epi8(sign as i8));
    for h in 0..2 {
        let new = _mm256_and_si256(accv, _mm256_cmpeq_epi8(idx[h], cv));
        let hit = _mm256_and_si256(accv, _mm256_cmpeq_epi8(l.pos[h], bv));
        let moved = _mm256_andnot_si256(new, hit);
        let p = _mm256_blendv_epi8(l.pos[h], iv, moved);
        l.pos[h] = _mm256_blendv_epi8(p, bv, new);
        l.val[h] = _mm256_blendv_epi8(l.val[h], sv, new);
    }
}

/// SampleInBall(c̃) for τ = `tau`, equal to `sample::sample_in_ball`.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn sample_in_ball_ct(ctilde: &[u8], tau: usize, c: &mut Poly) {
    let mut h = Shake256::new();
    h.absorb(ctilde);
    let mut block = [0u8; 136];
    h.squeeze(&mut block);
    let mut sb = [0u8; 8];
    sb.copy_from_slice(&block[..8]);
    let mut signs = u64::from_le_bytes(sb);
    let idx = [
        _mm256_setr_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
            24, 25, 26, 27, 28, 29, 30, 31,
        ),
        _mm256_setr_epi8(
            32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53,
            54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
        ),
    ];
    let zero = _mm256_setzero_si256();
    let mut l = List {
        pos: [zero; 2],
        val: [zero; 2],
    };
    let tau = tau as u64;
    let mut count = 0u64;
    let mut start = 8;
    loop {
        for &b in &block[start..] {
            let b = u64::from(b);
            let i = 256 - tau + count;
            // acc: all ones iff count < τ and b ≤ i (borrows, no branch).
            let lt = count.wrapping_sub(tau) >> 63;
            let le = (i.wrapping_sub(b) >> 63) ^ 1;
            let acc = (lt & le).wrapping_neg();
            let sign = 1 | (0xFE * (signs & 1));
            signs = ((signs >> 1) & acc) | (signs & !acc);
            step(
                &mut l,
                &idx,
                acc as u8,
                b as u8,
                i as u8,
                count as u8,
                sign as u8,
            );
            count += acc & 1;
        }
        if ctgrind::declassify_val(count >= tau) {
            break;
        }
        h.squeeze(&mut block);
        start = 0;
    }
    // c[t] = the value of the entry at position t (at most one): for each
    // entry, compare its position with the 256 indices.
    let mut pos = [0u8; 64];
    let mut val = [0u8; 64];
    // SAFETY: 32 writable bytes at offsets 0 and 32 of each array.
    unsafe {
        _mm256_storeu_si256(pos.as_mut_ptr().cast(), l.pos[0]);
        _mm256_storeu_si256(pos[32..].as_mut_ptr().cast(), l.pos[1]);
        _mm256_storeu_si256(val.as_mut_ptr().cast(), l.val[0]);
        _mm256_storeu_si256(val[32..].as_mut_ptr().cast(), l.val[1]);
    }
    let step32 = _mm256_set1_epi8(32);
    let mut t = idx[0];
    let rows = c.as_chunks_mut::<8>().0;
    for k in 0..8 {
        let mut d = zero;
        for e in 0..64 {
            let m = _mm256_cmpeq_epi8(t, _mm256_set1_epi8(pos[e] as i8));
            d = _mm256_or_si256(d, _mm256_and_si256(m, _mm256_set1_epi8(val[e] as i8)));
        }
        let lo = _mm256_castsi256_si128(d);
        let hi = _mm256_extracti128_si256::<1>(d);
        store8(&mut rows[4 * k], _mm256_cvtepi8_epi32(lo));
        store8(
            &mut rows[4 * k + 1],
            _mm256_cvtepi8_epi32(_mm_srli_si128::<8>(lo)),
        );
        store8(&mut rows[4 * k + 2], _mm256_cvtepi8_epi32(hi));
        store8(
            &mut rows[4 * k + 3],
            _mm256_cvtepi8_epi32(_mm_srli_si128::<8>(hi)),
        );
        t = _mm256_add_epi8(t, step32);
    }
    pqforge_core::ct::wipe(&mut pos);
    pqforge_core::ct::wipe(&mut val);
    pqforge_core::ct::wipe(&mut block);
}

#[cfg(test)]
mod tests {
    use super::super::testutil::avx2_or_skip;
    use crate::params::N;

    #[test]
    fn avx2_sample_in_ball_matches_the_standard() {
        if !avx2_or_skip("avx2_sample_in_ball_matches_the_standard") {
            return;
        }
        let mut seed = 0x0bad_cafe_1234_5678u64;
        for tau in [39, 49, 60] {
            for len in [32, 48, 64] {
                for _ in 0..if cfg!(miri) { 2 } else { 300 } {
                    let mut ct = [0u8; 64];
                    for b in &mut ct[..len] {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        *b = seed as u8;
                    }
                    let (mut a, mut b) = ([0i32; N], [0i32; N]);
                    crate::sample::sample_in_ball(&ct[..len], tau, &mut a);
                    // SAFETY: AVX2 detected above.
                    unsafe { super::sample_in_ball_ct(&ct[..len], tau, &mut b) };
                    assert_eq!(a, b);
                }
            }
        }
    }
}
