//! Decapsulation of arbitrary ciphertexts gives exactly the honest shared
//! secret or exactly the specified implicit-rejection key, both computed
//! here from the specifications, independently of the library:
//!
//! * ML-KEM (FIPS 203): K̄ = J(z ‖ c) = SHAKE256(z ‖ c, 32);
//! * HQC: K̄ = SHA3-256(SHA3-256(ek ‖ 0x01) ‖ σ ‖ c ‖ 0x03);
//! * Classic McEliece (348864, 348864f, their pc variants, 460896: sets
//!   whose syndrome fills whole bytes): the target encodes its own error
//!   vector e (C0 = H e with H = (I | T) from the public key; C1 =
//!   SHAKE256(2 ‖ e) for pc), flips syndrome bits (flipping bit i adds the
//!   unit column i of H, so the error becomes e' = e + Σ u_i) and may
//!   corrupt C1; then K = SHAKE256(1 ‖ e' ‖ C) when e' has weight t (and
//!   C1 matches e'), else K̄ = SHAKE256(0 ‖ s ‖ C). (Weight above t: the
//!   syndrome of another weight-t vector with probability about 2^-300.)
//! * X-Wing (draft-connolly-cfrg-xwing-kem): the 32-byte private seed is
//!   expanded here (SHAKE256 to d ‖ z ‖ sk_X), ss_M is the ML-KEM-768
//!   secret of the first 1088 bytes (the honest one when they are
//!   unchanged, else J(z ‖ ct_M)), ss_X = X25519(sk_X, ct_X) by
//!   `x25519-dalek` (any 32 bytes, low-order points included), and
//!   K = SHA3-256(ss_M ‖ ss_X ‖ ct_X ‖ pk_X ‖ `\.//^\`).
//! * FrodoKEM-640 (`efrodokem-640-aes`, `frodokem-640-shake`; FrodoKEM
//!   specification 2023, whose eFrodoKEM is round 3's unsalted form):
//!   K̄ = SHAKE128(c1 ‖ c2 ‖ salt ‖ s, len_sec = 16 bytes), s the first 16
//!   bytes of sk (s ‖ pk ‖ Sᵀ ‖ pkh; pk and pkh = SHAKE128(pk) are checked
//!   in place), salt empty (eFrodoKEM) or 32 bytes (FrodoKEM). Every
//!   change rejects: decapsulation compares the re-encrypted (c1, c2) with
//!   the received one entry by entry, and at log q = 15 the packing has no
//!   spare bits (9600 + 120 bytes exactly), so two byte strings never
//!   encode the same matrices; the salt is an input of G2, so a changed
//!   salt changes seed_SE and the re-encryption. Only a collision makes a
//!   different ciphertext valid.
//! * NTRU round 3 (`ntru-hps-2048-509`, `ntru-hrss-701`): K̄ = SHA3-256(prf
//!   key ‖ ct) (the whole received ciphertext, prf key the last 32 bytes
//!   of sk = f ‖ f_p ‖ h_q ‖ prf). Here a mutated ciphertext is often
//!   *valid*: NTRU is malleable in m. c + δ with δ small decrypts to
//!   m + δ (mod 3) and, when Lift(m + δ) = Lift(m) + δ, to the same r: for
//!   HPS a +1 at a zero of m and a −1 at a one of m (the packed
//!   coefficients are stored n − 1 of them, the last is −Σ: one changed
//!   coefficient moves the last one the other way) keeps m of fixed type;
//!   for HRSS (any m) a ±1 pair at adjacent coefficients, or one change of
//!   coefficient n − 2, works with probability about 2/3 (no carry in
//!   m/(x − 1)). Such a ciphertext is Enc(r, m'), and the specified
//!   output is SHA3-256(pack r ‖ pack m'). So the target decrypts every
//!   ciphertext itself from the spec and the stored f, f_p, h_q
//!   (a = c·f mod (q, x^n − 1), coefficients in [−q/2, q/2) reduced mod 3
//!   and mod Φ_n, m = a·f_p mod (3, Φ_n), r = (c − Lift(m))·h_q mod
//!   (q, Φ_n), Lift for HRSS solved top-down here rather than the crate's
//!   bottom-up recurrence), and calls the ciphertext valid iff m is in the
//!   message space (HPS: q/16 − 1 ones and twos), r is trinary and the
//!   re-encryption r·h + Lift(m), packed with zero padding, is byte for
//!   byte the ciphertext. The reference (and the crate) do not re-encrypt:
//!   they check the padding, m and r, which by Proposition 1 of Schanck
//!   2018 (c(1) = 0 by the sum-zero packing) is the same set, so the two
//!   criteria must agree on every input. Then K = SHA3-256(pack r ‖ pack
//!   m), else K̄. Input mode 2 (byte 1 mod 4) adds up to eight small
//!   signed deltas to coefficients of the honest ciphertext (2-byte
//!   position, signed byte) to reach these valid neighbours; their count
//!   is logged at every power of two.
//! * Streamlined NTRU Prime round 3 (`sntrup653`, `sntrup761`): K̄ =
//!   Hash0(Hash3(ρ) ‖ ct), Hash_b(x) = SHA-512(b ‖ x)[..32], ρ the
//!   Small_bytes after pk in sk = f ‖ v ‖ pk ‖ ρ ‖ Hash4(pk) (the cached
//!   Hash4(pk), checked here, only enters the confirmation Hash2(Hash3(r)
//!   ‖ cache) of the re-encryption, not K̄). Every change rejects:
//!   decapsulation re-encrypts the decrypted r (or the fixed weight-w
//!   vector) to Rounded_encode(c') ‖ confirm and compares all bytes; a
//!   changed confirm leaves r and so the honest bytes, a changed rounded
//!   part would need the new confirm to be r''s hash, and a non-canonical
//!   encoding (digits past the radix) decodes but re-encodes canonically.
//!
//! Input: byte 0 picks the set; for ML-KEM, HQC, X-Wing, FrodoKEM, NTRU
//! and sntrup byte 1 picks raw bytes (the rest, cut or zero-padded to the
//! ciphertext length) or an XOR mask laid over an honest ciphertext at a
//! 2-byte offset (NTRU also mode 2, above); for McEliece the bytes choose
//! e's support, the flipped syndrome bits and a C1 mask.
//! `KEM_DECAPS_SETS` (e.g. `12,13`) restricts a run to some selectors.
#![no_main]

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use libfuzzer_sys::fuzz_target;
use pqforge::hqc::{Hqc1, Hqc1V5, Hqc3, Hqc5};
use pqforge::keccak::{Shake128, Shake256, sha3_256_parts};
use pqforge::mceliece::{
    McEliece348864, McEliece348864f, McEliece348864pc, McEliece460896, ParameterSet as Mc,
};
use pqforge::sha2::Sha512;
use pqforge::{Algorithm, DynKem, Scheme};

/// A key pair of one set, made once per process.
struct Keys {
    kem: &'static dyn DynKem,
    pk: Vec<u8>,
    sk: Vec<u8>,
}

fn keys(name: &str) -> Keys {
    let a: Algorithm = name.parse().expect("registered");
    let Scheme::Kem(kem) = a.scheme() else {
        panic!("{name} is a KEM")
    };
    let i = kem.info();
    let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    let mut rng = pqforge_core::testing::TestRng::new(0xF022);
    kem.keygen(&mut rng, &mut pk, &mut sk).expect("keygen");
    Keys { kem, pk, sk }
}

fn decaps(k: &Keys, ct: &[u8]) -> [u8; 32] {
    let mut ss = [0u8; 32];
    k.kem.decaps(&k.sk, ct, &mut ss).expect("right lengths");
    ss
}

/// The honest ciphertext and key of a fixed encapsulation.
fn encaps(k: &Keys) -> (Vec<u8>, [u8; 32]) {
    let mut ct = vec![0u8; k.kem.info().ct_bytes];
    let mut ss = [0u8; 32];
    let mut rng = pqforge_core::testing::TestRng::new(0xE4CA);
    k.kem
        .encaps(&mut rng, &k.pk, &mut ct, &mut ss)
        .expect("encaps");
    (ct, ss)
}

/// The ciphertext the input describes: raw, or a mask over `honest`.
fn mutated(honest: &[u8], data: &[u8]) -> Vec<u8> {
    let Some((&mode, rest)) = data.split_first() else {
        return honest.to_vec();
    };
    if mode & 1 == 0 {
        let mut ct = rest.to_vec();
        ct.resize(honest.len(), 0);
        ct
    } else {
        let mut ct = honest.to_vec();
        if rest.len() >= 2 {
            let off = usize::from(u16::from_le_bytes([rest[0], rest[1]])) % honest.len();
            for (c, m) in ct[off..].iter_mut().zip(&rest[2..]) {
                *c ^= m;
            }
        }
        ct
    }
}

fn shake(parts: &[&[u8]]) -> [u8; 32] {
    let mut x = Shake256::new();
    for p in parts {
        x.absorb(p);
    }
    let mut o = [0u8; 32];
    x.squeeze(&mut o);
    o
}

fn mlkem(name: &str, cell: &OnceLock<(Keys, Vec<u8>, [u8; 32])>, data: &[u8]) {
    let (k, honest, ss) = cell.get_or_init(|| {
        let k = keys(name);
        let (ct, ss) = encaps(&k);
        (k, ct, ss)
    });
    let ct = mutated(honest, data);
    let z = &k.sk[k.sk.len() - 32..];
    let want = if &ct == honest { *ss } else { shake(&[z, &ct]) };
    assert_eq!(decaps(k, &ct), want, "{name}");
}

fn hqc<P: pqforge::hqc::ParameterSet>(
    name: &str,
    cell: &OnceLock<(Keys, Vec<u8>, [u8; 32])>,
    data: &[u8],
) {
    let (k, honest, ss) = cell.get_or_init(|| {
        let k = keys(name);
        let (ct, ss) = encaps(&k);
        (k, ct, ss)
    });
    let ct = mutated(honest, data);
    let want = if &ct == honest {
        *ss
    } else {
        let ekb = P::ENCAPS_KEY_BYTES;
        let ek = &k.sk[..ekb];
        let sigma = &k.sk[ekb + 32..ekb + 32 + P::K];
        let hek = sha3_256_parts(&[ek, &[0x01]]);
        sha3_256_parts(&[&hek, sigma, &ct, &[0x03]])
    };
    assert_eq!(decaps(k, &ct), want, "{name}");
}

/// C0 = H e, H = (I_mt | T), T row i in `ROW_BYTES` bytes of the public
/// key, bits little-endian within bytes (whole bytes: mt and k multiples
/// of 8 for the sets used here).
fn syndrome<P: Mc>(pk: &[u8], e: &[u8]) -> Vec<u8> {
    let (mt, rb) = (P::MT, P::ROW_BYTES);
    let tail = &e[mt / 8..];
    let mut c0 = vec![0u8; mt / 8];
    for i in 0..mt {
        let row = &pk[i * rb..(i + 1) * rb];
        let mut acc = 0u8;
        for (r, x) in row.iter().zip(tail) {
            acc ^= r & x;
        }
        let bit = (acc.count_ones() & 1) as u8 ^ (e[i / 8] >> (i % 8) & 1);
        c0[i / 8] |= bit << (i % 8);
    }
    c0
}

fn mceliece<P: Mc>(name: &str, cell: &OnceLock<Keys>, data: &[u8]) {
    let k = cell.get_or_init(|| keys(name));
    let (n, t, mt) = (P::N, P::T, P::MT);
    // The support of e: t distinct positions from 2-byte words of the
    // input (a taken position moves to the next free one).
    let mut e = vec![0u8; n / 8];
    let mut words = data
        .chunks_exact(2)
        .map(|w| usize::from(u16::from_le_bytes([w[0], w[1]])));
    let mut used = 0;
    for j in 0..t {
        let mut p = words.next().unwrap_or(j * 37 + 11) % n;
        while e[p / 8] >> (p % 8) & 1 == 1 {
            p = (p + 1) % n;
        }
        e[p / 8] |= 1 << (p % 8);
        used += 2;
    }
    let rest = data.get(used.min(data.len())..).unwrap_or(&[]);
    // Up to four syndrome-bit flips, then a C1 mask (pc sets).
    let nflip = rest.first().map_or(0, |b| usize::from(b % 5));
    let flips: Vec<usize> = rest
        .get(1..)
        .unwrap_or(&[])
        .chunks_exact(2)
        .take(nflip)
        .map(|w| usize::from(u16::from_le_bytes([w[0], w[1]])) % mt)
        .collect();
    let c1_mask = rest.get(1 + 2 * flips.len()..).unwrap_or(&[]);

    let mut c = syndrome::<P>(&k.pk, &e);
    let mut e2 = e.clone();
    for &i in &flips {
        c[i / 8] ^= 1 << (i % 8);
        e2[i / 8] ^= 1 << (i % 8);
    }
    let mut c1_ok = true;
    if P::PC {
        let mut c1 = shake(&[&[2], &e]);
        for (x, m) in c1.iter_mut().zip(c1_mask) {
            *x ^= m;
        }
        c1_ok = c1 == shake(&[&[2], &e2]);
        c.extend_from_slice(&c1);
    }
    let weight: u32 = e2.iter().map(|b| b.count_ones()).sum();
    let want = if weight as usize == t && c1_ok {
        shake(&[&[1], &e2, &c])
    } else {
        let s = &k.sk[k.sk.len() - n / 8..];
        shake(&[&[0], s, &c])
    };
    assert_eq!(
        decaps(k, &c),
        want,
        "{name}: {} flips, weight {weight}",
        flips.len()
    );
}

/// X-Wing's combiner label (draft section 5.3): `\.//^\`.
const XWING_LABEL: &[u8; 6] = b"\\.//^\\";

fn xwing(cell: &Cell, data: &[u8]) {
    use pqforge::mlkem::MlKem768;
    use pqforge::{Ciphertext, Kem};
    const CT_M: usize = 1088;
    const PK_M: usize = 1184;
    let (k, honest, ss) = cell.get_or_init(|| {
        let k = keys("x-wing");
        let (ct, ss) = encaps(&k);
        (k, ct, ss)
    });
    let ct = mutated(honest, data);
    let want = if &ct == honest {
        *ss
    } else {
        let mut expanded = [0u8; 96];
        let mut x = Shake256::new();
        x.absorb(&k.sk);
        x.squeeze(&mut expanded);
        let (dz, sk_x) = expanded.split_at(64);
        let (ct_m, ct_x) = ct.split_at(CT_M);
        let ss_m: [u8; 32] = if ct_m == &honest[..CT_M] {
            let (_, dk) = MlKem768::keygen_derand(dz.try_into().expect("64 bytes"));
            let c = Ciphertext::<MlKem768>::try_from(ct_m).expect("ML-KEM-768 length");
            MlKem768::decaps(&dk, &c)
                .as_ref()
                .try_into()
                .expect("32 bytes")
        } else {
            shake(&[&dz[32..], ct_m])
        };
        let ss_x = x25519_dalek::x25519(
            sk_x.try_into().expect("32 bytes"),
            ct_x.try_into().expect("32 bytes"),
        );
        sha3_256_parts(&[&ss_m, &ss_x, ct_x, &k.pk[PK_M..], XWING_LABEL])
    };
    assert_eq!(decaps(k, &ct), want, "x-wing");
}

/// A key pair, the honest ciphertext and its secret, any secret length.
type VarCell = OnceLock<(Keys, Vec<u8>, Vec<u8>)>;

fn decaps_var(k: &Keys, ct: &[u8]) -> Vec<u8> {
    let mut ss = vec![0u8; k.kem.info().ss_bytes];
    k.kem.decaps(&k.sk, ct, &mut ss).expect("right lengths");
    ss
}

fn encaps_var(k: &Keys) -> (Vec<u8>, Vec<u8>) {
    let i = k.kem.info();
    let (mut ct, mut ss) = (vec![0u8; i.ct_bytes], vec![0u8; i.ss_bytes]);
    let mut rng = pqforge_core::testing::TestRng::new(0xE4CA);
    k.kem
        .encaps(&mut rng, &k.pk, &mut ct, &mut ss)
        .expect("encaps");
    (ct, ss)
}

fn var_cell<'a>(name: &str, cell: &'a VarCell) -> &'a (Keys, Vec<u8>, Vec<u8>) {
    cell.get_or_init(|| {
        let k = keys(name);
        let (ct, ss) = encaps_var(&k);
        (k, ct, ss)
    })
}

/// FrodoKEM-640 / eFrodoKEM-640: len_sec = 16 bytes, SHAKE = SHAKE128.
const FRODO640_SEC: usize = 16;

fn shake128(parts: &[&[u8]], out: &mut [u8]) {
    let mut x = Shake128::new();
    for p in parts {
        x.absorb(p);
    }
    x.squeeze(out);
}

fn frodo640(name: &str, cell: &VarCell, data: &[u8]) {
    let (k, honest, ss) = var_cell(name, cell);
    let sec = FRODO640_SEC;
    // sk = s ‖ seed_A ‖ b ‖ Sᵀ ‖ pkh (the spec's layout; pkh = SHAKE(pk)).
    let (s, rest) = k.sk.split_at(sec);
    assert_eq!(&rest[..k.pk.len()], &k.pk[..], "{name}: pk inside sk");
    let mut pkh = [0u8; FRODO640_SEC];
    shake128(&[&k.pk], &mut pkh);
    assert_eq!(&k.sk[k.sk.len() - sec..], &pkh, "{name}: pkh inside sk");
    let ct = mutated(honest, data);
    let want = if &ct == honest {
        ss.clone()
    } else {
        let mut r = vec![0u8; sec];
        shake128(&[&ct, s], &mut r);
        r
    };
    assert_eq!(decaps_var(k, &ct), want, "{name}");
}

/// A round-3 NTRU set: n, log2 q, HPS (m of fixed type) or HRSS.
struct NtruSet {
    name: &'static str,
    n: usize,
    logq: u32,
    hps: bool,
}

const NTRU_SETS: [NtruSet; 2] = [
    NtruSet {
        name: "ntru-hps-2048-509",
        n: 509,
        logq: 11,
        hps: true,
    },
    NtruSet {
        name: "ntru-hrss-701",
        n: 701,
        logq: 13,
        hps: false,
    },
];

impl NtruSet {
    fn mask(&self) -> u16 {
        ((1u32 << self.logq) - 1) as u16
    }
    /// Bytes of n − 1 packed coefficients mod q (ciphertext, public key).
    fn q_bytes(&self) -> usize {
        ((self.n - 1) * self.logq as usize).div_ceil(8)
    }
    /// Bytes of n − 1 packed coefficients mod 3.
    fn t_bytes(&self) -> usize {
        (self.n - 1).div_ceil(5)
    }
    /// n − 1 coefficients of log q bits, least significant bit first; the
    /// last coefficient is −Σ (sum_zero) or 0.
    fn unpack_q(&self, b: &[u8], sum_zero: bool) -> Vec<u16> {
        let l = self.logq as usize;
        let mut c = vec![0u16; self.n];
        for (i, x) in c[..self.n - 1].iter_mut().enumerate() {
            for t in 0..l {
                let bit = i * l + t;
                *x |= u16::from(b[bit / 8] >> (bit % 8) & 1) << t;
            }
        }
        if sum_zero {
            let s = c.iter().fold(0u16, |a, &x| a.wrapping_add(x));
            c[self.n - 1] = s.wrapping_neg() & self.mask();
        }
        c
    }
    fn pack_q(&self, c: &[u16]) -> Vec<u8> {
        let l = self.logq as usize;
        let mut b = vec![0u8; self.q_bytes()];
        for (i, &x) in c[..self.n - 1].iter().enumerate() {
            for t in 0..l {
                let bit = i * l + t;
                b[bit / 8] |= ((x >> t & 1) as u8) << (bit % 8);
            }
        }
        b
    }
    /// n − 1 base-3 digits, five a byte (digit j of byte i is coefficient
    /// 5i + j); the last coefficient is 0. Values 0, 1, 2.
    fn unpack3(&self, b: &[u8]) -> Vec<u16> {
        let mut c = vec![0u16; self.n];
        for (i, x) in c[..self.n - 1].iter_mut().enumerate() {
            let mut v = u16::from(b[i / 5]);
            for _ in 0..i % 5 {
                v /= 3;
            }
            *x = v % 3;
        }
        c
    }
    fn pack3(&self, c: &[u16]) -> Vec<u8> {
        let mut b = vec![0u8; self.t_bytes()];
        for (i, &x) in c[..self.n - 1].iter().enumerate() {
            b[i / 5] += (x * [1, 3, 9, 27, 81][i % 5]) as u8;
        }
        b
    }
    /// a·b mod (x^n − 1), coefficients mod 2^16.
    fn mul(&self, a: &[u16], b: &[u16]) -> Vec<u16> {
        let n = self.n;
        let mut r = vec![0u16; n];
        for (i, &x) in a.iter().enumerate() {
            if x == 0 {
                continue;
            }
            let (lo, hi) = r.split_at_mut(i);
            for (o, &y) in hi.iter_mut().zip(&b[..n - i]) {
                *o = o.wrapping_add(x.wrapping_mul(y));
            }
            for (o, &y) in lo.iter_mut().zip(&b[n - i..]) {
                *o = o.wrapping_add(x.wrapping_mul(y));
            }
        }
        r
    }
    /// 0, 1, 2 ↦ 0, 1, −1 in Z_(2^16).
    fn centred(c: &[u16]) -> Vec<u16> {
        c.iter()
            .map(|&x| if x == 2 { u16::MAX } else { x })
            .collect()
    }
    /// Reduction modulo (3, Φ_n) of a polynomial with entries 0..3·2^14.
    fn mod3_phi(c: &mut [u16]) {
        let last = c[c.len() - 1] % 3;
        for x in c.iter_mut() {
            *x = (*x % 3 + 3 - last) % 3;
        }
    }
    /// Lift(m) in Z_q (mod 2^16): HPS the centred m; HRSS Φ_1 · S3(m/Φ_1):
    /// b of degree ≤ n − 2 with (x − 1)·b = m + k·Φ_n in Z_3[x]
    /// (k = −m(1)/n mod 3), solved from the top coefficient down.
    fn lift(&self, m: &[u16]) -> Vec<u16> {
        if self.hps {
            return Self::centred(m);
        }
        let n = self.n;
        let sum: usize = m.iter().map(|&x| usize::from(x)).sum();
        // 1/n ≡ n (mod 3).
        let k = ((3 - sum % 3) * (n % 3)) % 3;
        let mp: Vec<usize> = m.iter().map(|&x| (usize::from(x) + k) % 3).collect();
        let mut b = vec![0usize; n];
        for j in (1..n).rev() {
            b[j - 1] = (mp[j] + b[j]) % 3;
        }
        debug_assert_eq!((3 - b[0]) % 3, mp[0], "m/(x − 1)");
        let b: Vec<u16> = Self::centred(&b.iter().map(|&x| x as u16).collect::<Vec<_>>());
        let mut l = vec![0u16; n];
        for j in 0..n {
            let prev = if j == 0 { 0 } else { b[j - 1] };
            l[j] = prev.wrapping_sub(b[j]);
        }
        l
    }
    /// The round-3 decapsulation's (r, m), when `ct` is a valid ciphertext
    /// (by re-encryption): `Some(SHA3-256(pack r ‖ pack m))`.
    fn decrypt(&self, sk: &[u8], pk: &[u8], ct: &[u8]) -> Option<[u8; 32]> {
        let (n, q, mask) = (self.n, 1u32 << self.logq, self.mask());
        let tb = self.t_bytes();
        let c = self.unpack_q(ct, true);
        let f = self.unpack3(&sk[..tb]);
        let fp = self.unpack3(&sk[tb..2 * tb]);
        let hq = self.unpack_q(&sk[2 * tb..], false);
        // a = c·f mod (q, x^n − 1), each coefficient taken in [−q/2, q/2)
        // and reduced mod 3, then mod Φ_n; m = a·f_p mod (3, Φ_n).
        let a = self.mul(&c, &Self::centred(&f));
        let mut mf: Vec<u16> = a
            .iter()
            .map(|&x| {
                let x = u32::from(x & mask);
                let v = if x >= q / 2 {
                    x as i64 - q as i64
                } else {
                    x as i64
                };
                v.rem_euclid(3) as u16
            })
            .collect();
        Self::mod3_phi(&mut mf);
        let mut m = self.mul(&mf, &fp);
        Self::mod3_phi(&mut m);
        if self.hps {
            // Fixed type: q/16 − 1 ones and as many twos.
            let ones = m.iter().filter(|&&x| x == 1).count();
            let twos = m.iter().filter(|&&x| x == 2).count();
            if ones != twos || ones != (q / 16 - 1) as usize {
                return None;
            }
        }
        let lm = self.lift(&m);
        let b: Vec<u16> = c.iter().zip(&lm).map(|(x, y)| x.wrapping_sub(*y)).collect();
        let mut r = self.mul(&b, &hq);
        let last = r[n - 1];
        for x in r.iter_mut() {
            *x = x.wrapping_sub(last) & mask;
        }
        if r.iter().any(|&x| x > 1 && x != mask) {
            return None;
        }
        // Re-encryption: c = r·h + Lift(m) mod (q, x^n − 1), packed.
        let r3: Vec<u16> = r.iter().map(|&x| if x == mask { 2 } else { x }).collect();
        let h = self.unpack_q(pk, true);
        let mut c2 = self.mul(&Self::centred(&r3), &h);
        for (x, y) in c2.iter_mut().zip(&lm) {
            *x = x.wrapping_add(*y) & mask;
        }
        if self.pack_q(&c2) != ct {
            return None;
        }
        Some(sha3_256_parts(&[&self.pack3(&r3), &self.pack3(&m)]))
    }
}

/// NTRU input: mode byte 2 (mod 4) adds small values to coefficients of
/// the honest ciphertext (3-byte items: 2-byte position, signed delta),
/// else [`mutated`].
fn ntru_ct(set: &NtruSet, honest: &[u8], data: &[u8]) -> Vec<u8> {
    match data.split_first() {
        Some((&mode, rest)) if mode % 4 == 2 => {
            let mut c = set.unpack_q(honest, true);
            for w in rest.chunks_exact(3).take(8) {
                let pos = usize::from(u16::from_le_bytes([w[0], w[1]])) % (set.n - 1);
                c[pos] = c[pos].wrapping_add(w[2] as i8 as u16) & set.mask();
            }
            set.pack_q(&c)
        }
        _ => mutated(honest, data),
    }
}

/// Valid ciphertexts other than the honest one reached (per set).
static NTRU_OTHER_VALID: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];

fn ntru(which: usize, cell: &VarCell, data: &[u8]) {
    let set = &NTRU_SETS[which];
    let name = set.name;
    let (k, honest, ss) = var_cell(name, cell);
    let tb = set.t_bytes();
    let prf = &k.sk[2 * tb + set.q_bytes()..];
    assert_eq!(prf.len(), 32, "{name}: sk = f ‖ f_p ‖ h_q ‖ prf key");
    let ct = ntru_ct(set, honest, data);
    let want = if &ct == honest {
        // The honest ciphertext decrypts here to the secret encaps gave.
        let own = set.decrypt(&k.sk, &k.pk, &ct).map(|x| x.to_vec());
        assert_eq!(own.as_ref(), Some(ss), "{name}: own decryption, honest ct");
        ss.clone()
    } else if let Some(kk) = set.decrypt(&k.sk, &k.pk, &ct) {
        let seen = NTRU_OTHER_VALID[which].fetch_add(1, Ordering::Relaxed) + 1;
        if seen.is_power_of_two() {
            eprintln!("{name}: valid mutated ciphertexts so far: {seen} (K of their r, m)");
        }
        kk.to_vec()
    } else {
        sha3_256_parts(&[prf, &ct]).to_vec()
    };
    assert_eq!(decaps_var(k, &ct), want, "{name}");
}

/// Hash_b(x) of Streamlined NTRU Prime: SHA-512(b ‖ x), first 32 bytes.
fn hash_prefix(b: u8, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha512::new();
    h.update(&[b]);
    for p in parts {
        h.update(p);
    }
    let full = h.finalize();
    full[..32].try_into().expect("32 bytes")
}

fn sntrup(name: &str, cell: &VarCell, data: &[u8]) {
    let (k, honest, ss) = var_cell(name, cell);
    // sk = f ‖ v (Small_bytes each) ‖ pk ‖ rho (Small_bytes) ‖ Hash4(pk).
    let (skl, pkl) = (k.sk.len(), k.pk.len());
    let sb = (skl - pkl - 32) / 3;
    assert_eq!(3 * sb + pkl + 32, skl, "{name}: sk layout");
    assert_eq!(
        &k.sk[2 * sb..2 * sb + pkl],
        &k.pk[..],
        "{name}: pk inside sk"
    );
    assert_eq!(
        &k.sk[skl - 32..],
        &hash_prefix(4, &[&k.pk]),
        "{name}: cache = Hash4(pk)"
    );
    let rho = &k.sk[2 * sb + pkl..3 * sb + pkl];
    let ct = mutated(honest, data);
    let want = if &ct == honest {
        ss.clone()
    } else {
        hash_prefix(0, &[&hash_prefix(3, &[rho]), &ct]).to_vec()
    };
    assert_eq!(decaps_var(k, &ct), want, "{name}");
}

type Cell = OnceLock<(Keys, Vec<u8>, [u8; 32])>;
static MLKEM: [Cell; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
static HQC: [Cell; 4] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];
static XWING: Cell = OnceLock::new();
static MC: [OnceLock<Keys>; 4] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];
static FRODO: [VarCell; 2] = [OnceLock::new(), OnceLock::new()];
static NTRU: [VarCell; 2] = [OnceLock::new(), OnceLock::new()];
static SNTRUP: [VarCell; 2] = [OnceLock::new(), OnceLock::new()];

/// `KEM_DECAPS_SETS=12,13`: only these selectors (byte 0 mod 18) run, the
/// others return at once (to spend a run on some sets); unset: all.
fn selected(sel: u8) -> bool {
    static SETS: OnceLock<Option<Vec<u8>>> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        let v = std::env::var("KEM_DECAPS_SETS").ok()?;
        Some(
            v.split(',')
                .map(|x| x.trim().parse().expect("KEM_DECAPS_SETS: numbers"))
                .collect(),
        )
    });
    sets.as_ref().is_none_or(|s| s.contains(&(sel % 18)))
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    if !selected(sel) {
        return;
    }
    match sel % 18 {
        0 => mlkem("ml-kem-512", &MLKEM[0], rest),
        1 => mlkem("ml-kem-768", &MLKEM[1], rest),
        2 => mlkem("ml-kem-1024", &MLKEM[2], rest),
        3 => hqc::<Hqc1>("hqc-1", &HQC[0], rest),
        4 => hqc::<Hqc3>("hqc-3", &HQC[1], rest),
        5 => hqc::<Hqc5>("hqc-5", &HQC[2], rest),
        6 => hqc::<Hqc1V5>("hqc-1-v5.0.0", &HQC[3], rest),
        7 => mceliece::<McEliece348864>("mceliece348864", &MC[0], rest),
        8 => mceliece::<McEliece348864f>("mceliece348864f", &MC[1], rest),
        9 => mceliece::<McEliece348864pc>("mceliece348864pc", &MC[2], rest),
        10 => mceliece::<McEliece460896>("mceliece460896", &MC[3], rest),
        11 => xwing(&XWING, rest),
        12 => frodo640("efrodokem-640-aes", &FRODO[0], rest),
        13 => frodo640("frodokem-640-shake", &FRODO[1], rest),
        14 => ntru(0, &NTRU[0], rest),
        15 => ntru(1, &NTRU[1], rest),
        16 => sntrup("sntrup653", &SNTRUP[0], rest),
        _ => sntrup("sntrup761", &SNTRUP[1], rest),
    }
});
