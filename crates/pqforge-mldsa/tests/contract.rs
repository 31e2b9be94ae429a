//! ML-DSA through core's contract: typed and dynamic APIs, every signing
//! option, the verifying key derived from the signing key, bad inputs.

use pqforge_core::testing::TestRng;
use pqforge_core::{
    DynSig, Error, HashAlg, SigAlg, SignOptions, SignatureScheme, SigningKey, VerifyingKey,
};
use pqforge_mldsa::{MlDsa44, MlDsa65, MlDsa87};

fn options_roundtrip<P: SignatureScheme>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let (vk, sk) = P::keygen(&mut rng);
    // Parsing the expanded key derives its verifying key (t1 recomputed).
    let sk2 = SigningKey::<P>::try_from(sk.as_ref()).expect("parse sk");
    assert_eq!(
        sk2.verifying_key(),
        &vk,
        "verifying key from the signing key"
    );
    let msg = b"message";
    let mut digest = [0u8; 64];
    let n = HashAlg::Sha3_256.digest(msg, &mut digest).expect("digest");
    let cases: [(SignOptions<'_>, &[u8]); 5] = [
        (SignOptions::new(), msg),
        (SignOptions::new().with_context(b"ctx").deterministic(), msg),
        (SignOptions::new().with_prehash(HashAlg::Shake256), msg),
        (
            SignOptions::new().with_digest(HashAlg::Sha3_256),
            &digest[..n],
        ),
        (SignOptions::new().with_external_mu(), &[7u8; 64]),
    ];
    for (opts, m) in cases {
        let sig = P::sign_with(&sk, m, &opts, &mut rng).expect("sign");
        P::verify_with(&vk, m, &opts, sig.as_bytes()).expect("verify");
        let other = opts.with_context(b"other");
        if !matches!(opts.message(), pqforge_core::MessageMode::ExternalMu) {
            assert_eq!(
                P::verify_with(&vk, m, &other, sig.as_bytes()),
                Err(Error::Verification)
            );
        }
    }
    // Deterministic signing is deterministic; hedged is not.
    let det = SignOptions::new().deterministic();
    let a = P::sign_with(&sk, msg, &det, &mut rng).expect("sign");
    let b = P::sign_with(&sk, msg, &det, &mut rng).expect("sign");
    assert_eq!(a.as_bytes(), b.as_bytes());
    // HashML-DSA with every pre-hash function (SHA-2 included): the
    // scheme hashes; the caller's digest verifies the same signature; the
    // pure form and another pre-hash function do not.
    assert_eq!(P::INFO.sign.prehash, &HashAlg::ALL[..]);
    for h in HashAlg::ALL {
        let ph = SignOptions::new().with_context(b"ctx").with_prehash(h);
        let sig = P::sign_with(&sk, msg, &ph, &mut rng).expect("sign");
        P::verify_with(&vk, msg, &ph, sig.as_bytes()).expect("verify");
        let mut d = [0u8; 64];
        let n = h.digest(msg, &mut d).expect("digest");
        let dg = SignOptions::new().with_context(b"ctx").with_digest(h);
        P::verify_with(&vk, &d[..n], &dg, sig.as_bytes()).expect("verify digest");
        assert_eq!(
            P::verify_with(
                &vk,
                msg,
                &SignOptions::new().with_context(b"ctx"),
                sig.as_bytes()
            ),
            Err(Error::Verification),
            "{h:?}"
        );
        let other = if h == HashAlg::Sha2_256 {
            HashAlg::Sha3_256
        } else {
            HashAlg::Sha2_256
        };
        let ph_other = SignOptions::new().with_context(b"ctx").with_prehash(other);
        assert_eq!(
            P::verify_with(&vk, msg, &ph_other, sig.as_bytes()),
            Err(Error::Verification),
            "{h:?}"
        );
    }
    // The dynamic API: wrong lengths are errors.
    let d: &dyn DynSig = SigAlg::<P>::DYN;
    let mut buf = vec![0u8; P::INFO.sig_bytes];
    let n = d
        .sign(&mut rng, sk.as_ref(), msg, &SignOptions::new(), &mut buf)
        .expect("dyn sign");
    d.verify(vk.as_ref(), msg, &SignOptions::new(), &buf[..n])
        .expect("dyn verify");
    assert!(
        d.verify(&vk.as_ref()[1..], msg, &SignOptions::new(), &buf[..n])
            .is_err()
    );
    assert!(
        d.verify(vk.as_ref(), msg, &SignOptions::new(), &buf[..n - 1])
            .is_err()
    );
    assert!(
        d.sign(
            &mut rng,
            &sk.as_ref()[1..],
            msg,
            &SignOptions::new(),
            &mut buf
        )
        .is_err()
    );
    let _: VerifyingKey<P> = vk;
}

#[test]
fn contract_all_sets() {
    options_roundtrip::<MlDsa44>(1);
    options_roundtrip::<MlDsa65>(2);
    options_roundtrip::<MlDsa87>(3);
}

#[test]
fn info() {
    assert_eq!(MlDsa44::INFO.oid, Some("2.16.840.1.101.3.4.3.17"));
    assert_eq!(MlDsa87::INFO.c_stem, "mldsa87");
    assert!(MlDsa65::INFO.matches("ML-DSA-65"));
    assert_eq!(
        MlDsa65::INFO.key_forms,
        pqforge_core::KeyForms::SEED_AND_EXPANDED
    );
}
