//! Every backend against the portable one on random inputs: the product
//! kernel directly, and whole operations (key generation, encapsulation,
//! decapsulation of honest and garbage ciphertexts, the key check).

use pqforge_core::ByteArray;
use pqforge_core::testing::TestRng;
use pqforge_ntruprime::testing::{self, Backend};
use pqforge_ntruprime::{
    ParameterSet, Sntrup653, Sntrup761, Sntrup857, Sntrup953, Sntrup1013, Sntrup1277,
};

fn others() -> impl Iterator<Item = Backend> {
    Backend::ALL
        .into_iter()
        .filter(|b| *b != Backend::Portable && b.is_available())
}

#[test]
fn selected_backend_is_available() {
    assert!(Backend::selected().is_available());
    assert!(Backend::Portable.is_available());
}

fn product_kernel<P: ParameterSet>(tag: u64) {
    let mut rng = TestRng::new(tag);
    let n = P::P;
    for round in 0..8 {
        for m in [P::Q, 3] {
            let h = (P::Q - 1) / 2;
            let a: Vec<i16> = (0..n)
                .map(|_| match round {
                    0 => h as i16,
                    1 => -h as i16,
                    _ => (rng.below(P::Q as usize) as i32 - h) as i16,
                })
                .collect();
            let s: Vec<i8> = (0..n)
                .map(|_| match round {
                    0 | 1 => 1,
                    _ => rng.below(3) as i8 - 1,
                })
                .collect();
            // The definition, in 64-bit integers.
            let mut prod = vec![0i64; 2 * n - 1];
            for i in 0..n {
                for j in 0..n {
                    prod[i + j] += i64::from(a[i]) * i64::from(s[j]);
                }
            }
            for i in (n..2 * n - 1).rev() {
                let t = prod[i];
                prod[i - n] += t;
                prod[i - n + 1] += t;
            }
            let mh = i64::from((m - 1) / 2);
            let want: Vec<i16> = prod[..n]
                .iter()
                .map(|&x| ((x + mh).rem_euclid(i64::from(m)) - mh) as i16)
                .collect();
            for b in Backend::ALL.into_iter().filter(|b| b.is_available()) {
                let mut got = vec![0i16; n];
                testing::mul_small::<P>(b, m, &mut got, &a, &s).expect("available");
                assert_eq!(got, want, "{} {} m={m}", b.name(), P::NAME);
            }
        }
    }
}

#[test]
fn product_kernel_all_sets() {
    product_kernel::<Sntrup653>(1);
    product_kernel::<Sntrup761>(2);
    product_kernel::<Sntrup857>(3);
    product_kernel::<Sntrup953>(4);
    product_kernel::<Sntrup1013>(5);
    product_kernel::<Sntrup1277>(6);
}

/// The product kernel refuses a modulus other than 3 and q (0 included:
/// no division by zero) instead of panicking.
#[test]
fn product_kernel_refuses_other_moduli() {
    let n = Sntrup761::P;
    let (a, s) = (vec![0i16; n], vec![0i8; n]);
    let mut out = vec![0i16; n];
    for m in [0, 1, -3, 2, 4, 5, 4590, 4621, i32::MIN, i32::MAX] {
        assert_eq!(
            testing::mul_small::<Sntrup761>(Backend::Portable, m, &mut out, &a, &s),
            None,
            "m={m}"
        );
    }
    for m in [3, Sntrup761::Q] {
        assert_eq!(
            testing::mul_small::<Sntrup761>(Backend::Portable, m, &mut out, &a, &s),
            Some(())
        );
    }
}

fn operations<P: ParameterSet>(tag: u64) {
    let mut rng = TestRng::new(tag);
    for _ in 0..3 {
        let seed: [u8; 32] = rng.array();
        let (pk, sk) = testing::keygen_derand::<P>(Backend::Portable, &seed).expect("portable");
        let mut words = P::EncapsSeed::zeroed();
        rng.fill(words.as_mut());
        let (ct, ss) = testing::encaps_derand::<P>(Backend::Portable, &pk, &words).expect("p");
        let mut junk = P::CtBytes::zeroed();
        rng.fill(junk.as_mut());
        let rej = testing::decaps::<P>(Backend::Portable, &sk, &junk).expect("p");
        assert_eq!(testing::decaps::<P>(Backend::Portable, &sk, &ct), Some(ss));
        assert_eq!(testing::check_sk::<P>(Backend::Portable, &sk), Some(0xFF));
        for b in others() {
            let (pk2, sk2) = testing::keygen_derand::<P>(b, &seed).expect("available");
            assert_eq!(pk2.as_ref(), pk.as_ref(), "{} {}", b.name(), P::NAME);
            assert_eq!(sk2.as_ref(), sk.as_ref(), "{} {}", b.name(), P::NAME);
            let (ct2, ss2) = testing::encaps_derand::<P>(b, &pk, &words).expect("available");
            assert_eq!(ct2.as_ref(), ct.as_ref());
            assert_eq!(ss2, ss);
            assert_eq!(testing::decaps::<P>(b, &sk, &ct), Some(ss));
            assert_eq!(testing::decaps::<P>(b, &sk, &junk), Some(rej));
            assert_eq!(testing::check_sk::<P>(b, &sk), Some(0xFF));
        }
    }
}

#[test]
fn operations_all_sets() {
    operations::<Sntrup653>(1);
    operations::<Sntrup761>(2);
    operations::<Sntrup857>(3);
    operations::<Sntrup953>(4);
    operations::<Sntrup1013>(5);
    operations::<Sntrup1277>(6);
}

#[test]
fn sort_kernel() {
    let mut rng = TestRng::new(0x50f7);
    let mut lens: Vec<usize> = (0..=40).collect();
    lens.extend([
        63, 64, 65, 127, 129, 255, 511, 513, 653, 761, 857, 953, 1013, 1277,
    ]);
    for &n in &lens {
        for kind in 0..3 {
            let x: Vec<u32> = (0..n)
                .map(|_| match kind {
                    0 => rng.below(1 << 30) as u32 ^ (rng.below(4) as u32) << 30,
                    // Duplicates, and the extremes of both signed halves.
                    1 => [0, 1, u32::MAX, 0x7fff_ffff, 0x8000_0000][rng.below(5)],
                    _ => rng.below(3) as u32,
                })
                .collect();
            let mut want = x.clone();
            want.sort_unstable();
            for b in Backend::ALL.into_iter().filter(|b| b.is_available()) {
                let mut got = x.clone();
                testing::sort(b, &mut got).expect("available");
                assert_eq!(got, want, "{} n={n} kind={kind}", b.name());
            }
        }
    }
}

fn inversions<P: ParameterSet>(tag: u64) {
    let mut rng = TestRng::new(tag);
    let n = P::P;
    for round in 0..6 {
        // Dense, sparse, low-degree and periodic inputs (the latter often
        // not invertible mod 3).
        let s: Vec<i8> = (0..n)
            .map(|i| match round {
                0 | 1 => rng.below(3) as i8 - 1,
                2 => [0, 0, 0, 0, 0, 0, 1, -1][rng.below(8)],
                3 => i8::from(i < 5) * (rng.below(3) as i8 - 1),
                4 => [1, -1, 0][i % 3],
                _ => 1,
            })
            .collect();
        let (mut w3, mut wq) = (vec![0i8; n], vec![0i16; n]);
        let want = testing::recips::<P>(Backend::Portable, &mut w3, &mut wq, &s);
        for b in others() {
            let (mut g3, mut gq) = (vec![0i8; n], vec![0i16; n]);
            let got = testing::recips::<P>(b, &mut g3, &mut gq, &s);
            assert_eq!(
                got,
                want,
                "{} {} verdicts, round {round}",
                b.name(),
                P::NAME
            );
            assert_eq!(g3, w3, "{} {} 1/s mod 3, round {round}", b.name(), P::NAME);
            assert_eq!(
                gq,
                wq,
                "{} {} 1/(3s) mod q, round {round}",
                b.name(),
                P::NAME
            );
        }
    }
}

#[test]
fn inversions_all_sets() {
    inversions::<Sntrup653>(1);
    inversions::<Sntrup761>(2);
    inversions::<Sntrup857>(3);
    inversions::<Sntrup953>(4);
    inversions::<Sntrup1013>(5);
    inversions::<Sntrup1277>(6);
}
