//! ACVP keyGen and sigGen (internal, deterministic groups) of every set.

use std::path::PathBuf;

use pqforge_slhdsa::hazmat::{slh_keygen_internal, slh_sign_internal, slh_verify_internal};
use pqforge_slhdsa::params::*;
use serde_json::Value;

fn data() -> Option<PathBuf> {
    let d = std::env::var_os("PQFORGE_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
        PathBuf::from,
    );
    let d = d.join("vectors/acvp");
    if d.is_dir() {
        Some(d)
    } else {
        assert!(
            std::env::var("CI").is_err(),
            "CI: test data missing at {}",
            d.display()
        );
        eprintln!("skipped: no test data at {}", d.display());
        None
    }
}

fn load(p: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).expect("read")).expect("json")
}

fn hex(v: &Value) -> Vec<u8> {
    let s = v.as_str().expect("hex string");
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// Calls `$f::<Set>` for the set named `$name`.
macro_rules! by_name {
    ($name:expr, $f:ident, $($arg:expr),*) => {
        match $name {
            "SLH-DSA-SHA2-128s" => $f::<SlhDsaSha2_128s>($($arg),*),
            "SLH-DSA-SHA2-128f" => $f::<SlhDsaSha2_128f>($($arg),*),
            "SLH-DSA-SHA2-192s" => $f::<SlhDsaSha2_192s>($($arg),*),
            "SLH-DSA-SHA2-192f" => $f::<SlhDsaSha2_192f>($($arg),*),
            "SLH-DSA-SHA2-256s" => $f::<SlhDsaSha2_256s>($($arg),*),
            "SLH-DSA-SHA2-256f" => $f::<SlhDsaSha2_256f>($($arg),*),
            "SLH-DSA-SHAKE-128s" => $f::<SlhDsaShake128s>($($arg),*),
            "SLH-DSA-SHAKE-128f" => $f::<SlhDsaShake128f>($($arg),*),
            "SLH-DSA-SHAKE-192s" => $f::<SlhDsaShake192s>($($arg),*),
            "SLH-DSA-SHAKE-192f" => $f::<SlhDsaShake192f>($($arg),*),
            "SLH-DSA-SHAKE-256s" => $f::<SlhDsaShake256s>($($arg),*),
            "SLH-DSA-SHAKE-256f" => $f::<SlhDsaShake256f>($($arg),*),
            other => panic!("unknown set {other}"),
        }
    };
}

fn keygen_case<P: ParameterSet>(t: &Value, want: &Value) -> bool {
    let (mut sk, mut pk) = (vec![0u8; P::SK_BYTES], vec![0u8; P::PK_BYTES]);
    slh_keygen_internal::<P>(
        &hex(&t["skSeed"]),
        &hex(&t["skPrf"]),
        &hex(&t["pkSeed"]),
        &mut sk,
        &mut pk,
    )
    .expect("lengths");
    sk == hex(&want["sk"]) && pk == hex(&want["pk"])
}

/// Two tests per set (the s sets take seconds each).
#[test]
fn acvp_keygen_two_per_set() {
    let Some(d) = data() else { return };
    let prompt = load(&d.join("SLH-DSA-keyGen-FIPS205/prompt.json"));
    let expected = load(&d.join("SLH-DSA-keyGen-FIPS205/expectedResults.json"));
    let mut passed = 0;
    for (g, eg) in prompt["testGroups"]
        .as_array()
        .expect("groups")
        .iter()
        .zip(expected["testGroups"].as_array().expect("groups"))
    {
        let set = g["parameterSet"].as_str().expect("set");
        for (t, e) in g["tests"]
            .as_array()
            .expect("tests")
            .iter()
            .zip(eg["tests"].as_array().expect("tests"))
            .take(2)
        {
            assert!(by_name!(set, keygen_case, t, e), "{set} tcId {}", t["tcId"]);
            passed += 1;
        }
    }
    assert_eq!(passed, 24);
}

fn sign_case<P: ParameterSet>(t: &Value, want: &Value) -> bool {
    let sk = hex(&t["sk"]);
    let msg = hex(&t["message"]);
    let addrnd = if t["additionalRandomness"].is_string() {
        hex(&t["additionalRandomness"])
    } else {
        sk[2 * P::N..3 * P::N].to_vec()
    };
    let mut sig = vec![0u8; P::SIG_BYTES];
    slh_sign_internal::<P>(&[&msg], &sk, &addrnd, &mut sig).expect("lengths");
    let ok = sig == hex(&want["signature"]);
    let pk = &sk[2 * P::N..];
    ok && slh_verify_internal::<P>(&[&msg], &sig, pk)
        && !slh_verify_internal::<P>(&[&msg, b"x"], &sig, pk)
}

/// The internal-interface sigGen groups of the f sets, first test of each.
#[test]
fn acvp_siggen_internal_f_sets() {
    let Some(d) = data() else { return };
    let prompt = load(&d.join("SLH-DSA-sigGen-FIPS205/prompt.json"));
    let expected = load(&d.join("SLH-DSA-sigGen-FIPS205/expectedResults.json"));
    let mut passed = 0;
    for (g, eg) in prompt["testGroups"]
        .as_array()
        .expect("groups")
        .iter()
        .zip(expected["testGroups"].as_array().expect("groups"))
    {
        let set = g["parameterSet"].as_str().expect("set");
        if g["signatureInterface"] != "internal" || !set.ends_with('f') {
            continue;
        }
        let (t, e) = (&g["tests"][0], &eg["tests"][0]);
        assert!(
            by_name!(set, sign_case, t, e),
            "{set} tgId {} tcId {}",
            g["tgId"],
            t["tcId"]
        );
        passed += 1;
    }
    assert_eq!(passed, 12);
}
