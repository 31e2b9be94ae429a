//! Bad inputs (SECURITY-TESTING.md §5): wrong lengths are rejected before
//! any work, every correctly sized ciphertext decapsulates (invalid ones
//! to the rejection key SHAKE256(0 || s || C)), 6960119 padding bits,
//! deterministic encapsulation refused; the typed API and the RustCrypto
//! traits on mceliece348864 (in a thread with a large stack: the typed
//! keys hold the 261 KB public key).
//!
//! The keys of the larger sets go through the dynamic API on heap
//! buffers, which borrows them (the typed keys would be megabyte-sized
//! values on the test thread's stack).

use pqforge_core::kat::KatSource;
use pqforge_core::keccak::Shake256;
use pqforge_core::testing::TestRng;
use pqforge_core::{Error, KatRng, KemAlg, Kind, Scheme, Status};
use pqforge_mceliece::*;

fn rejection_key<P: ParameterSet>(sk: &[u8], ct: &[u8]) -> [u8; 32] {
    let mut h = Shake256::new();
    h.absorb(&[0]);
    h.absorb(&sk[P::SK_BYTES - P::N / 8..]);
    h.absorb(ct);
    let mut k = [0u8; 32];
    h.squeeze(&mut k);
    k
}

struct Keys {
    pk: Vec<u8>,
    sk: Vec<u8>,
    ct: Vec<u8>,
    ss: [u8; 32],
}

fn setup<P: ParameterSet>(seed: u8) -> Keys {
    let kem = KemAlg::<P>::DYN;
    let mut rng = KatSource::new(KatRng::NistDrbg, &[seed; 48]);
    let mut pk = vec![0u8; P::PK_BYTES];
    let mut sk = vec![0u8; P::SK_BYTES];
    kem.keygen(&mut rng, &mut pk, &mut sk).expect("keygen");
    let mut ct = vec![0u8; P::CT_BYTES];
    let mut ss = [0u8; 32];
    kem.encaps(&mut rng, &pk, &mut ct, &mut ss).expect("encaps");
    Keys { pk, sk, ct, ss }
}

fn is_length<T>(r: Result<T, Error>) -> bool {
    matches!(r.err(), Some(Error::Length { .. }))
}

fn lengths<P: ParameterSet>(k: &Keys) {
    let kem = KemAlg::<P>::DYN;
    let mut rng = KatSource::new(KatRng::NistDrbg, &[9; 48]);
    let mut ss = [0u8; 32];
    for delta in [1usize, 2 * P::PK_BYTES] {
        // Wrong sizes fail at once (no work on a 0-byte or oversize buffer).
        let mut pk = vec![0u8; P::PK_BYTES + delta];
        let mut sk = vec![0u8; P::SK_BYTES];
        assert!(is_length(kem.keygen(&mut rng, &mut pk, &mut sk)));
        assert!(is_length(kem.keygen(&mut rng, &mut [], &mut sk)));
        assert!(is_length(kem.keygen_derand(&[7; 32], &mut pk, &mut sk)));
        let mut pk = vec![0u8; P::PK_BYTES];
        let mut sk = vec![0u8; P::SK_BYTES + delta];
        assert!(is_length(kem.keygen(&mut rng, &mut pk, &mut sk)));
        assert!(is_length(kem.keygen_derand(&[7; 32], &mut pk, &mut sk)));
        let mut ct = vec![0u8; P::CT_BYTES];
        assert!(is_length(kem.encaps(
            &mut rng,
            &k.pk[1..],
            &mut ct,
            &mut ss
        )));
        assert!(is_length(kem.check_ek(&k.pk[1..])));
        assert!(is_length(pqforge_core::kem::prepare_ek::<P>(&k.pk[1..])));
        let mut ct1 = vec![0u8; P::CT_BYTES + 1];
        assert!(is_length(kem.encaps(&mut rng, &k.pk, &mut ct1, &mut ss)));
        assert!(is_length(kem.decaps(&k.sk[1..], &k.ct, &mut ss)));
        assert!(is_length(kem.check_dk(&k.sk[1..])));
        assert!(is_length(kem.decaps(&k.sk, &k.ct[1..], &mut ss)));
        assert!(is_length(kem.decaps(&k.sk, &ct1, &mut ss)));
        assert!(is_length(kem.decaps(&k.sk, &[], &mut ss)));
        assert!(is_length(Ciphertext::<P>::try_from(&ct1[..])));
    }
    assert!(is_length(kem.keygen_derand(
        &[7; 31],
        &mut vec![0; P::PK_BYTES],
        &mut vec![0; P::SK_BYTES]
    )));
    let mut ss31 = [0u8; 31];
    assert!(is_length(kem.decaps(&k.sk, &k.ct, &mut ss31)));
    let mut ct = vec![0u8; P::CT_BYTES];
    assert!(is_length(kem.encaps(&mut rng, &k.pk, &mut ct, &mut ss31)));
    kem.check_ek(&k.pk).expect("valid public key");
    kem.check_dk(&k.sk).expect("valid secret key");
    // No deterministic encapsulation in the standard: refused, never
    // emulated.
    assert!(matches!(
        kem.encaps_derand(&k.pk, &[], &mut ct, &mut ss),
        Err(Error::Unsupported { .. })
    ));
}

fn rejections<P: ParameterSet>(k: &Keys, flip_all: bool) {
    let kem = KemAlg::<P>::DYN;
    let mut ss = [0u8; 32];
    kem.decaps(&k.sk, &k.ct, &mut ss).expect("decaps");
    assert_eq!(ss, k.ss);
    let mut fills = vec![vec![0u8; P::CT_BYTES], vec![0xFF; P::CT_BYTES]];
    let mut rng = TestRng::new(0x1234_5678);
    for _ in 0..4 {
        let mut ct = vec![0u8; P::CT_BYTES];
        rng.fill(&mut ct);
        fills.push(ct);
    }
    for ct in &fills {
        kem.decaps(&k.sk, ct, &mut ss).expect("decaps");
        assert_eq!(ss, rejection_key::<P>(&k.sk, ct), "{}", P::NAME);
    }
    let bits = 8 * P::CT_BYTES;
    let step = if flip_all { 1 } else { 7 };
    for bit in (0..bits).step_by(step) {
        let mut ct = k.ct.clone();
        ct[bit / 8] ^= 1 << (bit % 8);
        kem.decaps(&k.sk, &ct, &mut ss).expect("decaps");
        assert_eq!(ss, rejection_key::<P>(&k.sk, &ct), "{} bit {bit}", P::NAME);
    }
}

#[test]
fn mceliece348864() {
    let k = setup::<McEliece348864>(1);
    lengths::<McEliece348864>(&k);
    rejections::<McEliece348864>(&k, true);
}

#[test]
fn mceliece348864pcf() {
    let k = setup::<McEliece348864pcf>(2);
    lengths::<McEliece348864pcf>(&k);
    rejections::<McEliece348864pcf>(&k, true);
}

#[test]
fn mceliece6960119_padding() {
    type P = McEliece6960119;
    let kem = KemAlg::<P>::DYN;
    let mut k = setup::<P>(3);
    lengths::<P>(&k);
    rejections::<P>(&k, false);
    // C0 padding bits set: rejection key.
    let mut ct = k.ct.clone();
    ct[P::SYND_BYTES - 1] |= 0x80;
    let mut ss = [0u8; 32];
    kem.decaps(&k.sk, &ct, &mut ss).expect("decaps");
    assert_eq!(ss, rejection_key::<P>(&k.sk, &ct));
    // Public-key padding bits set: the key is refused (encapsulation,
    // the key check, parsing).
    let mut rng = KatSource::new(KatRng::NistDrbg, &[4; 48]);
    k.pk[5 * P::ROW_BYTES + P::ROW_BYTES - 1] |= 0x40;
    let r = kem.encaps(&mut rng, &k.pk, &mut ct, &mut ss);
    assert!(matches!(r, Err(Error::Encoding(_))));
    assert!(matches!(kem.check_ek(&k.pk), Err(Error::Encoding(_))));
    assert!(matches!(
        pqforge_core::kem::prepare_ek::<P>(&k.pk),
        Err(Error::Encoding(_))
    ));
}

/// The registry sizes are the code's sizes.
fn sizes<P: ParameterSet>() {
    let i = P::INFO;
    assert_eq!(i.name, P::NAME);
    assert_eq!(
        (i.pk_bytes, i.sk_bytes, i.ct_bytes, i.ss_bytes),
        (P::PK_BYTES, P::SK_BYTES, P::CT_BYTES, P::SS_BYTES)
    );
}

#[test]
fn registry_metadata() {
    let names = [
        "mceliece348864",
        "mceliece348864f",
        "mceliece460896",
        "mceliece460896f",
        "mceliece6688128",
        "mceliece6688128f",
        "mceliece6960119",
        "mceliece6960119f",
        "mceliece8192128",
        "mceliece8192128f",
        "mceliece348864pc",
        "mceliece348864pcf",
        "mceliece460896pc",
        "mceliece460896pcf",
        "mceliece6688128pc",
        "mceliece6688128pcf",
        "mceliece6960119pc",
        "mceliece6960119pcf",
        "mceliece8192128pc",
        "mceliece8192128pcf",
    ];
    for (s, name) in SCHEMES.iter().zip(names) {
        let Scheme::Kem(k) = s else {
            panic!("{name}: not a KEM")
        };
        let i = k.info();
        assert_eq!(i.name, name);
        assert_eq!(i.family, "Classic McEliece");
        assert_eq!(i.kind, Kind::Kem);
        assert_eq!(i.status, Status::AtRisk);
        assert_eq!(i.kat, KatRng::NistDrbg);
        assert_eq!(i.kat_header, format!("# kem/{}", i.name));
        assert_eq!(i.ss_bytes, 32);
        assert_eq!(i.sig_bytes, 0);
        assert_eq!(i.c_stem, name);
        assert_eq!(i.feature, "mceliece");
        assert_eq!(i.key_forms, pqforge_core::KeyForms::EXPANDED);
        assert_eq!((i.keygen_seed_bytes, i.encaps_seed_bytes), (32, 0));
        assert_eq!(i.oid, None);
        assert!(k.dk_public_ranges().is_empty());
        let cat = if i.name.starts_with("mceliece348864") {
            1
        } else if i.name.starts_with("mceliece460896") {
            3
        } else {
            5
        };
        assert_eq!(i.category, cat, "{}", i.name);
        assert_eq!(i.name.contains("pc"), i.revision.contains("provisional"));
        assert!(i.matches(&name.to_uppercase()));
    }
    sizes::<McEliece348864>();
    sizes::<McEliece460896pcf>();
    sizes::<McEliece6960119f>();
    sizes::<McEliece8192128pc>();
}

/// Runs `f` on a thread with a 32 MB stack (the typed keys are values).
fn big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(32 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("typed API thread");
}

#[test]
fn typed_api_348864() {
    big_stack(|| {
        type P = McEliece348864;
        let mut rng = TestRng::new(11);
        let (ek, dk) = P::keygen(&mut rng);
        let (ct, k1) = P::encaps(&ek, &mut rng);
        assert_eq!(P::decaps(&dk, &ct), k1);
        // The same draws give the same bytes as the dynamic API.
        let mut r2 = TestRng::new(11);
        let kem = KemAlg::<P>::DYN;
        let (mut pk, mut sk) = (vec![0u8; P::PK_BYTES], vec![0u8; P::SK_BYTES]);
        kem.keygen(&mut r2, &mut pk, &mut sk).expect("keygen");
        assert!(ek.as_ref() == &pk[..] && dk.as_ref() == &sk[..]);
        let (mut ct2, mut k2) = (vec![0u8; P::CT_BYTES], [0u8; 32]);
        kem.encaps(&mut r2, &pk, &mut ct2, &mut k2).expect("encaps");
        assert!(ct.as_ref() == &ct2[..] && k1.as_ref() == &k2[..]);
        // Bytes round trip through parsing.
        let ek2 = EncapsKey::<P>::try_from(&pk[..]).expect("public key");
        let dk2 = DecapsKey::<P>::try_from(&sk[..]).expect("secret key");
        let ct3 = Ciphertext::<P>::try_from(&ct2[..]).expect("ciphertext");
        assert!(ek2 == ek);
        assert_eq!(P::decaps(&dk2, &ct3), k1);
        // Deterministic key generation from delta; no seed form, no
        // embedded public key, no deterministic encapsulation.
        let (ek3, dk3) = P::keygen_derand(&[5; 32]);
        let (mut pk3, mut sk3) = (vec![0u8; P::PK_BYTES], vec![0u8; P::SK_BYTES]);
        kem.keygen_derand(&[5; 32], &mut pk3, &mut sk3)
            .expect("keygen_derand");
        assert!(ek3.as_ref() == &pk3[..] && dk3.as_ref() == &sk3[..]);
        assert!(dk3.seed().is_none() && dk3.encaps_key().is_none());
        assert!(matches!(
            DecapsKey::<P>::from_seed(&[5; 32]),
            Err(Error::Unsupported { .. })
        ));
        assert!(matches!(
            P::encaps_derand(&ek3, &[]),
            Err(Error::Unsupported { .. })
        ));
        // A tampered ciphertext: the rejection key.
        let mut bad = *ct.as_bytes();
        bad[0] ^= 1;
        assert_eq!(
            P::decaps(&dk, &Ciphertext::from_bytes(bad)).as_ref(),
            &rejection_key::<P>(&sk, &bad)[..]
        );
        assert!(is_length(EncapsKey::<P>::try_from(&pk[1..])));
        assert!(is_length(DecapsKey::<P>::try_from(&sk[1..])));
    });
}

#[test]
fn rustcrypto_348864() {
    big_stack(|| {
        use pqforge_core::rustcrypto::kem::{Decapsulate, Decapsulator, Encapsulate, Kem as _};
        use pqforge_core::rustcrypto::{RcDecapsKey, RcKem};
        type P = McEliece348864;
        let mut rng = TestRng::new(12);
        let (dk, ek) = RcKem::<P>::generate_keypair_from_rng(&mut rng);
        assert!(dk.encapsulation_key() == &ek);
        let (ct, k1) = ek.encapsulate_with_rng(&mut rng);
        assert_eq!(ct.len(), P::CT_BYTES);
        assert_eq!(dk.decapsulate(&ct), k1);
        // The same draws as the typed API.
        let mut r2 = TestRng::new(12);
        let (ek2, dk2) = P::keygen(&mut r2);
        assert!(ek2 == ek);
        let (ct2, k2) = P::encaps(&ek2, &mut r2);
        assert!(ct2.as_ref() == ct.as_slice() && k2.as_ref() == k1.as_slice());
        assert_eq!(P::decaps(dk.inner(), &ct2), k2);
        drop(dk2);
        let _: RcDecapsKey<P> = dk;
    });
}

#[cfg(feature = "alloc")]
#[test]
fn keygen_boxed_draws_like_keygen() {
    type P = McEliece348864;
    let (pk, sk) = keygen_boxed::<P, _>(&mut TestRng::new(13));
    let (mut pk2, mut sk2) = (vec![0u8; P::PK_BYTES], vec![0u8; P::SK_BYTES]);
    KemAlg::<P>::DYN
        .keygen(&mut TestRng::new(13), &mut pk2, &mut sk2)
        .expect("keygen");
    assert!(pk[..] == pk2[..] && sk[..] == sk2[..]);
}
