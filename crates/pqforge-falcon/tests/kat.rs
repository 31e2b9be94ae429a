//! Regenerates the official round-3 KAT transcripts (NIST PQCgenKAT_sign
//! with the AES-256-CTR DRBG) and compares their SHA-256 with the digests
//! of the official files (`../shared/kat/falcon/PROVENANCE.md`). When the
//! data directory is present, record 0 is also compared field by field.
//! All 100 records of both sets take about 6 s at the test profile's
//! opt-level 3.

use pqforge_core::kat::rsp::{self, Value};
use pqforge_core::kat::{KAT_ENTROPY, KatSource, NistDrbg};
use pqforge_core::{KatRng, Signature};
use pqforge_falcon::{Falcon512, Falcon1024};
use sha2::{Digest, Sha256};

/// SHA-256 of `falcon512-KAT.rsp` (round-3 submission, 100 records).
const DIGEST_512: &str = "dd75c946fdedef4ec46a2bee7e10c65c9126f1a839b9ced6921fd45f7354b5cd";
/// SHA-256 of `falcon1024-KAT.rsp`.
const DIGEST_1024: &str = "036a0bf5260573cec44977284dfef756cd1143db9961b981bd1fb55828acb20d";

fn transcript<S: Signature>(records: usize) -> String {
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
    for (count, (seed, msg)) in reqs.iter().enumerate() {
        let mut rng = KatSource::new(KatRng::NistDrbg, seed);
        let (pk, sk) = S::keygen(&mut rng);
        let mut sm = vec![0u8; S::SIG_BYTES + msg.len()];
        let n = S::kat_sign(&sk, msg, &mut rng, &mut sm).expect("sign");
        rsp::write_record(
            &mut out,
            &[
                ("count", Value::Int(count)),
                ("seed", Value::Hex(seed)),
                ("mlen", Value::Int(msg.len())),
                ("msg", Value::Hex(msg)),
                ("pk", Value::Hex(pk.as_ref())),
                ("sk", Value::Hex(sk.as_ref())),
                ("smlen", Value::Int(n)),
                ("sm", Value::Hex(&sm[..n])),
            ],
        );
        // The signed message must open under the public key.
        let m = pqforge_falcon::open_signed_message(pk.as_ref(), &sm[..n]).expect("open");
        assert_eq!(m, &msg[..]);
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
