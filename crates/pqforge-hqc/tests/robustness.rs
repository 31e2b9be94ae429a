//! Robustness and regression tests: implicit rejection, non-canonical
//! encodings, malformed inputs, tampered keys.

use pqforge_core::keccak::sha3_256_parts;
use pqforge_core::testing::TestRng;
use pqforge_core::{ByteArray, DynKem, Error, KemAlg, KeyForms, Scheme, Status};
use pqforge_hqc::{
    Ciphertext, DecapsKey, EncapsKey, Hqc1, Hqc1V5, Hqc3, Hqc3V5, Hqc5, Hqc5V5, Kem, ParameterSet,
    SCHEMES, SharedSecret,
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

/// The implicit-rejection key K̄ = J(H(ek) || σ || c) computed from the
/// encoded key, independently of the library.
fn rejection_key<P: ParameterSet>(sk: &[u8], ct: &[u8]) -> [u8; 32] {
    let ek = &sk[..P::ENCAPS_KEY_BYTES];
    let sigma = &sk[P::ENCAPS_KEY_BYTES + 32..P::ENCAPS_KEY_BYTES + 32 + P::K];
    let hek = sha3_256_parts(&[ek, &[0x01]]);
    sha3_256_parts(&[&hek, sigma, ct, &[0x03]])
}

type Keys<K> = (EncapsKey<K>, DecapsKey<K>, Ciphertext<K>, SharedSecret<K>);

fn setup<K: Kem>(tag: u8) -> Keys<K> {
    let mut r = rng(tag);
    let (ek, dk) = K::keygen(&mut r);
    let (ct, ss) = K::encaps(&ek, &mut r);
    assert_eq!(K::decaps(&dk, &ct).as_ref(), ss.as_ref());
    (ek, dk, ct, ss)
}

/// Decapsulates `bytes` and checks the result is exactly K̄ for those bytes.
fn assert_rejected<K: ParameterSet>(dk: &DecapsKey<K>, bytes: &[u8], honest: &[u8]) {
    let ct = Ciphertext::<K>::try_from(bytes).expect("length is right");
    let k = K::decaps(dk, &ct);
    assert_eq!(k.as_ref(), rejection_key::<K>(dk.as_ref(), bytes), "not K̄");
    assert_ne!(k.as_ref(), honest, "honest key leaked");
}

/// CVE-2024-54137: a tampered ciphertext that still decodes to the same m'
/// must give K̄, not K(m').
fn tampered_gives_rejection_key<K: ParameterSet>() {
    let (_, dk, ct, ss) = setup::<K>(1);
    let mut bad = ct.as_ref().to_vec();
    // One bit of v: far inside the decoding radius, so m' = m.
    bad[K::N_BYTES + 5] ^= 0x10;
    assert_rejected::<K>(&dk, &bad, ss.as_ref());
    // One bit of u.
    let mut bad = ct.as_ref().to_vec();
    bad[7] ^= 0x01;
    assert_rejected::<K>(&dk, &bad, ss.as_ref());
}

#[test]
fn cve_2024_54137_all_sets() {
    tampered_gives_rejection_key::<Hqc1>();
    tampered_gives_rejection_key::<Hqc3>();
    tampered_gives_rejection_key::<Hqc5>();
    tampered_gives_rejection_key::<Hqc1V5>();
    tampered_gives_rejection_key::<Hqc3V5>();
    tampered_gives_rejection_key::<Hqc5V5>();
}

/// CVE-2025-48946: changing only the salt must give implicit rejection, with
/// a different K̄ per salt.
fn salt_change<K: ParameterSet>() {
    let (_, dk, ct, ss) = setup::<K>(2);
    let off = K::CIPHERTEXT_BYTES - 16;
    let mut keys = Vec::new();
    for delta in [1u8, 2, 0x80] {
        let mut bad = ct.as_ref().to_vec();
        bad[off + 3] ^= delta;
        assert_rejected::<K>(&dk, &bad, ss.as_ref());
        let c = Ciphertext::<K>::try_from(bad.as_slice()).expect("len");
        keys.push(K::decaps(&dk, &c).as_ref().to_vec());
    }
    assert_ne!(keys[0], keys[1]);
    assert_ne!(keys[1], keys[2]);
    assert_ne!(keys[0], keys[2]);
}

#[test]
fn cve_2025_48946_salt() {
    salt_change::<Hqc1>();
    salt_change::<Hqc3>();
    salt_change::<Hqc5>();
    salt_change::<Hqc1V5>();
}

/// Unused high bits: u's last byte gives implicit rejection, v has none,
/// s is rejected at import.
fn high_bits<K: ParameterSet>() {
    let (ek, dk, ct, ss) = setup::<K>(3);
    let unused = 8 * K::N_BYTES - K::N;
    assert!(unused > 0);
    assert_eq!(8 * K::V_BYTES, K::N1N2, "v has no unused bits");
    for b in 8 - unused..8 {
        let mut bad = ct.as_ref().to_vec();
        bad[K::N_BYTES - 1] ^= 1 << b;
        assert_rejected::<K>(&dk, &bad, ss.as_ref());

        let mut bad_ek = ek.as_ref().to_vec();
        bad_ek[K::ENCAPS_KEY_BYTES - 1] ^= 1 << b;
        assert!(matches!(
            EncapsKey::<K>::try_from(bad_ek.as_slice()),
            Err(Error::Encoding(_))
        ));
        let mut bad_dk = dk.as_ref().to_vec();
        bad_dk[K::ENCAPS_KEY_BYTES - 1] ^= 1 << b;
        assert!(matches!(
            DecapsKey::<K>::try_from(bad_dk.as_slice()),
            Err(Error::Encoding(_))
        ));
        // The same checks through the dynamic interface.
        let alg = KemAlg::<K>::DYN;
        assert!(matches!(alg.check_ek(&bad_ek), Err(Error::Encoding(_))));
        assert!(matches!(alg.prepare_ek(&bad_ek), Err(Error::Encoding(_))));
        assert!(matches!(alg.check_dk(&bad_dk), Err(Error::Encoding(_))));
        assert!(matches!(alg.prepare_dk(&bad_dk), Err(Error::Encoding(_))));
    }
    // The highest used bit of s is accepted by the encoding check.
    let mut ok_ek = ek.as_ref().to_vec();
    ok_ek[K::ENCAPS_KEY_BYTES - 1] ^= 1 << (7 - unused);
    assert!(EncapsKey::<K>::try_from(ok_ek.as_slice()).is_ok());
}

#[test]
fn non_canonical_high_bits() {
    high_bits::<Hqc1>();
    high_bits::<Hqc3>();
    high_bits::<Hqc5>();
    high_bits::<Hqc5V5>();
}

/// Every single-bit flip of a valid HQC-1 ciphertext gives exactly K̄.
fn all_bit_flips<K: ParameterSet>() {
    let (_, dk, ct, ss) = setup::<K>(4);
    let (ct, ss) = (ct.as_ref().to_vec(), ss.as_ref().to_vec());
    let bits = 8 * ct.len();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|s| {
        for t in 0..threads {
            let (dk, ct, ss) = (&dk, &ct, &ss);
            s.spawn(move || {
                for bit in (t..bits).step_by(threads) {
                    let mut bad = ct.clone();
                    bad[bit / 8] ^= 1 << (bit % 8);
                    assert_rejected::<K>(dk, &bad, ss);
                }
            });
        }
    });
}

#[test]
fn every_bit_flip_hqc1() {
    all_bit_flips::<Hqc1>();
}

#[test]
fn wrong_lengths() {
    let (ek, dk, ct, _) = setup::<Hqc1>(5);
    for (len, what) in [(0usize, "short"), (1, "one"), (5000, "long")] {
        let b = vec![0u8; len];
        assert!(
            matches!(
                EncapsKey::<Hqc1>::try_from(&b[..]),
                Err(Error::Length { .. })
            ),
            "{what}"
        );
        assert!(matches!(
            DecapsKey::<Hqc1>::try_from(&b[..]),
            Err(Error::Length { .. })
        ));
        assert!(matches!(
            Ciphertext::<Hqc1>::try_from(&b[..]),
            Err(Error::Length { .. })
        ));
    }
    let off_by_one = |v: &[u8]| [v[..v.len() - 1].to_vec(), [v, &[0]].concat()];
    for b in off_by_one(ek.as_ref()) {
        assert!(matches!(
            EncapsKey::<Hqc1>::try_from(&b[..]),
            Err(Error::Length { .. })
        ));
    }
    for b in off_by_one(dk.as_ref()) {
        assert!(matches!(
            DecapsKey::<Hqc1>::try_from(&b[..]),
            Err(Error::Length { .. })
        ));
    }
    for b in off_by_one(ct.as_ref()) {
        assert!(matches!(
            Ciphertext::<Hqc1>::try_from(&b[..]),
            Err(Error::Length { .. })
        ));
    }
    // Through the dynamic interface, for every set.
    for alg in all() {
        let i = alg.info();
        let mut r = rng(6);
        let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
        assert!(matches!(
            alg.keygen(&mut r, &mut pk[1..], &mut sk),
            Err(Error::Length { .. })
        ));
        assert!(matches!(
            alg.keygen(&mut r, &mut pk, &mut sk[1..]),
            Err(Error::Length { .. })
        ));
        assert!(matches!(
            alg.keygen_derand(&[0u8; 31], &mut pk, &mut sk),
            Err(Error::Length { .. })
        ));
        alg.keygen(&mut r, &mut pk, &mut sk).expect("keygen");
        let (mut c, mut ss) = (vec![0u8; i.ct_bytes], vec![0u8; 32]);
        assert!(matches!(
            alg.encaps(&mut r, &pk[1..], &mut c, &mut ss),
            Err(Error::Length { .. })
        ));
        assert!(matches!(
            alg.encaps(&mut r, &pk, &mut c[1..], &mut ss),
            Err(Error::Length { .. })
        ));
        assert!(matches!(
            alg.encaps(&mut r, &pk, &mut c, &mut ss[1..]),
            Err(Error::Length { .. })
        ));
        // m || salt must be exactly k + 16 bytes.
        let m_salt = vec![7u8; i.encaps_seed_bytes];
        for bad in [&m_salt[1..], &[m_salt.as_slice(), &[0]].concat()] {
            assert!(matches!(
                alg.encaps_derand(&pk, bad, &mut c, &mut ss),
                Err(Error::Length { .. })
            ));
        }
        alg.encaps(&mut r, &pk, &mut c, &mut ss).expect("encaps");
        let mut ss2 = vec![0u8; 32];
        assert!(matches!(
            alg.decaps(&sk[1..], &c, &mut ss2),
            Err(Error::Length { .. })
        ));
        assert!(matches!(
            alg.decaps(&sk, &c[1..], &mut ss2),
            Err(Error::Length { .. })
        ));
        let long = [c.as_slice(), &[0]].concat();
        assert!(matches!(
            alg.decaps(&sk, &long, &mut ss2),
            Err(Error::Length { .. })
        ));
        assert!(matches!(
            alg.decaps(&sk, &c, &mut ss2[1..]),
            Err(Error::Length { .. })
        ));
        alg.decaps(&sk, &c, &mut ss2).expect("decaps");
        assert_eq!(ss, ss2, "{}", i.name);
        // Prepared keys: checked once, the same results.
        let pdk = alg.prepare_dk(&sk).expect("prepare_dk");
        let mut ss3 = vec![0u8; 32];
        pdk.decaps(&c, &mut ss3).expect("prepared decaps");
        assert_eq!(ss, ss3, "{}", i.name);
        assert!(matches!(
            pdk.decaps(&c[1..], &mut ss3),
            Err(Error::Length { .. })
        ));
        let pek = alg.prepare_ek(&pk).expect("prepare_ek");
        assert_eq!(pek.as_bytes(), pk.as_slice());
        pek.encaps_derand(&m_salt, &mut c, &mut ss)
            .expect("prepared encaps");
        let mut c2 = vec![0u8; i.ct_bytes];
        alg.encaps_derand(&pk, &m_salt, &mut c2, &mut ss2)
            .expect("encaps_derand");
        assert_eq!((&c, &ss), (&c2, &ss2), "{}", i.name);
        pdk.decaps(&c, &mut ss3).expect("prepared decaps");
        assert_eq!(ss, ss3, "{}", i.name);
    }
}

fn tampered_dk<K: ParameterSet>() {
    let (_, dk, _, _) = setup::<K>(7);
    let sk = dk.as_ref();
    assert!(DecapsKey::<K>::try_from(sk).is_ok());
    let alg = KemAlg::<K>::DYN;
    assert!(alg.check_dk(sk).is_ok());
    // A byte in seed_kem, seed_dk, sigma, seed_ek and s.
    for pos in [
        K::DECAPS_KEY_BYTES - 1,
        K::DECAPS_KEY_BYTES - 32,
        K::ENCAPS_KEY_BYTES,
        K::ENCAPS_KEY_BYTES + 32,
        K::ENCAPS_KEY_BYTES + 32 + K::K - 1,
        0,
        40,
        K::ENCAPS_KEY_BYTES - 2,
    ] {
        let mut bad = sk.to_vec();
        bad[pos] ^= 0x01;
        assert!(
            matches!(
                DecapsKey::<K>::try_from(bad.as_slice()),
                Err(Error::InvalidKey(_))
            ),
            "byte {pos}"
        );
        assert!(
            matches!(alg.prepare_dk(&bad), Err(Error::InvalidKey(_))),
            "prepare_dk, byte {pos}"
        );
        let (ct, mut ss) = (vec![0u8; K::CIPHERTEXT_BYTES], [0u8; 32]);
        assert!(
            matches!(alg.decaps(&bad, &ct, &mut ss), Err(Error::InvalidKey(_))),
            "one-shot decaps, byte {pos}"
        );
    }
}

#[test]
fn tampered_decaps_key_rejected() {
    tampered_dk::<Hqc1>();
    tampered_dk::<Hqc3V5>();
    tampered_dk::<Hqc5>();
}

#[test]
fn random_bytes_never_panic() {
    let mut r = TestRng::new(0x5EED);
    for alg in all() {
        let i = alg.info();
        for _ in 0..4 {
            let mut pk = vec![0u8; i.pk_bytes];
            let mut sk = vec![0u8; i.sk_bytes];
            let mut c = vec![0u8; i.ct_bytes];
            r.fill(&mut pk);
            r.fill(&mut sk);
            r.fill(&mut c);
            let mut ss = vec![0u8; 32];
            let mut ct = vec![0u8; i.ct_bytes];
            let mut kr = rng(8);
            // Random ek: an encoding error unless the padding bits are zero.
            match alg.encaps(&mut kr, &pk, &mut ct, &mut ss) {
                Ok(()) | Err(Error::Encoding(_)) => {}
                Err(e) => panic!("{}: {e}", i.name),
            }
            let last = pk.len() - 1;
            pk[last] &= 0x07; // padding cleared for every set (n mod 8 >= 3)
            alg.encaps(&mut kr, &pk, &mut ct, &mut ss)
                .expect("encaps to random ek");
            // Random dk: rejected, never a panic.
            assert!(alg.decaps(&sk, &c, &mut ss).is_err());
        }
        // A valid dk with a random ciphertext: K̄, no error.
        let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
        alg.keygen(&mut rng(9), &mut pk, &mut sk).expect("keygen");
        let mut c = vec![0u8; i.ct_bytes];
        r.fill(&mut c);
        let mut ss = vec![0u8; 32];
        alg.decaps(&sk, &c, &mut ss).expect("decaps of random ct");
    }
}

#[test]
fn registry() {
    let names: Vec<_> = SCHEMES.iter().map(|a| a.info().name).collect();
    assert_eq!(
        names,
        [
            "hqc-1",
            "hqc-3",
            "hqc-5",
            "hqc-1-v5.0.0",
            "hqc-3-v5.0.0",
            "hqc-5-v5.0.0"
        ]
    );
    let stems = [
        "hqc1",
        "hqc3",
        "hqc5",
        "hqc1_v5_0_0",
        "hqc3_v5_0_0",
        "hqc5_v5_0_0",
    ];
    for (a, stem) in all().zip(stems) {
        let i = a.info();
        assert_eq!(i.family, "HQC");
        assert_eq!(i.kind, pqforge_core::Kind::Kem);
        assert_eq!(i.sig_bytes, 0);
        assert_eq!(i.ss_bytes, 32);
        assert_eq!(i.status, Status::Draft);
        assert_eq!(i.kat, pqforge_core::KatRng::HqcShake256);
        assert_eq!(i.kat_header, format!("# HQC-{}", i.category));
        assert!(i.revision.starts_with("official reference "));
        assert_eq!(i.c_stem, stem);
        assert_eq!(i.feature, "hqc");
        assert_eq!(i.oid, None);
        assert_eq!(i.key_forms, KeyForms::EXPANDED);
        assert_eq!(i.keygen_seed_bytes, 32);
        let k = [16, 24, 32][usize::from(i.category / 2)];
        assert_eq!(i.encaps_seed_bytes, k + 16);
        assert!(i.matches(stem) && i.matches(i.name));
        let ranges = a.dk_public_ranges();
        assert_eq!(ranges.len(), 1);
        assert_eq!(ranges[0], 0..i.pk_bytes);
    }
    assert_eq!(Hqc1::DK_EK_OFFSET, Some(0));
    assert_eq!(SCHEMES[0].sk_public_ranges(), Hqc1::DK_PUBLIC);
    assert_eq!(
        (
            Hqc1::INFO.pk_bytes,
            Hqc1::INFO.sk_bytes,
            Hqc1::INFO.ct_bytes
        ),
        (2241, 2321, 4433)
    );
}

#[test]
fn derand_matches_randomised() {
    let mut r = rng(10);
    let (ek, dk) = Hqc3::keygen(&mut r);
    let mut r2 = rng(10);
    let seed: [u8; 32] = r2.array();
    let (ek2, dk2) = Hqc3::keygen_derand(&seed);
    assert_eq!(ek, ek2);
    assert_eq!(dk.as_ref(), dk2.as_ref());
    // Not a seed-form key: the seed is not kept.
    assert!(dk2.seed().is_none());
    assert!(matches!(
        DecapsKey::<Hqc3>::from_seed(&seed),
        Err(Error::Unsupported { .. })
    ));
    let (ct, ss) = Hqc3::encaps(&ek, &mut r);
    let m_salt: [u8; 24 + 16] = r2.array();
    let (ct2, ss2) = Hqc3::encaps_derand(&ek, &m_salt).expect("deterministic encaps");
    assert_eq!(ct, ct2);
    assert_eq!(ss, ss2);
    // The embedded encapsulation key.
    assert_eq!(dk.encaps_key(), Some(ek));
}

/// Records the length of every `fill_bytes` call (test inputs from
/// `TestRng`).
struct Recorder {
    inner: TestRng,
    calls: Vec<usize>,
}

// Word draws are recorded as fills of 4 or 8 bytes: a stray one shows up
// in the recorded lengths.
pqforge_core::fill_rng!(impl for Recorder, |r: &mut Recorder, dst: &mut [u8]| {
    r.calls.push(dst.len());
    r.inner.fill(dst);
});

/// The draws the KATs depend on: keygen one 32-byte seed_kem; encaps m
/// (k bytes), then salt (16 bytes); decaps nothing. Typed and dynamic alike.
fn draws<K: ParameterSet>() {
    let mut r = Recorder {
        inner: TestRng::new(11),
        calls: Vec::new(),
    };
    let (ek, dk) = K::keygen(&mut r);
    assert_eq!(r.calls, [32], "{} keygen", K::INFO.name);
    r.calls.clear();
    let (ct, _) = K::encaps(&ek, &mut r);
    assert_eq!(r.calls, [K::K, 16], "{} encaps", K::INFO.name);
    r.calls.clear();
    let _ = K::decaps(&dk, &ct);
    let alg = KemAlg::<K>::DYN;
    let (mut pk, mut sk) = (
        vec![0u8; K::ENCAPS_KEY_BYTES],
        vec![0u8; K::DECAPS_KEY_BYTES],
    );
    alg.keygen(&mut r, &mut pk, &mut sk).expect("keygen");
    let (mut c, mut ss) = (vec![0u8; K::CIPHERTEXT_BYTES], [0u8; 32]);
    alg.encaps(&mut r, &pk, &mut c, &mut ss).expect("encaps");
    alg.decaps(&sk, &c, &mut ss).expect("decaps");
    assert_eq!(r.calls, [32, K::K, 16], "{} dynamic", K::INFO.name);
    // And the deterministic entry points consume exactly those bytes.
    let mut a = TestRng::new(12);
    let mut b = TestRng::new(12);
    let (ek, _) = K::keygen(&mut a);
    let (ct, ss) = K::encaps(&ek, &mut a);
    let (ek2, _) = K::keygen_derand(&b.array());
    let mut m_salt = K::EncapsSeed::zeroed();
    b.fill(&mut m_salt.as_mut()[..K::K]);
    b.fill(&mut m_salt.as_mut()[K::K..]);
    let (ct2, ss2) = K::encaps_derand(&ek2, &m_salt).expect("derand");
    assert_eq!((ek, ct, ss), (ek2, ct2, ss2), "{}", K::INFO.name);
}

#[test]
fn randomness_draws() {
    draws::<Hqc1>();
    draws::<Hqc3>();
    draws::<Hqc5>();
    draws::<Hqc1V5>();
    draws::<Hqc3V5>();
    draws::<Hqc5V5>();
}
