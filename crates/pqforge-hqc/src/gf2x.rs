//! Arithmetic in F2\[X\]/(X^n - 1) on little-endian 64-bit words.
//!
//! The hot kernels go through the [`Kernels`] trait, implemented by every
//! backend (the `backend` module): the carry-less product of two dense
//! operands, and turning a sparse support (list of secret positions) into
//! bits. Everything else (the reduction mod X^n - 1, the Karatsuba
//! recursion shared by the backends, loads and stores) is written here once.
//! All routines run in time that depends only on the (public) operand
//! lengths: there are no branches or memory indices derived from the
//! operands.

/// The ring kernels of one backend. Implementations of the x86_64 backends
/// are only ever instantiated after the CPU features they need were
/// detected (see the `backend` module).
pub(crate) trait Kernels: Sized {
    /// Short name (`portable`, `avx2`, `avx512`) for tests and benches.
    const NAME: &'static str;

    /// `r = a * b` (plain product, no reduction); `a` and `b` have the same
    /// length `w`, a multiple of [`crate::params::POLY_ALIGN_WORDS`]; `r` has
    /// length `2w`; `scratch` holds at least
    /// [`crate::params::karatsuba_scratch`]`(w)` words.
    fn mul_wide(r: &mut [u64], a: &[u64], b: &[u64], scratch: &mut [u64]);

    /// `out[idx[k]] ^= bit[k]` for every k, touching every word of `out` for
    /// every k (the `idx[k]` are secret; each is below `out.len()`).
    fn xor_bits(out: &mut [u64], idx: &[u32], bit: &[u64]) {
        xor_bits_portable(out, idx, bit);
    }
}

/// Portable [`Kernels::xor_bits`] (also the SIMD backends' fallback for
/// lengths that are not a whole number of vectors).
#[inline(always)]
pub(crate) fn xor_bits_portable(out: &mut [u64], idx: &[u32], bit: &[u64]) {
    for (wi, o) in out.iter_mut().enumerate() {
        let mut acc = 0u64;
        for (&ix, &b) in idx.iter().zip(bit) {
            let d = ix ^ wi as u32;
            // 1 iff d != 0, hidden from LLVM, which turns the mask back into
            // a compare-and-branch otherwise (`barrier_u32`: a register
            // barrier on the Cortex-M4, where `black_box` goes through the
            // stack).
            let nz = ct::barrier_u32((d | d.wrapping_neg()) >> 31);
            // All-ones iff d == 0.
            acc |= b & u64::from(nz).wrapping_sub(1);
        }
        *o ^= acc;
    }
}

/// `dst ^= src` over whole `B`-word chunks (lengths are multiples of `B`),
/// so that each chunk becomes a single vector operation.
#[inline(always)]
pub(crate) fn xor_chunks<const B: usize>(dst: &mut [u64], src: &[u64]) {
    for (d, s) in dst.chunks_exact_mut(B).zip(src.chunks_exact(B)) {
        for i in 0..B {
            d[i] ^= s[i];
        }
    }
}

/// Defines a recursive Karatsuba multiplier `$name(r, a, b, t)` on operands
/// of a whole number of `$block`-word blocks, handing operands of at most
/// `$small_max` words to `$small` (a product of two such operands). The
/// extra attributes (such as `#[target_feature]`) apply to the generated
/// function, so each backend gets its own copy compiled for its instruction
/// set.
///
/// Operands of `nb` blocks split into a low half of `ceil(nb/2)` blocks (h
/// words) and a high half of l = n - h words. `t` needs
/// [`crate::params::karatsuba_scratch`] words: the middle product (2h words)
/// lives there while the outer products go straight into `r`, and the two
/// half sums are formed in `r` before the outer products overwrite them.
macro_rules! karatsuba_fn {
    ($(#[$attr:meta])* $name:ident, $block:literal, $small_max:literal, $small:ident) => {
        $(#[$attr])*
        fn $name(r: &mut [u64], a: &[u64], b: &[u64], t: &mut [u64]) {
            use $crate::gf2x::xor_chunks;
            let n = a.len();
            debug_assert!(n.is_multiple_of($block) && n > 0);
            debug_assert!(b.len() == n && r.len() >= 2 * n);
            if n <= $small_max {
                $small(r, a, b);
                return;
            }
            let h = (n / $block).div_ceil(2) * $block;
            let l = n - h;
            let (z1, rest) = t.split_at_mut(2 * h);
            {
                let (sa, sb) = r[..2 * h].split_at_mut(h);
                sa.copy_from_slice(&a[..h]);
                sb.copy_from_slice(&b[..h]);
                xor_chunks::<$block>(&mut sa[..l], &a[h..]);
                xor_chunks::<$block>(&mut sb[..l], &b[h..]);
                $name(z1, sa, sb, rest);
            }
            {
                let (r0, r1) = r.split_at_mut(2 * h);
                $name(r0, &a[..h], &b[..h], rest);
                $name(&mut r1[..2 * l], &a[h..], &b[h..], rest);
            }
            // z1 <- z1 - z0 - z2, then r += X^h z1.
            xor_chunks::<$block>(z1, &r[..2 * h]);
            xor_chunks::<$block>(&mut z1[..2 * l], &r[2 * h..2 * h + 2 * l]);
            xor_chunks::<$block>(&mut r[h..3 * h], z1);
        }
    };
}
pub(crate) use karatsuba_fn;

use pqforge_core::ct;

/// `acc += X^(64·off) · blk mod (X^n - 1)` on the first `ceil(n/64)` words
/// of `acc`, without clearing the bits of the top word at and above n (the
/// caller masks once at the end). `X^(64·off) · blk` must have degree below
/// 2n. Word `p` of the (unreduced) product contributes itself to word `p`
/// (if below `ceil(n/64)`), and its bits from n on to words `p - q` and
/// `p - q - 1` (q = n / 64); the three ranges are plain slice loops.
#[inline(always)]
fn fold_add(acc: &mut [u64], blk: &[u64], off: usize, n: usize) {
    let w = n.div_ceil(64);
    let q = n / 64;
    let sh = n % 64;
    let len = blk.len();
    if off < w {
        let end = (off + len).min(w);
        add_assign(&mut acc[off..end], &blk[..end - off]);
    }
    // Word p = off + j: (blk[j] >> sh) goes to word p - q.
    let lo = q.saturating_sub(off);
    let hi = (q + w).saturating_sub(off).min(len);
    if lo < hi {
        for (d, s) in acc[off + lo - q..off + hi - q].iter_mut().zip(&blk[lo..hi]) {
            *d ^= s >> sh;
        }
    }
    if sh != 0 {
        // (blk[j] << (64 - sh)) goes to word p - q - 1.
        let lo = (q + 1).saturating_sub(off);
        let hi = (q + 1 + w).saturating_sub(off).min(len);
        if lo < hi {
            for (d, s) in acc[off + lo - q - 1..off + hi - q - 1]
                .iter_mut()
                .zip(&blk[lo..hi])
            {
                *d ^= s << (64 - sh);
            }
        }
    }
}

/// `out = a * b mod (X^n - 1)`; all three have the same padded length `w`
/// (a multiple of [`crate::params::POLY_ALIGN_WORDS`]), `a` and `b` reduced
/// (no bits at or above n). `scratch` holds at least
/// [`crate::params::mul_scratch`]`(w)` words; it is wiped before returning.
///
/// One Karatsuba level on halves of h = w/2 words, reduced as it goes so
/// that no double-length product is ever stored: with z0 = a0·b0, z2 =
/// a1·b1 and z1 = (a0+a1)(b0+b1) (each 2h = w words),
/// a·b = z0 + X^h (z0 + z1 + z2) + X^2h z2. z1 is computed into `out`, z0
/// into the accumulator `acc`, then `out += z0`, `acc` is reduced in place
/// and `X^h out` folded in; z2 goes into `out` and is folded in twice.
#[inline(always)]
pub(crate) fn mul_mod<B: Kernels>(
    out: &mut [u64],
    a: &[u64],
    b: &[u64],
    n: usize,
    scratch: &mut [u64],
) {
    mul_mod_with::<B>(out, a, Operand::Dense(b), n, scratch);
}

/// [`mul_mod`] with `b` given by its support: distinct secret positions
/// below n (the small-RAM profile, feature `small-ram`). The three
/// half-size operands the Karatsuba level takes from b (b0, b1 and b0 + b1)
/// are written from the support when needed into h = w/2 words of
/// `scratch`, so b never exists as a dense ring element: one ring element
/// of stack fewer for h fewer of scratch. `scratch` holds
/// [`crate::params::mul_scratch_support`]`(w)` words; it is wiped before
/// returning.
#[inline(always)]
#[cfg_attr(not(feature = "small-ram"), allow(dead_code))]
pub(crate) fn mul_mod_support<B: Kernels>(
    out: &mut [u64],
    a: &[u64],
    support: &[crate::params::Pos],
    n: usize,
    scratch: &mut [u64],
) {
    mul_mod_with::<B>(out, a, Operand::Support(support), n, scratch);
}

/// The second operand of [`mul_mod_with`].
#[derive(Clone, Copy)]
enum Operand<'a> {
    /// Dense, reduced, `w` words.
    Dense(&'a [u64]),
    /// Its support (distinct positions below n).
    #[cfg_attr(not(feature = "small-ram"), allow(dead_code))]
    Support(&'a [crate::params::Pos]),
}

/// Which h-word piece of a supported operand [`write_half`] writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Half {
    /// b0: the words below h.
    Low,
    /// b1: the words from h on.
    High,
    /// b0 + b1.
    Sum,
}

/// `dst` (h words) = the `which` piece of the operand with support
/// `support`: for every word of `dst`, every position is looked at (no
/// secret-dependent index or branch). Positions folded by `Half::Sum` may
/// meet: bits are XORed. Positions go in chunks of [`SUPPORT_CHUNK`], so
/// that the precomputed word indices and bits take 192 bytes of stack
/// whatever the weight.
fn write_half(dst: &mut [u64], support: &[crate::params::Pos], which: Half) {
    let h = dst.len() as u32;
    dst.fill(0);
    let mut idx = [0u32; SUPPORT_CHUNK];
    let mut bit = [0u64; SUPPORT_CHUNK];
    for chunk in support.chunks(SUPPORT_CHUNK) {
        for ((i, b), &p) in idx.iter_mut().zip(bit.iter_mut()).zip(chunk) {
            let p = u32::from(p);
            let word = p >> 6;
            *i = match which {
                Half::Low => word,
                // Below h: wraps to a value no word index reaches.
                Half::High => word.wrapping_sub(h),
                Half::Sum => word.wrapping_sub(h & !ct::lt_mask_u32(word, h)),
            };
            *b = one_hot64(p & 63);
        }
        let k = chunk.len();
        for (wi, d) in dst.iter_mut().enumerate() {
            let mut acc = 0u64;
            for (&i, &b) in idx[..k].iter().zip(&bit[..k]) {
                acc ^= b & mask64(ct::eq_mask_u32(i, wi as u32));
            }
            *d ^= acc;
        }
    }
    zeroize::Zeroize::zeroize(&mut idx);
    zeroize::Zeroize::zeroize(&mut bit);
}

/// Positions [`write_half`] prepares at a time.
const SUPPORT_CHUNK: usize = 16;

/// A 32-bit mask (all ones or zero) widened to 64 bits.
#[inline(always)]
fn mask64(m: u32) -> u64 {
    u64::from(m) | (u64::from(m) << 32)
}

/// `1 << s` for a secret `s < 64`, built from shifts by public amounts
/// (variable shift counts are avoided: memcheck-based checkers flag them,
/// and some cores run them in data-dependent time).
pub(crate) fn one_hot64(s: u32) -> u64 {
    let mut v = 1u64;
    for b in 0..6 {
        let m = mask64(ct::nonzero_mask_u32((s >> b) & 1));
        v ^= (v ^ (v << (1u32 << b))) & m;
    }
    v
}

/// [`mul_mod`] and [`mul_mod_support`].
#[inline(always)]
fn mul_mod_with<B: Kernels>(
    out: &mut [u64],
    a: &[u64],
    b: Operand<'_>,
    n: usize,
    scratch: &mut [u64],
) {
    let w = out.len();
    debug_assert!(a.len() == w);
    debug_assert!(match b {
        Operand::Dense(b) => b.len() == w,
        Operand::Support(s) => s.len() <= crate::params::MAX_WEIGHT,
    });
    debug_assert!(w.is_multiple_of(crate::params::POLY_ALIGN_WORDS));
    let h = w / 2;
    let nw = n.div_ceil(64);
    let q = n / 64;
    debug_assert!(q >= h && nw <= w && w - q <= 32);
    let (acc, rest) = scratch.split_at_mut(w);
    let (half, rest) = match b {
        Operand::Dense(_) => (&mut [][..], rest),
        Operand::Support(_) => rest.split_at_mut(h),
    };
    {
        let (sa, sb) = acc.split_at_mut(h);
        sa.copy_from_slice(&a[..h]);
        xor_chunks::<8>(sa, &a[h..]);
        match b {
            Operand::Dense(b) => {
                sb.copy_from_slice(&b[..h]);
                xor_chunks::<8>(sb, &b[h..]);
            }
            Operand::Support(s) => write_half(sb, s, Half::Sum),
        }
        B::mul_wide(out, sa, sb, rest);
    }
    let b0: &[u64] = match b {
        Operand::Dense(b) => &b[..h],
        Operand::Support(s) => {
            write_half(half, s, Half::Low);
            half
        }
    };
    B::mul_wide(acc, &a[..h], b0, rest);
    xor_chunks::<8>(out, acc);
    // acc <- z0 mod (X^n - 1): move its words from q on out and fold them
    // back in.
    let mut tail = [0u64; 32];
    let tl = w - q;
    tail[..tl].copy_from_slice(&acc[q..]);
    acc[q..].fill(0);
    fold_add(acc, &tail[..tl], q, n);
    fold_add(acc, out, h, n);
    let b1: &[u64] = match b {
        Operand::Dense(b) => &b[h..],
        Operand::Support(s) => {
            write_half(half, s, Half::High);
            half
        }
    };
    B::mul_wide(out, &a[h..], b1, rest);
    fold_add(acc, out, h, n);
    fold_add(acc, out, 2 * h, n);
    if !n.is_multiple_of(64) {
        acc[nw - 1] &= (1u64 << (n % 64)) - 1;
    }
    out.copy_from_slice(acc);
    zeroize::Zeroize::zeroize(&mut tail);
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
pub(crate) use tests::{Bitwise, check_mul_mod, check_mul_mod_support};

#[cfg(test)]
mod tests {
    use pqforge_core::testing::TestRng;

    use super::*;

    /// Bit-by-bit kernels: the reference for the module tests below the
    /// backends (`mul_mod` here, the samplers).
    pub(crate) struct Bitwise;

    impl Kernels for Bitwise {
        const NAME: &'static str = "bitwise";

        fn mul_wide(r: &mut [u64], a: &[u64], b: &[u64], _scratch: &mut [u64]) {
            r.fill(0);
            for i in 0..64 * a.len() {
                if (a[i / 64] >> (i % 64)) & 1 == 1 {
                    let (q, s) = (i / 64, i % 64);
                    for (j, &x) in b.iter().enumerate() {
                        r[q + j] ^= x << s;
                        if s != 0 {
                            r[q + j + 1] ^= x >> (64 - s);
                        }
                    }
                }
            }
        }
    }

    /// `a·b mod (X^n - 1)` bit by bit.
    fn mul_mod_bitwise(a: &[u64], b: &[u64], n: usize) -> [u64; 16] {
        let mut r = [0u64; 16];
        for i in 0..n {
            if (a[i / 64] >> (i % 64)) & 1 == 1 {
                for j in 0..n {
                    if (b[j / 64] >> (j % 64)) & 1 == 1 {
                        let k = (i + j) % n;
                        r[k / 64] ^= 1 << (k % 64);
                    }
                }
            }
        }
        r
    }

    /// [`mul_mod`] with the kernels of `B` against the bit-by-bit product,
    /// on random operands of one 16-word block (n = 1000, 993, 961: a few
    /// lengths of the top word).
    pub(crate) fn check_mul_mod<B: Kernels>() {
        let mut s = TestRng::new(0xdead_beef_cafe_f00d);
        // Miri (about 1000x slower): one product (mul_mod needs n > 512
        // with these 16-word operands).
        let (lengths, reps): (&[usize], _) = if cfg!(miri) {
            (&[961], 1)
        } else {
            (&[1000, 993, 961], 3)
        };
        for &n in lengths {
            let w = n.div_ceil(64);
            for _ in 0..reps {
                let mut a = [0u64; 16];
                let mut b = [0u64; 16];
                for i in 0..w {
                    a[i] = s.next_u64();
                    b[i] = s.next_u64();
                }
                a[w - 1] &= (1 << (n % 64)) - 1;
                b[w - 1] &= (1 << (n % 64)) - 1;
                let mut scratch = [0u64; crate::params::mul_scratch(16)];
                let mut out = [0u64; 16];
                mul_mod::<B>(&mut out, &a, &b, n, &mut scratch);
                assert_eq!(out, mul_mod_bitwise(&a, &b, n), "{} n = {n}", B::NAME);
            }
        }
    }

    /// [`mul_mod_support`] (the small-RAM profile's product) against
    /// [`mul_mod`] of the dense operand, with supports that put positions
    /// on both halves, on the words at h and 0 (so that the folded sum has
    /// meeting positions) and at the last bit below n.
    pub(crate) fn check_mul_mod_support<B: Kernels>() {
        let mut s = TestRng::new(0x5bd1_e995_0123_4567);
        let reps = if cfg!(miri) { 1 } else { 20 };
        for &n in &[1000usize, 993, 961] {
            let w = 16;
            let h = w / 2;
            for r in 0..reps {
                let mut a = [0u64; 16];
                for x in a.iter_mut().take(n.div_ceil(64)) {
                    *x = s.next_u64();
                }
                if n % 64 != 0 {
                    a[n / 64] &= (1 << (n % 64)) - 1;
                }
                // Distinct positions: a random walk with steps of 1..=24.
                let mut sup = [0u16; 40];
                let mut len = 0;
                let mut p = (s.next_u64() % 8) as u16;
                if r % 2 == 0 {
                    // Meet in the folded sum: p and p + 64h.
                    sup[0] = 3;
                    sup[1] = 3 + 64 * h as u16;
                    len = 2;
                    p = 5;
                }
                while len < sup.len() && (p as usize) < n {
                    if !sup[..len].contains(&p) {
                        sup[len] = p;
                        len += 1;
                    }
                    p += 1 + (s.next_u64() % 24) as u16;
                }
                if len < sup.len() {
                    sup[len] = n as u16 - 1;
                    len += 1;
                }
                let mut dense = [0u64; 16];
                for &q in &sup[..len] {
                    dense[q as usize / 64] ^= 1 << (q % 64);
                }
                let mut scratch = [0u64; crate::params::mul_scratch_support(16)];
                let (mut want, mut got) = ([0u64; 16], [0u64; 16]);
                mul_mod::<B>(&mut want, &a, &dense, n, &mut scratch);
                mul_mod_support::<B>(&mut got, &a, &sup[..len], n, &mut scratch);
                assert_eq!(got, want, "{} n = {n}", B::NAME);
                assert!(scratch.iter().all(|&x| x == 0), "scratch wiped");
            }
        }
    }

    #[test]
    fn mul_mod_support_matches_dense() {
        check_mul_mod_support::<Bitwise>();
    }

    #[test]
    fn mul_mod_matches_bitwise() {
        // The reduction alone (bit-by-bit products underneath).
        check_mul_mod::<Bitwise>();
    }
}
