//! AVX-512 kernels (x86_64) for ML-DSA: the AVX2 backend with the NTT-domain
//! kernels on 512-bit registers.
//!
//! * `ntt`: forward and inverse NTT, the Montgomery pointwise product and
//!   its accumulated form, on 16 × 32-bit lanes (`_mm512_mul_epi32` on the
//!   even and odd lanes, `_mm512_permutex2var_epi32` for the in-register
//!   layers); results bit-identical to the AVX2 kernels (hence to
//!   `crate::arith`, except `pointwise_acc`, which equals the AVX2 one).
//! * Everything else (rounding, norm check, sampling, SampleInBall) is the
//!   AVX2 backend's kernel, run unchanged: element-wise passes over 256
//!   coefficients and Keccak-bound samplers gain little from wider lanes.
//!
//! Every kernel is `#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
//! unsafe fn`: the caller must know that the CPU has those features. The
//! only way in is [`run`], which takes a `pqforge_core::cpu::Avx512` token
//! (made only by run-time detection) and runs the whole operation inside
//! one `#[target_feature]` function on the private [`Avx512`] kernels.
//! The token implies AVX2, so the AVX2 kernels it delegates to are sound
//! there too.
//!
//! Constant time: like the AVX2 kernels, no branch and no memory index
//! depends on a coefficient, and there is no division. Valgrind cannot run
//! AVX-512 (its CPUID hides it), so under the valgrind constant-time
//! harness the dispatch picks the AVX2 backend; this backend's kernels are
//! the AVX2 ones' structure on wider lanes, with data-independent permutes.
#![allow(unsafe_code)]

pub(crate) mod ntt;

use pqforge_core::cpu;

use pqforge_core::keccak_x4::{Shake128x4, Shake256x4};

use super::avx2::{Avx2, expand_a_by, expand_mask_by, expand_s_by};
use super::{Backend, Operation};
use crate::params::N;

/// The polynomial type of the kernels (the portable code's).
pub(crate) type Poly = [i32; N];

/// The AVX-512 kernels. Invariant: its methods run only inside
/// [`run_avx512`] (reached through a token), or in the backends' tests after
/// detecting AVX-512F, BW, VL and AVX2.
pub(crate) struct Avx512;

impl Backend for Avx512 {
    const NAME: &'static str = "avx512";
    type MaskBuf = [Poly; 8];
    const MASK_BUF: [Poly; 8] = [[0; N]; 8];

    #[inline]
    fn ntt(a: &mut Poly) {
        // SAFETY: see the invariant on `Avx512`.
        unsafe { ntt::ntt(a) }
    }
    #[inline]
    fn invntt_tomont(a: &mut Poly) {
        // SAFETY: see the invariant on `Avx512`.
        unsafe { ntt::invntt_tomont(a) }
    }
    #[inline]
    fn pointwise_acc(c: &mut Poly, a: &[Poly], b: &[Poly]) {
        // SAFETY: see the invariant on `Avx512`.
        unsafe { ntt::pointwise_acc_add(c, a, b) }
    }
    #[inline]
    fn pointwise(c: &mut Poly, a: &Poly, b: &Poly) {
        // SAFETY: see the invariant on `Avx512`.
        unsafe { ntt::pointwise_montgomery(c, a, b) }
    }

    // The rest: the AVX2 kernels (the invariant on `Avx512` implies the one
    // on `Avx2`: AVX2 is part of the token).
    #[inline]
    fn reduce32(a: &mut Poly) {
        Avx2::reduce32(a);
    }
    #[inline]
    fn caddq(a: &mut Poly) {
        Avx2::caddq(a);
    }
    #[inline]
    fn power2round(a: &Poly, a1: &mut Poly, a0: &mut Poly) {
        Avx2::power2round(a, a1, a0);
    }
    #[inline]
    fn decompose<const G2: i32>(a: &Poly, a1: &mut Poly, a0: &mut Poly) {
        Avx2::decompose::<G2>(a, a1, a0);
    }
    #[inline]
    fn make_hint<const G2: i32>(z: &Poly, r: &Poly, h: &mut Poly) -> u32 {
        Avx2::make_hint::<G2>(z, r, h)
    }
    #[inline]
    fn use_hint<const G2: i32>(a: &mut Poly, h: &Poly) {
        Avx2::use_hint::<G2>(a, h);
    }
    #[inline]
    fn exceeds(a: &Poly, bound: i32) -> bool {
        Avx2::exceeds(a, bound)
    }
    #[inline]
    fn sample_in_ball_ct(ctilde: &[u8], tau: usize, c: &mut Poly) {
        Avx2::sample_in_ball_ct(ctilde, tau, c);
    }
    // The samplers: the AVX2 ones on eight lanes, two four-lane sponges
    // permuted together in 512-bit registers.
    fn expand_a(rho: &[u8; 32], l: usize, row: usize, col: usize, out: &mut [Poly]) {
        // SAFETY: see the invariant on `Avx512` (AVX2 is part of it).
        unsafe { expand_a_by::<[Shake128x4; 2], 8>(rho, l, row, col, out) }
    }
    fn expand_s(rho_p: &[u8; 64], nonce: u16, eta: u32, out: &mut [Poly]) {
        // SAFETY: see the invariant on `Avx512` (AVX2 is part of it).
        unsafe { expand_s_by::<[Shake256x4; 2], 8>(rho_p, nonce, eta, out) }
    }
    fn expand_mask(rho2: &[u8; 64], kappa: u16, gamma1_bits: u32, out: &mut [Poly]) {
        // SAFETY: see the invariant on `Avx512` (AVX2 is part of it).
        unsafe { expand_mask_by::<[Shake256x4; 2], 8>(rho2, kappa, gamma1_bits, out) }
    }
}

/// Runs `op` on the AVX-512 kernels; the token proves AVX-512F, BW, VL and
/// AVX2 were detected.
pub(crate) fn run<O: Operation>(_token: cpu::Avx512, op: O) -> O::Output {
    // SAFETY: the token exists only when the CPU supports those features.
    unsafe { run_avx512(op) }
}

/// The whole operation compiled for AVX-512 (and AVX2).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn run_avx512<O: Operation>(op: O) -> O::Output {
    op.run::<Avx512>()
}

/// Whether the CPU has AVX-512F, BW, VL and AVX2; if not, prints that test
/// `name` is skipped.
#[cfg(test)]
fn avx512_or_skip(name: &str) -> bool {
    extern crate std;
    let ok = std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx2");
    if !ok {
        std::eprintln!("{name}: skipped (this CPU has no AVX-512F/BW/VL)");
    }
    ok
}

/// Speed of the kernels against the AVX2 ones (ignored by default):
/// `cargo test --release -p pqforge-mldsa --lib avx512_timings -- --ignored
/// --nocapture`.
#[cfg(test)]
mod timing {
    extern crate std;

    use core::hint::black_box;

    use pqforge_core::testing::TestRng;

    use super::super::avx2::ntt as avx2;
    use super::super::avx2::testutil::poly_in;
    use super::super::avx2::timing::ns;
    use super::{Poly, avx512_or_skip, ntt};
    use crate::params::{N, Q};

    fn row(name: &str, avx2: f64, avx512: f64) {
        std::println!(
            "{name:<28} avx2 {avx2:>8.1} ns   avx512 {avx512:>8.1} ns   x{:.2}",
            avx2 / avx512
        );
    }

    #[test]
    #[ignore = "timing: run with --ignored --nocapture"]
    fn avx512_timings() {
        if !avx512_or_skip("avx512_timings") {
            return;
        }
        let mut rng = TestRng::new(78);
        let a = poly_in(&mut rng, -Q + 1, Q - 1);
        let b = poly_in(&mut rng, -Q + 1, Q - 1);
        let mut p = a;
        let mut c = [0; N];
        let row_a: [Poly; 5] = core::array::from_fn(|_| poly_in(&mut rng, 0, Q - 1));
        let row_b: [Poly; 5] = core::array::from_fn(|_| poly_in(&mut rng, -9 * Q + 1, 9 * Q - 1));

        let vt = ns(20_000, || {
            p = a;
            // SAFETY: AVX-512 and AVX2 detected above.
            unsafe { avx2::ntt(black_box(&mut p)) };
        });
        let wt = ns(20_000, || {
            p = a;
            // SAFETY: AVX-512 and AVX2 detected above.
            unsafe { ntt::ntt(black_box(&mut p)) };
        });
        row("ntt", vt, wt);

        let vt = ns(20_000, || {
            p = a;
            // SAFETY: AVX-512 and AVX2 detected above.
            unsafe { avx2::invntt_tomont(black_box(&mut p)) };
        });
        let wt = ns(20_000, || {
            p = a;
            // SAFETY: AVX-512 and AVX2 detected above.
            unsafe { ntt::invntt_tomont(black_box(&mut p)) };
        });
        row("invntt_tomont", vt, wt);

        let vt = ns(20_000, || {
            // SAFETY: AVX-512 and AVX2 detected above.
            unsafe { avx2::pointwise_montgomery(&mut c, black_box(&a), &b) };
        });
        let wt = ns(20_000, || {
            // SAFETY: AVX-512 and AVX2 detected above.
            unsafe { ntt::pointwise_montgomery(&mut c, black_box(&a), &b) };
        });
        row("pointwise", vt, wt);

        let vt = ns(20_000, || {
            // SAFETY: AVX-512 and AVX2 detected above.
            unsafe { avx2::pointwise_acc(&mut c, black_box(&row_a), &row_b) };
        });
        let wt = ns(20_000, || {
            // SAFETY: AVX-512 and AVX2 detected above.
            unsafe { ntt::pointwise_acc_add(&mut c, black_box(&row_a), &row_b) };
        });
        row("pointwise_acc (5 terms)", vt, wt);
        black_box((&p, &c));
    }
}
