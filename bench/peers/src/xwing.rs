//! X-Wing: pqforge vs RustCrypto `x-wing` (on RustCrypto `ml-kem` and
//! `x25519-dalek` 3), vs libcrux (`libcrux-kem`, on `libcrux-ml-kem` with
//! its run-time AVX2 selection and HACL* X25519), and the sum of X-Wing's parts on pqforge's ML-KEM-768
//! and `x25519-dalek` (ML-KEM-768 plus one X25519 fixed-base
//! multiplication to generate a key, plus a fixed-base and a variable-base
//! one to encapsulate, plus a variable-base one to decapsulate): the
//! issue's bound, "no overhead of its own beyond hashing".
//!
//! pqforge's typed decapsulation key is prepared once (the seed expanded:
//! an ML-KEM-768 key generation and an X25519 fixed-base multiplication);
//! RustCrypto's `DecapsulationKey` and libcrux's `PrivateKey` (the 32-byte
//! seed) re-expand the seed in every decapsulation. pqforge's one-shot dynamic `decaps` (bytes in) expands
//! too; that row is printed as well. The implementations are first checked
//! to agree: one seed gives the same keys, one randomness the same
//! ciphertext and secret.

use std::hint::black_box;

use pqforge::Kem as _;
use pqforge::mlkem::MlKem768;
use pqforge::xwing::XWing;
use x_wing::kem::{Decapsulate, Decapsulator, KeyExport};

use crate::harness::{Impl, Opts, compare, pqforge_typed, rng};
use rand_core::Rng as _;

fn rustcrypto() -> Impl {
    let mut r = rng();
    let mut seed = [0u8; 32];
    r.fill_bytes(&mut seed);
    let dk = x_wing::DecapsulationKey::from(seed);
    let ek = dk.encapsulation_key().clone();
    let (ct, _) = ek.encapsulate_deterministic(&[5u8; 64].into());
    let (mut r1, mut r2) = (rng(), rng());
    Impl {
        name: "x-wing (RustCrypto)",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    let mut s = [0u8; 32];
                    r1.fill_bytes(&mut s);
                    let dk = x_wing::DecapsulationKey::from(s);
                    black_box(dk.encapsulation_key().to_bytes());
                }),
            ),
            (
                "encaps",
                Box::new(move || {
                    let mut m = [0u8; 64];
                    r2.fill_bytes(&mut m);
                    black_box(ek.encapsulate_deterministic(&m.into()));
                }),
            ),
            (
                "decaps",
                Box::new(move || {
                    black_box(dk.decapsulate(&ct));
                }),
            ),
        ],
    }
}

/// libcrux-kem's X-Wing (draft 06): keys from a 32-byte seed, encapsulation
/// from 64 bytes of randomness (ML-KEM's m, then the X25519 ephemeral
/// scalar), as the draft.
fn libcrux() -> Impl {
    use libcrux_kem::{Algorithm, key_gen_derand};
    let mut r = rng();
    let mut seed = [0u8; 32];
    r.fill_bytes(&mut seed);
    let (sk, pk) = key_gen_derand(Algorithm::XWingKemDraft06, &seed).expect("libcrux keygen");
    let (_, ct) = pk.encapsulate_derand(&[5u8; 64]).expect("libcrux encaps");
    let (mut r1, mut r2) = (rng(), rng());
    Impl {
        name: "x-wing (libcrux-kem)",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    let mut s = [0u8; 32];
                    r1.fill_bytes(&mut s);
                    black_box(key_gen_derand(Algorithm::XWingKemDraft06, &s).ok());
                }),
            ),
            (
                "encaps",
                Box::new(move || {
                    let mut m = [0u8; 64];
                    r2.fill_bytes(&mut m);
                    black_box(pk.encapsulate_derand(&m).ok());
                }),
            ),
            (
                "decaps",
                Box::new(move || {
                    black_box(ct.decapsulate(&sk).ok());
                }),
            ),
        ],
    }
}

/// pqforge's dynamic API, one-shot: decapsulation from the 32-byte key.
fn pqforge_dynamic() -> Impl {
    let k = pqforge::Algorithm::find("x-wing").expect("x-wing registered");
    let pqforge::Scheme::Kem(k) = k.scheme() else {
        unreachable!("x-wing is a KEM")
    };
    let mut r = rng();
    let (mut ek, mut dk) = (vec![0u8; 1216], vec![0u8; 32]);
    k.keygen(&mut r, &mut ek, &mut dk).expect("keygen");
    let (mut ct, mut ss) = (vec![0u8; 1120], [0u8; 32]);
    k.encaps(&mut r, &ek, &mut ct, &mut ss).expect("encaps");
    let (mut r1, mut r2) = (rng(), rng());
    let (ek2, ct2, dk2) = (ek.clone(), ct.clone(), dk.clone());
    Impl {
        name: "pqforge (dynamic API, one-shot)",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    let (mut e, mut d) = ([0u8; 1216], [0u8; 32]);
                    black_box(k.keygen(&mut r1, &mut e, &mut d).ok());
                }),
            ),
            (
                "encaps",
                Box::new(move || {
                    let (mut c, mut s) = ([0u8; 1120], [0u8; 32]);
                    black_box(k.encaps(&mut r2, &ek2, &mut c, &mut s).ok());
                }),
            ),
            (
                "decaps",
                Box::new(move || {
                    let mut s = [0u8; 32];
                    black_box(k.decaps(&dk2, &ct2, &mut s).ok());
                }),
            ),
        ],
    }
}

/// ML-KEM-768 (pqforge, prepared keys) plus the X25519 operations of each
/// X-Wing step, without the combiner, the seed expansion or the copies.
fn parts() -> Impl {
    let mut r = rng();
    let (ek, dk) = MlKem768::keygen(&mut r);
    let (ct, _) = MlKem768::encaps(&ek, &mut r);
    let (mut r1, mut r2) = (rng(), rng());
    let base = |k: [u8; 32]| {
        x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(k)).to_bytes()
    };
    let pk_x = base([3; 32]);
    Impl {
        name: "ML-KEM-768 (pqforge) + X25519 (dalek), sum of parts",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    black_box(MlKem768::keygen(&mut r1));
                    black_box(base([4; 32]));
                }),
            ),
            (
                "encaps",
                Box::new(move || {
                    black_box(MlKem768::encaps(&ek, &mut r2));
                    black_box(base([5; 32]));
                    black_box(x25519_dalek::x25519([5; 32], pk_x));
                }),
            ),
            (
                "decaps",
                Box::new(move || {
                    black_box(MlKem768::decaps(&dk, &ct));
                    black_box(x25519_dalek::x25519([6; 32], pk_x));
                }),
            ),
        ],
    }
}

/// Same keys, ciphertext and secret from the same seed and randomness.
fn cross_check() {
    let seed = [0x42u8; 32];
    let eseed = [0x17u8; 64];
    let (ek, dk) = XWing::keygen_derand(&seed);
    let (ct, ss) = XWing::encaps_derand(&ek, &eseed).expect("encaps_derand");
    let rdk = x_wing::DecapsulationKey::from(seed);
    let rek = rdk.encapsulation_key().clone();
    assert_eq!(
        &rek.to_bytes()[..],
        &ek.as_bytes()[..],
        "x-wing: public keys differ"
    );
    let (rct, rss) = rek.encapsulate_deterministic(&eseed.into());
    assert_eq!(&rct[..], &ct.as_bytes()[..], "x-wing: ciphertexts differ");
    assert_eq!(&rss[..], &ss.as_bytes()[..], "x-wing: secrets differ");
    assert_eq!(
        &rdk.decapsulate(&rct)[..],
        &XWing::decaps(&dk, &ct).as_bytes()[..]
    );
    let (lsk, lpk) = libcrux_kem::key_gen_derand(libcrux_kem::Algorithm::XWingKemDraft06, &seed)
        .expect("libcrux keygen");
    assert_eq!(
        lpk.encode(),
        &ek.as_bytes()[..],
        "x-wing: libcrux public key differs"
    );
    let (lss, lct) = lpk.encapsulate_derand(&eseed).expect("libcrux encaps");
    assert_eq!(
        lct.encode(),
        &ct.as_bytes()[..],
        "x-wing: libcrux ciphertext differs"
    );
    assert_eq!(
        lss.encode(),
        &ss.as_bytes()[..],
        "x-wing: libcrux secret differs"
    );
    let lss2 = lct.decapsulate(&lsk).expect("libcrux decaps");
    assert_eq!(
        lss2.encode(),
        &ss.as_bytes()[..],
        "x-wing: libcrux decapsulated secret differs"
    );
    eprintln!(
        "x-wing: cross-check ok: same keys, ciphertext and secret as RustCrypto x-wing and libcrux-kem"
    );
}

/// Runs the X-Wing comparison.
pub fn run(opts: &Opts) {
    if opts.wants("x-wing") {
        cross_check();
        compare(
            "x-wing",
            vec![
                pqforge_typed::<XWing>(),
                rustcrypto(),
                libcrux(),
                pqforge_dynamic(),
                parts(),
            ],
            opts,
        );
    }
}
