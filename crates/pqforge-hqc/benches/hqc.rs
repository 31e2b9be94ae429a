//! Criterion benchmarks per parameter set and backend, ids like
//! `hqc-1/avx512/keygen`:
//! `cargo bench -p pqforge-hqc --bench hqc`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pqforge_core::ByteArray;
use pqforge_hqc::testing::{self, Backend};
use pqforge_hqc::{Hqc1, Hqc3, Hqc5, ParameterSet};

fn bench_set<P: ParameterSet>(c: &mut Criterion) {
    let name = P::INFO.name;
    for be in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        let b = be.name();
        let seed = [7u8; 32];
        let (ek, dk) = testing::keygen_derand::<P>(be, &seed).expect("available");
        let mut m_salt = P::EncapsSeed::zeroed();
        m_salt.as_mut()[..P::K].fill(3);
        m_salt.as_mut()[P::K..].fill(5);
        let (ct, _) = testing::encaps_derand::<P>(be, &ek, &m_salt).expect("available");
        c.bench_function(&format!("{name}/{b}/keygen"), |bn| {
            bn.iter(|| testing::keygen_derand::<P>(be, black_box(&seed)));
        });
        c.bench_function(&format!("{name}/{b}/encaps"), |bn| {
            bn.iter(|| testing::encaps_derand::<P>(be, black_box(&ek), &m_salt));
        });
        c.bench_function(&format!("{name}/{b}/decaps"), |bn| {
            bn.iter(|| testing::decaps::<P>(be, black_box(&dk), black_box(&ct)));
        });
        c.bench_function(&format!("{name}/{b}/decaps_key_check"), |bn| {
            bn.iter(|| testing::check_decaps_key::<P>(be, black_box(&dk)));
        });
        let mut x = [0u64; 901];
        for (i, w) in x.iter_mut().enumerate() {
            *w = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        let a = &x[..P::WORDS];
        let mut bb = x[..P::WORDS].to_vec();
        bb.reverse();
        let top = P::N % 64;
        let mut a = a.to_vec();
        if top != 0 {
            a[P::WORDS - 1] &= (1 << top) - 1;
            bb[P::WORDS - 1] &= (1 << top) - 1;
        }
        let mut out = vec![0u64; P::WORDS];
        c.bench_function(&format!("{name}/{b}/mul_mod"), |bn| {
            bn.iter(|| testing::mul_mod::<P>(be, black_box(&a), black_box(&bb), &mut out));
        });
    }
}

fn benches(c: &mut Criterion) {
    bench_set::<Hqc1>(c);
    bench_set::<Hqc3>(c);
    bench_set::<Hqc5>(c);
}

criterion_group! {
    name = hqc;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(hqc);
