//! Differential tests: every backend available on this CPU against the
//! portable reference, on random inputs.
//!
//! * ring multiplication mod X^n - 1 for the three n, dense x dense, dense x
//!   sparse, sparse x sparse and edge cases (zero, one, all ones);
//! * full keygen / encaps / decaps outputs byte for byte, for all six sets,
//!   including tampered ciphertexts (implicit rejection) and the
//!   decapsulation-key import check.

use pqforge_core::kat::HqcPrng;
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

struct Rng(HqcPrng);

impl Rng {
    fn new(tag: &[u8]) -> Self {
        Self(HqcPrng::new(tag))
    }
    fn u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.0.fill(&mut b);
        u64::from_le_bytes(b)
    }
    fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut b = [0u8; N];
        self.0.fill(&mut b);
        b
    }
}

fn mask_top<P: ParameterSet>(v: &mut [u64]) {
    if P::N % 64 != 0 {
        v[P::WORDS - 1] &= (1u64 << (P::N % 64)) - 1;
    }
}

fn dense<P: ParameterSet>(r: &mut Rng) -> Vec<u64> {
    let mut v: Vec<u64> = (0..P::WORDS).map(|_| r.u64()).collect();
    mask_top::<P>(&mut v);
    v
}

fn sparse<P: ParameterSet>(r: &mut Rng, weight: usize) -> Vec<u64> {
    let mut v = vec![0u64; P::WORDS];
    for _ in 0..weight {
        let pos = (r.u64() % P::N as u64) as usize;
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
    let mut r = Rng::new(P::ALG_INFO.name.as_bytes());
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
    let mut r = Rng::new(P::ALG_INFO.name.as_bytes());
    for round in 0..rounds {
        let seed: [u8; 32] = r.bytes();
        let (ek, dk) = testing::keygen_derand::<P>(Backend::Portable, &seed).expect("portable");
        let m: [u8; 32] = r.bytes();
        let m = &m[..P::K];
        let salt: [u8; 16] = r.bytes();
        let (ct, ss) =
            testing::encaps_derand::<P>(Backend::Portable, &ek, m, &salt).expect("portable");
        let ss_dec = testing::decaps::<P>(Backend::Portable, &dk, &ct).expect("portable");
        assert_eq!(ss_dec.as_bytes(), ss.as_bytes());
        // A tampered ciphertext (flip one bit of u, v or the salt).
        let mut bad = ct.as_bytes().to_vec();
        let pos = (r.u64() % bad.len() as u64) as usize;
        bad[pos] ^= 1 << (round % 8);
        let bad = pqforge_hqc::Ciphertext::<P>::try_from(&bad[..]).expect("length");
        let rej = testing::decaps::<P>(Backend::Portable, &dk, &bad).expect("portable");
        // A tampered decapsulation key (one byte of s, seed_dk or σ).
        let mut bad_dk = dk.as_bytes().to_vec();
        let at = [40, P::ENCAPS_KEY_BYTES + 3, P::ENCAPS_KEY_BYTES + 33][round % 3];
        bad_dk[at] ^= 0x10;
        assert!(testing::check_decaps_key::<P>(Backend::Portable, dk.as_bytes()).expect("p"));
        assert!(!testing::check_decaps_key::<P>(Backend::Portable, &bad_dk).expect("p"));
        for &be in &backs {
            let name = be.name();
            let (ek2, dk2) = testing::keygen_derand::<P>(be, &seed).expect("available");
            assert_eq!(ek2.as_bytes(), ek.as_bytes(), "{name} keygen ek");
            assert_eq!(dk2.as_bytes(), dk.as_bytes(), "{name} keygen dk");
            let (ct2, ss2) = testing::encaps_derand::<P>(be, &ek, m, &salt).expect("available");
            assert_eq!(ct2.as_bytes(), ct.as_bytes(), "{name} encaps ct");
            assert_eq!(ss2.as_bytes(), ss.as_bytes(), "{name} encaps ss");
            let d = testing::decaps::<P>(be, &dk, &ct).expect("available");
            assert_eq!(d.as_bytes(), ss.as_bytes(), "{name} decaps");
            let d = testing::decaps::<P>(be, &dk, &bad).expect("available");
            assert_eq!(d.as_bytes(), rej.as_bytes(), "{name} decaps (rejection)");
            assert!(testing::check_decaps_key::<P>(be, dk.as_bytes()).expect("available"));
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
