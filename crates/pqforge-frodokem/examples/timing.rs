//! Rough timings of key generation, encapsulation and decapsulation per
//! set and backend (`cargo run --release -p pqforge-frodokem --example
//! timing`): median of a few runs, in microseconds; then the row
//! generation and the two products alone.

use std::time::Instant;

use pqforge_frodokem::testing::{self, Backend};
use pqforge_frodokem::{
    EFrodoKem640Aes, FrodoKem640Aes, FrodoKem640Shake, FrodoKem976Aes, FrodoKem976Shake,
    FrodoKem1344Aes, FrodoKem1344Shake, ParameterSet,
};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn time<P: ParameterSet>(name: &str, b: Backend, reps: usize) {
    let seed = vec![7u8; P::KEYGEN_SEED_BYTES];
    let m = vec![9u8; P::ENCAPS_SEED_BYTES];
    let (mut ek, mut dk) = (vec![0u8; P::EK_BYTES], vec![0u8; P::DK_BYTES]);
    let (mut ct, mut ss) = (vec![0u8; P::CT_BYTES], vec![0u8; P::LEN_SEC]);
    let (mut tk, mut te, mut td) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..reps {
        let t = Instant::now();
        testing::keygen_derand::<P>(b, &seed, &mut ek, &mut dk).expect("backend available");
        tk.push(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        testing::encaps_derand::<P>(b, &ek, &m, &mut ct, &mut ss).expect("backend available");
        te.push(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        testing::decaps::<P>(b, &dk, &ct, &mut ss).expect("backend available");
        td.push(t.elapsed().as_secs_f64() * 1e6);
    }
    println!(
        "{name:22} {:9} keygen {:9.0} us  encaps {:9.0} us  decaps {:9.0} us",
        b.name(),
        median(tk),
        median(te),
        median(td)
    );
}

/// Time of the whole A·S product's pieces for set `P`: all n/4 row
/// generations, all n/4 `mul_as` and all n/4 `mul_sa` calls, in
/// microseconds.
fn kernels<P: ParameterSet>(name: &str, b: Backend) {
    use testing::Kernel;
    let n = P::N;
    let seed = [3u8; 16];
    let a = vec![5u16; 4 * n];
    let s = vec![7u16; 8 * n];
    let mut rows = vec![0u16; 4 * n];
    let mut acc = vec![0u16; 8 * n];
    let mut o = vec![0u16; 32];
    let t = Instant::now();
    for r0 in (0..n).step_by(4) {
        testing::kernel::<P>(b, Kernel::Rows { seed_a: &seed, r0 }, &mut rows).expect("available");
    }
    let tr = t.elapsed().as_secs_f64() * 1e6;
    let t = Instant::now();
    for _ in (0..n).step_by(4) {
        testing::kernel::<P>(b, Kernel::MulAs { a: &a, st: &s }, &mut o).expect("available");
    }
    let ta = t.elapsed().as_secs_f64() * 1e6;
    let t = Instant::now();
    for r0 in (0..n).step_by(4) {
        testing::kernel::<P>(b, Kernel::MulSa { a: &a, s: &s, r0 }, &mut acc).expect("available");
    }
    let ts = t.elapsed().as_secs_f64() * 1e6;
    println!(
        "{name:22} {:9} kernels: rows of A {tr:7.0} us  A·S {ta:6.0} us  S'·A {ts:6.0} us",
        b.name()
    );
}

fn main() {
    let reps = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(11);
    for b in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        time::<FrodoKem640Aes>("frodokem-640-aes", b, reps);
        time::<FrodoKem640Shake>("frodokem-640-shake", b, reps);
        time::<FrodoKem976Aes>("frodokem-976-aes", b, reps);
        time::<FrodoKem976Shake>("frodokem-976-shake", b, reps);
        time::<FrodoKem1344Aes>("frodokem-1344-aes", b, reps);
        time::<FrodoKem1344Shake>("frodokem-1344-shake", b, reps);
        time::<EFrodoKem640Aes>("efrodokem-640-aes", b, reps);
    }
    for b in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        kernels::<FrodoKem640Aes>("frodokem-640-aes", b);
        kernels::<FrodoKem640Shake>("frodokem-640-shake", b);
        kernels::<FrodoKem1344Aes>("frodokem-1344-aes", b);
    }
}
