//! F, PRF, H and T_l on eight independent lanes, byte-identical to the
//! one-lane suites of `crate::hash`.
//!
//! * SHA2 sets: every lane starts from the chaining value after the padded
//!   PK.seed block. F and PRF (ADRSc, 22 bytes, and n bytes) and H
//!   (ADRSc and 2n bytes) are one padded block each: SHA-256 for F, PRF
//!   and category 1's H ([`compress256_x8`]), SHA-512 for the H of
//!   categories 3 and 5 (two [`compress512_x4`]). T_l runs block after
//!   block over each lane's buffer.
//! * SHAKE sets: PK.seed || ADRS || M (at most 128 bytes for F, PRF and
//!   H) is one padded SHAKE256 block; lanes 0-3 and 4-7 are two four-way
//!   Keccak states permuted by [`keccak_f1600_x4_pair`] (one pass on
//!   512-bit registers with AVX-512, two AVX2 passes otherwise).
//!
//! No branch or index depends on the hashed values. Scratch blocks and
//! states, which may hold SK.seed or secret chain values, are wiped before
//! returning, as core's one-lane hashes wipe theirs on drop.

use pqforge_core::keccak_x4::keccak_f1600_x4_pair;
use pqforge_core::sha2_multi::{compress256_x8, compress512_x4};

use crate::adrs::Adrs;
use crate::hash::{Family, Keyed, pad_block};

/// Lanes per call.
pub(crate) const LANES: usize = 8;

/// One n-byte value (n ≤ 32) in a 32-byte buffer.
pub(crate) type Val = [u8; 32];

/// Bytes of a T_l lane buffer: the largest header (n + 32), 67 values of
/// 32 bytes, and the padding of every family (SHAKE256: 17 blocks of 136).
pub(crate) const TBUF: usize = 2320;

/// SHAKE256's rate in bytes.
const RATE: usize = 136;

/// The eight-lane hash functions of one key.
pub(crate) struct X8 {
    k: Keyed,
    /// PK.seed as little-endian words (SHAKE).
    seed_w: [u64; 4],
}

impl X8 {
    /// The functions for the key of `k`.
    pub(crate) fn new(k: Keyed) -> Self {
        let mut seed_w = [0u64; 4];
        for (w, b) in seed_w.iter_mut().zip(k.seed.chunks_exact(8)) {
            *w = le64(b);
        }
        Self { k, seed_w }
    }

    /// n.
    pub(crate) fn n(&self) -> usize {
        self.k.n
    }

    /// F (or PRF, with `x[j]` = SK.seed) on every lane, in place:
    /// `x[j]` = F(PK.seed, `adrs[j]`, `x[j]`).
    pub(crate) fn f(&self, adrs: &[Adrs; LANES], x: &mut [Val; LANES]) {
        let n = self.k.n;
        let mut x0 = *x;
        match self.k.family {
            Family::Shake => self.shake_one(adrs, |j| (&x0[j][..n], &[]), x),
            Family::Sha2Cat1 | Family::Sha2Cat35 => {
                self.sha256_one(adrs, |j| (&x0[j][..n], &[]), x);
            }
        }
        pqforge_core::ct::wipe(x0.as_flattened_mut());
    }

    /// `steps` iterations of F on every lane from hash address `start`
    /// (chain(), Algorithm 5, on eight chains of the same length), in
    /// place. `adrs[j]`: type WOTS_HASH with key pair and chain set. The
    /// padded blocks (SHA2) or the state's constant words (SHAKE) are built
    /// once; each step changes only the hash address and the chained value.
    pub(crate) fn chain(&self, adrs: &[Adrs; LANES], x: &mut [Val; LANES], start: u32, steps: u32) {
        let n = self.k.n;
        match self.k.family {
            Family::Shake => {
                // Lane j's block in words: PK.seed, ADRS (its hash address is
                // the high half of word (n + 24) / 8), the value from word
                // (n + 32) / 8, padding. As the four-way states' first 17
                // words (lane i of instance l at 4i + l).
                let (hw, mw) = ((n + 24) / 8, (n + 32) / 8);
                let mut tpl = [[0u64; 4 * 17]; 2];
                let mut b = [0u8; RATE];
                for (j, a) in adrs.iter().enumerate() {
                    b[..n].copy_from_slice(&self.k.seed[..n]);
                    b[n..n + 32].copy_from_slice(&a.0);
                    b[n + 32..2 * n + 32].copy_from_slice(&x[j][..n]);
                    b[2 * n + 32..].fill(0);
                    b[2 * n + 32] = 0x1F;
                    b[RATE - 1] |= 0x80;
                    for (i, w) in b.chunks_exact(8).enumerate() {
                        tpl[j / 4][4 * i + (j & 3)] =
                            u64::from_le_bytes(w.try_into().unwrap_or_else(|_| unreachable!()));
                    }
                }
                let (mut sa, mut sb) = ([0u64; 100], [0u64; 100]);
                for s in start..start + steps {
                    let hash = u64::from(s.swap_bytes()) << 32;
                    for t in &mut tpl {
                        for w in &mut t[4 * hw..4 * hw + 4] {
                            *w = (*w & 0xFFFF_FFFF) | hash;
                        }
                    }
                    sa[..68].copy_from_slice(&tpl[0]);
                    sa[68..].fill(0);
                    sb[..68].copy_from_slice(&tpl[1]);
                    sb[68..].fill(0);
                    keccak_f1600_x4_pair(&mut sa, &mut sb);
                    let w = n / 8;
                    tpl[0][4 * mw..4 * (mw + w)].copy_from_slice(&sa[..4 * w]);
                    tpl[1][4 * mw..4 * (mw + w)].copy_from_slice(&sb[..4 * w]);
                }
                squeeze_words(&tpl, mw, n, x);
                pqforge_core::ct::wipe(tpl.as_flattened_mut());
                pqforge_core::ct::wipe(&mut sa);
                pqforge_core::ct::wipe(&mut sb);
            }
            Family::Sha2Cat1 | Family::Sha2Cat35 => {
                let mut blocks = [[0u8; 64]; LANES];
                let bits = ((64 + 22 + n) as u64 * 8).to_be_bytes();
                for ((b, a), x) in blocks.iter_mut().zip(adrs).zip(x.iter()) {
                    b[..22].copy_from_slice(&a.compressed());
                    b[22..22 + n].copy_from_slice(&x[..n]);
                    b[22 + n] = 0x80;
                    b[56..].copy_from_slice(&bits);
                }
                for s in start..start + steps {
                    let mut st = [self.k.s256; LANES];
                    for b in &mut blocks {
                        // The hash address: ADRSc bytes 18..22.
                        b[18..22].copy_from_slice(&s.to_be_bytes());
                    }
                    compress256_x8(&mut st, core::array::from_fn(|j| &blocks[j]));
                    for (b, st) in blocks.iter_mut().zip(&st) {
                        for (o, w) in b[22..22 + n].chunks_exact_mut(4).zip(st) {
                            o.copy_from_slice(&w.to_be_bytes());
                        }
                    }
                }
                for (x, b) in x.iter_mut().zip(&blocks) {
                    x[..n].copy_from_slice(&b[22..22 + n]);
                }
                pqforge_core::ct::wipe(blocks.as_flattened_mut());
            }
        }
    }

    /// H on every lane: `out[j]` = H(PK.seed, `adrs[j]`, `l[j]` || `r[j]`).
    pub(crate) fn h(
        &self,
        adrs: &[Adrs; LANES],
        l: &[Val; LANES],
        r: &[Val; LANES],
        out: &mut [Val; LANES],
    ) {
        let n = self.k.n;
        match self.k.family {
            Family::Shake => self.shake_one(adrs, |j| (&l[j][..n], &r[j][..n]), out),
            Family::Sha2Cat1 => self.sha256_one(adrs, |j| (&l[j][..n], &r[j][..n]), out),
            Family::Sha2Cat35 => self.sha512_one(adrs, |j| (&l[j][..n], &r[j][..n]), out),
        }
    }

    /// Where a T_l lane buffer's data starts (after PK.seed || ADRS, or
    /// ADRSc).
    pub(crate) fn t_off(&self) -> usize {
        match self.k.family {
            Family::Shake => self.k.n + 32,
            Family::Sha2Cat1 | Family::Sha2Cat35 => 22,
        }
    }

    /// T_l on every lane: `out[j]` = T(PK.seed, `adrs[j]`, data) with the
    /// `len` data bytes at `buf[j][t_off()..]`. The header and the padding
    /// around the data are written here.
    pub(crate) fn t(
        &self,
        adrs: &[Adrs; LANES],
        buf: &mut [[u8; TBUF]; LANES],
        len: usize,
        out: &mut [Val; LANES],
    ) {
        let n = self.k.n;
        match self.k.family {
            Family::Shake => {
                let total = n + 32 + len;
                let blocks = (total + 1).div_ceil(RATE);
                for (b, a) in buf.iter_mut().zip(adrs) {
                    b[..n].copy_from_slice(&self.k.seed[..n]);
                    b[n..n + 32].copy_from_slice(&a.0);
                    b[total..blocks * RATE].fill(0);
                    b[total] ^= 0x1F;
                    b[blocks * RATE - 1] ^= 0x80;
                }
                let (mut sa, mut sb) = ([0u64; 100], [0u64; 100]);
                for blk in 0..blocks {
                    for (j, b) in buf.iter().enumerate() {
                        let st = if j < 4 { &mut sa } else { &mut sb };
                        xor_block(st, j & 3, &b[blk * RATE..(blk + 1) * RATE]);
                    }
                    keccak_f1600_x4_pair(&mut sa, &mut sb);
                }
                squeeze(&sa, &sb, n, out);
                pqforge_core::ct::wipe(&mut sa);
                pqforge_core::ct::wipe(&mut sb);
            }
            Family::Sha2Cat1 => {
                let total = 22 + len;
                let blocks = (total + 9).div_ceil(64);
                let bits = ((64 + total) as u64 * 8).to_be_bytes();
                for (b, a) in buf.iter_mut().zip(adrs) {
                    b[..22].copy_from_slice(&a.compressed());
                    b[total..blocks * 64].fill(0);
                    b[total] = 0x80;
                    b[blocks * 64 - 8..blocks * 64].copy_from_slice(&bits);
                }
                let mut st = [self.k.s256; LANES];
                for blk in 0..blocks {
                    compress256_x8(&mut st, core::array::from_fn(|j| block64(&buf[j], blk)));
                }
                out256(&st, n, out);
            }
            Family::Sha2Cat35 => {
                let total = 22 + len;
                let blocks = (total + 17).div_ceil(128);
                let bits = ((128 + total) as u128 * 8).to_be_bytes();
                for (b, a) in buf.iter_mut().zip(adrs) {
                    b[..22].copy_from_slice(&a.compressed());
                    b[total..blocks * 128].fill(0);
                    b[total] = 0x80;
                    b[blocks * 128 - 16..blocks * 128].copy_from_slice(&bits);
                }
                let mut st = [self.k.s512; LANES];
                for blk in 0..blocks {
                    let (lo, hi) = st.split_at_mut(4);
                    compress512_x4(
                        lo.try_into().unwrap_or_else(|_| unreachable!()),
                        core::array::from_fn(|j| block128(&buf[j], blk)),
                    );
                    compress512_x4(
                        hi.try_into().unwrap_or_else(|_| unreachable!()),
                        core::array::from_fn(|j| block128(&buf[4 + j], blk)),
                    );
                }
                out512(&st, n, out);
            }
        }
    }

    /// One padded SHAKE256 block per lane: PK.seed || `adrs[j]` || m1 || m2
    /// (at most 128 bytes, lengths multiples of 8), squeezed to n bytes. The
    /// state is written word by word.
    fn shake_one<'a>(
        &self,
        adrs: &[Adrs; LANES],
        m: impl Fn(usize) -> (&'a [u8], &'a [u8]),
        out: &mut [Val; LANES],
    ) {
        let nw = self.k.n / 8;
        let (mut sa, mut sb) = ([0u64; 100], [0u64; 100]);
        for (j, a) in adrs.iter().enumerate() {
            let (m1, m2) = m(j);
            let st = if j < 4 { &mut sa } else { &mut sb };
            let l = j & 3;
            let words = self.seed_w[..nw]
                .iter()
                .copied()
                .chain(a.0.chunks_exact(8).map(le64))
                .chain(m1.chunks_exact(8).map(le64))
                .chain(m2.chunks_exact(8).map(le64));
            let mut i = 0;
            for w in words {
                st[4 * i + l] = w;
                i += 1;
            }
            st[4 * i + l] = 0x1F;
            st[4 * 16 + l] ^= 0x80 << 56;
        }
        keccak_f1600_x4_pair(&mut sa, &mut sb);
        squeeze(&sa, &sb, self.k.n, out);
        pqforge_core::ct::wipe(&mut sa);
        pqforge_core::ct::wipe(&mut sb);
    }

    /// One padded SHA-256 block per lane from the PK.seed chaining value:
    /// ADRSc || m1 || m2 (at most 33 bytes of message), truncated to n.
    fn sha256_one<'a>(
        &self,
        adrs: &[Adrs; LANES],
        m: impl Fn(usize) -> (&'a [u8], &'a [u8]),
        out: &mut [Val; LANES],
    ) {
        let mut blocks = [[0u8; 64]; LANES];
        for (j, (b, a)) in blocks.iter_mut().zip(adrs).enumerate() {
            let (m1, m2) = m(j);
            pad_block(b, a, m1, m2);
        }
        let mut st = [self.k.s256; LANES];
        compress256_x8(&mut st, core::array::from_fn(|j| &blocks[j]));
        out256(&st, self.k.n, out);
        pqforge_core::ct::wipe(blocks.as_flattened_mut());
    }

    /// One padded SHA-512 block per lane from the PK.seed chaining value:
    /// ADRSc || m1 || m2 (at most 89 bytes of message), truncated to n.
    fn sha512_one<'a>(
        &self,
        adrs: &[Adrs; LANES],
        m: impl Fn(usize) -> (&'a [u8], &'a [u8]),
        out: &mut [Val; LANES],
    ) {
        let mut blocks = [[0u8; 128]; LANES];
        for (j, (b, a)) in blocks.iter_mut().zip(adrs).enumerate() {
            let (m1, m2) = m(j);
            pad_block(b, a, m1, m2);
        }
        let mut st = [self.k.s512; LANES];
        let (lo, hi) = st.split_at_mut(4);
        compress512_x4(
            lo.try_into().unwrap_or_else(|_| unreachable!()),
            core::array::from_fn(|j| &blocks[j]),
        );
        compress512_x4(
            hi.try_into().unwrap_or_else(|_| unreachable!()),
            core::array::from_fn(|j| &blocks[4 + j]),
        );
        out512(&st, self.k.n, out);
        pqforge_core::ct::wipe(blocks.as_flattened_mut());
    }
}

/// A little-endian word from 8 bytes.
fn le64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b.try_into().unwrap_or_else(|_| unreachable!("8 bytes")))
}

/// Block `i` (64 bytes) of a lane buffer.
fn block64(b: &[u8; TBUF], i: usize) -> &[u8; 64] {
    b[i * 64..(i + 1) * 64]
        .try_into()
        .unwrap_or_else(|_| unreachable!("64 bytes"))
}

/// Block `i` (128 bytes) of a lane buffer.
fn block128(b: &[u8; TBUF], i: usize) -> &[u8; 128] {
    b[i * 128..(i + 1) * 128]
        .try_into()
        .unwrap_or_else(|_| unreachable!("128 bytes"))
}

/// XORs one 136-byte block into instance `lane` of a four-way state
/// (lane i of instance j is word 4i + j).
fn xor_block(st: &mut [u64; 100], lane: usize, block: &[u8]) {
    for (i, w) in block[..RATE].chunks_exact(8).enumerate() {
        st[4 * i + lane] ^= u64::from_le_bytes(w.try_into().unwrap_or_else(|_| unreachable!()));
    }
}

/// The first n bytes of each of the eight instances.
fn squeeze(sa: &[u64; 100], sb: &[u64; 100], n: usize, out: &mut [Val; LANES]) {
    for (j, o) in out.iter_mut().enumerate() {
        let st = if j < 4 { sa } else { sb };
        for (i, w) in o[..n].chunks_exact_mut(8).enumerate() {
            w.copy_from_slice(&st[4 * i + (j & 3)].to_le_bytes());
        }
    }
}

/// The n bytes from word `mw` of each lane of two four-way word templates.
fn squeeze_words(tpl: &[[u64; 68]; 2], mw: usize, n: usize, out: &mut [Val; LANES]) {
    for (j, o) in out.iter_mut().enumerate() {
        for (i, w) in o[..n].chunks_exact_mut(8).enumerate() {
            w.copy_from_slice(&tpl[j / 4][4 * (mw + i) + (j & 3)].to_le_bytes());
        }
    }
}

/// The first n bytes of each SHA-256 state (big-endian words).
fn out256(st: &[[u32; 8]; LANES], n: usize, out: &mut [Val; LANES]) {
    for (s, o) in st.iter().zip(out.iter_mut()) {
        for (w, b) in s.iter().zip(o[..n].chunks_exact_mut(4)) {
            b.copy_from_slice(&w.to_be_bytes());
        }
    }
}

/// The first n bytes of each SHA-512 state (big-endian words).
fn out512(st: &[[u64; 8]; LANES], n: usize, out: &mut [Val; LANES]) {
    for (s, o) in st.iter().zip(out.iter_mut()) {
        for (w, b) in s.iter().zip(o[..n].chunks_exact_mut(8)) {
            b.copy_from_slice(&w.to_be_bytes());
        }
    }
}
