//! End-to-end tests of the `pqforge` command, as a user or script runs it.

use std::process::{Command, Output};

use sha2::{Digest, Sha256};

fn pqforge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pqforge"))
        .args(args)
        .output()
        .expect("run pqforge")
}

fn sha256_hex(data: &[u8]) -> String {
    Sha256::digest(data).iter().fold(String::new(), |mut s, b| {
        use std::fmt::Write as _;
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

/// Names of every algorithm of a kind, from `pqforge list --format json`.
fn names(kind: &str) -> Vec<String> {
    let o = pqforge(&["list", "--format", "json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    v.as_array()
        .expect("array")
        .iter()
        .filter(|a| a["kind"] == kind)
        .map(|a| a["name"].as_str().expect("name").to_string())
        .collect()
}

#[test]
fn list_json_has_the_contract_keys() {
    let o = pqforge(&["list", "--format", "json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    for a in v.as_array().expect("a JSON array") {
        let kind = a["kind"].as_str().expect("kind");
        let mut keys = vec!["name", "kind", "pk_bytes", "sk_bytes", "category", "status"];
        match kind {
            "kem" => keys.extend(["ct_bytes", "ss_bytes"]),
            "sig" => keys.push("sig_bytes"),
            other => panic!("unknown kind {other}"),
        }
        for k in keys {
            assert!(a.get(k).is_some(), "{} lacks {k}", a["name"]);
        }
        assert!(["standard", "draft", "at-risk"].contains(&a["status"].as_str().expect("status")));
    }
    let md = stdout(&pqforge(&["list"]));
    assert!(md.starts_with("| algorithm |"));
}

/// `pqforge kat ALG --write-req` prints the standard `.req` for every KEM:
/// byte-identical (by SHA-256) to the official request files.
#[test]
fn write_req_matches_the_official_request_files() {
    // HQC's SHAKE256 generator (every hqc*/PQCkemKAT_*.req) and the NIST DRBG
    // (../shared/kat/mceliece/PQCkemKAT_seeds100.req).
    const HQC_REQ: &str = "afd7d7af49a4719bbc3504f8f4f54ee10729e26569cac24b3e2cede3d882637c";
    const NIST_REQ: &str = "36c27b6089b8910733a01fea1136469769b3ca3c35f2b375cfcc592f2112cfaa";
    for name in names("kem") {
        let o = pqforge(&["kat", &name, "--write-req"]);
        assert!(o.status.success(), "{name}");
        let h = sha256_hex(&o.stdout);
        let want = if name.starts_with("hqc") {
            HQC_REQ
        } else {
            NIST_REQ
        };
        assert_eq!(
            h, want,
            "{name}: --write-req differs from the official .req"
        );
    }
}

#[test]
fn bad_arguments_give_one_line_and_exit_2() {
    for args in [
        &["kat", "no-such-alg"][..],
        &["kat", "no-such-alg", "--write-req"][..],
        &["test", "--filter", "zzzz"][..],
        &["vectors", "/no/such/file.rsp"][..],
        &["bench", "--filter", "zzzz"][..],
    ] {
        let o = pqforge(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let dir = std::env::temp_dir().join(format!("pqforge-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.req");
    std::fs::write(&bad, "count = 0\nseed = XYZ\n").expect("write");
    for name in names("kem").iter().take(1) {
        let o = pqforge(&["kat", name, "--req", bad.to_str().expect("utf-8 path")]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pqforge vectors` fails (exit 2, one line) when nothing is checked: an
/// empty directory, a file of no known format, a missing file.
#[test]
fn vectors_without_vectors_fail() {
    let dir = std::env::temp_dir().join(format!("pqforge-vectors-test-{}", std::process::id()));
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("temp dir");
    let unknown = dir.join("notes.txt");
    std::fs::write(&unknown, "no vectors here\n").expect("write");
    for p in [&empty, &unknown, &dir.join("missing.json")] {
        let o = pqforge(&["vectors", p.to_str().expect("utf-8 path")]);
        assert_eq!(o.status.code(), Some(2), "{}", p.display());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{}: {err}", p.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn functional_test_passes() {
    let o = pqforge(&["test", "--rounds", "1"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.trim_end().ends_with(" 0 failed"), "{out}");
}

#[test]
fn bench_json_has_the_contract_keys() {
    let kems = names("kem");
    let Some(first) = kems.first() else { return };
    let o = pqforge(&[
        "bench", "--filter", first, "--iters", "3", "--format", "json",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let rows = v.as_array().expect("array");
    assert!(rows.len() >= 3);
    for r in rows {
        for k in [
            "alg",
            "backend",
            "op",
            "median_ns",
            "min_ns",
            "median_cycles",
            "stack_bytes",
            "heap_bytes",
            "iters",
        ] {
            assert!(r.get(k).is_some(), "row lacks {k}");
        }
        assert!(
            ["keygen", "encaps", "decaps", "sign", "verify"]
                .contains(&r["op"].as_str().expect("op"))
        );
        assert!(r["stack_bytes"].as_u64().expect("stack") > 0);
    }
}

/// `pqforge bench` says which code produced its figures: the CPU line
/// first (model and detected features), then every row names the backend
/// the algorithm's dispatch picks here (one KEM and one signature scheme).
#[test]
fn bench_names_the_cpu_and_each_backend() {
    for kind in ["kem", "sig"] {
        let names = names(kind);
        let Some(first) = names.first() else { continue };
        let o = pqforge(&["bench", "--filter", first, "--iters", "3"]);
        let out = stdout(&o);
        assert!(o.status.success(), "{out}");
        let mut lines = out.lines();
        assert_eq!(
            lines.next(),
            Some(pqforge::cpu::Summary.to_string().as_str())
        );
        assert_eq!(lines.next(), Some(""));
        let header: Vec<&str> = lines.next().expect("header").split(" | ").collect();
        let col = header
            .iter()
            .position(|&c| c == "backend")
            .expect("a backend column");
        let mut rows = 0;
        for l in lines.skip(1) {
            let cells: Vec<&str> = l.split(" | ").collect();
            let alg = cells[0].trim_start_matches("| ");
            let a = pqforge::Algorithm::find(alg).expect("a registered name");
            assert_eq!(cells[col], a.backend(), "{l}");
            assert!(a.backends().is_available(cells[col]), "{l}");
            rows += 1;
        }
        assert!(rows >= 3, "{out}");
    }
}

/// `pqforge kat ALG --req FILE` works for every algorithm: a one-record
/// request taken from `--write-req` gives a record with every field.
#[test]
fn kat_with_a_request_file_works_for_every_algorithm() {
    let dir = std::env::temp_dir().join(format!("pqforge-kat-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for kind in ["kem", "sig"] {
        for name in names(kind) {
            let req = stdout(&pqforge(&["kat", &name, "--write-req"]));
            let first: String = req.split_inclusive("\n\n").take(1).collect();
            let path = dir.join(format!("{name}.req"));
            std::fs::write(&path, &first).expect("write req");
            let o = pqforge(&["kat", &name, "--req", path.to_str().expect("utf-8")]);
            let out = stdout(&o);
            assert!(
                o.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let fields: &[&str] = if kind == "kem" {
                &["count = 0", "seed = ", "pk = ", "sk = ", "ct = ", "ss = "]
            } else {
                &[
                    "count = 0",
                    "seed = ",
                    "mlen = 33",
                    "msg = ",
                    "pk = ",
                    "sk = ",
                    "smlen = ",
                    "sm = ",
                ]
            };
            for f in fields {
                assert!(
                    out.contains(&format!("\n{f}")),
                    "{name}: no `{f}` in\n{out}"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
