//! `pqforge vectors` on every official ML-KEM vector file in the shared
//! data directory: NIST ACVP (keyGen, encapDecap, encapDecap-tr1),
//! Wycheproof `mlkem_*`, C2SP CCTV (intermediate, modulus, strcmp,
//! unluckysample, accumulated 10k), OpenSSL's ML-KEM key-codec files.
//! Zero failures required. Without the data
//! the test skips, except under `CI=true`, where it fails.
#![cfg(feature = "mlkem-vectors")]

use std::path::PathBuf;
use std::process::Command;

fn inputs() -> Option<Vec<PathBuf>> {
    let data = pqforge::kat::data_dir()?;
    let v = data.join("vectors");
    let mut paths = vec![
        v.join("acvp/ML-KEM-keyGen-FIPS203"),
        v.join("acvp/ML-KEM-encapDecap-FIPS203"),
        v.join("acvp/ML-KEM-encapDecap-FIPS203-tr1"),
        v.join("cctv/ML-KEM"),
        v.join("cctv/accumulated-hashes.json"),
        v.join("openssl/15-test_ml_kem_codecs_data"),
    ];
    let wp = v.join("wycheproof/testvectors_v1");
    let mut wy: Vec<PathBuf> = std::fs::read_dir(&wp)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", wp.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("mlkem_") && n.ends_with("_test.json"))
        })
        .collect();
    wy.sort();
    assert_eq!(wy.len(), 12, "expected 12 Wycheproof ML-KEM files");
    paths.extend(wy);
    for p in &paths {
        assert!(p.exists(), "missing {}", p.display());
    }
    Some(paths)
}

#[test]
fn every_official_mlkem_vector_passes() {
    let Some(paths) = inputs() else {
        eprintln!("skipping: shared test data not found (set PQFORGE_DATA)");
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_pqforge"))
        .arg("vectors")
        .args(&paths)
        .output()
        .expect("run pqforge vectors");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "pqforge vectors failed:\n{stdout}\n{stderr}"
    );
    let last = stdout.lines().last().unwrap_or_default();
    // `N passed, M failed`, then `, K skipped` when the run skipped vectors
    // (with the ML-DSA handler built in, accumulated-hashes.json also runs
    // its ML-DSA section, whose 60M-iteration values are skipped).
    let count = |what: &str| {
        last.split(", ")
            .find_map(|part| part.strip_suffix(what))
            .and_then(|n| n.parse::<usize>().ok())
    };
    let (passed, failed) = (count(" passed").unwrap_or(0), count(" failed").unwrap_or(1));
    assert_eq!(failed, 0, "{stdout}");
    // 75 ACVP keyGen + 165 + 195 encapDecap, 1701 Wycheproof, 2619 CCTV
    // checks + 3 accumulated, 21 key files + 3 ciphertexts of the OpenSSL
    // codec data = 4782. Guards against silently skipped files.
    assert!(passed >= 4782, "only {passed} vectors ran:\n{stdout}");
    for needle in [
        "ML-KEM-keyGen-FIPS203/internalProjection.json: ml-kem-768: 25 passed, 0 failed",
        "mlkem_768_semi_expanded_decaps_test.json: ml-kem-768: 9 passed, 0 failed",
        "modulus/ML-KEM-1024.txt.gz: ml-kem-1024: 1040 passed, 0 failed",
        "ml-kem-768 accumulated x10000: 1 passed, 0 failed",
        "15-test_ml_kem_codecs_data/prv-512-seed-priv.pem: ml-kem-512: 1 passed, 0 failed",
        "15-test_ml_kem_codecs_data/prv-1024-bare-seed.pem: ml-kem-1024: 1 passed, 0 failed",
        "15-test_ml_kem_codecs_data/ct-768.dat: ml-kem-768: 1 passed, 0 failed",
    ] {
        assert!(stdout.contains(needle), "missing `{needle}` in:\n{stdout}");
    }
}
