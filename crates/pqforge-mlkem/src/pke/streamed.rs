//! K-PKE for small stacks: the strategy of pqm4's "m4fstack" Kyber.
//!
//! * The public matrix is never stored: each entry `A[i][j]` is sampled
//!   (SampleNTT, Algorithm 7) straight into the base multiplication, pair of
//!   coefficients by pair of coefficients, and accumulated into one output
//!   polynomial (`matacc`).
//! * Polynomials in the NTT domain that must survive (s-hat in key
//!   generation, r-hat in encryption) are kept ByteEncode12-packed, 384
//!   bytes each; s-hat and t-hat are read straight from the key bytes.
//! * Noise is added coefficient-wise from the PRF output (no polynomial
//!   buffer), and compression emits bytes one at a time into the [`Sink`],
//!   so decapsulation compares the re-encryption byte by byte instead of
//!   materialising it.
//!
//! Peak scratch (ML-KEM-768 encapsulation): the packed r-hat (k x 384 B),
//! one accumulator polynomial (512 B) and one Keccak sponge.
//!
//! Constant time: the only branches and indices on data are those of
//! SampleNTT, which reads the public SHAKE128(rho || i || j) stream.

use core::marker::PhantomData;

use pqforge_core::ByteArray;
use zeroize::Zeroize;

use super::{Pke, Sink};
use crate::backend::Backend;
use crate::hash::{Shake128, Shake256};
use crate::ntt::{NttPairs, basemul_add_by};
use crate::params::ParameterSet;
use crate::poly::{self, MONT_SQ, N, POLY_BYTES, Poly, barrett_reduce, fqmul, to_canonical};
use crate::sample::{cbd_lanes, rej_each};
use pqforge_core::ct::wipe;

/// K-PKE with the matrix streamed, on the kernels `B`.
pub(crate) struct Streamed<B>(PhantomData<B>);

/// SHAKE128 rate: one SampleNTT block.
const XOF_BLOCK: usize = 168;

/// `acc += SampleNTT(rho || x || y) o b`: the matrix entry is consumed as
/// it is sampled and never stored.
fn matacc<B: Backend>(acc: &mut Poly, rho: &[u8; 32], x: u8, y: u8, b: &[u8; POLY_BYTES]) {
    let mut xof = Shake128::absorb(&[rho, &[x, y]], 0x1F);
    let mut blk = [0u8; XOF_BLOCK];
    let mut ctr = 0usize;
    let mut a0 = 0i32;
    // Public loop and branches: the stream depends on rho only.
    while ctr < N {
        xof.squeeze_block(&mut blk);
        rej_each(&blk, &mut ctr, N, |i, d| {
            if i & 1 == 0 {
                a0 = i32::from(d);
            } else {
                B::basemul_pair(acc, i - 1, (a0, i32::from(d)), b.pair(i >> 1));
            }
        });
    }
}

/// The `i`-th 384-byte slot of a packed vector.
fn slot(v: &[u8], i: usize) -> &[u8; POLY_BYTES] {
    v[POLY_BYTES * i..POLY_BYTES * (i + 1)]
        .try_into()
        .unwrap_or(&[0; POLY_BYTES])
}

fn slot_mut(v: &mut [u8], i: usize) -> &mut [u8] {
    &mut v[POLY_BYTES * i..POLY_BYTES * (i + 1)]
}

/// `p += SamplePolyCBD_eta(PRF_eta(sigma, nonce))` (FIPS 203 eq. 4.3,
/// Algorithm 8), straight from the PRF's output lanes (no byte buffer:
/// the sponge is wiped on drop); branch-free.
fn add_noise(p: &mut Poly, sigma: &[u8; 32], nonce: u8, eta: usize) {
    let mut prf = Shake256::absorb(&[sigma, &[nonce]], 0x1F);
    cbd_lanes(&mut prf.lanes(), eta, |i, v| {
        p.c[i] = p.c[i].wrapping_add(v);
    });
}

/// Noise polynomial in the NTT domain, packed (canonical) into `out`.
fn noise_ntt_packed<B: Backend>(
    out: &mut [u8],
    sigma: &[u8; 32],
    nonce: u8,
    eta: usize,
    tmp: &mut Poly,
) {
    tmp.zeroize();
    add_noise(tmp, sigma, nonce, eta);
    B::ntt(tmp);
    B::to_bytes(tmp, out);
}

/// Compress_D then ByteEncode_D (Algorithm 5) of a reduced polynomial into
/// the sink at byte offset `off` (`32 D` bytes), 8 bits at a time.
fn compress_emit<const D: u32, S: Sink>(p: &Poly, sink: &mut S, off: usize) {
    let mut acc = 0u32;
    let mut bits = 0u32;
    let mut o = off;
    for &x in &p.c {
        acc |= u32::from(poly::compress(to_canonical(x), D)) << bits;
        bits += D;
        // Public: the bit count depends on D only.
        while bits >= 8 {
            sink.put(o, acc as u8);
            o += 1;
            acc >>= 8;
            bits -= 8;
        }
    }
}

impl<B: Backend> Pke for Streamed<B> {
    type Kernels = B;

    fn keygen<P: ParameterSet>(
        rho: &[u8; 32],
        sigma: &[u8; 32],
        t_out: &mut [u8],
        s_out: &mut [u8],
    ) {
        let k = P::K;
        let mut acc = Poly::ZERO;
        // s-hat straight into dk (nonces 0..k).
        for j in 0..k {
            noise_ntt_packed::<B>(slot_mut(s_out, j), sigma, j as u8, P::ETA1, &mut acc);
        }
        let mut e = Poly::ZERO;
        for i in 0..k {
            // t_i = sum_j A[i][j] o s_j + e_i, A[i][j] = SampleNTT(rho || j || i).
            acc.zeroize();
            for j in 0..k {
                matacc::<B>(&mut acc, rho, j as u8, i as u8, slot(s_out, j));
            }
            e.zeroize();
            add_noise(&mut e, sigma, (k + i) as u8, P::ETA1);
            B::ntt(&mut e);
            for (t, &x) in acc.c.iter_mut().zip(&e.c) {
                *t = barrett_reduce(fqmul(*t, MONT_SQ).wrapping_add(x));
            }
            B::to_bytes(&acc, slot_mut(t_out, i));
        }
        acc.zeroize();
        e.zeroize();
    }

    #[inline(never)] // own frame: not stacked on the caller's
    fn encrypt<P: ParameterSet, S: Sink>(ek: &[u8], m: &[u8; 32], r: &[u8; 32], out: &mut S) {
        let k = P::K;
        let ek = &ek[..P::EK_BYTES];
        let mut rho = [0u8; 32];
        rho.copy_from_slice(&ek[POLY_BYTES * k..POLY_BYTES * k + 32]);
        let mut acc = Poly::ZERO;
        // r-hat, packed (nonces 0..k, eta1), in an ek-sized array: 384 k
        // bytes plus 32 unused.
        let mut rh_store = P::EkBytes::zeroed();
        let rh: &mut [u8] = rh_store.as_mut();
        for j in 0..k {
            noise_ntt_packed::<B>(slot_mut(rh, j), r, j as u8, P::ETA1, &mut acc);
        }
        let du_bytes = 32 * P::DU as usize;
        // u_i = NTT^-1(sum_j A^T[i][j] o r_j) + e1_i, A^T[i][j] = SampleNTT(rho || i || j).
        for i in 0..k {
            acc.zeroize();
            for j in 0..k {
                matacc::<B>(&mut acc, &rho, i as u8, j as u8, slot(rh, j));
            }
            B::invntt_tomont(&mut acc);
            add_noise(&mut acc, r, (k + i) as u8, P::ETA2);
            B::reduce(&mut acc);
            if P::DU == 10 {
                compress_emit::<10, S>(&acc, out, du_bytes * i);
            } else {
                compress_emit::<11, S>(&acc, out, du_bytes * i);
            }
        }
        // v = NTT^-1(t-hat^T o r-hat) + e2 + Decompress_1(m).
        acc.zeroize();
        for j in 0..k {
            basemul_add_by(&mut acc, slot(ek, j), slot(rh, j), B::basemul_pair);
        }
        B::invntt_tomont(&mut acc);
        add_noise(&mut acc, r, (2 * k) as u8, P::ETA2);
        poly::msg_each(m, |i, x| acc.c[i] = acc.c[i].wrapping_add(x));
        B::reduce(&mut acc);
        if P::DV == 4 {
            compress_emit::<4, S>(&acc, out, du_bytes * k);
        } else {
            compress_emit::<5, S>(&acc, out, du_bytes * k);
        }
        acc.zeroize();
        wipe(rh);
    }

    #[inline(never)] // own frame, released before re-encryption
    fn decrypt<P: ParameterSet>(dk_pke: &[u8], c: &[u8], m: &mut [u8; 32]) {
        let k = P::K;
        let c = &c[..P::CT_BYTES];
        let du_bytes = 32 * P::DU as usize;
        let mut w = Poly::ZERO;
        let mut u = Poly::ZERO;
        for i in 0..k {
            let ci = &c[du_bytes * i..du_bytes * (i + 1)];
            if P::DU == 10 {
                B::decompress::<10>(ci, &mut u);
            } else {
                B::decompress::<11>(ci, &mut u);
            }
            B::ntt(&mut u);
            basemul_add_by(&mut w, slot(dk_pke, i), &u, B::basemul_pair);
        }
        B::invntt_tomont(&mut w);
        let c2 = &c[du_bytes * k..];
        if P::DV == 4 {
            B::decompress::<4>(c2, &mut u);
        } else {
            B::decompress::<5>(c2, &mut u);
        }
        poly::sub_from(&mut w, &u); // w = v - s^T u
        B::reduce(&mut w);
        B::to_msg(&w, m);
        w.zeroize();
        u.zeroize();
    }
}
