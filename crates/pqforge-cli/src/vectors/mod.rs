//! `pqforge vectors`: run official vector files against the library.
//!
//! Each format is a [`Handler`]: it looks at a file (path and bytes) and
//! either declines (`None`) or runs it. Scheme families register their
//! handlers in [`HANDLERS`]; `.rsp` KAT files are handled generically for
//! every scheme with KATs. A file several handlers claim is run by each
//! (CCTV's `accumulated-hashes.json` has an ML-KEM and an ML-DSA section).
//!
//! Failing outcomes (nonzero exit): a vector that fails; a file given by
//! name that is missing or that no handler claims (inside a given
//! directory, such files are only counted on standard error); a file that
//! yields no vector at all (unless its tests are counted in a companion
//! file, such as an ACVP `expectedResults.json`); a run in which no vector
//! was checked. Vectors a handler cannot check in this build are counted as
//! skipped, with the reason, never as passed.

#[cfg(any(feature = "mldsa-vectors", feature = "slhdsa-vectors"))]
mod common;
mod keyfiles;
#[cfg(feature = "mldsa-vectors")]
mod mldsa;
#[cfg(feature = "mlkem-vectors")]
mod mlkem;
mod rsp;
#[cfg(feature = "slhdsa-vectors")]
mod slhdsa;

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
    /// Vectors not checked (see `skip_reason`).
    pub skipped: usize,
    /// Why vectors were skipped.
    pub skip_reason: Option<String>,
    /// The file's tests are counted with a companion file (so zero vectors
    /// here is not an error).
    pub covered: bool,
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
            skipped: 0,
            skip_reason: None,
            covered: false,
            first_failure: None,
        }
    }

    /// A file whose tests are counted with a companion file; `label` says
    /// which.
    #[cfg_attr(
        not(any(
            feature = "mlkem-vectors",
            feature = "mldsa-vectors",
            feature = "slhdsa-vectors"
        )),
        allow(dead_code)
    )]
    pub fn covered(label: impl Into<String>) -> Self {
        Self {
            covered: true,
            ..Self::new(label)
        }
    }

    /// Records `n` vectors that were not checked, and why.
    #[cfg_attr(
        not(any(feature = "mldsa-vectors", feature = "slhdsa-vectors")),
        allow(dead_code)
    )]
    pub fn skip(&mut self, n: usize, reason: impl Into<String>) {
        self.skipped += n;
        if self.skip_reason.is_none() {
            self.skip_reason = Some(reason.into());
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
    keyfiles::handle,
    #[cfg(feature = "mlkem-vectors")]
    mlkem::handle,
    #[cfg(feature = "mldsa-vectors")]
    mldsa::handle,
    #[cfg(feature = "slhdsa-vectors")]
    slhdsa::handle,
];

/// Runs every handler on `bytes` as if they were the file `name` (the
/// name picks the format, as for a file on disk: `.rsp`, ACVP directory
/// and file names, Wycheproof and CCTV names), without touching the file
/// system for `name` itself: the entry point of the fuzz target of the
/// vector parsers. Returns the number of vectors checked (passed, failed
/// or skipped); never panics, whatever the bytes.
///
/// # Errors
/// The [`Failure`] a handler reports for malformed input.
pub fn run_bytes(name: &Path, bytes: &[u8], alg: Option<&str>) -> Result<usize, Failure> {
    let ctx = Ctx {
        forced: alg.map(parse_alg).transpose()?,
    };
    let mut n = 0;
    for h in HANDLERS {
        if let Some(r) = h(name, bytes, &ctx) {
            n += r?
                .iter()
                .map(|c| c.passed + c.failed + c.skipped)
                .sum::<usize>();
        }
    }
    Ok(n)
}

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
/// `N passed, M failed` (`, K skipped` when vectors were skipped).
///
/// # Errors
/// A usage [`Failure`] (exit 2) for unreadable or unrecognised input and
/// for a run that checks nothing; a check [`Failure`] (exit 1) when a
/// vector fails.
pub fn run(paths: &[PathBuf], alg: Option<&str>) -> Result<(), Failure> {
    let ctx = Ctx {
        forced: alg.map(parse_alg).transpose()?,
    };
    let mut files = Vec::new();
    collect(paths, &mut files, true)?;
    let (mut pass, mut fail, mut skip, mut unknown) = (0usize, 0usize, 0usize, 0usize);
    for (f, explicit) in &files {
        let bytes = std::fs::read(f)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", f.display())))?;
        let results: Vec<_> = HANDLERS.iter().filter_map(|h| h(f, &bytes, &ctx)).collect();
        if results.is_empty() {
            if *explicit {
                return Err(Failure::usage(format!(
                    "{}: no handler for this vector format in this build",
                    f.display()
                )));
            }
            unknown += 1;
            continue;
        }
        let mut counts = Vec::new();
        for r in results {
            counts.extend(r?);
        }
        let vectors: usize = counts.iter().map(|c| c.passed + c.failed + c.skipped).sum();
        if vectors == 0 && !counts.iter().any(|c| c.covered) {
            return Err(Failure::usage(format!(
                "{}: no vectors found in this file",
                f.display()
            )));
        }
        for c in counts {
            println!(
                "{}: {}: {} passed, {} failed{}{}",
                f.display(),
                c.alg,
                c.passed,
                c.failed,
                if c.skipped > 0 {
                    format!(
                        ", {} skipped ({})",
                        c.skipped,
                        c.skip_reason.as_deref().unwrap_or("no reason given")
                    )
                } else {
                    String::new()
                },
                c.first_failure
                    .as_ref()
                    .map_or(String::new(), |m| format!(" (first: {m})"))
            );
            pass += c.passed;
            fail += c.failed;
            skip += c.skipped;
        }
    }
    if unknown > 0 {
        eprintln!("pqforge: skipped {unknown} files of no known vector format");
    }
    if skip > 0 {
        println!("{pass} passed, {fail} failed, {skip} skipped");
    } else {
        println!("{pass} passed, {fail} failed");
    }
    if fail > 0 {
        Err(Failure::check(format!("{fail} vectors failed")))
    } else if pass == 0 {
        Err(Failure::usage(if skip > 0 {
            "no vector was checked (all skipped)"
        } else {
            "no vectors ran"
        }))
    } else {
        Ok(())
    }
}
