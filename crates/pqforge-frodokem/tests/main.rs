//! The integration tests of `pqforge-frodokem`, one module per file, in one
//! test binary (`autotests = false` in Cargo.toml).

mod backends;
mod kat;
mod robustness;
