//! The CLI's vector parsers (`pqforge vectors`: NIST `.rsp`, ACVP JSON,
//! Wycheproof, CCTV, BoringSSL and OpenSSL text formats, key files) never
//! panic, whatever the bytes: they check the vectors or return an error.
//!
//! Input: byte 0 picks the file name (the name selects the format, as on
//! disk); the rest is the file's content.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

const NAMES: &[&str] = &[
    "kat/falcon512-KAT.rsp",
    "kat/PQCkemKAT_2305.rsp",
    "ML-KEM-keyGen-FIPS203/internalProjection.json",
    "ML-KEM-encapDecap-FIPS203/internalProjection.json",
    "ML-KEM-encapDecap-FIPS203/prompt.json",
    "testvectors_v1/mlkem_768_test.json",
    "testvectors_v1/mlkem_512_semi_expanded_decaps_test.json",
    "cctv/accumulated-hashes.json",
    "ML-KEM/modulus/ML-KEM-768.txt",
    "ML-KEM/strcmp/ML-KEM-512.txt",
    "ML-DSA-keyGen-FIPS204/internalProjection.json",
    "ML-DSA-sigGen-FIPS204/internalProjection.json",
    "ML-DSA-sigVer-FIPS204/internalProjection.json",
    "testvectors_v1/mldsa_65_sign_seed_test.json",
    "testvectors_v1/mldsa_44_verify_test.json",
    "ML-DSA/benchmark/ML-DSA-65.json",
    "mldsa/mldsa_nist_keygen_65_tests.txt",
    "mldsa/mldsa_nist_siggen_44_tests.txt",
    "30-test_evp_data/evppkey_ml_dsa_65.txt",
    "30-test_evp_data/evpmd_ml_dsa_mu.txt",
    "15-test_ml_dsa_codecs_data/codecs.txt",
    "SLH-DSA-keyGen-FIPS205/internalProjection.json",
    "SLH-DSA-sigGen-FIPS205/internalProjection.json",
    "SLH-DSA-sigVer-FIPS205/internalProjection.json",
    "slhdsa/slhdsa_sha2_128f_sign.txt",
    "30-test_evp_data/evppkey_slh_dsa_keygen.txt",
    "15-test_ml_kem_codecs_data/pub-768.pem",
    "15-test_ml_kem_codecs_data/prv-768-seed.der",
    "15-test_ml_dsa_codecs_data/pub-65.der",
    "15-test_ml_dsa_codecs_data/prv-44-priv.pem",
];

fuzz_target!(|data: &[u8]| {
    let Some((&sel, body)) = data.split_first() else {
        return;
    };
    let name = Path::new(NAMES[usize::from(sel) % NAMES.len()]);
    let _ = pqforge_cli::vectors::run_bytes(name, body, None);
});
