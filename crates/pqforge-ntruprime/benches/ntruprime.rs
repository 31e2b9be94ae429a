//! Criterion benchmarks per parameter set and backend, ids like
//! `sntrup761/avx2/keygen`:
//! `cargo bench -p pqforge-ntruprime --bench ntruprime`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pqforge_core::ByteArray;
use pqforge_ntruprime::testing::{self, Backend};
use pqforge_ntruprime::{ParameterSet, Sntrup653, Sntrup761, Sntrup1277};

fn bench_set<P: ParameterSet>(c: &mut Criterion) {
    let name = P::NAME;
    for be in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        let b = be.name();
        let seed = [7u8; 32];
        let (ek, dk) = testing::keygen_derand::<P>(be, &seed).expect("available");
        let mut words = P::EncapsSeed::zeroed();
        for (i, x) in words.as_mut().iter_mut().enumerate() {
            *x = (i as u8).wrapping_mul(151).wrapping_add(7);
        }
        let (ct, _) = testing::encaps_derand::<P>(be, &ek, &words).expect("available");
        c.bench_function(&format!("{name}/{b}/keygen"), |bn| {
            bn.iter(|| testing::keygen_derand::<P>(be, black_box(&seed)));
        });
        c.bench_function(&format!("{name}/{b}/encaps"), |bn| {
            bn.iter(|| testing::encaps_derand::<P>(be, black_box(&ek), &words));
        });
        c.bench_function(&format!("{name}/{b}/decaps"), |bn| {
            bn.iter(|| testing::decaps::<P>(be, black_box(&dk), black_box(&ct)));
        });
        c.bench_function(&format!("{name}/{b}/check_sk"), |bn| {
            bn.iter(|| testing::check_sk::<P>(be, black_box(&dk)));
        });
        let n = P::P;
        let a: Vec<i16> = (0..n)
            .map(|i| ((i * 2_654_435_761) % P::Q as usize) as i16 - P::Q12 as i16)
            .collect();
        let s: Vec<i8> = (0..n).map(|i| ((i * 7919) % 3) as i8 - 1).collect();
        let mut out = vec![0i16; n];
        let words: Vec<u32> = (0..n as u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect();
        c.bench_function(&format!("{name}/{b}/sort"), |bn| {
            bn.iter(|| {
                let mut w = words.clone();
                testing::sort(be, black_box(&mut w))
            });
        });
        let mut o3 = vec![0i8; n];
        let mut oq = vec![0i16; n];
        c.bench_function(&format!("{name}/{b}/recips"), |bn| {
            bn.iter(|| testing::recips::<P>(be, &mut o3, &mut oq, black_box(&s)));
        });
        c.bench_function(&format!("{name}/{b}/mul_small"), |bn| {
            bn.iter(|| testing::mul_small::<P>(be, P::Q, &mut out, black_box(&a), black_box(&s)));
        });
    }
}

fn benches(c: &mut Criterion) {
    bench_set::<Sntrup653>(c);
    bench_set::<Sntrup761>(c);
    bench_set::<Sntrup1277>(c);
}

criterion_group! {
    name = ntruprime;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(ntruprime);
