//! Solving the NTRU equation f G - g F = q (Falcon specification v1.2,
//! Algorithm 6, in the recursive "field norm" form of the round-3 reference
//! implementation: RNS + NTT for the big resultants, a constant-time binary
//! extended GCD at the deepest level, and Babai reduction with approximate
//! floating-point quotients at each level going back up).
//!
//! Big integers are arrays of 31-bit limbs ([`crate::zint`]); a polynomial
//! with `len`-limb coefficients is stored coefficient-major (coefficient u
//! at u*len). The layouts of the intermediate buffers differ from the
//! reference, and so does the schedule of the exact integer work (residues
//! over blocks of primes, one CRT pass for F and G together, fused
//! schoolbook products, NTT forms of f, g kept across the Babai loop, v of
//! the Bezout identity recovered by exact division; f, g of every depth
//! kept from a single descent; at the deep levels, where the integers are
//! few and long, field norms and F'(x^2) g(-x) by direct big-integer
//! products instead of RNS + NTT + CRT). Every such step yields a unique
//! value (a residue, a CRT representative, a sum modulo 2^(31 len), the
//! Bezout coefficients), and the floating-point steps are those of the
//! reference in the same order, so the output (F, G) is identical. (The
//! direct products give the exact integers; the reference's CRT gives the
//! same ones because its MAX_BL_SMALL / MAX_BL_LARGE prime counts are
//! chosen so that those integers fit, with a margin of many standard
//! deviations of the measured bit lengths.)
//!
//! The levels: [`descent`] (the field norms of f, g down to the constants),
//! the deepest level here (Bezout), [`lift`] (each intermediate level back
//! up, with the Babai reduction of [`babai`]), [`shallow`] (depths 1 and 0,
//! one-limb results). [`check`] has the NTRU-equation check of imported
//! keys.
//!
//! Scratch: `tmp` (u32) holds the persistent F, G at its start between
//! levels; `ftmp` (Fpr) is separate.

mod babai;
pub(crate) mod check;
mod descent;
mod lift;
mod shallow;

use crate::backend::Backend;
use crate::fpr::Fpr;
use crate::modp::{Ntt, Prime};
use crate::zint::{self, ZViewMut};

/// Maximum limbs of f, g at each depth (index: depth 0..=10).
const MAX_BL_SMALL: [usize; 11] = [1, 1, 2, 2, 4, 7, 14, 27, 53, 106, 209];
/// Maximum limbs of the unreduced F, G at each depth.
const MAX_BL_LARGE: [usize; 10] = [2, 2, 5, 7, 12, 21, 40, 78, 157, 308];
/// Average and standard deviation of the bit length of f, g coefficients at
/// each depth (measured by the reference authors).
const BITLENGTH: [(i32, i32); 11] = [
    (4, 0),
    (11, 1),
    (24, 1),
    (50, 1),
    (102, 1),
    (202, 2),
    (401, 4),
    (794, 5),
    (1577, 8),
    (3138, 13),
    (6308, 25),
];
/// Up to this depth, F - k f is computed with NTT; deeper, schoolbook.
const DEPTH_INT_FG: u32 = 4;

/// The secret polynomials of a key, f, g, F and G (the NTRU basis
/// [[g, -f], [G, -F]]), n = 2^logn coefficients each.
#[derive(Clone, Copy)]
pub(crate) struct NtruKey<'a> {
    pub(crate) f: &'a [i8],
    pub(crate) g: &'a [i8],
    pub(crate) ff: &'a [i8],
    pub(crate) gg: &'a [i8],
}

/// One solver run: the backend, the top-level f, g and their degree
/// 2^logn_top.
struct Solver<'a, B> {
    b: B,
    f: &'a [i8],
    g: &'a [i8],
    logn_top: u32,
}

impl<B: Backend> Solver<'_, B> {
    /// Deepest level (constant polynomials): Res(f), Res(g), then F, G from
    /// the extended GCD, times q. Output F, G (len limbs each) at tmp[0..].
    fn solve_deepest(&self, tmp: &mut [u32]) -> bool {
        let b = self.b;
        let logn_top = self.logn_top;
        let len = MAX_BL_SMALL[logn_top as usize];
        let plain = if descent::fg_cache_fits(logn_top, tmp.len()) {
            self.make_fg_deepest_cached(tmp, 2 * len)
        } else {
            self.make_fg(&mut tmp[2 * len..], logn_top, false);
            false
        };
        let (fgp, rest) = tmp.split_at_mut(2 * len);
        let (fpgp, t1) = rest.split_at_mut(2 * len);
        if !plain {
            // (Resultants are positive: no signed normalisation.)
            zint::rebuild_crt(b, ZViewMut::packed(fpgp, len), 2, false, t1);
        }
        let (ffp, ggp) = fgp.split_at_mut(len);
        let (fp, gp) = fpgp.split_at(len);
        // f G - g F = 1 (u = G, v = F).
        if !zint::bezout(ggp, ffp, fp, gp, len, t1) {
            return false;
        }
        let c1 = zint::mul_small(ffp, 12289);
        let c2 = zint::mul_small(ggp, 12289);
        // CT: overflow of F, G is a keygen rejection condition.
        !crate::ct_util::declassify_bool((c1 | c2) != 0)
    }
}

/// Solves f G - g F = q for F (and G, internally), with |F|, |G| <= lim.
/// Returns false (keygen retries) on any failure. n = 2^logn = f.len().
/// Scratch: `tmp` >= 8n words, `ftmp` >= 3n values.
pub(crate) fn solve_ntru<B: Backend>(
    b: B,
    f: &[i8],
    g: &[i8],
    ff_out: &mut [i8],
    lim: i32,
    tmp: &mut [u32],
    ftmp: &mut [Fpr],
) -> bool {
    let logn = f.len().trailing_zeros();
    let n = 1usize << logn;
    let s = Solver {
        b,
        f,
        g,
        logn_top: logn,
    };
    if !s.solve_deepest(tmp) {
        return false;
    }
    // Depths 1 and 0 have their own (one-limb) solvers from logn 3 on.
    let last = if logn <= 2 { 0 } else { 2 };
    for depth in (last..logn).rev() {
        if !s.solve_intermediate(depth, tmp, ftmp) {
            return false;
        }
    }
    if logn > 2 {
        if !s.solve_binary_depth1(tmp, ftmp) {
            return false;
        }
        if !s.solve_binary_depth0(tmp, ftmp) {
            return false;
        }
    }

    // F, G to small integers, bounded by lim.
    let mut gg = [0i8; 1024];
    let mut bad = 0u32;
    for u in 0..n {
        let zf = zint::one_to_plain(tmp[u]);
        let zg = zint::one_to_plain(tmp[n + u]);
        bad |= pqforge_core::ct::lt_mask_u32(2 * lim as u32, zf.wrapping_add(lim) as u32);
        bad |= pqforge_core::ct::lt_mask_u32(2 * lim as u32, zg.wrapping_add(lim) as u32);
        ff_out[u] = zf as i8;
        gg[u] = zg as i8;
    }

    // Check f G - g F = q modulo the first prime.
    let (gt, rest) = tmp.split_at_mut(n);
    let (ft, rest) = rest.split_at_mut(n);
    let (gtt, rest) = rest.split_at_mut(n);
    let (fft_, rest) = rest.split_at_mut(n);
    let (gm, rest) = rest.split_at_mut(n);
    let igm = &mut rest[..n];
    let t = Ntt::build(b, Prime::new(0), gm, igm, logn);
    let c = t.pr;
    for u in 0..n {
        gt[u] = c.set(i32::from(gg[u]));
        ft[u] = c.set(i32::from(f[u]));
        gtt[u] = c.set(i32::from(g[u]));
        fft_[u] = c.set(i32::from(ff_out[u]));
    }
    t.ntt(&mut *ft, logn);
    t.ntt(&mut *gtt, logn);
    t.ntt(&mut *fft_, logn);
    t.ntt(&mut *gt, logn);
    let r = c.mm(12289, 1);
    for u in 0..n {
        let z = c.sub(c.mm(ft[u], gt[u]), c.mm(gtt[u], fft_[u]));
        bad |= !pqforge_core::ct::eq_mask_u32(z, r);
    }
    zeroize::Zeroize::zeroize(&mut gg);
    // CT: keygen rejection bit.
    !crate::ct_util::declassify_bool(bad != 0)
}
