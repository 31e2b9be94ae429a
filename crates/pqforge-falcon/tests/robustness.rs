//! Strict verification and robustness: one accepted encoding per signature,
//! every malformed input rejected with `Error::Verification` (or a key
//! error), never a panic.

use pqforge_core::kat::KatSource;
use pqforge_core::{DynSig, Error, KatRng, SigAlg, SignOptions, SignatureScheme, SigningKey};
use pqforge_falcon::{Falcon512, Falcon1024, FalconPadded512, FalconPadded1024, SCHEMES};

const FALCON_512: &dyn DynSig = SigAlg::<Falcon512>::DYN;
const FALCON_1024: &dyn DynSig = SigAlg::<Falcon1024>::DYN;
const FALCON_PADDED_512: &dyn DynSig = SigAlg::<FalconPadded512>::DYN;
const FALCON_PADDED_1024: &dyn DynSig = SigAlg::<FalconPadded1024>::DYN;
const PURE: SignOptions<'static> = SignOptions::new();

fn rng(tag: u8) -> KatSource {
    KatSource::new(KatRng::NistDrbg, &[tag; 48])
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// (pk, msg, sig) triples of one section of the padded-vectors JSON file
/// (minimal scanner: fields appear in the order pk, msg, sig).
/// (pk, msg, sig).
type Vector = (Vec<u8>, Vec<u8>, Vec<u8>);

fn padded_vectors(section: &str) -> Option<Vec<Vector>> {
    let dir = pqforge_core::kat::data_dir()?;
    let text =
        std::fs::read_to_string(dir.join("kat/falcon/falcon-padded-verify-vectors.json")).ok()?;
    let start = text.find(&format!("\"{section}\""))?;
    let body = &text[start..];
    let end = body[1..]
        .find("\"falcon-padded-")
        .map_or(body.len(), |e| e + 1);
    let body = &body[..end];
    let field = |s: &str, name: &str| -> Option<(String, usize)> {
        let k = s.find(&format!("\"{name}\""))?;
        let rest = &s[k + name.len() + 2..];
        let q1 = rest.find('"')? + 1;
        let q2 = rest[q1..].find('"')? + q1;
        Some((rest[q1..q2].to_string(), k + name.len() + 2 + q2 + 1))
    };
    let mut out = Vec::new();
    let mut s = body;
    while let Some((pk, a)) = field(s, "pk") {
        let (msg, b) = field(&s[a..], "msg")?;
        let (sig, c) = field(&s[a + b..], "sig")?;
        out.push((unhex(&pk), unhex(&msg), unhex(&sig)));
        s = &s[a + b + c..];
    }
    Some(out)
}

fn check_padded_vectors(section: &str, alg: &dyn DynSig, sig_len: usize) {
    let Some(vs) = padded_vectors(section) else {
        eprintln!("skipping {section}: test data not found");
        return;
    };
    assert_eq!(vs.len(), 5, "{section}");
    for (i, (pk, msg, sig)) in vs.iter().enumerate() {
        assert_eq!(sig.len(), sig_len);
        alg.verify(pk, msg, &PURE, sig)
            .unwrap_or_else(|e| panic!("{section} vector {i}: {e}"));
        let mut m2 = msg.clone();
        m2[0] ^= 1;
        assert_eq!(
            alg.verify(pk, &m2, &PURE, sig),
            Err(Error::Verification),
            "{section} {i}: message flip"
        );
        let mut s2 = sig.clone();
        for bit in 0..8 * s2.len() {
            s2[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(
                alg.verify(pk, msg, &PURE, &s2),
                Err(Error::Verification),
                "{section} vector {i}: bit {bit} flipped was accepted"
            );
            s2[bit / 8] ^= 1 << (bit % 8);
        }
        // The same signature is not a valid compressed-format signature
        // (trailing zero padding), unless there is no padding at all.
    }
}

#[test]
fn padded_vectors_512_every_bit_flip() {
    check_padded_vectors("falcon-padded-512", FALCON_PADDED_512, 666);
}

#[test]
fn padded_vectors_1024_every_bit_flip() {
    check_padded_vectors("falcon-padded-1024", FALCON_PADDED_1024, 1280);
}

/// Test-side encoder of the compressed format (specification section
/// 3.11.2), with an option to write "-0" at one position.
fn comp_encode_test(s2: &[i16], neg_zero_at: Option<usize>) -> Vec<u8> {
    let mut bits = Vec::new();
    for (i, &c) in s2.iter().enumerate() {
        let neg = c < 0 || neg_zero_at == Some(i);
        let a = c.unsigned_abs();
        bits.push(u8::from(neg));
        for k in (0..7).rev() {
            bits.push(((a >> k) & 1) as u8);
        }
        bits.extend(std::iter::repeat_n(0, usize::from(a >> 7)));
        bits.push(1);
    }
    let mut out = vec![0u8; bits.len().div_ceil(8)];
    for (i, b) in bits.iter().enumerate() {
        out[i / 8] |= b << (7 - i % 8);
    }
    out
}

/// Test-side decoder (lenient: accepts "-0"), for building malformed cases.
fn comp_decode_test(body: &[u8], n: usize) -> Vec<i16> {
    let bit = |i: usize| (body[i / 8] >> (7 - i % 8)) & 1;
    let mut p = 0;
    let mut out = Vec::new();
    for _ in 0..n {
        let s = bit(p);
        p += 1;
        let mut m = 0u16;
        for _ in 0..7 {
            m = (m << 1) | u16::from(bit(p));
            p += 1;
        }
        while bit(p) == 0 {
            m += 128;
            p += 1;
        }
        p += 1;
        out.push(if s == 1 { -(m as i16) } else { m as i16 });
    }
    out
}

fn sign_dyn(alg: &dyn DynSig, sk: &[u8], msg: &[u8], tag: u8) -> Vec<u8> {
    let mut sig = vec![0u8; alg.info().sig_bytes];
    let n = alg
        .sign(&mut rng(tag), sk, msg, &PURE, &mut sig)
        .expect("sign");
    sig.truncate(n);
    sig
}

fn malformed_cases(alg: &dyn DynSig, logn: u32, padded: bool) {
    let info = alg.info();
    let n = 1usize << logn;
    let (mut pk, mut sk) = (vec![0u8; info.pk_bytes], vec![0u8; info.sk_bytes]);
    alg.keygen(&mut rng(0x42), &mut pk, &mut sk)
        .expect("keygen");
    let msg = b"robustness";
    let sig = sign_dyn(alg, &sk, msg, 1);
    alg.verify(&pk, msg, &PURE, &sig).expect("valid");
    if padded {
        assert_eq!(sig.len(), info.sig_bytes);
    }
    let rej = |s: &[u8], what: &str| {
        assert_eq!(
            alg.verify(&pk, msg, &PURE, s),
            Err(Error::Verification),
            "{}: {what}",
            info.name
        );
    };

    // Header byte and logn.
    for h in [
        0x00u8,
        0x20 + logn as u8,
        0x30 + (19 - logn as u8),
        0x50 + logn as u8,
        0xB0 + logn as u8,
    ] {
        let mut s = sig.clone();
        s[0] = h;
        rej(&s, "wrong header");
    }
    // Lengths: 0, 1, nonce only, N-1, N+1, 2N, trailing bytes.
    rej(&[], "empty");
    rej(&sig[..1], "header only");
    rej(&sig[..41], "no body");
    rej(&sig[..sig.len() - 1], "truncated");
    let mut s = sig.clone();
    s.push(0);
    rej(&s, "trailing zero byte");
    let mut s = sig.clone();
    s.push(0x80);
    rej(&s, "trailing byte");
    let mut s = sig.clone();
    s.extend_from_slice(&sig);
    rej(&s, "doubled");
    rej(&vec![0u8; sig.len()], "all zero");
    rej(&vec![0xFFu8; sig.len()], "all 0xFF");

    // Canonical re-encoding round-trips; "-0" and out-of-range values are
    // rejected.
    let body = &sig[41..];
    let s2 = comp_decode_test(body, n);
    let re = comp_encode_test(&s2, None);
    assert_eq!(
        &body[..re.len()],
        &re[..],
        "{}: encoding is canonical",
        info.name
    );
    // Find a signature with a zero coefficient (about 1 in 400 is zero).
    let mut found = false;
    for tag in 2..40u8 {
        let sig = sign_dyn(alg, &sk, msg, tag);
        let s2 = comp_decode_test(&sig[41..], n);
        if let Some(z) = s2.iter().position(|&c| c == 0) {
            let mut body = comp_encode_test(&s2, Some(z));
            let mut s = sig[..41].to_vec();
            if padded {
                body.resize(info.sig_bytes - 41, 0);
            }
            s.extend_from_slice(&body);
            rej(&s, "-0 coefficient");
            // Same value written canonically verifies.
            let mut body = comp_encode_test(&s2, None);
            if padded {
                body.resize(info.sig_bytes - 41, 0);
            }
            let mut s = sig[..41].to_vec();
            s.extend_from_slice(&body);
            alg.verify(&pk, msg, &PURE, &s)
                .expect("canonical re-encoding");
            found = true;
            break;
        }
    }
    assert!(found, "no signature with a zero coefficient found");
    // |s2_0| = 2048 (beyond the encodable range).
    let mut big = s2.clone();
    big[0] = 2048;
    let mut s = sig[..41].to_vec();
    let mut b = comp_encode_test(&big, None);
    if padded {
        b.resize(info.sig_bytes - 41, 0);
    }
    s.extend_from_slice(&b);
    if s.len() == sig.len() || !padded {
        rej(&s, "coefficient 2048");
    }
    // Nonzero unused bits in the last byte of the body (compressed).
    let used_bits: usize = s2
        .iter()
        .map(|&c| 9 + (c.unsigned_abs() >> 7) as usize)
        .sum();
    if !used_bits.is_multiple_of(8) && !padded {
        let mut s = sig.clone();
        let last = s.len() - 1;
        s[last] |= 1;
        rej(&s, "unused bits in last byte");
    }
    if padded {
        let mut s = sig.clone();
        let last = s.len() - 1;
        s[last] = 1;
        rej(&s, "nonzero padding");
    }

    // Public-key checks.
    let mut bad_pk = pk.clone();
    // First coefficient := 12289 (14 bits after the header).
    let v = 12289u16;
    bad_pk[1] = (v >> 6) as u8;
    bad_pk[2] = (bad_pk[2] & 0x03) | (((v & 0x3F) as u8) << 2);
    assert!(
        alg.verify(&bad_pk, msg, &PURE, &sig).is_err(),
        "pk coefficient q accepted"
    );
    let mut bad_pk = pk.clone();
    bad_pk[1] = 0xFF;
    bad_pk[2] |= 0xFC;
    assert!(
        alg.verify(&bad_pk, msg, &PURE, &sig).is_err(),
        "pk coefficient 16383 accepted"
    );
    let mut bad_pk = pk.clone();
    bad_pk[0] ^= 1;
    assert!(alg.verify(&bad_pk, msg, &PURE, &sig).is_err(), "pk header");
    let mut long_pk = pk.clone();
    long_pk.push(0);
    assert!(
        alg.verify(&long_pk, msg, &PURE, &sig).is_err(),
        "pk trailing byte"
    );
    assert!(
        alg.verify(&pk[..pk.len() - 1], msg, &PURE, &sig).is_err(),
        "pk truncated"
    );

    // Secret-key checks: header, the reserved value -2^(bits-1).
    let mut bad_sk = sk.clone();
    bad_sk[0] ^= 1;
    assert!(
        alg.sign(
            &mut rng(9),
            &bad_sk,
            msg,
            &PURE,
            &mut vec![0u8; info.sig_bytes]
        )
        .is_err()
    );
    let mut bad_sk = sk.clone();
    bad_sk[1] = 0x80; // f_0 = 100000 (6 bits) or 10000 (5 bits): reserved
    assert!(
        alg.sign(
            &mut rng(9),
            &bad_sk,
            msg,
            &PURE,
            &mut vec![0u8; info.sig_bytes]
        )
        .is_err()
    );
    assert!(
        alg.sign(
            &mut rng(9),
            &sk[1..],
            msg,
            &PURE,
            &mut vec![0u8; info.sig_bytes]
        )
        .is_err()
    );
    // Output buffer too small.
    assert!(matches!(
        alg.sign(&mut rng(9), &sk, msg, &PURE, &mut [0u8; 100]),
        Err(Error::BufferTooSmall { .. })
    ));
    assert!(matches!(
        alg.sign(
            &mut rng(9),
            &sk,
            msg,
            &PURE,
            &mut vec![0u8; info.sig_bytes - 1]
        ),
        Err(Error::BufferTooSmall { .. })
    ));
    // Key errors keep their kind: the dynamic checks and the one-shot
    // calls report the same error.
    let mut bad_pk = pk.clone();
    bad_pk[0] ^= 1;
    assert_eq!(
        alg.check_vk(&bad_pk),
        Err(Error::Encoding("public key header"))
    );
    assert_eq!(
        alg.verify(&bad_pk, msg, &PURE, &sig),
        Err(Error::Encoding("public key header"))
    );
    assert!(matches!(alg.check_vk(&pk[1..]), Err(Error::Length { .. })));
    let mut bad_sk = sk.clone();
    bad_sk[0] ^= 1;
    assert_eq!(
        alg.check_sk(&bad_sk),
        Err(Error::InvalidKey("secret key encoding"))
    );
    assert!(matches!(alg.check_sk(&sk[1..]), Err(Error::Length { .. })));
    alg.check_vk(&pk).expect("vk");
    alg.check_sk(&sk).expect("sk");
}

#[test]
fn malformed_512() {
    malformed_cases(FALCON_512, 9, false);
}

#[test]
fn malformed_1024() {
    malformed_cases(FALCON_1024, 10, false);
}

#[test]
fn malformed_padded_512() {
    malformed_cases(FALCON_PADDED_512, 9, true);
}

#[test]
fn malformed_padded_1024() {
    malformed_cases(FALCON_PADDED_1024, 10, true);
}

#[test]
fn other_format_rejected() {
    let (vk, sk) = Falcon512::keygen(&mut rng(7));
    let skp = SigningKey::<FalconPadded512>::try_from(sk.as_ref()).expect("sk");
    let vkp = skp.verifying_key();
    let msg = b"format";
    let a = Falcon512::sign(&sk, msg, &mut rng(8)).expect("sign");
    let b = FalconPadded512::sign(&skp, msg, &mut rng(8)).expect("sign");
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let la = a.len();
    assert_eq!(b.len(), 666);
    // Same randomness: the padded signature is the compressed one plus zeros.
    assert_eq!(a, &b[..la]);
    assert!(b[la..].iter().all(|&x| x == 0));
    Falcon512::verify(&vk, msg, a).expect("compressed");
    FalconPadded512::verify(vkp, msg, b).expect("padded");
    if la != 666 {
        assert_eq!(
            FalconPadded512::verify(vkp, msg, a),
            Err(Error::Verification)
        );
        assert_eq!(Falcon512::verify(&vk, msg, b), Err(Error::Verification));
    }
    // Falcon-1024 signatures under a Falcon-512 key and vice versa.
    let (vk2, sk2) = Falcon1024::keygen(&mut rng(9));
    let sk2p = SigningKey::<FalconPadded1024>::try_from(sk2.as_ref()).expect("sk");
    let c = Falcon1024::sign(&sk2, msg, &mut rng(10)).expect("sign");
    let c = c.as_bytes();
    assert!(FALCON_512.verify(vk.as_ref(), msg, &PURE, c).is_err());
    assert!(FALCON_1024.verify(vk2.as_ref(), msg, &PURE, a).is_err());
    let d = FalconPadded1024::sign(&sk2p, msg, &mut rng(10)).expect("sign");
    assert_eq!(c, &d.as_bytes()[..c.len()]);
    FalconPadded1024::verify(sk2p.verifying_key(), msg, d.as_bytes()).expect("padded 1024");
    // A signed message of one set does not open under another.
    let mut sm = vec![0u8; Falcon512::signed_message_bytes(msg.len())];
    let n = Falcon512::sign_message_into(sk.prepared(), msg, &mut rng(11), &mut sm).expect("sm");
    assert_eq!(Falcon512::open(&vk, &sm[..n]).expect("open"), msg);
    assert_eq!(FalconPadded512::open(vkp, &sm[..n]).expect("open"), msg);
    assert!(FALCON_1024.open(vk2.as_ref(), &sm[..n]).is_err());
    sm[n - 1] ^= 1;
    assert_eq!(Falcon512::open(&vk, &sm[..n]), Err(Error::Verification));
}

#[test]
fn random_inputs_never_panic() {
    let (vk, _) = Falcon512::keygen(&mut rng(11));
    let vkp = pqforge_core::VerifyingKey::<FalconPadded512>::try_from(vk.as_ref()).expect("vk");
    let mut r = pqforge_core::testing::TestRng::new(12);
    let mut buf = [0u8; 1400];
    for i in 0..3000usize {
        r.fill(&mut buf);
        let len = (usize::from(buf[0]) << 3 | usize::from(buf[1] & 7)) % 1400;
        let mut s = buf[..len].to_vec();
        if i % 2 == 0 && !s.is_empty() {
            s[0] = 0x39;
        }
        assert!(Falcon512::verify(&vk, b"m", &s).is_err());
        assert!(FalconPadded512::verify(&vkp, b"m", &s).is_err());
        assert!(Falcon512::open(&vk, &s).is_err());
        let _ = FALCON_512.verify(&buf[..897], b"m", &PURE, &s);
        let _ = FALCON_1024.verify(&buf[..1793.min(len.max(1))], b"m", &PURE, &s);
        let _ = FALCON_512.open(&buf[..897], &s);
        let _ = SigningKey::<Falcon512>::try_from(&buf[..1281]);
    }
}

#[test]
fn dyn_roundtrip_all_sets() {
    for s in SCHEMES {
        let pqforge_core::Scheme::Sig(alg) = s else {
            panic!("not a signature scheme");
        };
        let info = alg.info();
        let (mut pk, mut sk) = (vec![0u8; info.pk_bytes], vec![0u8; info.sk_bytes]);
        alg.keygen(&mut rng(21), &mut pk, &mut sk).expect("keygen");
        for (k, msg) in [&b""[..], b"x", &[0xA5u8; 3000][..]].iter().enumerate() {
            let sig = sign_dyn(alg, &sk, msg, 30 + k as u8);
            alg.verify(&pk, msg, &PURE, &sig).expect("verify");
            assert!(alg.verify(&pk, b"other", &PURE, &sig).is_err());
            // The prepared keys of the dynamic API give the same results.
            let psk = alg.prepare_sk(&sk).expect("prepare sk");
            let pvk = alg.prepare_vk(&pk).expect("prepare vk");
            let mut sig2 = vec![0u8; info.sig_bytes];
            let n = psk
                .sign(&mut rng(30 + k as u8), msg, &PURE, &mut sig2)
                .expect("sign");
            assert_eq!(&sig2[..n], &sig[..]);
            pvk.verify(msg, &PURE, &sig).expect("verify");
            assert!(pvk.verify(b"other", &PURE, &sig).is_err());
        }
    }
}
