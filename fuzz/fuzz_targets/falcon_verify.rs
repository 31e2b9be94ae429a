//! Arbitrary (pk, msg, sig) through the dynamic verify of every Falcon /
//! FN-DSA parameter set: must return, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqforge_core::{DynSig, Scheme, SignOptions};
use pqforge_falcon::{FNDSA_SCHEMES, SCHEMES};

fuzz_target!(|data: &[u8]| {
    // Layout: selector, 2-byte pk length, 2-byte msg length, then pk, msg,
    // and the rest is the signature. A valid-length pk is likely when the
    // length field is small: lengths are taken modulo what is available.
    if data.len() < 5 {
        return;
    }
    let algs: Vec<&dyn DynSig> = SCHEMES
        .iter()
        .chain(&FNDSA_SCHEMES)
        .map(|s| match *s {
            Scheme::Sig(g) => g,
            Scheme::Kem(_) => unreachable!("Falcon registers signatures only"),
        })
        .collect();
    let alg = algs[usize::from(data[0] & 0x7F) % algs.len()];
    let rest = &data[5..];
    let info = alg.info();
    // Bit 7 of the selector: use exactly the scheme's key length when possible.
    let pk_len = if data[0] & 0x80 != 0 {
        info.pk_bytes.min(rest.len())
    } else {
        usize::from(u16::from_le_bytes([data[1], data[2]])) % (rest.len() + 1)
    };
    let (pk, rest) = rest.split_at(pk_len);
    let msg_len = usize::from(u16::from_le_bytes([data[3], data[4]])) % (rest.len() + 1);
    let (msg, sig) = rest.split_at(msg_len);
    let _ = alg.verify(pk, msg, &SignOptions::new(), sig);
});
