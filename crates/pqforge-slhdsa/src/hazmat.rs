//! The FIPS 205 internal interface (§9: slh_keygen_internal,
//! slh_sign_internal, slh_verify_internal) under its names in the
//! standard (feature `hazmat`), for test suites such as ACVP's "internal"
//! groups. **Not for applications**: use the
//! [`SignatureScheme`](pqforge_core::SignatureScheme) API, which builds
//! the message M′ with its domain separator and context.
//!
//! The message M is given as parts whose concatenation is M (no copy).
//! The `_on` variants run on a chosen [`Backend`](crate::Backend)
//! (differential tests and benchmarks).
//!
//! ```
//! use pqforge_slhdsa::SlhDsaShake128f;
//! use pqforge_slhdsa::hazmat::{slh_keygen_internal, slh_sign_internal, slh_verify_internal};
//!
//! let (sk_seed, sk_prf, pk_seed) = ([1u8; 16], [2u8; 16], [3u8; 16]);
//! let (mut sk, mut pk) = ([0u8; 64], [0u8; 32]);
//! slh_keygen_internal::<SlhDsaShake128f>(&sk_seed, &sk_prf, &pk_seed, &mut sk, &mut pk).unwrap();
//! let mut sig = vec![0u8; 17088];
//! // Deterministic: addrnd = PK.seed.
//! slh_sign_internal::<SlhDsaShake128f>(&[b"M'", b" in parts"], &sk, &pk_seed, &mut sig).unwrap();
//! assert!(slh_verify_internal::<SlhDsaShake128f>(&[b"M' in parts"], &sig, &pk));
//! ```

use core::marker::PhantomData;

use pqforge_core::Error;

use crate::params::ParameterSet;
use crate::{backend, internal};

fn check_len(what: &'static str, got: usize, expected: usize) -> Result<(), Error> {
    if got == expected {
        Ok(())
    } else {
        Err(Error::Length {
            what,
            expected,
            got,
        })
    }
}

/// slh_keygen_internal (Algorithm 18): `sk` (4n bytes) = SK.seed || SK.prf
/// || PK.seed || PK.root, `pk` (2n bytes) = PK.seed || PK.root.
///
/// # Errors
/// [`Error::Length`] if a seed is not n bytes or `sk` / `pk` are not 4n / 2n.
pub fn slh_keygen_internal<P: ParameterSet>(
    sk_seed: &[u8],
    sk_prf: &[u8],
    pk_seed: &[u8],
    sk: &mut [u8],
    pk: &mut [u8],
) -> Result<(), Error> {
    check_len("SK.seed", sk_seed.len(), P::N)?;
    check_len("SK.prf", sk_prf.len(), P::N)?;
    check_len("PK.seed", pk_seed.len(), P::N)?;
    check_len("private key", sk.len(), P::SK_BYTES)?;
    check_len("public key", pk.len(), P::PK_BYTES)?;
    internal::keygen::<P>(sk_seed, sk_prf, pk_seed, sk, pk);
    Ok(())
}

/// slh_sign_internal (Algorithm 19) of M = the concatenation of `msg`,
/// with `addrnd` (n bytes: fresh randomness, or PK.seed for deterministic
/// signing) into `sig` (`P::SIG_BYTES`).
///
/// # Errors
/// [`Error::Length`] for a wrong `sk`, `addrnd` or `sig` length.
pub fn slh_sign_internal<P: ParameterSet>(
    msg: &[&[u8]],
    sk: &[u8],
    addrnd: &[u8],
    sig: &mut [u8],
) -> Result<(), Error> {
    check_len("private key", sk.len(), P::SK_BYTES)?;
    check_len("addrnd", addrnd.len(), P::N)?;
    check_len("signature", sig.len(), P::SIG_BYTES)?;
    internal::sign::<P>(msg, sk, addrnd, sig);
    Ok(())
}

/// slh_verify_internal (Algorithm 20) of M = the concatenation of `msg`:
/// `false` for a signature or public key of the wrong length.
#[must_use]
pub fn slh_verify_internal<P: ParameterSet>(msg: &[&[u8]], sig: &[u8], pk: &[u8]) -> bool {
    internal::verify::<P>(msg, sig, pk)
}

/// [`slh_keygen_internal`] on backend `which` (differential tests): `None`
/// if that backend is not compiled in or this CPU lacks it.
///
/// # Errors
/// As [`slh_keygen_internal`].
pub fn slh_keygen_internal_on<P: ParameterSet>(
    which: crate::Backend,
    sk_seed: &[u8],
    sk_prf: &[u8],
    pk_seed: &[u8],
    sk: &mut [u8],
    pk: &mut [u8],
) -> Result<Option<()>, Error> {
    check_len("SK.seed", sk_seed.len(), P::N)?;
    check_len("SK.prf", sk_prf.len(), P::N)?;
    check_len("PK.seed", pk_seed.len(), P::N)?;
    check_len("private key", sk.len(), P::SK_BYTES)?;
    check_len("public key", pk.len(), P::PK_BYTES)?;
    Ok(backend::run_on(
        which,
        internal::Keygen::<P> {
            sk_seed,
            sk_prf,
            pk_seed,
            sk,
            pk,
            _p: PhantomData,
        },
    ))
}

/// [`slh_sign_internal`] on backend `which` (differential tests): `None`
/// if that backend is not available.
///
/// # Errors
/// As [`slh_sign_internal`].
pub fn slh_sign_internal_on<P: ParameterSet>(
    which: crate::Backend,
    msg: &[&[u8]],
    sk: &[u8],
    addrnd: &[u8],
    sig: &mut [u8],
) -> Result<Option<()>, Error> {
    check_len("private key", sk.len(), P::SK_BYTES)?;
    check_len("addrnd", addrnd.len(), P::N)?;
    check_len("signature", sig.len(), P::SIG_BYTES)?;
    Ok(backend::run_on(
        which,
        internal::Sign::<P> {
            msg,
            sk,
            addrnd,
            sig,
            _p: PhantomData,
        },
    ))
}

/// [`slh_verify_internal`] on backend `which` (differential tests): `None`
/// if that backend is not available.
#[must_use]
pub fn slh_verify_internal_on<P: ParameterSet>(
    which: crate::Backend,
    msg: &[&[u8]],
    sig: &[u8],
    pk: &[u8],
) -> Option<bool> {
    backend::run_on(
        which,
        internal::Verify::<P> {
            msg,
            sig,
            pk,
            _p: PhantomData,
        },
    )
}
