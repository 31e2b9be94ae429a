//! Every signature set (Falcon, FN-DSA, ML-DSA, SLH-DSA): verification
//! never panics and never accepts a mutation of a valid signature (bit
//! flips, truncation, extension), nor a valid signature under a mutated
//! message or context; arbitrary (public key, signature) bytes only give
//! errors.
//!
//! Input: byte 0 picks the set, byte 1 the mode; then an offset (2 bytes)
//! and an XOR mask, or raw bytes.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pqforge::{Algorithm, DynSig, Scheme, SignOptions};

const MSG: &[u8] = b"pqforge fuzz: signature";

/// A key pair and a valid signature of `MSG` (context "ctx").
struct Fixed {
    alg: &'static dyn DynSig,
    pk: Vec<u8>,
    sig: Vec<u8>,
}

fn sets() -> &'static [Algorithm] {
    static S: OnceLock<Vec<Algorithm>> = OnceLock::new();
    S.get_or_init(|| {
        Algorithm::all()
            .filter(|a| matches!(a.scheme(), Scheme::Sig(_)))
            // SLH-DSA s sets sign in seconds here: the f sets exercise the
            // same verification code.
            .filter(|a| !(a.name().starts_with("slh-dsa") && a.name().ends_with('s')))
            .collect()
    })
}

fn fixed(i: usize) -> &'static Fixed {
    static F: OnceLock<Vec<OnceLock<Fixed>>> = OnceLock::new();
    let cells = F.get_or_init(|| sets().iter().map(|_| OnceLock::new()).collect());
    cells[i].get_or_init(|| {
        let Scheme::Sig(alg) = sets()[i].scheme() else {
            unreachable!()
        };
        let info = alg.info();
        let (mut pk, mut sk) = (vec![0u8; info.pk_bytes], vec![0u8; info.sk_bytes]);
        let mut rng = pqforge_core::testing::TestRng::new(0x51C);
        alg.keygen(&mut rng, &mut pk, &mut sk).expect("keygen");
        let mut sig = vec![0u8; info.sig_bytes];
        let opts = opts(alg, b"ctx");
        let n = alg.sign(&mut rng, &sk, MSG, &opts, &mut sig).expect("sign");
        sig.truncate(n);
        alg.verify(&pk, MSG, &opts, &sig)
            .expect("own signature verifies");
        Fixed { alg, pk, sig }
    })
}

/// The context where the set takes one (round-3 Falcon takes none).
fn opts<'a>(alg: &dyn DynSig, ctx: &'a [u8]) -> SignOptions<'a> {
    if alg.info().name.starts_with("falcon") {
        SignOptions::new()
    } else {
        SignOptions::new().with_context(ctx)
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let f = fixed(usize::from(data[0]) % sets().len());
    let (mode, rest) = (data[1], &data[2..]);
    let o = opts(f.alg, b"ctx");
    match mode % 4 {
        0 | 1 => {
            // Signature mutation: offset (2 bytes) || XOR mask; mode 1
            // also truncates or extends.
            if rest.len() < 3 {
                return;
            }
            let off = usize::from(u16::from_le_bytes([rest[0], rest[1]])) % f.sig.len();
            let mut s = f.sig.clone();
            for (i, m) in rest[2..].iter().enumerate() {
                if let Some(b) = s.get_mut(off + i) {
                    *b ^= m;
                }
            }
            if mode % 4 == 1 {
                let d = usize::from(rest[2] % 16);
                if rest[2] & 0x80 != 0 {
                    s.truncate(s.len().saturating_sub(d));
                } else {
                    s.extend(std::iter::repeat_n(rest[3 % rest.len()], d));
                }
            }
            let ok = f.alg.verify(&f.pk, MSG, &o, &s).is_ok();
            assert_eq!(
                ok,
                s == f.sig,
                "{}: a mutated signature verified",
                f.alg.info().name
            );
        }
        2 => {
            // The valid signature under another message or context.
            let (ctx, msg) = rest.split_at(rest.len().min(usize::from(mode / 4) % 8));
            let o2 = opts(f.alg, ctx);
            let ok = f.alg.verify(&f.pk, msg, &o2, &f.sig).is_ok();
            let same_ctx = ctx == b"ctx" || f.alg.info().name.starts_with("falcon");
            assert_eq!(
                ok,
                msg == MSG && same_ctx,
                "{}: verified under another message",
                f.alg.info().name
            );
        }
        _ => {
            // Raw bytes as public key, then as signature: errors only.
            let _ = f.alg.verify(rest, MSG, &o, &f.sig);
            let _ = f.alg.verify(&f.pk, MSG, &o, rest);
        }
    }
});
