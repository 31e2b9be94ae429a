//! HQC-PKE and the HQC-KEM (salted Fujisaki-Okamoto transform with implicit
//! rejection), written once, generic over the parameter set and the
//! [`Backend`].
//!
//! Hashes (all with a trailing domain byte):
//! G = SHA3-512(·||0x00), H = SHA3-256(·||0x01), I = SHA3-512(·||0x02),
//! J = SHA3-256(·||0x03); the XOF is SHAKE256(seed||0x01).
//!
//! * KeyGen(seed_kem): (seed_pke, σ) from XOF(seed_kem);
//!   (seed_dk, seed_ek) = I(seed_pke); y then x from XOF(seed_dk);
//!   h from XOF(seed_ek); s = x + h·y; ek = seed_ek || s;
//!   dk = ek || seed_dk || σ || seed_kem.
//! * Encaps(ek; m, salt): (K, θ) = G(H(ek) || m || salt); r2, e, r1 from
//!   XOF(θ); u = r1 + h·r2; v = Encode(m) + Truncate(s·r2 + e);
//!   c = u || v || salt.
//! * Decaps(dk, c): m' = Decode(v − Truncate(u·y)); (K', θ') = G(H(ek) ||
//!   m' || salt); re-encrypt to c'; K̄ = J(H(ek) || σ || c); return K' if
//!   c' = c (every byte, including the unused high bits of u) else K̄,
//!   selected in constant time.

use pqforge_core::keccak::{sha3_256_parts, sha3_512_parts};
use pqforge_core::{ct, ctgrind};
use zeroize::Zeroize;

use crate::code;
use crate::gf2x::{self, Kernels};
use crate::params::{MAX_K, ParameterSet, Pos, SALT_BYTES, SEED_BYTES, SS_BYTES};
#[cfg(not(feature = "small-ram"))]
use crate::sampling::write_support;
use crate::sampling::{
    Xof, sample_fixed_weight_rejection, sample_fixed_weight_shift, sample_uniform, xor_support,
};

/// A backend as the protocol sees it: the ring [`Kernels`], and the three
/// PKE stages, each run in a frame of its own (never inlined, so that the
/// ring elements of different stages never share one frame; HQC-5 keeps
/// about 37 KB in each).
///
/// The defaults are the portable frames. The x86_64 backends override them
/// with frames compiled for their instruction set (`#[target_feature]`),
/// into which the stage bodies below and the decoder are inlined.
pub(crate) trait Backend: Kernels {
    /// [`pke_keygen`] in a frame of its own.
    #[inline(never)]
    fn pke_keygen<P: ParameterSet, S: Sink>(sink: &mut S, seed_dk: &[u8], seed_ek: &[u8]) {
        pke_keygen::<P, Self, S>(sink, seed_dk, seed_ek);
    }

    /// [`pke_encrypt`] in a frame of its own.
    #[inline(never)]
    fn pke_encrypt<P: ParameterSet, S: Sink>(sink: &mut S, ek: &[u8], m: &[u8], theta: &[u8]) {
        pke_encrypt::<P, Self, S>(sink, ek, m, theta);
    }

    /// [`pke_decrypt`] in a frame of its own.
    #[inline(never)]
    fn pke_decrypt<P: ParameterSet>(m: &mut [u8], seed_dk: &[u8], c_pke: &[u8]) {
        pke_decrypt::<P, Self>(m, seed_dk, c_pke);
    }
}

// The hashes run in frames of their own (never inlined): a Keccak state
// inlined into the FO frame would stay on the stack while the PKE frames
// run below it (measured: +360-392 bytes of peak stack on the Cortex-M4).

/// H(ek) = SHA3-256(ek || 0x01).
#[inline(never)]
fn hash_h(ek: &[u8]) -> [u8; 32] {
    sha3_256_parts(&[ek, &[0x01]])
}

/// SHA3-512 of the concatenation of `parts` (G, and the PKE seed split).
#[inline(never)]
fn hash_g(parts: &[&[u8]]) -> [u8; 64] {
    sha3_512_parts(parts)
}

/// SHA3-256 of the concatenation of `parts` (the rejection key K).
#[inline(never)]
fn hash_k(parts: &[&[u8]]) -> [u8; 32] {
    sha3_256_parts(parts)
}

/// Where a PKE routine puts its encoded ring elements: written out
/// ([`WriteSink`]) or compared with expected bytes in constant time
/// ([`CompareSink`]), so that re-encryption and key checks need no second
/// ciphertext or key buffer.
pub(crate) trait Sink {
    /// Handles the first `len` little-endian bytes of `words`, which belong
    /// at byte offset `off` of the output.
    fn put(&mut self, off: usize, len: usize, words: &[u64]);
}

/// Stores into a byte buffer.
pub(crate) struct WriteSink<'a>(pub(crate) &'a mut [u8]);

impl Sink for WriteSink<'_> {
    fn put(&mut self, off: usize, len: usize, words: &[u64]) {
        gf2x::store(&mut self.0[off..off + len], words);
    }
}

/// ORs the XOR of the produced and the expected bytes into `diff`.
pub(crate) struct CompareSink<'a> {
    pub(crate) expected: &'a [u8],
    pub(crate) diff: u64,
}

impl CompareSink<'_> {
    /// All-ones byte iff everything compared so far was equal.
    pub(crate) fn equal_mask(&self) -> u8 {
        !(ct::nonzero_mask_u64(self.diff) as u8)
    }
}

impl Sink for CompareSink<'_> {
    fn put(&mut self, off: usize, len: usize, words: &[u64]) {
        let exp = &self.expected[off..off + len];
        let mut chunks = exp.chunks_exact(8);
        let mut diff = self.diff;
        for (c, w) in (&mut chunks).zip(words) {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            diff |= u64::from_le_bytes(b) ^ w;
        }
        let tail = chunks.remainder();
        let last = words[len / 8];
        for (j, &e) in tail.iter().enumerate() {
            diff |= u64::from(e ^ (last >> (8 * j)) as u8);
        }
        self.diff = diff;
    }
}

/// HQC-PKE key generation: puts `s` (N_BYTES) into `sink` at offset 0;
/// `seed_dk`/`seed_ek` are the halves of I(seed_pke). Called through
/// [`Backend::pke_keygen`] (its own frame).
#[inline(always)]
pub(crate) fn pke_keygen<P: ParameterSet, B: Kernels, S: Sink>(
    sink: &mut S,
    seed_dk: &[u8],
    seed_ek: &[u8],
) {
    let mut y = SparseOperand::<P>::new();
    let mut h = P::POLY_ZERO;
    let mut s = P::POLY_ZERO;
    let mut x_sup = P::SUPPORT_ZERO;
    let mut scratch = P::SCRATCH_ZERO;
    // The XOFs live in blocks of their own: their stack slots are free
    // again (for LLVM to reuse) before the product.
    {
        let mut xof = Xof::new(seed_dk, P::REVISION);
        y.sample::<B>(&mut xof, P::OMEGA, sample_fixed_weight_rejection::<P>);
        sample_fixed_weight_rejection::<P>(&mut xof, &mut x_sup.as_mut()[..P::OMEGA]);
    }
    {
        let mut xof = Xof::new(seed_ek, P::REVISION);
        sample_uniform::<P>(&mut xof, h.as_mut());
    }
    y.mul_mod::<B>(s.as_mut(), h.as_ref(), scratch.as_mut());
    xor_support::<B>(s.as_mut(), &x_sup.as_ref()[..P::OMEGA]);
    sink.put(0, P::N_BYTES, s.as_ref());
    y.zeroize();
    s.as_mut().zeroize();
    x_sup.as_mut().zeroize();
}

/// The sparse operand of a ring product (y, r2), sampled as a support. The
/// default profile also writes it out densely once, for the Karatsuba
/// kernels; the small-RAM profile (`small-ram`) keeps only the support and
/// multiplies with [`gf2x::mul_mod_support`], which saves a ring element
/// of stack.
struct SparseOperand<P: ParameterSet> {
    support: P::Support,
    weight: usize,
    #[cfg(not(feature = "small-ram"))]
    dense: P::Poly,
}

impl<P: ParameterSet> SparseOperand<P> {
    #[inline(always)]
    fn new() -> Self {
        Self {
            support: P::SUPPORT_ZERO,
            weight: 0,
            #[cfg(not(feature = "small-ram"))]
            dense: P::POLY_ZERO,
        }
    }

    /// Samples `weight` positions with `sampler`.
    #[inline(always)]
    fn sample<B: Kernels>(
        &mut self,
        xof: &mut Xof,
        weight: usize,
        sampler: impl FnOnce(&mut Xof, &mut [Pos]),
    ) {
        self.weight = weight;
        sampler(xof, &mut self.support.as_mut()[..weight]);
        #[cfg(not(feature = "small-ram"))]
        write_support::<B>(self.dense.as_mut(), &self.support.as_ref()[..weight]);
    }

    /// `out = a · self mod (X^n - 1)`.
    #[inline(always)]
    fn mul_mod<B: Kernels>(&self, out: &mut [u64], a: &[u64], scratch: &mut [u64]) {
        #[cfg(not(feature = "small-ram"))]
        gf2x::mul_mod::<B>(out, a, self.dense.as_ref(), P::N, scratch);
        #[cfg(feature = "small-ram")]
        gf2x::mul_mod_support::<B>(out, a, &self.support.as_ref()[..self.weight], P::N, scratch);
    }

    #[inline(always)]
    fn zeroize(&mut self) {
        self.support.as_mut().zeroize();
        #[cfg(not(feature = "small-ram"))]
        self.dense.as_mut().zeroize();
    }
}

/// `(seed_pke, σ)` from XOF(seed_kem), then `(seed_dk || seed_ek)` =
/// I(seed_pke). Writes σ into `sigma[..k]` (in key generation: its place
/// in dk) and returns the 64-byte seed pair.
fn derive_seeds<P: ParameterSet>(seed_kem: &[u8; SEED_BYTES], sigma: &mut [u8]) -> [u8; 64] {
    let mut xof = Xof::new(seed_kem, P::REVISION);
    let mut seed_pke = [0u8; SEED_BYTES];
    xof.get_bytes(&mut seed_pke);
    xof.get_bytes(&mut sigma[..P::K]);
    let seeds = hash_g(&[&seed_pke, &[0x02]]);
    seed_pke.zeroize();
    seeds
}

/// Deterministic KEM key generation from `seed_kem`, written into `ek` and
/// `dk` (out-parameters, so that no key is built in one frame and copied
/// into another).
pub(crate) fn keygen_into<P: ParameterSet, B: Backend>(
    seed_kem: &[u8; SEED_BYTES],
    ek: &mut [u8],
    dk: &mut [u8],
) {
    let skb = &mut dk[..P::DECAPS_KEY_BYTES];
    let (ek_part, rest) = skb.split_at_mut(P::ENCAPS_KEY_BYTES);
    // σ goes straight to its place in dk (no stack copy while the PKE runs).
    let (dk_part, rest) = rest.split_at_mut(SEED_BYTES);
    let (sig_part, kem_part) = rest.split_at_mut(P::K);
    let mut seeds = derive_seeds::<P>(seed_kem, sig_part);
    let (seed_dk, seed_ek) = seeds.split_at(SEED_BYTES);

    ek_part[..SEED_BYTES].copy_from_slice(seed_ek);
    B::pke_keygen::<P, _>(&mut WriteSink(&mut ek_part[SEED_BYTES..]), seed_dk, seed_ek);
    // Declassified: the encapsulation key (seed_ek || s) is public.
    ctgrind::declassify(ek_part);
    ek[..P::ENCAPS_KEY_BYTES].copy_from_slice(ek_part);
    dk_part.copy_from_slice(seed_dk);
    kem_part.copy_from_slice(seed_kem);
    seeds.zeroize();
}

/// Deterministic KEM key generation from `seed_kem` on backend `B`, as
/// arrays (module tests).
#[cfg(test)]
pub(crate) fn keygen_derand<P: ParameterSet, B: Backend>(
    seed_kem: &[u8; SEED_BYTES],
) -> (P::EkBytes, P::DkBytes) {
    use pqforge_core::ByteArray;
    let mut ek = P::EkBytes::zeroed();
    let mut dk = P::DkBytes::zeroed();
    keygen_into::<P, B>(seed_kem, ek.as_mut(), dk.as_mut());
    (ek, dk)
}

/// Constant-time check that a decapsulation key is exactly what
/// [`keygen_into`] makes from its trailing `seed_kem`: every byte of
/// `ek || seed_dk || σ` is recomputed and compared (seed_kem trivially
/// matches itself), without building a second key. Returns all-ones iff
/// consistent.
pub(crate) fn check_decaps_key<P: ParameterSet, B: Backend>(skb: &[u8]) -> u8 {
    let mut seed_kem = [0u8; SEED_BYTES];
    seed_kem.copy_from_slice(&skb[P::DECAPS_KEY_BYTES - SEED_BYTES..]);
    let mut sigma = [0u8; MAX_K];
    let mut seeds = derive_seeds::<P>(&seed_kem, &mut sigma);
    let (seed_dk, seed_ek) = seeds.split_at(SEED_BYTES);
    let ek = &skb[..P::ENCAPS_KEY_BYTES];
    let rest = &skb[P::ENCAPS_KEY_BYTES..];
    let seeds_ok = ct::eq_mask(&ek[..SEED_BYTES], seed_ek)
        & ct::eq_mask(&rest[..SEED_BYTES], seed_dk)
        & ct::eq_mask(&rest[SEED_BYTES..SEED_BYTES + P::K], &sigma[..P::K]);
    let mut cmp = CompareSink {
        expected: &ek[SEED_BYTES..],
        diff: 0,
    };
    B::pke_keygen::<P, _>(&mut cmp, seed_dk, seed_ek);
    let ok = seeds_ok & cmp.equal_mask();
    seed_kem.zeroize();
    sigma.zeroize();
    seeds.zeroize();
    ok
}

/// HQC-PKE encryption of the k-byte `m` under `ek` with coins `theta`,
/// putting `u` (N_BYTES, offset 0) then `v` (V_BYTES) into `sink`. Called
/// through [`Backend::pke_encrypt`] (its own frame).
#[inline(always)]
pub(crate) fn pke_encrypt<P: ParameterSet, B: Kernels, S: Sink>(
    sink: &mut S,
    ek: &[u8],
    m: &[u8],
    theta: &[u8],
) {
    let mut h = P::POLY_ZERO;
    let mut r2 = SparseOperand::<P>::new();
    let mut t = P::POLY_ZERO;
    let mut r1_sup = P::SUPPORT_ZERO;
    let mut e_sup = P::SUPPORT_ZERO;
    let mut scratch = P::SCRATCH_ZERO;

    // The XOFs live in blocks of their own (see `pke_keygen`).
    {
        let mut xof = Xof::new(&ek[..SEED_BYTES], P::REVISION);
        sample_uniform::<P>(&mut xof, h.as_mut());
    }
    {
        let mut xof = Xof::new(theta, P::REVISION);
        r2.sample::<B>(&mut xof, P::OMEGA_R, sample_fixed_weight_shift::<P>);
        sample_fixed_weight_shift::<P>(&mut xof, &mut e_sup.as_mut()[..P::OMEGA_E]);
        sample_fixed_weight_shift::<P>(&mut xof, &mut r1_sup.as_mut()[..P::OMEGA_R]);
    }

    // u = r1 + h·r2
    r2.mul_mod::<B>(t.as_mut(), h.as_ref(), scratch.as_mut());
    xor_support::<B>(t.as_mut(), &r1_sup.as_ref()[..P::OMEGA_R]);
    sink.put(0, P::N_BYTES, t.as_ref());

    // v = Encode(m) + Truncate(s·r2 + e, n1·n2); s goes where h was.
    gf2x::load(h.as_mut(), &ek[SEED_BYTES..], P::N);
    r2.mul_mod::<B>(t.as_mut(), h.as_ref(), scratch.as_mut());
    xor_support::<B>(t.as_mut(), &e_sup.as_ref()[..P::OMEGA_E]);
    code::encode_xor::<P>(t.as_mut(), m);
    // N1N2 is a multiple of 8 for every set, so putting V_BYTES bytes is
    // exactly the truncation.
    sink.put(P::N_BYTES, P::V_BYTES, t.as_ref());

    r2.zeroize();
    t.as_mut().zeroize();
    r1_sup.as_mut().zeroize();
    e_sup.as_mut().zeroize();
}

/// Deterministic encapsulation with message `m` (k bytes) and `salt` under
/// the encoded key `ek` (`ENCAPS_KEY_BYTES`); the ciphertext is written into
/// `ct` (`CIPHERTEXT_BYTES`) and the shared secret into `k` (out-parameters,
/// see [`keygen_into`]).
pub(crate) fn encaps_into<P: ParameterSet, B: Backend>(
    ek: &[u8],
    m: &[u8],
    salt: &[u8; SALT_BYTES],
    ct: &mut [u8],
    k: &mut [u8; SS_BYTES],
) {
    let ekb = &ek[..P::ENCAPS_KEY_BYTES];
    let hek = hash_h(ekb);
    let mut g = hash_g(&[&hek, m, salt, &[0x00]]);
    let ctb = &mut ct[..P::CIPHERTEXT_BYTES];
    {
        let (c_pke, c_salt) = ctb.split_at_mut(P::N_BYTES + P::V_BYTES);
        B::pke_encrypt::<P, _>(&mut WriteSink(c_pke), ekb, m, &g[SS_BYTES..]);
        c_salt.copy_from_slice(salt);
    }
    // Declassified: the ciphertext is public.
    ctgrind::declassify(ctb);
    k.copy_from_slice(&g[..SS_BYTES]);
    g.zeroize();
}

/// Deterministic encapsulation with message `m` (k bytes) and `salt` on
/// backend `B`, as arrays (module tests).
#[cfg(test)]
pub(crate) fn encaps_derand<P: ParameterSet, B: Backend>(
    ek: &P::EkBytes,
    m: &[u8],
    salt: &[u8; SALT_BYTES],
) -> (P::CtBytes, [u8; SS_BYTES]) {
    use pqforge_core::ByteArray;
    let mut ct = P::CtBytes::zeroed();
    let mut k = [0u8; SS_BYTES];
    encaps_into::<P, B>(ek.as_ref(), m, salt, ct.as_mut(), &mut k);
    (ct, k)
}

/// HQC-PKE decryption: the k-byte m' of `u || v` under `seed_dk`. Called
/// through [`Backend::pke_decrypt`] (its own frame).
#[inline(always)]
pub(crate) fn pke_decrypt<P: ParameterSet, B: Kernels>(m: &mut [u8], seed_dk: &[u8], c_pke: &[u8]) {
    let mut y = SparseOperand::<P>::new();
    let mut u = P::POLY_ZERO;
    let mut t = P::POLY_ZERO;
    let mut scratch = P::SCRATCH_ZERO;
    {
        let mut xof = Xof::new(seed_dk, P::REVISION);
        y.sample::<B>(&mut xof, P::OMEGA, sample_fixed_weight_rejection::<P>);
    }
    // Bits of u at and above n are dropped here; the final ciphertext
    // comparison still sees them (implicit rejection).
    gf2x::load(u.as_mut(), &c_pke[..P::N_BYTES], P::N);
    y.mul_mod::<B>(t.as_mut(), u.as_ref(), scratch.as_mut());
    // u <- v - Truncate(u·y, n1·n2); n1·n2 is a multiple of 64 for every
    // set, so the truncation is a whole number of words.
    const { assert!(P::N1N2 % 64 == 0) };
    gf2x::load(u.as_mut(), &c_pke[P::N_BYTES..], P::N1N2);
    gf2x::add_assign(&mut u.as_mut()[..P::N1N2 / 64], &t.as_ref()[..P::N1N2 / 64]);
    code::decode::<P>(m, u.as_ref());
    y.zeroize();
    for p in [&mut u, &mut t] {
        p.as_mut().zeroize();
    }
}

/// Decapsulation with implicit rejection of the encoded `ct`
/// (`CIPHERTEXT_BYTES`) under the encoded, already validated `dk`
/// (`DECAPS_KEY_BYTES`); the shared secret goes into `k`.
pub(crate) fn decaps<P: ParameterSet, B: Backend>(dk: &[u8], ct: &[u8], k: &mut [u8; SS_BYTES]) {
    let skb = &dk[..P::DECAPS_KEY_BYTES];
    let ek = &skb[..P::ENCAPS_KEY_BYTES];
    let seed_dk = &skb[P::ENCAPS_KEY_BYTES..P::ENCAPS_KEY_BYTES + SEED_BYTES];
    let sigma = &skb[P::ENCAPS_KEY_BYTES + SEED_BYTES..P::ENCAPS_KEY_BYTES + SEED_BYTES + P::K];
    let ctb = &ct[..P::CIPHERTEXT_BYTES];
    let c_pke = &ctb[..P::N_BYTES + P::V_BYTES];
    let salt = &ctb[P::N_BYTES + P::V_BYTES..];

    let mut m = [0u8; MAX_K];
    B::pke_decrypt::<P>(&mut m[..P::K], seed_dk, c_pke);

    let hek = hash_h(ek);
    let mut g = hash_g(&[&hek, &m[..P::K], salt, &[0x00]]);
    // Re-encrypt and compare with c in place (the salt trivially matches).
    let mut cmp = CompareSink {
        expected: c_pke,
        diff: 0,
    };
    B::pke_encrypt::<P, _>(&mut cmp, ek, &m[..P::K], &g[SS_BYTES..]);
    let mut k_bar = hash_k(&[&hek, sigma, ctb, &[0x03]]);
    let same = cmp.equal_mask();
    ct::select(same, &g[..SS_BYTES], &k_bar, k);
    m.zeroize();
    g.zeroize();
    k_bar.zeroize();
}
