#![doc = include_str!("../README.md")]
#![no_std]

mod arith;
mod backend;
mod contract;
#[cfg(feature = "hazmat")]
pub mod hazmat;
mod keygen;
mod pack;
pub mod params;
mod rounding;
mod sample;
mod sign;
mod verify;

pub use backend::Which as Backend;
pub use contract::MlDsaVkState;
pub use params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};

/// The ML-DSA parameter sets, in registry order: `ml-dsa-44`, `ml-dsa-65`,
/// `ml-dsa-87`.
pub const SCHEMES: [pqforge_core::Scheme; 3] = [
    pqforge_core::Scheme::sig::<MlDsa44>(),
    pqforge_core::Scheme::sig::<MlDsa65>(),
    pqforge_core::Scheme::sig::<MlDsa87>(),
];
