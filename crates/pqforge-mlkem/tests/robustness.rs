//! Bad inputs (SECURITY-TESTING.md §5): wrong lengths, modulus and hash
//! checks, implicit rejection of every single-bit flip, no panics on random
//! bytes.
#![allow(clippy::unwrap_used)]

use pqforge_core::kat::KatSource;
use pqforge_core::keccak::Shake256;
use pqforge_core::{DynKem, Error, KatRng, Kem, Rng};
use pqforge_mlkem::{
    Ciphertext, DecapsKey, EncapsKey, ML_KEM_512, ML_KEM_768, ML_KEM_1024, MlKem512, MlKem768,
    MlKem1024, ParameterSet,
};

fn rng(tag: u8) -> KatSource {
    KatSource::new(KatRng::NistDrbg, &[tag; 48])
}

fn bad_lengths(n: usize) -> [usize; 5] {
    [0, 1, n - 1, n + 1, 2 * n]
}

fn is_length<T>(e: &Result<T, Error>) -> bool {
    matches!(e, Err(Error::Length { .. }))
}

fn lengths_typed<P: ParameterSet>() {
    for n in bad_lengths(P::EK_BYTES) {
        assert!(
            is_length(&EncapsKey::<P>::try_from(&vec![0u8; n][..])),
            "ek {n}"
        );
    }
    for n in bad_lengths(P::DK_BYTES) {
        assert!(
            is_length(&DecapsKey::<P>::try_from(&vec![0u8; n][..])),
            "dk {n}"
        );
    }
    for n in bad_lengths(P::CT_BYTES) {
        assert!(
            is_length(&Ciphertext::<P>::try_from(&vec![0u8; n][..])),
            "ct {n}"
        );
    }
}

fn lengths_dyn(k: &dyn DynKem) {
    let i = k.info();
    let mut r = rng(1);
    let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    k.keygen(&mut r, &mut pk, &mut sk).unwrap();
    let (mut ct, mut ss) = (vec![0u8; i.ct_bytes], vec![0u8; 32]);
    k.encaps(&mut r, &pk, &mut ct, &mut ss).unwrap();
    for n in bad_lengths(i.pk_bytes) {
        let r2 = k.encaps(&mut r, &vec![0u8; n], &mut ct.clone(), &mut ss);
        assert!(is_length(&r2), "{} pk {n}", i.name);
    }
    for n in bad_lengths(i.sk_bytes) {
        assert!(
            is_length(&k.decaps(&vec![0u8; n], &ct, &mut ss)),
            "{} sk {n}",
            i.name
        );
    }
    for n in bad_lengths(i.ct_bytes) {
        assert!(
            is_length(&k.decaps(&sk, &vec![0u8; n], &mut ss)),
            "{} ct {n}",
            i.name
        );
    }
    assert!(is_length(&k.keygen(&mut r, &mut pk[1..], &mut sk)));
    assert!(is_length(&k.decaps(&sk, &ct, &mut ss[1..])));
}

#[test]
fn wrong_lengths() {
    lengths_typed::<MlKem512>();
    lengths_typed::<MlKem768>();
    lengths_typed::<MlKem1024>();
    lengths_dyn(&ML_KEM_512);
    lengths_dyn(&ML_KEM_768);
    lengths_dyn(&ML_KEM_1024);
}

/// Sets 12-bit coefficient `i` of an encoded vector to `v`.
fn set_coeff(bytes: &mut [u8], i: usize, v: u16) {
    let o = 3 * (i / 2);
    if i.is_multiple_of(2) {
        bytes[o] = v as u8;
        bytes[o + 1] = (bytes[o + 1] & 0xF0) | (v >> 8) as u8;
    } else {
        bytes[o + 1] = (bytes[o + 1] & 0x0F) | ((v as u8 & 0x0F) << 4);
        bytes[o + 2] = (v >> 4) as u8;
    }
}

fn modulus_check<P: ParameterSet + Kem>() {
    let (ek, dk) = pqforge_mlkem::keygen_derand::<P>(&[3; 32], &[4; 32]);
    let n = 256 * P::K;
    for pos in [0, 1, 2, 255, 256, n / 2 + 1, n - 2, n - 1] {
        for v in [3329u16, 3330, 4095] {
            let mut b = ek.as_ref().to_vec();
            set_coeff(&mut b, pos, v);
            assert!(
                matches!(EncapsKey::<P>::try_from(&b[..]), Err(Error::Encoding(_))),
                "pos {pos} v {v}"
            );
        }
        let mut b = ek.as_ref().to_vec();
        set_coeff(&mut b, pos, 3328);
        assert!(EncapsKey::<P>::try_from(&b[..]).is_ok(), "q-1 at {pos}");
    }
    // dk: modified H(ek), and an embedded ek with a coefficient >= q (with a
    // matching hash, so only the modulus check can catch it).
    let off = 384 * P::K;
    let mut d = dk.as_ref().to_vec();
    d[off + P::EK_BYTES + 7] ^= 1;
    assert!(matches!(
        DecapsKey::<P>::try_from(&d[..]),
        Err(Error::InvalidKey(_))
    ));
    let mut d = dk.as_ref().to_vec();
    set_coeff(&mut d[off..off + P::EK_BYTES], 5, 4000);
    let h = pqforge_core::keccak::sha3_256(&d[off..off + P::EK_BYTES]);
    d[off + P::EK_BYTES..off + P::EK_BYTES + 32].copy_from_slice(&h);
    assert!(matches!(
        DecapsKey::<P>::try_from(&d[..]),
        Err(Error::Encoding(_))
    ));
    // The honest encodings round-trip.
    assert!(DecapsKey::<P>::try_from(dk.as_ref()).is_ok());
    assert!(EncapsKey::<P>::try_from(ek.as_ref()).is_ok());
}

#[test]
fn modulus_and_hash_checks() {
    modulus_check::<MlKem512>();
    modulus_check::<MlKem768>();
    modulus_check::<MlKem1024>();
}

#[test]
fn all_zero_ek_is_valid_all_ff_is_not() {
    let ek = EncapsKey::<MlKem768>::try_from(&[0u8; 1184][..]).expect("all-zero ek is valid");
    let (ct, k) = MlKem768::encaps(&ek, &mut rng(2));
    assert_eq!(ct.as_ref().len(), 1088);
    assert_eq!(k.as_ref().len(), 32);
    assert!(EncapsKey::<MlKem768>::try_from(&[0xFFu8; 1184][..]).is_err());
}

fn j(z: &[u8], c: &[u8]) -> [u8; 32] {
    let mut x = Shake256::new();
    x.absorb(z);
    x.absorb(c);
    let mut o = [0u8; 32];
    x.squeeze(&mut o);
    o
}

#[test]
fn every_bit_flip_is_implicitly_rejected() {
    let (ek, dk) = MlKem768::keygen(&mut rng(5));
    let (ct, k) = MlKem768::encaps(&ek, &mut rng(6));
    assert_eq!(MlKem768::decaps(&dk, &ct), k);
    let z = &dk.as_ref()[2400 - 32..];
    let mut c = ct.as_ref().to_vec();
    for bit in 0..8 * c.len() {
        c[bit / 8] ^= 1 << (bit % 8);
        let t = Ciphertext::<MlKem768>::try_from(&c[..]).unwrap();
        let got = MlKem768::decaps(&dk, &t);
        assert_eq!(got.as_ref(), j(z, &c), "bit {bit}");
        c[bit / 8] ^= 1 << (bit % 8);
    }
    // All-zero and all-0xFF ciphertexts too.
    for fill in [0u8, 0xFF] {
        let c = vec![fill; 1088];
        let t = Ciphertext::<MlKem768>::try_from(&c[..]).unwrap();
        assert_eq!(MlKem768::decaps(&dk, &t).as_ref(), j(z, &c));
    }
}

fn random_bytes(k: &dyn DynKem) {
    let mut r = rng(9);
    let i = k.info();
    let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    k.keygen(&mut r, &mut pk, &mut sk).unwrap();
    let mut ss = [0u8; 32];
    for _ in 0..50 {
        let mut junk_pk = vec![0u8; i.pk_bytes];
        let mut junk_sk = vec![0u8; i.sk_bytes];
        let mut junk_ct = vec![0u8; i.ct_bytes];
        r.fill_bytes(&mut junk_pk);
        r.fill_bytes(&mut junk_sk);
        r.fill_bytes(&mut junk_ct);
        let mut ct = vec![0u8; i.ct_bytes];
        // Random ek: almost surely a coefficient >= q; must be an error, not a panic.
        let _ = k.encaps(&mut r, &junk_pk, &mut ct, &mut ss);
        // Random dk: the hash check fails.
        assert!(k.decaps(&junk_sk, &junk_ct, &mut ss).is_err());
        // Random ct under a real key: implicit rejection.
        k.decaps(&sk, &junk_ct, &mut ss).unwrap();
        assert_eq!(ss, j(&sk[i.sk_bytes - 32..], &junk_ct));
    }
}

#[test]
fn no_panic_on_random_bytes() {
    random_bytes(&ML_KEM_512);
    random_bytes(&ML_KEM_768);
    random_bytes(&ML_KEM_1024);
}

#[test]
fn seed_round_trip_and_expanded_key_match() {
    let seed: [u8; 64] = core::array::from_fn(|i| i as u8);
    let dk = DecapsKey::<MlKem1024>::from_seed(&seed);
    assert_eq!(dk.seed(), Some(&seed));
    let dk2 = DecapsKey::<MlKem1024>::try_from(dk.as_ref()).unwrap();
    assert_eq!(dk2.seed(), None);
    assert_eq!(dk2.as_ref(), dk.as_ref());
    let (ek, dk3) = MlKem1024::keygen_derand(
        seed[..32].try_into().unwrap(),
        seed[32..].try_into().unwrap(),
    );
    assert_eq!(dk3.as_ref(), dk.as_ref());
    assert_eq!(ek, dk.encaps_key());
    assert_eq!(ek.hash(), &pqforge_core::keccak::sha3_256(ek.as_ref()));
}

#[test]
fn keygen_draws_one_64_byte_and_encaps_one_32_byte_block() {
    // Same generator: one fill of 64 then 32 bytes must equal the
    // deterministic entry points on those bytes.
    let mut a = rng(11);
    let (ek, dk) = MlKem512::keygen(&mut a);
    let (ct, k) = MlKem512::encaps(&ek, &mut a);
    let mut b = rng(11);
    let mut s = [0u8; 64];
    b.fill_bytes(&mut s);
    let mut m = [0u8; 32];
    b.fill_bytes(&mut m);
    assert_eq!(DecapsKey::<MlKem512>::from_seed(&s).as_ref(), dk.as_ref());
    let (ct2, k2) = MlKem512::encaps_derand(&ek, &m);
    assert_eq!(ct, ct2);
    assert_eq!(k, k2);
}
