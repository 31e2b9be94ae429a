//! Bad inputs (SECURITY-TESTING.md §5): wrong lengths are rejected before
//! any work, every correctly sized ciphertext decapsulates (invalid ones
//! to the rejection key SHAKE256(0 || s || C)), 6960119 padding bits.

use pqforge_core::kat::KatSource;
use pqforge_core::keccak::Shake256;
use pqforge_core::{DynKem, Error, KatRng, Kind, Status};
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
    let mut rng = KatSource::new(KatRng::NistDrbg, &[seed; 48]);
    let mut pk = vec![0u8; P::PK_BYTES];
    let mut sk = vec![0u8; P::SK_BYTES];
    keygen::<P, _>(&mut rng, &mut pk, &mut sk).expect("keygen");
    let mut ct = vec![0u8; P::CT_BYTES];
    let mut ss = [0u8; 32];
    encaps::<P, _>(&mut rng, &pk, &mut ct, &mut ss).expect("encaps");
    Keys { pk, sk, ct, ss }
}

fn is_length(r: Result<(), Error>) -> bool {
    matches!(r, Err(Error::Length { .. }))
}

fn lengths<P: ParameterSet>(k: &Keys) {
    let mut rng = KatSource::new(KatRng::NistDrbg, &[9; 48]);
    let mut ss = [0u8; 32];
    for delta in [1usize, 2 * P::PK_BYTES] {
        // Wrong sizes fail at once (no work on a 0-byte or oversize buffer).
        let mut pk = vec![0u8; P::PK_BYTES + delta];
        let mut sk = vec![0u8; P::SK_BYTES];
        assert!(is_length(keygen::<P, _>(&mut rng, &mut pk, &mut sk)));
        assert!(is_length(keygen::<P, _>(&mut rng, &mut [], &mut sk)));
        let mut pk = vec![0u8; P::PK_BYTES];
        let mut sk = vec![0u8; P::SK_BYTES + delta];
        assert!(is_length(keygen::<P, _>(&mut rng, &mut pk, &mut sk)));
        let mut ct = vec![0u8; P::CT_BYTES];
        assert!(is_length(encaps::<P, _>(
            &mut rng,
            &k.pk[1..],
            &mut ct,
            &mut ss
        )));
        let mut ct1 = vec![0u8; P::CT_BYTES + 1];
        assert!(is_length(encaps::<P, _>(
            &mut rng, &k.pk, &mut ct1, &mut ss
        )));
        assert!(is_length(decaps::<P>(&k.sk[1..], &k.ct, &mut ss)));
        assert!(is_length(decaps::<P>(&k.sk, &k.ct[1..], &mut ss)));
        assert!(is_length(decaps::<P>(&k.sk, &ct1, &mut ss)));
        assert!(is_length(decaps::<P>(&k.sk, &[], &mut ss)));
    }
    let kem = McElieceKem::<P>::new();
    let mut ss31 = [0u8; 31];
    assert!(is_length(kem.decaps(&k.sk, &k.ct, &mut ss31)));
    let mut ct = vec![0u8; P::CT_BYTES];
    assert!(is_length(kem.encaps(&mut rng, &k.pk, &mut ct, &mut ss31)));
}

fn rejections<P: ParameterSet>(k: &Keys, flip_all: bool) {
    let mut ss = [0u8; 32];
    decaps::<P>(&k.sk, &k.ct, &mut ss).expect("decaps");
    assert_eq!(ss, k.ss);
    let mut fills = vec![vec![0u8; P::CT_BYTES], vec![0xFF; P::CT_BYTES]];
    let mut x = 0x1234_5678u32;
    for _ in 0..4 {
        fills.push(
            (0..P::CT_BYTES)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    x as u8
                })
                .collect(),
        );
    }
    for ct in &fills {
        decaps::<P>(&k.sk, ct, &mut ss).expect("decaps");
        assert_eq!(ss, rejection_key::<P>(&k.sk, ct), "{}", P::NAME);
    }
    let bits = 8 * P::CT_BYTES;
    let step = if flip_all { 1 } else { 7 };
    for bit in (0..bits).step_by(step) {
        let mut ct = k.ct.clone();
        ct[bit / 8] ^= 1 << (bit % 8);
        decaps::<P>(&k.sk, &ct, &mut ss).expect("decaps");
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
    let mut k = setup::<P>(3);
    lengths::<P>(&k);
    rejections::<P>(&k, false);
    // C0 padding bits set: rejection key.
    let mut ct = k.ct.clone();
    ct[P::SYND_BYTES - 1] |= 0x80;
    let mut ss = [0u8; 32];
    decaps::<P>(&k.sk, &ct, &mut ss).expect("decaps");
    assert_eq!(ss, rejection_key::<P>(&k.sk, &ct));
    // Public-key padding bits set: encapsulation refuses the key.
    let mut rng = KatSource::new(KatRng::NistDrbg, &[4; 48]);
    k.pk[5 * P::ROW_BYTES + P::ROW_BYTES - 1] |= 0x40;
    let r = encaps::<P, _>(&mut rng, &k.pk, &mut ct, &mut ss);
    assert!(matches!(r, Err(Error::Encoding(_))));
}

#[test]
fn registry_metadata() {
    let all: [&dyn DynKem; 20] = [
        &MCELIECE348864,
        &MCELIECE348864F,
        &MCELIECE460896,
        &MCELIECE460896F,
        &MCELIECE6688128,
        &MCELIECE6688128F,
        &MCELIECE6960119,
        &MCELIECE6960119F,
        &MCELIECE8192128,
        &MCELIECE8192128F,
        &MCELIECE348864PC,
        &MCELIECE348864PCF,
        &MCELIECE460896PC,
        &MCELIECE460896PCF,
        &MCELIECE6688128PC,
        &MCELIECE6688128PCF,
        &MCELIECE6960119PC,
        &MCELIECE6960119PCF,
        &MCELIECE8192128PC,
        &MCELIECE8192128PCF,
    ];
    for k in all {
        let i = k.info();
        assert_eq!(i.family, "Classic McEliece");
        assert_eq!(i.kind, Kind::Kem);
        assert_eq!(i.status, Status::AtRisk);
        assert_eq!(i.kat, KatRng::NistDrbg);
        assert_eq!(i.kat_header, format!("# kem/{}", i.name));
        assert_eq!(i.ss_bytes, 32);
        let cat = if i.name.starts_with("mceliece348864") {
            1
        } else if i.name.starts_with("mceliece460896") {
            3
        } else {
            5
        };
        assert_eq!(i.category, cat, "{}", i.name);
        assert_eq!(i.name.contains("pc"), i.revision.contains("provisional"));
    }
}
