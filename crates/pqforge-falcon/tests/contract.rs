//! The contract around the arithmetic: INFO values, the verifying key
//! derived from a signing key (h = g / f) against key generation, the
//! prepared states of key generation against those of parsing, the
//! options round-3 Falcon refuses, and the registry handles.

use crate::common;

use common::FixedRng;
use pqforge_core::testing::TestRng;
use pqforge_core::{
    ByteArray, Error, HashAlg, KatRng, KeyForms, SigAlg, SignChecked, SignOptions, SignatureScheme,
    SigningKey, Status, VerifyChecked, VerifyingKey,
};
use pqforge_falcon::{Falcon512, Falcon1024, FalconPadded512, FalconPadded1024, SCHEMES};

/// For `seeds` random seeds: the verifying key `SigningKey::try_from`
/// derives (prepare_sk + verifying_key_into) equals the one key
/// generation wrote, with the same prepared state; the signing key parsed
/// back signs exactly as the one key generation returned; the dynamic
/// `verifying_key` agrees.
fn derived_vk_matches_keygen<P: SignatureScheme<KeygenSeed = [u8; 48]>>(seeds: usize, tag: u64)
where
    P::VkState: PartialEq + core::fmt::Debug,
{
    let mut r = TestRng::new(tag);
    let dynsig = SigAlg::<P>::DYN;
    for i in 0..seeds {
        let seed: [u8; 48] = r.array();
        let (vk, sk) = P::keygen_derand(&seed);
        let sk2 = SigningKey::<P>::try_from(sk.as_ref()).expect("parse sk");
        assert_eq!(sk2.verifying_key(), &vk, "{} seed {i}", P::INFO.name);
        assert_eq!(
            sk2.verifying_key().prepared().state(),
            vk.prepared().state(),
            "{} seed {i}: vk state",
            P::INFO.name
        );
        let vk2 = VerifyingKey::<P>::try_from(vk.as_ref()).expect("parse vk");
        assert_eq!(vk2.prepared().state(), vk.prepared().state());
        let mut pk = vec![0u8; P::INFO.pk_bytes];
        dynsig.verifying_key(sk.as_ref(), &mut pk).expect("dyn vk");
        assert_eq!(&pk[..], vk.as_ref());
        // Key generation's signing state (G recomputed) signs exactly as
        // the parsed key's: same randomness, same signature.
        let rnd: [u8; 88] = r.array();
        let a = P::sign(&sk, b"state", &mut FixedRng::new(&rnd)).expect("sign");
        let b = P::sign(&sk2, b"state", &mut FixedRng::new(&rnd)).expect("sign");
        assert_eq!(a, b, "{} seed {i}: signing states differ", P::INFO.name);
        P::verify(&vk2, b"state", a.as_bytes()).expect("verify");
    }
}

#[test]
fn verifying_key_from_signing_key_512() {
    derived_vk_matches_keygen::<Falcon512>(48, 1);
    derived_vk_matches_keygen::<FalconPadded512>(8, 2);
}

#[test]
fn verifying_key_from_signing_key_1024() {
    derived_vk_matches_keygen::<Falcon1024>(16, 3);
    derived_vk_matches_keygen::<FalconPadded1024>(4, 4);
}

#[test]
fn info_values() {
    let expect = [
        (
            "falcon-512",
            "falcon512",
            897,
            1281,
            690,
            1,
            KatRng::NistDrbg,
            "# Falcon-512",
        ),
        (
            "falcon-1024",
            "falcon1024",
            1793,
            2305,
            1330,
            5,
            KatRng::NistDrbg,
            "# Falcon-1024",
        ),
        (
            "falcon-padded-512",
            "falconpadded512",
            897,
            1281,
            666,
            1,
            KatRng::None,
            "# Falcon-padded-512",
        ),
        (
            "falcon-padded-1024",
            "falconpadded1024",
            1793,
            2305,
            1280,
            5,
            KatRng::None,
            "# Falcon-padded-1024",
        ),
    ];
    assert_eq!(SCHEMES.len(), expect.len());
    for (s, (name, stem, pk, sk, sig, cat, kat, hdr)) in SCHEMES.iter().zip(expect) {
        let i = s.info();
        assert_eq!(i.name, name);
        assert_eq!(i.family, "Falcon");
        assert_eq!(i.c_stem, stem);
        assert_eq!((i.pk_bytes, i.sk_bytes, i.sig_bytes), (pk, sk, sig));
        assert_eq!((i.ct_bytes, i.ss_bytes), (0, 0));
        assert_eq!(i.category, cat);
        assert_eq!(i.status, Status::Draft);
        assert_eq!((i.kat, i.kat_header), (kat, hdr));
        assert_eq!(i.revision, "Falcon round 3 (v1.2)");
        assert_eq!(i.feature, "falcon");
        assert_eq!(i.key_forms, KeyForms::EXPANDED);
        assert_eq!((i.keygen_seed_bytes, i.encaps_seed_bytes), (48, 0));
        assert_eq!(i.sign, pqforge_core::SignCaps::NONE);
        assert_eq!(i.oid, None);
        assert!(s.sk_public_ranges().is_empty());
        assert!(i.matches(stem) && i.matches(name));
    }
}

/// Round 3 defines no signing options: every one is refused before any
/// randomness is drawn, typed and dynamic, signing and verifying.
fn options_refused<P: SignatureScheme>() {
    let mut rng = TestRng::new(5);
    let (vk, sk) = P::keygen(&mut rng);
    let sig = P::sign(&sk, b"m", &mut rng).expect("sign");
    let dynsig = SigAlg::<P>::DYN;
    let mut buf = vec![0u8; P::INFO.sig_bytes];
    for opts in [
        SignOptions::new().with_context(b"ctx"),
        SignOptions::new().with_prehash(HashAlg::Sha3_256),
        SignOptions::new().with_digest(HashAlg::Sha2_256),
        SignOptions::new().with_external_mu(),
        SignOptions::new().deterministic(),
    ] {
        // An empty generator: drawing anything would panic.
        let mut none = FixedRng::new(&[]);
        assert!(
            matches!(
                P::sign_with(&sk, b"m", &opts, &mut none),
                Err(Error::Unsupported { .. })
            ),
            "{}: {opts:?}",
            P::INFO.name
        );
        assert!(matches!(
            dynsig.sign(&mut none, sk.as_ref(), b"m", &opts, &mut buf),
            Err(Error::Unsupported { .. })
        ));
        // The contract methods themselves can only be reached through
        // checked options: a direct call cannot smuggle one in.
        assert!(matches!(
            SignChecked::<P>::new(&opts),
            Err(Error::Unsupported { .. })
        ));
        if !opts.is_deterministic() {
            assert!(matches!(
                VerifyChecked::<P>::new(&opts),
                Err(Error::Unsupported { .. })
            ));
            assert!(matches!(
                P::verify_with(&vk, b"m", &opts, sig.as_bytes()),
                Err(Error::Unsupported { .. })
            ));
            assert!(matches!(
                dynsig.verify(vk.as_ref(), b"m", &opts, sig.as_bytes()),
                Err(Error::Unsupported { .. })
            ));
        }
    }
    P::verify_with(&vk, b"m", &SignOptions::new(), sig.as_bytes()).expect("default options");
    // The raw contract calls with checked default options.
    let mut raw = P::SigBytes::zeroed();
    let ok = SignChecked::<P>::new(&SignOptions::new()).expect("default options");
    let n = P::sign_into(sk.prepared(), b"m", &ok, &mut rng, &mut raw).expect("sign_into");
    let ok = VerifyChecked::<P>::new(&SignOptions::new()).expect("default options");
    P::verify_prepared(vk.prepared(), b"m", &ok, &raw.as_ref()[..n]).expect("verify_prepared");
    // A signed-message buffer one byte short is an error, not a panic.
    let need = P::signed_message_bytes(1);
    let mut sm = vec![0u8; need - 1];
    assert!(matches!(
        P::sign_message_into(sk.prepared(), b"m", &mut rng, &mut sm),
        Err(Error::BufferTooSmall { .. })
    ));
}

#[test]
fn round3_refuses_options() {
    options_refused::<Falcon512>();
    options_refused::<FalconPadded512>();
    options_refused::<Falcon1024>();
    options_refused::<FalconPadded1024>();
}

/// Signing draws exactly the 40-byte nonce then the 48-byte seed; the
/// signed message draws the same; key generation one 48-byte seed.
#[test]
fn randomness_drawn() {
    struct Counting(TestRng, Vec<usize>);
    pqforge_core::fill_rng!(impl for Counting, |c: &mut Counting, dst: &mut [u8]| {
        c.1.push(dst.len());
        c.0.fill(dst);
    });
    let mut c = Counting(TestRng::new(6), Vec::new());
    let (_, sk) = FalconPadded512::keygen(&mut c);
    assert_eq!(c.1, [48]);
    c.1.clear();
    FalconPadded512::sign(&sk, b"m", &mut c).expect("sign");
    assert_eq!(c.1, [40, 48]);
    c.1.clear();
    let mut sm = vec![0u8; FalconPadded512::signed_message_bytes(1)];
    FalconPadded512::sign_message_into(sk.prepared(), b"m", &mut c, &mut sm).expect("sm");
    assert_eq!(c.1, [40, 48]);
}
