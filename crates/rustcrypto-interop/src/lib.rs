//! Test-only member: `tests/interop.rs` exchanges key files, ciphertexts
//! and signatures between pqforge and RustCrypto's `ml-kem` and `ml-dsa`
//! (their `pkcs8` features), in both directions. Nothing to build here.
