//! Every backend against the portable one, on whole operations: for every
//! parameter set, slh_keygen_internal, slh_sign_internal (deterministic
//! and randomized) and slh_verify_internal on random seeds and messages,
//! with tampered signatures (R, SIG_FORS, the first and last XMSS layer)
//! and a wrong public key. Once with AVX-512 allowed, once with it turned
//! off (`pqforge_core::cpu::disable_avx512`), so that both lane widths of
//! core's primitives are compared.

use pqforge_core::testing::TestRng;
use pqforge_slhdsa::Backend;
use pqforge_slhdsa::hazmat::{
    slh_keygen_internal_on, slh_sign_internal_on, slh_verify_internal_on,
};
use pqforge_slhdsa::*;

fn others() -> Vec<Backend> {
    let v: Vec<Backend> = Backend::ALL
        .into_iter()
        .filter(|b| *b != Backend::Portable && b.is_available())
        .collect();
    if v.is_empty() {
        eprintln!("no backend besides portable on this machine/build: nothing to compare");
    }
    v
}

fn bytes(rng: &mut TestRng, len: usize) -> Vec<u8> {
    let mut v = vec![0u8; len];
    rng.fill(&mut v);
    v
}

fn ops<P: ParameterSet>(b: Backend, rng: &mut TestRng, rounds: usize) {
    let n = P::N;
    for round in 0..rounds {
        let seeds = bytes(rng, 3 * n);
        let (sk_seed, rest) = seeds.split_at(n);
        let (sk_prf, pk_seed) = rest.split_at(n);
        let (mut sk, mut pk) = (vec![0u8; P::SK_BYTES], vec![0u8; P::PK_BYTES]);
        let (mut sk2, mut pk2) = (sk.clone(), pk.clone());
        slh_keygen_internal_on::<P>(
            Backend::Portable,
            sk_seed,
            sk_prf,
            pk_seed,
            &mut sk,
            &mut pk,
        )
        .expect("lengths")
        .expect("backend");
        slh_keygen_internal_on::<P>(b, sk_seed, sk_prf, pk_seed, &mut sk2, &mut pk2)
            .expect("lengths")
            .expect("backend");
        assert_eq!((&pk, &sk), (&pk2, &sk2), "{} {} keygen", P::NAME, b.name());
        let msg = bytes(rng, 1 + round * 37);
        let addrnd = if round % 2 == 0 {
            pk_seed.to_vec()
        } else {
            bytes(rng, n)
        };
        let (head, tail) = msg.split_at(msg.len() / 2);
        let parts: [&[u8]; 2] = [head, tail];
        let (mut s1, mut s2) = (vec![0u8; P::SIG_BYTES], vec![0u8; P::SIG_BYTES]);
        slh_sign_internal_on::<P>(Backend::Portable, &parts, &sk, &addrnd, &mut s1)
            .expect("lengths")
            .expect("backend");
        slh_sign_internal_on::<P>(b, &parts, &sk, &addrnd, &mut s2)
            .expect("lengths")
            .expect("backend");
        assert!(s1 == s2, "{} {} sign, round {round}", P::NAME, b.name());
        let fors = n + P::K * (1 + P::A) * n;
        for flip in [
            None,
            Some(0),
            Some(n + 3),
            Some(fors - 1),
            Some(fors + 2),
            Some(P::SIG_BYTES - 1),
        ] {
            let mut s = s1.clone();
            if let Some(i) = flip {
                s[i] ^= 0x10;
            }
            let p = slh_verify_internal_on::<P>(Backend::Portable, &[&msg], &s, &pk);
            let v = slh_verify_internal_on::<P>(b, &[&msg], &s, &pk);
            assert_eq!(p, v, "{} {} verify, flip {flip:?}", P::NAME, b.name());
            assert_eq!(p, Some(flip.is_none()));
        }
        let mut bad = pk.clone();
        bad[2 * n - 1] ^= 1;
        let p = slh_verify_internal_on::<P>(Backend::Portable, &[&msg], &s1, &bad);
        let v = slh_verify_internal_on::<P>(b, &[&msg], &s1, &bad);
        assert_eq!(
            (p, v),
            (Some(false), Some(false)),
            "{} {}",
            P::NAME,
            b.name()
        );
    }
}

fn all_sets(rounds_f: usize, rounds_s: usize) {
    let mut rng = TestRng::new(205);
    for b in others() {
        ops::<SlhDsaSha2_128f>(b, &mut rng, rounds_f);
        ops::<SlhDsaSha2_192f>(b, &mut rng, rounds_f);
        ops::<SlhDsaSha2_256f>(b, &mut rng, rounds_f);
        ops::<SlhDsaShake128f>(b, &mut rng, rounds_f);
        ops::<SlhDsaShake192f>(b, &mut rng, rounds_f);
        ops::<SlhDsaShake256f>(b, &mut rng, rounds_f);
        ops::<SlhDsaSha2_128s>(b, &mut rng, rounds_s);
        ops::<SlhDsaSha2_192s>(b, &mut rng, rounds_s);
        ops::<SlhDsaSha2_256s>(b, &mut rng, rounds_s);
        ops::<SlhDsaShake128s>(b, &mut rng, rounds_s);
        ops::<SlhDsaShake192s>(b, &mut rng, rounds_s);
        ops::<SlhDsaShake256s>(b, &mut rng, rounds_s);
    }
}

// One test, so that turning AVX-512 off does not race with a test that
// still expects it.
#[test]
fn backends_agree_on_every_set() {
    // The s sets take seconds per signature on the portable backend: one
    // round each (the test profile is optimized).
    all_sets(3, 1);
    pqforge_core::cpu::disable_avx512();
    all_sets(2, 1);
}
