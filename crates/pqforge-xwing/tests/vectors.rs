//! The draft's test vectors (../shared/vectors/xwing/test-vectors.json,
//! draft-connolly-cfrg-xwing-kem-10): key generation from the seed,
//! derandomised encapsulation, decapsulation; then the API's behaviour on
//! tampered ciphertexts and invalid keys.
#![allow(clippy::unwrap_used)]

use pqforge_core::{Ciphertext, DecapsKey, EncapsKey, Kem};
use pqforge_xwing::XWing;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn draft_vectors() {
    let Some(dir) = pqforge_core::kat::data_dir() else {
        eprintln!("skipping: no test data (set PQFORGE_DATA)");
        return;
    };
    let text = std::fs::read_to_string(dir.join("vectors/xwing/test-vectors.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cases = v.as_array().unwrap();
    assert_eq!(cases.len(), 3, "the draft has three vectors");
    for (i, c) in cases.iter().enumerate() {
        let f = |k: &str| hex(c[k].as_str().unwrap());
        let seed: [u8; 32] = f("seed").try_into().unwrap();
        let (ek, dk) = XWing::keygen_derand(&seed);
        assert_eq!(ek.as_bytes().to_vec(), f("pk"), "vector {i}: pk");
        assert_eq!(dk.as_bytes().to_vec(), f("sk"), "vector {i}: sk");
        let eseed: [u8; 64] = f("eseed").try_into().unwrap();
        let (ct, ss) = XWing::encaps_derand(&ek, &eseed).unwrap();
        assert_eq!(ct.as_bytes().to_vec(), f("ct"), "vector {i}: ct");
        assert_eq!(ss.as_bytes().to_vec(), f("ss"), "vector {i}: ss");
        // Decapsulation from the vector's bytes (keys and ciphertext
        // parsed, as a peer would send them).
        let dk2 = DecapsKey::<XWing>::try_from(&f("sk")[..]).unwrap();
        let ct2 = Ciphertext::<XWing>::try_from(&f("ct")[..]).unwrap();
        assert_eq!(
            XWing::decaps(&dk2, &ct2).as_bytes().to_vec(),
            f("ss"),
            "vector {i}: decaps"
        );
        let ek2 = EncapsKey::<XWing>::try_from(&f("pk")[..]).unwrap();
        assert_eq!(ek2.as_bytes(), ek.as_bytes());
    }
}

#[test]
fn tampering_and_bad_keys() {
    let (ek, dk) = XWing::keygen_derand(&[3; 32]);
    let (ct, ss) = XWing::encaps_derand(&ek, &[4; 64]).unwrap();
    // Either half of the ciphertext changes the shared secret (ML-KEM's
    // implicit rejection, X25519's different point); no panic.
    for pos in [0, 1087, 1088, 1119] {
        let mut b = *ct.as_bytes();
        b[pos] ^= 1;
        let bad = Ciphertext::<XWing>::try_from(&b[..]).unwrap();
        assert_ne!(
            XWing::decaps(&dk, &bad).as_bytes(),
            ss.as_bytes(),
            "byte {pos}"
        );
    }
    // An ML-KEM part with a coefficient >= q is refused; X25519 accepts any
    // 32 bytes.
    let mut b = *ek.as_bytes();
    b[0] = 0xFF;
    b[1] |= 0x0F;
    assert!(EncapsKey::<XWing>::try_from(&b[..]).is_err());
    let mut b = *ek.as_bytes();
    b[1200] ^= 0xFF;
    assert!(EncapsKey::<XWing>::try_from(&b[..]).is_ok());
    // Wrong lengths are errors.
    assert!(EncapsKey::<XWing>::try_from(&ek.as_bytes()[..1215]).is_err());
    assert!(DecapsKey::<XWing>::try_from(&[0u8; 31][..]).is_err());
    assert!(Ciphertext::<XWing>::try_from(&[0u8; 1121][..]).is_err());
}
