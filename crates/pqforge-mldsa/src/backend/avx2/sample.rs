//! The samplers of FIPS 204 §7.3 on 8 × 32-bit lanes and four-lane SHAKE
//! (mirrors `crate::sample` and the ExpandMask step of `crate::sign`).
//!
//! * [`rej_uniform`]: RejNTTPoly's rejection over a byte string, 8
//!   candidates per step, accepted lanes packed to the front by a
//!   table-driven `_mm256_permutevar8x32_epi32`.
//! * [`expand_a_x4`], [`expand_s_x4`], [`expand_mask_x4`]: four polynomials
//!   from one `Shake128x4` / `Shake256x4` (core's four-lane Keccak, which
//!   picks its AVX2 permutation at run time). They are `#[target_feature]`
//!   functions here (not generic) because they call the AVX2 rejection and
//!   unpacking steps directly. The rejection samplers squeeze one block at
//!   a time until every lane is complete, so no entry is ever cut short
//!   (there is no fixed block budget), and no block is squeezed that a
//!   lane does not need.
//!
//! Secrets: ExpandS and ExpandMask read secret seeds. ExpandMask's
//! unpacking is loads, shuffles and shifts with fixed indices. ExpandS
//! computes each candidate's value branch-free; like the portable code and
//! the reference implementations it treats the accept/reject pattern as
//! public (the table index and the output count depend on it, never on a
//! value). Their stack copies of seeds and XOF output are wiped.

use core::arch::x86_64::{
    __m256i, _mm_loadl_epi64, _mm256_add_epi32, _mm256_and_si256, _mm256_castsi256_ps,
    _mm256_cmpgt_epi32, _mm256_cvtepu8_epi32, _mm256_loadu2_m128i, _mm256_movemask_ps,
    _mm256_mullo_epi16, _mm256_permutevar8x32_epi32, _mm256_set1_epi32, _mm256_setr_epi8,
    _mm256_setr_epi32, _mm256_shuffle_epi8, _mm256_slli_epi32, _mm256_srli_epi32,
    _mm256_srlv_epi32, _mm256_sub_epi32,
};

use pqforge_core::ct::wipe;
use pqforge_core::keccak_x4::SpongeX4;
#[cfg(test)]
use pqforge_core::keccak_x4::{Shake128x4, Shake256x4};

use super::Poly;
use super::ntt::store8;
use crate::params::{N, Q};

/// For each 8-bit accept mask: the lane indices of the accepted lanes,
/// first to last, then zeros (`_mm256_permutevar8x32_epi32` packs them to
/// the front).
const COMPACT: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let mut n = 0;
        let mut i = 0;
        while i < 8 {
            if (m >> i) & 1 == 1 {
                t[m][n] = i as u8;
                n += 1;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// Number of accepted lanes per mask (a table: `count_ones` is a bit-trick
/// sequence without the `popcnt` feature).
const COUNT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        t[m] = (m as u8).count_ones() as u8;
        m += 1;
    }
    t
};

/// Writes the lanes of `v` selected by `mask` to `out[..8]`, packed to the
/// front (lanes past the count are junk); returns the count.
#[inline]
#[target_feature(enable = "avx2")]
fn compact_store(out: &mut [i32; 8], v: __m256i, mask: usize) -> usize {
    let mask = mask & 0xFF;
    // SAFETY: 8 readable bytes (a table row), unaligned load.
    let idx = unsafe { _mm_loadl_epi64(COMPACT[mask].as_ptr().cast()) };
    store8(
        out,
        _mm256_permutevar8x32_epi32(v, _mm256_cvtepu8_epi32(idx)),
    );
    usize::from(COUNT[mask])
}

/// The accept mask of the lanes where `bound > v` (signed).
#[inline]
#[target_feature(enable = "avx2")]
fn lt_mask(v: __m256i, bound: __m256i) -> usize {
    _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(bound, v))) as usize
}

/// RejNTTPoly's rejection: for each whole 3-byte group of `buf` in order,
/// the 23-bit little-endian value (top bit of the third byte cleared) is
/// written to the next place of `out` if it is below q, until `out` is
/// full. Returns the number written. Same as the portable loop of
/// `sample::rej_ntt_poly`. Branches and table indices depend on `buf`,
/// the XOF output of the public seed ρ.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn rej_uniform(out: &mut [i32], buf: &[u8]) -> usize {
    // Per 128-bit lane, four 3-byte groups to four 32-bit lanes: the low
    // lane holds bytes 0..16 of the 24, the high lane bytes 8..24.
    let spread = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, //
        4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1,
    );
    let mask = _mm256_set1_epi32(0x7F_FFFF);
    let q = _mm256_set1_epi32(Q);
    let mut ctr = 0;
    let mut pos = 0;
    while let (Some(src), Some(dst)) = (
        buf[pos..].first_chunk::<24>(),
        out[ctr..].first_chunk_mut::<8>(),
    ) {
        // SAFETY: `src` has 24 bytes: 16 readable at offset 0 and at 8.
        let v = unsafe { _mm256_loadu2_m128i(src[8..].as_ptr().cast(), src.as_ptr().cast()) };
        let v = _mm256_and_si256(_mm256_shuffle_epi8(v, spread), mask);
        ctr += compact_store(dst, v, lt_mask(v, q));
        pos += 24;
    }
    for c in buf[pos..].chunks_exact(3) {
        if ctr == out.len() {
            break;
        }
        let z = i32::from(c[0]) | i32::from(c[1]) << 8 | i32::from(c[2] & 0x7F) << 16;
        if z < Q {
            out[ctr] = z;
            ctr += 1;
        }
    }
    ctr
}

/// RejBoundedPoly's rejection for η = `ETA` (2 or 4) over the nibbles of
/// `buf` (low nibble first): accepted nibbles (below 15 or 9) become
/// η - (b mod 5) or η - b. Returns the number written to `out`.
#[target_feature(enable = "avx2")]
fn rej_eta<const ETA: u32>(out: &mut [i32], buf: &[u8]) -> usize {
    let shifts = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    let nib = _mm256_set1_epi32(15);
    let bound = _mm256_set1_epi32(if ETA == 2 { 15 } else { 9 });
    let eta = _mm256_set1_epi32(ETA as i32);
    let mut ctr = 0;
    let mut pos = 0;
    while let (Some(src), Some(dst)) = (
        buf[pos..].first_chunk::<4>(),
        out[ctr..].first_chunk_mut::<8>(),
    ) {
        let w = u32::from_le_bytes(*src);
        let b = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(w as i32), shifts), nib);
        let v = if ETA == 2 {
            // b mod 5 = b - 5 ⌊205 b / 1024⌋ (b < 16: a 16-bit product).
            let d = _mm256_srli_epi32::<10>(_mm256_mullo_epi16(b, _mm256_set1_epi32(205)));
            let m = _mm256_sub_epi32(b, _mm256_add_epi32(_mm256_slli_epi32::<2>(d), d));
            _mm256_sub_epi32(eta, m)
        } else {
            _mm256_sub_epi32(eta, b)
        };
        // CT: the accept pattern of the nibbles (not their values), as in
        // the portable `sample::rej_bounded_poly`, which gives the argument.
        let accept = pqforge_core::ctgrind::declassify_val(lt_mask(b, bound));
        ctr += compact_store(dst, v, accept);
        pos += 4;
    }
    for &byte in &buf[pos..] {
        for b in [u32::from(byte & 15), u32::from(byte >> 4)] {
            if ctr == out.len() {
                return ctr;
            }
            // CT: the accept bit only (see above).
            if pqforge_core::ctgrind::declassify_val(b < if ETA == 2 { 15 } else { 9 }) {
                let v = if ETA == 2 {
                    b - 5 * ((205 * b) >> 10)
                } else {
                    b
                };
                out[ctr] = ETA as i32 - v as i32;
                ctr += 1;
            }
        }
    }
    ctr
}

/// `L` SHAKE instances run together: one four-lane sponge (`L` = 4) or two
/// squeezed as a pair (`L` = 8: one pass over 512-bit registers with
/// AVX-512, see `keccak_x4::keccak_f1600_x4_pair`).
pub(crate) trait Xof<const L: usize> {
    /// Absorbs one message per lane (all of one length) and pads.
    fn absorb(inputs: [&[u8]; L]) -> Self;
    /// Squeezes whole blocks into every lane's output (all of one length).
    fn squeeze(&mut self, out: [&mut [u8]; L]);
}

impl<const R: usize> Xof<4> for SpongeX4<R, 0x1F> {
    fn absorb(inputs: [&[u8]; 4]) -> Self {
        Self::absorb_once(inputs)
    }
    fn squeeze(&mut self, out: [&mut [u8]; 4]) {
        self.squeeze_blocks(out);
    }
}

impl<const R: usize> Xof<8> for [SpongeX4<R, 0x1F>; 2] {
    fn absorb(inputs: [&[u8]; 8]) -> Self {
        let [a, b, c, d, e, f, g, h] = inputs;
        [
            SpongeX4::absorb_once([a, b, c, d]),
            SpongeX4::absorb_once([e, f, g, h]),
        ]
    }
    fn squeeze(&mut self, out: [&mut [u8]; 8]) {
        let [x, y] = self;
        SpongeX4::squeeze_blocks_pair(x, y, out);
    }
}

/// The `L` byte strings seed || (two bytes per lane).
fn seeds<const S: usize, const T: usize, const L: usize>(
    seed: &[u8; S],
    tail: [[u8; 2]; L],
) -> [[u8; T]; L] {
    debug_assert_eq!(S + 2, T);
    let mut out = [[0u8; T]; L];
    for (o, t) in out.iter_mut().zip(tail) {
        o[..S].copy_from_slice(seed);
        o[S..].copy_from_slice(&t);
    }
    out
}

#[cfg(test)]
/// ExpandA's entries: `out[j]` = RejNTTPoly(ρ || s || r) for
/// `idx[j]` = (s, r) = (column, row), exactly `sample::rej_ntt_poly(rho,
/// s, r, out[j])`. Squeezes until all four are complete. For fewer than
/// four entries, repeat an index and pass a scratch polynomial (a repeated
/// index needs no extra blocks).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn expand_a_x4(rho: &[u8; 32], idx: [(u8, u8); 4], out: [&mut Poly; 4]) {
    // SAFETY: AVX2 (this function's own requirement).
    unsafe { expand_a_lanes::<Shake128x4, 4>(rho, idx, out) }
}

/// [`expand_a_x4`] on `L` lanes of [`Xof`] `X` (SHAKE128).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn expand_a_lanes<X: Xof<L>, const L: usize>(
    rho: &[u8; 32],
    idx: [(u8, u8); L],
    out: [&mut Poly; L],
) {
    let inputs = seeds::<32, 34, L>(rho, idx.map(|(s, r)| [s, r]));
    let mut xof = X::absorb(core::array::from_fn(|j| &inputs[j][..]));
    let mut out = out;
    let mut buf = [[0u8; 168]; L];
    let mut ctr = [0usize; L];
    while ctr.iter().any(|&c| c < N) {
        xof.squeeze(buf.each_mut().map(|b| &mut b[..]));
        for ((o, c), b) in out.iter_mut().zip(&mut ctr).zip(&buf) {
            if *c < N {
                // SAFETY: AVX2 (this function's own requirement).
                *c += unsafe { rej_uniform(&mut o[*c..], b) };
            }
        }
    }
}

#[cfg(test)]
/// ExpandS's polynomials: `out[j]` = RejBoundedPoly(ρ' || u16le(nonces[j]))
/// with η = `eta` (2 or 4), exactly `sample::rej_bounded_poly(rho_p,
/// nonces[j], eta, out[j])`. For fewer than four, repeat a nonce and pass a
/// scratch polynomial.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn expand_s_x4(
    rho_p: &[u8; 64],
    nonces: [u16; 4],
    eta: u32,
    out: [&mut Poly; 4],
) {
    // SAFETY: AVX2 (this function's own requirement).
    unsafe { expand_s_lanes::<Shake256x4, 4>(rho_p, nonces, eta, out) }
}

/// [`expand_s_x4`] on `L` lanes of [`Xof`] `X` (SHAKE256).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn expand_s_lanes<X: Xof<L>, const L: usize>(
    rho_p: &[u8; 64],
    nonces: [u16; L],
    eta: u32,
    out: [&mut Poly; L],
) {
    let mut inputs = seeds::<64, 66, L>(rho_p, nonces.map(u16::to_le_bytes));
    let mut xof = X::absorb(core::array::from_fn(|j| &inputs[j][..]));
    wipe(inputs.as_flattened_mut());
    let mut out = out;
    let mut buf = [[0u8; 136]; L];
    let mut ctr = [0usize; L];
    while ctr.iter().any(|&c| c < N) {
        xof.squeeze(buf.each_mut().map(|b| &mut b[..]));
        for ((o, c), b) in out.iter_mut().zip(&mut ctr).zip(&buf) {
            if *c < N {
                *c += if eta == 2 {
                    rej_eta::<2>(&mut o[*c..], b)
                } else {
                    rej_eta::<4>(&mut o[*c..], b)
                };
            }
        }
    }
    wipe(buf.as_flattened_mut());
}

/// BitUnpack of 256 coefficients of `BITS` = γ1 bits + 1 (18 or 20) from
/// `bytes` (32 · BITS bytes): out_i = γ1 - field_i. Fixed loads and
/// shuffles (secret data).
#[target_feature(enable = "avx2")]
fn unpack_gamma1<const BITS: u32>(bytes: &[u8], out: &mut Poly) {
    // 8 coefficients per BITS bytes; the high 128-bit lane loads from `hi`
    // bytes further, its first coefficient at byte `first` of the load.
    let (hi, spread, shifts) = if BITS == 18 {
        (
            2,
            _mm256_setr_epi8(
                0, 1, 2, -1, 2, 3, 4, -1, 4, 5, 6, -1, 6, 7, 8, -1, //
                7, 8, 9, -1, 9, 10, 11, -1, 11, 12, 13, -1, 13, 14, 15, -1,
            ),
            _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6),
        )
    } else {
        (
            4,
            _mm256_setr_epi8(
                0, 1, 2, -1, 2, 3, 4, -1, 5, 6, 7, -1, 7, 8, 9, -1, //
                6, 7, 8, -1, 8, 9, 10, -1, 11, 12, 13, -1, 13, 14, 15, -1,
            ),
            _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4),
        )
    };
    let mask = _mm256_set1_epi32((1 << BITS) - 1);
    let gamma1 = _mm256_set1_epi32(1 << (BITS - 1));
    let step = BITS as usize;
    let bytes = &bytes[..32 * step];
    for (i, o) in out.as_chunks_mut::<8>().0.iter_mut().enumerate() {
        let src = &bytes[step * i..step * (i + 1)];
        // SAFETY: `src` has BITS ≥ 18 bytes: 16 readable at offset 0 and at
        // `hi` (hi + 16 = BITS).
        let v = unsafe { _mm256_loadu2_m128i(src[hi..].as_ptr().cast(), src.as_ptr().cast()) };
        let v = _mm256_srlv_epi32(_mm256_shuffle_epi8(v, spread), shifts);
        store8(o, _mm256_sub_epi32(gamma1, _mm256_and_si256(v, mask)));
    }
}

#[cfg(test)]
/// ExpandMask's polynomials: `out[j]` = BitUnpack(H(ρ'' || u16le(nonces[j]),
/// 32 (γ1 bits + 1)), γ1 - 1, γ1) for γ1 = 2^`gamma1_bits` (17 or 19), the
/// per-polynomial step of `sign::sign` (coefficients in (-γ1, γ1]). For
/// fewer than four, repeat a nonce and pass a scratch polynomial.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn expand_mask_x4(
    rho2: &[u8; 64],
    nonces: [u16; 4],
    gamma1_bits: u32,
    out: [&mut Poly; 4],
) {
    // SAFETY: AVX2 (this function's own requirement).
    unsafe { expand_mask_lanes::<Shake256x4, 4>(rho2, nonces, gamma1_bits, out) }
}

/// [`expand_mask_x4`] on `L` lanes of [`Xof`] `X` (SHAKE256).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn expand_mask_lanes<X: Xof<L>, const L: usize>(
    rho2: &[u8; 64],
    nonces: [u16; L],
    gamma1_bits: u32,
    out: [&mut Poly; L],
) {
    let mut inputs = seeds::<64, 66, L>(rho2, nonces.map(u16::to_le_bytes));
    let mut xof = X::absorb(core::array::from_fn(|j| &inputs[j][..]));
    wipe(inputs.as_flattened_mut());
    // 576 or 640 bytes: five blocks.
    let mut buf = [[0u8; 5 * 136]; L];
    xof.squeeze(buf.each_mut().map(|b| &mut b[..]));
    for (o, b) in out.into_iter().zip(&buf) {
        if gamma1_bits == 17 {
            unpack_gamma1::<18>(b, o);
        } else {
            unpack_gamma1::<20>(b, o);
        }
    }
    wipe(buf.as_flattened_mut());
}

#[cfg(test)]
mod tests {
    extern crate std;

    use std::vec::Vec;

    use pqforge_core::keccak::{Shake128, Shake256};
    use pqforge_core::testing::TestRng;

    use super::super::testutil::{avx2_or_skip, in_range};
    use super::*;
    use crate::pack::unpack_signed;
    use crate::sample as portable;

    fn unhex<const L: usize>(s: &str) -> [u8; L] {
        core::array::from_fn(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap_or(0))
    }

    /// The rejection loop of `sample::rej_ntt_poly` over one byte string.
    fn rej_uniform_ref(out: &mut [i32], buf: &[u8]) -> usize {
        let mut j = 0;
        for c in buf.chunks_exact(3) {
            let z = i32::from(c[0]) | i32::from(c[1]) << 8 | i32::from(c[2] & 0x7F) << 16;
            if z < Q && j < out.len() {
                out[j] = z;
                j += 1;
            }
        }
        j
    }

    /// Random byte strings of every length up to 5 blocks and outputs of
    /// random lengths; and adversarial strings whose 3-byte groups are near
    /// q (q - 1, q, 2^23 - 1, top bit set) so that about half are rejected.
    #[test]
    fn avx2_rej_uniform_matches_portable() {
        if !avx2_or_skip("avx2_rej_uniform_matches_portable") {
            return;
        }
        let mut rng = TestRng::new(0x5245_4a55);
        let near_q: [[u8; 3]; 6] = [
            [0x00, 0xE0, 0x7F], // q - 1: accepted
            [0x01, 0xE0, 0x7F], // q: rejected
            [0xFF, 0xFF, 0x7F], // 2^23 - 1: rejected
            [0x00, 0xE0, 0xFF], // q - 1 with the top bit: accepted
            [0x01, 0xE0, 0xFF], // q with the top bit: rejected
            [0x00, 0x00, 0x80], // 0 with the top bit: accepted
        ];
        for t in 0..4000 {
            let len = rng.below(5 * 168 + 1);
            let mut buf = std::vec![0u8; len];
            if t % 2 == 0 {
                rng.fill(&mut buf);
            } else {
                for c in buf.chunks_mut(3) {
                    let g = near_q[rng.below(near_q.len())];
                    c.copy_from_slice(&g[..c.len()]);
                }
            }
            let cap = if t % 3 == 0 { N } else { rng.below(N + 1) };
            let (mut want, mut got) = ([-1i32; N], [-1i32; N]);
            let nw = rej_uniform_ref(&mut want[..cap], &buf);
            // SAFETY: AVX2 detected above.
            let ng = unsafe { rej_uniform(&mut got[..cap], &buf) };
            assert_eq!(ng, nw, "count, buffer length {len}, cap {cap}");
            assert_eq!(
                got[..ng],
                want[..nw],
                "values, buffer length {len}, cap {cap}"
            );
            assert!(got[cap..].iter().all(|&x| x == -1), "wrote past the output");
        }
    }

    /// Bytes of XOF output RejNTTPoly(ρ || s || r) reads (3 per candidate).
    fn bytes_a(rho: &[u8; 32], s: u8, r: u8) -> usize {
        let mut g = Shake128::new();
        g.absorb(rho);
        g.absorb(&[s, r]);
        let (mut c, mut n, mut bytes) = ([0u8; 3], 0, 0);
        while n < N {
            g.squeeze(&mut c);
            n += rej_uniform_ref(&mut [0], &c);
            bytes += 3;
        }
        bytes
    }

    /// The whole matrix (k rows, ℓ columns) of ρ four entries at a time
    /// against `rej_ntt_poly`; returns the most XOF bytes an entry read.
    fn check_matrix(rho: &[u8; 32], k: u8, l: u8) -> usize {
        let idx: Vec<(u8, u8)> = (0..k).flat_map(|r| (0..l).map(move |s| (s, r))).collect();
        let mut most = 0;
        for chunk in idx.chunks(4) {
            let ids: [(u8, u8); 4] = core::array::from_fn(|j| chunk[j.min(chunk.len() - 1)]);
            let mut out = [[0i32; N]; 4];
            let [o0, o1, o2, o3] = &mut out;
            // SAFETY: the callers checked for AVX2.
            unsafe { expand_a_x4(rho, ids, [o0, o1, o2, o3]) };
            for (j, &(s, r)) in ids.iter().enumerate() {
                let mut want = [0; N];
                portable::rej_ntt_poly(rho, s, r, &mut want);
                assert_eq!(out[j], want, "entry (row {r}, column {s})");
                most = most.max(bytes_a(rho, s, r));
            }
        }
        most
    }

    /// Random seeds and indices, and the Wycheproof "ManySteps" public
    /// seeds ρ over their whole matrices (every entry needs 5 blocks: 4
    /// give only 224 candidates; a sixth block would take 25 rejections in
    /// 280 candidates, which SHAKE will not produce in a test, so the
    /// samplers have no block budget at all).
    /// The eight-lane samplers (two four-lane sponges squeezed as a pair:
    /// one 512-bit pass with AVX-512, two four-lane passes without) equal
    /// the portable ones lane by lane.
    #[test]
    fn eight_lane_samplers_match_portable() {
        if !avx2_or_skip("eight_lane_samplers_match_portable") {
            return;
        }
        let mut rng = TestRng::new(0x3858_4C41);
        for _ in 0..if cfg!(miri) { 1 } else { 10 } {
            let rho = rng.array::<32>();
            let seed = rng.array::<64>();
            let ids: [(u8, u8); 8] =
                core::array::from_fn(|_| (rng.next_u32() as u8, rng.next_u32() as u8));
            let nonces: [u16; 8] = core::array::from_fn(|_| rng.next_u32() as u16);
            let mut out = [[0i32; N]; 8];
            // SAFETY: AVX2 detected above.
            unsafe { expand_a_lanes::<[Shake128x4; 2], 8>(&rho, ids, out.each_mut()) };
            for (j, &(s, r)) in ids.iter().enumerate() {
                let mut want = [0; N];
                portable::rej_ntt_poly(&rho, s, r, &mut want);
                assert_eq!(out[j], want, "ExpandA lane {j}");
            }
            for eta in [2, 4] {
                // SAFETY: AVX2 detected above.
                unsafe { expand_s_lanes::<[Shake256x4; 2], 8>(&seed, nonces, eta, out.each_mut()) };
                for (j, &n) in nonces.iter().enumerate() {
                    let mut want = [0; N];
                    portable::rej_bounded_poly(&seed, n, eta, &mut want);
                    assert_eq!(out[j], want, "ExpandS η = {eta} lane {j}");
                }
            }
            for bits in [17, 19] {
                // SAFETY: AVX2 detected above.
                unsafe {
                    expand_mask_lanes::<[Shake256x4; 2], 8>(&seed, nonces, bits, out.each_mut());
                }
                for (j, &n) in nonces.iter().enumerate() {
                    let mut want = [0; N];
                    portable::expand_mask_poly(&seed, n, bits, &mut want);
                    assert_eq!(out[j], want, "ExpandMask γ1 = 2^{bits} lane {j}");
                }
            }
        }
    }

    #[test]
    fn avx2_expand_a_x4_matches_portable() {
        if !avx2_or_skip("avx2_expand_a_x4_matches_portable") {
            return;
        }
        let mut rng = TestRng::new(0x4558_5041);
        for _ in 0..if cfg!(miri) { 1 } else { 50 } {
            let rho = rng.array::<32>();
            let ids: [(u8, u8); 4] =
                core::array::from_fn(|_| (rng.next_u32() as u8, rng.next_u32() as u8));
            let mut out = [[0i32; N]; 4];
            let [o0, o1, o2, o3] = &mut out;
            // SAFETY: AVX2 detected above.
            unsafe { expand_a_x4(&rho, ids, [o0, o1, o2, o3]) };
            for (j, &(s, r)) in ids.iter().enumerate() {
                let mut want = [0; N];
                portable::rej_ntt_poly(&rho, s, r, &mut want);
                assert_eq!(out[j], want);
            }
        }
        let many_steps = [
            (
                "0c5c1177e554a79d65fcc3774620f6e9870679f6069cc1e00d7f151830fe6dd7",
                4,
                4,
            ),
            (
                "f6c170880279289a1e12b012abb9d3cdf7cbd00c6102c0812b210e19c61e6719",
                4,
                4,
            ),
            (
                "0806492d310816db3cc1d2b0f6b4cea724bdec9ab3ae7efd0e1f505054669a9f",
                4,
                4,
            ),
            (
                "66239a16589a522a029a216a75a70a5b1c9c49b6432bff6e4be262d4d999c01d",
                6,
                5,
            ),
            (
                "e5824f0943ad27a943fe7b1d52b8a42f689fedd9c6b8df15a4d9a6484b06c9cc",
                6,
                5,
            ),
            (
                "622db4b1c15f5f5ee55e9911432b2a58caa5bd242a6f38a9e2d9cac83db4a399",
                6,
                5,
            ),
            (
                "2b10369a479b4fb16303a28768681ba355d73772526452482265f3d72e255bf9",
                8,
                7,
            ),
            (
                "8588d98656a8f17295805d1b38b207dfbcc02a5192031b1e8960e51dd6bbd9b1",
                8,
                7,
            ),
            (
                "25f4d547d98e744400f34dcd9f981c093bdbf073efda689f75c9cb0b7ddebf3a",
                8,
                7,
            ),
        ];
        let mut most = 0;
        for (rho, k, l) in many_steps {
            most = most.max(check_matrix(&unhex(rho), k, l));
        }
        assert!(
            most > 768,
            "the ManySteps seeds have entries with rejections ({most} bytes)"
        );
    }

    /// Bytes of XOF output RejBoundedPoly(ρ' || nonce) reads.
    fn bytes_s(rho_p: &[u8; 64], nonce: u16, eta: u32) -> usize {
        let mut h = Shake256::new();
        h.absorb(rho_p);
        h.absorb(&nonce.to_le_bytes());
        let (mut c, mut n, mut bytes) = ([0u8; 1], 0, 0);
        let mut tmp = [0i32; N];
        while n < N {
            h.squeeze(&mut c);
            n += rej_eta_ref(&mut tmp[n..], &c, eta);
            bytes += 1;
        }
        bytes
    }

    /// Polynomials `nonces` of ρ' four at a time against `rej_bounded_poly`;
    /// returns the most XOF bytes one read.
    fn check_s(rho_p: &[u8; 64], nonces: &[u16], eta: u32) -> usize {
        let mut most = 0;
        for chunk in nonces.chunks(4) {
            let ns: [u16; 4] = core::array::from_fn(|j| chunk[j.min(chunk.len() - 1)]);
            let mut out = [[0i32; N]; 4];
            let [o0, o1, o2, o3] = &mut out;
            // SAFETY: the callers checked for AVX2.
            unsafe { expand_s_x4(rho_p, ns, eta, [o0, o1, o2, o3]) };
            for (j, &n) in ns.iter().enumerate() {
                let mut want = [0; N];
                portable::rej_bounded_poly(rho_p, n, eta, &mut want);
                assert_eq!(out[j], want, "nonce {n}, η = {eta}");
                most = most.max(bytes_s(rho_p, n, eta));
            }
        }
        most
    }

    /// The rejection loop of `sample::rej_bounded_poly` over one byte string.
    fn rej_eta_ref(out: &mut [i32], buf: &[u8], eta: u32) -> usize {
        let mut j = 0;
        for &byte in buf {
            for b in [u32::from(byte & 15), u32::from(byte >> 4)] {
                if j < out.len() && eta == 2 && b < 15 {
                    out[j] = 2 - (b % 5) as i32;
                    j += 1;
                } else if j < out.len() && eta == 4 && b < 9 {
                    out[j] = 4 - b as i32;
                    j += 1;
                }
            }
        }
        j
    }

    /// RejBoundedPoly's step on random byte strings of every length up to
    /// 3 blocks, random output lengths, and nibble-adversarial strings
    /// (mostly rejected nibbles: 9..15, or every nibble value in turn).
    #[test]
    fn avx2_rej_eta_matches_portable() {
        if !avx2_or_skip("avx2_rej_eta_matches_portable") {
            return;
        }
        let mut rng = TestRng::new(0x5245_4a45);
        for t in 0..6000 {
            let len = rng.below(3 * 136 + 1);
            let mut buf = std::vec![0u8; len];
            match t % 3 {
                0 => rng.fill(&mut buf),
                1 => {
                    for b in &mut buf {
                        let lo = in_range(&mut rng, 8, 15) as u8;
                        let hi = in_range(&mut rng, 8, 15) as u8;
                        *b = lo | hi << 4;
                    }
                }
                _ => {
                    for (i, b) in buf.iter_mut().enumerate() {
                        *b = (i as u8).wrapping_mul(0x11).wrapping_add(t as u8);
                    }
                }
            }
            let cap = if t % 4 == 0 { N } else { rng.below(N + 1) };
            for eta in [2, 4] {
                let (mut want, mut got) = ([-9i32; N], [-9i32; N]);
                let nw = rej_eta_ref(&mut want[..cap], &buf, eta);
                let ng = if eta == 2 {
                    // SAFETY: AVX2 detected above.
                    unsafe { rej_eta::<2>(&mut got[..cap], &buf) }
                } else {
                    // SAFETY: AVX2 detected above.
                    unsafe { rej_eta::<4>(&mut got[..cap], &buf) }
                };
                assert_eq!(ng, nw, "count, η = {eta}, length {len}, cap {cap}");
                assert_eq!(got[..ng], want[..nw], "values, η = {eta}, length {len}");
                assert!(got[cap..].iter().all(|&x| x == -9), "wrote past the output");
            }
        }
    }

    /// Random seeds and nonces for η = 2 and 4, and the Wycheproof
    /// "ManySteps" key seeds ξ (ρ' = H(ξ || k || ℓ)[32..96]) over all of
    /// s1 and s2: ExpandS reading the most bytes, η = 2 polynomials needing
    /// a second block.
    #[test]
    fn avx2_expand_s_x4_matches_portable() {
        if !avx2_or_skip("avx2_expand_s_x4_matches_portable") {
            return;
        }
        let mut rng = TestRng::new(0x4558_5053);
        for t in 0..200 {
            let rho_p = rng.array::<64>();
            let ns: [u16; 4] = core::array::from_fn(|_| rng.next_u32() as u16);
            check_s(&rho_p, &ns, if t % 2 == 0 { 2 } else { 4 });
        }
        let many_steps = [
            (
                "1f00000000000000000000000000000000000000000000000000000000000000",
                4,
                4,
                2,
            ),
            (
                "002a010000000000000000000000000000000000000000000000000000000000",
                4,
                4,
                2,
            ),
            (
                "093a000000000000000000000000000000000000000000000000000000000000",
                6,
                5,
                4,
            ),
            (
                "4291000000000000000000000000000000000000000000000000000000000000",
                6,
                5,
                4,
            ),
            (
                "9a4a000000000000000000000000000000000000000000000000000000000000",
                8,
                7,
                2,
            ),
        ];
        let mut most = [0; 5];
        for (xi, k, l, eta) in many_steps {
            let mut h = Shake256::new();
            h.absorb(&unhex::<32>(xi));
            h.absorb(&[k, l]);
            let mut seeds = [0u8; 96];
            h.squeeze(&mut seeds);
            let rho_p: [u8; 64] = core::array::from_fn(|i| seeds[32 + i]);
            let nonces: Vec<u16> = (0..u16::from(k + l)).collect();
            most[eta as usize] = most[eta as usize].max(check_s(&rho_p, &nonces, eta));
        }
        // η = 2 polynomials reading into a second block are among them
        // (η = 4 always needs two). Wycheproof's byte counts come from a
        // different accounting; this one is the standard's.
        assert!(most[2] > 136, "ManySteps byte counts {most:?}");
    }

    /// Random seeds and nonces (including the extremes) for γ1 = 2^17 and
    /// 2^19 against H(ρ'' || nonce) and `pack::unpack_signed`.
    #[test]
    fn avx2_expand_mask_x4_matches_portable() {
        if !avx2_or_skip("avx2_expand_mask_x4_matches_portable") {
            return;
        }
        let mut rng = TestRng::new(0x4558_504d);
        for t in 0..400 {
            let rho2 = rng.array::<64>();
            let bits = if t % 2 == 0 { 17 } else { 19 };
            let ns: [u16; 4] = if t < 2 {
                [0, 1, u16::MAX - 1, u16::MAX]
            } else {
                core::array::from_fn(|_| in_range(&mut rng, 0, 0xFFFF) as u16)
            };
            let mut out = [[0i32; N]; 4];
            let [o0, o1, o2, o3] = &mut out;
            // SAFETY: AVX2 detected above.
            unsafe { expand_mask_x4(&rho2, ns, bits, [o0, o1, o2, o3]) };
            for (j, &n) in ns.iter().enumerate() {
                let mut h = Shake256::new();
                h.absorb(&rho2);
                h.absorb(&n.to_le_bytes());
                let mut buf = [0u8; 640];
                let zbytes = 32 * (bits as usize + 1);
                h.squeeze(&mut buf[..zbytes]);
                let mut want = [0; N];
                unpack_signed(&buf[..zbytes], 1 << bits, bits + 1, &mut want);
                assert_eq!(out[j], want, "γ1 = 2^{bits}, nonce {n}");
            }
        }
    }
}
