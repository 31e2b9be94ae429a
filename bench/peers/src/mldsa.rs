//! ML-DSA-44/65/87 (FIPS 204): pqforge (typed API; its run-time dispatch:
//! AVX-512, AVX2 with `--no-avx512`, else portable) vs `pqcrypto-mldsa` (PQClean; its AVX2 code when the CPU has AVX2,
//! picked at run time), `aws-lc-rs` (mldsa-native, AVX2 inside),
//! `libcrux-ml-dsa` (AVX2 picked at run time), `oqs` (liboqs 0.13, AVX2
//! picked at run time) and RustCrypto `ml-dsa` (portable Rust).
//!
//! Every implementation does the same thing:
//! - keygen: a key pair from fresh randomness;
//! - sign: **pure** ML-DSA, **empty context**, **hedged** (a fresh 32-byte
//!   `rnd` per signature: the only mode PQClean, aws-lc-rs and liboqs
//!   offer), of 32-byte messages taken in turn from one fixed set of
//!   [`NMSG`] messages, the same sequence for every implementation. The
//!   time of one signature depends on its number of rejection-loop
//!   attempts, so the median over many messages and `rnd`s is what counts;
//! - verify: the implementation's own signatures of those messages, in turn,
//!   the signature taken as bytes.
//!
//! Keys are decoded once, as everywhere in this crate. RustCrypto's decoded
//! keys keep the expanded matrix Â (and the NTT forms of s1, s2, t0 and
//! t1·2^d), so its signing and verification skip ExpandA, which pqforge and
//! the other peers run on every call (their keys are byte strings). It
//! therefore has a second row that decodes the keys from bytes on every call
//! (`VerifyingKey::decode`, `ExpandedSigningKey::from_expanded`): the
//! like-for-like comparison.
//!
//! Before any timing, [`cross_check`] makes sure the implementations compute
//! the same thing (and panics otherwise): one seed gives the same keys in
//! pqforge, libcrux, RustCrypto and aws-lc-rs; pqforge's deterministic
//! signature equals libcrux's and RustCrypto's; pqforge's hedged signatures
//! (the benchmarked call) verify under all five peers, and every peer's
//! benchmarked signing call produces signatures pqforge accepts.

use std::hint::black_box;
use std::sync::LazyLock;

use aws_lc_rs::signature::{
    KeyPair as _, ParsedPublicKey, PqdsaKeyPair, PqdsaSigningAlgorithm, PqdsaVerificationAlgorithm,
};
use pqcrypto_traits::sign::{DetachedSignature as _, PublicKey as _};
use pqforge::{SignOptions, SignatureScheme, VerifyingKey};
use rand_core::{Rng as _, SeedableRng as _};

use crate::harness::{Impl, Opts, compare, rng};

/// How many different messages signing and verification cycle through.
pub const NMSG: usize = 128;

/// The benchmark's messages: [`NMSG`] fixed 32-byte strings (ChaCha20 from a
/// constant seed), the same for every implementation and every run.
static MSGS: LazyLock<Vec<[u8; 32]>> = LazyLock::new(|| {
    let mut r = rand_chacha::ChaCha20Rng::from_seed(*b"pqforge ML-DSA peers bench msgs!");
    (0..NMSG)
        .map(|_| {
            let mut m = [0u8; 32];
            r.fill_bytes(&mut m);
            m
        })
        .collect()
});

/// The index of the next message of a cycle at `*i`, advancing it.
fn next(i: &mut usize) -> usize {
    let k = *i % NMSG;
    *i += 1;
    k
}

/// 32 bytes from `r` (a seed or a signing `rnd`).
fn rand32(r: &mut rand_chacha::ChaCha20Rng) -> [u8; 32] {
    let mut b = [0u8; 32];
    r.fill_bytes(&mut b);
    b
}

/// pqforge's typed API: default signing options (pure, empty context,
/// hedged).
fn pqforge_impl<S: SignatureScheme>() -> Impl {
    let mut r = rng();
    let (vk, sk) = S::keygen(&mut r);
    let sigs: Vec<_> = MSGS
        .iter()
        .map(|m| S::sign(&sk, m, &mut r).expect("pqforge sign"))
        .collect();
    let (mut r1, mut r2) = (rng(), rng());
    let (mut i, mut j) = (0, 0);
    Impl {
        name: "pqforge",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    black_box(S::keygen(&mut r1));
                }),
            ),
            (
                "sign",
                Box::new(move || {
                    let k = next(&mut i);
                    black_box(S::sign(&sk, &MSGS[k], &mut r2).expect("sign"));
                }),
            ),
            (
                "verify",
                Box::new(move || {
                    let k = next(&mut j);
                    S::verify(&vk, &MSGS[k], black_box(sigs[k].as_bytes())).expect("verify");
                }),
            ),
        ],
    }
}

macro_rules! pqclean {
    ($m:ident) => {{
        use pqcrypto_mldsa::$m;
        let (pk, sk) = $m::keypair();
        let sigs: Vec<_> = MSGS.iter().map(|m| $m::detached_sign(m, &sk)).collect();
        let (mut i, mut j) = (0, 0);
        Impl {
            name: "pqcrypto-mldsa (PQClean, AVX2 if available)",
            ops: vec![
                (
                    "keygen",
                    Box::new(|| {
                        black_box($m::keypair());
                    }),
                ),
                (
                    "sign",
                    Box::new(move || {
                        let k = next(&mut i);
                        black_box($m::detached_sign(&MSGS[k], &sk));
                    }),
                ),
                (
                    "verify",
                    Box::new(move || {
                        let k = next(&mut j);
                        $m::verify_detached_signature(black_box(&sigs[k]), &MSGS[k], &pk)
                            .expect("verify");
                    }),
                ),
            ],
        }
    }};
}

/// `aws-lc-rs` (public key parsed once).
fn aws(alg: &'static PqdsaSigningAlgorithm, valg: &'static PqdsaVerificationAlgorithm) -> Impl {
    let kp = PqdsaKeyPair::generate(alg).expect("aws-lc keygen");
    let pk = ParsedPublicKey::new(valg, kp.public_key().as_ref()).expect("aws-lc pk");
    let mut buf = vec![0u8; alg.signature_len()];
    let sigs: Vec<Vec<u8>> = MSGS
        .iter()
        .map(|m| {
            let n = kp.sign(m, &mut buf).expect("aws-lc sign");
            buf[..n].to_vec()
        })
        .collect();
    let (mut i, mut j) = (0, 0);
    Impl {
        name: "aws-lc-rs",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    black_box(PqdsaKeyPair::generate(alg).expect("keygen"));
                }),
            ),
            (
                "sign",
                Box::new(move || {
                    let k = next(&mut i);
                    black_box(kp.sign(&MSGS[k], &mut buf).expect("sign"));
                }),
            ),
            (
                "verify",
                Box::new(move || {
                    let k = next(&mut j);
                    pk.verify_sig(&MSGS[k], black_box(&sigs[k]))
                        .expect("verify");
                }),
            ),
        ],
    }
}

macro_rules! libcrux {
    ($m:ident) => {{
        use libcrux_ml_dsa::$m;
        let mut r = rng();
        let kp = $m::generate_key_pair(rand32(&mut r));
        let sigs: Vec<_> = MSGS
            .iter()
            .map(|m| $m::sign(&kp.signing_key, m, b"", rand32(&mut r)).expect("libcrux sign"))
            .collect();
        let (sk, vk) = (kp.signing_key, kp.verification_key);
        let (mut r1, mut r2) = (rng(), rng());
        let (mut i, mut j) = (0, 0);
        Impl {
            name: "libcrux-ml-dsa (AVX2 if available)",
            ops: vec![
                (
                    "keygen",
                    Box::new(move || {
                        black_box($m::generate_key_pair(rand32(&mut r1)));
                    }),
                ),
                (
                    "sign",
                    Box::new(move || {
                        let k = next(&mut i);
                        black_box($m::sign(&sk, &MSGS[k], b"", rand32(&mut r2)).expect("sign"));
                    }),
                ),
                (
                    "verify",
                    Box::new(move || {
                        let k = next(&mut j);
                        $m::verify(&vk, &MSGS[k], b"", black_box(&sigs[k])).expect("verify");
                    }),
                ),
            ],
        }
    }};
}

/// RustCrypto `ml-dsa` with its decoded keys (Â and the NTT forms kept).
macro_rules! rustcrypto {
    ($p:ty) => {{
        use ml_dsa::{ExpandedSigningKey, Seed, Signature, SigningKey, VerifyingKey};
        let mut r = rng();
        let seed = Seed::from(rand32(&mut r));
        let sk = SigningKey::<$p>::from_seed(&seed);
        let vk: VerifyingKey<$p> = AsRef::<VerifyingKey<$p>>::as_ref(&sk).clone();
        let esk = ExpandedSigningKey::<$p>::from_seed(&seed);
        let sigs: Vec<_> = MSGS
            .iter()
            .map(|m| {
                esk.sign_randomized(m, b"", &mut r)
                    .expect("RustCrypto sign")
                    .encode()
            })
            .collect();
        let (mut r1, mut r2) = (rng(), rng());
        let (mut i, mut j) = (0, 0);
        Impl {
            name: "ml-dsa (RustCrypto, expanded keys)",
            ops: vec![
                (
                    "keygen",
                    Box::new(move || {
                        black_box(SigningKey::<$p>::from_seed(&Seed::from(rand32(&mut r1))));
                    }),
                ),
                (
                    "sign",
                    Box::new(move || {
                        let k = next(&mut i);
                        black_box(esk.sign_randomized(&MSGS[k], b"", &mut r2).expect("sign"));
                    }),
                ),
                (
                    "verify",
                    Box::new(move || {
                        let k = next(&mut j);
                        let s = Signature::<$p>::try_from(black_box(&sigs[k][..])).expect("decode");
                        assert!(vk.verify_with_context(&MSGS[k], b"", &s), "verify");
                    }),
                ),
            ],
        }
    }};
}

/// RustCrypto `ml-dsa` with its keys decoded from their FIPS 204 encodings
/// on every call, as pqforge and the other peers do.
macro_rules! rustcrypto_bytes {
    ($p:ty) => {{
        use ml_dsa::{ExpandedSigningKey, Seed, Signature, SigningKey, VerifyingKey};
        let mut r = rng();
        let sk = SigningKey::<$p>::from_seed(&Seed::from(rand32(&mut r)));
        // to_expanded / from_expanded (deprecated in favour of seeds) are
        // the FIPS 204 skEncode / skDecode.
        #[allow(deprecated)]
        let skb = sk.expanded_key().to_expanded();
        let vkb = AsRef::<VerifyingKey<$p>>::as_ref(&sk).encode();
        let sigs: Vec<_> = MSGS
            .iter()
            .map(|m| {
                sk.expanded_key()
                    .sign_randomized(m, b"", &mut r)
                    .expect("RustCrypto sign")
                    .encode()
            })
            .collect();
        let (mut r1, mut r2) = (rng(), rng());
        let (mut i, mut j) = (0, 0);
        Impl {
            name: "ml-dsa (RustCrypto, keys decoded per call)",
            ops: vec![
                (
                    "keygen",
                    Box::new(move || {
                        let sk = SigningKey::<$p>::from_seed(&Seed::from(rand32(&mut r1)));
                        #[allow(deprecated)]
                        let skb = sk.expanded_key().to_expanded();
                        black_box(skb);
                        black_box(AsRef::<VerifyingKey<$p>>::as_ref(&sk).encode());
                    }),
                ),
                (
                    "sign",
                    Box::new(move || {
                        let k = next(&mut i);
                        #[allow(deprecated)]
                        let esk = ExpandedSigningKey::<$p>::from_expanded(black_box(&skb));
                        black_box(esk.sign_randomized(&MSGS[k], b"", &mut r2).expect("sign"));
                    }),
                ),
                (
                    "verify",
                    Box::new(move || {
                        let k = next(&mut j);
                        let vk = VerifyingKey::<$p>::decode(black_box(&vkb));
                        let s = Signature::<$p>::try_from(black_box(&sigs[k][..])).expect("decode");
                        assert!(vk.verify_with_context(&MSGS[k], b"", &s), "verify");
                    }),
                ),
            ],
        }
    }};
}

/// `oqs` (liboqs).
fn liboqs(alg: oqs::sig::Algorithm) -> Impl {
    use oqs::sig::Sig;
    let new = || Sig::new(alg).expect("liboqs algorithm enabled");
    let (s0, s1, s2) = (new(), new(), new());
    let (pk, sk) = s0.keypair().expect("liboqs keygen");
    let sigs: Vec<_> = MSGS
        .iter()
        .map(|m| s0.sign(m, &sk).expect("liboqs sign"))
        .collect();
    let (mut i, mut j) = (0, 0);
    Impl {
        name: "oqs (liboqs, AVX2 if available)",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    black_box(s0.keypair().expect("keygen"));
                }),
            ),
            (
                "sign",
                Box::new(move || {
                    let k = next(&mut i);
                    black_box(s1.sign(&MSGS[k], &sk).expect("sign"));
                }),
            ),
            (
                "verify",
                Box::new(move || {
                    let k = next(&mut j);
                    s2.verify(&MSGS[k], black_box(&sigs[k]), &pk)
                        .expect("verify");
                }),
            ),
        ],
    }
}

/// Panics with a loud message unless `ok`.
fn ensure(ok: bool, set: &str, what: &str) {
    assert!(
        ok,
        "{set}: cross-check FAILED: {what}; the benchmark would compare different computations"
    );
}

/// Checks, for one parameter set, that pqforge and the peers agree (see the
/// module documentation); panics otherwise.
macro_rules! cross_check {
    ($set:literal, $s:ty, $pqclean:ident, $aws:ident, $awsv:ident, $libcrux:ident, $rc:ty,
     $oqs:ident) => {{
        let set = $set;
        let mut r = rng();
        let seed = rand32(&mut r);
        let (msg, other) = (&MSGS[0], &MSGS[1]);
        let (vk, sk) = <$s>::keygen_derand(&seed);
        let pk: &[u8] = vk.as_bytes();

        // One seed, the same keys.
        let lc = libcrux_ml_dsa::$libcrux::generate_key_pair(seed);
        ensure(
            lc.verification_key.as_slice() == pk,
            set,
            "libcrux public key",
        );
        ensure(
            lc.signing_key.as_slice() == &sk.as_bytes()[..],
            set,
            "libcrux private key",
        );
        let rc = ml_dsa::SigningKey::<$rc>::from_seed(&ml_dsa::Seed::from(seed));
        let rc_vk: &ml_dsa::VerifyingKey<$rc> = rc.as_ref();
        ensure(rc_vk.encode()[..] == *pk, set, "RustCrypto public key");
        let aws_kp =
            PqdsaKeyPair::from_seed(&aws_lc_rs::signature::$aws, &seed).expect("aws-lc from_seed");
        ensure(
            aws_kp.public_key().as_ref() == pk,
            set,
            "aws-lc-rs public key",
        );

        // The same deterministic signature (pure, empty context).
        let det = <$s>::sign_with(&sk, msg, &SignOptions::new().deterministic(), &mut r)
            .expect("pqforge deterministic sign");
        let lc_det = libcrux_ml_dsa::$libcrux::sign(&lc.signing_key, msg, b"", [0; 32])
            .expect("libcrux sign");
        ensure(
            lc_det.as_slice() == det.as_bytes(),
            set,
            "libcrux deterministic signature",
        );
        let rc_det = rc
            .expanded_key()
            .sign_deterministic(msg, b"")
            .expect("RustCrypto sign");
        ensure(
            rc_det.encode()[..] == *det.as_bytes(),
            set,
            "RustCrypto deterministic signature",
        );

        // pqforge's benchmarked call is hedged, and every peer accepts it.
        let sig = <$s>::sign(&sk, msg, &mut r).expect("pqforge sign");
        let sig2 = <$s>::sign(&sk, msg, &mut r).expect("pqforge sign");
        ensure(
            sig != sig2 && sig != det,
            set,
            "pqforge default signing is not hedged",
        );
        let sb = sig.as_bytes();
        let lc_sig = libcrux_ml_dsa::MLDSASignature::new(sb.try_into().expect("sig length"));
        ensure(
            libcrux_ml_dsa::$libcrux::verify(&lc.verification_key, msg, b"", &lc_sig).is_ok(),
            set,
            "libcrux rejects pqforge's signature",
        );
        ensure(
            libcrux_ml_dsa::$libcrux::verify(&lc.verification_key, other, b"", &lc_sig).is_err(),
            set,
            "libcrux accepts pqforge's signature on another message",
        );
        let rc_sig = ml_dsa::Signature::<$rc>::try_from(sb).expect("RustCrypto decode");
        ensure(
            rc_vk.verify_with_context(msg, b"", &rc_sig),
            set,
            "RustCrypto rejects pqforge's signature",
        );
        let aws_pk = ParsedPublicKey::new(&aws_lc_rs::signature::$awsv, pk).expect("aws-lc pk");
        ensure(
            aws_pk.verify_sig(msg, sb).is_ok(),
            set,
            "aws-lc-rs rejects pqforge's signature",
        );
        let pq_pk = pqcrypto_mldsa::$pqclean::PublicKey::from_bytes(pk).expect("PQClean pk");
        let pq_sig =
            pqcrypto_mldsa::$pqclean::DetachedSignature::from_bytes(sb).expect("PQClean signature");
        ensure(
            pqcrypto_mldsa::$pqclean::verify_detached_signature(&pq_sig, msg, &pq_pk).is_ok(),
            set,
            "PQClean rejects pqforge's signature",
        );
        let oqs_sig = oqs::sig::Sig::new(oqs::sig::Algorithm::$oqs).expect("liboqs algorithm");
        ensure(
            oqs_sig
                .verify(
                    msg,
                    oqs_sig.signature_from_bytes(sb).expect("liboqs signature"),
                    oqs_sig.public_key_from_bytes(pk).expect("liboqs pk"),
                )
                .is_ok(),
            set,
            "liboqs rejects pqforge's signature",
        );

        // Every peer's benchmarked signing call gives signatures pqforge
        // accepts (and rejects on another message).
        let accepts = |vk: &VerifyingKey<$s>, sig: &[u8], who: &str| {
            ensure(
                <$s>::verify(vk, msg, sig).is_ok(),
                set,
                &format!("pqforge rejects {who}'s signature"),
            );
            ensure(
                <$s>::verify(vk, other, sig).is_err(),
                set,
                &format!("pqforge accepts {who}'s signature on another message"),
            );
        };
        let lc_sig = libcrux_ml_dsa::$libcrux::sign(&lc.signing_key, msg, b"", rand32(&mut r))
            .expect("libcrux sign");
        accepts(&vk, lc_sig.as_slice(), "libcrux");
        let rc_sig = rc
            .expanded_key()
            .sign_randomized(msg, b"", &mut r)
            .expect("RustCrypto sign");
        accepts(&vk, &rc_sig.encode(), "RustCrypto");
        let mut buf = vec![0u8; aws_lc_rs::signature::$aws.signature_len()];
        let n = aws_kp.sign(msg, &mut buf).expect("aws-lc sign");
        accepts(&vk, &buf[..n], "aws-lc-rs");
        let (pq_pk, pq_sk) = pqcrypto_mldsa::$pqclean::keypair();
        let pq_vk = VerifyingKey::<$s>::try_from(pq_pk.as_bytes()).expect("PQClean pk");
        let pq_sig = pqcrypto_mldsa::$pqclean::detached_sign(msg, &pq_sk);
        accepts(&pq_vk, pq_sig.as_bytes(), "PQClean");
        let (oqs_pk, oqs_sk) = oqs_sig.keypair().expect("liboqs keygen");
        let oqs_vk = VerifyingKey::<$s>::try_from(oqs_pk.as_ref()).expect("liboqs pk");
        let o = oqs_sig.sign(msg, &oqs_sk).expect("liboqs sign");
        accepts(&oqs_vk, o.as_ref(), "liboqs");
        eprintln!(
            "{set}: cross-check ok: same keys from one seed (pqforge, libcrux, RustCrypto, \
             aws-lc-rs), same deterministic signature (pqforge, libcrux, RustCrypto), hedged \
             signatures verify both ways between pqforge and all five peers"
        );
    }};
}

/// Runs the ML-DSA comparisons (after cross-checking every selected set).
pub fn run(opts: &Opts) {
    use aws_lc_rs::signature::{
        ML_DSA_44, ML_DSA_44_SIGNING, ML_DSA_65, ML_DSA_65_SIGNING, ML_DSA_87, ML_DSA_87_SIGNING,
    };
    use oqs::sig::Algorithm;
    let sets = ["ml-dsa-44", "ml-dsa-65", "ml-dsa-87"].map(|s| opts.wants(s));
    if !sets.contains(&true) {
        return;
    }
    oqs::init();
    if sets[0] {
        cross_check!(
            "ml-dsa-44",
            pqforge::mldsa::MlDsa44,
            mldsa44,
            ML_DSA_44_SIGNING,
            ML_DSA_44,
            ml_dsa_44,
            ml_dsa::MlDsa44,
            MlDsa44
        );
    }
    if sets[1] {
        cross_check!(
            "ml-dsa-65",
            pqforge::mldsa::MlDsa65,
            mldsa65,
            ML_DSA_65_SIGNING,
            ML_DSA_65,
            ml_dsa_65,
            ml_dsa::MlDsa65,
            MlDsa65
        );
    }
    if sets[2] {
        cross_check!(
            "ml-dsa-87",
            pqforge::mldsa::MlDsa87,
            mldsa87,
            ML_DSA_87_SIGNING,
            ML_DSA_87,
            ml_dsa_87,
            ml_dsa::MlDsa87,
            MlDsa87
        );
    }
    if sets[0] {
        compare(
            "ml-dsa-44",
            vec![
                pqforge_impl::<pqforge::mldsa::MlDsa44>(),
                pqclean!(mldsa44),
                aws(&ML_DSA_44_SIGNING, &ML_DSA_44),
                libcrux!(ml_dsa_44),
                liboqs(Algorithm::MlDsa44),
                rustcrypto!(ml_dsa::MlDsa44),
                rustcrypto_bytes!(ml_dsa::MlDsa44),
            ],
            opts,
        );
    }
    if sets[1] {
        compare(
            "ml-dsa-65",
            vec![
                pqforge_impl::<pqforge::mldsa::MlDsa65>(),
                pqclean!(mldsa65),
                aws(&ML_DSA_65_SIGNING, &ML_DSA_65),
                libcrux!(ml_dsa_65),
                liboqs(Algorithm::MlDsa65),
                rustcrypto!(ml_dsa::MlDsa65),
                rustcrypto_bytes!(ml_dsa::MlDsa65),
            ],
            opts,
        );
    }
    if sets[2] {
        compare(
            "ml-dsa-87",
            vec![
                pqforge_impl::<pqforge::mldsa::MlDsa87>(),
                pqclean!(mldsa87),
                aws(&ML_DSA_87_SIGNING, &ML_DSA_87),
                libcrux!(ml_dsa_87),
                liboqs(Algorithm::MlDsa87),
                rustcrypto!(ml_dsa::MlDsa87),
                rustcrypto_bytes!(ml_dsa::MlDsa87),
            ],
            opts,
        );
    }
}
