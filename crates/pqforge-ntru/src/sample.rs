//! Sampling of the short polynomials from uniform bytes, and the
//! constant-time sort behind fixed-type (fixed-weight) vectors.

use pqforge_core::ct::barrier_u32;

use crate::poly::mod3;

/// i.i.d. trinary sample: `r[i] = bytes[i] mod 3` for i < n − 1, `r[n−1] = 0`.
pub(crate) fn iid(r: &mut [u16], bytes: &[u8]) {
    let n = r.len();
    for (c, &b) in r[..n - 1].iter_mut().zip(bytes) {
        *c = mod3(u32::from(b));
    }
    r[n - 1] = 0;
}

/// HRSS "iid+" sample: an i.i.d. sample whose even-index coefficients are
/// negated when the correlation Σ r\[i\]·r\[i+1\] (coefficients read in
/// {−1, 0, 1}) is negative, so that it is non-negative.
pub(crate) fn iid_plus(r: &mut [u16], bytes: &[u8]) {
    iid(r, bytes);
    let n = r.len();
    // {0, 1, 2} -> {0, 1, -1}.
    let signed = |c: u16| -> i32 { i32::from(c) - 3 * i32::from(c >> 1) };
    let mut sum = 0i32;
    for i in 0..n - 1 {
        sum += signed(r[i]) * signed(r[i + 1]);
    }
    // All-ones iff the sum is negative (|sum| < n).
    let neg = barrier_u32((sum >> 31) as u32) as i32;
    for i in (0..n).step_by(2) {
        let v = (signed(r[i]) ^ neg) - neg;
        // {−1, 0, 1} -> {2, 0, 1}.
        r[i] = (v + 3 * ((v >> 31) & 1)) as u16;
    }
}

/// Fixed-type sample (HPS): `weight/2` coefficients 1, `weight/2`
/// coefficients 2, the rest 0, among the first n − 1, placed by sorting
/// 30-bit random keys (read little-endian, 30 bits per coefficient) that
/// carry the coefficient in their two low bits. `keys` holds n − 1 entries;
/// `sort` sorts them ascending (the backend's [`sort_i32`]).
pub(crate) fn fixed_type(
    r: &mut [u16],
    bytes: &[u8],
    weight: usize,
    keys: &mut [i32],
    sort: impl FnOnce(&mut [i32]),
) {
    let n = r.len();
    let mut acc = 0u64;
    let mut bits = 0;
    let mut src = bytes.iter();
    for (i, k) in keys.iter_mut().enumerate() {
        while bits < 30 {
            acc |= u64::from(*src.next().unwrap_or(&0)) << bits;
            bits += 8;
        }
        let label = u32::from(i < weight / 2) | (u32::from(i >= weight / 2 && i < weight) << 1);
        *k = ((((acc & 0x3fff_ffff) as u32) << 2) | label) as i32;
        acc >>= 30;
        bits -= 30;
    }
    sort(keys);
    for (c, &k) in r[..n - 1].iter_mut().zip(keys.iter()) {
        *c = (k & 3) as u16;
    }
    r[n - 1] = 0;
}

/// Orders `a` and `b` (min first) without branching on their values.
#[inline(always)]
pub(crate) fn minmax(a: &mut i32, b: &mut i32) {
    let (x, y) = (*a, *b);
    // CT: all-ones iff y < x, from the sign of the 64-bit difference (as
    // the McEliece sort's compare-exchange), behind a value barrier so that
    // LLVM cannot turn the masked exchange into a branch.
    let swap = barrier_u32(((i64::from(y) - i64::from(x)) >> 63) as u32) as i32;
    let t = (x ^ y) & swap;
    *a = x ^ t;
    *b = y ^ t;
}

/// Sorts `x` ascending with Batcher's odd-even merge network: the sequence
/// of compared positions depends only on the length (comparators reaching
/// past the end are dropped, as if the input were padded with +∞).
///
/// Stage (p, k) compares positions i and i + k for the i that lie, with
/// i + k, in one block of 2p; those form contiguous runs, each done as one
/// loop over two slices.
pub(crate) fn sort_i32(x: &mut [i32]) {
    sort_i32_with(x, minmax_run);
}

/// `minmax` of `a[i]` and `b[i]` for every i (`a.len() ≤ b.len()`).
#[inline(always)]
pub(crate) fn minmax_run(a: &mut [i32], b: &mut [i32]) {
    for (a, b) in a.iter_mut().zip(b.iter_mut()) {
        minmax(a, b);
    }
}

/// [`sort_i32`] with `run` for each run of comparators at distance k ≥ 2
/// (a backend's vector version of [`minmax_run`]).
#[inline(always)]
pub(crate) fn sort_i32_with(x: &mut [i32], mut run: impl FnMut(&mut [i32], &mut [i32])) {
    let n = x.len();
    let mut p = 1;
    while p < n {
        let mut k = p;
        while k >= 1 {
            if k == 1 {
                // Pairs (j, j + 1), j odd (p > 1) or even (p = 1), both in
                // one block of 2p: one pass, no runs to find.
                let mut j = 1 % p;
                while j + 1 < n {
                    if (j + 1) & (2 * p - 1) != 0 {
                        let (lo, hi) = x.split_at_mut(j + 1);
                        minmax(&mut lo[j], &mut hi[0]);
                    }
                    j += 2;
                }
                break;
            }
            let mut j = k % p;
            while j + k < n {
                // Positions j .. j + count (count ≤ k), those whose partner
                // is in the same 2p-block: within each block, its first
                // 2p − k positions.
                let end = j + k.min(n - j - k);
                let mut start = j;
                while start < end {
                    let block = start & !(2 * p - 1);
                    let run_end = (block + 2 * p - k).min(end);
                    if start < run_end {
                        // run_end ≤ j + k ≤ start + k: the slices are disjoint.
                        let (lo, hi) = x.split_at_mut(start + k);
                        run(&mut lo[start..run_end], hi);
                    }
                    start = block + 2 * p;
                }
                j += 2 * k;
            }
            k /= 2;
        }
        p *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    #[test]
    fn sort_sorts() {
        let mut seed = 3u64;
        for n in [1, 2, 3, 5, 17, 100, 508, 1228] {
            let mut v: Vec<i32> = (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (seed >> 32) as i32
                })
                .collect();
            let mut w = v.clone();
            w.sort_unstable();
            sort_i32(&mut v);
            assert_eq!(v, w, "n = {n}");
        }
    }
}
