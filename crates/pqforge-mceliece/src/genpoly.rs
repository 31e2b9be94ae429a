//! Goppa polynomial generation (round-4 specification §2.4.1 step 4,
//! the reference `genpoly_gen`): the minimal polynomial of a random
//! element `f` of GF((2^m)^t) = GF(2^m)\[y\]/F(y) over GF(2^m).
//!
//! The reference solves `[1, f, ..., f^(t-1)] g = -f^t` by Gauss–Jordan
//! elimination on the `t x (t+1)` matrix whose column `c` holds the
//! coefficients of `f^c`, and retries key generation when the matrix is
//! singular. The solution is unique, so any exact elimination gives the
//! same `g`, and every exact elimination fails exactly when the matrix is
//! singular. Here:
//!
//! 1. Powers: `f^(2k) = (f^k)^2` (squaring is cheap in characteristic 2:
//!    the coefficients are squared and spread to the even positions), and
//!    `f^(2k+1) = f^(2k) f`: only about t/2 general products.
//! 2. Forward elimination with the reference's pivot rule (while the pivot
//!    is zero, add the next later row), each pivot row scaled to a unit
//!    pivot: about t^3/3 field products instead of the t^3/2 of
//!    Gauss–Jordan. The rows from the pivot down are exactly those of the
//!    reference at every step (the reference additionally clears the
//!    rows above, which never feed a later pivot), so the pivots, and the
//!    failure step, are the same.
//! 3. Back substitution for the last column only: `g_t = 1`,
//!    `g_j = sum_{c > j} U[j][c] g_c` (signs vanish in characteristic 2).
//!
//! The matrix lives in the caller's scratch (part of the public-key
//! buffer), rows of `t+1` little-endian `u16` padded to a multiple of
//! 32 bytes (whole 256-bit blocks for the AVX2 kernels; the padding stays
//! zero, and zero columns stay zero under row operations).
//!
//! Field products use `a b = sum_i a_i (b x^i mod p(x))` over the bits
//! `a_i` of `a`, with masks made from bits: no table lookup, no
//! secret-dependent branch. In the row operations `rk ^= t rj` the `m`
//! multiples `rj x^i` are tabulated once per pivot and the bits come from
//! the scalar `t` (m masks per row), so a lane costs m AND/XOR pairs;
//! the pivot scaling and the back substitution take the bits from the
//! lanes and tabulate the multiples of the other factor. The portable
//! kernels run 4 lanes per 64-bit word (SWAR, also fine on 32-bit
//! targets); the AVX2 ones (`backend/avx2/genpoly.rs`) 16 lanes per
//! register, and carry-less multiplication for the powers.

use pqforge_core::ctgrind::declassify_val;

use crate::ParameterSet;
use crate::backend::Backend;
use crate::gf::{self, MAX_M};

/// Maximum t.
pub(crate) const MAX_T: usize = 128;

/// Largest row stride in bytes (t = 128).
pub(crate) const MAX_STRIDE: usize = (2 * (MAX_T + 1)).next_multiple_of(32);

/// Row stride in bytes of the matrix: `t+1` coefficients, padded to a
/// multiple of 32 bytes.
pub(crate) const fn stride<P: ParameterSet>() -> usize {
    (2 * (P::T + 1)).next_multiple_of(32)
}

/// Scratch bytes [`genpoly`] needs.
pub(crate) const fn scratch_bytes<P: ParameterSet>() -> usize {
    P::T * stride::<P>()
}

/// Minimal polynomial of `f` (`t` coefficients below 2^m) in
/// GF((2^m)^t) over GF(2^m): writes its `t` low coefficients to `out`
/// (monic: the leading 1 is omitted). Returns false, leaving `out`
/// untouched, iff the minimal polynomial has degree below t (the system is
/// singular: the reference retries). `scratch` needs
/// [`scratch_bytes`] bytes; they are zero on return.
#[inline(never)]
pub(crate) fn genpoly<P: ParameterSet, B: Backend>(
    f: &[u16],
    out: &mut [u16],
    scratch: &mut [u8],
) -> bool {
    let mat = &mut scratch[..scratch_bytes::<P>()];
    // The padding columns must be zero (the buffer holds leftovers of a
    // previous attempt).
    mat.fill(0);
    B::gp_powers::<P>(f, mat);
    let fail = B::gp_forward::<P>(mat);
    // Declassified: the retry decision of key generation (the rejected
    // candidate is discarded).
    let ok = declassify_val(fail) == 0;
    if ok {
        B::gp_back::<P>(mat, &mut out[..P::T]);
    }
    mat.fill(0);
    ok
}

/// `x^m` reduced: the low terms of the field polynomial as a bit mask.
#[inline(always)]
pub(crate) const fn poly_low(m: usize) -> u16 {
    if m == 12 { 0x0009 } else { 0x001B }
}

/// `v x` in GF(2^m).
#[inline(always)]
pub(crate) fn mulx(m: usize, v: u16) -> u16 {
    let top = (v >> (m - 1)) & 1;
    ((v << 1) & ((1 << m) - 1)) ^ (top.wrapping_neg() & poly_low(m))
}

/// The `u16` at column `c` of a row.
#[inline(always)]
pub(crate) fn get16(row: &[u8], c: usize) -> u16 {
    u16::from_le_bytes([row[2 * c], row[2 * c + 1]])
}

/// Stores `v` at column `c` of a row.
#[inline(always)]
pub(crate) fn set16(row: &mut [u8], c: usize, v: u16) {
    row[2 * c..2 * c + 2].copy_from_slice(&v.to_le_bytes());
}

/// `(sum a_i y^i)^2 mod F` for `a` of length t: squared coefficients at
/// the even positions, then F applied from the top.
pub(crate) fn sq_mod<P: ParameterSet>(out: &mut [u16], a: &[u16]) {
    let (m, t) = (P::M, P::T);
    let mut prod = [0u16; 2 * MAX_T - 1];
    let prod = &mut prod[..2 * t - 1];
    for (i, &x) in a[..t].iter().enumerate() {
        prod[2 * i] = gf::sq(m, x);
    }
    reduce_fpoly::<P>(prod);
    out[..t].copy_from_slice(&prod[..t]);
    zeroize::Zeroize::zeroize(prod);
}

/// Reduces the `2t - 1` coefficients of `prod` modulo F (result in the
/// first t).
fn reduce_fpoly<P: ParameterSet>(prod: &mut [u16]) {
    let (m, t) = (P::M, P::T);
    for i in (t..2 * t - 1).rev() {
        let v = prod[i];
        for &(e, c) in P::FPOLY {
            prod[i - t + e] ^= if c == 1 { v } else { gf::mul(m, v, c) };
        }
    }
}

// ---------------------------------------------------------------------------
// Portable kernels (64-bit words, four 16-bit lanes each).

/// One bit in every 16-bit lane.
const L: u64 = 0x0001_0001_0001_0001;

/// Words of the widest row.
const NW: usize = MAX_STRIDE / 8;

/// Little-endian word `w` of a row.
#[inline(always)]
fn ld64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_le_bytes(a)
}

/// All-ones lanes where bit `i` of the lane is set.
#[inline(always)]
fn lanemask(u: u64, i: usize) -> u64 {
    let b = (u >> i) & L;
    // b * 0xFFFF per lane, without carries between lanes.
    (b << 16).wrapping_sub(b)
}

/// `v x` in every lane.
#[inline(always)]
fn mulx64(m: usize, v: u64) -> u64 {
    let top = (v >> (m - 1)) & L;
    ((v << 1) & (((1u64 << m) - 1) * L)) ^ (top * u64::from(poly_low(m)))
}

/// Portable powers: column `c` of `mat` = coefficients of `f^c`,
/// `c = 0..=t`.
pub(crate) fn powers_portable<P: ParameterSet>(f: &[u16], mat: &mut [u8]) {
    let (m, t) = (P::M, P::T);
    let st = stride::<P>();
    let mut a = [0u16; MAX_T];
    let mut b = [0u16; MAX_T];
    let put = |mat: &mut [u8], c: usize, v: &[u16]| {
        for (row, &x) in mat.chunks_exact_mut(st).zip(&v[..t]) {
            set16(row, c, x);
        }
    };
    a[0] = 1;
    put(mat, 0, &a);
    put(mat, 1, f);
    a[..t].copy_from_slice(&f[..t]);
    for c in 2..=t {
        if c % 2 == 0 {
            for (x, row) in a[..t].iter_mut().zip(mat.chunks_exact(st)) {
                *x = get16(row, c / 2);
            }
            sq_mod::<P>(&mut b, &a);
        } else {
            // a = f^(c-1).
            gf::poly_mulmod(m, &mut b[..t], &a[..t], &f[..t], P::FPOLY);
        }
        put(mat, c, &b);
        a[..t].copy_from_slice(&b[..t]);
    }
    zeroize::Zeroize::zeroize(&mut a);
    zeroize::Zeroize::zeroize(&mut b);
}

/// Portable forward elimination (see the module doc). Returns 0xFFFF if
/// the matrix is singular (the content is then meaningless), else 0; the
/// pivot rows end scaled to a unit diagonal, zero left of it.
pub(crate) fn forward_portable<P: ParameterSet>(mat: &mut [u8]) -> u16 {
    let (m, t) = (P::M, P::T);
    let st = stride::<P>();
    let nw = st / 8;
    // x[w][i]: word w of (pivot row) x^i.
    let mut x = [[0u64; MAX_M]; NW];
    let mut cs = [0u64; MAX_M];
    let mut mk = [0u64; MAX_M];
    let mut fail = 0u16;
    for j in 0..t {
        let w0 = j / 4;
        let (top, rest) = mat[..t * st].split_at_mut((j + 1) * st);
        let rj = &mut top[j * st..];
        // 1. Reference pivot rule: add the next row while the pivot is 0.
        let mut cur = get16(rj, j);
        for rk in rest.chunks_exact(st) {
            // CT: opaque, or LLVM may unswitch the loop on the mask.
            let mask = core::hint::black_box(gf::is_zero_mask(cur));
            let m64 = u64::from(mask) * L;
            for (d, s) in rj[8 * w0..]
                .chunks_exact_mut(8)
                .zip(rk[8 * w0..].chunks_exact(8))
            {
                let v = ld64(d) ^ (ld64(s) & m64);
                d.copy_from_slice(&v.to_le_bytes());
            }
            cur ^= get16(rk, j) & mask;
        }
        fail |= gf::is_zero_mask(cur);
        // 2. Scale to a unit pivot (inv = 0 if singular: no panic, the
        // result is discarded), and tabulate rj x^i.
        let mut s = gf::inv(m, cur);
        for c in &mut cs[..m] {
            *c = u64::from(s) * L;
            s = mulx(m, s);
        }
        for (d, xw) in rj[8 * w0..nw * 8].chunks_exact_mut(8).zip(&mut x[w0..nw]) {
            let u = ld64(d);
            let mut acc = 0u64;
            for (i, &c) in cs[..m].iter().enumerate() {
                acc ^= lanemask(u, i) & c;
            }
            d.copy_from_slice(&acc.to_le_bytes());
            xw[0] = acc;
            for i in 1..m {
                xw[i] = mulx64(m, xw[i - 1]);
            }
        }
        // 3. Clear column j below: rk ^= rk[j] rj.
        for rk in rest.chunks_exact_mut(st) {
            let tk = get16(rk, j);
            for (i, x) in mk[..m].iter_mut().enumerate() {
                // CT: mask from a bit of the matrix (opaque).
                *x = core::hint::black_box(u64::from((tk >> i) & 1).wrapping_neg());
            }
            for (d, xw) in rk[8 * w0..nw * 8].chunks_exact_mut(8).zip(&x[w0..nw]) {
                let mut v = ld64(d);
                for (&a, &b) in mk[..m].iter().zip(&xw[..m]) {
                    v ^= a & b;
                }
                d.copy_from_slice(&v.to_le_bytes());
            }
        }
    }
    zeroize::Zeroize::zeroize(x.as_flattened_mut());
    zeroize::Zeroize::zeroize(&mut cs);
    zeroize::Zeroize::zeroize(&mut mk);
    fail
}

/// Portable back substitution on the output of [`forward_portable`]:
/// `out[j] = g_j` for `j < t`.
pub(crate) fn back_portable<P: ParameterSet>(mat: &[u8], out: &mut [u16]) {
    let (m, t) = (P::M, P::T);
    let st = stride::<P>();
    let nw = st / 8;
    // gx[w][i]: word w of the vector (g_c x^i)_c, lanes c > j known (and
    // lane t: g_t = 1), the others zero.
    let mut gx = [[0u64; MAX_M]; NW];
    let put = |gx: &mut [[u64; MAX_M]; NW], c: usize, mut v: u16| {
        for p in &mut gx[c / 4][..m] {
            *p |= u64::from(v) << (16 * (c % 4));
            v = mulx(m, v);
        }
    };
    put(&mut gx, t, 1);
    for j in (0..t).rev() {
        let row = &mat[j * st..(j + 1) * st];
        let w0 = (j + 1) / 4;
        let mut acc = 0u64;
        for (s, gw) in row[8 * w0..].chunks_exact(8).zip(&gx[w0..nw]) {
            let u = ld64(s);
            for (i, &g) in gw[..m].iter().enumerate() {
                acc ^= lanemask(u, i) & g;
            }
        }
        acc ^= acc >> 32;
        acc ^= acc >> 16;
        let g = acc as u16;
        out[j] = g;
        put(&mut gx, j, g);
    }
    zeroize::Zeroize::zeroize(gx.as_flattened_mut());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Portable;
    use crate::{McEliece348864, McEliece460896, McEliece6688128, McEliece6960119};

    /// The previous implementation (full Gauss–Jordan, reference pivoting,
    /// scalar field arithmetic): the oracle.
    fn genpoly_ref<P: ParameterSet>(f: &[u16], out: &mut [u16]) -> bool {
        let (m, t) = (P::M, P::T);
        let mut mat = std::vec![[0u16; MAX_T + 1]; MAX_T];
        let mut col = [0u16; MAX_T];
        let mut next = [0u16; MAX_T];
        col[0] = 1;
        for c in 0..=t {
            for r in 0..t {
                mat[r][c] = col[r];
            }
            if c < t {
                gf::poly_mulmod(m, &mut next[..t], &col[..t], f, P::FPOLY);
                col[..t].copy_from_slice(&next[..t]);
            }
        }
        for j in 0..t {
            for k in j + 1..t {
                let mask = gf::is_zero_mask(mat[j][j]);
                for c in j..=t {
                    mat[j][c] ^= mat[k][c] & mask;
                }
            }
            if mat[j][j] == 0 {
                return false;
            }
            let inv = gf::inv(m, mat[j][j]);
            for c in j..=t {
                mat[j][c] = gf::mul(m, mat[j][c], inv);
            }
            for k in 0..t {
                if k != j {
                    let tk = mat[k][j];
                    for c in j..=t {
                        mat[k][c] ^= gf::mul(m, mat[j][c], tk);
                    }
                }
            }
        }
        for r in 0..t {
            out[r] = mat[r][t];
        }
        true
    }

    /// Runs `genpoly` on every backend of this build and CPU.
    fn run_all<P: ParameterSet>(f: &[u16], out: &mut [u16]) -> bool {
        let mut scratch = std::vec![0xA5u8; scratch_bytes::<P>() + 7];
        let mut o = [0u16; MAX_T];
        let ok = genpoly::<P, Portable>(f, &mut o[..P::T], &mut scratch);
        assert!(scratch.iter().take(scratch_bytes::<P>()).all(|&b| b == 0));
        pqforge_core::x86_simd! {{
            use pqforge_core::cpu::{Avx2, Avx2Pclmul};
            if let Some(t) = Avx2::detect() {
                // The powers by the portable kernel, then by PCLMULQDQ.
                for pclmul in [None, Avx2Pclmul::detect()] {
                    let mut o2 = [0u16; MAX_T];
                    scratch.fill(0x5A);
                    let ok2 = crate::backend::avx2::genpoly::<P>(
                        t,
                        pclmul,
                        f,
                        &mut o2[..P::T],
                        &mut scratch,
                    );
                    assert_eq!(ok, ok2, "{}: avx2 success bit", P::NAME);
                    if ok {
                        assert_eq!(o[..P::T], o2[..P::T], "{}: avx2 result", P::NAME);
                    }
                    assert!(scratch.iter().take(scratch_bytes::<P>()).all(|&b| b == 0));
                }
            }
        }}
        out[..P::T].copy_from_slice(&o[..P::T]);
        ok
    }

    fn check<P: ParameterSet>(f: &[u16]) -> bool {
        let mut want = [0u16; MAX_T];
        let mut got = [0u16; MAX_T];
        let ok = genpoly_ref::<P>(f, &mut want[..P::T]);
        let ok2 = run_all::<P>(f, &mut got[..P::T]);
        assert_eq!(ok, ok2, "{}: success bit for f = {:?}", P::NAME, &f[..4]);
        if ok {
            assert_eq!(want[..P::T], got[..P::T], "{}", P::NAME);
        }
        ok
    }

    fn sweep<P: ParameterSet>(n: usize) {
        let (m, t) = (P::M, P::T);
        let mut rng = pqforge_core::testing::TestRng::new(0x9E37_79B9_7F4A_7C15 ^ (t as u64));
        let mut next = || (rng.next_u64() >> 20) as u16 & ((1 << m) - 1);
        let mut f = [0u16; MAX_T];
        for _ in 0..n {
            for x in &mut f[..t] {
                *x = next();
            }
            assert!(check::<P>(&f[..t]));
        }
        if cfg!(miri) {
            // One element only: a check takes over a minute under Miri.
            return;
        }
        // Singular: 0 and the constants (minimal polynomial of degree 1).
        f.fill(0);
        assert!(!check::<P>(&f[..t]));
        f[0] = next() | 1;
        assert!(!check::<P>(&f[..t]));
        // y: the identity matrix, g = F's low coefficients.
        f.fill(0);
        f[1] = 1;
        assert!(check::<P>(&f[..t]));
        // y^2, y^3 + c: zero pivots on the way (the pivot rule is used).
        f[1] = 0;
        f[2] = 1;
        assert!(check::<P>(&f[..t]));
        f[3] = 1;
        f[2] = 0;
        f[0] = next();
        assert!(check::<P>(&f[..t]));
        // Sparse random elements: more zero pivots.
        for _ in 0..n {
            f.fill(0);
            for _ in 0..3 {
                let v = next();
                f[usize::from(v) % t] = next();
            }
            check::<P>(&f[..t]);
        }
    }

    #[test]
    fn matches_reference_348864() {
        sweep::<McEliece348864>(if cfg!(miri) { 1 } else { 6 });
    }

    #[test]
    #[cfg_attr(miri, ignore = "the 348864 sweep runs the same code with a smaller t")]
    fn matches_reference_460896() {
        sweep::<McEliece460896>(3);
    }

    #[test]
    #[cfg_attr(miri, ignore = "the 348864 sweep runs the same code with a smaller t")]
    fn matches_reference_6688128() {
        sweep::<McEliece6688128>(3);
    }

    #[test]
    #[cfg_attr(miri, ignore = "the 348864 sweep runs the same code with a smaller t")]
    fn matches_reference_6960119() {
        sweep::<McEliece6960119>(3);
    }

    #[test]
    #[cfg_attr(miri, ignore = "t = 128: too slow under Miri")]
    fn identity_gives_fpoly() {
        let t = McEliece6688128::T;
        let mut f = [0u16; MAX_T];
        f[1] = 1;
        let mut g = [0u16; MAX_T];
        assert!(run_all::<McEliece6688128>(&f[..t], &mut g[..t]));
        let mut want = [0u16; MAX_T];
        for &(e, c) in McEliece6688128::FPOLY {
            want[e] = c;
        }
        assert_eq!(g, want);
    }
}
