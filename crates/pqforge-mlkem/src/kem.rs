//! K-PKE (FIPS 203 §5, Algorithms 13-15) and the ML-KEM internal
//! algorithms (§6, Algorithms 16-18), written once over a [`Backend`].
//!
//! Byte layouts (FIPS 203):
//! * ek = ByteEncode12(t-hat) || rho                         (384k + 32)
//! * dk = ByteEncode12(s-hat) || ek || H(ek) || z             (768k + 96)
//! * c  = ByteEncode_du(Compress_du(u)) || ByteEncode_dv(Compress_dv(v))

use pqforge_core::{ByteArray, ct, ctgrind};
use zeroize::Zeroize;

use crate::backend::Backend;
use crate::batch;
use crate::hash;
use crate::params::ParameterSet;
use crate::poly::{POLY_BYTES, Poly, add_assign, sub_from, wipe};
use crate::sample::{gen_matrix, sample_cbd_many};

/// Scratch of up to k = 4 polynomials.
type PolyVec = [Poly; 4];

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

/// ML-KEM.KeyGen_internal(d, z) (Algorithm 16 with K-PKE.KeyGen,
/// Algorithm 13). Writes `ek` (384k+32 bytes) and `dk` (768k+96 bytes).
/// `ipd` drops the domain-separating k byte from G(d || k), as in the
/// August 2023 draft (only for old test vectors such as C2SP CCTV's).
pub(crate) fn keygen<P: ParameterSet, B: Backend>(
    d: &[u8; 32],
    z: &[u8; 32],
    ek: &mut [u8],
    dk: &mut [u8],
    ipd: bool,
) {
    let k = P::K;
    debug_assert_eq!(ek.len(), P::EK_BYTES);
    debug_assert_eq!(dk.len(), P::DK_BYTES);
    // (rho, sigma) = G(d || k)
    let k_byte = [k as u8];
    let mut g = hash::g(&[d, if ipd { &[] } else { &k_byte }]);
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&g[..32]);
    let mut sigma = [0u8; 32];
    sigma.copy_from_slice(&g[32..]);
    g.zeroize();
    // Public: rho is the seed of the public matrix and is part of ek.
    ctgrind::declassify(&mut rho);

    let mut a = [[Poly::ZERO; 4]; 4];
    gen_matrix::<B>(&mut a, &rho, k, false);

    // s = noise[..k], e = noise[k..2k], PRF nonces 0..2k.
    let mut noise = [Poly::ZERO; 8];
    sample_cbd_many::<B>(&sigma, &mut noise[..2 * k], 0, |_| P::ETA1);
    sigma.zeroize();
    for p in &mut noise[..2 * k] {
        B::ntt(p);
    }
    let (s, e) = noise.split_at(k);

    let mut t: PolyVec = [Poly::ZERO; 4];
    for i in 0..k {
        B::basemul_acc(&mut t[i], &a[i][..k], &s[..k]);
        B::tomont(&mut t[i]);
        add_assign(&mut t[i], &e[i]);
        B::reduce(&mut t[i]);
    }

    let (ek_t, ek_rho) = ek.split_at_mut(POLY_BYTES * k);
    for i in 0..k {
        B::to_bytes(&t[i], &mut ek_t[POLY_BYTES * i..POLY_BYTES * (i + 1)]);
    }
    ek_rho.copy_from_slice(&rho);
    // Public: the encapsulation key is the public output of key generation.
    ctgrind::declassify(ek);

    let (dk_s, rest) = dk.split_at_mut(POLY_BYTES * k);
    for i in 0..k {
        B::to_bytes(&s[i], &mut dk_s[POLY_BYTES * i..POLY_BYTES * (i + 1)]);
    }
    let (dk_ek, rest) = rest.split_at_mut(P::EK_BYTES);
    dk_ek.copy_from_slice(ek);
    let (dk_h, dk_z) = rest.split_at_mut(32);
    dk_h.copy_from_slice(&hash::h(ek));
    dk_z.copy_from_slice(z);
    noise.zeroize();
}

/// eta of PRF stream `i` of K-PKE.Encrypt: r (eta1), then e1 and e2 (eta2).
fn enc_eta<P: ParameterSet>(i: usize) -> usize {
    if i < P::K { P::ETA1 } else { P::ETA2 }
}

/// K-PKE.Encrypt(ek, m, r) (Algorithm 14) into `c`.
/// `ek` must have passed the modulus check.
fn encrypt<P: ParameterSet, B: Backend>(ek: &[u8], m: &[u8; 32], coins: &[u8; 32], c: &mut [u8]) {
    let k = P::K;
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&ek[POLY_BYTES * k..P::EK_BYTES]);
    let mut at = [[Poly::ZERO; 4]; 4];
    gen_matrix::<B>(&mut at, &rho, k, true);
    // r = noise[..k] (eta1), e1 = noise[k..2k] (eta2), e2 = noise[2k] (eta2).
    let mut noise = [Poly::ZERO; 9];
    sample_cbd_many::<B>(coins, &mut noise[..=2 * k], 0, enc_eta::<P>);
    encrypt_sampled::<P, B>(ek, m, &at, &mut noise, c);
}

/// The arithmetic of K-PKE.Encrypt once the transposed matrix `at` and the
/// noise polynomials (r, e1, e2; not yet in the NTT domain) are sampled.
/// Wipes `noise`.
fn encrypt_sampled<P: ParameterSet, B: Backend>(
    ek: &[u8],
    m: &[u8; 32],
    at: &[[Poly; 4]; 4],
    noise: &mut [Poly; 9],
    c: &mut [u8],
) {
    let k = P::K;
    // Exact lengths up front: the bounds checks then need no length division.
    let ek = &ek[..P::EK_BYTES];
    let c = &mut c[..P::CT_BYTES];
    let mut t: PolyVec = [Poly::ZERO; 4];
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

/// K-PKE.Decrypt(dk_pke, c) (Algorithm 15).
fn decrypt<P: ParameterSet, B: Backend>(dk_pke: &[u8], c: &[u8], m: &mut [u8; 32]) {
    let k = P::K;
    let dk_pke = &dk_pke[..POLY_BYTES * k];
    let c = &c[..P::CT_BYTES];
    let du_bytes = 32 * P::DU as usize;
    let (c1, c2) = c.split_at(du_bytes * k);
    let mut u: PolyVec = [Poly::ZERO; 4];
    for i in 0..k {
        decompress_du::<P, B>(&c1[du_bytes * i..du_bytes * (i + 1)], &mut u[i]);
        B::ntt(&mut u[i]);
    }
    let mut s: PolyVec = [Poly::ZERO; 4];
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

/// ML-KEM.Encaps_internal(ek, m) (Algorithm 17); `h` = H(ek).
pub(crate) fn encaps<P: ParameterSet, B: Backend>(
    ek: &[u8],
    h: &[u8; 32],
    m: &[u8; 32],
    c: &mut [u8],
    key: &mut [u8; 32],
) {
    // (K, r) = G(m || H(ek))
    let mut g = hash::g(&[m, h]);
    let mut r = [0u8; 32];
    r.copy_from_slice(&g[32..]);
    key.copy_from_slice(&g[..32]);
    encrypt::<P, B>(ek, m, &r, c);
    // Public: the ciphertext is the public output of encapsulation.
    ctgrind::declassify(c);
    g.zeroize();
    r.zeroize();
}

/// ML-KEM.Decaps_internal(dk, c) (Algorithm 18): implicit rejection with a
/// full-length constant-time comparison and a constant-time select.
pub(crate) fn decaps<P: ParameterSet, B: Backend>(dk: &[u8], c: &[u8], key: &mut [u8; 32]) {
    let k = P::K;
    let (dk_pke, rest) = dk.split_at(POLY_BYTES * k);
    let (ek, rest) = rest.split_at(P::EK_BYTES);
    let (h, z) = rest.split_at(32);

    let mut m = [0u8; 32];
    decrypt::<P, B>(dk_pke, c, &mut m);

    let mut g = [0u8; 64];
    let mut kbar = [0u8; 32];
    let mut c2 = P::CtBytes::zeroed();
    if B::BATCH_HASHES {
        // (K', r') = G(m' || h), K-bar = J(z || c), the matrix and the
        // re-encryption noise in one four-lane Keccak schedule.
        let mut rho = [0u8; 32];
        rho.copy_from_slice(&ek[POLY_BYTES * k..P::EK_BYTES]);
        let mut at = [[Poly::ZERO; 4]; 4];
        let mut noise = [Poly::ZERO; 9];
        batch::decaps_hashes::<B>(
            &m,
            h,
            &mut g,
            z,
            c,
            &mut kbar,
            &rho,
            k,
            &mut at,
            &mut noise[..=2 * k],
            enc_eta::<P>,
        );
        encrypt_sampled::<P, B>(ek, &m, &at, &mut noise, c2.as_mut());
    } else {
        // (K', r') = G(m' || h)
        g = hash::g(&[&m, h]);
        let mut r = [0u8; 32];
        r.copy_from_slice(&g[32..]);
        // K-bar = J(z || c)
        kbar = hash::j(z, c);
        encrypt::<P, B>(ek, &m, &r, c2.as_mut());
        r.zeroize();
    }
    // CT: full-length comparison, never declassified; then a masked select.
    let eq = ct::eq_mask(c, c2.as_ref());
    ct::select(eq, &g[..32], &kbar, key);

    m.zeroize();
    g.zeroize();
    kbar.zeroize();
    wipe(c2.as_mut());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Portable;
    use crate::params::{MlKem512, MlKem768, MlKem1024};

    fn round_trip<P: ParameterSet>() {
        let mut ek = P::EkBytes::zeroed();
        let mut dk = P::DkBytes::zeroed();
        keygen::<P, Portable>(&[1; 32], &[2; 32], ek.as_mut(), dk.as_mut(), false);
        // Layout: dk = dk_pke || ek || H(ek) || z.
        let off = POLY_BYTES * P::K;
        assert_eq!(&dk.as_ref()[off..off + P::EK_BYTES], ek.as_ref());
        assert_eq!(
            &dk.as_ref()[off + P::EK_BYTES..off + P::EK_BYTES + 32],
            &hash::h(ek.as_ref())
        );
        assert_eq!(&dk.as_ref()[P::DK_BYTES - 32..], &[2; 32]);
        let mut c = P::CtBytes::zeroed();
        let mut k1 = [0u8; 32];
        encaps::<P, Portable>(
            ek.as_ref(),
            &hash::h(ek.as_ref()),
            &[3; 32],
            c.as_mut(),
            &mut k1,
        );
        let mut k2 = [0u8; 32];
        decaps::<P, Portable>(dk.as_ref(), c.as_ref(), &mut k2);
        assert_eq!(k1, k2);
        // A modified ciphertext yields J(z || c').
        c.as_mut()[0] ^= 1;
        decaps::<P, Portable>(dk.as_ref(), c.as_ref(), &mut k2);
        assert_eq!(k2, hash::j(&[2; 32], c.as_ref()));
        // The draft KeyGen (no k byte in G) gives a different key.
        let mut ek2 = P::EkBytes::zeroed();
        let mut dk2 = P::DkBytes::zeroed();
        keygen::<P, Portable>(&[1; 32], &[2; 32], ek2.as_mut(), dk2.as_mut(), true);
        assert_ne!(ek.as_ref(), ek2.as_ref());
    }

    #[test]
    fn round_trips() {
        round_trip::<MlKem512>();
        round_trip::<MlKem768>();
        round_trip::<MlKem1024>();
    }
}
