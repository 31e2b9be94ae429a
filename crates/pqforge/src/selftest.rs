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
    run_within(scheme, rounds, None, rng).map(|_| ())
}

/// Like [`run`], but stops after the first round that ends past `budget`
/// (at least one round always runs). Returns the number of rounds run.
///
/// # Errors
/// A one-line description of the first failed check.
pub fn run_within(
    scheme: Scheme,
    rounds: usize,
    budget: Option<std::time::Duration>,
    rng: &mut dyn CryptoRng,
) -> Result<usize, String> {
    let start = std::time::Instant::now();
    let name = scheme.info().name;
    // The "other key" of each round is the previous round's key pair, so a
    // round costs one key generation (it matters for Classic McEliece).
    let mut other = keypair(scheme, rng).map_err(|e| format!("{name}: keygen: {e}"))?;
    let mut done = 0;
    while done < rounds.max(1) {
        let this = keypair(scheme, rng).map_err(|e| format!("{name}: keygen: {e}"))?;
        match scheme {
            Scheme::Kem(_) => kem_round(scheme, &this, &other, rng),
            Scheme::Sig(_) => sig_round(scheme, &this, &other, rng),
        }
        .map_err(|e| format!("{name}: round {done}: {e}"))?;
        other = this;
        done += 1;
        if budget.is_some_and(|b| start.elapsed() > b) {
            break;
        }
    }
    Ok(done)
}

/// An encoded key pair.
struct KeyPair {
    pk: Vec<u8>,
    sk: Vec<u8>,
}

fn keypair(scheme: Scheme, rng: &mut dyn CryptoRng) -> Result<KeyPair, pqforge_core::Error> {
    let i = scheme.info();
    let mut kp = KeyPair {
        pk: vec![0u8; i.pk_bytes],
        sk: vec![0u8; i.sk_bytes],
    };
    match scheme {
        Scheme::Kem(k) => k.keygen(rng, &mut kp.pk, &mut kp.sk)?,
        Scheme::Sig(s) => s.keygen(rng, &mut kp.pk, &mut kp.sk)?,
    }
    Ok(kp)
}

fn kem_round(
    scheme: Scheme,
    kp: &KeyPair,
    other: &KeyPair,
    rng: &mut dyn CryptoRng,
) -> Result<(), String> {
    let Scheme::Kem(k) = scheme else {
        unreachable!("kem_round on a signature")
    };
    let i = k.info();
    let (mut ct, mut ss, mut ss_dec) = (
        vec![0u8; i.ct_bytes],
        vec![0u8; i.ss_bytes],
        vec![0u8; i.ss_bytes],
    );
    k.encaps(rng, &kp.pk, &mut ct, &mut ss)
        .map_err(|e| format!("encaps: {e}"))?;
    k.decaps(&kp.sk, &ct, &mut ss_dec)
        .map_err(|e| format!("decaps: {e}"))?;
    if ss != ss_dec {
        return Err("decapsulated secret differs from encapsulated one".into());
    }
    k.decaps(&other.sk, &ct, &mut ss_dec)
        .map_err(|e| format!("decaps with another key returned an error: {e}"))?;
    if ss == ss_dec {
        return Err("decaps with another secret key gave the same secret".into());
    }
    let mut random_ct = vec![0u8; i.ct_bytes];
    rng.fill_bytes(&mut random_ct);
    k.decaps(&kp.sk, &random_ct, &mut ss_dec)
        .map_err(|e| format!("decaps of a random ciphertext returned an error: {e}"))?;
    if ss == ss_dec {
        return Err("decaps of a random ciphertext gave the honest secret".into());
    }
    Ok(())
}

fn sig_round(
    scheme: Scheme,
    kp: &KeyPair,
    other: &KeyPair,
    rng: &mut dyn CryptoRng,
) -> Result<(), String> {
    let Scheme::Sig(s) = scheme else {
        unreachable!("sig_round on a KEM")
    };
    let i = s.info();
    let mut msg: Vec<u8> = vec![0u8; 59];
    rng.fill_bytes(&mut msg);
    let mut sig = vec![0u8; i.sig_bytes];
    let n = s
        .sign(rng, &kp.sk, &msg, &mut sig)
        .map_err(|e| format!("sign: {e}"))?;
    let sig = &mut sig[..n];
    s.verify(&kp.pk, &msg, sig)
        .map_err(|e| format!("valid signature rejected: {e}"))?;
    msg[0] ^= 1;
    if s.verify(&kp.pk, &msg, sig).is_ok() {
        return Err("signature accepted on a modified message".into());
    }
    msg[0] ^= 1;
    let pos = n / 2;
    sig[pos] ^= 0x10;
    if s.verify(&kp.pk, &msg, sig).is_ok() {
        return Err("modified signature accepted".into());
    }
    sig[pos] ^= 0x10;
    if s.verify(&other.pk, &msg, sig).is_ok() {
        return Err("signature accepted under another key".into());
    }
    Ok(())
}
