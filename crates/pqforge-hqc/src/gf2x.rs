//! Arithmetic in F2\[X\]/(X^n - 1) on little-endian 64-bit words.
//!
//! The hot kernels go through the [`Backend`] trait: the carry-less
//! multiplication of two dense operands, and turning a sparse support (list
//! of secret positions) into bits. [`Portable`] is the reference; the x86_64
//! backends (`crate::x86::Avx2`, `crate::x86::Avx512`) use PCLMULQDQ and
//! VPCLMULQDQ. All routines run in time that depends only on the (public)
//! operand lengths: there are no branches or memory indices derived from the
//! operands.

/// The per-architecture kernels. Implementations of the x86_64 backends may
/// only be instantiated after the CPU features they need were detected
/// (`crate::backend` is the only place that does so).
pub(crate) trait Backend: Sized {
    /// Short name (`portable`, `avx2`, `avx512`) for tests and benches.
    #[allow(dead_code)]
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

    /// Decoding of the concatenated code (first n1·n2 bits of `word`) into
    /// the k-byte `m`; see [`crate::code::decode_generic`]. SIMD backends
    /// compile the same source for their instruction set.
    fn decode<P: crate::params::ParameterSet>(m: &mut [u8], word: &[u64]) {
        crate::code::decode_generic::<P>(m, word);
    }

    /// [`crate::kem::pke_keygen`] in a frame of its own (never inlined, so
    /// that the ring elements of different stages never share one frame).
    /// SIMD backends compile it for their instruction set.
    #[inline(never)]
    fn pke_keygen<P: crate::params::ParameterSet, S: crate::kem::Sink>(
        sink: &mut S,
        seed_dk: &[u8],
        seed_ek: &[u8],
    ) {
        crate::kem::pke_keygen::<P, Self, S>(sink, seed_dk, seed_ek);
    }

    /// [`crate::kem::pke_encrypt`] in a frame of its own (see
    /// [`Backend::pke_keygen`]).
    #[inline(never)]
    fn pke_encrypt<P: crate::params::ParameterSet, S: crate::kem::Sink>(
        sink: &mut S,
        ek: &[u8],
        m: &[u8],
        theta: &[u8],
    ) {
        crate::kem::pke_encrypt::<P, Self, S>(sink, ek, m, theta);
    }

    /// [`crate::kem::pke_decrypt`] in a frame of its own (see
    /// [`Backend::pke_keygen`]).
    #[inline(never)]
    fn pke_decrypt<P: crate::params::ParameterSet>(m: &mut [u8], seed_dk: &[u8], c_pke: &[u8]) {
        crate::kem::pke_decrypt::<P, Self>(m, seed_dk, c_pke);
    }
}

/// Portable backend: Karatsuba down to 8-word blocks, then schoolbook over a
/// constant-time 64x64 carry-less multiply.
pub(crate) struct Portable;

/// Portable [`Backend::xor_bits`].
#[inline(always)]
pub(crate) fn xor_bits_portable(out: &mut [u64], idx: &[u32], bit: &[u64]) {
    for (wi, o) in out.iter_mut().enumerate() {
        let mut acc = 0u64;
        for (&ix, &b) in idx.iter().zip(bit) {
            let d = u64::from(ix ^ wi as u32);
            // All-ones iff d == 0; black_box keeps LLVM from turning the
            // mask back into a compare-and-branch (it does otherwise).
            let hit = core::hint::black_box(((d | d.wrapping_neg()) >> 63).wrapping_sub(1));
            acc |= b & hit;
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
// Used by the x86_64 backends; other targets only need the portable instance.
#[cfg_attr(
    any(not(target_arch = "x86_64"), pqforge_backend = "portable"),
    allow(unused_imports)
)]
pub(crate) use karatsuba_fn;

// The 64-bit `schoolbook8` (and the tests) use it.
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
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

// The 64-bit `schoolbook8` (and the tests) use it.
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
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

// The 64-bit `schoolbook8` (and the tests) use it.
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
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

// The 64-bit `schoolbook8` (and the tests) use it.
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
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

// Only the 32-bit `schoolbook8` and the tests use it on 64-bit targets.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
/// Bits at positions ≡ i (mod 4) of a 32-bit word.
const HOLES32: [u32; 4] = [0x1111_1111, 0x2222_2222, 0x4444_4444, 0x8888_8888];

// Only the 32-bit `schoolbook8` and the tests use it on 64-bit targets.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
/// Bits at positions ≡ i (mod 4) of a 64-bit word.
const HOLES64_4: [u64; 4] = [
    0x1111_1111_1111_1111,
    0x2222_2222_2222_2222,
    0x4444_4444_4444_4444,
    0x8888_8888_8888_8888,
];

// Only the 32-bit `schoolbook8` and the tests use it on 64-bit targets.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
/// Carry-less 32x32 -> 64-bit product for 32-bit targets, where one
/// `u32 × u32 → u64` multiplication is a single instruction (Cortex-M4
/// `umull`, constant time) while the `u128` products of [`clmul_split`]
/// become long multi-word sequences.
///
/// Same idea with holes of 4: a column of a partial product `a_i * b_j`
/// collects at most 8 contributions, so its sum (< 16) never reaches the
/// next column of the same residue class.
#[inline(always)]
fn clmul32(a: u32, b: u32) -> u64 {
    let a = HOLES32.map(|m| a & m);
    let b = HOLES32.map(|m| b & m);
    let mut z = 0u64;
    for k in 0..4 {
        let mut acc = 0u64;
        for i in 0..4 {
            acc ^= u64::from(a[i]) * u64::from(b[(k + 4 - i) % 4]);
        }
        z |= acc & HOLES64_4[k];
    }
    z
}

// Only the 32-bit `schoolbook8` and the tests use it on 64-bit targets.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
/// Carry-less 64x64 -> 128-bit product as `(low, high)` words from three
/// [`clmul32`] (one Karatsuba step).
#[inline(always)]
fn clmul64_via32(a: u64, b: u64) -> (u64, u64) {
    let (a0, a1) = (a as u32, (a >> 32) as u32);
    let (b0, b1) = (b as u32, (b >> 32) as u32);
    let lo = clmul32(a0, b0);
    let hi = clmul32(a1, b1);
    let mid = clmul32(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    (lo ^ (mid << 32), hi ^ (mid >> 32))
}

/// Schoolbook product of two 8-word operands into 16 words.
#[inline]
#[cfg(target_pointer_width = "64")]
fn schoolbook8(r: &mut [u64], a: &[u64], b: &[u64]) {
    let mut bs = [[0u64; 5]; 8];
    for (s, &w) in bs.iter_mut().zip(b) {
        *s = split(w);
    }
    let mut acc = [0u64; 16];
    for i in 0..8 {
        let ai = split(a[i]);
        for j in 0..8 {
            let p = clmul_split(&ai, &bs[j]);
            acc[i + j] ^= p as u64;
            acc[i + j + 1] ^= (p >> 64) as u64;
        }
    }
    r[..16].copy_from_slice(&acc);
}

/// Product of two 8-word operands into 16 words on 32-bit targets:
/// Karatsuba all the way down to single words ([`kara_small`]), 27
/// [`clmul64_via32`] instead of 64, since each costs three 32-bit products.
#[inline]
#[cfg(not(target_pointer_width = "64"))]
fn schoolbook8(r: &mut [u64], a: &[u64], b: &[u64]) {
    kara_small(&mut r[..16], &a[..8], &b[..8]);
}

/// `r = a·b` for operands of 1, 2, 4 or 8 words (`r` twice as long), by
/// recursive Karatsuba; the split depends on the (public) length only.
// Only the 32-bit `schoolbook8` and the tests use it on 64-bit targets.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
fn kara_small(r: &mut [u64], a: &[u64], b: &[u64]) {
    let n = a.len();
    debug_assert!(n.is_power_of_two() && n <= 8 && b.len() == n && r.len() == 2 * n);
    if n == 1 {
        (r[0], r[1]) = clmul64_via32(a[0], b[0]);
        return;
    }
    let h = n / 2;
    let mut sa = [0u64; 4];
    let mut sb = [0u64; 4];
    for i in 0..h {
        sa[i] = a[i] ^ a[h + i];
        sb[i] = b[i] ^ b[h + i];
    }
    let mut mid = [0u64; 8];
    kara_small(&mut mid[..2 * h], &sa[..h], &sb[..h]);
    kara_small(&mut r[..2 * h], &a[..h], &b[..h]);
    kara_small(&mut r[2 * h..], &a[h..], &b[h..]);
    // mid <- z1 - z0 - z2, then r += X^h mid.
    for i in 0..2 * h {
        mid[i] ^= r[i] ^ r[2 * h + i];
    }
    for i in 0..2 * h {
        r[h + i] ^= mid[i];
    }
}

karatsuba_fn!(
    /// Portable Karatsuba.
    karatsuba_portable,
    8,
    8,
    schoolbook8
);

impl Backend for Portable {
    const NAME: &'static str = "portable";

    fn mul_wide(r: &mut [u64], a: &[u64], b: &[u64], scratch: &mut [u64]) {
        karatsuba_portable(r, a, b, scratch);
    }
}

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
pub(crate) fn mul_mod<B: Backend>(
    out: &mut [u64],
    a: &[u64],
    b: &[u64],
    n: usize,
    scratch: &mut [u64],
) {
    let w = out.len();
    debug_assert!(a.len() == w && b.len() == w);
    debug_assert!(w.is_multiple_of(crate::params::POLY_ALIGN_WORDS));
    let h = w / 2;
    let nw = n.div_ceil(64);
    let q = n / 64;
    debug_assert!(q >= h && nw <= w && w - q <= 32);
    let (acc, rest) = scratch.split_at_mut(w);
    {
        let (sa, sb) = acc.split_at_mut(h);
        sa.copy_from_slice(&a[..h]);
        sb.copy_from_slice(&b[..h]);
        xor_chunks::<8>(sa, &a[h..]);
        xor_chunks::<8>(sb, &b[h..]);
        B::mul_wide(out, sa, sb, rest);
    }
    B::mul_wide(acc, &a[..h], &b[..h], rest);
    xor_chunks::<8>(out, acc);
    // acc <- z0 mod (X^n - 1): move its words from q on out and fold them
    // back in.
    let mut tail = [0u64; 32];
    let tl = w - q;
    tail[..tl].copy_from_slice(&acc[q..]);
    acc[q..].fill(0);
    fold_add(acc, &tail[..tl], q, n);
    fold_add(acc, out, h, n);
    B::mul_wide(out, &a[h..], &b[h..], rest);
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
mod tests {
    use pqforge_core::testing::TestRng;

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

    #[test]
    fn clmul_matches_reference() {
        let mut s = TestRng::new(0x1234_5678_9abc_def1);
        for _ in 0..10_000 {
            let (a, b) = (s.next_u64(), s.next_u64());
            assert_eq!(clmul64(a, b), clmul_ref(a, b));
        }
        assert_eq!(clmul64(u64::MAX, u64::MAX), clmul_ref(u64::MAX, u64::MAX));
    }

    #[test]
    fn kara_small_matches_schoolbook() {
        let mut s = TestRng::new(0x5555_aaaa_1234_9876);
        for _ in 0..200 {
            let a: [u64; 8] = core::array::from_fn(|_| s.next_u64());
            let b: [u64; 8] = core::array::from_fn(|_| s.next_u64());
            let mut want = [0u64; 16];
            for i in 0..8 {
                for j in 0..8 {
                    let p = clmul_ref(a[i], b[j]);
                    want[i + j] ^= p as u64;
                    want[i + j + 1] ^= (p >> 64) as u64;
                }
            }
            let mut got = [0u64; 16];
            kara_small(&mut got, &a, &b);
            assert_eq!(got, want);
        }
    }

    #[test]
    fn clmul_via32_matches_reference() {
        let mut s = TestRng::new(0x0fed_cba9_8765_4321);
        let split = |p: u128| (p as u64, (p >> 64) as u64);
        for _ in 0..10_000 {
            let (a, b) = (s.next_u64(), s.next_u64());
            assert_eq!(clmul64_via32(a, b), split(clmul_ref(a, b)));
        }
        for (a, b) in [(u64::MAX, u64::MAX), (0, u64::MAX), (1 << 63, 1 << 63)] {
            assert_eq!(clmul64_via32(a, b), split(clmul_ref(a, b)));
        }
    }

    #[test]
    fn karatsuba_matches_schoolbook_mod() {
        // Check mul_mod against a bitwise reference for a small odd n.
        let n = 1000usize;
        let w = n.div_ceil(64);
        let mut s = TestRng::new(0xdead_beef_cafe_f00d);
        for _ in 0..5 {
            let mut a = [0u64; 16];
            let mut b = [0u64; 16];
            let w16 = 16;
            for i in 0..w {
                a[i] = s.next_u64();
                b[i] = s.next_u64();
            }
            a[w - 1] &= (1 << (n % 64)) - 1;
            b[w - 1] &= (1 << (n % 64)) - 1;
            let mut scratch = [0u64; crate::params::mul_scratch(16)];
            let mut out = [0u64; 16];
            mul_mod::<Portable>(&mut out, &a[..w16], &b[..w16], n, &mut scratch);
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
