//! The README's key-file shell session, run as written: the block between
//! `<!-- readme-session:begin -->` and `<!-- readme-session:end -->`, in a
//! fresh directory, with this build's `pqforge` first on `PATH`; its output
//! must be the one the README shows.

use std::path::Path;
use std::process::Command;

fn session() -> (String, String) {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .expect("README.md");
    let block = readme
        .split("<!-- readme-session:begin -->")
        .nth(1)
        .and_then(|r| r.split("<!-- readme-session:end -->").next())
        .expect("README has the session markers");
    let script = block
        .trim()
        .strip_prefix("```sh")
        .and_then(|b| b.strip_suffix("```"))
        .expect("the session is one sh block");
    // The expected output: the text block right after the end marker.
    let after = readme
        .split("<!-- readme-session:end -->")
        .nth(1)
        .expect("end marker");
    let expected = after
        .trim_start()
        .strip_prefix("```text\n")
        .and_then(|t| t.split("```").next())
        .expect("a text block with the expected output follows the session");
    (script.to_string(), expected.to_string())
}

#[test]
fn readme_session_runs_as_written() {
    let (script, expected) = session();
    assert!(script.contains("pqforge keygen ml-kem-768") && script.contains("pqforge verify"));
    let dir = std::env::temp_dir().join(format!("pqforge-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_pqforge"))
        .parent()
        .expect("bin dir");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg("-e")
        .arg("-c")
        .arg(&script)
        .current_dir(&dir)
        .env("PATH", path)
        .output()
        .expect("bash");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "session failed: {}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout, expected, "the README's expected output");
    // The private keys are not world-readable.
    #[cfg(unix)]
    for k in ["kem.pem", "sig.pem"] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join(k))
            .expect(k)
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{k}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
