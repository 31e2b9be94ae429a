//! The pqm4-style functional test, the same for every scheme, on the heap:
//! a thin wrapper of [`transcript::functional_test`]
//! (what the Cortex-M4 harness runs), with its checks listed there.

use std::string::String;
use std::time::{Duration, Instant};

use pqforge_core::CryptoRng;

use crate::{Scheme, transcript};

/// Runs `rounds` rounds (at least one) of the functional test.
///
/// # Errors
/// A one-line description of the first failed check.
pub fn run(scheme: Scheme, rounds: usize, rng: &mut dyn CryptoRng) -> Result<(), String> {
    run_within(scheme, rounds, None, rng).map(|_| ())
}

/// Like [`run`], but stops after the first round that ends past `budget`
/// (at least one round always runs). Returns the number of rounds run.
///
/// # Errors
/// A one-line description of the first failed check.
pub fn run_within(
    scheme: Scheme,
    rounds: usize,
    budget: Option<Duration>,
    rng: &mut dyn CryptoRng,
) -> Result<usize, String> {
    let start = Instant::now();
    let mut scratch = std::vec![0u8; transcript::test_scratch_bytes(scheme.info())];
    let mut stop = || budget.is_some_and(|b| start.elapsed() > b);
    transcript::functional_test_until(scheme, rounds, &mut stop, rng, &mut scratch)
        .map_err(|e| std::format!("{}: {e}", scheme.info().name))
}
