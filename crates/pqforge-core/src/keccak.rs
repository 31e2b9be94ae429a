//! Keccak-f\[1600\] and the FIPS 202 sponges: SHA3-256, SHA3-512,
//! SHAKE128 and SHAKE256.
//!
//! Portable, constant-time (no data-dependent branches or indices), no heap.
//! Sponges are incremental: [`Sponge::absorb`] any number of times, then
//! [`Sponge::squeeze`] any number of times.
//!
//! ```
//! use pqforge_core::keccak::{Shake256, shake256};
//! let mut x = Shake256::new();
//! x.absorb(b"ab");
//! x.absorb(b"c");
//! let mut a = [0u8; 40];
//! x.squeeze(&mut a[..7]);
//! x.squeeze(&mut a[7..]);
//! let mut b = [0u8; 40];
//! shake256(b"abc", &mut b);
//! assert_eq!(a, b);
//! ```

use zeroize::Zeroize;

/// Round constants of Keccak-f\[1600\] (iota step).
pub(crate) const RC: [u64; 24] = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808a,
    0x8000000080008000,
    0x000000000000808b,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008a,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000a,
    0x000000008000808b,
    0x800000000000008b,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800a,
    0x800000008000000a,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
];

/// Rotation offsets and lane order of the combined rho+pi step, walking the
/// pi cycle that starts at lane 1.
const RHO: [u32; 24] = [
    1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44,
];
const PI: [usize; 24] = [
    10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1,
];

/// The Keccak-f\[1600\] permutation (24 rounds), lanes in FIPS 202 order
/// `a[x + 5y]`. On 32-bit targets this runs the bit-interleaved
/// [`keccak_f1600_32`] (converting the lanes in and out); elsewhere the
/// fully unrolled 64-bit round code of
/// [`crate::keccak_x4::keccak_f1600_unrolled`] (about 1.2x faster on
/// x86_64 than the compact [`keccak_f1600_64`], which stays as the
/// readable reference the tests compare against).
#[inline]
pub fn keccak_f1600(a: &mut [u64; 25]) {
    #[cfg(target_pointer_width = "32")]
    keccak_f1600_32(a);
    #[cfg(not(target_pointer_width = "32"))]
    crate::keccak_x4::keccak_f1600_unrolled(a);
}

/// Keccak-f\[1600\] on 64-bit lanes (the implementation 64-bit targets use).
pub fn keccak_f1600_64(a: &mut [u64; 25]) {
    for rc in RC {
        // theta
        let mut c = [0u64; 5];
        for x in 0..5 {
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        }
        for x in 0..5 {
            let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
            for y in 0..5 {
                a[x + 5 * y] ^= d;
            }
        }
        // rho and pi
        let mut last = a[1];
        for i in 0..24 {
            let j = PI[i];
            let t = a[j];
            a[j] = last.rotate_left(RHO[i]);
            last = t;
        }
        // chi
        for y in 0..5 {
            let row = [
                a[5 * y],
                a[5 * y + 1],
                a[5 * y + 2],
                a[5 * y + 3],
                a[5 * y + 4],
            ];
            for x in 0..5 {
                a[5 * y + x] = row[x] ^ (!row[(x + 1) % 5] & row[(x + 2) % 5]);
            }
        }
        // iota
        a[0] ^= rc;
    }
}

// ------------------------------------------------- 32-bit (bit-interleaved)

/// Splits a 64-bit lane into its even bits (low word) and odd bits (high
/// word): the bit-interleaved form, in which a 64-bit rotation is two
/// 32-bit rotations.
#[inline(always)]
#[must_use]
pub const fn interleave(x: u64) -> u64 {
    let lo = unshuffle32(x as u32);
    let hi = unshuffle32((x >> 32) as u32);
    let even = (lo & 0xFFFF) | (hi << 16);
    let odd = (lo >> 16) | (hi & 0xFFFF_0000);
    ((odd as u64) << 32) | even as u64
}

/// Inverse of [`interleave`].
#[inline(always)]
#[must_use]
pub const fn deinterleave(x: u64) -> u64 {
    let even = x as u32;
    let odd = (x >> 32) as u32;
    let lo = shuffle32((even & 0xFFFF) | (odd << 16));
    let hi = shuffle32((even >> 16) | (odd & 0xFFFF_0000));
    ((hi as u64) << 32) | lo as u64
}

/// Moves the even bits of `x` to the low half and the odd bits to the high
/// half (four delta swaps).
#[inline(always)]
const fn unshuffle32(mut x: u32) -> u32 {
    let mut t = (x ^ (x >> 1)) & 0x2222_2222;
    x ^= t ^ (t << 1);
    t = (x ^ (x >> 2)) & 0x0C0C_0C0C;
    x ^= t ^ (t << 2);
    t = (x ^ (x >> 4)) & 0x00F0_00F0;
    x ^= t ^ (t << 4);
    t = (x ^ (x >> 8)) & 0x0000_FF00;
    x ^= t ^ (t << 8);
    x
}

/// Inverse of [`unshuffle32`].
#[inline(always)]
const fn shuffle32(mut x: u32) -> u32 {
    let mut t = (x ^ (x >> 8)) & 0x0000_FF00;
    x ^= t ^ (t << 8);
    t = (x ^ (x >> 4)) & 0x00F0_00F0;
    x ^= t ^ (t << 4);
    t = (x ^ (x >> 2)) & 0x0C0C_0C0C;
    x ^= t ^ (t << 2);
    t = (x ^ (x >> 1)) & 0x2222_2222;
    x ^= t ^ (t << 1);
    x
}

/// The round constants in bit-interleaved form (even word, odd word).
const RC32: [(u32, u32); 24] = {
    let mut r = [(0u32, 0u32); 24];
    let mut i = 0;
    while i < 24 {
        let x = interleave(RC[i]);
        r[i] = (x as u32, (x >> 32) as u32);
        i += 1;
    }
    r
};

/// The rho+pi+chi rows of one round: output row `5 y` takes, in order, lane
/// `i` (after adding theta's `d[x]`) rotated by `r`, as `(i, x, r)`.
const ROWS: [[(usize, usize, u32); 5]; 5] = [
    [(0, 0, 0), (6, 1, 44), (12, 2, 43), (18, 3, 21), (24, 4, 14)],
    [(3, 3, 28), (9, 4, 20), (10, 0, 3), (16, 1, 45), (22, 2, 61)],
    [(1, 1, 1), (7, 2, 6), (13, 3, 25), (19, 4, 8), (20, 0, 18)],
    [
        (4, 4, 27),
        (5, 0, 36),
        (11, 1, 10),
        (17, 2, 15),
        (23, 3, 56),
    ],
    [(2, 2, 62), (8, 3, 55), (14, 4, 39), (15, 0, 41), (21, 1, 2)],
];

/// Theta's `(x - 1, x + 1) mod 5`, as a table: no `%` (a `udiv` at
/// opt-level z).
const THETA: [(usize, usize); 5] = [(4, 1), (0, 2), (1, 3), (2, 4), (3, 0)];

/// Where word `h` (0 even, 1 odd) of `rol64(a[i] ^ d[x], r)` comes from, in
/// interleaved words: (state word, theta word, 32-bit rotation). For odd
/// `r` the halves swap.
const fn source(h: usize, (i, x, r): (usize, usize, u32)) -> (usize, usize, u32) {
    if r % 2 == 0 {
        (2 * i + h, 2 * x + h, r / 2)
    } else if h == 0 {
        (2 * i + 1, 2 * x + 1, r / 2 + 1)
    } else {
        (2 * i, 2 * x, r / 2)
    }
}

/// The constants of one round body with lazy rotations. The state words
/// are kept "unrotated": word `w` holds its true value rotated right by
/// `frame[w]` (a compile-time constant per round), so rho's rotations are
/// never materialized: every rotation becomes the shifted second operand
/// of the EOR / BIC that uses the word (free on ARMv7-M). A round's output
/// word is stored in the frame of the operand that `bic` needs unrotated.
/// The frames do not repeat from round to round, so the permutation runs
/// cycles of [`LAZY`] round bodies, the last of which writes true values.
#[derive(Clone, Copy)]
struct Plan {
    /// Rotation of state word `u` into the frame of its column parity
    /// (that of word `u % 10`).
    par: [u32; 50],
    /// Rotation of the second parity term of `d[w]`, and `d[w]`'s frame.
    drot: [u32; 10],
    dframe: [u32; 10],
    /// Per output word: source state word, theta word, rotation of the
    /// theta word into the source's frame.
    src: [usize; 50],
    dsrc: [usize; 10 * 5],
    trot: [u32; 50],
    /// Per output word `b0 ^ (!b1 & b2)`: the rotations applied to the three
    /// terms (rotated sources `t0, t1, t2` of positions j, j+1, j+2).
    r0: [u32; 50],
    r1: [u32; 50],
    r2: [u32; 50],
    /// The output frames (all zero when the body normalizes).
    out: [u32; 50],
}

/// Frames of the input of round body `k` of a lazy cycle.
const fn frames(k: usize) -> [u32; 50] {
    let mut f = [0u32; 50];
    let mut n = 0;
    while n < k {
        f = plan_from(f, false).out;
        n += 1;
    }
    f
}

const fn plan_from(f: [u32; 50], normalize: bool) -> Plan {
    let mut p = Plan {
        par: [0; 50],
        drot: [0; 10],
        dframe: [0; 10],
        src: [0; 50],
        dsrc: [0; 50],
        trot: [0; 50],
        r0: [0; 50],
        r1: [0; 50],
        r2: [0; 50],
        out: [0; 50],
    };
    let mut u = 0;
    while u < 50 {
        p.par[u] = f[u].wrapping_sub(f[u % 10]) % 32;
        u += 1;
    }
    // d[2x] = c[2p] ^ rol(c[2n + 1], 1); d[2x + 1] = c[2p + 1] ^ c[2n];
    // parity c[w] is in frame f[w].
    let mut x = 0;
    while x < 5 {
        let (pp, nn) = THETA[x];
        p.dframe[2 * x] = f[2 * pp];
        p.drot[2 * x] = (f[2 * nn + 1] + 1).wrapping_sub(f[2 * pp]) % 32;
        p.dframe[2 * x + 1] = f[2 * pp + 1];
        p.drot[2 * x + 1] = f[2 * nn].wrapping_sub(f[2 * pp + 1]) % 32;
        x += 1;
    }
    let mut y = 0;
    while y < 5 {
        let mut h = 0;
        while h < 2 {
            let mut q = [0u32; 5];
            let mut j = 0;
            while j < 5 {
                let (s, dd, rr) = source(h, ROWS[y][j]);
                let w = 2 * (5 * y + j) + h;
                p.src[w] = s;
                p.dsrc[w] = dd;
                p.trot[w] = p.dframe[dd].wrapping_sub(f[s]) % 32;
                q[j] = (f[s] + rr) % 32;
                j += 1;
            }
            j = 0;
            while j < 5 {
                let w = 2 * (5 * y + j) + h;
                let (q0, q1, q2) = (q[j], q[(j + 1) % 5], q[(j + 2) % 5]);
                if normalize {
                    (p.r0[w], p.r1[w], p.r2[w], p.out[w]) = (q0, q1, q2, 0);
                } else {
                    p.r0[w] = q0.wrapping_sub(q2) % 32;
                    p.r1[w] = q1.wrapping_sub(q2) % 32;
                    (p.r2[w], p.out[w]) = (0, q2);
                }
                j += 1;
            }
            h += 1;
        }
        y += 1;
    }
    p
}

/// Round bodies per lazy cycle (see [`Plan`]); divides 24. Four bodies
/// (5.4 KB of code on the Cortex-M4): 3 of every 4 rounds run without
/// materialized rotations.
const LAZY: usize = 4;

/// One round from `a` into `e` on bit-interleaved words (`a[2 i]` = even
/// bits of lane i, `a[2 i + 1]` = odd bits) whose frames are those of body
/// `K` of a lazy cycle (see [`Plan`]): theta, then rho, pi, chi and iota
/// fused row by row. Each output row is computed as two independent
/// halves (even words, odd words): every output word depends on one word
/// of each input lane, so only five words and five theta words are live at
/// a time, which fits the 13 usable registers of ARMv7-M.
/// Not inlined on purpose: with both states in memory LLVM does not turn
/// the 100 state words into loop-carried values (which it then spills and
/// shuffles between stack slots every round).
#[inline(never)]
fn round32<const K: usize>(a: &[u32; 50], e: &mut [u32; 50], rc: (u32, u32)) {
    let p: Plan = const { plan_from(frames(K), K + 1 == LAZY) };
    // Through an opaque reference so that the row code below loads each
    // input word where it uses it, instead of LLVM keeping all 50 alive
    // from the parity computation (and spilling them).
    let c = {
        let a = core::hint::black_box(a);
        macro_rules! par {
            ($($w:literal),*) => {
                [$(a[$w]
                    ^ a[$w + 10].rotate_left(p.par[$w + 10])
                    ^ a[$w + 20].rotate_left(p.par[$w + 20])
                    ^ a[$w + 30].rotate_left(p.par[$w + 30])
                    ^ a[$w + 40].rotate_left(p.par[$w + 40])),*]
            };
        }
        let c: [u32; 10] = par!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        c
    };
    macro_rules! theta {
        ($($x:literal),*) => {
            [$(
                c[2 * THETA[$x].0] ^ c[2 * THETA[$x].1 + 1].rotate_left(p.drot[2 * $x]),
                c[2 * THETA[$x].0 + 1] ^ c[2 * THETA[$x].1].rotate_left(p.drot[2 * $x + 1])
            ),*]
        };
    }
    let d: [u32; 10] = theta!(0, 1, 2, 3, 4);
    macro_rules! row {
        ($($y:literal),*) => {$(
            row!(@half $y, 0);
            row!(@half $y, 1);
        )*};
        (@half $y:literal, $h:literal) => {{
            macro_rules! t {
                ($j:literal) => {{
                    let w = 2 * (5 * $y + $j) + $h;
                    a[p.src[w]] ^ d[p.dsrc[w]].rotate_left(p.trot[w])
                }};
            }
            let t = [t!(0), t!(1), t!(2), t!(3), t!(4)];
            macro_rules! chi {
                ($j:literal) => {{
                    let w = 2 * (5 * $y + $j) + $h;
                    // Iota folded into lane 0 (words 0 and 1).
                    let iota = match w {
                        0 => rc.0.rotate_right(p.out[0]),
                        1 => rc.1.rotate_right(p.out[1]),
                        _ => 0,
                    };
                    e[w] = t[$j].rotate_left(p.r0[w])
                        ^ (!t[($j + 1) % 5].rotate_left(p.r1[w])
                            & t[($j + 2) % 5].rotate_left(p.r2[w]))
                        ^ iota;
                }};
            }
            chi!(0);
            chi!(1);
            chi!(2);
            chi!(3);
            chi!(4);
        }};
    }
    row!(0, 1, 2, 3, 4);
}

/// Keccak-f\[1600\] on 50 bit-interleaved 32-bit words: word `2 i` holds
/// the even bits of lane `i` and word `2 i + 1` its odd bits (the low and
/// high halves of [`interleave`]). The core of the 32-bit permutation, for
/// sponges that keep their state in this form.
pub fn keccak_f1600_words(a: &mut [u32; 50]) {
    // `cycle!` lists the bodies 0..LAZY.
    const { assert!(LAZY == 4) };
    let mut e = [0u32; 50];
    macro_rules! cycle {
        ($($k:literal),*) => {
            let mut i = 0;
            while i < 24 {
                $(
                    if $k % 2 == 0 {
                        round32::<$k>(a, &mut e, RC32[i + $k]);
                    } else {
                        round32::<$k>(&e, a, RC32[i + $k]);
                    }
                )*
                i += LAZY;
            }
        };
    }
    cycle!(0, 1, 2, 3);
}

/// Keccak-f\[1600\] on a state whose lanes are already bit-interleaved
/// (see [`interleave`]).
pub fn keccak_f1600_interleaved(s: &mut [u64; 25]) {
    let mut a: [u32; 50] = core::array::from_fn(|w| (s[w / 2] >> (32 * (w % 2))) as u32);
    keccak_f1600_words(&mut a);
    for (i, w) in s.iter_mut().enumerate() {
        *w = (u64::from(a[2 * i + 1]) << 32) | u64::from(a[2 * i]);
    }
}

/// Keccak-f\[1600\] with 32-bit operations only (bit-interleaved lanes),
/// on standard lanes: the permutation 32-bit targets use. Same result as
/// [`keccak_f1600_64`].
pub fn keccak_f1600_32(a: &mut [u64; 25]) {
    for w in a.iter_mut() {
        *w = interleave(*w);
    }
    keccak_f1600_interleaved(a);
    for w in a.iter_mut() {
        *w = deinterleave(*w);
    }
}

/// Lane access to a Keccak state in the form a [`Sponge`] keeps it: plain
/// 64-bit lanes (`[u64; 25]`), or bit-interleaved 32-bit words
/// (`[u32; 50]`, see [`keccak_f1600_words`]), which 32-bit targets use so
/// that each permutation runs without converting all 25 lanes in and out;
/// only the lanes that bytes go into or come out of are converted.
trait Lanes: Zeroize {
    const ZERO: Self;
    /// Keccak-f\[1600\] in place.
    fn permute(&mut self);
    /// XORs the standard-form 64-bit `x` into lane `i`.
    fn xor_lane(&mut self, i: usize, x: u64);
    /// Lane `i` in standard form.
    fn lane(&self, i: usize) -> u64;
    /// Byte `k` (0..8) of lane `i`.
    #[inline(always)]
    fn byte(&self, i: usize, k: usize) -> u8 {
        (self.lane(i) >> (8 * k)) as u8
    }
}

impl Lanes for [u64; 25] {
    const ZERO: Self = [0; 25];

    #[inline(always)]
    fn permute(&mut self) {
        keccak_f1600(self);
    }

    #[inline(always)]
    fn xor_lane(&mut self, i: usize, x: u64) {
        self[i] ^= x;
    }

    #[inline(always)]
    fn lane(&self, i: usize) -> u64 {
        self[i]
    }
}

impl Lanes for [u32; 50] {
    const ZERO: Self = [0; 50];

    #[inline(always)]
    fn permute(&mut self) {
        keccak_f1600_words(self);
    }

    #[inline(always)]
    fn xor_lane(&mut self, i: usize, x: u64) {
        let v = interleave(x);
        self[2 * i] ^= v as u32;
        self[2 * i + 1] ^= (v >> 32) as u32;
    }

    #[inline(always)]
    fn lane(&self, i: usize) -> u64 {
        deinterleave((u64::from(self[2 * i + 1]) << 32) | u64::from(self[2 * i]))
    }

    /// Byte `k` of a lane is nibble `k` of its even word (its even bits)
    /// merged with nibble `k` of its odd word: two delta swaps instead of
    /// deinterleaving the whole lane.
    #[inline(always)]
    fn byte(&self, i: usize, k: usize) -> u8 {
        let e = (self[2 * i] >> (4 * k)) & 0xF;
        let o = (self[2 * i + 1] >> (4 * k)) & 0xF;
        // e0 e1 e2 e3 o0 o1 o2 o3 -> e0 o0 e1 o1 e2 o2 e3 o3
        let mut x = e | (o << 4);
        let t = (x ^ (x >> 2)) & 0x0C;
        x ^= t ^ (t << 2);
        let t = (x ^ (x >> 1)) & 0x22;
        x ^= t ^ (t << 1);
        x as u8
    }
}

/// The state a [`Sponge`] keeps: bit-interleaved words on 32-bit targets,
/// 64-bit lanes elsewhere.
#[cfg(target_pointer_width = "32")]
type SpongeState = [u32; 50];
#[cfg(not(target_pointer_width = "32"))]
type SpongeState = [u64; 25];

/// Absorbs `data` into `st` at byte position `*pos` of a block of `RATE`
/// bytes (`*pos < RATE`), permuting after every full block. Partial lanes
/// are gathered into one 64-bit word, so each lane touched is converted
/// once per call.
#[inline(always)]
fn absorb_into<S: Lanes, const RATE: usize>(st: &mut S, pos: &mut usize, mut data: &[u8]) {
    while !data.is_empty() {
        if *pos == 0 && data.len() >= RATE {
            let (block, rest) = data.split_at(RATE);
            for (i, chunk) in block.chunks_exact(8).enumerate() {
                let mut w = [0u8; 8];
                w.copy_from_slice(chunk);
                st.xor_lane(i, u64::from_le_bytes(w));
            }
            st.permute();
            data = rest;
            continue;
        }
        let off = *pos % 8;
        let n = core::cmp::min(8 - off, data.len());
        let mut w = [0u8; 8];
        w[off..off + n].copy_from_slice(&data[..n]);
        st.xor_lane(*pos / 8, u64::from_le_bytes(w));
        *pos += n;
        data = &data[n..];
        if *pos == RATE {
            st.permute();
            *pos = 0;
        }
    }
}

/// Pads the absorbed input with domain byte `DS` and permutes.
#[inline(always)]
fn pad_into<S: Lanes, const RATE: usize, const DS: u8>(st: &mut S, pos: usize) {
    st.xor_lane(pos / 8, u64::from(DS) << (8 * (pos % 8)));
    st.xor_lane(RATE / 8 - 1, 0x80 << 56);
    st.permute();
}

/// Squeezes `out` from `st`, whose current block's first `*pos` bytes
/// were already output (`*pos == RATE`: the block is used up). Whole blocks
/// convert only the `RATE / 8` lanes of the rate; a single byte reads it
/// straight from the state.
#[inline(always)]
fn squeeze_from<S: Lanes, const RATE: usize>(st: &mut S, pos: &mut usize, mut out: &mut [u8]) {
    while !out.is_empty() {
        if *pos == RATE {
            st.permute();
            *pos = 0;
        }
        if *pos == 0 && out.len() >= RATE {
            let (block, rest) = out.split_at_mut(RATE);
            for (i, chunk) in block.chunks_exact_mut(8).enumerate() {
                chunk.copy_from_slice(&st.lane(i).to_le_bytes());
            }
            *pos = RATE;
            out = rest;
            continue;
        }
        let off = *pos % 8;
        let n = core::cmp::min(8 - off, out.len());
        if n == 1 {
            out[0] = st.byte(*pos / 8, off);
        } else {
            let w = st.lane(*pos / 8).to_le_bytes();
            out[..n].copy_from_slice(&w[off..off + n]);
        }
        *pos += n;
        out = &mut out[n..];
    }
}

/// A Keccak sponge with rate `RATE` bytes and domain-separation byte `DS`
/// (0x06 for SHA-3, 0x1F for SHAKE). The state is wiped on drop.
///
/// On 32-bit targets the state stays bit-interleaved between permutations
/// (see [`keccak_f1600_words`]); lanes are converted only as bytes go in
/// or out.
#[derive(Clone)]
pub struct Sponge<const RATE: usize, const DS: u8> {
    state: SpongeState,
    pos: usize,
    squeezing: bool,
}

/// SHAKE128 (FIPS 202).
pub type Shake128 = Sponge<168, 0x1F>;
/// SHAKE256 (FIPS 202).
pub type Shake256 = Sponge<136, 0x1F>;
/// SHA3-256 (FIPS 202); use [`Sponge::finalize_into`] or [`sha3_256`].
pub type Sha3_256 = Sponge<136, 0x06>;
/// SHA3-512 (FIPS 202); use [`Sponge::finalize_into`] or [`sha3_512`].
pub type Sha3_512 = Sponge<72, 0x06>;

impl<const RATE: usize, const DS: u8> Default for Sponge<RATE, DS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const RATE: usize, const DS: u8> Drop for Sponge<RATE, DS> {
    fn drop(&mut self) {
        self.state.zeroize();
        // The position says how many bytes were absorbed: reset too, so that
        // a dropped sponge reads back all zero.
        self.pos = 0;
        self.squeezing = false;
        core::hint::black_box(&mut *self);
    }
}

impl<const RATE: usize, const DS: u8> Sponge<RATE, DS> {
    /// A fresh sponge (all-zero state).
    #[must_use]
    pub const fn new() -> Self {
        Self {
            state: <SpongeState as Lanes>::ZERO,
            pos: 0,
            squeezing: false,
        }
    }

    /// Absorbs `data`.
    ///
    /// # Panics
    /// If called after squeezing started (a programming error).
    pub fn absorb(&mut self, data: &[u8]) {
        assert!(!self.squeezing, "absorb after squeeze");
        absorb_into::<_, RATE>(&mut self.state, &mut self.pos, data);
    }

    /// Squeezes `out.len()` bytes (padding on the first call).
    pub fn squeeze(&mut self, out: &mut [u8]) {
        if !self.squeezing {
            pad_into::<_, RATE, DS>(&mut self.state, self.pos);
            self.pos = 0;
            self.squeezing = true;
        }
        squeeze_from::<_, RATE>(&mut self.state, &mut self.pos, out);
    }

    /// Finishes a fixed-output hash: squeezes `out.len()` bytes.
    pub fn finalize_into(mut self, out: &mut [u8]) {
        self.squeeze(out);
    }

    /// A copy of the raw state as 64-bit lanes in standard form (for
    /// multi-lane / SIMD users that continue it). The caller owns the copy
    /// and should wipe it if the state is secret.
    #[must_use]
    pub fn state(&self) -> [u64; 25] {
        core::array::from_fn(|i| self.state.lane(i))
    }
}

/// SHA3-256 of the concatenation of `parts`.
#[must_use]
pub fn sha3_256_parts(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha3_256::new();
    for p in parts {
        h.absorb(p);
    }
    let mut out = [0u8; 32];
    h.finalize_into(&mut out);
    out
}

/// SHA3-512 of the concatenation of `parts`.
#[must_use]
pub fn sha3_512_parts(parts: &[&[u8]]) -> [u8; 64] {
    let mut h = Sha3_512::new();
    for p in parts {
        h.absorb(p);
    }
    let mut out = [0u8; 64];
    h.finalize_into(&mut out);
    out
}

/// SHA3-256.
#[must_use]
pub fn sha3_256(data: &[u8]) -> [u8; 32] {
    sha3_256_parts(&[data])
}

/// SHA3-512.
#[must_use]
pub fn sha3_512(data: &[u8]) -> [u8; 64] {
    sha3_512_parts(&[data])
}

/// SHAKE128 of `data`, `out.len()` bytes.
pub fn shake128(data: &[u8], out: &mut [u8]) {
    let mut x = Shake128::new();
    x.absorb(data);
    x.squeeze(out);
}

/// SHAKE256 of `data`, `out.len()` bytes.
pub fn shake256(data: &[u8], out: &mut [u8]) {
    let mut x = Shake256::new();
    x.absorb(data);
    x.squeeze(out);
}

/// SHAKE256 of a short message that fits one block, given as parts whose
/// lengths are multiples of 8 bytes (at most 128 bytes in all), squeezed
/// to `out.len()` bytes (a multiple of 8, at most 136): one permutation,
/// the parts written straight into the state as 64-bit lanes, no
/// buffering, for hashes called millions of times on short inputs
/// (SLH-DSA's F, H and PRF). The state is wiped before returning. On
/// 32-bit targets the lanes are bit-interleaved on the way in and out and
/// the permutation runs on 32-bit words.
///
/// # Panics
/// If a length is not a multiple of 8, or the parts exceed 128 bytes, or
/// `out` 136.
///
/// ```
/// use pqforge_core::keccak::{shake256, shake256_short};
/// let (a, b) = (*b"eight by", *b"sixteen byte msg");
/// let mut out = [0u8; 40];
/// shake256_short(&[&a, &b], &mut out);
/// let mut want = [0u8; 40];
/// shake256(b"eight bysixteen byte msg", &mut want);
/// assert_eq!(out, want);
/// ```
pub fn shake256_short(parts: &[&[u8]], out: &mut [u8]) {
    const RATE_LANES: usize = 136 / 8;
    assert!(out.len().is_multiple_of(8) && out.len() <= 8 * RATE_LANES);
    let mut st = <SpongeState as Lanes>::ZERO;
    let mut i = 0;
    for p in parts {
        assert!(p.len().is_multiple_of(8) && i + p.len() / 8 < RATE_LANES);
        for c in p.as_chunks::<8>().0 {
            st.xor_lane(i, u64::from_le_bytes(*c));
            i += 1;
        }
    }
    st.xor_lane(i, 0x1F);
    st.xor_lane(RATE_LANES - 1, 0x80 << 56);
    st.permute();
    for (k, o) in out.as_chunks_mut::<8>().0.iter_mut().enumerate() {
        *o = st.lane(k).to_le_bytes();
    }
    crate::ct::wipe(&mut st);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> [u8; 128] {
        let mut s = [b'.'; 128];
        for (i, x) in b.iter().enumerate() {
            let d = b"0123456789abcdef";
            s[2 * i] = d[(x >> 4) as usize];
            s[2 * i + 1] = d[(x & 15) as usize];
        }
        s
    }

    #[test]
    fn fips202_empty() {
        assert_eq!(
            &hex(&sha3_256(b""))[..64],
            b"a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"
        );
        assert_eq!(
            &hex(&sha3_512(b"abc")[..32])[..64],
            b"b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
        );
        let mut o = [0u8; 32];
        shake128(b"", &mut o);
        assert_eq!(
            &hex(&o)[..64],
            b"7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"
        );
        shake256(b"", &mut o);
        assert_eq!(
            &hex(&o)[..64],
            b"46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
        );
    }

    #[test]
    fn interleaved_matches_64_bit() {
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..if cfg!(miri) { 20 } else { 1000 } {
            x = x.rotate_left(7).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5555;
            let i = interleave(x);
            for b in 0..32 {
                assert_eq!((i >> b) & 1, (x >> (2 * b)) & 1);
                assert_eq!((i >> (32 + b)) & 1, (x >> (2 * b + 1)) & 1);
            }
            assert_eq!(deinterleave(i), x);
        }
        let mut a: [u64; 25] =
            core::array::from_fn(|i| (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut b = a;
        for _ in 0..5 {
            keccak_f1600_64(&mut a);
            keccak_f1600_32(&mut b);
            assert_eq!(a, b);
        }
        let mut c = a.map(interleave);
        keccak_f1600_interleaved(&mut c);
        keccak_f1600(&mut a);
        assert_eq!(c.map(deinterleave), a);
    }

    /// The interleaved sponge state (what 32-bit targets use) gives the
    /// same bytes as 64-bit lanes, for every mix of piece sizes.
    #[test]
    fn interleaved_sponge_matches_lanes() {
        fn run<S: Lanes, const RATE: usize>(
            pieces_in: &[usize],
            pieces_out: &[usize],
        ) -> [u8; 600] {
            let data: [u8; 400] = core::array::from_fn(|i| (i * 13 + 5) as u8);
            let mut st = S::ZERO;
            let mut pos = 0;
            let mut d: &[u8] = &data;
            for &n in pieces_in.iter().cycle() {
                let n = n.min(d.len());
                absorb_into::<S, RATE>(&mut st, &mut pos, &d[..n]);
                d = &d[n..];
                if d.is_empty() {
                    break;
                }
            }
            pad_into::<S, RATE, 0x1F>(&mut st, pos);
            pos = 0;
            let mut out = [0u8; 600];
            let mut o: &mut [u8] = &mut out;
            for &n in pieces_out.iter().cycle() {
                let n = n.min(o.len());
                let (a, b) = o.split_at_mut(n);
                squeeze_from::<S, RATE>(&mut st, &mut pos, a);
                o = b;
                if o.is_empty() {
                    break;
                }
            }
            let mut lanes = [0u64; 25];
            for (i, l) in lanes.iter_mut().enumerate() {
                *l = st.lane(i);
            }
            out[..8].copy_from_slice(&lanes[(pos / 8 + 3) % 25].to_le_bytes()[..]);
            out
        }
        let sizes: [&[usize]; 6] = [&[1], &[3, 7], &[8], &[168, 1], &[5, 200, 2], &[400]];
        for (k, i) in sizes.into_iter().enumerate() {
            for (l, o) in sizes.into_iter().enumerate() {
                // Under Miri 6 of the 36 pairs: every input and every
                // output split once.
                if cfg!(miri) && k + l != sizes.len() - 1 {
                    continue;
                }
                assert_eq!(run::<[u64; 25], 168>(i, o), run::<[u32; 50], 168>(i, o));
                assert_eq!(run::<[u64; 25], 136>(i, o), run::<[u32; 50], 136>(i, o));
                assert_eq!(run::<[u64; 25], 72>(i, o), run::<[u32; 50], 72>(i, o));
            }
        }
        let mut one = [0u8; 600];
        shake128(
            &core::array::from_fn::<u8, 400, _>(|i| (i * 13 + 5) as u8),
            &mut one,
        );
        assert_eq!(one[8..], run::<[u32; 50], 168>(&[1], &[1])[8..]);
        let st: [u32; 50] = core::array::from_fn(|i| (i as u32).wrapping_mul(0x9E37_79B9));
        for i in 0..25 {
            for k in 0..8 {
                assert_eq!(st.byte(i, k), (st.lane(i) >> (8 * k)) as u8);
            }
        }
    }

    #[test]
    fn incremental_matches_oneshot() {
        let data: [u8; 500] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        let mut one = [0u8; 700];
        shake128(&data, &mut one);
        for split in [0usize, 1, 167, 168, 169, 336, 499] {
            let mut x = Shake128::new();
            x.absorb(&data[..split]);
            x.absorb(&data[split..]);
            let mut two = [0u8; 700];
            let (a, b) = two.split_at_mut(split.min(700));
            x.squeeze(a);
            x.squeeze(b);
            assert_eq!(one, two, "split {split}");
        }
    }
}
