//! [`fill_rng!`](crate::fill_rng): one definition of the `rand_core` plumbing for
//! generators that only know how to fill a byte buffer (the KAT generators,
//! the RustCrypto adapters, the constant-time harness's poisoned stream).

#[doc(hidden)]
pub use rand_core as __rand_core;

/// Implements `rand_core::TryRng` (infallible: words are taken
/// little-endian from the byte stream) and `TryCryptoRng` for a type,
/// given the expression of its fill function `fn(&mut Self, &mut [u8])`.
///
/// ```
/// struct Zeros;
/// pqforge_core::fill_rng!(impl for Zeros, |_: &mut Zeros, out: &mut [u8]| out.fill(0));
/// let mut z = Zeros;
/// assert_eq!(rand_core::Rng::next_u32(&mut z), 0);
/// ```
#[macro_export]
macro_rules! fill_rng {
    (impl $([$($gen:tt)*])? for $ty:ty, $fill:expr) => {
        impl $(<$($gen)*>)? $crate::rng::__rand_core::TryRng for $ty {
            type Error = ::core::convert::Infallible;
            fn try_next_u32(&mut self) -> ::core::result::Result<u32, Self::Error> {
                let mut b = [0u8; 4];
                ($fill)(self, &mut b);
                Ok(u32::from_le_bytes(b))
            }
            fn try_next_u64(&mut self) -> ::core::result::Result<u64, Self::Error> {
                let mut b = [0u8; 8];
                ($fill)(self, &mut b);
                Ok(u64::from_le_bytes(b))
            }
            fn try_fill_bytes(&mut self, dst: &mut [u8]) -> ::core::result::Result<(), Self::Error> {
                ($fill)(self, dst);
                Ok(())
            }
        }
        impl $(<$($gen)*>)? $crate::rng::__rand_core::TryCryptoRng for $ty {}
    };
}
