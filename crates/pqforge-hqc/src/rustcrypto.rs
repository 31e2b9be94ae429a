//! RustCrypto `kem` trait sizes (feature `rustcrypto`): with these,
//! `pqforge_core::rustcrypto::RcKem<Hqc1>` implements `kem::Kem`.

use hybrid_array::sizes::{U32, U2241, U4433, U4514, U7237, U8978, U14421};
use pqforge_core::rustcrypto::KemSizes;

use crate::{Hqc1, Hqc1V5, Hqc3, Hqc3V5, Hqc5, Hqc5V5};

macro_rules! sizes {
    ($($t:ty => $pk:ty, $ct:ty;)*) => {$(
        impl KemSizes for $t {
            type PkSize = $pk;
            type CtSize = $ct;
            type SsSize = U32;
        }
    )*};
}

sizes! {
    Hqc1 => U2241, U4433;
    Hqc1V5 => U2241, U4433;
    Hqc3 => U4514, U8978;
    Hqc3V5 => U4514, U8978;
    Hqc5 => U7237, U14421;
    Hqc5V5 => U7237, U14421;
}

#[cfg(test)]
mod tests {
    use kem::{Decapsulate, Encapsulate, Kem as _, common::KeyExport};
    use pqforge_core::kat::KatSource;
    use pqforge_core::rustcrypto::{RcKem, kem};

    fn roundtrip<K: super::KemSizes>() {
        let mut rng = KatSource::new(K::INFO.kat, &[9u8; 48]);
        let (dk, ek) = RcKem::<K>::generate_keypair_from_rng(&mut rng);
        assert_eq!(ek.to_bytes().len(), K::PK_BYTES);
        let (ct, k1) = ek.encapsulate_with_rng(&mut rng);
        assert_eq!(ct.len(), K::CT_BYTES);
        assert_eq!(dk.decapsulate(&ct), k1);
        let mut bad = ct.clone();
        bad[0] ^= 1;
        assert_ne!(dk.decapsulate(&bad), k1);
    }

    #[test]
    fn rustcrypto_kem_traits() {
        roundtrip::<crate::Hqc1>();
        roundtrip::<crate::Hqc3V5>();
        roundtrip::<crate::Hqc5>();
    }
}
