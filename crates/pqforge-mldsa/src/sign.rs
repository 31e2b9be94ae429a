//! ML-DSA.Sign_internal (FIPS 204 Algorithm 7).
//!
//! Â, û = NTT(s1 + 512 s2), ŝ2 and t̂0 are computed once and kept for every
//! attempt (about 42 KB of stack for ML-DSA-44, 95 KB for ML-DSA-87: the
//! class of pqm4's `m4f` signing).
//!
//! c s1 and c s2 share inverse NTTs: for j < ℓ (ℓ ≤ k in every set) one
//! NTT^-1(ĉ ∘ û_j) gives X = c s1_j + 512 c s2_j mod q. Both products are
//! bounded by β = τ η ≤ 196 < 256 (c has τ coefficients ±1; the key
//! import check guarantees |s1|, |s2| ≤ η), so |X| ≤ 196 · 513 < q / 2:
//! the centred representative of X is that integer, and its low 9 bits
//! (centred) and the rest are exactly c s1_j and c s2_j. That saves ℓ of
//! the 2ℓ + 2k inverse NTTs of an attempt (4 of 16 for ML-DSA-44). Constant time: the only branch on secret-derived data
//! is the accept/reject decision of an attempt, computed over all four
//! checks and declassified at one site; SampleInBall runs in constant time
//! in c̃ (`Backend::sample_in_ball_ct`), the hints are kept as bits and
//! encoded only once the attempt is accepted (when they are public).

use core::marker::PhantomData;

use pqforge_core::ct::wipe;
use pqforge_core::ctgrind;
use pqforge_core::keccak::Shake256;

use crate::backend::{Backend, Operation, Poly};
use crate::keygen::SkLayout;
use crate::pack::{pack_i32, pack_signed, unpack_signed};
use crate::params::{GAMMA2_32, GAMMA2_88, MAX_K, N, ParameterSet, PolyVec, Q};
use crate::verify::Message;

/// Decompose of a whole polynomial for the set's γ2.
pub(crate) fn decompose_p<P: ParameterSet, B: Backend>(a: &Poly, a1: &mut Poly, a0: &mut Poly) {
    if P::GAMMA2 == GAMMA2_88 {
        B::decompose::<GAMMA2_88>(a, a1, a0);
    } else {
        B::decompose::<GAMMA2_32>(a, a1, a0);
    }
}

/// NTT^-1(ĉ ∘ v̂), |x| < q (the inverse NTT's output range).
fn c_times<B: Backend>(c_hat: &Poly, v_hat: &Poly, out: &mut Poly) {
    B::pointwise(out, c_hat, v_hat);
    B::invntt_tomont(out);
}

/// Splits X = c s1 + 512 c s2 (the inverse NTT's output, |X| < q) into
/// `cs1` and `x` = c s2, given |c s1|, |c s2| ≤ 255 (see the module docs).
/// Branch-free.
fn split_cs(x: &mut Poly, cs1: &mut Poly) {
    const HALF_Q: i32 = (Q - 1) / 2;
    for (x, a) in x.iter_mut().zip(cs1.iter_mut()) {
        // Centred representative: (-q, q) to [0, q) to (-q/2, q/2].
        let mut v = *x + ((*x >> 31) & Q);
        v -= ((HALF_Q - v) >> 31) & Q;
        *a = ((v + 256) & 511) - 256;
        *x = (v - *a) >> 9;
    }
}

/// ExpandMask's polynomials in nonce order, drawn in whole batches of
/// `B::MaskBuf`'s size: with a four-lane Keccak, the ℓ = 5 masks of an
/// ML-DSA-65 attempt cost 1.25 batches on average instead of 2 (ℓ = 7:
/// 1.75 instead of 2). The polynomials past the accepted attempt are
/// computed for nothing (and wiped). With an empty buffer it is
/// ExpandMask itself.
struct MaskStream<B: Backend> {
    buf: B::MaskBuf,
    /// Index in `buf` of the next unused polynomial (its length: empty).
    next: usize,
    /// Nonce of the first polynomial the next batch computes.
    nonce: u16,
}

impl<B: Backend> MaskStream<B> {
    fn new() -> Self {
        let mut buf = B::MASK_BUF;
        let next = buf.as_mut().len();
        Self {
            buf,
            next,
            nonce: 0,
        }
    }

    /// y = ExpandMask(ρ'', κ) for the next ℓ = `y.len()` nonces.
    fn next_masks(&mut self, rho2: &[u8; 64], gamma1_bits: u32, y: &mut [Poly]) {
        let buf = self.buf.as_mut();
        if buf.is_empty() {
            B::expand_mask(rho2, self.nonce, gamma1_bits, y);
            self.nonce = self.nonce.wrapping_add(y.len() as u16);
            return;
        }
        for p in y {
            if self.next == buf.len() {
                B::expand_mask(rho2, self.nonce, gamma1_bits, buf);
                self.nonce = self.nonce.wrapping_add(buf.len() as u16);
                self.next = 0;
            }
            *p = buf[self.next];
            self.next += 1;
        }
    }
}

impl<B: Backend> Drop for MaskStream<B> {
    fn drop(&mut self) {
        wipe(self.buf.as_mut().as_flattened_mut());
    }
}

/// The signing key in the form every attempt uses: `u` = NTT(s1 + 512 s2)
/// for the first ℓ rows, `s2` = NTT(s2) for rows ℓ..k.
struct Expanded<P: ParameterSet> {
    a: P::Mat,
    u: P::VecL,
    s2: P::VecK,
    t0: P::VecK,
}

/// Sign_internal on a checked expanded key `sk`; `sig` is `P::SIG_BYTES`.
fn sign<P: ParameterSet, B: Backend>(sk: &[u8], msg: Message<'_>, rnd: &[u8; 32], sig: &mut [u8]) {
    let (k, l) = (P::K, P::L);
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&sk[..32]);
    // CT: ρ is the public matrix seed (part of the public key).
    ctgrind::declassify(&mut rho);
    let key = &sk[32..64];
    let tr = &sk[64..128];

    let mut x = Expanded::<P> {
        a: P::Mat::zero(),
        u: P::VecL::zero(),
        s2: P::VecK::zero(),
        t0: P::VecK::zero(),
    };
    let (a, u, s2, t0) = (x.a.as_mut(), x.u.as_mut(), x.s2.as_mut(), x.t0.as_mut());
    B::expand_a(&rho, l, 0, 0, a);
    let eb = SkLayout::eta_bytes::<P>();
    for (r, p) in s2.iter_mut().enumerate() {
        let off = SkLayout::s::<P>(l + r);
        unpack_signed(&sk[off..off + eb], P::ETA as i32, P::ETA_BITS, p);
    }
    for (j, p) in u.iter_mut().enumerate() {
        let off = SkLayout::s::<P>(j);
        unpack_signed(&sk[off..off + eb], P::ETA as i32, P::ETA_BITS, p);
        for (u, s) in p.iter_mut().zip(&s2[j]) {
            *u += 512 * *s;
        }
        B::ntt(p);
    }
    for p in &mut s2[l..] {
        B::ntt(p);
    }
    for (i, p) in t0.iter_mut().enumerate() {
        let off = SkLayout::t0::<P>(i);
        unpack_signed(&sk[off..off + 416], 1 << 12, 13, p);
        B::ntt(p);
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
    let mut masks = MaskStream::<B>::new();
    let mut y = P::VecL::zero();
    let mut y_hat = P::VecL::zero();
    let mut w = P::VecK::zero();
    let (y, y_hat, w) = (y.as_mut(), y_hat.as_mut(), w.as_mut());
    let mut t1 = [0i32; N];
    let mut t2 = [0i32; N];
    let mut c_hat = [0i32; N];
    let mut hints = [[0u64; 4]; MAX_K];
    let mut w1_enc = [0u8; 192];
    loop {
        // y = ExpandMask(ρ'', κ); ŷ = NTT(y).
        masks.next_masks(&rho2, P::GAMMA1_BITS, y);
        for (yh, y) in y_hat.iter_mut().zip(y.iter()) {
            *yh = *y;
            B::ntt(yh);
        }
        // w = NTT^-1(Â ∘ ŷ) in [0, q); c̃ = H(μ || w1Encode(w1), λ/4).
        let mut hc = Shake256::new();
        hc.absorb(&mu);
        for i in 0..k {
            let wi = &mut w[i];
            wi.fill(0);
            B::pointwise_acc(wi, &a[i * l..(i + 1) * l], y_hat);
            B::reduce32(wi);
            B::invntt_tomont(wi);
            B::reduce32(wi);
            B::caddq(wi);
            decompose_p::<P, B>(wi, &mut t1, &mut t2);
            pack_i32(&t1, P::W1_BITS, &mut w1_enc[..w1_bytes]);
            hc.absorb(&w1_enc[..w1_bytes]);
        }
        let (ctilde, rest) = sig.split_at_mut(P::CTILDE);
        hc.squeeze(ctilde);
        B::sample_in_ball_ct(ctilde, P::TAU, &mut c_hat);
        B::ntt(&mut c_hat);

        // z = y + c s1; reject if ‖z‖∞ ≥ γ1 - β. The same inverse NTT
        // gives c s2 for rows j < ℓ: w_j -= c s2_j.
        let mut reject = false;
        for j in 0..l {
            c_times::<B>(&c_hat, &u[j], &mut t2);
            split_cs(&mut t2, &mut t1);
            for (z, t) in y[j].iter_mut().zip(&t1) {
                *z += *t;
            }
            B::reduce32(&mut y[j]);
            reject |= B::exceeds(&y[j], P::GAMMA1 - P::BETA);
            for (w, t) in w[j].iter_mut().zip(&t2) {
                *w -= *t;
            }
        }
        // r0 = LowBits(w - c s2): ‖r0‖∞ ≥ γ2 - β rejects; ct0: ‖ct0‖∞ ≥ γ2
        // rejects; h = MakeHint(-ct0, w - cs2 + ct0), more than ω ones
        // rejects.
        let mut ones = 0u32;
        for i in 0..k {
            let wi = &mut w[i];
            if i >= l {
                c_times::<B>(&c_hat, &s2[i], &mut t1);
                for (w, t) in wi.iter_mut().zip(&t1) {
                    *w -= *t;
                }
            }
            B::reduce32(wi);
            B::caddq(wi);
            decompose_p::<P, B>(wi, &mut t1, &mut t2);
            reject |= B::exceeds(&t2, P::GAMMA2 - P::BETA);
            c_times::<B>(&c_hat, &t0[i], &mut t1);
            // Reduced first: the norm check needs the centred value, which
            // reduce32's range (|x| ≤ 6283008 < q - γ2) pins down for every
            // value below the bound.
            B::reduce32(&mut t1);
            reject |= B::exceeds(&t1, P::GAMMA2);
            for (w, t) in wi.iter_mut().zip(&mut t1) {
                *w += *t;
                *t = -*t;
            }
            B::reduce32(wi);
            B::caddq(wi);
            let n = if P::GAMMA2 == GAMMA2_88 {
                B::make_hint::<GAMMA2_88>(&t1, wi, &mut t2)
            } else {
                B::make_hint::<GAMMA2_32>(&t1, wi, &mut t2)
            };
            ones += n;
            // 64 coefficients per word, accumulated in a register.
            for (word, h) in hints[i].iter_mut().zip(t2.chunks_exact(64)) {
                let mut acc = 0u64;
                for (c, &b) in h.iter().enumerate() {
                    acc |= (b as u64) << c;
                }
                *word = acc;
            }
        }
        reject |= ones > P::OMEGA as u32;
        // CT: the accept/reject decision of this attempt, over all four
        // checks (FIPS 204 rejection sampling: its outcome is public).
        if !ctgrind::declassify_val(reject) {
            // The accepted attempt: c̃, z and h are the signature (public).
            ctgrind::declassify_u64(hints.as_flattened_mut());
            let (zenc, henc) = rest.split_at_mut(l * zbytes);
            for j in 0..l {
                pack_signed(
                    &y[j],
                    P::GAMMA1,
                    zbits,
                    &mut zenc[zbytes * j..zbytes * (j + 1)],
                );
            }
            henc.fill(0);
            let mut idx = 0;
            for (i, bits) in hints[..k].iter().enumerate() {
                for c in 0..N {
                    if (bits[c / 64] >> (c % 64)) & 1 == 1 {
                        henc[idx] = c as u8;
                        idx += 1;
                    }
                }
                henc[P::OMEGA + i] = idx as u8;
            }
            ctgrind::declassify(sig);
            break;
        }
    }
    wipe(y.as_flattened_mut());
    wipe(y_hat.as_flattened_mut());
    wipe(w.as_flattened_mut());
    wipe(u.as_flattened_mut());
    wipe(s2.as_flattened_mut());
    wipe(t0.as_flattened_mut());
    wipe(&mut rho2);
    wipe(&mut t1);
    wipe(&mut t2);
    wipe(&mut c_hat);
}

/// Sign_internal as an [`Operation`].
pub(crate) struct Sign<'a, P> {
    pub sk: &'a [u8],
    pub msg: Message<'a>,
    pub rnd: &'a [u8; 32],
    pub sig: &'a mut [u8],
    pub _p: PhantomData<P>,
}

impl<P: ParameterSet> Operation for Sign<'_, P> {
    type Output = ();
    fn run<B: Backend>(self) {
        sign::<P, B>(self.sk, self.msg, self.rnd, self.sig);
    }
}

#[cfg(test)]
mod tests {
    use super::split_cs;
    use crate::params::{N, Q};

    /// Every (c s1, c s2) pair with both in [-255, 255], given as any
    /// representative in (-q, q) of c s1 + 512 c s2 (the inverse NTT's
    /// range), splits back exactly.
    #[test]
    fn split_cs_exact_on_its_whole_domain() {
        // Under Miri a stride that keeps both ends (17 divides 510).
        let step = if cfg!(miri) { 17 } else { 1 };
        let mut pairs = (-255..=255)
            .step_by(step)
            .flat_map(move |a| (-255..=255).step_by(step).map(move |b| (a, b)));
        loop {
            let mut x = [0i32; N];
            let mut want = [(0, 0); N];
            let mut n = 0;
            for (i, (a, b)) in pairs.by_ref().take(N).enumerate() {
                let v = a + 512 * b;
                // Alternate the representatives v, v - q (or v + q).
                x[i] = if i % 2 == 0 {
                    v
                } else if v >= 0 {
                    v - Q
                } else {
                    v + Q
                };
                want[i] = (a, b);
                n += 1;
            }
            if n == 0 {
                break;
            }
            let mut cs1 = [0i32; N];
            split_cs(&mut x, &mut cs1);
            for i in 0..n {
                assert_eq!((cs1[i], x[i]), want[i], "pair {:?}", want[i]);
            }
        }
    }
}
