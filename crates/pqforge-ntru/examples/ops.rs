//! Runs one operation many times on one backend, for `perf stat` cycle
//! counts on a busy machine (wall-clock benchmarks are noisy there):
//! `cargo run --release -p pqforge-ntru --example ops -- <set> <backend> <op> <iterations>`
//! with set one of the registry names, backend `portable` or `avx2`, op
//! `keygen`, `encaps`, `decaps` or `mul`.

use pqforge_core::ByteArray;
use pqforge_ntru::testing::{self, Backend};
use pqforge_ntru::{
    NtruHps2048509, NtruHps2048677, NtruHps4096821, NtruHps40961229, NtruHrss701, NtruHrss1373,
    ParameterSet,
};

fn run<P: ParameterSet>(be: Backend, op: &str, iters: usize) {
    let mut seed = P::KeygenSeed::zeroed();
    for (i, x) in seed.as_mut().iter_mut().enumerate() {
        *x = (i as u8).wrapping_mul(73).wrapping_add(11);
    }
    let (ek, dk) = testing::keygen_derand::<P>(be, &seed).expect("backend available");
    let mut m = P::EncapsSeed::zeroed();
    for (i, x) in m.as_mut().iter_mut().enumerate() {
        *x = (i as u8).wrapping_mul(29).wrapping_add(5);
    }
    let (ct, _) = testing::encaps_derand::<P>(be, &ek, &m).expect("available");
    let x = P::POLY_ZERO;
    let mut acc = 0u8;
    for _ in 0..iters {
        match op {
            "keygen" => {
                acc ^= testing::keygen_derand::<P>(be, &seed)
                    .expect("a")
                    .0
                    .as_ref()[0];
            }
            "encaps" => acc ^= testing::encaps_derand::<P>(be, &ek, &m).expect("a").1[0],
            "decaps" => acc ^= testing::decaps::<P>(be, &dk, &ct).expect("a")[0],
            "mul" => {
                acc ^= testing::ring_mul::<P>(be, &x, std::hint::black_box(&x))
                    .expect("a")
                    .as_ref()[0] as u8;
            }
            _ => panic!("unknown op {op}"),
        }
    }
    println!("{} {} {op} x{iters}: {acc}", P::INFO.name, be.name());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let be = match args.get(2).map(String::as_str) {
        Some("avx2") => Backend::Avx2,
        _ => Backend::Portable,
    };
    let op = args.get(3).map_or("keygen", String::as_str);
    let iters = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(100);
    match args.get(1).map_or("ntru-hrss-701", String::as_str) {
        "ntru-hps-2048-509" => run::<NtruHps2048509>(be, op, iters),
        "ntru-hps-2048-677" => run::<NtruHps2048677>(be, op, iters),
        "ntru-hps-4096-821" => run::<NtruHps4096821>(be, op, iters),
        "ntru-hps-4096-1229" => run::<NtruHps40961229>(be, op, iters),
        "ntru-hrss-701" => run::<NtruHrss701>(be, op, iters),
        "ntru-hrss-1373" => run::<NtruHrss1373>(be, op, iters),
        other => panic!("unknown set {other}"),
    }
}
