//! KeyGen_internal against the ACVP ML-DSA keyGen vectors (FIPS 204):
//! all 75 cases of `vectors/acvp/ML-DSA-keyGen-FIPS204/internalProjection.json`.

use pqforge_core::kat::data_dir;
use pqforge_mldsa::hazmat::key_gen_internal;
use pqforge_mldsa::params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn run<P: ParameterSet>(seed: &[u8], pk_want: &[u8], sk_want: &[u8]) -> bool {
    let xi: [u8; 32] = seed.try_into().expect("32-byte seed");
    let mut pk = vec![0u8; P::PK_BYTES];
    let mut sk = vec![0u8; P::SK_BYTES];
    key_gen_internal::<P>(&xi, &mut pk, &mut sk).expect("lengths");
    pk == pk_want && sk == sk_want
}

#[test]
fn acvp_keygen_all_cases() {
    let Some(dir) = data_dir() else {
        eprintln!("skipping: no test data (set PQFORGE_DATA)");
        return;
    };
    let path = dir.join("vectors/acvp/ML-DSA-keyGen-FIPS204/internalProjection.json");
    let text = std::fs::read_to_string(&path).expect("read keyGen internalProjection.json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let (mut passed, mut failed) = (0, Vec::new());
    for g in v["testGroups"].as_array().expect("groups") {
        let set = g["parameterSet"].as_str().expect("parameterSet");
        for t in g["tests"].as_array().expect("tests") {
            let seed = unhex(t["seed"].as_str().expect("seed"));
            let pk = unhex(t["pk"].as_str().expect("pk"));
            let sk = unhex(t["sk"].as_str().expect("sk"));
            let ok = match set {
                "ML-DSA-44" => run::<MlDsa44>(&seed, &pk, &sk),
                "ML-DSA-65" => run::<MlDsa65>(&seed, &pk, &sk),
                "ML-DSA-87" => run::<MlDsa87>(&seed, &pk, &sk),
                other => panic!("unknown parameter set {other}"),
            };
            if ok {
                passed += 1;
            } else {
                failed.push((set.to_owned(), t["tcId"].clone()));
            }
        }
    }
    assert!(failed.is_empty(), "{passed} passed, failed: {failed:?}");
    assert_eq!(passed, 75, "every case of the file ran");
}
