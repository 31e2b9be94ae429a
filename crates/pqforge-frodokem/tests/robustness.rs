//! Round trips of every set through the typed API, implicit rejection
//! (the deterministic rejection value SHAKE(ct ‖ s)), malformed inputs
//! through the dynamic API, and the decapsulation-key checks.

use pqforge_core::sponge::{Shake128, Shake256};
use pqforge_core::testing::TestRng;
use pqforge_core::{DynKem, Error, KeyForms, Scheme, Status};
use pqforge_frodokem::{
    Ciphertext, DecapsKey, EFrodoKem640Aes, EFrodoKem640Shake, EFrodoKem976Aes, EFrodoKem976Shake,
    EFrodoKem1344Aes, EFrodoKem1344Shake, EncapsKey, FrodoKem640Aes, FrodoKem640Shake,
    FrodoKem976Aes, FrodoKem976Shake, FrodoKem1344Aes, FrodoKem1344Shake, Kem, ParameterSet,
    SCHEMES,
};

fn all() -> impl Iterator<Item = &'static dyn DynKem> {
    SCHEMES.into_iter().map(|s| match s {
        Scheme::Kem(k) => k,
        Scheme::Sig(_) => panic!("{s:?} is not a KEM"),
    })
}

/// SHAKE(ct ‖ s), the implicit-rejection secret, computed independently.
fn rejection_key<P: ParameterSet>(dk: &[u8], ct: &[u8]) -> Vec<u8> {
    let s = &dk[..P::LEN_SEC];
    let mut out = vec![0u8; P::LEN_SEC];
    if P::SHAKE256 {
        Shake256::absorb(&[ct, s], 0x1F).squeeze(&mut out);
    } else {
        Shake128::absorb(&[ct, s], 0x1F).squeeze(&mut out);
    }
    out
}

fn round_trip<P: ParameterSet + Kem>(tag: u64) {
    let mut r = TestRng::new(tag);
    let (ek, dk) = P::keygen(&mut r);
    let (ct, ss) = P::encaps(&ek, &mut r);
    assert_eq!(P::decaps(&dk, &ct), ss);
    // Imports of the byte forms.
    let ek2 = EncapsKey::<P>::try_from(ek.as_ref()).expect("ek import");
    let dk2 = DecapsKey::<P>::try_from(dk.as_ref()).expect("dk import");
    let ct2 = Ciphertext::<P>::try_from(ct.as_ref()).expect("ct import");
    assert_eq!(ek, ek2);
    assert_eq!(P::decaps(&dk2, &ct2), ss);
    assert_eq!(dk2.encaps_key(), Some(ek.clone()));
    // A second encapsulation gives a different secret.
    let (ct3, ss3) = P::encaps(&ek, &mut r);
    assert_ne!(ss3, ss);
    assert_eq!(P::decaps(&dk, &ct3), ss3);
}

fn rejection<P: ParameterSet + Kem>(tag: u64) {
    let mut r = TestRng::new(tag);
    let (ek, dk) = P::keygen(&mut r);
    let (ct, ss) = P::encaps(&ek, &mut r);
    let c2 = P::MAT_BYTES;
    let mut offsets = vec![0, 7, c2 - 1, c2, P::CT_BYTES - P::SALT_BYTES - 1];
    if P::SALTED {
        offsets.push(P::CT_BYTES - 1);
    }
    for off in offsets {
        for bit in [0x01u8, 0x80] {
            let mut bad = ct.as_ref().to_vec();
            bad[off] ^= bit;
            let c = Ciphertext::<P>::try_from(bad.as_slice()).expect("length");
            let k = P::decaps(&dk, &c);
            assert_ne!(k, ss, "honest secret after tampering at {off}");
            assert_eq!(
                k.as_ref(),
                rejection_key::<P>(dk.as_ref(), &bad),
                "not SHAKE(ct || s) at {off}"
            );
        }
    }
}

fn key_checks<P: ParameterSet + Kem>(tag: u64) {
    let mut r = TestRng::new(tag);
    let (_, dk) = P::keygen(&mut r);
    // pkh that does not match the embedded key.
    let mut bad = dk.as_ref().to_vec();
    bad[P::DK_BYTES - 1] ^= 1;
    assert!(matches!(
        DecapsKey::<P>::try_from(bad.as_slice()),
        Err(Error::InvalidKey(_))
    ));
    // The embedded public key changed (pkh no longer matches).
    let mut bad = dk.as_ref().to_vec();
    bad[P::LEN_SEC + 20] ^= 1;
    assert!(matches!(
        DecapsKey::<P>::try_from(bad.as_slice()),
        Err(Error::InvalidKey(_))
    ));
    // An entry of Sᵀ outside χ's support (±(table length − 1) is the edge).
    let st = P::LEN_SEC + P::EK_BYTES;
    let edge = (P::CDF.len() - 1) as i16;
    for (v, ok) in [
        (edge, true),
        (-edge, true),
        (edge + 1, false),
        (-edge - 1, false),
        (i16::MIN, false),
    ] {
        let mut k = dk.as_ref().to_vec();
        k[st + 6..st + 8].copy_from_slice(&v.to_le_bytes());
        let res = DecapsKey::<P>::try_from(k.as_slice());
        assert_eq!(res.is_ok(), ok, "S entry {v}");
        if !ok {
            assert!(matches!(res, Err(Error::Encoding(_))));
        }
    }
}

macro_rules! per_set {
    ($($ty:ident: $rt:ident, $rej:ident, $keys:ident;)*) => {$(
        #[test]
        fn $rt() {
            round_trip::<$ty>(1);
        }

        #[test]
        fn $rej() {
            rejection::<$ty>(2);
        }

        #[test]
        fn $keys() {
            key_checks::<$ty>(3);
        }
    )*};
}

per_set! {
    FrodoKem640Aes: round_trip_frodokem_640_aes, rejection_frodokem_640_aes, key_checks_frodokem_640_aes;
    FrodoKem640Shake: round_trip_frodokem_640_shake, rejection_frodokem_640_shake, key_checks_frodokem_640_shake;
    FrodoKem976Aes: round_trip_frodokem_976_aes, rejection_frodokem_976_aes, key_checks_frodokem_976_aes;
    FrodoKem976Shake: round_trip_frodokem_976_shake, rejection_frodokem_976_shake, key_checks_frodokem_976_shake;
    FrodoKem1344Aes: round_trip_frodokem_1344_aes, rejection_frodokem_1344_aes, key_checks_frodokem_1344_aes;
    FrodoKem1344Shake: round_trip_frodokem_1344_shake, rejection_frodokem_1344_shake, key_checks_frodokem_1344_shake;
    EFrodoKem640Aes: round_trip_efrodokem_640_aes, rejection_efrodokem_640_aes, key_checks_efrodokem_640_aes;
    EFrodoKem640Shake: round_trip_efrodokem_640_shake, rejection_efrodokem_640_shake, key_checks_efrodokem_640_shake;
    EFrodoKem976Aes: round_trip_efrodokem_976_aes, rejection_efrodokem_976_aes, key_checks_efrodokem_976_aes;
    EFrodoKem976Shake: round_trip_efrodokem_976_shake, rejection_efrodokem_976_shake, key_checks_efrodokem_976_shake;
    EFrodoKem1344Aes: round_trip_efrodokem_1344_aes, rejection_efrodokem_1344_aes, key_checks_efrodokem_1344_aes;
    EFrodoKem1344Shake: round_trip_efrodokem_1344_shake, rejection_efrodokem_1344_shake, key_checks_efrodokem_1344_shake;
}

/// Names, sizes and metadata (PROVENANCE.md's table), registry order.
#[test]
fn metadata() {
    let expect: [(&str, usize, usize, usize, usize, u8); 12] = [
        ("frodokem-640-aes", 9616, 19888, 9752, 16, 1),
        ("frodokem-640-shake", 9616, 19888, 9752, 16, 1),
        ("frodokem-976-aes", 15632, 31296, 15792, 24, 3),
        ("frodokem-976-shake", 15632, 31296, 15792, 24, 3),
        ("frodokem-1344-aes", 21520, 43088, 21696, 32, 5),
        ("frodokem-1344-shake", 21520, 43088, 21696, 32, 5),
        ("efrodokem-640-aes", 9616, 19888, 9720, 16, 1),
        ("efrodokem-640-shake", 9616, 19888, 9720, 16, 1),
        ("efrodokem-976-aes", 15632, 31296, 15744, 24, 3),
        ("efrodokem-976-shake", 15632, 31296, 15744, 24, 3),
        ("efrodokem-1344-aes", 21520, 43088, 21632, 32, 5),
        ("efrodokem-1344-shake", 21520, 43088, 21632, 32, 5),
    ];
    for (alg, (name, pk, sk, ct, ss, cat)) in all().zip(expect) {
        let i = alg.info();
        assert_eq!(i.name, name);
        assert_eq!(
            (i.pk_bytes, i.sk_bytes, i.ct_bytes, i.ss_bytes),
            (pk, sk, ct, ss),
            "{name}"
        );
        assert_eq!(i.category, cat, "{name}");
        assert_eq!(i.status, Status::Standard);
        assert!(i.oid.is_none());
        assert_eq!(i.key_forms, KeyForms::EXPANDED);
        assert_eq!(i.c_stem, name.replace('-', ""));
        let salted = !name.starts_with('e');
        let seed_se = if salted { 2 * ss } else { ss };
        assert_eq!(i.keygen_seed_bytes, ss + seed_se + 16, "{name}");
        assert_eq!(
            i.encaps_seed_bytes,
            if salted { 3 * ss } else { ss },
            "{name}"
        );
    }
}

/// Wrong lengths and garbage through the dynamic API: errors, no panic.
#[test]
fn dynamic_malformed_inputs() {
    let mut r = TestRng::new(9);
    for alg in all() {
        let i = alg.info();
        let (mut ek, mut dk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
        let (mut ct, mut ss) = (vec![0u8; i.ct_bytes], vec![0u8; i.ss_bytes]);
        alg.keygen(&mut r, &mut ek, &mut dk).expect("keygen");
        for d in [1usize, 2] {
            assert!(
                alg.keygen(&mut r, &mut ek[..i.pk_bytes - d], &mut dk)
                    .is_err()
            );
            assert!(
                alg.encaps(&mut r, &ek[..i.pk_bytes - d], &mut ct, &mut ss)
                    .is_err()
            );
            assert!(alg.decaps(&dk[..i.sk_bytes - d], &ct, &mut ss).is_err());
            let mut long = ct.clone();
            long.push(0);
            assert!(alg.decaps(&dk, &long, &mut ss).is_err());
            assert!(alg.decaps(&dk, &ct[..i.ct_bytes - d], &mut ss).is_err());
            assert!(alg.decaps(&dk, &ct, &mut ss[..i.ss_bytes - d]).is_err());
            assert!(alg.check_ek(&ek[..i.pk_bytes - d]).is_err());
            assert!(alg.check_dk(&dk[..i.sk_bytes - d]).is_err());
        }
        // Garbage of the right lengths: encapsulation keys are all valid,
        // a random decapsulation key fails its pkh check, a random
        // ciphertext decapsulates (to the rejection secret).
        let garbage_ek: Vec<u8> = (0..i.pk_bytes).map(|k| (k * 131 + 7) as u8).collect();
        alg.encaps(&mut r, &garbage_ek, &mut ct, &mut ss)
            .expect("any ek encapsulates");
        let garbage_dk: Vec<u8> = (0..i.sk_bytes).map(|k| (k * 17 + 3) as u8).collect();
        assert!(alg.check_dk(&garbage_dk).is_err());
        assert!(alg.decaps(&garbage_dk, &ct, &mut ss).is_err());
        let garbage_ct: Vec<u8> = (0..i.ct_bytes).map(|k| (k * 29 + 1) as u8).collect();
        alg.decaps(&dk, &garbage_ct, &mut ss)
            .expect("any ct decapsulates");
    }
}
