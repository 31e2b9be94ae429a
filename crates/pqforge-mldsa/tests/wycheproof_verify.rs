//! Verify against the Wycheproof ML-DSA verify files (external pure
//! ML-DSA; a missing ctx is empty, a ctx over 255 bytes must not verify):
//! the strictness cases (hint encodings, ‖z‖∞ boundaries, lengths,
//! UseHint(1, 0), missing reductions) the ACVP files lack.

use crate::common;

use common::{message_prime, unhex};
use pqforge_core::kat::data_dir;
use pqforge_mldsa::hazmat::{Message, verify_internal};
use pqforge_mldsa::params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};

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
        let pk = unhex(g["publicKey"].as_str().expect("publicKey"));
        for t in g["tests"].as_array().expect("tests") {
            let msg = unhex(t["msg"].as_str().expect("msg"));
            let ctx = unhex(t["ctx"].as_str().unwrap_or(""));
            let sig = unhex(t["sig"].as_str().expect("sig"));
            let want = t["result"] == "valid";
            // A context over 255 bytes has no M' (the length is one byte).
            let got = ctx.len() <= 255
                && verify_internal::<P>(
                    &pk,
                    Message::Prime(&message_prime(&ctx, &msg, None)),
                    &sig,
                );
            ran += 1;
            if got != want {
                failed.push((t["tcId"].clone(), t["comment"].clone()));
            }
        }
    }
    assert!(failed.is_empty(), "{name}: {ran} ran, failed: {failed:?}");
    assert_eq!(ran, expect_tests, "{name}: every test ran");
}

#[test]
fn wycheproof_verify_44() {
    file::<MlDsa44>("mldsa_44_verify_test.json", 180);
}

#[test]
fn wycheproof_verify_65() {
    file::<MlDsa65>("mldsa_65_verify_test.json", 210);
}

#[test]
fn wycheproof_verify_87() {
    file::<MlDsa87>("mldsa_87_verify_test.json", 241);
}
