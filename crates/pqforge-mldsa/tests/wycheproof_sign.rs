//! KeyGen and Sign against the Wycheproof ML-DSA sign files: from the seed
//! (`sign_seed`: public key and signature) and from the expanded key
//! (`sign_noseed`), external pure ML-DSA or external μ (no `msg`), hedged
//! (`rnd`) or deterministic. Invalid cases (bad lengths, s1/s2 out of range,
//! ctx > 255) must be refused before signing.

use crate::common;

use common::{message_prime, unhex};
use pqforge_core::kat::data_dir;
use pqforge_mldsa::hazmat::Message;
use pqforge_mldsa::hazmat::{key_gen_internal, sign_internal};
use pqforge_mldsa::params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};

/// Signs as the test asks, or `None` where a correct implementation
/// refuses.
fn try_sign<P: ParameterSet>(sk: &[u8], t: &serde_json::Value) -> Option<Vec<u8>> {
    let ctx = unhex(t["ctx"].as_str().unwrap_or(""));
    if ctx.len() > 255 {
        return None;
    }
    let rnd: [u8; 32] = t["rnd"]
        .as_str()
        .map_or([0; 32], |r| unhex(r).try_into().expect("rnd"));
    let mut sig = vec![0u8; P::SIG_BYTES];
    if let Some(m) = t["msg"].as_str() {
        let prime = message_prime(&ctx, &unhex(m), None);
        sign_internal::<P>(sk, Message::Prime(&prime), &rnd, &mut sig).ok()?;
    } else {
        let mu: [u8; 64] = unhex(t["mu"].as_str().expect("mu")).try_into().expect("mu");
        sign_internal::<P>(sk, Message::Mu(&mu), &rnd, &mut sig).ok()?;
    }
    Some(sig)
}

fn file<P: ParameterSet>(name: &str, expect_tests: usize) {
    let Some(dir) = data_dir() else {
        eprintln!("skipping: no test data (set PQFORGE_DATA)");
        return;
    };
    let text = std::fs::read_to_string(dir.join("vectors/wycheproof/testvectors_v1").join(name))
        .expect("read Wycheproof file");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let (mut ran, mut failed) = (0, Vec::new());
    for g in v["testGroups"].as_array().expect("groups") {
        // The expanded key: given, or derived from a 32-byte seed.
        let sk = match g["privateSeed"].as_str() {
            Some(seed) => {
                let seed = unhex(seed);
                match <[u8; 32]>::try_from(seed.as_slice()) {
                    Ok(xi) => {
                        let (mut pk, mut sk) = (vec![0u8; P::PK_BYTES], vec![0u8; P::SK_BYTES]);
                        key_gen_internal::<P>(&xi, &mut pk, &mut sk).expect("lengths");
                        if g["publicKey"].as_str().map(unhex) != Some(pk) {
                            failed.push((serde_json::Value::Null, "public key from seed".into()));
                        }
                        sk
                    }
                    Err(_) => Vec::new(), // wrong seed length: refused
                }
            }
            None => unhex(g["privateKey"].as_str().expect("privateKey")),
        };
        for t in g["tests"].as_array().expect("tests") {
            let want = unhex(t["sig"].as_str().unwrap_or(""));
            let got = try_sign::<P>(&sk, t);
            let ok = match (t["result"].as_str(), got) {
                (Some("valid"), Some(sig)) => sig == want,
                (Some("invalid"), None) => true,
                _ => false,
            };
            ran += 1;
            if !ok {
                failed.push((t["tcId"].clone(), t["comment"].clone()));
            }
        }
    }
    assert!(failed.is_empty(), "{name}: {ran} ran, failed: {failed:?}");
    assert_eq!(ran, expect_tests, "{name}: every test ran");
}

#[test]
fn wycheproof_sign_seed() {
    file::<MlDsa44>("mldsa_44_sign_seed_test.json", 86);
    file::<MlDsa65>("mldsa_65_sign_seed_test.json", 105);
    file::<MlDsa87>("mldsa_87_sign_seed_test.json", 96);
}

#[test]
fn wycheproof_sign_noseed() {
    file::<MlDsa44>("mldsa_44_sign_noseed_test.json", 73);
    file::<MlDsa65>("mldsa_65_sign_noseed_test.json", 78);
    file::<MlDsa87>("mldsa_87_sign_noseed_test.json", 69);
}
