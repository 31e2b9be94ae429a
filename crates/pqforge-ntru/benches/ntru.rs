//! Criterion benchmarks per parameter set and backend, ids like
//! `ntru-hrss-701/avx2/keygen`:
//! `cargo bench -p pqforge-ntru --bench ntru`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pqforge_core::ByteArray;
use pqforge_ntru::testing::{self, Backend};
use pqforge_ntru::{
    NtruHps2048509, NtruHps2048677, NtruHps4096821, NtruHps40961229, NtruHrss701, NtruHrss1373,
    ParameterSet,
};

fn bench_set<P: ParameterSet>(c: &mut Criterion) {
    let name = P::INFO.name;
    for be in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        let b = be.name();
        let mut seed = P::KeygenSeed::zeroed();
        for (i, x) in seed.as_mut().iter_mut().enumerate() {
            *x = (i as u8).wrapping_mul(73).wrapping_add(11);
        }
        let (ek, dk) = testing::keygen_derand::<P>(be, &seed).expect("available");
        let mut m = P::EncapsSeed::zeroed();
        for (i, x) in m.as_mut().iter_mut().enumerate() {
            *x = (i as u8).wrapping_mul(29).wrapping_add(5);
        }
        let (ct, _) = testing::encaps_derand::<P>(be, &ek, &m).expect("available");
        c.bench_function(&format!("{name}/{b}/keygen"), |bn| {
            bn.iter(|| testing::keygen_derand::<P>(be, black_box(&seed)));
        });
        c.bench_function(&format!("{name}/{b}/encaps"), |bn| {
            bn.iter(|| testing::encaps_derand::<P>(be, black_box(&ek), &m));
        });
        c.bench_function(&format!("{name}/{b}/decaps"), |bn| {
            bn.iter(|| testing::decaps::<P>(be, black_box(&dk), black_box(&ct)));
        });
        let mut x = P::POLY_ZERO;
        let mut y = P::POLY_ZERO;
        for (i, (a, b)) in x.as_mut().iter_mut().zip(y.as_mut()).enumerate() {
            *a = (i as u16).wrapping_mul(0x9E37);
            *b = (i as u16).wrapping_mul(0x7F4A) ^ 0x55;
        }
        c.bench_function(&format!("{name}/{b}/ring_mul"), |bn| {
            bn.iter(|| testing::ring_mul::<P>(be, black_box(&x), black_box(&y)));
        });
    }
}

fn benches(c: &mut Criterion) {
    bench_set::<NtruHps2048509>(c);
    bench_set::<NtruHps2048677>(c);
    bench_set::<NtruHps4096821>(c);
    bench_set::<NtruHps40961229>(c);
    bench_set::<NtruHrss701>(c);
    bench_set::<NtruHrss1373>(c);
}

criterion_group! {
    name = ntru;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(ntru);
