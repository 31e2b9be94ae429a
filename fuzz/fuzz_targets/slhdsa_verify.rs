//! SLH-DSA verification and key decoding never panic, and no mutation of a
//! valid signature verifies (every signature byte is hashed into the
//! path to PK.root).
//!
//! Input: byte 0 picks the set (all twelve) and the mode, the rest is
//! either a mutation (XOR mask laid over the signature at an offset, maybe
//! with a changed length) of a valid signature, or raw bytes taken as a
//! public key, a private key, a signature and a context.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pqforge_core::{ByteArray, HashAlg, SignOptions, SignatureScheme, SigningKey, VerifyingKey};
use pqforge_slhdsa::{
    SlhDsaSha2_128f, SlhDsaSha2_128s, SlhDsaSha2_192f, SlhDsaSha2_192s, SlhDsaSha2_256f,
    SlhDsaSha2_256s, SlhDsaShake128f, SlhDsaShake128s, SlhDsaShake192f, SlhDsaShake192s,
    SlhDsaShake256f, SlhDsaShake256s,
};

/// A key pair and a valid deterministic signature of `MSG`.
struct Fixed<P: SignatureScheme> {
    vk: VerifyingKey<P>,
    sig: Vec<u8>,
}

const MSG: &[u8] = b"pqforge fuzz";

fn fixed<P: SignatureScheme>() -> Fixed<P> {
    let mut seed = P::KeygenSeed::zeroed();
    seed.as_mut().fill(7);
    let (vk, sk) = P::keygen_derand(&seed);
    let mut rng = pqforge_core::testing::TestRng::new(1);
    let opts = SignOptions::new().deterministic();
    let sig = P::sign_with(&sk, MSG, &opts, &mut rng).expect("sign");
    Fixed {
        vk,
        sig: sig.as_ref().to_vec(),
    }
}

fn run<P: SignatureScheme>(f: &Fixed<P>, mode: u8, data: &[u8]) {
    if mode & 1 == 0 {
        // Mutation: data = offset (2 bytes) || XOR mask.
        if data.len() < 3 {
            return;
        }
        let off = usize::from(u16::from_le_bytes([data[0], data[1]])) * 8 % f.sig.len();
        let mut s = f.sig.clone();
        for (i, m) in data[2..].iter().enumerate() {
            if let Some(b) = s.get_mut(off + i) {
                *b ^= m;
            }
        }
        if mode & 2 != 0 {
            // Also change the length (truncate, or extend by the mask).
            if data[2] & 1 == 0 {
                s.truncate(s.len() - usize::from(data[2] % 8));
            } else {
                s.extend_from_slice(&data[2..data.len().min(10)]);
            }
        }
        let ok = P::verify(&f.vk, MSG, &s).is_ok();
        assert_eq!(ok, s == f.sig, "a mutated signature verified");
    } else {
        // Raw bytes as keys, signature and options: errors, never panics.
        if let Ok(vk) = VerifyingKey::<P>::try_from(data) {
            let _ = P::verify(&vk, MSG, &f.sig);
        }
        let _ = SigningKey::<P>::try_from(data);
        let _ = P::verify(&f.vk, MSG, data);
        let ctx = &data[..data.len().min(300)];
        let _ = P::verify_with(&f.vk, MSG, &SignOptions::new().with_context(ctx), &f.sig);
        let h = HashAlg::ALL[usize::from(mode / 2) % HashAlg::ALL.len()];
        let _ = P::verify_with(&f.vk, ctx, &SignOptions::new().with_digest(h), &f.sig);
    }
}

macro_rules! sets {
    ($sel:expr, $rest:expr, $($i:literal => $ty:ty),*) => {
        match $sel % 12 {
            $($i => {
                static F: OnceLock<Fixed<$ty>> = OnceLock::new();
                run(F.get_or_init(fixed), $sel / 12, $rest)
            })*
            _ => unreachable!(),
        }
    };
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    sets!(sel, rest,
        0 => SlhDsaSha2_128f, 1 => SlhDsaShake128f, 2 => SlhDsaSha2_192f, 3 => SlhDsaShake192f,
        4 => SlhDsaSha2_256f, 5 => SlhDsaShake256f, 6 => SlhDsaSha2_128s, 7 => SlhDsaShake128s,
        8 => SlhDsaSha2_192s, 9 => SlhDsaShake192s, 10 => SlhDsaSha2_256s, 11 => SlhDsaShake256s
    );
});
