//! Signing with an expanded key gives exactly the signatures of dynamic
//! signing for the same nonce and sampler seed.

use pqforge_core::kat::KatSource;
use pqforge_core::{KatRng, Signature};
use pqforge_falcon::{Falcon512, Falcon1024, FalconPadded512};

#[test]
fn expanded_equals_dynamic_512() {
    let mut rng = KatSource::new(KatRng::NistDrbg, &[3u8; 48]);
    let (vk, sk) = Falcon512::keygen(&mut rng);
    let ek = Falcon512::expand(&sk).expect("expand");
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
        FalconPadded512::sign_kat_deterministic_from_seed(&sk, &msg, &nonce, &seed, &mut c)
            .expect("dyn");
        ek.sign_kat_deterministic_from_seed(&msg, &nonce, &seed, true, &mut d)
            .expect("tree");
        assert_eq!(c, d);
        FalconPadded512::verify(&vk, &msg, &d).expect("verify padded");
    }
    // Randomised expanded signing verifies.
    let mut sig = [0u8; 690];
    let l = ek.sign(b"hello", &mut rng, false, &mut sig).expect("sign");
    Falcon512::verify(&vk, b"hello", &sig[..l]).expect("verify");
}

#[test]
fn expanded_equals_dynamic_1024() {
    let mut rng = KatSource::new(KatRng::NistDrbg, &[4u8; 48]);
    let (vk, sk) = Falcon1024::keygen(&mut rng);
    let ek = Box::new(Falcon1024::expand(&sk).expect("expand"));
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
    }
}

#[test]
fn deterministic_keygen_matches_randomised() {
    let seed = [9u8; 48];
    let (vk1, sk1) = Falcon512::keygen_kat_deterministic_from_seed(&seed);
    // A generator that outputs exactly the seed.
    let mut rng = FixedRng(seed.to_vec(), 0);
    let (vk2, sk2) = Falcon512::keygen(&mut rng);
    assert_eq!(vk1, vk2);
    assert_eq!(sk1.as_ref(), sk2.as_ref());
}

struct FixedRng(Vec<u8>, usize);

impl rand_core::TryRng for FixedRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        unimplemented!()
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        unimplemented!()
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        dst.copy_from_slice(&self.0[self.1..self.1 + dst.len()]);
        self.1 += dst.len();
        Ok(())
    }
}

impl rand_core::TryCryptoRng for FixedRng {}
