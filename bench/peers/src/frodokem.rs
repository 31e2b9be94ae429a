//! FrodoKEM: pqforge's ephemeral `efrodokem-*` sets vs `pqcrypto-frodo`
//! (PQClean "opt" C code; the crate has no AVX2 build) and `oqs` (liboqs
//! 0.13, AVX2 matrix generation picked at run time).
//!
//! Both peers implement NIST round-3 FrodoKEM, which is the ephemeral
//! eFrodoKEM of the ISO proposal (no salt: 640 ciphertexts of 9720 bytes,
//! not the salted FrodoKEM's 9752), so like is compared with like:
//! pqforge's `efrodokem-*` (pqforge's salted `frodokem-*` sets are not
//! timed here). Keys, ciphertexts and secrets are cross-checked byte for
//! byte against both peers first. Every implementation works on parsed
//! keys.
//!
//! On a CPU with AVX-512, pqforge's SHAKE sets generate the matrix with
//! AVX-512 Keccak lanes (about twice as fast as with `--no-avx512`; the AES
//! sets do not change); the peers use AVX2 at most, so run with
//! `--no-avx512` too to compare AVX2 with AVX2.

use pqforge::frodokem::{
    EFrodoKem640Aes, EFrodoKem640Shake, EFrodoKem976Aes, EFrodoKem976Shake, EFrodoKem1344Aes,
    EFrodoKem1344Shake,
};

use crate::harness::{
    Opts, compare, cross_check_kem, liboqs_kem, liboqs_peer, pqclean_kem, pqclean_peer,
    pqforge_typed,
};

const PQCLEAN: &str = "pqcrypto-frodo (PQClean opt, round 3)";

macro_rules! set {
    ($opts:expr, $name:literal, $k:ty, $m:ident, $oqs:ident) => {
        if $opts.wants($name) {
            use pqcrypto_frodo::$m::{decapsulate, encapsulate, keypair};
            let oqs_alg = oqs::kem::Algorithm::$oqs;
            cross_check_kem::<$k>(
                $name,
                &pqclean_peer(PQCLEAN, keypair, encapsulate, decapsulate),
            );
            cross_check_kem::<$k>($name, &liboqs_peer(oqs_alg));
            compare(
                $name,
                vec![
                    pqforge_typed::<$k>(),
                    pqclean_kem(PQCLEAN, keypair, encapsulate, decapsulate),
                    liboqs_kem(oqs_alg),
                ],
                $opts,
            );
        }
    };
}

/// Runs the FrodoKEM comparisons.
pub fn run(opts: &Opts) {
    oqs::init();
    set!(
        opts,
        "efrodokem-640-aes",
        EFrodoKem640Aes,
        frodokem640aes,
        FrodoKem640Aes
    );
    set!(
        opts,
        "efrodokem-640-shake",
        EFrodoKem640Shake,
        frodokem640shake,
        FrodoKem640Shake
    );
    set!(
        opts,
        "efrodokem-976-aes",
        EFrodoKem976Aes,
        frodokem976aes,
        FrodoKem976Aes
    );
    set!(
        opts,
        "efrodokem-976-shake",
        EFrodoKem976Shake,
        frodokem976shake,
        FrodoKem976Shake
    );
    set!(
        opts,
        "efrodokem-1344-aes",
        EFrodoKem1344Aes,
        frodokem1344aes,
        FrodoKem1344Aes
    );
    set!(
        opts,
        "efrodokem-1344-shake",
        EFrodoKem1344Shake,
        frodokem1344shake,
        FrodoKem1344Shake
    );
}
