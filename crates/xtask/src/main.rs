//! `cargo xtask m4 ...`: build the Cortex-M4 firmware (boards/cortex-m4),
//! run it under QEMU `mps2-an386` with `-icount`, check its transcripts
//! against the host, attribute code size and scan for division instructions.
//! See boards/cortex-m4/README.md.
//!
//! `cargo xtask dudect`: the statistical timing test of the code valgrind
//! cannot run (HQC's AVX-512 backend), with a negative control.

mod divscan;
mod dudect;
mod fw;
mod hashshare;
mod netduino;
mod report;
mod size;
mod softfloat;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "\
usage: cargo xtask dudect [--help]   (timing test of HQC's AVX-512 backend)
       cargo xtask m4 <all|test|speed|stack|transcript|size|divscan|softfloat|hashshare|list> [options]

  all          build, then test + speed + stack + transcript + size (opt-level 3),
               plus speed + size of the opt-level \"s\" build; writes the report
  test         functional test only            speed       instruction counts only
  stack        stack high-water marks only     transcript  transcripts vs host only
  size         code size per scheme (no QEMU)  divscan     division scan (opt-level 3, s)
  softfloat    Falcon keygen/sign reach no soft binary64 routine (opt-level 3, s)
  hashshare    share of each operation's instructions spent in Keccak/SHA-2
               (QEMU plugin built with cc; writes OUT/hashshare/hashshare.md)
  list         algorithms in the firmware

options:
  --filter S       algorithms whose name contains S (case-insensitive)
  --skip S,T       leave out algorithms whose name contains S or T
  --runs N         speed runs per operation (default 5, max 64)
  --rounds N       functional-test rounds (default 3)
  --records N      transcript records (default 3)
  --timeout SECS   limit per QEMU run (default 900)
  --features LIST  firmware scheme families (cargo features of `pqforge`,
                   from its registry), e.g. hqc,mlkem (default: every family
                   that fits the 256 KB arena: all but mceliece)
  --pqforge-features LIST
                   extra cargo features of `pqforge` for the firmware, e.g.
                   hqc-small-ram (HQC's small-RAM profile)
  --no-s           `all`: skip the opt-level \"s\" build
  --hash           `all`: add the hashing-share column (one more QEMU run per
                   algorithm under the hashshare plugin; needs cc)
  --opt LIST       divscan, softfloat: opt-levels to scan (default 3,s; z also works)
  --hash-prefix L  hashshare: demangled path prefixes of the hash code (default
                   pqforge_core::{keccak,keccak_x4,sponge,sha2,sha2_multi,hmac}::)
  --machine M      QEMU machine: mps2-an386 (default; idealised 4+4+16 MB) or
                   netduinoplus2 (STM32F405: 1 MB flash, 128 KB SRAM + 64 KB CCM;
                   `all`/`test`/... build one firmware per group of families that
                   fits the flash and report what does not fit and why)
  --out DIR        report directory (default target/m4, target/m4-netduinoplus2)

exit status: 0 all passed, 1 a test/transcript/scan failed or QEMU timed out,
2 bad usage or missing tool";

/// Command-line options.
#[derive(Clone, Debug)]
pub(crate) struct Opts {
    pub(crate) cmd: String,
    pub(crate) filter: Option<String>,
    pub(crate) skip: Vec<String>,
    pub(crate) runs: usize,
    pub(crate) rounds: usize,
    pub(crate) records: usize,
    pub(crate) timeout_s: u64,
    pub(crate) features: Option<String>,
    pub(crate) pqforge_features: Vec<String>,
    pub(crate) with_s: bool,
    pub(crate) with_hash: bool,
    pub(crate) profiles: Vec<fw::Profile>,
    pub(crate) hash_prefixes: Option<Vec<String>>,
    pub(crate) out: PathBuf,
    pub(crate) machine: fw::Machine,
    pub(crate) root: PathBuf,
}

fn parse_args() -> Result<Opts, String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .map_err(|e| format!("repository root: {e}"))?;
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        Some("m4") => {}
        Some("-h" | "--help") | None => return Err(USAGE.into()),
        Some(other) => {
            return Err(format!(
                "unknown task {other:?} (`m4` or `dudect`)\n{USAGE}"
            ));
        }
    }
    let cmd = args.next().ok_or_else(|| USAGE.to_string())?;
    if cmd == "-h" || cmd == "--help" {
        return Err(USAGE.into());
    }
    let known = [
        "all",
        "test",
        "speed",
        "stack",
        "transcript",
        "size",
        "divscan",
        "softfloat",
        "hashshare",
        "list",
    ];
    if !known.contains(&cmd.as_str()) {
        return Err(format!("unknown m4 command {cmd:?}\n{USAGE}"));
    }
    let mut o = Opts {
        cmd,
        filter: None,
        skip: Vec::new(),
        runs: 5,
        rounds: 3,
        records: 3,
        timeout_s: 900,
        features: None,
        pqforge_features: Vec::new(),
        with_s: true,
        with_hash: false,
        profiles: vec![fw::Profile::O3, fw::Profile::Os],
        hash_prefixes: None,
        out: root.join("target/m4"),
        machine: fw::Machine::Mps2An386,
        root,
    };
    let mut out_given = false;
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or_else(|| format!("{a} needs a value"));
        let num = |v: String| {
            v.parse::<usize>()
                .map_err(|_| format!("{a}: not a number: {v}"))
        };
        match a.as_str() {
            "--filter" => o.filter = Some(val()?),
            "--skip" => o.skip.extend(
                val()?
                    .split(',')
                    .filter(|x| !x.is_empty())
                    .map(str::to_ascii_lowercase),
            ),
            "--runs" => o.runs = num(val()?)?.clamp(1, 64),
            "--rounds" => o.rounds = num(val()?)?,
            "--records" => o.records = num(val()?)?,
            "--timeout" => o.timeout_s = num(val()?)? as u64,
            "--features" => o.features = Some(val()?),
            "--pqforge-features" => o.pqforge_features.extend(
                val()?
                    .split(',')
                    .map(str::trim)
                    .filter(|x| !x.is_empty())
                    .map(str::to_string),
            ),
            "--no-s" => o.with_s = false,
            "--hash" => o.with_hash = true,
            "--opt" => {
                o.profiles = val()?
                    .split(',')
                    .map(|p| match p.trim() {
                        "3" => Ok(fw::Profile::O3),
                        "s" => Ok(fw::Profile::Os),
                        "z" => Ok(fw::Profile::Oz),
                        other => Err(format!("--opt: unknown opt-level {other:?} (3, s, z)")),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--hash-prefix" => {
                o.hash_prefixes = Some(
                    val()?
                        .split(',')
                        .filter(|x| !x.is_empty())
                        .map(str::to_string)
                        .collect(),
                );
            }
            "--out" => {
                o.out = PathBuf::from(val()?);
                out_given = true;
            }
            "--machine" => {
                let v = val()?;
                o.machine = fw::Machine::parse(&v).ok_or_else(|| {
                    format!("--machine: unknown machine {v:?} (mps2-an386, netduinoplus2)")
                })?;
            }
            _ => return Err(format!("unknown option {a}\n{USAGE}")),
        }
    }
    if o.machine == fw::Machine::Netduinoplus2 {
        if !out_given {
            o.out = o.root.join("target/m4-netduinoplus2");
        }
        if !["all", "test", "speed", "stack", "transcript", "list"].contains(&o.cmd.as_str()) {
            return Err(
                "--machine netduinoplus2 runs all, test, speed, stack, transcript and list \
                 (size, divscan, softfloat and hashshare do not depend on the machine)"
                    .to_string(),
            );
        }
    }
    Ok(o)
}

/// A failure that ends the task: `code` 1 (check failed) or 2 (setup).
pub(crate) struct Fatal {
    pub(crate) code: u8,
    pub(crate) msg: String,
}

impl Fatal {
    pub(crate) fn setup(msg: impl Into<String>) -> Self {
        Self {
            code: 2,
            msg: msg.into(),
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("dudect") {
        return ExitCode::from(dudect::main(&args[1..]));
    }
    let opts = match parse_args() {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("{msg}");
            return ExitCode::from(2);
        }
    };
    let t0 = Instant::now();
    let r = match opts.cmd.as_str() {
        "divscan" => divscan::run(&opts),
        "softfloat" => softfloat::run(&opts),
        "hashshare" => hashshare::run(&opts),
        "size" => run_size(&opts),
        _ => run_firmware(&opts),
    };
    match r {
        Ok(true) => {
            eprintln!("m4: done in {:.0} s", t0.elapsed().as_secs_f64());
            ExitCode::SUCCESS
        }
        Ok(false) => {
            eprintln!(
                "m4: FAILED (see above) after {:.0} s",
                t0.elapsed().as_secs_f64()
            );
            ExitCode::from(1)
        }
        Err(f) => {
            eprintln!("m4: {}", f.msg);
            ExitCode::from(f.code)
        }
    }
}

fn run_size(o: &Opts) -> Result<bool, Fatal> {
    fw::check_tools(false)?;
    let elf = fw::build(o, fw::Profile::O3)?;
    let sizes = size::attribute(&elf)?;
    print!("{}", size::markdown(&sizes));
    Ok(true)
}

/// Everything that runs the firmware: all, test, speed, stack, transcript,
/// list.
fn run_firmware(o: &Opts) -> Result<bool, Fatal> {
    if o.machine == fw::Machine::Netduinoplus2 {
        return netduino::run(o);
    }
    fw::check_tools(true)?;
    let build_t = Instant::now();
    let elf = fw::build(o, fw::Profile::O3)?;
    let mut algs = fw::list(o, &elf)?;
    algs.retain(|a| {
        let n = a.name.to_ascii_lowercase();
        !o.skip.iter().any(|s| n.contains(s.as_str()))
    });
    if algs.is_empty() {
        return Err(Fatal::setup(format!(
            "no algorithm matches{}",
            o.filter
                .as_deref()
                .map(|f| format!(" --filter {f}"))
                .unwrap_or_default()
        )));
    }
    if o.cmd == "list" {
        for a in &algs {
            println!("{} ({}, {})", a.name, a.kind, a.family);
        }
        return Ok(true);
    }
    let mode = match o.cmd.as_str() {
        "all" => "test,speed,stack,transcript",
        m => m,
    };
    let mut build_secs = build_t.elapsed().as_secs_f64();
    let run_t = Instant::now();
    let mut results = fw::run_all(o, &elf, &algs, mode, "")?;
    let mut run_secs = run_t.elapsed().as_secs_f64();

    if mode.contains("transcript") {
        let t = Instant::now();
        report::host_transcripts(&mut results, o.records);
        eprintln!(
            "m4: host transcripts computed in {:.1} s",
            t.elapsed().as_secs_f64()
        );
    }
    if o.cmd == "all" && o.with_hash {
        let t = Instant::now();
        hashshare::add_to(o, &elf, &mut results)?;
        run_secs += t.elapsed().as_secs_f64();
    }
    let mut sizes = None;
    let mut sizes_s = None;
    if o.cmd == "all" {
        sizes = Some(size::attribute(&elf)?);
        if o.with_s {
            let t = Instant::now();
            let elf_s = fw::build(o, fw::Profile::Os)?;
            build_secs += t.elapsed().as_secs_f64();
            sizes_s = Some(size::attribute(&elf_s)?);
            let t = Instant::now();
            let res_s = fw::run_all(o, &elf_s, &algs, "speed", "-s")?;
            run_secs += t.elapsed().as_secs_f64();
            report::merge_s(&mut results, res_s);
        }
    }
    let rep = report::Report {
        opts: o.clone(),
        results,
        sizes,
        sizes_s,
        not_fit: Vec::new(),
        build_secs,
        run_secs,
    };
    rep.write()
}
