//! ML-KEM-512/768/1024 (FIPS 203, August 2024): constant-time, `no_std`, no
//! heap.
//!
//! * Typed API: [`MlKem512`], [`MlKem768`], [`MlKem1024`] implement
//!   [`pqforge_core::Kem`]; keys and ciphertexts are fixed-size byte arrays
//!   ([`EncapsKey`], [`DecapsKey`], [`Ciphertext`], [`SharedSecret`]).
//! * Deterministic entry points for test vectors: `keygen_derand(d, z)`
//!   (ML-KEM.KeyGen_internal) and `encaps_derand(ek, m)`
//!   (ML-KEM.Encaps_internal), as inherent functions of each parameter set.
//! * Dynamic API: the registry statics [`ML_KEM_512`], [`ML_KEM_768`],
//!   [`ML_KEM_1024`] ([`pqforge_core::DynKem`]).
//!
//! Randomness: `keygen` draws d || z with ONE 64-byte `fill_bytes` call and
//! `encaps` draws m with one 32-byte call — the order and sizes of
//! pq-crystals' `crypto_kem_keypair`/`crypto_kem_enc`, so a NIST-DRBG KAT
//! driver reproduces their `PQCgenKAT_kem` transcripts (`tests/kat.rs`
//! checks record 0 of all three sets against the digests liboqs publishes).
//!
//! Input checks (FIPS 203 §7): [`EncapsKey::try_from`] checks the length and
//! the modulus check `ByteEncode12(ByteDecode12(ek)) == ek`;
//! [`DecapsKey::try_from`] checks the length, the hash check
//! `H(ek) == h` and the modulus check of the embedded ek;
//! [`Ciphertext::try_from`] checks the length. Decapsulation itself never
//! fails: a ciphertext that does not re-encrypt identically yields the
//! implicit-rejection key `J(z || c)`, chosen in constant time.
//!
//! Backends: AVX2 on x86_64 (detected at run time, once per call);
//! elsewhere, or with `--cfg pqforge_backend="portable"`, a stack-optimised
//! portable implementation that never stores the matrix (about 3.5 KB of
//! stack for ML-KEM-768 on a Cortex-M4, the dynamic API included). On
//! 32-bit targets Keccak runs bit-interleaved on 32-bit words.
//!
//! ```
//! use pqforge_core::Kem;
//! use pqforge_mlkem::{DecapsKey, MlKem768};
//!
//! // Deterministic key generation from a 64-byte seed d || z ...
//! let seed = [7u8; 64];
//! let dk = DecapsKey::<MlKem768>::from_seed(&seed);
//! let ek = dk.encaps_key();
//! // ... encapsulation with explicit randomness m (use `MlKem768::encaps`
//! // with a CSPRNG in practice) ...
//! let (ct, k1) = MlKem768::encaps_derand(&ek, &[1u8; 32]);
//! // ... and decapsulation.
//! let k2 = MlKem768::decaps(&dk, &ct);
//! assert_eq!(k1, k2);
//! // Keys round-trip through bytes with the FIPS 203 §7 checks.
//! let dk2 = DecapsKey::<MlKem768>::try_from(dk.as_ref()).unwrap();
//! assert_eq!(MlKem768::decaps(&dk2, &ct), k1);
//! assert_eq!(dk.seed(), Some(&seed));
//! ```
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[doc(hidden)]
pub mod backend;
mod batch;
mod compact;
mod dispatch;
mod dynkem;
mod hash;
mod kem;
mod ntt;
mod params;
mod poly;
mod sample;
mod types;

pub use dispatch::backend_name;
#[doc(hidden)]
pub use dispatch::{compact_path, portable};
pub use params::{ByteArray, MlKem512, MlKem768, MlKem1024, ParameterSet};
pub use types::{Ciphertext, DecapsKey, EncapsKey, SharedSecret};

pub use dynkem::MlKemDyn;
use pqforge_core::{AlgInfo, CryptoRng, KatRng, Kem, Kind, Status};
use zeroize::Zeroize;

/// ML-KEM.KeyGen_internal(d, z) (FIPS 203 Algorithm 16) for any parameter
/// set; same as `MlKem768::keygen_derand` and friends.
#[must_use]
pub fn keygen_derand<P: ParameterSet>(d: &[u8; 32], z: &[u8; 32]) -> (EncapsKey<P>, DecapsKey<P>) {
    types::keygen_derand::<P>(d, z)
}

/// ML-KEM.Encaps_internal(ek, m) (FIPS 203 Algorithm 17) for any parameter
/// set. `m` must be fresh uniform randomness outside of testing.
#[must_use]
pub fn encaps_derand<P: ParameterSet>(
    ek: &EncapsKey<P>,
    m: &[u8; 32],
) -> (Ciphertext<P>, SharedSecret) {
    types::encaps_derand::<P>(ek, m)
}

/// ML-KEM.Decaps_internal(dk, c) (FIPS 203 Algorithm 18) for any parameter
/// set: the shared key, or the implicit-rejection key J(z || c).
#[must_use]
pub fn decaps<P: ParameterSet>(dk: &DecapsKey<P>, c: &Ciphertext<P>) -> SharedSecret {
    types::decaps::<P>(dk, c)
}

macro_rules! kem_impl {
    ($ty:ident, $name:literal, $header:literal, $cat:literal, $stat:ident, $k:literal) => {
        impl $ty {
            /// ML-KEM.KeyGen_internal(d, z) (FIPS 203 Algorithm 16): the
            /// deterministic key generation behind [`Kem::keygen`].
            #[must_use]
            pub fn keygen_derand(d: &[u8; 32], z: &[u8; 32]) -> (EncapsKey<Self>, DecapsKey<Self>) {
                types::keygen_derand::<Self>(d, z)
            }

            /// ML-KEM.Encaps_internal(ek, m) (FIPS 203 Algorithm 17): the
            /// deterministic encapsulation behind [`Kem::encaps`]. `m` must
            /// be fresh uniform randomness outside of testing.
            #[must_use]
            pub fn encaps_derand(
                ek: &EncapsKey<Self>,
                m: &[u8; 32],
            ) -> (Ciphertext<Self>, SharedSecret) {
                types::encaps_derand::<Self>(ek, m)
            }
        }

        impl Kem for $ty {
            const INFO: AlgInfo = AlgInfo {
                name: $name,
                family: "ML-KEM",
                kind: Kind::Kem,
                pk_bytes: <$ty as ParameterSet>::EK_BYTES,
                sk_bytes: <$ty as ParameterSet>::DK_BYTES,
                ct_bytes: <$ty as ParameterSet>::CT_BYTES,
                sig_bytes: 0,
                ss_bytes: 32,
                category: $cat,
                status: Status::Standard,
                kat: KatRng::NistDrbg,
                kat_header: $header,
                revision: "FIPS 203 (August 2024)",
            };
            type EncapsKey = EncapsKey<Self>;
            type DecapsKey = DecapsKey<Self>;
            type Ciphertext = Ciphertext<Self>;
            type SharedSecret = SharedSecret;

            /// Draws d || z with one 64-byte `fill_bytes` call, then
            /// [`Self::keygen_derand`].
            fn keygen<R: CryptoRng + ?Sized>(rng: &mut R) -> (Self::EncapsKey, Self::DecapsKey) {
                let mut seed = [0u8; 64];
                rng.fill_bytes(&mut seed);
                let dk = DecapsKey::from_seed(&seed);
                seed.zeroize();
                (dk.encaps_key(), dk)
            }

            /// Draws m with one 32-byte `fill_bytes` call, then
            /// [`Self::encaps_derand`].
            fn encaps<R: CryptoRng + ?Sized>(
                ek: &Self::EncapsKey,
                rng: &mut R,
            ) -> (Self::Ciphertext, Self::SharedSecret) {
                let mut m = [0u8; 32];
                rng.fill_bytes(&mut m);
                let out = Self::encaps_derand(ek, &m);
                m.zeroize();
                out
            }

            /// ML-KEM.Decaps_internal (FIPS 203 Algorithm 18); the key was
            /// checked when it was built.
            fn decaps(dk: &Self::DecapsKey, ct: &Self::Ciphertext) -> Self::SharedSecret {
                types::decaps::<Self>(dk, ct)
            }
        }

        /// Registry entry (dynamic API): works on the caller's byte
        /// slices, with the input checks of the typed API.
        pub static $stat: MlKemDyn<$ty> = MlKemDyn::new();
    };
}

kem_impl!(MlKem512, "ml-kem-512", "# ML-KEM-512", 1, ML_KEM_512, 2);
kem_impl!(MlKem768, "ml-kem-768", "# ML-KEM-768", 3, ML_KEM_768, 3);
kem_impl!(MlKem1024, "ml-kem-1024", "# ML-KEM-1024", 5, ML_KEM_1024, 4);
