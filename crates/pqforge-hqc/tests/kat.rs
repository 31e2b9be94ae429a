//! Full known-answer tests: regenerate the official 100-record `.rsp` of each
//! parameter set through the randomised entry points (the one-shot dynamic
//! API of `SCHEMES`, driven by `KatSource`) and compare its SHA-256 with the
//! official digest. When the shared data is present, record 0 is also
//! compared field by field for readable failures.

use pqforge_core::kat::{KatSource, data_dir, rsp, standard_seeds};
use pqforge_core::{DynKem, Scheme};
use sha2::{Digest, Sha256};

/// SHA-256 of the official `.rsp` files (PROVENANCE.md of the shared data).
const DIGESTS: [(&str, &str, &str); 6] = [
    (
        "hqc-1",
        "next-release_161cd4f_2026-02-10/hqc-1/PQCkemKAT_2321.rsp",
        "f4135530c7c6bab0d2a49eca78118310c06721518d8df3774cc5201e66ae9cd2",
    ),
    (
        "hqc-3",
        "next-release_161cd4f_2026-02-10/hqc-3/PQCkemKAT_4602.rsp",
        "edbb4725ddc4e882fea460c9d04ca6499266be3d6cacd2909c05c744fc45901b",
    ),
    (
        "hqc-5",
        "next-release_161cd4f_2026-02-10/hqc-5/PQCkemKAT_7333.rsp",
        "68d45adf1528f09554c452a5cde29929f73369b1d5374835252118c55541af5a",
    ),
    (
        "hqc-1-v5.0.0",
        "v5.0.0_2025-08-22/hqc-1/PQCkemKAT_2321.rsp",
        "84c3812eedbddde674e0a5370ecc9bfd0f71a0006cf7bcf2b1e2e26363d638a7",
    ),
    (
        "hqc-3-v5.0.0",
        "v5.0.0_2025-08-22/hqc-3/PQCkemKAT_4602.rsp",
        "ba3f3d1e70fe73c666bede150ca7dbd0f332fc02959fe5178f8de8141b712b14",
    ),
    (
        "hqc-5-v5.0.0",
        "v5.0.0_2025-08-22/hqc-5/PQCkemKAT_7333.rsp",
        "43dd50d6f91d9d85085558e66e2ec0168b403ded47c6dad43cd2acfddca2f618",
    ),
];

/// The `.rsp` text for `alg` (header, blank line, records); decapsulation is
/// checked on every record along the way.
fn rsp_text(alg: &dyn DynKem, records: usize) -> String {
    let info = alg.info();
    let mut seeds = vec![[0u8; 48]; records];
    standard_seeds(info.kat, &mut seeds);
    let mut out = format!("{}\n\n", info.kat_header);
    let (mut pk, mut sk) = (vec![0u8; info.pk_bytes], vec![0u8; info.sk_bytes]);
    let (mut ct, mut ss, mut ss2) = (
        vec![0u8; info.ct_bytes],
        vec![0u8; info.ss_bytes],
        vec![0u8; info.ss_bytes],
    );
    for (i, seed) in seeds.iter().enumerate() {
        let mut rng = KatSource::new(info.kat, seed);
        alg.keygen(&mut rng, &mut pk, &mut sk).expect("keygen");
        alg.encaps(&mut rng, &pk, &mut ct, &mut ss).expect("encaps");
        alg.decaps(&sk, &ct, &mut ss2).expect("decaps");
        assert_eq!(ss, ss2, "{} record {i}: decaps disagrees", info.name);
        rsp::write_record(
            &mut out,
            &[
                ("count", rsp::Value::Int(i)),
                ("seed", rsp::Value::Hex(seed)),
                ("pk", rsp::Value::Hex(&pk)),
                ("sk", rsp::Value::Hex(&sk)),
                ("ct", rsp::Value::Hex(&ct)),
                ("ss", rsp::Value::Hex(&ss)),
            ],
        );
    }
    out
}

fn sha256_hex(b: &[u8]) -> String {
    rsp::to_hex(&Sha256::digest(b)).to_lowercase()
}

fn check(index: usize) {
    let Scheme::Kem(alg) = pqforge_hqc::SCHEMES[index] else {
        panic!("SCHEMES[{index}] is not a KEM");
    };
    let (name, rel, digest) = DIGESTS[index];
    assert_eq!(alg.info().name, name);
    // Record 0 against the official file first, for a readable failure.
    if let Some(dir) = data_dir() {
        let path = dir.join("kat/hqc").join(rel);
        let official = std::fs::read_to_string(&path).expect("read official .rsp");
        assert_eq!(official.lines().next(), Some(alg.info().kat_header));
        let theirs = rsp::parse(&official).expect("parse");
        let ours = rsp::parse(&rsp_text(alg, 1)).expect("parse ours");
        for field in ["count", "seed", "pk", "sk", "ct", "ss"] {
            assert_eq!(
                ours[0].get(field),
                theirs[0].get(field),
                "{name}: record 0 field `{field}`"
            );
        }
    }
    let text = rsp_text(alg, 100);
    assert_eq!(sha256_hex(text.as_bytes()), digest, "{name}: .rsp digest");
}

#[test]
fn kat_hqc_1() {
    check(0);
}

#[test]
fn kat_hqc_3() {
    check(1);
}

#[test]
fn kat_hqc_5() {
    check(2);
}

#[test]
fn kat_hqc_1_v5() {
    check(3);
}

#[test]
fn kat_hqc_3_v5() {
    check(4);
}

#[test]
fn kat_hqc_5_v5() {
    check(5);
}
