//! The integration tests of `pqforge-ntruprime`, one module per file, in
//! one test binary (`autotests = false` in Cargo.toml).

mod backends;
mod kat;
mod robustness;
