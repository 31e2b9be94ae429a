//! Fixed-size byte arrays: the storage of every key, ciphertext, seed and
//! signature of the typed API.
//!
//! Stable Rust cannot write `[u8; P::PK_BYTES]` for a generic parameter set
//! `P`, so each parameter set names its arrays as associated types bounded by
//! [`ByteArray`] (implemented for every `[u8; N]`). Sizes are then exact, on
//! the stack or wherever the caller puts the value, with no heap.

use zeroize::Zeroize;

/// A fixed-size byte array `[u8; N]`.
pub trait ByteArray:
    AsRef<[u8]> + AsMut<[u8]> + Copy + Zeroize + Send + Sync + core::fmt::Debug + 'static
{
    /// Length in bytes.
    const LEN: usize;

    /// All zeros.
    #[must_use]
    fn zeroed() -> Self;

    /// `bytes` as this array type, if it has exactly [`ByteArray::LEN`] bytes.
    fn ref_from(bytes: &[u8]) -> Option<&Self>;

    /// `bytes` as this array type, if it has exactly [`ByteArray::LEN`] bytes.
    fn mut_from(bytes: &mut [u8]) -> Option<&mut Self>;

    /// A heap copy of `bytes` (exactly [`ByteArray::LEN`] long), built on the
    /// heap directly: a megabyte-sized key never passes through the stack.
    #[cfg(feature = "alloc")]
    fn boxed_from(bytes: &[u8]) -> Option<alloc::boxed::Box<Self>>;
}

impl<const N: usize> ByteArray for [u8; N] {
    const LEN: usize = N;

    fn zeroed() -> Self {
        [0; N]
    }

    fn ref_from(bytes: &[u8]) -> Option<&Self> {
        bytes.try_into().ok()
    }

    fn mut_from(bytes: &mut [u8]) -> Option<&mut Self> {
        bytes.try_into().ok()
    }

    #[cfg(feature = "alloc")]
    fn boxed_from(bytes: &[u8]) -> Option<alloc::boxed::Box<Self>> {
        alloc::boxed::Box::<[u8]>::from(bytes).try_into().ok()
    }
}

/// `bytes` as `&A`, or [`crate::Error::Length`] naming `what`.
///
/// # Errors
/// [`crate::Error::Length`] if `bytes` is not exactly `A::LEN` long.
#[inline]
pub fn array_ref<'a, A: ByteArray>(
    what: &'static str,
    bytes: &'a [u8],
) -> Result<&'a A, crate::Error> {
    A::ref_from(bytes).ok_or(crate::Error::Length {
        what,
        expected: A::LEN,
        got: bytes.len(),
    })
}

/// `bytes` as `&mut A`, or [`crate::Error::Length`] naming `what`.
///
/// # Errors
/// [`crate::Error::Length`] if `bytes` is not exactly `A::LEN` long.
#[inline]
pub fn array_mut<'a, A: ByteArray>(
    what: &'static str,
    bytes: &'a mut [u8],
) -> Result<&'a mut A, crate::Error> {
    let got = bytes.len();
    A::mut_from(bytes).ok_or(crate::Error::Length {
        what,
        expected: A::LEN,
        got,
    })
}
