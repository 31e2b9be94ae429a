//! `pqforge test` and the main job (no arguments).

use std::time::Duration;

use pqforge::{Algorithm, Kind, selftest};

use crate::bench::{self, Row};
use crate::{Failure, filtered, rng};

/// Runs the functional test; prints one line per algorithm and a closing
/// `N passed, M failed` line.
pub fn run(filter: Option<&str>, rounds: usize) -> Result<(), Failure> {
    let algs = filtered(filter)?;
    let failures = test_all(&algs, rounds, true);
    println!(
        "{} passed, {} failed",
        algs.len() - failures.len(),
        failures.len()
    );
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Failure::check(format!(
            "functional test failed: {}",
            failures.join("; ")
        )))
    }
}

fn test_all(algs: &[Algorithm], rounds: usize, verbose: bool) -> Vec<String> {
    let pb = bench::progress(algs.len(), "test");
    let mut rng = rng::os_seeded();
    let mut failures = Vec::new();
    for &a in algs {
        pb.set_message(a.name());
        let r = selftest::run(a.scheme(), rounds, &mut rng);
        pb.suspend(|| {
            if verbose {
                match &r {
                    Ok(()) => println!("ok    {} ({rounds} rounds)", a.name()),
                    Err(e) => println!("FAIL  {e}"),
                }
            }
        });
        if let Err(e) = r {
            failures.push(e);
        }
        pb.inc(1);
    }
    pb.finish_and_clear();
    failures
}

fn us(rows: &[Row], op: &str) -> String {
    rows.iter().find(|r| r.op == op).map_or("-".into(), |r| {
        let v = r.median_ns as f64 / 1000.0;
        if v >= 100.0 {
            format!("{v:.0}")
        } else {
            format!("{v:.1}")
        }
    })
}

/// No arguments: functional test (10 rounds) and a quick benchmark of every
/// algorithm, as one markdown table.
pub fn main_job() -> Result<(), Failure> {
    let algs = filtered(None)?;
    eprintln!(
        "pqforge: self-test and quick benchmark of {} algorithms (full figures: `pqforge bench`)",
        algs.len()
    );
    let mut failures = Vec::new();
    println!("{}\n", pqforge::cpu::Summary);
    println!(
        "| algorithm | kind | status | backend | test (rounds) | keygen µs | encaps/sign µs | decaps/verify µs | peak stack B | pk / sk / ct-or-sig B |"
    );
    println!("|---|---|---|---|---|---:|---:|---:|---:|---|");
    let pb = bench::progress(algs.len(), "pqforge");
    for a in algs {
        pb.set_message(a.name());
        let i = a.info();
        // Quick: up to 10 test rounds within ~1.5 s, up to 15 timed calls
        // within ~0.15 s per operation (slow key generations get fewer).
        let mut rng = rng::os_seeded();
        let (test, rounds) =
            match selftest::run_within(a.scheme(), 10, Some(Duration::from_millis(1500)), &mut rng)
            {
                Ok(n) => (Vec::new(), n),
                Err(e) => (vec![e], 0),
            };
        let rows = bench::measure(a, 15, 1, Duration::from_millis(150))?;
        let stack = rows.iter().map(|r| r.stack_bytes).max().unwrap_or(0);
        let third = match i.kind {
            Kind::Kem => i.ct_bytes,
            Kind::Sig => i.sig_bytes,
        };
        let (op2, op3) = match i.kind {
            Kind::Kem => ("encaps", "decaps"),
            Kind::Sig => ("sign", "verify"),
        };
        pb.suspend(|| {
            println!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} / {} / {} |",
                i.name,
                i.kind.as_str(),
                i.status.as_str(),
                a.backend(),
                if test.is_empty() {
                    format!("ok ({rounds})")
                } else {
                    "FAIL".to_string()
                },
                us(&rows, "keygen"),
                us(&rows, op2),
                us(&rows, op3),
                stack,
                i.pk_bytes,
                i.sk_bytes,
                third
            );
        });
        failures.extend(test);
        pb.inc(1);
    }
    pb.finish_and_clear();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Failure::check(format!(
            "functional test failed: {}",
            failures.join("; ")
        )))
    }
}
