//! Module-level checks against the official `intermediates_values` traces
//! (skipped when the shared test data is absent, failing under `CI=true`).
//!
//! The traces draw seed_kem, m and salt directly from the first KAT PRNG
//! (`SHAKE256(0x00..0x2F || 0x00)`), not from a per-record PRNG.

use std::string::String;
use std::vec::Vec;

use pqforge_core::kat::{HqcPrng, KAT_ENTROPY, data_dir, rsp::to_hex};

use crate::backend::Portable;
use crate::params::{Hqc1, Hqc1V5, Hqc3, Hqc3V5, Hqc5, Hqc5V5, MAX_K, MAX_WEIGHT, ParameterSet};
use crate::sampling::{
    Xof, sample_fixed_weight_rejection, sample_fixed_weight_shift, sample_uniform, write_support,
};
use crate::{code, gf2x, kem};

/// `(section, label, lowercase hex)` triples of a trace.
struct Trace(Vec<(String, String, String)>);

impl Trace {
    fn load(rel: &str) -> Option<Self> {
        let dir = data_dir()?;
        let text = std::fs::read_to_string(dir.join(rel)).expect("read trace");
        let mut section = String::new();
        let mut out = Vec::new();
        for line in text.lines() {
            if line.starts_with("###") {
                section = line.trim_matches(|c| c == '#' || c == ' ').into();
            } else if let Some((k, v)) = line.split_once(": ") {
                out.push((section.clone(), k.trim().into(), v.trim().into()));
            }
        }
        Some(Self(out))
    }

    fn get(&self, section: &str, label: &str) -> &str {
        self.0
            .iter()
            .find(|(s, k, _)| s == section && k == label)
            .map_or_else(
                || panic!("no `{label}` in {section}"),
                |(_, _, v)| v.as_str(),
            )
    }
}

/// Compares without dumping kilobytes of hex on failure.
#[track_caller]
fn same(ours: &str, theirs: &str) {
    if ours != theirs {
        let i = ours
            .bytes()
            .zip(theirs.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        panic!(
            "differs at hex digit {i} (lengths {} / {})",
            ours.len(),
            theirs.len()
        );
    }
}

fn hex(b: &[u8]) -> String {
    to_hex(b).to_lowercase()
}

fn poly_hex<P: ParameterSet>(p: &P::Poly, bytes: usize) -> String {
    let mut b = std::vec![0u8; bytes];
    gf2x::store(&mut b, p.as_ref());
    hex(&b)
}

fn check<P: ParameterSet>(rel: &str) {
    let Some(t) = Trace::load(rel) else {
        std::eprintln!("skipping {rel}: no test data");
        return;
    };
    let (kg, en, de) = ("KEYGEN", "ENCAPS", "DECAPS");
    let mut prng = HqcPrng::new(&KAT_ENTROPY);
    let mut seed_kem = [0u8; 32];
    prng.fill(&mut seed_kem);
    same(&hex(&seed_kem), t.get(kg, "seed_kem"));

    // Key generation, step by step.
    let (ek, dk) = kem::keygen_derand::<P, Portable>(&seed_kem);
    let skb: &[u8] = dk.as_ref();
    let seed_dk = &skb[P::ENCAPS_KEY_BYTES..P::ENCAPS_KEY_BYTES + 32];
    let seed_ek = &ek.as_ref()[..32];
    same(&hex(seed_dk), t.get(kg, "seed_dk"));
    same(&hex(seed_ek), t.get(kg, "seed_ek"));
    same(
        &hex(&skb[P::ENCAPS_KEY_BYTES + 32..P::ENCAPS_KEY_BYTES + 32 + P::K]),
        t.get(kg, "sigma"),
    );
    let mut xof = Xof::new(seed_dk, P::REVISION);
    let (mut y, mut x, mut h) = (P::POLY_ZERO, P::POLY_ZERO, P::POLY_ZERO);
    let mut sup = [0 as crate::params::Pos; MAX_WEIGHT];
    sample_fixed_weight_rejection::<P>(&mut xof, &mut sup[..P::OMEGA]);
    write_support::<Portable>(y.as_mut(), &sup[..P::OMEGA]);
    sample_fixed_weight_rejection::<P>(&mut xof, &mut sup[..P::OMEGA]);
    write_support::<Portable>(x.as_mut(), &sup[..P::OMEGA]);
    same(&poly_hex::<P>(&y, P::N_BYTES), t.get(kg, "y"));
    same(&poly_hex::<P>(&x, P::N_BYTES), t.get(kg, "x"));
    sample_uniform::<P>(&mut Xof::new(seed_ek, P::REVISION), h.as_mut());
    same(&poly_hex::<P>(&h, P::N_BYTES), t.get(kg, "h"));
    same(&hex(&ek.as_ref()[32..]), t.get(kg, "s"));

    // Encapsulation.
    let mut m = [0u8; MAX_K];
    let mut salt = [0u8; 16];
    prng.fill(&mut m[..P::K]);
    prng.fill(&mut salt);
    let m = &m[..P::K];
    same(&hex(m), t.get(en, "m"));
    same(&hex(&salt), t.get(en, "salt"));
    let cw = code::rs_codeword::<P>(m);
    same(&hex(&cw[..P::N1]), t.get(en, "Reed-Solomon code word"));
    let mut enc = P::POLY_ZERO;
    code::encode_xor::<P>(enc.as_mut(), m);
    same(
        &poly_hex::<P>(&enc, P::V_BYTES),
        t.get(en, "Concatenated code word"),
    );
    let theta = pqforge_core::kat::rsp::from_hex(t.get(en, "theta")).expect("hex");
    let mut xof = Xof::new(&theta, P::REVISION);
    let (mut r1, mut r2, mut e) = (P::POLY_ZERO, P::POLY_ZERO, P::POLY_ZERO);
    sample_fixed_weight_shift::<P>(&mut xof, &mut sup[..P::OMEGA_R]);
    write_support::<Portable>(r2.as_mut(), &sup[..P::OMEGA_R]);
    sample_fixed_weight_shift::<P>(&mut xof, &mut sup[..P::OMEGA_E]);
    write_support::<Portable>(e.as_mut(), &sup[..P::OMEGA_E]);
    sample_fixed_weight_shift::<P>(&mut xof, &mut sup[..P::OMEGA_R]);
    write_support::<Portable>(r1.as_mut(), &sup[..P::OMEGA_R]);
    same(&poly_hex::<P>(&r2, P::N_BYTES), t.get(en, "r2"));
    same(&poly_hex::<P>(&e, P::N_BYTES), t.get(en, "e"));
    same(&poly_hex::<P>(&r1, P::N_BYTES), t.get(en, "r1"));
    let (ct, k) = kem::encaps_derand::<P, Portable>(&ek, m, &salt);
    same(&hex(ct.as_ref()), t.get(en, "c_kem"));
    same(&hex(&k), t.get(en, "K"));

    // Decapsulation: the RM decoder output and the final key.
    let mut s_r2 = P::POLY_ZERO;
    let mut scratch = P::SCRATCH_ZERO;
    let mut u = P::POLY_ZERO;
    gf2x::load(u.as_mut(), &ct.as_ref()[..P::N_BYTES], P::N);
    gf2x::mul_mod::<Portable>(
        s_r2.as_mut(),
        u.as_ref(),
        y.as_ref(),
        P::N,
        scratch.as_mut(),
    );
    same(
        &poly_hex::<P>(&s_r2, P::V_BYTES),
        t.get(de, "Truncate(u.y)"),
    );
    let mut v = P::POLY_ZERO;
    gf2x::load(
        v.as_mut(),
        &ct.as_ref()[P::N_BYTES..P::N_BYTES + P::V_BYTES],
        P::N1N2,
    );
    gf2x::add_assign(v.as_mut(), s_r2.as_ref());
    same(
        &poly_hex::<P>(&v, P::V_BYTES),
        t.get(de, "v - Truncate(u.y)"),
    );
    let rm = code::rm_decode_all::<P>(v.as_ref());
    assert_eq!(
        hex(&rm[..P::N1]),
        t.get(
            de,
            "Reed-Muller decoding result (the input for the Reed-Solomon decoding algorithm)"
        )
    );
    let mut k2 = [0u8; 32];
    kem::decaps::<P, Portable>(dk.as_ref(), ct.as_ref(), &mut k2);
    same(&hex(&k2), t.get(de, "K_prime"));
}

#[test]
#[cfg_attr(miri, ignore = "reads ../shared (Miri: no files)")]
fn next_release_hqc1() {
    check::<Hqc1>("kat/hqc/next-release_161cd4f_2026-02-10/hqc-1/intermediates_values");
}

#[test]
#[cfg_attr(miri, ignore = "reads ../shared (Miri: no files)")]
fn next_release_hqc3() {
    check::<Hqc3>("kat/hqc/next-release_161cd4f_2026-02-10/hqc-3/intermediates_values");
}

#[test]
#[cfg_attr(miri, ignore = "reads ../shared (Miri: no files)")]
fn next_release_hqc5() {
    check::<Hqc5>("kat/hqc/next-release_161cd4f_2026-02-10/hqc-5/intermediates_values");
}

#[test]
#[cfg_attr(miri, ignore = "reads ../shared (Miri: no files)")]
fn v5_hqc1() {
    check::<Hqc1V5>("kat/hqc/v5.0.0_2025-08-22/hqc-1/intermediates_values");
}

#[test]
#[cfg_attr(miri, ignore = "reads ../shared (Miri: no files)")]
fn v5_hqc3() {
    check::<Hqc3V5>("kat/hqc/v5.0.0_2025-08-22/hqc-3/intermediates_values");
}

#[test]
#[cfg_attr(miri, ignore = "reads ../shared (Miri: no files)")]
fn v5_hqc5() {
    check::<Hqc5V5>("kat/hqc/v5.0.0_2025-08-22/hqc-5/intermediates_values");
}
