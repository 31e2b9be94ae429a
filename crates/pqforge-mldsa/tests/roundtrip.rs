//! KeyGen, Sign and Verify together on random seeds and messages: valid
//! signatures verify; a changed message, signature bit, or length does not.

use pqforge_core::testing::TestRng;
use pqforge_mldsa::hazmat::key_gen_internal;
use pqforge_mldsa::hazmat::sign_internal;
use pqforge_mldsa::hazmat::{Message, verify_internal};
use pqforge_mldsa::params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};

fn roundtrip<P: ParameterSet>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for _ in 0..5 {
        let xi = rng.array::<32>();
        let (mut pk, mut sk) = (vec![0u8; P::PK_BYTES], vec![0u8; P::SK_BYTES]);
        key_gen_internal::<P>(&xi, &mut pk, &mut sk).expect("lengths");
        let mut msg = rng.array::<40>();
        let rnd = rng.array::<32>();
        let mut sig = vec![0u8; P::SIG_BYTES];
        sign_internal::<P>(&sk, Message::Prime(&msg), &rnd, &mut sig).expect("sign");
        assert!(
            verify_internal::<P>(&pk, Message::Prime(&msg), &sig),
            "{}",
            P::NAME
        );
        msg[0] ^= 1;
        assert!(!verify_internal::<P>(&pk, Message::Prime(&msg), &sig));
        msg[0] ^= 1;
        let bit = rng.below(8 * sig.len());
        sig[bit / 8] ^= 1 << (bit % 8);
        assert!(
            !verify_internal::<P>(&pk, Message::Prime(&msg), &sig),
            "bit {bit}"
        );
        sig[bit / 8] ^= 1 << (bit % 8);
        assert!(!verify_internal::<P>(
            &pk,
            Message::Prime(&msg),
            &sig[..sig.len() - 1]
        ));
        sig.push(0);
        assert!(!verify_internal::<P>(&pk, Message::Prime(&msg), &sig));
        assert!(!verify_internal::<P>(
            &pk[..pk.len() - 1],
            Message::Prime(&msg),
            &sig[..P::SIG_BYTES]
        ));
    }
}

#[test]
fn roundtrip_all_sets() {
    roundtrip::<MlDsa44>(1);
    roundtrip::<MlDsa65>(2);
    roundtrip::<MlDsa87>(3);
}
