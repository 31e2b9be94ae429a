//! Arithmetic modulo the NTRU solver's 31-bit primes (Montgomery, R =
//! 2^31) and the NTT modulo those primes, in the bit-reversed order of the
//! round-3 reference `keygen.c`.
//!
//! The protocol code uses [`Prime`] (the constants of one prime) and
//! [`Ntt`] (one prime's twiddle tables with the backend that transforms);
//! the transforms and the power tables are backend kernels
//! ([`crate::backend::Backend::modp_ntt`], ...), whose portable bodies are
//! here. Every result is fully reduced (in [0, p)), so every backend and
//! schedule gives the same words.
//!
//! CT: no branch or index depends on the values, only on lengths.

use crate::backend::Backend;
use crate::tables::PRIMES;

/// The constants of one solver prime: p, -1/p mod 2^31, R^2 = 2^62 mod p,
/// the 2048-th root of unity g and the CRT factor s of the reference
/// table.
#[derive(Clone, Copy)]
pub(crate) struct Prime {
    pub(crate) p: u32,
    pub(crate) p0i: u32,
    pub(crate) r2: u32,
    pub(crate) g: u32,
    pub(crate) s: u32,
}

impl Prime {
    /// The i-th solver prime.
    pub(crate) fn new(i: usize) -> Self {
        let sp = PRIMES[i];
        let p0i = ninv31(sp.p);
        Prime {
            p: sp.p,
            p0i,
            r2: r2(sp.p, p0i),
            g: sp.g,
            s: sp.s,
        }
    }

    /// Montgomery product a b / 2^31 mod p.
    #[inline(always)]
    pub(crate) fn mm(self, a: u32, b: u32) -> u32 {
        montymul(a, b, self.p, self.p0i)
    }

    /// a b mod p (two Montgomery products, the second by R^2).
    #[inline(always)]
    pub(crate) fn mul(self, a: u32, b: u32) -> u32 {
        self.mm(self.mm(a, b), self.r2)
    }

    /// x (signed, |x| < p) as a value mod p.
    #[inline(always)]
    pub(crate) fn set(self, x: i32) -> u32 {
        set(x, self.p)
    }

    /// x mod p in the signed range (-p/2, p/2].
    #[inline(always)]
    pub(crate) fn norm(self, x: u32) -> i32 {
        norm(x, self.p)
    }

    #[inline(always)]
    pub(crate) fn add(self, a: u32, b: u32) -> u32 {
        add(a, b, self.p)
    }

    #[inline(always)]
    pub(crate) fn sub(self, a: u32, b: u32) -> u32 {
        sub(a, b, self.p)
    }

    /// 2^(31 len) mod p: the correction of a negative `len`-limb integer.
    pub(crate) fn rx(self, len: usize) -> u32 {
        rx(len as u32, self.p, self.p0i, self.r2)
    }
}

/// Bit-reversal of a 10-bit index.
#[inline(always)]
pub(crate) fn rev10(x: usize) -> usize {
    ((x as u32).reverse_bits() >> 22) as usize
}

/// x (signed, |x| < p) as a value mod p.
#[inline(always)]
pub(crate) fn set(x: i32, p: u32) -> u32 {
    let w = x as u32;
    // CT: black_box keeps LLVM from turning the sign mask into a branch
    // (it does at opt-level z).
    w.wrapping_add(p & core::hint::black_box((w >> 31).wrapping_neg()))
}

/// Normalises x mod p into the signed range (-p/2, p/2].
#[inline(always)]
pub(crate) fn norm(x: u32, p: u32) -> i32 {
    // CT: without black_box, opt-level z compiles this mask to a `js`
    // on the secret coefficient (seen by the valgrind harness).
    let m = core::hint::black_box((x.wrapping_sub((p + 1) >> 1) >> 31).wrapping_sub(1));
    x.wrapping_sub(p & m) as i32
}

/// -1/p mod 2^31.
pub(crate) fn ninv31(p: u32) -> u32 {
    let mut y = 2u32.wrapping_sub(p);
    for _ in 0..4 {
        y = y.wrapping_mul(2u32.wrapping_sub(p.wrapping_mul(y)));
    }
    0x7FFF_FFFF & y.wrapping_neg()
}

/// R = 2^31 mod p.
#[inline(always)]
pub(crate) fn r(p: u32) -> u32 {
    (1u32 << 31) - p
}

#[inline(always)]
pub(crate) fn add(a: u32, b: u32, p: u32) -> u32 {
    let d = a.wrapping_add(b).wrapping_sub(p);
    d.wrapping_add(p & (d >> 31).wrapping_neg())
}

#[inline(always)]
pub(crate) fn sub(a: u32, b: u32, p: u32) -> u32 {
    let d = a.wrapping_sub(b);
    d.wrapping_add(p & (d >> 31).wrapping_neg())
}

/// a * b / 2^31 mod p.
#[inline(always)]
pub(crate) fn montymul(a: u32, b: u32, p: u32, p0i: u32) -> u32 {
    let z = u64::from(a) * u64::from(b);
    let w = ((z.wrapping_mul(u64::from(p0i))) & 0x7FFF_FFFF) * u64::from(p);
    let d = ((z + w) >> 31) as u32;
    let d = d.wrapping_sub(p);
    d.wrapping_add(p & (d >> 31).wrapping_neg())
}

/// 2^62 mod p (R^2 in Montgomery representation).
pub(crate) fn r2(p: u32, p0i: u32) -> u32 {
    let mut z = r(p);
    z = add(z, z, p);
    for _ in 0..5 {
        z = montymul(z, z, p, p0i);
    }
    (z + (p & (z & 1).wrapping_neg())) >> 1
}

/// 2^(31 x) mod p (Montgomery representation of 2^(31 (x-1))); x public.
pub(crate) fn rx(x: u32, p: u32, p0i: u32, r2: u32) -> u32 {
    let x = x - 1;
    let mut r2 = r2;
    let mut z = r(p);
    let mut i = 0;
    while (1u32 << i) <= x {
        if (x & (1u32 << i)) != 0 {
            z = montymul(z, r2, p, p0i);
        }
        r2 = montymul(r2, r2, p, p0i);
        i += 1;
    }
    z
}

/// a / b mod p (b != 0), by exponentiation to p - 2.
#[cfg(test)]
pub(crate) fn div(a: u32, b: u32, p: u32, p0i: u32) -> u32 {
    let e = p - 2;
    let mut z = r(p);
    for i in (0..=30).rev() {
        z = montymul(z, z, p, p0i);
        let z2 = montymul(z, b, p, p0i);
        z ^= (z ^ z2) & ((e >> i) & 1).wrapping_neg();
    }
    z = montymul(z, 1, p, p0i);
    montymul(a, z, p, p0i)
}

/// The inverse of a 2^(logn+1)-th root of unity `g` (Montgomery form in
/// and out): g^(2^(logn+1) - 1) = g * g^2 * g^4 * ... * g^(2^logn), 2 logn
/// products instead of the 62 of a division; the same (fully reduced)
/// value.
fn inv_root(g: u32, logn: u32, p: u32, p0i: u32) -> u32 {
    let mut acc = g;
    let mut sq = g;
    for _ in 0..logn {
        sq = montymul(sq, sq, p, p0i);
        acc = montymul(acc, sq, p, p0i);
    }
    acc
}

/// Twiddle tables for the NTT of size 2^logn mod `pr`, bit-reversed order,
/// Montgomery representation: gm (forward) and igm (inverse).
pub(crate) fn mkgm2<B: Backend>(b: B, gm: &mut [u32], igm: &mut [u32], logn: u32, pr: &Prime) {
    let (p, p0i) = (pr.p, pr.p0i);
    let n = 1usize << logn;
    let mut g = montymul(pr.g, pr.r2, p, p0i);
    for _ in logn..10 {
        g = montymul(g, g, p, p0i);
    }
    let ig = inv_root(g, logn, p, p0i);
    if n < 4 {
        let k = 10 - logn;
        let mut x1 = r(p);
        let mut x2 = x1;
        for u in 0..n {
            let v = rev10(u << k);
            gm[v] = x1;
            igm[v] = x2;
            x1 = montymul(x1, g, p, p0i);
            x2 = montymul(x2, ig, p, p0i);
        }
        return;
    }
    b.modp_powers(gm, igm, logn, (g, ig), pr);
}

/// The power tables of [`mkgm2`] for n >= 4 (g, ig: the root and its
/// inverse, Montgomery form): the portable kernel of
/// [`Backend::modp_powers`]. Powers g^u and ig^u by four interleaved
/// chains (steps g^4, ig^4): Montgomery products are fully reduced, so the
/// tables are the same as with one chain, only with four times less
/// dependency latency.
pub(crate) fn powers(gm: &mut [u32], igm: &mut [u32], logn: u32, roots: (u32, u32), pr: &Prime) {
    let (g, ig) = roots;
    let (p, p0i) = (pr.p, pr.p0i);
    let n = 1usize << logn;
    let k = 10 - logn;
    let mut x1 = [r(p); 4];
    let mut x2 = [r(p); 4];
    for j in 1..4 {
        x1[j] = montymul(x1[j - 1], g, p, p0i);
        x2[j] = montymul(x2[j - 1], ig, p, p0i);
    }
    let g2 = montymul(g, g, p, p0i);
    let g4 = montymul(g2, g2, p, p0i);
    let ig2 = montymul(ig, ig, p, p0i);
    let ig4 = montymul(ig2, ig2, p, p0i);
    for u in (0..n).step_by(4) {
        for j in 0..4 {
            let v = rev10((u + j) << k);
            gm[v] = x1[j];
            igm[v] = x2[j];
            x1[j] = montymul(x1[j], g4, p, p0i);
            x2[j] = montymul(x2[j], ig4, p, p0i);
        }
    }
}

/// The words `buf[off + k * stride]`, k < 2^logn, that one NTT transforms:
/// residue `off` of each of n integers (stride = limbs per integer), or a
/// plain vector (stride 1).
pub(crate) struct Col<'a> {
    pub(crate) buf: &'a mut [u32],
    pub(crate) off: usize,
    pub(crate) stride: usize,
}

impl<'a> Col<'a> {
    /// The words `buf[off + k * stride]`.
    #[inline(always)]
    pub(crate) fn new(buf: &'a mut [u32], off: usize, stride: usize) -> Self {
        Col { buf, off, stride }
    }
}

impl<'a> From<&'a mut [u32]> for Col<'a> {
    fn from(buf: &'a mut [u32]) -> Self {
        Col {
            buf,
            off: 0,
            stride: 1,
        }
    }
}

/// Forward NTT of a column; the portable kernel of [`Backend::modp_ntt`].
pub(crate) fn ntt(a: Col<'_>, gm: &[u32], logn: u32, pr: &Prime) {
    let Col {
        buf: a,
        off,
        stride,
    } = a;
    let (p, p0i) = (pr.p, pr.p0i);
    let n = 1usize << logn;
    let mut t = n;
    let mut m = 1;
    while m < n {
        let ht = t >> 1;
        let mut v1 = 0;
        for u in 0..m {
            let s = gm[m + u];
            let mut r1 = off + v1 * stride;
            let mut r2 = r1 + ht * stride;
            for _ in 0..ht {
                let x = a[r1];
                let y = montymul(a[r2], s, p, p0i);
                a[r1] = add(x, y, p);
                a[r2] = sub(x, y, p);
                r1 += stride;
                r2 += stride;
            }
            v1 += t;
        }
        t = ht;
        m <<= 1;
    }
}

/// Inverse NTT of a column, with the 1/n scaling; the portable kernel of
/// [`Backend::modp_intt`].
pub(crate) fn intt(a: Col<'_>, igm: &[u32], logn: u32, pr: &Prime) {
    let Col {
        buf: a,
        off,
        stride,
    } = a;
    let (p, p0i) = (pr.p, pr.p0i);
    let n = 1usize << logn;
    let mut t = 1;
    let mut m = n;
    while m > 1 {
        let hm = m >> 1;
        let dt = t << 1;
        let mut v1 = 0;
        for u in 0..hm {
            let s = igm[hm + u];
            let mut r1 = off + v1 * stride;
            let mut r2 = r1 + t * stride;
            for _ in 0..t {
                let x = a[r1];
                let y = a[r2];
                a[r1] = add(x, y, p);
                a[r2] = montymul(sub(x, y, p), s, p, p0i);
                r1 += stride;
                r2 += stride;
            }
            v1 += dt;
        }
        t = dt;
        m = hm;
    }
    if logn == 0 {
        return;
    }
    let ni = 1u32 << (31 - logn);
    let mut r = off;
    for _ in 0..n {
        a[r] = montymul(a[r], ni, p, p0i);
        r += stride;
    }
}

/// The NTT modulo one prime: its constants, its twiddle tables (for size
/// 2^logn, which also serve every smaller size: the first 2^k entries are
/// the tables of size 2^k) and the backend that runs the transforms.
pub(crate) struct Ntt<'a, B> {
    pub(crate) b: B,
    pub(crate) pr: Prime,
    gm: &'a [u32],
    igm: &'a [u32],
}

impl<'a, B: Backend> Ntt<'a, B> {
    /// Fills `gm`, `igm` with the tables of size 2^logn for `pr`.
    pub(crate) fn build(b: B, pr: Prime, gm: &'a mut [u32], igm: &'a mut [u32], logn: u32) -> Self {
        mkgm2(b, gm, igm, logn, &pr);
        Ntt { b, pr, gm, igm }
    }

    /// Forward NTT of size 2^logn.
    #[inline]
    pub(crate) fn ntt<'c>(&self, a: impl Into<Col<'c>>, logn: u32) {
        if logn > 0 {
            self.b.modp_ntt(a.into(), self.gm, logn, &self.pr);
        }
    }

    /// Inverse NTT of size 2^logn (with the 1/n scaling).
    #[inline]
    pub(crate) fn intt<'c>(&self, a: impl Into<Col<'c>>, logn: u32) {
        if logn > 0 {
            self.b.modp_intt(a.into(), self.igm, logn, &self.pr);
        }
    }
}

/// NTT representation of f(x) of degree < 2^logn to that of N(f)(x^2) =
/// f(x) f(-x) of half size (in place, first half).
pub(crate) fn poly_rec_res(f: &mut [u32], logn: u32, pr: &Prime) {
    let hn = 1usize << (logn - 1);
    for u in 0..hn {
        let w0 = f[u << 1];
        let w1 = f[(u << 1) + 1];
        f[u] = pr.mul(w0, w1);
    }
}

#[cfg(test)]
mod tests {
    use pqforge_core::testing::TestRng;

    use super::*;
    use crate::backend::Portable;

    /// NTT products against schoolbook negacyclic products mod p, for
    /// every logn, contiguous and strided: checks the twiddle tables
    /// (`mkgm2`) and both portable transforms (`tests/backends.rs`
    /// compares the AVX2 kernels with these).
    #[test]
    fn ntt_products_match_schoolbook() {
        let mut r = TestRng::new(0x0123_4567_89AB_CDEF);
        // Under Miri one prime and n up to 256 (schoolbook is quadratic).
        let (primes, max_logn): (&[usize], u32) = if cfg!(miri) {
            (&[0], 8)
        } else {
            (&[0, 7, 100], 10)
        };
        for &pi in primes {
            let pr = Prime::new(pi);
            let p = pr.p;
            for logn in 1..=max_logn {
                let n = 1usize << logn;
                let (mut gm, mut igm) = ([0u32; 1024], [0u32; 1024]);
                let t = Ntt::build(Portable, pr, &mut gm, &mut igm, logn);
                let a: [u32; 1024] = core::array::from_fn(|_| (r.next_u64() % u64::from(p)) as u32);
                let b: [u32; 1024] = core::array::from_fn(|_| (r.next_u64() % u64::from(p)) as u32);
                // Schoolbook a * b mod (x^n + 1, p).
                let mut want = [0u64; 1024];
                for i in 0..n {
                    for j in 0..n {
                        let x = u64::from(a[i]) * u64::from(b[j]) % u64::from(p);
                        let k = (i + j) % n;
                        want[k] = if i + j < n {
                            (want[k] + x) % u64::from(p)
                        } else {
                            (want[k] + u64::from(p) - x) % u64::from(p)
                        };
                    }
                }
                for stride in [1usize, 3] {
                    let off = stride - 1;
                    let mut x = [0u32; 3 * 1024];
                    let mut y = [0u32; 3 * 1024];
                    for i in 0..n {
                        // a in Montgomery form, so that one Montgomery
                        // product below gives the plain a * b.
                        x[off + i * stride] = pr.mm(a[i], pr.r2);
                        y[off + i * stride] = b[i];
                    }
                    t.ntt(Col::new(&mut x, off, stride), logn);
                    t.ntt(Col::new(&mut y, off, stride), logn);
                    for i in 0..n {
                        let k = off + i * stride;
                        x[k] = pr.mm(x[k], y[k]);
                    }
                    t.intt(Col::new(&mut x, off, stride), logn);
                    for i in 0..n {
                        assert_eq!(
                            u64::from(x[off + i * stride]),
                            want[i],
                            "prime {pi}, logn {logn}, stride {stride}, coefficient {i}"
                        );
                    }
                }
            }
        }
    }

    /// The root inverse used for the twiddle tables equals the generic
    /// division for every prime and degree.
    #[test]
    fn inv_root_matches_div() {
        for i in 0..PRIMES.len() {
            let pr = Prime::new(i);
            let mut g = pr.mm(pr.g, pr.r2);
            for logn in (0..=10u32).rev() {
                assert_eq!(
                    inv_root(g, logn, pr.p, pr.p0i),
                    div(pr.r2, g, pr.p, pr.p0i),
                    "prime {i} logn {logn}"
                );
                g = pr.mm(g, g);
            }
        }
    }
}
