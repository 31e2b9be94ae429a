//! Power2Round, Decompose, MakeHint and UseHint (FIPS 204 Algorithms 35,
//! 36, 39, 40), without division: Decompose divides by 2γ2 through a
//! multiply and a shift (a hardware division on secret data was
//! CVE-2026-22705 in a peer), and is branch-free in the secret input.

#[cfg(test)]
use crate::params::GAMMA2_88;
use crate::params::{D, GAMMA2_32, Q};

/// Power2Round (Algorithm 35) of r in [0, q): (r1, r0) with
/// r = r1 · 2^13 + r0 and r0 in (-2^12, 2^12].
#[inline(always)]
#[must_use]
pub const fn power2round(r: i32) -> (i32, i32) {
    let r1 = (r + (1 << (D - 1)) - 1) >> D;
    (r1, r - (r1 << D))
}

/// Decompose (Algorithm 36) of r in [0, q) for γ2 = `G2`
/// (`GAMMA2_88` or [`GAMMA2_32`]): (r1, r0) with r = r1 · 2γ2 + r0 mod q,
/// r0 in (-γ2, γ2] except r1 = 0, r0 in [-γ2, 0) for r in [q - γ2, q).
#[inline(always)]
#[must_use]
pub const fn decompose<const G2: i32>(r: i32) -> (i32, i32) {
    // ⌈r / 128⌉; 2γ2 is 128 · 1488 or 128 · 4092.
    let t = (r + 127) >> 7;
    let r1 = if G2 == GAMMA2_32 {
        // ⌊t / 4092⌉ by t · 1025 / 2^22; 16 wraps to 0.
        ((t * 1025 + (1 << 21)) >> 22) & 15
    } else {
        // ⌊t / 1488⌉ by t · 11275 / 2^24; 44 wraps to 0.
        let r1 = (t * 11_275 + (1 << 23)) >> 24;
        r1 ^ (((43 - r1) >> 31) & r1)
    };
    let r0 = r - r1 * 2 * G2;
    // r0 > (q - 1) / 2: subtract q (the wrapped case).
    (r1, r0 - ((((Q - 1) / 2) - r0) >> 31 & Q))
}

/// HighBits (Algorithm 37).
#[inline(always)]
#[must_use]
pub const fn high_bits<const G2: i32>(r: i32) -> i32 {
    decompose::<G2>(r).0
}

/// MakeHint (Algorithm 39): 1 if adding z in (-q, q) to r in [0, q)
/// changes HighBits, else 0 (branch-free).
#[inline(always)]
#[must_use]
pub const fn make_hint<const G2: i32>(z: i32, r: i32) -> u32 {
    // r + z mod q in [0, q), without branching.
    let mut s = r + z;
    s += (s >> 31) & Q;
    s -= ((Q - 1 - s) >> 31) & Q;
    let d = high_bits::<G2>(r) ^ high_bits::<G2>(s);
    // 1 iff d != 0.
    ((d | d.wrapping_neg()) as u32) >> 31
}

/// UseHint (Algorithm 40) of hint bit `h` and r in [0, q): the corrected
/// HighBits. Verification data is public, so this may branch.
#[inline(always)]
#[must_use]
pub const fn use_hint<const G2: i32>(h: u32, r: i32) -> i32 {
    let m = (Q - 1) / (2 * G2);
    let (r1, r0) = decompose::<G2>(r);
    if h == 0 {
        r1
    } else if r0 > 0 {
        // (r1 + 1) mod m
        if r1 == m - 1 { 0 } else { r1 + 1 }
    } else if r1 == 0 {
        // (r1 - 1) mod m, r0 <= 0 (r0 = 0 included)
        m - 1
    } else {
        r1 - 1
    }
}

/// The two γ2 values, for generic callers and tests.
#[cfg(test)]
pub const GAMMAS: [i32; 2] = [GAMMA2_88, GAMMA2_32];

#[cfg(test)]
mod tests {
    use super::*;
    use pqforge_core::testing::TestRng;

    /// r mod± a: the representative in (-a/2, a/2].
    fn mod_pm(r: i32, a: i32) -> i32 {
        let x = r.rem_euclid(a);
        if x > a / 2 { x - a } else { x }
    }

    /// Algorithm 36 as written in FIPS 204 (with a division: tests only).
    fn decompose_spec(r: i32, g2: i32) -> (i32, i32) {
        let rp = r.rem_euclid(Q);
        let r0 = mod_pm(rp, 2 * g2);
        if rp - r0 == Q - 1 {
            (0, r0 - 1)
        } else {
            ((rp - r0) / (2 * g2), r0)
        }
    }

    fn use_hint_spec(h: u32, r: i32, g2: i32) -> i32 {
        let m = (Q - 1) / (2 * g2);
        let (r1, r0) = decompose_spec(r, g2);
        match (h, r0 > 0) {
            (1, true) => (r1 + 1).rem_euclid(m),
            (1, false) => (r1 - 1).rem_euclid(m),
            _ => r1,
        }
    }

    fn dec(r: i32, g2: i32) -> (i32, i32) {
        if g2 == GAMMA2_88 {
            decompose::<GAMMA2_88>(r)
        } else {
            decompose::<GAMMA2_32>(r)
        }
    }

    fn uh(h: u32, r: i32, g2: i32) -> i32 {
        if g2 == GAMMA2_88 {
            use_hint::<GAMMA2_88>(h, r)
        } else {
            use_hint::<GAMMA2_32>(h, r)
        }
    }

    fn mh(z: i32, r: i32, g2: i32) -> u32 {
        if g2 == GAMMA2_88 {
            make_hint::<GAMMA2_88>(z, r)
        } else {
            make_hint::<GAMMA2_32>(z, r)
        }
    }

    /// Every r in [0, q), both γ2: Decompose and UseHint equal the
    /// standard's definitions, Power2Round its definition.
    #[test]
    fn exhaustive_against_the_standard() {
        // Under Miri a stride through [0, q) and its last value.
        let step = if cfg!(miri) { 40_009 } else { 1 };
        for r in (0..Q).step_by(step).chain([Q - 1]) {
            let (r1, r0) = power2round(r);
            assert_eq!(r0, mod_pm(r, 1 << D), "power2round r0 at {r}");
            assert_eq!(r1, (r - r0) >> D, "power2round r1 at {r}");
            for g2 in GAMMAS {
                assert_eq!(
                    dec(r, g2),
                    decompose_spec(r, g2),
                    "decompose({r}), γ2 = {g2}"
                );
                for h in 0..2 {
                    assert_eq!(uh(h, r, g2), use_hint_spec(h, r, g2), "use_hint({h}, {r})");
                }
            }
        }
    }

    /// Lemma 2 of FIPS 204 §3: UseHint(MakeHint(z, r), r) = HighBits(r + z)
    /// for |z| ≤ γ2, including the boundary values of z and r.
    #[test]
    fn hint_recovers_high_bits() {
        let mut rng = TestRng::new(3);
        for g2 in GAMMAS {
            let check = |r: i32, z: i32| {
                let s = (r + z).rem_euclid(Q);
                assert_eq!(
                    uh(mh(z, r, g2), r, g2),
                    dec(s, g2).0,
                    "r = {r}, z = {z}, γ2 = {g2}"
                );
            };
            for r in [
                0,
                1,
                g2 - 1,
                g2,
                g2 + 1,
                2 * g2,
                Q - g2 - 1,
                Q - g2,
                Q - 2,
                Q - 1,
            ] {
                for z in [-g2, -g2 + 1, -1, 0, 1, g2 - 1, g2] {
                    check(r, z);
                }
            }
            for _ in 0..if cfg!(miri) { 200 } else { 1_000_000 } {
                let r = (rng.next_u32() % Q as u32) as i32;
                let z = (rng.next_u32() % (2 * g2 as u32 + 1)) as i32 - g2;
                check(r, z);
            }
        }
    }
}
