//! Round trips, deterministic entry points, implicit rejection, key checks
//! and malformed inputs through the typed and dynamic APIs.

use pqforge_core::testing::TestRng;
use pqforge_core::{ByteArray, DynKem, Error, KatRng, KeyForms, Scheme, Status};
use pqforge_ntruprime::{
    Ciphertext, DecapsKey, EncapsKey, Kem, ParameterSet, SCHEMES, Sntrup653, Sntrup761, Sntrup857,
    Sntrup953, Sntrup1013, Sntrup1277,
};
use sha2::{Digest, Sha512};

/// A byte stream as an rng: reads continue where the last one stopped, so
/// any split of the reads gives the same bytes.
struct Stream {
    bytes: Vec<u8>,
    pos: usize,
}

pqforge_core::fill_rng!(impl for Stream, |s: &mut Stream, out: &mut [u8]| {
    out.copy_from_slice(&s.bytes[s.pos..s.pos + out.len()]);
    s.pos += out.len();
});

fn all() -> impl Iterator<Item = &'static dyn DynKem> {
    SCHEMES.into_iter().map(|s| match s {
        Scheme::Kem(k) => k,
        Scheme::Sig(_) => panic!("{s:?} is not a KEM"),
    })
}

/// `Hash_b(parts)`: the first 32 bytes of SHA-512(b ‖ parts), written
/// independently of the library.
fn hash(b: u8, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha512::new();
    h.update([b]);
    for p in parts {
        h.update(p);
    }
    let d = h.finalize();
    let mut out = [0u8; 32];
    out.copy_from_slice(&d[..32]);
    out
}

fn round_trip<K: Kem + ParameterSet>(tag: u64) {
    let mut rng = TestRng::new(tag);
    for _ in 0..3 {
        let (ek, dk) = K::keygen(&mut rng);
        let (ct, ss) = K::encaps(&ek, &mut rng);
        assert_eq!(K::decaps(&dk, &ct), ss, "{}", K::NAME);
        let ek2 = EncapsKey::<K>::try_from(ek.as_ref()).expect("pk");
        let dk2 = DecapsKey::<K>::try_from(dk.as_ref()).expect("sk");
        let ct2 = Ciphertext::<K>::try_from(ct.as_ref()).expect("ct");
        assert_eq!(ek, ek2);
        assert_eq!(K::decaps(&dk2, &ct2), ss);
        // The shared secret by the definition: Hash1(Hash3(r_enc) ‖ ct)
        // needs r; check instead that the confirmation is Hash2 of
        // Hash3(r_enc) ‖ Hash4(pk) indirectly through the cache in sk.
        let sk = dk.as_ref();
        assert_eq!(&sk[K::SK_BYTES - 32..], &hash(4, &[ek.as_ref()]));
        let sb = K::SMALL_BYTES;
        assert_eq!(&sk[2 * sb..2 * sb + K::PK_BYTES], ek.as_ref());
        assert_eq!(dk2.encaps_key(), Some(ek));
    }
}

#[test]
fn round_trips_all_sets() {
    round_trip::<Sntrup653>(1);
    round_trip::<Sntrup761>(2);
    round_trip::<Sntrup857>(3);
    round_trip::<Sntrup953>(4);
    round_trip::<Sntrup1013>(5);
    round_trip::<Sntrup1277>(6);
}

/// The randomised encapsulation reads its p words four bytes at a time, as
/// `encaps_derand` takes them (little-endian, 4p bytes).
fn derand_matches<K: Kem + ParameterSet>(tag: u64) {
    let mut rng = TestRng::new(tag);
    let (ek, dk) = K::keygen(&mut rng);
    let mut words = <K as Kem>::EncapsSeed::zeroed();
    rng.fill(words.as_mut());
    let (ct1, ss1) = K::encaps_derand(&ek, &words).expect("derand");
    let mut s = Stream {
        bytes: words.as_ref().to_vec(),
        pos: 0,
    };
    let (ct2, ss2) = K::encaps(&ek, &mut s);
    assert_eq!(s.pos, 4 * K::P);
    assert_eq!(ct1, ct2);
    assert_eq!(ss1, ss2);
    assert_eq!(K::decaps(&dk, &ct1), ss1);

    // Deterministic key generation: same seed, same keys; valid keys.
    let mut seed = <K as Kem>::KeygenSeed::zeroed();
    seed.as_mut().fill(tag as u8);
    let (ek1, dk1) = K::keygen_derand(&seed);
    let (ek2, dk2) = K::keygen_derand(&seed);
    assert_eq!(ek1, ek2);
    assert_eq!(dk1.as_ref(), dk2.as_ref());
    assert!(DecapsKey::<K>::try_from(dk1.as_ref()).is_ok());
    seed.as_mut()[0] ^= 1;
    let (ek3, _) = K::keygen_derand(&seed);
    assert_ne!(ek1, ek3);
}

#[test]
fn deterministic_entry_points() {
    derand_matches::<Sntrup653>(11);
    derand_matches::<Sntrup761>(12);
    derand_matches::<Sntrup857>(13);
    derand_matches::<Sntrup953>(14);
    derand_matches::<Sntrup1013>(15);
    derand_matches::<Sntrup1277>(16);
}

/// A tampered ciphertext decapsulates to Hash0(Hash3(rho) ‖ ct), not to
/// the honest secret.
fn rejection<K: Kem + ParameterSet>(tag: u64) {
    let mut rng = TestRng::new(tag);
    let (ek, dk) = K::keygen(&mut rng);
    let (ct, ss) = K::encaps(&ek, &mut rng);
    let sb = K::SMALL_BYTES;
    let rho = &dk.as_ref()[2 * sb + K::PK_BYTES..3 * sb + K::PK_BYTES];
    let h_rho = hash(3, &[rho]);
    let n = K::CT_BYTES;
    for (at, bit) in [
        (0, 1u8),
        (n / 2, 0x80),
        (K::ROUNDED_BYTES - 1, 4),
        (n - 1, 1),
    ] {
        let mut bad = ct.as_ref().to_vec();
        bad[at] ^= bit;
        let bad_ct = Ciphertext::<K>::try_from(bad.as_slice()).expect("length");
        let k = K::decaps(&dk, &bad_ct);
        assert_ne!(k.as_ref(), ss.as_ref(), "{}: honest key leaked", K::NAME);
        assert_eq!(k.as_ref(), hash(0, &[&h_rho, &bad]), "{}: not K̄", K::NAME);
    }
    // Garbage ciphertexts: rejected the same way, no panic.
    for fill in [0x00u8, 0xFF, 0x5A] {
        let bad = vec![fill; n];
        let bad_ct = Ciphertext::<K>::try_from(bad.as_slice()).expect("length");
        let k = K::decaps(&dk, &bad_ct);
        assert_eq!(k.as_ref(), hash(0, &[&h_rho, &bad]));
    }
}

#[test]
fn implicit_rejection_all_sets() {
    rejection::<Sntrup653>(21);
    rejection::<Sntrup761>(22);
    rejection::<Sntrup857>(23);
    rejection::<Sntrup953>(24);
    rejection::<Sntrup1013>(25);
    rejection::<Sntrup1277>(26);
}

/// Key checks: non-canonical public keys, inconsistent secret keys.
fn key_checks<K: Kem + ParameterSet>(tag: u64) {
    let mut rng = TestRng::new(tag);
    let alg = pqforge_core::KemAlg::<K>::DYN;
    let (ek, dk) = K::keygen(&mut rng);
    assert!(alg.check_ek(ek.as_ref()).is_ok());
    assert!(alg.check_dk(dk.as_ref()).is_ok());

    // All-ones bytes decode, but not canonically.
    let ones = vec![0xFFu8; K::PK_BYTES];
    assert!(matches!(alg.check_ek(&ones), Err(Error::Encoding(_))));
    // The last byte of an honest key bumped past its radix.
    let mut top = ek.as_ref().to_vec();
    *top.last_mut().expect("nonempty") = 0xFF;
    assert!(matches!(alg.check_ek(&top), Err(Error::Encoding(_))));

    let sb = K::SMALL_BYTES;
    let cases: [(usize, u8); 5] = [
        (K::SK_BYTES - 1, 0x01), // cache
        (2 * sb + 3, 0x01),      // embedded pk (cache no longer matches)
        (0, 0x03),               // f: changes weight / gives field 3
        (sb + 7, 0x01),          // 1/g mod 3
        (sb - 1, 0x04),          // stray bits after the last coefficient of f
    ];
    for (at, bit) in cases {
        let mut bad = dk.as_ref().to_vec();
        bad[at] ^= bit;
        let r = alg.check_dk(&bad);
        assert!(
            matches!(r, Err(Error::InvalidKey(_) | Error::Encoding(_))),
            "{}: byte {at} ^ {bit:#x}: {r:?}",
            K::NAME
        );
    }
    // f taken from another key: weight and encodings fine, pair inconsistent.
    let (_, dk2) = K::keygen(&mut rng);
    let mut mixed = dk.as_ref().to_vec();
    mixed[..sb].copy_from_slice(&dk2.as_ref()[..sb]);
    assert!(matches!(alg.check_dk(&mixed), Err(Error::InvalidKey(_))));
    // rho is arbitrary bytes: still a valid key.
    let mut other_rho = dk.as_ref().to_vec();
    other_rho[2 * sb + K::PK_BYTES] ^= 0xFF;
    assert!(alg.check_dk(&other_rho).is_ok());
}

#[test]
fn key_checks_all_sets() {
    key_checks::<Sntrup653>(31);
    key_checks::<Sntrup761>(32);
    key_checks::<Sntrup857>(33);
    key_checks::<Sntrup953>(34);
    key_checks::<Sntrup1013>(35);
    key_checks::<Sntrup1277>(36);
}

#[test]
fn random_public_keys_never_panic() {
    let mut rng = TestRng::new(41);
    for alg in all() {
        let info = alg.info();
        for _ in 0..20 {
            let mut pk = vec![0u8; info.pk_bytes];
            rng.fill(&mut pk);
            let _ = alg.check_ek(&pk);
            let mut sk = vec![0u8; info.sk_bytes];
            rng.fill(&mut sk);
            assert!(
                alg.check_dk(&sk).is_err(),
                "{}: random sk accepted",
                info.name
            );
        }
    }
}

#[test]
fn wrong_lengths() {
    let mut rng = TestRng::new(51);
    for alg in all() {
        let i = alg.info();
        let mut pk = vec![0u8; i.pk_bytes];
        let mut sk = vec![0u8; i.sk_bytes];
        alg.keygen(&mut rng, &mut pk, &mut sk).expect("keygen");
        let mut ct = vec![0u8; i.ct_bytes];
        let mut ss = vec![0u8; 32];
        assert!(matches!(
            alg.keygen(&mut rng, &mut pk[1..], &mut sk),
            Err(Error::Length { .. })
        ));
        assert!(matches!(
            alg.encaps(&mut rng, &pk[..i.pk_bytes - 1], &mut ct, &mut ss),
            Err(Error::Length { .. })
        ));
        assert!(matches!(
            alg.decaps(&sk, &ct[1..], &mut ss),
            Err(Error::Length { .. })
        ));
        assert!(matches!(
            alg.decaps(&sk[1..], &ct, &mut ss),
            Err(Error::Length { .. })
        ));
        assert!(matches!(
            alg.encaps_derand(&pk, &[0u8; 3], &mut ct, &mut ss),
            Err(Error::Length { .. })
        ));
        assert!(matches!(
            alg.keygen_derand(&[0u8; 31], &mut pk, &mut sk),
            Err(Error::Length { .. })
        ));
        // Garbage of the right length: an error for keys, never a panic.
        let junk_ct = vec![0xA5u8; i.ct_bytes];
        alg.decaps(&sk, &junk_ct, &mut ss)
            .expect("any ciphertext decapsulates");
        let junk_sk = vec![0xA5u8; i.sk_bytes];
        assert!(alg.decaps(&junk_sk, &junk_ct, &mut ss).is_err());
        let words = vec![0x11u8; i.encaps_seed_bytes];
        alg.encaps_derand(&pk, &words, &mut ct, &mut ss)
            .expect("encaps_derand");
    }
}

#[test]
fn metadata() {
    let names = [
        "sntrup653",
        "sntrup761",
        "sntrup857",
        "sntrup953",
        "sntrup1013",
        "sntrup1277",
    ];
    let cats = [1, 2, 3, 4, 4, 5];
    for ((alg, name), cat) in all().zip(names).zip(cats) {
        let i = alg.info();
        assert_eq!(i.name, name);
        assert_eq!(i.c_stem, name);
        assert_eq!(i.feature, "ntruprime");
        assert_eq!(i.status, Status::Draft);
        assert_eq!(i.oid, None);
        assert_eq!(i.kat, KatRng::NistDrbg);
        assert_eq!(i.kat_header, format!("# kem/{name}"));
        assert_eq!(i.key_forms, KeyForms::EXPANDED);
        assert_eq!(i.category, cat);
        assert_eq!(i.keygen_seed_bytes, 32);
        assert_eq!(i.ss_bytes, 32);
        assert!(i.matches(name));
    }
    assert_eq!(Sntrup761::INFO.encaps_seed_bytes, 4 * 761);
    assert_eq!(
        (
            Sntrup761::PK_BYTES,
            Sntrup761::SK_BYTES,
            Sntrup761::CT_BYTES
        ),
        (1158, 1763, 1039)
    );
}
