//! Constant-time smoke check under valgrind memcheck (build with
//! `--features ctgrind`, run with `valgrind ./ct_check`): every secret input
//! is poisoned, so memcheck reports any branch or memory index that depends
//! on it. Only the documented declassifications are applied by the library
//! (the number of key-generation attempts at g, the public key, the
//! verdict of the secret-key check).

use pqforge_core::ByteArray;
use pqforge_core::ctgrind::{declassify, poison};
use pqforge_ntruprime::{
    Ciphertext, DecapsKey, Kem, ParameterSet, Sntrup653, Sntrup761, Sntrup1277,
};

fn run<K: Kem + ParameterSet>() {
    let mut seed = <K as Kem>::KeygenSeed::zeroed();
    seed.as_mut().fill(0x42);
    poison(seed.as_mut());
    let (ek, dk) = K::keygen_derand(&seed);
    // The p random words of encapsulation: secret.
    let mut words = <K as Kem>::EncapsSeed::zeroed();
    for (i, w) in words.as_mut().iter_mut().enumerate() {
        *w = (i as u8).wrapping_mul(73).wrapping_add(5);
    }
    poison(words.as_mut());
    let (ct, ss) = K::encaps_derand(&ek, &words).expect("deterministic encapsulation");
    let mut sk = dk.as_ref().to_vec();
    drop(dk);
    // f, 1/g mod 3 and rho are secret; pk and its hash are public. The
    // import check runs on the poisoned key too.
    let sb = K::SMALL_BYTES;
    poison(&mut sk[..2 * sb]);
    poison(&mut sk[2 * sb + K::PK_BYTES..3 * sb + K::PK_BYTES]);
    let dk = DecapsKey::<K>::try_from(sk.as_slice()).expect("valid key");
    let mut ct_pub = ct.as_ref().to_vec();
    declassify(&mut ct_pub);
    let ct = Ciphertext::<K>::try_from(ct_pub.as_slice()).expect("len");
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
    println!("{}: ok", K::NAME);
}

fn main() {
    run::<Sntrup653>();
    run::<Sntrup761>();
    run::<Sntrup1277>();
}
