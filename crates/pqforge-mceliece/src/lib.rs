#![doc = include_str!("../README.md")]
#![no_std]

#[cfg(any(feature = "alloc", test))]
extern crate alloc;
#[cfg(test)]
extern crate std;

mod backend;
mod benes;
mod bm;
mod fft;
mod fft_consts;
mod genpoly;
mod gf;
mod kem;
mod keygen;
mod params;
mod radix;
mod sort;

pub use backend::testing;
pub use params::*;
pub use pqforge_core::{Ciphertext, DecapsKey, EncapsKey, Kem, SharedSecret};

/// Key generation into freshly allocated buffers, `(pk, sk)` (the secret
/// key wiped on drop): the keys never pass through the stack. They work
/// with the dynamic API ([`SCHEMES`]) and parse into the typed keys
/// (`EncapsKey::<P>::try_from(&pk[..])`). Draws like `P::keygen` (one
/// 32-byte seed).
#[cfg(feature = "alloc")]
pub fn keygen_boxed<P: ParameterSet, R: pqforge_core::CryptoRng + ?Sized>(
    rng: &mut R,
) -> (
    alloc::boxed::Box<[u8]>,
    zeroize::Zeroizing<alloc::boxed::Box<[u8]>>,
) {
    use pqforge_core::ByteArray;
    let mut pk = alloc::vec![0u8; <P::EkBytes as ByteArray>::LEN].into_boxed_slice();
    let mut sk = zeroize::Zeroizing::new(
        alloc::vec![0u8; <P::DkBytes as ByteArray>::LEN].into_boxed_slice(),
    );
    // Always both: the buffers have the arrays' lengths.
    if let (Some(ek), Some(dk)) = (
        P::EkBytes::mut_from(&mut pk),
        P::DkBytes::mut_from(&mut sk[..]),
    ) {
        let _ = P::keygen_into(rng, ek, dk);
    }
    (pk, sk)
}
