//! Rough timings (ignored by default; no assertions on time):
//! `cargo test -p pqforge-hqc --release --test timing -- --ignored --nocapture`

use std::time::Instant;

use pqforge_core::testing::TestRng;
use pqforge_hqc::{Hqc1, Hqc3, Hqc5, Kem};

fn time<K: Kem>(iters: u32) {
    let mut rng = TestRng::new(0x7153);
    let t = Instant::now();
    let mut keys = Vec::new();
    for _ in 0..iters {
        keys.push(K::keygen(&mut rng));
    }
    let kg = t.elapsed() / iters;
    let t = Instant::now();
    let mut cts = Vec::new();
    for (ek, _) in &keys {
        cts.push(K::encaps(ek, &mut rng));
    }
    let en = t.elapsed() / iters;
    let t = Instant::now();
    for ((_, dk), (ct, ss)) in keys.iter().zip(&cts) {
        assert_eq!(&K::decaps(dk, ct), ss);
    }
    let de = t.elapsed() / iters;
    println!(
        "{:6}: keygen {:>9.1?}  encaps {:>9.1?}  decaps {:>9.1?}",
        K::INFO.name,
        kg,
        en,
        de
    );
}

#[test]
#[ignore = "timing only"]
fn timings() {
    time::<Hqc1>(200);
    time::<Hqc3>(100);
    time::<Hqc5>(50);
}
