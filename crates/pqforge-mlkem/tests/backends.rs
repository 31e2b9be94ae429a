//! Every backend against the portable reference, on random inputs: each
//! AVX2 kernel (NTT, inverse NTT, base multiplication, reductions, rejection
//! sampling), then whole KeyGen / Encaps / Decaps (honest and tampered).
#![allow(clippy::unwrap_used)]

use pqforge_mlkem::{
    Ciphertext, DecapsKey, EncapsKey, MlKem512, MlKem768, MlKem1024, ParameterSet, backend_name,
    compact_path, portable,
};

/// xorshift64* (test randomness only).
fn rng(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed | 1;
    move || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        s.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
#[test]
fn avx2_kernels_match_portable() {
    let mut next = rng(0x5eed);
    let mut ran = 0;
    for _ in 0..500 {
        match pqforge_mlkem::backend::check::round(&mut next) {
            Ok(true) => ran += 1,
            Ok(false) => {
                eprintln!("no AVX2 on this CPU: kernels not compared");
                return;
            }
            Err(k) => panic!("AVX2 kernel `{k}` differs from portable"),
        }
    }
    assert_eq!(ran, 500);
}

fn whole_kem<P: ParameterSet>(seed: u64) {
    let mut next = rng(seed);
    let mut r2 = rng(seed ^ 0xABCD);
    let mut bytes = |n: usize| -> Vec<u8> { (0..n).map(|_| r2() as u8).collect() };
    for _ in 0..20 {
        let d: [u8; 32] = bytes(32).try_into().unwrap();
        let z: [u8; 32] = bytes(32).try_into().unwrap();
        let m: [u8; 32] = bytes(32).try_into().unwrap();
        let (ek, dk) = pqforge_mlkem::keygen_derand::<P>(&d, &z);
        let mut ek2 = vec![0u8; P::EK_BYTES];
        let mut dk2 = vec![0u8; P::DK_BYTES];
        portable::keygen::<P>(&d, &z, &mut ek2, &mut dk2);
        assert_eq!(ek.as_ref(), &ek2[..], "keygen ek");
        assert_eq!(dk.as_ref(), &dk2[..], "keygen dk");

        let (ct, k) = pqforge_mlkem::encaps_derand(&ek, &m);
        let mut ct2 = vec![0u8; P::CT_BYTES];
        let mut k2 = [0u8; 32];
        portable::encaps::<P>(ek.as_ref(), ek.hash(), &m, &mut ct2, &mut k2);
        assert_eq!(ct.as_ref(), &ct2[..], "encaps ct");
        assert_eq!(k.as_ref(), &k2, "encaps K");

        // The stack-optimised path (the default without AVX2).
        let mut ek3 = vec![0u8; P::EK_BYTES];
        let mut dk3 = vec![0u8; P::DK_BYTES];
        compact_path::keygen::<P>(&d, &z, &mut ek3, &mut dk3);
        assert_eq!((&ek2, &dk2), (&ek3, &dk3), "compact keygen");
        let mut ct3 = vec![0u8; P::CT_BYTES];
        let mut k4 = [0u8; 32];
        compact_path::encaps::<P>(ek.as_ref(), ek.hash(), &m, &mut ct3, &mut k4);
        assert_eq!((&ct2, &k2), (&ct3, &k4), "compact encaps");
        compact_path::decaps::<P>(dk.as_ref(), ct.as_ref(), &mut k4);
        assert_eq!(k4, k2, "compact decaps");

        let mut k3 = [0u8; 32];
        portable::decaps::<P>(dk.as_ref(), ct.as_ref(), &mut k3);
        assert_eq!(pqforge_mlkem::decaps(&dk, &ct).as_ref(), &k3, "decaps");
        assert_eq!(k3, k2);

        // Tampered and random ciphertexts: implicit rejection, same key.
        let mut bad = ct.as_ref().to_vec();
        let i = (next() as usize) % bad.len();
        bad[i] ^= 1 << (next() % 8);
        for c in [bad, bytes(P::CT_BYTES)] {
            let t = Ciphertext::<P>::try_from(&c[..]).unwrap();
            portable::decaps::<P>(dk.as_ref(), &c, &mut k3);
            assert_eq!(pqforge_mlkem::decaps(&dk, &t).as_ref(), &k3, "rejection");
            compact_path::decaps::<P>(dk.as_ref(), &c, &mut k4);
            assert_eq!(k3, k4, "compact rejection");
        }
        // Keys parsed back from bytes behave the same.
        let dk_b = DecapsKey::<P>::try_from(dk.as_ref()).unwrap();
        let ek_b = EncapsKey::<P>::try_from(ek.as_ref()).unwrap();
        assert_eq!(pqforge_mlkem::encaps_derand(&ek_b, &m).0, ct);
        assert_eq!(pqforge_mlkem::decaps(&dk_b, &ct), k);
    }
}

#[test]
fn whole_kem_matches_portable() {
    eprintln!("dispatching backend: {}", backend_name());
    whole_kem::<MlKem512>(1);
    whole_kem::<MlKem768>(2);
    whole_kem::<MlKem1024>(3);
}
