//! Bad inputs (SECURITY-TESTING.md §5): wrong lengths, modulus and hash
//! checks (same errors through the typed API, the one-shot dynamic API and
//! prepared keys), implicit rejection of every single-bit flip, no panics on
//! random bytes; the randomness each entry point draws; the metadata.
#![allow(clippy::unwrap_used)]

use core::convert::Infallible;

use pqforge_core::kat::KatSource;
use pqforge_core::keccak::Shake256;
use pqforge_core::testing::TestRng;
use pqforge_core::{ByteArray, DynKem, Error, KatRng, Kem, KemAlg, KeyForms, Rng, Scheme, Status};
use pqforge_mlkem::{
    Ciphertext, DecapsKey, EncapsKey, MlKem512, MlKem768, MlKem1024, ParameterSet, SCHEMES,
    keygen_ipd_draft,
};

const EK_MODULUS: Error =
    Error::Encoding("ML-KEM encapsulation key: coefficient >= q (modulus check)");
const DK_HASH: Error =
    Error::InvalidKey("ML-KEM decapsulation key: H(ek) does not match (hash check)");
const DK_MODULUS: Error =
    Error::Encoding("ML-KEM decapsulation key: embedded ek has a coefficient >= q");

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
    let mut r = TestRng::new(1);
    let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    k.keygen(&mut r, &mut pk, &mut sk).unwrap();
    let (mut ct, mut ss) = (vec![0u8; i.ct_bytes], vec![0u8; 32]);
    k.encaps(&mut r, &pk, &mut ct, &mut ss).unwrap();
    for n in bad_lengths(i.pk_bytes) {
        let pk2 = vec![0u8; n];
        let r2 = k.encaps(&mut r, &pk2, &mut ct.clone(), &mut ss);
        assert!(is_length(&r2), "{} pk {n}", i.name);
        let r2 = k.encaps_derand(&pk2, &[0; 32], &mut ct.clone(), &mut ss);
        assert!(is_length(&r2), "{} pk {n} (derand)", i.name);
        assert!(is_length(&k.check_ek(&pk2)), "{} check pk {n}", i.name);
        assert!(is_length(&k.prepare_ek(&pk2)), "{} prepare pk {n}", i.name);
    }
    for n in bad_lengths(i.sk_bytes) {
        let sk2 = vec![0u8; n];
        assert!(
            is_length(&k.decaps(&sk2, &ct, &mut ss)),
            "{} sk {n}",
            i.name
        );
        assert!(is_length(&k.check_dk(&sk2)), "{} check sk {n}", i.name);
        assert!(is_length(&k.prepare_dk(&sk2)), "{} prepare sk {n}", i.name);
    }
    let pdk = k.prepare_dk(&sk).unwrap();
    for n in bad_lengths(i.ct_bytes) {
        let ct2 = vec![0u8; n];
        assert!(
            is_length(&k.decaps(&sk, &ct2, &mut ss)),
            "{} ct {n}",
            i.name
        );
        assert!(is_length(&pdk.decaps(&ct2, &mut ss)), "{} ct {n}", i.name);
    }
    assert!(is_length(&k.keygen(&mut r, &mut pk[1..], &mut sk)));
    assert!(is_length(&k.keygen(&mut r, &mut pk, &mut sk[1..])));
    assert!(is_length(&k.keygen_derand(&[0; 63], &mut pk, &mut sk)));
    assert!(is_length(&k.encaps_derand(&pk, &[0; 31], &mut ct, &mut ss)));
    assert!(is_length(&k.encaps(&mut r, &pk, &mut ct[1..], &mut ss)));
    assert!(is_length(&k.decaps(&sk, &ct, &mut ss[1..])));
}

#[test]
fn wrong_lengths() {
    lengths_typed::<MlKem512>();
    lengths_typed::<MlKem768>();
    lengths_typed::<MlKem1024>();
    for s in SCHEMES {
        let Scheme::Kem(k) = s else {
            panic!("ML-KEM is a KEM")
        };
        lengths_dyn(k);
    }
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

/// `b` as an encapsulation key, through every API: the same result.
fn check_ek<P: ParameterSet>(b: &[u8]) -> Result<(), Error> {
    let k = KemAlg::<P>::DYN;
    let typed = EncapsKey::<P>::try_from(b).map(|_| ());
    assert_eq!(k.check_ek(b), typed);
    assert_eq!(k.prepare_ek(b).map(|_| ()), typed);
    let mut ct = vec![0u8; P::CT_BYTES];
    let mut ss = [0u8; 32];
    assert_eq!(k.encaps(&mut TestRng::new(3), b, &mut ct, &mut ss), typed);
    assert_eq!(k.encaps_derand(b, &[3; 32], &mut ct, &mut ss), typed);
    typed
}

/// `b` as a decapsulation key, through every API: the same result.
fn check_dk<P: ParameterSet>(b: &[u8]) -> Result<(), Error> {
    let k = KemAlg::<P>::DYN;
    let typed = DecapsKey::<P>::try_from(b).map(|_| ());
    assert_eq!(k.check_dk(b), typed);
    assert_eq!(k.prepare_dk(b).map(|_| ()), typed);
    let ct = vec![0u8; P::CT_BYTES];
    let mut ss = [0u8; 32];
    assert_eq!(k.decaps(b, &ct, &mut ss), typed);
    typed
}

fn modulus_check<P: ParameterSet>() {
    let mut seed = [3u8; 64];
    seed[32..].fill(4);
    let (ek, dk) = P::keygen_derand(&seed);
    let n = 256 * P::K;
    for pos in [0, 1, 2, 255, 256, n / 2 + 1, n - 2, n - 1] {
        for v in [3329u16, 3330, 4095] {
            let mut b = ek.as_ref().to_vec();
            set_coeff(&mut b, pos, v);
            assert_eq!(check_ek::<P>(&b), Err(EK_MODULUS), "pos {pos} v {v}");
        }
        let mut b = ek.as_ref().to_vec();
        set_coeff(&mut b, pos, 3328);
        assert_eq!(check_ek::<P>(&b), Ok(()), "q-1 at {pos}");
    }
    // dk: modified H(ek), and an embedded ek with a coefficient >= q (with a
    // matching hash, so only the modulus check can catch it).
    let off = 384 * P::K;
    let mut d = dk.as_ref().to_vec();
    d[off + P::EK_BYTES + 7] ^= 1;
    assert_eq!(check_dk::<P>(&d), Err(DK_HASH));
    let mut d = dk.as_ref().to_vec();
    d[off + 9] ^= 0x10; // ek changed, stored hash not
    assert_eq!(check_dk::<P>(&d), Err(DK_HASH));
    let mut d = dk.as_ref().to_vec();
    set_coeff(&mut d[off..off + P::EK_BYTES], 5, 4000);
    let h = pqforge_core::keccak::sha3_256(&d[off..off + P::EK_BYTES]);
    d[off + P::EK_BYTES..off + P::EK_BYTES + 32].copy_from_slice(&h);
    assert_eq!(check_dk::<P>(&d), Err(DK_MODULUS));
    // The secret part is not inspected.
    let mut d = dk.as_ref().to_vec();
    d[0] ^= 0xFF;
    d[P::DK_BYTES - 1] ^= 0xFF;
    assert_eq!(check_dk::<P>(&d), Ok(()));
    // The honest encodings round-trip.
    assert_eq!(check_dk::<P>(dk.as_ref()), Ok(()));
    assert_eq!(check_ek::<P>(ek.as_ref()), Ok(()));
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
    let (ct, k) = MlKem768::encaps(&ek, &mut TestRng::new(2));
    assert_eq!(ct.as_ref().len(), 1088);
    assert_eq!(k.as_ref().len(), 32);
    assert_eq!(check_ek::<MlKem768>(&[0xFFu8; 1184]), Err(EK_MODULUS));
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
    let (ek, dk) = MlKem768::keygen(&mut TestRng::new(5));
    let (ct, k) = MlKem768::encaps(&ek, &mut TestRng::new(6));
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
    let mut r = TestRng::new(9);
    let i = k.info();
    let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    k.keygen(&mut r, &mut pk, &mut sk).unwrap();
    let pdk = k.prepare_dk(&sk).unwrap();
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
        assert!(matches!(
            k.decaps(&junk_sk, &junk_ct, &mut ss),
            Err(Error::InvalidKey(_))
        ));
        // Random ct under a real key: implicit rejection.
        k.decaps(&sk, &junk_ct, &mut ss).unwrap();
        assert_eq!(ss, j(&sk[i.sk_bytes - 32..], &junk_ct));
        pdk.decaps(&junk_ct, &mut ss).unwrap();
        assert_eq!(ss, j(&sk[i.sk_bytes - 32..], &junk_ct));
    }
}

#[test]
fn no_panic_on_random_bytes() {
    for s in SCHEMES {
        let Scheme::Kem(k) = s else {
            panic!("ML-KEM is a KEM")
        };
        random_bytes(k);
    }
}

#[test]
fn seed_round_trip_and_expanded_key_match() {
    let seed: [u8; 64] = core::array::from_fn(|i| i as u8);
    let dk = DecapsKey::<MlKem1024>::from_seed(&seed).unwrap();
    assert_eq!(dk.seed(), Some(&seed));
    let dk2 = DecapsKey::<MlKem1024>::try_from(dk.as_ref()).unwrap();
    assert_eq!(dk2.seed(), None);
    assert_eq!(dk2.as_ref(), dk.as_ref());
    let (ek, dk3) = MlKem1024::keygen_derand(&seed);
    assert_eq!(dk3.as_ref(), dk.as_ref());
    assert_eq!(dk3.seed(), Some(&seed));
    assert_eq!(Some(&ek), dk.encaps_key().as_ref());
    assert_eq!(
        ek.prepared().state(),
        &pqforge_core::keccak::sha3_256(ek.as_ref())
    );
}

#[test]
fn ipd_draft_keygen_differs_only_in_g() {
    fn check<P: ParameterSet>() {
        let seed: [u8; 64] = core::array::from_fn(|i| (i * 7) as u8);
        let mut ek = <P::EkBytes as ByteArray>::zeroed();
        let mut dk = <P::DkBytes as ByteArray>::zeroed();
        keygen_ipd_draft::<P>(&seed, &mut ek, &mut dk);
        let (ek_final, _) = P::keygen_derand(&seed);
        assert_ne!(ek.as_ref(), ek_final.as_ref());
        // A well-formed key pair all the same.
        let ek = EncapsKey::<P>::try_from(ek.as_ref()).unwrap();
        let dk = DecapsKey::<P>::try_from(dk.as_ref()).unwrap();
        assert_eq!(dk.encaps_key().as_ref(), Some(&ek));
        let (ct, k) = P::encaps_derand(&ek, &[5; 32]).unwrap();
        assert_eq!(P::decaps(&dk, &ct), k);
        assert_eq!(&dk.as_ref()[P::DK_BYTES - 32..], &seed[32..]);
    }
    check::<MlKem512>();
    check::<MlKem768>();
    check::<MlKem1024>();
}

/// Records the size of every `fill_bytes` call (and `u32`/`u64` draws as
/// 4 and 8 with a marker) of an inner generator.
struct Recorder {
    inner: TestRng,
    calls: Vec<(&'static str, usize)>,
}

impl Recorder {
    fn new(seed: u64) -> Self {
        Self {
            inner: TestRng::new(seed),
            calls: Vec::new(),
        }
    }

    fn take(&mut self) -> Vec<(&'static str, usize)> {
        core::mem::take(&mut self.calls)
    }
}

impl rand_core::TryRng for Recorder {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        self.calls.push(("u32", 4));
        Ok(self.inner.next_u32())
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.calls.push(("u64", 8));
        Ok(self.inner.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.calls.push(("fill", dst.len()));
        self.inner.fill(dst);
        Ok(())
    }
}

impl rand_core::TryCryptoRng for Recorder {}

fn draws<P: ParameterSet>() {
    let keygen = vec![("fill", 64)];
    let encaps = vec![("fill", 32)];
    let mut r = Recorder::new(1);
    let (ek, _dk) = P::keygen(&mut r);
    assert_eq!(r.take(), keygen, "typed keygen");
    let _ = P::encaps(&ek, &mut r);
    assert_eq!(r.take(), encaps, "typed encaps");
    let k = KemAlg::<P>::DYN;
    let (mut pk, mut sk) = (vec![0u8; P::EK_BYTES], vec![0u8; P::DK_BYTES]);
    let (mut ct, mut ss) = (vec![0u8; P::CT_BYTES], [0u8; 32]);
    k.keygen(&mut r, &mut pk, &mut sk).unwrap();
    assert_eq!(r.take(), keygen, "dyn keygen");
    k.encaps(&mut r, &pk, &mut ct, &mut ss).unwrap();
    assert_eq!(r.take(), encaps, "dyn encaps");
    k.prepare_ek(&pk)
        .unwrap()
        .encaps(&mut r, &mut ct, &mut ss)
        .unwrap();
    assert_eq!(r.take(), encaps, "prepared encaps");
    // Nothing drawn by a rejected key.
    assert!(
        k.encaps(&mut r, &[0xFF; 4000][..P::EK_BYTES], &mut ct, &mut ss)
            .is_err()
    );
    assert_eq!(r.take(), vec![], "rejected encaps");
}

#[test]
fn keygen_draws_one_64_byte_and_encaps_one_32_byte_block() {
    draws::<MlKem512>();
    draws::<MlKem768>();
    draws::<MlKem1024>();
    // With the NIST DRBG (whose output depends on how it is called): the
    // randomised entry points equal the deterministic ones on one 64-byte
    // then one 32-byte block.
    let mut a = KatSource::new(KatRng::NistDrbg, &[11; 48]);
    let (ek, dk) = MlKem512::keygen(&mut a);
    let (ct, k) = MlKem512::encaps(&ek, &mut a);
    let mut b = KatSource::new(KatRng::NistDrbg, &[11; 48]);
    let mut s = [0u8; 64];
    b.fill_bytes(&mut s);
    let mut m = [0u8; 32];
    b.fill_bytes(&mut m);
    assert_eq!(MlKem512::keygen_derand(&s).1.as_ref(), dk.as_ref());
    let (ct2, k2) = MlKem512::encaps_derand(&ek, &m).unwrap();
    assert_eq!(ct, ct2);
    assert_eq!(k, k2);
}

#[test]
fn metadata() {
    let want = [
        (
            "ml-kem-512",
            "# ML-KEM-512",
            "2.16.840.1.101.3.4.4.1",
            "mlkem512",
            1,
            2,
        ),
        (
            "ml-kem-768",
            "# ML-KEM-768",
            "2.16.840.1.101.3.4.4.2",
            "mlkem768",
            3,
            3,
        ),
        (
            "ml-kem-1024",
            "# ML-KEM-1024",
            "2.16.840.1.101.3.4.4.3",
            "mlkem1024",
            5,
            4,
        ),
    ];
    let sizes = [(800, 1632, 768), (1184, 2400, 1088), (1568, 3168, 1568)];
    for ((s, (name, header, oid, stem, cat, k)), (ek, dk, ct)) in
        SCHEMES.iter().zip(want).zip(sizes)
    {
        let i = s.info();
        assert_eq!(i.name, name);
        assert_eq!(i.family, "ML-KEM");
        assert_eq!(
            (i.pk_bytes, i.sk_bytes, i.ct_bytes, i.ss_bytes),
            (ek, dk, ct, 32)
        );
        assert_eq!(i.sig_bytes, 0);
        assert_eq!(i.category, cat);
        assert_eq!(i.status, Status::Standard);
        assert_eq!((i.kat, i.kat_header), (KatRng::NistDrbg, header));
        assert_eq!(i.revision, "FIPS 203 (August 2024)");
        assert_eq!(i.oid, Some(oid));
        assert_eq!(i.key_forms, KeyForms::SEED_AND_EXPANDED);
        assert_eq!((i.c_stem, i.feature), (stem, "mlkem"));
        assert_eq!((i.keygen_seed_bytes, i.encaps_seed_bytes), (64, 32));
        assert!(i.matches(&name.to_uppercase()) && i.matches(stem));
        assert_eq!(
            s.sk_public_ranges(),
            core::slice::from_ref(&(384 * k..768 * k + 64))
        );
    }
    assert_eq!(<MlKem768 as Kem>::DK_EK_OFFSET, Some(384 * 3));
    assert_eq!(<MlKem1024 as Kem>::DK_EK_OFFSET, Some(384 * 4));
}
