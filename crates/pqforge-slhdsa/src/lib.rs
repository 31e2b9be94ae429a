#![doc = include_str!("../README.md")]
#![no_std]

mod adrs;
mod backend;
mod contract;
mod hash;
#[cfg(feature = "hazmat")]
pub mod hazmat;
mod internal;
pub mod params;

pub use backend::Which as Backend;
pub use params::{
    ParameterSet, SlhDsaSha2_128f, SlhDsaSha2_128s, SlhDsaSha2_192f, SlhDsaSha2_192s,
    SlhDsaSha2_256f, SlhDsaSha2_256s, SlhDsaShake128f, SlhDsaShake128s, SlhDsaShake192f,
    SlhDsaShake192s, SlhDsaShake256f, SlhDsaShake256s,
};

/// The SLH-DSA parameter sets, in registry order: the SHA2 sets
/// (128s, 128f, 192s, 192f, 256s, 256f), then the SHAKE sets.
pub const SCHEMES: [pqforge_core::Scheme; 12] = [
    pqforge_core::Scheme::sig::<SlhDsaSha2_128s>(),
    pqforge_core::Scheme::sig::<SlhDsaSha2_128f>(),
    pqforge_core::Scheme::sig::<SlhDsaSha2_192s>(),
    pqforge_core::Scheme::sig::<SlhDsaSha2_192f>(),
    pqforge_core::Scheme::sig::<SlhDsaSha2_256s>(),
    pqforge_core::Scheme::sig::<SlhDsaSha2_256f>(),
    pqforge_core::Scheme::sig::<SlhDsaShake128s>(),
    pqforge_core::Scheme::sig::<SlhDsaShake128f>(),
    pqforge_core::Scheme::sig::<SlhDsaShake192s>(),
    pqforge_core::Scheme::sig::<SlhDsaShake192f>(),
    pqforge_core::Scheme::sig::<SlhDsaShake256s>(),
    pqforge_core::Scheme::sig::<SlhDsaShake256f>(),
];
