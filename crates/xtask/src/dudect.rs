//! `cargo xtask dudect`: a statistical timing test (dudect, Reparaz, Balasch
//! and Verbauwhede, DATE 2017) for code that valgrind cannot check: HQC's
//! AVX-512 backend (valgrind 3.19 has no AVX-512).
//!
//! Each target times one operation on two classes of input, interleaved in
//! a random order. Welch's t statistic compares the two timing
//! distributions, on all measurements and on measurements cropped at
//! several upper percentiles (cropping removes the long tail of interrupts
//! and preemption). A |t| above [`T_LEAK`] means the timing depends on the
//! input class: a leak.
//!
//! Both classes are fresh inputs at every measurement, drawn from two
//! distributions that differ only in the secret property under test. The
//! textbook "one fixed input against random inputs" is not used: on the
//! AVX-512 machine here it flags even two classes of honest ciphertexts
//! (one fixed, one fresh), |t| 12 to 37 in some processes and 1 to 3 in
//! others (the AVX2 backend stays below 3). The cause is the repeated
//! public bytes, not a secret: ciphertexts of one fixed message with
//! fresh salts against ciphertexts of fresh messages (the secret differs,
//! the public bytes are fresh in both) stay below 3.5 in the same
//! processes. Fresh inputs in both classes keep public-data effects out of
//! the verdict.
//!
//! Targets:
//! * `hqc-N-decaps`: decapsulation on the AVX-512 backend, fixed key;
//!   fresh honest ciphertexts (accepted) against fresh random ciphertexts
//!   (rejected, the decoder facing a random word). Secret: the decoded
//!   message, how far it is from a codeword and whether it re-encrypts
//!   (implicit rejection).
//! * `hqc-N-mul`: the AVX-512 ring product `a * b mod X^n - 1` with a
//!   secret `a`: fresh sparse elements (the weight of a secret key vector,
//!   mostly zero words) against fresh dense random elements (a
//!   data-dependent shortcut in VPCLMULQDQ or in the Karatsuba code would
//!   show).
//! * `control-early-exit` and `control-hqc-1-fo-compare` (negative
//!   controls, always run): an early-exit comparison of a 64-byte secret
//!   with a reference (equal against random), and HQC-1 decapsulation
//!   followed by an early-exit comparison of the ciphertext with its
//!   re-encryption (honest: the whole 4433 bytes are compared; random: the
//!   first byte differs; a leak of about 1 µs in 30 µs). Both MUST be
//!   flagged, otherwise the timer or the statistics cannot see a leak of
//!   that size and the run fails.
//!
//! On a CPU without AVX-512 VPCLMULQDQ the HQC targets print "not
//! available" (they are not a failure); the control still runs.
//!
//! Noise: the machines are shared, so a clean target can show a moderate t
//! on a bad run; [`T_LEAK`] = 10 is dudect's "probably not constant time"
//! level, far above the |t| of about 1 to 3 a clean target gives here. A
//! burst of noise on the host can still push one short measurement past it
//! (seen once: HQC-1's ring product, 0.5 s of samples, |t| = 19, then 2.7
//! when measured again), so a target that leaks is measured again with
//! fresh samples, up to [`ATTEMPTS`] times in all, and fails only if every
//! measurement leaks: a real leak of the size the controls show (|t| in
//! the hundreds) leaks every time. The controls are measured once.

use std::hint::black_box;
use std::time::Instant;

use pqforge::ByteArray;
use pqforge::hqc::testing::{self, Backend};
use pqforge::hqc::{Hqc1, Hqc3, Hqc5, ParameterSet};

/// |t| above which a target counts as leaking.
const T_LEAK: f64 = 10.0;
/// Measurements of a (non-control) target before it counts as leaking.
const ATTEMPTS: usize = 3;

/// Welford accumulator of one class.
#[derive(Clone, Copy, Default)]
struct Moments {
    n: f64,
    mean: f64,
    m2: f64,
}

impl Moments {
    fn push(&mut self, x: f64) {
        self.n += 1.0;
        let d = x - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (x - self.mean);
    }

    fn var(&self) -> f64 {
        if self.n < 2.0 {
            0.0
        } else {
            self.m2 / (self.n - 1.0)
        }
    }
}

/// Welch's t of two classes (0 while either class has too few samples).
fn welch_t(a: &Moments, b: &Moments) -> f64 {
    if a.n < 100.0 || b.n < 100.0 {
        return 0.0;
    }
    let se = (a.var() / a.n + b.var() / b.n).sqrt();
    if se == 0.0 {
        return 0.0;
    }
    (a.mean - b.mean) / se
}

/// The largest |t| over the uncropped test and the tests cropped at the
/// dudect percentiles `1 - 0.5^(10 (i + 1) / CROPS)`; also the number of
/// measurements per class.
fn max_t(samples: &[(u8, f64)]) -> (f64, usize, usize) {
    const CROPS: usize = 20;
    let mut sorted: Vec<f64> = samples.iter().map(|s| s.1).collect();
    sorted.sort_by(f64::total_cmp);
    let mut limits = vec![f64::INFINITY];
    for i in 0..CROPS {
        let p = 1.0 - 0.5f64.powf(10.0 * (i as f64 + 1.0) / CROPS as f64);
        let k = ((sorted.len() as f64 * p) as usize).min(sorted.len() - 1);
        limits.push(sorted[k]);
    }
    let mut best = 0.0f64;
    for lim in limits {
        let mut m = [Moments::default(); 2];
        for &(c, x) in samples {
            if x <= lim {
                m[usize::from(c)].push(x);
            }
        }
        let t = welch_t(&m[0], &m[1]);
        if t.abs() > best.abs() {
            best = t;
        }
    }
    let n0 = samples.iter().filter(|s| s.0 == 0).count();
    (best, n0, samples.len() - n0)
}

/// xorshift64*: class choice and random inputs (not cryptographic; the
/// inputs only need to differ).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn fill(&mut self, b: &mut [u8]) {
        for ch in b.chunks_mut(8) {
            let w = self.next().to_le_bytes();
            ch.copy_from_slice(&w[..ch.len()]);
        }
    }
}

/// Runs `measure` `n` times in batches: per batch, `prepare` draws the
/// class (at random) and builds its input, then every input is timed.
fn collect<I>(
    n: usize,
    rng: &mut Rng,
    mut prepare: impl FnMut(&mut Rng, u8) -> I,
    mut measure: impl FnMut(&I),
) -> Vec<(u8, f64)> {
    const BATCH: usize = 1000;
    let mut out = Vec::with_capacity(n);
    // Warm-up: caches, branch predictors, clock frequency.
    for c in [0u8, 1] {
        let x = prepare(rng, c);
        for _ in 0..50 {
            measure(&x);
        }
    }
    while out.len() < n {
        let m = BATCH.min(n - out.len());
        let inputs: Vec<(u8, I)> = (0..m)
            .map(|_| {
                let c = (rng.next() >> 63) as u8;
                (c, prepare(rng, c))
            })
            .collect();
        for (c, x) in &inputs {
            let t0 = Instant::now();
            measure(x);
            let dt = t0.elapsed();
            out.push((*c, dt.as_nanos() as f64));
        }
    }
    out
}

/// Outcome of one target.
enum Verdict {
    /// |t| and the class sizes.
    Measured(f64, usize, usize),
    /// The backend is missing on this CPU.
    NotAvailable,
}

fn hqc_decaps<P: ParameterSet>(n: usize, rng: &mut Rng) -> Verdict {
    let b = Backend::Avx512;
    let mut seed = [0u8; 32];
    rng.fill(&mut seed);
    let Some((ek, dk)) = testing::keygen_derand::<P>(b, &seed) else {
        return Verdict::NotAvailable;
    };
    let samples = collect(
        n,
        rng,
        |r, c| {
            if c == 0 {
                honest_ct::<P>(b, &ek, r)
            } else {
                random_ct::<P>(r)
            }
        },
        |ct| {
            black_box(testing::decaps::<P>(b, &dk, black_box(ct)));
        },
    );
    let (t, n0, n1) = max_t(&samples);
    Verdict::Measured(t, n0, n1)
}

/// A fresh honest ciphertext to `ek` (encapsulation seed from `r`).
fn honest_ct<P: ParameterSet>(b: Backend, ek: &P::EkBytes, r: &mut Rng) -> P::CtBytes {
    let mut m_salt = P::EncapsSeed::zeroed();
    r.fill(m_salt.as_mut());
    testing::encaps_derand::<P>(b, ek, &m_salt)
        .expect("the backend ran keygen")
        .0
}

/// Fresh random ciphertext bytes (rejected by decapsulation).
fn random_ct<P: ParameterSet>(r: &mut Rng) -> P::CtBytes {
    let mut ct = P::CtBytes::zeroed();
    r.fill(ct.as_mut());
    ct
}

fn hqc_mul<P: ParameterSet>(n: usize, rng: &mut Rng) -> Verdict {
    let b = Backend::Avx512;
    let words = P::WORDS;
    let top = P::N % 64;
    let dense = |r: &mut Rng| {
        let mut v: Vec<u64> = (0..words).map(|_| r.next()).collect();
        if top != 0 {
            v[words - 1] &= (1u64 << top) - 1;
        }
        v
    };
    // Positions may repeat (a slightly lower weight): only sparseness
    // matters here. Every word is written (not `vec![0; words]`: a zeroed
    // allocation may come straight from untouched memory, so the sparse
    // class would be measured out of cache, or with page faults, and the
    // dense one from cache: a difference of memory residency, not of data,
    // which depends on the heap's state in each process).
    let sparse = |r: &mut Rng| {
        let mut v: Vec<u64> = (0..words).map(|_| black_box(0u64)).collect();
        for _ in 0..P::OMEGA {
            let pos = (r.next() % P::N as u64) as usize;
            v[pos / 64] |= 1 << (pos % 64);
        }
        v
    };
    let pub_b = dense(rng);
    let mut out = vec![0u64; words];
    if testing::mul_mod::<P>(b, &pub_b, &pub_b, &mut out).is_none() {
        return Verdict::NotAvailable;
    }
    let samples = collect(
        n,
        rng,
        |r, c| if c == 0 { sparse(r) } else { dense(r) },
        |a| {
            black_box(testing::mul_mod::<P>(b, black_box(a), &pub_b, &mut out));
        },
    );
    let (t, n0, n1) = max_t(&samples);
    Verdict::Measured(t, n0, n1)
}

/// The negative control's leak: stops at the first difference.
#[inline(never)]
fn early_exit_eq(a: &[u8; 64], b: &[u8; 64]) -> bool {
    for i in 0..64 {
        if black_box(a[i]) != b[i] {
            return false;
        }
    }
    true
}

/// Negative control at the scale of a real target: HQC-1 decapsulation
/// (AVX-512, or AVX2 where the CPU has no AVX-512) followed by the classic
/// FO mistake, an early-exit comparison of the received ciphertext with
/// its re-encryption. The classes are those of `hqc-1-decaps`; the
/// re-encryption of an honest ciphertext is itself (all 4433 bytes are
/// compared), that of a random one is another ciphertext (it differs at
/// once).
fn control_decaps(n: usize, rng: &mut Rng) -> Verdict {
    let b = if Backend::Avx512.is_available() {
        Backend::Avx512
    } else {
        Backend::Avx2
    };
    let mut seed = [0u8; 32];
    rng.fill(&mut seed);
    let Some((ek, dk)) = testing::keygen_derand::<Hqc1>(b, &seed) else {
        return Verdict::NotAvailable;
    };
    let samples = collect(
        n,
        rng,
        |r, c| {
            let honest = honest_ct::<Hqc1>(b, &ek, r);
            if c == 0 {
                (honest, honest)
            } else {
                (random_ct::<Hqc1>(r), honest)
            }
        },
        |(ct, reenc)| {
            black_box(testing::decaps::<Hqc1>(b, &dk, black_box(ct)));
            let mut eq = true;
            for (x, y) in ct.as_ref().iter().zip(reenc.as_ref()) {
                if black_box(*x) != *y {
                    eq = false;
                    break;
                }
            }
            black_box(eq);
        },
    );
    let (t, n0, n1) = max_t(&samples);
    Verdict::Measured(t, n0, n1)
}

fn control(n: usize, rng: &mut Rng) -> Verdict {
    let mut reference = [0u8; 64];
    rng.fill(&mut reference);
    let samples = collect(
        n,
        rng,
        |r, c| {
            let mut s = reference;
            if c == 1 {
                r.fill(&mut s);
            }
            s
        },
        |s| {
            black_box(early_exit_eq(black_box(s), &reference));
        },
    );
    let (t, n0, n1) = max_t(&samples);
    Verdict::Measured(t, n0, n1)
}

/// A target: name, what must happen, the function, default measurements.
type Target = (&'static str, bool, fn(usize, &mut Rng) -> Verdict, usize);

const TARGETS: [Target; 8] = [
    ("hqc-1-decaps", false, hqc_decaps::<Hqc1>, 40_000),
    ("hqc-3-decaps", false, hqc_decaps::<Hqc3>, 20_000),
    ("hqc-5-decaps", false, hqc_decaps::<Hqc5>, 20_000),
    ("hqc-1-mul", false, hqc_mul::<Hqc1>, 100_000),
    ("hqc-3-mul", false, hqc_mul::<Hqc3>, 50_000),
    ("hqc-5-mul", false, hqc_mul::<Hqc5>, 50_000),
    ("control-early-exit", true, control, 200_000),
    ("control-hqc-1-fo-compare", true, control_decaps, 80_000),
];

const USAGE: &str = "\
usage: cargo xtask dudect [--filter S] [--scale X] [--list]

Fixed-vs-random timing test (Welch's t, dudect) of HQC's AVX-512 backend,
which valgrind cannot run, with a negative control that must be flagged.
  --filter S   targets whose name contains S (the control always runs)
  --scale X    measurements per target times X (default 1; 10 for a long run)
  --list       print the targets
exit status: 0 no leak and the control flagged, 1 a leak or a missed
control, 2 bad usage";

/// Entry point: `args` after `dudect`. Exit code 0, 1 or 2.
pub(crate) fn main(args: &[String]) -> u8 {
    let mut filter = None;
    let mut scale = 1.0f64;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--filter" => match it.next() {
                Some(v) => filter = Some(v.clone()),
                None => return usage("--filter needs a value"),
            },
            "--scale" => match it.next().and_then(|v| v.parse::<f64>().ok()) {
                Some(v) if (0.01..=1000.0).contains(&v) => scale = v,
                _ => return usage("--scale needs a number from 0.01 to 1000"),
            },
            "--list" => {
                for t in TARGETS {
                    println!("{}", t.0);
                }
                return 0;
            }
            "-h" | "--help" => return usage(""),
            other => return usage(&format!("unknown option {other:?}")),
        }
    }
    let chosen: Vec<&Target> = TARGETS
        .iter()
        .filter(|t| t.1 || filter.as_deref().is_none_or(|f| t.0.contains(f)))
        .collect();
    if !chosen.iter().any(|t| !t.1) {
        eprintln!(
            "dudect: no target matches --filter {}",
            filter.as_deref().unwrap_or("")
        );
        return 1;
    }
    println!("dudect: fixed-vs-random Welch t, leak when |t| > {T_LEAK} (HQC backend: avx512)");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ u64::from(std::process::id()));
    let mut failed = 0;
    let mut measured = 0;
    for &&(name, must_flag, f, n) in &chosen {
        let n = ((n as f64 * scale) as usize).max(1000);
        let t0 = Instant::now();
        let mut v = f(n, &mut rng);
        let mut attempt = 1;
        while !must_flag && attempt < ATTEMPTS {
            let Verdict::Measured(t, ..) = v else { break };
            if t.abs() <= T_LEAK {
                break;
            }
            println!(
                "  {name:<26} |t| = {:>7.2}  leak on measurement {attempt}: measuring again",
                t.abs()
            );
            v = f(n, &mut rng);
            attempt += 1;
        }
        let secs = t0.elapsed().as_secs_f64();
        match v {
            Verdict::NotAvailable => {
                println!("  {name:<26} not available (this CPU has no AVX-512 VPCLMULQDQ)");
            }
            Verdict::Measured(t, n0, n1) => {
                let leak = t.abs() > T_LEAK;
                let ok = leak == must_flag;
                if !must_flag {
                    measured += 1;
                }
                if !ok {
                    failed += 1;
                }
                let what = match (must_flag, leak) {
                    (false, false) => "no leak",
                    (false, true) => "LEAK",
                    (true, true) => "flagged (control)",
                    (true, false) => "NOT FLAGGED (control)",
                };
                println!(
                    "  {name:<26} |t| = {:>7.2}  {what:<22} {} {n0} + {n1} measurements, {secs:.1} s",
                    t.abs(),
                    if ok { "ok  " } else { "FAIL" },
                );
            }
        }
    }
    println!("dudect: {measured} targets measured, {failed} failed");
    u8::from(failed > 0)
}

fn usage(msg: &str) -> u8 {
    if !msg.is_empty() {
        eprintln!("dudect: {msg}");
    }
    eprintln!("{USAGE}");
    2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welch_separates_shifted_classes() {
        let mut r = Rng(1);
        let same: Vec<(u8, f64)> = (0..20_000)
            .map(|_| ((r.next() >> 63) as u8, (r.next() % 1000) as f64))
            .collect();
        assert!(max_t(&same).0.abs() < T_LEAK);
        let shifted: Vec<(u8, f64)> = (0..20_000)
            .map(|_| {
                let c = (r.next() >> 63) as u8;
                (c, (r.next() % 1000) as f64 + 50.0 * f64::from(c))
            })
            .collect();
        assert!(max_t(&shifted).0.abs() > T_LEAK);
    }
}
