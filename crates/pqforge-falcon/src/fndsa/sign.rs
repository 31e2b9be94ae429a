//! FN-DSA signing (putative draft): hedged seed, per-attempt sampler
//! reseed and nonce, fast Fourier sampling with the LDL decomposition
//! computed on the fly, and the draft's Gaussian sampler (80-bit base
//! sampler draws, SHAKE256 byte stream).
//!
//! Every floating-point formula keeps the operation order of the draft's
//! reference implementation so that signatures are bit-identical for the
//! same seed (binary64, no fused multiply-add). Where that order is the
//! round-3 one (the basis, products, split and merge in FFT form), the
//! round-3 functions serve; what differs is here: the sampler and its
//! SHAKE256 stream, the LDL step and split of self-adjoint polynomials
//! (real-only arithmetic), the leaf case, the attempt loop and the 840
//! bound.

use pqforge_core::keccak::Shake256;
use zeroize::Zeroize;

use super::codec::{self, B_INF};
use crate::backend::Backend;
use crate::ct_util::declassify_bool;
use crate::fft::{self, add, merge_fft, mul_fft, muladj_fft, mulselfadj_fft, split_fft};
use crate::fpr::{self, Fpr, GM};
use crate::ntru::NtruKey;
use crate::sign::basis_fft;

/// 1/sigma per logn (index 0 unused). One ulp below the round-3 values:
/// the draft recomputed them at full precision.
const INV_SIGMA: [Fpr; 11] = [
    Fpr::from_bits(0),
    Fpr::from_bits(4_574_611_497_772_390_041),
    Fpr::from_bits(4_574_501_679_055_810_264),
    Fpr::from_bits(4_574_396_282_908_341_803),
    Fpr::from_bits(4_574_245_855_758_572_085),
    Fpr::from_bits(4_574_103_865_040_221_164),
    Fpr::from_bits(4_573_969_550_563_515_543),
    Fpr::from_bits(4_573_842_244_705_920_821),
    Fpr::from_bits(4_573_721_358_406_441_453),
    Fpr::from_bits(4_573_606_369_665_796_041),
    Fpr::from_bits(4_573_496_814_039_276_258),
];

/// Reversed cumulative distribution of the base half-Gaussian
/// (sigma_0 = 1.8205) as 31 + 24 + 24-bit words, high first.
const GAUSS0: [[u32; 3]; 18] = [
    [1_375_468_055, 6_936_092, 9_176_346],
    [711_562_636, 1_023_934, 15_582_455],
    [289_335_016, 4_826_132, 14_746_371],
    [90_749_601, 12_313_548, 10_843_417],
    [21_676_598, 5_732_767, 9_419_414],
    [3_908_963, 11_171_514, 6_206_010],
    [529_006, 11_146_683, 11_891_888],
    [53_503, 15_610_582, 11_661_180],
    [4_032, 7_095_613, 11_671_091],
    [225, 16_701_698, 407_118],
    [9, 6_787_688, 1_638_204],
    [0, 4_870_085, 8_687_822],
    [0, 111_406, 13_946_073],
    [0, 1_887, 12_017_202],
    [0, 23, 11_452_285],
    [0, 0, 3_689_579],
    [0, 0, 25_354],
    [0, 0, 129],
];

/// Maximum squared norm of (s1, s2), per logn (accepted when <=): the
/// round-3 bound.
pub(crate) use crate::vrfy::L2BOUND as SQBETA;

/// Number of signing attempts before the key is declared invalid (each
/// fails with probability below 2^-9.6 for a valid key).
const MAX_ATTEMPTS: u8 = 27;

/// SHAKE256 output as a byte stream (little-endian words).
pub(crate) struct Prng {
    sh: Shake256,
    buf: [u8; 136],
    ptr: usize,
}

impl Prng {
    pub(crate) fn new(seed: &[u8]) -> Self {
        let mut sh = Shake256::new();
        sh.absorb(seed);
        Prng {
            sh,
            buf: [0; 136],
            ptr: 136,
        }
    }

    fn next_u8(&mut self) -> u8 {
        if self.ptr == self.buf.len() {
            self.sh.squeeze(&mut self.buf);
            self.ptr = 0;
        }
        let x = self.buf[self.ptr];
        self.ptr += 1;
        x
    }

    fn next_u16(&mut self) -> u16 {
        u16::from(self.next_u8()) | (u16::from(self.next_u8()) << 8)
    }

    fn next_u64(&mut self) -> u64 {
        let mut x = 0u64;
        for i in 0..8 {
            x |= u64::from(self.next_u8()) << (8 * i);
        }
        x
    }

    pub(crate) fn next_bytes(&mut self, out: &mut [u8]) {
        for b in out {
            *b = self.next_u8();
        }
    }
}

impl Drop for Prng {
    fn drop(&mut self) {
        self.buf.zeroize();
    }
}

/// The Gaussian sampler of the draft.
pub(crate) struct Sampler {
    p: Prng,
    logn: u32,
}

impl Sampler {
    /// Base sampler: 80 random bits; the low bit is the sign selector b,
    /// the next 72 bits are compared against every table row.
    fn gaussian0(&mut self) -> (i32, i32) {
        let lo = self.p.next_u64();
        let hi = self.p.next_u16();
        let b = (lo & 1) as i32;
        let v0 = ((lo as u32) >> 1) & 0x00FF_FFFF;
        let v1 = ((lo >> 25) as u32) & 0x00FF_FFFF;
        let v2 = ((lo >> 49) as u32) | (u32::from(hi) << 15);
        let mut z = 0i32;
        for row in &GAUSS0 {
            let cc = v0.wrapping_sub(row[2]) >> 31;
            let cc = v1.wrapping_sub(row[1]).wrapping_sub(cc) >> 31;
            let cc = v2.wrapping_sub(row[0]).wrapping_sub(cc) >> 31;
            z += cc as i32;
        }
        (z, b)
    }

    /// Bernoulli with probability ccs * exp(-x), x >= 0.
    fn ber_exp(&mut self, x: Fpr, ccs: Fpr) -> bool {
        let s = (x * fpr::INV_LOG2).trunc();
        let r = x - Fpr::of(s) * fpr::LOG2;
        let sw = s as u32;
        let sw = (sw | (63u32.wrapping_sub(sw) >> 16)) & 63;
        let z = (fpr::expm_p63(r, ccs) << 1).wrapping_sub(1);
        // 64-bit shift by a secret amount, in two constant-time steps.
        let z = (z ^ ((z ^ (z >> 32)) & u64::from(sw >> 5).wrapping_neg())) >> (sw & 31);
        // Lazy comparison with a uniform 64-bit value, top byte first.
        // CT: only where the first differing byte is gets revealed (as in
        // the reference); the continue bit is declassified.
        for i in 0..8 {
            let w = self.p.next_u8();
            let bz = (z >> (56 - 8 * i)) as u8;
            if declassify_bool(w != bz) {
                return w < bz;
            }
        }
        false
    }

    /// Integer from the discrete Gaussian of centre `mu`, 1/sigma `isigma`.
    fn next(&mut self, mu: Fpr, isigma: Fpr) -> i32 {
        let s = mu.floor();
        let r = mu - Fpr::of(s);
        let s = s as i32;
        let dss = isigma.sqr().half();
        let ccs = isigma * fpr::SIGMA_MIN[self.logn as usize];
        loop {
            let (z0, b) = self.gaussian0();
            let z = b + ((b << 1) - 1) * z0;
            let mut x = (Fpr::of(i64::from(z)) - r).sqr() * dss;
            x = x - Fpr::of(i64::from(z0 * z0)) * fpr::INV_2SQRSIGMA0;
            // CT: rejection-sampling accept bit, declassified.
            if declassify_bool(self.ber_exp(x, ccs)) {
                return s + z;
            }
        }
    }

    /// Fast Fourier sampling of (t0, t1) against the Gram matrix
    /// (g00, g01, g11) (all FFT, n = 2^logn; destroyed); `tmp` >= 4n.
    fn ffsamp(
        &mut self,
        logn: u32,
        (t0, t1): (&mut [Fpr], &mut [Fpr]),
        (g00, g01, g11): (&mut [Fpr], &mut [Fpr], &mut [Fpr]),
        tmp: &mut [Fpr],
    ) {
        let isig = INV_SIGMA[self.logn as usize];
        if logn == 1 {
            let g00_re = g00[0];
            let (g01_re, g01_im) = (g01[0], g01[1]);
            let g11_re = g11[0];
            let inv_g00_re = fpr::ONE / g00_re;
            let (mu_re, mu_im) = (g01_re * inv_g00_re, g01_im * inv_g00_re);
            let zo_re = mu_re * g01_re + mu_im * g01_im;
            let d00_re = g00_re;
            let (l01_re, l01_im) = (mu_re, -mu_im);
            let d11_re = g11_re - zo_re;
            let (w0, w1) = (t1[0], t1[1]);
            let leaf = d11_re.sqrt() * isig;
            let y0 = Fpr::of(i64::from(self.next(w0, leaf)));
            let y1 = Fpr::of(i64::from(self.next(w1, leaf)));
            let (a_re, a_im) = (w0 - y0, w1 - y1);
            let (b_re, b_im) = fft::cmul(a_re, a_im, l01_re, l01_im);
            let (x0, x1) = (t0[0] + b_re, t0[1] + b_im);
            t1[0] = y0;
            t1[1] = y1;
            let leaf = d00_re.sqrt() * isig;
            t0[0] = Fpr::of(i64::from(self.next(x0, leaf)));
            t0[1] = Fpr::of(i64::from(self.next(x1, leaf)));
            return;
        }
        let n = 1usize << logn;
        let hn = n >> 1;
        ldl(g00, g01, g11, hn);
        {
            let (w0, w1) = tmp.split_at_mut(hn);
            split_selfadj(w0, w1, g00, logn);
            g00[..hn].copy_from_slice(&w0[..hn]);
            g00[hn..n].copy_from_slice(&w1[..hn]);
            split_selfadj(w0, w1, g11, logn);
            g11[..hn].copy_from_slice(&w0[..hn]);
            g11[hn..n].copy_from_slice(&w1[..hn]);
        }
        tmp[..n].copy_from_slice(&g01[..n]);
        g01[..hn].copy_from_slice(&g00[..hn]);
        g01[hn..n].copy_from_slice(&g11[..hn]);
        let (left_00, left_01) = g00[..n].split_at_mut(hn);
        let (right_00, right_01) = g11[..n].split_at_mut(hn);
        let (left_11, right_11) = g01[..n].split_at_mut(hn);
        {
            let (_, rest) = tmp.split_at_mut(n);
            let (w0, rest) = rest.split_at_mut(hn);
            let (w1, rest) = rest.split_at_mut(hn);
            split_fft(w0, w1, t1, logn);
            let g = (right_00, right_01, right_11);
            self.ffsamp(logn - 1, (&mut *w0, &mut *w1), g, rest);
            merge_fft(rest, w0, w1, logn);
        }
        {
            let (l10, rest) = tmp.split_at_mut(n);
            let (w, rest) = rest.split_at_mut(n);
            let z1 = &rest[..n];
            w.copy_from_slice(&t1[..n]);
            fft::sub(w, z1, logn);
            t1[..n].copy_from_slice(z1);
            mul_fft(l10, w, logn);
            add(t0, l10, logn);
        }
        {
            let (w0, rest) = tmp.split_at_mut(hn);
            let (w1, rest) = rest.split_at_mut(hn);
            split_fft(w0, w1, t0, logn);
            let g = (left_00, left_01, left_11);
            self.ffsamp(logn - 1, (&mut *w0, &mut *w1), g, rest);
            merge_fft(t0, w0, w1, logn);
        }
    }
}

/// LDL of the self-adjoint 2x2 matrix [[g00, g01], [adj g01, g11]]:
/// g01 <- l10, g11 <- d11 (g00 = d00 is kept).
fn ldl(g00: &[Fpr], g01: &mut [Fpr], g11: &mut [Fpr], hn: usize) {
    for i in 0..hn {
        let g00_re = g00[i];
        let (g01_re, g01_im) = (g01[i], g01[i + hn]);
        let g11_re = g11[i];
        let inv_g00_re = fpr::ONE / g00_re;
        let (mu_re, mu_im) = (g01_re * inv_g00_re, g01_im * inv_g00_re);
        let zo_re = mu_re * g01_re + mu_im * g01_im;
        g11[i] = g11_re - zo_re;
        g01[i] = mu_re;
        g01[i + hn] = -mu_im;
    }
}

/// Split of a self-adjoint f (FFT, n = 2^logn >= 4) into f0, f1 (n/2).
fn split_selfadj(f0: &mut [Fpr], f1: &mut [Fpr], f: &[Fpr], logn: u32) {
    let hn = 1usize << (logn - 1);
    let qn = hn >> 1;
    for i in 0..qn {
        let a_re = f[i << 1];
        let b_re = f[(i << 1) + 1];
        f0[i] = (a_re + b_re).half();
        f0[i + qn] = fpr::ZERO;
        let t_re = (a_re - b_re).half();
        f1[i] = t_re * GM[(i + hn) << 1];
        f1[i + qn] = t_re * -GM[((i + hn) << 1) + 1];
    }
}

/// HashToPoint of the draft: SHAKE256(nonce || mu), 16-bit little-endian
/// samples, rejecting values >= 5q, reduced mod q. Public inputs.
pub(crate) fn hash_to_point(nonce: &[u8], mu: &[u8; 64], c: &mut [u16]) {
    let mut sh = Shake256::new();
    sh.absorb(nonce);
    sh.absorb(mu);
    let mut i = 0;
    while i < c.len() {
        let mut v = [0u8; 2];
        sh.squeeze(&mut v);
        let mut w = u32::from(u16::from_le_bytes(v));
        if w < 61445 {
            while w >= 12289 {
                w -= 12289;
            }
            c[i] = w as u16;
            i += 1;
        }
    }
}

/// Signs with the derived (hedged) 40-byte seed: writes the whole
/// signature (header, nonce, padded body) into `sig` (exact length).
/// Returns `false` after [`MAX_ATTEMPTS`] failures (invalid key).
/// `N` = n, `T` >= 9n.
pub(crate) fn sign_with_seed<B: Backend, const N: usize, const T: usize>(
    b: B,
    key: &NtruKey<'_>,
    logn: u32,
    seed: &[u8; 40],
    mu: &[u8; 64],
    sig: &mut [u8],
) -> bool {
    crate::scratch::with::<T, _>(|tmp| sign_in::<B, N>(b, key, logn, seed, mu, sig, tmp))
}

/// [`sign_with_seed`] with its scratch `tmp` (at least 9n values).
fn sign_in<B: Backend, const N: usize>(
    b: B,
    key: &NtruKey<'_>,
    logn: u32,
    seed: &[u8; 40],
    mu: &[u8; 64],
    sig: &mut [u8],
    tmp: &mut [Fpr],
) -> bool {
    let n = N;
    let mut hm = [0u16; N];
    let mut s2 = [0i16; N];
    let mut ok = false;
    for counter in 0..MAX_ATTEMPTS {
        let mut seed2 = [0u8; 41];
        seed2[..40].copy_from_slice(seed);
        seed2[40] = counter;
        let mut samp = Sampler {
            p: Prng::new(&seed2),
            logn,
        };
        seed2.zeroize();
        let mut nonce = [0u8; 40];
        samp.p.next_bytes(&mut nonce);
        // CT: the nonce is published in the signature.
        crate::ct_util::declassify(&mut nonce);
        hash_to_point(&nonce, mu, &mut hm);

        // Basis, then Gram matrix: slots (n each) end up as
        // [g01 | b01 | g11 | b11 | g00 | ...].
        basis_fft(b, tmp, key, logn);
        {
            let (b00, rest) = tmp.split_at_mut(n);
            let (b01, rest) = rest.split_at_mut(n);
            let (b10, rest) = rest.split_at_mut(n);
            let (b11, rest) = rest.split_at_mut(n);
            let (s4, rest) = rest.split_at_mut(n);
            let s5 = &mut rest[..n];
            s4.copy_from_slice(b00);
            mulselfadj_fft(s4, logn);
            s5.copy_from_slice(b01);
            mulselfadj_fft(s5, logn);
            add(s4, s5, logn);
            muladj_fft(b00, b10, logn);
            s5.copy_from_slice(b01);
            muladj_fft(s5, b11, logn);
            add(b00, s5, logn);
            mulselfadj_fft(b10, logn);
            s5.copy_from_slice(b11);
            mulselfadj_fft(s5, logn);
            add(b10, s5, logn);
        }
        // Target: t0 = FFT(hm) b11 / q, t1 = -FFT(hm) b01 / q (slots 5, 6).
        {
            let (head, rest) = tmp.split_at_mut(5 * n);
            let (t0, rest) = rest.split_at_mut(n);
            let t1 = &mut rest[..n];
            for (x, &h) in t0.iter_mut().zip(hm.iter()) {
                *x = Fpr::of(i64::from(h));
            }
            b.fft(t0, logn);
            t1.copy_from_slice(t0);
            mul_fft(t1, &head[n..2 * n], logn);
            fft::mulconst(t1, -fpr::INVERSE_OF_Q, logn);
            mul_fft(t0, &head[3 * n..4 * n], logn);
            fft::mulconst(t0, fpr::INVERSE_OF_Q, logn);
        }
        // Rearrange to [g00 | g01 | g11 | t0 | t1 | work(4n)].
        tmp.copy_within(0..n, n);
        tmp.copy_within(4 * n..5 * n, 0);
        tmp.copy_within(5 * n..6 * n, 3 * n);
        tmp.copy_within(6 * n..7 * n, 4 * n);
        {
            let (g00, rest) = tmp.split_at_mut(n);
            let (g01, rest) = rest.split_at_mut(n);
            let (g11, rest) = rest.split_at_mut(n);
            let (t0, rest) = rest.split_at_mut(n);
            let (t1, rest) = rest.split_at_mut(n);
            samp.ffsamp(logn, (t0, t1), (g00, g01, g11), &mut rest[..4 * n]);
        }
        drop(samp);
        // [b00 b01 b10 b11 | t0 t1 | tx ty].
        tmp.copy_within(3 * n..5 * n, 4 * n);
        basis_fft(b, tmp, key, logn);
        {
            let (b00, rest) = tmp.split_at_mut(n);
            let (b01, rest) = rest.split_at_mut(n);
            let (b10, rest) = rest.split_at_mut(n);
            let (b11, rest) = rest.split_at_mut(n);
            let (t0, rest) = rest.split_at_mut(n);
            let (t1, rest) = rest.split_at_mut(n);
            let (tx, rest) = rest.split_at_mut(n);
            let ty = &mut rest[..n];
            tx.copy_from_slice(t0);
            ty.copy_from_slice(t1);
            mul_fft(tx, b00, logn);
            mul_fft(ty, b10, logn);
            add(tx, ty, logn);
            ty.copy_from_slice(t0);
            mul_fft(ty, b01, logn);
            t0.copy_from_slice(tx);
            mul_fft(t1, b11, logn);
            add(t1, ty, logn);
            b.ifft(t0, logn);
            b.ifft(t1, logn);
        }
        // s1 = hm - round(t0) (norm and infinity bound), s2 = -round(t1).
        let mut sqn = 0u32;
        let mut ng = 0u32;
        for i in 0..n {
            let z = i32::from(hm[i]) - tmp[4 * n + i].rint() as i32;
            let z = i32::from(z as i16);
            sqn = sqn.wrapping_add((z * z) as u32);
            ng |= sqn;
            ng |= (B_INF as i32 - z) as u32;
            ng |= (B_INF as i32 + z) as u32;
        }
        for i in 0..n {
            let sz = (-tmp[5 * n + i].rint()) as i16;
            let z = i32::from(sz);
            sqn = sqn.wrapping_add((z * z) as u32);
            ng |= sqn;
            s2[i] = sz;
        }
        sqn |= ((ng as i32) >> 31) as u32;
        // CT: whether this attempt is short enough is public (rejection).
        if declassify_bool(sqn > SQBETA[logn as usize]) {
            continue;
        }
        // CT: whether the encoding fits is public (a retry); a candidate
        // that does not fit is discarded while still secret.
        if !crate::codec::comp_fits(&s2, B_INF, sig.len() - 41) {
            continue;
        }
        for x in &mut s2 {
            // CT: the accepted s2 becomes the public signature.
            *x = pqforge_core::ctgrind::declassify_val(*x);
        }
        if codec::comp_encode(&mut sig[41..], &s2) {
            sig[0] = 0x30 + logn as u8;
            sig[1..41].copy_from_slice(&nonce);
            ok = true;
            break;
        }
    }
    s2.zeroize();
    if !ok {
        // No partial encoding of a rejected candidate is left behind.
        sig.fill(0);
    }
    ok
}
