//! The hash suites of FIPS 205 §11: SHAKE256 for the SHAKE sets; SHA-256
//! (category 1) or SHA-256 and SHA-512 (categories 3 and 5) with the
//! compressed address for the SHA2 sets. A suite value holds what is
//! fixed per key: PK.seed and, for SHA2, the chaining value after the
//! padded PK.seed block, so that every F, H and PRF starts from it.

use pqforge_core::ct::wipe;
use pqforge_core::hmac::{HmacSha256, HmacSha512, mgf1_sha256, mgf1_sha512};
use pqforge_core::keccak::{Shake256, shake256_short};
use pqforge_core::sha2::{Sha256, Sha512, compress256, compress512};

use crate::adrs::Adrs;

/// A streaming T_l: absorbs the l values, then writes n bytes.
pub trait TState {
    /// Absorbs one value.
    fn update(&mut self, x: &[u8]);
    /// Writes the n-byte result; the state is used up (by reference, not
    /// by value: moving a 200-byte Keccak state costs a copy and, on the
    /// Cortex-M4, a second stack slot).
    fn finalize(&mut self, out: &mut [u8]);
}

/// Which family a suite is, for the multi-lane backends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// SHAKE256 throughout.
    Shake,
    /// SHA-256 throughout (category 1).
    Sha2Cat1,
    /// SHA-256 for PRF and F, SHA-512 for H and T (categories 3 and 5).
    Sha2Cat35,
}

/// What a suite fixes per key, as plain data for the multi-lane backends:
/// PK.seed (SHAKE) or the chaining values after the padded PK.seed block
/// (SHA2; the fields a family does not use are zero).
#[derive(Clone, Copy, Debug)]
pub struct Keyed {
    /// The family.
    pub family: Family,
    /// n.
    pub n: usize,
    /// PK.seed (first n bytes; SHAKE).
    pub seed: [u8; 32],
    /// SHA-256 chaining value after PK.seed || 0^(64 - n).
    pub s256: [u32; 8],
    /// SHA-512 chaining value after PK.seed || 0^(128 - n) (categories 3, 5).
    pub s512: [u64; 8],
}

/// The keyed hash functions of one family.
pub trait HashSuite: Sized {
    /// T_l in progress.
    type T: TState;
    /// The per-key state as plain data (multi-lane backends).
    fn keyed(&self) -> Keyed;
    /// The suite for PK.seed (n = `pk_seed.len()`).
    fn new(pk_seed: &[u8]) -> Self;
    /// PRF(PK.seed, SK.seed, ADRS).
    fn prf(&self, adrs: &Adrs, sk_seed: &[u8], out: &mut [u8]);
    /// F(PK.seed, ADRS, M1).
    fn f(&self, adrs: &Adrs, m: &[u8], out: &mut [u8]);
    /// H(PK.seed, ADRS, M1 || M2).
    fn h(&self, adrs: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]);
    /// T_l(PK.seed, ADRS, ...): started, values to follow.
    fn t_start(&self, adrs: &Adrs) -> Self::T;
    /// H_msg(R, PK.seed, PK.root, M) with M the concatenation of `msg`.
    fn h_msg(r: &[u8], pk_seed: &[u8], pk_root: &[u8], msg: &[&[u8]], out: &mut [u8]);
    /// PRF_msg(SK.prf, opt_rand, M).
    fn prf_msg(sk_prf: &[u8], opt_rand: &[u8], msg: &[&[u8]], out: &mut [u8]);
}

/// The SHAKE sets: every function is SHAKE256 of its concatenated inputs.
pub struct Shake {
    seed: [u8; 32],
    n: usize,
}

impl Shake {
    /// SHAKE256(PK.seed || ADRS || m1 || m2) to n bytes, all one block
    /// (at most 3n + 32 = 128 bytes, for H): written straight into the
    /// state and permuted once, without the streaming sponge's buffering.
    fn one_block(&self, adrs: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]) {
        shake256_short(&[&self.seed[..self.n], &adrs.0, m1, m2], out);
    }

    fn start(&self, adrs: &Adrs) -> Shake256 {
        let mut s = Shake256::new();
        s.absorb(&self.seed[..self.n]);
        s.absorb(&adrs.0);
        s
    }
}

/// T_l of the SHAKE sets.
pub struct ShakeT(Shake256);

impl TState for ShakeT {
    fn update(&mut self, x: &[u8]) {
        self.0.absorb(x);
    }
    fn finalize(&mut self, out: &mut [u8]) {
        self.0.squeeze(out);
    }
}

impl HashSuite for Shake {
    type T = ShakeT;
    fn keyed(&self) -> Keyed {
        Keyed {
            family: Family::Shake,
            n: self.n,
            seed: self.seed,
            s256: [0; 8],
            s512: [0; 8],
        }
    }
    fn new(pk_seed: &[u8]) -> Self {
        let mut seed = [0u8; 32];
        seed[..pk_seed.len()].copy_from_slice(pk_seed);
        Self {
            seed,
            n: pk_seed.len(),
        }
    }
    fn prf(&self, adrs: &Adrs, sk_seed: &[u8], out: &mut [u8]) {
        self.f(adrs, sk_seed, out);
    }
    fn f(&self, adrs: &Adrs, m: &[u8], out: &mut [u8]) {
        self.one_block(adrs, m, &[], out);
    }
    fn h(&self, adrs: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]) {
        self.one_block(adrs, m1, m2, out);
    }
    fn t_start(&self, adrs: &Adrs) -> ShakeT {
        ShakeT(self.start(adrs))
    }
    fn h_msg(r: &[u8], pk_seed: &[u8], pk_root: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        let mut s = Shake256::new();
        for p in [r, pk_seed, pk_root].into_iter().chain(msg.iter().copied()) {
            s.absorb(p);
        }
        s.squeeze(out);
    }
    fn prf_msg(sk_prf: &[u8], opt_rand: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        Self::h_msg(sk_prf, opt_rand, &[], msg, out);
    }
}

/// SHA-256 continued from the chaining value after PK.seed || 0^(64 - n).
fn sha256_after_seed(pk_seed: &[u8]) -> [u32; 8] {
    let mut block = [0u8; 64];
    block[..pk_seed.len()].copy_from_slice(pk_seed);
    let mut h = Sha256::new();
    h.update(&block);
    h.midstate().map_or([0; 8], |(s, _)| s)
}

/// SHA-512 continued from the chaining value after PK.seed || 0^(128 - n).
fn sha512_after_seed(pk_seed: &[u8]) -> [u64; 8] {
    let mut block = [0u8; 128];
    block[..pk_seed.len()].copy_from_slice(pk_seed);
    let mut h = Sha512::new();
    h.update(&block);
    h.midstate().map_or([0; 8], |(s, _)| s)
}

/// The SHA2 sets of category 1 (n = 16): SHA-256 throughout.
pub struct Sha2Cat1 {
    s256: [u32; 8],
    n: usize,
}

/// The SHA2 sets of categories 3 and 5 (n = 24, 32): PRF and F on SHA-256,
/// H, T, H_msg and PRF_msg on SHA-512.
pub struct Sha2Cat35 {
    s256: [u32; 8],
    s512: [u64; 8],
    n: usize,
}

/// SHA-256 from the PK.seed chaining value, ADRSc absorbed.
fn s256(state: [u32; 8], adrs: &Adrs) -> Sha256 {
    let mut h = Sha256::from_midstate(state, 1);
    h.update(&adrs.compressed());
    h
}

/// SHA-512 from the PK.seed chaining value, ADRSc absorbed.
fn s512(state: [u64; 8], adrs: &Adrs) -> Sha512 {
    let mut h = Sha512::from_midstate(state, 1);
    h.update(&adrs.compressed());
    h
}

/// `dst` = `src` (equal lengths, multiples of 8) in 8-byte pieces: no
/// call to `memcpy` for these short, variable-length copies.
pub(crate) fn copy8(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.chunks_exact_mut(8).zip(src.chunks_exact(8)) {
        d.copy_from_slice(s);
    }
}

/// The last SHA-2 block of ADRSc || m1 || m2 after the one PK.seed block,
/// padded, into a zeroed block of 64 (SHA-256) or 128 (SHA-512) bytes: the
/// bit length fits the low 8 bytes of either length field, whose upper
/// bytes stay zero. F, PRF and H of every SHA2 set are this one block
/// (at most 22 + 2n bytes of input: 54 for SHA-256, 86 for SHA-512).
pub(crate) fn pad_block(b: &mut [u8], a: &Adrs, m1: &[u8], m2: &[u8]) {
    let total = 22 + m1.len() + m2.len();
    b[..22].copy_from_slice(&a.compressed());
    copy8(&mut b[22..22 + m1.len()], m1);
    copy8(&mut b[22 + m1.len()..total], m2);
    b[total] = 0x80;
    let len = b.len();
    b[len - 8..].copy_from_slice(&((len + total) as u64 * 8).to_be_bytes());
}

/// SHA-256 of PK.seed || 0^(64 - n) || ADRSc || m1 || m2 (one block after
/// the chaining value `state`), truncated to `out.len()`: the streaming
/// hasher's buffering, padding and wiping cost about a third of a
/// compression per call on the Cortex-M4; this is the block built once.
fn sha256_one(state: &[u32; 8], a: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]) {
    let mut b = [0u8; 64];
    pad_block(&mut b, a, m1, m2);
    let mut st = *state;
    compress256(&mut st, &b);
    for (o, w) in out.chunks_exact_mut(4).zip(&st) {
        o.copy_from_slice(&w.to_be_bytes());
    }
    // The block may hold SK.seed (PRF) or secret chain values.
    wipe(&mut b);
    wipe(&mut st);
}

/// SHA-512 of PK.seed || 0^(128 - n) || ADRSc || m1 || m2, as
/// [`sha256_one`].
fn sha512_one(state: &[u64; 8], a: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]) {
    let mut b = [0u8; 128];
    pad_block(&mut b, a, m1, m2);
    let mut st = *state;
    compress512(&mut st, &b);
    for (o, w) in out.chunks_exact_mut(8).zip(&st) {
        o.copy_from_slice(&w.to_be_bytes());
    }
    wipe(&mut b);
    wipe(&mut st);
}

/// T_l on SHA-256, truncated to n.
pub struct Sha256T(Sha256, usize);

impl TState for Sha256T {
    fn update(&mut self, x: &[u8]) {
        self.0.update(x);
    }
    fn finalize(&mut self, out: &mut [u8]) {
        out.copy_from_slice(&core::mem::take(&mut self.0).finalize()[..self.1]);
    }
}

/// T_l on SHA-512, truncated to n.
pub struct Sha512T(Sha512, usize);

impl TState for Sha512T {
    fn update(&mut self, x: &[u8]) {
        self.0.update(x);
    }
    fn finalize(&mut self, out: &mut [u8]) {
        out.copy_from_slice(&core::mem::take(&mut self.0).finalize()[..self.1]);
    }
}

impl HashSuite for Sha2Cat1 {
    type T = Sha256T;
    fn keyed(&self) -> Keyed {
        Keyed {
            family: Family::Sha2Cat1,
            n: self.n,
            seed: [0; 32],
            s256: self.s256,
            s512: [0; 8],
        }
    }
    fn new(pk_seed: &[u8]) -> Self {
        Self {
            s256: sha256_after_seed(pk_seed),
            n: pk_seed.len(),
        }
    }
    fn prf(&self, adrs: &Adrs, sk_seed: &[u8], out: &mut [u8]) {
        self.f(adrs, sk_seed, out);
    }
    fn f(&self, adrs: &Adrs, m: &[u8], out: &mut [u8]) {
        sha256_one(&self.s256, adrs, m, &[], &mut out[..self.n]);
    }
    fn h(&self, adrs: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]) {
        sha256_one(&self.s256, adrs, m1, m2, &mut out[..self.n]);
    }
    fn t_start(&self, adrs: &Adrs) -> Sha256T {
        Sha256T(s256(self.s256, adrs), self.n)
    }
    fn h_msg(r: &[u8], pk_seed: &[u8], pk_root: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        let mut h = Sha256::new();
        for p in [r, pk_seed, pk_root].into_iter().chain(msg.iter().copied()) {
            h.update(p);
        }
        let d = h.finalize();
        mgf1_sha256(&[r, pk_seed, &d], out);
    }
    fn prf_msg(sk_prf: &[u8], opt_rand: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        let mut m = HmacSha256::new(sk_prf);
        m.update(opt_rand);
        for p in msg {
            m.update(p);
        }
        out.copy_from_slice(&m.finalize()[..out.len()]);
    }
}

impl HashSuite for Sha2Cat35 {
    type T = Sha512T;
    fn keyed(&self) -> Keyed {
        Keyed {
            family: Family::Sha2Cat35,
            n: self.n,
            seed: [0; 32],
            s256: self.s256,
            s512: self.s512,
        }
    }
    fn new(pk_seed: &[u8]) -> Self {
        Self {
            s256: sha256_after_seed(pk_seed),
            s512: sha512_after_seed(pk_seed),
            n: pk_seed.len(),
        }
    }
    fn prf(&self, adrs: &Adrs, sk_seed: &[u8], out: &mut [u8]) {
        self.f(adrs, sk_seed, out);
    }
    fn f(&self, adrs: &Adrs, m: &[u8], out: &mut [u8]) {
        sha256_one(&self.s256, adrs, m, &[], &mut out[..self.n]);
    }
    fn h(&self, adrs: &Adrs, m1: &[u8], m2: &[u8], out: &mut [u8]) {
        sha512_one(&self.s512, adrs, m1, m2, &mut out[..self.n]);
    }
    fn t_start(&self, adrs: &Adrs) -> Sha512T {
        Sha512T(s512(self.s512, adrs), self.n)
    }
    fn h_msg(r: &[u8], pk_seed: &[u8], pk_root: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        let mut h = Sha512::new();
        for p in [r, pk_seed, pk_root].into_iter().chain(msg.iter().copied()) {
            h.update(p);
        }
        let d = h.finalize();
        mgf1_sha512(&[r, pk_seed, &d], out);
    }
    fn prf_msg(sk_prf: &[u8], opt_rand: &[u8], msg: &[&[u8]], out: &mut [u8]) {
        let mut m = HmacSha512::new(sk_prf);
        m.update(opt_rand);
        for p in msg {
            m.update(p);
        }
        out.copy_from_slice(&m.finalize()[..out.len()]);
    }
}
