//! Every backend against the portable one: the kernels (A's rows by AES-128
//! and by SHAKE128, both matrix products) on random inputs, and whole key
//! generations, encapsulations and decapsulations.

use pqforge_core::Rng;
use pqforge_core::testing::TestRng;
use pqforge_frodokem::testing::{self, Backend, Kernel};
use pqforge_frodokem::{
    EFrodoKem976Aes, FrodoKem640Aes, FrodoKem640Shake, FrodoKem976Shake, FrodoKem1344Aes,
    FrodoKem1344Shake, ParameterSet,
};

fn others() -> impl Iterator<Item = Backend> {
    Backend::ALL
        .into_iter()
        .filter(|b| *b != Backend::Portable && b.is_available())
}

fn words(r: &mut TestRng, n: usize) -> Vec<u16> {
    let mut b = vec![0u8; 2 * n];
    r.fill_bytes(&mut b);
    b.chunks_exact(2)
        .map(|w| u16::from_le_bytes([w[0], w[1]]))
        .collect()
}

fn kernels<P: ParameterSet>(tag: u64) {
    let n = P::N;
    let mut r = TestRng::new(tag);
    for round in 0..3 {
        let mut seed = [0u8; 16];
        r.fill_bytes(&mut seed);
        let r0 = [0, 4, n - 4][round];
        let a = words(&mut r, 4 * n);
        let s = words(&mut r, 8 * n);
        let acc0 = words(&mut r, 8 * n);
        let run = |b: Backend| {
            // Four rows, and eight (the SIMD backends' pairs of sponges).
            let mut rows = vec![0u16; 4 * n];
            testing::kernel::<P>(b, Kernel::Rows { seed_a: &seed, r0 }, &mut rows)?;
            let mut rows8 = vec![0u16; 8 * n];
            let r8 = r0.min(n - 8);
            testing::kernel::<P>(
                b,
                Kernel::Rows {
                    seed_a: &seed,
                    r0: r8,
                },
                &mut rows8,
            )?;
            rows.extend_from_slice(&rows8);
            let mut as_out = vec![0u16; 32];
            testing::kernel::<P>(b, Kernel::MulAs { a: &a, st: &s }, &mut as_out)?;
            let mut acc = acc0.clone();
            testing::kernel::<P>(b, Kernel::MulSa { a: &a, s: &s, r0 }, &mut acc)?;
            Some((rows, as_out, acc))
        };
        let reference = run(Backend::Portable).expect("portable");
        for b in others() {
            let got = run(b).expect("available");
            assert!(got.0 == reference.0, "{}: rows of A differ", b.name());
            assert!(got.1 == reference.1, "{}: A·S differs", b.name());
            assert!(got.2 == reference.2, "{}: S·A differs", b.name());
        }
    }
}

fn whole<P: ParameterSet>(tag: u64) {
    let mut r = TestRng::new(tag);
    let mut seed = vec![0u8; P::KEYGEN_SEED_BYTES];
    let mut m = vec![0u8; P::ENCAPS_SEED_BYTES];
    r.fill_bytes(&mut seed);
    r.fill_bytes(&mut m);
    let run = |b: Backend| {
        let (mut ek, mut dk) = (vec![0u8; P::EK_BYTES], vec![0u8; P::DK_BYTES]);
        let (mut ct, mut ss, mut ss2) = (
            vec![0u8; P::CT_BYTES],
            vec![0u8; P::LEN_SEC],
            vec![0u8; P::LEN_SEC],
        );
        testing::keygen_derand::<P>(b, &seed, &mut ek, &mut dk)?;
        testing::encaps_derand::<P>(b, &ek, &m, &mut ct, &mut ss)?;
        testing::decaps::<P>(b, &dk, &ct, &mut ss2)?;
        assert_eq!(ss, ss2, "{}: round trip", b.name());
        // A tampered ciphertext takes the rejection path on every backend.
        ct[3] ^= 1;
        let mut ss3 = vec![0u8; P::LEN_SEC];
        testing::decaps::<P>(b, &dk, &ct, &mut ss3)?;
        Some((ek, dk, ct, ss, ss3))
    };
    let reference = run(Backend::Portable).expect("portable");
    for b in others() {
        assert!(
            run(b).expect("available") == reference,
            "{}: differs from portable",
            b.name()
        );
    }
}

#[test]
fn kernels_against_portable() {
    kernels::<FrodoKem640Aes>(1);
    kernels::<FrodoKem640Shake>(2);
    kernels::<FrodoKem976Shake>(3);
    kernels::<EFrodoKem976Aes>(4);
    kernels::<FrodoKem1344Aes>(5);
    kernels::<FrodoKem1344Shake>(6);
}

#[test]
fn operations_against_portable() {
    whole::<FrodoKem640Aes>(7);
    whole::<FrodoKem640Shake>(8);
    whole::<EFrodoKem976Aes>(9);
    whole::<FrodoKem1344Shake>(10);
}

#[test]
fn selected_backend_is_available() {
    let sel = Backend::selected();
    assert!(sel.is_available());
    if cfg!(all(
        target_arch = "x86_64",
        not(pqforge_backend = "portable")
    )) && std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("aes")
    {
        let vaes = std::is_x86_feature_detected!("vaes");
        assert_eq!(
            sel,
            if vaes {
                Backend::Avx2Vaes
            } else {
                Backend::Avx2
            }
        );
    }
}
