//! ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6), portable: ξ to the public
//! key and the expanded private key. Â is generated one entry at a time and
//! t one row at a time, so the matrix is never held whole.

use pqforge_core::ct::wipe;
use pqforge_core::keccak::Shake256;

use crate::arith::{caddq, invntt_tomont, ntt, pointwise_montgomery, reduce32};
use crate::pack::{pack, pack_signed};
use crate::params::{N, ParameterSet};
use crate::rounding::power2round;
use crate::sample::{rej_bounded_poly, rej_ntt_poly};

const MAX_K: usize = 8;
const MAX_L: usize = 7;

/// KeyGen_internal(ξ): writes pk (`P::PK_BYTES`) and the expanded sk
/// (`P::SK_BYTES`).
///
/// # Panics
/// If `pk` or `sk` has the wrong length.
pub fn keygen<P: ParameterSet>(xi: &[u8; 32], pk: &mut [u8], sk: &mut [u8]) {
    assert_eq!(pk.len(), P::PK_BYTES);
    assert_eq!(sk.len(), P::SK_BYTES);
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
    let key = &seeds[96..128];

    let mut s1 = [[0i32; N]; MAX_L];
    let mut s2 = [[0i32; N]; MAX_K];
    for (r, p) in s1[..l].iter_mut().enumerate() {
        rej_bounded_poly(&rho_p, r as u16, P::ETA, p);
    }
    for (r, p) in s2[..k].iter_mut().enumerate() {
        rej_bounded_poly(&rho_p, (l + r) as u16, P::ETA, p);
    }
    let mut s1_hat = s1;
    for p in &mut s1_hat[..l] {
        ntt(p);
    }

    // pk = ρ || t1, sk = ρ || K || tr || s1 || s2 || t0.
    let (pk_rho, pk_t1) = pk.split_at_mut(32);
    pk_rho.copy_from_slice(&rho);
    let eta_bytes = 32 * P::ETA_BITS as usize;
    let t0_off = 128 + eta_bytes * (k + l);
    t_rows::<P>(&rho, &s1_hat, &s2, |i, t1, t0| {
        pack(t1, 10, &mut pk_t1[320 * i..320 * (i + 1)]);
        pack_signed(
            t0,
            1 << 12,
            13,
            &mut sk[t0_off + 416 * i..t0_off + 416 * (i + 1)],
        );
    });

    sk[..32].copy_from_slice(&rho);
    sk[32..64].copy_from_slice(key);
    let mut tr = [0u8; 64];
    let mut h = Shake256::new();
    h.absorb(pk);
    h.squeeze(&mut tr);
    sk[64..128].copy_from_slice(&tr);
    let eta = P::ETA as i32;
    for (r, p) in s1[..l].iter().chain(&s2[..k]).enumerate() {
        let off = 128 + eta_bytes * r;
        pack_signed(p, eta, P::ETA_BITS, &mut sk[off..off + eta_bytes]);
    }
    wipe(&mut seeds);
    wipe(&mut rho_p);
    for p in s1.iter_mut().chain(s2.iter_mut()).chain(s1_hat.iter_mut()) {
        wipe(p);
    }
}

/// t = NTT^-1(Â ∘ ŝ1) + s2 row by row, split by Power2Round: `f(i, t1_i,
/// t0_i)` for each row i (Â regenerated one entry at a time).
pub(crate) fn t_rows<P: ParameterSet>(
    rho: &[u8; 32],
    s1_hat: &[[i32; N]; MAX_L],
    s2: &[[i32; N]; MAX_K],
    mut f: impl FnMut(usize, &[u32; N], &[i32; N]),
) {
    let mut a = [0i32; N];
    let mut prod = [0i32; N];
    let mut t1 = [0u32; N];
    let mut t0 = [0i32; N];
    for i in 0..P::K {
        let mut acc = [0i32; N];
        for j in 0..P::L {
            rej_ntt_poly(rho, j as u8, i as u8, &mut a);
            pointwise_montgomery(&mut prod, &a, &s1_hat[j]);
            for (x, y) in acc.iter_mut().zip(&prod) {
                *x += *y;
            }
        }
        for x in &mut acc {
            *x = reduce32(*x);
        }
        invntt_tomont(&mut acc);
        for c in 0..N {
            let t = caddq(reduce32(acc[c] + s2[i][c]));
            let (hi, lo) = power2round(t);
            t1[c] = hi as u32;
            t0[c] = lo;
        }
        f(i, &t1, &t0);
        wipe(&mut acc);
    }
    wipe(&mut t0);
    wipe(&mut prod);
}

/// The public key of an expanded private key (whose s1/s2 were checked):
/// ρ || t1 recomputed from ρ, s1 and s2.
pub fn public_from_sk<P: ParameterSet>(sk: &[u8], pk: &mut [u8]) {
    let (k, l) = (P::K, P::L);
    let eta_bytes = 32 * P::ETA_BITS as usize;
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&sk[..32]);
    let mut s1_hat = [[0i32; N]; MAX_L];
    let mut s2 = [[0i32; N]; MAX_K];
    for (r, p) in s1_hat[..l].iter_mut().chain(s2[..k].iter_mut()).enumerate() {
        let off = 128 + eta_bytes * r;
        crate::pack::unpack_signed(&sk[off..off + eta_bytes], P::ETA as i32, P::ETA_BITS, p);
    }
    for p in &mut s1_hat[..l] {
        ntt(p);
    }
    pk[..32].copy_from_slice(&rho);
    let pk_t1 = &mut pk[32..];
    t_rows::<P>(&rho, &s1_hat, &s2, |i, t1, _| {
        pack(t1, 10, &mut pk_t1[320 * i..320 * (i + 1)]);
    });
    for p in s1_hat.iter_mut().chain(s2.iter_mut()) {
        wipe(p);
    }
}

/// The decoding checks of an expanded private key (work in progress: the
/// consistency check against t0 and tr follows): exact length, every
/// packed s1/s2 coefficient in [-η, η].
#[must_use]
pub fn sk_is_well_formed<P: ParameterSet>(sk: &[u8]) -> bool {
    if sk.len() != P::SK_BYTES {
        return false;
    }
    let eta_bytes = 32 * P::ETA_BITS as usize;
    let end = 128 + eta_bytes * (P::K + P::L);
    let mut v = [0u32; N];
    let mut bad = 0u32;
    for chunk in sk[128..end].chunks_exact(eta_bytes) {
        crate::pack::unpack(chunk, P::ETA_BITS, &mut v);
        for &f in &v {
            // Field f encodes η - f; valid iff f ≤ 2η (branch-free).
            bad |= (2 * P::ETA).wrapping_sub(f) >> 31;
        }
    }
    bad == 0
}
