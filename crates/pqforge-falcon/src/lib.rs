//! Falcon-512/1024 (NIST round 3) and FN-DSA draft: constant-time, no_std (implementation in progress).
#![no_std]
