//! Constant-time smoke check under valgrind memcheck (build with
//! `--features ctgrind`, run with `valgrind ./ct_check`): every secret input
//! is poisoned (key-generation seed, encapsulation seed, the whole
//! decapsulation key; also the public-key derivation from it), so memcheck reports any branch or memory index that
//! depends on it. Only the documented declassifications (the verdicts of
//! the key checks) are applied by the library.

use pqforge_core::ByteArray;
use pqforge_core::ctgrind::{declassify, poison};
use pqforge_ntru::{
    Ciphertext, DecapsKey, NtruHps2048509, NtruHps2048677, NtruHps4096821, NtruHps40961229,
    NtruHrss701, NtruHrss1373, ParameterSet,
};

fn run<K: ParameterSet>() {
    let mut seed = K::KeygenSeed::zeroed();
    for (i, x) in seed.as_mut().iter_mut().enumerate() {
        *x = (i as u8).wrapping_mul(91).wrapping_add(7);
    }
    poison(seed.as_mut());
    let (ek, dk) = K::keygen_derand(&seed);
    let mut m = K::EncapsSeed::zeroed();
    for (i, x) in m.as_mut().iter_mut().enumerate() {
        *x = (i as u8).wrapping_mul(37).wrapping_add(3);
    }
    poison(m.as_mut());
    let (ct, ss) = K::encaps_derand(&ek, &m).expect("NTRU defines deterministic encaps");
    let mut sk = dk.as_ref().to_vec();
    drop(dk);
    // The whole decapsulation key is secret; its import check runs on it.
    poison(&mut sk);
    let mut sk_arr = K::DkBytes::zeroed();
    sk_arr.as_mut().copy_from_slice(&sk);
    let mut derived = K::EkBytes::zeroed();
    K::derive_ek(&sk_arr, &mut derived).expect("derivable");
    declassify(derived.as_mut());
    // The public key is public, though computed from the poisoned seed.
    let mut ek_public = ek.as_ref().to_vec();
    declassify(&mut ek_public);
    assert_eq!(derived.as_ref(), ek_public.as_slice());
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
    run::<NtruHps2048509>();
    run::<NtruHps2048677>();
    run::<NtruHps4096821>();
    run::<NtruHps40961229>();
    run::<NtruHrss701>();
    run::<NtruHrss1373>();
}
