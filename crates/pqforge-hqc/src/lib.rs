//! HQC (placeholder while the implementation lands).
#![no_std]
