//! OpenSSL's key-codec test files (`15-test_ml_kem_codecs_data`,
//! `15-test_ml_dsa_codecs_data`), through pqforge's key files:
//!
//! * `pub-N.pem` (SubjectPublicKeyInfo) and `prv-N-seed-only.pem`,
//!   `prv-N-priv-only.pem`, `prv-N-seed-priv.pem` (PKCS#8 `seed`,
//!   `expandedKey`, `both`): must be read, and be the recipe's key
//!   (KeyGen of the seed 00 01 02 ..., ML-KEM `d ‖ z`, ML-DSA `ξ`);
//! * `prv-N-bare-seed.pem`, `prv-N-bare-priv.pem`, `prv-N-oqskeypair.pem`:
//!   OpenSSL's legacy encodings (a seed without its `[0]` tag, an expanded
//!   key without its OCTET STRING, oqs-provider's `sk ‖ pk`), which RFC 9935
//!   and RFC 9881 do not allow: must be refused;
//! * ML-KEM `ct-N.dat`: decapsulated with every private-key form to
//!   `ss-N.dat`. (ML-DSA's `sig-N.dat` is run by the ML-DSA handler.)

use std::path::Path;

use pqforge::keyfile::{PrivateKey, PublicKey};
use pqforge::{Algorithm, Kind};

use super::{Counts, Ctx};
use crate::Failure;

/// The set of a codec file name's size field (`512`, `65`, ...).
fn set_of(dir: &str, n: &str) -> Option<Algorithm> {
    let name = match dir {
        "15-test_ml_kem_codecs_data" => format!("ml-kem-{n}"),
        "15-test_ml_dsa_codecs_data" => format!("ml-dsa-{n}"),
        _ => return None,
    };
    Algorithm::find(&name)
}

/// The recipe's key pair: KeyGen of the seed 00 01 02 ...
fn recipe_key(alg: Algorithm) -> Result<(Vec<u8>, Vec<u8>), String> {
    let i = alg.info();
    let seed: Vec<u8> = (0..i.keygen_seed_bytes).map(|b| b as u8).collect();
    let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    match alg.scheme() {
        pqforge::Scheme::Kem(k) => k.keygen_derand(&seed, &mut pk, &mut sk),
        pqforge::Scheme::Sig(s) => s.keygen_derand(&seed, &mut pk, &mut sk),
    }
    .map_err(|e| e.to_string())?;
    Ok((pk, sk))
}

pub(crate) fn handle(
    path: &Path,
    bytes: &[u8],
    _ctx: &Ctx,
) -> Option<Result<Vec<Counts>, Failure>> {
    let dir = path.parent()?.file_name()?.to_str()?;
    let name = path.file_name()?.to_str()?;
    let (stem, ext) = name.rsplit_once('.')?;
    let mut parts = stem.splitn(3, '-');
    let (kind, n, form) = (parts.next()?, parts.next()?, parts.next());
    let alg = set_of(dir, n)?;
    let mut c = Counts::new(alg.name());
    let outcome: Result<(), String> = match (kind, ext, form) {
        ("pub", "pem", None) => recipe_key(alg).and_then(|(pk, _)| {
            let p = PublicKey::decode(bytes).map_err(|e| format!("not read: {e}"))?;
            if p.algorithm() != alg || p.as_bytes() != pk {
                return Err("not the recipe's public key".into());
            }
            Ok(())
        }),
        ("prv", "pem", Some("seed-only" | "priv-only" | "seed-priv")) => {
            recipe_key(alg).and_then(|(pk, sk)| {
                let k = PrivateKey::decode(bytes).map_err(|e| format!("not read: {e}"))?;
                if k.algorithm() != alg || k.expanded() != sk {
                    return Err("not the recipe's private key".into());
                }
                let p = k.public_key().map_err(|e| e.to_string())?;
                if p.as_bytes() != pk {
                    return Err("its public key is not the recipe's".into());
                }
                Ok(())
            })
        }
        ("prv", "pem", Some("bare-seed" | "bare-priv" | "oqskeypair")) => {
            match PrivateKey::decode(bytes) {
                Ok(_) => Err("a legacy (non-RFC) encoding was accepted".into()),
                Err(_) => Ok(()),
            }
        }
        ("ct", "dat", None) if alg.kind() == Kind::Kem => (|| {
            let ss_path = path.with_file_name(format!("ss-{n}.dat"));
            let want =
                std::fs::read(&ss_path).map_err(|e| format!("{}: {e}", ss_path.display()))?;
            let kem = alg.kem().ok_or("not a KEM")?;
            let mut ss = vec![0u8; kem.info().ss_bytes];
            for form in ["seed-only", "priv-only", "seed-priv"] {
                let kp = path.with_file_name(format!("prv-{n}-{form}.pem"));
                let key = std::fs::read(&kp).map_err(|e| format!("{}: {e}", kp.display()))?;
                let key = PrivateKey::decode(&key).map_err(|e| format!("{}: {e}", kp.display()))?;
                kem.decaps(key.expanded(), bytes, &mut ss)
                    .map_err(|e| e.to_string())?;
                if ss != want {
                    return Err(format!(
                        "the {form} key does not decapsulate ct-{n}.dat to ss-{n}.dat"
                    ));
                }
            }
            Ok(())
        })(),
        ("ss", "dat", None) => {
            // Checked with its ciphertext.
            return Some(Ok(vec![Counts::covered(format!(
                "{} (with ct-{n}.dat)",
                alg.name()
            ))]));
        }
        _ => return None,
    };
    c.record(outcome.is_ok(), || outcome.err().unwrap_or_default());
    Some(Ok(vec![c]))
}
