//! NIST `.rsp` KAT files, for every scheme with KATs: each record is
//! regenerated from its seed (and message) and compared field by field.

use std::path::Path;

use pqforge::kat::rsp;
use pqforge::{Algorithm, katgen};

use super::{Counts, Ctx};
use crate::Failure;

/// Handles `*.rsp` files.
pub(crate) fn handle(path: &Path, bytes: &[u8], ctx: &Ctx) -> Option<Result<Vec<Counts>, Failure>> {
    if path.extension().and_then(|x| x.to_str()) != Some("rsp") {
        return None;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Some(Err(Failure::usage(format!(
            "{}: not UTF-8 text",
            path.display()
        ))));
    };
    Some(run_rsp(path, text, ctx.forced).map(|c| vec![c]))
}

/// Regenerates every record of a `.rsp` from its seed and compares all fields.
fn run_rsp(path: &Path, text: &str, forced: Option<Algorithm>) -> Result<Counts, Failure> {
    let header = text.lines().next().unwrap_or_default().trim();
    let candidates: Vec<Algorithm> = match forced {
        Some(a) => vec![a],
        None => Algorithm::all()
            .filter(|a| a.info().kat_header == header)
            .collect(),
    };
    if candidates.is_empty() {
        return Err(Failure::usage(format!(
            "{}: header {header:?} names no algorithm of this build (use --alg)",
            path.display()
        )));
    }
    let want = rsp::parse(text).map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
    let mut best: Option<Counts> = None;
    for a in candidates {
        let s = a.scheme();
        let req = katgen::parse_req(s, text)
            .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
        let got_text = katgen::write_rsp(s, &req).map_err(Failure::check)?;
        let got = rsp::parse(&got_text).map_err(|e| Failure::check(e.to_string()))?;
        let mut c = Counts::new(a.name());
        for (w, g) in want.iter().zip(&got) {
            let bad = w
                .fields
                .iter()
                .find(|(k, v)| g.get(k) != Some(v.as_str()))
                .map(|(k, _)| k.clone());
            c.record(bad.is_none(), || {
                format!(
                    "count {}: field `{}` differs",
                    w.get("count").unwrap_or("?"),
                    bad.unwrap_or_default()
                )
            });
        }
        if c.failed == 0 {
            return Ok(c);
        }
        if best.as_ref().is_none_or(|b| c.passed > b.passed) {
            best = Some(c);
        }
    }
    Ok(best.expect("at least one candidate"))
}
