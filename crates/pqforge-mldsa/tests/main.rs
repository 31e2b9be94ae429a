//! The integration tests of `pqforge-mldsa`, one module per file, in one test
//! binary (`autotests = false` in Cargo.toml): a binary per file would
//! link the crate and its dependencies once per file, and `cargo test`
//! runs test binaries one after another, so one binary also runs the
//! slow tests of different files in parallel.

mod acvp_keygen;
mod acvp_siggen;
mod acvp_sigver;
mod backends;
mod common;
mod contract;
mod regressions;
mod roundtrip;
mod wycheproof_sign;
mod wycheproof_verify;
