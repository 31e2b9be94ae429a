//! FFT over R[X]/(X^n+1) and polynomial arithmetic in FFT representation
//! (Falcon specification v1.2, section 3.7 / Algorithms 1-2).
//!
//! Layout: a real polynomial of degree < n is n `Fpr`; its FFT holds n/2
//! complex values f(zeta_j), real parts in [0, n/2), imaginary parts in
//! [n/2, n), in the bit-reversed order of the reference implementation.
//! The operation order of every formula follows the reference exactly, so
//! that results are bit-identical (no fused multiply-add anywhere). The
//! transforms are backend kernels ([`crate::backend::Backend::fft`]): the
//! protocol calls them through the backend, the portable bodies are here.

use crate::fpr::{Fpr, GM, P2_TAB};

/// (a_re + i a_im) * (b_re + i b_im).
#[inline(always)]
pub(crate) fn cmul(a_re: Fpr, a_im: Fpr, b_re: Fpr, b_im: Fpr) -> (Fpr, Fpr) {
    (a_re * b_re - a_im * b_im, a_re * b_im + a_im * b_re)
}

/// (a_re + i a_im) / (b_re + i b_im), through 1/|b|^2.
#[inline(always)]
fn cdiv(a_re: Fpr, a_im: Fpr, b_re: Fpr, b_im: Fpr) -> (Fpr, Fpr) {
    let m = (b_re.sqr() + b_im.sqr()).inv();
    let b_re = b_re * m;
    let b_im = (-b_im) * m;
    cmul(a_re, a_im, b_re, b_im)
}

/// Twiddle factor k (re, im).
#[inline(always)]
fn gm(k: usize) -> (Fpr, Fpr) {
    (GM[k << 1], GM[(k << 1) + 1])
}

/// In-place FFT of `f` (n = 2^logn coefficients): the portable kernel of
/// [`crate::backend::Backend::fft`].
pub(crate) fn fft(f: &mut [Fpr], logn: u32) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let mut t = hn;
    let mut m = 2;
    for _ in 1..logn {
        let ht = t >> 1;
        let hm = m >> 1;
        for i1 in 0..hm {
            let j1 = i1 * t;
            let (s_re, s_im) = gm(m + i1);
            for j in j1..j1 + ht {
                let x_re = f[j];
                let x_im = f[j + hn];
                let (y_re, y_im) = cmul(f[j + ht], f[j + ht + hn], s_re, s_im);
                f[j] = x_re + y_re;
                f[j + hn] = x_im + y_im;
                f[j + ht] = x_re - y_re;
                f[j + ht + hn] = x_im - y_im;
            }
        }
        t = ht;
        m <<= 1;
    }
}

/// In-place inverse FFT of `f`: the portable kernel of
/// [`crate::backend::Backend::ifft`].
pub(crate) fn ifft(f: &mut [Fpr], logn: u32) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let mut t = 1;
    let mut m = n;
    for _ in (2..=logn).rev() {
        let hm = m >> 1;
        let dt = t << 1;
        let mut i1 = 0;
        let mut j1 = 0;
        while j1 < hn {
            let (s_re, s_im) = gm(hm + i1);
            let s_im = -s_im;
            for j in j1..j1 + t {
                let x_re = f[j];
                let x_im = f[j + hn];
                let y_re = f[j + t];
                let y_im = f[j + t + hn];
                f[j] = x_re + y_re;
                f[j + hn] = x_im + y_im;
                let (d_re, d_im) = cmul(x_re - y_re, x_im - y_im, s_re, s_im);
                f[j + t] = d_re;
                f[j + t + hn] = d_im;
            }
            i1 += 1;
            j1 += dt;
        }
        t = dt;
        m = hm;
    }
    if logn > 0 {
        let ni = P2_TAB[logn as usize];
        for x in &mut f[..n] {
            *x = *x * ni;
        }
    }
}

/// a += b.
pub(crate) fn add(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    for (x, &y) in a[..1 << logn].iter_mut().zip(b) {
        *x = *x + y;
    }
}

/// a -= b.
pub(crate) fn sub(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    for (x, &y) in a[..1 << logn].iter_mut().zip(b) {
        *x = *x - y;
    }
}

/// a = -a.
pub(crate) fn neg(a: &mut [Fpr], logn: u32) {
    for x in &mut a[..1 << logn] {
        *x = -*x;
    }
}

/// a = adj(a) (FFT representation).
pub(crate) fn adj_fft(a: &mut [Fpr], logn: u32) {
    let n = 1usize << logn;
    for x in &mut a[n >> 1..n] {
        *x = -*x;
    }
}

/// a *= b (FFT representation).
pub(crate) fn mul_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let hn = 1usize << (logn - 1);
    for u in 0..hn {
        let (re, im) = cmul(a[u], a[u + hn], b[u], b[u + hn]);
        a[u] = re;
        a[u + hn] = im;
    }
}

/// a *= adj(b) (FFT representation).
pub(crate) fn muladj_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let hn = 1usize << (logn - 1);
    for u in 0..hn {
        let (re, im) = cmul(a[u], a[u + hn], b[u], -b[u + hn]);
        a[u] = re;
        a[u + hn] = im;
    }
}

/// a *= adj(a) (FFT representation; the result is real).
pub(crate) fn mulselfadj_fft(a: &mut [Fpr], logn: u32) {
    let hn = 1usize << (logn - 1);
    for u in 0..hn {
        let (re, im) = (a[u], a[u + hn]);
        a[u] = re.sqr() + im.sqr();
        a[u + hn] = crate::fpr::ZERO;
    }
}

/// a *= x (x real constant).
pub(crate) fn mulconst(a: &mut [Fpr], x: Fpr, logn: u32) {
    for v in &mut a[..1 << logn] {
        *v = *v * x;
    }
}

/// d = 1 / (|a|^2 + |b|^2): n/2 real values (FFT representation).
pub(crate) fn invnorm2_fft(d: &mut [Fpr], a: &[Fpr], b: &[Fpr], logn: u32) {
    let hn = 1usize << (logn - 1);
    for u in 0..hn {
        let na = a[u].sqr() + a[u + hn].sqr();
        let nb = b[u].sqr() + b[u + hn].sqr();
        d[u] = (na + nb).inv();
    }
}

/// d = F adj(f) + G adj(g) (FFT representation).
pub(crate) fn add_muladj_fft(
    d: &mut [Fpr],
    ff: &[Fpr],
    gg: &[Fpr],
    f: &[Fpr],
    g: &[Fpr],
    logn: u32,
) {
    let hn = 1usize << (logn - 1);
    for u in 0..hn {
        let (a_re, a_im) = cmul(ff[u], ff[u + hn], f[u], -f[u + hn]);
        let (b_re, b_im) = cmul(gg[u], gg[u + hn], g[u], -g[u + hn]);
        d[u] = a_re + b_re;
        d[u + hn] = a_im + b_im;
    }
}

/// a *= b, b self-adjoint (n/2 real values).
pub(crate) fn mul_autoadj_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let hn = 1usize << (logn - 1);
    for u in 0..hn {
        a[u] = a[u] * b[u];
        a[u + hn] = a[u + hn] * b[u];
    }
}

/// a /= b, b self-adjoint (n/2 real values).
pub(crate) fn div_autoadj_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let hn = 1usize << (logn - 1);
    for u in 0..hn {
        let ib = b[u].inv();
        a[u] = a[u] * ib;
        a[u + hn] = a[u + hn] * ib;
    }
}

/// LDL decomposition of the self-adjoint 2x2 Gram matrix [[g00, g01],
/// [adj(g01), g11]]: g01 <- l10 = adj(g01/g00), g11 <- d11.
pub(crate) fn ldl_fft(g00: &[Fpr], g01: &mut [Fpr], g11: &mut [Fpr], logn: u32) {
    let hn = 1usize << (logn - 1);
    for u in 0..hn {
        let (mu_re, mu_im) = cdiv(g01[u], g01[u + hn], g00[u], g00[u + hn]);
        let (t_re, t_im) = cmul(mu_re, mu_im, g01[u], -g01[u + hn]);
        g11[u] = g11[u] - t_re;
        g11[u + hn] = g11[u + hn] - t_im;
        g01[u] = mu_re;
        g01[u + hn] = -mu_im;
    }
}

/// As [`ldl_fft`], writing d11 and l10 to separate outputs.
pub(crate) fn ldlmv_fft(
    d11: &mut [Fpr],
    l10: &mut [Fpr],
    g00: &[Fpr],
    g01: &[Fpr],
    g11: &[Fpr],
    logn: u32,
) {
    let hn = 1usize << (logn - 1);
    for u in 0..hn {
        let (mu_re, mu_im) = cdiv(g01[u], g01[u + hn], g00[u], g00[u + hn]);
        let (t_re, t_im) = cmul(mu_re, mu_im, g01[u], -g01[u + hn]);
        d11[u] = g11[u] - t_re;
        d11[u + hn] = g11[u + hn] - t_im;
        l10[u] = mu_re;
        l10[u + hn] = -mu_im;
    }
}

/// Splits f (FFT, n) into f0, f1 (FFT, n/2) with f = f0(x^2) + x f1(x^2).
pub(crate) fn split_fft(f0: &mut [Fpr], f1: &mut [Fpr], f: &[Fpr], logn: u32) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let qn = hn >> 1;
    f0[0] = f[0];
    f1[0] = f[hn];
    for u in 0..qn {
        let (a_re, a_im) = (f[u << 1], f[(u << 1) + hn]);
        let (b_re, b_im) = (f[(u << 1) + 1], f[(u << 1) + 1 + hn]);
        f0[u] = (a_re + b_re).half();
        f0[u + qn] = (a_im + b_im).half();
        let (s_re, s_im) = gm(u + hn);
        let (t_re, t_im) = cmul(a_re - b_re, a_im - b_im, s_re, -s_im);
        f1[u] = t_re.half();
        f1[u + qn] = t_im.half();
    }
}

/// Inverse of [`split_fft`].
pub(crate) fn merge_fft(f: &mut [Fpr], f0: &[Fpr], f1: &[Fpr], logn: u32) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let qn = hn >> 1;
    f[0] = f0[0];
    f[hn] = f1[0];
    for u in 0..qn {
        let (a_re, a_im) = (f0[u], f0[u + qn]);
        let (s_re, s_im) = gm(u + hn);
        let (b_re, b_im) = cmul(f1[u], f1[u + qn], s_re, s_im);
        f[u << 1] = a_re + b_re;
        f[(u << 1) + hn] = a_im + b_im;
        f[(u << 1) + 1] = a_re - b_re;
        f[(u << 1) + 1 + hn] = a_im - b_im;
    }
}
