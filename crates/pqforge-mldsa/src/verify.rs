//! ML-DSA.Verify_internal (FIPS 204 Algorithm 8), strict: exact lengths,
//! the hint encoding accepted only in its one valid form (Algorithm 21),
//! ‖z‖∞ < γ1 - β, c̃ recomputed and compared over all its bytes. Â is
//! streamed a batch of entries at a time and the hints are decoded row by
//! row from the signature, so the stack holds ẑ and a few polynomials.
//! Everything here is public, so it may branch.

use core::marker::PhantomData;

use pqforge_core::keccak::Shake256;

use crate::backend::{Backend, Operation, Poly, mat_vec};
use crate::pack::{pack_i32, unpack_signed, unpack_with};
use crate::params::{D, GAMMA2_32, GAMMA2_88, N, ParameterSet, PolyVec};
use crate::sample::sample_in_ball;

/// What the signature is over: M' (μ is computed from tr and M') or μ
/// itself (external μ).
#[derive(Clone, Copy, Debug)]
pub enum Message<'a> {
    /// The formatted message M' (for the internal interface, the message
    /// itself). Only the `hazmat` interface passes it.
    #[cfg_attr(not(feature = "hazmat"), allow(dead_code))]
    Prime(&'a [u8]),
    /// μ = H(tr || M', 64), computed by the caller.
    Mu(&'a [u8; 64]),
}

/// Whether the hint part `y` (ω + k bytes) is the one valid encoding of
/// HintBitUnpack (Algorithm 21): counters non-decreasing and ≤ ω (the last
/// one included), indices strictly increasing within a row, unused slots
/// zero.
#[must_use]
pub fn hint_is_canonical<P: ParameterSet>(y: &[u8]) -> bool {
    let omega = P::OMEGA;
    if y.len() != omega + P::K {
        return false;
    }
    let mut idx = 0usize;
    for i in 0..P::K {
        let end = usize::from(y[omega + i]);
        if end < idx || end > omega {
            return false;
        }
        for t in idx + 1..end {
            if y[t - 1] >= y[t] {
                return false;
            }
        }
        idx = end;
    }
    y[idx..omega].iter().all(|&b| b == 0)
}

/// Row `i` of the hint vector of a canonical encoding `y`, as 0/1
/// coefficients.
pub(crate) fn hint_row<P: ParameterSet>(y: &[u8], i: usize, h: &mut Poly) {
    let start = if i == 0 {
        0
    } else {
        usize::from(y[P::OMEGA + i - 1])
    };
    let end = usize::from(y[P::OMEGA + i]);
    h.fill(0);
    for &pos in &y[start..end] {
        h[usize::from(pos)] = 1;
    }
}

/// Verify_internal: `true` iff `sig` is a valid signature of `msg` under
/// `pk`. Wrong lengths are rejected, never padded.
fn verify<P: ParameterSet, B: Backend>(pk: &[u8], msg: Message<'_>, sig: &[u8]) -> bool {
    if pk.len() != P::PK_BYTES || sig.len() != P::SIG_BYTES {
        return false;
    }
    let l = P::L;
    let (ctilde, rest) = sig.split_at(P::CTILDE);
    let zbits = P::GAMMA1_BITS + 1;
    let zbytes = 32 * zbits as usize;
    let (zenc, henc) = rest.split_at(l * zbytes);
    if !hint_is_canonical::<P>(henc) {
        return false;
    }
    let bound = P::GAMMA1 - P::BETA;
    let mut z_hat = P::VecL::zero();
    let z_hat = z_hat.as_mut();
    for (j, z) in z_hat.iter_mut().enumerate() {
        unpack_signed(&zenc[zbytes * j..zbytes * (j + 1)], P::GAMMA1, zbits, z);
        if B::exceeds(z, bound) {
            return false;
        }
        B::ntt(z);
    }

    // μ = H(tr || M', 64), tr = H(pk, 64).
    let mut mu = [0u8; 64];
    match msg {
        Message::Mu(m) => mu = *m,
        Message::Prime(m) => {
            let mut tr = [0u8; 64];
            let mut hh = Shake256::new();
            hh.absorb(pk);
            hh.squeeze(&mut tr);
            let mut hh = Shake256::new();
            hh.absorb(&tr);
            hh.absorb(m);
            hh.squeeze(&mut mu);
        }
    }

    let mut c = [0i32; N];
    sample_in_ball(ctilde, P::TAU, &mut c);
    B::ntt(&mut c);
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&pk[..32]);
    let w1_bytes = 32 * P::W1_BITS as usize;
    let mut w1_enc = [0u8; 192];
    let mut hc = Shake256::new();
    hc.absorb(&mu);
    let mut t = [0i32; N];
    mat_vec::<P, B>(&rho, z_hat, |i, acc| {
        // w'_i = NTT^-1(Σ_j Â[i][j] ∘ ẑ_j + ĉ ∘ NTT(-t1_i · 2^d)).
        unpack_with(&pk[32 + 320 * i..32 + 320 * (i + 1)], 10, |n, v| {
            t[n] = -((v as i32) << D);
        });
        B::ntt(&mut t);
        B::reduce32(&mut t);
        B::pointwise_acc(acc, core::slice::from_ref(&c), core::slice::from_ref(&t));
        // Reduced before the inverse NTT (its butterflies add without
        // reducing: a missed reduction here overflows, eprint 2026/1032).
        B::reduce32(acc);
        B::invntt_tomont(acc);
        B::reduce32(acc);
        B::caddq(acc);
        hint_row::<P>(henc, i, &mut t);
        if P::GAMMA2 == GAMMA2_88 {
            B::use_hint::<GAMMA2_88>(acc, &t);
        } else {
            B::use_hint::<GAMMA2_32>(acc, &t);
        }
        pack_i32(acc, P::W1_BITS, &mut w1_enc[..w1_bytes]);
        hc.absorb(&w1_enc[..w1_bytes]);
    });
    let mut c2 = [0u8; 64];
    hc.squeeze(&mut c2[..P::CTILDE]);
    c2[..P::CTILDE] == *ctilde
}

/// Verify_internal as an [`Operation`].
pub(crate) struct Verify<'a, P> {
    pub pk: &'a [u8],
    pub msg: Message<'a>,
    pub sig: &'a [u8],
    pub _p: PhantomData<P>,
}

impl<P: ParameterSet> Operation for Verify<'_, P> {
    type Output = bool;
    fn run<B: Backend>(self) -> bool {
        verify::<P, B>(self.pk, self.msg, self.sig)
    }
}
