//! Criterion benchmarks per parameter set and backend, ids like
//! `frodokem-640-aes/avx2/keygen`:
//! `cargo bench -p pqforge-frodokem --bench frodokem`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pqforge_frodokem::testing::{self, Backend};
use pqforge_frodokem::{
    EFrodoKem640Aes, FrodoKem640Aes, FrodoKem640Shake, FrodoKem976Aes, FrodoKem976Shake,
    FrodoKem1344Aes, FrodoKem1344Shake, Kem, ParameterSet,
};

fn bench_set<P: ParameterSet + Kem>(c: &mut Criterion) {
    let name = P::INFO.name;
    for be in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        let b = be.name();
        let seed = vec![7u8; P::KEYGEN_SEED_BYTES];
        let m = vec![3u8; P::ENCAPS_SEED_BYTES];
        let (mut ek, mut dk) = (vec![0u8; P::EK_BYTES], vec![0u8; P::DK_BYTES]);
        let (mut ct, mut ss) = (vec![0u8; P::CT_BYTES], vec![0u8; P::LEN_SEC]);
        testing::keygen_derand::<P>(be, &seed, &mut ek, &mut dk).expect("available");
        testing::encaps_derand::<P>(be, &ek, &m, &mut ct, &mut ss).expect("available");
        let (mut ek2, mut dk2) = (ek.clone(), dk.clone());
        c.bench_function(&format!("{name}/{b}/keygen"), |bn| {
            bn.iter(|| testing::keygen_derand::<P>(be, black_box(&seed), &mut ek2, &mut dk2));
        });
        let (mut ct2, mut ss2) = (ct.clone(), ss.clone());
        c.bench_function(&format!("{name}/{b}/encaps"), |bn| {
            bn.iter(|| testing::encaps_derand::<P>(be, black_box(&ek), &m, &mut ct2, &mut ss2));
        });
        c.bench_function(&format!("{name}/{b}/decaps"), |bn| {
            bn.iter(|| testing::decaps::<P>(be, black_box(&dk), black_box(&ct), &mut ss));
        });
    }
}

fn benches(c: &mut Criterion) {
    bench_set::<FrodoKem640Aes>(c);
    bench_set::<FrodoKem640Shake>(c);
    bench_set::<FrodoKem976Aes>(c);
    bench_set::<FrodoKem976Shake>(c);
    bench_set::<FrodoKem1344Aes>(c);
    bench_set::<FrodoKem1344Shake>(c);
    bench_set::<EFrodoKem640Aes>(c);
}

criterion_group! {
    name = frodokem;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(frodokem);
