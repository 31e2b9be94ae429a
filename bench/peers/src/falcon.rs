//! Falcon-512/1024: pqforge (typed API, round 3, keys parsed once) vs
//! `fn-dsa` (T. Pornin's Rust FN-DSA; its own key/signature format, same
//! lattice algorithms), `pqcrypto-falcon` (PQClean round 3; its AVX2
//! implementation when the CPU has AVX2, picked at run time) and
//! `falcon-rust` (pure Rust round 3). Every implementation signs and
//! verifies a 32-byte message with keys decoded once.

use std::hint::black_box;

use fn_dsa::{
    DOMAIN_NONE, HASH_ID_RAW, KeyPairGenerator as _, KeyPairGeneratorStandard, SigningKey as _,
    SigningKeyStandard, VerifyingKey as _, VerifyingKeyStandard, sign_key_size, signature_size,
    vrfy_key_size,
};
use pqforge::SignatureScheme;

use crate::harness::{Impl, Opts, Rng06, compare, rng};

const MSG: &[u8; 32] = b"pqforge peers benchmark message!";

/// pqforge's typed signature API.
fn pqforge_sig<S: SignatureScheme>() -> Impl {
    let mut r = rng();
    let (vk, sk) = S::keygen(&mut r);
    let sig = S::sign(&sk, MSG, &mut r).expect("pqforge sign");
    let (mut r1, mut r2) = (rng(), rng());
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
                    black_box(S::sign(&sk, MSG, &mut r2).expect("sign"));
                }),
            ),
            (
                "verify",
                Box::new(move || {
                    S::verify(&vk, MSG, black_box(sig.as_bytes())).expect("verify");
                }),
            ),
        ],
    }
}

/// `fn-dsa` (FN-DSA, its own pre-standard format).
fn fn_dsa_impl(logn: u32) -> Impl {
    let mut r = Rng06(rng());
    let mut kg = KeyPairGeneratorStandard::default();
    let mut skb = vec![0u8; sign_key_size(logn)];
    let mut vkb = vec![0u8; vrfy_key_size(logn)];
    kg.keygen(logn, &mut r, &mut skb, &mut vkb);
    let mut sk = SigningKeyStandard::decode(&skb).expect("fn-dsa sk");
    let vk = VerifyingKeyStandard::decode(&vkb).expect("fn-dsa vk");
    let mut sig = vec![0u8; signature_size(logn)];
    sk.sign(&mut r, &DOMAIN_NONE, &HASH_ID_RAW, MSG, &mut sig);
    let (mut r1, mut r2) = (Rng06(rng()), Rng06(rng()));
    let mut kg1 = KeyPairGeneratorStandard::default();
    let mut buf = sig.clone();
    Impl {
        name: "fn-dsa",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    kg1.keygen(logn, &mut r1, &mut skb, &mut vkb);
                    black_box(&skb);
                }),
            ),
            (
                "sign",
                Box::new(move || {
                    sk.sign(&mut r2, &DOMAIN_NONE, &HASH_ID_RAW, MSG, &mut buf);
                    black_box(&buf);
                }),
            ),
            (
                "verify",
                Box::new(move || {
                    assert!(vk.verify(black_box(&sig), &DOMAIN_NONE, &HASH_ID_RAW, MSG));
                }),
            ),
        ],
    }
}

macro_rules! pqcrypto_impl {
    ($m:ident) => {{
        use pqcrypto_falcon::$m;
        let (pk, sk) = $m::keypair();
        let sig = $m::detached_sign(MSG, &sk);
        Impl {
            name: "pqcrypto-falcon (PQClean, AVX2 if available)",
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
                        black_box($m::detached_sign(MSG, &sk));
                    }),
                ),
                (
                    "verify",
                    Box::new(move || {
                        $m::verify_detached_signature(black_box(&sig), MSG, &pk).expect("verify");
                    }),
                ),
            ],
        }
    }};
}

macro_rules! falcon_rust_impl {
    ($m:ident) => {{
        use falcon_rust::$m;
        let mut seed = [0u8; 32];
        rand_core::Rng::fill_bytes(&mut rng(), &mut seed);
        let (sk, pk) = $m::keygen(seed);
        let sig = $m::sign(MSG, &sk);
        let mut r1 = rng();
        Impl {
            name: "falcon-rust",
            ops: vec![
                (
                    "keygen",
                    Box::new(move || {
                        let mut s = [0u8; 32];
                        rand_core::Rng::fill_bytes(&mut r1, &mut s);
                        black_box($m::keygen(s));
                    }),
                ),
                (
                    "sign",
                    Box::new(move || {
                        black_box($m::sign(MSG, &sk));
                    }),
                ),
                (
                    "verify",
                    Box::new(move || {
                        assert!($m::verify(MSG, black_box(&sig), &pk));
                    }),
                ),
            ],
        }
    }};
}

/// Runs the Falcon comparisons.
pub fn run(opts: &Opts) {
    if opts.wants("falcon-512") {
        compare(
            "falcon-512",
            vec![
                pqforge_sig::<pqforge::falcon::Falcon512>(),
                fn_dsa_impl(9),
                pqcrypto_impl!(falcon512),
                falcon_rust_impl!(falcon512),
            ],
            opts,
        );
    }
    if opts.wants("falcon-1024") {
        compare(
            "falcon-1024",
            vec![
                pqforge_sig::<pqforge::falcon::Falcon1024>(),
                fn_dsa_impl(10),
                pqcrypto_impl!(falcon1024),
                falcon_rust_impl!(falcon1024),
            ],
            opts,
        );
    }
}
