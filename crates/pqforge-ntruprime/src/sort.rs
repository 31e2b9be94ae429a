//! A constant-time sort of 32-bit words: a bitonic sorting network for any
//! length (sort the two halves in opposite directions, then merge by
//! comparing each element with the one a power of two further on). The
//! sequence of compare-exchange positions depends only on the length; each
//! compare-exchange is a `min`/`max` pair (no data-dependent branch or
//! index).

/// Sorts `x` ascending in constant time.
#[inline(always)]
pub(crate) fn sort_u32(x: &mut [u32]) {
    sort(x, true);
}

fn sort(x: &mut [u32], up: bool) {
    let n = x.len();
    if n < 2 {
        return;
    }
    let h = n / 2;
    let (a, b) = x.split_at_mut(h);
    sort(a, !up);
    sort(b, up);
    merge(x, up);
}

/// Merges a bitonic sequence into direction `up`.
fn merge(x: &mut [u32], up: bool) {
    let n = x.len();
    if n < 2 {
        return;
    }
    // The greatest power of two below n.
    let m = 1usize << (usize::BITS - 1 - (n - 1).leading_zeros());
    let (lo, hi) = x.split_at_mut(m);
    let k = n - m;
    if up {
        for (a, b) in lo[..k].iter_mut().zip(&mut hi[..k]) {
            let (s, t) = minmax(*a, *b);
            *a = s;
            *b = t;
        }
    } else {
        for (a, b) in lo[..k].iter_mut().zip(&mut hi[..k]) {
            let (s, t) = minmax(*a, *b);
            *a = t;
            *b = s;
        }
    }
    merge(lo, up);
    merge(hi, up);
}

/// (min, max) without a branch: the borrow of a 64-bit subtraction makes
/// the mask.
#[inline(always)]
fn minmax(a: u32, b: u32) -> (u32, u32) {
    let d = u64::from(b).wrapping_sub(u64::from(a));
    let mask = ((d >> 63) as u32).wrapping_neg(); // all ones iff b < a
    let t = (a ^ b) & mask;
    (a ^ t, b ^ t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_std() {
        let mut s = 0x1234_5678_9abc_def0u64;
        let sizes: &[usize] = if cfg!(miri) {
            &[0, 1, 2, 3, 5, 17, 33]
        } else {
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 9, 13, 31, 100, 653, 761, 857, 953, 1013, 1277,
            ]
        };
        for &n in sizes {
            for round in 0..4 {
                let mut v: std::vec::Vec<u32> = (0..n)
                    .map(|_| {
                        s ^= s << 13;
                        s ^= s >> 7;
                        s ^= s << 17;
                        if round == 1 { (s % 4) as u32 } else { s as u32 }
                    })
                    .collect();
                let mut w = v.clone();
                w.sort_unstable();
                sort_u32(&mut v);
                assert_eq!(v, w, "n={n}");
            }
        }
    }
}
