//! Shared by the ACVP tests: hex, and M' of pure and pre-hash ML-DSA.
#![allow(dead_code)]

use pqforge_core::HashAlg;
use sha2::Digest;

pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// PH(M) for the ACVP `hashAlg` name (SHA-2 from the `sha2` crate, SHA-3
/// and SHAKE from core).
pub fn prehash(name: &str, m: &[u8]) -> (HashAlg, Vec<u8>) {
    let h = HashAlg::ALL
        .into_iter()
        .find(|h| h.name() == name)
        .unwrap_or_else(|| panic!("unknown hashAlg {name}"));
    let d = match h {
        HashAlg::Sha2_224 => sha2::Sha224::digest(m).to_vec(),
        HashAlg::Sha2_256 => sha2::Sha256::digest(m).to_vec(),
        HashAlg::Sha2_384 => sha2::Sha384::digest(m).to_vec(),
        HashAlg::Sha2_512 => sha2::Sha512::digest(m).to_vec(),
        HashAlg::Sha2_512_224 => sha2::Sha512_224::digest(m).to_vec(),
        HashAlg::Sha2_512_256 => sha2::Sha512_256::digest(m).to_vec(),
        _ => {
            let mut out = vec![0u8; h.output_bytes()];
            h.digest(m, &mut out).expect("SHA-3 / SHAKE");
            out
        }
    };
    (h, d)
}

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
