//! Every backend against the portable reference: each AVX2 kernel (FFT,
//! NTT and division mod q, ChaCha20 refill, Gaussian sampler, NTT and
//! tables mod the solver primes, residues, CRT, fused products, column
//! sums) on random inputs, then whole operations (key generation, key
//! decoding, signing with decoded and expanded keys, verification)
//! through the dispatch and with the portable backend forced.
#![allow(clippy::unwrap_used)]

pqforge_core::x86_simd! {
    mod avx2 {
        use pqforge_core::testing::TestRng;
        use pqforge_falcon::internals::backends;

        #[test]
        fn kernels_match_portable() {
            let mut rng = TestRng::new(0x5eed_fa1c);
            let mut next = || rng.next_u64();
            for _ in 0..300 {
                match backends::kernels(&mut next) {
                    Ok(true) => {}
                    Ok(false) => {
                        eprintln!("no AVX2 on this CPU: kernels not compared");
                        return;
                    }
                    Err(k) => panic!("AVX2 kernel `{k}` differs from portable"),
                }
            }
        }

        #[test]
        fn operations_match_portable() {
            let mut rng = TestRng::new(0x0b5e_55ed);
            for logn in [9u32, 10] {
                for _ in 0..4 {
                    let seed: [u8; 48] = rng.array();
                    let nonce: [u8; 40] = rng.array();
                    let msg: [u8; 33] = rng.array();
                    if let Err(op) = backends::operations(logn, &seed, &nonce, &msg) {
                        panic!("logn {logn}: `{op}` differs between the backends");
                    }
                }
            }
        }
    }
}
