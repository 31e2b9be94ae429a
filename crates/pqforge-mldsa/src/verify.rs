//! ML-DSA.Verify_internal (FIPS 204 Algorithm 8), portable and strict:
//! exact lengths, the hint encoding accepted only in its one valid form
//! (Algorithm 21), ‖z‖∞ < γ1 - β, c̃ recomputed over all its bytes.
//! Everything here is public, so it may branch.

use pqforge_core::keccak::Shake256;

use crate::arith::{caddq, invntt_tomont, ntt, pointwise_montgomery, reduce32};
use crate::pack::{pack, unpack, unpack_signed};
use crate::params::{D, GAMMA2_32, GAMMA2_88, N, ParameterSet};
use crate::rounding::use_hint;
use crate::sample::{rej_ntt_poly, sample_in_ball};

const MAX_K: usize = 8;
const MAX_L: usize = 7;

/// What the signature is over: M' (μ is computed from tr and M') or μ
/// itself (external μ).
#[derive(Clone, Copy, Debug)]
pub enum Message<'a> {
    /// The formatted message M'.
    Prime(&'a [u8]),
    /// μ = H(tr || M', 64), computed by the caller.
    Mu(&'a [u8; 64]),
}

/// HintBitUnpack (Algorithm 21): `None` unless `y` is the one valid
/// encoding (counters non-decreasing and ≤ ω, the last one included;
/// indices strictly increasing within a row; unused slots zero).
#[must_use]
pub fn hint_unpack<P: ParameterSet>(y: &[u8], h: &mut [[bool; N]; MAX_K]) -> Option<()> {
    let omega = P::OMEGA;
    let mut idx = 0usize;
    for (i, row) in h[..P::K].iter_mut().enumerate() {
        row.fill(false);
        let end = usize::from(y[omega + i]);
        if end < idx || end > omega {
            return None;
        }
        let first = idx;
        while idx < end {
            if idx > first && y[idx - 1] >= y[idx] {
                return None;
            }
            row[usize::from(y[idx])] = true;
            idx += 1;
        }
    }
    if y[idx..omega].iter().any(|&b| b != 0) {
        return None;
    }
    Some(())
}

fn use_hint_p<P: ParameterSet>(h: bool, r: i32) -> i32 {
    if P::GAMMA2 == GAMMA2_88 {
        use_hint::<GAMMA2_88>(u32::from(h), r)
    } else {
        use_hint::<GAMMA2_32>(u32::from(h), r)
    }
}

/// Verify_internal: `true` iff `sig` is a valid signature of `msg` under
/// `pk`. Wrong lengths are rejected, never padded.
#[must_use]
pub fn verify<P: ParameterSet>(pk: &[u8], msg: Message<'_>, sig: &[u8]) -> bool {
    if pk.len() != P::PK_BYTES || sig.len() != P::SIG_BYTES {
        return false;
    }
    let (k, l) = (P::K, P::L);
    let (ctilde, rest) = sig.split_at(P::CTILDE);
    let zbits = P::GAMMA1_BITS + 1;
    let zbytes = 32 * zbits as usize;
    let (zenc, henc) = rest.split_at(l * zbytes);

    let mut h = [[false; N]; MAX_K];
    if hint_unpack::<P>(henc, &mut h).is_none() {
        return false;
    }
    let bound = P::GAMMA1 - P::BETA;
    let mut z_hat = [[0i32; N]; MAX_L];
    for (j, z) in z_hat[..l].iter_mut().enumerate() {
        unpack_signed(&zenc[zbytes * j..zbytes * (j + 1)], P::GAMMA1, zbits, z);
        if z.iter().any(|c| c.abs() >= bound) {
            return false;
        }
        ntt(z);
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
    ntt(&mut c);
    let Some((rho, _)) = pk.split_first_chunk::<32>() else {
        return false;
    };
    let w1_bytes = 32 * P::W1_BITS as usize;
    let mut w1_enc = [0u8; 8 * 192];
    let mut a = [0i32; N];
    let mut prod = [0i32; N];
    for i in 0..k {
        // w'_i = NTT^-1(Σ_j Â[i][j] ∘ ẑ_j - ĉ ∘ NTT(t1_i · 2^d)).
        let mut acc = [0i32; N];
        for j in 0..l {
            rej_ntt_poly(rho, j as u8, i as u8, &mut a);
            pointwise_montgomery(&mut prod, &a, &z_hat[j]);
            for (x, y) in acc.iter_mut().zip(&prod) {
                *x += *y;
            }
        }
        let mut t1 = [0u32; N];
        unpack(&pk[32 + 320 * i..32 + 320 * (i + 1)], 10, &mut t1);
        let mut t = [0i32; N];
        for (t, &v) in t.iter_mut().zip(&t1) {
            *t = (v as i32) << D;
        }
        ntt(&mut t);
        for x in &mut t {
            *x = reduce32(*x);
        }
        pointwise_montgomery(&mut prod, &c, &t);
        for (x, y) in acc.iter_mut().zip(&prod) {
            *x = reduce32(*x - *y);
        }
        invntt_tomont(&mut acc);
        let mut w1 = [0u32; N];
        for (w, (&r, &hint)) in w1.iter_mut().zip(acc.iter().zip(&h[i])) {
            *w = use_hint_p::<P>(hint, caddq(r)) as u32;
        }
        pack(
            &w1,
            P::W1_BITS,
            &mut w1_enc[w1_bytes * i..w1_bytes * (i + 1)],
        );
    }
    let mut c2 = [0u8; 64];
    let mut hh = Shake256::new();
    hh.absorb(&mu);
    hh.absorb(&w1_enc[..w1_bytes * k]);
    hh.squeeze(&mut c2[..P::CTILDE]);
    c2[..P::CTILDE] == *ctilde
}
