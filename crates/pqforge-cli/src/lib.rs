//! Internals of the `pqforge` command-line tool that the fuzz targets
//! (`fuzz/`) reach: the official-vector parsers and runners
//! ([`vectors`]) and the error type of the commands. Not a stable API: the
//! tool's interface is its command line.

pub mod vectors;

/// A failure the user should read: one line, exit code 2 (usage or input
/// problem) or 1 (a check failed).
#[derive(Debug)]
pub struct Failure {
    code: u8,
    msg: String,
}

impl Failure {
    /// Bad arguments or unreadable/malformed input (exit 2).
    pub fn usage(msg: impl Into<String>) -> Self {
        Self {
            code: 2,
            msg: msg.into(),
        }
    }

    /// A test or vector check failed (exit 1).
    pub fn check(msg: impl Into<String>) -> Self {
        Self {
            code: 1,
            msg: msg.into(),
        }
    }

    /// The exit code: 2 (usage or input) or 1 (a check failed).
    #[must_use]
    pub fn code(&self) -> u8 {
        self.code
    }

    /// The one-line message.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.msg
    }
}

/// Resolves an algorithm name.
///
/// # Errors
/// A usage [`Failure`] naming the unknown algorithm.
pub fn parse_alg(name: &str) -> Result<pqforge::Algorithm, Failure> {
    name.parse()
        .map_err(|e: pqforge::ParseAlgorithmError| Failure::usage(e.to_string()))
}
