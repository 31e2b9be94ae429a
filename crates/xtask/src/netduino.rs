//! `--machine netduinoplus2`: the firmware on QEMU's STM32F405 board, a
//! real microcontroller's memory (1 MB flash, 128 KB SRAM for the stack,
//! 64 KB for the statics: boards/cortex-m4/memory-netduinoplus2.x).
//!
//! Every algorithm that fits runs the same test, speed, stack and transcript
//! runs as on mps2-an386; the report lists the others with the reason:
//!
//! * static RAM: keys, ciphertext/signature and the test scratch exceed the
//!   arena (decided on the host from the registry's sizes, before building);
//! * flash: the family's code and read-only data alone overflow 1 MB (the
//!   linker says so; families are first built together, and a group that
//!   overflows is split in halves until each firmware fits);
//! * stack: the run faulted below the 128 KB SRAM (the firmware's HardFault
//!   handler prints `fault stack overflow`).
//!
//! Any other failure is a failure.

use std::time::Instant;

use crate::fw::{self, NETDUINO_ARENA, NETDUINO_FLASH, NETDUINO_STACK, Profile};
use crate::report::{self, thousands};
use crate::{Fatal, Opts};

/// An algorithm that does not fit, and why.
pub(crate) type NotFit = (String, String);

fn selected(o: &Opts, name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    o.filter
        .as_ref()
        .is_none_or(|f| n.contains(&f.to_ascii_lowercase()))
        && !o.skip.iter().any(|s| n.contains(s.as_str()))
}

pub(crate) fn run(o: &Opts) -> Result<bool, Fatal> {
    fw::check_tools(true)?;
    // Every family of the registry unless --features names some: the report
    // must say why the large ones (Classic McEliece) do not fit.
    let fams: Vec<String> = match &o.features {
        Some(_) => fw::families(o),
        None => pqforge::FAMILIES
            .iter()
            .map(|f| f.feature.to_string())
            .collect(),
    };
    // Registry order, for the report.
    let mut order: Vec<String> = Vec::new();
    let mut not_fit: Vec<NotFit> = Vec::new();
    let mut groups: Vec<Vec<(String, Vec<String>)>> = vec![Vec::new()];
    for f in &fams {
        let fam = pqforge::FAMILIES
            .iter()
            .find(|x| x.feature == f)
            .ok_or_else(|| {
                Fatal::setup(format!(
                    "unknown family `{f}` (known: {})",
                    pqforge::ALL_FAMILY_FEATURES.join(", ")
                ))
            })?;
        let mut keep = Vec::new();
        for s in fam.schemes {
            let name = s.info().name;
            if !selected(o, name) {
                continue;
            }
            order.push(name.to_string());
            let alg = pqforge::Algorithm::find(name)
                .ok_or_else(|| Fatal::setup(format!("{name}: not in the registry")))?;
            let need = fw::arena_need(alg, o.records);
            if need > NETDUINO_ARENA {
                not_fit.push((
                    name.to_string(),
                    format!(
                        "static RAM: keys, ciphertext/signature and test scratch need {} B \
                         (the public key alone {} B); the 64 KB CCM leaves {} B, the whole \
                         chip has 192 KB",
                        thousands(need as u64),
                        thousands(alg.info().pk_bytes as u64),
                        thousands(NETDUINO_ARENA as u64)
                    ),
                ));
            } else {
                keep.push(name.to_string());
            }
        }
        if !keep.is_empty() {
            groups[0].push((f.clone(), keep));
        }
    }
    if order.is_empty() {
        return Err(Fatal::setup("no algorithm matches --filter/--skip"));
    }
    let mode = match o.cmd.as_str() {
        "all" => "test,speed,stack,transcript",
        m => m,
    };
    let (mut build_secs, mut run_secs) = (0.0, 0.0);
    let mut results = Vec::new();
    while let Some(group) = groups.pop() {
        if group.is_empty() {
            continue;
        }
        let mut og = o.clone();
        og.features = Some(
            group
                .iter()
                .map(|(f, _)| f.as_str())
                .collect::<Vec<_>>()
                .join(","),
        );
        let t = Instant::now();
        let built = fw::build_fitting(&og, Profile::O3)?;
        build_secs += t.elapsed().as_secs_f64();
        match built {
            Ok(elf) => {
                let t = Instant::now();
                let mut algs = fw::list(&og, &elf)?;
                algs.retain(|a| group.iter().any(|(_, k)| k.contains(&a.name)));
                if o.cmd == "list" {
                    for a in &algs {
                        println!("{} ({}, {})", a.name, a.kind, a.family);
                    }
                    continue;
                }
                results.extend(fw::run_all(&og, &elf, &algs, mode, "")?);
                run_secs += t.elapsed().as_secs_f64();
            }
            Err(msg) if group.len() > 1 => {
                eprintln!("m4: {msg}: building the families in two firmwares");
                let mut a = group;
                let b = a.split_off(a.len() / 2);
                groups.push(b);
                groups.push(a);
            }
            Err(msg) => {
                for name in &group[0].1 {
                    not_fit.push((
                        name.clone(),
                        format!(
                            "flash: the {} family's firmware alone: {msg} ({} B)",
                            group[0].0,
                            thousands(NETDUINO_FLASH as u64)
                        ),
                    ));
                }
            }
        }
    }
    if o.cmd == "list" {
        return Ok(true);
    }
    // A stack overflow is "does not fit", not a failure.
    results.retain(|r| {
        let Some(e) = r
            .errors
            .iter()
            .find(|e| e.starts_with("fault stack overflow"))
        else {
            return true;
        };
        not_fit.push((
            r.alg.name.clone(),
            format!(
                "stack: more than the {} B of SRAM ({e})",
                thousands(NETDUINO_STACK as u64)
            ),
        ));
        false
    });
    let pos = |n: &str| order.iter().position(|x| x == n).unwrap_or(usize::MAX);
    results.sort_by_key(|r| pos(&r.alg.name));
    not_fit.sort_by_key(|(n, _)| pos(n));
    if mode.contains("transcript") {
        report::host_transcripts(&mut results, o.records);
    }
    let rep = report::Report {
        opts: o.clone(),
        results,
        sizes: None,
        sizes_s: None,
        not_fit,
        build_secs,
        run_secs,
    };
    rep.write()
}
