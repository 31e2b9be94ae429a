//! Key parsing never panics and accepted inputs re-encode byte for byte:
//! PEM/DER key files (SPKI, PKCS#8 and pqforge's form for sets without an
//! OID) through `pqforge::keyfile`, and raw keys of every set through the
//! typed `TryFrom` (via `keyfile::*::from_raw`) and the dynamic API.
//!
//! Input: byte 0 picks public file / private file / raw key (and for raw
//! keys the algorithm); the rest is the file or key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqforge::keyfile::{Encoding, PrivateKey, PrivateKeyForm, PublicKey};
use pqforge::{Algorithm, Scheme};

fn public_file(data: &[u8]) {
    let Ok(k) = PublicKey::decode(data) else {
        return;
    };
    let der = k.encode(Encoding::Der).expect("a decoded key encodes");
    let pem = k.encode(Encoding::Pem).expect("a decoded key encodes");
    if data.first() == Some(&0x30) {
        assert_eq!(der, data, "accepted DER public key re-encodes differently");
    } else {
        // PEM: the canonical form (64 columns, LF) may differ in layout
        // from an accepted input; the key it holds may not.
        let back = PublicKey::decode(&pem).expect("own PEM decodes");
        assert_eq!(back.algorithm(), k.algorithm());
        assert_eq!(back.as_bytes(), k.as_bytes());
        if pem != data {
            assert!(
                data.starts_with(b"-----BEGIN"),
                "accepted a non-PEM, non-DER input"
            );
        }
    }
    assert_eq!(
        k.as_bytes(),
        PublicKey::from_raw(k.algorithm(), k.as_bytes())
            .expect("raw")
            .as_bytes()
    );
}

fn private_file(data: &[u8]) {
    let Ok(k) = PrivateKey::decode(data) else {
        return;
    };
    let forms = [
        PrivateKeyForm::Seed,
        PrivateKeyForm::Expanded,
        PrivateKeyForm::Both,
    ];
    let encodings: Vec<_> = forms
        .iter()
        .filter_map(|f| k.encode(Encoding::Der, Some(*f)).ok())
        .collect();
    assert!(
        !encodings.is_empty(),
        "a decoded private key encodes in no form"
    );
    if data.first() == Some(&0x30) {
        assert!(
            encodings.iter().any(|e| e.as_slice() == data),
            "accepted DER private key re-encodes differently in every form"
        );
    } else {
        let pem = k.encode(Encoding::Pem, None).expect("default form encodes");
        let back = PrivateKey::decode(&pem).expect("own PEM decodes");
        assert_eq!(back.algorithm(), k.algorithm());
    }
}

fn raw_key(sel: u8, data: &[u8]) {
    let algs: Vec<Algorithm> = Algorithm::all().collect();
    let alg = algs[usize::from(sel) % algs.len()];
    if let Ok(k) = PublicKey::from_raw(alg, data) {
        assert_eq!(k.as_bytes(), data, "raw public key changed");
    }
    if let Ok(k) = PrivateKey::from_raw(alg, data) {
        let raw = k.encode(Encoding::Raw, None).expect("raw encodes");
        let exp = k
            .encode(Encoding::Raw, Some(PrivateKeyForm::Expanded))
            .expect("expanded");
        assert!(
            raw.as_slice() == data || exp.as_slice() == data,
            "raw private key changed"
        );
    }
    match alg.scheme() {
        Scheme::Kem(k) => {
            if k.check_ek(data).is_ok() {
                assert!(k.prepare_ek(data).is_ok(), "checked ek does not prepare");
            }
            if k.check_dk(data).is_ok() {
                assert!(k.prepare_dk(data).is_ok(), "checked dk does not prepare");
            }
        }
        Scheme::Sig(s) => {
            if s.check_vk(data).is_ok() {
                assert!(s.prepare_vk(data).is_ok(), "checked vk does not prepare");
            }
            if s.check_sk(data).is_ok() {
                assert!(s.prepare_sk(data).is_ok(), "checked sk does not prepare");
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    match sel % 3 {
        0 => public_file(rest),
        1 => private_file(rest),
        _ => raw_key(sel / 3, rest),
    }
});
