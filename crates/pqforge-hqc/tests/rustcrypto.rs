//! The RustCrypto `kem` traits, generated in core for every KEM (feature
//! `rustcrypto`): `pqforge_core::rustcrypto::RcKem<Hqc1>` round-trips.
#![cfg(feature = "rustcrypto")]

use pqforge_core::rustcrypto::RcKem;
use pqforge_core::rustcrypto::kem::common::KeyExport;
use pqforge_core::rustcrypto::kem::{Decapsulate, Decapsulator, Encapsulate, Kem as _};
use pqforge_core::testing::TestRng;
use pqforge_hqc::{Hqc1, Kem};

#[test]
fn rc_kem_hqc1_roundtrip() {
    let mut rng = TestRng::new(9);
    let (dk, ek) = RcKem::<Hqc1>::generate_keypair_from_rng(&mut rng);
    assert_eq!(ek.to_bytes().len(), Hqc1::INFO.pk_bytes);
    assert_eq!(dk.encapsulation_key(), &ek);
    let (ct, k1) = ek.encapsulate_with_rng(&mut rng);
    assert_eq!(ct.len(), Hqc1::INFO.ct_bytes);
    assert_eq!(dk.decapsulate(&ct), k1);
    let mut bad = ct;
    bad[0] ^= 1;
    assert_ne!(dk.decapsulate(&bad), k1);
}
