//! HQC: pqforge vs RustCrypto `hqc-kem` (same revision, 161cd4f) and
//! `pqcrypto-hqc` (PQClean, older revision: for scale only). Every
//! implementation works on parsed keys; pqforge's dynamic API would add the
//! decapsulation-key import check (a key re-derivation) to each decaps.

use std::hint::black_box;

use pqcrypto_traits::kem::{Ciphertext as _, PublicKey as _, SecretKey as _};

use crate::harness::{Impl, Opts, compare, pqforge_typed, rng};

macro_rules! hqc_kem_impl {
    ($m:ident) => {{
        let mut r = rng();
        let (ek, dk) = hqc_kem::$m::generate_key(&mut r);
        let (ct, _) = ek.encapsulate(&mut r);
        let (mut r1, mut r2) = (rng(), rng());
        Impl {
            name: "hqc-kem",
            ops: vec![
                (
                    "keygen",
                    Box::new(move || {
                        black_box(hqc_kem::$m::generate_key(&mut r1));
                    }),
                ),
                (
                    "encaps",
                    Box::new(move || {
                        black_box(ek.encapsulate(&mut r2));
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

macro_rules! pqcrypto_impl {
    ($m:ident) => {{
        let (pk, sk) = pqcrypto_hqc::$m::keypair();
        let (_, ct) = pqcrypto_hqc::$m::encapsulate(&pk);
        let _ = (pk.as_bytes(), sk.as_bytes(), ct.as_bytes());
        Impl {
            name: "pqcrypto-hqc (PQClean, old revision)",
            ops: vec![
                (
                    "keygen",
                    Box::new(|| {
                        black_box(pqcrypto_hqc::$m::keypair());
                    }),
                ),
                (
                    "encaps",
                    Box::new(move || {
                        black_box(pqcrypto_hqc::$m::encapsulate(&pk));
                    }),
                ),
                (
                    "decaps",
                    Box::new(move || {
                        black_box(pqcrypto_hqc::$m::decapsulate(&ct, &sk));
                    }),
                ),
            ],
        }
    }};
}

/// Runs the HQC comparisons.
pub fn run(opts: &Opts) {
    if opts.wants("hqc-1") {
        compare(
            "hqc-1",
            vec![
                pqforge_typed::<pqforge::hqc::Hqc1>(),
                hqc_kem_impl!(hqc128),
                pqcrypto_impl!(hqc128),
            ],
            opts,
        );
    }
    if opts.wants("hqc-3") {
        compare(
            "hqc-3",
            vec![
                pqforge_typed::<pqforge::hqc::Hqc3>(),
                hqc_kem_impl!(hqc192),
                pqcrypto_impl!(hqc192),
            ],
            opts,
        );
    }
    if opts.wants("hqc-5") {
        compare(
            "hqc-5",
            vec![
                pqforge_typed::<pqforge::hqc::Hqc5>(),
                hqc_kem_impl!(hqc256),
                pqcrypto_impl!(hqc256),
            ],
            opts,
        );
    }
}
