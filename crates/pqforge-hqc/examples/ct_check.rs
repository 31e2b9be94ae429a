//! Constant-time smoke check under valgrind memcheck (build with
//! `--features ctgrind`, run with `valgrind ./ct_check`): every secret input
//! is poisoned, so memcheck reports any branch or memory index that depends
//! on it. Only the documented declassifications are applied by the library.

use pqforge_core::Kem;
use pqforge_core::ctgrind::{declassify, poison};
use pqforge_hqc::{Hqc1, Hqc1V5, Hqc5, ParameterSet};

#[allow(clippy::type_complexity)] // the two derand entry points, as fn pointers
fn run<K: Kem + ParameterSet>(
    keygen: fn(&[u8; 32]) -> (K::EncapsKey, K::DecapsKey),
    encaps: fn(&K::EncapsKey, &[u8], &[u8; 16]) -> (K::Ciphertext, K::SharedSecret),
) {
    let mut seed = [0x42u8; 32];
    poison(&mut seed);
    let (ek, dk) = keygen(&seed);
    let mut m = [7u8; 32];
    let mut salt = [9u8; 16];
    poison(&mut m);
    poison(&mut salt);
    let (ct, ss) = encaps(&ek, &m[..K::K], &salt);
    let mut sk = dk.as_ref().to_vec();
    drop(dk);
    // The secret part of the key (after the embedded ek) is secret.
    poison(&mut sk[K::ENCAPS_KEY_BYTES..]);
    let dk = K::DecapsKey::try_from(sk.as_slice()).expect("valid key");
    let mut k1 = K::decaps(&dk, &ct).as_ref().to_vec();
    let mut bad = ct.as_ref().to_vec();
    bad[3] ^= 1;
    let bad = K::Ciphertext::try_from(bad.as_slice()).expect("len");
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
    run::<Hqc1>(Hqc1::keygen_derand, |ek, m, s| {
        Hqc1::encaps_derand(ek, m, s).expect("m")
    });
    run::<Hqc1V5>(Hqc1V5::keygen_derand, |ek, m, s| {
        Hqc1V5::encaps_derand(ek, m, s).expect("m")
    });
    run::<Hqc5>(Hqc5::keygen_derand, |ek, m, s| {
        Hqc5::encaps_derand(ek, m, s).expect("m")
    });
}
