//! AVX2 kernels (x86_64) for ML-DSA, as free functions for the backend
//! trait to wrap:
//!
//! * `ntt`: forward and inverse NTT, the Montgomery pointwise product and
//!   its accumulated form, on 8 × 32-bit lanes (`_mm256_mul_epi32` on the
//!   even and odd lanes); results bit-identical to `crate::arith` except
//!   `pointwise_acc` (congruent, one reduction for the whole sum).
//! * `rounding`: Power2Round, Decompose, MakeHint, UseHint, the infinity
//!   norm check, `caddq` and `reduce32` on whole polynomials, branch-free
//!   and without division; equal to `crate::rounding` / `crate::arith`.
//! * `sample`: RejNTTPoly's rejection step, and ExpandA / ExpandS /
//!   ExpandMask four polynomials at a time on core's four-lane SHAKE.
//!
//! Every kernel is `#[target_feature(enable = "avx2")] unsafe fn`: the
//! caller must know that the CPU has AVX2. The only way in is [`run`],
//! which takes a `pqforge_core::cpu::Avx2` token (made only by run-time
//! detection) and runs the whole operation inside one
//! `#[target_feature(enable = "avx2")]` function on the private [`Avx2`]
//! kernels. That is the only safety condition; memory accesses are
//! bounds-checked or proved in bounds at each `unsafe` block.
//!
//! Polynomials are `[i32; 256]` in the standard order (the NTT domain in
//! FIPS 204's bit-reversed order, the same as the portable code), with no
//! alignment requirement.
#![allow(unsafe_code)]

mod ball;
pub(crate) mod ntt;
pub(crate) mod rounding;
pub(crate) mod sample;

use pqforge_core::cpu;
use pqforge_core::keccak_x4::{Shake128x4, Shake256x4};

use super::{Backend, Operation};
use crate::params::N;

/// The polynomial type of the kernels (the portable code's).
pub(crate) type Poly = [i32; N];

/// The AVX2 kernels. Invariant: its methods run only inside [`run_avx2`]
/// or `avx512::run_avx512` (each reached through a token; AVX-512's
/// includes AVX2), or in the backends' tests after detecting AVX2.
pub(crate) struct Avx2;

/// `L` lanes for an `L`-way sampler: the polynomials of `chunk` (1 to `L`),
/// then scratch ones for the unused lanes.
fn lanes<'a, const L: usize>(
    chunk: &'a mut [Poly],
    scratch: &'a mut [Poly; L],
) -> [&'a mut Poly; L] {
    let mut it = chunk.iter_mut().chain(scratch.iter_mut());
    core::array::from_fn(|_| {
        it.next()
            .unwrap_or_else(|| unreachable!("1 to L + L lanes"))
    })
}

impl Backend for Avx2 {
    const NAME: &'static str = "avx2";
    type MaskBuf = [Poly; 4];
    const MASK_BUF: [Poly; 4] = [[0; N]; 4];

    #[inline]
    fn ntt(a: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { ntt::ntt(a) }
    }
    #[inline]
    fn invntt_tomont(a: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { ntt::invntt_tomont(a) }
    }
    #[inline]
    fn pointwise_acc(c: &mut Poly, a: &[Poly], b: &[Poly]) {
        let mut t = [0i32; N];
        // SAFETY: see the invariant on `Avx2`.
        unsafe { ntt::pointwise_acc(&mut t, a, b) };
        for (c, t) in c.iter_mut().zip(&t) {
            *c += *t;
        }
    }
    #[inline]
    fn pointwise(c: &mut Poly, a: &Poly, b: &Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { ntt::pointwise_montgomery(c, a, b) }
    }
    #[inline]
    fn reduce32(a: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { rounding::reduce32(a) }
    }
    #[inline]
    fn caddq(a: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { rounding::caddq(a) }
    }
    #[inline]
    fn power2round(a: &Poly, a1: &mut Poly, a0: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { rounding::power2round(a, a1, a0) }
    }
    #[inline]
    fn decompose<const G2: i32>(a: &Poly, a1: &mut Poly, a0: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { rounding::decompose::<G2>(a, a1, a0) }
    }
    #[inline]
    fn make_hint<const G2: i32>(z: &Poly, r: &Poly, h: &mut Poly) -> u32 {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { rounding::make_hint::<G2>(z, r, h) }
    }
    #[inline]
    fn use_hint<const G2: i32>(a: &mut Poly, h: &Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { rounding::use_hint::<G2>(a, h) }
    }
    #[inline]
    fn exceeds(a: &Poly, bound: i32) -> bool {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { rounding::chknorm(a, bound) }
    }
    #[inline]
    fn sample_in_ball_ct(ctilde: &[u8], tau: usize, c: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { ball::sample_in_ball_ct(ctilde, tau, c) }
    }
    fn expand_a(rho: &[u8; 32], l: usize, row: usize, col: usize, out: &mut [Poly]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { expand_a_by::<Shake128x4, 4>(rho, l, row, col, out) }
    }
    fn expand_s(rho_p: &[u8; 64], nonce: u16, eta: u32, out: &mut [Poly]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { expand_s_by::<Shake256x4, 4>(rho_p, nonce, eta, out) }
    }
    fn expand_mask(rho2: &[u8; 64], kappa: u16, gamma1_bits: u32, out: &mut [Poly]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { expand_mask_by::<Shake256x4, 4>(rho2, kappa, gamma1_bits, out) }
    }
}

/// `Backend::expand_a` on `L`-lane samplers ([`sample::Xof`] `X`): `L`
/// entries per call, the unused lanes of the last one repeating its last
/// entry (no extra blocks) into scratch polynomials.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn expand_a_by<X: sample::Xof<L>, const L: usize>(
    rho: &[u8; 32],
    l: usize,
    row: usize,
    col: usize,
    out: &mut [Poly],
) {
    let mut scratch = [[0i32; N]; L];
    let (mut r, mut s) = (row, col);
    for chunk in out.chunks_mut(L) {
        let n = chunk.len();
        let mut idx = [(0u8, 0u8); L];
        for j in 0..L {
            if j < n {
                idx[j] = (s as u8, r as u8);
                s += 1;
                if s == l {
                    s = 0;
                    r += 1;
                }
            } else {
                idx[j] = idx[n - 1];
            }
        }
        // SAFETY: AVX2 (this function's own requirement).
        unsafe { sample::expand_a_lanes::<X, L>(rho, idx, lanes(chunk, &mut scratch)) };
    }
}

/// `Backend::expand_s` on `L`-lane samplers (see [`expand_a_by`]).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn expand_s_by<X: sample::Xof<L>, const L: usize>(
    rho_p: &[u8; 64],
    nonce: u16,
    eta: u32,
    out: &mut [Poly],
) {
    let mut scratch = [[0i32; N]; L];
    let mut next = nonce;
    for chunk in out.chunks_mut(L) {
        let n = chunk.len() as u16;
        let nonces: [u16; L] = core::array::from_fn(|j| next + (j as u16).min(n - 1));
        next += n;
        // SAFETY: AVX2 (this function's own requirement).
        unsafe { sample::expand_s_lanes::<X, L>(rho_p, nonces, eta, lanes(chunk, &mut scratch)) };
    }
    pqforge_core::ct::wipe(scratch.as_flattened_mut());
}

/// `Backend::expand_mask` on `L`-lane samplers (see [`expand_a_by`]).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn expand_mask_by<X: sample::Xof<L>, const L: usize>(
    rho2: &[u8; 64],
    kappa: u16,
    gamma1_bits: u32,
    out: &mut [Poly],
) {
    let mut scratch = [[0i32; N]; L];
    let mut next = kappa;
    for chunk in out.chunks_mut(L) {
        let n = chunk.len() as u16;
        let nonces: [u16; L] = core::array::from_fn(|j| next.wrapping_add((j as u16).min(n - 1)));
        next = next.wrapping_add(n);
        // SAFETY: AVX2 (this function's own requirement).
        unsafe {
            sample::expand_mask_lanes::<X, L>(
                rho2,
                nonces,
                gamma1_bits,
                lanes(chunk, &mut scratch),
            );
        }
    }
    pqforge_core::ct::wipe(scratch.as_flattened_mut());
}

/// Runs `op` on the AVX2 kernels; the token proves AVX2 was detected.
pub(crate) fn run<O: Operation>(_token: cpu::Avx2, op: O) -> O::Output {
    // SAFETY: the token exists only when the CPU supports AVX2.
    unsafe { run_avx2(op) }
}

/// The whole operation compiled for AVX2.
#[target_feature(enable = "avx2")]
fn run_avx2<O: Operation>(op: O) -> O::Output {
    op.run::<Avx2>()
}

/// Helpers of the kernels' tests (this backend's and `avx512`'s).
#[cfg(test)]
pub(in crate::backend) mod testutil {
    extern crate std;

    use pqforge_core::testing::TestRng;

    use super::Poly;
    use crate::params::N;

    /// Whether the CPU has AVX2; if not, prints that test `name` is skipped.
    pub(in crate::backend) fn avx2_or_skip(name: &str) -> bool {
        let ok = std::is_x86_feature_detected!("avx2");
        if !ok {
            std::eprintln!("{name}: skipped (this CPU has no AVX2)");
        }
        ok
    }

    /// A value uniform in [lo, hi].
    pub(in crate::backend) fn in_range(rng: &mut TestRng, lo: i32, hi: i32) -> i32 {
        let span = (i64::from(hi) - i64::from(lo) + 1) as u64;
        (i64::from(lo) + (rng.next_u64() % span) as i64) as i32
    }

    /// A polynomial with coefficients uniform in [lo, hi].
    pub(in crate::backend) fn poly_in(rng: &mut TestRng, lo: i32, hi: i32) -> Poly {
        core::array::from_fn(|_| in_range(rng, lo, hi))
    }

    /// Extreme inputs within |x| ≤ m: constants, alternating signs, one
    /// spike per lane position.
    pub(in crate::backend) fn edges(m: i32) -> impl Iterator<Item = Poly> {
        let consts = [m, -m, 0, 1, -1].into_iter().map(|v| [v; N]);
        let alt =
            (0..4).map(move |s| core::array::from_fn(|i| if (i >> s) & 1 == 0 { m } else { -m }));
        let spikes = (0..16).map(move |p| {
            let mut a = [0; N];
            a[p * 17 % N] = if p % 2 == 0 { m } else { -m };
            a
        });
        consts.chain(alt).chain(spikes)
    }
}

/// Speed of the kernels against the portable ones (ignored by default):
/// `cargo test --release -p pqforge-mldsa --lib avx2_timings -- --ignored
/// --nocapture` (the test profile's debug assertions slow the loads down).
#[cfg(test)]
pub(in crate::backend) mod timing {
    extern crate std;

    use core::hint::black_box;
    use std::time::Instant;

    use pqforge_core::keccak::Shake256;
    use pqforge_core::testing::TestRng;

    use super::testutil::{avx2_or_skip, poly_in};
    use super::{Poly, ntt, rounding, sample};
    use crate::pack::unpack_signed;
    use crate::params::{GAMMA2_32, N, Q};
    use crate::{arith, rounding as portable, sample as psample};

    /// Nanoseconds per call of `f`: the best of 200 runs of `iters / 100`
    /// calls (short runs, so that some escape preemption on a shared
    /// machine).
    pub(in crate::backend) fn ns(iters: u32, mut f: impl FnMut()) -> f64 {
        let per_run = (iters / 100).max(1);
        let mut best = f64::MAX;
        for _ in 0..200 {
            let t = Instant::now();
            for _ in 0..per_run {
                f();
            }
            best = best.min(t.elapsed().as_secs_f64() * 1e9 / f64::from(per_run));
        }
        best
    }

    fn row(name: &str, portable: f64, avx2: f64) {
        std::println!(
            "{name:<28} portable {portable:>9.1} ns   avx2 {avx2:>9.1} ns   x{:.1}",
            portable / avx2
        );
    }

    #[test]
    #[ignore = "timing: run with --ignored --nocapture"]
    fn avx2_timings() {
        if !avx2_or_skip("avx2_timings") {
            return;
        }
        let mut rng = TestRng::new(77);
        let a = poly_in(&mut rng, -Q + 1, Q - 1);
        let mut p = a;
        let mut c = [0; N];
        let row_a: [Poly; 5] = core::array::from_fn(|_| poly_in(&mut rng, 0, Q - 1));
        let row_b: [Poly; 5] = core::array::from_fn(|_| poly_in(&mut rng, -9 * Q + 1, 9 * Q - 1));
        let r = poly_in(&mut rng, 0, Q - 1);
        let (mut a1, mut a0) = ([0; N], [0; N]);

        let pt = ns(20_000, || {
            p = a;
            arith::ntt(black_box(&mut p));
        });
        let vt = ns(20_000, || {
            p = a;
            // SAFETY: AVX2 detected above.
            unsafe { ntt::ntt(black_box(&mut p)) };
        });
        row("ntt", pt, vt);

        let pt = ns(20_000, || {
            p = a;
            arith::invntt_tomont(black_box(&mut p));
        });
        let vt = ns(20_000, || {
            p = a;
            // SAFETY: AVX2 detected above.
            unsafe { ntt::invntt_tomont(black_box(&mut p)) };
        });
        row("invntt_tomont", pt, vt);

        let pt = ns(20_000, || {
            let mut prod = [0; N];
            c = [0; N];
            for (x, y) in row_a.iter().zip(&row_b) {
                arith::pointwise_montgomery(&mut prod, black_box(x), y);
                for (s, v) in c.iter_mut().zip(&prod) {
                    *s += *v;
                }
            }
            for s in &mut c {
                *s = arith::reduce32(*s);
            }
        });
        let vt = ns(20_000, || {
            // SAFETY: AVX2 detected above.
            unsafe {
                ntt::pointwise_acc(&mut c, black_box(&row_a), &row_b);
            }
        });
        row("pointwise_acc (5 terms)", pt, vt);

        let pt = ns(20_000, || {
            for i in 0..N {
                (a1[i], a0[i]) = portable::decompose::<GAMMA2_32>(black_box(r[i]));
            }
        });
        let vt = ns(20_000, || {
            // SAFETY: AVX2 detected above.
            unsafe {
                rounding::decompose::<GAMMA2_32>(black_box(&r), &mut a1, &mut a0);
            }
        });
        row("decompose (γ2 = (q-1)/32)", pt, vt);

        let h = poly_in(&mut rng, 0, 1);
        let pt = ns(20_000, || {
            for i in 0..N {
                a1[i] = portable::use_hint::<GAMMA2_32>(h[i] as u32, black_box(r[i]));
            }
        });
        let vt = ns(20_000, || {
            // SAFETY: AVX2 detected above.
            unsafe {
                a1 = r;
                rounding::use_hint::<GAMMA2_32>(black_box(&mut a1), &h);
            }
        });
        row("use_hint (γ2 = (q-1)/32)", pt, vt);

        let rho = rng.array::<32>();
        let mut out = [[0i32; N]; 4];
        let pt = ns(1_000, || {
            for (j, o) in out.iter_mut().enumerate() {
                psample::rej_ntt_poly(black_box(&rho), j as u8, 0, o);
            }
        });
        let vt = ns(1_000, || {
            let [o0, o1, o2, o3] = &mut out;
            let idx = [(0, 0), (1, 0), (2, 0), (3, 0)];
            // SAFETY: AVX2 detected above.
            unsafe { sample::expand_a_x4(black_box(&rho), idx, [o0, o1, o2, o3]) };
        });
        row("ExpandA, 4 entries", pt, vt);

        let rho_p = rng.array::<64>();
        let pt = ns(1_000, || {
            for (j, o) in out.iter_mut().enumerate() {
                psample::rej_bounded_poly(black_box(&rho_p), j as u16, 4, o);
            }
        });
        let vt = ns(1_000, || {
            let [o0, o1, o2, o3] = &mut out;
            // SAFETY: AVX2 detected above.
            unsafe { sample::expand_s_x4(black_box(&rho_p), [0, 1, 2, 3], 4, [o0, o1, o2, o3]) };
        });
        row("ExpandS (η = 4), 4 polys", pt, vt);

        let pt = ns(1_000, || {
            for (j, o) in out.iter_mut().enumerate() {
                let mut h = Shake256::new();
                h.absorb(black_box(&rho_p));
                h.absorb(&(j as u16).to_le_bytes());
                let mut buf = [0u8; 640];
                h.squeeze(&mut buf);
                unpack_signed(&buf, 1 << 19, 20, o);
            }
        });
        let vt = ns(1_000, || {
            let [o0, o1, o2, o3] = &mut out;
            // SAFETY: AVX2 detected above.
            unsafe {
                sample::expand_mask_x4(black_box(&rho_p), [0, 1, 2, 3], 19, [o0, o1, o2, o3]);
            }
        });
        row("ExpandMask (γ1 = 2^19), 4", pt, vt);
        black_box((&p, &c, &a1, &a0, &out));
    }
}
