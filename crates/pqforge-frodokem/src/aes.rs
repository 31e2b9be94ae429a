//! AES-128 encryption without table lookups: a bitsliced software
//! implementation (four blocks at a time, eight 64-bit bit planes) for
//! every target, and the key schedule shared with the AES-NI kernel.
//!
//! Layout: bit plane `b` holds bit `b` of the 64 state bytes of four
//! blocks; byte `p` of block `k` sits at bit `16·k + p`, with
//! `p = 4·column + row` (the byte order of the AES input). The S-box is
//! inversion in the tower field GF((2^4)^2) on bit planes followed by the
//! affine map; ShiftRows and the row rotations of MixColumns are masked
//! shifts inside each 16-bit block group. Nothing branches on or indexes
//! memory with data.

use crate::params::ParameterSet;

/// Expanded AES-128 key: the eleven round keys as bytes (for AES-NI) and
/// as bit planes replicated over four blocks (for the software path).
pub(crate) struct AesKey {
    // Read by the AES-NI kernel only.
    #[cfg_attr(
        not(all(target_arch = "x86_64", not(pqforge_backend = "portable"))),
        allow(dead_code)
    )]
    pub(crate) bytes: [[u8; 16]; 11],
    pub(crate) sliced: [[u64; 8]; 11],
}

/// Bits of a 16-bit group whose byte position `p` (0..16) satisfies `f`,
/// replicated over the four groups.
const fn group_mask(sel: [bool; 16]) -> u64 {
    let mut m = 0u64;
    let mut g = 0;
    while g < 4 {
        let mut p = 0;
        while p < 16 {
            if sel[p] {
                m |= 1 << (16 * g + p);
            }
            p += 1;
        }
        g += 1;
    }
    m
}

/// Positions of row `r` with column `< lim` (`below`) or `>= lim`.
const fn row_cols(r: usize, lim: usize, below: bool) -> u64 {
    let mut sel = [false; 16];
    let mut c = 0;
    while c < 4 {
        if (c < lim) == below {
            sel[4 * c + r] = true;
        }
        c += 1;
    }
    group_mask(sel)
}

const ROW0: u64 = row_cols(0, 4, true);

// The S-box inverts in the tower field GF((2^4)^2): GF(16) = GF(2)[y] /
// (y^4 + y + 1), GF(256) = GF(16)[z] / (z^2 + z + λ) with λ = y^3. The
// isomorphism from the AES field sends x to β = 0x20 (a root of the AES
// polynomial in the tower representation); `TO_TOWER` is its matrix and
// `FROM_TOWER_AFFINE` the inverse map followed by the linear part of the
// S-box's affine map (rows: bit i of the output is the XOR of the input
// bits set in row i). Both were derived and checked against the S-box on
// all 256 inputs offline; `tests::sbox_all` checks them again.
const TO_TOWER: [u8; 8] = [0xa1, 0x04, 0xfc, 0x18, 0x70, 0xd2, 0xac, 0xa0];
const FROM_TOWER_AFFINE: [u8; 8] = [0x45, 0x3f, 0x69, 0x25, 0x3b, 0xee, 0xd0, 0x06];

/// A GF(2)-linear map of bit planes by a constant matrix (no branches: the
/// row bits become masks, folded at compile time).
#[inline(always)]
fn lin8(rows: &[u8; 8], x: &[u64; 8]) -> [u64; 8] {
    core::array::from_fn(|i| {
        let mut acc = 0u64;
        for (j, xj) in x.iter().enumerate() {
            acc ^= xj & u64::from((rows[i] >> j) & 1).wrapping_neg();
        }
        acc
    })
}

/// GF(16) product of bit-sliced operands.
#[inline(always)]
fn mul16(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    let p0 = a[0] & b[0];
    let p1 = (a[0] & b[1]) ^ (a[1] & b[0]);
    let p2 = (a[0] & b[2]) ^ (a[1] & b[1]) ^ (a[2] & b[0]);
    let p3 = (a[0] & b[3]) ^ (a[1] & b[2]) ^ (a[2] & b[1]) ^ (a[3] & b[0]);
    let p4 = (a[1] & b[3]) ^ (a[2] & b[2]) ^ (a[3] & b[1]);
    let p5 = (a[2] & b[3]) ^ (a[3] & b[2]);
    let p6 = a[3] & b[3];
    // y^4 = y + 1, y^5 = y^2 + y, y^6 = y^3 + y^2.
    [p0 ^ p4, p1 ^ p4 ^ p5, p2 ^ p5 ^ p6, p3 ^ p6]
}

/// GF(16) square (linear).
#[inline(always)]
fn sq16(a: [u64; 4]) -> [u64; 4] {
    [a[0] ^ a[2], a[2], a[1] ^ a[3], a[3]]
}

/// Product with λ = y^3 (linear).
#[inline(always)]
fn mul_lambda(a: [u64; 4]) -> [u64; 4] {
    [a[1], a[1] ^ a[2], a[2] ^ a[3], a[0] ^ a[3]]
}

/// GF(16) inverse as x^14 = x^2 · x^4 · x^8 (0 -> 0).
#[inline(always)]
fn inv16(x: [u64; 4]) -> [u64; 4] {
    let x2 = sq16(x);
    let x4 = sq16(x2);
    let x8 = sq16(x4);
    mul16(mul16(x2, x4), x8)
}

#[inline(always)]
fn xor4(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    [a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]]
}

/// The AES S-box on every byte of the bit-sliced state: map to the tower
/// field, invert there ((h·z + l)^-1 = (h·d)·z + (h + l)·d with
/// d = (h²λ + h·l + l²)^-1), map back with the affine map, add 0x63.
#[inline(always)]
fn sub_bytes(x: &[u64; 8]) -> [u64; 8] {
    let t = lin8(&TO_TOWER, x);
    let l = [t[0], t[1], t[2], t[3]];
    let h = [t[4], t[5], t[6], t[7]];
    let delta = xor4(xor4(mul_lambda(sq16(h)), mul16(h, l)), sq16(l));
    let d = inv16(delta);
    let nh = mul16(h, d);
    let nl = mul16(xor4(h, l), d);
    let y = [nl[0], nl[1], nl[2], nl[3], nh[0], nh[1], nh[2], nh[3]];
    let mut out = lin8(&FROM_TOWER_AFFINE, &y);
    // + 0x63 (bits 0, 1, 5, 6).
    out[0] = !out[0];
    out[1] = !out[1];
    out[5] = !out[5];
    out[6] = !out[6];
    out
}

/// ShiftRows on one plane: row r of each block rotates left by r columns.
#[inline(always)]
fn shift_rows_plane(w: u64) -> u64 {
    // Evaluated at compile time (a `const fn` called at run time is a call).
    const R1_LO: u64 = row_cols(1, 3, true);
    const R1_HI: u64 = row_cols(1, 3, false);
    const R2_LO: u64 = row_cols(2, 2, true);
    const R2_HI: u64 = row_cols(2, 2, false);
    const R3_LO: u64 = row_cols(3, 1, true);
    const R3_HI: u64 = row_cols(3, 1, false);
    let mut out = w & ROW0;
    // Row r: new column c takes old column c + r (mod 4).
    out |= ((w >> 4) & R1_LO) | ((w << 12) & R1_HI);
    out |= ((w >> 8) & R2_LO) | ((w << 8) & R2_HI);
    out |= ((w >> 12) & R3_LO) | ((w << 4) & R3_HI);
    out
}

/// Byte (r, c) takes the value of byte (r + 1 mod 4, c).
#[inline(always)]
fn rot1(w: u64) -> u64 {
    ((w >> 1) & 0x7777_7777_7777_7777) | ((w << 3) & 0x8888_8888_8888_8888)
}

/// Byte (r, c) takes the value of byte (r + 2 mod 4, c).
#[inline(always)]
fn rot2(w: u64) -> u64 {
    ((w >> 2) & 0x3333_3333_3333_3333) | ((w << 2) & 0xCCCC_CCCC_CCCC_CCCC)
}

/// MixColumns: out_r = 2·(a_r ^ a_{r+1}) ^ a_{r+1} ^ (a_{r+2} ^ a_{r+3}).
#[inline(always)]
fn mix_columns(a: &[u64; 8]) -> [u64; 8] {
    let r1: [u64; 8] = core::array::from_fn(|i| rot1(a[i]));
    let t: [u64; 8] = core::array::from_fn(|i| a[i] ^ r1[i]);
    // xtime(t) on planes.
    let x = [
        t[7],
        t[0] ^ t[7],
        t[1],
        t[2] ^ t[7],
        t[3] ^ t[7],
        t[4],
        t[5],
        t[6],
    ];
    core::array::from_fn(|i| x[i] ^ r1[i] ^ rot2(t[i]))
}

/// Transposes the 8 × 8 bit matrix in `x` (byte i = row i, bit b of a
/// byte = column b): three rounds of masked swaps.
#[inline(always)]
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^= t ^ (t << 28);
    x
}

/// Transposes the 8 × 8 byte matrix in `w` (byte b of word j becomes byte
/// j of word b).
#[inline(always)]
fn transpose_bytes(w: &[u64; 8]) -> [u64; 8] {
    let mut out = [0u64; 8];
    for (b, o) in out.iter_mut().enumerate() {
        for (j, x) in w.iter().enumerate() {
            *o |= ((x >> (8 * b)) & 0xFF) << (8 * j);
        }
    }
    out
}

/// Bit planes of 64 bytes: plane b, bit p = bit b of byte p.
#[inline(always)]
fn bitslice(bytes: &[u8; 64]) -> [u64; 8] {
    let mut w = [0u64; 8];
    for (i, x) in w.iter_mut().enumerate() {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[8 * i..8 * i + 8]);
        *x = transpose8(u64::from_le_bytes(b));
    }
    transpose_bytes(&w)
}

/// Bytes of 8 bit planes (inverse of [`bitslice`]).
#[inline(always)]
fn unbitslice(planes: &[u64; 8]) -> [u8; 64] {
    let w = transpose_bytes(planes);
    let mut bytes = [0u8; 64];
    for (i, x) in w.into_iter().enumerate() {
        bytes[8 * i..8 * i + 8].copy_from_slice(&transpose8(x).to_le_bytes());
    }
    bytes
}

/// The S-box of one byte, in constant time (key schedule).
fn sbox(x: u8) -> u8 {
    let planes: [u64; 8] = core::array::from_fn(|i| u64::from((x >> i) & 1));
    let s = sub_bytes(&planes);
    let mut v = 0u8;
    for (i, p) in s.iter().enumerate() {
        v |= ((p & 1) as u8) << i;
    }
    v
}

impl AesKey {
    /// The AES-128 key schedule of `key`.
    pub(crate) fn new(key: &[u8; 16]) -> Self {
        let mut w = [[0u8; 4]; 44];
        for (i, wi) in w.iter_mut().take(4).enumerate() {
            wi.copy_from_slice(&key[4 * i..4 * i + 4]);
        }
        let mut rcon = 1u8;
        for i in 4..44 {
            let mut t = w[i - 1];
            if i % 4 == 0 {
                t = [sbox(t[1]) ^ rcon, sbox(t[2]), sbox(t[3]), sbox(t[0])];
                rcon = (rcon << 1) ^ ((rcon >> 7) * 0x1b);
            }
            for j in 0..4 {
                w[i][j] = w[i - 4][j] ^ t[j];
            }
        }
        let mut bytes = [[0u8; 16]; 11];
        let mut sliced = [[0u64; 8]; 11];
        for r in 0..11 {
            for c in 0..4 {
                bytes[r][4 * c..4 * c + 4].copy_from_slice(&w[4 * r + c]);
            }
            let mut rep = [0u8; 64];
            for b in 0..4 {
                rep[16 * b..16 * b + 16].copy_from_slice(&bytes[r]);
            }
            sliced[r] = bitslice(&rep);
        }
        Self { bytes, sliced }
    }

    /// Encrypts four blocks (64 bytes) in place.
    #[inline(always)]
    pub(crate) fn encrypt4(&self, blocks: &mut [u8; 64]) {
        let mut s = bitslice(blocks);
        for (p, k) in s.iter_mut().zip(&self.sliced[0]) {
            *p ^= k;
        }
        for round in 1..11 {
            let mut t = sub_bytes(&s);
            for p in &mut t {
                *p = shift_rows_plane(*p);
            }
            if round < 10 {
                t = mix_columns(&t);
            }
            for (p, k) in t.iter_mut().zip(&self.sliced[round]) {
                *p ^= k;
            }
            s = t;
        }
        *blocks = unbitslice(&s);
    }
}

/// Rows `r0 .. r0 + out.len() / n` of A (n × n, n = `P::N`) with the software AES:
/// entry (i, j..j+8) is AES(seed_A, i ‖ j ‖ 0^96) as eight little-endian
/// 16-bit words (i, j as 16-bit little-endian).
pub(crate) fn rows_soft<P: ParameterSet>(key: &AesKey, r0: usize, out: &mut [u16]) {
    let n = P::N;
    let mut buf = [0u8; 64];
    let (mut row, mut col) = (r0, 0usize);
    // Four blocks (32 entries) at a time; n is a multiple of 8, and a row
    // count of 4 makes out.len() / 8 a multiple of 4.
    // Indexed loops, not `chunks_exact`: at opt-level "z" its length is an
    // out-of-line `udiv` (public operands, but the M4 division scan must
    // stay clean; see crates/xtask/src/divscan.rs).
    let mut start = 0;
    while start + 32 <= out.len() {
        let chunk = &mut out[start..start + 32];
        start += 32;
        buf.fill(0);
        for b in 0..4 {
            let blk = &mut buf[16 * b..16 * b + 16];
            blk[..2].copy_from_slice(&(row as u16).to_le_bytes());
            blk[2..4].copy_from_slice(&(col as u16).to_le_bytes());
            col += 8;
            if col == n {
                col = 0;
                row += 1;
            }
        }
        key.encrypt4(&mut buf);
        for (i, o) in chunk.iter_mut().enumerate() {
            *o = u16::from_le_bytes([buf[2 * i], buf[2 * i + 1]]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The S-box against its definition (inverse by x^254 in the AES field,
    /// then the affine map) on every byte.
    #[test]
    fn sbox_all() {
        fn mul(a: u8, b: u8) -> u8 {
            let mut r = 0u8;
            let (mut a, mut b) = (a, b);
            while b != 0 {
                if b & 1 == 1 {
                    r ^= a;
                }
                a = (a << 1) ^ if a & 0x80 != 0 { 0x1b } else { 0 };
                b >>= 1;
            }
            r
        }
        for x in 0..=255u8 {
            let mut inv = 1u8;
            for _ in 0..254 {
                inv = mul(inv, x);
            }
            let mut s = 0x63u8;
            for i in 0..8 {
                let bit = (inv >> i)
                    ^ (inv >> ((i + 4) % 8))
                    ^ (inv >> ((i + 5) % 8))
                    ^ (inv >> ((i + 6) % 8))
                    ^ (inv >> ((i + 7) % 8));
                s ^= (bit & 1) << i;
            }
            assert_eq!(sbox(x), s, "S({x:#04x})");
        }
    }

    #[test]
    fn sbox_values() {
        assert_eq!(sbox(0x00), 0x63);
        assert_eq!(sbox(0x01), 0x7c);
        assert_eq!(sbox(0x53), 0xed);
        assert_eq!(sbox(0xff), 0x16);
    }

    #[test]
    fn bitslice_roundtrip() {
        let bytes: [u8; 64] = core::array::from_fn(|i| (i as u8).wrapping_mul(73) ^ 0x5a);
        let planes = bitslice(&bytes);
        for (p, &b) in bytes.iter().enumerate() {
            for (i, plane) in planes.iter().enumerate() {
                assert_eq!((plane >> p) & 1, u64::from((b >> i) & 1));
            }
        }
        assert_eq!(unbitslice(&planes), bytes);
    }

    #[test]
    fn fips197_c1() {
        let key: [u8; 16] = core::array::from_fn(|i| i as u8);
        let pt: [u8; 16] = core::array::from_fn(|i| (i as u8) * 0x11);
        let expect = [
            0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4,
            0xc5, 0x5a,
        ];
        let k = AesKey::new(&key);
        let mut buf = [0u8; 64];
        for b in buf.chunks_exact_mut(16) {
            b.copy_from_slice(&pt);
        }
        k.encrypt4(&mut buf);
        for b in buf.chunks_exact(16) {
            assert_eq!(b, expect);
        }
    }
}
