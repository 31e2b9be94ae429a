//! The samplers of FIPS 204 §7.3 used by key generation: ExpandA
//! (RejNTTPoly, Algorithms 30, 32) and ExpandS (RejBoundedPoly, Algorithms
//! 31, 33). Portable, one XOF at a time; they squeeze until done (no fixed
//! buffer), as the "many steps" vectors require.

use pqforge_core::keccak::{Shake128, Shake256};

use crate::params::{N, Q};

/// RejNTTPoly: the entry (r, s) of Â from G(ρ || s || r) (the column byte
/// first).
pub fn rej_ntt_poly(rho: &[u8; 32], s: u8, r: u8, a: &mut [i32; N]) {
    let mut g = Shake128::new();
    g.absorb(rho);
    g.absorb(&[s, r]);
    let mut buf = [0u8; 168];
    let mut j = 0;
    // Public data (ρ is part of the public key): the rejection may branch.
    while j < N {
        g.squeeze(&mut buf);
        for c in buf.chunks_exact(3) {
            let z = i32::from(c[0]) | i32::from(c[1]) << 8 | i32::from(c[2] & 0x7F) << 16;
            if z < Q && j < N {
                a[j] = z;
                j += 1;
            }
        }
    }
}

/// RejBoundedPoly: a polynomial with coefficients in [-η, η] from
/// H(ρ' || u16le(nonce)).
///
/// The accept/reject pattern depends on the secret seed; the reference
/// implementations treat it as public (it only reveals which nibbles were
/// skipped, not the coefficients). Issue #14 decides how the valgrind
/// harness declassifies it.
pub fn rej_bounded_poly(rho_p: &[u8; 64], nonce: u16, eta: u32, s: &mut [i32; N]) {
    let mut h = Shake256::new();
    h.absorb(rho_p);
    h.absorb(&nonce.to_le_bytes());
    let mut buf = [0u8; 136];
    let mut j = 0;
    while j < N {
        h.squeeze(&mut buf);
        for &byte in &buf {
            for b in [u32::from(byte & 15), u32::from(byte >> 4)] {
                if j >= N {
                    break;
                }
                if eta == 2 && b < 15 {
                    // b mod 5 by multiplication: b - 5·⌊205·b / 1024⌋.
                    let m = b - 5 * ((205 * b) >> 10);
                    s[j] = 2 - m as i32;
                    j += 1;
                } else if eta == 4 && b < 9 {
                    s[j] = 4 - b as i32;
                    j += 1;
                }
            }
        }
    }
}

/// SampleInBall (Algorithm 29): c with τ coefficients ±1 from H(c̃) (the
/// whole c̃).
pub fn sample_in_ball(ctilde: &[u8], tau: usize, c: &mut [i32; N]) {
    let mut h = Shake256::new();
    h.absorb(ctilde);
    let mut signs = [0u8; 8];
    h.squeeze(&mut signs);
    let mut signs = u64::from_le_bytes(signs);
    c.fill(0);
    let mut byte = [0u8; 1];
    for i in N - tau..N {
        let j = loop {
            h.squeeze(&mut byte);
            if usize::from(byte[0]) <= i {
                break usize::from(byte[0]);
            }
        };
        c[i] = c[j];
        c[j] = 1 - 2 * (signs & 1) as i32;
        signs >>= 1;
    }
}
