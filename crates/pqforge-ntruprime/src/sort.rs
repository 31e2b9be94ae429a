//! A constant-time sort of 32-bit words: Batcher's bitonic network in its
//! all-ascending form (for each block size 2, 4, …: compare each element
//! of a block's lower half with its mirror image in the upper half, then
//! half-clean with distances size/4, size/8, …, 1), on the length rounded
//! up to a power of two with virtual +∞ entries past the end. Every
//! comparator puts the minimum at the lower index, so a comparator that
//! reaches a virtual entry would leave both in place and is skipped: the
//! network depends only on the length. Each compare-exchange derives a
//! mask from a 32-bit subtraction and swaps with XORs (no data-dependent
//! branch or index), and the compared pairs of a stage are contiguous
//! runs, so the loops vectorize.
//!
//! Unsigned words are sorted as signed ones with their top bit flipped
//! (an order-preserving bijection), which keeps every operation 32-bit.

/// Sorts `x` ascending in constant time.
#[inline(always)]
pub(crate) fn sort_u32(x: &mut [u32]) {
    for v in x.iter_mut() {
        *v ^= 0x8000_0000;
    }
    // The sign-spreading shift count of `minmax`, opaque to the optimiser.
    let sh = pqforge_core::ct::barrier_u32(31);
    let n = x.len();
    let mut size = 2;
    while size / 2 < n {
        let half = size / 2;
        // Mirror stage: lower half against the reversed upper half.
        for blk in x.chunks_mut(size) {
            if blk.len() > half {
                let (lo, hi) = blk.split_at_mut(half);
                for (a, b) in lo.iter_mut().rev().zip(hi.iter_mut()) {
                    (*a, *b) = minmax(*a, *b, sh);
                }
            }
        }
        // Half-cleaners.
        let mut d = half / 2;
        while d >= 1 {
            for blk in x.chunks_mut(2 * d) {
                if blk.len() > d {
                    let (lo, hi) = blk.split_at_mut(d);
                    for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                        (*a, *b) = minmax(*a, *b, sh);
                    }
                }
            }
            d /= 2;
        }
        size *= 2;
    }
    for v in x.iter_mut() {
        *v ^= 0x8000_0000;
    }
}

/// (min, max) of two words read as signed (top bits flipped by the
/// caller), without a branch: c = b - a, corrected to b's sign where the
/// subtraction overflowed (a and b of different signs), is negative iff
/// b < a; its sign spreads into the swap mask.
///
/// `sh` must be 31 through a value barrier (hoisted by the caller): the
/// mask is a shift by that opaque count, so LLVM cannot prove it is 0 or -1
/// and turn the exchange into a select or branch, while the loop still
/// vectorizes (a barrier per mask would not: `black_box` on x86_64 is a
/// stack round trip).
#[inline(always)]
fn minmax(a: u32, b: u32, sh: u32) -> (u32, u32) {
    let (a, b) = (a as i32, b as i32);
    let ab = a ^ b;
    let mut c = b.wrapping_sub(a);
    c ^= ab & (c ^ b);
    let t = c.wrapping_shr(sh) & ab;
    ((a ^ t) as u32, (b ^ t) as u32)
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
