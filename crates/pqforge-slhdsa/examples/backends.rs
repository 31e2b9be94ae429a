//! Times slh_keygen/sign/verify_internal on each backend (minimum over the
//! iterations, in µs), optionally with AVX-512 turned off so that core's
//! primitives take their AVX2 paths (the CLI bench has no such switch).
//!
//! ```text
//! cargo run --release -p pqforge-slhdsa --example backends -- [FILTER] [ITERS] [--no-avx512] [--avx2-only]
//! ```

use std::time::Instant;

use pqforge_slhdsa::hazmat::{
    slh_keygen_internal_on, slh_sign_internal_on, slh_verify_internal_on,
};
use pqforge_slhdsa::{
    Backend, ParameterSet, SlhDsaSha2_128f, SlhDsaSha2_128s, SlhDsaSha2_192f, SlhDsaSha2_192s,
    SlhDsaSha2_256f, SlhDsaSha2_256s, SlhDsaShake128f, SlhDsaShake128s, SlhDsaShake192f,
    SlhDsaShake192s, SlhDsaShake256f, SlhDsaShake256s,
};

fn min_us(iters: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..iters {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64() * 1e6);
    }
    best
}

fn set<P: ParameterSet>(filter: &str, iters: usize, backends: &[Backend]) {
    if !P::NAME.contains(filter) {
        return;
    }
    let n = P::N;
    let seed: Vec<u8> = (0..3 * n as u8).collect();
    let (sk_seed, rest) = seed.split_at(n);
    let (sk_prf, pk_seed) = rest.split_at(n);
    for &b in backends {
        if !b.is_available() {
            continue;
        }
        // The s sets sign in seconds on the portable backend.
        let it = if b == Backend::Portable || P::NAME.ends_with('s') {
            iters.div_ceil(10)
        } else {
            iters
        };
        let (mut sk, mut pk) = (vec![0u8; P::SK_BYTES], vec![0u8; P::PK_BYTES]);
        let kg = min_us(it, || {
            slh_keygen_internal_on::<P>(b, sk_seed, sk_prf, pk_seed, &mut sk, &mut pk)
                .expect("lengths")
                .expect("backend");
        });
        let mut sig = vec![0u8; P::SIG_BYTES];
        let sg = min_us(it, || {
            slh_sign_internal_on::<P>(b, &[b"message"], &sk, pk_seed, &mut sig)
                .expect("lengths")
                .expect("backend");
        });
        let vf = min_us(iters * 5, || {
            let ok = slh_verify_internal_on::<P>(b, &[b"message"], &sig, &pk);
            assert_eq!(ok, Some(true));
        });
        println!(
            "| {} | {} | {kg:.0} | {sg:.0} | {vf:.0} |",
            P::NAME,
            b.name()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| a.starts_with("--"))
        .collect();
    let pos: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let filter = pos.first().copied().unwrap_or("");
    let iters = pos.get(1).map_or(10, |s| s.parse().expect("ITERS"));
    if flags.contains(&"--no-avx512") {
        pqforge_core::cpu::disable_avx512();
    }
    let backends: &[Backend] = if flags.contains(&"--avx2-only") {
        &[Backend::Avx2]
    } else {
        &Backend::ALL
    };
    println!("| set | backend | keygen µs | sign µs | verify µs |");
    println!("|---|---|---:|---:|---:|");
    set::<SlhDsaSha2_128s>(filter, iters, backends);
    set::<SlhDsaSha2_128f>(filter, iters, backends);
    set::<SlhDsaSha2_192s>(filter, iters, backends);
    set::<SlhDsaSha2_192f>(filter, iters, backends);
    set::<SlhDsaSha2_256s>(filter, iters, backends);
    set::<SlhDsaSha2_256f>(filter, iters, backends);
    set::<SlhDsaShake128s>(filter, iters, backends);
    set::<SlhDsaShake128f>(filter, iters, backends);
    set::<SlhDsaShake192s>(filter, iters, backends);
    set::<SlhDsaShake192f>(filter, iters, backends);
    set::<SlhDsaShake256s>(filter, iters, backends);
    set::<SlhDsaShake256f>(filter, iters, backends);
}
