//! Verify_internal against all ACVP ML-DSA sigVer vectors (FIPS 204): the
//! internal interface (raw M' and external μ), external pure ML-DSA and
//! HashML-DSA (M' built in `common`). The external-interface and
//! external-μ cases also go through core's `SignatureScheme` contract (the
//! scheme pre-hashes the message itself).

use crate::common;

use common::{external_options, message_prime, unhex};
use pqforge_core::kat::data_dir;
use pqforge_core::{SignOptions, SignatureScheme, VerifyingKey};
use pqforge_mldsa::hazmat::{Message, verify_internal};
use pqforge_mldsa::params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};

fn check<P: ParameterSet>(pk: &[u8], msg: Message<'_>, sig: &[u8]) -> bool {
    verify_internal::<P>(pk, msg, sig)
}

fn check_contract<P: SignatureScheme>(
    pk: &[u8],
    msg: &[u8],
    opts: &SignOptions<'_>,
    sig: &[u8],
) -> bool {
    let vk = VerifyingKey::<P>::try_from(pk).expect("pk");
    P::verify_with(&vk, msg, opts, sig).is_ok()
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
    let (mut contract_ran, mut contract_sha2) = (0, 0);
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
            // (message, context, pre-hash) of the contract path.
            let mut contract: Option<(Vec<u8>, Vec<u8>, Option<&str>)> = None;
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
                    contract = Some((m, ctx, hash));
                } else {
                    prime = m;
                }
            }
            let via_contract = match (&contract, &mu) {
                (Some((m, ctx, hash)), _) => Some((m.as_slice(), external_options(ctx, *hash))),
                (None, Some(mu)) => Some((&mu[..], SignOptions::new().with_external_mu())),
                (None, None) => None,
            };
            if let Some((m, opts)) = via_contract {
                let got = match set {
                    "ML-DSA-44" => check_contract::<MlDsa44>(&pk, m, &opts, &sig),
                    "ML-DSA-65" => check_contract::<MlDsa65>(&pk, m, &opts, &sig),
                    "ML-DSA-87" => check_contract::<MlDsa87>(&pk, m, &opts, &sig),
                    other => panic!("unknown parameter set {other}"),
                };
                contract_ran += 1;
                if let Some((_, _, Some(h))) = contract
                    && h.starts_with("SHA2-")
                {
                    contract_sha2 += 1;
                }
                if got != want {
                    failed.push((g["tgId"].clone(), t["tcId"].clone(), t["reason"].clone()));
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
    // External pure (45) and HashML-DSA (45, 25 of them SHA-2), external μ (45).
    assert_eq!((contract_ran, contract_sha2), (135, 25), "contract path");
    assert!(
        rejected > 0,
        "the file's invalid signatures were among them"
    );
}
