//! Every SIMD backend against the portable reference: key generation,
//! encapsulation and decapsulation (valid, tampered and random
//! ciphertexts) byte for byte, and the sorting networks on random words.
//! Nothing to compare when the
//! CPU or the build (`--cfg pqforge_backend="portable"`) offers no SIMD
//! backend.

use pqforge_core::kat::KatSource;
use pqforge_core::testing::TestRng;
use pqforge_core::{KatRng, KemAlg};
use pqforge_mceliece::testing::{self, available};
use pqforge_mceliece::*;

fn keygen_same<P: ParameterSet>(seeds: &[[u8; 32]]) {
    let mut pk0 = vec![0u8; P::PK_BYTES];
    let mut sk0 = vec![0u8; P::SK_BYTES];
    let mut pk1 = vec![0u8; P::PK_BYTES];
    let mut sk1 = vec![0u8; P::SK_BYTES];
    for seed in seeds {
        assert!(testing::keygen_derand::<P>(
            "portable", seed, &mut pk0, &mut sk0
        ));
        for &b in &available()[1..] {
            assert!(testing::keygen_derand::<P>(b, seed, &mut pk1, &mut sk1));
            assert!(pk0 == pk1, "{} {b}: public key differs", P::NAME);
            assert!(sk0 == sk1, "{} {b}: secret key differs", P::NAME);
            let mut ct0 = vec![0u8; P::CT_BYTES];
            let mut ct1 = vec![0u8; P::CT_BYTES];
            let (mut k0, mut k1) = ([0u8; 32], [0u8; 32]);
            let mut r0 = KatSource::new(KatRng::NistDrbg, &[seed[0]; 48]);
            let mut r1 = KatSource::new(KatRng::NistDrbg, &[seed[0]; 48]);
            testing::encaps::<P, _>("portable", &mut r0, &pk0, &mut ct0, &mut k0)
                .expect("portable")
                .expect("encaps");
            testing::encaps::<P, _>(b, &mut r1, &pk0, &mut ct1, &mut k1)
                .expect("available")
                .expect("encaps");
            assert_eq!(ct0, ct1, "{} {b}: ciphertext differs", P::NAME);
            assert_eq!(k0, k1, "{} {b}: shared secret differs", P::NAME);
            let mut k2 = [0u8; 32];
            KemAlg::<P>::DYN
                .decaps(&sk0, &ct0, &mut k2)
                .expect("decaps");
            assert_eq!(k0, k2, "{}: decaps", P::NAME);
        }
    }
}

#[test]
fn keygen_and_encaps_match_portable() {
    let seeds: Vec<[u8; 32]> = (0u8..3).map(|i| [i.wrapping_mul(37) ^ 0x5A; 32]).collect();
    keygen_same::<McEliece348864>(&seeds);
    keygen_same::<McEliece348864f>(&seeds);
    keygen_same::<McEliece6960119f>(&seeds[..1]);
    // Non-f with mt and n not multiples of 8: the invertibility check.
    keygen_same::<McEliece6960119>(&seeds[..1]);
}

#[test]
fn sorts_match_portable() {
    let mut rng = TestRng::new(0x243F_6A88_85A3_08D3);
    let mut next = move || rng.next_u64();
    for logn in 0..=13 {
        let n = 1usize << logn;
        for w in [4usize, 8] {
            // Random words, then many repeats (ties), then top bits set.
            for kind in 0..3 {
                let buf: Vec<u8> = (0..n)
                    .flat_map(|_| {
                        let v = match kind {
                            0 => next(),
                            1 => next() % 5,
                            _ => next() | (1 << 63) | (1 << 31),
                        };
                        v.to_le_bytes()[..w].to_vec()
                    })
                    .collect();
                let mut want = buf.clone();
                assert!(if w == 4 {
                    testing::sort_u32("portable", &mut want)
                } else {
                    testing::sort_u64("portable", &mut want)
                });
                for &b in &available()[1..] {
                    let mut got = buf.clone();
                    assert!(if w == 4 {
                        testing::sort_u32(b, &mut got)
                    } else {
                        testing::sort_u64(b, &mut got)
                    });
                    assert!(
                        got == want,
                        "{b}: sort of {n} x {w}-byte words (kind {kind})"
                    );
                }
            }
        }
    }
}

/// Decapsulation on every backend against the portable one: valid
/// ciphertexts, ciphertexts with flipped bits (decoding failures and
/// near misses) and random ones (implicit rejection).
fn decaps_same<P: ParameterSet>(seed: u8, rounds: usize) {
    let kem = KemAlg::<P>::DYN;
    let mut rng = KatSource::new(KatRng::NistDrbg, &[seed; 48]);
    let mut pk = vec![0u8; P::PK_BYTES];
    let mut sk = vec![0u8; P::SK_BYTES];
    kem.keygen(&mut rng, &mut pk, &mut sk).expect("keygen");
    let mut t = TestRng::new(u64::from(seed).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut next = move || t.next_u64();
    for round in 0..rounds {
        let mut ct = vec![0u8; P::CT_BYTES];
        let mut k = [0u8; 32];
        kem.encaps(&mut rng, &pk, &mut ct, &mut k).expect("encaps");
        match round % 4 {
            0 => {}
            1 => {
                // One flipped syndrome bit.
                let i = (next() as usize) % (P::SYND_BYTES * 8);
                ct[i / 8] ^= 1 << (i % 8);
            }
            2 => {
                for x in &mut ct {
                    *x = next() as u8;
                }
            }
            _ => {
                // Several flipped bits.
                for _ in 0..=next() % 8 {
                    let i = (next() as usize) % (P::SYND_BYTES * 8);
                    ct[i / 8] ^= 1 << (i % 8);
                }
            }
        }
        let mut k0 = [0u8; 32];
        testing::decaps::<P>("portable", &sk, &ct, &mut k0)
            .expect("portable")
            .expect("decaps");
        if round % 4 == 0 {
            assert_eq!(k0, k, "{}: portable decaps", P::NAME);
        }
        for &b in &available()[1..] {
            let mut k1 = [0u8; 32];
            testing::decaps::<P>(b, &sk, &ct, &mut k1)
                .expect("available")
                .expect("decaps");
            assert_eq!(k0, k1, "{} {b}: decaps differs (round {round})", P::NAME);
        }
    }
}

#[test]
fn decaps_matches_portable() {
    decaps_same::<McEliece348864>(1, 12);
    decaps_same::<McEliece348864pcf>(2, 8);
    decaps_same::<McEliece460896>(3, 8);
    decaps_same::<McEliece6688128f>(4, 8);
    decaps_same::<McEliece6960119>(5, 8);
    decaps_same::<McEliece8192128pc>(6, 8);
}
