//! The draft's X.509 example key pair (../shared/vectors/xwing/x509):
//! PKCS#8 holding the raw 32-byte seed, SPKI holding the 1216-byte key,
//! OID 1.3.6.1.4.1.62253.25722; read, checked against each other, and
//! written back byte for byte.
#![cfg(all(feature = "xwing", feature = "pkcs8"))]

use pqforge::keyfile::{Encoding, PrivateKey, PublicKey};

#[test]
fn draft_x509_example_keys() {
    let Some(dir) = pqforge_core::kat::data_dir() else {
        eprintln!("skipping: no test data (set PQFORGE_DATA)");
        return;
    };
    let priv_pem = std::fs::read(dir.join("vectors/xwing/x509/xwing.priv")).unwrap();
    let pub_pem = std::fs::read(dir.join("vectors/xwing/x509/xwing.pub")).unwrap();
    let sk = PrivateKey::decode(&priv_pem).unwrap();
    let pk = PublicKey::decode(&pub_pem).unwrap();
    assert_eq!(sk.algorithm().name(), "x-wing");
    assert_eq!(pk.algorithm().name(), "x-wing");
    // The seed 00..1f, and the public key derived from it.
    assert_eq!(sk.expanded(), (0u8..32).collect::<Vec<_>>());
    assert_eq!(sk.public_key().unwrap().as_bytes(), pk.as_bytes());
    assert_eq!(pk.encode(Encoding::Pem).unwrap(), pub_pem);
    assert_eq!(*sk.encode(Encoding::Pem, None).unwrap(), priv_pem);
}
