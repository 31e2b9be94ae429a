//! Differential tests: every backend available on this CPU against the
//! portable reference, on random inputs.
//!
//! * ring multiplication mod X^n - 1 for the three n, dense x dense, dense x
//!   sparse, sparse x sparse and edge cases (zero, one, all ones);
//! * full keygen / encaps / decaps outputs byte for byte, for all six sets,
//!   including tampered ciphertexts (implicit rejection) and the
//!   decapsulation-key check of `prepare_dk`; and the public typed API (best
//!   backend) against portable.

use pqforge_core::testing::TestRng;
use pqforge_core::{ByteArray, Ciphertext, DecapsKey, EncapsKey};
use pqforge_hqc::testing::{self, Backend};
use pqforge_hqc::{Hqc1, Hqc1V5, Hqc3, Hqc3V5, Hqc5, Hqc5V5, ParameterSet};

fn others() -> Vec<Backend> {
    let v: Vec<Backend> = Backend::ALL
        .into_iter()
        .filter(|b| *b != Backend::Portable && b.is_available())
        .collect();
    eprintln!(
        "backends under test: {:?} (selected: {:?})",
        v,
        Backend::selected()
    );
    v
}

/// A test generator seeded from the set's name.
fn rng_for<P: ParameterSet>() -> TestRng {
    let seed = P::INFO
        .name
        .bytes()
        .fold(0u64, |h, b| h.rotate_left(5) ^ u64::from(b));
    TestRng::new(seed)
}

fn mask_top<P: ParameterSet>(v: &mut [u64]) {
    if P::N % 64 != 0 {
        v[P::WORDS - 1] &= (1u64 << (P::N % 64)) - 1;
    }
}

fn dense<P: ParameterSet>(r: &mut TestRng) -> Vec<u64> {
    let mut v: Vec<u64> = (0..P::WORDS).map(|_| r.next_u64()).collect();
    mask_top::<P>(&mut v);
    v
}

fn sparse<P: ParameterSet>(r: &mut TestRng, weight: usize) -> Vec<u64> {
    let mut v = vec![0u64; P::WORDS];
    for _ in 0..weight {
        let pos = r.below(P::N);
        v[pos / 64] |= 1 << (pos % 64);
    }
    v
}

fn mul_all<P: ParameterSet>(a: &[u64], b: &[u64], backs: &[Backend]) {
    let mut want = vec![0u64; P::WORDS];
    testing::mul_mod::<P>(Backend::Portable, a, b, &mut want).expect("portable");
    for &be in backs {
        let mut got = vec![0u64; P::WORDS];
        testing::mul_mod::<P>(be, a, b, &mut got).expect("available");
        assert_eq!(got, want, "{} mul_mod differs for n = {}", be.name(), P::N);
    }
}

fn mul_cases<P: ParameterSet>() {
    let backs = others();
    let mut r = rng_for::<P>();
    for _ in 0..6 {
        let (a, b) = (dense::<P>(&mut r), dense::<P>(&mut r));
        mul_all::<P>(&a, &b, &backs);
        let s = sparse::<P>(&mut r, P::OMEGA_R);
        mul_all::<P>(&a, &s, &backs);
        mul_all::<P>(&s, &a, &backs);
        let s2 = sparse::<P>(&mut r, P::OMEGA);
        mul_all::<P>(&s, &s2, &backs);
    }
    // Edge cases: zero, one, X^(n-1), all ones.
    let zero = vec![0u64; P::WORDS];
    let mut one = zero.clone();
    one[0] = 1;
    let mut top = zero.clone();
    top[(P::N - 1) / 64] = 1 << ((P::N - 1) % 64);
    let mut ones = vec![u64::MAX; P::WORDS];
    mask_top::<P>(&mut ones);
    let a = dense::<P>(&mut r);
    for x in [&zero, &one, &top, &ones] {
        mul_all::<P>(&a, x, &backs);
        mul_all::<P>(x, &ones, &backs);
    }
    // Sanity of the reference itself: a * 1 = a.
    let mut got = vec![0u64; P::WORDS];
    testing::mul_mod::<P>(Backend::Portable, &a, &one, &mut got).expect("portable");
    assert_eq!(got, a);
}

#[test]
fn mul_mod_matches_portable() {
    mul_cases::<Hqc1>();
    mul_cases::<Hqc3>();
    mul_cases::<Hqc5>();
}

fn kem_cases<P: ParameterSet>(rounds: usize) {
    let backs = others();
    let mut r = rng_for::<P>();
    for round in 0..rounds {
        let seed: [u8; 32] = r.array();
        let (ek, dk) = testing::keygen_derand::<P>(Backend::Portable, &seed).expect("portable");
        let mut m_salt = P::EncapsSeed::zeroed();
        r.fill(m_salt.as_mut());
        let (ct, ss) =
            testing::encaps_derand::<P>(Backend::Portable, &ek, &m_salt).expect("portable");
        let ss_dec = testing::decaps::<P>(Backend::Portable, &dk, &ct).expect("portable");
        assert_eq!(ss_dec, ss);
        // The public API (best backend, checked keys) agrees with portable.
        let (tek, tdk) = P::keygen_derand(&seed);
        assert_eq!(tek.as_ref(), ek.as_ref(), "typed keygen ek");
        assert_eq!(tdk.as_ref(), dk.as_ref(), "typed keygen dk");
        let (tct, tss) = P::encaps_derand(&tek, &m_salt).expect("derand");
        assert_eq!(tct.as_ref(), ct.as_ref(), "typed encaps ct");
        assert_eq!(tss.as_ref(), &ss[..], "typed encaps ss");
        let tdk = DecapsKey::<P>::try_from(dk.as_ref()).expect("valid dk");
        let tct = Ciphertext::<P>::try_from(ct.as_ref()).expect("length");
        assert_eq!(P::decaps(&tdk, &tct).as_ref(), &ss[..], "typed decaps");
        assert!(EncapsKey::<P>::try_from(ek.as_ref()).is_ok());
        // A tampered ciphertext (flip one bit of u, v or the salt).
        let mut bad = ct;
        let pos = r.below(bad.as_ref().len());
        bad.as_mut()[pos] ^= 1 << (round % 8);
        let rej = testing::decaps::<P>(Backend::Portable, &dk, &bad).expect("portable");
        assert_ne!(rej, ss);
        // A tampered decapsulation key (one byte of s, seed_dk or σ).
        let mut bad_dk = dk;
        let at = [40, P::ENCAPS_KEY_BYTES + 3, P::ENCAPS_KEY_BYTES + 33][round % 3];
        bad_dk.as_mut()[at] ^= 0x10;
        assert!(testing::check_decaps_key::<P>(Backend::Portable, &dk).expect("p"));
        assert!(!testing::check_decaps_key::<P>(Backend::Portable, &bad_dk).expect("p"));
        for &be in &backs {
            let name = be.name();
            let (ek2, dk2) = testing::keygen_derand::<P>(be, &seed).expect("available");
            assert_eq!(ek2.as_ref(), ek.as_ref(), "{name} keygen ek");
            assert_eq!(dk2.as_ref(), dk.as_ref(), "{name} keygen dk");
            let (ct2, ss2) = testing::encaps_derand::<P>(be, &ek, &m_salt).expect("available");
            assert_eq!(ct2.as_ref(), ct.as_ref(), "{name} encaps ct");
            assert_eq!(ss2, ss, "{name} encaps ss");
            let d = testing::decaps::<P>(be, &dk, &ct).expect("available");
            assert_eq!(d, ss, "{name} decaps");
            let d = testing::decaps::<P>(be, &dk, &bad).expect("available");
            assert_eq!(d, rej, "{name} decaps (rejection)");
            assert!(testing::check_decaps_key::<P>(be, &dk).expect("available"));
            assert!(!testing::check_decaps_key::<P>(be, &bad_dk).expect("available"));
        }
    }
}

#[test]
fn kem_matches_portable_hqc1() {
    kem_cases::<Hqc1>(6);
    kem_cases::<Hqc1V5>(3);
}

#[test]
fn kem_matches_portable_hqc3() {
    kem_cases::<Hqc3>(4);
    kem_cases::<Hqc3V5>(2);
}

#[test]
fn kem_matches_portable_hqc5() {
    kem_cases::<Hqc5>(3);
    kem_cases::<Hqc5V5>(2);
}
