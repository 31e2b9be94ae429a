//! Classic McEliece: pqforge vs `pqcrypto-classicmceliece` (PQClean
//! round 4; its AVX2 implementation, chosen at run time when the CPU has
//! AVX2) and `classic-mceliece-rust` (pure Rust port of the reference).
//!
//! `classic-mceliece-rust` selects one parameter set per build with a cargo
//! feature; this bench enables `mceliece348864`, so it only appears in that
//! row. Every implementation works on byte keys that are generated once:
//! none of the three parses a public key beyond taking the bytes.
//!
//! Key generation takes milliseconds to seconds, so it runs
//! `ceil(iters / KEYGEN_DIV)` times per round (at least once) instead of
//! `iters`.

use std::hint::black_box;

use pqcrypto_traits::kem::{Ciphertext as _, PublicKey as _, SecretKey as _};
use pqforge::Kem;

use crate::harness::{Impl, Opts, Rng06, compare_scaled, rng};

/// Key generation runs `1 / KEYGEN_DIV` as often as encaps/decaps.
const KEYGEN_DIV: usize = 10;

/// pqforge on heap byte buffers through the dynamic API with prepared keys
/// (the typed API would hold megabyte keys by value).
fn pqforge_impl<P: Kem>() -> Impl {
    let kem = pqforge::Scheme::kem::<P>();
    let pqforge::Scheme::Kem(kem) = kem else {
        unreachable!()
    };
    let i = kem.info();
    let mut r = rng();
    let mut pk = vec![0u8; i.pk_bytes];
    let mut sk = vec![0u8; i.sk_bytes];
    kem.keygen(&mut r, &mut pk, &mut sk).expect("keygen");
    let ek = kem.prepare_ek(&pk).expect("ek");
    let dk = kem.prepare_dk(&sk).expect("dk");
    let mut ct = vec![0u8; i.ct_bytes];
    let mut ss = [0u8; 32];
    ek.encaps(&mut r, &mut ct, &mut ss).expect("encaps");
    let (mut r1, mut r2) = (rng(), rng());
    let (mut kpk, mut ksk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    let mut ect = vec![0u8; i.ct_bytes];
    Impl {
        name: "pqforge",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    kem.keygen(&mut r1, &mut kpk, &mut ksk).expect("keygen");
                    black_box((&kpk, &ksk));
                }),
            ),
            (
                "encaps",
                Box::new(move || {
                    let mut k = [0u8; 32];
                    ek.encaps(&mut r2, &mut ect, &mut k).expect("encaps");
                    black_box((&ect, k));
                }),
            ),
            (
                "decaps",
                Box::new(move || {
                    let mut k = [0u8; 32];
                    dk.decaps(&ct, &mut k).expect("decaps");
                    black_box(k);
                }),
            ),
        ],
    }
}

macro_rules! pqcrypto_impl {
    ($m:ident) => {{
        // The key types are large arrays: keep them boxed.
        let (pk, sk) = pqcrypto_classicmceliece::$m::keypair();
        let (pk, sk) = (Box::new(pk), Box::new(sk));
        let (_, ct) = pqcrypto_classicmceliece::$m::encapsulate(&pk);
        let _ = (pk.as_bytes(), sk.as_bytes(), ct.as_bytes());
        Impl {
            name: "pqcrypto (PQClean avx2)",
            ops: vec![
                (
                    "keygen",
                    Box::new(|| {
                        black_box(Box::new(pqcrypto_classicmceliece::$m::keypair()));
                    }),
                ),
                (
                    "encaps",
                    Box::new(move || {
                        black_box(pqcrypto_classicmceliece::$m::encapsulate(&pk));
                    }),
                ),
                (
                    "decaps",
                    Box::new(move || {
                        black_box(pqcrypto_classicmceliece::$m::decapsulate(&ct, &sk));
                    }),
                ),
            ],
        }
    }};
}

/// `classic-mceliece-rust`, built for mceliece348864 only.
fn cmr_impl() -> Impl {
    use classic_mceliece_rust as cmr;
    let mut r = Rng06(rng());
    let (pk, sk) = cmr::keypair_boxed(&mut r);
    let (ct, _) = cmr::encapsulate_boxed(&pk, &mut r);
    let (mut r1, mut r2) = (Rng06(rng()), Rng06(rng()));
    Impl {
        name: "classic-mceliece-rust",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    let _ = black_box(cmr::keypair_boxed(&mut r1));
                }),
            ),
            (
                "encaps",
                Box::new(move || {
                    let _ = black_box(cmr::encapsulate_boxed(&pk, &mut r2));
                }),
            ),
            (
                "decaps",
                Box::new(move || {
                    let _ = black_box(cmr::decapsulate_boxed(&ct, &sk));
                }),
            ),
        ],
    }
}

macro_rules! sets {
    ($opts:ident; $($name:literal, $ty:ident, $m:ident, $cmr:expr;)*) => {$(
        if $opts.wants($name) {
            let mut impls = vec![pqforge_impl::<pqforge::mceliece::$ty>(), pqcrypto_impl!($m)];
            if $cmr {
                impls.push(cmr_impl());
            }
            compare_scaled($name, impls, $opts, &[KEYGEN_DIV, 1, 1]);
        }
    )*};
}

/// Runs the Classic McEliece comparisons, on a thread with a large stack
/// (PQClean keeps its key-generation matrices, up to 1.4 MB, and the
/// returned key arrays on the stack).
pub fn run(opts: &Opts) {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn_scoped(s, || run_sets(opts))
            .expect("spawn bench thread")
            .join()
            .expect("bench thread");
    });
}

fn run_sets(opts: &Opts) {
    sets! { opts;
        "mceliece348864", McEliece348864, mceliece348864, true;
        "mceliece348864f", McEliece348864f, mceliece348864f, false;
        "mceliece460896", McEliece460896, mceliece460896, false;
        "mceliece460896f", McEliece460896f, mceliece460896f, false;
        "mceliece6688128", McEliece6688128, mceliece6688128, false;
        "mceliece6688128f", McEliece6688128f, mceliece6688128f, false;
        "mceliece6960119", McEliece6960119, mceliece6960119, false;
        "mceliece6960119f", McEliece6960119f, mceliece6960119f, false;
        "mceliece8192128", McEliece8192128, mceliece8192128, false;
        "mceliece8192128f", McEliece8192128f, mceliece8192128f, false;
    }
}
