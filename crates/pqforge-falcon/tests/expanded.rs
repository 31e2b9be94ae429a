//! Signing with an expanded key gives exactly the signatures of the
//! decoded (prepared) key for the same nonce and sampler seed, and the
//! deterministic helpers agree with the randomised contract.

use crate::common;

use common::FixedRng;
use pqforge_core::kat::KatSource;
use pqforge_core::{KatRng, SignatureScheme, SigningKey, VerifyingKey};
use pqforge_falcon::{Falcon512, Falcon1024, FalconPadded512, FalconPadded1024};

#[test]
fn expanded_equals_dynamic_512() {
    let mut rng = KatSource::new(KatRng::NistDrbg, &[3u8; 48]);
    let (vk, sk) = Falcon512::keygen(&mut rng);
    let ek = Falcon512::expand(&sk);
    // The same key bytes as a padded-set key.
    let skp = SigningKey::<FalconPadded512>::try_from(sk.as_ref()).expect("padded sk");
    let vkp = VerifyingKey::<FalconPadded512>::try_from(vk.as_ref()).expect("padded vk");
    assert_eq!(skp.verifying_key(), &vkp);
    let ekp = FalconPadded512::expand(&skp);
    for i in 0..20u8 {
        let nonce = [i; 40];
        let seed = [i.wrapping_mul(7); 48];
        let msg = vec![i; usize::from(i) * 13];
        let mut a = [0u8; 690];
        let mut b = [0u8; 690];
        let la = Falcon512::sign_kat_deterministic_from_seed(&sk, &msg, &nonce, &seed, &mut a)
            .expect("dyn");
        let lb = ek
            .sign_kat_deterministic_from_seed(&msg, &nonce, &seed, false, &mut b)
            .expect("tree");
        assert_eq!(&a[..la], &b[..lb], "signature {i}");
        Falcon512::verify(&vk, &msg, &b[..lb]).expect("verify");
        // Padded variant.
        let mut c = [0u8; 666];
        let mut d = [0u8; 666];
        let mut e = [0u8; 666];
        FalconPadded512::sign_kat_deterministic_from_seed(&skp, &msg, &nonce, &seed, &mut c)
            .expect("dyn");
        ek.sign_kat_deterministic_from_seed(&msg, &nonce, &seed, true, &mut d)
            .expect("tree");
        ekp.sign_kat_deterministic_from_seed(&msg, &nonce, &seed, true, &mut e)
            .expect("tree");
        assert_eq!(c, d);
        assert_eq!(c, e);
        FalconPadded512::verify(&vkp, &msg, &d).expect("verify padded");
        // The contract's signing draws the nonce, then the seed: the same
        // bytes through a replaying generator.
        let mut r = FixedRng::new(&[&nonce[..], &seed[..]].concat());
        let s = Falcon512::sign(&sk, &msg, &mut r).expect("sign");
        assert!(r.exhausted());
        assert_eq!(s.as_bytes(), &a[..la]);
        let mut r = FixedRng::new(&[&nonce[..], &seed[..]].concat());
        let s = FalconPadded512::sign(&skp, &msg, &mut r).expect("sign");
        assert_eq!(s.as_bytes(), &c[..]);
    }
    // Randomised expanded signing verifies.
    let mut sig = [0u8; 690];
    let l = ek.sign(b"hello", &mut rng, false, &mut sig).expect("sign");
    Falcon512::verify(&vk, b"hello", &sig[..l]).expect("verify");
    // Short buffers are errors, not panics.
    assert!(ek.sign(b"hello", &mut rng, false, &mut sig[..687]).is_err());
    assert!(ek.sign(b"hello", &mut rng, true, &mut sig[..665]).is_err());
    assert!(
        Falcon512::sign_kat_deterministic_from_seed(&sk, b"m", &[0; 40], &[0; 48], &mut sig[..689])
            .is_err()
    );
}

#[test]
fn expanded_equals_dynamic_1024() {
    let mut rng = KatSource::new(KatRng::NistDrbg, &[4u8; 48]);
    let (vk, sk) = Falcon1024::keygen(&mut rng);
    let ek = Box::new(Falcon1024::expand(&sk));
    let skp = SigningKey::<FalconPadded1024>::try_from(sk.as_ref()).expect("padded sk");
    for i in 0..8u8 {
        let nonce = [i ^ 0x55; 40];
        let seed = [i; 48];
        let mut a = [0u8; 1330];
        let mut b = [0u8; 1330];
        let la = Falcon1024::sign_kat_deterministic_from_seed(&sk, b"m", &nonce, &seed, &mut a)
            .expect("dyn");
        let lb = ek
            .sign_kat_deterministic_from_seed(b"m", &nonce, &seed, false, &mut b)
            .expect("tree");
        assert_eq!(&a[..la], &b[..lb], "signature {i}");
        Falcon1024::verify(&vk, b"m", &b[..lb]).expect("verify");
        let mut c = [0u8; 1280];
        let mut d = [0u8; 1280];
        FalconPadded1024::sign_kat_deterministic_from_seed(&skp, b"m", &nonce, &seed, &mut c)
            .expect("dyn");
        ek.sign_kat_deterministic_from_seed(b"m", &nonce, &seed, true, &mut d)
            .expect("tree");
        assert_eq!(c, d);
        assert_eq!(&c[..la], &a[..la]);
    }
}

#[test]
fn deterministic_keygen_matches_randomised() {
    let seed = [9u8; 48];
    let (vk1, sk1) = Falcon512::keygen_kat_deterministic_from_seed(&seed);
    // A generator that outputs exactly the seed: keygen draws it in one go.
    let mut rng = FixedRng::new(&seed);
    let (vk2, sk2) = Falcon512::keygen(&mut rng);
    assert!(rng.exhausted());
    assert_eq!(vk1, vk2);
    assert_eq!(sk1.as_ref(), sk2.as_ref());
    let (vk3, sk3) = Falcon512::keygen_derand(&seed);
    assert_eq!(vk1, vk3);
    assert_eq!(sk1.as_ref(), sk3.as_ref());
    // The seed is not a private-key form of round-3 Falcon.
    assert!(sk3.seed().is_none());
    assert!(SigningKey::<Falcon512>::from_seed(&seed).is_err());
}
