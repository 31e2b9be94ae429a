//! After `cpu::disable_avx512()` (the peers bench's `--no-avx512`), every
//! reported backend and the CPU line say what then runs: no AVX-512. Its
//! own test binary: the switch is process-wide.

use pqforge::{Algorithm, cpu};

#[test]
fn reported_backends_follow_disable_avx512() {
    cpu::disable_avx512();
    let line = cpu::Summary.to_string();
    if !cfg!(target_feature = "avx512f") {
        assert!(!line.contains("avx512"), "{line}");
    }
    for a in Algorithm::all() {
        let name = a.backend();
        assert!(a.backends().is_available(name), "{a}: {name}");
        if !cfg!(target_feature = "avx512f") {
            assert!(!name.contains("avx512"), "{a}: {name} after disable_avx512");
        }
    }
}
