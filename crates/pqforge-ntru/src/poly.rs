//! Arithmetic on ring elements stored as `u16` coefficients.
//!
//! Polynomials live in Z[x]/(x^n − 1) with coefficients reduced lazily:
//! every addition and product wraps modulo 2^16, a multiple of q, so the
//! result modulo q is exact (q is a power of two). Arithmetic modulo 3 is
//! done on small non-negative integers and reduced with [`mod3`], a
//! multiplication-based reduction (no division instruction).
//!
//! Encodings (NTRU round-3 reference): a polynomial modulo q is packed as
//! its first n − 1 coefficients of log₂ q bits, little-endian bit order;
//! a trinary polynomial as its first n − 1 coefficients in {0, 1, 2}, five
//! base-3 digits per byte, the lowest coefficient the lowest digit.

use pqforge_core::ct::{self, barrier_u32};

/// `x mod 3` for `x < 2^16`, by multiplication (⌊x/3⌋ = ⌊x·43691 / 2^17⌋,
/// exact below 2^17; the product fits in 32 bits below 2^16).
#[inline(always)]
pub(crate) fn mod3(x: u32) -> u16 {
    (x - 3 * div3(x)) as u16
}

/// `⌊x/3⌋` for `x < 2^16`, by multiplication.
#[inline(always)]
pub(crate) fn div3(x: u32) -> u32 {
    (x * 43691) >> 17
}

/// Defines a Karatsuba product `fn $name(r, a, b, s)`: `r = a·b` (2m
/// coefficients, the last one zero) for m-coefficient `a` and `b`,
/// recursing down to blocks of at most
/// [`KARATSUBA_BASE`](crate::params::KARATSUBA_BASE) coefficients, which
/// `$base` multiplies; `s` is scratch
/// ([`karatsuba_scratch(m)`](crate::params::karatsuba_scratch)). A macro so
/// that a SIMD backend instantiates it with its `#[target_feature]` (the
/// additions are then compiled for that instruction set too).
macro_rules! karatsuba_fn {
    ($(#[$attr:meta])* $vis:vis fn $name:ident, base = $base:path) => {
        $(#[$attr])*
        $vis fn $name(r: &mut [u16], a: &[u16], b: &[u16], s: &mut [u16]) {
            let m = a.len();
            debug_assert!(b.len() == m && r.len() >= 2 * m);
            if m <= $crate::params::KARATSUBA_BASE {
                $base(&mut r[..2 * m], a, b);
                return;
            }
            // a = a0 + x^h a1 with |a0| = h ≥ |a1| = l.
            let h = m.div_ceil(2);
            let l = m - h;
            let (a0, a1) = a.split_at(h);
            let (b0, b1) = b.split_at(h);
            {
                let (r0, r1) = r.split_at_mut(2 * h);
                $name(r0, a0, b0, s);
                $name(&mut r1[..2 * l], a1, b1, s);
            }
            let (sa, rest) = s.split_at_mut(h);
            let (sb, rest) = rest.split_at_mut(h);
            let (mid, rest) = rest.split_at_mut(2 * h);
            sa.copy_from_slice(a0);
            sb.copy_from_slice(b0);
            for i in 0..l {
                sa[i] = sa[i].wrapping_add(a1[i]);
                sb[i] = sb[i].wrapping_add(b1[i]);
            }
            $name(mid, sa, sb, rest);
            // mid = (a0 + a1)(b0 + b1) − a0·b0 − a1·b1, added at x^h.
            for i in 0..2 * h {
                mid[i] = mid[i].wrapping_sub(r[i]);
            }
            for i in 0..2 * l {
                mid[i] = mid[i].wrapping_sub(r[2 * h + i]);
            }
            // The top coefficient of `mid` is zero: 3h − 1 ≤ 2m coefficients.
            for i in 0..2 * h - 1 {
                r[h + i] = r[h + i].wrapping_add(mid[i]);
            }
        }
    };
}
// Used by the AVX2 backend only (not compiled on other targets).
#[allow(unused_imports)]
pub(crate) use karatsuba_fn;

karatsuba_fn!(
    /// The portable Karatsuba product (base case [`base_mul`]).
    pub(crate) fn karatsuba, base = base_mul
);

#[cfg(test)]
karatsuba_fn!(
    /// Karatsuba on the generic schoolbook (tests).
    fn karatsuba_generic, base = schoolbook
);

/// Schoolbook `r = a·b` (2m coefficients) for short operands: the portable
/// base case of [`karatsuba`].
pub(crate) fn schoolbook(r: &mut [u16], a: &[u16], b: &[u16]) {
    let m = a.len();
    r[..2 * m].fill(0);
    for (i, &ai) in a.iter().enumerate() {
        for (rj, &bj) in r[i..i + m].iter_mut().zip(b) {
            *rj = rj.wrapping_add(ai.wrapping_mul(bj));
        }
    }
}

/// Schoolbook `r = a·b` (2B coefficients) for B-coefficient operands
/// (B ≤ 32, a multiple of 4), output-stationary: each group of 8
/// consecutive product coefficients is accumulated in one `[u16; 8]` from
/// windows of `b` zero-padded on both sides, so that no store is reloaded
/// at another offset (which stalls store forwarding), and only the a\[i\]
/// that meet the group are visited.
#[inline(always)]
pub(crate) fn schoolbook_fixed<const B: usize>(r: &mut [u16], a: &[u16], b: &[u16]) {
    const L: usize = 8;
    let a: &[u16; B] = a.try_into().expect("block size");
    // bz[B + j] = b[j], zero outside 0 ≤ j < B.
    let mut bz = [0u16; 96];
    bz[B..2 * B].copy_from_slice(b);
    let mut acc = [0u16; L];
    for t in 0..2 * B / L {
        let k0 = t * L;
        acc.fill(0);
        // Only a[i] with k0 − B < i < k0 + L meet b inside this group.
        let lo = (k0 + 1).saturating_sub(B);
        let hi = (k0 + L).min(B);
        for i in lo..hi {
            let ai = a[i];
            let win: &[u16; L] = bz[B + k0 - i..B + k0 - i + L].try_into().expect("window");
            for l in 0..L {
                acc[l] = acc[l].wrapping_add(ai.wrapping_mul(win[l]));
            }
        }
        r[k0..k0 + L].copy_from_slice(&acc);
    }
    // Windows of a secret operand and partial products.
    ct::wipe(&mut bz);
    ct::wipe(&mut acc);
}

/// The portable base case of [`karatsuba`]: fixed-size schoolbook for the
/// block sizes of [`padded_len`](crate::params::padded_len), the generic
/// one otherwise.
pub(crate) fn base_mul(r: &mut [u16], a: &[u16], b: &[u16]) {
    match a.len() {
        20 => schoolbook_fixed::<20>(r, a, b),
        24 => schoolbook_fixed::<24>(r, a, b),
        28 => schoolbook_fixed::<28>(r, a, b),
        32 => schoolbook_fixed::<32>(r, a, b),
        _ => schoolbook(r, a, b),
    }
}

/// Folds a full product (2n coefficients) into `r` modulo x^n − 1.
pub(crate) fn fold(r: &mut [u16], wide: &[u16]) {
    let n = r.len();
    for k in 0..n {
        r[k] = wide[k].wrapping_add(wide[k + n]);
    }
}

/// `r = r mod (3, Φ_n)` for coefficients c with c + 2·r\[n−1\] < 2^16: subtracts
/// `r[n−1]·Φ_n` (adds `2·r[n−1]` to every coefficient) and reduces mod 3.
pub(crate) fn mod3_phi_n(r: &mut [u16]) {
    let last = u32::from(r[r.len() - 1]);
    for c in r.iter_mut() {
        *c = mod3(u32::from(*c) + 2 * last);
    }
}

/// `r = r mod Φ_n` (lazily modulo q): subtracts `r[n−1]` from every
/// coefficient (the last becomes zero).
pub(crate) fn modq_phi_n(r: &mut [u16]) {
    let last = r[r.len() - 1];
    for c in r.iter_mut() {
        *c = c.wrapping_sub(last);
    }
}

/// {0, 1, 2} → {0, 1, q − 1} (the centred lift of a trinary polynomial).
pub(crate) fn z3_to_zq(r: &mut [u16], q: u16) {
    for c in r.iter_mut() {
        // Value barrier: LLVM must not turn the mask into a branch.
        let m = barrier_u32(u32::from(*c >> 1).wrapping_neg()) as u16;
        *c |= m & (q - 1);
    }
}

/// {0, 1, q − 1} (mod q) → {0, 1, 2}; other values map to garbage in
/// {0, 1, 2, 3}, which only happens when decapsulation has already failed.
pub(crate) fn trinary_zq_to_z3(r: &mut [u16], logq: u32) {
    let mask = (1u16 << logq) - 1;
    for c in r.iter_mut() {
        let v = *c & mask;
        *c = 3 & (v ^ (v >> (logq - 1)));
    }
}

/// `r = a mod (3, Φ_n)` where `a` is read modulo q with centred
/// representatives in [−q/2, q/2).
pub(crate) fn rq_to_s3(r: &mut [u16], a: &[u16], logq: u32) {
    let mask = (1u16 << logq) - 1;
    // −q ≡ 1 (mod 3) for odd log₂ q, 2 for even.
    let neg_q_mod3 = 1u16 << (1 - (logq & 1));
    for (ri, &ai) in r.iter_mut().zip(a) {
        let v = ai & mask;
        let high = v >> (logq - 1);
        *ri = v + high * neg_q_mod3;
    }
    mod3_phi_n(r);
}

/// Packs the first n − 1 coefficients of `a` (taken mod q) into `out`,
/// `logq` bits each, little-endian; unused high bits of the last byte are 0.
/// Eight coefficients fill exactly `logq` bytes: whole groups go through
/// one 128-bit accumulator, the tail bit by bit.
pub(crate) fn sq_to_bytes(out: &mut [u8], a: &[u16], logq: u32) {
    let mask = (1u32 << logq) - 1;
    let lb = logq as usize;
    let coeffs = &a[..a.len() - 1];
    let groups = coeffs.len() / 8;
    for k in 0..groups {
        let mut acc = 0u128;
        for i in 0..8 {
            acc |= u128::from(u32::from(coeffs[8 * k + i]) & mask) << (lb * i);
        }
        out[lb * k..lb * k + lb].copy_from_slice(&acc.to_le_bytes()[..lb]);
    }
    let out = &mut out[lb * groups..];
    let mut acc = 0u32;
    let mut bits = 0u32;
    let mut j = 0;
    for &c in &coeffs[8 * groups..] {
        acc |= (u32::from(c) & mask) << bits;
        bits += logq;
        while bits >= 8 {
            out[j] = acc as u8;
            j += 1;
            acc >>= 8;
            bits -= 8;
        }
    }
    if bits > 0 {
        out[j] = acc as u8;
    }
}

/// Unpacks n − 1 coefficients of `logq` bits from `bytes` into `r`; the
/// last coefficient is set to 0. Bit by bit: the grouped forms (eight
/// coefficients from `logq` bytes) made LLVM bound the loop with a
/// division by `logq` at opt-level "z", which the division scan rejects.
pub(crate) fn sq_from_bytes(r: &mut [u16], bytes: &[u8], logq: u32) {
    let n = r.len();
    let mask = (1u32 << logq) - 1;
    let mut acc = 0u32;
    let mut bits = 0u32;
    let mut src = bytes.iter();
    for c in &mut r[..n - 1] {
        while bits < logq {
            acc |= u32::from(*src.next().unwrap_or(&0)) << bits;
            bits += 8;
        }
        *c = (acc & mask) as u16;
        acc >>= logq;
        bits -= logq;
    }
    r[n - 1] = 0;
}

/// [`sq_from_bytes`], then the last coefficient is chosen so that the
/// coefficients sum to 0 modulo q (public keys and ciphertexts are
/// multiples of x − 1).
pub(crate) fn rq_sum_zero_from_bytes(r: &mut [u16], bytes: &[u8], logq: u32) {
    sq_from_bytes(r, bytes, logq);
    let n = r.len();
    let mut last = 0u16;
    for &c in &r[..n - 1] {
        last = last.wrapping_sub(c);
    }
    r[n - 1] = last;
}

/// Whether the bits above the `bits` used bits of a packed encoding are
/// zero: 0 if so, 1 if not (constant time).
pub(crate) fn padding_nonzero(bytes: &[u8], count: usize, logq: u32) -> u32 {
    let used = (count * logq as usize) % 8;
    if used == 0 {
        return 0;
    }
    let t = u32::from(bytes[bytes.len() - 1] >> used);
    (t.wrapping_neg() >> 31) & 1
}

/// Packs the first n − 1 coefficients of `a` (in {0, 1, 2}) five per byte
/// (full bytes as one sum of the five digits times powers of 3, no chain
/// of dependent steps; the last, partial byte digit by digit).
pub(crate) fn s3_to_bytes(out: &mut [u8], a: &[u16]) {
    let deg = a.len() - 1;
    let full = if 5 * out.len() > deg {
        out.len() - 1
    } else {
        out.len()
    };
    // Element by element (a five-element sub-slice per byte made LLVM
    // bound the loop with a division by 5 at opt-level "z").
    for (i, o) in out[..full].iter_mut().enumerate() {
        let mut c = 0u16;
        for (j, &w) in [1u16, 3, 9, 27, 81].iter().enumerate() {
            c += w * a[5 * i + j];
        }
        *o = c as u8;
    }
    for (i, o) in out.iter_mut().enumerate().skip(full) {
        let lo = 5 * i;
        let hi = (lo + 5).min(deg);
        let mut c = 0u16;
        for j in (lo..hi).rev() {
            c = 3 * c + a[j];
        }
        *o = c as u8;
    }
}

/// ⌈2^16 / 3^j⌉ for j = 0..4: ⌊b / 3^j⌋ = ⌊b·POW3_RECIP\[j\] / 2^16⌋ for
/// every byte b (checked exhaustively by a test).
const POW3_RECIP: [u32; 5] = [65536, 21846, 7282, 2428, 810];

/// Unpacks n − 1 trinary coefficients (each base-3 digit reduced mod 3, as
/// the reference does for non-canonical bytes); the last coefficient is 0.
/// The five digits of a full byte are computed independently
/// (⌊b / 3^j⌋ mod 3 by multiplications), the partial last byte digit by
/// digit.
pub(crate) fn s3_from_bytes(r: &mut [u16], bytes: &[u8]) {
    let n = r.len();
    let deg = n - 1;
    let full = if 5 * bytes.len() > deg {
        bytes.len() - 1
    } else {
        bytes.len()
    };
    for (i, &b) in bytes[..full].iter().enumerate() {
        let b = u32::from(b);
        for (j, &m) in POW3_RECIP.iter().enumerate() {
            r[5 * i + j] = mod3((b * m) >> 16);
        }
    }
    for (i, &b) in bytes.iter().enumerate().skip(full) {
        let mut c = u32::from(b);
        for j in 5 * i..(5 * i + 5).min(deg) {
            r[j] = mod3(c);
            c = div3(c);
        }
    }
    r[n - 1] = 0;
}

/// Whether a packed trinary polynomial of `deg` digits is canonical (every
/// byte below 3^5, the last below 3^(digits it holds)): 0 if so, 1 if not
/// (constant time; used by key checks).
pub(crate) fn s3_noncanonical(bytes: &[u8], deg: usize) -> u32 {
    let mut bad = 0u32;
    for (i, &b) in bytes.iter().enumerate() {
        let digits = (deg - 5 * i).min(5) as u32;
        let bound = 3u32.pow(digits);
        // b ≥ bound ⇔ bound − 1 − b underflows.
        bad |= (bound - 1).wrapping_sub(u32::from(b)) >> 31;
    }
    bad
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// `n` pseudo-random coefficients (an LCG on `seed`; also the backends' tests).
    pub(crate) fn rand_poly(seed: &mut u64, n: usize) -> Vec<u16> {
        (0..n)
            .map(|_| {
                *seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (*seed >> 40) as u16
            })
            .collect()
    }

    #[test]
    fn byte_digits_are_exact() {
        for b in 0..256u32 {
            for (j, &m) in POW3_RECIP.iter().enumerate() {
                assert_eq!((b * m) >> 16, b / 3u32.pow(j as u32), "b = {b}, j = {j}");
            }
        }
    }

    #[test]
    fn mod3_is_exact() {
        for x in 0..(1u32 << 16) {
            assert_eq!(u32::from(mod3(x)), x % 3);
            assert_eq!(div3(x), x / 3);
        }
    }

    #[test]
    fn karatsuba_matches_schoolbook() {
        let mut seed = 1;
        for m in [
            1, 2, 20, 24, 28, 31, 32, 33, 48, 63, 100, 509, 512, 701, 768, 896, 1280, 1373, 1536,
        ] {
            let a = rand_poly(&mut seed, m);
            let b = rand_poly(&mut seed, m);
            let mut want = vec![0u16; 2 * m];
            schoolbook(&mut want, &a, &b);
            let mut got = vec![0u16; 2 * m];
            let mut s = vec![0u16; crate::params::karatsuba_scratch(m)];
            karatsuba_generic(&mut got, &a, &b, &mut s);
            assert_eq!(got, want, "m = {m}");
            got.fill(0);
            karatsuba(&mut got, &a, &b, &mut s);
            assert_eq!(got, want, "m = {m} (fixed blocks)");
        }
    }

    #[test]
    fn packing_round_trips() {
        let mut seed = 7;
        for (n, logq) in [
            (509, 11),
            (677, 11),
            (821, 12),
            (1229, 12),
            (701, 13),
            (1373, 14),
        ] {
            let mut a = rand_poly(&mut seed, n);
            for c in &mut a {
                *c &= (1 << logq) - 1;
            }
            a[n - 1] = 0;
            let mut bytes = vec![0u8; (logq as usize * (n - 1)).div_ceil(8)];
            sq_to_bytes(&mut bytes, &a, logq);
            // Bit i·logq + j of the encoding is bit j of coefficient i.
            let mut want = vec![0u8; bytes.len()];
            for (i, &c) in a[..n - 1].iter().enumerate() {
                for j in 0..logq as usize {
                    let bit = i * logq as usize + j;
                    want[bit / 8] |= (((c >> j) & 1) as u8) << (bit % 8);
                }
            }
            assert_eq!(bytes, want, "n = {n}");
            assert_eq!(padding_nonzero(&bytes, n - 1, logq), 0);
            let mut b = vec![0u16; n];
            sq_from_bytes(&mut b, &bytes, logq);
            assert_eq!(a, b);
            let t: Vec<u16> = (0..n)
                .map(|i| if i == n - 1 { 0 } else { a[i] % 3 })
                .collect();
            let mut tb = vec![0u8; (n - 1).div_ceil(5)];
            s3_to_bytes(&mut tb, &t);
            assert_eq!(s3_noncanonical(&tb, n - 1), 0);
            let mut t2 = vec![0u16; n];
            s3_from_bytes(&mut t2, &tb);
            assert_eq!(t, t2);
        }
    }
}
