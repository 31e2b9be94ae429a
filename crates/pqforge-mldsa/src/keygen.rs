//! ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6): ξ to the public key and
//! the expanded private key, and the checks of an imported expanded key.
//! t is computed one row at a time; Â is sampled whole on x86_64 and one
//! entry at a time elsewhere (`backend::mat_vec`).

use core::marker::PhantomData;

use pqforge_core::ct::{self, wipe};
use pqforge_core::keccak::Shake256;

use crate::backend::{Backend, Operation, Poly, mat_vec};
use crate::pack::{pack_i32, pack_signed, unpack_signed, unpack_with};
use crate::params::{N, ParameterSet, PolyVec};

/// Offsets of the expanded private key ρ || K || tr || s1 || s2 || t0.
pub(crate) struct SkLayout;

impl SkLayout {
    /// Bytes of one packed s1/s2 polynomial.
    pub(crate) const fn eta_bytes<P: ParameterSet>() -> usize {
        32 * P::ETA_BITS as usize
    }
    /// Start of packed s polynomial `r` (s1 rows first, then s2).
    pub(crate) const fn s<P: ParameterSet>(r: usize) -> usize {
        128 + Self::eta_bytes::<P>() * r
    }
    /// Start of packed t0 row `i`.
    pub(crate) const fn t0<P: ParameterSet>(i: usize) -> usize {
        Self::s::<P>(P::K + P::L) + 416 * i
    }
}

/// t = NTT^-1(Â ∘ ŝ1) + s2 row by row, split by Power2Round: `f(i, t1_i,
/// t0_i)` for each row i (t1 in [0, 2^10), t0 in (-2^12, 2^12]).
pub(crate) fn t_rows<P: ParameterSet, B: Backend>(
    rho: &[u8; 32],
    s1_hat: &[Poly],
    s2: &[Poly],
    mut f: impl FnMut(usize, &Poly, &Poly),
) {
    let mut t1 = [0i32; N];
    let mut t0 = [0i32; N];
    mat_vec::<P, B>(rho, s1_hat, |i, acc| {
        B::reduce32(acc);
        B::invntt_tomont(acc);
        for (x, s) in acc.iter_mut().zip(&s2[i]) {
            *x += *s;
        }
        B::reduce32(acc);
        B::caddq(acc);
        B::power2round(acc, &mut t1, &mut t0);
        f(i, &t1, &t0);
        wipe(acc);
    });
    wipe(&mut t0);
}

/// Packs t1 (10-bit fields).
fn pack_t1(t1: &Poly, out: &mut [u8]) {
    pack_i32(t1, 10, out);
}

/// KeyGen_internal(ξ): writes pk (`P::PK_BYTES`) and the expanded sk
/// (`P::SK_BYTES`).
fn keygen<P: ParameterSet, B: Backend>(xi: &[u8; 32], pk: &mut [u8], sk: &mut [u8]) {
    let (k, l) = (P::K, P::L);
    // (ρ, ρ', K) = H(ξ || k || ℓ, 128).
    let mut seeds = [0u8; 128];
    let mut h = Shake256::new();
    h.absorb(xi);
    h.absorb(&[k as u8, l as u8]);
    h.squeeze(&mut seeds);
    let mut rho = [0u8; 32];
    let mut rho_p = [0u8; 64];
    rho.copy_from_slice(&seeds[..32]);
    rho_p.copy_from_slice(&seeds[32..96]);
    // CT: ρ is the public matrix seed (it is the first field of pk).
    pqforge_core::ctgrind::declassify(&mut rho);
    sk[..32].copy_from_slice(&rho);
    sk[32..64].copy_from_slice(&seeds[96..128]);
    pk[..32].copy_from_slice(&rho);

    // s1 and s2 (ExpandS), packed into sk; s1 then goes to the NTT domain.
    let eta = P::ETA as i32;
    let eb = SkLayout::eta_bytes::<P>();
    let mut s1 = P::VecL::zero();
    let mut s2 = P::VecK::zero();
    let (s1, s2) = (s1.as_mut(), s2.as_mut());
    B::expand_s(&rho_p, 0, P::ETA, s1);
    B::expand_s(&rho_p, l as u16, P::ETA, s2);
    for (r, p) in s1.iter_mut().chain(s2.iter_mut()).enumerate() {
        let off = SkLayout::s::<P>(r);
        pack_signed(p, eta, P::ETA_BITS, &mut sk[off..off + eb]);
    }
    for p in s1.iter_mut() {
        B::ntt(p);
    }
    {
        let (pk_t1, sk_t0) = (&mut pk[32..], &mut sk[SkLayout::t0::<P>(0)..]);
        t_rows::<P, B>(&rho, s1, s2, |i, t1, t0| {
            pack_t1(t1, &mut pk_t1[320 * i..320 * (i + 1)]);
            pack_signed(t0, 1 << 12, 13, &mut sk_t0[416 * i..416 * (i + 1)]);
        });
    }
    // CT: the public key is public.
    pqforge_core::ctgrind::declassify(pk);
    let mut h = Shake256::new();
    h.absorb(pk);
    h.squeeze(&mut sk[64..128]);
    wipe(&mut seeds);
    wipe(&mut rho_p);
    wipe(s1.as_flattened_mut());
    wipe(s2.as_flattened_mut());
}

/// Decodes s1 (to the NTT domain) and s2 of a checked expanded key.
fn decode_s<P: ParameterSet, B: Backend>(sk: &[u8], s1_hat: &mut [Poly], s2: &mut [Poly]) {
    let eb = SkLayout::eta_bytes::<P>();
    for (r, p) in s1_hat.iter_mut().chain(s2.iter_mut()).enumerate() {
        let off = SkLayout::s::<P>(r);
        unpack_signed(&sk[off..off + eb], P::ETA as i32, P::ETA_BITS, p);
    }
    for p in s1_hat {
        B::ntt(p);
    }
}

/// The public key ρ || t1 of an expanded private key whose s1/s2 are in
/// range, recomputed from its ρ, s1 and s2 into `pk`; `f(i, t0_i)` sees
/// each row's t0.
fn recompute_public<P: ParameterSet, B: Backend>(
    sk: &[u8],
    pk: &mut [u8],
    mut f: impl FnMut(usize, &Poly),
) {
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&sk[..32]);
    // CT: ρ is the public matrix seed (part of the public key).
    pqforge_core::ctgrind::declassify(&mut rho);
    let mut s1_hat = P::VecL::zero();
    let mut s2 = P::VecK::zero();
    let (s1_hat, s2) = (s1_hat.as_mut(), s2.as_mut());
    decode_s::<P, B>(sk, s1_hat, s2);
    pk[..32].copy_from_slice(&rho);
    let pk_t1 = &mut pk[32..];
    t_rows::<P, B>(&rho, s1_hat, s2, |i, t1, t0| {
        pack_t1(t1, &mut pk_t1[320 * i..320 * (i + 1)]);
        f(i, t0);
    });
    wipe(s1_hat.as_flattened_mut());
    wipe(s2.as_flattened_mut());
}

/// Whether every packed s1/s2 field of `sk` encodes a value in [-η, η]
/// (branch-free: the key is secret).
fn s_in_range<P: ParameterSet>(sk: &[u8]) -> bool {
    let eb = SkLayout::eta_bytes::<P>();
    let mut bad = 0u32;
    for chunk in sk[SkLayout::s::<P>(0)..SkLayout::t0::<P>(0)].chunks_exact(eb) {
        unpack_with(chunk, P::ETA_BITS, |_, f| {
            // Field f encodes η - f; valid iff f ≤ 2η.
            bad |= (2 * P::ETA).wrapping_sub(f) >> 31;
        });
    }
    bad == 0
}

/// The checks of an imported expanded private key, all computed before one
/// result is declassified: every s1/s2 field in [-η, η], and t0 and tr
/// those of the key's own (ρ, s1, s2), i.e. t0 = Power2Round(A s1 + s2).0
/// and tr = H(ρ || t1). On success, `pk` holds the public key.
fn check_sk<P: ParameterSet, B: Backend>(sk: &[u8], pk: &mut [u8]) -> bool {
    // CT: rejecting a malformed key reveals only that it is malformed.
    if !pqforge_core::ctgrind::declassify_val(s_in_range::<P>(sk)) {
        return false;
    }
    let mut diff = 0u8;
    let mut t0_enc = [0u8; 416];
    recompute_public::<P, B>(sk, pk, |i, t0| {
        pack_signed(t0, 1 << 12, 13, &mut t0_enc);
        let off = SkLayout::t0::<P>(i);
        diff |= !ct::eq_mask(&t0_enc, &sk[off..off + 416]);
    });
    let mut tr = [0u8; 64];
    let mut h = Shake256::new();
    h.absorb(pk);
    h.squeeze(&mut tr);
    diff |= !ct::eq_mask(&tr, &sk[64..128]);
    wipe(&mut t0_enc);
    // CT: whether the key is consistent (a public verdict on the input).
    pqforge_core::ctgrind::declassify_val(diff) == 0
}

/// KeyGen_internal as an [`Operation`].
pub(crate) struct Keygen<'a, P> {
    pub xi: &'a [u8; 32],
    pub pk: &'a mut [u8],
    pub sk: &'a mut [u8],
    pub _p: PhantomData<P>,
}

impl<P: ParameterSet> Operation for Keygen<'_, P> {
    type Output = ();
    fn run<B: Backend>(self) {
        keygen::<P, B>(self.xi, self.pk, self.sk);
    }
}

/// The public key of a checked expanded key, as an [`Operation`].
pub(crate) struct PublicFromSk<'a, P> {
    pub sk: &'a [u8],
    pub pk: &'a mut [u8],
    pub _p: PhantomData<P>,
}

impl<P: ParameterSet> Operation for PublicFromSk<'_, P> {
    type Output = ();
    fn run<B: Backend>(self) {
        recompute_public::<P, B>(self.sk, self.pk, |_, _| {});
    }
}

/// The import check of an expanded key, as an [`Operation`].
pub(crate) struct CheckSk<'a, P> {
    pub sk: &'a [u8],
    pub pk: &'a mut [u8],
    pub _p: PhantomData<P>,
}

impl<P: ParameterSet> Operation for CheckSk<'_, P> {
    type Output = bool;
    fn run<B: Backend>(self) -> bool {
        check_sk::<P, B>(self.sk, self.pk)
    }
}
