//! Shared by the `vectors_*` tests: run `pqforge vectors` and read its
//! closing `N passed, M failed, K skipped` line.

use std::path::PathBuf;
use std::process::Command;

/// Runs `pqforge vectors` on `paths` (without `PQFORGE_FULL`); it must
/// succeed and print nothing on standard error (files of no known format
/// inside the directories would be passed over with a note there). Returns
/// standard output and the (passed, failed, skipped) counts of its last
/// line, which must name all three.
pub fn run_vectors(paths: &[PathBuf]) -> (String, usize, usize, usize) {
    let out = Command::new(env!("CARGO_BIN_EXE_pqforge"))
        .arg("vectors")
        .args(paths)
        .env_remove("PQFORGE_FULL")
        .output()
        .expect("run pqforge vectors");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "pqforge vectors failed:\n{stdout}\n{stderr}"
    );
    assert!(stderr.is_empty(), "{stderr}");
    let last = stdout.lines().last().unwrap_or_default();
    let nums: Vec<usize> = last
        .split(", ")
        .map(|part| {
            part.split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(usize::MAX)
        })
        .collect();
    assert!(
        nums.len() == 3 && last.ends_with(" skipped"),
        "last line: {last}"
    );
    let (passed, failed, skipped) = (nums[0], nums[1], nums[2]);
    (stdout, passed, failed, skipped)
}
