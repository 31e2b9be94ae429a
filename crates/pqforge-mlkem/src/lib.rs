//! ML-KEM-512/768/1024 (FIPS 203): constant-time, no_std, no heap (implementation in progress).
#![no_std]
