//! Constant-time smoke check under valgrind memcheck (build with
//! `--features ctgrind`, run with `valgrind ./ct_check`): every secret input
//! is poisoned, so memcheck reports any branch or memory index that depends
//! on it. Only the documented declassifications are applied by the library.

use pqforge_core::ByteArray;
use pqforge_core::ctgrind::{declassify, poison};
use pqforge_hqc::{Ciphertext, DecapsKey, Hqc1, Hqc1V5, Hqc5, ParameterSet};

fn run<K: ParameterSet>() {
    let mut seed = [0x42u8; 32];
    poison(&mut seed);
    let (ek, dk) = K::keygen_derand(&seed);
    // m || salt: both secret until the ciphertext is out.
    let mut m_salt = K::EncapsSeed::zeroed();
    m_salt.as_mut()[..K::K].fill(7);
    m_salt.as_mut()[K::K..].fill(9);
    poison(m_salt.as_mut());
    let (ct, ss) = K::encaps_derand(&ek, &m_salt).expect("HQC defines deterministic encaps");
    let mut sk = dk.as_ref().to_vec();
    drop(dk);
    // The secret part of the key (after the embedded ek) is secret; the
    // import check (re-derivation from seed_kem) runs on it too.
    poison(&mut sk[K::ENCAPS_KEY_BYTES..]);
    let dk = DecapsKey::<K>::try_from(sk.as_slice()).expect("valid key");
    let mut k1 = K::decaps(&dk, &ct).as_ref().to_vec();
    let mut bad = ct.as_ref().to_vec();
    bad[3] ^= 1;
    let bad = Ciphertext::<K>::try_from(bad.as_slice()).expect("len");
    let mut k2 = K::decaps(&dk, &bad).as_ref().to_vec();
    let mut k0 = ss.as_ref().to_vec();
    declassify(&mut k0);
    declassify(&mut k1);
    declassify(&mut k2);
    assert_eq!(k0, k1);
    assert_ne!(k1, k2);
    println!("{}: ok", K::INFO.name);
}

fn main() {
    run::<Hqc1>();
    run::<Hqc1V5>();
    run::<Hqc5>();
}
