//! Helpers every vector format shares: hex and JSON fields, outcome
//! judging, per-label tallies, ACVP prompt/expected-results joining and
//! projection comparison, and the `key: value` block files of BoringSSL and
//! OpenSSL.
#![cfg_attr(
    not(all(feature = "mldsa-vectors", feature = "slhdsa-vectors")),
    allow(dead_code)
)]

use std::path::Path;

use pqforge::{Error, HashAlg};
use serde_json::Value;

use super::Counts;
use crate::Failure;

pub(super) fn dir_name(p: Option<&Path>) -> &str {
    p.and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .unwrap_or("")
}

pub(super) fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

pub(super) fn unhex(s: &str) -> Result<Vec<u8>, String> {
    let s = s.trim();
    if !s.len().is_multiple_of(2) {
        return Err(format!("odd-length hex ({} digits)", s.len()));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| {
            s.get(i..i + 2)
                .and_then(|d| u8::from_str_radix(d, 16).ok())
                .ok_or_else(|| format!("bad hex at {i}"))
        })
        .collect()
}

pub(super) fn bad(path: &Path, e: impl std::fmt::Display) -> Failure {
    Failure::usage(format!("{}: {e}", path.display()))
}

pub(super) fn parse_json(path: &Path, bytes: &[u8]) -> Result<Value, Failure> {
    serde_json::from_slice(bytes).map_err(|e| bad(path, format!("invalid JSON: {e}")))
}

pub(super) fn hex_field(t: &Value, key: &str) -> Result<Option<Vec<u8>>, String> {
    match t.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => unhex(s).map(Some).map_err(|e| format!("{key}: {e}")),
        Some(_) => Err(format!("{key}: not a string")),
    }
}

pub(super) fn need_hex(t: &Value, key: &str) -> Result<Vec<u8>, String> {
    hex_field(t, key)?.ok_or_else(|| format!("no `{key}`"))
}

/// Outcome of one check: `Rejected` = the library refused an input (right
/// for an invalid vector); `Mismatch` = an output differs, or anything a
/// correct implementation cannot do.
pub(super) enum Fail {
    Rejected(String),
    Mismatch(String),
}

/// Input errors count as a refusal; any other error is a failure (an
/// `Unsupported` option is never a valid answer to a vector).
pub(super) fn refused(e: Error) -> Fail {
    match e {
        Error::Length { .. }
        | Error::Encoding(_)
        | Error::InvalidKey(_)
        | Error::InvalidInput(_)
        | Error::Verification => Fail::Rejected(e.to_string()),
        _ => Fail::Mismatch(format!("unexpected error: {e}")),
    }
}

pub(super) fn cmp(what: &str, got: &[u8], want: Option<&[u8]>) -> Result<(), Fail> {
    match want {
        Some(w) if w != got => Err(Fail::Mismatch(format!("{what} differs"))),
        _ => Ok(()),
    }
}

/// `expect`: Some(true) valid, Some(false) invalid, None acceptable.
pub(super) fn judge(r: Result<(), Fail>, expect: Option<bool>) -> Result<(), String> {
    match (r, expect) {
        (Ok(()), Some(true) | None) | (Err(Fail::Rejected(_)), Some(false) | None) => Ok(()),
        (Ok(()), Some(false)) => Err("accepted an invalid input".into()),
        (Err(Fail::Rejected(e)), Some(true)) => Err(format!("rejected a valid input: {e}")),
        (Err(Fail::Mismatch(e)), _) => Err(e),
    }
}

/// Per-label counters in first-seen order.
pub(super) struct Tally(pub(super) Vec<Counts>);

impl Tally {
    pub(super) fn new() -> Self {
        Self(Vec::new())
    }
    pub(super) fn get(&mut self, label: &str) -> &mut Counts {
        if let Some(i) = self.0.iter().position(|c| c.alg == label) {
            return &mut self.0[i];
        }
        self.0.push(Counts::new(label));
        self.0.last_mut().expect("just pushed")
    }
    pub(super) fn record(&mut self, label: &str, id: &str, r: Result<(), String>) {
        let ok = r.is_ok();
        self.get(label)
            .record(ok, || format!("{id}: {}", r.err().unwrap_or_default()));
    }
    pub(super) fn done(self) -> Vec<Counts> {
        self.0
    }
}

/// prompt.json with every field of expectedResults.json's tests added
/// (matched by tgId and tcId; every prompt test must have its answer).
pub(super) fn with_expected(path: &Path, bytes: &[u8]) -> Result<Value, Failure> {
    let mut prompt = parse_json(path, bytes)?;
    let exp_path = path.with_file_name("expectedResults.json");
    let exp_bytes =
        std::fs::read(&exp_path).map_err(|e| bad(&exp_path, format!("cannot read: {e}")))?;
    let exp = parse_json(&exp_path, &exp_bytes)?;
    let egroups = exp
        .get("testGroups")
        .and_then(Value::as_array)
        .ok_or_else(|| bad(&exp_path, "no testGroups"))?;
    let groups = prompt
        .get_mut("testGroups")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| bad(path, "no testGroups"))?;
    for g in groups {
        let tg = g.get("tgId").cloned();
        let eg = egroups
            .iter()
            .find(|e| e.get("tgId") == tg.as_ref())
            .ok_or_else(|| {
                bad(
                    &exp_path,
                    format!("no results for tgId {}", id_of(tg.as_ref())),
                )
            })?;
        let etests = eg.get("tests").and_then(Value::as_array);
        for t in g
            .get_mut("tests")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            let tc = t.get("tcId").cloned();
            let et = etests
                .into_iter()
                .flatten()
                .find(|e| e.get("tcId") == tc.as_ref())
                .and_then(Value::as_object)
                .ok_or_else(|| {
                    bad(
                        &exp_path,
                        format!("no result for tcId {}", id_of(tc.as_ref())),
                    )
                })?;
            if let Some(obj) = t.as_object_mut() {
                for (k, v) in et {
                    obj.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        }
    }
    Ok(prompt)
}

/// A `tgId` / `tcId` for messages.
pub(super) fn id_of(v: Option<&Value>) -> String {
    v.map_or_else(|| "?".into(), ToString::to_string)
}

/// Same value, hex strings compared without regard to case.
pub(super) fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => x.eq_ignore_ascii_case(y),
        _ => a == b,
    }
}

/// Every group and test field of `merged` (prompt + expected results) is in
/// the projection with the same value, and the projection has no other
/// test. Returns the first difference.
pub(super) fn same_tests(merged: &Value, proj: &Value) -> Result<(), String> {
    let groups = |v: &Value| v.get("testGroups").and_then(Value::as_array).cloned();
    let (Some(mg), Some(pg)) = (groups(merged), groups(proj)) else {
        return Err("no testGroups".into());
    };
    let count = |g: &[Value]| -> usize {
        g.iter()
            .map(|g| g.get("tests").and_then(Value::as_array).map_or(0, Vec::len))
            .sum()
    };
    if count(&mg) != count(&pg) || mg.len() != pg.len() {
        return Err(format!(
            "{} groups / {} tests against {} / {}",
            mg.len(),
            count(&mg),
            pg.len(),
            count(&pg)
        ));
    }
    let fields_in = |a: &Value, b: &Value, what: &str| -> Result<(), String> {
        for (k, v) in a.as_object().into_iter().flatten() {
            if k == "tests" {
                continue;
            }
            if !b.get(k).is_some_and(|w| same_value(v, w)) {
                return Err(format!("{what}: field `{k}`"));
            }
        }
        Ok(())
    };
    for g in &mg {
        let tg = g.get("tgId");
        let p = pg
            .iter()
            .find(|p| p.get("tgId") == tg)
            .ok_or_else(|| format!("no tgId {} in the projection", id_of(tg)))?;
        fields_in(g, p, &format!("tgId {}", id_of(tg)))?;
        let ptests = p.get("tests").and_then(Value::as_array);
        for t in g
            .get("tests")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let tc = t.get("tcId");
            let pt = ptests
                .into_iter()
                .flatten()
                .find(|p| p.get("tcId") == tc)
                .ok_or_else(|| format!("no tcId {} in the projection", id_of(tc)))?;
            fields_in(t, pt, &format!("tcId {}", id_of(tc)))?;
        }
    }
    Ok(())
}

/// Blank-line separated blocks of `key SEP value` lines, `#` comments
/// dropped: BoringSSL `FileTest` (`key: value`) and OpenSSL `evp_test`
/// (`Key = Value`) files.
pub(super) fn blocks(text: &str, sep: char) -> Vec<Vec<(&str, &str)>> {
    let mut out = vec![Vec::new()];
    for line in text.lines().map(str::trim) {
        if line.is_empty() {
            if out.last().is_some_and(|b| !b.is_empty()) {
                out.push(Vec::new());
            }
        } else if !line.starts_with('#')
            && let Some((k, v)) = line.split_once(sep)
            && let Some(b) = out.last_mut()
        {
            b.push((k.trim(), v.trim()));
        }
    }
    out.retain(|b| !b.is_empty());
    out
}

/// An evp_test value: `"text"` or hex.
pub(super) fn evp_bytes(v: &str) -> Result<Vec<u8>, String> {
    match v.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(s) => Ok(s.as_bytes().to_vec()),
        None => unhex(v),
    }
}

/// The randomness a signing call draws: the vector's bytes (zeros past
/// their end), counting what was drawn, so that a test can check that
/// deterministic signing draws nothing and hedged signing exactly the
/// vector's bytes.
pub(super) struct FixedRnd<'a> {
    pub(super) rnd: Option<&'a [u8]>,
    pub(super) drawn: usize,
}

impl FixedRnd<'_> {
    fn fill(&mut self, out: &mut [u8]) {
        for b in out.iter_mut() {
            *b = self
                .rnd
                .and_then(|r| r.get(self.drawn).copied())
                .unwrap_or(0);
            self.drawn += 1;
        }
    }
}

pqforge::fill_rng!(impl ['a] for FixedRnd<'a>, |r: &mut FixedRnd<'a>, out: &mut [u8]| r.fill(out));

/// A SHA-2 digest from the independent `sha2` crate (`None` for the other
/// functions), so that the `Digest` signing mode is checked against a hash
/// that is not the library's own.
pub(super) fn sha2_digest(h: HashAlg, m: &[u8]) -> Option<Vec<u8>> {
    use sha2::Digest as _;
    Some(match h {
        HashAlg::Sha2_224 => sha2::Sha224::digest(m).to_vec(),
        HashAlg::Sha2_256 => sha2::Sha256::digest(m).to_vec(),
        HashAlg::Sha2_384 => sha2::Sha384::digest(m).to_vec(),
        HashAlg::Sha2_512 => sha2::Sha512::digest(m).to_vec(),
        HashAlg::Sha2_512_224 => sha2::Sha512_224::digest(m).to_vec(),
        HashAlg::Sha2_512_256 => sha2::Sha512_256::digest(m).to_vec(),
        _ => return None,
    })
}

/// An ACVP `hashAlg` name (`"SHA2-512/224"`, `"SHAKE-128"`, ...).
pub(super) fn hash_alg(name: &str) -> Result<HashAlg, String> {
    HashAlg::ALL
        .into_iter()
        .find(|h| h.name() == name)
        .ok_or_else(|| format!("unknown hashAlg {name:?}"))
}

#[cfg(test)]
mod tests {
    use super::unhex;

    #[test]
    fn unhex_rejects_without_panicking() {
        assert_eq!(unhex(" 00aB "), Ok(vec![0x00, 0xab]));
        // Multi-byte characters where digits belong (the cli_vectors fuzz
        // target found a byte-offset slice panicking on these).
        for s in ["п", "00п0", "0п", "пппп", "0\u{10348}0"] {
            assert!(unhex(s).is_err(), "{s:?}");
        }
    }
}
