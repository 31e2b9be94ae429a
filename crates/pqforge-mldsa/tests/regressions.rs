//! Named regression tests for the defects ML-DSA peers shipped in
//! 2025–2026 (issue #14), each through the public API (`SignatureScheme`,
//! typed keys) and, where it has the case, the Wycheproof test that targets
//! it (by tcId: the files do not list tests in tcId order).

use crate::common;

use common::unhex;
use pqforge_core::kat::data_dir;
use pqforge_core::testing::TestRng;
use pqforge_core::{SignOptions, SignatureScheme, SigningKey, VerifyingKey};
use pqforge_mldsa::hazmat;
use pqforge_mldsa::params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};

/// pk, msg, ctx, sig, whether valid.
type Case = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>, bool);

/// The Wycheproof verify case `tc` of `file`.
fn wycheproof(file: &str, tc: u64) -> Option<Case> {
    let dir = data_dir()?;
    let text = std::fs::read_to_string(dir.join("vectors/wycheproof/testvectors_v1").join(file))
        .expect("read Wycheproof file");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    for g in v["testGroups"].as_array().expect("groups") {
        for t in g["tests"].as_array().expect("tests") {
            if t["tcId"].as_u64() == Some(tc) {
                return Some((
                    unhex(g["publicKey"].as_str().expect("publicKey")),
                    unhex(t["msg"].as_str().expect("msg")),
                    unhex(t["ctx"].as_str().unwrap_or("")),
                    unhex(t["sig"].as_str().expect("sig")),
                    t["result"] == "valid",
                ));
            }
        }
    }
    panic!("{file}: no tcId {tc}");
}

/// Runs Wycheproof cases through the typed API: a key of the wrong length
/// or a signature that does not verify must give an error, never a panic.
fn wycheproof_cases<P: SignatureScheme>(file: &str, tcs: &[u64]) {
    for &tc in tcs {
        let Some((pk, msg, ctx, sig, valid)) = wycheproof(file, tc) else {
            eprintln!("skipping: no test data (set PQFORGE_DATA)");
            return;
        };
        let got = VerifyingKey::<P>::try_from(pk.as_slice()).is_ok_and(|vk| {
            P::verify_with(&vk, &msg, &SignOptions::new().with_context(&ctx), &sig).is_ok()
        });
        assert_eq!(got, valid, "{file} tcId {tc}");
    }
}

/// A key pair and a valid signature of `msg`.
fn signed<P: SignatureScheme>(seed: u64, msg: &[u8]) -> (VerifyingKey<P>, SigningKey<P>, Vec<u8>) {
    let mut rng = TestRng::new(seed);
    let (vk, sk) = P::keygen(&mut rng);
    let sig = P::sign(&sk, msg, &mut rng).expect("sign");
    (vk, sk, sig.as_ref().to_vec())
}

/// CVE-2026-22705 (a hardware division in Decompose on secret data). The
/// machine code is checked by `scripts/divscan.sh` and `cargo xtask m4
/// divscan` (CI, opt-levels 3, s and z); this is the correctness side: the
/// division-free Decompose and Power2Round equal the standard's
/// definitions, written with division, for every r in [0, q).
#[test]
fn cve_2026_22705_no_division() {
    const Q: i32 = 8_380_417;
    fn check<P: ParameterSet>() {
        let g2 = P::GAMMA2;
        for r in 0..Q {
            // Algorithm 36: r0 = r mod± 2γ2; r1 = (r - r0) / 2γ2, or 0 with
            // r0 - 1 when r - r0 = q - 1.
            let mut r0 = r % (2 * g2);
            if r0 > g2 {
                r0 -= 2 * g2;
            }
            let want = if r - r0 == Q - 1 {
                (0, r0 - 1)
            } else {
                ((r - r0) / (2 * g2), r0)
            };
            assert_eq!(hazmat::decompose::<P>(r), want, "r = {r}");
        }
    }
    check::<MlDsa44>();
    check::<MlDsa65>();
    for r in 0..Q {
        let mut r0 = r % (1 << 13);
        if r0 > 1 << 12 {
            r0 -= 1 << 13;
        }
        assert_eq!(hazmat::power2round(r), ((r - r0) >> 13, r0), "r = {r}");
    }
}

/// The last hint counter (an unchecked y[ω + k - 1] read indices past the
/// hint area in a peer): a last counter above ω, 255 or ω + k + 1 must be
/// rejected, and counters must not go backwards.
#[test]
fn last_hint_counter() {
    fn check<P: SignatureScheme + ParameterSet>() {
        let (vk, _, sig) = signed::<P>(1, b"hint counters");
        let last = <P as ParameterSet>::SIG_BYTES - 1;
        let first = last + 1 - <P as ParameterSet>::K;
        for bad in [
            <P as ParameterSet>::OMEGA as u8 + 1,
            255,
            (<P as ParameterSet>::OMEGA + <P as ParameterSet>::K + 1) as u8,
        ] {
            let mut s = sig.clone();
            s[last] = bad;
            assert!(
                P::verify(&vk, b"hint counters", &s).is_err(),
                "last = {bad}"
            );
        }
        // A counter below its predecessor.
        let mut s = sig.clone();
        s[first] = s[first + 1].wrapping_add(1);
        if s[first] > s[first + 1] {
            assert!(P::verify(&vk, b"hint counters", &s).is_err());
        }
    }
    check::<MlDsa44>();
    check::<MlDsa65>();
    check::<MlDsa87>();
    // Wycheproof: "hint limit goes backwards", "last limit = 255",
    // "last limit = ω + k + 1", "ω + 1 hints overlapping limits[0]".
    wycheproof_cases::<MlDsa44>("mldsa_44_verify_test.json", &[137, 138, 139]);
    wycheproof_cases::<MlDsa65>("mldsa_65_verify_test.json", &[150, 151, 152, 160]);
    wycheproof_cases::<MlDsa87>("mldsa_87_verify_test.json", &[163, 164, 165, 173]);
}

/// A wrong bound in the ‖z‖∞ check (γ1 instead of γ1 - β, or another set's
/// γ1): Wycheproof's "index N is exactly ±(γ1 - τη)" signatures must fail;
/// directly: a z coefficient of γ1 - β is rejected before c̃ is computed.
#[test]
fn z_norm_gamma1_minus_beta() {
    wycheproof_cases::<MlDsa44>("mldsa_44_verify_test.json", &[125, 126]);
    wycheproof_cases::<MlDsa65>("mldsa_65_verify_test.json", &[138, 139]);
    wycheproof_cases::<MlDsa87>("mldsa_87_verify_test.json", &[151, 152]);
}

/// UseHint(1, r) with r0 = 0 goes down (the AVX2 `r0 >= 0` defect): for
/// every r whose LowBits is 0 and for the wrap cases; Wycheproof's
/// signatures that call UseHint(1, 0) (one valid, one forged under a zero
/// public key).
#[test]
fn usehint_r0_zero() {
    fn check<P: ParameterSet>() {
        let m = (8_380_417 - 1) / (2 * P::GAMMA2);
        for r1 in 0..m {
            let r = r1 * 2 * P::GAMMA2;
            assert_eq!(hazmat::low_bits::<P>(r), 0);
            assert_eq!(hazmat::use_hint::<P>(true, r), (r1 + m - 1) % m, "r = {r}");
        }
        assert_eq!(hazmat::use_hint::<P>(true, 0), m - 1);
    }
    check::<MlDsa44>();
    check::<MlDsa65>();
    wycheproof_cases::<MlDsa44>("mldsa_44_verify_test.json", &[147, 148]);
    wycheproof_cases::<MlDsa65>("mldsa_65_verify_test.json", &[161, 162]);
    wycheproof_cases::<MlDsa87>("mldsa_87_verify_test.json", &[174, 175]);
}

/// Malleable hints (CVE-2026-24850): no other encoding of a valid
/// signature verifies. Changes of each byte of the hint area (to 0, 1,
/// 255, ω, ω + 1, ±1, one bit flipped), reordered or repeated indices and
/// non-zero padding are rejected.
#[test]
fn cve_2026_24850_hint_malleability() {
    fn check<P: SignatureScheme + ParameterSet>() {
        let msg = b"hint malleability";
        // A signature with at least two hints in its first row.
        let (vk, sig) = (1..1000)
            .map(|s| signed::<P>(s, msg))
            .find(|(_, _, sig)| sig[<P as ParameterSet>::SIG_BYTES - <P as ParameterSet>::K] >= 2)
            .map(|(vk, _, sig)| (vk, sig))
            .expect("some key");
        let h0 =
            <P as ParameterSet>::SIG_BYTES - <P as ParameterSet>::OMEGA - <P as ParameterSet>::K;
        for i in h0..<P as ParameterSet>::SIG_BYTES {
            let omega = <P as ParameterSet>::OMEGA as u8;
            for v in [0, 1, 255, omega, omega + 1, sig[i] ^ 1, sig[i] ^ 0x80]
                .into_iter()
                .chain([sig[i].wrapping_add(1), sig[i].wrapping_sub(1)])
            {
                if v == sig[i] {
                    continue;
                }
                let mut s = sig.clone();
                s[i] = v;
                assert!(P::verify(&vk, msg, &s).is_err(), "byte {i} = {v}");
            }
        }
        let mut s = sig.clone();
        s.swap(h0, h0 + 1);
        assert!(P::verify(&vk, msg, &s).is_err(), "indices out of order");
        let mut s = sig.clone();
        s[h0 + 1] = s[h0];
        assert!(P::verify(&vk, msg, &s).is_err(), "repeated index");
        assert!(P::verify(&vk, msg, &sig).is_ok());
    }
    check::<MlDsa44>();
    check::<MlDsa65>();
    check::<MlDsa87>();
}

/// Zero-padded short keys and signatures (an SDK padded them, so forgeries
/// verified): every length but the exact one is refused, for keys,
/// expanded keys, seeds and signatures; Wycheproof's truncated-key and
/// trailing-zero cases.
#[test]
fn no_zero_padding() {
    fn check<P: SignatureScheme + ParameterSet>() {
        let msg = b"lengths";
        let (vk, sk, sig) = signed::<P>(3, msg);
        let pk = vk.as_ref().to_vec();
        for len in [0, 1, pk.len() - 1, pk.len() + 1] {
            let mut p = pk.clone();
            p.resize(len, 0);
            assert!(
                VerifyingKey::<P>::try_from(p.as_slice()).is_err(),
                "pk of {len} bytes"
            );
        }
        let skb = sk.as_ref().to_vec();
        for len in [0, 31, 32 + 1, skb.len() - 1, skb.len() + 1] {
            let mut p = skb.clone();
            p.resize(len, 0);
            assert!(
                SigningKey::<P>::try_from(p.as_slice()).is_err(),
                "sk of {len} bytes"
            );
        }
        for len in [0, sig.len() - 1, sig.len() + 1] {
            let mut s = sig.clone();
            s.resize(len, 0);
            assert!(P::verify(&vk, msg, &s).is_err(), "signature of {len} bytes");
        }
    }
    check::<MlDsa44>();
    check::<MlDsa65>();
    check::<MlDsa87>();
    wycheproof_cases::<MlDsa44>("mldsa_44_verify_test.json", &[6, 7, 64, 65, 144, 145, 146]);
    wycheproof_cases::<MlDsa65>("mldsa_65_verify_test.json", &[6, 7, 69, 70, 157, 158, 159]);
    wycheproof_cases::<MlDsa87>("mldsa_87_verify_test.json", &[6, 7, 62, 63, 170, 171, 172]);
}

/// A missing reduction before the verifier's inverse NTT (eprint
/// 2026/1032) overflows on crafted signatures: Wycheproof's
/// `MissingReduction` pair (ML-DSA-87).
#[test]
fn missing_reduction_before_inverse_ntt() {
    wycheproof_cases::<MlDsa87>("mldsa_87_verify_test.json", &[240, 241]);
}

/// An imported expanded key must be one KeyGen could have made from its
/// own ρ, s1, s2: a changed t0 or tr, or an s1/s2 field out of range, is
/// refused (a t0 change may not even change signatures: seen on a
/// BoringSSL key).
#[test]
fn expanded_key_consistency() {
    fn check<P: SignatureScheme + ParameterSet>() {
        let (_, sk, _) = signed::<P>(5, b"");
        let skb = sk.as_ref().to_vec();
        assert_eq!(
            skb.len(),
            <P as ParameterSet>::SK_BYTES,
            "the expanded form"
        );
        assert!(SigningKey::<P>::try_from(skb.as_slice()).is_ok());
        let t0 = <P as ParameterSet>::SK_BYTES - 416 * <P as ParameterSet>::K;
        let s1 = 128;
        for (what, i) in [
            ("tr", 64),
            ("tr end", 127),
            ("t0", t0),
            ("t0 end", skb.len() - 1),
        ] {
            let mut k = skb.clone();
            k[i] ^= 1;
            assert!(
                SigningKey::<P>::try_from(k.as_slice()).is_err(),
                "{what} changed"
            );
        }
        // s1's first field set to all ones: 2^bits - 1 > 2η.
        let mut k = skb.clone();
        k[s1] |= (1 << <P as ParameterSet>::ETA_BITS) - 1;
        assert!(
            SigningKey::<P>::try_from(k.as_slice()).is_err(),
            "s1 out of range"
        );
    }
    check::<MlDsa44>();
    check::<MlDsa65>();
    check::<MlDsa87>();
}

/// A context of more than 255 bytes is refused when signing and never
/// verifies (its length is one byte of M').
#[test]
fn context_over_255_bytes() {
    let (vk, sk, _) = signed::<MlDsa44>(7, b"");
    let ctx = [0u8; 256];
    let opts = SignOptions::new().with_context(&ctx);
    let mut rng = TestRng::new(8);
    assert!(MlDsa44::sign_with(&sk, b"m", &opts, &mut rng).is_err());
    let sig = MlDsa44::sign(&sk, b"m", &mut rng).expect("sign");
    assert!(MlDsa44::verify_with(&vk, b"m", &opts, sig.as_ref()).is_err());
    wycheproof_cases::<MlDsa44>("mldsa_44_verify_test.json", &[5, 140, 141, 142, 143]);
}
