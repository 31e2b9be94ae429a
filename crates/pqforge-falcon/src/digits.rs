//! Products of polynomials with big-integer coefficients by signed-digit
//! column sums (Comba): the solver's direct products at the deep levels,
//! where the integers are few and long ([`lift_plain`]: F'(x^2) g(-x);
//! [`field_norm_plain`]: the field norm), instead of RNS + NTT + CRT.
//!
//! An integer of `len` 31-bit limbs (see [`crate::zint`]) is read as
//! `len` signed digits: the plain limbs, and the top limb sign-extended
//! from bit 30. Each output limb is a column sum of 31-bit x 31-bit digit
//! products, kept as a low part (31 bits of each product) and a high part,
//! both in i64, so that one carry per limb suffices. The terms and their
//! signs depend only on indices (public). CT.

use crate::backend::Backend;
use crate::zint::{ZView, ZViewMut};

/// Room for the signed digits of each operand of [`comba_sum`].
///
/// The plain paths need at most 224 digits per operand for logn <= 10 (hn
/// dlen and n slen with n <= 16, e.g. 16 x 14 at logn 10, depth 6): with
/// 224 the size tests that select them pass exactly where they did with
/// 512, so the same code runs (and were one to fail, the RNS path gives
/// the same integers), while the two digit buffers of the AVX2 backend,
/// on the stack of [`lift_plain`] and [`field_norm_plain`], cost 1.75 KB
/// instead of 4 KB.
pub(crate) const PLAIN_DIGITS: usize = 224;

/// The most terms one output coefficient of [`comba_sum`] may have: n/2
/// for [`lift_plain`], n for [`field_norm_plain`].
pub(crate) const PLAIN_TERMS: usize = 32;

/// One term (i, j, neg) of an output coefficient: (-1)^neg a_i b_j.
pub(crate) type Term = (usize, usize, bool);

/// A signed digit: an `i32`, or its two's-complement bit pattern in a
/// `u32` word of the solver's scratch. The AVX2 backend keeps its digits
/// in `i32` stack buffers (its kernel reads them); the portable one (the
/// Cortex-M4 in particular) puts them in free words of the solver's
/// scratch, which keeps 1.75 KB of buffers off the deepest keygen call
/// chain (see [`Backend::with_digits`]). Both give the same digits, hence
/// the same output.
pub(crate) trait Digit: Copy {
    /// The digit of value `z`.
    fn of(z: i32) -> Self;
    /// Its value.
    fn val(self) -> i64;
}

impl Digit for i32 {
    #[inline(always)]
    fn of(z: i32) -> Self {
        z
    }
    #[inline(always)]
    fn val(self) -> i64 {
        i64::from(self)
    }
}

impl Digit for u32 {
    #[inline(always)]
    fn of(z: i32) -> Self {
        z as u32
    }
    #[inline(always)]
    fn val(self) -> i64 {
        i64::from(self as i32)
    }
}

/// Signed-digit integers of `len` digits each, one after the other
/// (integer i at `d[i * len..]`).
#[derive(Clone, Copy)]
pub(crate) struct Digits<'a, D> {
    pub(crate) d: &'a [D],
    pub(crate) len: usize,
}

/// The signed digits of the first `count` integers of `x` (packed): the
/// top limb's bit 30 is the sign (31-bit two's complement), the others are
/// plain 31-bit words. With `rev`, the digits of each integer are
/// reversed.
fn signed_digits<D: Digit>(d: &mut [D], x: ZView<'_>, count: usize, rev: bool) {
    let len = x.len;
    for v in 0..count {
        for (t, &w) in x.int(v).iter().enumerate() {
            let z = if t == len - 1 {
                ((w << 1) as i32) >> 1
            } else {
                w as i32
            };
            d[v * len + if rev { len - 1 - t } else { t }] = D::of(z);
        }
    }
}

/// Integer k of `out` = the sum over the terms (i, j, neg) of `terms(k)`
/// of (-1)^neg a_i b_j, exactly modulo 2^(31 out.len), for k < `nout`;
/// `a` holds the digits, `b` the reversed digits (see [`signed_digits`]).
/// `terms` writes the list into its buffer and returns its length.
fn comba_sum<B: Backend>(
    bk: B,
    mut out: ZViewMut<'_>,
    nout: usize,
    a: Digits<'_, B::Digit>,
    b: Digits<'_, B::Digit>,
    terms: impl Fn(usize, &mut [Term]) -> usize,
) {
    let mut tb = [(0usize, 0usize, false); PLAIN_TERMS];
    for k in 0..nout {
        let nt = terms(k, &mut tb);
        bk.comba_coeff(out.int_mut(k), a, b, &tb[..nt]);
    }
}

/// One output coefficient of [`comba_sum`]: o[t] for t < o.len() from the
/// given terms; the portable kernel of [`Backend::comba_coeff`].
pub(crate) fn comba_coeff<D: Digit>(
    o: &mut [u32],
    a: Digits<'_, D>,
    b: Digits<'_, D>,
    terms: &[Term],
) {
    let (ad, alen, bd, blen) = (a.d, a.len, b.d, b.len);
    let mut cc = 0i64;
    for (t, ot) in o.iter_mut().enumerate() {
        // Digits a_u b_v with u + v = t: u in [t - blen + 1, t] within
        // [0, alen).
        let u0 = (t + 1).saturating_sub(blen);
        let u1 = (t + 1).min(alen);
        let mut lo = 0i64;
        let mut hi = 0i64;
        if u0 < u1 {
            for &(i, j, neg) in terms {
                let ar = &ad[i * alen + u0..i * alen + u1];
                // b_v, v = t - u, reversed: index blen - 1 - v.
                let bo = j * blen + (blen - 1 + u0 - t);
                let br = &bd[bo..bo + (u1 - u0)];
                let (mut l, mut h) = (0i64, 0i64);
                for (&x, &y) in ar.iter().zip(br) {
                    let p = x.val() * y.val();
                    l += p & 0x7FFF_FFFF;
                    h += p >> 31;
                }
                if neg {
                    lo -= l;
                    hi -= h;
                } else {
                    lo += l;
                    hi += h;
                }
            }
        }
        let z = lo + cc;
        *ot = (z as u32) & 0x7FFF_FFFF;
        cc = (z >> 31) + hi;
    }
}

/// out = a(x^2) b(-x) mod x^n + 1 (n = 2^logn), exactly, modulo 2^(31
/// out.len) per coefficient (the bound MAX_BL_LARGE makes it exact: it is
/// the integer the reference rebuilds from its residues). `a`: n/2 signed
/// integers; `b`: n; `out`: n, all packed. Caller: hn a.len, n b.len <=
/// [`PLAIN_DIGITS`]; `scratch`: hn a.len + n b.len free words (digits of
/// the portable backend).
///
/// Coefficient k is the sum, over j = k mod 2 (i = (k - j) / 2 mod n/2),
/// of (-1)^j a_i b_j, negated when 2 i + j wraps past n.
///
/// Never inlined: its digit buffers must not join the frame of the caller,
/// which stays live across the other deep calls of the solver.
#[inline(never)]
pub(crate) fn lift_plain<B: Backend>(
    bk: B,
    out: ZViewMut<'_>,
    a: ZView<'_>,
    b: ZView<'_>,
    logn: u32,
    scratch: &mut [u32],
) {
    let n = 1usize << logn;
    bk.with_digits(scratch, (n >> 1) * a.len, n * b.len, |ad, bd| {
        signed_digits(ad, a, n >> 1, false);
        signed_digits(bd, b, n, true);
        let ad = Digits { d: ad, len: a.len };
        let bd = Digits { d: bd, len: b.len };
        comba_sum(bk, out, n, ad, bd, |k, tb| {
            let mut nt = 0;
            for j in ((k & 1)..n).step_by(2) {
                // 2 i + j = k (mod n).
                let wrap = j > k;
                tb[nt] = (((k + n - j) & (n - 1)) >> 1, j, (j & 1 == 1) != wrap);
                nt += 1;
            }
            nt
        });
    });
}

/// The field norm N(x)(y) = x(sqrt y) x(-sqrt y) = xe(y)^2 - y xo(y)^2
/// (xe, xo: even and odd coefficients) of the `count` polynomials of n =
/// 2^logn signed coefficients at src (one after the other, packed),
/// exactly, into dst (n/2 coefficients per polynomial, packed;
/// MAX_BL_SMALL makes it exact, the integers the reference rebuilds from
/// its residues). Caller: n src.len <= [`PLAIN_DIGITS`]; `scratch`: 2 n
/// src.len free words (see [`lift_plain`]).
///
/// Never inlined, for the same reason as [`lift_plain`].
#[inline(never)]
pub(crate) fn field_norm_plain<B: Backend>(
    bk: B,
    dst: ZViewMut<'_>,
    src: ZView<'_>,
    logn: u32,
    count: usize,
    scratch: &mut [u32],
) {
    let n = 1usize << logn;
    let m = n >> 1;
    let (slen, tlen) = (src.len, dst.len);
    let dst = dst.buf;
    let ns = slen << logn;
    bk.with_digits(scratch, ns, ns, |ad, bd| {
        for c in 0..count {
            let x = ZView::packed(&src.buf[c * n * slen..(c + 1) * n * slen], slen);
            signed_digits(ad, x, n, false);
            signed_digits(bd, x, n, true);
            let out = ZViewMut::packed(&mut dst[c * m * tlen..(c + 1) * m * tlen], tlen);
            let a = Digits { d: &*ad, len: slen };
            let b = Digits { d: &*bd, len: slen };
            comba_sum(bk, out, m, a, b, |k, tb| {
                let mut nt = 0;
                for i in 0..m {
                    // xe_i xe_j, i + j = k (mod m): + unless it wraps.
                    let j = (k + m - i) & (m - 1);
                    tb[nt] = (2 * i, 2 * j, i + j != k);
                    // y xo_i xo_j, i + j + 1 = k (mod m): - unless it wraps.
                    let j = (k + 2 * m - 1 - i) & (m - 1);
                    tb[nt + 1] = (2 * i + 1, 2 * j + 1, i + j + 1 == k);
                    nt += 2;
                }
                nt
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Portable;

    /// field_norm_plain on n = 2: N(a + b x) = a^2 + b^2, checked against
    /// limb-by-limb products.
    #[test]
    fn field_norm_plain_n2() {
        let a = [0x1234_5678u32, 0x0765_4321, 0x3FFF_FFFF];
        let b = [0x7FFF_FFFFu32, 0x0000_0001, 0x7FFF_FFFF]; // negative
        let mut src = [0u32; 6];
        src[..3].copy_from_slice(&a);
        src[3..].copy_from_slice(&b);
        let mut dst = [0u32; 7];
        field_norm_plain(
            Portable,
            ZViewMut::packed(&mut dst, 7),
            ZView::packed(&src, 3),
            1,
            1,
            &mut [0u32; 12],
        );
        // Reference: signed values in i128 (3 limbs = 93 bits: squares
        // overflow i128, so compare modulo 2^124 on the low 4 limbs).
        let val = |x: &[u32]| {
            let mut v = i128::from(((x[2] << 1) as i32) >> 1);
            v = (v << 31) + i128::from(x[1]);
            (v << 31) + i128::from(x[0])
        };
        let (va, vb) = (val(&a), val(&b));
        let s = va.wrapping_mul(va).wrapping_add(vb.wrapping_mul(vb));
        for (t, &w) in dst[..4].iter().enumerate() {
            assert_eq!(w, ((s >> (31 * t)) as u32) & 0x7FFF_FFFF, "limb {t}");
        }
    }

    /// The same coefficient from i32 and u32 digits.
    #[test]
    fn digit_types_agree() {
        let mut r = pqforge_core::testing::TestRng::new(0x243F_6A88_85A3_08D3);
        let mut a = [0u32; 4 * 13];
        let mut b = [0u32; 4 * 6];
        for x in a.iter_mut().chain(b.iter_mut()) {
            *x = r.next_u32() & 0x7FFF_FFFF;
        }
        let (mut ai, mut bi) = ([0i32; 52], [0i32; 24]);
        let (mut au, mut bu) = ([0u32; 52], [0u32; 24]);
        signed_digits(&mut ai, ZView::packed(&a, 13), 4, false);
        signed_digits(&mut bi, ZView::packed(&b, 6), 4, true);
        signed_digits(&mut au, ZView::packed(&a, 13), 4, false);
        signed_digits(&mut bu, ZView::packed(&b, 6), 4, true);
        let terms = [(0usize, 0usize, false), (1, 3, true), (3, 1, false)];
        let (mut x, mut y) = ([0u32; 20], [0u32; 20]);
        comba_coeff(
            &mut x,
            Digits { d: &ai, len: 13 },
            Digits { d: &bi, len: 6 },
            &terms,
        );
        comba_coeff(
            &mut y,
            Digits { d: &au, len: 13 },
            Digits { d: &bu, len: 6 },
            &terms,
        );
        assert_eq!(x, y);
    }
}
