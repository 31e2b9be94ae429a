//! Writes NIST `.req` / `.rsp` KAT files for any registered scheme, byte for
//! byte as the official generators (`PQCgenKAT_kem.c`, `PQCgenKAT_sign.c`
//! and HQC's variant) print them.
//!
//! ```
//! # #[cfg(feature = "hqc")] {
//! use pqforge::{Algorithm, katgen};
//! let s = "hqc-1".parse::<Algorithm>().unwrap().scheme();
//! let req = katgen::standard_req(s, 2);
//! let rsp = katgen::write_rsp(s, &req).unwrap();
//! assert!(rsp.starts_with("# HQC-1\n\ncount = 0\nseed = "));
//! # }
//! ```

use std::string::String;
use std::vec::Vec;

use pqforge_core::kat::rsp::{self, Value};
use pqforge_core::kat::{KAT_ENTROPY, KatSource, NistDrbg, standard_seeds};

use crate::Scheme;

/// One request record: the seed and, for signatures, the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReqRecord {
    /// `count` field.
    pub count: usize,
    /// 48-byte seed of the per-record generator.
    pub seed: [u8; 48],
    /// Message (signatures only).
    pub msg: Option<Vec<u8>>,
}

/// The first `n` records of the standard `.req` (n = 100 for the official
/// files): seeds from the scheme's KAT generator started on bytes
/// 0x00..=0x2F; for signatures each seed is followed by a message of
/// `33 (i + 1)` bytes from the same NIST DRBG stream.
#[must_use]
pub fn standard_req(scheme: Scheme, n: usize) -> Vec<ReqRecord> {
    let info = scheme.info();
    match scheme {
        Scheme::Kem(_) => {
            let mut seeds = vec![[0u8; 48]; n];
            standard_seeds(info.kat, &mut seeds);
            seeds
                .into_iter()
                .enumerate()
                .map(|(count, seed)| ReqRecord {
                    count,
                    seed,
                    msg: None,
                })
                .collect()
        }
        Scheme::Sig(_) => {
            let mut g = NistDrbg::new(&KAT_ENTROPY);
            (0..n)
                .map(|count| {
                    let mut seed = [0u8; 48];
                    g.fill(&mut seed);
                    let mut msg = vec![0u8; 33 * (count + 1)];
                    g.fill(&mut msg);
                    ReqRecord {
                        count,
                        seed,
                        msg: Some(msg),
                    }
                })
                .collect()
        }
    }
}

/// The `.req` text for `recs` (no header line, like the official files).
#[must_use]
pub fn write_req(scheme: Scheme, recs: &[ReqRecord]) -> String {
    let mut out = String::new();
    for r in recs {
        match (&scheme, &r.msg) {
            (Scheme::Sig(_), Some(msg)) => rsp::write_record(
                &mut out,
                &[
                    ("count", Value::Int(r.count)),
                    ("seed", Value::Hex(&r.seed)),
                    ("mlen", Value::Int(msg.len())),
                    ("msg", Value::Hex(msg)),
                    ("pk", Value::Empty),
                    ("sk", Value::Empty),
                    ("smlen", Value::Empty),
                    ("sm", Value::Empty),
                ],
            ),
            _ => rsp::write_record(
                &mut out,
                &[
                    ("count", Value::Int(r.count)),
                    ("seed", Value::Hex(&r.seed)),
                    ("pk", Value::Empty),
                    ("sk", Value::Empty),
                    ("ct", Value::Empty),
                    ("ss", Value::Empty),
                ],
            ),
        }
    }
    out
}

/// Reads the records of a `.req` (or `.rsp`) file: `count`, `seed` and, for
/// signatures, `msg` (checked against `mlen` when present).
///
/// # Errors
/// A one-line description of the first malformed line or field.
pub fn parse_req(scheme: Scheme, text: &str) -> Result<Vec<ReqRecord>, String> {
    let recs = rsp::parse(text).map_err(|e| e.to_string())?;
    if recs.is_empty() {
        return Err("no records (expected `count = N` / `seed = HEX`)".into());
    }
    recs.iter()
        .map(|r| {
            let count = r
                .get("count")
                .unwrap_or_default()
                .parse::<usize>()
                .map_err(|_| format!("bad count {:?}", r.get("count").unwrap_or_default()))?;
            let seed = r.seed().map_err(|e| format!("record {count}: {e}"))?;
            let msg = match scheme {
                Scheme::Kem(_) => None,
                Scheme::Sig(_) => {
                    let m = r.bytes("msg").map_err(|e| format!("record {count}: {e}"))?;
                    if let Some(l) = r.get("mlen")
                        && l.parse::<usize>().ok() != Some(m.len())
                    {
                        return Err(format!(
                            "record {count}: mlen = {l} but msg has {} bytes",
                            m.len()
                        ));
                    }
                    Some(m)
                }
            };
            Ok(ReqRecord { count, seed, msg })
        })
        .collect()
}

/// The `.rsp` text: the scheme's header line, a blank line, then one record
/// per request, each followed by a blank line.
///
/// # Errors
/// If a key pair fails its own round trip (decapsulation or verification of
/// the fresh output), which the official generators also treat as fatal.
pub fn write_rsp(scheme: Scheme, recs: &[ReqRecord]) -> Result<String, String> {
    let info = scheme.info();
    let mut out = String::new();
    out.push_str(info.kat_header);
    out.push_str("\n\n");
    let mut pk = vec![0u8; info.pk_bytes];
    let mut sk = vec![0u8; info.sk_bytes];
    for r in recs {
        let mut rng = KatSource::new(info.kat, &r.seed);
        let fail = |what: &str, e: &dyn core::fmt::Display| {
            format!("{} record {}: {what}: {e}", info.name, r.count)
        };
        match scheme {
            Scheme::Kem(k) => {
                let mut ct = vec![0u8; info.ct_bytes];
                let mut ss = vec![0u8; info.ss_bytes];
                let mut ss2 = vec![0u8; info.ss_bytes];
                k.keygen(&mut rng, &mut pk, &mut sk)
                    .map_err(|e| fail("keygen", &e))?;
                k.encaps(&mut rng, &pk, &mut ct, &mut ss)
                    .map_err(|e| fail("encaps", &e))?;
                k.decaps(&sk, &ct, &mut ss2)
                    .map_err(|e| fail("decaps", &e))?;
                if ss != ss2 {
                    return Err(fail("decaps", &"shared secrets differ"));
                }
                rsp::write_record(
                    &mut out,
                    &[
                        ("count", Value::Int(r.count)),
                        ("seed", Value::Hex(&r.seed)),
                        ("pk", Value::Hex(&pk)),
                        ("sk", Value::Hex(&sk)),
                        ("ct", Value::Hex(&ct)),
                        ("ss", Value::Hex(&ss)),
                    ],
                );
            }
            Scheme::Sig(s) => {
                let msg = r.msg.as_deref().unwrap_or_default();
                let mut sm = vec![0u8; s.signed_message_bytes(msg.len())];
                s.keygen(&mut rng, &mut pk, &mut sk)
                    .map_err(|e| fail("keygen", &e))?;
                let n = s
                    .sign_message(&mut rng, &sk, msg, &mut sm)
                    .map_err(|e| fail("sign", &e))?;
                rsp::write_record(
                    &mut out,
                    &[
                        ("count", Value::Int(r.count)),
                        ("seed", Value::Hex(&r.seed)),
                        ("mlen", Value::Int(msg.len())),
                        ("msg", Value::Hex(msg)),
                        ("pk", Value::Hex(&pk)),
                        ("sk", Value::Hex(&sk)),
                        ("smlen", Value::Int(n)),
                        ("sm", Value::Hex(&sm[..n])),
                    ],
                );
            }
        }
    }
    Ok(out)
}
