//! Verify_internal against all ACVP ML-DSA sigVer vectors (FIPS 204): the
//! internal interface (raw M' and external μ), external pure ML-DSA and
//! HashML-DSA (M' built in `common`).

mod common;

use common::{message_prime, unhex};
use pqforge_core::kat::data_dir;
use pqforge_mldsa::hazmat::{Message, verify_internal};
use pqforge_mldsa::params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};

fn check<P: ParameterSet>(pk: &[u8], msg: Message<'_>, sig: &[u8]) -> bool {
    verify_internal::<P>(pk, msg, sig)
}

#[test]
fn acvp_sigver_internal_and_pure() {
    let Some(dir) = data_dir() else {
        eprintln!("skipping: no test data (set PQFORGE_DATA)");
        return;
    };
    let path = dir.join("vectors/acvp/ML-DSA-sigVer-FIPS204/internalProjection.json");
    let text = std::fs::read_to_string(&path).expect("read sigVer internalProjection.json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let (mut ran, mut rejected, mut failed) = (0, 0, Vec::new());
    for g in v["testGroups"].as_array().expect("groups") {
        let prehashed = g["preHash"] == "preHash";
        let set = g["parameterSet"].as_str().expect("parameterSet");
        let external = g["signatureInterface"] == "external";
        for t in g["tests"].as_array().expect("tests") {
            let pk = unhex(t["pk"].as_str().expect("pk"));
            let sig = unhex(t["signature"].as_str().expect("signature"));
            let want = t["testPassed"].as_bool().expect("testPassed");
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
            let got = match set {
                "ML-DSA-44" => check::<MlDsa44>(&pk, msg, &sig),
                "ML-DSA-65" => check::<MlDsa65>(&pk, msg, &sig),
                "ML-DSA-87" => check::<MlDsa87>(&pk, msg, &sig),
                other => panic!("unknown parameter set {other}"),
            };
            ran += 1;
            rejected += usize::from(!want);
            if got != want {
                failed.push((g["tgId"].clone(), t["tcId"].clone(), t["reason"].clone()));
            }
        }
    }
    assert!(failed.is_empty(), "{ran} ran, failed: {failed:?}");
    assert_eq!(ran, 180, "every group of the file");
    assert!(
        rejected > 0,
        "the file's invalid signatures were among them"
    );
}
