//! `cargo xtask m4 softfloat`: on thumbv7em-none-eabihf (single-precision
//! FPU only), Falcon key generation and signing must not reach a software
//! binary64 routine (`__aeabi_dadd`, `__adddf3`, ...): those are not
//! constant time, and Falcon's binary64 arithmetic must go through the
//! crate's integer emulation (`fpr_emu`, selected automatically on every
//! target but x86_64).
//!
//! Method: disassemble the firmware (the same build as `m4 divscan`), build
//! the direct call graph (`bl`/`blx`/`b.w` to a symbol), start from every
//! function of `pqforge_falcon` whose demangled name mentions keygen or
//! sign (LTO inlines most of the code into these), and walk it. Paths that
//! only run on errors (panic, formatting) are not followed. Indirect calls
//! (`blx rN`) cannot be followed; Falcon makes none of its own (the only
//! ones are the caller's RNG through `dyn CryptoRng`).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

use crate::divscan::{self, Func, TERMINAL};
use crate::fw::{self, Profile};
use crate::{Fatal, Opts};

/// A software binary64 routine (EABI or libgcc/compiler-builtins names).
pub(crate) fn soft_double(sym: &str) -> bool {
    if let Some(r) = sym.strip_prefix("__aeabi_") {
        // __aeabi_dadd, __aeabi_dcmplt, __aeabi_d2iz, __aeabi_i2d, __aeabi_f2d, ...
        return r.starts_with('d') || r.ends_with("2d");
    }
    if let Some(r) = sym.strip_prefix("__") {
        // __adddf3, __muldf3, __floatsidf, __fixdfsi, __eqdf2, __extendsfdf2, ...
        return r.ends_with("df3")
            || r.ends_with("df2")
            || r.contains("dfsi")
            || r.contains("dfdi")
            || r.contains("dfti")
            || r.contains("dfsf")
            || r.ends_with("sidf")
            || r.ends_with("didf")
            || r.ends_with("tidf");
    }
    sym.contains("compiler_builtins::float::") && sym.contains("f64")
        || matches!(
            sym,
            "sqrt" | "floor" | "ceil" | "trunc" | "round" | "fma" | "exp" | "log"
        )
}

/// Entry points: Falcon's keygen and signing functions.
fn is_root(name: &str) -> bool {
    name.contains("pqforge_falcon")
        && (name.contains("keygen") || name.contains("sign"))
        && !name.contains("verify")
}

/// Everything a function calls by name (including the routine calls that
/// `divscan` files under "direct").
fn calls(f: &Func) -> impl Iterator<Item = &str> {
    f.callees
        .iter()
        .map(String::as_str)
        .chain(f.direct.iter().filter_map(|d| d.strip_prefix("call ")))
}

/// A run-time support routine (memcpy, integer helpers, ...): the live
/// positive control, showing that calls into the runtime are followed.
fn runtime_routine(sym: &str) -> bool {
    sym.starts_with("__aeabi_") || matches!(sym, "memcpy" | "memset" | "memmove" | "memcmp")
}

/// Walks the call graph from `roots`; returns the functions visited and,
/// for each soft-float routine reached, one call path to it.
pub(crate) fn walk(
    funcs: &BTreeMap<String, Func>,
    roots: &[&str],
) -> (BTreeSet<String>, BTreeMap<String, Vec<String>>) {
    let mut parent: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut q: VecDeque<String> = VecDeque::new();
    for r in roots {
        parent.insert((*r).to_string(), None);
        q.push_back((*r).to_string());
    }
    let mut hits: BTreeMap<String, Vec<String>> = BTreeMap::new();
    while let Some(n) = q.pop_front() {
        if soft_double(&n) {
            let mut path = vec![n.clone()];
            let mut cur = n.clone();
            while let Some(Some(p)) = parent.get(&cur) {
                path.push(p.clone());
                cur = p.clone();
            }
            path.reverse();
            hits.entry(n.clone()).or_insert(path);
            continue;
        }
        let Some(f) = funcs.get(&n) else { continue };
        for c in calls(f) {
            if TERMINAL.iter().any(|t| c.contains(t)) || parent.contains_key(c) {
                continue;
            }
            parent.insert(c.to_string(), Some(n.clone()));
            q.push_back(c.to_string());
        }
    }
    (parent.into_keys().collect(), hits)
}

/// Scans one firmware; returns whether it is clean.
fn scan(elf: &Path, p: Profile) -> Result<bool, Fatal> {
    let funcs = divscan::disassemble(elf)?;
    let roots: Vec<&str> = funcs
        .keys()
        .map(String::as_str)
        .filter(|n| is_root(n))
        .collect();
    let present: BTreeSet<&str> = funcs
        .keys()
        .map(String::as_str)
        .filter(|n| soft_double(n))
        .collect();
    println!(
        "== thumbv7em-none-eabihf (opt-level {}): {} functions, {} soft-float routines linked, {} Falcon keygen/sign entry points",
        p.opt_level(),
        funcs.len(),
        present.len(),
        roots.len()
    );
    if roots.is_empty() {
        println!("  no Falcon keygen/sign function found: is the firmware built with `falcon`?");
        return Ok(false);
    }
    for r in &roots {
        println!("  root  {r}");
    }
    let (visited, hits) = walk(&funcs, &roots);
    println!(
        "  walked {} functions reachable from the roots",
        visited.len()
    );
    let control: Vec<&str> = visited
        .iter()
        .map(String::as_str)
        .filter(|n| runtime_routine(n))
        .collect();
    println!(
        "  control: runtime routines reached (calls into the runtime are followed): {}",
        if control.is_empty() {
            "none".to_string()
        } else {
            control.join(", ")
        }
    );
    if control.is_empty() {
        println!("  no runtime routine reached at all: call graph not followed?");
        return Ok(false);
    }
    if hits.is_empty() {
        println!("  no soft-float routine reachable");
        return Ok(true);
    }
    for (sym, path) in &hits {
        println!("  REACHABLE {sym}: {}", path.join(" -> "));
    }
    Ok(false)
}

/// Builds each profile of `--opt` (default 3 and s) and scans it.
pub(crate) fn run(o: &Opts) -> Result<bool, Fatal> {
    fw::check_tools(false)?;
    let mut clean = true;
    for &p in &o.profiles {
        let elf = fw::build(o, p)?;
        clean &= scan(&elf, p)?;
    }
    if clean {
        println!("softfloat (thumbv7em): Falcon keygen/sign reach no soft binary64 routine");
    } else {
        println!("softfloat (thumbv7em): FAILED (see REACHABLE lines)");
    }
    Ok(clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn func(callees: &[&str], direct: &[&str]) -> Func {
        Func {
            direct: direct.iter().map(|s| (*s).to_string()).collect(),
            callees: callees.iter().map(|s| (*s).to_string()).collect(),
            addrs: Vec::new(),
        }
    }

    #[test]
    fn symbols() {
        for s in [
            "__aeabi_dadd",
            "__aeabi_dmul",
            "__aeabi_dcmplt",
            "__aeabi_d2iz",
            "__aeabi_i2d",
            "__aeabi_f2d",
            "__aeabi_l2d",
            "__adddf3",
            "__muldf3",
            "__divdf3",
            "__floatsidf",
            "__fixdfsi",
            "__eqdf2",
            "__extendsfdf2",
            "__truncdfsf2",
        ] {
            assert!(soft_double(s), "{s}");
        }
        for s in [
            "__aeabi_fadd",
            "__aeabi_uldivmod",
            "__aeabi_memcpy",
            "__addsf3",
            "pqforge_falcon::fpr_emu::Fpr::add",
        ] {
            assert!(!soft_double(s), "{s}");
        }
        assert!(is_root("pqforge_falcon::scheme::keygen_from_seed"));
        assert!(is_root(
            "<pqforge_core::dynamic::SigAlg<pqforge_falcon::Falcon512> as pqforge_core::dynamic::DynSig>::sign"
        ));
        assert!(!is_root(
            "<pqforge_core::dynamic::SigAlg<pqforge_falcon::Falcon512> as pqforge_core::dynamic::DynSig>::verify"
        ));
    }

    /// Positive control of the walker: a soft-float call two levels down is
    /// found (through a `direct` routine call and a tail call), one behind
    /// a panic path is not, and an unrelated function is not visited.
    #[test]
    fn walker_finds_reachable_soft_float() {
        let mut g = BTreeMap::new();
        g.insert(
            "pqforge_falcon::sign::sign_dyn".to_string(),
            func(&["helper", "core::panicking::panic"], &[]),
        );
        g.insert("helper".to_string(), func(&["leaf"], &[]));
        g.insert("leaf".to_string(), func(&[], &["call __aeabi_dmul"]));
        g.insert(
            "core::panicking::panic".to_string(),
            func(&["__aeabi_ddiv"], &[]),
        );
        g.insert("other".to_string(), func(&["__aeabi_dadd"], &[]));
        let (visited, hits) = walk(&g, &["pqforge_falcon::sign::sign_dyn"]);
        assert_eq!(hits.len(), 1);
        assert_eq!(
            hits["__aeabi_dmul"],
            [
                "pqforge_falcon::sign::sign_dyn",
                "helper",
                "leaf",
                "__aeabi_dmul"
            ]
        );
        assert_eq!(visited.len(), 4);
        // Without the soft-float leaf: clean.
        g.insert("leaf".to_string(), func(&[], &["udiv"]));
        let (_, hits) = walk(&g, &["pqforge_falcon::sign::sign_dyn"]);
        assert!(hits.is_empty());
    }
}
