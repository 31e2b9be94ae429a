//! Host transcripts, the markdown/JSON report and the verdict.

use std::fmt::Write as _;
use std::fs;

use pqforge::Algorithm;

use crate::fw::{AlgResult, OpSpeed};
use crate::size::{AlgSize, Sizes};
use crate::{Fatal, Opts};

/// Computes the host digest of every algorithm whose firmware digest is
/// known, with the same `pqforge::transcript::digest`.
pub(crate) fn host_transcripts(results: &mut [AlgResult], records: usize) {
    for r in results.iter_mut().filter(|r| r.fw_digest.is_some()) {
        r.host_digest = Some(match r.alg.name.parse::<Algorithm>() {
            Ok(a) => {
                let s = a.scheme();
                let mut scratch = vec![0u8; pqforge::transcript::scratch_bytes(s, records)];
                pqforge::transcript::digest(s, records, &mut scratch)
                    .map(|d| {
                        d.iter().fold(String::new(), |mut h, b| {
                            let _ = write!(h, "{b:02x}");
                            h
                        })
                    })
                    .map_err(|e| format!("host: {e}"))
            }
            Err(_) => Err("not in the host build (xtask features)".into()),
        });
    }
}

/// Moves the opt-level "s" speed results into `results`.
pub(crate) fn merge_s(results: &mut [AlgResult], s: Vec<AlgResult>) {
    for rs in s {
        if let Some(r) = results.iter_mut().find(|r| r.alg.name == rs.alg.name) {
            r.speed_s = rs.speed;
            r.errors
                .extend(rs.errors.into_iter().map(|e| format!("opt-level s: {e}")));
        }
    }
}

/// Everything one `cargo xtask m4` run produced.
pub(crate) struct Report {
    pub(crate) opts: Opts,
    pub(crate) results: Vec<AlgResult>,
    pub(crate) sizes: Option<Sizes>,
    pub(crate) sizes_s: Option<Sizes>,
    /// `--machine netduinoplus2`: algorithms that do not fit, and why.
    pub(crate) not_fit: Vec<crate::netduino::NotFit>,
    pub(crate) build_secs: f64,
    pub(crate) run_secs: f64,
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "null".into(), |v| v.to_string())
}

pub(crate) fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// `12,345,678`.
pub(crate) fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut o = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            o.push(',');
        }
        o.push(c);
    }
    o
}

/// `all --hash`: the hashing share of `op`.
fn hash_pct(r: &AlgResult, op: &str) -> Option<f64> {
    r.hash_pct.iter().find(|(o, _)| o == op).map(|(_, p)| *p)
}

/// The peak stack of `op`.
fn stack_of(r: &AlgResult, op: &str) -> Option<u64> {
    r.stack.iter().find(|(o, _)| o == op).map(|(_, b)| *b)
}

/// One `benchmarks.md` row: `| label | imp | cell(op) ... |` over the
/// three operations of `r`.
fn op_row(m: &mut String, label: &str, imp: &str, r: &AlgResult, cell: impl Fn(&str) -> String) {
    let _ = write!(m, "| {label} | {imp} |");
    for op in r.ops() {
        let _ = write!(m, " {} |", cell(op));
    }
    m.push('\n');
}

fn find<'a>(v: &'a [OpSpeed], op: &str) -> Option<&'a OpSpeed> {
    v.iter().find(|s| s.op == op)
}

impl Report {
    fn alg_size(&self, r: &AlgResult) -> Option<AlgSize> {
        self.sizes.as_ref()?.alg(&r.alg.name)
    }

    fn alg_size_s(&self, r: &AlgResult) -> Option<AlgSize> {
        self.sizes_s.as_ref()?.alg(&r.alg.name)
    }

    /// A result failed.
    fn failed(r: &AlgResult) -> bool {
        !r.errors.is_empty() || matches!(r.test, Some(Err(_))) || r.transcript_ok() == Some(false)
    }

    fn json(&self) -> String {
        let mut rows = Vec::new();
        for r in &self.results {
            let size = self.alg_size(r);
            let size_s = self.alg_size_s(r);
            let host = match &r.host_digest {
                Some(Ok(h)) => json_str(h),
                _ => "null".into(),
            };
            let errors: Vec<String> = r
                .errors
                .iter()
                .map(|e| json_str(e))
                .chain(match &r.test {
                    Some(Err(e)) => Some(json_str(&format!("test: {e}"))),
                    _ => None,
                })
                .chain(match &r.host_digest {
                    Some(Err(e)) => Some(json_str(e)),
                    _ => None,
                })
                .collect();
            for op in r.table_ops() {
                let sp = find(&r.speed, op);
                let sps = find(&r.speed_s, op);
                let stack = stack_of(r, op);
                rows.push(format!(
                    concat!(
                        "{{\"alg\": {}, \"kind\": {}, \"family\": {}, \"op\": {}, ",
                        "\"instructions_median\": {}, \"instructions_min\": {}, ",
                        "\"instructions_max\": {}, \"runs\": {}, \"stack_bytes\": {}, ",
                        "\"instructions_median_os\": {}, \"instructions_min_os\": {}, ",
                        "\"instructions_max_os\": {}, ",
                        "\"text_bytes\": {}, \"rodata_bytes\": {}, \"bss_bytes\": {}, ",
                        "\"text_bytes_own\": {}, \"text_bytes_family_shared\": {}, ",
                        "\"text_bytes_os\": {}, \"hash_percent\": {}, ",
                        "\"test_ok\": {}, \"transcript_ok\": {}, \"transcript_records\": {}, ",
                        "\"transcript_digest\": {}, \"transcript_digest_host\": {}, ",
                        "\"qemu_seconds\": {:.1}, \"errors\": [{}]}}"
                    ),
                    json_str(&r.alg.name),
                    json_str(&r.alg.kind),
                    json_str(&r.alg.family),
                    json_str(op),
                    opt(sp.map(|s| s.median)),
                    opt(sp.map(|s| s.min)),
                    opt(sp.map(|s| s.max)),
                    opt(sp.map(|s| s.runs)),
                    opt(stack),
                    opt(sps.map(|s| s.median)),
                    opt(sps.map(|s| s.min)),
                    opt(sps.map(|s| s.max)),
                    opt(size.map(|s| s.total.text)),
                    opt(size.map(|s| s.total.rodata)),
                    opt(size.map(|s| s.total.bss)),
                    opt(size.map(|s| s.own.text)),
                    opt(size.map(|s| s.shared.text)),
                    opt(size_s.map(|s| s.total.text)),
                    opt(hash_pct(r, op).map(|p| format!("{p:.3}"))),
                    opt(r.test.as_ref().map(Result::is_ok)),
                    opt(r.transcript_ok()),
                    if r.fw_digest.is_some() {
                        self.opts.records.to_string()
                    } else {
                        "null".into()
                    },
                    r.fw_digest
                        .as_deref()
                        .map_or_else(|| "null".into(), json_str),
                    host,
                    r.secs,
                    errors.join(", "),
                ));
            }
        }
        for (alg, why) in &self.not_fit {
            rows.push(format!(
                "{{\"alg\": {}, \"machine\": {}, \"not_fit\": {}}}",
                json_str(alg),
                json_str(self.opts.machine.name()),
                json_str(why)
            ));
        }
        format!("[\n  {}\n]\n", rows.join(",\n  "))
    }

    fn markdown(&self) -> String {
        let o = &self.opts;
        let mut m = String::new();
        let _ = writeln!(
            m,
            "# pqforge on Cortex-M4 (QEMU {}, -icount)\n\n\
             Instructions are QEMU guest instruction counts, not cycles \
             (boards/cortex-m4/README.md). {} runs per operation; stack = peak \
             bytes below the caller; text = the set's own code + the shared \
             scheme code it calls (hashing in pqforge_core excluded); \
             transcript = SHA3-256 of the first {} KAT records, board vs host; \
             a KEM's dk-check row = `check_dk`, the key checks the one-shot \
             `decaps` runs first (a key prepared once skips them).\n",
            o.machine.name(),
            o.runs,
            o.records
        );
        if o.machine == crate::fw::Machine::Netduinoplus2 {
            m.push_str(
                "STM32F405 memory map (boards/cortex-m4/memory-netduinoplus2.x): \
                 1 MB flash for code and read-only data, the 128 KB SRAM for the \
                 stack, 64 KB (the CCM's size) for the statics: the harness's \
                 63 KB arena holds the keys, ciphertext or signature and the \
                 test scratch. One firmware per group of families that fits \
                 the flash.\n\n",
            );
        }
        let has_s = self.results.iter().any(|r| !r.speed_s.is_empty());
        let has_hash = self.results.iter().any(|r| !r.hash_pct.is_empty());
        m.push_str("| algorithm | op | insns min | insns median | insns max | stack [B] |");
        if has_s {
            m.push_str(" median (opt s) |");
        }
        if has_hash {
            m.push_str(" hashing % |");
        }
        m.push_str(" text [B] | test | transcript |\n|---|---|---:|---:|---:|---:|");
        if has_s {
            m.push_str("---:|");
        }
        if has_hash {
            m.push_str("---:|");
        }
        m.push_str("---:|---|---|\n");
        for r in &self.results {
            let size = self.alg_size(r);
            for (i, op) in r.table_ops().into_iter().enumerate() {
                let sp = find(&r.speed, op);
                let cell = |f: fn(&OpSpeed) -> u64| sp.map_or("–".into(), |s| thousands(f(s)));
                let stack = stack_of(r, op).map_or("–".into(), thousands);
                let first = i == 0;
                let _ = write!(
                    m,
                    "| {} | {op} | {} | {} | {} | {stack} |",
                    if first { r.alg.name.as_str() } else { "" },
                    cell(|s| s.min),
                    cell(|s| s.median),
                    cell(|s| s.max),
                );
                if has_s {
                    let _ = write!(
                        m,
                        " {} |",
                        find(&r.speed_s, op).map_or("–".into(), |s| thousands(s.median))
                    );
                }
                if has_hash {
                    let _ = write!(
                        m,
                        " {} |",
                        hash_pct(r, op).map_or("–".into(), |p| format!("{p:.1}"))
                    );
                }
                let text = if first {
                    size.map_or("–".into(), |s| thousands(s.total.text))
                } else {
                    String::new()
                };
                let test = match (&r.test, first) {
                    (_, false) => "",
                    (Some(Ok(())), _) => "ok",
                    (Some(Err(_)), _) => "**FAIL**",
                    (None, _) => "–",
                };
                let tr = match (r.transcript_ok(), first) {
                    (_, false) => "",
                    (Some(true), _) => "ok",
                    (Some(false), _) => "**DIFFERS**",
                    (None, _) => "–",
                };
                let _ = writeln!(m, " {text} | {test} | {tr} |");
            }
        }
        if !self.not_fit.is_empty() {
            let _ = writeln!(
                m,
                "\n**Does not fit {}** (not run; not a failure)\n",
                o.machine.name()
            );
            for (alg, why) in &self.not_fit {
                let _ = writeln!(m, "- {alg}: {why}");
            }
        }
        let problems: Vec<String> = self
            .results
            .iter()
            .flat_map(|r| {
                let mut v: Vec<String> = r
                    .errors
                    .iter()
                    .map(|e| format!("{}: {e}", r.alg.name))
                    .collect();
                if let Some(Err(e)) = &r.test {
                    v.push(format!("{}: test: {e}", r.alg.name));
                }
                if r.transcript_ok() == Some(false) {
                    v.push(format!(
                        "{}: transcript board {} host {}",
                        r.alg.name,
                        r.fw_digest.as_deref().unwrap_or("-"),
                        match &r.host_digest {
                            Some(Ok(h)) => h.clone(),
                            Some(Err(e)) => e.clone(),
                            None => "-".into(),
                        }
                    ));
                }
                v
            })
            .collect();
        if !problems.is_empty() {
            m.push_str("\n**Failures**\n\n");
            for p in &problems {
                let _ = writeln!(m, "- {p}");
            }
        }
        if let Some(s) = &self.sizes {
            m.push_str("\n## Code size (opt-level 3");
            if self.sizes_s.is_some() {
                m.push_str("; opt-level \"s\" in brackets");
            }
            m.push_str(")\n\n| algorithm | .text own | .text shared, reached | .text total | .rodata | .bss |\n|---|---:|---:|---:|---:|---:|\n");
            for r in &self.results {
                let Some(a) = s.alg(&r.alg.name) else {
                    let _ = writeln!(m, "| {} | – | – | – | – | – |", r.alg.name);
                    continue;
                };
                let b = self.alg_size_s(r);
                let br = |f: fn(&AlgSize) -> u64| {
                    b.as_ref()
                        .map(|b| format!(" ({})", thousands(f(b))))
                        .unwrap_or_default()
                };
                let _ = writeln!(
                    m,
                    "| {} | {}{} | {}{} | {}{} | {} | {} |",
                    r.alg.name,
                    thousands(a.own.text),
                    br(|x| x.own.text),
                    thousands(a.shared.text),
                    br(|x| x.shared.text),
                    thousands(a.total.text),
                    br(|x| x.total.text),
                    thousands(a.total.rodata),
                    thousands(a.total.bss),
                );
            }
            let _ = writeln!(
                m,
                "\nShared by all schemes (pqforge_core: Keccak, KAT generators; umbrella): \
                 .text {} B. Harness {} B, Rust runtime {} B. Whole firmware: .text {} B, \
                 .rodata {} B, .bss {} B (mostly the static arena).",
                thousands(s.common.text),
                thousands(s.harness.text),
                thousands(s.runtime.text),
                thousands(s.section(".text")),
                thousands(s.section(".rodata")),
                thousands(s.section(".bss")),
            );
            if let Some(ss) = &self.sizes_s {
                let _ = writeln!(
                    m,
                    "opt-level \"s\" firmware: .text {} B, .rodata {} B.",
                    thousands(ss.section(".text")),
                    thousands(ss.section(".rodata")),
                );
            }
        }
        let _ = writeln!(
            m,
            "\nBuild {:.0} s, QEMU runs {:.0} s.",
            self.build_secs, self.run_secs
        );
        m
    }

    /// The results in the layout of pqm4's `benchmarks.md`: speed, memory,
    /// hashing share and code size, each split into KEMs and signatures,
    /// one row per scheme and implementation (opt-level 3, and "s" where
    /// it ran). Instructions are given as median with min and max, where
    /// pqm4 gives the average of cycle counts.
    pub(crate) fn benchmarks_md(&self) -> String {
        let o = &self.opts;
        let mut m = String::new();
        let _ = writeln!(
            m,
            "# pqforge on Cortex-M4: benchmarks in pqm4's layout\n\n\
             Generated by `cargo xtask m4 all` (QEMU {}, `-icount`; {} runs per \
             operation). Instruction counts are QEMU guest instructions, not \
             cycles: read them as a deterministic regression metric and compare \
             with pqm4's cycle counts only as a rough guide \
             (boards/cortex-m4/README.md). Implementation: the Rust code of \
             pqforge built for thumbv7em-none-eabihf at opt-level 3 (`rust-o3`) \
             or \"s\" (`rust-os`), fat LTO.",
            o.machine.name(),
            o.runs
        );
        let kinds = [
            (
                "kem",
                "Key Encapsulation Schemes",
                ["Key Generation", "Encapsulation", "Decapsulation"],
            ),
            (
                "sig",
                "Signature Schemes",
                ["Key Generation", "Sign", "Verify"],
            ),
        ];
        let head = |m: &mut String, title: &str, unit: &str, cols: &[&str]| {
            let _ = write!(m, "\n## {title}\n\n| scheme | implementation |");
            for c in cols {
                let _ = write!(m, " {c} [{unit}] |");
            }
            m.push_str("\n| ------ | -------------- |");
            for _ in cols {
                m.push_str(" ---: |");
            }
            m.push('\n');
        };
        let speed = |v: &[OpSpeed], op: &str| {
            find(v, op).map_or("–".into(), |s| {
                format!(
                    "median: {} <br /> min: {} <br /> max: {}",
                    thousands(s.median),
                    thousands(s.min),
                    thousands(s.max)
                )
            })
        };
        m.push_str("\n# Speed Evaluation\n");
        for (kind, title, cols) in &kinds {
            head(&mut m, title, "instructions", cols);
            for r in self.results.iter().filter(|r| r.alg.kind == *kind) {
                for (imp, v) in [("rust-o3", &r.speed), ("rust-os", &r.speed_s)] {
                    let Some(first) = v.first() else { continue };
                    let label = format!("{} ({} executions)", r.alg.name, first.runs);
                    op_row(&mut m, &label, imp, r, |op| speed(v, op));
                }
            }
        }
        m.push_str("\n# Memory Evaluation\n\nPeak stack of each operation below the caller's frame; keys, ciphertexts and signatures the caller holds are not counted (as in pqm4).\n");
        for (kind, title, cols) in &kinds {
            head(&mut m, title, "bytes", cols);
            for r in self.results.iter().filter(|r| r.alg.kind == *kind) {
                op_row(&mut m, &r.alg.name, "rust-o3", r, |op| {
                    stack_of(r, op).map_or("–".into(), thousands)
                });
            }
        }
        if self.results.iter().any(|r| !r.hash_pct.is_empty()) {
            m.push_str(
                "\n# Hashing Evaluation\n\nShare of each operation's instructions spent \
                 inside the Keccak and SHA-2 code, measured by the harness's QEMU \
                 plugin (`cargo xtask m4 hashshare`), one run.\n",
            );
            for (kind, title, cols) in &kinds {
                head(&mut m, title, "%", cols);
                for r in self.results.iter().filter(|r| r.alg.kind == *kind) {
                    op_row(&mut m, &r.alg.name, "rust-o3", r, |op| {
                        hash_pct(r, op).map_or("–".into(), |p| format!("{p:.1}%"))
                    });
                }
            }
        }
        if self.sizes.is_some() {
            m.push_str(
                "\n# Size Evaluation\n\nThe scheme's code: its own symbols plus the shared \
                 scheme code they call; hashing (pqforge_core) is excluded, as in pqm4. \
                 .rodata holds constant tables; .data is empty throughout.\n",
            );
            for (kind, title, _) in &kinds {
                let _ = write!(
                    m,
                    "\n## {title}\n\n| scheme | implementation | .text [bytes] | .rodata [bytes] | .bss [bytes] | Total [bytes] |\n\
                     | ------ | -------------- | ---: | ---: | ---: | ---: |\n"
                );
                for r in self.results.iter().filter(|r| r.alg.kind == *kind) {
                    for (imp, sz) in [
                        ("rust-o3", self.alg_size(r)),
                        ("rust-os", self.alg_size_s(r)),
                    ] {
                        let Some(a) = sz else { continue };
                        let t = &a.total;
                        let _ = writeln!(
                            m,
                            "| {} | {imp} | {} | {} | {} | {} |",
                            r.alg.name,
                            thousands(t.text),
                            thousands(t.rodata),
                            thousands(t.bss),
                            thousands(t.text + t.rodata + t.data + t.bss)
                        );
                    }
                }
            }
        }
        m
    }

    /// Writes report.md and report.json, prints the markdown, returns
    /// whether everything passed.
    pub(crate) fn write(&self) -> Result<bool, Fatal> {
        let dir = &self.opts.out;
        fs::create_dir_all(dir)
            .map_err(|e| Fatal::setup(format!("cannot create {}: {e}", dir.display())))?;
        let md = self.markdown();
        let (mdp, jsp) = (dir.join("report.md"), dir.join("report.json"));
        let bench = dir.join("benchmarks.md");
        fs::write(&mdp, &md)
            .and_then(|()| fs::write(&jsp, self.json()))
            .and_then(|()| {
                if self.opts.cmd == "all" {
                    fs::write(&bench, self.benchmarks_md())
                } else {
                    Ok(())
                }
            })
            .map_err(|e| {
                Fatal::setup(format!("cannot write the report in {}: {e}", dir.display()))
            })?;
        print!("{md}");
        eprintln!(
            "m4: wrote {} and {}{}",
            mdp.display(),
            jsp.display(),
            if self.opts.cmd == "all" {
                format!(" and {}", bench.display())
            } else {
                String::new()
            }
        );
        Ok(!self.results.iter().any(Self::failed))
    }
}
