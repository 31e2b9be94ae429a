//! `cargo xtask m4 divscan`: the thumbv7em counterpart of scripts/divscan.sh.
//!
//! Disassembles the firmware (opt-level 3, "s" and "z"; fat LTO, so this is
//! exactly the code that ships) and lists every function of a pqforge crate
//! that contains a variable-latency instruction: integer division
//! (`udiv`/`sdiv`, IT-predicated forms such as `udivne`, `.w` suffixes),
//! VFP `vdiv`/`vsqrt`, or a call to a software division / square-root
//! routine (`__aeabi_uldivmod`, `__aeabi_ddiv`, ...). A function also counts
//! when it calls, directly or through other non-pqforge functions, a
//! function that contains one (e.g. a `core` helper), except through panic
//! and formatting paths, which only run on errors.
//!
//! "pqforge crates" = demangled (v0) names containing `pqforge::` or
//! `pqforge_<crate>::`, generic instantiations included; the harness
//! (`pqforge_m4`) is not scanned. A hit outside [`ALLOW`] exits 1.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use crate::fw::{self, Profile};
use crate::{Fatal, Opts};

/// Reviewed functions (substring of the demangled name) whose divisions
/// have only public operands, with the reason.
const ALLOW: &[(&str, &str)] = &[
    (
        "pqforge_core::kat::",
        "KAT generators: deterministic test-vector randomness, no secrets",
    ),
    (
        "pqforge_core::aes::",
        "AES of the KAT DRBG only (test vectors)",
    ),
    (
        "pqforge::transcript::",
        "transcript/functional test driver: decimal record counts, public lengths",
    ),
    (
        "pqforge::registry::",
        "algorithm-name parsing and formatting",
    ),
    (
        "<pqforge_core::error::Error as core::fmt::Display>::fmt",
        "error messages: public lengths",
    ),
    (
        "pqforge_mlkem::sample::gen_matrix::",
        "expands the public matrix A from the public seed rho; the udiv splits a \
         loop index into (row, column) by k",
    ),
    (
        "pqforge_hqc::backend::portable::karatsuba",
        "opt-level z only: the recursion splits slice lengths (public: fixed by the \
         parameter set); the polynomial words themselves only go through XOR, AND and \
         shifts",
    ),
    (
        "pqforge_falcon::ntru::solve_ntru",
        "opt-level z: scale_k / 31 and % 31 split the Babai-reduction scale into \
         limbs and bits; scale_k comes from the public BITLENGTH table and the \
         iteration count, never from key data",
    ),
    (
        "pqforge_falcon::scheme::hash_message",
        "HashToPoint reduces SHAKE256(nonce || message) samples mod q: both inputs \
         are public (they travel with the signature)",
    ),
    (
        "pqforge_falcon::fndsa::sign::hash_to_point",
        "HashToPoint reduces SHAKE256(nonce || mu) samples mod q: public inputs",
    ),
    (
        "pqforge_core::keccak_x4::SpongeX4<",
        "squeeze_blocks (opt-level z): output length / rate, public",
    ),
];

/// Reviewed helpers reached through calls (substring), with the reason.
const ALLOW_CALLEE: &[(&str, &str)] = &[(
    "core::iter::adapters::",
    "iterator length arithmetic (Zip/ChunksExact sizes: slice lengths, public in every pqforge API)",
)];

/// Paths not followed: they only run to report an error or abort (also
/// used by `m4 softfloat`).
pub(crate) const TERMINAL: &[&str] = &[
    "core::panicking::",
    "core::slice::index::",
    "core::result::unwrap_failed",
    "core::option::expect_failed",
    "core::option::unwrap_failed",
    "core::fmt::",
    "rust_begin_unwind",
    "pqforge_m4::",
    "cortex_m_semihosting::",
];

const CONDS: [&str; 15] = [
    "eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt",
];

/// `base` possibly followed by a condition code (and `le`/`al`) and `.w`/`.n`.
fn is_op(m: &str, base: &str) -> bool {
    let Some(rest) = m.strip_prefix(base) else {
        return false;
    };
    let rest = rest
        .strip_suffix(".w")
        .or_else(|| rest.strip_suffix(".n"))
        .unwrap_or(rest);
    rest.is_empty() || CONDS.contains(&rest) || rest == "le" || rest == "al"
}

/// A variable-latency instruction.
fn div_insn(m: &str) -> bool {
    if is_op(m, "udiv") || is_op(m, "sdiv") {
        return true;
    }
    // vdiv.f32, vdivne.f32, vsqrt.f64, ...
    let base = m.split('.').next().unwrap_or(m);
    m.contains(".f") && (is_op(base, "vdiv") || is_op(base, "vsqrt"))
}

fn is_branch(m: &str) -> bool {
    ["bl", "blx", "b"].iter().any(|b| is_op(m, b))
}

/// A software division or square-root routine.
fn div_routine(sym: &str) -> bool {
    let s = sym.trim_start_matches('_');
    let builtin = sym.starts_with("__") || sym.contains("compiler_builtins::");
    (builtin && (s.contains("div") || s.contains("mod") || s.contains("sqrt")))
        || matches!(sym, "sqrt" | "sqrtf" | "fmod" | "fmodf")
}

fn is_pqforge(name: &str) -> bool {
    if name.contains("pqforge::") {
        return true;
    }
    name.match_indices("pqforge_").any(|(i, _)| {
        let rest = &name[i + 8..];
        let end = rest.find("::").unwrap_or(0);
        end > 0
            && rest[..end]
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            && &rest[..end] != "m4"
    })
}

pub(crate) struct Func {
    /// Variable-latency instructions and routine calls in the body.
    pub(crate) direct: BTreeSet<String>,
    /// Functions this one branches to.
    pub(crate) callees: BTreeSet<String>,
    /// Start address (one per key; see [`parse_disassembly`]).
    pub(crate) addrs: Vec<u64>,
}

/// Functions of `elf` (demangled names) with their divisions and callees.
pub(crate) fn disassemble(elf: &Path) -> Result<BTreeMap<String, Func>, Fatal> {
    let out = Command::new("arm-none-eabi-objdump")
        .args(["-d", "-C", "--no-show-raw-insn"])
        .arg(elf)
        .output()
        .map_err(|e| Fatal::setup(format!("cannot run arm-none-eabi-objdump: {e}")))?;
    if !out.status.success() {
        return Err(Fatal::setup("arm-none-eabi-objdump failed"));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(parse_disassembly(&text))
}

/// Parses `objdump -d -C` output. Functions are keyed by name; a second
/// symbol of the same name at another address (compiler-generated local
/// symbols such as `OUTLINED_FUNCTION_323` can repeat across object files)
/// gets the key `name@addr`, and branch targets are resolved by address, so
/// a call never inherits the body of a namesake.
pub(crate) fn parse_disassembly(text: &str) -> BTreeMap<String, Func> {
    let mut funcs: BTreeMap<String, Func> = BTreeMap::new();
    let mut by_addr: BTreeMap<u64, String> = BTreeMap::new();
    // (caller key, target address, target name) of every non-division branch.
    let mut calls: Vec<(String, Option<u64>, String)> = Vec::new();
    let mut cur: Option<String> = None;
    for line in text.lines() {
        if let Some(h) = line.strip_suffix(">:")
            && let Some((addr, name)) = h.split_once(" <")
            && addr.chars().all(|c| c.is_ascii_hexdigit())
        {
            let a = u64::from_str_radix(addr, 16).unwrap_or(0);
            let key = if funcs.contains_key(name) {
                format!("{name}@{a:x}")
            } else {
                name.to_string()
            };
            by_addr.insert(a, key.clone());
            funcs.insert(
                key.clone(),
                Func {
                    direct: BTreeSet::new(),
                    callees: BTreeSet::new(),
                    addrs: vec![a],
                },
            );
            cur = Some(key);
            continue;
        }
        let Some(key) = cur.as_ref() else { continue };
        let mut cols = line.split('\t');
        let Some(addr) = cols.next() else { continue };
        if !addr.trim_end().ends_with(':') {
            continue;
        }
        let Some(m) = cols.next().map(str::trim) else {
            continue;
        };
        let operands = cols.collect::<Vec<_>>().join(" ");
        let Some(f) = funcs.get_mut(key) else {
            continue;
        };
        if div_insn(m) {
            f.direct.insert(m.to_string());
        } else if is_branch(m)
            && let Some((target_addr, t)) = operands
                .split_once('<')
                .and_then(|(a, t)| Some((a, t.strip_suffix('>')?)))
            && !t.contains('+')
        {
            if div_routine(t) {
                f.direct.insert(format!("call {t}"));
            } else {
                let ta = u64::from_str_radix(target_addr.trim(), 16).ok();
                calls.push((key.clone(), ta, t.to_string()));
            }
        }
    }
    for (caller, ta, name) in calls {
        let callee = ta.and_then(|a| by_addr.get(&a).cloned()).unwrap_or(name);
        if let Some(f) = funcs.get_mut(&caller) {
            f.callees.insert(callee);
        }
    }
    funcs
}

/// Non-pqforge functions that reach a variable-latency instruction, with
/// the functions on the way that contain one.
fn reach(funcs: &BTreeMap<String, Func>) -> BTreeMap<String, BTreeSet<String>> {
    let follow = |n: &str| !is_pqforge(n) && !TERMINAL.iter().any(|t| n.contains(t));
    let mut r: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (n, f) in funcs {
        if follow(n) && !f.direct.is_empty() {
            r.insert(n.clone(), BTreeSet::from([n.clone()]));
        }
    }
    loop {
        let mut changed = false;
        for (n, f) in funcs {
            if !follow(n) {
                continue;
            }
            let mut add: BTreeSet<String> = BTreeSet::new();
            for c in f.callees.iter().filter(|c| follow(c)) {
                if let Some(srcs) = r.get(c) {
                    add.extend(srcs.iter().cloned());
                }
            }
            let e = r.entry(n.clone()).or_default();
            let before = e.len();
            e.extend(add);
            changed |= e.len() != before;
        }
        if !changed {
            r.retain(|_, v| !v.is_empty());
            return r;
        }
    }
}

/// Scans one firmware; returns the number of unreviewed hits.
fn scan(elf: &Path, p: Profile) -> Result<usize, Fatal> {
    let funcs = disassemble(elf)?;
    let reached = reach(&funcs);
    let pq: Vec<&String> = funcs.keys().filter(|n| is_pqforge(n)).collect();
    println!(
        "== thumbv7em-none-eabihf (opt-level {}): {} functions, {} in pqforge crates",
        p.opt_level(),
        funcs.len(),
        pq.len()
    );
    if pq.is_empty() {
        println!("  no pqforge function found: symbols missing?");
        return Ok(1);
    }
    let mut review = 0;
    let mut hits = 0;
    for n in pq {
        let f = &funcs[n];
        let mut what: Vec<String> = f.direct.iter().cloned().collect();
        let mut callee_ok = true;
        for c in &f.callees {
            for src in reached.get(c).into_iter().flatten() {
                let allowed = ALLOW_CALLEE.iter().find(|(p, _)| src.contains(p));
                callee_ok &= allowed.is_some();
                let insns: Vec<&str> = funcs[src].direct.iter().map(String::as_str).collect();
                what.push(format!(
                    "via {c}{} ({}){}",
                    if src == c {
                        String::new()
                    } else {
                        format!(" -> {src}")
                    },
                    insns.join(" "),
                    allowed
                        .map(|(_, r)| format!(" [allowed: {r}]"))
                        .unwrap_or_default()
                ));
            }
        }
        if what.is_empty() {
            continue;
        }
        hits += 1;
        let allowed = ALLOW.iter().find(|(p, _)| n.contains(p));
        match allowed {
            Some((_, reason)) => println!("  allowed  {n}: {} [{reason}]", what.join("; ")),
            None if f.direct.is_empty() && callee_ok => {
                println!("  allowed  {n}: {}", what.join("; "));
            }
            None => {
                println!("  REVIEW   {n}: {}", what.join("; "));
                review += 1;
            }
        }
    }
    if hits == 0 {
        println!("  no division in pqforge code");
    }
    Ok(review)
}

/// Builds each profile of `--opt` (default 3 and s) and scans it.
pub(crate) fn run(o: &Opts) -> Result<bool, Fatal> {
    fw::check_tools(false)?;
    let mut review = 0;
    for &p in &o.profiles {
        let elf = fw::build(o, p)?;
        review += scan(&elf, p)?;
    }
    if review == 0 {
        println!("divscan (thumbv7em): clean");
        Ok(true)
    } else {
        println!("divscan (thumbv7em): {review} function(s) to review (see REVIEW lines)");
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namesakes_resolve_by_address() {
        let dis = "\
00001000 <OUTLINED_FUNCTION_1>:
    1000:\tb.w\t3000 <pqforge_hqc::gf2x::karatsuba>
00002000 <OUTLINED_FUNCTION_1>:
    2000:\tb.w\t4000 <__aeabi_uldivmod>
00005000 <pqforge_hqc::kem::f>:
    5000:\tbl\t1000 <OUTLINED_FUNCTION_1>
";
        let funcs = parse_disassembly(dis);
        let f = &funcs["pqforge_hqc::kem::f"];
        assert_eq!(
            f.callees,
            BTreeSet::from(["OUTLINED_FUNCTION_1".to_string()])
        );
        assert!(funcs["OUTLINED_FUNCTION_1"].direct.is_empty());
        assert!(!funcs["OUTLINED_FUNCTION_1@2000"].direct.is_empty());
        assert!(!reach(&funcs).contains_key("OUTLINED_FUNCTION_1"));
    }

    #[test]
    fn mnemonics() {
        for m in [
            "udiv",
            "sdiv",
            "udivne",
            "sdiv.w",
            "udiveq.w",
            "vdiv.f32",
            "vsqrtne.f64",
        ] {
            assert!(div_insn(m), "{m}");
        }
        for m in ["add", "udf", "vmul.f32", "vdup.8", "sdivx", "uadd8"] {
            assert!(!div_insn(m), "{m}");
        }
        assert!(is_branch("bl") && is_branch("b.w") && is_branch("bne.w") && is_branch("b.n"));
        assert!(!is_branch("bic") && !is_branch("bx"));
        assert!(div_routine("__aeabi_uldivmod") && div_routine("__aeabi_ddiv"));
        assert!(div_routine("__udivmoddi4") && div_routine("sqrt"));
        assert!(!div_routine("__aeabi_memcpy") && !div_routine("pqforge_hqc::div"));
        assert!(is_pqforge("pqforge_hqc::rs::gf_inv"));
        assert!(is_pqforge(
            "core::ptr::drop_in_place::<pqforge_core::keccak::Sponge>"
        ));
        assert!(!is_pqforge("pqforge_m4::main") && !is_pqforge("core::fmt::write"));
    }
}
