//! `pqforge vectors` on every official ML-DSA vector file in the shared data
//! directory: NIST ACVP (keyGen, sigGen, sigVer), Wycheproof `mldsa_*`,
//! C2SP CCTV (benchmark messages, accumulated hashes), BoringSSL
//! `mldsa_nist_*`, OpenSSL `evp_test` ML-DSA files and the ML-DSA codec
//! data. Zero failures required; the skipped vectors (the 60 000
//! 000-iteration hashes) must be reported as skipped. Without the
//! data the test skips, except under `CI=true`, where it fails.
#![cfg(feature = "mldsa-vectors")]

use std::path::{Path, PathBuf};

use crate::common;

fn matching(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(&keep))
        .collect();
    v.sort();
    v
}

fn inputs() -> Option<Vec<PathBuf>> {
    let data = pqforge::kat::data_dir()?;
    let v = data.join("vectors");
    let mut paths = vec![
        v.join("acvp/ML-DSA-keyGen-FIPS204"),
        v.join("acvp/ML-DSA-sigGen-FIPS204"),
        v.join("acvp/ML-DSA-sigVer-FIPS204"),
        v.join("cctv/ML-DSA"),
        v.join("cctv/accumulated-hashes.json"),
        v.join("boringssl/mldsa"),
        v.join("openssl/15-test_ml_dsa_codecs_data"),
    ];
    let wy = matching(&v.join("wycheproof/testvectors_v1"), |n| {
        n.starts_with("mldsa_") && n.ends_with("_test.json")
    });
    assert_eq!(wy.len(), 9, "expected 9 Wycheproof ML-DSA files");
    paths.extend(wy);
    let evp = matching(&v.join("openssl/30-test_evp_data"), |n| {
        n.starts_with("evppkey_ml_dsa_") || n == "evpmd_ml_dsa_mu.txt"
    });
    assert_eq!(evp.len(), 10, "expected 10 OpenSSL ML-DSA evp_test files");
    paths.extend(evp);
    for p in &paths {
        assert!(p.exists(), "missing {}", p.display());
    }
    Some(paths)
}

#[test]
fn every_official_mldsa_vector_passes() {
    let Some(paths) = inputs() else {
        eprintln!("skipping: shared test data not found (set PQFORGE_DATA)");
        return;
    };
    let (stdout, passed, failed, skipped) = common::run_vectors(&paths);
    assert_eq!(failed, 0, "{stdout}");
    // 615 ACVP, 1138 Wycheproof, 110 BoringSSL, 781 OpenSSL evp_test, 33
    // codec checks (21 of them key files), 898 CCTV benchmark round trips,
    // 7 accumulated ML-DSA and 3 accumulated ML-KEM hashes. Guards against
    // silently skipped files.
    assert!(passed >= 3585, "only {passed} vectors ran:\n{stdout}");
    // 3 x 60 000 000-iteration hashes.
    assert_eq!(skipped, 3, "{stdout}");
    for needle in [
        "ML-DSA-keyGen-FIPS204/prompt.json: ml-dsa-65: 25 passed, 0 failed",
        "ML-DSA-sigGen-FIPS204/prompt.json: ml-dsa-87: 120 passed, 0 failed",
        "ML-DSA-sigVer-FIPS204/prompt.json: ml-dsa-44: 60 passed, 0 failed",
        "ML-DSA-sigVer-FIPS204/internalProjection.json: ml-dsa (same tests as prompt.json",
        "mldsa_87_verify_test.json: ml-dsa-87: 241 passed, 0 failed",
        "mldsa_65_sign_seed_test.json: ml-dsa-65: 105 passed, 0 failed",
        "mldsa_nist_siggen_44_tests.txt: ml-dsa-44: 15 passed, 0 failed",
        "evppkey_ml_dsa_siggen.txt: ml-dsa-65: 61 passed, 0 failed",
        "evpmd_ml_dsa_mu.txt: ml-dsa-44: 1 passed, 0 failed",
        "sig-87.dat: ml-dsa-87: 1 passed, 0 failed",
        "prv-44-seed-only.pem: ml-dsa-44: 1 passed, 0 failed",
        "prv-44-oqskeypair.pem: ml-dsa-44: 1 passed, 0 failed",
        "ml-dsa-87 accumulated x10000: 1 passed, 0 failed",
        "ml-dsa-44 accumulated x60000000: 0 passed, 0 failed, 1 skipped",
        "ml-dsa field operations, every r in [0, q): 1 passed, 0 failed",
        "ML-DSA-44.json: ml-dsa-44 (benchmark messages, no expected values: sign/verify round trip): 188 passed, 0 failed",
    ] {
        assert!(stdout.contains(needle), "missing `{needle}` in:\n{stdout}");
    }
}
