//! pqforge against RustCrypto `ml-kem` 0.3 and `ml-dsa` 0.1, both
//! directions: each reads the other's PKCS#8 / SubjectPublicKeyInfo files
//! (RustCrypto reads and writes the `seed` form only); a ciphertext made by
//! one is decapsulated by the other; a signature made by one (with a
//! context) verifies under the other, and a flipped bit under neither.

// Helpers called from the tests: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use ml_dsa::{Generate, Keypair, MlDsa44, MlDsa65, MlDsa87, MlDsaParams};
use ml_kem::{Decapsulate, Encapsulate, Kem as _, MlKem512, MlKem768, MlKem1024};
use pkcs8::{DecodePrivateKey, EncodePrivateKey};
use pqforge::keyfile::{Encoding, PrivateKey, PublicKey};
use pqforge::{Algorithm, SignOptions};
use spki::{DecodePublicKey, EncodePublicKey};

macro_rules! kem_case {
    ($name:literal, $rc:ty) => {{
        let mut rng = rand::rng();
        let alg: Algorithm = $name.parse().unwrap();
        let kem = alg.kem().unwrap();
        let i = kem.info();
        // pqforge -> RustCrypto: seed-form private key and public key files.
        let key = PrivateKey::generate(alg, &mut rng).unwrap();
        let der = key.encode(Encoding::Der, None).unwrap();
        let pub_der = key.public_key().unwrap().encode(Encoding::Der).unwrap();
        let dk = ml_kem::DecapsulationKey::<$rc>::from_pkcs8_der(&der)
            .expect("RustCrypto reads pqforge's key");
        let ek = ml_kem::EncapsulationKey::<$rc>::from_public_key_der(&pub_der)
            .expect("and its public key");
        assert_eq!(ek.to_public_key_der().unwrap().as_bytes(), &pub_der[..]);
        assert_eq!(
            dk.to_pkcs8_der().unwrap().as_bytes(),
            &der[..],
            "re-encoded byte for byte"
        );
        let (ct, k1) = ek.encapsulate_with_rng(&mut rng);
        let mut k2 = vec![0u8; i.ss_bytes];
        kem.decaps(key.expanded(), ct.as_slice(), &mut k2).unwrap();
        assert_eq!(
            k1.as_slice(),
            &k2[..],
            "{}: RustCrypto encapsulates, pqforge decapsulates",
            $name
        );
        let mut ct2 = vec![0u8; i.ct_bytes];
        kem.encaps(
            &mut rng,
            key.public_key().unwrap().as_bytes(),
            &mut ct2,
            &mut k2,
        )
        .unwrap();
        let ct2 = ml_kem::Ciphertext::<$rc>::try_from(&ct2[..]).unwrap();
        assert_eq!(
            dk.decapsulate(&ct2).as_slice(),
            &k2[..],
            "{}: pqforge encapsulates, RustCrypto decapsulates",
            $name
        );
        // RustCrypto -> pqforge.
        let (dk, ek) = <$rc>::generate_keypair_from_rng(&mut rng);
        let der = dk.to_pkcs8_der().unwrap();
        let pub_der = ek.to_public_key_der().unwrap();
        let key = PrivateKey::decode(der.as_bytes()).expect("pqforge reads RustCrypto's key");
        assert_eq!(key.algorithm(), alg);
        assert_eq!(
            &key.encode(Encoding::Der, None).unwrap()[..],
            der.as_bytes(),
            "re-encoded byte for byte"
        );
        let public = PublicKey::decode(pub_der.as_bytes()).unwrap();
        assert_eq!(key.public_key().unwrap(), public);
        let (ct, k1) = ek.encapsulate_with_rng(&mut rng);
        kem.decaps(key.expanded(), ct.as_slice(), &mut k2).unwrap();
        assert_eq!(k1.as_slice(), &k2[..]);
        // Implicit rejection: a modified ciphertext gives the same secret.
        let mut bad = ct.as_slice().to_vec();
        bad[5] ^= 1;
        kem.decaps(key.expanded(), &bad, &mut k2).unwrap();
        let bad = ml_kem::Ciphertext::<$rc>::try_from(&bad[..]).unwrap();
        assert_eq!(
            dk.decapsulate(&bad).as_slice(),
            &k2[..],
            "{}: the same rejection secret",
            $name
        );
    }};
}

#[test]
fn ml_kem_both_directions() {
    kem_case!("ml-kem-512", MlKem512);
    kem_case!("ml-kem-768", MlKem768);
    kem_case!("ml-kem-1024", MlKem1024);
}

fn sig_case<P: MlDsaParams>(name: &str)
where
    ml_dsa::SigningKey<P>: DecodePrivateKey + EncodePrivateKey,
    ml_dsa::VerifyingKey<P>: DecodePublicKey + EncodePublicKey,
{
    let mut rng = rand::rng();
    let alg: Algorithm = name.parse().unwrap();
    let sig = alg.sig().unwrap();
    let ctx = b"interop";
    let opts = SignOptions::new().with_context(ctx);
    let msg = b"a message signed on one side and verified on the other";
    // pqforge -> RustCrypto.
    let key = PrivateKey::generate(alg, &mut rng).unwrap();
    let der = key.encode(Encoding::Der, None).unwrap();
    let pub_der = key.public_key().unwrap().encode(Encoding::Der).unwrap();
    let sk = ml_dsa::SigningKey::<P>::from_pkcs8_der(&der).expect("RustCrypto reads pqforge's key");
    let vk = ml_dsa::VerifyingKey::<P>::from_public_key_der(&pub_der).expect("and its public key");
    assert_eq!(sk.to_pkcs8_der().unwrap().as_bytes(), &der[..]);
    assert_eq!(vk.to_public_key_der().unwrap().as_bytes(), &pub_der[..]);
    let s = sk.expanded_key().sign_deterministic(msg, ctx).unwrap();
    sig.verify(
        key.public_key().unwrap().as_bytes(),
        msg,
        &opts,
        s.encode().as_slice(),
    )
    .unwrap_or_else(|e| panic!("{name}: RustCrypto signs, pqforge verifies: {e}"));
    // Deterministic signatures agree byte for byte.
    let mut out = vec![0u8; sig.info().sig_bytes];
    let n = sig
        .sign(
            &mut rng,
            key.expanded(),
            msg,
            &opts.deterministic(),
            &mut out,
        )
        .unwrap();
    assert_eq!(
        &out[..n],
        s.encode().as_slice(),
        "{name}: the same deterministic signature"
    );
    let n = sig
        .sign(&mut rng, key.expanded(), msg, &opts, &mut out)
        .unwrap();
    let mine = ml_dsa::Signature::<P>::try_from(&out[..n]).unwrap();
    assert!(
        vk.verify_with_context(msg, ctx, &mine),
        "{name}: pqforge signs, RustCrypto verifies"
    );
    out[7] ^= 1;
    let flipped = ml_dsa::Signature::<P>::try_from(&out[..n]);
    assert!(flipped.is_err() || !vk.verify_with_context(msg, ctx, &flipped.unwrap()));
    assert!(
        sig.verify(key.public_key().unwrap().as_bytes(), msg, &opts, &out[..n])
            .is_err()
    );
    // RustCrypto -> pqforge.
    let sk = ml_dsa::SigningKey::<P>::generate_from_rng(&mut rng);
    let der = sk.to_pkcs8_der().unwrap();
    let key = PrivateKey::decode(der.as_bytes()).expect("pqforge reads RustCrypto's key");
    assert_eq!(
        &key.encode(Encoding::Der, None).unwrap()[..],
        der.as_bytes()
    );
    let public =
        PublicKey::decode(sk.verifying_key().to_public_key_der().unwrap().as_bytes()).unwrap();
    assert_eq!(key.public_key().unwrap(), public);
    let n = sig
        .sign(&mut rng, key.expanded(), msg, &opts, &mut out)
        .unwrap();
    let mine = ml_dsa::Signature::<P>::try_from(&out[..n]).unwrap();
    assert!(sk.verifying_key().verify_with_context(msg, ctx, &mine));
}

#[test]
fn ml_dsa_both_directions() {
    sig_case::<MlDsa44>("ml-dsa-44");
    sig_case::<MlDsa65>("ml-dsa-65");
    sig_case::<MlDsa87>("ml-dsa-87");
}
