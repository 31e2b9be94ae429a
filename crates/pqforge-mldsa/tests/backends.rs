//! Every backend against the portable one, on whole operations: KeyGen,
//! Sign (deterministic and hedged) and Verify on random inputs, tampered
//! signatures and adversarial keys (t1 = 0, the "zero public key" whose
//! verification runs UseHint on w' = 0; all-ones t1), and the Wycheproof
//! verify files (hint encodings, ‖z‖∞ boundaries, UseHint(1, 0),
//! missing reductions). The kernels are compared one by one, exhaustively
//! where it matters (UseHint for every r), in the backend's own unit tests.

use crate::common;

use common::{message_prime, unhex};
use pqforge_core::kat::data_dir;
use pqforge_core::testing::TestRng;
use pqforge_mldsa::Backend;
use pqforge_mldsa::hazmat::{Message, key_gen_internal_on, sign_internal_on, verify_internal_on};
use pqforge_mldsa::params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};

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

fn ops<P: ParameterSet>(b: Backend, rng: &mut TestRng) {
    for round in 0..8 {
        let xi = rng.array::<32>();
        let (mut pk, mut sk) = (vec![0u8; P::PK_BYTES], vec![0u8; P::SK_BYTES]);
        let (mut pk2, mut sk2) = (pk.clone(), sk.clone());
        key_gen_internal_on::<P>(Backend::Portable, &xi, &mut pk, &mut sk)
            .expect("lengths")
            .expect("backend");
        key_gen_internal_on::<P>(b, &xi, &mut pk2, &mut sk2)
            .expect("lengths")
            .expect("backend");
        assert_eq!((&pk, &sk), (&pk2, &sk2), "{} keygen", b.name());
        let msg = rng.array::<33>();
        let rnd = if round % 2 == 0 {
            [0; 32]
        } else {
            rng.array::<32>()
        };
        let (mut s1, mut s2) = (vec![0u8; P::SIG_BYTES], vec![0u8; P::SIG_BYTES]);
        sign_internal_on::<P>(Backend::Portable, &sk, Message::Prime(&msg), &rnd, &mut s1)
            .expect("lengths")
            .expect("backend");
        sign_internal_on::<P>(b, &sk, Message::Prime(&msg), &rnd, &mut s2)
            .expect("lengths")
            .expect("backend");
        assert_eq!(s1, s2, "{} sign", b.name());
        for flip in [None, Some(0), Some(P::CTILDE + 5), Some(P::SIG_BYTES - 1)] {
            let mut s = s1.clone();
            if let Some(i) = flip {
                s[i] ^= 1;
            }
            let p = verify_internal_on::<P>(Backend::Portable, &pk, Message::Prime(&msg), &s);
            let v = verify_internal_on::<P>(b, &pk, Message::Prime(&msg), &s);
            assert_eq!(p, v, "{} verify, flip {flip:?}", b.name());
            assert_eq!(p, Some(flip.is_none()));
        }
        // Adversarial public keys: ρ of the real key, t1 all 0 or all ones.
        for fill in [0u8, 0xFF] {
            let mut bad = pk.clone();
            bad[32..].fill(fill);
            let p = verify_internal_on::<P>(Backend::Portable, &bad, Message::Prime(&msg), &s1);
            let v = verify_internal_on::<P>(b, &bad, Message::Prime(&msg), &s1);
            assert_eq!(p, v, "{} verify, t1 filled with {fill:#x}", b.name());
        }
    }
}

#[test]
fn backends_agree_on_random_and_adversarial_inputs() {
    let mut rng = TestRng::new(2026);
    for b in others() {
        ops::<MlDsa44>(b, &mut rng);
        ops::<MlDsa65>(b, &mut rng);
        ops::<MlDsa87>(b, &mut rng);
    }
}

fn wycheproof<P: ParameterSet>(b: Backend, name: &str) -> usize {
    let Some(dir) = data_dir() else {
        eprintln!("skipping: no test data (set PQFORGE_DATA)");
        return 0;
    };
    let text = std::fs::read_to_string(dir.join("vectors/wycheproof/testvectors_v1").join(name))
        .expect("read Wycheproof file");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let mut n = 0;
    for g in v["testGroups"].as_array().expect("groups") {
        let pk = unhex(g["publicKey"].as_str().expect("publicKey"));
        for t in g["tests"].as_array().expect("tests") {
            let ctx = unhex(t["ctx"].as_str().unwrap_or(""));
            if ctx.len() > 255 {
                continue;
            }
            let m = message_prime(&ctx, &unhex(t["msg"].as_str().expect("msg")), None);
            let sig = unhex(t["sig"].as_str().expect("sig"));
            let p = verify_internal_on::<P>(Backend::Portable, &pk, Message::Prime(&m), &sig);
            let v = verify_internal_on::<P>(b, &pk, Message::Prime(&m), &sig);
            assert_eq!(p, v, "{} {name} tcId {}", b.name(), t["tcId"]);
            n += 1;
        }
    }
    n
}

#[test]
fn backends_agree_on_wycheproof_verify() {
    for b in others() {
        let n = wycheproof::<MlDsa44>(b, "mldsa_44_verify_test.json")
            + wycheproof::<MlDsa65>(b, "mldsa_65_verify_test.json")
            + wycheproof::<MlDsa87>(b, "mldsa_87_verify_test.json");
        assert!(n == 0 || n > 600, "{n} cases compared");
    }
}

/// The dispatch picks the last available backend of `Backend::ALL` (listed
/// from the slowest to the fastest): AVX-512 where the CPU has it.
#[test]
fn dispatch_picks_the_fastest_available_backend() {
    let best = Backend::ALL
        .into_iter()
        .rev()
        .find(|b| b.is_available())
        .expect("portable is always available");
    eprintln!(
        "available: {:?}; selected: {}",
        Backend::ALL
            .into_iter()
            .filter(|b| b.is_available())
            .map(Backend::name)
            .collect::<Vec<_>>(),
        Backend::selected().name()
    );
    assert_eq!(Backend::selected(), best);
}
