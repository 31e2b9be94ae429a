#![doc = include_str!("../README.md")]
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

//! # Construction (draft-connolly-cfrg-xwing-kem-10, §5)
//!
//! * Key generation from a 32-byte seed `sk` (the decapsulation key is the
//!   seed itself): `expanded = SHAKE256(sk, 96)`; ML-KEM-768
//!   `KeyGen_internal(d = expanded[0..32], z = expanded[32..64])` gives
//!   `(pk_M, dk_M)`; `sk_X = expanded[64..96]`, `pk_X = X25519(sk_X, 9)`;
//!   the encapsulation key is `pk_M ‖ pk_X` (1216 bytes).
//! * Encapsulation with 64 bytes of randomness `eseed`: `(ss_M, ct_M) =
//!   ML-KEM-768.Encaps_internal(pk_M, eseed[0..32])`, `ek_X = eseed[32..64]`,
//!   `ct_X = X25519(ek_X, 9)`, `ss_X = X25519(ek_X, pk_X)`; the ciphertext
//!   is `ct_M ‖ ct_X` (1120 bytes).
//! * Decapsulation: `ss_M = ML-KEM-768.Decaps(dk_M, ct_M)` (implicit
//!   rejection), `ss_X = X25519(sk_X, ct_X)`.
//! * Shared secret: `SHA3-256(ss_M ‖ ss_X ‖ ct_X ‖ pk_X ‖ XWingLabel)` with
//!   the six-byte label `\.//^\`.
//!
//! Preparing a decapsulation key (the typed API does it once per key; the
//! dynamic API's one-shot `decaps` for every call) runs the expansion: an
//! ML-KEM-768 key generation and an X25519 base-point multiplication.
//! Preparing an encapsulation key runs ML-KEM's modulus check and hashes
//! `pk_M`; any 32 bytes are an X25519 public key. X25519 clamps its scalars
//! (RFC 7748) and accepts every u-coordinate, as the draft specifies (no
//! all-zero check: the ML-KEM share keeps the combined secret strong).

use pqforge_core::{AlgInfo, Error, Kem, KeyForms, PreparedDk, PreparedEk, Scheme, Status};
use pqforge_mlkem::MlKem768;
use zeroize::Zeroize;

/// The X-Wing hybrid KEM (ML-KEM-768 + X25519), status draft.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct XWing;

/// The parameter sets of this crate (for the `pqforge` registry).
pub const SCHEMES: [Scheme; 1] = [Scheme::kem::<XWing>()];

/// `XWingLabel`: the ASCII bytes `\./` `/^\`.
const LABEL: [u8; 6] = *b"\\.//^\\";
/// ML-KEM-768 encapsulation-key, decapsulation-key and ciphertext bytes.
const EK_M: usize = 1184;
const DK_M: usize = 2400;
const CT_M: usize = 1088;

/// A prepared decapsulation key: the expansion of the 32-byte seed.
#[derive(Clone)]
pub struct ExpandedKey {
    dk_m: [u8; DK_M],
    sk_x: [u8; 32],
    pk_x: [u8; 32],
}

impl Default for ExpandedKey {
    fn default() -> Self {
        Self {
            dk_m: [0; DK_M],
            sk_x: [0; 32],
            pk_x: [0; 32],
        }
    }
}

impl Zeroize for ExpandedKey {
    fn zeroize(&mut self) {
        self.dk_m.zeroize();
        self.sk_x.zeroize();
        self.pk_x.zeroize();
    }
}

/// Wiped on drop: it holds ML-KEM's secret vector and z, and sk_X (the
/// dynamic API drops the states key generation returns).
impl Drop for ExpandedKey {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl zeroize::ZeroizeOnDrop for ExpandedKey {}

impl core::fmt::Debug for ExpandedKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("ExpandedKey(..)")
    }
}

/// `expandDecapsulationKey(sk)`: writes `pk_M` into `ek_m` and returns the
/// expanded key (dk_M, sk_X, pk_X).
fn expand(sk: &[u8; 32], ek_m: &mut [u8; EK_M]) -> ExpandedKey {
    let mut x = [0u8; 96];
    pqforge_core::keccak::shake256(sk, &mut x);
    let mut seed = [0u8; 64];
    seed.copy_from_slice(&x[..64]);
    let mut key = ExpandedKey::default();
    let _ = MlKem768::keygen_derand_into(&seed, ek_m, &mut key.dk_m);
    key.sk_x.copy_from_slice(&x[64..]);
    key.pk_x = x25519_base(key.sk_x);
    x.zeroize();
    seed.zeroize();
    key
}

/// X25519(k, 9): the fixed-base multiplication (x25519-dalek's precomputed
/// table, constant time) instead of the generic ladder.
fn x25519_base(k: [u8; 32]) -> [u8; 32] {
    let s = x25519_dalek::StaticSecret::from(k);
    x25519_dalek::PublicKey::from(&s).to_bytes()
}

/// The combiner: SHA3-256(ss_M ‖ ss_X ‖ ct_X ‖ pk_X ‖ XWingLabel).
fn combine(ss_m: &[u8; 32], ss_x: &[u8; 32], ct_x: &[u8], pk_x: &[u8], out: &mut [u8; 32]) {
    *out = pqforge_core::sponge::sha3_256(&[ss_m, ss_x, ct_x, pk_x, &LABEL]);
}

/// `pk_M` of an encapsulation key.
fn ek_m(ek: &[u8; 1216]) -> &[u8; EK_M] {
    // The length is exact by construction (the fallback is unreachable).
    ek[..EK_M].try_into().unwrap_or(&[0; EK_M])
}

/// The last 32 bytes of `b` (the X25519 part of a key or ciphertext).
fn tail32(b: &[u8]) -> [u8; 32] {
    let mut x = [0u8; 32];
    x.copy_from_slice(&b[b.len() - 32..]);
    x
}

impl Kem for XWing {
    /// ML-KEM-768's: the X25519 half is x25519-dalek's 64-bit field
    /// arithmetic on every CPU (no run-time dispatch).
    const BACKENDS: pqforge_core::cpu::Backends = <MlKem768 as Kem>::BACKENDS;
    const INFO: AlgInfo = AlgInfo::kem("x-wing", "X-Wing", 1216, 32, 1120, 32, 3)
        .with_status(Status::Draft)
        .with_revision("draft-connolly-cfrg-xwing-kem-10 (March 2026)")
        .with_aliases(&["xwing"])
        .with_oid("1.3.6.1.4.1.62253.25722")
        .with_key_forms(KeyForms::EXPANDED)
        .with_c_stem("xwing")
        .with_feature("xwing")
        .with_seeds(32, 64);

    type EkBytes = [u8; 1216];
    /// The 32-byte seed (X-Wing's only private-key form).
    type DkBytes = [u8; 32];
    type CtBytes = [u8; 1120];
    type SsBytes = [u8; 32];
    /// The 32-byte seed. X-Wing's decapsulation key is this seed, stored as
    /// is: its one private-key form, declared as the encoded key
    /// (`KeyForms::EXPANDED`, 32 bytes), so key files hold the raw seed as
    /// the draft's PKCS#8 example does.
    type KeygenSeed = [u8; 32];
    /// ML-KEM-768's `m` (32 bytes), then the ephemeral X25519 scalar.
    type EncapsSeed = [u8; 64];
    /// H(pk_M), ML-KEM-768's prepared state.
    type EkState = [u8; 32];
    type DkState = ExpandedKey;

    fn prepare_ek(ek: &[u8; 1216]) -> Result<[u8; 32], Error> {
        MlKem768::prepare_ek(ek_m(ek)).map_err(|_| {
            Error::Encoding("X-Wing encapsulation key: ML-KEM-768 part fails its modulus check")
        })
    }

    fn prepare_dk(dk: &[u8; 32]) -> Result<ExpandedKey, Error> {
        let mut ek = [0u8; EK_M];
        Ok(expand(dk, &mut ek))
    }

    fn keygen_derand_into(
        seed: &[u8; 32],
        ek: &mut [u8; 1216],
        dk: &mut [u8; 32],
    ) -> ([u8; 32], ExpandedKey) {
        *dk = *seed;
        let mut ek_m = [0u8; EK_M];
        let key = expand(seed, &mut ek_m);
        ek[..EK_M].copy_from_slice(&ek_m);
        ek[EK_M..].copy_from_slice(&key.pk_x);
        // H(pk_M) as ML-KEM stores it in dk_M (after dk_PKE and ek).
        let mut h = [0u8; 32];
        h.copy_from_slice(&key.dk_m[DK_M - 64..DK_M - 32]);
        (h, key)
    }

    fn encaps_derand_into(
        ek: PreparedEk<'_, Self>,
        eseed: &[u8; 64],
        ct: &mut [u8; 1120],
        ss: &mut [u8; 32],
    ) -> Result<(), Error> {
        let ek_bytes = ek.bytes();
        let pk_x = tail32(ek_bytes);
        let mut m = [0u8; 32];
        m.copy_from_slice(&eseed[..32]);
        let mut ek_x = [0u8; 32];
        ek_x.copy_from_slice(&eseed[32..]);
        let mut ct_m = [0u8; CT_M];
        let mut ss_m = [0u8; 32];
        MlKem768::encaps_derand_into(
            PreparedEk::from_parts(ek_m(ek_bytes), ek.state()),
            &m,
            &mut ct_m,
            &mut ss_m,
        )?;
        let ct_x = x25519_base(ek_x);
        let mut ss_x = x25519_dalek::x25519(ek_x, pk_x);
        combine(&ss_m, &ss_x, &ct_x, &pk_x, ss);
        ct[..CT_M].copy_from_slice(&ct_m);
        ct[CT_M..].copy_from_slice(&ct_x);
        // Public: the ciphertext is the public output of encapsulation.
        pqforge_core::ctgrind::declassify(ct);
        m.zeroize();
        ek_x.zeroize();
        ss_m.zeroize();
        ss_x.zeroize();
        Ok(())
    }

    /// `pk_M ‖ pk_X` of the seed: its key generation again.
    fn derive_ek(dk: &[u8; 32], ek: &mut [u8; 1216]) -> Result<(), Error> {
        let mut seed = *dk;
        let _ = Self::keygen_derand_into(dk, ek, &mut seed);
        seed.zeroize();
        Ok(())
    }

    fn decaps_into(dk: PreparedDk<'_, Self>, ct: &[u8; 1120], ss: &mut [u8; 32]) {
        let key = dk.state();
        let mut ss_m = [0u8; 32];
        MlKem768::decaps_into(
            PreparedDk::from_parts(&key.dk_m, &()),
            ct[..CT_M].try_into().unwrap_or(&[0; CT_M]),
            &mut ss_m,
        );
        let ct_x = tail32(ct);
        let mut ss_x = x25519_dalek::x25519(key.sk_x, ct_x);
        combine(&ss_m, &ss_x, &ct_x, &key.pk_x, ss);
        ss_m.zeroize();
        ss_x.zeroize();
    }
}

// The sizes of the ML-KEM-768 parts.
const _: () = {
    assert!(<MlKem768 as pqforge_mlkem::ParameterSet>::EK_BYTES == EK_M);
    assert!(<MlKem768 as pqforge_mlkem::ParameterSet>::DK_BYTES == DK_M);
    assert!(<MlKem768 as pqforge_mlkem::ParameterSet>::CT_BYTES == CT_M);
};
