//! The internal algorithms of FIPS 205 (§5-§9), portable, one hash at a
//! time: WOTS+, XMSS, the hypertree, FORS, slh_keygen_internal,
//! slh_sign_internal and slh_verify_internal. Values are n-byte slices of
//! fixed 32-byte buffers (n ≤ 32); nothing is allocated.
//!
//! The protocol (slh_keygen/sign/verify_internal, the hypertree's layers)
//! is written once, generic over the [`Backend`] kernels (trees, FORS,
//! WOTS+ from a signature); the portable kernels are the functions here.
//! [`keygen`], [`sign`] and [`verify`] dispatch once per call
//! ([`backend::run`]).

use core::marker::PhantomData;

use crate::adrs::{Adrs, kind};
use crate::backend::{self, Backend, Operation};
use crate::hash::{HashSuite, TState};
use crate::params::{ParameterSet, TreeStack};

/// base_2b (Algorithm 4): `out.len()` integers of `b` ≤ 16 bits from `x`,
/// most significant bit first (u16: FORS indices, a ≤ 14,
/// kept small for the Cortex-M4 stack).
pub(crate) fn base_2b(x: &[u8], b: usize, out: &mut [u16]) {
    let mut bits = 0usize;
    let mut total = 0u64;
    let mut i = 0;
    for o in out.iter_mut() {
        while bits < b {
            total = (total << 8) | u64::from(x[i]);
            i += 1;
            bits += 8;
        }
        bits -= b;
        *o = ((total >> bits) & ((1u64 << b) - 1)) as u16;
    }
}

/// The WOTS+ digits of an n-byte message: len1 base-16 digits (base_2b
/// with b = 4, two per byte, high nibble first), then the three digits of
/// the 12-bit checksum (Algorithms 7, 8). Bytes, not the u16 of
/// [`base_2b`]: 67 bytes less on the Cortex-M4 stack.
pub(crate) fn wots_digits<P: ParameterSet>(m: &[u8], out: &mut [u8; 67]) {
    let mut csum = 0u32;
    for (pair, &b) in out[..P::LEN1].as_chunks_mut::<2>().0.iter_mut().zip(m) {
        *pair = [b >> 4, b & 15];
        csum += 30 - u32::from(b >> 4) - u32::from(b & 15);
    }
    out[P::LEN1..P::LEN].copy_from_slice(&[
        (csum >> 8) as u8,
        (csum >> 4) as u8 & 15,
        csum as u8 & 15,
    ]);
}

/// chain (Algorithm 5): `s` steps of F from step `i`, in place.
fn chain<H: HashSuite>(hs: &H, x: &mut [u8], i: u32, s: u32, adrs: &mut Adrs) {
    let mut t = [0u8; 32];
    let n = x.len();
    for j in i..i + s {
        adrs.set_hash(j);
        hs.f(adrs, x, &mut t[..n]);
        x.copy_from_slice(&t[..n]);
    }
}

/// The secret start of WOTS+ chain `c` of the key pair in `adrs`.
fn wots_sk<H: HashSuite>(hs: &H, sk_seed: &[u8], adrs: &Adrs, c: u32, out: &mut [u8]) {
    let mut a = *adrs;
    a.set_type_and_clear(kind::WOTS_PRF);
    a.set_keypair(adrs.keypair());
    a.set_chain(c);
    hs.prf(&a, sk_seed, out);
}

/// The T_len compression of the chain ends of the key pair in `adrs`.
fn wots_pk_start<H: HashSuite>(hs: &H, adrs: &Adrs) -> H::T {
    let mut a = *adrs;
    a.set_type_and_clear(kind::WOTS_PK);
    a.set_keypair(adrs.keypair());
    hs.t_start(&a)
}

/// wots_pkGen (Algorithm 6).
///
/// A frame of its own (`inline(never)`, also [`wots_pk_from_sig`]): the
/// streaming T_len state is live only here, not in the frames of the tree
/// code around it, which on the Cortex-M4 otherwise keeps it (and its
/// callers' locals) on the stack during every later hash.
#[inline(never)]
fn wots_pkgen<P: ParameterSet>(hs: &P::Hash, sk_seed: &[u8], adrs: &mut Adrs, pk: &mut [u8]) {
    let n = P::N;
    let mut t = wots_pk_start(hs, adrs);
    let mut x = [0u8; 32];
    for c in 0..P::LEN as u32 {
        wots_sk(hs, sk_seed, adrs, c, &mut x[..n]);
        adrs.set_chain(c);
        chain(hs, &mut x[..n], 0, 15, adrs);
        t.update(&x[..n]);
    }
    t.finalize(pk);
}

/// wots_sign (Algorithm 7): `sig` is len · n bytes.
fn wots_sign<P: ParameterSet>(
    hs: &P::Hash,
    m: &[u8],
    sk_seed: &[u8],
    adrs: &mut Adrs,
    sig: &mut [u8],
) {
    let n = P::N;
    let mut d = [0u8; 67];
    wots_digits::<P>(m, &mut d);
    for c in 0..P::LEN {
        let x = &mut sig[c * n..(c + 1) * n];
        wots_sk(hs, sk_seed, adrs, c as u32, x);
        adrs.set_chain(c as u32);
        chain(hs, x, 0, d[c].into(), adrs);
    }
}

/// wots_pkFromSig (Algorithm 8).
#[inline(never)]
fn wots_pk_from_sig<P: ParameterSet>(
    hs: &P::Hash,
    sig: &[u8],
    m: &[u8],
    adrs: &mut Adrs,
    pk: &mut [u8],
) {
    let n = P::N;
    // Exactly len · n bytes, so the loop's bounds need no division by n.
    let sig = &sig[..P::LEN * n];
    let mut d = [0u8; 67];
    wots_digits::<P>(m, &mut d);
    let mut t = wots_pk_start(hs, adrs);
    let mut x = [0u8; 32];
    for c in 0..P::LEN {
        x[..n].copy_from_slice(&sig[c * n..(c + 1) * n]);
        adrs.set_chain(c as u32);
        let dc = u32::from(d[c]);
        chain(hs, &mut x[..n], dc, 15 - dc, adrs);
        t.update(&x[..n]);
    }
    t.finalize(pk);
}

/// The highest subtree any set computes: a = 14 (FORS of the 192s and
/// 256s sets); XMSS trees have h' ≤ 9.
const MAX_TREE_HEIGHT: usize = 14;

/// Node `i` at height `z` of a binary hash tree, bottom-up with one stored
/// node per height (the "treehash" schedule) instead of the recursion of
/// Algorithms 9 and 15: the same hashes, leaves in the same order, but
/// z + 2 nodes of scratch (`S`, sized per set) rather than z recursive
/// frames, which matters on the Cortex-M4. `leaf(adrs, j, out)` writes
/// leaf `j` (global index), `parent(adrs, height, index, left, right, out)`
/// a node.
fn treehash<S: TreeStack>(
    z: u32,
    i: u32,
    adrs: &mut Adrs,
    out: &mut [u8],
    mut leaf: impl FnMut(&mut Adrs, u32, &mut [u8]),
    mut parent: impl FnMut(&mut Adrs, u32, u32, &[u8], &[u8], &mut [u8]),
) {
    let n = out.len();
    let mut buf = S::zeroed();
    let st = buf.as_mut();
    let mut heights = [0u8; MAX_TREE_HEIGHT + 2];
    let mut sp = 0;
    let start = i << z;
    for j in start..start + (1 << z) {
        // Slot sp takes the new leaf; merging writes the parent to the
        // free slot above it, then moves it down over the left child.
        leaf(adrs, j, &mut st[sp * n..(sp + 1) * n]);
        let mut h = 0u8;
        // Public schedule: which nodes merge depends on j only.
        while sp > 0 && heights[sp - 1] == h {
            h += 1;
            let (lr, above) = st.split_at_mut((sp + 1) * n);
            let (left, right) = lr[(sp - 1) * n..].split_at(n);
            parent(adrs, h.into(), j >> h, left, right, &mut above[..n]);
            st.copy_within((sp + 1) * n..(sp + 2) * n, (sp - 1) * n);
            sp -= 1;
        }
        heights[sp] = h;
        sp += 1;
    }
    out.copy_from_slice(&st[..n]);
}

/// xmss_node (Algorithm 9): node `i` at height `z` of the XMSS tree in
/// `adrs` (layer and tree set).
pub(crate) fn xmss_node<P: ParameterSet>(
    hs: &P::Hash,
    sk_seed: &[u8],
    i: u32,
    z: u32,
    adrs: &mut Adrs,
    out: &mut [u8],
) {
    const { assert!(P::HP <= MAX_TREE_HEIGHT && (P::HP + 2) * P::N <= size_of::<P::TreeStack>()) };
    treehash::<P::TreeStack>(
        z,
        i,
        adrs,
        out,
        |adrs, j, out| {
            adrs.set_type_and_clear(kind::WOTS_HASH);
            adrs.set_keypair(j);
            wots_pkgen::<P>(hs, sk_seed, adrs, out);
        },
        |adrs, h, k, l, r, out| {
            adrs.set_type_and_clear(kind::TREE);
            adrs.set_tree_height(h);
            adrs.set_tree_index(k);
            hs.h(adrs, l, r, out);
        },
    );
}

/// xmss_sign (Algorithm 10): `sig` = WOTS+ signature || auth path,
/// (len + h') · n bytes.
pub(crate) fn xmss_sign<P: ParameterSet>(
    hs: &P::Hash,
    m: &[u8],
    sk_seed: &[u8],
    idx: u32,
    adrs: &mut Adrs,
    sig: &mut [u8],
) {
    let n = P::N;
    let (wsig, auth) = sig.split_at_mut(P::LEN * n);
    for j in 0..P::HP {
        let k = (idx >> j) ^ 1;
        xmss_node::<P>(
            hs,
            sk_seed,
            k,
            j as u32,
            adrs,
            &mut auth[j * n..(j + 1) * n],
        );
    }
    adrs.set_type_and_clear(kind::WOTS_HASH);
    adrs.set_keypair(idx);
    wots_sign::<P>(hs, m, sk_seed, adrs, wsig);
}

/// xmss_pkFromSig (Algorithm 11).
///
/// A frame of its own (`inline(never)`), as [`wots_pk_from_sig`] below it.
#[inline(never)]
pub(crate) fn xmss_pk_from_sig<P: ParameterSet>(
    hs: &P::Hash,
    idx: u32,
    sig: &[u8],
    m: &[u8],
    adrs: &mut Adrs,
    root: &mut [u8],
) {
    let n = P::N;
    let (wsig, auth) = sig.split_at(P::LEN * n);
    adrs.set_type_and_clear(kind::WOTS_HASH);
    adrs.set_keypair(idx);
    let mut node = [0u8; 32];
    wots_pk_from_sig::<P>(hs, wsig, m, adrs, &mut node[..n]);
    adrs.set_type_and_clear(kind::TREE);
    climb(hs, idx, auth, adrs, &mut node[..n]);
    root.copy_from_slice(&node[..n]);
}

/// The root from `node` at index `idx` (height 0) and its authentication
/// path `auth` (one n-byte sibling per level), the type of `adrs` already
/// set: the loops of Algorithms 11 and 17. The parity of the index at each
/// height says on which side the node is.
pub(crate) fn climb<H: HashSuite>(
    hs: &H,
    mut idx: u32,
    auth: &[u8],
    adrs: &mut Adrs,
    node: &mut [u8],
) {
    let n = node.len();
    let mut t = [0u8; 32];
    // Split off one sibling at a time: no `chunks_exact` (a division).
    let (mut rest, mut height) = (auth, 0);
    while !rest.is_empty() {
        let (a, tail) = rest.split_at(n);
        rest = tail;
        height += 1;
        adrs.set_tree_height(height);
        if idx & 1 == 0 {
            hs.h(adrs.with_tree_index(idx / 2), node, a, &mut t[..n]);
        } else {
            hs.h(adrs.with_tree_index((idx - 1) / 2), a, node, &mut t[..n]);
        }
        idx /= 2;
        node.copy_from_slice(&t[..n]);
    }
}

/// The leaf and tree of the next layer up.
fn next_layer<P: ParameterSet>(idx_tree: u64) -> (u32, u64) {
    let leaf = (idx_tree & ((1u64 << P::HP) - 1)) as u32;
    (leaf, idx_tree >> P::HP)
}

/// ht_sign (Algorithm 12): `sig` is d · (len + h') · n bytes.
fn ht_sign<P: ParameterSet, B: Backend>(
    hs: &P::Hash,
    m: &[u8],
    sk_seed: &[u8],
    mut idx_tree: u64,
    mut idx_leaf: u32,
    sig: &mut [u8],
) {
    let n = P::N;
    let part = (P::LEN + P::HP) * n;
    let mut root = [0u8; 32];
    root[..n].copy_from_slice(&m[..n]);
    for j in 0..P::D {
        let mut adrs = Adrs::default();
        adrs.set_layer(j as u32);
        adrs.set_tree(idx_tree);
        let s = &mut sig[j * part..(j + 1) * part];
        let msg = root;
        let have_root = B::xmss_sign::<P>(
            hs,
            &msg[..n],
            sk_seed,
            idx_leaf,
            &mut adrs,
            s,
            &mut root[..n],
        );
        // Public: this XMSS signature is published; the root it gives is
        // the next layer's message (and sets that layer's chain lengths).
        pqforge_core::ctgrind::declassify(s);
        if j + 1 < P::D {
            if have_root {
                // Public: the tree's root, computed with the signature, is
                // xmss_pkFromSig of the published signature.
                pqforge_core::ctgrind::declassify(&mut root[..n]);
            } else {
                B::xmss_pk_from_sig::<P>(hs, idx_leaf, s, &msg[..n], &mut adrs, &mut root[..n]);
            }
            (idx_leaf, idx_tree) = next_layer::<P>(idx_tree);
        }
    }
}

/// ht_verify (Algorithm 13).
fn ht_verify<P: ParameterSet, B: Backend>(
    hs: &P::Hash,
    m: &[u8],
    sig: &[u8],
    mut idx_tree: u64,
    mut idx_leaf: u32,
    pk_root: &[u8],
) -> bool {
    let n = P::N;
    let part = (P::LEN + P::HP) * n;
    let mut node = [0u8; 32];
    node[..n].copy_from_slice(&m[..n]);
    for j in 0..P::D {
        let mut adrs = Adrs::default();
        adrs.set_layer(j as u32);
        adrs.set_tree(idx_tree);
        let msg = node;
        B::xmss_pk_from_sig::<P>(
            hs,
            idx_leaf,
            &sig[j * part..(j + 1) * part],
            &msg[..n],
            &mut adrs,
            &mut node[..n],
        );
        (idx_leaf, idx_tree) = next_layer::<P>(idx_tree);
    }
    node[..n] == *pk_root
}

/// fors_skGen (Algorithm 14).
pub(crate) fn fors_sk<H: HashSuite>(hs: &H, sk_seed: &[u8], adrs: &Adrs, idx: u32, out: &mut [u8]) {
    let mut a = *adrs;
    a.set_type_and_clear(kind::FORS_PRF);
    a.set_keypair(adrs.keypair());
    a.set_tree_index(idx);
    hs.prf(&a, sk_seed, out);
}

/// fors_node (Algorithm 15): node `i` (global index) at height `z`.
fn fors_node<P: ParameterSet>(
    hs: &P::Hash,
    sk_seed: &[u8],
    i: u32,
    z: u32,
    adrs: &mut Adrs,
    out: &mut [u8],
) {
    const { assert!(P::A <= MAX_TREE_HEIGHT && (P::A + 2) * P::N <= size_of::<P::TreeStack>()) };
    treehash::<P::TreeStack>(
        z,
        i,
        adrs,
        out,
        |adrs, j, out| {
            let mut sk = [0u8; 32];
            let n = out.len();
            fors_sk(hs, sk_seed, adrs, j, &mut sk[..n]);
            adrs.set_tree_height(0);
            adrs.set_tree_index(j);
            hs.f(adrs, &sk[..n], out);
        },
        |adrs, h, k, l, r, out| {
            adrs.set_tree_height(h);
            adrs.set_tree_index(k);
            hs.h(adrs, l, r, out);
        },
    );
}

/// fors_sign (Algorithm 16): k · (1 + a) · n bytes.
pub(crate) fn fors_sign<P: ParameterSet>(
    hs: &P::Hash,
    md: &[u8],
    sk_seed: &[u8],
    adrs: &mut Adrs,
    sig: &mut [u8],
) {
    let n = P::N;
    let mut ind = [0u16; 35];
    base_2b(md, P::A, &mut ind[..P::K]);
    let part = (1 + P::A) * n;
    for i in 0..P::K {
        let s = &mut sig[i * part..(i + 1) * part];
        let base = (i as u32) << P::A;
        let leaf = u32::from(ind[i]);
        fors_sk(hs, sk_seed, adrs, base + leaf, &mut s[..n]);
        for j in 0..P::A {
            let sib = (leaf >> j) ^ 1;
            let at = ((i as u32) << (P::A - j)) + sib;
            fors_node::<P>(
                hs,
                sk_seed,
                at,
                j as u32,
                adrs,
                &mut s[(1 + j) * n..(2 + j) * n],
            );
        }
    }
}

/// fors_pkFromSig (Algorithm 17).
///
/// A frame of its own (`inline(never)`): its streaming T state then shares
/// stack with the hypertree stage instead of adding to it (Cortex-M4).
#[inline(never)]
pub(crate) fn fors_pk_from_sig<P: ParameterSet>(
    hs: &P::Hash,
    sig: &[u8],
    md: &[u8],
    adrs: &mut Adrs,
    pk: &mut [u8],
) {
    let n = P::N;
    let mut ind = [0u16; 35];
    base_2b(md, P::A, &mut ind[..P::K]);
    let part = (1 + P::A) * n;
    // The exact length as a constant multiple of `part`, so the loop's
    // bounds need no division by it (opt-level z outlined one).
    let sig = &sig[..P::K * part];
    let mut roots = {
        let mut a = *adrs;
        a.set_type_and_clear(kind::FORS_ROOTS);
        a.set_keypair(adrs.keypair());
        hs.t_start(&a)
    };
    let mut node = [0u8; 32];
    for i in 0..P::K {
        let s = &sig[i * part..(i + 1) * part];
        let idx = ((i as u32) << P::A) + u32::from(ind[i]);
        adrs.set_tree_height(0);
        adrs.set_tree_index(idx);
        hs.f(adrs, &s[..n], &mut node[..n]);
        climb(hs, idx, &s[n..], adrs, &mut node[..n]);
        roots.update(&node[..n]);
    }
    roots.finalize(pk);
}

/// slh_keygen_internal (Algorithm 18): `sk` = SK.seed || SK.prf || PK.seed
/// || PK.root (4n bytes), `pk` = PK.seed || PK.root (2n bytes).
pub fn keygen<P: ParameterSet>(
    sk_seed: &[u8],
    sk_prf: &[u8],
    pk_seed: &[u8],
    sk: &mut [u8],
    pk: &mut [u8],
) {
    backend::run(Keygen::<P> {
        sk_seed,
        sk_prf,
        pk_seed,
        sk,
        pk,
        _p: PhantomData,
    });
}

/// slh_keygen_internal as an [`Operation`] (arguments as [`keygen`]).
pub(crate) struct Keygen<'a, P> {
    pub(crate) sk_seed: &'a [u8],
    pub(crate) sk_prf: &'a [u8],
    pub(crate) pk_seed: &'a [u8],
    pub(crate) sk: &'a mut [u8],
    pub(crate) pk: &'a mut [u8],
    pub(crate) _p: PhantomData<P>,
}

impl<P: ParameterSet> Operation for Keygen<'_, P> {
    type Output = ();
    fn run<B: Backend>(self) {
        keygen_on::<P, B>(self.sk_seed, self.sk_prf, self.pk_seed, self.sk, self.pk);
    }
}

/// slh_keygen_internal on backend `B`.
fn keygen_on<P: ParameterSet, B: Backend>(
    sk_seed: &[u8],
    sk_prf: &[u8],
    pk_seed: &[u8],
    sk: &mut [u8],
    pk: &mut [u8],
) {
    let n = P::N;
    let hs = P::Hash::new(pk_seed);
    let mut adrs = Adrs::default();
    adrs.set_layer(P::D as u32 - 1);
    let mut root = [0u8; 32];
    B::xmss_root::<P>(&hs, sk_seed, &mut adrs, &mut root[..n]);
    // Public: PK.root is the public key.
    pqforge_core::ctgrind::declassify(&mut root[..n]);
    sk[..n].copy_from_slice(sk_seed);
    sk[n..2 * n].copy_from_slice(sk_prf);
    sk[2 * n..3 * n].copy_from_slice(pk_seed);
    sk[3 * n..4 * n].copy_from_slice(&root[..n]);
    // Public: PK.seed is part of the public key (it may come from the
    // same secret random stream as SK.seed and SK.prf).
    pqforge_core::ctgrind::declassify(&mut sk[2 * n..3 * n]);
    pk.copy_from_slice(&sk[2 * n..]);
}

/// The digest split (Algorithms 19, 20): md, idx_tree, idx_leaf.
fn split_digest<P: ParameterSet>(digest: &[u8]) -> (&[u8], u64, u32) {
    let md_len = (P::K * P::A).div_ceil(8);
    let tree_len = (P::H - P::HP).div_ceil(8);
    let leaf_len = P::HP.div_ceil(8);
    let (md, rest) = digest.split_at(md_len);
    let mut t = 0u64;
    for &b in &rest[..tree_len] {
        t = (t << 8) | u64::from(b);
    }
    let tree_bits = P::H - P::HP;
    let idx_tree = if tree_bits >= 64 {
        t
    } else {
        t & ((1u64 << tree_bits) - 1)
    };
    let mut l = 0u32;
    for &b in &rest[tree_len..tree_len + leaf_len] {
        l = (l << 8) | u32::from(b);
    }
    let idx_leaf = l & ((1u32 << P::HP) - 1);
    (md, idx_tree, idx_leaf)
}

/// slh_sign_internal (Algorithm 19) on M = the concatenation of `msg`, with
/// `addrnd` (n bytes; PK.seed for deterministic signing). `sig` is
/// `P::SIG_BYTES`.
pub fn sign<P: ParameterSet>(msg: &[&[u8]], sk: &[u8], addrnd: &[u8], sig: &mut [u8]) {
    backend::run(Sign::<P> {
        msg,
        sk,
        addrnd,
        sig,
        _p: PhantomData,
    });
}

/// slh_sign_internal as an [`Operation`] (arguments as [`sign`]).
pub(crate) struct Sign<'a, P> {
    pub(crate) msg: &'a [&'a [u8]],
    pub(crate) sk: &'a [u8],
    pub(crate) addrnd: &'a [u8],
    pub(crate) sig: &'a mut [u8],
    pub(crate) _p: PhantomData<P>,
}

impl<P: ParameterSet> Operation for Sign<'_, P> {
    type Output = ();
    fn run<B: Backend>(self) {
        sign_on::<P, B>(self.msg, self.sk, self.addrnd, self.sig);
    }
}

/// slh_sign_internal on backend `B`.
fn sign_on<P: ParameterSet, B: Backend>(msg: &[&[u8]], sk: &[u8], addrnd: &[u8], sig: &mut [u8]) {
    let n = P::N;
    let (sk_seed, rest) = sk.split_at(n);
    let (sk_prf, rest) = rest.split_at(n);
    let (pk_seed, pk_root) = rest.split_at(n);
    let hs = P::Hash::new(pk_seed);
    let (r, rest) = sig.split_at_mut(n);
    P::Hash::prf_msg(sk_prf, addrnd, msg, r);
    // Public: R is the first part of the signature. Everything derived from
    // R, PK and M (the digest, idx_tree, idx_leaf, the FORS indices) is
    // public from here on.
    pqforge_core::ctgrind::declassify(r);
    let mut digest = [0u8; 49];
    P::Hash::h_msg(r, pk_seed, pk_root, msg, &mut digest[..P::M]);
    let (md, idx_tree, idx_leaf) = split_digest::<P>(&digest[..P::M]);
    let mut adrs = Adrs::default();
    adrs.set_tree(idx_tree);
    adrs.set_type_and_clear(kind::FORS_TREE);
    adrs.set_keypair(idx_leaf);
    let (sig_fors, sig_ht) = rest.split_at_mut(P::K * (1 + P::A) * n);
    let mut pk_fors = [0u8; 32];
    let have_pk = B::fors_sign::<P>(&hs, md, sk_seed, &mut adrs, sig_fors, &mut pk_fors[..n]);
    // Public: SIG_FORS is published; pk_FORS (the message of the bottom
    // XMSS tree, which sets its WOTS+ chain lengths) is computed from it.
    pqforge_core::ctgrind::declassify(sig_fors);
    if have_pk {
        // Public: pk_FORS computed with the signature is fors_pkFromSig of
        // the published SIG_FORS.
        pqforge_core::ctgrind::declassify(&mut pk_fors[..n]);
    } else {
        B::fors_pk_from_sig::<P>(&hs, sig_fors, md, &mut adrs, &mut pk_fors[..n]);
    }
    ht_sign::<P, B>(&hs, &pk_fors[..n], sk_seed, idx_tree, idx_leaf, sig_ht);
}

/// slh_verify_internal (Algorithm 20): wrong lengths give `false`.
#[must_use]
pub fn verify<P: ParameterSet>(msg: &[&[u8]], sig: &[u8], pk: &[u8]) -> bool {
    backend::run(Verify::<P> {
        msg,
        sig,
        pk,
        _p: PhantomData,
    })
}

/// slh_verify_internal as an [`Operation`] (arguments as [`verify`]).
pub(crate) struct Verify<'a, P> {
    pub(crate) msg: &'a [&'a [u8]],
    pub(crate) sig: &'a [u8],
    pub(crate) pk: &'a [u8],
    pub(crate) _p: PhantomData<P>,
}

impl<P: ParameterSet> Operation for Verify<'_, P> {
    type Output = bool;
    fn run<B: Backend>(self) -> bool {
        verify_on::<P, B>(self.msg, self.sig, self.pk)
    }
}

/// slh_verify_internal on backend `B`.
fn verify_on<P: ParameterSet, B: Backend>(msg: &[&[u8]], sig: &[u8], pk: &[u8]) -> bool {
    let n = P::N;
    if sig.len() != P::SIG_BYTES || pk.len() != P::PK_BYTES {
        return false;
    }
    let (pk_seed, pk_root) = pk.split_at(n);
    let hs = P::Hash::new(pk_seed);
    let (r, rest) = sig.split_at(n);
    let mut digest = [0u8; 49];
    P::Hash::h_msg(r, pk_seed, pk_root, msg, &mut digest[..P::M]);
    let (md, idx_tree, idx_leaf) = split_digest::<P>(&digest[..P::M]);
    let mut adrs = Adrs::default();
    adrs.set_tree(idx_tree);
    adrs.set_type_and_clear(kind::FORS_TREE);
    adrs.set_keypair(idx_leaf);
    let (sig_fors, sig_ht) = rest.split_at(P::K * (1 + P::A) * n);
    let mut pk_fors = [0u8; 32];
    B::fors_pk_from_sig::<P>(&hs, sig_fors, md, &mut adrs, &mut pk_fors[..n]);
    ht_verify::<P, B>(&hs, &pk_fors[..n], sig_ht, idx_tree, idx_leaf, pk_root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{SlhDsaSha2_128f, SlhDsaShake128f};
    use pqforge_core::testing::TestRng;

    /// base_2b against Algorithm 4 read bit by bit, for every b the sets
    /// use (4: WOTS+, 6..14: FORS a).
    #[test]
    fn base_2b_matches_the_bit_string() {
        let mut rng = TestRng::new(0xB25E);
        for b in [4usize, 6, 8, 9, 12, 14] {
            let mut x = [0u8; 40];
            x.fill_with(|| rng.next_u32() as u8);
            let count = x.len() * 8 / b;
            let mut out = [0u16; 80];
            base_2b(&x, b, &mut out[..count]);
            for (k, &o) in out[..count].iter().enumerate() {
                let want = (0..b).fold(0u16, |acc, j| {
                    let bit = k * b + j;
                    (acc << 1) | u16::from((x[bit / 8] >> (7 - bit % 8)) & 1)
                });
                assert_eq!(o, want, "b = {b}, k = {k}");
            }
        }
    }

    /// WOTS+: the public key recomputed from a signature is the generated
    /// one, for the right message only (the checksum digits included).
    fn wots_roundtrip<P: ParameterSet>() {
        let mut rng = TestRng::new(0x4F75);
        let mut seeds = [0u8; 64];
        seeds.fill_with(|| rng.next_u32() as u8);
        let (pk_seed, sk_seed) = (&seeds[..P::N], &seeds[32..32 + P::N]);
        let hs = P::Hash::new(pk_seed);
        let mut adrs = Adrs::default();
        adrs.set_layer(1);
        adrs.set_tree(7);
        adrs.set_type_and_clear(kind::WOTS_HASH);
        adrs.set_keypair(5);
        let mut pk = [0u8; 32];
        wots_pkgen::<P>(&hs, sk_seed, &mut { adrs }, &mut pk[..P::N]);
        let mut m = [0u8; 32];
        m.fill_with(|| rng.next_u32() as u8);
        // The all-zero and all-15 digits are the chains' two ends; under
        // Miri the random message only (each F costs about 30 ms there).
        // Each call gets a copy of `adrs`: WOTS+ sets its chain and hash.
        let msgs = [&m[..P::N], &[0u8; 32][..P::N], &[0xFF; 32][..P::N]];
        for msg in &msgs[..if cfg!(miri) { 1 } else { 3 }] {
            let mut sig = [0u8; 67 * 32];
            let sig = &mut sig[..P::LEN * P::N];
            wots_sign::<P>(&hs, msg, sk_seed, &mut { adrs }, sig);
            let mut got = [0u8; 32];
            wots_pk_from_sig::<P>(&hs, sig, msg, &mut { adrs }, &mut got[..P::N]);
            assert_eq!(got[..P::N], pk[..P::N]);
            let mut other = [0u8; 32];
            other[..P::N].copy_from_slice(msg);
            other[0] ^= 1;
            wots_pk_from_sig::<P>(&hs, sig, &other[..P::N], &mut { adrs }, &mut got[..P::N]);
            assert_ne!(got[..P::N], pk[..P::N]);
        }
    }

    #[test]
    fn wots_roundtrip_sha2() {
        wots_roundtrip::<SlhDsaSha2_128f>();
    }

    #[test]
    fn wots_roundtrip_shake() {
        wots_roundtrip::<SlhDsaShake128f>();
    }
}
