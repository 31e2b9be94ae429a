//! The key-file commands end to end: every algorithm, every encoding, the
//! exit codes and messages scripts rely on, file modes and `--force`,
//! standard input/output, JSON, and a closed pipe.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn pqforge_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pqforge"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run pqforge")
}

fn with_stdin(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pqforge"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pqforge");
    c.stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write stdin");
    c.wait_with_output().expect("wait")
}

/// A fresh scratch directory (removed on drop).
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Self {
        let d = std::env::temp_dir().join(format!("pqforge-keys-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch dir");
        Self(d)
    }
    fn run(&self, args: &[&str]) -> Output {
        pqforge_in(&self.0, args)
    }
    fn ok(&self, args: &[&str]) -> Output {
        let o = self.run(args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        o
    }
    fn read(&self, f: &str) -> Vec<u8> {
        std::fs::read(self.0.join(f)).expect(f)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Exit status 2 with exactly one line on stderr containing `what`.
fn usage_error(o: &Output, what: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(what), "`{err}` lacks `{what}`");
    assert!(!err.contains("panicked"));
}

fn names(kind: &str) -> Vec<String> {
    let o = Command::new(env!("CARGO_BIN_EXE_pqforge"))
        .args(["list", "--format", "json"])
        .output()
        .expect("list");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    v.as_array()
        .expect("array")
        .iter()
        .filter(|a| a["kind"] == kind)
        .map(|a| a["name"].as_str().expect("name").to_string())
        .collect()
}

#[test]
fn every_kem_round_trips_through_key_files() {
    let s = Scratch::new("kem");
    let kems = names("kem");
    assert!(kems.len() >= 29, "{kems:?}");
    for alg in &kems {
        s.ok(&["keygen", alg, "--out", "k.pem", "--pub", "p.pem", "--force"]);
        s.ok(&[
            "encaps", "--pub", "p.pem", "--ct", "ct", "--ss", "s1", "--force",
        ]);
        s.ok(&[
            "decaps", "--key", "k.pem", "--ct", "ct", "--ss", "s2", "--force",
        ]);
        assert_eq!(s.read("s1"), s.read("s2"), "{alg}");
        // The public key printed from the private key is the one written.
        assert_eq!(s.ok(&["pub", "k.pem"]).stdout, s.read("p.pem"), "{alg}");
    }
}

#[test]
fn every_signature_scheme_round_trips_through_key_files() {
    let s = Scratch::new("sig");
    std::fs::write(s.0.join("m"), b"a message").unwrap();
    std::fs::write(s.0.join("m2"), b"another message").unwrap();
    for alg in names("sig") {
        s.ok(&[
            "keygen", &alg, "--out", "k.pem", "--pub", "p.pem", "--force",
        ]);
        s.ok(&[
            "sign", "--key", "k.pem", "--in", "m", "--sig", "sig", "--force",
        ]);
        s.ok(&["verify", "--pub", "p.pem", "--in", "m", "--sig", "sig"]);
        let bad = s.run(&["verify", "--pub", "p.pem", "--in", "m2", "--sig", "sig"]);
        assert_eq!(bad.status.code(), Some(1), "{alg}: another message");
        assert_eq!(s.ok(&["pub", "k.pem"]).stdout, s.read("p.pem"), "{alg}");
    }
}

#[test]
fn encodings_forms_and_raw_files() {
    let s = Scratch::new("enc");
    std::fs::write(s.0.join("m"), b"m").unwrap();
    for (form, key_form) in [
        ("pem", "seed"),
        ("der", "expanded"),
        ("der", "both"),
        ("raw", "seed"),
        ("raw", "expanded"),
    ] {
        s.ok(&[
            "keygen",
            "ml-dsa-44",
            "--out",
            "k",
            "--pub",
            "p",
            "--form",
            form,
            "--key-form",
            key_form,
            "--force",
        ]);
        let alg: &[&str] = if form == "raw" {
            &["--alg", "ml-dsa-44"]
        } else {
            &[]
        };
        let mut sign = vec![
            "sign",
            "--key",
            "k",
            "--in",
            "m",
            "--sig",
            "sig",
            "--deterministic",
            "--force",
        ];
        sign.extend_from_slice(alg);
        s.ok(&sign);
        let mut verify = vec!["verify", "--pub", "p", "--in", "m", "--sig", "sig"];
        verify.extend_from_slice(alg);
        s.ok(&verify);
        if form == "raw" {
            // Without --alg a raw file is not a key file.
            usage_error(
                &s.run(&["verify", "--pub", "p", "--in", "m", "--sig", "sig"]),
                "p: key file",
            );
            // With the wrong --alg its length is wrong.
            usage_error(
                &s.run(&[
                    "verify",
                    "--pub",
                    "p",
                    "--in",
                    "m",
                    "--sig",
                    "sig",
                    "--alg",
                    "ml-dsa-65",
                ]),
                "length",
            );
        }
    }
    // A raw key that starts like DER (0x30, one random seed in 256: the
    // CI flake of stop 34) is still a raw key with --alg.
    let mut seed = [7u8; 32];
    seed[0] = 0x30;
    std::fs::write(s.0.join("k30"), seed).unwrap();
    s.ok(&["pub", "k30", "--alg", "ml-dsa-44", "--out", "p30"]);
    s.ok(&[
        "sign",
        "--key",
        "k30",
        "--in",
        "m",
        "--sig",
        "sig30",
        "--alg",
        "ml-dsa-44",
    ]);
    s.ok(&[
        "verify",
        "--pub",
        "p30",
        "--in",
        "m",
        "--sig",
        "sig30",
        "--alg",
        "ml-dsa-44",
    ]);
    // A truncated DER key with --alg still reports the DER error.
    s.ok(&[
        "keygen",
        "ml-dsa-44",
        "--out",
        "kd",
        "--pub",
        "pd",
        "--form",
        "der",
        "--force",
    ]);
    let der = s.read("kd");
    std::fs::write(s.0.join("kd"), &der[..der.len() - 1]).unwrap();
    usage_error(
        &s.run(&[
            "sign",
            "--key",
            "kd",
            "--in",
            "m",
            "--sig",
            "sigd",
            "--alg",
            "ml-dsa-44",
        ]),
        "kd: key file",
    );
    // A DER key read with a mismatching --alg names both algorithms.
    s.ok(&[
        "keygen",
        "ml-kem-512",
        "--out",
        "k",
        "--form",
        "der",
        "--force",
    ]);
    usage_error(
        &s.run(&["pub", "k", "--alg", "ml-kem-768"]),
        "a ml-kem-512 key, not ml-kem-768",
    );
    // Deterministic signatures are reproducible, hedged ones not.
    s.ok(&["keygen", "ml-dsa-44", "--out", "k", "--pub", "p", "--force"]);
    s.ok(&[
        "sign",
        "--key",
        "k",
        "--in",
        "m",
        "--sig",
        "a",
        "--deterministic",
    ]);
    s.ok(&[
        "sign",
        "--key",
        "k",
        "--in",
        "m",
        "--sig",
        "b",
        "--deterministic",
    ]);
    s.ok(&["sign", "--key", "k", "--in", "m", "--sig", "c"]);
    assert_eq!(s.read("a"), s.read("b"));
    assert_ne!(s.read("a"), s.read("c"));
}

#[test]
fn contexts_and_prehash() {
    let s = Scratch::new("ctx");
    std::fs::write(s.0.join("m"), b"m").unwrap();
    s.ok(&["keygen", "slh-dsa-shake-128f", "--out", "k", "--pub", "p"]);
    s.ok(&[
        "sign",
        "--key",
        "k",
        "--in",
        "m",
        "--sig",
        "s",
        "--context",
        "abc",
    ]);
    s.ok(&[
        "verify",
        "--pub",
        "p",
        "--in",
        "m",
        "--sig",
        "s",
        "--context-hex",
        "616263",
    ]);
    assert_eq!(
        s.run(&["verify", "--pub", "p", "--in", "m", "--sig", "s"])
            .status
            .code(),
        Some(1)
    );
    s.ok(&[
        "sign",
        "--key",
        "k",
        "--in",
        "m",
        "--sig",
        "h",
        "--prehash",
        "sha3-256",
        "--force",
    ]);
    s.ok(&[
        "verify",
        "--pub",
        "p",
        "--in",
        "m",
        "--sig",
        "h",
        "--prehash",
        "SHA3-256",
    ]);
    assert_eq!(
        s.run(&[
            "verify",
            "--pub",
            "p",
            "--in",
            "m",
            "--sig",
            "h",
            "--prehash",
            "sha256"
        ])
        .status
        .code(),
        Some(1)
    );
    usage_error(
        &s.run(&[
            "sign",
            "--key",
            "k",
            "--in",
            "m",
            "--sig",
            "x",
            "--prehash",
            "md5",
        ]),
        "--prehash md5",
    );
    usage_error(
        &s.run(&[
            "sign",
            "--key",
            "k",
            "--in",
            "m",
            "--sig",
            "x",
            "--context-hex",
            "6g",
        ]),
        "not hexadecimal",
    );
    let long = "x".repeat(256);
    usage_error(
        &s.run(&[
            "sign",
            "--key",
            "k",
            "--in",
            "m",
            "--sig",
            "x",
            "--context",
            &long,
        ]),
        "context",
    );
    // Falcon round 3 defines no contexts: refused, not ignored.
    s.ok(&["keygen", "falcon-512", "--out", "f", "--pub", "fp"]);
    usage_error(
        &s.run(&[
            "sign",
            "--key",
            "f",
            "--in",
            "m",
            "--sig",
            "x",
            "--context",
            "a",
        ]),
        "context",
    );
}

#[test]
fn bad_inputs_give_one_line_and_exit_2() {
    let s = Scratch::new("bad");
    std::fs::write(s.0.join("m"), b"m").unwrap();
    std::fs::write(
        s.0.join("junk"),
        b"-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n",
    )
    .unwrap();
    std::fs::write(s.0.join("bin"), [0x30, 0x03, 0x02, 0x01, 0x00]).unwrap();
    s.ok(&["keygen", "ml-kem-768", "--out", "k", "--pub", "p"]);
    s.ok(&[
        "keygen",
        "ml-dsa-65",
        "--out",
        "sk",
        "--pub",
        "vk",
        "--form",
        "der",
    ]);
    usage_error(&s.run(&["pub", "missing"]), "missing");
    usage_error(&s.run(&["pub", "junk"]), "junk: key file");
    usage_error(&s.run(&["pub", "bin"]), "bin: key file");
    usage_error(
        &s.run(&["pub", "p"]),
        "public key, where a private key was expected",
    );
    usage_error(
        &s.run(&["encaps", "--pub", "k", "--ct", "c", "--ss", "s"]),
        "private key, where a public key was expected",
    );
    usage_error(
        &s.run(&["sign", "--key", "k", "--in", "m", "--sig", "x"]),
        "not a signature scheme",
    );
    usage_error(
        &s.run(&["encaps", "--pub", "vk", "--ct", "c", "--ss", "s"]),
        "not a KEM",
    );
    usage_error(
        &s.run(&["keygen", "ml-kem-786", "--out", "x"]),
        "did you mean",
    );
    usage_error(
        &s.run(&["keygen", "hqc-1", "--out", "x", "--key-form", "seed"]),
        "no seed form",
    );
    usage_error(
        &s.run(&["keygen", "hqc-1", "--out", "x", "--form", "xml"]),
        "--form xml",
    );
    // A truncated DER key and a wrong-length ciphertext.
    let der = s.read("sk");
    std::fs::write(s.0.join("cut"), &der[..der.len() - 1]).unwrap();
    usage_error(&s.run(&["pub", "cut"]), "cut: key file");
    std::fs::write(s.0.join("short-ct"), [0u8; 10]).unwrap();
    usage_error(
        &s.run(&["decaps", "--key", "k", "--ct", "short-ct", "--ss", "s"]),
        "ciphertext",
    );
    // A signature of the wrong length is "invalid" (exit 1), not a usage error.
    let o = s.run(&["verify", "--pub", "vk", "--in", "m", "--sig", "m"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn files_are_private_and_never_replaced_without_force() {
    let s = Scratch::new("mode");
    s.ok(&["keygen", "ml-kem-512", "--out", "k", "--pub", "p"]);
    let first = s.read("k");
    usage_error(
        &s.run(&["keygen", "ml-kem-512", "--out", "k"]),
        "exists (use --force",
    );
    usage_error(
        &s.run(&["keygen", "ml-kem-512", "--out", "k2", "--pub", "p"]),
        "exists",
    );
    assert_eq!(s.read("k"), first, "not replaced");
    s.ok(&["encaps", "--pub", "p", "--ct", "c", "--ss", "ss"]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |f: &str| std::fs::metadata(s.0.join(f)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode("k"), 0o600);
        assert_eq!(mode("ss"), 0o600);
        assert_ne!(mode("p") & 0o044, 0, "public files keep the umask");
        // --force replaces, and a replaced secret file becomes private.
        std::fs::set_permissions(s.0.join("k"), std::fs::Permissions::from_mode(0o644)).unwrap();
        s.ok(&["keygen", "ml-kem-512", "--out", "k", "--force"]);
        assert_ne!(s.read("k"), first);
        assert_eq!(mode("k"), 0o600);
    }
}

#[test]
fn standard_streams_and_json() {
    let s = Scratch::new("io");
    // keygen to stdout (asked for), pub from stdin.
    let key = s.ok(&["keygen", "ml-dsa-44", "--out", "-"]).stdout;
    assert!(key.starts_with(b"-----BEGIN PRIVATE KEY-----"));
    let public = with_stdin(&s.0, &["pub", "-"], &key);
    assert!(public.status.success());
    std::fs::write(s.0.join("k"), &key).unwrap();
    std::fs::write(s.0.join("p"), &public.stdout).unwrap();
    // sign a message from stdin, the signature to stdout.
    let sig = with_stdin(
        &s.0,
        &["sign", "--key", "k", "--in", "-", "--sig", "-"],
        b"streamed",
    );
    assert!(sig.status.success());
    std::fs::write(s.0.join("sig"), &sig.stdout).unwrap();
    let v = with_stdin(
        &s.0,
        &[
            "verify", "--pub", "p", "--in", "-", "--sig", "sig", "--format", "json",
        ],
        b"streamed",
    );
    let j: serde_json::Value = serde_json::from_slice(&v.stdout).expect("JSON");
    assert_eq!(j["valid"], true);
    assert_eq!(j["algorithm"], "ml-dsa-44");
    let v = with_stdin(
        &s.0,
        &[
            "verify", "--pub", "p", "--in", "-", "--sig", "sig", "--format", "json",
        ],
        b"other",
    );
    assert_eq!(v.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&v.stdout).expect("JSON");
    assert_eq!(j["valid"], false);
    // KEM: the secret only where asked; `--ss -` writes it raw to standard
    // output (and the JSON report goes to standard error).
    s.ok(&["keygen", "ml-kem-1024", "--out", "kk", "--pub", "kp"]);
    usage_error(
        &s.run(&["encaps", "--pub", "kp", "--ct", "c"]),
        "--ss FILE is required",
    );
    let e = s.ok(&[
        "encaps", "--pub", "kp", "--ct", "c", "--ss", "-", "--format", "json",
    ]);
    assert_eq!(e.stdout.len(), 32);
    let j: serde_json::Value = serde_json::from_slice(&e.stderr).expect("JSON on stderr");
    assert_eq!(j["shared_secret"], "-");
    assert!(!String::from_utf8_lossy(&e.stderr).contains("hex"));
    let d = s.ok(&["decaps", "--key", "kk", "--ct", "c", "--ss", "-"]);
    assert_eq!(d.stdout, e.stdout);
    // Two uses of standard input are refused.
    usage_error(
        &s.run(&["sign", "--key", "-", "--in", "-", "--sig", "x"]),
        "standard input",
    );
}

#[test]
fn outputs_are_checked_before_anything_is_written() {
    let s = Scratch::new("atomic");
    std::fs::write(s.0.join("existing"), b"keep").unwrap();
    // The second output exists: the first is not written either.
    usage_error(
        &s.run(&["keygen", "ml-kem-512", "--out", "new", "--pub", "existing"]),
        "existing: exists",
    );
    assert!(!s.0.join("new").exists(), "nothing written on failure");
    // Two outputs, or an output and an input, naming one file.
    usage_error(
        &s.run(&[
            "keygen",
            "ml-kem-512",
            "--out",
            "k",
            "--pub",
            "k",
            "--force",
        ]),
        "two outputs",
    );
    s.ok(&["keygen", "ml-kem-512", "--out", "k", "--pub", "p"]);
    s.ok(&["encaps", "--pub", "p", "--ct", "c", "--ss", "ss"]);
    usage_error(
        &s.run(&["decaps", "--key", "k", "--ct", "c", "--ss", "k", "--force"]),
        "also an input",
    );
    usage_error(
        &s.run(&[
            "decaps", "--key", "k", "--ct", "c", "--ss", "./k", "--force",
        ]),
        "also an input",
    );
    assert!(s.run(&["pub", "k"]).status.success(), "the key is intact");
    // Both outputs on standard output.
    usage_error(
        &s.run(&["keygen", "ml-kem-512", "--out", "-", "--pub", "-"]),
        "standard output",
    );
    // No temporary file is left behind.
    let leftovers: Vec<_> = std::fs::read_dir(&s.0)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[cfg(unix)]
#[test]
fn force_replaces_links_and_open_files_safely() {
    use std::io::Read as _;
    let s = Scratch::new("force");
    // A symlink to a victim file: --force replaces the link, not the victim.
    std::fs::write(s.0.join("victim"), b"victim data").unwrap();
    std::os::unix::fs::symlink("victim", s.0.join("link.pem")).unwrap();
    usage_error(
        &s.run(&["keygen", "ml-kem-512", "--out", "link.pem"]),
        "exists",
    );
    s.ok(&["keygen", "ml-kem-512", "--out", "link.pem", "--force"]);
    assert_eq!(s.read("victim"), b"victim data");
    assert!(
        !std::fs::symlink_metadata(s.0.join("link.pem"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // A reader holding the old file open does not see the new secret.
    std::fs::write(s.0.join("shared.pem"), b"old public contents").unwrap();
    let mut held = std::fs::File::open(s.0.join("shared.pem")).unwrap();
    s.ok(&["keygen", "ml-kem-512", "--out", "shared.pem", "--force"]);
    let mut seen = String::new();
    held.read_to_string(&mut seen).unwrap();
    assert_eq!(seen, "old public contents");
    // Not a regular file: refused even with --force (use - for stdout).
    usage_error(
        &s.run(&["keygen", "ml-kem-512", "--out", "/dev/null", "--force"]),
        "not a regular file",
    );
    usage_error(
        &s.run(&["keygen", "ml-kem-512", "--out", ".", "--force"]),
        "not a regular file",
    );
}

#[test]
fn alg_does_not_hide_a_decoding_error_and_inputs_are_bounded() {
    let s = Scratch::new("misc");
    s.ok(&["keygen", "ml-kem-768", "--out", "k.pem"]);
    let mut pem = s.read("k.pem");
    let mid = pem.len() / 2;
    pem[mid] = b'*';
    std::fs::write(s.0.join("bad.pem"), &pem).unwrap();
    // The PEM error, not "length 172, expected 2400".
    usage_error(&s.run(&["pub", "bad.pem", "--alg", "ml-kem-768"]), "PEM");
    // An input larger than any key is refused before it is read whole.
    let f = std::fs::File::create(s.0.join("huge")).unwrap();
    f.set_len(17 << 20).unwrap();
    usage_error(&s.run(&["pub", "huge"]), "larger than 16 MiB");
}

#[test]
fn a_closed_pipe_ends_the_process_quietly() {
    for args in [&["list", "--format", "json"][..], &["list"][..]] {
        let mut c = Command::new(env!("CARGO_BIN_EXE_pqforge"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run");
        drop(c.stdout.take()); // the reader goes away at once
        let o = c.wait_with_output().expect("wait");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked") && err.is_empty(), "{err}");
        assert_ne!(o.status.code(), Some(101), "no panic exit");
    }
}
