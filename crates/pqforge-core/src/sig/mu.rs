//! The message representative μ of FIPS 204 (ML-DSA) and FN-DSA:
//! μ = SHAKE256(h || M', 64), where h is the 64-byte hash of the public key
//! (tr) and M' is `0 || len(ctx) || ctx || M` (pure) or
//! `1 || len(ctx) || ctx || OID || PH(M)` (pre-hash). Streamed: no M'
//! buffer, no heap.

use crate::keccak::Shake256;
use crate::{Error, MessageMode, SignOptions};

/// μ for the message argument `msg` under `opts` (already checked against
/// the set's [`crate::SignCaps`]): pure, pre-hashed by the scheme, the
/// caller's digest, or μ itself (external μ).
///
/// # Errors
/// [`Error::InvalidInput`] for a context over 255 bytes, a digest of the
/// wrong length, an external μ that is not 64 bytes or comes with a
/// context. (Every [`crate::HashAlg`] pre-hash is computed.)
pub fn mu(pk_hash: &[u8; 64], opts: &SignOptions<'_>, msg: &[u8]) -> Result<[u8; 64], Error> {
    let ctx = opts.context();
    match opts.message() {
        MessageMode::Pure => mu_of(pk_hash, ctx, None, msg),
        MessageMode::PreHash(h) => {
            let mut d = [0u8; 64];
            let n = h.digest(msg, &mut d)?;
            mu_of(pk_hash, ctx, Some((&h.oid_der(), &d[..n])), &[])
        }
        MessageMode::Digest(h) => {
            if msg.len() != h.output_bytes() {
                return Err(Error::InvalidInput(
                    "digest length differs from the hash function's output length",
                ));
            }
            mu_of(pk_hash, ctx, Some((&h.oid_der(), msg)), &[])
        }
        MessageMode::ExternalMu => {
            if !ctx.is_empty() {
                return Err(Error::InvalidInput(
                    "a context string with external mu (the context is part of mu)",
                ));
            }
            msg.try_into()
                .map_err(|_| Error::InvalidInput("external mu must be 64 bytes"))
        }
    }
}

/// μ of a raw message (`prehash = None`) or of a pre-hashed one
/// (`Some((der_oid, hash))`).
fn mu_of(
    pk_hash: &[u8; 64],
    ctx: &[u8],
    prehash: Option<(&[u8], &[u8])>,
    msg: &[u8],
) -> Result<[u8; 64], Error> {
    let Ok(clen) = u8::try_from(ctx.len()) else {
        return Err(Error::InvalidInput("context longer than 255 bytes"));
    };
    let mut sh = Shake256::new();
    sh.absorb(pk_hash);
    match prehash {
        None => {
            sh.absorb(&[0, clen]);
            sh.absorb(ctx);
            sh.absorb(msg);
        }
        Some((oid, hash)) => {
            sh.absorb(&[1, clen]);
            sh.absorb(ctx);
            sh.absorb(oid);
            sh.absorb(hash);
        }
    }
    let mut mu = [0u8; 64];
    sh.squeeze(&mut mu);
    Ok(mu)
}
