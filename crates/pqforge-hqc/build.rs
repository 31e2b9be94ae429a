//! Emits `cfg(pqforge_hqc_avx512)` when the compiler has the AVX-512 and
//! VPCLMULQDQ intrinsics (stable since Rust 1.89; the workspace MSRV is
//! 1.88, where the AVX-512 backend is left out and AVX2 is the best one).

use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(pqforge_hqc_avx512)");
    println!("cargo::rerun-if-env-changed=RUSTC");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let minor = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|v| {
            // "rustc 1.95.0 (...)"
            let ver = v.split_whitespace().nth(1)?.to_owned();
            let mut it = ver.split('.');
            let major: u32 = it.next()?.parse().ok()?;
            let minor: u32 = it.next()?.parse().ok()?;
            Some(if major > 1 { u32::MAX } else { minor })
        })
        .unwrap_or(0);
    if minor >= 89 {
        println!("cargo::rustc-cfg=pqforge_hqc_avx512");
    }
}
