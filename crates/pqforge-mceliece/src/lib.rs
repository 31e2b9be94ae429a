//! Classic McEliece (all ten parameter sets plus pc/pcf): no_std, bounded stack (implementation in progress).
#![no_std]
