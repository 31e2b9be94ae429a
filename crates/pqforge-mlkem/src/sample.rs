//! Sampling (FIPS 203 §4.2.2): SampleNTT (Algorithm 7) for the public matrix
//! and SamplePolyCBD_eta (Algorithm 8) for secrets and errors. The parsers
//! (`rej_each`, `cbd_each`) hand out one coefficient at a time, so the
//! streamed K-PKE consumes them straight into its products and sums; the
//! whole-polynomial samplers for the stored K-PKE run four-way Keccak so
//! four polynomials come out of one permutation.
//!
//! SampleNTT branches on the SHAKE128 output of the public seed rho: that is
//! public (rho is part of the encapsulation key), so the rejection decisions
//! may be visible. CBD is branch-free.

use pqforge_core::keccak_x4::{Shake128x4, Shake256x4};

use crate::backend::Backend;
use crate::hash::{Shake128, Shake256};
use crate::poly::{N, Poly, Q, decode12};
use pqforge_core::ct::wipe;

/// SHAKE128 rate.
const XOF_BLOCK: usize = 168;
/// Initial squeeze of SampleNTT: 3 blocks = 504 bytes = 168 candidates
/// pairs; about 1 in 2^12 matrix entries needs a fourth block.
const XOF_BLOCKS0: usize = 3;
/// SHAKE256 rate.
const PRF_BLOCK: usize = 136;

/// Expands the k x k matrix A-hat from rho (FIPS 203 Algorithm 13 lines
/// 3-7): `a[i][j] = SampleNTT(rho || j || i)`, or the transpose
/// `a[i][j] = SampleNTT(rho || i || j)` when `transposed`.
/// out: coefficients in `[0, q)`.
pub(crate) fn gen_matrix<B: Backend>(
    a: &mut [[Poly; 4]; 4],
    rho: &[u8; 32],
    k: usize,
    transposed: bool,
) {
    // All (i, j) in row-major order, without dividing by k.
    let mut all = [(0usize, 0usize); 16];
    let mut total = 0;
    for i in 0..k {
        for j in 0..k {
            all[total] = (i, j);
            total += 1;
        }
    }
    let mut idx = 0;
    while idx < total {
        let mut seeds = [[0u8; 34]; 4];
        let mut pos = [(0usize, 0usize); 4];
        for l in 0..4 {
            // Dummy lanes past the end repeat the last entry (results dropped).
            let (i, j) = all[core::cmp::min(idx + l, total - 1)];
            pos[l] = (i, j);
            seeds[l][..32].copy_from_slice(rho);
            let (x, y) = if transposed { (i, j) } else { (j, i) };
            seeds[l][32] = x as u8;
            seeds[l][33] = y as u8;
        }
        let lanes = core::cmp::min(4, total - idx);
        if lanes == 1 {
            // One entry left (k = 3): one scalar SHAKE128 is cheaper than
            // four lanes.
            let (i, j) = pos[0];
            sample_ntt_1::<B>(&seeds[0], &mut a[i][j]);
        } else if lanes == 4 {
            // Sample straight into the four (distinct) matrix entries.
            let flat = a.as_flattened_mut();
            let [p0, p1, p2, p3] = flat
                .get_disjoint_mut(pos.map(|(i, j)| 4 * i + j))
                .expect("distinct matrix entries");
            sample_ntt_x4::<B>(&seeds, &mut [p0, p1, p2, p3]);
        } else {
            let mut out = [Poly::ZERO; 4];
            {
                let [p0, p1, p2, p3] = &mut out;
                sample_ntt_x4::<B>(&seeds, &mut [p0, p1, p2, p3]);
            }
            for (l, p) in out.iter().enumerate().take(lanes) {
                let (i, j) = pos[l];
                a[i][j] = *p;
            }
        }
        idx += 4;
    }
}

/// SampleNTT (Algorithm 7) on four seeds at once.
pub(crate) fn sample_ntt_x4<B: Backend>(seeds: &[[u8; 34]; 4], out: &mut [&mut Poly; 4]) {
    let mut xof = Shake128x4::absorb_once([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
    let mut buf = [[0u8; XOF_BLOCK * XOF_BLOCKS0]; 4];
    {
        let [b0, b1, b2, b3] = &mut buf;
        xof.squeeze_blocks([b0, b1, b2, b3]);
    }
    let mut ctr = [0usize; 4];
    for l in 0..4 {
        ctr[l] = B::rej_uniform(&mut out[l].c, &buf[l]);
    }
    // Rare: keep squeezing one block at a time until every lane is full.
    // The loop condition depends only on rho (public).
    while ctr.iter().any(|&c| c < N) {
        let mut blk = [[0u8; XOF_BLOCK]; 4];
        {
            let [b0, b1, b2, b3] = &mut blk;
            xof.squeeze_blocks([b0, b1, b2, b3]);
        }
        for l in 0..4 {
            if ctr[l] < N {
                ctr[l] += B::rej_uniform(&mut out[l].c[ctr[l]..], &blk[l]);
            }
        }
    }
}

/// SampleNTT (Algorithm 7) on one seed.
pub(crate) fn sample_ntt_1<B: Backend>(seed: &[u8; 34], out: &mut Poly) {
    let mut xof = Shake128::absorb(&[seed], 0x1F);
    let mut buf = [0u8; XOF_BLOCK * XOF_BLOCKS0];
    xof.squeeze(&mut buf);
    let mut ctr = B::rej_uniform(&mut out.c, &buf);
    // Public loop condition (depends on rho only).
    while ctr < N {
        let mut blk = [0u8; XOF_BLOCK];
        xof.squeeze(&mut blk);
        ctr += B::rej_uniform(&mut out.c[ctr..], &blk);
    }
}

/// SampleNTT's rejection step (FIPS 203 Algorithm 7, lines 5-13) over the
/// whole 3-byte groups of `buf`: every 12-bit candidate below q becomes
/// coefficient `*n` (`f(*n, value)`, then `*n += 1`) until `*n == limit`.
/// Branches on the candidates, which come from SHAKE128(rho || i || j):
/// public.
#[inline(always)]
pub(crate) fn rej_each(buf: &[u8], n: &mut usize, limit: usize, mut f: impl FnMut(usize, u16)) {
    let mut off = 0;
    // Index loop: no length division (opt-level "z" would emit a `div`).
    while off + 3 <= buf.len() {
        if *n >= limit {
            break;
        }
        let b = &buf[off..off + 3];
        let (d1, d2) = decode12(b[0], b[1], b[2]);
        off += 3;
        if d1 < Q as u16 {
            f(*n, d1);
            *n += 1;
        }
        if d2 < Q as u16 && *n < limit {
            f(*n, d2);
            *n += 1;
        }
    }
}

/// Portable rejection sampling: parses 12-bit candidates from `buf` (whole
/// 3-byte groups) into `out`, keeping those < q; returns how many were
/// written (at most `out.len()`).
pub(crate) fn rej_uniform(out: &mut [i16], buf: &[u8]) -> usize {
    let mut n = 0;
    rej_each(buf, &mut n, out.len(), |i, d| out[i] = d as i16);
    n
}

/// SamplePolyCBD_eta (Algorithm 8) from the first `64 eta` bytes of `buf`
/// (eta = 2 or 3): `f(i, coefficient)` for every i in order, coefficients
/// in `[-eta, eta]`. Branch-free.
#[inline(always)]
pub(crate) fn cbd_each(buf: &[u8], eta: usize, mut f: impl FnMut(usize, i16)) {
    if eta == 3 {
        let buf = &buf[..192];
        for i in 0..64 {
            let w = &buf[3 * i..3 * i + 3];
            let t = u32::from(w[0]) | (u32::from(w[1]) << 8) | (u32::from(w[2]) << 16);
            let d = (t & 0x0024_9249) + ((t >> 1) & 0x0024_9249) + ((t >> 2) & 0x0024_9249);
            for j in 0..4 {
                let a = ((d >> (6 * j)) & 7) as i16;
                let b = ((d >> (6 * j + 3)) & 7) as i16;
                f(4 * i + j, a - b);
            }
        }
    } else {
        let buf = &buf[..128];
        for i in 0..32 {
            let w = &buf[4 * i..4 * i + 4];
            let t = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            let d = (t & 0x5555_5555) + ((t >> 1) & 0x5555_5555);
            for j in 0..8 {
                let a = ((d >> (4 * j)) & 3) as i16;
                let b = ((d >> (4 * j + 2)) & 3) as i16;
                f(8 * i + j, a - b);
            }
        }
    }
}

/// [`cbd_each`] on the PRF output as little-endian 64-bit lanes (`8 eta`
/// of them are read): no byte buffer. Branch-free.
#[inline(always)]
pub(crate) fn cbd_lanes(
    lanes: &mut impl Iterator<Item = u64>,
    eta: usize,
    mut f: impl FnMut(usize, i16),
) {
    let mut next = || lanes.next().unwrap_or(0);
    if eta == 3 {
        // Three lanes = eight 3-byte groups of four coefficients each.
        for i in 0..8 {
            let (l0, l1, l2) = (next(), next(), next());
            let groups = [
                l0,
                l0 >> 24,
                (l0 >> 48) | (l1 << 16),
                l1 >> 8,
                l1 >> 32,
                (l1 >> 56) | (l2 << 8),
                l2 >> 16,
                l2 >> 40,
            ];
            for (g, t) in groups.into_iter().enumerate() {
                let t = t as u32 & 0x00FF_FFFF;
                let d = (t & 0x0024_9249) + ((t >> 1) & 0x0024_9249) + ((t >> 2) & 0x0024_9249);
                for j in 0..4 {
                    let a = ((d >> (6 * j)) & 7) as i16;
                    let b = ((d >> (6 * j + 3)) & 7) as i16;
                    f(32 * i + 4 * g + j, a - b);
                }
            }
        }
    } else {
        // One lane = two 4-byte words of eight coefficients each.
        for i in 0..16 {
            let l = next();
            for (h, t) in [l as u32, (l >> 32) as u32].into_iter().enumerate() {
                let d = (t & 0x5555_5555) + ((t >> 1) & 0x5555_5555);
                for j in 0..8 {
                    let a = ((d >> (4 * j)) & 3) as i16;
                    let b = ((d >> (4 * j + 2)) & 3) as i16;
                    f(16 * i + 8 * h + j, a - b);
                }
            }
        }
    }
}

/// `p = SamplePolyCBD_eta(buf)` (Algorithm 8), from `64 eta` bytes.
#[inline(always)] // into the AVX2 callers: compiled for AVX2 there
pub(crate) fn cbd(p: &mut Poly, buf: &[u8], eta: usize) {
    cbd_each(buf, eta, |i, v| p.c[i] = v);
}

/// Samples `out[i] = SamplePolyCBD_{eta(i)}(PRF_{eta(i)}(sigma, nonce0 + i))`
/// (FIPS 203 eq. 4.3 and Algorithm 8), four PRF calls per permutation.
pub(crate) fn sample_cbd_many<B: Backend>(
    sigma: &[u8; 32],
    out: &mut [Poly],
    nonce0: u8,
    eta: impl Fn(usize) -> usize,
) {
    let total = out.len();
    let mut idx = 0;
    while idx < total {
        let lanes = core::cmp::min(4, total - idx);
        let mut seeds = [[0u8; 33]; 4];
        let mut max_eta = 2;
        for (l, s) in seeds.iter_mut().enumerate() {
            s[..32].copy_from_slice(sigma);
            s[32] = nonce0.wrapping_add((idx + l) as u8);
            if l < lanes {
                max_eta = core::cmp::max(max_eta, eta(idx + l));
            }
        }
        let mut buf = [[0u8; 2 * PRF_BLOCK]; 4];
        if lanes == 1 {
            // A lone PRF call: scalar SHAKE256 is cheaper than four lanes.
            let mut prf = Shake256::absorb(&[&seeds[0]], 0x1F);
            prf.squeeze(&mut buf[0][..64 * max_eta]);
            B::cbd(&mut out[idx], &buf[0], eta(idx));
            wipe(&mut buf[0]);
            for s in &mut seeds {
                wipe(s);
            }
            break;
        }
        let mut prf = Shake256x4::absorb_once([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
        let blocks = if max_eta == 3 { 2 } else { 1 };
        {
            let [b0, b1, b2, b3] = &mut buf;
            let n = blocks * PRF_BLOCK;
            prf.squeeze_blocks([&mut b0[..n], &mut b1[..n], &mut b2[..n], &mut b3[..n]]);
        }
        for l in 0..lanes {
            B::cbd(&mut out[idx + l], &buf[l], eta(idx + l));
        }
        for b in &mut buf {
            wipe(b);
        }
        for s in &mut seeds {
            wipe(s);
        }
        idx += 4;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Portable;

    #[test]
    fn cbd_lanes_matches_cbd_each() {
        let mut rng = pqforge_core::testing::TestRng::new(3);
        for _ in 0..50 {
            let mut buf = [0u8; 192];
            for b in &mut buf {
                *b = rng.next_u32() as u8;
            }
            for eta in [2, 3] {
                let (mut want, mut got) = ([0i16; 256], [0i16; 256]);
                cbd_each(&buf, eta, |i, v| want[i] = v);
                let mut lanes = buf
                    .chunks_exact(8)
                    .map(|w| u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
                cbd_lanes(&mut lanes, eta, |i, v| got[i] = v);
                assert_eq!(got, want, "eta {eta}");
                // Exactly 8 eta lanes read.
                assert_eq!(lanes.count(), 24 - 8 * eta);
            }
        }
    }

    #[test]
    fn rej_uniform_parses_12_bit_pairs_and_rejects() {
        // 0x123 and 0xFFC (rejected: >= q), then 0xFFF (rejected) and 0x001.
        let buf = [0x23, 0xC1, 0xFF, 0xFF, 0x1F, 0x00];
        let mut out = [0i16; 4];
        assert_eq!(rej_uniform(&mut out, &buf), 2);
        assert_eq!(&out[..2], &[0x123, 0x001]);
        // Stops when the output is full.
        let mut one = [0i16; 1];
        assert_eq!(rej_uniform(&mut one, &[0x01, 0x20, 0x00]), 1);
        assert_eq!(one[0], 0x001);
    }

    #[test]
    fn cbd_ranges_and_balance() {
        let buf: [u8; 192] = core::array::from_fn(|i| (i * 73 + 11) as u8);
        let mut p = Poly::ZERO;
        cbd(&mut p, &buf, 2);
        assert!(p.c.iter().all(|c| (-2..=2).contains(c)));
        cbd(&mut p, &buf, 3);
        assert!(p.c.iter().all(|c| (-3..=3).contains(c)));
        // All-ones input bits: every a = b, so every coefficient is 0.
        cbd(&mut p, &[0xFF; 128], 2);
        assert!(p.c.iter().all(|&c| c == 0));
        cbd(&mut p, &[0x03; 128], 2);
        // 0x03 = 0b0000_0011: low group a = 2, b = 0 -> 2; high group 0.
        assert!(p.c.iter().step_by(2).all(|&c| c == 2));
        assert!(p.c.iter().skip(1).step_by(2).all(|&c| c == 0));
    }

    #[test]
    fn matrix_entries_match_single_lane_sampling() {
        let rho: [u8; 32] = core::array::from_fn(|i| i as u8);
        let mut a = [[Poly::ZERO; 4]; 4];
        let mut at = [[Poly::ZERO; 4]; 4];
        gen_matrix::<Portable>(&mut a, &rho, 3, false);
        gen_matrix::<Portable>(&mut at, &rho, 3, true);
        for i in 0..3 {
            for j in 0..3 {
                let mut seed = [0u8; 34];
                seed[..32].copy_from_slice(&rho);
                seed[32] = j as u8;
                seed[33] = i as u8;
                let mut p = Poly::ZERO;
                sample_ntt_1::<Portable>(&seed, &mut p);
                assert_eq!(a[i][j], p, "A[{i}][{j}]");
                assert_eq!(at[j][i], p, "A^T[{j}][{i}]");
                assert!(p.c.iter().all(|&c| (0..3329).contains(&c)));
            }
        }
    }

    #[test]
    fn noise_batches_match_single_prf() {
        let sigma = [9u8; 32];
        let mut out = [Poly::ZERO; 9];
        sample_cbd_many::<Portable>(&sigma, &mut out, 0, |i| if i < 3 { 3 } else { 2 });
        for (n, p) in out.iter().enumerate() {
            let eta = if n < 3 { 3 } else { 2 };
            let mut seed = [0u8; 33];
            seed[..32].copy_from_slice(&sigma);
            seed[32] = n as u8;
            let mut buf = [0u8; 192];
            pqforge_core::keccak::shake256(&seed, &mut buf[..64 * eta]);
            let mut want = Poly::ZERO;
            cbd(&mut want, &buf, eta);
            assert_eq!(*p, want, "noise {n}");
        }
    }
}
