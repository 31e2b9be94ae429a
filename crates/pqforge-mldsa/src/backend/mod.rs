//! Backends: the polynomial kernels Sign/Verify/KeyGen are generic over,
//! and THE dispatch: one CPU check per public call.
//!
//! * [`Portable`] (`portable.rs`): plain Rust, every target (the Cortex-M4
//!   included). The reference: the kernels of `arith`, `rounding` and
//!   `sample`.
//! * `Avx2` (`avx2/`, x86_64): NTT, inverse NTT, pointwise products,
//!   Power2Round, Decompose, MakeHint, UseHint and the norm check on
//!   8 × 32-bit lanes; ExpandA, ExpandS and ExpandMask four polynomials at
//!   a time with the four-lane Keccak.
//! * `Avx512` (`avx512/`, x86_64): the AVX2 backend with NTT, inverse NTT
//!   and the pointwise products on 16 × 32-bit lanes.
//!
//! Every kernel has one contract (coefficient order, output ranges) in every
//! backend; the differential tests check the backends against each other.

mod portable;

pub(crate) use portable::Portable;

pqforge_core::x86_simd! {
    mod avx2;
    mod avx512;
}
// rustfmt does not follow `mod` items inside a macro call: these
// never-compiled twins let `cargo fmt` reach the files.
#[cfg(any())]
mod avx2;
#[cfg(any())]
mod avx512;

use crate::params::N;

/// A polynomial: 256 coefficients (normal or NTT domain, FIPS 204
/// bit-reversed order).
pub(crate) type Poly = [i32; N];

/// Whether key generation and verification sample Â whole (x86_64: every
/// four-lane Keccak call filled, 16 to 56 KB of stack) or one entry at a
/// time, multiplied in as it is sampled (elsewhere: the Cortex-M4's path;
/// also x86_64 builds with `--cfg pqforge_backend="portable"`, so that the
/// host tests and the valgrind harness of the M4 code run it).
pub(crate) const WHOLE_MATRIX: bool = cfg!(all(
    target_arch = "x86_64",
    not(pqforge_backend = "portable")
));

/// Â ∘ v row by row: `f(i, acc)` with acc = Σ_j Â[i][j] ∘ v_j · 2^-32
/// (|acc| < ℓ q, not reduced), for each row i of a k × ℓ matrix.
pub(crate) fn mat_vec<P: crate::params::ParameterSet, B: Backend>(
    rho: &[u8; 32],
    v: &[Poly],
    mut f: impl FnMut(usize, &mut Poly),
) {
    use crate::params::PolyVec;
    let (k, l) = (P::K, P::L);
    let mut acc = [0i32; N];
    if WHOLE_MATRIX {
        let mut a = P::Mat::zero();
        let a = a.as_mut();
        B::expand_a(rho, l, 0, 0, a);
        for i in 0..k {
            acc.fill(0);
            B::pointwise_acc(&mut acc, &a[i * l..(i + 1) * l], v);
            f(i, &mut acc);
        }
    } else {
        // Each entry multiplied into `acc` as it is sampled: no 1 KB entry
        // buffer (the Cortex-M4's stack).
        for i in 0..k {
            acc.fill(0);
            for (j, vj) in v.iter().enumerate() {
                crate::sample::rej_ntt_poly_acc(rho, j as u8, i as u8, vj, &mut acc);
            }
            f(i, &mut acc);
        }
    }
}

/// The kernels of one instruction set. The defaults are the portable ones.
pub(crate) trait Backend {
    /// `portable`, `avx2` or `avx512`.
    const NAME: &'static str;
    /// Signing's buffer of ExpandMask polynomials (see `sign::MaskStream`):
    /// as many as [`Backend::expand_mask`] computes at the cost of one
    /// (four with a four-lane Keccak), or none (one at a time: no stack
    /// spent on it, as on the Cortex-M4).
    type MaskBuf: AsMut<[Poly]>;
    /// The empty (all-zero) [`Backend::MaskBuf`].
    const MASK_BUF: Self::MaskBuf;

    /// Forward NTT; in: |a_i| < q (or small); out: |â_i| < 9q.
    fn ntt(a: &mut Poly) {
        crate::arith::ntt(a);
    }
    /// Inverse NTT times 2^32; in: |â_i| < q; out: |a_i| < q.
    fn invntt_tomont(a: &mut Poly) {
        crate::arith::invntt_tomont(a);
    }
    /// `c += Σ a_i ∘ b_i · 2^-32` (each term in (-q, q)); |a|, |b| < 9q.
    fn pointwise_acc(c: &mut Poly, a: &[Poly], b: &[Poly]) {
        let q = core::hint::black_box(crate::params::Q);
        for (a, b) in a.iter().zip(b) {
            for ((c, &x), &y) in c.iter_mut().zip(a).zip(b) {
                *c += crate::arith::mont_q(i64::from(x) * i64::from(y), q);
            }
        }
    }
    /// `c = a ∘ b · 2^-32`, in (-q, q).
    fn pointwise(c: &mut Poly, a: &Poly, b: &Poly) {
        crate::arith::pointwise_montgomery(c, a, b);
    }
    /// reduce32 on every coefficient.
    fn reduce32(a: &mut Poly) {
        for x in a.iter_mut() {
            *x = crate::arith::reduce32(*x);
        }
    }
    /// caddq on every coefficient: (-q, q) to [0, q).
    fn caddq(a: &mut Poly) {
        for x in a.iter_mut() {
            *x = crate::arith::caddq(*x);
        }
    }
    /// Power2Round of every coefficient (in [0, q)).
    fn power2round(a: &Poly, a1: &mut Poly, a0: &mut Poly) {
        for i in 0..N {
            (a1[i], a0[i]) = crate::rounding::power2round(a[i]);
        }
    }
    /// Decompose of every coefficient (in [0, q)).
    fn decompose<const G2: i32>(a: &Poly, a1: &mut Poly, a0: &mut Poly) {
        for i in 0..N {
            (a1[i], a0[i]) = crate::rounding::decompose::<G2>(a[i]);
        }
    }
    /// MakeHint of every coefficient (z in (-q, q), r in [0, q)); returns
    /// the number of ones.
    fn make_hint<const G2: i32>(z: &Poly, r: &Poly, h: &mut Poly) -> u32 {
        let mut n = 0;
        for i in 0..N {
            let b = crate::rounding::make_hint::<G2>(z[i], r[i]);
            h[i] = b as i32;
            n += b;
        }
        n
    }
    /// UseHint of every coefficient, in place: a_i in [0, q) becomes
    /// UseHint(h_i, a_i) (h in {0, 1}).
    fn use_hint<const G2: i32>(a: &mut Poly, h: &Poly) {
        for (a, &h) in a.iter_mut().zip(h) {
            *a = crate::rounding::use_hint::<G2>(h as u32, *a);
        }
    }
    /// Whether some |a_i| ≥ `bound` (|a_i| < 2^31 - 1; no early exit, no
    /// branch on a coefficient).
    fn exceeds(a: &Poly, bound: i32) -> bool {
        let mut acc = 0i32;
        for &x in a {
            let m = x >> 31;
            acc |= (bound - 1 - ((x ^ m) - m)) >> 31;
        }
        acc != 0
    }
    /// SampleInBall for signing, constant time in c̃.
    fn sample_in_ball_ct(ctilde: &[u8], tau: usize, c: &mut Poly) {
        crate::sample::sample_in_ball_ct(ctilde, tau, c);
    }
    /// ExpandA entries in row-major order from (`row`, `col`), `l` per row:
    /// `out[0]` = Â[row][col], ... (RejNTTPoly of each).
    fn expand_a(rho: &[u8; 32], l: usize, row: usize, col: usize, out: &mut [Poly]) {
        let (mut r, mut s) = (row, col);
        for p in out {
            crate::sample::rej_ntt_poly(rho, s as u8, r as u8, p);
            s += 1;
            if s == l {
                s = 0;
                r += 1;
            }
        }
    }
    /// ExpandS polynomials with nonces `nonce`, `nonce + 1`, ...
    fn expand_s(rho_p: &[u8; 64], nonce: u16, eta: u32, out: &mut [Poly]) {
        for (i, p) in out.iter_mut().enumerate() {
            crate::sample::rej_bounded_poly(rho_p, nonce + i as u16, eta, p);
        }
    }
    /// ExpandMask polynomials with nonces `kappa`, `kappa + 1`, ...
    fn expand_mask(rho2: &[u8; 64], kappa: u16, gamma1_bits: u32, out: &mut [Poly]) {
        for (i, p) in out.iter_mut().enumerate() {
            crate::sample::expand_mask_poly(rho2, kappa + i as u16, gamma1_bits, p);
        }
    }
}

pqforge_core::backend_dispatch! {
    kernels: Backend;
    portable: Portable;
    /// x86_64 AVX2.
    Avx2 = "avx2",
        detect: pqforge_core::cpu::Avx2::detect(),
        run: |token, op| avx2::run(token, op);
    /// x86_64 AVX-512 (F, BW, VL): the NTT-domain kernels on 512-bit
    /// registers, the rest AVX2.
    Avx512 = "avx512",
        detect: pqforge_core::cpu::Avx512::detect(),
        run: |token, op| avx512::run(token, op);
}
