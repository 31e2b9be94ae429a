//! NTRU (round 3): pqforge vs `pqcrypto-ntru` (PQClean: AVX2 code for
//! ntruhps2048509, ntruhps2048677, ntruhps4096821 and ntruhrss701 when the
//! CPU has AVX2; only portable "clean" C for ntruhps40961229 and
//! ntruhrss1373). liboqs dropped NTRU in 0.8, so the `oqs` crate has no
//! NTRU peer. Keys, ciphertexts and secrets are cross-checked byte for byte
//! first. Every implementation works on parsed keys.

use pqforge::ntru::{
    NtruHps2048509, NtruHps2048677, NtruHps4096821, NtruHps40961229, NtruHrss701, NtruHrss1373,
};

use crate::harness::{Opts, compare, cross_check_kem, pqclean_kem, pqclean_peer, pqforge_typed};

macro_rules! set {
    ($opts:expr, $name:literal, $k:ty, $m:ident, $peer:expr) => {
        if $opts.wants($name) {
            use pqcrypto_ntru::$m::{decapsulate, encapsulate, keypair};
            cross_check_kem::<$k>(
                $name,
                &pqclean_peer($peer, keypair, encapsulate, decapsulate),
            );
            compare(
                $name,
                vec![
                    pqforge_typed::<$k>(),
                    pqclean_kem($peer, keypair, encapsulate, decapsulate),
                ],
                $opts,
            );
        }
    };
}

/// Runs the NTRU comparisons.
pub fn run(opts: &Opts) {
    const AVX2: &str = "pqcrypto-ntru (PQClean AVX2)";
    const CLEAN: &str = "pqcrypto-ntru (PQClean clean, no AVX2 code)";
    set!(
        opts,
        "ntru-hps-2048-509",
        NtruHps2048509,
        ntruhps2048509,
        AVX2
    );
    set!(
        opts,
        "ntru-hps-2048-677",
        NtruHps2048677,
        ntruhps2048677,
        AVX2
    );
    set!(
        opts,
        "ntru-hps-4096-821",
        NtruHps4096821,
        ntruhps4096821,
        AVX2
    );
    set!(
        opts,
        "ntru-hps-4096-1229",
        NtruHps40961229,
        ntruhps40961229,
        CLEAN
    );
    set!(opts, "ntru-hrss-701", NtruHrss701, ntruhrss701, AVX2);
    set!(opts, "ntru-hrss-1373", NtruHrss1373, ntruhrss1373, CLEAN);
}
