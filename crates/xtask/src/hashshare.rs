//! `cargo xtask m4 hashshare`: the share of each operation's instructions
//! spent in hashing (Keccak, SHA-2), like pqm4's "hashing %".
//!
//! * The firmware's `mode=hashshare` runs keygen and encaps/sign and
//!   decaps/verify once per algorithm, each between two calls of the marker
//!   `pqforge_m4_hash_mark`, and prints its own SysTick count per operation.
//! * The QEMU plugin `plugin/hashcount.c` (built here with `cc`) counts every
//!   executed instruction and those whose address lies in the hash
//!   functions, exactly (one inline add per instruction), and writes both
//!   counters each time the marker's first instruction executes.
//! * The hash functions are the ELF symbols whose own path (the self type of
//!   an impl, else the function path) lies in `pqforge_core`'s `keccak`,
//!   `keccak_x4`, `sponge`, `sha2`, `sha2_multi` or `hmac` module
//!   (`--hash-prefix` replaces that list). Hash code that LTO inlined into a
//!   scheme function is counted as scheme code: the share is a lower bound.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::report::{json_str, thousands};
use crate::{Fatal, Opts, fw, size};

/// The marker function of the firmware (`#[unsafe(no_mangle)]`).
const MARK_SYMBOL: &str = "pqforge_m4_hash_mark";

/// Default hash modules (demangled path prefixes).
pub(crate) const DEFAULT_PREFIXES: &[&str] = &[
    "pqforge_core::keccak::",
    "pqforge_core::keccak_x4::",
    "pqforge_core::sponge::",
    "pqforge_core::sha2::",
    "pqforge_core::sha2_multi::",
    "pqforge_core::hmac::",
];

/// A function symbol of the firmware.
#[derive(Clone, Debug)]
struct Sym {
    addr: u64,
    size: u64,
    name: String,
}

/// The path a symbol belongs to: the self type of `<T as Trait>::f` or of
/// `<T>::f`, the `T` of `core::ptr::drop_in_place::<T>` (wiping a hash
/// state is hashing), else the name itself.
fn owner(name: &str) -> &str {
    let name = name
        .strip_prefix("core::ptr::drop_in_place::")
        .unwrap_or(name);
    name.trim_start_matches('<')
}

/// Text symbols with a size (address without the Thumb bit).
fn text_symbols(elf: &Path) -> Result<Vec<Sym>, Fatal> {
    let nm = size::tool_output(
        "arm-none-eabi-nm",
        &["-C", "-S", "-t", "d", "--defined-only"],
        elf,
    )?;
    Ok(nm
        .lines()
        .filter_map(|l| {
            let mut it = l.splitn(4, ' ');
            let addr = it.next()?.parse::<u64>().ok()? & !1;
            let size = it.next()?.parse::<u64>().ok()?;
            let kind = it.next()?.chars().next()?;
            let name = it.next()?.to_string();
            (matches!(kind, 't' | 'T' | 'w' | 'W') && size > 0).then_some(Sym { addr, size, name })
        })
        .collect())
}

/// Address ranges (sorted, merged, end exclusive) of the symbols whose
/// owner path starts with one of `prefixes`, and those symbols.
fn hash_ranges(syms: &[Sym], prefixes: &[String]) -> (Vec<(u64, u64)>, Vec<Sym>) {
    let mut hit: Vec<Sym> = syms
        .iter()
        .filter(|s| {
            prefixes
                .iter()
                .any(|p| owner(&s.name).starts_with(p.as_str()))
        })
        .cloned()
        .collect();
    hit.sort_by_key(|s| s.addr);
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    for s in &hit {
        let (a, b) = (s.addr, s.addr + s.size);
        match ranges.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => ranges.push((a, b)),
        }
    }
    (ranges, hit)
}

/// Builds the plugin with the system C compiler; returns the `.so`.
fn build_plugin(o: &Opts) -> Result<PathBuf, Fatal> {
    let src = o.root.join("crates/xtask/plugin/hashcount.c");
    let dir = o.root.join("target/m4-plugin");
    fs::create_dir_all(&dir)
        .map_err(|e| Fatal::setup(format!("cannot create {}: {e}", dir.display())))?;
    let so = dir.join("hashcount.so");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let st = Command::new(&cc)
        .args([
            "-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", "-o",
        ])
        .arg(&so)
        .arg(&src)
        .status()
        .map_err(|e| Fatal::setup(format!("cannot run {cc} (apt-get install gcc): {e}")))?;
    if !st.success() {
        return Err(Fatal::setup(format!("{cc} failed on {}", src.display())));
    }
    Ok(so)
}

/// One operation's counts.
#[derive(Clone, Debug)]
struct OpShare {
    op: String,
    /// Instructions between the two marks (plugin).
    total: u64,
    /// Of those, in the hash ranges.
    hashed: u64,
    /// The firmware's SysTick count of the same operation.
    meter: u64,
}

impl OpShare {
    fn percent(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            100.0 * self.hashed as f64 / self.total as f64
        }
    }
}

/// Result of one algorithm.
#[derive(Clone, Debug)]
struct AlgShare {
    alg: fw::Alg,
    ops: Vec<OpShare>,
    errors: Vec<String>,
}

/// Plugin and SysTick counts may differ by the marker calls and the
/// SysTick resolution (0.625 instructions): a few instructions.
const METER_SLACK: u64 = 16;

/// Pairs the plugin's marks with the firmware's lines.
fn parse(alg: &fw::Alg, run: &fw::Run, marks_text: &str, timeout: Duration) -> AlgShare {
    let mut res = AlgShare {
        alg: alg.clone(),
        ops: Vec::new(),
        errors: Vec::new(),
    };
    let mut meter: Vec<(String, u64)> = Vec::new();
    for l in &run.lines {
        let w: Vec<&str> = l.split(' ').collect();
        match w.first().copied() {
            Some("hashshare") if w.len() == 4 => {
                meter.push((w[2].to_string(), w[3].parse().unwrap_or(0)));
            }
            Some("error" | "panic") => res.errors.push(l.clone()),
            _ => {}
        }
    }
    let marks: Vec<(u64, u64)> = marks_text
        .lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            (w.len() == 3 && w[0] == "mark").then(|| {
                (
                    w[1].parse::<u64>().unwrap_or(0),
                    w[2].parse::<u64>().unwrap_or(0),
                )
            })
        })
        .collect();
    if run.timed_out {
        res.errors
            .push(format!("QEMU timed out after {} s", timeout.as_secs()));
    } else if !run.exit_ok && res.errors.is_empty() {
        res.errors.push(if run.lines.is_empty() {
            // QEMU refuses to start when the plugin's install fails.
            "QEMU did not boot the firmware (plugin load failed? see stderr)".into()
        } else {
            "firmware failed or faulted (exit status 1)".into()
        });
    }
    if !res.errors.is_empty() {
        return res;
    }
    if marks.len() != 2 * meter.len() || meter.len() != 3 {
        res.errors.push(format!(
            "expected 6 marks and 3 operations, got {} marks and {} operations",
            marks.len(),
            meter.len()
        ));
        return res;
    }
    for (i, (op, m)) in meter.into_iter().enumerate() {
        let (t0, h0) = marks[2 * i];
        let (t1, h1) = marks[2 * i + 1];
        let s = OpShare {
            op,
            total: t1 - t0,
            hashed: h1 - h0,
            meter: m,
        };
        if s.total.abs_diff(s.meter) > METER_SLACK + s.total / 10_000 {
            res.errors.push(format!(
                "{}: plugin counted {} instructions, SysTick {}",
                s.op, s.total, s.meter
            ));
        }
        res.ops.push(s);
    }
    res
}

/// Everything a plugin run needs: the plugin, the ranges file, the marker.
pub(crate) struct Setup {
    plugin: PathBuf,
    dir: PathBuf,
    ranges_path: PathBuf,
    mark: u64,
    prefixes: Vec<String>,
    n_syms: usize,
    hash_bytes: u64,
}

/// Builds the plugin and writes the hash ranges of `elf` (and the list of
/// symbols) to `OUT/hashshare/`.
pub(crate) fn setup(o: &Opts, elf: &Path) -> Result<Setup, Fatal> {
    let prefixes: Vec<String> = o
        .hash_prefixes
        .clone()
        .unwrap_or_else(|| DEFAULT_PREFIXES.iter().map(|s| (*s).to_string()).collect());
    let plugin = build_plugin(o)?;
    let syms = text_symbols(elf)?;
    let mark = syms
        .iter()
        .find(|s| s.name == MARK_SYMBOL)
        .ok_or_else(|| Fatal::setup(format!("{MARK_SYMBOL} not in {}", elf.display())))?
        .addr;
    let (ranges, hit) = hash_ranges(&syms, &prefixes);
    if ranges.is_empty() {
        return Err(Fatal::setup(format!(
            "no function symbol of the firmware matches the hash prefixes {}",
            prefixes.join(", ")
        )));
    }
    let dir = o.out.join("hashshare");
    fs::create_dir_all(&dir)
        .map_err(|e| Fatal::setup(format!("cannot create {}: {e}", dir.display())))?;
    let ranges_path = dir.join("ranges.txt");
    let mut rtext = String::new();
    for (a, b) in &ranges {
        let _ = writeln!(rtext, "{a:x} {b:x}");
    }
    let mut stext = String::new();
    for s in &hit {
        let _ = writeln!(stext, "{:08x} {:6} {}", s.addr, s.size, s.name);
    }
    fs::write(&ranges_path, rtext)
        .and_then(|()| fs::write(dir.join("symbols.txt"), stext))
        .map_err(|e| Fatal::setup(format!("cannot write {}: {e}", dir.display())))?;
    let hash_bytes: u64 = ranges.iter().map(|(a, b)| b - a).sum();
    eprintln!(
        "m4: hashshare: {} hash symbols, {} ranges, {} bytes of code (list: {}); marker at {mark:#x}",
        hit.len(),
        ranges.len(),
        hash_bytes,
        dir.join("symbols.txt").display()
    );
    Ok(Setup {
        plugin,
        dir,
        ranges_path,
        mark,
        prefixes,
        n_syms: hit.len(),
        hash_bytes,
    })
}

/// One `mode=hashshare` run of `a` under the plugin.
fn measure(o: &Opts, st: &Setup, elf: &Path, a: &fw::Alg) -> Result<AlgShare, Fatal> {
    let marks_path = st.dir.join(format!("{}.marks", a.name));
    let _ = fs::remove_file(&marks_path);
    let extra = vec![
        "-plugin".to_string(),
        format!(
            "{},ranges={},mark={:x},out={}",
            st.plugin.display(),
            st.ranges_path.display(),
            st.mark,
            marks_path.display()
        ),
    ];
    let args = vec!["mode=hashshare".to_string(), format!("alg={}", a.name)];
    let log = fw::logs_dir(o)?.join(format!("{}-hashshare.txt", a.name));
    let timeout = Duration::from_secs(o.timeout_s);
    let r = fw::qemu_with(o.machine, elf, &args, &extra, timeout, &log)?;
    let marks = fs::read_to_string(&marks_path).unwrap_or_default();
    let res = parse(a, &r, &marks, timeout);
    let verdict = match res.errors.first() {
        Some(e) => format!("ERROR {e}"),
        None => res
            .ops
            .iter()
            .map(|s| format!("{} {:.1}%", s.op, s.percent()))
            .collect::<Vec<_>>()
            .join(", "),
    };
    eprintln!("m4: {:<22} hashshare: {verdict} ({:.1} s)", a.name, r.secs);
    Ok(res)
}

/// `all --hash`: the hashing share of every result's operations
/// (errors join the result's errors).
pub(crate) fn add_to(o: &Opts, elf: &Path, results: &mut [fw::AlgResult]) -> Result<(), Fatal> {
    let st = setup(o, elf)?;
    for r in results.iter_mut() {
        let s = measure(o, &st, elf, &r.alg)?;
        r.errors
            .extend(s.errors.iter().map(|e| format!("hashshare: {e}")));
        r.hash_pct = s.ops.iter().map(|x| (x.op.clone(), x.percent())).collect();
    }
    Ok(())
}

/// The `hashshare` command.
pub(crate) fn run(o: &Opts) -> Result<bool, Fatal> {
    fw::check_tools(true)?;
    let t_build = Instant::now();
    let elf = fw::build(o, fw::Profile::O3)?;
    let build_secs = t_build.elapsed().as_secs_f64();
    let st = setup(o, &elf)?;
    let mut algs = fw::list(o, &elf)?;
    algs.retain(|a| {
        let n = a.name.to_ascii_lowercase();
        !o.skip.iter().any(|s| n.contains(s.as_str()))
    });
    if algs.is_empty() {
        return Err(Fatal::setup("no algorithm matches the filter"));
    }
    let t_run = Instant::now();
    let mut results = Vec::new();
    for a in &algs {
        results.push(measure(o, &st, &elf, a)?);
    }
    let run_secs = t_run.elapsed().as_secs_f64();
    let md = markdown(
        &results,
        &st.prefixes,
        st.n_syms,
        st.hash_bytes,
        build_secs,
        run_secs,
    );
    let (mdp, jsp) = (st.dir.join("hashshare.md"), st.dir.join("hashshare.json"));
    fs::write(&mdp, &md)
        .and_then(|()| fs::write(&jsp, json(&results, &st.prefixes)))
        .map_err(|e| Fatal::setup(format!("cannot write {}: {e}", mdp.display())))?;
    print!("{md}");
    eprintln!("m4: wrote {} and {}", mdp.display(), jsp.display());
    Ok(results.iter().all(|r| r.errors.is_empty()))
}

fn markdown(
    results: &[AlgShare],
    prefixes: &[String],
    n_syms: usize,
    hash_bytes: u64,
    build_secs: f64,
    run_secs: f64,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Hashing share on Cortex-M4 (QEMU mps2-an386, opt-level 3)\n"
    );
    let _ = writeln!(
        s,
        "Instructions of one run per operation (QEMU TCG plugin, exact) and those \
         executed inside the hash functions: {n_syms} symbols, {hash_bytes} bytes \
         of code, whose path starts with {}. Hash code inlined into scheme \
         functions counts as scheme code, so the share is a lower bound.\n",
        prefixes
            .iter()
            .map(|p| format!("`{}`", p.trim_end_matches("::")))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(s, "| algorithm | op | instructions | hashing | hashing % |");
    let _ = writeln!(s, "|---|---|---:|---:|---:|");
    for r in results {
        if let Some(e) = r.errors.first() {
            let _ = writeln!(s, "| {} | — | ERROR: {} | | |", r.alg.name, e);
        }
        for op in &r.ops {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {:.1} |",
                r.alg.name,
                op.op,
                thousands(op.total),
                thousands(op.hashed),
                op.percent()
            );
        }
    }
    let _ = writeln!(
        s,
        "\nBuild {build_secs:.0} s, QEMU {run_secs:.0} s; {} algorithms.",
        results.len()
    );
    s
}

fn json(results: &[AlgShare], prefixes: &[String]) -> String {
    let mut rows = Vec::new();
    for r in results {
        for op in &r.ops {
            rows.push(format!(
                "{{\"alg\":{},\"op\":{},\"insns\":{},\"hash_insns\":{},\"systick_insns\":{},\"hash_percent\":{:.3}}}",
                json_str(&r.alg.name),
                json_str(&op.op),
                op.total,
                op.hashed,
                op.meter,
                op.percent()
            ));
        }
        for e in &r.errors {
            rows.push(format!(
                "{{\"alg\":{},\"error\":{}}}",
                json_str(&r.alg.name),
                json_str(e)
            ));
        }
    }
    format!(
        "{{\"hash_prefixes\":[{}],\"results\":[\n{}\n]}}\n",
        prefixes
            .iter()
            .map(|p| json_str(p))
            .collect::<Vec<_>>()
            .join(","),
        rows.join(",\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(addr: u64, size: u64, name: &str) -> Sym {
        Sym {
            addr,
            size,
            name: name.into(),
        }
    }

    #[test]
    fn ranges_pick_owner_paths_and_merge() {
        let syms = [
            sym(0x100, 0x20, "pqforge_core::keccak::f1600"),
            sym(0x120, 0x10, "<pqforge_core::sponge::Sponge<8>>::absorb"),
            sym(0x200, 0x10, "pqforge_core::keccak_x4::x4"),
            sym(
                0x300,
                0x10,
                "pqforge_mlkem::sample::<pqforge_core::keccak::Shake128>",
            ),
            sym(
                0x400,
                0x10,
                "<pqforge_slhdsa::hash::H as pqforge_core::sponge::Xof>::f",
            ),
            sym(
                0x500,
                0x8,
                "core::ptr::drop_in_place::<pqforge_core::sha2::Sha512>",
            ),
        ];
        let prefixes: Vec<String> = DEFAULT_PREFIXES.iter().map(|s| (*s).into()).collect();
        let (r, hit) = hash_ranges(&syms, &prefixes);
        assert_eq!(r, vec![(0x100, 0x130), (0x200, 0x210), (0x500, 0x508)]);
        assert_eq!(hit.len(), 4);
        let (r, _) = hash_ranges(&syms, &["nothing::".into()]);
        assert!(r.is_empty());
    }

    #[test]
    fn parse_pairs_marks() {
        let alg = fw::Alg {
            name: "x".into(),
            kind: "kem".into(),
            family: "f".into(),
        };
        let run = fw::Run {
            lines: vec![
                "hashshare x keygen 100".into(),
                "hashshare x encaps 50".into(),
                "hashshare x decaps 10".into(),
                "done ok".into(),
            ],
            exit_ok: true,
            timed_out: false,
            secs: 0.0,
        };
        let marks = "mark 5 0\nmark 107 40\nmark 200 40\nmark 250 90\nmark 300 90\nmark 311 90\nend 400 90\n";
        let r = parse(&alg, &run, marks, Duration::from_secs(1));
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert_eq!(r.ops[0].total, 102);
        assert_eq!(r.ops[0].hashed, 40);
        assert_eq!(r.ops[1].hashed, 50);
        assert!((r.ops[1].percent() - 100.0).abs() < 1e-9);
        assert_eq!(r.ops[2].hashed, 0);
        // A missing mark is an error, not a wrong number.
        let r = parse(&alg, &run, "mark 5 0\n", Duration::from_secs(1));
        assert!(!r.errors.is_empty());
    }
}
