//! WOTS+, XMSS and FORS with their independent hashes eight at a time
//! (`super::hash::X8`); results byte-identical to `crate::internal`.
//!
//! * Trees (XMSS and FORS) by [`treehash`]: leaves eight at a time (XMSS:
//!   eight WOTS+ key pairs, their chains advanced together and their T_len
//!   compressions in one eight-lane T; FORS: eight PRFs, then eight F),
//!   in chunks of up to 64 leaves whose levels are hashed eight nodes at a
//!   time, then a stack of chunk roots merged one H at a time. The
//!   authentication path is picked up on the way, so signing gets the
//!   tree's root with it (no xmss_pkFromSig, no fors_pkFromSig in signing).
//! * Chains of different lengths (a WOTS+ signature, its verification) by
//!   [`chains`]: a lane that finishes a chain takes the next one, longest
//!   first.
//! * FORS verification: eight trees climbed together.
//!
//! Branches and indices depend only on public values (leaf indices, the
//! message digits of a signed or verified WOTS+ message, which are public
//! once the caller has declassified what they come from); never on SK.seed
//! or a value derived from it.

use super::hash::{LANES, TBUF, Val, X8};
use crate::adrs::{Adrs, kind};
use crate::hash::{HashSuite, TState};
use crate::internal;
use crate::params::ParameterSet;

/// Leaves per chunk of [`treehash`]: 2^6.
const CHUNK_LOG: usize = 6;

/// Where a tree's leaves come from.
#[derive(Clone, Copy)]
pub(crate) enum Leaves<'a> {
    /// An XMSS tree: leaf i is the WOTS+ public key of key pair i;
    /// `adrs` holds layer and tree; `len` chains.
    Wots {
        /// SK.seed.
        sk_seed: &'a [u8],
        /// Layer and tree.
        adrs: Adrs,
        /// WOTS+ chains.
        len: usize,
    },
    /// The FORS tree whose first leaf has global index `base`: leaf i is
    /// F(PRF(SK.seed, base + i)); `adrs` is of type FORS_TREE with its key
    /// pair.
    Fors {
        /// SK.seed.
        sk_seed: &'a [u8],
        /// Tree and key pair, type FORS_TREE.
        adrs: Adrs,
        /// Global index of leaf 0.
        base: u32,
    },
}

impl Leaves<'_> {
    /// The address of the H node at height `z` (≥ 1), tree-local index `i`.
    fn node_adrs(&self, z: u32, i: u32) -> Adrs {
        match *self {
            Leaves::Wots { adrs, .. } => {
                let mut a = adrs;
                a.set_type_and_clear(kind::TREE);
                a.set_tree_height(z);
                a.set_tree_index(i);
                a
            }
            Leaves::Fors { adrs, base, .. } => {
                let mut a = adrs;
                a.set_tree_height(z);
                a.set_tree_index((base >> z) + i);
                a
            }
        }
    }
}

/// Eight WOTS+ public keys (wots_pkGen, Algorithm 6): key pairs `first`
/// to `first + 7` of the tree in `base` (layer and tree set). The eight
/// T_len inputs are kept whole (18 KB of stack, x86_64 only).
#[target_feature(enable = "avx2")]
#[allow(clippy::large_stack_arrays)]
fn wots_leaves(
    x8: &X8,
    sk_seed: &[u8],
    base: &Adrs,
    len: usize,
    first: u32,
    out: &mut [Val; LANES],
) {
    let n = x8.n();
    let off = x8.t_off();
    let mut buf = [[0u8; TBUF]; LANES];
    let lanes = |ty: u32| -> [Adrs; LANES] {
        core::array::from_fn(|j| {
            let mut a = *base;
            a.set_type_and_clear(ty);
            a.set_keypair(first + j as u32);
            a
        })
    };
    let (mut pa, mut ha) = (lanes(kind::WOTS_PRF), lanes(kind::WOTS_HASH));
    let mut x = [[0u8; 32]; LANES];
    for c in 0..len {
        for ((p, h), x) in pa.iter_mut().zip(ha.iter_mut()).zip(x.iter_mut()) {
            p.set_chain(c as u32);
            h.set_chain(c as u32);
            x[..n].copy_from_slice(sk_seed);
        }
        x8.f(&pa, &mut x);
        x8.chain(&ha, &mut x, 0, 15);
        for (b, x) in buf.iter_mut().zip(&x) {
            b[off + c * n..off + (c + 1) * n].copy_from_slice(&x[..n]);
        }
    }
    x8.t(&lanes(kind::WOTS_PK), &mut buf, len * n, out);
    pqforge_core::ct::wipe(x.as_flattened_mut());
}

/// Eight FORS leaves: F(PRF(SK.seed, i)) for global indices `base + first`
/// to `base + first + 7` (`adrs`: FORS_TREE with its key pair).
#[target_feature(enable = "avx2")]
fn fors_leaves(
    x8: &X8,
    sk_seed: &[u8],
    adrs: &Adrs,
    base: u32,
    first: u32,
    out: &mut [Val; LANES],
) {
    let n = x8.n();
    let pa: [Adrs; LANES] = core::array::from_fn(|j| {
        let mut a = *adrs;
        a.set_type_and_clear(kind::FORS_PRF);
        a.set_keypair(adrs.keypair());
        a.set_tree_index(base + first + j as u32);
        a
    });
    let fa: [Adrs; LANES] = core::array::from_fn(|j| {
        let mut a = *adrs;
        a.set_tree_height(0);
        a.set_tree_index(base + first + j as u32);
        a
    });
    for o in out.iter_mut() {
        o[..n].copy_from_slice(sk_seed);
    }
    x8.f(&pa, out);
    x8.f(&fa, out);
}

/// Stores node (`z`, `i`) into the authentication path of leaf `idx` if it
/// is on it (public indices); `n` bytes per node (passed in: no division).
fn record(auth: &mut [u8], n: usize, idx: Option<u32>, height: usize, z: usize, i: u32, v: &Val) {
    if let Some(t) = idx
        && z < height
        && i == (t >> z) ^ 1
    {
        auth[z * n..(z + 1) * n].copy_from_slice(&v[..n]);
    }
}

/// The root (n bytes) of the tree of height `height` over `leaves` and, if
/// `idx` is given, the authentication path of leaf `idx` into `auth`
/// (`height` · n bytes; empty otherwise).
#[target_feature(enable = "avx2")]
pub(crate) fn treehash<H: HashSuite>(
    x8: &X8,
    hs: &H,
    leaves: Leaves<'_>,
    height: usize,
    idx: Option<u32>,
    auth: &mut [u8],
    root: &mut [u8],
) {
    let n = x8.n();
    let c = height.min(CHUNK_LOG);
    let chunk = 1usize << c;
    let mut nodes = [[0u8; 32]; 1 << CHUNK_LOG];
    // Chunk roots waiting for their sibling: at most height - c + 1.
    let mut stack = [[0u8; 32]; 16];
    let mut heights = [0usize; 16];
    let mut sp = 0;
    for ci in 0..(1u32 << (height - c)) {
        let first = ci << c;
        for (b, out) in nodes[..chunk].chunks_exact_mut(LANES).enumerate() {
            let out: &mut [Val; LANES] = out
                .try_into()
                .unwrap_or_else(|_| unreachable!("LANES nodes"));
            let at = first + (b * LANES) as u32;
            match leaves {
                Leaves::Wots { sk_seed, adrs, len } => {
                    wots_leaves(x8, sk_seed, &adrs, len, at, out);
                }
                Leaves::Fors {
                    sk_seed,
                    adrs,
                    base,
                } => fors_leaves(x8, sk_seed, &adrs, base, at, out),
            }
        }
        for (k, v) in nodes[..chunk].iter().enumerate() {
            record(auth, n, idx, height, 0, first + k as u32, v);
        }
        let mut cnt = chunk;
        for z in 1..=c {
            cnt /= 2;
            let base_i = first >> z;
            for b in (0..cnt).step_by(LANES) {
                let m = (cnt - b).min(LANES);
                let (mut l, mut r) = ([[0u8; 32]; LANES], [[0u8; 32]; LANES]);
                let mut adrs = [Adrs::default(); LANES];
                for j in 0..m {
                    l[j] = nodes[2 * (b + j)];
                    r[j] = nodes[2 * (b + j) + 1];
                    adrs[j] = leaves.node_adrs(z as u32, base_i + (b + j) as u32);
                }
                let mut out = [[0u8; 32]; LANES];
                x8.h(&adrs, &l, &r, &mut out);
                nodes[b..b + m].copy_from_slice(&out[..m]);
            }
            for (k, v) in nodes[..cnt].iter().enumerate() {
                record(auth, n, idx, height, z, base_i + k as u32, v);
            }
        }
        // The chunk's root: height c, index ci; merge it up the stack.
        let (mut v, mut z, mut i) = (nodes[0], c, ci);
        while sp > 0 && heights[sp - 1] == z {
            sp -= 1;
            let a = leaves.node_adrs(z as u32 + 1, i >> 1);
            let mut t = [0u8; 32];
            hs.h(&a, &stack[sp][..n], &v[..n], &mut t[..n]);
            (v, z, i) = (t, z + 1, i >> 1);
            record(auth, n, idx, height, z, i, &v);
        }
        stack[sp] = v;
        heights[sp] = z;
        sp += 1;
    }
    root.copy_from_slice(&stack[0][..n]);
    pqforge_core::ct::wipe(nodes.as_flattened_mut());
}

/// Advances chain c of `vals` by `steps[c]` F steps from step `start[c]`
/// (chain(), Algorithm 5, on every chain), eight chains at a time: a lane
/// that finishes takes the next chain, longest first. `adrs`: type
/// WOTS_HASH with its key pair. Lengths are public.
#[target_feature(enable = "avx2")]
fn chains(x8: &X8, adrs: &Adrs, vals: &mut [Val], start: &[u32], steps: &[u32]) {
    const IDLE: usize = usize::MAX;
    let len = vals.len();
    // Chains by length, longest first (insertion sort on public lengths).
    let mut order = [0usize; 67];
    for c in 0..len {
        let mut k = c;
        while k > 0 && steps[order[k - 1]] < steps[c] {
            order[k] = order[k - 1];
            k -= 1;
        }
        order[k] = c;
    }
    let mut next = 0;
    let mut cur = [IDLE; LANES];
    let mut pos = [0u32; LANES];
    let mut left = [0u32; LANES];
    let mut la = [*adrs; LANES];
    let mut x = [[0u8; 32]; LANES];
    loop {
        let mut active = false;
        for j in 0..LANES {
            if left[j] == 0 {
                if cur[j] != IDLE {
                    vals[cur[j]] = x[j];
                    cur[j] = IDLE;
                }
                while next < len && steps[order[next]] == 0 {
                    next += 1;
                }
                if next < len {
                    let c = order[next];
                    next += 1;
                    cur[j] = c;
                    x[j] = vals[c];
                    pos[j] = start[c];
                    left[j] = steps[c];
                    la[j].set_chain(c as u32);
                }
            }
            if cur[j] != IDLE {
                active = true;
                la[j].set_hash(pos[j]);
            }
        }
        if !active {
            break;
        }
        x8.f(&la, &mut x);
        for j in 0..LANES {
            if cur[j] != IDLE {
                pos[j] += 1;
                left[j] -= 1;
            }
        }
    }
    pqforge_core::ct::wipe(x.as_flattened_mut());
}

/// The root of the XMSS tree in `adrs` (layer and tree set).
#[target_feature(enable = "avx2")]
pub(crate) fn xmss_root<P: ParameterSet>(
    hs: &P::Hash,
    sk_seed: &[u8],
    adrs: &Adrs,
    root: &mut [u8],
) {
    let x8 = X8::new(hs.keyed());
    let leaves = Leaves::Wots {
        sk_seed,
        adrs: *adrs,
        len: P::LEN,
    };
    treehash(&x8, hs, leaves, P::HP, None, &mut [], root);
}

/// xmss_sign (Algorithm 10) and the tree's root.
#[target_feature(enable = "avx2")]
pub(crate) fn xmss_sign<P: ParameterSet>(
    hs: &P::Hash,
    m: &[u8],
    sk_seed: &[u8],
    idx: u32,
    adrs: &Adrs,
    sig: &mut [u8],
    root: &mut [u8],
) {
    let n = P::N;
    let x8 = X8::new(hs.keyed());
    let (wsig, auth) = sig.split_at_mut(P::LEN * n);
    let leaves = Leaves::Wots {
        sk_seed,
        adrs: *adrs,
        len: P::LEN,
    };
    treehash(&x8, hs, leaves, P::HP, Some(idx), auth, root);
    // wots_sign (Algorithm 7): the chain starts eight PRFs at a time, then
    // the chains to the message's digits.
    let mut d = [0u8; 67];
    internal::wots_digits::<P>(m, &mut d);
    let d = d.map(u32::from);
    let mut vals = [[0u8; 32]; 72];
    for (g, v) in vals.chunks_exact_mut(LANES).enumerate() {
        if g * LANES >= P::LEN {
            break;
        }
        let pa: [Adrs; LANES] = core::array::from_fn(|j| {
            let mut a = *adrs;
            a.set_type_and_clear(kind::WOTS_PRF);
            a.set_keypair(idx);
            a.set_chain((g * LANES + j) as u32);
            a
        });
        let v: &mut [Val; LANES] = v.try_into().unwrap_or_else(|_| unreachable!("LANES"));
        for x in v.iter_mut() {
            x[..n].copy_from_slice(sk_seed);
        }
        x8.f(&pa, v);
    }
    let mut ha = *adrs;
    ha.set_type_and_clear(kind::WOTS_HASH);
    ha.set_keypair(idx);
    chains(&x8, &ha, &mut vals[..P::LEN], &[0; 67], &d);
    for (s, v) in wsig.chunks_exact_mut(n).zip(&vals) {
        s.copy_from_slice(&v[..n]);
    }
    pqforge_core::ct::wipe(vals.as_flattened_mut());
}

/// xmss_pkFromSig (Algorithm 11).
#[target_feature(enable = "avx2")]
pub(crate) fn xmss_pk_from_sig<P: ParameterSet>(
    hs: &P::Hash,
    idx: u32,
    sig: &[u8],
    m: &[u8],
    adrs: &mut Adrs,
    root: &mut [u8],
) {
    let n = P::N;
    let x8 = X8::new(hs.keyed());
    let (wsig, auth) = sig.split_at(P::LEN * n);
    let mut d = [0u8; 67];
    internal::wots_digits::<P>(m, &mut d);
    let d = d.map(u32::from);
    let mut rest = [0u32; 67];
    for (r, d) in rest.iter_mut().zip(&d) {
        *r = 15 - d;
    }
    let mut vals = [[0u8; 32]; 67];
    for (v, s) in vals.iter_mut().zip(wsig.chunks_exact(n)) {
        v[..n].copy_from_slice(s);
    }
    adrs.set_type_and_clear(kind::WOTS_HASH);
    adrs.set_keypair(idx);
    chains(&x8, adrs, &mut vals[..P::LEN], &d, &rest);
    let mut t = {
        let mut a = *adrs;
        a.set_type_and_clear(kind::WOTS_PK);
        a.set_keypair(idx);
        hs.t_start(&a)
    };
    for v in &vals[..P::LEN] {
        t.update(&v[..n]);
    }
    let mut node = [0u8; 32];
    t.finalize(&mut node[..n]);
    adrs.set_type_and_clear(kind::TREE);
    internal::climb(hs, idx, auth, adrs, &mut node[..n]);
    root.copy_from_slice(&node[..n]);
}

/// The T_k compression of the FORS roots into pk_FORS.
fn fors_roots<H: HashSuite>(hs: &H, adrs: &Adrs, roots: &[Val], n: usize, pk: &mut [u8]) {
    let mut a = *adrs;
    a.set_type_and_clear(kind::FORS_ROOTS);
    a.set_keypair(adrs.keypair());
    let mut t = hs.t_start(&a);
    for r in roots {
        t.update(&r[..n]);
    }
    t.finalize(pk);
}

/// fors_sign (Algorithm 16) and pk_FORS.
#[target_feature(enable = "avx2")]
pub(crate) fn fors_sign<P: ParameterSet>(
    hs: &P::Hash,
    md: &[u8],
    sk_seed: &[u8],
    adrs: &Adrs,
    sig: &mut [u8],
    pk: &mut [u8],
) {
    let n = P::N;
    let x8 = X8::new(hs.keyed());
    let mut ind = [0u16; 35];
    internal::base_2b(md, P::A, &mut ind[..P::K]);
    let ind = ind.map(u32::from);
    let mut roots = [[0u8; 32]; 35];
    for (i, (s, root)) in sig
        .chunks_exact_mut((1 + P::A) * n)
        .zip(roots.iter_mut())
        .enumerate()
    {
        let base = (i as u32) << P::A;
        let (sk, auth) = s.split_at_mut(n);
        internal::fors_sk(hs, sk_seed, adrs, base + ind[i], sk);
        let leaves = Leaves::Fors {
            sk_seed,
            adrs: *adrs,
            base,
        };
        treehash(&x8, hs, leaves, P::A, Some(ind[i]), auth, &mut root[..n]);
    }
    fors_roots(hs, adrs, &roots[..P::K], n, pk);
}

/// fors_pkFromSig (Algorithm 17): eight trees climbed together.
#[target_feature(enable = "avx2")]
pub(crate) fn fors_pk_from_sig<P: ParameterSet>(
    hs: &P::Hash,
    sig: &[u8],
    md: &[u8],
    adrs: &Adrs,
    pk: &mut [u8],
) {
    let n = P::N;
    let part = (1 + P::A) * n;
    let x8 = X8::new(hs.keyed());
    let mut ind = [0u16; 35];
    internal::base_2b(md, P::A, &mut ind[..P::K]);
    let ind = ind.map(u32::from);
    let mut roots = [[0u8; 32]; 40];
    for g in (0..P::K).step_by(LANES) {
        let m = (P::K - g).min(LANES);
        let mut idx = [0u32; LANES];
        let mut x = [[0u8; 32]; LANES];
        let mut la = [*adrs; LANES];
        for j in 0..m {
            let i = g + j;
            idx[j] = ((i as u32) << P::A) + ind[i];
            x[j][..n].copy_from_slice(&sig[i * part..i * part + n]);
            la[j].set_tree_height(0);
            la[j].set_tree_index(idx[j]);
        }
        x8.f(&la, &mut x);
        for z in 1..=P::A {
            let (mut l, mut r) = ([[0u8; 32]; LANES], [[0u8; 32]; LANES]);
            for j in 0..m {
                let i = g + j;
                let at = i * part + z * n;
                let sib = &sig[at..at + n];
                if (idx[j] >> (z - 1)) & 1 == 0 {
                    l[j] = x[j];
                    r[j][..n].copy_from_slice(sib);
                } else {
                    l[j][..n].copy_from_slice(sib);
                    r[j] = x[j];
                }
                la[j].set_tree_height(z as u32);
                la[j].set_tree_index(idx[j] >> z);
            }
            x8.h(&la, &l, &r, &mut x);
        }
        roots[g..g + m].copy_from_slice(&x[..m]);
    }
    fors_roots(hs, adrs, &roots[..P::K], n, pk);
}
