//! The `SignatureScheme` contract for ML-DSA-44/65/87: μ from core's
//! shared construction (`pqforge_core::sig::mu`, the same as FN-DSA's),
//! then Sign_internal / Verify_internal on μ.

use pqforge_core::keccak::Shake256;
use pqforge_core::{
    AlgInfo, CryptoRng, Error, HashAlg, KatRng, KeyForms, PreparedSk, PreparedVk, SignCaps,
    SignChecked, SignatureScheme, Status, VerifyChecked,
};

use core::marker::PhantomData;

use crate::backend::run;
use crate::keygen::{CheckSk, Keygen, PublicFromSk};
use crate::params::{MAX_K, MlDsa44, MlDsa65, MlDsa87, ParameterSet};
use crate::sign::Sign;
use crate::verify::{Message, Verify};

/// What every ML-DSA set accepts: contexts up to 255 bytes, HashML-DSA
/// with every pre-hash of FIPS 204 (the SHA-2, SHA-3 and SHAKE functions of
/// [`HashAlg::ALL`]) either computed here or passed as a caller's digest,
/// external μ, deterministic signing.
const CAPS: SignCaps = SignCaps {
    max_context: 255,
    prehash: &HashAlg::ALL,
    digest: &HashAlg::ALL,
    external_mu: true,
    deterministic: true,
};

/// A prepared ML-DSA public key: tr = H(pk, 64), what μ is built on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MlDsaVkState {
    /// tr = H(pk, 64).
    pub tr: [u8; 64],
}

impl Default for MlDsaVkState {
    fn default() -> Self {
        Self { tr: [0; 64] }
    }
}

/// H(pk, 64) = tr.
fn tr_of(pk: &[u8]) -> MlDsaVkState {
    let mut h = Shake256::new();
    h.absorb(pk);
    let mut tr = [0u8; 64];
    h.squeeze(&mut tr);
    MlDsaVkState { tr }
}

macro_rules! mldsa_set {
    ($ty:ident, $name:literal, $stem:literal, $oid:literal, $pk:literal, $sk:literal,
     $sig:literal, $cat:literal) => {
        impl SignatureScheme for $ty {
            const BACKENDS: pqforge_core::cpu::Backends = crate::backend::BACKENDS;
            const INFO: AlgInfo = AlgInfo::sig($name, "ML-DSA", $pk, $sk, $sig, $cat)
                .with_status(Status::Standard)
                .with_kat(KatRng::None, "")
                .with_oid($oid)
                .with_c_stem($stem)
                .with_feature("mldsa")
                .with_key_forms(KeyForms::SEED_AND_EXPANDED)
                .with_seeds(32, 0)
                .with_sign_caps(CAPS);

            /// ρ (bytes 0..32) and tr = H(pk) (64..128) are public.
            const SK_PUBLIC: &'static [core::ops::Range<usize>] = &[0..32, 64..128];

            type VkBytes = [u8; $pk];
            type SkBytes = [u8; $sk];
            type SigBytes = [u8; $sig];
            type KeygenSeed = [u8; 32];
            type VkState = MlDsaVkState;
            type SkState = ();

            fn prepare_vk(vk: &[u8; $pk]) -> Result<MlDsaVkState, Error> {
                // Every t1 encoding is valid (10-bit fields); the length is
                // exact by type.
                Ok(tr_of(vk))
            }

            /// The import checks of an expanded key (FIPS 204 leaves them
            /// to the implementation; a key that fails them is not one
            /// KeyGen could have made): every s1/s2 coefficient in
            /// [-η, η], and t0 and tr those of the key's own ρ, s1, s2.
            fn prepare_sk(sk: &[u8; $sk]) -> Result<(), Error> {
                let mut pk = [0u8; 32 + 320 * MAX_K];
                let pk = &mut pk[..$pk];
                if run(CheckSk::<Self> { sk, pk, _p: PhantomData }) {
                    Ok(())
                } else {
                    Err(Error::InvalidKey(
                        "ML-DSA expanded private key: s1/s2 out of range, or t0 / tr not those of its rho, s1, s2",
                    ))
                }
            }

            /// ML-DSA.KeyGen_internal(ξ).
            fn keygen_derand_into(
                seed: &[u8; 32],
                vk: &mut [u8; $pk],
                sk: &mut [u8; $sk],
            ) -> (MlDsaVkState, ()) {
                run(Keygen::<Self> { xi: seed, pk: vk, sk, _p: PhantomData });
                let mut tr = [0u8; 64];
                tr.copy_from_slice(&sk[64..128]);
                (MlDsaVkState { tr }, ())
            }

            fn verifying_key_into(sk: PreparedSk<'_, Self>, vk: &mut [u8; $pk]) -> MlDsaVkState {
                run(PublicFromSk::<Self> { sk: sk.bytes(), pk: vk, _p: PhantomData });
                tr_of(vk)
            }

            /// μ from the options (pure, HashML-DSA, digest or external
            /// μ), `rnd` drawn with one 32-byte `fill_bytes` (zero when
            /// deterministic), then Sign_internal.
            fn sign_into<R: CryptoRng + ?Sized>(
                sk: PreparedSk<'_, Self>,
                msg: &[u8],
                opts: &SignChecked<'_, Self>,
                rng: &mut R,
                sig: &mut [u8; $sig],
            ) -> Result<usize, Error> {
                let sk = sk.bytes();
                let mut tr = [0u8; 64];
                tr.copy_from_slice(&sk[64..128]);
                let mu = pqforge_core::sig::mu::mu(&tr, opts, msg)?;
                let mut rnd = [0u8; 32];
                if !opts.is_deterministic() {
                    rng.fill_bytes(&mut rnd);
                }
                run(Sign::<Self> { sk, msg: Message::Mu(&mu), rnd: &rnd, sig, _p: PhantomData });
                pqforge_core::ct::wipe(&mut rnd);
                Ok($sig)
            }

            fn verify_prepared(
                vk: PreparedVk<'_, Self>,
                msg: &[u8],
                opts: &VerifyChecked<'_, Self>,
                sig: &[u8],
            ) -> Result<(), Error> {
                let mu = pqforge_core::sig::mu::mu(&vk.state().tr, opts, msg)?;
                if run(Verify::<Self> { pk: vk.bytes(), msg: Message::Mu(&mu), sig, _p: PhantomData }) {
                    Ok(())
                } else {
                    Err(Error::Verification)
                }
            }
        }
    };
}

mldsa_set!(
    MlDsa44,
    "ml-dsa-44",
    "mldsa44",
    "2.16.840.1.101.3.4.3.17",
    1312,
    2560,
    2420,
    2
);
mldsa_set!(
    MlDsa65,
    "ml-dsa-65",
    "mldsa65",
    "2.16.840.1.101.3.4.3.18",
    1952,
    4032,
    3309,
    3
);
mldsa_set!(
    MlDsa87,
    "ml-dsa-87",
    "mldsa87",
    "2.16.840.1.101.3.4.3.19",
    2592,
    4896,
    4627,
    5
);

const _: () = {
    assert!(MlDsa44::PK_BYTES == 1312 && MlDsa44::SK_BYTES == 2560 && MlDsa44::SIG_BYTES == 2420);
    assert!(MlDsa65::PK_BYTES == 1952 && MlDsa65::SK_BYTES == 4032 && MlDsa65::SIG_BYTES == 3309);
    assert!(MlDsa87::PK_BYTES == 2592 && MlDsa87::SK_BYTES == 4896 && MlDsa87::SIG_BYTES == 4627);
};
