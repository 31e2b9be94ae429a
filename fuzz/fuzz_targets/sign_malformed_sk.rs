//! Signing with arbitrary (possibly malformed) secret keys never panics
//! and returns (libFuzzer's -timeout catches a hang): a valid secret key
//! with an XOR mask laid over it, or raw bytes, for every signature set.
//!
//! Input: byte 0 picks the set, byte 1 the mode; then an offset (2 bytes)
//! and an XOR mask, or raw key bytes.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pqforge::{Algorithm, DynSig, Scheme, SignOptions};

fn sets() -> &'static [(Algorithm, Vec<u8>)] {
    static S: OnceLock<Vec<(Algorithm, Vec<u8>)>> = OnceLock::new();
    S.get_or_init(|| {
        Algorithm::all()
            .filter(|a| matches!(a.scheme(), Scheme::Sig(_)))
            // SLH-DSA s sets: seconds per signature here; the f sets run
            // the same code.
            .filter(|a| !(a.name().starts_with("slh-dsa") && a.name().ends_with('s')))
            .map(|a| {
                let Scheme::Sig(s) = a.scheme() else {
                    unreachable!()
                };
                let i = s.info();
                let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
                let mut rng = pqforge_core::testing::TestRng::new(0x5C);
                s.keygen(&mut rng, &mut pk, &mut sk).expect("keygen");
                (a, sk)
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let (alg, sk) = &sets()[usize::from(data[0]) % sets().len()];
    let Scheme::Sig(s): Scheme = alg.scheme() else {
        unreachable!()
    };
    let s: &dyn DynSig = s;
    let key = if data[1] & 1 == 0 && data.len() >= 4 {
        let mut k = sk.clone();
        let off = usize::from(u16::from_le_bytes([data[2], data[3]])) % k.len();
        for (b, m) in k[off..].iter_mut().zip(&data[4..]) {
            *b ^= m;
        }
        k
    } else {
        data[2..].to_vec()
    };
    let mut sig = vec![0u8; s.info().sig_bytes];
    let mut rng = pqforge_core::testing::TestRng::new(u64::from(data[1]));
    let _ = s.sign(&mut rng, &key, b"message", &SignOptions::new(), &mut sig);
    let _ = s.prepare_sk(&key);
});
