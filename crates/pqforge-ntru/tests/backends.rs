//! Every backend against the portable one on random inputs: the ring
//! product (the kernel every backend replaces) and whole key generation,
//! encapsulation and decapsulation (honest and tampered ciphertexts).

use pqforge_core::ByteArray;
use pqforge_core::testing::TestRng;
use pqforge_ntru::testing::{self, Backend};
use pqforge_ntru::{
    NtruHps2048509, NtruHps2048677, NtruHps4096821, NtruHps40961229, NtruHrss701, NtruHrss1373,
    ParameterSet,
};

fn others() -> impl Iterator<Item = Backend> {
    Backend::ALL
        .into_iter()
        .filter(|b| *b != Backend::Portable && b.is_available())
}

fn check<P: ParameterSet>(tag: u64) {
    let mut rng = TestRng::new(tag);
    for be in others() {
        for round in 0..8 {
            let mut x = P::POLY_ZERO;
            let mut y = P::POLY_ZERO;
            for (a, b) in x.as_mut().iter_mut().zip(y.as_mut()) {
                *a = rng.next_u32() as u16;
                *b = rng.next_u32() as u16;
            }
            if round == 0 {
                x.as_mut().fill(u16::MAX);
                y.as_mut().fill(u16::MAX);
            }
            let want = testing::ring_mul::<P>(Backend::Portable, &x, &y).expect("portable");
            let got = testing::ring_mul::<P>(be, &x, &y).expect("available");
            // Products agree modulo 2^13 and q (the precision callers rely on).
            let mask = (1u16 << P::LOGQ.max(13)) - 1;
            let masked = |p: &P::Poly| p.as_ref().iter().map(|&c| c & mask).collect::<Vec<_>>();
            assert_eq!(
                masked(&got),
                masked(&want),
                "{} {}: ring product",
                P::INFO.name,
                be.name()
            );
        }
        for _ in 0..2 {
            let mut seed = P::KeygenSeed::zeroed();
            rng.fill(seed.as_mut());
            let (ek, dk) = testing::keygen_derand::<P>(Backend::Portable, &seed).expect("portable");
            let (ek2, dk2) = testing::keygen_derand::<P>(be, &seed).expect("available");
            assert_eq!(
                ek.as_ref(),
                ek2.as_ref(),
                "{} {}: ek",
                P::INFO.name,
                be.name()
            );
            assert_eq!(
                dk.as_ref(),
                dk2.as_ref(),
                "{} {}: dk",
                P::INFO.name,
                be.name()
            );
            let mut m = P::EncapsSeed::zeroed();
            rng.fill(m.as_mut());
            let (ct, ss) = testing::encaps_derand::<P>(Backend::Portable, &ek, &m).expect("p");
            let (ct2, ss2) = testing::encaps_derand::<P>(be, &ek, &m).expect("available");
            assert_eq!(ct.as_ref(), ct2.as_ref());
            assert_eq!(ss, ss2);
            assert_eq!(testing::decaps::<P>(be, &dk, &ct), Some(ss));
            let mut bad = ct;
            bad.as_mut()[3] ^= 4;
            assert_eq!(
                testing::decaps::<P>(be, &dk, &bad),
                testing::decaps::<P>(Backend::Portable, &dk, &bad)
            );
        }
    }
}

#[test]
fn backends_hps_2048_509() {
    check::<NtruHps2048509>(1);
}

#[test]
fn backends_hps_2048_677() {
    check::<NtruHps2048677>(2);
}

#[test]
fn backends_hps_4096_821() {
    check::<NtruHps4096821>(3);
}

#[test]
fn backends_hps_4096_1229() {
    check::<NtruHps40961229>(4);
}

#[test]
fn backends_hrss_701() {
    check::<NtruHrss701>(5);
}

#[test]
fn backends_hrss_1373() {
    check::<NtruHrss1373>(6);
}

#[test]
fn selected_backend_is_available() {
    assert!(Backend::selected().is_available());
    assert!(Backend::Portable.is_available());
}
