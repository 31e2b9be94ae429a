//! Regenerates the official round-3 KAT transcripts (NIST PQCgenKAT_sign
//! with the AES-256-CTR DRBG) and compares their SHA-256 with the digests
//! of the official files (`../shared/kat/falcon/PROVENANCE.md`). When the
//! data directory is present, every record is also compared field by
//! field. All 100 records of both sets take about 6 s at the test
//! profile's opt-level 3.
//!
//! The typed contract is used directly: `P::keygen` (one 48-byte draw),
//! then `P::sign_message_into` (nonce, then sampler seed) on the prepared
//! key; the dynamic one-shot path is checked against it on the first
//! records.

use pqforge_core::kat::rsp::{self, Value};
use pqforge_core::kat::{KAT_ENTROPY, KatSource, NistDrbg};
use pqforge_core::{KatRng, SigAlg, SignatureScheme};
use pqforge_falcon::{Falcon512, Falcon1024};
use sha2::{Digest, Sha256};

/// SHA-256 of `falcon512-KAT.rsp` (round-3 submission, 100 records).
const DIGEST_512: &str = "dd75c946fdedef4ec46a2bee7e10c65c9126f1a839b9ced6921fd45f7354b5cd";
/// SHA-256 of `falcon1024-KAT.rsp`.
const DIGEST_1024: &str = "036a0bf5260573cec44977284dfef756cd1143db9961b981bd1fb55828acb20d";

fn transcript<S: SignatureScheme>(records: usize) -> String {
    let mut out = String::new();
    out.push_str(S::INFO.kat_header);
    out.push_str("\n\n");
    let mut g = NistDrbg::new(&KAT_ENTROPY);
    let mut reqs = Vec::new();
    for count in 0..records {
        let mut seed = [0u8; 48];
        g.fill(&mut seed);
        let mut msg = vec![0u8; 33 * (count + 1)];
        g.fill(&mut msg);
        reqs.push((seed, msg));
    }
    let dynsig = SigAlg::<S>::DYN;
    for (count, (seed, msg)) in reqs.iter().enumerate() {
        let mut rng = KatSource::new(KatRng::NistDrbg, seed);
        let (vk, sk) = S::keygen(&mut rng);
        let mut sm = vec![0u8; S::signed_message_bytes(msg.len())];
        let n = S::sign_message_into(sk.prepared(), msg, &mut rng, &mut sm).expect("sign");
        rsp::write_record(
            &mut out,
            &[
                ("count", Value::Int(count)),
                ("seed", Value::Hex(seed)),
                ("mlen", Value::Int(msg.len())),
                ("msg", Value::Hex(msg)),
                ("pk", Value::Hex(vk.as_ref())),
                ("sk", Value::Hex(sk.as_ref())),
                ("smlen", Value::Int(n)),
                ("sm", Value::Hex(&sm[..n])),
            ],
        );
        // The signed message must open under the verifying key.
        let m = S::open(&vk, &sm[..n]).expect("open");
        assert_eq!(m, &msg[..]);
        if count < 3 {
            // The dynamic one-shot path (decode per call) gives the same
            // keys and signed message from the same randomness.
            let mut rng = KatSource::new(KatRng::NistDrbg, seed);
            let (mut pk2, mut sk2) = (vec![0u8; S::INFO.pk_bytes], vec![0u8; S::INFO.sk_bytes]);
            dynsig.keygen(&mut rng, &mut pk2, &mut sk2).expect("keygen");
            assert_eq!((&pk2[..], &sk2[..]), (vk.as_ref(), sk.as_ref()));
            let mut sm2 = vec![0u8; dynsig.signed_message_bytes(msg.len())];
            let n2 = dynsig
                .sign_message(&mut rng, &sk2, msg, &mut sm2)
                .expect("sign");
            assert_eq!(&sm2[..n2], &sm[..n]);
            assert_eq!(dynsig.open(&pk2, &sm2[..n2]).expect("open"), &msg[..]);
        }
    }
    out
}

fn hex(d: &[u8]) -> String {
    use std::fmt::Write;
    d.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn official(file: &str) -> Option<String> {
    let dir = pqforge_core::kat::data_dir()?;
    let p = dir.join("kat/falcon").join(file);
    match std::fs::read_to_string(&p) {
        Ok(s) => Some(s),
        Err(e) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "{}: {e}",
                p.display()
            );
            eprintln!("skipping comparison with {}: {e}", p.display());
            None
        }
    }
}

/// Compares the first `records` records field by field with the official
/// file, then the text as a byte-exact prefix.
fn compare_prefix(ours: &str, file: &str, records: usize) {
    let Some(text) = official(file) else { return };
    let theirs = rsp::parse(&text).expect("parse official");
    let mine = rsp::parse(ours).expect("parse ours");
    assert!(mine.len() >= records);
    for (i, (a, b)) in mine.iter().zip(&theirs).take(records).enumerate() {
        for f in ["count", "seed", "mlen", "msg", "pk", "sk", "smlen", "sm"] {
            assert_eq!(a.get(f), b.get(f), "{file}: record {i}, field {f}");
        }
    }
    // The text of the first records is also a byte-exact prefix.
    let cut = ours.len();
    assert_eq!(&text[..cut], ours, "{file}: transcript prefix differs");
}

#[test]
fn falcon512_kat_digest() {
    let t = transcript::<Falcon512>(100);
    compare_prefix(&t, "falcon512-KAT.rsp", 100);
    assert_eq!(hex(&Sha256::digest(t.as_bytes())), DIGEST_512);
}

#[test]
fn falcon1024_kat_digest() {
    let t = transcript::<Falcon1024>(100);
    compare_prefix(&t, "falcon1024-KAT.rsp", 100);
    assert_eq!(hex(&Sha256::digest(t.as_bytes())), DIGEST_1024);
}
