//! Toolchain checks, firmware builds and QEMU runs.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{Fatal, Opts};

/// Debian's toolchain (M4.md §1): rustup's shadows it in PATH and has no
/// thumbv7em target here. Override with `M4_CARGO` / `M4_RUSTC`.
fn cargo_bin() -> String {
    std::env::var("M4_CARGO").unwrap_or_else(|_| "/usr/bin/cargo".into())
}

fn rustc_bin() -> String {
    std::env::var("M4_RUSTC").unwrap_or_else(|_| "/usr/bin/rustc".into())
}

fn in_path(tool: &str) -> bool {
    if tool.contains('/') {
        return Path::new(tool).is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
}

/// Checks every tool the task needs; on a miss, one line naming the
/// packages to install (exit code 2).
pub(crate) fn check_tools(need_qemu: bool) -> Result<(), Fatal> {
    let mut missing: Vec<&str> = Vec::new();
    let mut pkgs: Vec<&str> = Vec::new();
    let (cargo, rustc) = (cargo_bin(), rustc_bin());
    if !in_path(&cargo) || !in_path(&rustc) {
        missing.push("Debian rustc/cargo (/usr/bin)");
        pkgs.extend(["rustc-web", "cargo-web", "rust-web-src"]);
    } else {
        let sysroot = Command::new(&rustc)
            .args(["--print", "sysroot"])
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
        let src = Path::new(&sysroot).join("lib/rustlib/src/rust/library/core/Cargo.toml");
        if !src.is_file() {
            missing.push("Rust library source for -Z build-std");
            pkgs.push("rust-web-src");
        }
    }
    for t in [
        "arm-none-eabi-ld",
        "arm-none-eabi-nm",
        "arm-none-eabi-objdump",
        "arm-none-eabi-size",
    ] {
        if !in_path(t) {
            missing.push("arm-none-eabi binutils");
            pkgs.push("binutils-arm-none-eabi");
            break;
        }
    }
    if need_qemu && !in_path("qemu-system-arm") {
        missing.push("qemu-system-arm");
        pkgs.push("qemu-system-arm");
    }
    if missing.is_empty() {
        return Ok(());
    }
    Err(Fatal::setup(format!(
        "{} not found: apt-get install {}",
        missing.join(", "),
        pkgs.join(" ")
    )))
}

/// The QEMU machine the firmware is built for and runs on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Machine {
    /// `mps2-an386`: an idealised board (4 MB code, 4 MB statics, 16 MB stack).
    Mps2An386,
    /// `netduinoplus2`: an STM32F405 (1 MB flash, 128 KB SRAM + 64 KB CCM).
    Netduinoplus2,
}

impl Machine {
    pub(crate) fn parse(s: &str) -> Option<Self> {
        match s {
            "mps2-an386" => Some(Self::Mps2An386),
            "netduinoplus2" => Some(Self::Netduinoplus2),
            _ => None,
        }
    }

    /// QEMU's `-M` name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Mps2An386 => "mps2-an386",
            Self::Netduinoplus2 => "netduinoplus2",
        }
    }
}

/// The netduinoplus2 firmware's arena: the statics live in the 64 KB the
/// CCM would hold (memory-netduinoplus2.x), less 1 KB for the other statics.
pub(crate) const NETDUINO_ARENA: usize = 63 << 10;
/// Its stack: the 128 KB SRAM.
pub(crate) const NETDUINO_STACK: usize = 128 << 10;
/// Its flash.
pub(crate) const NETDUINO_FLASH: usize = 1 << 20;

/// Firmware build profiles.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Profile {
    /// opt-level 3 (`release`): the speed numbers.
    O3,
    /// opt-level "s" (`release-s`).
    Os,
    /// opt-level "z" (`release-z`).
    Oz,
}

impl Profile {
    pub(crate) fn cargo_name(self) -> &'static str {
        match self {
            Profile::O3 => "release",
            Profile::Os => "release-s",
            Profile::Oz => "release-z",
        }
    }

    pub(crate) fn opt_level(self) -> &'static str {
        match self {
            Profile::O3 => "3",
            Profile::Os => "s",
            Profile::Oz => "z",
        }
    }
}

pub(crate) fn board_dir(o: &Opts) -> PathBuf {
    o.root.join("boards/cortex-m4")
}

/// The small firmware arena (every family but Classic McEliece fits).
const SMALL_ARENA: usize = 256 << 10;
/// The large one (Classic McEliece; the emulated board has 4 MB of RAM).
const LARGE_ARENA: usize = 3 << 20;

/// Arena bytes the firmware needs for `alg`: keys, ciphertext and
/// signature side by side, and the scratch of the functional test and of
/// the transcript.
pub(crate) fn arena_need(alg: pqforge::Algorithm, records: usize) -> usize {
    let i = alg.info();
    pqforge::transcript::test_scratch_bytes(i)
        .max(pqforge::transcript::scratch_bytes(alg.scheme(), records))
        .max(i.pk_bytes + i.sk_bytes + i.ct_bytes + i.sig_bytes)
}

/// The firmware's scheme families (cargo features of `pqforge`, from its
/// registry): `--features`, else every family whose sets fit the small
/// arena (all but Classic McEliece).
pub(crate) fn families(o: &Opts) -> Vec<String> {
    if let Some(f) = &o.features {
        return f
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
    }
    pqforge::FAMILIES
        .iter()
        .filter(|f| {
            f.schemes.iter().all(|&s| {
                pqforge::Algorithm::find(s.info().name)
                    .is_some_and(|a| arena_need(a, o.records) <= SMALL_ARENA)
            })
        })
        .map(|f| f.feature.to_string())
        .collect()
}

/// `--features` of the firmware build: `pqforge/<family>` for each family.
pub(crate) fn features(o: &Opts) -> String {
    families(o)
        .iter()
        .map(|f| format!("pqforge/{f}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Arena of the firmware: the small one if every selected algorithm fits.
fn arena_bytes(o: &Opts) -> Result<usize, Fatal> {
    let fams = families(o);
    if o.machine == Machine::Netduinoplus2 {
        return Ok(NETDUINO_ARENA);
    }
    for f in &fams {
        if !pqforge::ALL_FAMILY_FEATURES.contains(&f.as_str()) {
            return Err(Fatal::setup(format!(
                "unknown family `{f}` (known: {})",
                pqforge::ALL_FAMILY_FEATURES.join(", ")
            )));
        }
    }
    let need = pqforge::FAMILIES
        .iter()
        .filter(|f| fams.iter().any(|g| g == f.feature))
        .flat_map(|f| f.schemes.iter())
        .filter_map(|s| pqforge::Algorithm::find(s.info().name))
        .map(|a| arena_need(a, o.records))
        .max()
        .unwrap_or(0);
    Ok(if need <= SMALL_ARENA {
        SMALL_ARENA
    } else {
        LARGE_ARENA
    })
}

/// Builds the firmware; returns the ELF path.
pub(crate) fn build(o: &Opts, p: Profile) -> Result<PathBuf, Fatal> {
    build_fitting(o, p)?.map_err(|m| Fatal::setup(format!("firmware build failed: {m}")))
}

/// Builds the firmware; returns the ELF path, or `Err(message)` when the
/// code and read-only data do not fit the board's flash.
pub(crate) fn build_fitting(o: &Opts, p: Profile) -> Result<Result<PathBuf, String>, Fatal> {
    let dir = board_dir(o);
    // `PQFORGE_M4_TARGET` overrides the firmware target dir (concurrent builds).
    let target_dir =
        std::env::var_os("PQFORGE_M4_TARGET").map_or_else(|| dir.join("target"), PathBuf::from);
    eprintln!(
        "m4: building firmware for {} (opt-level {}, features {}{})",
        o.machine.name(),
        p.opt_level(),
        features(o),
        o.pqforge_features
            .iter()
            .fold(String::new(), |acc, f| acc + ",pqforge/" + f)
    );
    let arena = arena_bytes(o)?;
    let mut c = Command::new(cargo_bin());
    c.current_dir(&dir)
        .env("PQFORGE_M4_ARENA", arena.to_string())
        .args(["build", "--quiet", "--profile", p.cargo_name()])
        .arg("--target-dir")
        .arg(&target_dir)
        .env("RUSTC", rustc_bin())
        .env("RUSTC_BOOTSTRAP", "1");
    // The host's build settings must not leak into the firmware build.
    for v in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "RUSTUP_TOOLCHAIN",
        "CARGO",
    ] {
        c.env_remove(v);
    }
    let mut feats = features(o);
    for f in &o.pqforge_features {
        feats.push_str(",pqforge/");
        feats.push_str(f);
    }
    if o.machine == Machine::Netduinoplus2 {
        feats.push_str(",netduinoplus2");
    }
    c.args(["--no-default-features", "--features", &feats]);
    let out = c
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| Fatal::setup(format!("cannot run {}: {e}", cargo_bin())))?;
    let err = String::from_utf8_lossy(&out.stderr);
    // GNU ld: "region `FLASH' overflowed by N bytes" (the build's output is
    // then the linker's complaint only: not repeated).
    if let Some(l) = err
        .lines()
        .find(|l| l.contains("region `FLASH' overflowed"))
    {
        let by = l.rsplit("overflowed by ").next().unwrap_or("?").trim();
        return Ok(Err(format!(
            "code + read-only data exceed the flash by {by}"
        )));
    }
    eprint!("{err}");
    if !out.status.success() {
        return Err(Fatal::setup(format!(
            "firmware build failed (opt-level {})",
            p.opt_level()
        )));
    }
    Ok(Ok(target_dir
        .join("thumbv7em-none-eabihf")
        .join(p.cargo_name())
        .join("pqforge-m4")))
}

/// Output of one QEMU run.
pub(crate) struct Run {
    pub(crate) lines: Vec<String>,
    pub(crate) exit_ok: bool,
    pub(crate) timed_out: bool,
    pub(crate) secs: f64,
}

/// Boots `elf` with the semihosting arguments `args` under `-icount`,
/// killing QEMU after `timeout`. Output goes to `log`.
pub(crate) fn qemu(
    m: Machine,
    elf: &Path,
    args: &[String],
    timeout: Duration,
    log: &Path,
) -> Result<Run, Fatal> {
    qemu_with(m, elf, args, &[], timeout, log)
}

/// [`qemu`] with extra QEMU options (`-plugin ...`).
pub(crate) fn qemu_with(
    m: Machine,
    elf: &Path,
    args: &[String],
    extra: &[String],
    timeout: Duration,
    log: &Path,
) -> Result<Run, Fatal> {
    let mut sh = String::from("enable=on,target=native");
    for a in args {
        sh.push_str(",arg=");
        // QEMU's option syntax escapes a comma by doubling it.
        sh.push_str(&a.replace(',', ",,"));
    }
    let out = File::create(log)
        .map_err(|e| Fatal::setup(format!("cannot write {}: {e}", log.display())))?;
    let t0 = Instant::now();
    let mut child = Command::new("qemu-system-arm")
        .args(["-M", m.name(), "-cpu", "cortex-m4", "-nographic"])
        .args(["-monitor", "none", "-serial", "none"])
        .args(["-icount", "shift=6,align=off,sleep=off"])
        .arg("-semihosting-config")
        .arg(sh)
        .args(extra)
        .arg("-kernel")
        .arg(elf)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| Fatal::setup(format!("cannot start qemu-system-arm: {e}")))?;
    let mut timed_out = false;
    let status = loop {
        if let Some(st) = child
            .try_wait()
            .map_err(|e| Fatal::setup(format!("qemu: {e}")))?
        {
            break Some(st);
        }
        if t0.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            timed_out = true;
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = fs::read_to_string(log).unwrap_or_default();
    Ok(Run {
        lines: text.lines().map(str::to_string).collect(),
        exit_ok: status.is_some_and(|s| s.success()),
        timed_out,
        secs: t0.elapsed().as_secs_f64(),
    })
}

/// An algorithm of the firmware.
#[derive(Clone, Debug)]
pub(crate) struct Alg {
    pub(crate) name: String,
    pub(crate) kind: String,
    pub(crate) family: String,
}

pub(crate) fn logs_dir(o: &Opts) -> Result<PathBuf, Fatal> {
    let d = o.out.join("logs");
    fs::create_dir_all(&d)
        .map_err(|e| Fatal::setup(format!("cannot create {}: {e}", d.display())))?;
    Ok(d)
}

/// The algorithms of the firmware matching `--filter`.
pub(crate) fn list(o: &Opts, elf: &Path) -> Result<Vec<Alg>, Fatal> {
    let mut args = vec!["mode=list".to_string()];
    if let Some(f) = &o.filter {
        args.push(format!("filter={f}"));
    }
    let log = logs_dir(o)?.join("list.txt");
    let r = qemu(o.machine, elf, &args, Duration::from_secs(60), &log)?;
    if !r.exit_ok {
        return Err(Fatal::setup(format!(
            "firmware did not start under QEMU (see {})",
            log.display()
        )));
    }
    Ok(r.lines
        .iter()
        .filter_map(|l| {
            let w: Vec<&str> = l.splitn(4, ' ').collect();
            (w.len() == 4 && w[0] == "alg").then(|| Alg {
                name: w[1].into(),
                kind: w[2].into(),
                family: w[3].into(),
            })
        })
        .collect())
}

/// Speed of one operation.
#[derive(Clone, Debug)]
pub(crate) struct OpSpeed {
    pub(crate) op: String,
    pub(crate) min: u64,
    pub(crate) median: u64,
    pub(crate) max: u64,
    pub(crate) runs: u64,
}

/// Everything measured for one algorithm.
#[derive(Clone, Debug)]
pub(crate) struct AlgResult {
    pub(crate) alg: Alg,
    /// None: not run; Some(Err): failure message.
    pub(crate) test: Option<Result<(), String>>,
    pub(crate) speed: Vec<OpSpeed>,
    pub(crate) speed_s: Vec<OpSpeed>,
    pub(crate) stack: Vec<(String, u64)>,
    pub(crate) fw_digest: Option<String>,
    pub(crate) host_digest: Option<Result<String, String>>,
    pub(crate) errors: Vec<String>,
    /// `all --hash`: hashing share [%] per operation.
    pub(crate) hash_pct: Vec<(String, f64)>,
    pub(crate) secs: f64,
}

impl AlgResult {
    pub(crate) fn ops(&self) -> [&'static str; 3] {
        if self.alg.kind == "sig" {
            ["keygen", "sign", "verify"]
        } else {
            ["keygen", "encaps", "decaps"]
        }
    }

    /// [`AlgResult::ops`], then `dk-check` when the firmware measured it (a
    /// KEM's `check_dk`: the key checks the one-shot `decaps` includes):
    /// the rows of `report.md` and `report.json`.
    pub(crate) fn table_ops(&self) -> Vec<&'static str> {
        let mut v = self.ops().to_vec();
        if self
            .speed
            .iter()
            .chain(&self.speed_s)
            .any(|s| s.op == "dk-check")
            || self.stack.iter().any(|(op, _)| op == "dk-check")
        {
            v.push("dk-check");
        }
        v
    }

    /// Firmware and host digests agree.
    pub(crate) fn transcript_ok(&self) -> Option<bool> {
        let fw = self.fw_digest.as_ref()?;
        Some(matches!(&self.host_digest, Some(Ok(h)) if h == fw))
    }
}

fn parse_run(alg: &Alg, r: &Run, timeout: Duration) -> AlgResult {
    let mut res = AlgResult {
        alg: alg.clone(),
        test: None,
        speed: Vec::new(),
        speed_s: Vec::new(),
        stack: Vec::new(),
        fw_digest: None,
        host_digest: None,
        errors: Vec::new(),
        hash_pct: Vec::new(),
        secs: r.secs,
    };
    let mut done = false;
    for l in &r.lines {
        let w: Vec<&str> = l.split(' ').collect();
        let num = |i: usize| w.get(i).and_then(|s| s.parse::<u64>().ok()).unwrap_or(0);
        match w.first().copied() {
            Some("test") if w.get(2) == Some(&"ok") => res.test = Some(Ok(())),
            Some("test") => res.test = Some(Err(w.get(3..).unwrap_or(&[]).join(" "))),
            Some("speed") if w.len() >= 7 => res.speed.push(OpSpeed {
                op: w[2].into(),
                min: num(3),
                median: num(4),
                max: num(5),
                runs: num(6),
            }),
            Some("stack") if w.len() >= 4 => res.stack.push((w[2].into(), num(3))),
            Some("transcript") if w.len() >= 4 => res.fw_digest = Some(w[3].into()),
            Some("error" | "panic" | "fault") => res.errors.push(l.clone()),
            Some("done") => done = true,
            _ => {}
        }
    }
    if r.timed_out {
        res.errors
            .push(format!("QEMU timed out after {} s", timeout.as_secs()));
    } else if !r.exit_ok && res.errors.is_empty() && res.test.as_ref().is_none_or(Result::is_ok) {
        res.errors.push(if done {
            "firmware reported a failure".into()
        } else {
            "firmware faulted or aborted (exit status 1)".into()
        });
    }
    res
}

/// Runs `mode` for each algorithm, one QEMU process per algorithm.
pub(crate) fn run_all(
    o: &Opts,
    elf: &Path,
    algs: &[Alg],
    mode: &str,
    tag: &str,
) -> Result<Vec<AlgResult>, Fatal> {
    let logs = logs_dir(o)?;
    let timeout = Duration::from_secs(o.timeout_s);
    let mut out = Vec::new();
    for a in algs {
        let args = vec![
            format!("mode={mode}"),
            format!("alg={}", a.name),
            format!("n={}", o.runs),
            format!("rounds={}", o.rounds),
            format!("records={}", o.records),
        ];
        let log = logs.join(format!("{}{tag}.txt", a.name));
        let r = qemu(o.machine, elf, &args, timeout, &log)?;
        let res = parse_run(a, &r, timeout);
        let verdict = match (&res.test, res.errors.first()) {
            (_, Some(e)) => format!("ERROR {e}"),
            (Some(Err(e)), None) => format!("test FAIL {e}"),
            _ => "ok".into(),
        };
        eprintln!(
            "m4: {:<22} {mode}{tag}: {verdict} ({:.1} s)",
            a.name, r.secs
        );
        out.push(res);
    }
    Ok(out)
}
