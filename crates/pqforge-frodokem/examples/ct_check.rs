//! Constant-time smoke check under valgrind memcheck (build with
//! `--features ctgrind`, run with `valgrind ./ct_check`): the secret inputs
//! (key-generation seed, encapsulation randomness, the secret parts of the
//! decapsulation key) are poisoned, so memcheck reports any branch or
//! memory index that depends on them. Public values derived from secrets
//! (the keys' public parts, the ciphertexts) are declassified where a real
//! protocol would publish them.

use pqforge_core::ByteArray;
use pqforge_core::ctgrind::{declassify, poison};
use pqforge_frodokem::testing::{self, Backend};
use pqforge_frodokem::{
    Ciphertext, DecapsKey, EFrodoKem976Aes, EncapsKey, FrodoKem640Aes, FrodoKem640Shake, Kem,
    ParameterSet,
};

fn run<K: ParameterSet + Kem>() {
    let mut seed = K::KeygenSeed::zeroed();
    seed.as_mut().fill(0x42);
    poison(seed.as_mut());
    let (ek, dk) = K::keygen_derand(&seed);
    let mut ek_bytes = ek.as_ref().to_vec();
    declassify(&mut ek_bytes);
    let ek = EncapsKey::<K>::try_from(ek_bytes.as_slice()).expect("valid ek");
    let mut m = K::EncapsSeed::zeroed();
    m.as_mut().fill(7);
    poison(m.as_mut());
    let (ct, ss) = K::encaps_derand(&ek, &m).expect("deterministic encaps");
    let mut ct_bytes = ct.as_ref().to_vec();
    declassify(&mut ct_bytes);
    let ct = Ciphertext::<K>::try_from(ct_bytes.as_slice()).expect("len");
    // s and Sᵀ are secret; ek and pkh public.
    let mut sk = dk.as_ref().to_vec();
    drop(dk);
    declassify(&mut sk);
    poison(&mut sk[..K::LEN_SEC]);
    let st = K::LEN_SEC + K::EK_BYTES;
    poison(&mut sk[st..K::DK_BYTES - K::LEN_SEC]);
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

/// The same through every available backend (the testing entry points).
fn run_backends<K: ParameterSet + Kem>() {
    for b in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        let mut seed = vec![0x42u8; K::KEYGEN_SEED_BYTES];
        poison(&mut seed);
        let (mut ek, mut dk) = (vec![0u8; K::EK_BYTES], vec![0u8; K::DK_BYTES]);
        testing::keygen_derand::<K>(b, &seed, &mut ek, &mut dk).expect("available");
        declassify(&mut ek);
        declassify(&mut dk[K::LEN_SEC..K::LEN_SEC + K::EK_BYTES]);
        let n = K::DK_BYTES;
        declassify(&mut dk[n - K::LEN_SEC..]);
        let mut m = vec![7u8; K::ENCAPS_SEED_BYTES];
        poison(&mut m);
        let (mut ct, mut ss) = (vec![0u8; K::CT_BYTES], vec![0u8; K::LEN_SEC]);
        testing::encaps_derand::<K>(b, &ek, &m, &mut ct, &mut ss).expect("available");
        declassify(&mut ct);
        let mut ss2 = vec![0u8; K::LEN_SEC];
        testing::decaps::<K>(b, &dk, &ct, &mut ss2).expect("available");
        ct[5] ^= 1;
        let mut ss3 = vec![0u8; K::LEN_SEC];
        testing::decaps::<K>(b, &dk, &ct, &mut ss3).expect("available");
        declassify(&mut ss);
        declassify(&mut ss2);
        declassify(&mut ss3);
        assert_eq!(ss, ss2);
        assert_ne!(ss2, ss3);
        println!("{} on {}: ok", K::INFO.name, b.name());
    }
}

fn main() {
    println!("dispatch selects {}", Backend::selected().name());
    run_backends::<FrodoKem640Aes>();
    run_backends::<FrodoKem640Shake>();
    run::<FrodoKem640Aes>();
    run::<FrodoKem640Shake>();
    run::<EFrodoKem976Aes>();
}
