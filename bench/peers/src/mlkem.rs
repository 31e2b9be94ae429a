//! ML-KEM: pqforge vs PQClean AVX2 (`pqcrypto-mlkem`), `aws-lc-rs`,
//! `libcrux-ml-kem` and RustCrypto `ml-kem`. Keys are parsed once for every
//! implementation (pqforge's dynamic API would add the FIPS 203 §7.3 hash
//! check to each decaps).

use std::hint::black_box;

use kem::{Decapsulate, Encapsulate, Kem as _};
use rand_core::Rng as _;

use crate::harness::{Impl, Opts, compare, pqforge_typed, rng};

macro_rules! pqclean {
    ($m:ident) => {{
        let (pk, sk) = pqcrypto_mlkem::$m::keypair();
        let (_, ct) = pqcrypto_mlkem::$m::encapsulate(&pk);
        Impl {
            name: "pqcrypto-mlkem (PQClean AVX2)",
            ops: vec![
                (
                    "keygen",
                    Box::new(|| {
                        black_box(pqcrypto_mlkem::$m::keypair());
                    }),
                ),
                (
                    "encaps",
                    Box::new(move || {
                        black_box(pqcrypto_mlkem::$m::encapsulate(&pk));
                    }),
                ),
                (
                    "decaps",
                    Box::new(move || {
                        black_box(pqcrypto_mlkem::$m::decapsulate(&ct, &sk));
                    }),
                ),
            ],
        }
    }};
}

macro_rules! libcrux {
    ($m:ident) => {{
        let mut r = rng();
        let mut seed = [0u8; 64];
        r.fill_bytes(&mut seed);
        let kp = libcrux_ml_kem::$m::generate_key_pair(seed);
        let (ct, _) = libcrux_ml_kem::$m::encapsulate(kp.public_key(), [7u8; 32]);
        let (pk, sk) = (kp.public_key().clone(), kp.private_key().clone());
        let (mut r1, mut r2) = (rng(), rng());
        Impl {
            name: "libcrux-ml-kem",
            ops: vec![
                (
                    "keygen",
                    Box::new(move || {
                        let mut s = [0u8; 64];
                        r1.fill_bytes(&mut s);
                        black_box(libcrux_ml_kem::$m::generate_key_pair(s));
                    }),
                ),
                (
                    "encaps",
                    Box::new(move || {
                        let mut m = [0u8; 32];
                        r2.fill_bytes(&mut m);
                        black_box(libcrux_ml_kem::$m::encapsulate(&pk, m));
                    }),
                ),
                (
                    "decaps",
                    Box::new(move || {
                        black_box(libcrux_ml_kem::$m::decapsulate(&sk, &ct));
                    }),
                ),
            ],
        }
    }};
}

macro_rules! rustcrypto {
    ($t:ty) => {{
        let mut r = rng();
        let (dk, ek) = <$t>::generate_keypair_from_rng(&mut r);
        let (ct, _) = ek.encapsulate_with_rng(&mut r);
        let (mut r1, mut r2) = (rng(), rng());
        Impl {
            name: "ml-kem (RustCrypto)",
            ops: vec![
                (
                    "keygen",
                    Box::new(move || {
                        black_box(<$t>::generate_keypair_from_rng(&mut r1));
                    }),
                ),
                (
                    "encaps",
                    Box::new(move || {
                        black_box(ek.encapsulate_with_rng(&mut r2));
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
    }};
}

fn aws(alg: &'static aws_lc_rs::kem::Algorithm<aws_lc_rs::kem::AlgorithmId>) -> Impl {
    use aws_lc_rs::kem::DecapsulationKey;
    let dk = DecapsulationKey::generate(alg).expect("aws-lc keygen");
    let ek = dk.encapsulation_key().expect("aws-lc ek");
    let (ct, _) = ek.encapsulate().expect("aws-lc encaps");
    let ct = ct.as_ref().to_vec();
    Impl {
        name: "aws-lc-rs",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    black_box(DecapsulationKey::generate(alg).ok());
                }),
            ),
            (
                "encaps",
                Box::new(move || {
                    black_box(ek.encapsulate().ok());
                }),
            ),
            (
                "decaps",
                Box::new(move || {
                    black_box(dk.decapsulate(ct.as_slice().into()).ok());
                }),
            ),
        ],
    }
}

/// Runs the ML-KEM comparisons.
pub fn run(opts: &Opts) {
    use aws_lc_rs::kem::{ML_KEM_512, ML_KEM_768, ML_KEM_1024};
    if opts.wants("ml-kem-512") {
        compare(
            "ml-kem-512",
            vec![
                pqforge_typed::<pqforge::mlkem::MlKem512>(),
                pqclean!(mlkem512),
                aws(&ML_KEM_512),
                libcrux!(mlkem512),
                rustcrypto!(ml_kem::MlKem512),
            ],
            opts,
        );
    }
    if opts.wants("ml-kem-768") {
        compare(
            "ml-kem-768",
            vec![
                pqforge_typed::<pqforge::mlkem::MlKem768>(),
                pqclean!(mlkem768),
                aws(&ML_KEM_768),
                libcrux!(mlkem768),
                rustcrypto!(ml_kem::MlKem768),
            ],
            opts,
        );
    }
    if opts.wants("ml-kem-1024") {
        compare(
            "ml-kem-1024",
            vec![
                pqforge_typed::<pqforge::mlkem::MlKem1024>(),
                pqclean!(mlkem1024),
                aws(&ML_KEM_1024),
                libcrux!(mlkem1024),
                rustcrypto!(ml_kem::MlKem1024),
            ],
            opts,
        );
    }
}
