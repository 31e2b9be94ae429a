//! SLH-DSA (FIPS 205), all twelve parameter sets: pqforge (typed API;
//! `pqforge-slhdsa` is portable Rust so far, one hash call at a time, so
//! `--no-avx512` changes nothing here) vs `pqcrypto-sphincsplus`
//! (PQClean SPHINCS+ "simple", its AVX2 code when the CPU has AVX2, picked
//! at run time), `oqs` (liboqs 0.13 SPHINCS+ "simple", AVX2 picked at run
//! time) and RustCrypto `slh-dsa` (FIPS 205, portable Rust).
//!
//! PQClean and liboqs 0.13 implement SPHINCS+ round 3.1, the parameters
//! and the work of FIPS 205 (same n, h, d, h′, a, k, w, the same key, and
//! signature sizes, checked below) but not its encodings (FIPS 205 changed
//! the message digest's bit order and adds the M′ domain separator), so
//! their signatures do not verify under FIPS 205: they are timed only. The
//! `oqs` crate's newest release (0.11, liboqs 0.13) has no FIPS 205
//! SLH-DSA (liboqs' SLH-DSA came later).
//!
//! Every implementation does the same thing:
//! - keygen: a key pair from fresh randomness;
//! - sign: pure, empty context, **hedged** (fresh n-byte opt_rand per
//!   signature: the only mode PQClean and liboqs offer), of 32-byte
//!   messages taken in turn from one fixed set of [`NMSG`] messages, the
//!   same sequence for every implementation;
//! - verify: the implementation's own signatures of the first few of those
//!   messages, in turn, the signature taken as bytes.
//!
//! The s sets are slow (a signature is tenths of a second to seconds):
//! their key generation and signing are timed [`S_DIV`] times less often
//! than `--iters` says (one call per round by default), and only
//! [`S_NSIG`] signatures are made for verification.
//!
//! Before any timing, [`cross_check`] makes sure pqforge and RustCrypto
//! compute the same thing (and panics otherwise): one seed gives the same
//! keys, the deterministic signature with a context is the same, and each
//! one's hedged signature (the benchmarked call) verifies under the other
//! (and not on another message).

use std::hint::black_box;
use std::sync::LazyLock;

use pqcrypto_traits::sign::DetachedSignature as _;
use pqforge::{ByteArray as _, SignOptions, SignatureScheme};
use rand_core::{Rng as _, SeedableRng as _};
use slh_dsa::signature::RandomizedSigner as _;

use crate::harness::{Impl, Opts, compare_scaled, rng};

/// How many different messages signing cycles through.
pub const NMSG: usize = 16;

/// Signatures made for verification, f sets.
const F_NSIG: usize = 8;

/// Signatures made for verification, s sets.
const S_NSIG: usize = 2;

/// For the s sets, keygen and sign are timed `1 / S_DIV` as often.
const S_DIV: usize = 10;

/// The benchmark's messages: [`NMSG`] fixed 32-byte strings (ChaCha20 from a
/// constant seed), the same for every implementation and every run.
static MSGS: LazyLock<Vec<[u8; 32]>> = LazyLock::new(|| {
    let mut r = rand_chacha::ChaCha20Rng::from_seed(*b"pqforge SLH-DSA peer bench msgs!");
    (0..NMSG)
        .map(|_| {
            let mut m = [0u8; 32];
            r.fill_bytes(&mut m);
            m
        })
        .collect()
});

/// The index of the next message of a cycle of `n` at `*i`, advancing it.
fn next(i: &mut usize, n: usize) -> usize {
    let k = *i % n;
    *i += 1;
    k
}

/// pqforge's typed API: default signing options (pure, empty context,
/// hedged).
fn pqforge_impl<S: SignatureScheme>(nsig: usize) -> Impl {
    let mut r = rng();
    let (vk, sk) = S::keygen(&mut r);
    let sigs: Vec<_> = MSGS[..nsig]
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
                    let k = next(&mut i, NMSG);
                    black_box(S::sign(&sk, &MSGS[k], &mut r2).expect("sign"));
                }),
            ),
            (
                "verify",
                Box::new(move || {
                    let k = next(&mut j, nsig);
                    S::verify(&vk, &MSGS[k], black_box(sigs[k].as_bytes())).expect("verify");
                }),
            ),
        ],
    }
}

/// PQClean SPHINCS+ (`pqcrypto-sphincsplus`), after checking its sizes
/// against pqforge's set `$s`.
macro_rules! pqclean {
    ($m:ident, $s:ty, $nsig:expr) => {{
        use pqcrypto_sphincsplus::$m;
        let info = <$s>::INFO;
        assert!(
            $m::public_key_bytes() == info.pk_bytes
                && $m::secret_key_bytes() == info.sk_bytes
                && $m::signature_bytes() == info.sig_bytes,
            "{}: PQClean sizes differ: not the same parameter set",
            info.name
        );
        let nsig: usize = $nsig;
        let (pk, sk) = $m::keypair();
        let sigs: Vec<_> = MSGS[..nsig]
            .iter()
            .map(|m| $m::detached_sign(m, &sk))
            .collect();
        let (mut i, mut j) = (0, 0);
        Impl {
            name: "pqcrypto-sphincsplus (PQClean SPHINCS+ 3.1, AVX2 if available)",
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
                        let k = next(&mut i, NMSG);
                        black_box($m::detached_sign(&MSGS[k], &sk));
                    }),
                ),
                (
                    "verify",
                    Box::new(move || {
                        let k = next(&mut j, nsig);
                        let s = $m::DetachedSignature::from_bytes(black_box(sigs[k].as_bytes()))
                            .expect("decode");
                        $m::verify_detached_signature(&s, &MSGS[k], &pk).expect("verify");
                    }),
                ),
            ],
        }
    }};
}

/// `oqs` (liboqs SPHINCS+), after checking its sizes against `info`.
fn liboqs(alg: oqs::sig::Algorithm, info: &pqforge::AlgInfo, nsig: usize) -> Impl {
    use oqs::sig::Sig;
    let new = || Sig::new(alg).expect("liboqs algorithm enabled");
    let (s0, s1, s2) = (new(), new(), new());
    assert!(
        s0.length_public_key() == info.pk_bytes
            && s0.length_secret_key() == info.sk_bytes
            && s0.length_signature() == info.sig_bytes,
        "{}: liboqs sizes differ: not the same parameter set",
        info.name
    );
    let (pk, sk) = s0.keypair().expect("liboqs keygen");
    let sigs: Vec<Vec<u8>> = MSGS[..nsig]
        .iter()
        .map(|m| s0.sign(m, &sk).expect("liboqs sign").into_vec())
        .collect();
    let (mut i, mut j) = (0, 0);
    Impl {
        name: "oqs (liboqs 0.13 SPHINCS+ 3.1, AVX2 if available)",
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
                    let k = next(&mut i, NMSG);
                    black_box(s1.sign(&MSGS[k], &sk).expect("sign"));
                }),
            ),
            (
                "verify",
                Box::new(move || {
                    let k = next(&mut j, nsig);
                    let s = s2
                        .signature_from_bytes(black_box(&sigs[k]))
                        .expect("decode");
                    s2.verify(&MSGS[k], s, &pk).expect("verify");
                }),
            ),
        ],
    }
}

/// RustCrypto `slh-dsa`.
fn rustcrypto<P: slh_dsa::ParameterSet + 'static>(nsig: usize) -> Impl {
    use slh_dsa::{Signature, SigningKey, VerifyingKey};
    let mut r = rng();
    let sk = SigningKey::<P>::new(&mut r);
    let vk: VerifyingKey<P> = sk.as_ref().clone();
    let sigs: Vec<Vec<u8>> = MSGS[..nsig]
        .iter()
        .map(|m| {
            sk.try_sign_with_rng(&mut r, m)
                .expect("RustCrypto sign")
                .to_vec()
        })
        .collect();
    let (mut r1, mut r2) = (rng(), rng());
    let (mut i, mut j) = (0, 0);
    Impl {
        name: "slh-dsa (RustCrypto)",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    black_box(SigningKey::<P>::new(&mut r1));
                }),
            ),
            (
                "sign",
                Box::new(move || {
                    let k = next(&mut i, NMSG);
                    black_box(sk.try_sign_with_rng(&mut r2, &MSGS[k]).expect("sign"));
                }),
            ),
            (
                "verify",
                Box::new(move || {
                    let k = next(&mut j, nsig);
                    let s = Signature::<P>::try_from(black_box(&sigs[k][..])).expect("decode");
                    vk.try_verify_with_context(&MSGS[k], b"", &s)
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

/// Checks, for one parameter set, that pqforge and RustCrypto agree (see
/// the module documentation); panics otherwise.
fn cross_check<S: SignatureScheme, P: slh_dsa::ParameterSet>() {
    use slh_dsa::{Signature, SigningKey, VerifyingKey};
    let set = S::INFO.name;
    let n = S::INFO.pk_bytes / 2;
    let mut r = rng();
    let mut seed = S::KeygenSeed::zeroed();
    r.fill_bytes(seed.as_mut());
    let seed_b: &[u8] = seed.as_ref();
    let (msg, other) = (&MSGS[0], &MSGS[1]);
    let ctx = b"pqforge peers cross-check";

    // One seed (SK.seed || SK.prf || PK.seed), the same keys.
    let (vk, sk) = S::keygen_derand(&seed);
    let rc =
        SigningKey::<P>::slh_keygen_internal(&seed_b[..n], &seed_b[n..2 * n], &seed_b[2 * n..]);
    ensure(
        rc.to_bytes()[..] == *sk.as_bytes().as_ref(),
        set,
        "RustCrypto private key",
    );
    let rc_vk: &VerifyingKey<P> = rc.as_ref();
    ensure(
        rc_vk.to_bytes()[..] == *vk.as_bytes().as_ref(),
        set,
        "RustCrypto public key",
    );

    // The same deterministic signature (pure, with a context).
    let det = S::sign_with(
        &sk,
        msg,
        &SignOptions::new().with_context(ctx).deterministic(),
        &mut r,
    )
    .expect("pqforge deterministic sign");
    let rc_det = rc
        .try_sign_with_context(msg, ctx, None)
        .expect("RustCrypto sign");
    ensure(
        rc_det.to_bytes()[..] == *det.as_bytes(),
        set,
        "RustCrypto deterministic signature",
    );

    // The benchmarked calls (hedged, empty context): each verifies under
    // the other.
    let sig = S::sign(&sk, msg, &mut r).expect("pqforge sign");
    let det0 = S::sign_with(&sk, msg, &SignOptions::new().deterministic(), &mut r)
        .expect("pqforge deterministic sign");
    ensure(
        sig.as_bytes() != det0.as_bytes(),
        set,
        "pqforge default signing is not hedged",
    );
    let s = Signature::<P>::try_from(sig.as_bytes()).expect("RustCrypto decode");
    ensure(
        rc_vk.try_verify_with_context(msg, b"", &s).is_ok(),
        set,
        "RustCrypto rejects pqforge's signature",
    );
    ensure(
        rc_vk.try_verify_with_context(other, b"", &s).is_err(),
        set,
        "RustCrypto accepts pqforge's signature on another message",
    );
    let rc_sig = rc
        .try_sign_with_rng(&mut r, msg)
        .expect("RustCrypto sign")
        .to_vec();
    ensure(
        S::verify(&vk, msg, &rc_sig).is_ok(),
        set,
        "pqforge rejects RustCrypto's signature",
    );
    ensure(
        S::verify(&vk, other, &rc_sig).is_err(),
        set,
        "pqforge accepts RustCrypto's signature on another message",
    );
    eprintln!(
        "{set}: cross-check ok: same keys from one seed and same deterministic signature \
         (pqforge, RustCrypto), hedged signatures verify both ways"
    );
}

/// Cross-checks and benchmarks one set, if the filter selects it.
macro_rules! set {
    ($opts:expr, $s:ty, $rc:ty, $pqclean:ident, $oqs:ident) => {{
        let opts: &Opts = $opts;
        let info = <$s>::INFO;
        if opts.wants(info.name) {
            let small = info.name.ends_with('s');
            let nsig = if small { S_NSIG } else { F_NSIG };
            let div: &[usize] = if small { &[S_DIV, S_DIV, 1] } else { &[] };
            cross_check::<$s, $rc>();
            compare_scaled(
                info.name,
                vec![
                    pqforge_impl::<$s>(nsig),
                    pqclean!($pqclean, $s, nsig),
                    liboqs(oqs::sig::Algorithm::$oqs, &info, nsig),
                    rustcrypto::<$rc>(nsig),
                ],
                opts,
                div,
            );
        }
    }};
}

/// Runs the SLH-DSA comparisons (`slh-dsa-sha2-128s` ...), each set
/// cross-checked first.
pub fn run(opts: &Opts) {
    use pqforge::slhdsa::{
        SlhDsaSha2_128f, SlhDsaSha2_128s, SlhDsaSha2_192f, SlhDsaSha2_192s, SlhDsaSha2_256f,
        SlhDsaSha2_256s, SlhDsaShake128f, SlhDsaShake128s, SlhDsaShake192f, SlhDsaShake192s,
        SlhDsaShake256f, SlhDsaShake256s,
    };
    oqs::init();
    set!(
        opts,
        SlhDsaSha2_128f,
        slh_dsa::Sha2_128f,
        sphincssha2128fsimple,
        SphincsSha2128fSimple
    );
    set!(
        opts,
        SlhDsaSha2_128s,
        slh_dsa::Sha2_128s,
        sphincssha2128ssimple,
        SphincsSha2128sSimple
    );
    set!(
        opts,
        SlhDsaSha2_192f,
        slh_dsa::Sha2_192f,
        sphincssha2192fsimple,
        SphincsSha2192fSimple
    );
    set!(
        opts,
        SlhDsaSha2_192s,
        slh_dsa::Sha2_192s,
        sphincssha2192ssimple,
        SphincsSha2192sSimple
    );
    set!(
        opts,
        SlhDsaSha2_256f,
        slh_dsa::Sha2_256f,
        sphincssha2256fsimple,
        SphincsSha2256fSimple
    );
    set!(
        opts,
        SlhDsaSha2_256s,
        slh_dsa::Sha2_256s,
        sphincssha2256ssimple,
        SphincsSha2256sSimple
    );
    set!(
        opts,
        SlhDsaShake128f,
        slh_dsa::Shake128f,
        sphincsshake128fsimple,
        SphincsShake128fSimple
    );
    set!(
        opts,
        SlhDsaShake128s,
        slh_dsa::Shake128s,
        sphincsshake128ssimple,
        SphincsShake128sSimple
    );
    set!(
        opts,
        SlhDsaShake192f,
        slh_dsa::Shake192f,
        sphincsshake192fsimple,
        SphincsShake192fSimple
    );
    set!(
        opts,
        SlhDsaShake192s,
        slh_dsa::Shake192s,
        sphincsshake192ssimple,
        SphincsShake192sSimple
    );
    set!(
        opts,
        SlhDsaShake256f,
        slh_dsa::Shake256f,
        sphincsshake256fsimple,
        SphincsShake256fSimple
    );
    set!(
        opts,
        SlhDsaShake256s,
        slh_dsa::Shake256s,
        sphincsshake256ssimple,
        SphincsShake256sSimple
    );
}
