//! `pqforge bench`: wall time, TSC cycles, peak stack and heap per operation.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use pqforge::{Algorithm, Scheme, SignOptions};
use serde::Serialize;

use crate::{BenchFormat, Failure, filtered, meter, plot, rng};

/// One measured operation.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Algorithm name.
    pub alg: &'static str,
    /// The backend its dispatch ran on (`portable`, `avx2`, ...:
    /// [`Algorithm::backend`]).
    pub backend: &'static str,
    /// `keygen`, `encaps`, `decaps`, `sign` or `verify`.
    pub op: &'static str,
    /// Median wall time per call.
    pub median_ns: u64,
    /// Fastest call.
    pub min_ns: u64,
    /// Median TSC cycles per call (x86_64 only).
    pub median_cycles: Option<u64>,
    /// Peak stack bytes of one call (stack painting).
    pub stack_bytes: usize,
    /// Peak heap bytes of one call (counting allocator).
    pub heap_bytes: usize,
    /// Calls timed.
    pub iters: usize,
}

/// The operations of a scheme, in order.
pub fn ops(s: Scheme) -> [&'static str; 3] {
    match s {
        Scheme::Kem(_) => ["keygen", "encaps", "decaps"],
        Scheme::Sig(_) => ["keygen", "sign", "verify"],
    }
}

type Op = Box<dyn FnMut() + Send>;

/// Prepares inputs (keys, ciphertext or signature) and returns a closure
/// that performs `op` once per call. Encapsulation, decapsulation, signing
/// and verification run on prepared keys (checked once, like the peers'
/// key objects), so each call is the operation alone.
fn make_op(s: Scheme, op: &'static str) -> Result<Op, Failure> {
    let mut rng = rng::os_seeded();
    let i = s.info();
    let fail = |e: pqforge::Error| Failure::check(format!("{}: {op}: {e}", i.name));
    let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    match s {
        Scheme::Kem(k) => {
            let (mut ct, mut ss) = (vec![0u8; i.ct_bytes], vec![0u8; i.ss_bytes]);
            k.keygen(&mut rng, &mut pk, &mut sk).map_err(fail)?;
            let ek = k.prepare_ek(&pk).map_err(fail)?;
            let dk = k.prepare_dk(&sk).map_err(fail)?;
            ek.encaps(&mut rng, &mut ct, &mut ss).map_err(fail)?;
            Ok(match op {
                "keygen" => Box::new(move || {
                    let _ = std::hint::black_box(k.keygen(&mut rng, &mut pk, &mut sk));
                }),
                "encaps" => Box::new(move || {
                    let _ = std::hint::black_box(ek.encaps(&mut rng, &mut ct, &mut ss));
                }),
                _ => Box::new(move || {
                    let _ = std::hint::black_box(dk.decaps(&ct, &mut ss));
                }),
            })
        }
        Scheme::Sig(g) => {
            let msg = [0x5Au8; 32];
            let opts = SignOptions::new();
            let mut sig = vec![0u8; i.sig_bytes];
            g.keygen(&mut rng, &mut pk, &mut sk).map_err(fail)?;
            let vk = g.prepare_vk(&pk).map_err(fail)?;
            let signer = g.prepare_sk(&sk).map_err(fail)?;
            let n = signer.sign(&mut rng, &msg, &opts, &mut sig).map_err(fail)?;
            Ok(match op {
                "keygen" => Box::new(move || {
                    let _ = std::hint::black_box(g.keygen(&mut rng, &mut pk, &mut sk));
                }),
                "sign" => Box::new(move || {
                    let _ = std::hint::black_box(signer.sign(&mut rng, &msg, &opts, &mut sig));
                }),
                _ => Box::new(move || {
                    let _ = std::hint::black_box(vk.verify(&msg, &opts, &sig[..n]));
                }),
            })
        }
    }
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

/// Measures every operation of `alg`. The first call runs on a painted
/// stack (peak stack and heap; it doubles as the warm-up); then up to
/// `iters` timed calls, at least `min_iters`, fewer than `iters` once
/// `budget` is spent.
///
/// # Errors
/// If preparing inputs fails.
pub fn measure(
    alg: Algorithm,
    iters: usize,
    min_iters: usize,
    budget: Duration,
) -> Result<Vec<Row>, Failure> {
    let s = alg.scheme();
    let mut rows = Vec::new();
    for op in ops(s) {
        let f = make_op(s, op)?;
        let (mut f, stack, heap) = meter::stack_and_heap(move || {
            let mut g = f;
            g();
            g
        });
        let (mut ns, mut cyc) = (Vec::with_capacity(iters), Vec::with_capacity(iters));
        let start = Instant::now();
        for n in 0..iters.max(1) {
            let c0 = meter::cycles();
            let t0 = Instant::now();
            f();
            let dt = t0.elapsed();
            let c1 = meter::cycles();
            ns.push(u64::try_from(dt.as_nanos()).unwrap_or(u64::MAX));
            if let (Some(a), Some(b)) = (c0, c1) {
                cyc.push(b.wrapping_sub(a));
            }
            if n + 1 >= min_iters && start.elapsed() > budget {
                break;
            }
        }
        let min_ns = ns.iter().copied().min().unwrap_or(0);
        rows.push(Row {
            alg: s.info().name,
            backend: alg.backend(),
            op,
            iters: ns.len(),
            median_ns: median(&mut ns),
            min_ns,
            median_cycles: (!cyc.is_empty()).then(|| median(&mut cyc)),
            stack_bytes: stack,
            heap_bytes: heap,
        });
    }
    Ok(rows)
}

/// A progress bar on a terminal, hidden otherwise.
pub fn progress(len: usize, what: &str) -> ProgressBar {
    let pb = ProgressBar::new(len as u64);
    pb.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    pb.set_prefix(what.to_string());
    pb
}

/// Markdown table of rows.
pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::from(
        "| algorithm | backend | op | median ns | min ns | median cycles | stack bytes | heap bytes | iters |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.alg,
            r.backend,
            r.op,
            r.median_ns,
            r.min_ns,
            r.median_cycles.map_or("-".into(), |c| c.to_string()),
            r.stack_bytes,
            r.heap_bytes,
            r.iters
        );
    }
    s
}

fn csv(rows: &[Row]) -> String {
    let mut s = String::from(
        "alg,backend,op,median_ns,min_ns,median_cycles,stack_bytes,heap_bytes,iters\n",
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{}",
            r.alg,
            r.backend,
            r.op,
            r.median_ns,
            r.min_ns,
            r.median_cycles.map_or(String::new(), |c| c.to_string()),
            r.stack_bytes,
            r.heap_bytes,
            r.iters
        );
    }
    s
}

/// `pqforge bench`.
pub fn run(
    filter: Option<&str>,
    format: BenchFormat,
    iters: usize,
    plot_to: Option<&Path>,
) -> Result<(), Failure> {
    let algs = filtered(filter)?;
    let pb = progress(algs.len(), "bench");
    let mut rows = Vec::new();
    for a in algs {
        pb.set_message(a.name());
        rows.extend(measure(a, iters, 3, Duration::from_secs(2))?);
        pb.inc(1);
    }
    pb.finish_and_clear();
    // The machine the figures come from: on standard output above the
    // markdown table, on standard error beside CSV and JSON (whose rows
    // name their backend).
    match format {
        BenchFormat::Md => println!("{}\n", pqforge::cpu::Summary),
        BenchFormat::Csv | BenchFormat::Json => eprintln!("pqforge: {}", pqforge::cpu::Summary),
    }
    match format {
        BenchFormat::Md => print!("{}", markdown(&rows)),
        BenchFormat::Csv => print!("{}", csv(&rows)),
        BenchFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&rows).expect("serialisable")
        ),
    }
    if let Some(p) = plot_to {
        plot::medians(&rows, p).map_err(|e| Failure::usage(format!("{}: {e}", p.display())))?;
        eprintln!("pqforge: chart written to {}", p.display());
    }
    Ok(())
}
