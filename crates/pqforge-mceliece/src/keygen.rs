//! Key generation (round-4 specification §2.4, "SeededKeyGen"), with the
//! public key computed inside the caller's public-key buffer.
//!
//! # Memory plan (no heap, bounded stack)
//!
//! The reference builds the whole `mt x n` parity-check matrix H and
//! reduces it to `[I | T]`; that matrix is larger than the public key.
//! Here the public-key buffer (`mt` rows of `ROW_BYTES`) is the only large
//! memory, used in stages:
//!
//! 1. The front holds the `2^m` 64-bit sort keys (`perm[i] << 31 | i`),
//!    and right after them the `t x (t+1)` matrix of the Goppa-polynomial
//!    elimination (`genpoly`, which runs before the sort).
//! 2. The back holds a compact `mt x (A' | I)` matrix: A' = the first
//!    `mt` (+32 for the f variants) columns of H (rounded up to whole
//!    bytes), augmented with the
//!    identity. Gauss–Jordan elimination turns it into `[I | A^-1]` (and
//!    performs the f-variant column moves). Its pivoting differs from the
//!    reference (a zero pivot gets the first later row with a one, found
//!    by masks, instead of every row that differs) but the reduced form
//!    is unique, so the result is the same. For the non-f variants a
//!    forward-only elimination of A alone first decides whether A is
//!    invertible (it is not ~71% of the time, and the full elimination
//!    would find out only at its last pivots); the matrix is then rebuilt
//!    for the full elimination.
//! 3. The front (`10 * 2^m` bytes) is scratch for the Benes control bits.
//! 4. Row `r` of A^-1 moves to the last `ceil(mt/8)` bytes of public-key
//!    row `r`.
//! 5. Heads: `T[:, 0..8hb] = A^-1 H[:, mt..mt+8hb]`, written straight into
//!    the first `hb` bytes of each row (H columns are regenerated on the
//!    fly, bitsliced, from the support and the Goppa polynomial).
//! 6. Tails: the remaining columns, in batches of rows accumulated on the
//!    stack; row `r`'s tail overwrites its own A^-1 row only after the
//!    batch is done with it.
//!
//! `T = A^-1 B` is unique, so the result is bit-identical with the
//! reference whenever A is invertible, which is exactly when the reference
//! succeeds (non-f). For the f variants the pivot window is a row-space
//! invariant, so the moved columns are the same as well.

use pqforge_core::ctgrind::declassify_val;
use pqforge_core::keccak::Shake256;

use crate::ParameterSet;
use crate::backend::Backend;
use crate::benes;
use crate::gf::{self, MAX_M};

/// Maximum t.
const MAX_T: usize = 128;
/// Maximum m t.
const MAX_MT: usize = 1664;

/// Compile-time check of the memory plan for `P`.
pub(crate) const fn layout_ok<P: ParameterSet>() -> bool {
    let (mt, n) = (P::MT, P::N);
    let rb = P::ROW_BYTES;
    let w = compact_bytes::<P>();
    let e0 = P::PK_BYTES - mt * w;
    let hb = (n - 2 * mt) / 8;
    e0 >= 10 << P::M
        && hb + mt.div_ceil(8) <= rb
        && rb - hb <= TB_MAX
        && hb <= HB_MAX
        && 8 * a1_bytes::<P>() <= 64 * A_BLOCKS
        && P::T <= MAX_T
        && P::MT <= MAX_MT
        && P::M <= MAX_M
        && P::PK_BYTES >= (8 << P::M) + crate::genpoly::scratch_bytes::<P>()
}

/// Bytes of a compact row: A' then the mt identity columns, padded to a
/// multiple of 32 bytes (whole 256-bit blocks for the row operations).
const fn compact_bytes<P: ParameterSet>() -> usize {
    (a1_bytes::<P>() + P::MT.div_ceil(8)).next_multiple_of(32)
}

/// Bytes of the A' part of a compact row: mt columns (+32 for f).
const fn a1_bytes<P: ParameterSet>() -> usize {
    (P::MT + if P::SEMI { 32 } else { 0 }).div_ceil(8)
}

const HB_MAX: usize = 608;
const TB_MAX: usize = 208;
const HEAD_BLOCKS: usize = 80;
const TAIL_BLOCKS: usize = 28;
const A_BLOCKS: usize = 28;

/// Key generation from the 32-byte seed `delta` (the only randomness).
/// Writes `pk` (`P::PK_BYTES`) and `sk` (`P::SK_BYTES`).
// Never inlined: the backend dispatcher would otherwise hold this large
// frame (the permutation) while calling the other backend's copy.
#[inline(never)]
pub(crate) fn keygen_derand<P: ParameterSet, B: Backend>(
    delta: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
) {
    let (m, n, t) = (P::M, P::N, P::T);
    let nn = 1usize << m;
    let mut seed = *delta;
    let s_off = 40 + 2 * t + P::COND_BYTES;
    let mut pi = [0u16; 1 << MAX_M];
    let pi = &mut pi[..nn];
    loop {
        let mut xof = Shake256::new();
        xof.absorb(&[64]);
        xof.absorb(&seed);
        sk[..32].copy_from_slice(&seed);
        // r = s (n/8) || perm (4 * 2^m) || f (2t) || next delta (32).
        xof.squeeze(&mut sk[s_off..s_off + n / 8]);
        let mut chunk = [0u8; 512];
        let mut i = 0usize;
        while i < nn {
            xof.squeeze(&mut chunk);
            for c in chunk.chunks_exact(4) {
                let v = u64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
                pk[8 * i..8 * i + 8].copy_from_slice(&((v << 31) | i as u64).to_le_bytes());
                i += 1;
            }
        }
        let mut fb = [0u8; 2 * MAX_T];
        xof.squeeze(&mut fb[..2 * t]);
        let mut f = [0u16; MAX_T];
        for (k, v) in f[..t].iter_mut().enumerate() {
            *v = u16::from_le_bytes([fb[2 * k], fb[2 * k + 1]]) & ((1 << m) - 1);
        }
        xof.squeeze(&mut seed);
        drop(xof);

        let mut g = [0u16; MAX_T + 1];
        let ok = crate::genpoly::genpoly::<P, B>(&f[..t], &mut g[..t], &mut pk[8 * nn..]);
        zeroize::Zeroize::zeroize(&mut chunk);
        zeroize::Zeroize::zeroize(&mut fb);
        zeroize::Zeroize::zeroize(&mut f);
        if !ok {
            continue;
        }
        g[t] = 1;
        for k in 0..t {
            sk[40 + 2 * k..42 + 2 * k].copy_from_slice(&g[k].to_le_bytes());
        }
        let res = pk_gen::<P, B>(pk, &g[..=t], pi, &mut sk[40 + 2 * t..s_off]);
        zeroize::Zeroize::zeroize(&mut g);
        let Some(pivots) = res else {
            continue;
        };
        sk[32..40].copy_from_slice(&pivots.to_le_bytes());
        break;
    }
    // Public output.
    pqforge_core::ctgrind::declassify(pk);
    zeroize::Zeroize::zeroize(&mut seed);
    zeroize::Zeroize::zeroize(pi);
}

/// Bitsliced generator of rows of H restricted to columns `c0..c1`:
/// row `i m + b` is bit `b` of `L_j^i / g(L_j)`, one power `i` per call.
///
/// Planes are stored block-minor (`l[b][q]`: plane `b` of the 64 columns
/// of block `q`), so the power step multiplies consecutive blocks with
/// vector instructions ([`Backend::vmul_planes`]) and a row of H is the
/// contiguous words of one plane. `NB` is a multiple of 4.
struct ColGen<const NB: usize> {
    m: usize,
    base: usize,
    nblk: usize,
    l: [[u64; NB]; MAX_M],
    v: [[u64; NB]; MAX_M],
}

impl<const NB: usize> ColGen<NB> {
    /// An empty generator (initialised in place by the caller's `let`, so
    /// the large arrays are never copied).
    #[inline(always)]
    fn empty() -> Self {
        // Vector backends multiply four blocks at a time.
        const { assert!(NB.is_multiple_of(4)) };
        Self {
            m: 0,
            base: 0,
            nblk: 0,
            l: [[0; NB]; MAX_M],
            v: [[0; NB]; MAX_M],
        }
    }

    /// Starts at power 0 for columns `c0..c1`.
    fn init(&mut self, m: usize, pi: &[u16], g: &[u16], c0: usize, c1: usize) {
        let base = c0 / 64;
        let nblk = c1.div_ceil(64) - base;
        debug_assert!(nblk <= NB);
        self.m = m;
        self.base = base;
        self.nblk = nblk;
        for q in 0..nblk {
            let mut vals = [0u16; 64];
            for (k, x) in vals.iter_mut().enumerate() {
                let col = (base + q) * 64 + k;
                if col < pi.len() {
                    *x = gf::bitrev(m, pi[col]);
                }
            }
            let l = gf::pack(m, &vals);
            let v = gf::vinv(m, &gf::veval(m, g, &l));
            for b in 0..m {
                self.l[b][q] = l[b];
                self.v[b][q] = v[b];
            }
        }
    }

    /// Sets `self` to a copy of `other` (in place: no large temporary).
    #[inline(always)]
    fn copy_from(&mut self, other: &Self) {
        self.m = other.m;
        self.base = other.base;
        self.nblk = other.nblk;
        for b in 0..other.m {
            self.l[b][..other.nblk].copy_from_slice(&other.l[b][..other.nblk]);
            self.v[b][..other.nblk].copy_from_slice(&other.v[b][..other.nblk]);
        }
    }

    /// Writes bit-plane `b` of the current power, columns `c0..c0+nbits`,
    /// LSB first, into `dst[b * stride..]` for `b = 0..m` (unused high
    /// bits of the last byte cleared), then advances to the next power.
    fn next_rows<B: Backend>(&mut self, c0: usize, nbits: usize, dst: &mut [u8], stride: usize) {
        let nbytes = nbits.div_ceil(8);
        let off = c0 - 64 * self.base;
        for b in 0..self.m {
            let out = &mut dst[b * stride..b * stride + nbytes];
            extract(&self.v[b][..self.nblk], off, nbits, out);
        }
        B::vmul_planes(
            self.m,
            self.v.as_flattened_mut(),
            self.l.as_flattened(),
            NB,
            self.nblk,
        );
    }
}

impl<const NB: usize> Drop for ColGen<NB> {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self.l.as_flattened_mut());
        zeroize::Zeroize::zeroize(self.v.as_flattened_mut());
    }
}

/// Bits `off..off+nbits` of the little-endian bit string `words`, as bytes.
fn extract(words: &[u64], off: usize, nbits: usize, out: &mut [u8]) {
    let get = |s: usize| -> u64 {
        let (q, r) = (s / 64, s % 64);
        let lo = words.get(q).copied().unwrap_or(0) >> r;
        if r == 0 {
            lo
        } else {
            lo | (words.get(q + 1).copied().unwrap_or(0) << (64 - r))
        }
    };
    let mut chunks = out.chunks_exact_mut(8);
    let mut s = off;
    for chunk in &mut chunks {
        chunk.copy_from_slice(&get(s).to_le_bytes());
        s += 64;
    }
    let v = get(s).to_le_bytes();
    for (x, y) in chunks.into_remainder().iter_mut().zip(v) {
        *x = y;
    }
    if !nbits.is_multiple_of(8) {
        out[nbits / 8] &= (1u8 << (nbits % 8)) - 1;
    }
}

/// Public-key generation from the Goppa polynomial `g` (t+1 coefficients,
/// monic) and the sort keys already in `pk[..8 * 2^m]`. Fills `pi`, the
/// control bits `cond` and the whole `pk`. Returns the pivot word `c`, or
/// `None` when the reference would retry.
fn pk_gen<P: ParameterSet, B: Backend>(
    pk: &mut [u8],
    g: &[u16],
    pi: &mut [u16],
    cond: &mut [u8],
) -> Option<u64> {
    let (m, mt) = (P::M, P::MT);
    let nn = 1usize << m;
    // 1. Sort (perm[i] << 31 | i); equal perm values mean retry.
    B::sort_u64(&mut pk[..8 * nn]);
    let get = |b: &[u8], i: usize| {
        let mut a = [0u8; 8];
        a.copy_from_slice(&b[8 * i..8 * i + 8]);
        u64::from_le_bytes(a)
    };
    let mut dup = 0u64;
    for i in 1..nn {
        let d = (get(pk, i - 1) >> 31) ^ (get(pk, i) >> 31);
        // CT: 1 iff d == 0.
        dup |= ((d | d.wrapping_neg()) >> 63) ^ 1;
    }
    for (i, p) in pi.iter_mut().enumerate() {
        *p = (get(pk, i) as u16) & ((1 << m) - 1);
    }
    // Declassified: the retry decision (a repeated value in the random
    // 32-bit sort keys; the candidate is discarded).
    if declassify_val(dup) != 0 {
        return None;
    }

    // 2. Compact [A' | I] at the back of pk.
    let ab = mt.div_ceil(8);
    let w = compact_bytes::<P>();
    let e0 = P::PK_BYTES - mt * w;
    // Non-f: A is singular ~71% of the time (a random binary matrix), and
    // the elimination finds out only at its last pivots. A forward-only
    // elimination of A alone (no identity part, no rows above the pivots:
    // about 2/7 of the Gauss–Jordan work) decides invertibility first;
    // the full elimination then runs once per key instead of ~3.5 times.
    // The f variants rarely fail, so they skip the check.
    if !P::SEMI {
        build_compact::<P, B>(&mut pk[e0..], pi, g);
        eliminate::<P, B, true>(&mut pk[e0..], pi)?;
    }
    build_compact::<P, B>(&mut pk[e0..], pi, g);
    // 3. Gauss-Jordan elimination (reference pivoting), f-variant moves.
    let pivots = eliminate::<P, B, false>(&mut pk[e0..], pi)?;
    // 4. Control bits of the final permutation, with scratch at the front.
    if !controlbits_phase::<B>(cond, pi, m, &mut pk[..e0]) {
        return None;
    }
    // 5. A^-1 row r -> last ab bytes of pk row r (ascending order is safe:
    // each destination lies below its source and above earlier sources).
    let rb = P::ROW_BYTES;
    let a1 = a1_bytes::<P>();
    for r in 0..mt {
        let src = e0 + r * w + a1;
        let dst = (r + 1) * rb - ab;
        pk.copy_within(src..src + ab, dst);
    }
    heads::<P, B>(pk, pi, g);
    tails::<P, B>(pk, pi, g);
    Some(pivots)
}

/// Writes the compact `[A' | I]` rows (see the memory plan) into `compact`.
fn build_compact<P: ParameterSet, B: Backend>(compact: &mut [u8], pi: &[u16], g: &[u16]) {
    let (m, mt) = (P::M, P::MT);
    let a1 = a1_bytes::<P>();
    let w = compact_bytes::<P>();
    compact.fill(0);
    let mut cols = ColGen::<A_BLOCKS>::empty();
    cols.init(m, pi, g, 0, 8 * a1);
    for i in 0..P::T {
        cols.next_rows::<B>(0, 8 * a1, &mut compact[i * m * w..], w);
    }
    for r in 0..mt {
        compact[r * w + a1 + r / 8] |= 1 << (r % 8);
    }
}

#[inline(never)]
fn controlbits_phase<B: Backend>(
    cond: &mut [u8],
    pi: &[u16],
    m: usize,
    scratch: &mut [u8],
) -> bool {
    let mut check = [0u16; 1 << MAX_M];
    let ok = benes::controlbits::<B>(cond, pi, m, scratch, &mut check[..pi.len()]);
    zeroize::Zeroize::zeroize(&mut check);
    ok
}

/// Pivot rows per block of the Gauss–Jordan elimination.
const BLK: usize = 8;

/// Bits `r..r + nb` (`nb <= 8`) of a compact row, as a byte (bit `i` =
/// column `r + i`).
#[inline(always)]
fn window(row: &[u8], r: usize, nb: usize) -> u8 {
    let q = r / 8;
    let v = u16::from(row[q]) | (u16::from(row[q + 1]) << 8);
    ((v >> (r % 8)) as u8) & (((1u16 << nb) - 1) as u8)
}

/// Gauss–Jordan on the compact rows (`w` bytes each: A' then I), in
/// blocks of [`BLK`] pivots.
///
/// Per block (pivot columns `r..r+nb`, the pivot of row `p` in column `p`):
/// 1. A narrow run of the one-pivot-at-a-time algorithm on the `nb`
///    window bits of rows `r..mt` decides, for every pivot, which later
///    row the one-pivot algorithm would add to make it 1 (`selv`: one
///    bit vector over the rows per pivot, see [`narrow_run`]), and
///    whether it fails (retry). Window bits are all it needs: which row
///    has a 1 in the pivot column after the earlier pivots cleared it is a
///    function of the window bits alone.
/// 2. The wide rows then: the pivot row gets its selected later row (rows
///    below the block still raw: not yet cleared by this block's pivots),
///    is reduced by the block's earlier pivot rows (which turns the raw
///    row into the cleared one: the result, a vector of a fixed coset with
///    zeros in the earlier window columns, is unique), and clears its
///    column in the other rows of the block.
/// 3. One pass over every row outside the block clears all `nb` columns
///    at once (the block rows are the identity on the window, so the
///    combination is the row's window bits): one read and write of each
///    row per block instead of per pivot.
///
/// The result is the unique reduced form `[I | A^-1]` (and the same
/// f-variant window: blocks stop at row mt-32), as before.
///
/// `CHECK` (non-f only): forward elimination of the A part alone — the
/// row operations stop at the end of A's last 32-byte block and step 3
/// skips the rows above the block. The pivot decisions (and so the
/// success bit) are those of the full elimination: they depend only on
/// the rows from the pivot down, which both forms compute identically.
/// The matrix is left half-reduced (to be rebuilt).
#[inline(never)]
fn eliminate<P: ParameterSet, B: Backend, const CHECK: bool>(
    c: &mut [u8],
    pi: &mut [u16],
) -> Option<u64> {
    // The check leaves the matrix half-reduced: never for the f variants,
    // whose column moves need the full elimination.
    // (A run-time `debug_assert`: the caller's `if` does not stop the
    // instantiation for the f variants.)
    debug_assert!(!CHECK || !P::SEMI);
    let mut s = ElimScratch {
        win: [0u8; MAX_MT],
        cols: [[0u64; RW]; BLK],
        selv: [[0u64; RW]; BLK],
        masks: [0u8; MAX_MT],
    };
    let res = eliminate_in::<P, B, CHECK>(c, pi, &mut s);
    // Wiped on every path (most non-f candidates end at a failed check).
    zeroize::Zeroize::zeroize(&mut s.win);
    zeroize::Zeroize::zeroize(s.cols.as_flattened_mut());
    zeroize::Zeroize::zeroize(s.selv.as_flattened_mut());
    zeroize::Zeroize::zeroize(&mut s.masks);
    res
}

/// Work space of [`eliminate`]: window bytes, their bit planes, the
/// selected fix-up rows and the byte masks of the row sums.
struct ElimScratch {
    win: [u8; MAX_MT],
    cols: [[u64; RW]; BLK],
    selv: [[u64; RW]; BLK],
    masks: [u8; MAX_MT],
}

/// The body of [`eliminate`].
#[inline(always)]
fn eliminate_in<P: ParameterSet, B: Backend, const CHECK: bool>(
    c: &mut [u8],
    pi: &mut [u16],
    s: &mut ElimScratch,
) -> Option<u64> {
    let mt = P::MT;
    let w = compact_bytes::<P>();
    // End of the row operations.
    let end = if CHECK {
        a1_bytes::<P>().next_multiple_of(32)
    } else {
        w
    };
    let mut pivots = 0xFFFF_FFFFu64;
    let ElimScratch {
        win,
        cols,
        selv,
        masks,
    } = s;
    let mut r = 0;
    while r < mt {
        if P::SEMI && r == mt - 32 {
            pivots = mov_columns::<P>(c, pi, w)?;
        }
        let mut nb = BLK.min(mt - r);
        if P::SEMI && r < mt - 32 {
            nb = nb.min(mt - 32 - r);
        }
        // Row operations start at the 32-byte block holding the first
        // pivot column: the columns before it are zero in every source row.
        let blk = (r / 8) & !31;

        // 1. Narrow run on the window bits, as bit vectors over the rows.
        let nrows = mt - r;
        let nw = nrows.div_ceil(64);
        for (k, x) in win[..nrows].iter_mut().enumerate() {
            *x = window(&c[(r + k) * w..(r + k + 1) * w], r, nb);
        }
        B::byte_planes(&win[..nrows], cols.as_flattened_mut(), RW, nb);
        // Declassified: "not systematic" means retry (reference
        // behaviour; the candidate key is discarded).
        if declassify_val(narrow_run(cols, nw, nb, selv)) != 0 {
            return None;
        }

        // 2. The block rows, wide.
        for j in 0..nb {
            let p = r + j;
            B::expand_bits(&selv[j][..nw], j + 1, &mut masks[..nrows - j - 1]);
            let (top, bot) = c.split_at_mut((p + 1) * w);
            let (done, prow) = top.split_at_mut(p * w);
            if p + 1 < mt {
                B::xor_rows_masked(&mut prow[blk..end], &bot[blk..], w, &masks[..mt - p - 1]);
            }
            // Reduce by the block's earlier pivot rows (reduced among
            // themselves: the masks are the row's own window bits).
            let wv = window(prow, r, nb);
            for (i, mk) in masks[..j].iter_mut().enumerate() {
                *mk = ((wv >> i) & 1).wrapping_neg();
            }
            if j > 0 {
                B::xor_rows_masked(&mut prow[blk..end], &done[r * w + blk..], w, &masks[..j]);
            }
            // Clear column p in the block's other rows.
            let (byte, bit) = (p / 8, p % 8);
            for q in r..r + nb {
                if q == p {
                    continue;
                }
                let (dst, src) = if q < p {
                    let (a, b) = c.split_at_mut(p * w);
                    (&mut a[q * w..q * w + w], &b[..w])
                } else {
                    let (a, b) = c.split_at_mut(q * w);
                    (&mut b[..w], &a[p * w..p * w + w])
                };
                let mask = ((dst[byte] >> bit) & 1).wrapping_neg();
                B::xor_masked(&mut dst[blk..end], &src[blk..], mask);
            }
        }

        // 3. Clear the window columns in every row outside the block
        // (below it only, for the check).
        let above = if CHECK { 0 } else { r };
        for k in (0..above).chain(r + nb..mt) {
            let (dst, src) = if k < r {
                let (a, b) = c.split_at_mut(r * w);
                (&mut a[k * w..k * w + w], &b[..nb * w])
            } else {
                let (a, b) = c.split_at_mut(k * w);
                (&mut b[..w], &a[r * w..(r + nb) * w])
            };
            let wv = window(dst, r, nb);
            for (i, mk) in masks[..nb].iter_mut().enumerate() {
                *mk = ((wv >> i) & 1).wrapping_neg();
            }
            B::xor_rows_masked(&mut dst[blk..end], &src[blk..], w, &masks[..nb]);
        }
        r += nb;
    }
    Some(pivots)
}

/// Words of a bit vector over the rows of the compact matrix.
const RW: usize = MAX_MT.div_ceil(64);

/// Step 1 of a block of [`eliminate`]: the one-pivot-at-a-time algorithm
/// on the window bits, transposed: `cols[i]` bit `k` is window column `i`
/// of block-relative row `k` (`nw` words; the pivot of column `j` is row
/// `j`). Sets `selv[j]` to the one-hot vector of the row added to pivot
/// row `j` (zero if its pivot is already 1) and returns 1 if some pivot
/// stays 0 (retry), else 0. Bit-vector words instead of one byte per row:
/// a pivot costs `O(nb * nw)` word operations, not `O(rows)`.
fn narrow_run(
    cols: &mut [[u64; RW]; BLK],
    nw: usize,
    nb: usize,
    selv: &mut [[u64; RW]; BLK],
) -> u64 {
    // CT: all-ones iff x != 0, opaque to the optimizer.
    let nz = |x: u64| core::hint::black_box(((x | x.wrapping_neg()) >> 63).wrapping_neg());
    let mut fail = 0u64;
    for j in 0..nb {
        // Make the pivot 1: the first later row with a 1 in column j
        // (lowest set bit above bit j; `found` carries across words).
        let zero = ((cols[j][0] >> j) & 1) ^ 1;
        let keep = core::hint::black_box(zero.wrapping_neg());
        let mut found = 0u64;
        for (wi, (s, &x)) in selv[j][..nw].iter_mut().zip(&cols[j][..nw]).enumerate() {
            let x = if wi == 0 { x & !((2u64 << j) - 1) } else { x };
            *s = x & x.wrapping_neg() & !found & keep;
            found |= nz(x);
        }
        for col in &mut cols[..nb] {
            let mut acc = 0u64;
            for (&x, &s) in col[..nw].iter().zip(&selv[j][..nw]) {
                acc |= x & s;
            }
            col[0] ^= (nz(acc) & 1) << j;
        }
        fail |= ((cols[j][0] >> j) & 1) ^ 1;
        // Clear column j in every other row.
        let mut targets = cols[j];
        targets[0] &= !(1u64 << j);
        for col in &mut cols[..nb] {
            // CT: opaque, or LLVM skips the column when the bit is 0.
            let wp = core::hint::black_box(((col[0] >> j) & 1).wrapping_neg());
            for (x, &t) in col[..nw].iter_mut().zip(&targets[..nw]) {
                *x ^= t & wp;
            }
        }
        zeroize::Zeroize::zeroize(&mut targets);
    }
    fail
}

/// Reads 64 bits at bit offset `s` of `b` (zero beyond the end).
fn load_bits(b: &[u8], s: usize) -> u64 {
    let mut t = [0u8; 9];
    for (k, x) in t.iter_mut().enumerate() {
        *x = b.get(s / 8 + k).copied().unwrap_or(0);
    }
    let lo = u64::from_le_bytes([t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]]);
    let r = s % 8;
    if r == 0 {
        lo
    } else {
        (lo >> r) | (u64::from(t[8]) << (64 - r))
    }
}

/// Writes 64 bits at bit offset `s` of `b`.
fn store_bits(b: &mut [u8], s: usize, v: u64) {
    let r = s % 8;
    let q = s / 8;
    let mut cur = [0u8; 9];
    cur.copy_from_slice(&b[q..q + 9]);
    let old = u128::from_le_bytes({
        let mut x = [0u8; 16];
        x[..9].copy_from_slice(&cur);
        x
    });
    let mask = u128::from(u64::MAX) << r;
    let new = (old & !mask) | (u128::from(v) << r);
    b[q..q + 9].copy_from_slice(&new.to_le_bytes()[..9]);
}

/// f variants: at row mt-32, find the pivots of the 32 x 64 window at
/// columns mt-32.., move them to columns mt-32..mt (all rows) and update
/// pi. Returns the pivot word, or `None` (retry) if the rank is below 32.
fn mov_columns<P: ParameterSet>(c: &mut [u8], pi: &mut [u16], w: usize) -> Option<u64> {
    let mt = P::MT;
    let row0 = mt - 32;
    let mut buf = [0u64; 32];
    for (i, x) in buf.iter_mut().enumerate() {
        *x = load_bits(&c[(row0 + i) * w..(row0 + i + 1) * w], row0);
    }
    // sel[i]: one-hot mask of the i-th pivot column of the window (the
    // lowest set bit of the remaining rows), found without bit indices.
    let mut sel = [0u64; 32];
    let mut pivots = 0u64;
    let mut fail = 0u64;
    // CT: 1 iff x != 0, as an opaque 0/1 value.
    let nz = |x: u64| core::hint::black_box((x | x.wrapping_neg()) >> 63);
    for i in 0..32 {
        let mut t = buf[i];
        for x in &buf[i + 1..] {
            t |= *x;
        }
        fail |= nz(t) ^ 1;
        let si = t & t.wrapping_neg();
        sel[i] = si;
        pivots |= si;
        for j in i + 1..32 {
            let mask = nz(buf[i] & si).wrapping_sub(1);
            buf[i] ^= buf[j] & mask;
        }
        for j in i + 1..32 {
            let mask = nz(buf[j] & si).wrapping_neg();
            buf[j] ^= buf[i] & mask;
        }
    }
    // Declassified: rank < 32 means retry (reference behaviour).
    if declassify_val(fail) != 0 {
        return None;
    }
    // Same swaps as the reference: for j, swap positions j and ctz(sel[j]).
    for (j, &sj) in sel.iter().enumerate() {
        for k in j + 1..64 {
            let same = (((sj >> k) & 1) as u16).wrapping_neg();
            let d = (pi[row0 + j] ^ pi[row0 + k]) & core::hint::black_box(same);
            pi[row0 + j] ^= d;
            pi[row0 + k] ^= d;
        }
    }
    for i in 0..mt {
        let rowb = &mut c[i * w..(i + 1) * w];
        let mut t = load_bits(rowb, row0);
        for (j, &sj) in sel.iter().enumerate() {
            let d = ((t >> j) & 1) ^ nz(t & sj);
            t ^= d.wrapping_neg() & sj;
            t ^= d << j;
        }
        store_bits(rowb, row0, t);
    }
    Some(pivots)
}

/// Phase 5: `T[:, 0..8hb] = A^-1 H[:, mt..mt+8hb]` into the row heads.
#[inline(never)]
fn heads<P: ParameterSet, B: Backend>(pk: &mut [u8], pi: &[u16], g: &[u16]) {
    let (m, mt, n) = (P::M, P::MT, P::N);
    let rb = P::ROW_BYTES;
    let ab = mt.div_ceil(8);
    let hb = (n - 2 * mt) / 8;
    for r in 0..mt {
        pk[r * rb..r * rb + hb].fill(0);
    }
    let mut cols = ColGen::<HEAD_BLOCKS>::empty();
    cols.init(m, pi, g, mt, mt + 8 * hb);
    let mut rows = [[0u8; HB_MAX]; MAX_M];
    for i in 0..P::T {
        cols.next_rows::<B>(mt, 8 * hb, rows.as_flattened_mut(), HB_MAX);
        let k0 = i * m;
        let mut masks = [0u8; MAX_M];
        for r in 0..mt {
            let row = &mut pk[r * rb..(r + 1) * rb];
            let (head, tail) = row.split_at_mut(rb - ab);
            let ainv = &tail[..ab];
            for (b, mk) in masks[..m].iter_mut().enumerate() {
                let k = k0 + b;
                // CT: mask from a bit of A^-1.
                *mk = ((ainv[k / 8] >> (k % 8)) & 1).wrapping_neg();
            }
            B::xor_rows_masked(&mut head[..hb], rows.as_flattened(), HB_MAX, &masks[..m]);
        }
        zeroize::Zeroize::zeroize(&mut masks);
    }
    zeroize::Zeroize::zeroize(rows.as_flattened_mut());
}

/// Phase 6: the last `(n - mt) - 8hb` columns of T, in row batches.
#[inline(never)]
fn tails<P: ParameterSet, B: Backend>(pk: &mut [u8], pi: &[u16], g: &[u16]) {
    const R: usize = 64;
    let (m, mt, n) = (P::M, P::MT, P::N);
    let rb = P::ROW_BYTES;
    let ab = mt.div_ceil(8);
    let hb = (n - 2 * mt) / 8;
    let c0 = mt + 8 * hb;
    let wt = n - c0;
    let tb = rb - hb;
    let mut acc = [[0u8; TB_MAX]; R];
    let mut rows = [[0u8; TB_MAX]; MAX_M];
    let mut cols = ColGen::<TAIL_BLOCKS>::empty();
    // The generator at power 0 (support and 1/g(L_j) of the tail columns),
    // computed once and restarted from for every batch of rows.
    let mut start = ColGen::<TAIL_BLOCKS>::empty();
    start.init(m, pi, g, c0, n);
    let mut r0 = 0;
    while r0 < mt {
        let r1 = (r0 + R).min(mt);
        for a in &mut acc {
            a.fill(0);
        }
        cols.copy_from(&start);
        for i in 0..P::T {
            cols.next_rows::<B>(c0, wt, rows.as_flattened_mut(), TB_MAX);
            let k0 = i * m;
            let mut masks = [0u8; MAX_M];
            for r in r0..r1 {
                let ainv = &pk[(r + 1) * rb - ab..(r + 1) * rb];
                let a = &mut acc[r - r0];
                for (b, mk) in masks[..m].iter_mut().enumerate() {
                    let k = k0 + b;
                    // CT: mask from a bit of A^-1.
                    *mk = ((ainv[k / 8] >> (k % 8)) & 1).wrapping_neg();
                }
                B::xor_rows_masked(&mut a[..tb], rows.as_flattened(), TB_MAX, &masks[..m]);
            }
            zeroize::Zeroize::zeroize(&mut masks);
        }
        for r in r0..r1 {
            pk[r * rb + hb..(r + 1) * rb].copy_from_slice(&acc[r - r0][..tb]);
        }
        r0 = r1;
    }
    zeroize::Zeroize::zeroize(acc.as_flattened_mut());
    zeroize::Zeroize::zeroize(rows.as_flattened_mut());
}
