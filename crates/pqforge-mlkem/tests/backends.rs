//! Every backend against the portable reference, on random inputs: each
//! AVX2 kernel (NTT, inverse NTT, base multiplication, reductions,
//! compression, encoding, modulus check, rejection sampling), then whole
//! KeyGen / Encaps / Decaps (honest and tampered) on every kernels x K-PKE
//! pairing (`backend::paths`), and through the typed API, the dynamic API
//! and prepared keys.
#![allow(clippy::unwrap_used)]

use pqforge_core::KemAlg;
use pqforge_core::testing::TestRng;
use pqforge_mlkem::backend::paths::{self, Path};
use pqforge_mlkem::{
    Ciphertext, DecapsKey, EncapsKey, MlKem512, MlKem768, MlKem1024, ParameterSet, backend_name,
};

#[test]
fn avx2_kernels_match_portable() {
    let mut rng = TestRng::new(0x5eed);
    let mut next = || rng.next_u64();
    let mut ran = 0;
    for _ in 0..500 {
        match pqforge_mlkem::backend::check_kernels(&mut next) {
            Ok(true) => ran += 1,
            Ok(false) => {
                eprintln!("no AVX2 in this build or CPU: kernels not compared");
                return;
            }
            Err(k) => panic!("AVX2 kernel `{k}` differs from portable"),
        }
    }
    assert_eq!(ran, 500);
}

/// Every path other than the reference against it, on one input; returns
/// the reference outputs (ek, dk, ct, K) and checks decapsulation of `cts`.
fn all_paths<P: ParameterSet>(
    d: &[u8; 32],
    z: &[u8; 32],
    m: &[u8; 32],
    cts: &[Vec<u8>],
) -> (Vec<u8>, Vec<u8>, Vec<u8>, [u8; 32]) {
    let (mut ek, mut dk) = (vec![0u8; P::EK_BYTES], vec![0u8; P::DK_BYTES]);
    assert!(paths::keygen::<P>(Path::Portable, d, z, &mut ek, &mut dk));
    let h = pqforge_core::keccak::sha3_256(&ek);
    let (mut ct, mut k) = (vec![0u8; P::CT_BYTES], [0u8; 32]);
    assert!(paths::encaps::<P>(
        Path::Portable,
        &ek,
        &h,
        m,
        &mut ct,
        &mut k
    ));
    for path in Path::ALL {
        let (mut ek2, mut dk2) = (vec![0u8; P::EK_BYTES], vec![0u8; P::DK_BYTES]);
        if !paths::keygen::<P>(path, d, z, &mut ek2, &mut dk2) {
            continue;
        }
        assert_eq!((&ek2, &dk2), (&ek, &dk), "{path:?} keygen");
        let (mut ct2, mut k2) = (vec![0u8; P::CT_BYTES], [0u8; 32]);
        assert!(paths::encaps::<P>(path, &ek, &h, m, &mut ct2, &mut k2));
        assert_eq!((&ct2, &k2), (&ct, &k), "{path:?} encaps");
        for c in cts.iter().chain([&ct]) {
            let (mut want, mut got) = ([0u8; 32], [0u8; 32]);
            assert!(paths::decaps::<P>(Path::Portable, &dk, c, &mut want));
            assert!(paths::decaps::<P>(path, &dk, c, &mut got));
            assert_eq!(got, want, "{path:?} decaps");
        }
    }
    (ek, dk, ct, k)
}

fn whole_kem<P: ParameterSet>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let dynk = KemAlg::<P>::DYN;
    for _ in 0..20 {
        let dz: [u8; 64] = rng.array();
        let d: &[u8; 32] = dz[..32].try_into().unwrap();
        let z: &[u8; 32] = dz[32..].try_into().unwrap();
        let m: [u8; 32] = rng.array();
        let mut junk = vec![0u8; P::CT_BYTES];
        rng.fill(&mut junk);
        let (ek2, dk2, ct2, k2) = all_paths::<P>(d, z, &m, &[junk.clone()]);

        // The public API (the dispatched backend) against the reference.
        let (ek, dk) = P::keygen_derand(&dz);
        assert_eq!(ek.as_ref(), &ek2[..], "keygen ek");
        assert_eq!(dk.as_ref(), &dk2[..], "keygen dk");
        // The state key generation hands out is H(ek).
        assert_eq!(
            ek.prepared().state(),
            &pqforge_core::keccak::sha3_256(ek.as_ref())
        );
        let (ct, k) = P::encaps_derand(&ek, &m).unwrap();
        assert_eq!(ct.as_ref(), &ct2[..], "encaps ct");
        assert_eq!(k.as_ref(), &k2, "encaps K");
        assert_eq!(P::decaps(&dk, &ct).as_ref(), &k2, "decaps");

        // The dynamic API: one-shot and prepared keys.
        let (mut ek5, mut dk5) = (vec![0u8; P::EK_BYTES], vec![0u8; P::DK_BYTES]);
        dynk.keygen_derand(&dz, &mut ek5, &mut dk5).unwrap();
        assert_eq!((&ek5, &dk5), (&ek2, &dk2), "dyn keygen");
        let (mut ct5, mut k5) = (vec![0u8; P::CT_BYTES], [0u8; 32]);
        dynk.encaps_derand(&ek5, &m, &mut ct5, &mut k5).unwrap();
        assert_eq!((&ct5, &k5), (&ct2, &k2), "dyn encaps");
        let pek = dynk.prepare_ek(&ek5).unwrap();
        pek.encaps_derand(&m, &mut ct5, &mut k5).unwrap();
        assert_eq!((&ct5, &k5), (&ct2, &k2), "prepared encaps");
        let pdk = dynk.prepare_dk(&dk5).unwrap();

        // Tampered and random ciphertexts: implicit rejection, same key on
        // every path and API.
        let mut bad = ct.as_ref().to_vec();
        let i = rng.below(bad.len());
        bad[i] ^= 1 << rng.below(8);
        all_paths::<P>(d, z, &m, &[bad.clone()]);
        for c in [ct.as_ref().to_vec(), bad, junk] {
            let t = Ciphertext::<P>::try_from(&c[..]).unwrap();
            let mut k3 = [0u8; 32];
            assert!(paths::decaps::<P>(Path::Portable, dk.as_ref(), &c, &mut k3));
            assert_eq!(P::decaps(&dk, &t).as_ref(), &k3, "rejection");
            dynk.decaps(&dk5, &c, &mut k5).unwrap();
            assert_eq!(k3, k5, "dyn rejection");
            pdk.decaps(&c, &mut k5).unwrap();
            assert_eq!(k3, k5, "prepared rejection");
        }
        // Keys parsed back from bytes behave the same.
        let dk_b = DecapsKey::<P>::try_from(dk.as_ref()).unwrap();
        let ek_b = EncapsKey::<P>::try_from(ek.as_ref()).unwrap();
        assert_eq!(ek_b.prepared().state(), ek.prepared().state());
        assert_eq!(P::encaps_derand(&ek_b, &m).unwrap().0, ct);
        assert_eq!(P::decaps(&dk_b, &ct), k);
    }
}

#[test]
fn whole_kem_matches_portable() {
    eprintln!("dispatching backend: {}", backend_name());
    whole_kem::<MlKem512>(1);
    whole_kem::<MlKem768>(2);
    whole_kem::<MlKem1024>(3);
}
