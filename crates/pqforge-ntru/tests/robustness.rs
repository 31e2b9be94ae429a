//! Round trips, implicit rejection, non-canonical encodings and malformed
//! inputs, through the typed and the dynamic API.

use pqforge_core::sponge::sha3_256;
use pqforge_core::testing::TestRng;
use pqforge_core::{ByteArray, DynKem, Error, KatRng, Scheme, Status};
use pqforge_ntru::{
    Ciphertext, DecapsKey, EncapsKey, NtruHps2048509, NtruHps2048677, NtruHps4096821,
    NtruHps40961229, NtruHrss701, NtruHrss1373, ParameterSet, SCHEMES,
};

fn rng(tag: u8) -> TestRng {
    TestRng::new(u64::from(tag))
}

/// The six sets as dynamic KEMs, in registry order.
fn all() -> impl Iterator<Item = &'static dyn DynKem> {
    SCHEMES.into_iter().map(|s| match s {
        Scheme::Kem(k) => k,
        Scheme::Sig(_) => panic!("{s:?} is not a KEM"),
    })
}

/// The rejection secret SHA3-256(prf key ‖ c), from the encoded key.
fn rejection_key<P: ParameterSet>(dk: &[u8], ct: &[u8]) -> [u8; 32] {
    let prf = &dk[2 * P::TRINARY_BYTES + P::Q_BYTES..];
    assert_eq!(prf.len(), 32);
    sha3_256(&[prf, ct])
}

/// Typed round trip, byte re-import, deterministic entry points, and
/// implicit rejection of tampered ciphertexts.
fn typed<P: ParameterSet>(tag: u8) {
    let mut r = rng(tag);
    for _ in 0..3 {
        let (ek, dk) = P::keygen(&mut r);
        let (ct, ss) = P::encaps(&ek, &mut r);
        assert_eq!(P::decaps(&dk, &ct), ss);
        let ek2 = EncapsKey::<P>::try_from(ek.as_ref()).expect("ek re-import");
        let dk2 = DecapsKey::<P>::try_from(dk.as_ref()).expect("dk re-import");
        assert_eq!(ek, ek2);
        assert_eq!(P::decaps(&dk2, &ct), ss);

        // Tampered ciphertexts: a flipped bit in the first and in the
        // last used byte give exactly SHA3-256(prf ‖ c'), never ss.
        for (pos, bit) in [(0, 1u8), (P::CIPHERTEXT_BYTES / 2, 0x10), (1, 0x80)] {
            let mut bad = ct.as_ref().to_vec();
            bad[pos] ^= bit;
            let ct2 = Ciphertext::<P>::try_from(bad.as_slice()).expect("length");
            let k = P::decaps(&dk, &ct2);
            assert_ne!(k.as_ref(), ss.as_ref(), "{}: honest secret", P::INFO.name);
            assert_eq!(
                k.as_ref(),
                rejection_key::<P>(dk.as_ref(), &bad),
                "{}: not the rejection secret",
                P::INFO.name
            );
        }
        // A ciphertext with a padding bit set is rejected (where the last
        // byte has padding).
        let used = (P::PACK_DEG * P::LOGQ as usize) % 8;
        if used != 0 {
            let mut bad = ct.as_ref().to_vec();
            *bad.last_mut().expect("nonempty") |= 0x80;
            let ct2 = Ciphertext::<P>::try_from(bad.as_slice()).expect("length");
            assert_eq!(
                P::decaps(&dk, &ct2).as_ref(),
                rejection_key::<P>(dk.as_ref(), &bad)
            );
            // The same padding in a public key is an encoding error.
            let mut bad_ek = ek.as_ref().to_vec();
            *bad_ek.last_mut().expect("nonempty") |= 0x80;
            assert!(matches!(
                EncapsKey::<P>::try_from(bad_ek.as_slice()),
                Err(Error::Encoding(_))
            ));
        }
    }

    // keygen_derand / encaps_derand agree with the randomised calls fed
    // the same bytes (key generation draws f, g seed then PRF key).
    let mut seed = P::KeygenSeed::zeroed();
    r.fill(seed.as_mut());
    let (ek, dk) = P::keygen_derand(&seed);
    let mut m = P::EncapsSeed::zeroed();
    r.fill(m.as_mut());
    let (ct, ss) = P::encaps_derand(&ek, &m).expect("derand");
    assert_eq!(P::decaps(&dk, &ct), ss);
    let mut replay = Replay(seed.as_ref().iter().chain(m.as_ref()).copied().collect());
    let (ek2, dk2) = P::keygen(&mut replay);
    let (ct2, ss2) = P::encaps(&ek2, &mut replay);
    assert_eq!((ek.as_ref(), dk.as_ref()), (ek2.as_ref(), dk2.as_ref()));
    assert_eq!((ct.as_ref(), ss.as_ref()), (ct2.as_ref(), ss2.as_ref()));

    // The public key is recomputed from the decapsulation key.
    let mut derived = P::EkBytes::zeroed();
    let mut dk_bytes = P::DkBytes::zeroed();
    dk_bytes.as_mut().copy_from_slice(dk.as_ref());
    P::derive_ek(&dk_bytes, &mut derived).expect("derive");
    assert_eq!(derived.as_ref(), ek.as_ref(), "{}: derive_ek", P::INFO.name);
    let mut via_dyn = vec![0u8; P::ENCAPS_KEY_BYTES];
    pqforge_core::KemAlg::<P>::DYN
        .encaps_key_from_dk(dk.as_ref(), &mut via_dyn)
        .expect("dynamic derive");
    assert_eq!(via_dyn, ek.as_ref());

    // A canonical but inconsistent f⁻¹ (one trit changed) is an invalid key.
    let mut bad = dk.as_ref().to_vec();
    bad[P::TRINARY_BYTES] = u8::from(bad[P::TRINARY_BYTES] == 0);
    assert!(
        matches!(
            DecapsKey::<P>::try_from(bad.as_slice()),
            Err(Error::InvalidKey(_))
        ),
        "{}: inconsistent f⁻¹ accepted",
        P::INFO.name
    );

    // A flipped bit in the h⁻¹ block (first, middle and last packed
    // coefficient bits; the padding bits stay zero) is an invalid key, by
    // the typed import, the key check, and the public-key derivation.
    let hinv = 2 * P::TRINARY_BYTES;
    let used_bits = (P::N - 1) * P::LOGQ as usize;
    for bit in [0, used_bits / 2 + 3, used_bits - 1] {
        let mut bad = dk.as_ref().to_vec();
        bad[hinv + bit / 8] ^= 1 << (bit % 8);
        assert!(
            matches!(
                DecapsKey::<P>::try_from(bad.as_slice()),
                Err(Error::InvalidKey(_))
            ),
            "{}: h⁻¹ bit {bit} flipped, key accepted",
            P::INFO.name
        );
        assert!(
            pqforge_core::KemAlg::<P>::DYN.check_dk(&bad).is_err(),
            "{}: h⁻¹ bit {bit}",
            P::INFO.name
        );
        let mut derived = vec![0u8; P::ENCAPS_KEY_BYTES];
        assert!(
            matches!(
                pqforge_core::KemAlg::<P>::DYN.encaps_key_from_dk(&bad, &mut derived),
                Err(Error::InvalidKey(_))
            ),
            "{}: h⁻¹ bit {bit}: a public key was derived",
            P::INFO.name
        );
    }

    // h⁻¹ = 0 and h⁻¹ = 2 (not invertible modulo (2, Φ_n)) are invalid
    // keys: for HRSS the rest of the check alone would take h = 0 from
    // the lift and accept g = 0.
    for c0 in [0u8, 2] {
        let mut bad = dk.as_ref().to_vec();
        bad[hinv..hinv + P::Q_BYTES].fill(0);
        bad[hinv] = c0;
        assert!(
            pqforge_core::KemAlg::<P>::DYN.check_dk(&bad).is_err(),
            "{}: h⁻¹ = {c0} accepted",
            P::INFO.name
        );
    }

    // Non-canonical trinary bytes in the decapsulation key.
    for pos in [0, P::TRINARY_BYTES, P::TRINARY_BYTES - 1] {
        let mut bad = dk.as_ref().to_vec();
        bad[pos] = 0xFF;
        assert!(
            matches!(
                DecapsKey::<P>::try_from(bad.as_slice()),
                Err(Error::Encoding(_))
            ),
            "{}: byte {pos}",
            P::INFO.name
        );
    }
}

/// A generator that replays fixed bytes (one `fill_bytes` may span draws).
struct Replay(Vec<u8>);

pqforge_core::fill_rng!(impl for Replay, |r: &mut Replay, dst: &mut [u8]| {
    assert!(dst.len() <= r.0.len(), "replay exhausted");
    let rest = r.0.split_off(dst.len());
    dst.copy_from_slice(&r.0);
    r.0 = rest;
});

#[test]
fn typed_hps_2048_509() {
    typed::<NtruHps2048509>(1);
}

#[test]
fn typed_hps_2048_677() {
    typed::<NtruHps2048677>(2);
}

#[test]
fn typed_hps_4096_821() {
    typed::<NtruHps4096821>(3);
}

#[test]
fn typed_hps_4096_1229() {
    typed::<NtruHps40961229>(4);
}

#[test]
fn typed_hrss_701() {
    typed::<NtruHrss701>(5);
}

#[test]
fn typed_hrss_1373() {
    typed::<NtruHrss1373>(6);
}

#[test]
fn metadata() {
    let names = [
        ("ntru-hps-2048-509", "ntruhps2048509", 1),
        ("ntru-hps-2048-677", "ntruhps2048677", 3),
        ("ntru-hps-4096-821", "ntruhps4096821", 5),
        ("ntru-hps-4096-1229", "ntruhps40961229", 5),
        ("ntru-hrss-701", "ntruhrss701", 3),
        ("ntru-hrss-1373", "ntruhrss1373", 5),
    ];
    for (alg, (name, stem, cat)) in all().zip(names) {
        let info = alg.info();
        assert_eq!(info.name, name);
        assert_eq!(info.c_stem, stem);
        assert_eq!(info.category, cat);
        assert_eq!(info.status, Status::Draft);
        assert_eq!(info.oid, None);
        assert_eq!(info.feature, "ntru");
        assert_eq!(info.kat, KatRng::NistDrbg);
        assert_eq!(info.kat_header, format!("# {stem}"));
        assert_eq!(info.ss_bytes, 32);
        assert_eq!(info.pk_bytes, info.ct_bytes);
    }
}

/// Wrong lengths, garbage keys and ciphertexts through the dynamic API:
/// errors or rejection secrets, never a panic.
#[test]
fn dynamic_malformed() {
    let mut r = rng(9);
    for alg in all() {
        let info = alg.info();
        let (mut pk, mut sk) = (vec![0u8; info.pk_bytes], vec![0u8; info.sk_bytes]);
        let (mut ct, mut ss) = (vec![0u8; info.ct_bytes], vec![0u8; 32]);
        alg.keygen(&mut r, &mut pk, &mut sk).expect("keygen");
        alg.encaps(&mut r, &pk, &mut ct, &mut ss).expect("encaps");
        // Wrong lengths everywhere.
        assert!(alg.encaps(&mut r, &pk[1..], &mut ct, &mut ss).is_err());
        assert!(alg.decaps(&sk[1..], &ct, &mut ss).is_err());
        assert!(alg.decaps(&sk, &ct[1..], &mut ss).is_err());
        assert!(alg.decaps(&sk, &ct, &mut ss[1..]).is_err());
        let mut short = vec![0u8; info.pk_bytes - 1];
        assert!(alg.keygen(&mut r, &mut short, &mut sk).is_err());
        let mut long_ct = vec![0u8; info.ct_bytes + 1];
        assert!(alg.encaps(&mut r, &pk, &mut long_ct, &mut ss).is_err());
        // Garbage of the right length: any result but a panic; a garbage
        // ciphertext under a good key gives the rejection secret.
        for _ in 0..4 {
            let mut junk_pk = vec![0u8; info.pk_bytes];
            let mut junk_sk = vec![0u8; info.sk_bytes];
            let mut junk_ct = vec![0u8; info.ct_bytes];
            r.fill(&mut junk_pk);
            r.fill(&mut junk_sk);
            r.fill(&mut junk_ct);
            let _ = alg.encaps(&mut r, &junk_pk, &mut ct, &mut ss);
            let _ = alg.decaps(&junk_sk, &junk_ct, &mut ss);
            let _ = alg.check_ek(&junk_pk);
            let _ = alg.check_dk(&junk_sk);
            alg.decaps(&sk, &junk_ct, &mut ss).expect("decaps");
            let off = info.sk_bytes - 32;
            assert_eq!(ss, sha3_256(&[&sk[off..], &junk_ct]));
        }
        // All-zero and all-ones inputs.
        for fill in [0u8, 0xFF] {
            let junk = vec![fill; info.ct_bytes];
            alg.decaps(&sk, &junk, &mut ss).expect("decaps");
            let _ = alg.encaps(&mut r, &junk, &mut ct, &mut ss);
            let sk_junk = vec![fill; info.sk_bytes];
            let _ = alg.decaps(&sk_junk, &junk, &mut ss);
        }
    }
}
