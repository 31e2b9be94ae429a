//! Streamlined NTRU Prime (round 3): pqforge vs `pqcrypto-ntruprime`
//! (PQClean, all six sntrup sets, AVX2 code when the CPU has it) and `oqs`
//! (liboqs 0.13: sntrup761 only, AVX2 picked at run time). Keys,
//! ciphertexts and secrets are cross-checked byte for byte first. Every
//! implementation works on parsed keys.

use pqforge::ntruprime::{Sntrup653, Sntrup761, Sntrup857, Sntrup953, Sntrup1013, Sntrup1277};

use crate::harness::{
    Impl, Opts, compare, cross_check_kem, liboqs_kem, liboqs_peer, pqclean_kem, pqclean_peer,
    pqforge_typed,
};

const PQCLEAN: &str = "pqcrypto-ntruprime (PQClean AVX2)";

macro_rules! set {
    ($opts:expr, $name:literal, $k:ty, $m:ident $(, $oqs:ident)?) => {
        if $opts.wants($name) {
            use pqcrypto_ntruprime::$m::{decapsulate, encapsulate, keypair};
            cross_check_kem::<$k>($name, &pqclean_peer(PQCLEAN, keypair, encapsulate, decapsulate));
            // liboqs where it has the set.
            let oqs: Vec<Impl> = vec![$({
                let alg = oqs::kem::Algorithm::$oqs;
                cross_check_kem::<$k>($name, &liboqs_peer(alg));
                liboqs_kem(alg)
            })?];
            let impls = [
                vec![
                    pqforge_typed::<$k>(),
                    pqclean_kem(PQCLEAN, keypair, encapsulate, decapsulate),
                ],
                oqs,
            ]
            .into_iter()
            .flatten()
            .collect();
            compare($name, impls, $opts);
        }
    };
}

/// Runs the Streamlined NTRU Prime comparisons.
pub fn run(opts: &Opts) {
    oqs::init();
    set!(opts, "sntrup653", Sntrup653, sntrup653);
    set!(opts, "sntrup761", Sntrup761, sntrup761, NtruPrimeSntrup761);
    set!(opts, "sntrup857", Sntrup857, sntrup857);
    set!(opts, "sntrup953", Sntrup953, sntrup953);
    set!(opts, "sntrup1013", Sntrup1013, sntrup1013);
    set!(opts, "sntrup1277", Sntrup1277, sntrup1277);
}
