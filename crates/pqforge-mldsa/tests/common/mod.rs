//! Shared by the ACVP tests: hex, M' of pure and pre-hash ML-DSA, the
//! signing options of a test case, and a generator replaying its `rnd`.
#![allow(dead_code)]

use pqforge_core::{HashAlg, SignOptions};

pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// The [`HashAlg`] of an ACVP `hashAlg` name.
pub fn hash_alg(name: &str) -> HashAlg {
    HashAlg::ALL
        .into_iter()
        .find(|h| h.name() == name)
        .unwrap_or_else(|| panic!("unknown hashAlg {name}"))
}

/// PH(M) for the ACVP `hashAlg` name, computed by core's
/// [`HashAlg::digest`] (SHA-2, SHA-3 and SHAKE).
pub fn prehash(name: &str, m: &[u8]) -> (HashAlg, Vec<u8>) {
    let h = hash_alg(name);
    let mut d = vec![0u8; h.output_bytes()];
    let n = h.digest(m, &mut d).expect("every pre-hash is computed");
    assert_eq!(n, d.len());
    (h, d)
}

/// The contract's options for an external-interface case: the context and,
/// for HashML-DSA, the pre-hash the scheme computes itself.
pub fn external_options<'a>(ctx: &'a [u8], hash: Option<&str>) -> SignOptions<'a> {
    let opts = SignOptions::new().with_context(ctx);
    match hash {
        Some(name) => opts.with_prehash(hash_alg(name)),
        None => opts,
    }
}

/// Replays a case's 32-byte `rnd` once (panics if more is drawn).
pub struct Rnd(pub Option<[u8; 32]>);

pqforge_core::fill_rng!(impl for Rnd, |r: &mut Rnd, dst: &mut [u8]| {
    dst.copy_from_slice(&r.0.take().expect("rnd drawn at most once")[..]);
});

/// M' of external ML-DSA: 0 || len(ctx) || ctx || M (pure), or
/// 1 || len(ctx) || ctx || OID || PH(M) (HashML-DSA).
pub fn message_prime(ctx: &[u8], m: &[u8], hash: Option<&str>) -> Vec<u8> {
    let mut out = Vec::new();
    match hash {
        None => {
            out.extend_from_slice(&[0, ctx.len() as u8]);
            out.extend_from_slice(ctx);
            out.extend_from_slice(m);
        }
        Some(name) => {
            let (h, d) = prehash(name, m);
            out.extend_from_slice(&[1, ctx.len() as u8]);
            out.extend_from_slice(ctx);
            out.extend_from_slice(&h.oid_der());
            out.extend_from_slice(&d);
        }
    }
    out
}
