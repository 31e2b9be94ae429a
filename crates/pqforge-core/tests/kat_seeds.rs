//! Both KAT generators reproduce the 100 seeds of the official `.req` files.
#![cfg(feature = "std")]

use pqforge_core::KatRng;
use pqforge_core::kat::{data_dir, rsp, standard_seeds};

fn check(kind: KatRng, rel: &str) {
    let Some(dir) = data_dir() else {
        eprintln!("skipping: no test data (set PQFORGE_DATA)");
        return;
    };
    let text = std::fs::read_to_string(dir.join(rel)).expect("read .req");
    let recs = rsp::parse(&text).expect("parse .req");
    assert_eq!(recs.len(), 100);
    let mut seeds = [[0u8; 48]; 100];
    standard_seeds(kind, &mut seeds);
    for (i, (r, s)) in recs.iter().zip(&seeds).enumerate() {
        assert_eq!(r.get("count"), Some(i.to_string().as_str()));
        assert_eq!(&r.seed().expect("seed"), s, "seed {i} of {rel}");
    }
}

#[test]
fn nist_drbg_seeds() {
    check(KatRng::NistDrbg, "kat/mceliece/PQCkemKAT_seeds100.req");
}

#[test]
fn hqc_prng_seeds() {
    check(
        KatRng::HqcShake256,
        "kat/hqc/next-release_161cd4f_2026-02-10/hqc-1/PQCkemKAT_2321.req",
    );
}
