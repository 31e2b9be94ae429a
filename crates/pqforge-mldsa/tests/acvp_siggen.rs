//! Sign_internal against the ACVP ML-DSA sigGen vectors (FIPS 204):
//! deterministic and hedged, internal interface (raw M' and external μ) and
//! external pure ML-DSA and HashML-DSA (PH(M) computed here for all 12
//! pre-hash functions; M' = 1 || len(ctx) || ctx || OID || PH(M)).

use std::collections::HashMap;

mod common;

use common::{message_prime, unhex};
use pqforge_core::kat::data_dir;
use pqforge_mldsa::hazmat::Message;
use pqforge_mldsa::hazmat::sign_internal;
use pqforge_mldsa::params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};

fn run<P: ParameterSet>(sk: &[u8], msg: Message<'_>, rnd: &[u8; 32]) -> Vec<u8> {
    let mut sig = vec![0u8; P::SIG_BYTES];
    sign_internal::<P>(sk, msg, rnd, &mut sig).expect("sign");
    sig
}

#[test]
fn acvp_siggen_internal_and_pure() {
    let Some(dir) = data_dir() else {
        eprintln!("skipping: no test data (set PQFORGE_DATA)");
        return;
    };
    let d = dir.join("vectors/acvp/ML-DSA-sigGen-FIPS204");
    let read = |f: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(d.join(f)).expect("read")).expect("json")
    };
    let (prompt, expected) = (read("prompt.json"), read("expectedResults.json"));
    let mut want = HashMap::new();
    for g in expected["testGroups"].as_array().expect("groups") {
        for t in g["tests"].as_array().expect("tests") {
            want.insert(
                (
                    g["tgId"].as_u64().expect("tgId"),
                    t["tcId"].as_u64().expect("tcId"),
                ),
                unhex(t["signature"].as_str().expect("signature")),
            );
        }
    }
    let (mut ran, mut failed) = (0, Vec::new());
    for g in prompt["testGroups"].as_array().expect("groups") {
        let prehashed = g["preHash"] == "preHash";
        let set = g["parameterSet"].as_str().expect("parameterSet");
        let external = g["signatureInterface"] == "external";
        let tg = g["tgId"].as_u64().expect("tgId");
        for t in g["tests"].as_array().expect("tests") {
            let sk = unhex(t["sk"].as_str().expect("sk"));
            let rnd: [u8; 32] = t["rnd"]
                .as_str()
                .map_or([0; 32], |r| unhex(r).try_into().expect("32-byte rnd"));
            let mu: Option<[u8; 64]> = t["mu"]
                .as_str()
                .map(|m| unhex(m).try_into().expect("64-byte mu"));
            let mut prime = Vec::new();
            if let Some(m) = t["message"].as_str() {
                let m = unhex(m);
                if external {
                    let ctx = unhex(t["context"].as_str().unwrap_or(""));
                    let hash = if prehashed {
                        t["hashAlg"].as_str()
                    } else {
                        None
                    };
                    prime = message_prime(&ctx, &m, hash);
                } else {
                    prime = m;
                }
            }
            let msg = match &mu {
                Some(mu) => Message::Mu(mu),
                None => Message::Prime(&prime),
            };
            let sig = match set {
                "ML-DSA-44" => run::<MlDsa44>(&sk, msg, &rnd),
                "ML-DSA-65" => run::<MlDsa65>(&sk, msg, &rnd),
                "ML-DSA-87" => run::<MlDsa87>(&sk, msg, &rnd),
                other => panic!("unknown parameter set {other}"),
            };
            ran += 1;
            let tc = t["tcId"].as_u64().expect("tcId");
            if want.get(&(tg, tc)) != Some(&sig) {
                failed.push((tg, tc));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{ran} ran, failed (tgId, tcId): {failed:?}"
    );
    assert_eq!(ran, 360, "every group of the file");
}
