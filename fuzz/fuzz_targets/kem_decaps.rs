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
//!
//! Input: byte 0 picks the set; for ML-KEM, HQC and X-Wing byte 1 picks raw bytes
//! (the rest, cut or zero-padded to the ciphertext length) or an XOR mask
//! laid over an honest ciphertext at a 2-byte offset; for McEliece the
//! bytes choose e's support, the flipped syndrome bits and a C1 mask.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pqforge::hqc::{Hqc1, Hqc1V5, Hqc3, Hqc5};
use pqforge::keccak::{Shake256, sha3_256_parts};
use pqforge::mceliece::{
    McEliece348864, McEliece348864f, McEliece348864pc, McEliece460896, ParameterSet as Mc,
};
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

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    match sel % 12 {
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
        _ => xwing(&XWING, rest),
    }
});
