//! The error type shared by every pqforge crate.

use core::fmt;

/// Everything that can go wrong in a pqforge operation.
///
/// Decapsulation never returns an error for a correctly sized ciphertext
/// (implicit rejection); signature verification returns one undifferentiated
/// [`Error::Verification`] for every reason a signature is not accepted, so the
/// error is not an oracle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// An input has the wrong length.
    Length {
        /// What the input is (`"public key"`, `"ciphertext"`, ...).
        what: &'static str,
        /// The length the parameter set requires.
        expected: usize,
        /// The length that was given.
        got: usize,
    },
    /// An output buffer is too small.
    BufferTooSmall {
        /// What the buffer is for.
        what: &'static str,
        /// The length needed.
        needed: usize,
        /// The length given.
        got: usize,
    },
    /// An encoding is not canonical or out of range (for example a
    /// coefficient >= q, nonzero padding bits, a wrong header byte).
    Encoding(&'static str),
    /// A key failed a consistency check (for example a decapsulation key whose
    /// embedded hash or seed does not match its encapsulation key).
    InvalidKey(&'static str),
    /// A key file (DER, PEM) is malformed or is not the expected
    /// algorithm's.
    KeyFormat(&'static str),
    /// A signature was not accepted.
    Verification,
    /// A context string or message is outside what the scheme allows.
    InvalidInput(&'static str),
    /// The random number generator failed.
    Rng,
    /// An unknown algorithm name.
    UnknownAlgorithm,
    /// The parameter set does not define the requested operation or option
    /// (a context string for round-3 Falcon, deterministic encapsulation
    /// for Classic McEliece, ...): refused, never silently ignored.
    Unsupported {
        /// The parameter set.
        alg: &'static str,
        /// What was asked for.
        what: &'static str,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Length {
                what,
                expected,
                got,
            } => write!(f, "{what} has length {got}, expected {expected} bytes"),
            Error::BufferTooSmall { what, needed, got } => {
                write!(f, "{what} buffer has {got} bytes, needs {needed}")
            }
            Error::Encoding(what) => write!(f, "invalid encoding: {what}"),
            Error::InvalidKey(what) => write!(f, "invalid key: {what}"),
            Error::KeyFormat(what) => write!(f, "key file: {what}"),
            Error::Verification => f.write_str("signature verification failed"),
            Error::InvalidInput(what) => write!(f, "invalid input: {what}"),
            Error::Rng => f.write_str("random number generator failure"),
            Error::UnknownAlgorithm => f.write_str("unknown algorithm"),
            Error::Unsupported { alg, what } => write!(f, "{alg} does not support {what}"),
        }
    }
}

impl core::error::Error for Error {}

/// Checks that `got == expected`, naming the input in the error.
///
/// # Errors
/// [`Error::Length`] when the lengths differ.
#[inline]
pub fn check_len(what: &'static str, expected: usize, got: usize) -> Result<(), Error> {
    if expected == got {
        Ok(())
    } else {
        Err(Error::Length {
            what,
            expected,
            got,
        })
    }
}
