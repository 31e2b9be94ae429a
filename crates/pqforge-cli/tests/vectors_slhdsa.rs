//! `pqforge vectors` on every official SLH-DSA vector file in the shared
//! data directory: NIST ACVP (keyGen; sigGen with its expected results,
//! the `s` sets sampled as the default run does; the legacy sigVer set;
//! the FIPS205 sigVer answers, reported as skipped without their prompt),
//! BoringSSL `slhdsa_*` and OpenSSL `evppkey_slh_dsa_keygen.txt`. Zero
//! failures required. Without the data the test skips, except under
//! `CI=true`, where it fails.
#![cfg(feature = "slhdsa-vectors")]

use std::path::PathBuf;

use crate::common;

fn inputs() -> Option<Vec<PathBuf>> {
    let data = pqforge::kat::data_dir()?;
    let v = data.join("vectors");
    let paths = vec![
        v.join("acvp/SLH-DSA-keyGen-FIPS205"),
        v.join("acvp/SLH-DSA-sigGen-FIPS205"),
        v.join("acvp/SLH-DSA-sigVer-FIPS205"),
        v.join("acvp/SLH-DSA-sigVer-FIPS205-v1.1.0.35"),
        v.join("boringssl/slhdsa"),
        v.join("openssl/30-test_evp_data/evppkey_slh_dsa_keygen.txt"),
    ];
    for p in &paths {
        assert!(p.exists(), "missing {}", p.display());
    }
    Some(paths)
}

#[test]
fn every_official_slhdsa_vector_passes() {
    let Some(paths) = inputs() else {
        eprintln!("skipping: shared test data not found (set PQFORGE_DATA)");
        return;
    };
    let (stdout, passed, failed, skipped) = common::run_vectors(&paths);
    assert_eq!(failed, 0, "{stdout}");
    // ACVP: 120 keyGen, 384 sigGen (all 312 f-set tests, 2 per s-set
    // group), 45 legacy sigVer; BoringSSL 59; OpenSSL 126 key pairs.
    assert_eq!(passed, 734, "{stdout}");
    // 240 s-set sigGen tests (sampled), 504 sigVer answers without prompt.
    assert_eq!(skipped, 744, "{stdout}");
    for needle in [
        "SLH-DSA-keyGen-FIPS205/prompt.json: slh-dsa-shake-192f: 10 passed, 0 failed",
        "SLH-DSA-keyGen-FIPS205/internalProjection.json: slh-dsa (same tests as prompt.json",
        "SLH-DSA-sigGen-FIPS205/prompt.json: slh-dsa-sha2-256f: 52 passed, 0 failed",
        "SLH-DSA-sigGen-FIPS205/prompt.json: slh-dsa-shake-256s: 12 passed, 0 failed, 40 skipped",
        "SLH-DSA-sigVer-FIPS205-v1.1.0.35/internalProjection.json: slh-dsa-shake-128f: 9 passed, 0 failed",
        "SLH-DSA-sigVer-FIPS205/expectedResults.json: slh-dsa: 0 passed, 0 failed, 504 skipped",
        "slhdsa_sha2_128s_prehash.txt: slh-dsa-sha2-128s: 2 passed, 0 failed",
        "slhdsa_shake_256f_sigver.txt: slh-dsa-shake-256f: 14 passed, 0 failed",
        "evppkey_slh_dsa_keygen.txt: slh-dsa-sha2-256f: 11 passed, 0 failed",
    ] {
        assert!(stdout.contains(needle), "missing `{needle}` in:\n{stdout}");
    }
}
