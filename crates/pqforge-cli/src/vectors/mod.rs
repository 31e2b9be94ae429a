//! `pqforge vectors`: run official vector files against the library.
//!
//! Each format is a [`Handler`]: it looks at a file (path and bytes) and
//! either declines (`None`) or runs it. Scheme families register their
//! handlers in [`HANDLERS`]; `.rsp` KAT files are handled generically for
//! every scheme with KATs.

#[cfg(feature = "mlkem-vectors")]
mod mlkem;
mod rsp;

use std::path::{Path, PathBuf};

use pqforge::Algorithm;

use crate::{Failure, parse_alg};

/// Pass/fail counts of one file (or one algorithm within a file).
pub(crate) struct Counts {
    /// Algorithm (or parameter set) the counts are for.
    pub alg: String,
    /// Vectors that matched.
    pub passed: usize,
    /// Vectors that did not.
    pub failed: usize,
    /// Description of the first failure.
    pub first_failure: Option<String>,
}

impl Counts {
    /// Zero counts for `alg`.
    pub fn new(alg: impl Into<String>) -> Self {
        Self {
            alg: alg.into(),
            passed: 0,
            failed: 0,
            first_failure: None,
        }
    }

    /// Records one vector's outcome; `what` describes a failure lazily.
    pub fn record(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if ok {
            self.passed += 1;
        } else {
            self.failed += 1;
            if self.first_failure.is_none() {
                self.first_failure = Some(what());
            }
        }
    }
}

/// Options every handler sees.
pub(crate) struct Ctx {
    /// `--alg`, when given.
    pub forced: Option<Algorithm>,
}

/// A vector-file format: `None` if the file is not of this format.
pub(crate) type Handler = fn(&Path, &[u8], &Ctx) -> Option<Result<Vec<Counts>, Failure>>;

/// Every format this build understands, tried in order.
const HANDLERS: &[Handler] = &[
    rsp::handle,
    #[cfg(feature = "mlkem-vectors")]
    mlkem::handle,
];

fn collect(
    paths: &[PathBuf],
    out: &mut Vec<(PathBuf, bool)>,
    explicit: bool,
) -> Result<(), Failure> {
    for p in paths {
        if p.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| Failure::usage(format!("cannot read {}: {e}", p.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect();
            entries.sort();
            collect(&entries, out, false)?;
        } else if p.is_file() {
            out.push((p.clone(), explicit));
        } else if explicit {
            return Err(Failure::usage(format!("no such file: {}", p.display())));
        }
    }
    Ok(())
}

/// Runs each file, prints a line per file and algorithm, then a closing
/// `N passed, M failed`.
pub fn run(paths: &[PathBuf], alg: Option<&str>) -> Result<(), Failure> {
    let ctx = Ctx {
        forced: alg.map(parse_alg).transpose()?,
    };
    let mut files = Vec::new();
    collect(paths, &mut files, true)?;
    let (mut pass, mut fail, mut skipped) = (0usize, 0usize, 0usize);
    for (f, explicit) in &files {
        let bytes = std::fs::read(f)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", f.display())))?;
        let Some(result) = HANDLERS.iter().find_map(|h| h(f, &bytes, &ctx)) else {
            if *explicit {
                return Err(Failure::usage(format!(
                    "{}: no handler for this vector format in this build",
                    f.display()
                )));
            }
            skipped += 1;
            continue;
        };
        for c in result? {
            println!(
                "{}: {}: {} passed, {} failed{}",
                f.display(),
                c.alg,
                c.passed,
                c.failed,
                c.first_failure
                    .as_ref()
                    .map_or(String::new(), |m| format!(" (first: {m})"))
            );
            pass += c.passed;
            fail += c.failed;
        }
    }
    if skipped > 0 {
        eprintln!("pqforge: skipped {skipped} files of no known vector format");
    }
    println!("{pass} passed, {fail} failed");
    if fail == 0 {
        Ok(())
    } else {
        Err(Failure::check(format!("{fail} vectors failed")))
    }
}
