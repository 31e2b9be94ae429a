//! Several independent SHA-2 compressions at once, and the SHA-extension
//! (SHA-NI) single compression behind [`crate::sha2::compress256`].
//!
//! SLH-DSA's SHA-2 parameter sets spend nearly all their time compressing
//! many short, independent inputs (WOTS+ chains, FORS leaves, tree nodes):
//!
//! * [`compress256_x8`]: eight SHA-256 states, each absorbing its own
//!   64-byte block: with the SHA extensions, four compressions interleaved
//!   at a time; otherwise one state per 32-bit lane of a 256-bit register
//!   (AVX2, or AVX-512VL's rotates and three-input logic when present);
//! * [`compress512_x4`]: four SHA-512 states, one per 64-bit lane;
//! * the portable fallbacks [`compress256_x8_portable`] and
//!   [`compress512_x4_portable`]: the scalar compression functions of
//!   [`crate::sha2`], lane after lane.
//!
//! The implementation is chosen at run time ([`crate::cpu`]); a build with
//! `--cfg pqforge_backend="portable"` always takes the portable code, and
//! [`crate::cpu::disable_avx512`] turns the AVX-512 variants off. Every
//! variant is constant time: no branch and no memory index depends on the
//! states or blocks.
//!
//! ```
//! use pqforge_core::sha2::{IV256, compress256};
//! use pqforge_core::sha2_multi::compress256_x8;
//! let blocks: [[u8; 64]; 8] = core::array::from_fn(|i| [i as u8; 64]);
//! let mut states = [IV256; 8];
//! compress256_x8(&mut states, core::array::from_fn(|i| &blocks[i]));
//! let mut one = IV256;
//! compress256(&mut one, &blocks[5]);
//! assert_eq!(states[5], one);
//! ```

use crate::sha2::{compress256_portable, compress512};

/// Number of SHA-256 states of [`compress256_x8`].
pub const LANES256: usize = 8;
/// Number of SHA-512 states of [`compress512_x4`].
pub const LANES512: usize = 4;

/// Eight SHA-256 compressions, one after the other (portable):
/// `states[j]` absorbs `blocks[j]`.
pub fn compress256_x8_portable(states: &mut [[u32; 8]; LANES256], blocks: [&[u8; 64]; LANES256]) {
    for (s, b) in states.iter_mut().zip(blocks) {
        compress256_portable(s, b);
    }
}

/// Four SHA-512 compressions, one after the other (portable):
/// `states[j]` absorbs `blocks[j]`.
pub fn compress512_x4_portable(states: &mut [[u64; 8]; LANES512], blocks: [&[u8; 128]; LANES512]) {
    for (s, b) in states.iter_mut().zip(blocks) {
        compress512(s, b);
    }
}

/// Eight independent SHA-256 compressions: `states[j]` absorbs
/// `blocks[j]` ([`crate::sha2::compress256`] on each lane), on the fastest
/// implementation this CPU supports (SHA extensions, AVX-512VL, AVX2, or
/// portable).
///
/// With the SHA extensions ([`crate::cpu::sha_ni`]) the eight run as two
/// groups of four interleaved SHA-NI compressions, which was the fastest
/// here (AMD EPYC with AVX-512: about 17 ns per compression, against 26
/// for the AVX-512VL lanes and 37 for AVX2).
#[inline]
pub fn compress256_x8(states: &mut [[u32; 8]; LANES256], blocks: [&[u8; 64]; LANES256]) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::cpu::sha_ni() {
        x86::compress256_x8_sha_ni4(states, blocks);
        return;
    }
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::cpu::avx512vl() && crate::cpu::avx512f() && crate::cpu::avx2() {
        x86::compress256_x8_avx512(states, blocks);
        return;
    }
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::cpu::avx2() {
        x86::compress256_x8_avx2(states, blocks);
        return;
    }
    compress256_x8_portable(states, blocks);
}

/// Four independent SHA-512 compressions: `states[j]` absorbs `blocks[j]`
/// ([`crate::sha2::compress512`] on each lane), on the fastest
/// implementation this CPU supports (AVX-512VL, AVX2, or portable).
///
/// ```
/// use pqforge_core::sha2::{IV512, compress512};
/// use pqforge_core::sha2_multi::compress512_x4;
/// let blocks: [[u8; 128]; 4] = core::array::from_fn(|i| [i as u8; 128]);
/// let mut states = [IV512; 4];
/// compress512_x4(&mut states, core::array::from_fn(|i| &blocks[i]));
/// let mut one = IV512;
/// compress512(&mut one, &blocks[3]);
/// assert_eq!(states[3], one);
/// ```
#[inline]
pub fn compress512_x4(states: &mut [[u64; 8]; LANES512], blocks: [&[u8; 128]; LANES512]) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::cpu::avx512vl() && crate::cpu::avx512f() && crate::cpu::avx2() {
        x86::compress512_x4_avx512(states, blocks);
        return;
    }
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::cpu::avx2() {
        x86::compress512_x4_avx2(states, blocks);
        return;
    }
    compress512_x4_portable(states, blocks);
}

/// Whether [`crate::sha2::compress256`] uses the SHA extensions.
#[must_use]
pub fn uses_sha_ni() -> bool {
    cfg!(all(
        target_arch = "x86_64",
        not(pqforge_backend = "portable")
    )) && crate::cpu::sha_ni()
}

/// SHA-256 compression with the SHA extensions when the CPU has them
/// (called by [`crate::sha2::compress256`]); `false` if it did nothing.
#[inline]
pub(crate) fn compress256_accel(state: &mut [u32; 8], block: &[u8; 64]) -> bool {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::cpu::sha_ni() {
        x86::compress256_sha_ni(state, block);
        return true;
    }
    let _ = (state, block);
    false
}

// ------------------------------------------------------ lane-wise rounds

/// One SHA-2 round on vectors of lanes, in place (the roles of the working
/// variables rotate from call to call, as in [`crate::sha2`]); `add`,
/// `big0`, `big1`, `ch`, `maj` are the lane operations of the calling
/// module, `$kw` is K\[t\] + W\[t\].
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
macro_rules! vround {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $bc:ident, $kw:expr) => {
        let t1 = add(add($h, big1($e)), add(ch($e, $f, $g), $kw));
        let t2 = add(big0($a), maj($a, $b, $c, &mut $bc));
        $d = add($d, t1);
        $h = add(t1, t2);
    };
}

/// W\[t\] for t < 16: the block's word.
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
macro_rules! vw_load {
    ($w:ident, $i:expr) => {
        $w[$i]
    };
}

/// W\[t\] for t ≥ 16, in place over W\[t-16\] in the 16-word ring `$w`
/// (`$i` = t mod 16, a constant).
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
macro_rules! vw_expand {
    ($w:ident, $i:expr) => {{
        let i = $i;
        $w[i] = add(
            add($w[i], small1($w[(i + 14) & 15])),
            add($w[(i + 9) & 15], small0($w[(i + 1) & 15])),
        );
        $w[i]
    }};
}

/// Eight rounds t = `$o`..`$o + 8` of a group of 16 (constants `$k[..16]`).
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
#[rustfmt::skip]
macro_rules! veight {
    ($a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident $bc:ident;
     $k:ident, $wm:ident, $w:ident, $o:expr) => {
        let o = $o;
        vround!($a, $b, $c, $d, $e, $f, $g, $h, $bc, add(splat($k[o]), $wm!($w, o)));
        vround!($h, $a, $b, $c, $d, $e, $f, $g, $bc, add(splat($k[o + 1]), $wm!($w, o + 1)));
        vround!($g, $h, $a, $b, $c, $d, $e, $f, $bc, add(splat($k[o + 2]), $wm!($w, o + 2)));
        vround!($f, $g, $h, $a, $b, $c, $d, $e, $bc, add(splat($k[o + 3]), $wm!($w, o + 3)));
        vround!($e, $f, $g, $h, $a, $b, $c, $d, $bc, add(splat($k[o + 4]), $wm!($w, o + 4)));
        vround!($d, $e, $f, $g, $h, $a, $b, $c, $bc, add(splat($k[o + 5]), $wm!($w, o + 5)));
        vround!($c, $d, $e, $f, $g, $h, $a, $b, $bc, add(splat($k[o + 6]), $wm!($w, o + 6)));
        vround!($b, $c, $d, $e, $f, $g, $h, $a, $bc, add(splat($k[o + 7]), $wm!($w, o + 7)));
    };
}

/// All rounds of one compression on lanes: `$st` is the `[V; 8]` chaining
/// value (word i of every lane in `$st[i]`), `$w` the `[V; 16]` message
/// words, `$kk` the round constants (64 or 80). Evaluates to the new
/// chaining value.
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
#[rustfmt::skip]
macro_rules! vcompress {
    ($st:ident, $w:ident, $kk:expr) => {{
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = $st;
        // b ^ c, for the lane modules whose `maj` uses it
        let mut bc = maj_init(b, c);
        let (first, rest) = $kk.as_chunks::<16>().0.split_at(1);
        let k = &first[0];
        veight!(a b c d e f g h bc; k, vw_load, $w, 0);
        veight!(a b c d e f g h bc; k, vw_load, $w, 8);
        for k in rest {
            veight!(a b c d e f g h bc; k, vw_expand, $w, 0);
            veight!(a b c d e f g h bc; k, vw_expand, $w, 8);
        }
        let x = [a, b, c, d, e, f, g, h];
        core::array::from_fn(|i| add($st[i], x[i]))
    }};
}

#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
#[allow(unsafe_code)]
mod x86 {
    use core::arch::x86_64::{
        __m128i, __m256i, _mm_add_epi32, _mm_alignr_epi8, _mm_blend_epi16, _mm_loadu_si128,
        _mm_set_epi64x, _mm_setr_epi32, _mm_setzero_si128, _mm_sha256msg1_epu32,
        _mm_sha256msg2_epu32, _mm_sha256rnds2_epu32, _mm_shuffle_epi8, _mm_shuffle_epi32,
        _mm_storeu_si128, _mm256_loadu_si256, _mm256_permute2x128_si256, _mm256_setr_epi8,
        _mm256_shuffle_epi8, _mm256_storeu_si256, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64,
        _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
    };

    use crate::sha2::{K256, K512};

    // ------------------------------------------------------------ entries

    pub(super) fn compress256_x8_avx2(s: &mut [[u32; 8]; 8], b: [&[u8; 64]; 8]) {
        debug_assert!(crate::cpu::avx2());
        // SAFETY: every caller checked `cpu::avx2()` first.
        unsafe { x8_avx2(s, b) }
    }

    pub(super) fn compress256_x8_avx512(s: &mut [[u32; 8]; 8], b: [&[u8; 64]; 8]) {
        debug_assert!(crate::cpu::avx512vl() && crate::cpu::avx512f() && crate::cpu::avx2());
        // SAFETY: every caller checked `cpu::avx512vl()`, `cpu::avx512f()`
        // and `cpu::avx2()` first.
        unsafe { x8_avx512(s, b) }
    }

    pub(super) fn compress512_x4_avx2(s: &mut [[u64; 8]; 4], b: [&[u8; 128]; 4]) {
        debug_assert!(crate::cpu::avx2());
        // SAFETY: every caller checked `cpu::avx2()` first.
        unsafe { x4_avx2(s, b) }
    }

    pub(super) fn compress512_x4_avx512(s: &mut [[u64; 8]; 4], b: [&[u8; 128]; 4]) {
        debug_assert!(crate::cpu::avx512vl() && crate::cpu::avx512f() && crate::cpu::avx2());
        // SAFETY: every caller checked `cpu::avx512vl()`, `cpu::avx512f()`
        // and `cpu::avx2()` first.
        unsafe { x4_avx512(s, b) }
    }

    pub(super) fn compress256_sha_ni(s: &mut [u32; 8], b: &[u8; 64]) {
        debug_assert!(crate::cpu::sha_ni());
        // SAFETY: every caller checked `cpu::sha_ni()` first, which includes
        // SSSE3 and SSE4.1 (SSE2 is part of x86_64).
        unsafe { sha_ni(s, b) }
    }

    // ------------------------------------------------- loads, transposes

    /// 8×8 transpose of 32-bit words: `r[j]` lane i becomes `out[i]` lane j.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn transpose8x32(r: [__m256i; 8]) -> [__m256i; 8] {
        let t0 = _mm256_unpacklo_epi32(r[0], r[1]);
        let t1 = _mm256_unpackhi_epi32(r[0], r[1]);
        let t2 = _mm256_unpacklo_epi32(r[2], r[3]);
        let t3 = _mm256_unpackhi_epi32(r[2], r[3]);
        let t4 = _mm256_unpacklo_epi32(r[4], r[5]);
        let t5 = _mm256_unpackhi_epi32(r[4], r[5]);
        let t6 = _mm256_unpacklo_epi32(r[6], r[7]);
        let t7 = _mm256_unpackhi_epi32(r[6], r[7]);
        // columns i (low 128 bits) and i + 4 (high), rows 0-3 / 4-7
        let u0 = _mm256_unpacklo_epi64(t0, t2);
        let u1 = _mm256_unpackhi_epi64(t0, t2);
        let u2 = _mm256_unpacklo_epi64(t1, t3);
        let u3 = _mm256_unpackhi_epi64(t1, t3);
        let u4 = _mm256_unpacklo_epi64(t4, t6);
        let u5 = _mm256_unpackhi_epi64(t4, t6);
        let u6 = _mm256_unpacklo_epi64(t5, t7);
        let u7 = _mm256_unpackhi_epi64(t5, t7);
        [
            _mm256_permute2x128_si256::<0x20>(u0, u4),
            _mm256_permute2x128_si256::<0x20>(u1, u5),
            _mm256_permute2x128_si256::<0x20>(u2, u6),
            _mm256_permute2x128_si256::<0x20>(u3, u7),
            _mm256_permute2x128_si256::<0x31>(u0, u4),
            _mm256_permute2x128_si256::<0x31>(u1, u5),
            _mm256_permute2x128_si256::<0x31>(u2, u6),
            _mm256_permute2x128_si256::<0x31>(u3, u7),
        ]
    }

    /// 4×4 transpose of 64-bit words.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn transpose4x64(r: [__m256i; 4]) -> [__m256i; 4] {
        let t0 = _mm256_unpacklo_epi64(r[0], r[1]);
        let t1 = _mm256_unpackhi_epi64(r[0], r[1]);
        let t2 = _mm256_unpacklo_epi64(r[2], r[3]);
        let t3 = _mm256_unpackhi_epi64(r[2], r[3]);
        [
            _mm256_permute2x128_si256::<0x20>(t0, t2),
            _mm256_permute2x128_si256::<0x20>(t1, t3),
            _mm256_permute2x128_si256::<0x31>(t0, t2),
            _mm256_permute2x128_si256::<0x31>(t1, t3),
        ]
    }

    /// 32 bytes at `p[32 * i..]`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load<const N: usize>(p: &[u8; N], i: usize) -> __m256i {
        assert!(32 * i + 32 <= N);
        // SAFETY: bytes 32i..32i+32 of `p` are in bounds (checked above;
        // every call has constant `i`, so the check folds away); unaligned
        // load.
        unsafe { _mm256_loadu_si256(p.as_ptr().add(32 * i).cast()) }
    }

    /// The eight SHA-256 states, transposed: word i of lane j in lane j of
    /// `out[i]`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load_states256(s: &[[u32; 8]; 8]) -> [__m256i; 8] {
        let r = core::array::from_fn(|j| {
            let p = s[j].as_ptr();
            // SAFETY: each state is 32 readable bytes; unaligned load.
            unsafe { _mm256_loadu_si256(p.cast()) }
        });
        transpose8x32(r)
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn store_states256(s: &mut [[u32; 8]; 8], v: [__m256i; 8]) {
        let r = transpose8x32(v);
        for (sj, rj) in s.iter_mut().zip(r) {
            // SAFETY: each state is 32 bytes; unaligned store.
            unsafe { _mm256_storeu_si256(sj.as_mut_ptr().cast(), rj) };
        }
    }

    /// The message words of the eight blocks, transposed and converted
    /// from big endian.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load_blocks256(b: [&[u8; 64]; 8]) -> [__m256i; 16] {
        let bswap = _mm256_setr_epi8(
            3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, //
            3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
        );
        let lo = transpose8x32(core::array::from_fn(|j| load(b[j], 0)));
        let hi = transpose8x32(core::array::from_fn(|j| load(b[j], 1)));
        core::array::from_fn(|i| _mm256_shuffle_epi8(if i < 8 { lo[i] } else { hi[i - 8] }, bswap))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn load_states512(s: &[[u64; 8]; 4]) -> [__m256i; 8] {
        let r = |h: usize| -> [__m256i; 4] {
            core::array::from_fn(|j| {
                let p = s[j][4 * h..4 * h + 4].as_ptr();
                // SAFETY: `p` points to four readable words (the slice
                // above); unaligned load.
                unsafe { _mm256_loadu_si256(p.cast()) }
            })
        };
        let lo = transpose4x64(r(0));
        let hi = transpose4x64(r(1));
        [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]]
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn store_states512(s: &mut [[u64; 8]; 4], v: [__m256i; 8]) {
        let lo = transpose4x64([v[0], v[1], v[2], v[3]]);
        let hi = transpose4x64([v[4], v[5], v[6], v[7]]);
        for (j, sj) in s.iter_mut().enumerate() {
            // SAFETY: each state is 64 bytes: two unaligned 32-byte stores.
            unsafe {
                _mm256_storeu_si256(sj.as_mut_ptr().cast(), lo[j]);
                _mm256_storeu_si256(sj.as_mut_ptr().add(4).cast(), hi[j]);
            }
        }
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn load_blocks512(b: [&[u8; 128]; 4]) -> [__m256i; 16] {
        let bswap = _mm256_setr_epi8(
            7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, //
            7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
        );
        let q: [[__m256i; 4]; 4] =
            core::array::from_fn(|h| transpose4x64(core::array::from_fn(|j| load(b[j], h))));
        core::array::from_fn(|i| _mm256_shuffle_epi8(q[i / 4][i % 4], bswap))
    }

    // ------------------------------------------------- the lane operations

    /// SHA-256 on eight 32-bit lanes, AVX2: rotations as two shifts and an
    /// or.
    mod ops256_avx2 {
        use core::arch::x86_64::{
            __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_or_si256, _mm256_set1_epi32,
            _mm256_slli_epi32, _mm256_srli_epi32, _mm256_xor_si256,
        };

        macro_rules! rotr {
            ($x:expr, $n:literal) => {
                _mm256_or_si256(
                    _mm256_srli_epi32::<$n>($x),
                    _mm256_slli_epi32::<{ 32 - $n }>($x),
                )
            };
        }

        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn add(x: __m256i, y: __m256i) -> __m256i {
            _mm256_add_epi32(x, y)
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn splat(k: u32) -> __m256i {
            _mm256_set1_epi32(k.cast_signed())
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        fn xor3(x: __m256i, y: __m256i, z: __m256i) -> __m256i {
            _mm256_xor_si256(_mm256_xor_si256(x, y), z)
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn big0(x: __m256i) -> __m256i {
            xor3(rotr!(x, 2), rotr!(x, 13), rotr!(x, 22))
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn big1(x: __m256i) -> __m256i {
            xor3(rotr!(x, 6), rotr!(x, 11), rotr!(x, 25))
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn small0(x: __m256i) -> __m256i {
            xor3(rotr!(x, 7), rotr!(x, 18), _mm256_srli_epi32::<3>(x))
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn small1(x: __m256i) -> __m256i {
            xor3(rotr!(x, 17), rotr!(x, 19), _mm256_srli_epi32::<10>(x))
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn ch(e: __m256i, f: __m256i, g: __m256i) -> __m256i {
            _mm256_xor_si256(g, _mm256_and_si256(e, _mm256_xor_si256(f, g)))
        }
        /// b ^ c before the first round.
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn maj_init(b: __m256i, c: __m256i) -> __m256i {
            _mm256_xor_si256(b, c)
        }
        /// Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)), with b ^ c carried in
        /// `bc` from the previous round (whose a ^ b it is, the roles
        /// having moved on by one); leaves a ^ b there for the next.
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn maj(a: __m256i, b: __m256i, _c: __m256i, bc: &mut __m256i) -> __m256i {
            let ab = _mm256_xor_si256(a, b);
            let m = _mm256_xor_si256(b, _mm256_and_si256(ab, *bc));
            *bc = ab;
            m
        }
    }

    /// SHA-256 on eight 32-bit lanes, AVX-512VL: `vprord` rotations,
    /// `vpternlogd` for Ch, Maj and the three-way xors.
    mod ops256_avx512 {
        use core::arch::x86_64::{
            __m256i, _mm256_add_epi32, _mm256_ror_epi32, _mm256_set1_epi32, _mm256_srli_epi32,
            _mm256_ternarylogic_epi32,
        };

        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn add(x: __m256i, y: __m256i) -> __m256i {
            _mm256_add_epi32(x, y)
        }
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn splat(k: u32) -> __m256i {
            _mm256_set1_epi32(k.cast_signed())
        }
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        fn xor3(x: __m256i, y: __m256i, z: __m256i) -> __m256i {
            _mm256_ternarylogic_epi32::<0x96>(x, y, z)
        }
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn big0(x: __m256i) -> __m256i {
            xor3(
                _mm256_ror_epi32::<2>(x),
                _mm256_ror_epi32::<13>(x),
                _mm256_ror_epi32::<22>(x),
            )
        }
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn big1(x: __m256i) -> __m256i {
            xor3(
                _mm256_ror_epi32::<6>(x),
                _mm256_ror_epi32::<11>(x),
                _mm256_ror_epi32::<25>(x),
            )
        }
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn small0(x: __m256i) -> __m256i {
            xor3(
                _mm256_ror_epi32::<7>(x),
                _mm256_ror_epi32::<18>(x),
                _mm256_srli_epi32::<3>(x),
            )
        }
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn small1(x: __m256i) -> __m256i {
            xor3(
                _mm256_ror_epi32::<17>(x),
                _mm256_ror_epi32::<19>(x),
                _mm256_srli_epi32::<10>(x),
            )
        }
        /// Ch(e, f, g) = e ? f : g (truth table 0xCA).
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn ch(e: __m256i, f: __m256i, g: __m256i) -> __m256i {
            _mm256_ternarylogic_epi32::<0xCA>(e, f, g)
        }
        /// Nothing to carry (Maj is one instruction).
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn maj_init(b: __m256i, _c: __m256i) -> __m256i {
            b
        }
        /// Maj(a, b, c) (truth table 0xE8).
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn maj(a: __m256i, b: __m256i, c: __m256i, _bc: &mut __m256i) -> __m256i {
            _mm256_ternarylogic_epi32::<0xE8>(a, b, c)
        }
    }

    /// SHA-512 on four 64-bit lanes, AVX2.
    mod ops512_avx2 {
        use core::arch::x86_64::{
            __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_or_si256, _mm256_set1_epi64x,
            _mm256_slli_epi64, _mm256_srli_epi64, _mm256_xor_si256,
        };

        macro_rules! rotr {
            ($x:expr, $n:literal) => {
                _mm256_or_si256(
                    _mm256_srli_epi64::<$n>($x),
                    _mm256_slli_epi64::<{ 64 - $n }>($x),
                )
            };
        }

        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn add(x: __m256i, y: __m256i) -> __m256i {
            _mm256_add_epi64(x, y)
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn splat(k: u64) -> __m256i {
            _mm256_set1_epi64x(k.cast_signed())
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        fn xor3(x: __m256i, y: __m256i, z: __m256i) -> __m256i {
            _mm256_xor_si256(_mm256_xor_si256(x, y), z)
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn big0(x: __m256i) -> __m256i {
            xor3(rotr!(x, 28), rotr!(x, 34), rotr!(x, 39))
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn big1(x: __m256i) -> __m256i {
            xor3(rotr!(x, 14), rotr!(x, 18), rotr!(x, 41))
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn small0(x: __m256i) -> __m256i {
            xor3(rotr!(x, 1), rotr!(x, 8), _mm256_srli_epi64::<7>(x))
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn small1(x: __m256i) -> __m256i {
            xor3(rotr!(x, 19), rotr!(x, 61), _mm256_srli_epi64::<6>(x))
        }
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn ch(e: __m256i, f: __m256i, g: __m256i) -> __m256i {
            _mm256_xor_si256(g, _mm256_and_si256(e, _mm256_xor_si256(f, g)))
        }
        /// b ^ c before the first round.
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn maj_init(b: __m256i, c: __m256i) -> __m256i {
            _mm256_xor_si256(b, c)
        }
        /// Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)), with b ^ c carried in
        /// `bc` from the previous round (whose a ^ b it is, the roles
        /// having moved on by one); leaves a ^ b there for the next.
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(super) fn maj(a: __m256i, b: __m256i, _c: __m256i, bc: &mut __m256i) -> __m256i {
            let ab = _mm256_xor_si256(a, b);
            let m = _mm256_xor_si256(b, _mm256_and_si256(ab, *bc));
            *bc = ab;
            m
        }
    }

    /// SHA-512 on four 64-bit lanes, AVX-512VL (`vprorq`, `vpternlogq`).
    mod ops512_avx512 {
        use core::arch::x86_64::{
            __m256i, _mm256_add_epi64, _mm256_ror_epi64, _mm256_set1_epi64x, _mm256_srli_epi64,
            _mm256_ternarylogic_epi64,
        };

        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn add(x: __m256i, y: __m256i) -> __m256i {
            _mm256_add_epi64(x, y)
        }
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn splat(k: u64) -> __m256i {
            _mm256_set1_epi64x(k.cast_signed())
        }
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        fn xor3(x: __m256i, y: __m256i, z: __m256i) -> __m256i {
            _mm256_ternarylogic_epi64::<0x96>(x, y, z)
        }
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn big0(x: __m256i) -> __m256i {
            xor3(
                _mm256_ror_epi64::<28>(x),
                _mm256_ror_epi64::<34>(x),
                _mm256_ror_epi64::<39>(x),
            )
        }
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn big1(x: __m256i) -> __m256i {
            xor3(
                _mm256_ror_epi64::<14>(x),
                _mm256_ror_epi64::<18>(x),
                _mm256_ror_epi64::<41>(x),
            )
        }
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn small0(x: __m256i) -> __m256i {
            xor3(
                _mm256_ror_epi64::<1>(x),
                _mm256_ror_epi64::<8>(x),
                _mm256_srli_epi64::<7>(x),
            )
        }
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn small1(x: __m256i) -> __m256i {
            xor3(
                _mm256_ror_epi64::<19>(x),
                _mm256_ror_epi64::<61>(x),
                _mm256_srli_epi64::<6>(x),
            )
        }
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn ch(e: __m256i, f: __m256i, g: __m256i) -> __m256i {
            _mm256_ternarylogic_epi64::<0xCA>(e, f, g)
        }
        /// Nothing to carry (Maj is one instruction).
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn maj_init(b: __m256i, _c: __m256i) -> __m256i {
            b
        }
        /// Maj(a, b, c) (truth table 0xE8).
        #[inline]
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        pub(super) fn maj(a: __m256i, b: __m256i, c: __m256i, _bc: &mut __m256i) -> __m256i {
            _mm256_ternarylogic_epi64::<0xE8>(a, b, c)
        }
    }

    // ------------------------------------------------------ compressions

    #[target_feature(enable = "avx2")]
    fn x8_avx2(s: &mut [[u32; 8]; 8], b: [&[u8; 64]; 8]) {
        use ops256_avx2::{add, big0, big1, ch, maj, maj_init, small0, small1, splat};
        let st = load_states256(s);
        let mut w = load_blocks256(b);
        let out: [__m256i; 8] = vcompress!(st, w, K256);
        store_states256(s, out);
    }

    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    fn x8_avx512(s: &mut [[u32; 8]; 8], b: [&[u8; 64]; 8]) {
        use ops256_avx512::{add, big0, big1, ch, maj, maj_init, small0, small1, splat};
        let st = load_states256(s);
        let mut w = load_blocks256(b);
        let out: [__m256i; 8] = vcompress!(st, w, K256);
        store_states256(s, out);
    }

    #[target_feature(enable = "avx2")]
    fn x4_avx2(s: &mut [[u64; 8]; 4], b: [&[u8; 128]; 4]) {
        use ops512_avx2::{add, big0, big1, ch, maj, maj_init, small0, small1, splat};
        let st = load_states512(s);
        let mut w = load_blocks512(b);
        let out: [__m256i; 8] = vcompress!(st, w, K512);
        store_states512(s, out);
    }

    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    fn x4_avx512(s: &mut [[u64; 8]; 4], b: [&[u8; 128]; 4]) {
        use ops512_avx512::{add, big0, big1, ch, maj, maj_init, small0, small1, splat};
        let st = load_states512(s);
        let mut w = load_blocks512(b);
        let out: [__m256i; 8] = vcompress!(st, w, K512);
        store_states512(s, out);
    }

    // ------------------------------------------------------------ SHA-NI

    /// Four rounds with the SHA extensions: `m` holds W\[t..t+4\], `k`
    /// K\[t..t+4\]; `abef` and `cdgh` are the working variables in the
    /// instruction's layout.
    #[inline]
    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    fn rounds4(abef: &mut __m128i, cdgh: &mut __m128i, m: __m128i, k: &[u32]) {
        let kw = _mm_add_epi32(
            m,
            _mm_setr_epi32(
                k[0].cast_signed(),
                k[1].cast_signed(),
                k[2].cast_signed(),
                k[3].cast_signed(),
            ),
        );
        *cdgh = _mm_sha256rnds2_epu32(*cdgh, *abef, kw);
        // the upper two K + W words become the lower two
        *abef = _mm_sha256rnds2_epu32(*abef, *cdgh, _mm_shuffle_epi32::<0x0E>(kw));
    }

    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    fn sha_ni(s: &mut [u32; 8], b: &[u8; 64]) {
        sha_ni_lanes(core::array::from_mut(s), [b]);
    }

    /// `N` compressions with the SHA extensions, interleaved instruction by
    /// instruction: one compression is a chain of 32 dependent
    /// `sha256rnds2`, so independent ones fill the gaps of its latency.
    #[inline]
    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    fn sha_ni_lanes<const N: usize>(s: &mut [[u32; 8]; N], b: [&[u8; 64]; N]) {
        let mut abef0 = [_mm_setzero_si128(); N];
        let mut cdgh0 = [_mm_setzero_si128(); N];
        for j in 0..N {
            let (lo, hi) = s[j].split_at(4);
            // SAFETY: `lo` and `hi` are four readable words each; unaligned
            // loads.
            let (dcba, hgfe) = unsafe {
                (
                    _mm_loadu_si128(lo.as_ptr().cast()),
                    _mm_loadu_si128(hi.as_ptr().cast()),
                )
            };
            // lanes listed from the highest: the instructions want ABEF, CDGH
            let cdab = _mm_shuffle_epi32::<0xB1>(dcba);
            let efgh = _mm_shuffle_epi32::<0x1B>(hgfe);
            abef0[j] = _mm_alignr_epi8::<8>(cdab, efgh);
            cdgh0[j] = _mm_blend_epi16::<0xF0>(efgh, cdab);
        }
        let (mut abef, mut cdgh) = (abef0, cdgh0);

        let bswap = _mm_set_epi64x(0x0c0d0e0f_08090a0b, 0x04050607_00010203);
        let mut m: [[__m128i; 4]; N] = core::array::from_fn(|j| {
            core::array::from_fn(|i| {
                let p = b[j][16 * i..16 * i + 16].as_ptr();
                // SAFETY: `p` points to 16 readable bytes (the slice
                // above); unaligned load.
                _mm_shuffle_epi8(unsafe { _mm_loadu_si128(p.cast()) }, bswap)
            })
        });
        for i in 0..4 {
            for j in 0..N {
                rounds4(&mut abef[j], &mut cdgh[j], m[j][i], &K256[4 * i..4 * i + 4]);
            }
        }
        // rounds 16..64: W[t..t+4] from the four previous groups, in place
        // over W[t-16..t-12] (group g lives in m[_][g % 4])
        for g in 4..16 {
            for j in 0..N {
                let mj = &mut m[j];
                let (w16, w12, w8, w4) =
                    (mj[g % 4], mj[(g + 1) % 4], mj[(g + 2) % 4], mj[(g + 3) % 4]);
                let x = _mm_add_epi32(_mm_sha256msg1_epu32(w16, w12), _mm_alignr_epi8::<4>(w4, w8));
                let new = _mm_sha256msg2_epu32(x, w4);
                mj[g % 4] = new;
                rounds4(&mut abef[j], &mut cdgh[j], new, &K256[4 * g..4 * g + 4]);
            }
        }
        for j in 0..N {
            let abef = _mm_add_epi32(abef[j], abef0[j]);
            let cdgh = _mm_add_epi32(cdgh[j], cdgh0[j]);
            let feba = _mm_shuffle_epi32::<0x1B>(abef);
            let dchg = _mm_shuffle_epi32::<0xB1>(cdgh);
            let dcba = _mm_blend_epi16::<0xF0>(feba, dchg);
            let hgfe = _mm_alignr_epi8::<8>(dchg, feba);
            let (lo, hi) = s[j].split_at_mut(4);
            // SAFETY: `lo` and `hi` are four writable words each;
            // unaligned stores.
            unsafe {
                _mm_storeu_si128(lo.as_mut_ptr().cast(), dcba);
                _mm_storeu_si128(hi.as_mut_ptr().cast(), hgfe);
            }
        }
    }

    /// Eight SHA-256 compressions with the SHA extensions, `P` at a time.
    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    fn x8_sha_ni<const P: usize>(s: &mut [[u32; 8]; 8], b: [&[u8; 64]; 8]) {
        for (sc, bc) in s
            .as_chunks_mut::<P>()
            .0
            .iter_mut()
            .zip(b.as_chunks::<P>().0)
        {
            sha_ni_lanes(sc, *bc);
        }
    }

    #[cfg(test)]
    pub(super) fn compress256_x8_sha_ni2(s: &mut [[u32; 8]; 8], b: [&[u8; 64]; 8]) {
        debug_assert!(crate::cpu::sha_ni());
        // SAFETY: every caller checked `cpu::sha_ni()` first.
        unsafe { x8_sha_ni::<2>(s, b) }
    }

    pub(super) fn compress256_x8_sha_ni4(s: &mut [[u32; 8]; 8], b: [&[u8; 64]; 8]) {
        debug_assert!(crate::cpu::sha_ni());
        // SAFETY: every caller checked `cpu::sha_ni()` first.
        unsafe { x8_sha_ni::<4>(s, b) }
    }

    #[cfg(test)]
    pub(super) fn compress256_x8_sha_ni8(s: &mut [[u32; 8]; 8], b: [&[u8; 64]; 8]) {
        debug_assert!(crate::cpu::sha_ni());
        // SAFETY: every caller checked `cpu::sha_ni()` first.
        unsafe { x8_sha_ni::<8>(s, b) }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::*;
    use crate::sha2::{IV256, IV512, compress512, sha256, sha512};

    /// splitmix64.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e3779b97f4a7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
            z ^ (z >> 31)
        }
        fn bytes<const N: usize>(&mut self) -> [u8; N] {
            core::array::from_fn(|_| self.next() as u8)
        }
    }

    type F256 = fn(&mut [[u32; 8]; 8], [&[u8; 64]; 8]);
    type F512 = fn(&mut [[u64; 8]; 4], [&[u8; 128]; 4]);
    type F1 = fn(&mut [u32; 8], &[u8; 64]);

    /// Every eight-lane SHA-256 implementation this machine can run.
    fn variants256() -> Vec<(&'static str, F256)> {
        // `mut` is unused in portable builds
        #[allow(unused_mut)]
        let mut v: Vec<(&'static str, F256)> = std::vec![
            ("dispatch", compress256_x8),
            ("portable", compress256_x8_portable)
        ];
        #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
        {
            use super::x86 as x;
            if crate::cpu::avx2() {
                v.push(("avx2", x::compress256_x8_avx2));
            }
            if crate::cpu::avx512vl() && crate::cpu::avx512f() && crate::cpu::avx2() {
                v.push(("avx512", x::compress256_x8_avx512));
            }
            if crate::cpu::sha_ni() {
                v.push(("sha-ni 2 interleaved", x::compress256_x8_sha_ni2));
                v.push(("sha-ni 4 interleaved", x::compress256_x8_sha_ni4));
                v.push(("sha-ni 8 interleaved", x::compress256_x8_sha_ni8));
            }
        }
        v
    }

    fn variants512() -> Vec<(&'static str, F512)> {
        // `mut` is unused in portable builds
        #[allow(unused_mut)]
        let mut v: Vec<(&'static str, F512)> = std::vec![
            ("dispatch", compress512_x4),
            ("portable", compress512_x4_portable)
        ];
        #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
        {
            use super::x86 as x;
            if crate::cpu::avx2() {
                v.push(("avx2", x::compress512_x4_avx2));
            }
            if crate::cpu::avx512vl() && crate::cpu::avx512f() && crate::cpu::avx2() {
                v.push(("avx512", x::compress512_x4_avx512));
            }
        }
        v
    }

    fn variants1() -> Vec<(&'static str, F1)> {
        // `mut` is unused in portable builds
        #[allow(unused_mut)]
        let mut v: Vec<(&'static str, F1)> = std::vec![("dispatch", crate::sha2::compress256)];
        #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
        if crate::cpu::sha_ni() {
            v.push(("sha-ni", super::x86::compress256_sha_ni));
        }
        v
    }

    fn hex<const N: usize>(s: &str) -> [u8; N] {
        assert_eq!(s.len(), 2 * N);
        core::array::from_fn(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
    }

    /// The one padded block of a message shorter than `B - L` bytes
    /// (`L` = length field size).
    fn pad<const B: usize, const L: usize>(msg: &[u8]) -> [u8; B] {
        let mut b = [0u8; B];
        b[..msg.len()].copy_from_slice(msg);
        b[msg.len()] = 0x80;
        let bits = (msg.len() as u128 * 8).to_be_bytes();
        b[B - L..].copy_from_slice(&bits[16 - L..]);
        b
    }

    const ABC256: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    const EMPTY256: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    const ABC512: &str = "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
                          2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f";
    const EMPTY512: &str = "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce\
                            47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e";

    fn digest256(s: &[u32; 8]) -> [u8; 32] {
        let mut d = [0u8; 32];
        for (c, w) in d.chunks_exact_mut(4).zip(s) {
            c.copy_from_slice(&w.to_be_bytes());
        }
        d
    }

    fn digest512(s: &[u64; 8]) -> [u8; 64] {
        let mut d = [0u8; 64];
        for (c, w) in d.chunks_exact_mut(8).zip(s) {
            c.copy_from_slice(&w.to_be_bytes());
        }
        d
    }

    #[test]
    fn known_digests_256() {
        let msgs: [&[u8]; 2] = [b"abc", b""];
        let want = [hex::<32>(ABC256), hex::<32>(EMPTY256)];
        assert_eq!(sha256(b"abc"), want[0]);
        assert_eq!(sha256(b""), want[1]);
        // lanes alternate between the two messages
        let blocks = [pad::<64, 8>(msgs[0]), pad::<64, 8>(msgs[1])];
        for (name, f) in variants256() {
            let mut st = [IV256; 8];
            f(&mut st, core::array::from_fn(|j| &blocks[j % 2]));
            for (j, s) in st.iter().enumerate() {
                assert_eq!(digest256(s), want[j % 2], "{name} lane {j}");
            }
        }
        for (name, f) in variants1() {
            for (b, w) in blocks.iter().zip(&want) {
                let mut st = IV256;
                f(&mut st, b);
                assert_eq!(digest256(&st), *w, "{name}");
            }
        }
    }

    #[test]
    fn known_digests_512() {
        let msgs: [&[u8]; 2] = [b"abc", b""];
        let want = [hex::<64>(ABC512), hex::<64>(EMPTY512)];
        assert_eq!(sha512(b"abc"), want[0]);
        assert_eq!(sha512(b""), want[1]);
        let blocks = [pad::<128, 16>(msgs[0]), pad::<128, 16>(msgs[1])];
        for (name, f) in variants512() {
            for shift in 0..2 {
                let mut st = [IV512; 4];
                f(&mut st, core::array::from_fn(|j| &blocks[(j + shift) % 2]));
                for (j, s) in st.iter().enumerate() {
                    assert_eq!(digest512(s), want[(j + shift) % 2], "{name} lane {j}");
                }
            }
        }
    }

    #[test]
    fn x8_matches_scalar() {
        let mut rng = Rng(1);
        let variants = variants256();
        for _ in 0..if cfg!(miri) { 10 } else { 2000 } {
            let st: [[u32; 8]; 8] =
                core::array::from_fn(|_| core::array::from_fn(|_| rng.next() as u32));
            let blocks: [[u8; 64]; 8] = core::array::from_fn(|_| rng.bytes());
            let mut want = st;
            for (s, b) in want.iter_mut().zip(&blocks) {
                compress256_portable(s, b);
            }
            for (name, f) in &variants {
                let mut got = st;
                f(&mut got, core::array::from_fn(|j| &blocks[j]));
                assert_eq!(got, want, "{name}");
            }
        }
    }

    #[test]
    fn x4_matches_scalar() {
        let mut rng = Rng(2);
        let variants = variants512();
        for _ in 0..if cfg!(miri) { 10 } else { 2000 } {
            let st: [[u64; 8]; 4] = core::array::from_fn(|_| core::array::from_fn(|_| rng.next()));
            let blocks: [[u8; 128]; 4] = core::array::from_fn(|_| rng.bytes());
            let mut want = st;
            for (s, b) in want.iter_mut().zip(&blocks) {
                compress512(s, b);
            }
            for (name, f) in &variants {
                let mut got = st;
                f(&mut got, core::array::from_fn(|j| &blocks[j]));
                assert_eq!(got, want, "{name}");
            }
        }
    }

    #[test]
    fn single_matches_scalar() {
        let mut rng = Rng(3);
        let variants = variants1();
        for _ in 0..if cfg!(miri) { 20 } else { 5000 } {
            let st: [u32; 8] = core::array::from_fn(|_| rng.next() as u32);
            let block: [u8; 64] = rng.bytes();
            let mut want = st;
            compress256_portable(&mut want, &block);
            for (name, f) in &variants {
                let mut got = st;
                f(&mut got, &block);
                assert_eq!(got, want, "{name}");
            }
        }
    }

    /// ns per compression (per lane for the multi-lane variants):
    /// `cargo test --release -p pqforge-core --lib sha2_multi::tests::timing -- --ignored --nocapture`
    #[test]
    #[ignore = "timing; run by hand in release"]
    fn timing() {
        use std::hint::black_box;
        use std::time::Instant;
        const N: u32 = 200_000;
        let blocks256: [[u8; 64]; 8] = core::array::from_fn(|i| [i as u8; 64]);
        let blocks512: [[u8; 128]; 4] = core::array::from_fn(|i| [i as u8; 128]);
        // best of 7 batches (the machine may be shared)
        let report = |name: &str, per_call: u32, f: &mut dyn FnMut()| {
            for _ in 0..N / 10 {
                f();
            }
            let mut best = f64::INFINITY;
            for _ in 0..7 {
                let t = Instant::now();
                for _ in 0..N / 4 {
                    f();
                }
                let ns = t.elapsed().as_nanos() as f64 / f64::from(N / 4) / f64::from(per_call);
                best = best.min(ns);
            }
            std::println!("{name:<32} {best:8.1} ns per compression");
        };
        let mut s1 = IV256;
        report("sha256 portable", 1, &mut || {
            compress256_portable(black_box(&mut s1), black_box(&blocks256[0]));
        });
        for (name, f) in variants1() {
            let mut s = IV256;
            report(&std::format!("sha256 single {name}"), 1, &mut || {
                f(black_box(&mut s), black_box(&blocks256[0]));
            });
        }
        for (name, f) in variants256() {
            let mut s = [IV256; 8];
            report(&std::format!("sha256 x8 {name}"), 8, &mut || {
                f(
                    black_box(&mut s),
                    core::array::from_fn(|j| black_box(&blocks256[j])),
                );
            });
        }
        for (name, f) in variants512() {
            let mut s = [IV512; 4];
            report(&std::format!("sha512 x4 {name}"), 4, &mut || {
                f(
                    black_box(&mut s),
                    core::array::from_fn(|j| black_box(&blocks512[j])),
                );
            });
        }
    }
}
