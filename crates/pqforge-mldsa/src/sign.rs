//! ML-DSA.Sign_internal (FIPS 204 Algorithm 7), portable. Â is regenerated
//! row by row (never held whole). Work in progress: the per-attempt
//! rejection decision is the only branch on secret-derived data and will be
//! declassified at one commented site for the valgrind harness.

use pqforge_core::ct::wipe;
use pqforge_core::keccak::Shake256;

use crate::arith::{caddq, invntt_tomont, ntt, pointwise_montgomery, reduce32};
use crate::pack::{pack, pack_signed, unpack_signed};
use crate::params::{GAMMA2_32, GAMMA2_88, N, ParameterSet};
use crate::rounding::{decompose, make_hint};
use crate::sample::{rej_ntt_poly, sample_in_ball};
use crate::verify::Message;

const MAX_K: usize = 8;
const MAX_L: usize = 7;

type Poly = [i32; N];

/// Whether some |x_i| ≥ bound (branch-free per coefficient).
fn exceeds(p: &Poly, bound: i32) -> bool {
    let mut acc = 0i32;
    for &x in p {
        let m = x >> 31;
        let abs = (x ^ m) - m;
        acc |= (bound - 1 - abs) >> 31;
    }
    acc != 0
}

fn decompose_p<P: ParameterSet>(r: i32) -> (i32, i32) {
    if P::GAMMA2 == GAMMA2_88 {
        decompose::<GAMMA2_88>(r)
    } else {
        decompose::<GAMMA2_32>(r)
    }
}

fn make_hint_p<P: ParameterSet>(z: i32, r: i32) -> u32 {
    if P::GAMMA2 == GAMMA2_88 {
        make_hint::<GAMMA2_88>(z, r)
    } else {
        make_hint::<GAMMA2_32>(z, r)
    }
}

/// NTT^-1(ĉ ∘ v̂), reduced.
fn c_times(c_hat: &Poly, v_hat: &Poly, out: &mut Poly) {
    pointwise_montgomery(out, c_hat, v_hat);
    invntt_tomont(out);
    for x in out.iter_mut() {
        *x = reduce32(*x);
    }
}

/// Sign_internal: writes the `P::SIG_BYTES` signature of `msg` under the
/// expanded private key `sk` with randomness `rnd` (zero: deterministic).
///
/// # Panics
/// If `sk` or `sig` has the wrong length.
pub fn sign<P: ParameterSet>(sk: &[u8], msg: Message<'_>, rnd: &[u8; 32], sig: &mut [u8]) {
    assert_eq!(sk.len(), P::SK_BYTES);
    assert_eq!(sig.len(), P::SIG_BYTES);
    let (k, l) = (P::K, P::L);
    let eta_bytes = 32 * P::ETA_BITS as usize;
    let eta = P::ETA as i32;
    let rho: &[u8; 32] = sk[..32].try_into().unwrap_or(&[0; 32]);
    let key = &sk[32..64];
    let tr = &sk[64..128];

    let mut s1 = [[0i32; N]; MAX_L];
    let mut s2 = [[0i32; N]; MAX_K];
    let mut t0 = [[0i32; N]; MAX_K];
    for (r, p) in s1[..l].iter_mut().chain(s2[..k].iter_mut()).enumerate() {
        let off = 128 + eta_bytes * r;
        unpack_signed(&sk[off..off + eta_bytes], eta, P::ETA_BITS, p);
        ntt(p);
    }
    let t0_off = 128 + eta_bytes * (k + l);
    for (i, p) in t0[..k].iter_mut().enumerate() {
        unpack_signed(
            &sk[t0_off + 416 * i..t0_off + 416 * (i + 1)],
            1 << 12,
            13,
            p,
        );
        ntt(p);
    }

    let mut mu = [0u8; 64];
    match msg {
        Message::Mu(m) => mu = *m,
        Message::Prime(m) => {
            let mut h = Shake256::new();
            h.absorb(tr);
            h.absorb(m);
            h.squeeze(&mut mu);
        }
    }
    // ρ'' = H(K || rnd || μ, 64).
    let mut rho2 = [0u8; 64];
    let mut h = Shake256::new();
    h.absorb(key);
    h.absorb(rnd);
    h.absorb(&mu);
    h.squeeze(&mut rho2);

    let zbits = P::GAMMA1_BITS + 1;
    let zbytes = 32 * zbits as usize;
    let w1_bytes = 32 * P::W1_BITS as usize;
    let mut kappa: u16 = 0;
    let mut y = [[0i32; N]; MAX_L];
    let mut w = [[0i32; N]; MAX_K];
    let mut a = [0i32; N];
    let mut prod = [0i32; N];
    let mut tmp = [0i32; N];
    let mut ybuf = [0u8; 640];
    let mut w1_enc = [0u8; 8 * 192];
    loop {
        // y = ExpandMask(ρ'', κ); ŷ kept in place of y after the copy.
        let mut y_hat = [[0i32; N]; MAX_L];
        for (r, (p, ph)) in y[..l].iter_mut().zip(&mut y_hat[..l]).enumerate() {
            let mut hh = Shake256::new();
            hh.absorb(&rho2);
            hh.absorb(&(kappa + r as u16).to_le_bytes());
            hh.squeeze(&mut ybuf[..zbytes]);
            unpack_signed(&ybuf[..zbytes], P::GAMMA1, zbits, p);
            *ph = *p;
            ntt(ph);
        }
        kappa += l as u16;
        // w = NTT^-1(Â ∘ ŷ) in [0, q); w1 = HighBits(w).
        for i in 0..k {
            let acc = &mut w[i];
            acc.fill(0);
            for j in 0..l {
                rej_ntt_poly(rho, j as u8, i as u8, &mut a);
                pointwise_montgomery(&mut prod, &a, &y_hat[j]);
                for (x, v) in acc.iter_mut().zip(&prod) {
                    *x += *v;
                }
            }
            for x in acc.iter_mut() {
                *x = reduce32(*x);
            }
            invntt_tomont(acc);
            let mut w1 = [0u32; N];
            for (x, o) in acc.iter_mut().zip(&mut w1) {
                *x = caddq(*x);
                *o = decompose_p::<P>(*x).0 as u32;
            }
            pack(
                &w1,
                P::W1_BITS,
                &mut w1_enc[w1_bytes * i..w1_bytes * (i + 1)],
            );
        }
        wipe(y_hat.as_flattened_mut());
        // c̃ = H(μ || w1Encode(w1), λ/4); ĉ = NTT(SampleInBall(c̃)).
        let (ctilde, rest) = sig.split_at_mut(P::CTILDE);
        let mut hh = Shake256::new();
        hh.absorb(&mu);
        hh.absorb(&w1_enc[..w1_bytes * k]);
        hh.squeeze(ctilde);
        let mut c_hat = [0i32; N];
        sample_in_ball(ctilde, P::TAU, &mut c_hat);
        ntt(&mut c_hat);

        // z = y + c s1; reject if ‖z‖∞ ≥ γ1 - β.
        let mut reject = false;
        for j in 0..l {
            c_times(&c_hat, &s1[j], &mut tmp);
            for (z, t) in y[j].iter_mut().zip(&tmp) {
                *z = reduce32(*z + *t);
            }
            reject |= exceeds(&y[j], P::GAMMA1 - P::BETA);
        }
        // r0 = LowBits(w - c s2); reject if ‖r0‖∞ ≥ γ2 - β. Then
        // ct0, ‖ct0‖∞ ≥ γ2, and the hint h = MakeHint(-ct0, w - cs2 + ct0).
        let (_, henc) = rest.split_at_mut(l * zbytes);
        henc.fill(0);
        let mut ones = 0usize;
        for i in 0..k {
            c_times(&c_hat, &s2[i], &mut tmp);
            let mut r0 = [0i32; N];
            for c in 0..N {
                let v = caddq(reduce32(w[i][c] - tmp[c]));
                w[i][c] = v;
                r0[c] = decompose_p::<P>(v).1;
            }
            reject |= exceeds(&r0, P::GAMMA2 - P::BETA);
            c_times(&c_hat, &t0[i], &mut tmp);
            reject |= exceeds(&tmp, P::GAMMA2);
            for c in 0..N {
                let r = caddq(reduce32(w[i][c] + tmp[c]));
                let hint = make_hint_p::<P>(-tmp[c], r);
                // Public once the signature is accepted; a rejected
                // attempt's hints are discarded.
                if hint == 1 {
                    if ones < P::OMEGA {
                        henc[ones] = c as u8;
                    }
                    ones += 1;
                }
            }
            if ones <= P::OMEGA {
                henc[P::OMEGA + i] = ones as u8;
            }
        }
        reject |= ones > P::OMEGA;
        // CT: the rejection decision of this attempt (declassified in the
        // harness once the crate joins it).
        if !reject {
            break;
        }
    }
    let (_, rest) = sig.split_at_mut(P::CTILDE);
    for j in 0..l {
        pack_signed(
            &y[j],
            P::GAMMA1,
            zbits,
            &mut rest[zbytes * j..zbytes * (j + 1)],
        );
    }
    wipe(y.as_flattened_mut());
    wipe(w.as_flattened_mut());
    wipe(s1.as_flattened_mut());
    wipe(s2.as_flattened_mut());
    wipe(t0.as_flattened_mut());
    wipe(&mut rho2);
    wipe(&mut tmp);
    wipe(&mut prod);
}
