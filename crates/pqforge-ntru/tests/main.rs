//! The integration tests of `pqforge-ntru`, one module per file, in one
//! test binary (`autotests = false` in Cargo.toml): a binary per file would
//! link the crate and its dependencies once per file, and `cargo test` runs
//! test binaries one after another.

mod backends;
mod kat;
mod robustness;
