//! Put the memory map of the board on the linker search path as `memory.x`
//! (cortex-m-rt's link.x includes it): `memory-mps2-an386.x` for QEMU
//! mps2-an386, or `memory-netduinoplus2.x` with the `netduinoplus2` feature
//! (STM32F405). No file in this directory may be called `memory.x`: the
//! linker runs here and would find it before the one in OUT_DIR.
use std::{env, fs, path::PathBuf};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let src = if env::var_os("CARGO_FEATURE_NETDUINOPLUS2").is_some() {
        "memory-netduinoplus2.x"
    } else {
        "memory-mps2-an386.x"
    };
    fs::copy(src, out.join("memory.x")).expect("memory maps beside Cargo.toml");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory-mps2-an386.x");
    println!("cargo:rerun-if-changed=memory-netduinoplus2.x");
}
