//! Key files against third-party data in `../shared` (or `$PQFORGE_DATA`):
//! the IETF LAMPS examples of RFC 9935 / 9881 / 9909 (valid keys parse,
//! re-encode byte for byte and match their public keys and certificates;
//! the deliberately broken ones are refused, each for its documented
//! reason), the IETF hackathon artifacts of OpenSSL 3.5, and OpenSSL's
//! key-codec test data (its legacy encodings must be refused).
//! Skips without the data, fails under `CI=true`.

#![cfg(all(
    feature = "pkcs8",
    feature = "mlkem",
    feature = "mldsa",
    feature = "slhdsa",
    feature = "hqc"
))]

use std::fs;
use std::path::{Path, PathBuf};

use der::{Decode, Encode};
use pqforge::keyfile::{Encoding, PrivateKey, PrivateKeyForm, PublicKey};
use pqforge::{Algorithm, Error, SignOptions};

fn data() -> Option<PathBuf> {
    pqforge::kat::data_dir()
}

fn read(p: &Path) -> Vec<u8> {
    fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The DER of a PEM file (for byte-for-byte comparisons).
fn pem_der(pem: &[u8]) -> Vec<u8> {
    pem_rfc7468::decode_vec(pem).expect("PEM").1
}

/// The certificate's SubjectPublicKeyInfo (DER), TBS (DER) and signature.
fn cert_parts(der_or_pem: &[u8]) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let der = if der_or_pem.starts_with(b"-----") {
        pem_der(der_or_pem)
    } else {
        der_or_pem.to_vec()
    };
    let c = x509_cert::Certificate::from_der(&der).expect("certificate");
    (
        c.tbs_certificate()
            .subject_public_key_info()
            .to_der()
            .expect("spki"),
        c.tbs_certificate().to_der().expect("tbs"),
        c.signature().raw_bytes().to_vec(),
    )
}

/// Verifies a pure signature (empty context) with `public`.
fn verify(public: &PublicKey, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
    let s = public.algorithm().sig().expect("signature algorithm");
    s.verify(public.as_bytes(), msg, &SignOptions::new(), sig)
}

fn form_name(f: &str) -> PrivateKeyForm {
    match f {
        "seed" => PrivateKeyForm::Seed,
        "expanded" => PrivateKeyForm::Expanded,
        "both" => PrivateKeyForm::Both,
        _ => unreachable!(),
    }
}

#[test]
fn lamps_ml_kem_and_ml_dsa_examples() {
    let Some(d) = data() else { return };
    let mut checked = 0;
    for (dir, prefix, sets) in [
        ("ml-kem", "ML-KEM", ["512", "768", "1024"]),
        ("ml-dsa", "ML-DSA", ["44", "65", "87"]),
    ] {
        let dir = d.join("keys/lamps").join(dir);
        for set in sets {
            let alg: Algorithm = format!("{prefix}-{set}").parse().unwrap();
            let pub_pem = read(&dir.join(format!("{prefix}-{set}.pub")));
            let public = PublicKey::decode(&pub_pem).expect("LAMPS public key");
            assert_eq!(public.algorithm(), alg);
            // Re-encoded byte for byte, PEM text included.
            assert_eq!(public.encode(Encoding::Pem).unwrap(), pub_pem, "{alg} .pub");
            assert_eq!(public.encode(Encoding::Der).unwrap(), pem_der(&pub_pem));
            let mut expanded = None;
            for form in ["seed", "expanded", "both"] {
                let file = dir.join(format!("{prefix}-{set}-{form}.priv"));
                let pem = read(&file);
                let key =
                    PrivateKey::decode(&pem).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                assert_eq!(key.algorithm(), alg);
                assert_eq!(key.public_key().unwrap(), public, "{}", file.display());
                let again = key.encode(Encoding::Pem, Some(form_name(form))).unwrap();
                assert_eq!(&again[..], &pem[..], "{} re-encoded", file.display());
                // Every form is the same key.
                let e = expanded.get_or_insert_with(|| key.expanded().to_vec());
                assert_eq!(key.expanded(), &e[..]);
                checked += 1;
            }
            // The certificate carries the same public key; ML-DSA's are
            // self-signed, ML-KEM's are signed by the ML-DSA key of the
            // same level.
            let (spki, tbs, sig) = cert_parts(&read(&dir.join(format!("{prefix}-{set}.crt"))));
            assert_eq!(PublicKey::decode(&spki).unwrap(), public);
            let signer = if prefix == "ML-DSA" {
                public.clone()
            } else {
                let level = match set {
                    "512" => "44",
                    "768" => "65",
                    _ => "87",
                };
                let p = d.join(format!("keys/lamps/ml-dsa/ML-DSA-{level}.pub"));
                PublicKey::decode(&read(&p)).unwrap()
            };
            verify(&signer, &tbs, &sig).expect("LAMPS certificate signature");
            // A flipped bit of the TBS does not verify.
            let mut bad = tbs.clone();
            bad[40] ^= 1;
            assert!(verify(&signer, &bad, &sig).is_err());
        }
    }
    assert_eq!(checked, 18);
}

#[test]
fn lamps_bad_keys_are_refused_with_their_reason() {
    let Some(d) = data() else { return };
    let cases: [(&str, &str); 7] = [
        // both: the expanded key is another key pair's.
        (
            "ml-kem/bad-ML-KEM-512-1.priv",
            "not the one its seed generates",
        ),
        // expandedKey: s altered, H(ek) intact: only the pairwise test sees it.
        ("ml-kem/bad-ML-KEM-512-2.priv", "pairwise test failed"),
        // expandedKey: H(ek) altered: the FIPS 203 §7.3 check.
        ("ml-kem/bad-ML-KEM-512-3.priv", "invalid key"),
        // both: the expanded key differs in z only.
        (
            "ml-kem/bad-ML-KEM-512-4.priv",
            "not the one its seed generates",
        ),
        // both: an unrelated expanded key.
        (
            "ml-dsa/bad-ML-DSA-44-1.priv",
            "not the one its seed generates",
        ),
        // expandedKey: tr altered.
        ("ml-dsa/bad-ML-DSA-44-2.priv", "t0 / tr"),
        // expandedKey: t0 altered.
        ("ml-dsa/bad-ML-DSA-44-3.priv", "t0 / tr"),
    ];
    for (file, reason) in cases {
        let p = d.join("keys/lamps").join(file);
        let err = PrivateKey::decode(&read(&p)).expect_err(file).to_string();
        assert!(err.contains(reason), "{file}: `{err}` lacks `{reason}`");
    }
}

#[test]
fn lamps_slh_dsa_example() {
    let Some(d) = data() else { return };
    let dir = d.join("keys/lamps/slh-dsa");
    let priv_pem = read(&dir.join("id-slh-dsa-sha2-128s.priv"));
    let pub_pem = read(&dir.join("id-slh-dsa-sha2-128s.pub"));
    let key = PrivateKey::decode(&priv_pem).expect("RFC 9909 private key");
    let public = PublicKey::decode(&pub_pem).expect("RFC 9909 public key");
    assert_eq!(key.algorithm().name(), "slh-dsa-sha2-128s");
    assert_eq!(key.public_key().unwrap(), public);
    assert_eq!(&key.encode(Encoding::Pem, None).unwrap()[..], &priv_pem[..]);
    assert_eq!(public.encode(Encoding::Pem).unwrap(), pub_pem);
    // The self-signed certificate (pure SLH-DSA, empty context) verifies.
    let (spki, tbs, sig) = cert_parts(&read(&dir.join("id-slh-dsa-sha2-128s.pem")));
    assert_eq!(PublicKey::decode(&spki).unwrap(), public);
    verify(&public, &tbs, &sig).expect("RFC 9909 certificate signature");
    // An altered PK.root is refused (the root is recomputed on load).
    let mut der = pem_der(&priv_pem);
    let last = der.len() - 1;
    der[last] ^= 1;
    let err = PrivateKey::decode(&der).unwrap_err().to_string();
    assert!(err.contains("PK.root"), "{err}");
}

#[test]
fn ietf_hackathon_openssl_artifacts() {
    let Some(d) = data() else { return };
    let dir = d.join("keys/lamps/ietf-hackathon/ossl35/artifacts_certs_r5");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("ossl35 artifacts")
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let (mut keys, mut decaps, mut certs) = (0, 0, 0);
    for n in &names {
        let p = dir.join(n);
        if n.ends_with("_priv.der") {
            let key = PrivateKey::decode(&read(&p)).unwrap_or_else(|e| panic!("{n}: {e}"));
            // Re-encoded in the file's own form, byte for byte.
            let form = if n.ends_with("_seed_priv.der") {
                Some(PrivateKeyForm::Seed)
            } else if n.ends_with("_expandedkey_priv.der") {
                Some(PrivateKeyForm::Expanded)
            } else if n.ends_with("_both_priv.der") {
                Some(PrivateKeyForm::Both)
            } else {
                None
            };
            assert_eq!(
                &key.encode(Encoding::Der, form).unwrap()[..],
                &read(&p)[..],
                "{n}"
            );
            let stem = n.rsplit_once('_').unwrap().0;
            let stem = stem
                .trim_end_matches("_seed")
                .trim_end_matches("_expandedkey")
                .trim_end_matches("_both");
            // The certificate of the key: its public key is the key's own;
            // self-signed trust anchors verify.
            for kind in ["ta", "ee"] {
                let c = dir.join(format!("{stem}_{kind}.der"));
                if c.exists() {
                    let (spki, tbs, sig) = cert_parts(&read(&c));
                    assert_eq!(
                        PublicKey::decode(&spki).unwrap(),
                        key.public_key().unwrap(),
                        "{n}"
                    );
                    if kind == "ta" {
                        verify(&key.public_key().unwrap(), &tbs, &sig).expect(n);
                    }
                    certs += 1;
                }
            }
            let ct = dir.join(format!("{stem}_ciphertext.bin"));
            if ct.exists() {
                let kem = key.algorithm().kem().unwrap();
                let mut ss = vec![0u8; kem.info().ss_bytes];
                kem.decaps(key.expanded(), &read(&ct), &mut ss).unwrap();
                assert_eq!(ss, read(&dir.join(format!("{stem}_ss.bin"))), "{n}");
                decaps += 1;
            }
            keys += 1;
        }
    }
    // 3 ML-DSA x 3 forms, 3 ML-KEM x 3 forms, 12 SLH-DSA.
    assert_eq!((keys, decaps), (30, 9));
    assert_eq!(certs, 30);
}

#[test]
fn openssl_codec_files() {
    let Some(d) = data() else { return };
    let dir = d.join("vectors/openssl");
    let mut n = 0;
    for (sub, prefix, sets) in [
        (
            "15-test_ml_kem_codecs_data",
            "ml-kem",
            ["512", "768", "1024"],
        ),
        ("15-test_ml_dsa_codecs_data", "ml-dsa", ["44", "65", "87"]),
    ] {
        let dir = dir.join(sub);
        for set in sets {
            let public = PublicKey::decode(&read(&dir.join(format!("pub-{set}.pem")))).unwrap();
            assert_eq!(public.algorithm().name(), format!("{prefix}-{set}"));
            for form in ["seed-only", "priv-only", "seed-priv"] {
                let key = PrivateKey::decode(&read(&dir.join(format!("prv-{set}-{form}.pem"))))
                    .unwrap_or_else(|e| panic!("{prefix}-{set} {form}: {e}"));
                assert_eq!(key.public_key().unwrap(), public);
                if prefix == "ml-kem" {
                    // Every form decapsulates the test ciphertext.
                    let kem = key.algorithm().kem().unwrap();
                    let mut ss = [0u8; 32];
                    kem.decaps(
                        key.expanded(),
                        &read(&dir.join(format!("ct-{set}.dat"))),
                        &mut ss,
                    )
                    .unwrap();
                    assert_eq!(ss[..], read(&dir.join(format!("ss-{set}.dat")))[..]);
                } else {
                    // Every form reproduces the deterministic signature of the
                    // public key's own DER.
                    let s = key.algorithm().sig().unwrap();
                    let msg = public.encode(Encoding::Der).unwrap();
                    let mut sig = vec![0u8; s.info().sig_bytes];
                    let mut rng =
                        pqforge_core::kat::KatSource::new(pqforge::KatRng::NistDrbg, &[0; 48]);
                    let opts = SignOptions::new().deterministic();
                    let len = s
                        .sign(&mut rng, key.expanded(), &msg, &opts, &mut sig)
                        .unwrap();
                    assert_eq!(sig[..len], read(&dir.join(format!("sig-{set}.dat")))[..]);
                }
                n += 1;
            }
            // The legacy encodings (no [0] tag on a bare seed, a bare expanded
            // key, oqs-provider's sk || pk) are not RFC 9935 / 9881: refused.
            for legacy in ["bare-seed", "bare-priv", "oqskeypair"] {
                let err = PrivateKey::decode(&read(&dir.join(format!("prv-{set}-{legacy}.pem"))))
                    .expect_err(legacy);
                assert!(
                    matches!(err, Error::KeyFormat(_) | Error::Length { .. }),
                    "{legacy}: {err}"
                );
                n += 1;
            }
        }
    }
    assert_eq!(n, 36);
}

#[test]
fn typed_keys_implement_the_rustcrypto_key_traits() {
    use pkcs8::{DecodePrivateKey, EncodePrivateKey};
    use spki::{DecodePublicKey, EncodePublicKey};
    type P = pqforge::mlkem::MlKem768;
    type S = pqforge::mldsa::MlDsa65;
    let Some(d) = data() else { return };
    let dir = d.join("keys/lamps/ml-kem");
    let dk_seed = pem_der(&read(&dir.join("ML-KEM-768-seed.priv")));
    let dk = pqforge::DecapsKey::<P>::from_pkcs8_der(&dk_seed).expect("seed form");
    assert!(dk.seed().is_some());
    // Written back in the seed form, byte for byte.
    assert_eq!(dk.to_pkcs8_der().unwrap().as_bytes(), &dk_seed[..]);
    let dk2 = pqforge::DecapsKey::<P>::from_pkcs8_der(&pem_der(&read(
        &dir.join("ML-KEM-768-expanded.priv"),
    )))
    .expect("expanded form");
    assert_eq!(dk2.as_ref(), dk.as_ref());
    assert!(dk2.seed().is_none());
    let ek_der = pem_der(&read(&dir.join("ML-KEM-768.pub")));
    let ek = pqforge::EncapsKey::<P>::from_public_key_der(&ek_der).unwrap();
    assert_eq!(ek.to_public_key_der().unwrap().as_bytes(), &ek_der[..]);
    assert_eq!(Some(ek), dk.encaps_key());
    // Another set's key is refused, and so is a broken one.
    assert!(pqforge::DecapsKey::<pqforge::mlkem::MlKem512>::from_pkcs8_der(&dk_seed).is_err());
    let bad = pem_der(&read(&dir.join("bad-ML-KEM-512-2.priv")));
    assert!(pqforge::DecapsKey::<pqforge::mlkem::MlKem512>::from_pkcs8_der(&bad).is_err());
    // Signatures: ML-DSA-65 seed key, its verifying key.
    let dir = d.join("keys/lamps/ml-dsa");
    let sk =
        pqforge::SigningKey::<S>::from_pkcs8_der(&pem_der(&read(&dir.join("ML-DSA-65-both.priv"))))
            .unwrap();
    let vk = pqforge::VerifyingKey::<S>::from_public_key_der(&pem_der(&read(
        &dir.join("ML-DSA-65.pub"),
    )))
    .unwrap();
    assert_eq!(sk.verifying_key(), &vk);
    // A set without an OID has no standard encoding.
    let (ek, _) = <pqforge::hqc::Hqc1 as pqforge::Kem>::keygen(&mut rand::rng());
    assert!(ek.to_public_key_der().is_err());
}

/// Every algorithm: generate, write in every encoding and form it has,
/// read back the same key; the public key likewise; a private key is never
/// read as a public key or the reverse; truncations and flipped bits of
/// the DER are refused or give a checked key, never a panic.
#[test]
fn every_algorithm_round_trips() {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(|| {
            let mut rng = rand::rng();
            for alg in Algorithm::all() {
                let info = alg.info();
                let key = PrivateKey::generate(alg, &mut rng).unwrap();
                let public = key.public_key().unwrap();
                let forms: &[Option<PrivateKeyForm>] = if info.key_forms.seed {
                    &[
                        None,
                        Some(PrivateKeyForm::Seed),
                        Some(PrivateKeyForm::Expanded),
                        Some(PrivateKeyForm::Both),
                    ]
                } else {
                    &[None, Some(PrivateKeyForm::Expanded)]
                };
                for &form in forms {
                    for enc in [Encoding::Pem, Encoding::Der, Encoding::Raw] {
                        if enc == Encoding::Raw && form == Some(PrivateKeyForm::Both) {
                            assert!(key.encode(enc, form).is_err());
                            continue;
                        }
                        let bytes = key.encode(enc, form).unwrap();
                        let back = if enc == Encoding::Raw {
                            PrivateKey::from_raw(alg, &bytes)
                        } else {
                            PrivateKey::decode(&bytes)
                        }
                        .unwrap_or_else(|e| panic!("{alg} {enc:?} {form:?}: {e}"));
                        assert_eq!(back.algorithm(), alg);
                        assert_eq!(back.expanded(), key.expanded(), "{alg} {enc:?} {form:?}");
                        if enc != Encoding::Raw {
                            assert!(
                                PublicKey::decode(&bytes).is_err(),
                                "{alg}: private read as public"
                            );
                        }
                    }
                }
                // A key loaded without its seed cannot be written as a seed.
                let no_seed = PrivateKey::from_raw(alg, key.expanded()).unwrap();
                if info.key_forms.seed {
                    assert!(
                        no_seed
                            .encode(Encoding::Der, Some(PrivateKeyForm::Seed))
                            .is_err()
                    );
                }
                for enc in [Encoding::Pem, Encoding::Der] {
                    let bytes = public.encode(enc).unwrap();
                    assert_eq!(PublicKey::decode(&bytes).unwrap(), public, "{alg} {enc:?}");
                    assert!(
                        PrivateKey::decode(&bytes).is_err(),
                        "{alg}: public read as private"
                    );
                }
                // Damaged DER (the small seed form where there is one).
                let der = key.encode(Encoding::Der, None).unwrap();
                for cut in [0, 1, 2, der.len() / 2, der.len() - 1] {
                    assert!(
                        PrivateKey::decode(&der[..cut]).is_err(),
                        "{alg}: truncated to {cut}"
                    );
                }
                let mut longer = der.to_vec();
                longer.push(0);
                assert!(PrivateKey::decode(&longer).is_err(), "{alg}: trailing byte");
                // Every header byte, then a sample of the key bytes (an SLH-DSA
                // key costs a key generation to check).
                if der.len() < 200 {
                    for i in (0..24).chain((24..der.len()).step_by(9)) {
                        for bit in [0x01, 0x80] {
                            let mut d = der.to_vec();
                            d[i] ^= bit;
                            if let Ok(k) = PrivateKey::decode(&d) {
                                // Only a changed seed can still be a key.
                                assert!(k.expanded() != key.expanded() || k.algorithm() != alg);
                            }
                        }
                    }
                }
            }
        })
        .unwrap()
        .join()
        .unwrap();
}
