//! Constant-time sorting networks (bitonic, power-of-two lengths) over
//! little-endian words stored in byte buffers.
//!
//! The buffers live in caller memory (the public-key buffer during key
//! generation), which is why the words are bytes here: no alignment is
//! needed and no heap is used. The compare-exchange is branch-free; the
//! network's shape depends only on the (public) length.

/// Branch-free compare-exchange: returns `(min, max)`.
#[inline(always)]
fn minmax_u64(a: u64, b: u64) -> (u64, u64) {
    // CT: all-ones iff b < a, from the borrow of a 128-bit subtraction.
    let m = ((u128::from(b).wrapping_sub(u128::from(a))) >> 64) as u64;
    let d = (a ^ b) & m;
    (a ^ d, b ^ d)
}

#[inline(always)]
fn minmax_u32(a: u32, b: u32) -> (u32, u32) {
    // CT: all-ones iff b < a.
    let m = ((u64::from(b).wrapping_sub(u64::from(a))) >> 32) as u32;
    let d = (a ^ b) & m;
    (a ^ d, b ^ d)
}

macro_rules! bitonic {
    ($name:ident, $ty:ty, $w:expr, $mm:ident) => {
        /// Sorts the words of `buf` ascending (bitonic network; the word
        /// count must be a power of two).
        pub(crate) fn $name(buf: &mut [u8]) {
            const W: usize = $w;
            let n = buf.len() / W;
            debug_assert!(n.is_power_of_two() && buf.len() == n * W);
            let mut k = 2;
            while k <= n {
                let mut j = k / 2;
                while j >= 1 {
                    let mut blk = 0;
                    while blk < n {
                        // Direction depends on the (public) position only.
                        let asc = blk & k == 0;
                        let (lo, hi) = buf[blk * W..(blk + 2 * j) * W].split_at_mut(j * W);
                        for (x, y) in lo.chunks_exact_mut(W).zip(hi.chunks_exact_mut(W)) {
                            let mut xa = [0u8; W];
                            let mut ya = [0u8; W];
                            xa.copy_from_slice(x);
                            ya.copy_from_slice(y);
                            let (mn, mx) = $mm(<$ty>::from_le_bytes(xa), <$ty>::from_le_bytes(ya));
                            let (p, q) = if asc { (mn, mx) } else { (mx, mn) };
                            x.copy_from_slice(&p.to_le_bytes());
                            y.copy_from_slice(&q.to_le_bytes());
                        }
                        blk += 2 * j;
                    }
                    j /= 2;
                }
                k *= 2;
            }
        }
    };
}

bitonic!(sort_u64_le, u64, 8, minmax_u64);
bitonic!(sort_u32_le, u32, 4, minmax_u32);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts() {
        let mut rng = pqforge_core::testing::TestRng::new(0x9E37_79B9_7F4A_7C15);
        let mut next = || rng.next_u64();
        for logn in [1usize, 2, 5, 10] {
            let n = 1 << logn;
            let vals: std::vec::Vec<u64> = (0..n).map(|_| next() >> (next() % 64)).collect();
            let mut buf: std::vec::Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
            sort_u64_le(&mut buf);
            let mut want = vals.clone();
            want.sort_unstable();
            let got: std::vec::Vec<u64> = buf
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
                .collect();
            assert_eq!(got, want);
            let vals: std::vec::Vec<u32> = (0..n).map(|_| next() as u32).collect();
            let mut buf: std::vec::Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
            sort_u32_le(&mut buf);
            let mut want = vals.clone();
            want.sort_unstable();
            let got: std::vec::Vec<u32> = buf
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap_or_default()))
                .collect();
            assert_eq!(got, want);
        }
    }
}
