//! The registry: every parameter set this build contains, family by family.
//!
//! Each scheme crate exports its parameter sets as `SCHEMES` (dynamic
//! handles generated from the contract); this file lists the families, one
//! line each, with the cargo feature that enables them. Everything else
//! (the CLI, the Cortex-M4 firmware, xtask, the peers bench, CI) reads the
//! family list from here ([`FAMILIES`], [`Algorithm::all`]).

use core::fmt;
use core::str::FromStr;

use pqforge_core::cpu::Backends;
use pqforge_core::{AlgInfo, DynKem, DynSig, Kind, Scheme};

/// One scheme family: the cargo feature of this crate that enables it and
/// its parameter sets.
#[derive(Clone, Copy, Debug)]
pub struct Family {
    /// Cargo feature of the `pqforge` crate (`"hqc"`, `"mlkem"`, ...).
    pub feature: &'static str,
    /// The parameter sets, in registry order.
    pub schemes: &'static [Scheme],
}

macro_rules! families {
    ($( $feat:literal => $schemes:expr; )*) => {
        /// The families compiled into this build, in registry order.
        pub const FAMILIES: &[Family] = &[
            $( #[cfg(feature = $feat)] Family { feature: $feat, schemes: &$schemes }, )*
        ];

        /// The cargo features of every family this crate knows, compiled in
        /// or not (`cargo xtask families` prints them for CI and the board).
        pub const ALL_FAMILY_FEATURES: &[&str] = &[$($feat),*];
    };
}

// The registry: one line per family.
families! {
    "hqc" => pqforge_hqc::SCHEMES;
    "mlkem" => pqforge_mlkem::SCHEMES;
    "mceliece" => pqforge_mceliece::SCHEMES;
    "falcon" => pqforge_falcon::SCHEMES;
    "fndsa" => pqforge_falcon::FNDSA_SCHEMES;
    "mldsa" => pqforge_mldsa::SCHEMES;
    "slhdsa" => pqforge_slhdsa::SCHEMES;
    "xwing" => pqforge_xwing::SCHEMES;
    "frodokem" => pqforge_frodokem::SCHEMES;
    "ntru" => pqforge_ntru::SCHEMES;
    "ntruprime" => pqforge_ntruprime::SCHEMES;
}

/// A registered parameter set of this build.
///
/// Parse one from any spelling of its name (case and `-`/`_` do not
/// matter: `"ML-KEM-768"`, `"mlkem768"`, `"ml_kem_768"`); an unknown name
/// gives a [`ParseAlgorithmError`] that quotes the input and suggests the
/// closest names.
///
/// ```
/// # #[cfg(feature = "mlkem")] {
/// use pqforge::Algorithm;
/// let a: Algorithm = "ML-KEM-768".parse().unwrap();
/// assert_eq!(a.name(), "ml-kem-768");
/// let e = "mlkem-786".parse::<Algorithm>().unwrap_err();
/// assert!(e.to_string().contains("ml-kem-768"));
/// # }
/// ```
#[derive(Clone, Copy)]
pub struct Algorithm(Scheme);

impl Algorithm {
    /// Every parameter set of this build, in registry order.
    pub fn all() -> impl Iterator<Item = Algorithm> + Clone {
        FAMILIES
            .iter()
            .flat_map(|f| f.schemes.iter())
            .map(|&s| Algorithm(s))
    }

    /// The parameter set named `name` (any accepted spelling).
    #[must_use]
    pub fn find(name: &str) -> Option<Algorithm> {
        Self::all().find(|a| a.info().matches(name))
    }

    /// Canonical name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Metadata.
    #[must_use]
    pub fn info(self) -> &'static AlgInfo {
        self.0.info()
    }

    /// The dynamic implementation.
    #[must_use]
    pub fn scheme(self) -> Scheme {
        self.0
    }

    /// The KEM interface, if this is a KEM.
    #[must_use]
    pub fn kem(self) -> Option<&'static dyn DynKem> {
        match self.0 {
            Scheme::Kem(k) => Some(k),
            Scheme::Sig(_) => None,
        }
    }

    /// The signature interface, if this is a signature scheme.
    #[must_use]
    pub fn sig(self) -> Option<&'static dyn DynSig> {
        match self.0 {
            Scheme::Sig(s) => Some(s),
            Scheme::Kem(_) => None,
        }
    }

    /// KEM or signature.
    #[must_use]
    pub fn kind(self) -> Kind {
        self.info().kind
    }

    /// The backend its crate's dispatch picks on this CPU, now: the code
    /// every call runs (`"portable"`, `"avx2"`, `"avx512"`, ...; see
    /// [`pqforge_core::DynKem::backend`]). Benchmarks print it next to their
    /// figures, with [`crate::cpu::Summary`].
    ///
    /// ```
    /// # #[cfg(feature = "mlkem")] {
    /// use pqforge::Algorithm;
    /// let a = Algorithm::find("ml-kem-768").unwrap();
    /// let b = a.backends();
    /// assert_eq!(b.names(), ["portable", "armv7em", "avx2"]);
    /// assert!(b.is_available(a.backend()));
    /// println!("{} ran on {}", a, a.backend()); // ml-kem-768 ran on avx2
    /// # }
    /// ```
    #[must_use]
    pub fn backend(self) -> &'static str {
        self.0.backend()
    }

    /// Every backend of its crate, and which ones this CPU runs.
    #[must_use]
    pub fn backends(self) -> Backends {
        self.0.backends()
    }
}

impl PartialEq for Algorithm {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Algorithm {}

impl core::hash::Hash for Algorithm {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Algorithm({})", self.name())
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Longest input a [`ParseAlgorithmError`] quotes in full.
const QUOTE: usize = 64;

/// The name matched no parameter set of this build. Its message quotes
/// the input and suggests the closest names.
#[derive(Clone, PartialEq, Eq)]
pub struct ParseAlgorithmError {
    input: [u8; QUOTE],
    len: usize,
    truncated: bool,
    suggestions: [Option<&'static str>; 3],
}

impl ParseAlgorithmError {
    fn new(input: &str) -> Self {
        let mut q = [0u8; QUOTE];
        // Quote at most QUOTE bytes, cut at a character boundary.
        let mut len = input.len().min(QUOTE);
        while !input.is_char_boundary(len) {
            len -= 1;
        }
        q[..len].copy_from_slice(&input.as_bytes()[..len]);
        Self {
            input: q,
            len,
            truncated: len < input.len(),
            suggestions: pqforge_core::names::suggest(
                input,
                Algorithm::all().flat_map(|a| a.info().names()),
            ),
        }
    }

    /// The (possibly truncated) input.
    #[must_use]
    pub fn input(&self) -> &str {
        core::str::from_utf8(&self.input[..self.len]).unwrap_or("")
    }

    /// The closest names of this build, best first.
    pub fn suggestions(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.suggestions.iter().flatten().copied()
    }
}

impl fmt::Display for ParseAlgorithmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown algorithm \"{}{}\"",
            self.input(),
            if self.truncated { "..." } else { "" }
        )?;
        for (i, s) in self.suggestions().enumerate() {
            f.write_str(if i == 0 { "; did you mean " } else { ", " })?;
            write!(f, "\"{s}\"")?;
        }
        if self.suggestions[0].is_some() {
            f.write_str("?")?;
        }
        f.write_str(" (`pqforge list` shows every name)")
    }
}

impl fmt::Debug for ParseAlgorithmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl core::error::Error for ParseAlgorithmError {}

impl FromStr for Algorithm {
    type Err = ParseAlgorithmError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::find(s).ok_or_else(|| ParseAlgorithmError::new(s))
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_every_name() {
        // Under Miri every 5th algorithm (string handling over 90 names).
        for a in Algorithm::all().step_by(if cfg!(miri) { 5 } else { 1 }) {
            let i = a.info();
            for n in [i.name, i.c_stem] {
                assert_eq!(Algorithm::find(n), Some(a), "{n}");
                assert_eq!(Algorithm::find(&n.to_uppercase()), Some(a), "{n}");
                assert_eq!(Algorithm::find(&n.replace('-', "_")), Some(a), "{n}");
            }
            assert!(!i.c_stem.is_empty(), "{}: no C symbol stem", i.name);
            assert!(
                ALL_FAMILY_FEATURES.contains(&i.feature),
                "{}: feature",
                i.name
            );
        }
    }

    #[test]
    fn names_are_unambiguous() {
        for a in Algorithm::all().step_by(if cfg!(miri) { 5 } else { 1 }) {
            for b in Algorithm::all() {
                if a != b {
                    for n in a.info().names() {
                        assert!(!b.info().matches(n), "{n} names {a} and {b}");
                    }
                }
            }
        }
    }

    #[cfg(feature = "mlkem")]
    #[test]
    fn unknown_names_are_quoted_with_suggestions() {
        let e = "ML-KEM-786".parse::<Algorithm>().unwrap_err();
        let m = e.to_string();
        assert!(m.starts_with("unknown algorithm \"ML-KEM-786\""), "{m}");
        assert_eq!(e.suggestions().next(), Some("ml-kem-768"), "{m}");
        let e = "no such thing at all".parse::<Algorithm>().unwrap_err();
        assert_eq!(e.suggestions().count(), 0, "{e}");
        let long = "x".repeat(200);
        let e = long.parse::<Algorithm>().unwrap_err();
        assert!(e.to_string().contains("...\""), "{e}");
    }
}

/// Compares the accelerated kernels of `family` (those of the backend this
/// build and CPU run: AVX2 on x86_64, the DSP kernels on the Cortex-M4)
/// with its portable kernels on `rounds` rounds of deterministic random
/// inputs; the functional test of [`crate::transcript`] runs it first.
/// Families without such a check, or builds without an accelerated
/// backend, pass.
///
/// # Errors
/// The backend's name of the first kernel that differs.
// Without a family that has kernel checks the loop body only returns.
#[cfg_attr(
    not(any(feature = "mlkem", feature = "falcon", feature = "fndsa")),
    allow(clippy::never_loop, clippy::unnecessary_wraps)
)]
pub(crate) fn check_kernels(family: &str, rounds: usize) -> Result<(), &'static str> {
    // SplitMix64: inputs independent of the test's random generator.
    let mut state = 0x7171_7fcc_e0d1_a3b5_u64;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let _ = &mut next; // unused in builds without such a family
    for _ in 0..rounds {
        match family {
            #[cfg(feature = "mlkem")]
            "ML-KEM" => {
                if !pqforge_mlkem::backend::check_kernels(&mut next)? {
                    return Ok(());
                }
            }
            #[cfg(any(feature = "falcon", feature = "fndsa"))]
            "Falcon" | "FN-DSA" => {
                if !pqforge_falcon::internals::check_kernels(&mut next)? {
                    return Ok(());
                }
            }
            _ => return Ok(()),
        }
    }
    Ok(())
}
