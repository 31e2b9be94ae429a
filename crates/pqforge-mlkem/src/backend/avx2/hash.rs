//! Decapsulation's hashes on the four-lane Keccak (mirrors `crate::hash`):
//! a job scheduler.
//!
//! After K-PKE.Decrypt and G, every hash left in ML-KEM.Decaps is
//! independent of the others: J(z || c) (a long SHAKE256 absorb, 6-12
//! permutations), the k^2 SampleNTT streams of the public matrix and the
//! 2k + 1 PRF streams of the re-encryption noise. Instead of running J on the
//! scalar permutation and the rest in groups of four equal jobs, every job is
//! a sponge assigned to one lane of the four-way permutation, and a lane
//! starts its next job as soon as the previous one is done. The assignment
//! (longest job first, to the least loaded lane) depends only on the
//! parameter set; the only data-dependent step count is SampleNTT's extra
//! squeezes, which depend on the public seed rho alone.

use pqforge_core::keccak_x4::keccak_f1600_x4;

use crate::backend::Backend;
use crate::hash::DecapsHashes;
use crate::params::ParameterSet;
use crate::pke::{EncNoise, Matrix, enc_eta};
use crate::poly::N;
use pqforge_core::ct::wipe;

/// SHAKE128 rate (SampleNTT).
const RATE128: usize = 168;
/// SHAKE256 rate (PRF and J).
const RATE256: usize = 136;
/// SHAKE128 blocks squeezed before SampleNTT's first rejection pass
/// (504 bytes; about 1 in 2^12 entries needs more).
const NTT_BLOCKS0: usize = 3;
/// SHA3-512 rate (G).
const RATE_G: usize = 72;
/// Most jobs: G, J, k^2 <= 16 matrix entries and 2k + 1 <= 9 noise
/// polynomials.
const MAX_JOBS: usize = 27;

#[derive(Clone, Copy)]
enum Kind {
    /// G(m || h): 64 bytes of output; its second half seeds the noise.
    G,
    /// J(z || c): 32 bytes of output.
    J,
    /// SampleNTT into `at[i][j]`.
    Ntt(usize, usize),
    /// SamplePolyCBD_eta(PRF_eta(...)) into `noise[idx]`.
    Cbd(usize, usize),
}

#[derive(Clone, Copy)]
struct Job<'a> {
    /// The message is `parts[0] || parts[1]` (noise jobs: their seed).
    parts: [&'a [u8]; 2],
    rate: usize,
    /// Domain-separation and first padding bits.
    ds: u8,
    kind: Kind,
    /// Absorbed blocks (message plus padding).
    n_abs: usize,
    /// Expected permutations (for the lane assignment).
    est: usize,
}

impl<'a> Job<'a> {
    fn new(parts: [&'a [u8]; 2], rate: usize, ds: u8, kind: Kind, n_out: usize) -> Self {
        let len = parts[0].len() + parts[1].len();
        // Constant divisors only (no `div` instruction).
        let full = match rate {
            RATE_G => len / RATE_G,
            RATE256 => len / RATE256,
            _ => len / RATE128,
        };
        let n_abs = full + 1;
        Self {
            parts,
            rate,
            ds,
            kind,
            n_abs,
            est: n_abs + n_out - 1,
        }
    }

    /// Block `t` of the padded message, except the final 0x80 pad bit:
    /// writes the first `8 w` bytes of `buf` and returns `w`, the number of
    /// leading 64-bit words to absorb (the rest of the block is zero).
    fn block(&self, t: usize, buf: &mut [u8; RATE128], nseeds: &[[u8; 33]; 9]) -> usize {
        let rate = self.rate;
        let parts = match self.kind {
            Kind::Cbd(n, _) => [&nseeds[n][..], &[][..]],
            _ => self.parts,
        };
        let start = t * rate;
        let len = parts[0].len() + parts[1].len();
        let last = t + 1 == self.n_abs;
        // Message bytes in this block, plus the domain byte in the last one.
        let used = if last { len - start + 1 } else { rate };
        let w = used.div_ceil(8);
        buf[..8 * w].fill(0);
        let mut off = 0;
        for part in parts {
            // Bytes of `part` that fall in [start, start + rate).
            let lo = core::cmp::max(start, off);
            let hi = core::cmp::min(start + rate, off + part.len());
            if lo < hi {
                buf[lo - start..hi - start].copy_from_slice(&part[lo - off..hi - off]);
            }
            off += part.len();
        }
        if last {
            // Domain bits and the first pad bit.
            buf[len - start] ^= self.ds;
        }
        w
    }
}

/// Runs G(m' || h) into `g` and J(z || c) into `kbar` (the inputs of
/// `hashes`), the transposed matrix `at[i][j] = SampleNTT(rho || i || j)`
/// for `i, j < k`, and the re-encryption noise `noise[n] =
/// SamplePolyCBD_{eta(n)}(PRF(sigma, n))` for `n <= 2k`, where sigma =
/// `g[32..]`: `Backend::decaps_hashes` of the stored K-PKE. G runs first in
/// lane 0; every noise job starts after it, behind a J or matrix job in its
/// lane.
pub(super) fn decaps_hashes<P: ParameterSet, B: Backend>(
    hashes: &DecapsHashes<'_>,
    rho: &[u8; 32],
    g: &mut [u8; 64],
    kbar: &mut [u8; 32],
    at: &mut Matrix,
    noise: &mut EncNoise,
) {
    let k = P::K;
    let noise = &mut noise[..=2 * k];
    let eta = enc_eta::<P>;
    let mut mseeds = [[0u8; 34]; 16];
    // Filled from G's output once it is known.
    let mut nseeds = [[0u8; 33]; 9];
    let mut coords = [(0usize, 0usize); 16];
    let mut nm = 0;
    for i in 0..k {
        for j in 0..k {
            mseeds[nm][..32].copy_from_slice(rho);
            mseeds[nm][32] = i as u8;
            mseeds[nm][33] = j as u8;
            coords[nm] = (i, j);
            nm += 1;
        }
    }

    let empty: &[u8] = &[];
    let mut jobs = [Job::new([empty, empty], RATE256, 0x1F, Kind::J, 1); MAX_JOBS];
    let mut nj = 0;
    jobs[nj] = Job::new(hashes.g_input(), RATE_G, 0x06, Kind::G, 1);
    nj += 1;
    jobs[nj] = Job::new(hashes.j_input(), RATE256, 0x1F, Kind::J, 1);
    nj += 1;
    for (s, &(i, j)) in mseeds.iter().zip(coords.iter()).take(nm) {
        jobs[nj] = Job::new([s, empty], RATE128, 0x1F, Kind::Ntt(i, j), NTT_BLOCKS0);
        nj += 1;
    }
    for n in 0..noise.len() {
        let e = eta(n);
        // 64 eta bytes: one SHAKE256 block for eta = 2, two for eta = 3.
        let blocks = if e == 3 { 2 } else { 1 };
        // 33-byte seed sigma || n (see `Job::block`).
        let seed: &[u8] = &[0; 33];
        jobs[nj] = Job::new([seed, empty], RATE256, 0x1F, Kind::Cbd(n, e), blocks);
        nj += 1;
    }

    // Longest job first, each to the least loaded lane (public schedule).
    // G (job 0) goes first in lane 0.
    let mut order = [0usize; MAX_JOBS];
    for (i, o) in order.iter_mut().enumerate() {
        *o = i;
    }
    let mut queue = [[0usize; MAX_JOBS]; 4];
    let mut qlen = [0usize; 4];
    let mut load = [0usize; 4];
    queue[0][0] = 0;
    qlen[0] = 1;
    load[0] = jobs[0].est;
    // Stable insertion sort by decreasing estimate (no_std, <= 26 jobs;
    // already sorted for real parameters: J, then matrix, then noise).
    for a in 2..nj {
        let mut b = a;
        while b > 1 && jobs[order[b - 1]].est < jobs[order[b]].est {
            order.swap(b - 1, b);
            b -= 1;
        }
    }
    for &ji in &order[1..nj] {
        let mut best = 0;
        for l in 1..4 {
            if load[l] < load[best] {
                best = l;
            }
        }
        queue[best][qlen[best]] = ji;
        qlen[best] += 1;
        load[best] += jobs[ji].est;
    }

    let mut st = [0u64; 100];
    let mut g_done = false;
    let mut qpos = [0usize; 4];
    // Permutations done in the current job of each lane.
    let mut t = [0usize; 4];
    // Matrix entries: coefficients sampled so far.
    let mut ctr = [0usize; 4];
    // Output blocks of each lane's current job.
    let mut lane_buf = [[0u8; NTT_BLOCKS0 * RATE128]; 4];
    let mut blk = [0u8; RATE128];
    loop {
        let mut active = false;
        for l in 0..4 {
            if qpos[l] == qlen[l] {
                continue;
            }
            active = true;
            let job = &jobs[queue[l][qpos[l]]];
            if t[l] == 0 {
                debug_assert!(g_done || !matches!(job.kind, Kind::Cbd(..)));
                for i in 0..25 {
                    st[4 * i + l] = 0;
                }
                ctr[l] = 0;
            }
            if t[l] < job.n_abs {
                let nw = job.block(t[l], &mut blk, &nseeds);
                for i in 0..nw {
                    let mut w = [0u8; 8];
                    w.copy_from_slice(&blk[8 * i..8 * i + 8]);
                    st[4 * i + l] ^= u64::from_le_bytes(w);
                }
                if t[l] + 1 == job.n_abs {
                    // Last pad bit.
                    st[4 * (job.rate / 8 - 1) + l] ^= 0x80 << 56;
                }
            }
        }
        if !active {
            break;
        }
        keccak_f1600_x4(&mut st);
        for l in 0..4 {
            if qpos[l] == qlen[l] {
                continue;
            }
            let job = &jobs[queue[l][qpos[l]]];
            t[l] += 1;
            if t[l] < job.n_abs {
                continue;
            }
            // Output block `ob` of this job.
            let ob = t[l] - job.n_abs;
            let done = match job.kind {
                Kind::G => {
                    for (i, o) in g.chunks_exact_mut(8).enumerate() {
                        o.copy_from_slice(&st[4 * i + l].to_le_bytes());
                    }
                    for (n, s) in nseeds.iter_mut().enumerate() {
                        s[..32].copy_from_slice(&g[32..]);
                        s[32] = n as u8;
                    }
                    g_done = true;
                    true
                }
                Kind::J => {
                    for (i, o) in kbar.chunks_exact_mut(8).enumerate() {
                        o.copy_from_slice(&st[4 * i + l].to_le_bytes());
                    }
                    true
                }
                Kind::Ntt(i, j) => {
                    let p = &mut at[i][j];
                    if ob < NTT_BLOCKS0 {
                        // Collect the first blocks, then one rejection pass.
                        extract(&st, l, &mut lane_buf[l][ob * RATE128..(ob + 1) * RATE128]);
                        if ob + 1 == NTT_BLOCKS0 {
                            ctr[l] = B::rej_uniform(&mut p.c, &lane_buf[l]);
                        }
                    } else {
                        // Rare extra block.
                        extract(&st, l, &mut blk);
                        ctr[l] += B::rej_uniform(&mut p.c[ctr[l]..], &blk);
                    }
                    // Public: depends on rho only.
                    ob + 1 >= NTT_BLOCKS0 && ctr[l] == N
                }
                Kind::Cbd(n, e) => {
                    extract(&st, l, &mut lane_buf[l][ob * RATE256..(ob + 1) * RATE256]);
                    let last = usize::from(e == 3);
                    if ob == last {
                        B::cbd(&mut noise[n], &lane_buf[l], e);
                    }
                    ob == last
                }
            };
            if done {
                qpos[l] += 1;
                t[l] = 0;
            }
        }
    }
    wipe(&mut st);
    for b in &mut lane_buf {
        wipe(b);
    }
    wipe(&mut blk);
    for s in &mut nseeds {
        wipe(s);
    }
}

/// Copies the first `out.len() / 8` words of lane `l` out as bytes.
fn extract(st: &[u64; 100], l: usize, out: &mut [u8]) {
    for (i, o) in out.chunks_exact_mut(8).enumerate() {
        o.copy_from_slice(&st[4 * i + l].to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Portable;
    use crate::params::{MlKem512, MlKem768, MlKem1024};
    use crate::poly::Poly;

    fn matches_in_turn<P: ParameterSet>(clen: usize) {
        let rho: [u8; 32] = core::array::from_fn(|i| i as u8 * 3);
        let m: [u8; 32] = core::array::from_fn(|i| i as u8 * 5 + 1);
        let h: [u8; 32] = core::array::from_fn(|i| i as u8 ^ 0x5A);
        let z = [7u8; 32];
        let cbytes: [u8; 1600] = core::array::from_fn(|i| (i * 13 + 5) as u8);
        let hashes = DecapsHashes {
            m: &m,
            h: &h,
            z: &z,
            c: &cbytes[..clen],
        };
        let (mut g, mut kbar) = ([0u8; 64], [0u8; 32]);
        let mut at = [[Poly::ZERO; 4]; 4];
        let mut noise = [Poly::ZERO; 9];
        decaps_hashes::<P, Portable>(&hashes, &rho, &mut g, &mut kbar, &mut at, &mut noise);
        let (mut g2, mut kbar2) = ([0u8; 64], [0u8; 32]);
        let mut at2 = [[Poly::ZERO; 4]; 4];
        let mut noise2 = [Poly::ZERO; 9];
        // The default: one hash after the other.
        <Portable as Backend>::decaps_hashes::<P>(
            &hashes,
            &rho,
            &mut g2,
            &mut kbar2,
            &mut at2,
            &mut noise2,
        );
        assert_eq!(g, g2, "G clen={clen}");
        assert_eq!(kbar, kbar2, "J clen={clen}");
        assert!(at == at2, "matrix clen={clen}");
        assert!(noise == noise2, "noise clen={clen}");
    }

    #[test]
    fn matches_separate_hashes() {
        // The real ciphertext lengths, and J inputs ending at and around a
        // block boundary.
        for clen in [768, 0, 104, 136 - 32, 1600] {
            matches_in_turn::<MlKem512>(clen);
        }
        matches_in_turn::<MlKem768>(1088);
        matches_in_turn::<MlKem768>(0);
        matches_in_turn::<MlKem1024>(1568);
    }
}
