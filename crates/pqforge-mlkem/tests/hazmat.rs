//! The `hazmat` functions, each against a definition written here straight
//! from FIPS 203 (plain modular arithmetic on `i64`, bit arrays, the
//! algorithms line by line, the SHA-3 functions of `pqforge_core::keccak`
//! rather than the sponge the crate uses), against the contract API, and
//! against the ACVP internal projections; wrong lengths give errors.
#![allow(clippy::unwrap_used)]

use pqforge_core::keccak::{sha3_256, sha3_512, shake128, shake256};
use pqforge_core::testing::TestRng;
use pqforge_core::{Ciphertext, EncapsKey, Error};
use pqforge_mlkem::hazmat::{
    base_case_multiply, bits_to_bytes, byte_decode, byte_encode, bytes_to_bits, compress,
    decaps_internal, decompress, encaps_internal, k_pke_decrypt, k_pke_encrypt, k_pke_key_gen,
    key_gen_internal, multiply_ntts, ntt, ntt_inverse, sample_ntt, sample_poly_cbd,
};
use pqforge_mlkem::{MlKem512, MlKem768, MlKem1024, ParameterSet};

const Q: i64 = 3329;
type Poly = [u16; 256];

// ---------------------------------------------------------------------------
// FIPS 203, written out.

fn md(x: i64) -> u16 {
    x.rem_euclid(Q) as u16
}

fn pow17(e: u32) -> i64 {
    (0..e).fold(1, |acc, _| acc * 17 % Q)
}

fn bitrev7(i: u32) -> u32 {
    (0..7).fold(0, |r, b| r | (((i >> b) & 1) << (6 - b)))
}

/// ⌈a / b⌋, rounding half up (§2.3).
fn round_div(a: u64, b: u64) -> u64 {
    (2 * a + b) / (2 * b)
}

/// Algorithm 3.
fn bits_to_bytes_ref(b: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; b.len() / 8];
    for i in 0..b.len() {
        out[i / 8] += b[i] << (i % 8);
    }
    out
}

/// Algorithm 4.
fn bytes_to_bits_ref(bytes: &[u8]) -> Vec<u8> {
    let mut c = bytes.to_vec();
    let mut b = vec![0u8; 8 * bytes.len()];
    for i in 0..bytes.len() {
        for j in 0..8 {
            b[8 * i + j] = c[i] % 2;
            c[i] /= 2;
        }
    }
    b
}

fn modulus(d: u32) -> u32 {
    if d < 12 { 1 << d } else { Q as u32 }
}

/// Algorithm 5 (F already in Z_m).
fn byte_encode_ref(d: u32, f: &Poly) -> Vec<u8> {
    let d = d as usize;
    let mut b = vec![0u8; 256 * d];
    for i in 0..256 {
        let mut a = u32::from(f[i]);
        for j in 0..d {
            b[i * d + j] = (a % 2) as u8;
            a = (a - u32::from(b[i * d + j])) / 2;
        }
    }
    bits_to_bytes_ref(&b)
}

/// Algorithm 6.
fn byte_decode_ref(d: u32, bytes: &[u8]) -> Poly {
    let b = bytes_to_bits_ref(bytes);
    let du = d as usize;
    let mut f = [0u16; 256];
    for i in 0..256 {
        let s: u32 = (0..du).map(|j| u32::from(b[i * du + j]) << j).sum();
        f[i] = (s % modulus(d)) as u16;
    }
    f
}

/// Eq. 4.7.
fn compress_ref(d: u32, x: u16) -> u16 {
    (round_div(u64::from(x) << d, Q as u64) % (1 << d)) as u16
}

/// Eq. 4.8.
fn decompress_ref(d: u32, y: u16) -> u16 {
    round_div(u64::from(y) * Q as u64, 1 << d) as u16
}

/// Algorithm 7, reading as many SHAKE128 bytes as it takes.
fn sample_ntt_ref(b: &[u8; 34]) -> Poly {
    let mut len = 840;
    loop {
        let mut c = vec![0u8; len];
        shake128(b, &mut c);
        let mut a = [0u16; 256];
        let mut j = 0;
        let mut pos = 0;
        while j < 256 && pos + 3 <= len {
            let d1 = u16::from(c[pos]) + 256 * (u16::from(c[pos + 1]) % 16);
            let d2 = u16::from(c[pos + 1]) / 16 + 16 * u16::from(c[pos + 2]);
            if i64::from(d1) < Q {
                a[j] = d1;
                j += 1;
            }
            if i64::from(d2) < Q && j < 256 {
                a[j] = d2;
                j += 1;
            }
            pos += 3;
        }
        if j == 256 {
            return a;
        }
        len *= 2;
    }
}

/// Algorithm 8.
fn cbd_ref(eta: usize, bytes: &[u8]) -> Poly {
    let b = bytes_to_bits_ref(bytes);
    let mut f = [0u16; 256];
    for i in 0..256 {
        let x: i64 = (0..eta).map(|j| i64::from(b[2 * i * eta + j])).sum();
        let y: i64 = (0..eta).map(|j| i64::from(b[2 * i * eta + eta + j])).sum();
        f[i] = md(x - y);
    }
    f
}

/// Algorithm 9.
fn ntt_ref(f: &Poly) -> Poly {
    let mut f = f.map(i64::from);
    let mut i = 1;
    let mut len = 128;
    while len >= 2 {
        for start in (0..256).step_by(2 * len) {
            let zeta = pow17(bitrev7(i));
            i += 1;
            for j in start..start + len {
                let t = zeta * f[j + len] % Q;
                f[j + len] = (f[j] - t).rem_euclid(Q);
                f[j] = (f[j] + t).rem_euclid(Q);
            }
        }
        len /= 2;
    }
    f.map(md)
}

/// Algorithm 10.
fn ntt_inverse_ref(f: &Poly) -> Poly {
    let mut f = f.map(i64::from);
    let mut i = 127;
    let mut len = 2;
    while len <= 128 {
        for start in (0..256).step_by(2 * len) {
            let zeta = pow17(bitrev7(i));
            i -= 1;
            for j in start..start + len {
                let t = f[j];
                f[j] = (t + f[j + len]).rem_euclid(Q);
                f[j + len] = (zeta * (f[j + len] - t)).rem_euclid(Q);
            }
        }
        len *= 2;
    }
    f.map(|x| md(x * 3303))
}

/// Algorithm 12.
fn base_case_ref(a0: i64, a1: i64, b0: i64, b1: i64, gamma: i64) -> (u16, u16) {
    (md(a0 * b0 + a1 * b1 % Q * gamma), md(a0 * b1 + a1 * b0))
}

/// Algorithm 11.
fn multiply_ref(f: &Poly, g: &Poly) -> Poly {
    let mut h = [0u16; 256];
    for i in 0..128 {
        let gamma = pow17(2 * bitrev7(i as u32) + 1);
        let (c0, c1) = base_case_ref(
            f[2 * i].into(),
            f[2 * i + 1].into(),
            g[2 * i].into(),
            g[2 * i + 1].into(),
            gamma,
        );
        (h[2 * i], h[2 * i + 1]) = (c0, c1);
    }
    h
}

/// The product in Z_q[X]/(X^256 + 1), schoolbook.
fn schoolbook(a: &Poly, b: &Poly) -> Poly {
    let mut r = [0i64; 256];
    for i in 0..256 {
        for j in 0..256 {
            let p = i64::from(a[i]) * i64::from(b[j]);
            if i + j < 256 {
                r[i + j] += p;
            } else {
                r[i + j - 256] -= p;
            }
        }
    }
    r.map(md)
}

fn add(a: &Poly, b: &Poly) -> Poly {
    core::array::from_fn(|i| md(i64::from(a[i]) + i64::from(b[i])))
}

fn sub(a: &Poly, b: &Poly) -> Poly {
    core::array::from_fn(|i| md(i64::from(a[i]) - i64::from(b[i])))
}

/// PRF_η(s, b) (eq. 4.3).
fn prf(eta: usize, s: &[u8; 32], b: u8) -> Vec<u8> {
    let mut input = s.to_vec();
    input.push(b);
    let mut out = vec![0u8; 64 * eta];
    shake256(&input, &mut out);
    out
}

/// Â[i][j] = SampleNTT(ρ ‖ j ‖ i).
fn matrix_ref(rho: &[u8], k: usize) -> Vec<Vec<Poly>> {
    (0..k)
        .map(|i| {
            (0..k)
                .map(|j| {
                    let mut b = [0u8; 34];
                    b[..32].copy_from_slice(rho);
                    (b[32], b[33]) = (j as u8, i as u8);
                    sample_ntt_ref(&b)
                })
                .collect()
        })
        .collect()
}

fn dot(a: impl Iterator<Item = Poly>, b: &[Poly]) -> Poly {
    a.zip(b)
        .fold([0u16; 256], |acc, (x, y)| add(&acc, &multiply_ref(&x, y)))
}

/// Algorithm 13: (ek_PKE, dk_PKE).
fn k_pke_key_gen_ref<P: ParameterSet>(d: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
    let k = P::K;
    let mut input = d.to_vec();
    input.push(k as u8);
    let g = sha3_512(&input);
    let (rho, sigma): (&[u8], [u8; 32]) = (&g[..32], g[32..].try_into().unwrap());
    let a = matrix_ref(rho, k);
    let mut n = 0u8;
    let mut noise = || {
        let p = cbd_ref(P::ETA1, &prf(P::ETA1, &sigma, n));
        n += 1;
        p
    };
    let s: Vec<Poly> = (0..k).map(|_| noise()).collect();
    let e: Vec<Poly> = (0..k).map(|_| noise()).collect();
    let s_hat: Vec<Poly> = s.iter().map(ntt_ref).collect();
    let e_hat: Vec<Poly> = e.iter().map(ntt_ref).collect();
    let mut ek = Vec::new();
    let mut dk = Vec::new();
    for i in 0..k {
        let t_hat = add(&dot(a[i].iter().copied(), &s_hat), &e_hat[i]);
        ek.extend(byte_encode_ref(12, &t_hat));
        dk.extend(byte_encode_ref(12, &s_hat[i]));
    }
    ek.extend_from_slice(rho);
    (ek, dk)
}

/// Algorithm 14.
fn k_pke_encrypt_ref<P: ParameterSet>(ek: &[u8], m: &[u8; 32], r: &[u8; 32]) -> Vec<u8> {
    let k = P::K;
    let t_hat: Vec<Poly> = (0..k)
        .map(|i| byte_decode_ref(12, &ek[384 * i..384 * (i + 1)]))
        .collect();
    let a = matrix_ref(&ek[384 * k..], k);
    let mut n = 0u8;
    let mut noise = |eta: usize| {
        let p = cbd_ref(eta, &prf(eta, r, n));
        n += 1;
        p
    };
    let y: Vec<Poly> = (0..k).map(|_| noise(P::ETA1)).collect();
    let e1: Vec<Poly> = (0..k).map(|_| noise(P::ETA2)).collect();
    let e2 = noise(P::ETA2);
    let y_hat: Vec<Poly> = y.iter().map(ntt_ref).collect();
    let mut c = Vec::new();
    for i in 0..k {
        // (Â^T ∘ ŷ)[i] = Σ_j Â[j][i] ∘ ŷ[j]
        let u = add(
            &ntt_inverse_ref(&dot((0..k).map(|j| a[j][i]), &y_hat)),
            &e1[i],
        );
        c.extend(byte_encode_ref(P::DU, &u.map(|x| compress_ref(P::DU, x))));
    }
    let mu = byte_decode_ref(1, m).map(|x| decompress_ref(1, x));
    let v = add(
        &add(&ntt_inverse_ref(&dot(t_hat.into_iter(), &y_hat)), &e2),
        &mu,
    );
    c.extend(byte_encode_ref(P::DV, &v.map(|x| compress_ref(P::DV, x))));
    c
}

/// Algorithm 15.
fn k_pke_decrypt_ref<P: ParameterSet>(dk: &[u8], c: &[u8]) -> [u8; 32] {
    let (k, du, dv) = (P::K, P::DU as usize, P::DV);
    let u: Vec<Poly> = (0..k)
        .map(|i| {
            byte_decode_ref(P::DU, &c[32 * du * i..32 * du * (i + 1)])
                .map(|x| decompress_ref(P::DU, x))
        })
        .collect();
    let v = byte_decode_ref(dv, &c[32 * du * k..]).map(|x| decompress_ref(dv, x));
    let s_hat: Vec<Poly> = (0..k)
        .map(|i| byte_decode_ref(12, &dk[384 * i..384 * (i + 1)]))
        .collect();
    let w = sub(
        &v,
        &ntt_inverse_ref(&dot(
            s_hat.into_iter(),
            &u.iter().map(ntt_ref).collect::<Vec<_>>(),
        )),
    );
    byte_encode_ref(1, &w.map(|x| compress_ref(1, x)))
        .try_into()
        .unwrap()
}

/// Algorithm 16: (ek, dk).
fn key_gen_internal_ref<P: ParameterSet>(d: &[u8; 32], z: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
    let (ek, dk_pke) = k_pke_key_gen_ref::<P>(d);
    let mut dk = dk_pke;
    dk.extend(&ek);
    dk.extend(sha3_256(&ek));
    dk.extend(z);
    (ek, dk)
}

/// Algorithm 17: (K, c).
fn encaps_internal_ref<P: ParameterSet>(ek: &[u8], m: &[u8; 32]) -> ([u8; 32], Vec<u8>) {
    let mut input = m.to_vec();
    input.extend(sha3_256(ek));
    let g = sha3_512(&input);
    let c = k_pke_encrypt_ref::<P>(ek, m, g[32..].try_into().unwrap());
    (g[..32].try_into().unwrap(), c)
}

/// Algorithm 18.
fn decaps_internal_ref<P: ParameterSet>(dk: &[u8], c: &[u8]) -> [u8; 32] {
    let k = P::K;
    let dk_pke = &dk[..384 * k];
    let ek = &dk[384 * k..768 * k + 32];
    let h = &dk[768 * k + 32..768 * k + 64];
    let z = &dk[768 * k + 64..];
    let m = k_pke_decrypt_ref::<P>(dk_pke, c);
    let mut input = m.to_vec();
    input.extend(h);
    let g = sha3_512(&input);
    let mut kbar = [0u8; 32];
    shake256(&[z, c].concat(), &mut kbar);
    let c2 = k_pke_encrypt_ref::<P>(ek, &m, g[32..].try_into().unwrap());
    if c == c2 {
        g[..32].try_into().unwrap()
    } else {
        kbar
    }
}

// ---------------------------------------------------------------------------

fn random_poly(rng: &mut TestRng, m: u32) -> Poly {
    core::array::from_fn(|_| rng.below(m as usize) as u16)
}

#[test]
fn ntt_and_inverse_match_fips203() {
    let mut rng = TestRng::new(1);
    for round in 0..50 {
        let mut f = random_poly(&mut rng, Q as u32);
        if round == 0 {
            f = [3328; 256];
        }
        let mut g = f;
        ntt(&mut g);
        assert_eq!(g, ntt_ref(&f), "NTT, round {round}");
        let mut h = f;
        ntt_inverse(&mut h);
        assert_eq!(h, ntt_inverse_ref(&f), "NTT^-1, round {round}");
        // NTT then NTT^-1 is the identity.
        ntt_inverse(&mut g);
        assert_eq!(g, f, "NTT^-1(NTT(f)), round {round}");
        // Any u16 representative: taken mod q.
        let mut big: Poly = core::array::from_fn(|_| rng.next_u32() as u16);
        let reduced = big.map(|x| md(x.into()));
        ntt(&mut big);
        assert_eq!(big, ntt_ref(&reduced), "NTT of unreduced input");
    }
}

#[test]
fn multiply_ntts_is_the_negacyclic_product() {
    let mut rng = TestRng::new(2);
    for round in 0..20 {
        let a = random_poly(&mut rng, Q as u32);
        let b = if round % 2 == 0 {
            random_poly(&mut rng, Q as u32)
        } else {
            // Small (CBD-like) operand, as in K-PKE.
            core::array::from_fn(|_| md(rng.below(5) as i64 - 2))
        };
        let (mut ah, mut bh) = (a, b);
        ntt(&mut ah);
        ntt(&mut bh);
        let mut ch = [0u16; 256];
        multiply_ntts(&ah, &bh, &mut ch);
        assert_eq!(ch, multiply_ref(&ah, &bh), "MultiplyNTTs, round {round}");
        ntt_inverse(&mut ch);
        assert_eq!(ch, schoolbook(&a, &b), "schoolbook, round {round}");
    }
    // BaseCaseMultiply with any γ, including extremes.
    let edge = [0u16, 1, 1664, 1665, 3328, 3329, 65535];
    for _ in 0..20_000 {
        let mut v = [0u16; 5];
        for x in &mut v {
            *x = if rng.below(4) == 0 {
                edge[rng.below(edge.len())]
            } else {
                rng.next_u32() as u16
            };
        }
        let r = v.map(i64::from);
        assert_eq!(
            base_case_multiply(v[0], v[1], v[2], v[3], v[4]),
            base_case_ref(r[0] % Q, r[1] % Q, r[2] % Q, r[3] % Q, r[4] % Q),
            "{v:?}"
        );
    }
}

#[test]
fn compress_and_decompress_every_value() {
    for d in 1..=11u32 {
        for x in 0..Q as u16 {
            assert_eq!(compress(d, x).unwrap(), compress_ref(d, x), "d={d} x={x}");
            // Another representative of x.
            if let Some(x2) = x.checked_add(3329 * 19) {
                assert_eq!(
                    compress(d, x2).unwrap(),
                    compress_ref(d, x),
                    "d={d} x2={x2}"
                );
            }
        }
        for y in 0..(1u16 << d) {
            assert_eq!(
                decompress(d, y).unwrap(),
                decompress_ref(d, y),
                "d={d} y={y}"
            );
            assert_eq!(decompress(d, y + (1 << d)).unwrap(), decompress_ref(d, y));
        }
    }
}

#[test]
fn byte_encode_and_decode_match_fips203() {
    let mut rng = TestRng::new(3);
    for d in 1..=12u32 {
        for _ in 0..20 {
            let f = random_poly(&mut rng, modulus(d));
            let mut b = vec![0u8; 32 * d as usize];
            byte_encode(d, &f, &mut b).unwrap();
            assert_eq!(b, byte_encode_ref(d, &f), "ByteEncode_{d}");
            let mut g = [0u16; 256];
            byte_decode(d, &b, &mut g).unwrap();
            assert_eq!(g, f, "ByteDecode_{d}(ByteEncode_{d}(F))");
            // Any bytes (for d = 12: values >= q are reduced mod q).
            rng.fill(&mut b);
            byte_decode(d, &b, &mut g).unwrap();
            assert_eq!(g, byte_decode_ref(d, &b), "ByteDecode_{d} of random bytes");
        }
    }
    // ByteDecode_12 of all-ones: 4095 mod q = 766.
    let mut g = [0u16; 256];
    byte_decode(12, &[0xFF; 384], &mut g).unwrap();
    assert!(g.iter().all(|&x| x == 766));
    // BitsToBytes / BytesToBits.
    let mut bytes = [0u8; 40];
    rng.fill(&mut bytes);
    let mut bits = [0u8; 320];
    bytes_to_bits(&bytes, &mut bits).unwrap();
    assert_eq!(bits.to_vec(), bytes_to_bits_ref(&bytes));
    let mut back = [0u8; 40];
    bits_to_bytes(&bits, &mut back).unwrap();
    assert_eq!(back, bytes);
}

#[test]
fn samplers_match_fips203() {
    let mut rng = TestRng::new(4);
    for _ in 0..30 {
        let b: [u8; 34] = rng.array();
        let mut a = [0u16; 256];
        sample_ntt(&b, &mut a);
        assert_eq!(a, sample_ntt_ref(&b), "SampleNTT({b:02x?})");
        for eta in [2, 3] {
            let mut input = vec![0u8; 64 * eta];
            rng.fill(&mut input);
            let mut f = [0u16; 256];
            sample_poly_cbd(eta, &input, &mut f).unwrap();
            assert_eq!(f, cbd_ref(eta, &input), "SamplePolyCBD_{eta}");
        }
    }
}

fn k_pke<P: ParameterSet>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let (ek_len, dk_len) = (384 * P::K + 32, 384 * P::K);
    for round in 0..4 {
        let d: [u8; 32] = rng.array();
        let (mut ek, mut dk) = (vec![0u8; ek_len], vec![0u8; dk_len]);
        k_pke_key_gen::<P>(&d, &mut ek, &mut dk).unwrap();
        let (ek_want, dk_want) = k_pke_key_gen_ref::<P>(&d);
        assert_eq!((&ek, &dk), (&ek_want, &dk_want), "{} KeyGen", P::NAME);
        let (m, r): ([u8; 32], [u8; 32]) = (rng.array(), rng.array());
        let mut c = vec![0u8; P::CT_BYTES];
        k_pke_encrypt::<P>(&ek, &m, &r, &mut c).unwrap();
        assert_eq!(
            c,
            k_pke_encrypt_ref::<P>(&ek, &m, &r),
            "{} Encrypt",
            P::NAME
        );
        assert_eq!(
            k_pke_decrypt::<P>(&dk, &c).unwrap(),
            m,
            "{} Decrypt",
            P::NAME
        );
        // Any ciphertext; any key bytes (ByteDecode_12 reduces mod q: no
        // modulus check in K-PKE).
        rng.fill(&mut c);
        if round % 2 == 1 {
            rng.fill(&mut dk);
            rng.fill(&mut ek);
        }
        assert_eq!(
            k_pke_decrypt::<P>(&dk, &c).unwrap(),
            k_pke_decrypt_ref::<P>(&dk, &c),
            "{} Decrypt of random bytes",
            P::NAME
        );
        k_pke_encrypt::<P>(&ek, &m, &r, &mut c).unwrap();
        assert_eq!(
            c,
            k_pke_encrypt_ref::<P>(&ek, &m, &r),
            "{} Encrypt under key bytes {}",
            P::NAME,
            if round % 2 == 1 { "random" } else { "valid" }
        );
    }
}

#[test]
fn k_pke_matches_fips203() {
    k_pke::<MlKem512>(5);
    k_pke::<MlKem768>(6);
    k_pke::<MlKem1024>(7);
}

fn ml_kem<P: ParameterSet>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for _ in 0..3 {
        let (d, z): ([u8; 32], [u8; 32]) = (rng.array(), rng.array());
        let (mut ek, mut dk) = (vec![0u8; P::EK_BYTES], vec![0u8; P::DK_BYTES]);
        key_gen_internal::<P>(&d, &z, &mut ek, &mut dk).unwrap();
        let (ek_want, dk_want) = key_gen_internal_ref::<P>(&d, &z);
        assert_eq!(
            (&ek, &dk),
            (&ek_want, &dk_want),
            "{} KeyGen_internal",
            P::NAME
        );
        // The contract API: keygen_derand(d || z).
        let mut dz = [0u8; 64];
        dz[..32].copy_from_slice(&d);
        dz[32..].copy_from_slice(&z);
        let (ek2, dk2) = P::keygen_derand(&dz);
        assert_eq!((ek.as_slice(), dk.as_slice()), (ek2.as_ref(), dk2.as_ref()));

        let m: [u8; 32] = rng.array();
        let mut c = vec![0u8; P::CT_BYTES];
        let key = encaps_internal::<P>(&ek, &m, &mut c).unwrap();
        assert_eq!(
            (key, c.clone()),
            encaps_internal_ref::<P>(&ek, &m),
            "{} Encaps",
            P::NAME
        );
        let ek_typed = EncapsKey::<P>::try_from(ek.as_slice()).unwrap();
        let (c2, key2) = P::encaps_derand(&ek_typed, &m).unwrap();
        assert_eq!((c.as_slice(), &key[..]), (c2.as_ref(), key2.as_ref()));

        assert_eq!(
            decaps_internal::<P>(&dk, &c).unwrap(),
            key,
            "{} Decaps",
            P::NAME
        );
        // Implicit rejection.
        let i = rng.below(c.len());
        c[i] ^= 1 << rng.below(8);
        let rejected = decaps_internal::<P>(&dk, &c).unwrap();
        assert_eq!(
            rejected,
            decaps_internal_ref::<P>(&dk, &c),
            "{} Decaps, tampered",
            P::NAME
        );
        let ct = Ciphertext::<P>::try_from(c.as_slice()).unwrap();
        assert_eq!(&rejected[..], P::decaps(&dk2, &ct).as_ref());
        assert_ne!(rejected, key);
    }
}

#[test]
fn ml_kem_internal_matches_fips203_and_the_contract_api() {
    ml_kem::<MlKem512>(8);
    ml_kem::<MlKem768>(9);
    ml_kem::<MlKem1024>(10);
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn acvp_case<P: ParameterSet>(t: &serde_json::Value, function: &str) {
    let field = |name: &str| unhex(t[name].as_str().unwrap());
    let id = &t["tcId"];
    match function {
        "keyGen" => {
            let d: [u8; 32] = field("d").try_into().unwrap();
            let z: [u8; 32] = field("z").try_into().unwrap();
            let (mut ek, mut dk) = (vec![0u8; P::EK_BYTES], vec![0u8; P::DK_BYTES]);
            key_gen_internal::<P>(&d, &z, &mut ek, &mut dk).unwrap();
            assert_eq!(
                (ek, dk),
                (field("ek"), field("dk")),
                "{} keyGen {id}",
                P::NAME
            );
        }
        "encapsulation" => {
            let m: [u8; 32] = field("m").try_into().unwrap();
            let mut c = vec![0u8; P::CT_BYTES];
            let k = encaps_internal::<P>(&field("ek"), &m, &mut c).unwrap();
            assert_eq!(
                (k.to_vec(), c),
                (field("k"), field("c")),
                "{} encaps {id}",
                P::NAME
            );
        }
        "decapsulation" => {
            let k = decaps_internal::<P>(&field("dk"), &field("c")).unwrap();
            assert_eq!(k.to_vec(), field("k"), "{} decaps {id}", P::NAME);
        }
        _ => {}
    }
}

#[test]
fn acvp_internal_projections() {
    let Some(dir) = pqforge_core::kat::data_dir() else {
        eprintln!("skipping: no test data (set PQFORGE_DATA)");
        return;
    };
    let mut cases = 0;
    for name in ["ML-KEM-keyGen-FIPS203", "ML-KEM-encapDecap-FIPS203"] {
        let path = dir
            .join("vectors/acvp")
            .join(name)
            .join("internalProjection.json");
        let text = std::fs::read_to_string(&path).expect("read internalProjection.json");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        for g in v["testGroups"].as_array().unwrap() {
            let function = g["function"].as_str().unwrap_or("keyGen");
            for t in g["tests"].as_array().unwrap() {
                match g["parameterSet"].as_str().unwrap() {
                    "ML-KEM-512" => acvp_case::<MlKem512>(t, function),
                    "ML-KEM-768" => acvp_case::<MlKem768>(t, function),
                    "ML-KEM-1024" => acvp_case::<MlKem1024>(t, function),
                    other => panic!("unknown parameter set {other}"),
                }
                if matches!(function, "keyGen" | "encapsulation" | "decapsulation") {
                    cases += 1;
                }
            }
        }
    }
    // 3 x 25 keyGen, 3 x 25 encapsulation, 3 x 10 decapsulation.
    assert_eq!(cases, 180);
}

fn is_length<T>(r: &Result<T, Error>) -> bool {
    matches!(r, Err(Error::Length { .. }))
}

fn is_invalid<T>(r: &Result<T, Error>) -> bool {
    matches!(r, Err(Error::InvalidInput(_)))
}

fn lengths<P: ParameterSet>() {
    let (ek_len, dk_len) = (384 * P::K + 32, 384 * P::K);
    let buf = vec![0u8; 4 * P::DK_BYTES];
    let mut out = vec![0u8; 4 * P::DK_BYTES];
    let bad = |n: usize| [0, 1, n - 1, n + 1, 2 * n];
    for n in bad(ek_len) {
        assert!(is_length(&k_pke_key_gen::<P>(
            &[0; 32],
            &mut out[..n],
            &mut vec![0; dk_len]
        )));
        assert!(is_length(&k_pke_encrypt::<P>(
            &buf[..n],
            &[0; 32],
            &[0; 32],
            &mut vec![0; P::CT_BYTES]
        )));
    }
    for n in bad(dk_len) {
        assert!(is_length(&k_pke_key_gen::<P>(
            &[0; 32],
            &mut vec![0; ek_len],
            &mut out[..n]
        )));
        assert!(is_length(&k_pke_decrypt::<P>(
            &buf[..n],
            &buf[..P::CT_BYTES]
        )));
    }
    for n in bad(P::CT_BYTES) {
        assert!(is_length(&k_pke_encrypt::<P>(
            &buf[..ek_len],
            &[0; 32],
            &[0; 32],
            &mut out[..n]
        )));
        assert!(is_length(&k_pke_decrypt::<P>(&buf[..dk_len], &buf[..n])));
        assert!(is_length(&encaps_internal::<P>(
            &buf[..P::EK_BYTES],
            &[0; 32],
            &mut out[..n]
        )));
        assert!(is_length(&decaps_internal::<P>(
            &buf[..P::DK_BYTES],
            &buf[..n]
        )));
    }
    for n in bad(P::EK_BYTES) {
        assert!(is_length(&key_gen_internal::<P>(
            &[0; 32],
            &[0; 32],
            &mut out[..n],
            &mut vec![0; P::DK_BYTES]
        )));
        assert!(is_length(&encaps_internal::<P>(
            &buf[..n],
            &[0; 32],
            &mut vec![0; P::CT_BYTES]
        )));
    }
    for n in bad(P::DK_BYTES) {
        assert!(is_length(&key_gen_internal::<P>(
            &[0; 32],
            &[0; 32],
            &mut vec![0; P::EK_BYTES],
            &mut out[..n]
        )));
        assert!(is_length(&decaps_internal::<P>(
            &buf[..n],
            &buf[..P::CT_BYTES]
        )));
    }
}

#[test]
fn wrong_lengths_and_parameters_are_errors() {
    lengths::<MlKem512>();
    lengths::<MlKem768>();
    lengths::<MlKem1024>();
    let f = [0u16; 256];
    let mut g = [0u16; 256];
    let mut out = [0u8; 800];
    for d in 0..=40u32 {
        if (1..=12).contains(&d) {
            let n = 32 * d as usize;
            for m in [0, n - 1, n + 1, 384, 385] {
                if m != n {
                    assert!(is_length(&byte_encode(d, &f, &mut out[..m])), "d={d} m={m}");
                    assert!(is_length(&byte_decode(d, &out[..m], &mut g)), "d={d} m={m}");
                }
            }
        } else {
            assert!(is_invalid(&byte_encode(d, &f, &mut out[..32])), "d={d}");
            assert!(is_invalid(&byte_decode(d, &out[..32], &mut g)), "d={d}");
        }
        if !(1..=11).contains(&d) {
            assert!(is_invalid(&compress(d, 5)), "d={d}");
            assert!(is_invalid(&decompress(d, 5)), "d={d}");
        }
    }
    assert!(is_invalid(&compress(u32::MAX, 5)));
    assert!(is_invalid(&byte_encode(u32::MAX, &f, &mut out)));
    for eta in [0, 1, 4, 100, usize::MAX] {
        assert!(
            is_invalid(&sample_poly_cbd(eta, &out[..128], &mut g)),
            "eta={eta}"
        );
    }
    for (eta, n) in [(2, 127), (2, 129), (2, 192), (3, 128), (3, 191), (3, 0)] {
        assert!(
            is_length(&sample_poly_cbd(eta, &out[..n], &mut g)),
            "eta={eta} n={n}"
        );
    }
    let mut bits = [0u8; 17];
    assert!(is_length(&bytes_to_bits(&out[..2], &mut bits)));
    assert!(is_length(&bits_to_bytes(&bits, &mut out[..2])));
    assert!(is_length(&bits_to_bytes(&bits[..16], &mut out[..3])));
}
