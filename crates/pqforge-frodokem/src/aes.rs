//! AES-128 encryption without table lookups: a bitsliced software
//! implementation (four blocks at a time, eight 64-bit bit planes) for
//! every target, and the key schedule shared with the AES-NI kernel.
//!
//! Layout: bit plane `b` holds bit `b` of the 64 state bytes of four
//! blocks; byte `p` of block `k` sits at bit `16·k + p`, with
//! `p = 4·column + row` (the byte order of the AES input). The S-box is
//! inversion in GF(2^8) (x^254: four multiplications and seven squarings
//! on bit planes) followed by the affine map; ShiftRows and the row
//! rotations of MixColumns are masked shifts inside each 16-bit block
//! group. Nothing branches on or indexes memory with data.

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

/// GF(2^8) product of two bit-sliced operands (AES polynomial).
#[inline(always)]
fn gf_mul(a: &[u64; 8], b: &[u64; 8]) -> [u64; 8] {
    let mut p = [0u64; 15];
    for i in 0..8 {
        for j in 0..8 {
            p[i + j] ^= a[i] & b[j];
        }
    }
    reduce(p)
}

/// Reduction of a 15-plane product modulo x^8 + x^4 + x^3 + x + 1.
#[inline(always)]
fn reduce(mut p: [u64; 15]) -> [u64; 8] {
    for k in (8..15).rev() {
        let t = p[k];
        p[k - 4] ^= t;
        p[k - 5] ^= t;
        p[k - 7] ^= t;
        p[k - 8] ^= t;
    }
    [p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]]
}

/// GF(2^8) square (linear: spread the bits, reduce).
#[inline(always)]
fn gf_sq(a: &[u64; 8]) -> [u64; 8] {
    let mut p = [0u64; 15];
    for i in 0..8 {
        p[2 * i] = a[i];
    }
    reduce(p)
}

/// The AES S-box on every byte of the bit-sliced state.
#[inline(always)]
fn sub_bytes(x: &[u64; 8]) -> [u64; 8] {
    // x^254 = x^-1 (0 -> 0).
    let x2 = gf_sq(x);
    let x3 = gf_mul(&x2, x);
    let x12 = gf_sq(&gf_sq(&x3));
    let x15 = gf_mul(&x12, &x3);
    let x240 = gf_sq(&gf_sq(&gf_sq(&gf_sq(&x15))));
    let x252 = gf_mul(&x240, &x12);
    let inv = gf_mul(&x252, &x2);
    // Affine map: b_i ^ b_{i+4} ^ b_{i+5} ^ b_{i+6} ^ b_{i+7} ^ 0x63_i.
    let mut out = [0u64; 8];
    for i in 0..8 {
        out[i] = inv[i] ^ inv[(i + 4) % 8] ^ inv[(i + 5) % 8] ^ inv[(i + 6) % 8] ^ inv[(i + 7) % 8];
        if (0x63 >> i) & 1 == 1 {
            out[i] = !out[i];
        }
    }
    out
}

/// ShiftRows on one plane: row r of each block rotates left by r columns.
#[inline(always)]
fn shift_rows_plane(w: u64) -> u64 {
    let mut out = w & ROW0;
    // Row r: new column c takes old column c + r (mod 4).
    out |= ((w >> 4) & row_cols(1, 3, true)) | ((w << 12) & row_cols(1, 3, false));
    out |= ((w >> 8) & row_cols(2, 2, true)) | ((w << 8) & row_cols(2, 2, false));
    out |= ((w >> 12) & row_cols(3, 1, true)) | ((w << 4) & row_cols(3, 1, false));
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
    for (x, c) in w.iter_mut().zip(bytes.chunks_exact(8)) {
        let mut b = [0u8; 8];
        b.copy_from_slice(c);
        *x = transpose8(u64::from_le_bytes(b));
    }
    transpose_bytes(&w)
}

/// Bytes of 8 bit planes (inverse of [`bitslice`]).
#[inline(always)]
fn unbitslice(planes: &[u64; 8]) -> [u8; 64] {
    let w = transpose_bytes(planes);
    let mut bytes = [0u8; 64];
    for (c, x) in bytes.chunks_exact_mut(8).zip(w) {
        c.copy_from_slice(&transpose8(x).to_le_bytes());
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
            for blk in rep.chunks_exact_mut(16) {
                blk.copy_from_slice(&bytes[r]);
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
    for chunk in out.chunks_exact_mut(32) {
        buf.fill(0);
        for blk in buf.chunks_exact_mut(16) {
            blk[..2].copy_from_slice(&(row as u16).to_le_bytes());
            blk[2..4].copy_from_slice(&(col as u16).to_le_bytes());
            col += 8;
            if col == n {
                col = 0;
                row += 1;
            }
        }
        key.encrypt4(&mut buf);
        for (o, b) in chunk.iter_mut().zip(buf.chunks_exact(2)) {
            *o = u16::from_le_bytes([b[0], b[1]]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
