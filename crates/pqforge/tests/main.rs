//! The integration tests of `pqforge`, one module per file, in one test
//! binary (`autotests = false` in Cargo.toml): a binary per file would
//! link the crate and its dependencies once per file, and `cargo test`
//! runs test binaries one after another, so one binary also runs the
//! slow tests of different files in parallel.

mod backends;
mod keyfiles;
mod xwing_keyfiles;
mod zeroize;
