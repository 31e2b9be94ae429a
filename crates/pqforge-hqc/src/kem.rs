//! HQC-PKE and the HQC-KEM (salted Fujisaki-Okamoto transform with implicit
//! rejection), generic over the parameter set.
//!
//! Hashes (all with a trailing domain byte):
//! G = SHA3-512(·||0x00), H = SHA3-256(·||0x01), I = SHA3-512(·||0x02),
//! J = SHA3-256(·||0x03); the XOF is SHAKE256(seed||0x01).
//!
//! * KeyGen(seed_kem): (seed_pke, σ) from XOF(seed_kem);
//!   (seed_dk, seed_ek) = I(seed_pke); y then x from XOF(seed_dk);
//!   h from XOF(seed_ek); s = x + h·y; ek = seed_ek || s;
//!   dk = ek || seed_dk || σ || seed_kem.
//! * Encaps(ek; m, salt): (K, θ) = G(H(ek) || m || salt); r2, e, r1 from
//!   XOF(θ); u = r1 + h·r2; v = Encode(m) + Truncate(s·r2 + e);
//!   c = u || v || salt.
//! * Decaps(dk, c): m' = Decode(v − Truncate(u·y)); (K', θ') = G(H(ek) ||
//!   m' || salt); re-encrypt to c'; K̄ = J(H(ek) || σ || c); return K' if
//!   c' = c (every byte, including the unused high bits of u) else K̄,
//!   selected in constant time.

use pqforge_core::ct;
use pqforge_core::ctgrind;
use pqforge_core::keccak::{sha3_256_parts, sha3_512_parts};
use zeroize::Zeroize;

use crate::gf2x;
use crate::params::{MAX_K, ParameterSet, SALT_BYTES, SEED_BYTES, SS_BYTES};
use crate::sampling::{
    Xof, sample_fixed_weight_rejection, sample_fixed_weight_shift, sample_uniform,
};
use crate::types::{Ciphertext, DecapsKey, EncapsKey, SharedSecret};

/// H(ek) = SHA3-256(ek || 0x01).
fn hash_h(ek: &[u8]) -> [u8; 32] {
    sha3_256_parts(&[ek, &[0x01]])
}

/// HQC-PKE key generation: writes `s` (N_BYTES) and returns nothing else;
/// `seed_dk`/`seed_ek` are the halves of I(seed_pke).
fn pke_keygen<P: ParameterSet>(s_out: &mut [u8], seed_dk: &[u8], seed_ek: &[u8]) {
    let mut y = P::POLY_ZERO;
    let mut x = P::POLY_ZERO;
    let mut h = P::POLY_ZERO;
    let mut s = P::POLY_ZERO;
    let mut scratch = P::SCRATCH_ZERO;
    let mut xof = Xof::new(seed_dk, P::REVISION);
    sample_fixed_weight_rejection::<P>(&mut xof, y.as_mut(), P::OMEGA);
    sample_fixed_weight_rejection::<P>(&mut xof, x.as_mut(), P::OMEGA);
    let mut xof = Xof::new(seed_ek, P::REVISION);
    sample_uniform::<P>(&mut xof, h.as_mut());
    gf2x::mul_mod(s.as_mut(), h.as_ref(), y.as_ref(), P::N, scratch.as_mut());
    gf2x::add_assign(s.as_mut(), x.as_ref());
    gf2x::store(s_out, s.as_ref());
    y.as_mut().zeroize();
    x.as_mut().zeroize();
    s.as_mut().zeroize();
}

/// Deterministic KEM key generation from `seed_kem`.
pub(crate) fn keygen_derand<P: ParameterSet>(
    seed_kem: &[u8; SEED_BYTES],
) -> (EncapsKey<P>, DecapsKey<P>) {
    let mut xof = Xof::new(seed_kem, P::REVISION);
    let mut seed_pke = [0u8; SEED_BYTES];
    let mut sigma = [0u8; MAX_K];
    xof.get_bytes(&mut seed_pke);
    xof.get_bytes(&mut sigma[..P::K]);
    let mut seeds = sha3_512_parts(&[&seed_pke, &[0x02]]);
    let (seed_dk, seed_ek) = seeds.split_at(SEED_BYTES);

    let mut pk = P::PK_ZERO;
    pk.as_mut()[..SEED_BYTES].copy_from_slice(seed_ek);
    pke_keygen::<P>(&mut pk.as_mut()[SEED_BYTES..], seed_dk, seed_ek);
    // Declassified: the encapsulation key (seed_ek || s) is public.
    ctgrind::declassify(pk.as_mut());

    let mut sk = P::SK_ZERO;
    {
        let skb = sk.as_mut();
        let (ek_part, rest) = skb.split_at_mut(P::ENCAPS_KEY_BYTES);
        ek_part.copy_from_slice(pk.as_ref());
        let (dk_part, rest) = rest.split_at_mut(SEED_BYTES);
        dk_part.copy_from_slice(seed_dk);
        let (sig_part, kem_part) = rest.split_at_mut(P::K);
        sig_part.copy_from_slice(&sigma[..P::K]);
        kem_part.copy_from_slice(seed_kem);
    }
    seed_pke.zeroize();
    sigma.zeroize();
    seeds.zeroize();
    (EncapsKey { bytes: pk }, DecapsKey { bytes: sk })
}

/// HQC-PKE encryption of the k-byte `m` under `ek` with coins `theta`,
/// writing `u || v` to `out` (N_BYTES + V_BYTES).
fn pke_encrypt<P: ParameterSet>(out: &mut [u8], ek: &[u8], m: &[u8], theta: &[u8]) {
    let mut h = P::POLY_ZERO;
    let mut s = P::POLY_ZERO;
    let mut r1 = P::POLY_ZERO;
    let mut r2 = P::POLY_ZERO;
    let mut e = P::POLY_ZERO;
    let mut t = P::POLY_ZERO;
    let mut scratch = P::SCRATCH_ZERO;

    let mut xof = Xof::new(&ek[..SEED_BYTES], P::REVISION);
    sample_uniform::<P>(&mut xof, h.as_mut());
    gf2x::load(s.as_mut(), &ek[SEED_BYTES..], P::N);

    let mut xof = Xof::new(theta, P::REVISION);
    sample_fixed_weight_shift::<P>(&mut xof, r2.as_mut(), P::OMEGA_R);
    sample_fixed_weight_shift::<P>(&mut xof, e.as_mut(), P::OMEGA_E);
    sample_fixed_weight_shift::<P>(&mut xof, r1.as_mut(), P::OMEGA_R);

    // u = r1 + h·r2
    gf2x::mul_mod(t.as_mut(), h.as_ref(), r2.as_ref(), P::N, scratch.as_mut());
    gf2x::add_assign(t.as_mut(), r1.as_ref());
    let (u_out, v_out) = out.split_at_mut(P::N_BYTES);
    gf2x::store(u_out, t.as_ref());

    // v = Encode(m) + Truncate(s·r2 + e, n1·n2)
    gf2x::mul_mod(t.as_mut(), s.as_ref(), r2.as_ref(), P::N, scratch.as_mut());
    gf2x::add_assign(t.as_mut(), e.as_ref());
    crate::code::encode::<P>(h.as_mut(), m);
    gf2x::add_assign(t.as_mut(), h.as_ref());
    // N1N2 is a multiple of 8 for every set, so storing V_BYTES bytes is
    // exactly the truncation.
    gf2x::store(v_out, t.as_ref());

    for p in [&mut h, &mut r1, &mut r2, &mut e, &mut t] {
        p.as_mut().zeroize();
    }
}

/// Deterministic encapsulation with message `m` (k bytes) and `salt`.
pub(crate) fn encaps_derand<P: ParameterSet>(
    ek: &EncapsKey<P>,
    m: &[u8],
    salt: &[u8; SALT_BYTES],
) -> (Ciphertext<P>, SharedSecret<P>) {
    let ekb = ek.bytes.as_ref();
    let hek = hash_h(ekb);
    let mut g = sha3_512_parts(&[&hek, m, salt, &[0x00]]);
    let mut ct = P::CT_ZERO;
    {
        let ctb = ct.as_mut();
        let (c_pke, c_salt) = ctb.split_at_mut(P::N_BYTES + P::V_BYTES);
        pke_encrypt::<P>(c_pke, ekb, m, &g[SS_BYTES..]);
        c_salt.copy_from_slice(salt);
    }
    // Declassified: the ciphertext is public.
    ctgrind::declassify(ct.as_mut());
    let mut k = [0u8; SS_BYTES];
    k.copy_from_slice(&g[..SS_BYTES]);
    g.zeroize();
    (Ciphertext { bytes: ct }, SharedSecret::new(k))
}

/// Randomised encapsulation: draws m (k bytes) then salt (16 bytes).
pub(crate) fn encaps<P: ParameterSet, R: pqforge_core::CryptoRng + ?Sized>(
    ek: &EncapsKey<P>,
    rng: &mut R,
) -> (Ciphertext<P>, SharedSecret<P>) {
    let mut m = [0u8; MAX_K];
    let mut salt = [0u8; SALT_BYTES];
    rng.fill_bytes(&mut m[..P::K]);
    rng.fill_bytes(&mut salt);
    let out = encaps_derand::<P>(ek, &m[..P::K], &salt);
    m.zeroize();
    out
}

/// Randomised key generation: draws seed_kem (32 bytes).
pub(crate) fn keygen<P: ParameterSet, R: pqforge_core::CryptoRng + ?Sized>(
    rng: &mut R,
) -> (EncapsKey<P>, DecapsKey<P>) {
    let mut seed = [0u8; SEED_BYTES];
    rng.fill_bytes(&mut seed);
    let out = keygen_derand::<P>(&seed);
    seed.zeroize();
    out
}

/// HQC-PKE decryption: the k-byte m' of `u || v` under `seed_dk`.
fn pke_decrypt<P: ParameterSet>(m: &mut [u8], seed_dk: &[u8], c_pke: &[u8]) {
    let mut y = P::POLY_ZERO;
    let mut u = P::POLY_ZERO;
    let mut t = P::POLY_ZERO;
    let mut scratch = P::SCRATCH_ZERO;
    let mut xof = Xof::new(seed_dk, P::REVISION);
    sample_fixed_weight_rejection::<P>(&mut xof, y.as_mut(), P::OMEGA);
    // Bits of u at and above n are dropped here; the final ciphertext
    // comparison still sees them (implicit rejection).
    gf2x::load(u.as_mut(), &c_pke[..P::N_BYTES], P::N);
    gf2x::mul_mod(t.as_mut(), u.as_ref(), y.as_ref(), P::N, scratch.as_mut());
    // u <- v - Truncate(u·y, n1·n2); n1·n2 is a multiple of 64 for every
    // set, so the truncation is a whole number of words.
    const { assert!(P::N1N2 % 64 == 0) };
    gf2x::load(u.as_mut(), &c_pke[P::N_BYTES..], P::N1N2);
    gf2x::add_assign(&mut u.as_mut()[..P::N1N2 / 64], &t.as_ref()[..P::N1N2 / 64]);
    crate::code::decode::<P>(m, u.as_ref());
    for p in [&mut y, &mut u, &mut t] {
        p.as_mut().zeroize();
    }
}

/// Decapsulation with implicit rejection.
pub(crate) fn decaps<P: ParameterSet>(dk: &DecapsKey<P>, ct: &Ciphertext<P>) -> SharedSecret<P> {
    let skb = dk.bytes.as_ref();
    let ek = &skb[..P::ENCAPS_KEY_BYTES];
    let seed_dk = &skb[P::ENCAPS_KEY_BYTES..P::ENCAPS_KEY_BYTES + SEED_BYTES];
    let sigma = &skb[P::ENCAPS_KEY_BYTES + SEED_BYTES..P::ENCAPS_KEY_BYTES + SEED_BYTES + P::K];
    let ctb = ct.bytes.as_ref();
    let c_pke = &ctb[..P::N_BYTES + P::V_BYTES];
    let salt = &ctb[P::N_BYTES + P::V_BYTES..];

    let mut m = [0u8; MAX_K];
    pke_decrypt::<P>(&mut m[..P::K], seed_dk, c_pke);

    let hek = hash_h(ek);
    let mut g = sha3_512_parts(&[&hek, &m[..P::K], salt, &[0x00]]);
    let mut c2 = P::CT_ZERO;
    {
        let c2b = c2.as_mut();
        let (p, s) = c2b.split_at_mut(P::N_BYTES + P::V_BYTES);
        pke_encrypt::<P>(p, ek, &m[..P::K], &g[SS_BYTES..]);
        s.copy_from_slice(salt);
    }
    let mut k_bar = sha3_256_parts(&[&hek, sigma, ctb, &[0x03]]);
    let same = ct::eq_mask(c2.as_ref(), ctb);
    let mut k = [0u8; SS_BYTES];
    ct::select(same, &g[..SS_BYTES], &k_bar, &mut k);
    m.zeroize();
    g.zeroize();
    k_bar.zeroize();
    c2.as_mut().zeroize();
    SharedSecret::new(k)
}

/// Implements [`pqforge_core::Kem`] and the deterministic entry points for a
/// parameter-set marker type by delegating to the generic functions above.
macro_rules! impl_kem {
    ($ty:ident) => {
        impl pqforge_core::Kem for $ty {
            const INFO: pqforge_core::AlgInfo = <$ty as crate::params::ParameterSet>::ALG_INFO;
            type EncapsKey = crate::types::EncapsKey<$ty>;
            type DecapsKey = crate::types::DecapsKey<$ty>;
            type Ciphertext = crate::types::Ciphertext<$ty>;
            type SharedSecret = crate::types::SharedSecret<$ty>;

            fn keygen<R: pqforge_core::CryptoRng + ?Sized>(
                rng: &mut R,
            ) -> (Self::EncapsKey, Self::DecapsKey) {
                crate::kem::keygen::<$ty, R>(rng)
            }

            fn encaps<R: pqforge_core::CryptoRng + ?Sized>(
                ek: &Self::EncapsKey,
                rng: &mut R,
            ) -> (Self::Ciphertext, Self::SharedSecret) {
                crate::kem::encaps::<$ty, R>(ek, rng)
            }

            fn decaps(dk: &Self::DecapsKey, ct: &Self::Ciphertext) -> Self::SharedSecret {
                crate::kem::decaps::<$ty>(dk, ct)
            }
        }

        impl $ty {
            /// Deterministic key generation from a 32-byte `seed_kem` (what
            /// [`pqforge_core::Kem::keygen`] draws from its RNG). For tests
            /// and known-answer tests.
            #[must_use]
            pub fn keygen_derand(
                seed_kem: &[u8; 32],
            ) -> (crate::types::EncapsKey<$ty>, crate::types::DecapsKey<$ty>) {
                crate::kem::keygen_derand::<$ty>(seed_kem)
            }

            /// Deterministic encapsulation with an explicit message `m`
            /// (k = 16/24/32 bytes for HQC-1/3/5) and 16-byte `salt` (what
            /// [`pqforge_core::Kem::encaps`] draws, in that order). For tests
            /// and known-answer tests.
            ///
            /// # Errors
            /// [`pqforge_core::Error::Length`] if `m` is not k bytes.
            pub fn encaps_derand(
                ek: &crate::types::EncapsKey<$ty>,
                m: &[u8],
                salt: &[u8; 16],
            ) -> Result<
                (
                    crate::types::Ciphertext<$ty>,
                    crate::types::SharedSecret<$ty>,
                ),
                pqforge_core::Error,
            > {
                pqforge_core::check_len(
                    "message",
                    <$ty as crate::params::ParameterSet>::K,
                    m.len(),
                )?;
                Ok(crate::kem::encaps_derand::<$ty>(ek, m, salt))
            }
        }
    };
}
pub(crate) use impl_kem;
