//! Code size per scheme from the firmware's symbol table.
//!
//! The firmware is built with v0 symbol mangling, so the demangled name of a
//! monomorphized function carries its generic arguments
//! (`pqforge_hqc::kem::keygen_derand::<pqforge_hqc::params::Hqc1>`). Every
//! symbol is attributed to
//!
//! * a **parameter set** when its name contains the set's type (the `K` of
//!   `<KemAlg<K> as DynKem>`, `<SigAlg<K> as DynSig>`): code
//!   generated for that set only;
//! * else its **family** when it contains `pqforge_<family>::`: code shared by
//!   the family's sets (e.g. the HQC Karatsuba multiplication);
//! * else `pqforge_core` (Keccak, KAT generators, ...: shared by all
//!   schemes and, like pqm4's hashing, not counted per scheme), the harness,
//!   or the Rust runtime.
//!
//! A parameter set's `.text` = its own symbols + the other scheme symbols
//! (family-generic code, or another set's code it delegates to, as the
//! Classic McEliece `f`/`pc` variants do) reachable by direct calls from its
//! `DynKem`/`DynSig` methods; its `.rodata`/`.bss` = its own + its family's
//! shared data. Code in `pqforge_core` (Keccak, KAT generators) is excluded,
//! as pqm4 excludes hashing. With LTO, inlined code counts for its caller.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use crate::Fatal;

/// Bytes per section kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bytes {
    pub(crate) text: u64,
    pub(crate) rodata: u64,
    pub(crate) data: u64,
    pub(crate) bss: u64,
}

impl Bytes {
    fn add(&mut self, kind: char, n: u64) {
        match kind.to_ascii_lowercase() {
            't' | 'w' => self.text += n,
            'r' => self.rodata += n,
            'd' => self.data += n,
            'b' => self.bss += n,
            _ => {}
        }
    }

    pub(crate) fn plus(self, o: Bytes) -> Bytes {
        Bytes {
            text: self.text + o.text,
            rodata: self.rodata + o.rodata,
            data: self.data + o.data,
            bss: self.bss + o.bss,
        }
    }
}

/// Size attribution of one firmware ELF.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sizes {
    /// `arm-none-eabi-size -A` sections of interest.
    pub(crate) sections: Vec<(String, u64)>,
    /// Parameter-set type path -> its own symbols.
    pub(crate) sets: BTreeMap<String, Bytes>,
    /// Family crate (`pqforge_hqc`) -> symbols shared by its sets.
    pub(crate) families: BTreeMap<String, Bytes>,
    /// Set type -> `.text` of the other scheme code it calls (directly or
    /// indirectly, through direct calls): family-generic code, or another
    /// set's code it delegates to.
    pub(crate) reached: BTreeMap<String, u64>,
    /// pqforge_core and the umbrella crate, not specific to a scheme.
    pub(crate) common: Bytes,
    /// The harness (`pqforge_m4`).
    pub(crate) harness: Bytes,
    /// Everything else (core, compiler builtins, cortex-m runtime).
    pub(crate) runtime: Bytes,
}

/// Size of one algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct AlgSize {
    pub(crate) own: Bytes,
    pub(crate) shared: Bytes,
    pub(crate) total: Bytes,
}

/// The type path inside `KemAlg<...>` / `SigAlg<...>` at the start of `s`.
fn generic_arg(s: &str) -> Option<&str> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' | ',' if depth == 0 => return Some(&s[..i]),
            '>' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `hay` contains `path` not followed by an identifier character.
fn contains_path(hay: &str, path: &str) -> bool {
    hay.match_indices(path).any(|(i, _)| {
        !hay[i + path.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Scheme family crates named in `name` (`pqforge_hqc`, not `pqforge_core`).
fn family_of(name: &str) -> Option<&str> {
    name.match_indices("pqforge_").find_map(|(i, _)| {
        let rest = &name[i..];
        let end = rest.find("::")?;
        let krate = &rest[..end];
        let ok = krate.len() > 8
            && krate[8..]
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            && !matches!(krate, "pqforge_core" | "pqforge_m4");
        ok.then_some(krate)
    })
}

pub(crate) fn tool_output(tool: &str, args: &[&str], elf: &Path) -> Result<String, Fatal> {
    let out = Command::new(tool)
        .args(args)
        .arg(elf)
        .output()
        .map_err(|e| Fatal::setup(format!("cannot run {tool}: {e}")))?;
    if !out.status.success() {
        return Err(Fatal::setup(format!(
            "{tool} failed on {}: {}",
            elf.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Attributes every sized symbol of `elf`.
pub(crate) fn attribute(elf: &Path) -> Result<Sizes, Fatal> {
    let mut s = Sizes::default();
    let size = tool_output("arm-none-eabi-size", &["-A"], elf)?;
    for l in size.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.len() == 3
            && [
                ".vector_table",
                ".text",
                ".rodata",
                ".data",
                ".bss",
                ".uninit",
            ]
            .contains(&w[0])
            && let Ok(n) = w[1].parse()
        {
            s.sections.push((w[0].to_string(), n));
        }
    }
    let nm = tool_output(
        "arm-none-eabi-nm",
        &["-C", "-S", "-t", "d", "--defined-only"],
        elf,
    )?;
    // (address without the Thumb bit, size, kind, name)
    let syms: Vec<(u64, u64, char, &str)> = nm
        .lines()
        .filter_map(|l| {
            let mut it = l.splitn(4, ' ');
            let addr = it.next()?.parse::<u64>().ok()? & !1;
            let size = it.next()?.parse().ok()?;
            let kind = it.next()?.chars().next()?;
            Some((addr, size, kind, it.next()?))
        })
        .collect();
    // The parameter-set types: `T` of every `<Adapter<T> as DynKem>` /
    // `DynSig` impl (`KemAlg<T>`, `SigAlg<T>`), or the
    // implementing type itself when it is not generic.
    let mut types: Vec<String> = Vec::new();
    for &(_, _, _, name) in &syms {
        let Some(rest) = name.strip_prefix('<') else {
            continue;
        };
        let Some(end) = rest
            .find(" as pqforge_core::dynamic::DynKem>")
            .or_else(|| rest.find(" as pqforge_core::dynamic::DynSig>"))
        else {
            continue;
        };
        let self_ty = &rest[..end];
        let t = match self_ty.find('<') {
            Some(i) if self_ty.ends_with('>') => generic_arg(&self_ty[i + 1..]),
            _ => Some(self_ty),
        };
        if let Some(t) = t
            && !types.iter().any(|x| x == t)
        {
            types.push(t.to_string());
        }
    }
    for t in &types {
        s.sets.insert(t.clone(), Bytes::default());
    }
    for &(_, size, kind, name) in &syms {
        if let Some(t) = types.iter().find(|t| contains_path(name, t)) {
            s.sets.entry(t.clone()).or_default().add(kind, size);
        } else if let Some(f) = family_of(name) {
            s.families.entry(f.to_string()).or_default().add(kind, size);
        } else if name.contains("pqforge_m4::") {
            s.harness.add(kind, size);
        } else if name.contains("pqforge_core::") || name.contains("pqforge::") {
            s.common.add(kind, size);
        } else {
            s.runtime.add(kind, size);
        }
    }
    // Code each set reaches through direct calls from its adapter methods.
    // Functions are found by address: LLVM merges identical functions and
    // keeps one name (Falcon-512's keygen adapter is FalconPadded512's).
    let funcs = crate::divscan::disassemble(elf)?;
    let by_addr: BTreeMap<u64, &str> = funcs
        .iter()
        .flat_map(|(n, f)| f.addrs.iter().map(move |a| (*a, n.as_str())))
        .collect();
    let mut text_of: BTreeMap<&str, u64> = BTreeMap::new();
    for &(_, size, kind, name) in &syms {
        if matches!(kind, 't' | 'T' | 'w' | 'W') {
            *text_of.entry(name).or_default() += size;
        }
    }
    let is_scheme = |n: &str| family_of(n).is_some() || types.iter().any(|t| contains_path(n, t));
    for t in &types {
        let own_addrs: BTreeSet<u64> = syms
            .iter()
            .filter(|x| contains_path(x.3, t))
            .map(|x| x.0)
            .collect();
        let mut seen: BTreeSet<&str> = syms
            .iter()
            .filter(|x| {
                x.3.starts_with('<')
                    && x.3.contains(" as pqforge_core::dynamic::Dyn")
                    && contains_path(x.3, t)
            })
            .filter_map(|x| by_addr.get(&x.0).copied())
            .collect();
        let mut todo: Vec<&str> = seen.iter().copied().collect();
        while let Some(n) = todo.pop() {
            for c in funcs.get(n).into_iter().flat_map(|f| &f.callees) {
                if seen.insert(c.as_str()) {
                    todo.push(c.as_str());
                }
            }
        }
        let shared: u64 = seen
            .iter()
            .filter(|n| is_scheme(n))
            .filter(|n| {
                funcs
                    .get(**n)
                    .is_none_or(|f| !f.addrs.iter().any(|a| own_addrs.contains(a)))
            })
            .map(|n| text_of.get(n).copied().unwrap_or(0))
            .sum();
        s.reached.insert(t.clone(), shared);
    }
    Ok(s)
}

/// Lower-case alphanumerics only.
fn norm(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

impl Sizes {
    /// The parameter-set type of algorithm `name`: the type whose
    /// normalised last path segment is the longest prefix of the normalised
    /// name (`hqc-1-v5.0.0` -> `Hqc1V5`, `ml-kem-768` -> `MlKem768`).
    pub(crate) fn type_of(&self, name: &str) -> Option<&str> {
        let n = norm(name);
        self.sets
            .keys()
            .filter(|t| {
                let last = t.rsplit("::").next().unwrap_or(t);
                !last.is_empty() && n.starts_with(&norm(last))
            })
            .max_by_key(|t| norm(t.rsplit("::").next().unwrap_or(t)).len())
            .map(String::as_str)
    }

    /// Size of algorithm `name`: own symbols + its family's shared symbols.
    pub(crate) fn alg(&self, name: &str) -> Option<AlgSize> {
        let t = self.type_of(name)?;
        let own = self.sets.get(t).copied().unwrap_or_default();
        let family = family_of(t)
            .and_then(|f| self.families.get(f))
            .copied()
            .unwrap_or_default();
        // Code: what the set's entry points reach. Data (tables are not
        // reached through calls): the family's shared data.
        let shared = Bytes {
            text: self.reached.get(t).copied().unwrap_or(0),
            ..family
        };
        Some(AlgSize {
            own,
            shared,
            total: own.plus(shared),
        })
    }

    pub(crate) fn section(&self, name: &str) -> u64 {
        self.sections
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, v)| *v)
    }
}

/// The attribution as markdown (for `cargo xtask m4 size`).
pub(crate) fn markdown(s: &Sizes) -> String {
    let mut o = String::new();
    o.push_str("| what | .text [B] | .rodata [B] | .bss [B] |\n|---|---:|---:|---:|\n");
    let row = |o: &mut String, what: &str, b: &Bytes| {
        let _ = writeln!(o, "| {what} | {} | {} | {} |", b.text, b.rodata, b.bss);
    };
    for (t, b) in &s.sets {
        row(&mut o, &format!("`{t}` (own)"), b);
    }
    for (f, b) in &s.families {
        row(&mut o, &format!("`{f}` (shared by its sets)"), b);
    }
    row(
        &mut o,
        "pqforge_core + umbrella (Keccak, KAT RNGs, ...)",
        &s.common,
    );
    row(&mut o, "harness (pqforge_m4)", &s.harness);
    row(&mut o, "Rust core, builtins, cortex-m-rt", &s.runtime);
    o.push_str("\nfirmware sections: ");
    let secs: Vec<String> = s.sections.iter().map(|(n, v)| format!("{n} {v}")).collect();
    o.push_str(&secs.join(", "));
    o.push('\n');
    o
}
