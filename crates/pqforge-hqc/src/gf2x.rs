//! Arithmetic in F2\[X\]/(X^n - 1) on little-endian 64-bit words.
//!
//! Multiplication goes through the [`Backend`] trait so that carry-less
//! multiply instructions (PCLMULQDQ, VPCLMULQDQ, PMULL) can be plugged in
//! later; [`Portable`] is the only backend today. All routines run in time
//! that depends only on the (public) operand lengths: there are no branches
//! or memory indices derived from the operands.

/// A polynomial multiplier over GF(2).
pub(crate) trait Backend {
    /// `r = a * b` (plain product, no reduction); `a` and `b` have the same
    /// length `w`, `r` has length `2w`; `scratch` holds at least
    /// [`crate::params::karatsuba_scratch`]`(w)` words.
    fn mul_wide(r: &mut [u64], a: &[u64], b: &[u64], scratch: &mut [u64]);
}

/// Portable backend: Karatsuba down to [`crate::params::KARATSUBA_BASE`]
/// words, then schoolbook over a constant-time 64x64 carry-less multiply.
pub(crate) struct Portable;

/// The backend in use.
pub(crate) type Active = Portable;

/// Bits at positions ≡ i (mod 5) of a 64-bit word.
const HOLES64: [u64; 5] = {
    let mut m = [0u64; 5];
    let mut b = 0;
    while b < 64 {
        m[b % 5] |= 1 << b;
        b += 1;
    }
    m
};

/// Bits at positions ≡ i (mod 5) of a 128-bit word.
const HOLES128: [u128; 5] = {
    let mut m = [0u128; 5];
    let mut b = 0;
    while b < 128 {
        m[b % 5] |= 1 << b;
        b += 1;
    }
    m
};

/// The five "holey" parts of a word (see [`clmul64`]).
#[inline(always)]
fn split(a: u64) -> [u64; 5] {
    [
        a & HOLES64[0],
        a & HOLES64[1],
        a & HOLES64[2],
        a & HOLES64[3],
        a & HOLES64[4],
    ]
}

/// Carry-less 64x64 -> 128-bit product of two pre-split words.
///
/// Integer multiplication of operands whose set bits are 5 apart: each
/// partial product `a_i * b_j` has at most 13 contributions per result
/// column, so column sums (< 16) never carry into the next column of the
/// same residue class; masking the residue class `i + j (mod 5)` and XORing
/// recovers the carry-less product. Integer multipliers are constant time on
/// every target we support, and nothing here branches on data.
#[inline(always)]
fn clmul_split(a: &[u64; 5], b: &[u64; 5]) -> u128 {
    let mut z = 0u128;
    for k in 0..5 {
        let mut acc = 0u128;
        for i in 0..5 {
            let j = (k + 5 - i) % 5;
            acc ^= u128::from(a[i]) * u128::from(b[j]);
        }
        z |= acc & HOLES128[k];
    }
    z
}

/// Carry-less 64x64 -> 128-bit product.
#[cfg(test)]
pub(crate) fn clmul64(a: u64, b: u64) -> u128 {
    clmul_split(&split(a), &split(b))
}

/// Schoolbook product of two `n`-word operands into `2n` words.
fn schoolbook(r: &mut [u64], a: &[u64], b: &[u64]) {
    let n = a.len();
    let mut bs = [[0u64; 5]; crate::params::KARATSUBA_BASE];
    for (s, &w) in bs.iter_mut().zip(b) {
        *s = split(w);
    }
    r[..2 * n].fill(0);
    for i in 0..n {
        let ai = split(a[i]);
        for j in 0..n {
            let p = clmul_split(&ai, &bs[j]);
            r[i + j] ^= p as u64;
            r[i + j + 1] ^= (p >> 64) as u64;
        }
    }
}

/// Recursive Karatsuba on equal-length operands.
fn karatsuba(r: &mut [u64], a: &[u64], b: &[u64], t: &mut [u64]) {
    let n = a.len();
    if n <= crate::params::KARATSUBA_BASE {
        schoolbook(r, a, b);
        return;
    }
    let h = n.div_ceil(2);
    let l = n - h;
    {
        let (r0, r1) = r.split_at_mut(2 * h);
        karatsuba(r0, &a[..h], &b[..h], t);
        karatsuba(&mut r1[..2 * l], &a[h..], &b[h..], t);
    }
    let (sa, rest) = t.split_at_mut(h);
    let (sb, rest) = rest.split_at_mut(h);
    let (z1, rest) = rest.split_at_mut(2 * h);
    sa.copy_from_slice(&a[..h]);
    sb.copy_from_slice(&b[..h]);
    for i in 0..l {
        sa[i] ^= a[h + i];
        sb[i] ^= b[h + i];
    }
    karatsuba(z1, sa, sb, rest);
    // z1 <- z1 - z0 - z2
    for i in 0..2 * h {
        z1[i] ^= r[i];
    }
    for i in 0..2 * l {
        z1[i] ^= r[2 * h + i];
    }
    for i in 0..2 * h {
        r[h + i] ^= z1[i];
    }
}

impl Backend for Portable {
    fn mul_wide(r: &mut [u64], a: &[u64], b: &[u64], scratch: &mut [u64]) {
        debug_assert_eq!(a.len(), b.len());
        debug_assert_eq!(r.len(), 2 * a.len());
        karatsuba(r, a, b, scratch);
    }
}

/// `out = wide mod (X^n - 1)` where `wide` is a product of two reduced
/// elements (degree < 2n - 1) and `out` has `ceil(n/64)` words.
fn reduce(out: &mut [u64], wide: &[u64], n: usize) {
    let w = out.len();
    let q = n / 64;
    let sh = n % 64;
    for i in 0..w {
        let lo = wide[q + i] >> sh;
        let hi = if sh == 0 {
            0
        } else {
            wide.get(q + i + 1).map_or(0, |x| x << (64 - sh))
        };
        out[i] = wide[i] ^ lo ^ hi;
    }
    if sh != 0 {
        out[w - 1] &= (1u64 << sh) - 1;
    }
}

/// `out = a * b mod (X^n - 1)`; all three have `ceil(n/64)` words, `a` and
/// `b` reduced (no bits at or above n). `scratch` holds at least
/// `2w + karatsuba_scratch(w)` words; it is wiped before returning.
pub(crate) fn mul_mod(out: &mut [u64], a: &[u64], b: &[u64], n: usize, scratch: &mut [u64]) {
    let w = out.len();
    let (wide, rest) = scratch.split_at_mut(2 * w);
    Active::mul_wide(wide, a, b, rest);
    reduce(out, wide, n);
    zeroize::Zeroize::zeroize(scratch);
}

/// `out ^= a`.
pub(crate) fn add_assign(out: &mut [u64], a: &[u64]) {
    for (o, x) in out.iter_mut().zip(a) {
        *o ^= x;
    }
}

/// Loads little-endian bytes into words (missing high bytes are zero), then
/// clears every bit at or above `bits`.
pub(crate) fn load(out: &mut [u64], bytes: &[u8], bits: usize) {
    out.fill(0);
    for (i, &b) in bytes.iter().enumerate() {
        out[i / 8] |= u64::from(b) << (8 * (i % 8));
    }
    let w = bits / 64;
    if !bits.is_multiple_of(64) {
        out[w] &= (1u64 << (bits % 64)) - 1;
    }
    for x in out.iter_mut().skip(bits.div_ceil(64)) {
        *x = 0;
    }
}

/// Stores the first `out.len()` little-endian bytes of `words`.
pub(crate) fn store(out: &mut [u8], words: &[u64]) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = (words[i / 8] >> (8 * (i % 8))) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clmul_ref(a: u64, b: u64) -> u128 {
        let mut r = 0u128;
        for i in 0..64 {
            if (b >> i) & 1 == 1 {
                r ^= u128::from(a) << i;
            }
        }
        r
    }

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn clmul_matches_reference() {
        let mut s = 0x1234_5678_9abc_def1u64;
        for _ in 0..10_000 {
            let (a, b) = (xorshift(&mut s), xorshift(&mut s));
            assert_eq!(clmul64(a, b), clmul_ref(a, b));
        }
        assert_eq!(clmul64(u64::MAX, u64::MAX), clmul_ref(u64::MAX, u64::MAX));
    }

    #[test]
    fn karatsuba_matches_schoolbook_mod() {
        // Check mul_mod against a bitwise reference for a small odd n.
        let n = 1000usize;
        let w = n.div_ceil(64);
        let mut s = 0xdead_beef_cafe_f00du64;
        for _ in 0..5 {
            let mut a = [0u64; 16];
            let mut b = [0u64; 16];
            for i in 0..w {
                a[i] = xorshift(&mut s);
                b[i] = xorshift(&mut s);
            }
            a[w - 1] &= (1 << (n % 64)) - 1;
            b[w - 1] &= (1 << (n % 64)) - 1;
            let mut scratch = [0u64; 64 + crate::params::karatsuba_scratch(16)];
            let mut out = [0u64; 16];
            mul_mod(&mut out[..w], &a[..w], &b[..w], n, &mut scratch);
            let mut refr = [0u64; 16];
            for i in 0..n {
                if (a[i / 64] >> (i % 64)) & 1 == 1 {
                    for j in 0..n {
                        if (b[j / 64] >> (j % 64)) & 1 == 1 {
                            let k = (i + j) % n;
                            refr[k / 64] ^= 1 << (k % 64);
                        }
                    }
                }
            }
            assert_eq!(out[..w], refr[..w]);
        }
    }
}
