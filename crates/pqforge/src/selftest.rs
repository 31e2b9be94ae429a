//! The pqm4-style functional test, the same for every scheme.
//!
//! Per round, for a KEM: key generation, encapsulation and decapsulation
//! agree; decapsulation with another secret key, and of a random ciphertext,
//! succeeds (implicit rejection) with a different secret. For a signature:
//! sign then verify succeeds; a modified message, a modified signature and
//! another key are each rejected.

use std::string::String;
use std::vec::Vec;

use pqforge_core::CryptoRng;

use crate::Scheme;

/// Runs `rounds` rounds of the functional test.
///
/// # Errors
/// A one-line description of the first failed check.
pub fn run(scheme: Scheme, rounds: usize, rng: &mut dyn CryptoRng) -> Result<(), String> {
    for round in 0..rounds {
        match scheme {
            Scheme::Kem(_) => kem_round(scheme, rng),
            Scheme::Sig(_) => sig_round(scheme, rng),
        }
        .map_err(|e| format!("{}: round {round}: {e}", scheme.info().name))?;
    }
    Ok(())
}

fn kem_round(scheme: Scheme, rng: &mut dyn CryptoRng) -> Result<(), String> {
    let Scheme::Kem(k) = scheme else {
        unreachable!("kem_round on a signature")
    };
    let i = k.info();
    let buf = |n: usize| vec![0u8; n];
    let (mut pk, mut sk, mut pk2, mut sk2) = (
        buf(i.pk_bytes),
        buf(i.sk_bytes),
        buf(i.pk_bytes),
        buf(i.sk_bytes),
    );
    let (mut ct, mut ss, mut ss_dec) = (buf(i.ct_bytes), buf(i.ss_bytes), buf(i.ss_bytes));
    k.keygen(rng, &mut pk, &mut sk)
        .map_err(|e| format!("keygen: {e}"))?;
    k.keygen(rng, &mut pk2, &mut sk2)
        .map_err(|e| format!("keygen: {e}"))?;
    k.encaps(rng, &pk, &mut ct, &mut ss)
        .map_err(|e| format!("encaps: {e}"))?;
    k.decaps(&sk, &ct, &mut ss_dec)
        .map_err(|e| format!("decaps: {e}"))?;
    if ss != ss_dec {
        return Err("decapsulated secret differs from encapsulated one".into());
    }
    k.decaps(&sk2, &ct, &mut ss_dec)
        .map_err(|e| format!("decaps with another key returned an error: {e}"))?;
    if ss == ss_dec {
        return Err("decaps with another secret key gave the same secret".into());
    }
    let mut random_ct = buf(i.ct_bytes);
    rng.fill_bytes(&mut random_ct);
    k.decaps(&sk, &random_ct, &mut ss_dec)
        .map_err(|e| format!("decaps of a random ciphertext returned an error: {e}"))?;
    if ss == ss_dec {
        return Err("decaps of a random ciphertext gave the honest secret".into());
    }
    Ok(())
}

fn sig_round(scheme: Scheme, rng: &mut dyn CryptoRng) -> Result<(), String> {
    let Scheme::Sig(s) = scheme else {
        unreachable!("sig_round on a KEM")
    };
    let i = s.info();
    let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    let (mut pk2, mut sk2) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    s.keygen(rng, &mut pk, &mut sk)
        .map_err(|e| format!("keygen: {e}"))?;
    s.keygen(rng, &mut pk2, &mut sk2)
        .map_err(|e| format!("keygen: {e}"))?;
    let mut msg: Vec<u8> = vec![0u8; 59];
    rng.fill_bytes(&mut msg);
    let mut sig = vec![0u8; i.sig_bytes];
    let n = s
        .sign(rng, &sk, &msg, &mut sig)
        .map_err(|e| format!("sign: {e}"))?;
    let sig = &mut sig[..n];
    s.verify(&pk, &msg, sig)
        .map_err(|e| format!("valid signature rejected: {e}"))?;
    msg[0] ^= 1;
    if s.verify(&pk, &msg, sig).is_ok() {
        return Err("signature accepted on a modified message".into());
    }
    msg[0] ^= 1;
    let pos = n / 2;
    sig[pos] ^= 0x10;
    if s.verify(&pk, &msg, sig).is_ok() {
        return Err("modified signature accepted".into());
    }
    sig[pos] ^= 0x10;
    if s.verify(&pk2, &msg, sig).is_ok() {
        return Err("signature accepted under another key".into());
    }
    Ok(())
}
