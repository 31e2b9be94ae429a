//! Differential checks of the AVX2 backend against the portable one
//! (`tests/backends.rs`): every kernel on random inputs, and whole
//! operations through the dispatch and with the portable backend forced.
//! Hidden, not part of the API. No integer division (the division scan
//! covers this code too): ranges come from multiply-shift.
#![allow(clippy::missing_panics_doc)]

use pqforge_core::cpu::Avx2;

use super::{Backend, Portable, forced_portable};
use crate::digits::{Digits, PLAIN_DIGITS};
use crate::fpr::{self, Fpr};
use crate::modp::{self, Col, Prime};
use crate::rng::{BUF_LEN, ShakeU64, shake_from_seed};
use crate::scheme::{self, Format, Key};
use crate::zint::{ZView, ZViewMut};

/// A value in `[0, n)` (n < 2^32) by multiply-shift.
fn below(next: &mut dyn FnMut() -> u64, n: u64) -> u64 {
    ((next() >> 32) * n) >> 32
}

/// Random 31-bit words.
fn words(next: &mut dyn FnMut() -> u64, out: &mut [u32]) {
    for x in out {
        *x = (next() as u32) & 0x7FFF_FFFF;
    }
}

/// Runs one round of random inputs through every kernel of both
/// backends. `Ok(false)` when the CPU has no AVX2 (nothing compared).
///
/// # Errors
/// The name of the first kernel whose outputs differ.
pub fn kernels(next: &mut dyn FnMut() -> u64) -> Result<bool, &'static str> {
    let Some(t) = Avx2::detect() else {
        return Ok(false);
    };
    let p = Portable;
    let logn = 1 + below(next, 10) as u32;
    let n = 1usize << logn;

    // FFT (bit-identical binary64).
    let mut a = [fpr::ZERO; 1024];
    for x in &mut a[..n] {
        *x = Fpr::of((next() >> 40) as i64 - (1 << 23)) * Fpr::from_bits(0x3F50_0000_0000_0000);
    }
    let mut b = a;
    p.fft(&mut a, logn);
    t.fft(&mut b, logn);
    if a.map(Fpr::to_bits) != b.map(Fpr::to_bits) {
        return Err("fft");
    }
    p.ifft(&mut a, logn);
    t.ifft(&mut b, logn);
    if a.map(Fpr::to_bits) != b.map(Fpr::to_bits) {
        return Err("ifft");
    }

    // NTT and division mod q (AVX2 at logn 9 and 10, and lengths that
    // are multiples of 16).
    let lq = if next() & 1 == 0 {
        9 + (next() & 1) as u32
    } else {
        logn
    };
    let nq = 1usize << lq;
    let mut x = [0u16; 1024];
    let mut y = [0u16; 1024];
    for (u, v) in x[..nq].iter_mut().zip(&mut y[..nq]) {
        *u = below(next, 12289) as u16;
        // Some zero divisors.
        *v = if next().trailing_zeros() >= 4 {
            0
        } else {
            below(next, 12289) as u16
        };
    }
    let (mut x2, mut y2) = (x, y);
    p.mq_ntt(&mut x[..nq], lq);
    t.mq_ntt(&mut x2[..nq], lq);
    if x != x2 {
        return Err("mq_ntt");
    }
    p.mq_intt(&mut y[..nq], lq);
    t.mq_intt(&mut y2[..nq], lq);
    if y != y2 {
        return Err("mq_intt");
    }
    p.mq_div(&mut x[..nq], &y[..nq]);
    t.mq_div(&mut x2[..nq], &y2[..nq]);
    if x != x2 {
        return Err("mq_div");
    }

    // ChaCha20 refill, counters that carry into the high word included.
    let mut key = [0u32; 12];
    for k in &mut key {
        *k = next() as u32;
    }
    let cc = if next() & 1 == 0 {
        next()
    } else {
        0xFFFF_FFFC_u64.wrapping_add(next() & 0xF)
    };
    let (mut ba, mut bb) = ([0u8; BUF_LEN], [0u8; BUF_LEN]);
    p.chacha20x8(&mut ba, &key, cc);
    t.chacha20x8(&mut bb, &key, cc);
    if ba != bb {
        return Err("chacha20x8");
    }

    // Keygen's Gaussian polynomial, from the same SHAKE256 stream.
    let seed = next().to_le_bytes();
    let (mut ga, mut gb) = ([0i8; 1024], [0i8; 1024]);
    p.gauss_poly(
        &mut ShakeU64::new(&mut shake_from_seed(&seed)),
        &mut ga[..n],
        logn,
    );
    t.gauss_poly(
        &mut ShakeU64::new(&mut shake_from_seed(&seed)),
        &mut gb[..n],
        logn,
    );
    if ga != gb {
        return Err("gauss_poly");
    }

    modp_kernels(t, next, logn)?;
    zint_kernels(t, next)?;
    Ok(true)
}

/// NTT tables and transforms mod a solver prime, contiguous and strided.
fn modp_kernels(t: Avx2, next: &mut dyn FnMut() -> u64, logn: u32) -> Result<(), &'static str> {
    let n = 1usize << logn;
    let pr = Prime::new(below(next, 521) as usize);
    let (mut gm, mut igm, mut gm2, mut igm2) = ([0; 1024], [0; 1024], [0; 1024], [0; 1024]);
    modp::mkgm2(Portable, &mut gm, &mut igm, logn, &pr);
    modp::mkgm2(t, &mut gm2, &mut igm2, logn, &pr);
    if gm != gm2 || igm != igm2 {
        return Err("modp_powers");
    }
    let stride = 1 + below(next, 3) as usize;
    let off = below(next, stride as u64) as usize;
    let mut a = [0u32; 3 * 1024];
    for w in &mut a {
        *w = below(next, u64::from(pr.p)) as u32;
    }
    let mut b = a;
    Portable.modp_ntt(Col::new(&mut a, off, stride), &gm, logn, &pr);
    t.modp_ntt(Col::new(&mut b, off, stride), &gm, logn, &pr);
    if a != b {
        return Err("modp_ntt");
    }
    Portable.modp_intt(Col::new(&mut a[..n * stride], off, stride), &igm, logn, &pr);
    t.modp_intt(Col::new(&mut b[..n * stride], off, stride), &igm, logn, &pr);
    if a != b {
        return Err("modp_intt");
    }
    Ok(())
}

/// Residues, CRT, fused products and column sums.
fn zint_kernels(t: Avx2, next: &mut dyn FnMut() -> u64) -> Result<(), &'static str> {
    let p = Portable;
    // Residues of `count` integers of `len` limbs over primes u0..u0+k.
    let len = 1 + below(next, 60) as usize;
    let count = 1 + below(next, 9) as usize;
    let k = 1 + below(next, 40) as usize;
    let u0 = below(next, 100) as usize;
    let mut src = [0u32; 9 * 64];
    words(next, &mut src);
    let (mut da, mut db) = ([0u32; 9 * 48], [0u32; 9 * 48]);
    let sv = ZView::new(&src, len, 64);
    p.zint_residues(sv, count, ZViewMut::new(&mut da, k, 48), u0);
    t.zint_residues(sv, count, ZViewMut::new(&mut db, k, 48), u0);
    if da != db {
        return Err("zint_residues");
    }

    // CRT of residues modulo the first xlen primes.
    let xlen = 1 + below(next, 40) as usize;
    let mut xa = [0u32; 9 * 41];
    for v in 0..count {
        for u in 0..xlen {
            xa[v * 41 + u] = below(next, u64::from(Prime::new(u).p)) as u32;
        }
    }
    let mut xb = xa;
    let (mut ta, mut tb) = ([0u32; 41], [0u32; 41]);
    p.zint_rebuild_crt(ZViewMut::new(&mut xa, xlen, 41), count, &mut ta);
    t.zint_rebuild_crt(ZViewMut::new(&mut xb, xlen, 41), count, &mut tb);
    if xa != xb || ta != tb {
        return Err("zint_rebuild_crt");
    }

    // x += sum c_v y_v with |c_v| < 2^31.
    let (nv, tl) = (1 + below(next, 32) as usize, 1 + below(next, 40) as usize);
    let mut ys = [0u32; 32 * 40];
    words(next, &mut ys[..nv * tl]);
    let mut c = [0i64; 32];
    for cv in &mut c {
        *cv = below(next, (1 << 32) - 1) as i64 - ((1 << 31) - 1);
    }
    let mut x1 = [0u32; 40];
    words(next, &mut x1[..tl]);
    let mut x2 = x1;
    p.zint_add_mul_fused(&mut x1[..tl], &ys[..nv * tl], &c[..nv]);
    t.zint_add_mul_fused(&mut x2[..tl], &ys[..nv * tl], &c[..nv]);
    if x1 != x2 {
        return Err("zint_add_mul_fused");
    }

    // One column-sum coefficient: the same digits as u32 (portable) and
    // i32 (AVX2), extremes included.
    let (alen, blen) = (1 + below(next, 53) as usize, 1 + below(next, 53) as usize);
    let olen = alen + blen + below(next, 4) as usize;
    let (mut ad, mut bd) = ([0i32; PLAIN_DIGITS], [0i32; PLAIN_DIGITS]);
    for d in ad[..4 * alen].iter_mut().chain(&mut bd[..4 * blen]) {
        *d = match next() & 7 {
            0 => -(1 << 30),
            1 => (1 << 30) - 1,
            2 => 0x7FFF_FFFF,
            _ => ((next() as u32) << 1) as i32 >> 1,
        };
    }
    let (au, bu) = (ad.map(|d| d as u32), bd.map(|d| d as u32));
    let terms = [
        (0usize, 0usize, false),
        (1, 3, true),
        (3, 1, false),
        (2, 2, true),
    ];
    let nt = 1 + below(next, 4) as usize;
    let (mut oa, mut ob) = ([0u32; 110], [0u32; 110]);
    let (a_u, b_u) = (
        Digits {
            d: &au[..],
            len: alen,
        },
        Digits {
            d: &bu[..],
            len: blen,
        },
    );
    let (a_i, b_i) = (
        Digits {
            d: &ad[..],
            len: alen,
        },
        Digits {
            d: &bd[..],
            len: blen,
        },
    );
    p.comba_coeff(&mut oa[..olen], a_u, b_u, &terms[..nt]);
    t.comba_coeff(&mut ob[..olen], a_i, b_i, &terms[..nt]);
    if oa != ob {
        return Err("comba_coeff");
    }
    Ok(())
}

/// The body of [`operations`] for one set (literal sizes: the scratch
/// lengths are const expressions of them).
macro_rules! ops {
    ($logn:literal, $n:literal, $pk:literal, $sk:literal, $e:literal, $seed:ident, $nonce:ident, $msg:ident) => {{
        let logn = $logn;
        let (mut pk1, mut sk1, mut pk2, mut sk2) = ([0u8; $pk], [0u8; $sk], [0u8; $pk], [0u8; $sk]);
        let (mut v1, mut s1) = (Default::default(), Default::default());
        let (mut v2, mut s2) = (Default::default(), Default::default());
        super::keygen::<$n, { 8 * $n }, { 3 * $n }>(
            $seed, logn, &mut pk1, &mut sk1, &mut v1, &mut s1,
        );
        forced_portable::keygen::<$n, { 8 * $n }, { 3 * $n }>(
            $seed, logn, &mut pk2, &mut sk2, &mut v2, &mut s2,
        );
        let (v1, s1): (
            crate::scheme::FalconVkState<$n>,
            crate::scheme::FalconSkState<$n>,
        ) = (v1, s1);
        if pk1 != pk2 || sk1 != sk2 || v1.h != v2.h || s1.gg != s2.gg {
            return Err("keygen");
        }
        let d1 = super::decode_sk::<$n>(&sk1, logn).map_err(|_| "decode_sk")?;
        let d2 = forced_portable::decode_sk::<$n>(&sk1, logn).map_err(|_| "decode_sk")?;
        if d1.gg != d2.gg || d1.gg != s1.gg {
            return Err("decode_sk");
        }
        let p1 = super::decode_pk::<$n>(&pk1, logn).map_err(|_| "decode_pk")?;
        let p2 = forced_portable::decode_pk::<$n>(&pk1, logn).map_err(|_| "decode_pk")?;
        if p1.h != p2.h || p1.h != v1.h {
            return Err("decode_pk");
        }
        let (mut q1, mut q2) = ([0u8; $pk], [0u8; $pk]);
        let _ = super::derive_pk::<$n>(&d1, logn, &mut q1);
        let _ = forced_portable::derive_pk::<$n>(&d1, logn, &mut q2);
        if q1 != pk1 || q2 != pk1 {
            return Err("derive_pk");
        }
        let body = scheme::comp_max(logn);
        let (mut b1, mut b2) = ([0u8; 1300], [0u8; 1300]);
        let key = Key::Dyn(&d1);
        let l1 = super::sign::<$n, { 9 * $n }>(&key, logn, $nonce, $seed, $msg, &mut b1[..body]);
        let l2 = forced_portable::sign::<$n, { 9 * $n }>(
            &key,
            logn,
            $nonce,
            $seed,
            $msg,
            &mut b2[..body],
        );
        if b1 != b2 || l1 != l2 {
            return Err("sign");
        }
        let (mut e1, mut e2) = ([fpr::ZERO; $e], [fpr::ZERO; $e]);
        let mut tmp = [fpr::ZERO; { 6 * $n }];
        super::expand(&mut e1, &d1.key(), logn, &mut tmp);
        forced_portable::expand(&mut e2, &d1.key(), logn, &mut tmp);
        if e1.map(Fpr::to_bits) != e2.map(Fpr::to_bits) {
            return Err("expand");
        }
        let key = Key::<$n>::Tree(&e1);
        let (mut b3, mut b4) = ([0u8; 1300], [0u8; 1300]);
        let l3 = super::sign::<$n, { 6 * $n }>(&key, logn, $nonce, $seed, $msg, &mut b3[..body]);
        let l4 = forced_portable::sign::<$n, { 6 * $n }>(
            &key,
            logn,
            $nonce,
            $seed,
            $msg,
            &mut b4[..body],
        );
        if b3 != b1 || b4 != b1 || l3 != l1 || l4 != l1 {
            return Err("sign (expanded key)");
        }
        let mut sig = [0u8; 1 + 40 + 1300];
        sig[0] = 0x30 + logn as u8;
        sig[1..41].copy_from_slice($nonce);
        sig[41..41 + l1].copy_from_slice(&b1[..l1]);
        let sig = &sig[..41 + l1];
        let r1 = super::verify(&p1.h, logn, $msg, sig, Format::Compressed);
        let r2 = forced_portable::verify(&p1.h, logn, $msg, sig, Format::Compressed);
        if r1.is_err() || r2.is_err() {
            return Err("verify");
        }
        Ok(())
    }};
}

/// Falcon-512 or Falcon-1024 (`logn` 9 or 10) end to end, through the
/// dispatch (AVX2 on this CPU, if it has it) and with the portable
/// backend forced, from the same seeds: key generation, key decoding,
/// signing with the decoded and the expanded key, verification.
///
/// # Errors
/// The name of the first operation whose outputs differ.
pub fn operations(
    logn: u32,
    seed: &[u8; 48],
    nonce: &[u8; 40],
    msg: &[u8],
) -> Result<(), &'static str> {
    if logn == 9 {
        ops!(9, 512, 897, 1281, 7168, seed, nonce, msg)
    } else {
        ops!(10, 1024, 1793, 2305, 15360, seed, nonce, msg)
    }
}
