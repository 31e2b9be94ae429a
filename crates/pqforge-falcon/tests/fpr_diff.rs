//! Differential test of the binary64 integer emulation against the native
//! FPU (x86_64): random values, boundary values, special exponents.
//! Subnormal results are flushed to zero by the emulation and a zero
//! dividend gives +0 (documented; Falcon never depends on either), so those
//! cases compare against the correspondingly adjusted native result.
#![cfg(target_arch = "x86_64")]
// Exact float comparisons are the point of this test.
#![allow(clippy::float_cmp)]

use pqforge_core::testing::TestRng;
use pqforge_falcon::internals::{EmuFpr as E, NativeFpr as N};

/// Random test values from the shared test generator.
struct R(TestRng);
impl R {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// A random finite double, with a bias toward interesting exponents.
    fn val(&mut self) -> u64 {
        let r = self.next();
        match r % 8 {
            0 => r & 0x800F_FFFF_FFFF_FFFF | ((1023 + (self.next() % 64)) << 52), // around 1..2^63
            1 => r & 0x800F_FFFF_FFFF_FFFF | ((1023 - (self.next() % 64)) << 52), // small
            2 => ((r >> 11) as i64 as f64).to_bits() ^ ((r & 1) << 63),           // integers
            3 => f64::to_bits((r % 100_000) as f64 - 50_000.0 + 0.5),             // ties
            4 => r & 0x800F_FFFF_FFFF_FFFF | ((1 + self.next() % 2046) << 52),    // any normal
            5 => [
                0u64,
                1 << 63,
                0x3FF0_0000_0000_0000,
                0x0010_0000_0000_0000,
                0x7FEF_FFFF_FFFF_FFFF,
                0x3FE0_0000_0000_0000,
            ][(r >> 8) as usize % 6],
            6 => 0x0010_0000_0000_0000 | (r & 0x800F_FFFF_FFFF_FFFF) | (((r >> 56) % 4) << 52), // near min normal
            _ => f64::to_bits(((r % 2_000_001) as f64 - 1_000_000.0) / 1024.0),
        }
    }
}

/// Quotient as the emulation defines it: a zero dividend gives +0.
fn div_ref(a: u64, b: u64) -> u64 {
    if f(a) == 0.0 { 0 } else { flush(f(a) / f(b)) }
}

/// Native result with subnormals flushed to signed zero (emulation
/// contract).
fn flush(x: f64) -> u64 {
    if x != 0.0 && x.abs() < f64::MIN_POSITIVE {
        x.to_bits() & (1 << 63)
    } else {
        x.to_bits()
    }
}

fn f(b: u64) -> f64 {
    f64::from_bits(b)
}

fn finite_result(x: f64) -> bool {
    x.is_finite()
}

#[test]
fn arithmetic_matches_native() {
    let mut r = R(TestRng::new(0x1234_5678_9ABC_DEF1));
    let mut checked = 0;
    for _ in 0..400_000 {
        let (a, b) = (r.val(), r.val());
        let (ea, eb) = (E::from_bits(a), E::from_bits(b));
        let (na, nb) = (N::from_bits(a), N::from_bits(b));
        let sum = f(a) + f(b);
        if finite_result(sum) {
            // IEEE: x + (-x) = +0; the emulation agrees except (-0)+(-0).
            assert_eq!((ea + eb).to_bits(), flush(sum), "add {a:#x} {b:#x}");
            assert_eq!((na + nb).to_bits(), sum.to_bits());
            let d = f(a) - f(b);
            if d.is_finite() {
                assert_eq!((ea - eb).to_bits(), flush(d), "sub {a:#x} {b:#x}");
            }
        }
        let p = f(a) * f(b);
        if finite_result(p) && p.abs() != f64::MIN_POSITIVE {
            assert_eq!((ea * eb).to_bits(), flush(p), "mul {a:#x} {b:#x}");
            assert_eq!((na * nb).to_bits(), p.to_bits());
        }
        if f(b) != 0.0 {
            let q = f(a) / f(b);
            if finite_result(q) && q.abs() != f64::MIN_POSITIVE {
                assert_eq!((ea / eb).to_bits(), div_ref(a, b), "div {a:#x} {b:#x}");
                assert_eq!((na / nb).to_bits(), q.to_bits());
            }
        }
        let aa = a & !(1 << 63);
        if aa != 0 {
            assert_eq!(
                E::from_bits(aa).sqrt().to_bits(),
                N::from_bits(aa).sqrt().to_bits(),
                "sqrt {aa:#x}"
            );
        }
        if !(f(a) == 0.0 && f(b) == 0.0) {
            assert_eq!(ea.lt(eb), f(a) < f(b), "lt {a:#x} {b:#x}");
        }
        // Conversions (|x| < 2^63).
        if f(a).abs() < 9.2e18 {
            assert_eq!(ea.rint(), na.rint(), "rint {a:#x}");
            assert_eq!(ea.trunc(), na.trunc(), "trunc {a:#x}");
            if a != 1 << 63 {
                assert_eq!(ea.floor(), na.floor(), "floor {a:#x}");
            }
        }
        let i = (r.next() as i64) >> (r.next() % 64);
        if i != i64::MIN {
            assert_eq!(E::of(i).to_bits(), N::of(i).to_bits(), "of {i}");
        }
        // half(): compared where the result is normal (or zero).
        let h = f(a) * 0.5;
        if h == 0.0 {
            assert_eq!(ea.half().to_bits(), 0, "half {a:#x}");
        } else if h.abs() >= f64::MIN_POSITIVE {
            assert_eq!(ea.half().to_bits(), h.to_bits(), "half {a:#x}");
        }
        if (f(a) * 2.0).is_finite() {
            assert_eq!(
                ea.double().to_bits(),
                (na.double()).to_bits(),
                "double {a:#x}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 400_000);
}

#[test]
fn boundary_values() {
    let specials = [
        0u64,
        1 << 63,
        0x3FF0_0000_0000_0000, // 1
        0xBFF0_0000_0000_0000, // -1
        0x3FE0_0000_0000_0000, // 0.5
        0xBFE0_0000_0000_0000, // -0.5
        0x3FF8_0000_0000_0000, // 1.5
        0x4004_0000_0000_0000, // 2.5
        0x0010_0000_0000_0000, // min normal
        0x0010_0000_0000_0001,
        0x001F_FFFF_FFFF_FFFF,
        0x7FEF_FFFF_FFFF_FFFF, // max finite
        0x433F_FFFF_FFFF_FFFF, // 2^53 - 1
        0x4340_0000_0000_0000, // 2^53
        0x43DF_FFFF_FFFF_FFFF, // just below 2^63
        0x3FEF_FFFF_FFFF_FFFF, // 1 - ulp
        0x3CA0_0000_0000_0000, // 2^-53
    ];
    for &a in &specials {
        for &b in &specials {
            let (ea, eb) = (E::from_bits(a), E::from_bits(b));
            let s = f(a) + f(b);
            if s.is_finite() && !(a == 1 << 63 && b == 1 << 63) {
                assert_eq!((ea + eb).to_bits(), flush(s), "add {a:#x} {b:#x}");
            }
            let p = f(a) * f(b);
            if p.is_finite() && p.abs() != f64::MIN_POSITIVE {
                assert_eq!((ea * eb).to_bits(), flush(p), "mul {a:#x} {b:#x}");
            }
            if f(b) != 0.0 && (f(a) / f(b)).is_finite() && (f(a) / f(b)).abs() != f64::MIN_POSITIVE
            {
                assert_eq!((ea / eb).to_bits(), div_ref(a, b), "div {a:#x} {b:#x}");
            }
            if !(f(a) == 0.0 && f(b) == 0.0) {
                assert_eq!(ea.lt(eb), f(a) < f(b), "lt {a:#x} {b:#x}");
            }
        }
        if f(a).abs() < 9.2e18 {
            let n = N::from_bits(a);
            assert_eq!(E::from_bits(a).rint(), n.rint(), "rint {a:#x}");
            if a != 1 << 63 {
                // floor(-0) is -1 in the emulation (as in the reference).
                assert_eq!(E::from_bits(a).floor(), n.floor(), "floor {a:#x}");
            }
            assert_eq!(E::from_bits(a).trunc(), n.trunc(), "trunc {a:#x}");
        }
    }
    // Products and quotients that underflow into the subnormal range are
    // flushed to (signed) zero by the emulation.
    let tiny = E::from_bits(0x0010_0000_0000_0000);
    assert_eq!((tiny * E::from_bits(0x3FE0_0000_0000_0000)).to_bits(), 0);
    assert_eq!(
        (tiny * E::from_bits(0xBFE0_0000_0000_0000)).to_bits(),
        1 << 63
    );
    assert_eq!(tiny.half().to_bits(), 0);
    // Integer conversions at the extremes.
    for i in [
        0i64,
        1,
        -1,
        (1 << 53) + 1,
        -(1 << 53) - 1,
        i64::MAX,
        -i64::MAX,
        1 << 62,
    ] {
        assert_eq!(E::of(i).to_bits(), N::of(i).to_bits(), "of {i}");
    }
}
