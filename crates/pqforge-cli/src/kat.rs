//! `pqforge kat`.

use std::io::Write;
use std::path::Path;

use pqforge::katgen;

use crate::{Failure, parse_alg};

/// Writes the `.rsp` (or with `write_req` the standard `.req`).
pub fn run(
    alg: &str,
    req: Option<&Path>,
    out: Option<&Path>,
    write_req: bool,
) -> Result<(), Failure> {
    let scheme = parse_alg(alg)?.scheme();
    let recs = match req {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| Failure::usage(format!("cannot read {}: {e}", p.display())))?;
            katgen::parse_req(scheme, &text)
                .map_err(|e| Failure::usage(format!("{}: {e}", p.display())))?
        }
        None => katgen::standard_req(scheme, 100),
    };
    let text = if write_req {
        katgen::write_req(scheme, &recs)
    } else {
        katgen::write_rsp(scheme, &recs).map_err(Failure::check)?
    };
    if let Some(p) = out {
        return std::fs::write(p, text)
            .map_err(|e| Failure::usage(format!("cannot write {}: {e}", p.display())));
    }
    // A closed pipe (`| head`) is not an error worth a message.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(())
}
