//! ML-DSA verification and key decoding never panic, and no mutation of a
//! valid signature verifies (strict encoding: exactly one encoding of each
//! signature is accepted, CVE-2026-24850).
//!
//! Input: byte 0 picks the set (and the mode), the rest is either a
//! mutation (XOR mask laid over the signature at an offset) of a valid
//! signature, or raw bytes taken as a public key, an expanded or seed
//! private key, and a signature.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pqforge_core::{SignOptions, SignatureScheme, SigningKey, VerifyingKey};
use pqforge_mldsa::{MlDsa44, MlDsa65, MlDsa87};

/// A key pair and a valid deterministic signature of `MSG`.
struct Fixed<P: SignatureScheme> {
    vk: VerifyingKey<P>,
    sig: Vec<u8>,
}

const MSG: &[u8] = b"pqforge fuzz";

fn fixed<P: SignatureScheme<KeygenSeed = [u8; 32]>>() -> Fixed<P> {
    let (vk, sk) = P::keygen_derand(&[7; 32]);
    let mut rng = pqforge_core::testing::TestRng::new(1);
    let opts = SignOptions::new().deterministic();
    let sig = P::sign_with(&sk, MSG, &opts, &mut rng).expect("sign");
    Fixed {
        vk,
        sig: sig.as_ref().to_vec(),
    }
}

fn run<P: SignatureScheme<KeygenSeed = [u8; 32]>>(f: &Fixed<P>, mode: u8, data: &[u8]) {
    if mode & 1 == 0 {
        // Mutation: data = offset (2 bytes) || XOR mask.
        if data.len() < 3 {
            return;
        }
        let off = usize::from(u16::from_le_bytes([data[0], data[1]])) % f.sig.len();
        let mut s = f.sig.clone();
        for (i, m) in data[2..].iter().enumerate() {
            if let Some(b) = s.get_mut(off + i) {
                *b ^= m;
            }
        }
        if mode & 2 != 0 {
            // Also change the length (truncate or extend by the mask).
            s.truncate(s.len() - usize::from(data[2] % 8));
        }
        let ok = P::verify(&f.vk, MSG, &s).is_ok();
        assert_eq!(ok, s == f.sig, "a mutated signature verified");
    } else {
        // Raw bytes as keys and signature: errors, never panics.
        if let Ok(vk) = VerifyingKey::<P>::try_from(data) {
            let _ = P::verify(&vk, MSG, &f.sig);
        }
        let _ = SigningKey::<P>::try_from(data);
        let _ = P::verify(&f.vk, MSG, data);
        let ctx = &data[..data.len().min(300)];
        let _ = P::verify_with(&f.vk, MSG, &SignOptions::new().with_context(ctx), &f.sig);
    }
}

fuzz_target!(|data: &[u8]| {
    static F44: OnceLock<Fixed<MlDsa44>> = OnceLock::new();
    static F65: OnceLock<Fixed<MlDsa65>> = OnceLock::new();
    static F87: OnceLock<Fixed<MlDsa87>> = OnceLock::new();
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    match sel % 3 {
        0 => run(F44.get_or_init(fixed), sel / 3, rest),
        1 => run(F65.get_or_init(fixed), sel / 3, rest),
        _ => run(F87.get_or_init(fixed), sel / 3, rest),
    }
});
