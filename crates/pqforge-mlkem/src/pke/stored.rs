//! K-PKE with the matrix stored: A-hat (or its transpose) and the noise
//! polynomials are sampled in full, four Keccak lanes at a time, then
//! multiplied with whole-vector kernels. The strategy of the AVX2 backend.
//!
//! Scratch: the k x k matrix (up to 8 KB) and 2k + 1 noise polynomials.

use core::marker::PhantomData;

use zeroize::Zeroize;

use super::{Pke, Sink, enc_eta};
use crate::backend::Backend;
use crate::hash::DecapsHashes;
use crate::params::ParameterSet;
use crate::poly::{POLY_BYTES, Poly, add_assign, sub_from};
use crate::sample::{gen_matrix, sample_cbd_many};

/// K-PKE with the matrix stored, on the kernels `B`.
pub(crate) struct Stored<B>(PhantomData<B>);

/// The matrix A-hat (or its transpose), up to k = 4.
pub(crate) type Matrix = [[Poly; 4]; 4];
/// The noise of K-PKE.Encrypt: r (k), e1 (k), e2 (1), up to k = 4.
pub(crate) type EncNoise = [Poly; 9];

/// The randomness of K-PKE.Encrypt (Algorithm 14, lines 4-17): the
/// transposed matrix `at[i][j] = SampleNTT(rho || i || j)` and the noise
/// r, e1, e2 from the coins (not yet in the NTT domain).
pub(crate) fn sample_encrypt<P: ParameterSet, B: Backend>(
    rho: &[u8; 32],
    r: &[u8; 32],
    at: &mut Matrix,
    noise: &mut EncNoise,
) {
    gen_matrix::<B>(at, rho, P::K, true);
    sample_cbd_many::<B>(r, &mut noise[..=2 * P::K], 0, enc_eta::<P>);
}

fn compress_du<P: ParameterSet, B: Backend>(p: &Poly, out: &mut [u8]) {
    match P::DU {
        10 => B::compress::<10>(p, out),
        _ => B::compress::<11>(p, out),
    }
}

fn compress_dv<P: ParameterSet, B: Backend>(p: &Poly, out: &mut [u8]) {
    match P::DV {
        4 => B::compress::<4>(p, out),
        _ => B::compress::<5>(p, out),
    }
}

fn decompress_du<P: ParameterSet, B: Backend>(bytes: &[u8], p: &mut Poly) {
    match P::DU {
        10 => B::decompress::<10>(bytes, p),
        _ => B::decompress::<11>(bytes, p),
    }
}

fn decompress_dv<P: ParameterSet, B: Backend>(bytes: &[u8], p: &mut Poly) {
    match P::DV {
        4 => B::decompress::<4>(bytes, p),
        _ => B::decompress::<5>(bytes, p),
    }
}

/// The arithmetic of K-PKE.Encrypt once the transposed matrix `at` and the
/// noise (r, e1, e2; not yet in the NTT domain) are sampled, into `c`.
/// Wipes `noise`. Always inlined, so the AVX2 entry point compiles it (and
/// the portable encoders it calls) for AVX2.
#[inline(always)]
fn encrypt_sampled<P: ParameterSet, B: Backend>(
    ek: &[u8],
    m: &[u8; 32],
    at: &Matrix,
    noise: &mut EncNoise,
    c: &mut [u8],
) {
    let k = P::K;
    // Exact lengths up front: the bounds checks then need no length division.
    let ek = &ek[..P::EK_BYTES];
    let c = &mut c[..P::CT_BYTES];
    let mut t = [Poly::ZERO; 4];
    for i in 0..k {
        B::from_bytes(&ek[POLY_BYTES * i..POLY_BYTES * (i + 1)], &mut t[i]);
    }
    for p in &mut noise[..k] {
        B::ntt(p);
    }
    let (r, e) = noise.split_at(k);

    let du_bytes = 32 * P::DU as usize;
    let (c1, c2) = c.split_at_mut(du_bytes * k);
    let mut u = Poly::ZERO;
    for i in 0..k {
        B::basemul_acc(&mut u, &at[i][..k], &r[..k]);
        B::invntt_tomont(&mut u);
        add_assign(&mut u, &e[i]);
        B::reduce(&mut u);
        compress_du::<P, B>(&u, &mut c1[du_bytes * i..du_bytes * (i + 1)]);
    }
    let mut v = Poly::ZERO;
    B::basemul_acc(&mut v, &t[..k], &r[..k]);
    B::invntt_tomont(&mut v);
    add_assign(&mut v, &e[k]);
    let mut mu = Poly::ZERO;
    B::from_msg(m, &mut mu);
    add_assign(&mut v, &mu);
    B::reduce(&mut v);
    compress_dv::<P, B>(&v, c2);

    noise.zeroize();
    u.zeroize();
    v.zeroize();
    mu.zeroize();
}

impl<B: Backend> Pke for Stored<B> {
    type Kernels = B;

    fn keygen<P: ParameterSet>(
        rho: &[u8; 32],
        sigma: &[u8; 32],
        t_out: &mut [u8],
        s_out: &mut [u8],
    ) {
        let k = P::K;
        let mut a: Matrix = [[Poly::ZERO; 4]; 4];
        gen_matrix::<B>(&mut a, rho, k, false);

        // s = noise[..k], e = noise[k..2k], PRF nonces 0..2k.
        let mut noise = [Poly::ZERO; 8];
        sample_cbd_many::<B>(sigma, &mut noise[..2 * k], 0, |_| P::ETA1);
        for p in &mut noise[..2 * k] {
            B::ntt(p);
        }
        let (s, e) = noise.split_at(k);

        let mut t = Poly::ZERO;
        for i in 0..k {
            B::basemul_acc(&mut t, &a[i][..k], &s[..k]);
            B::tomont(&mut t);
            add_assign(&mut t, &e[i]);
            B::reduce(&mut t);
            B::to_bytes(&t, &mut t_out[POLY_BYTES * i..POLY_BYTES * (i + 1)]);
        }
        for i in 0..k {
            B::to_bytes(&s[i], &mut s_out[POLY_BYTES * i..POLY_BYTES * (i + 1)]);
        }
        noise.zeroize();
    }

    fn encrypt<P: ParameterSet, S: Sink>(ek: &[u8], m: &[u8; 32], r: &[u8; 32], out: &mut S) {
        let mut rho = [0u8; 32];
        rho.copy_from_slice(&ek[POLY_BYTES * P::K..P::EK_BYTES]);
        let mut at: Matrix = [[Poly::ZERO; 4]; 4];
        let mut noise: EncNoise = [Poly::ZERO; 9];
        sample_encrypt::<P, B>(&rho, r, &mut at, &mut noise);
        out.whole::<P::CtBytes>(|c| encrypt_sampled::<P, B>(ek, m, &at, &mut noise, c));
    }

    fn decrypt<P: ParameterSet>(dk_pke: &[u8], c: &[u8], m: &mut [u8; 32]) {
        let k = P::K;
        let dk_pke = &dk_pke[..POLY_BYTES * k];
        let c = &c[..P::CT_BYTES];
        let du_bytes = 32 * P::DU as usize;
        let (c1, c2) = c.split_at(du_bytes * k);
        let mut u = [Poly::ZERO; 4];
        for i in 0..k {
            decompress_du::<P, B>(&c1[du_bytes * i..du_bytes * (i + 1)], &mut u[i]);
            B::ntt(&mut u[i]);
        }
        let mut s = [Poly::ZERO; 4];
        for i in 0..k {
            B::from_bytes(&dk_pke[POLY_BYTES * i..POLY_BYTES * (i + 1)], &mut s[i]);
        }
        let mut w = Poly::ZERO;
        B::basemul_acc(&mut w, &s[..k], &u[..k]);
        B::invntt_tomont(&mut w);
        let mut v = Poly::ZERO;
        decompress_dv::<P, B>(c2, &mut v);
        sub_from(&mut w, &v); // w = v - s^T u
        B::reduce(&mut w);
        B::to_msg(&w, m);
        s.zeroize();
        w.zeroize();
    }

    fn reencrypt<P: ParameterSet, S: Sink>(
        ek: &[u8],
        hashes: &DecapsHashes<'_>,
        g: &mut [u8; 64],
        kbar: &mut [u8; 32],
        out: &mut S,
    ) {
        let mut rho = [0u8; 32];
        rho.copy_from_slice(&ek[POLY_BYTES * P::K..P::EK_BYTES]);
        let mut at: Matrix = [[Poly::ZERO; 4]; 4];
        let mut noise: EncNoise = [Poly::ZERO; 9];
        // G, J, the matrix and the noise: one after the other, or in one
        // four-lane Keccak schedule (AVX2).
        B::decaps_hashes::<P>(hashes, &rho, g, kbar, &mut at, &mut noise);
        out.whole::<P::CtBytes>(|c| encrypt_sampled::<P, B>(ek, hashes.m, &at, &mut noise, c));
    }
}
