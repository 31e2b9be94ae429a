//! Zeroization: the memory of a dropped secret reads back zero, for every
//! secret type of every family (decapsulation and signing keys with their
//! prepared states and seeds, shared secrets, Falcon's expanded keys, the
//! hash and XOF states that absorb secrets).
//!
//! Each value is built in a heap slot that outlives it, checked to hold
//! nonzero bytes (so that the check can fail), dropped in place, and its
//! bytes are read back: all zero, except at most `align_of::<T>() - 1`
//! bytes of struct padding, which no write of a field reaches (Falcon-512's
//! `SigningKey` is 5299 bytes of fields in 5300; whatever the padding held
//! was copied there with the value, never a field's secret). Heap buffers owned by a value (the key-file
//! `PrivateKey`'s `Zeroizing<Vec<u8>>`) are freed by the drop and cannot
//! be read back this way; they rely on `zeroize`'s own guarantee.
#![allow(unsafe_code)]

use std::mem::{MaybeUninit, size_of};

use pqforge::{Kem, SignatureScheme};

/// Moves `v` into a heap slot, drops it there and asserts that every byte
/// of its storage is zero afterwards (and was not before).
fn wiped_on_drop<T>(what: &str, v: T) {
    let mut slot: Box<MaybeUninit<T>> = Box::new(MaybeUninit::uninit());
    slot.write(v);
    let p = slot.as_mut_ptr();
    let bytes = |p: *const T| {
        // SAFETY: `p` points to `size_of::<T>()` bytes of the live heap slot
        // (allocated until `slot` is dropped at the end of this function);
        // the types checked here are arrays of integers, floats and
        // `Option`s of them, written in full by their constructors and by
        // their zeroizing drops.
        unsafe { std::slice::from_raw_parts(p.cast::<u8>(), size_of::<T>()) }.to_vec()
    };
    let before = bytes(p);
    assert!(
        before.iter().any(|&b| b != 0),
        "{what}: all zero before the drop (the check could not fail)"
    );
    // SAFETY: the slot holds an initialised `T`, dropped exactly once here
    // and never used as a `T` again (`MaybeUninit` does not drop it).
    unsafe { std::ptr::drop_in_place(p) };
    let after = bytes(p);
    let left: Vec<usize> = (0..after.len()).filter(|&i| after[i] != 0).collect();
    assert!(
        left.len() < std::mem::align_of::<T>(),
        "{what}: {} of {} bytes nonzero after the drop (first at offset {})",
        left.len(),
        after.len(),
        left.first().copied().unwrap_or(0)
    );
}

fn rng() -> rand::rngs::StdRng {
    rand::SeedableRng::seed_from_u64(0x5eed)
}

fn kem<P: Kem>() {
    let mut r = rng();
    let (ek, dk) = P::keygen(&mut r);
    let (ct, ss) = P::encaps(&ek, &mut r);
    let name = P::INFO.name;
    wiped_on_drop(&format!("{name} SharedSecret"), ss);
    wiped_on_drop(
        &format!("{name} decapsulated SharedSecret"),
        P::decaps(&dk, &ct),
    );
    // The key parsed from bytes (no seed) and the generated one (seed kept
    // where the set has a seed form).
    let parsed = pqforge::DecapsKey::<P>::try_from(dk.as_ref()).expect("valid key");
    wiped_on_drop(&format!("{name} DecapsKey (parsed)"), parsed);
    wiped_on_drop(&format!("{name} DecapsKey (generated)"), dk);
}

fn sig<P: SignatureScheme>() {
    let mut r = rng();
    let (_, sk) = P::keygen(&mut r);
    let name = P::INFO.name;
    let parsed = pqforge::SigningKey::<P>::try_from(sk.as_ref()).expect("valid key");
    wiped_on_drop(&format!("{name} SigningKey (parsed)"), parsed);
    wiped_on_drop(&format!("{name} SigningKey (generated)"), sk);
}

#[test]
fn hqc() {
    use pqforge::hqc::*;
    kem::<Hqc1>();
    kem::<Hqc3>();
    kem::<Hqc5>();
    kem::<Hqc1V5>();
    kem::<Hqc3V5>();
    kem::<Hqc5V5>();
}

#[test]
fn mlkem() {
    use pqforge::mlkem::*;
    kem::<MlKem512>();
    kem::<MlKem768>();
    kem::<MlKem1024>();
}

/// The m = 12 and m = 13 sets (the others share the key types' code; their
/// keys take seconds to generate).
#[test]
fn mceliece() {
    use pqforge::mceliece::*;
    // Big public keys: a thread with room for them.
    std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(|| {
            kem::<McEliece348864>();
            kem::<McEliece348864f>();
            kem::<McEliece460896>();
        })
        .expect("thread")
        .join()
        .expect("no panic");
}

#[test]
fn falcon() {
    use pqforge::falcon::*;
    sig::<Falcon512>();
    sig::<Falcon1024>();
    sig::<FalconPadded512>();
    sig::<FalconPadded1024>();
    let mut r = rng();
    let (_, sk) = Falcon512::keygen(&mut r);
    wiped_on_drop("Falcon-512 ExpandedSigningKey", Falcon512::expand(&sk));
    let (_, sk) = Falcon1024::keygen(&mut r);
    wiped_on_drop("Falcon-1024 ExpandedSigningKey", Falcon1024::expand(&sk));
}

#[cfg(feature = "fndsa")]
#[test]
fn fndsa() {
    use pqforge::falcon::*;
    sig::<FnDsa512>();
    sig::<FnDsa1024>();
}

#[test]
fn mldsa() {
    use pqforge::mldsa::*;
    sig::<MlDsa44>();
    sig::<MlDsa65>();
    sig::<MlDsa87>();
}

#[test]
fn slhdsa() {
    use pqforge::slhdsa::*;
    sig::<SlhDsaSha2_128f>();
    sig::<SlhDsaSha2_192f>();
    sig::<SlhDsaSha2_256f>();
    sig::<SlhDsaShake128f>();
    sig::<SlhDsaShake192f>();
    sig::<SlhDsaShake256f>();
}

/// Hash and XOF states absorb secrets (seeds, keys, messages of a
/// decapsulation): wiped on drop.
#[test]
fn hash_states() {
    let mut x = pqforge::keccak::Shake256::new();
    x.absorb(b"secret seed material");
    wiped_on_drop("Shake256", x);
    let mut x = pqforge::keccak::Shake128::new();
    x.absorb(b"secret seed material");
    wiped_on_drop("Shake128", x);
}

#[test]
fn frodokem() {
    use pqforge::frodokem::*;
    // Decapsulation keys of up to 43 KB, moved by value: room for them.
    std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(|| {
            kem::<FrodoKem640Aes>();
            kem::<FrodoKem976Shake>();
            kem::<FrodoKem1344Aes>();
            kem::<EFrodoKem640Shake>();
        })
        .expect("thread")
        .join()
        .expect("no panic");
}

#[test]
fn ntru() {
    use pqforge::ntru::*;
    kem::<NtruHps2048509>();
    kem::<NtruHps4096821>();
    kem::<NtruHrss701>();
    kem::<NtruHrss1373>();
}

#[test]
fn ntruprime() {
    use pqforge::ntruprime::*;
    kem::<Sntrup653>();
    kem::<Sntrup761>();
    kem::<Sntrup1277>();
}

#[test]
fn xwing() {
    kem::<pqforge::xwing::XWing>();
}
