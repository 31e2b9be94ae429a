//! The samplers of FIPS 204 §7.3 used by key generation: ExpandA
//! (RejNTTPoly, Algorithms 30, 32) and ExpandS (RejBoundedPoly, Algorithms
//! 31, 33). Portable, one XOF at a time; they squeeze until done (no fixed
//! buffer), as the "many steps" vectors require.

use pqforge_core::ctgrind;
use pqforge_core::keccak::{Shake128, Shake256};

use crate::arith::mont_q;
use crate::params::{N, Q};

/// RejNTTPoly: the entry (r, s) of Â from G(ρ || s || r) (the column byte
/// first).
pub fn rej_ntt_poly(rho: &[u8; 32], s: u8, r: u8, a: &mut [i32; N]) {
    rej_ntt_with(rho, s, r, |j, z| a[j] = z);
}

/// `acc += Â[r][s] ∘ v · 2^-32` with the entry multiplied in as it is
/// sampled (no entry buffer): the same sums as RejNTTPoly followed by
/// `Backend::pointwise_acc` on the portable backend.
pub fn rej_ntt_poly_acc(rho: &[u8; 32], s: u8, r: u8, v: &[i32; N], acc: &mut [i32; N]) {
    let q = core::hint::black_box(Q);
    rej_ntt_with(rho, s, r, |j, z| {
        acc[j] += mont_q(i64::from(z) * i64::from(v[j]), q);
    });
}

/// RejNTTPoly's coefficients in order: `put(j, a_j)` for j = 0..256.
#[inline(always)]
fn rej_ntt_with(rho: &[u8; 32], s: u8, r: u8, mut put: impl FnMut(usize, i32)) {
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
                put(j, z);
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
/// skipped, not the coefficients); the harness declassifies exactly that
/// bit.
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
                // CT: which nibbles are accepted depends on the secret ρ'
                // but says nothing about the accepted values (each is
                // uniform on [-η, η] whatever the pattern; Dilithium round-3
                // specification §5.5, as the reference implementations
                // treat it): the accept bit alone is declassified.
                let accept = if eta == 2 { b < 15 } else { b < 9 };
                if ctgrind::declassify_val(accept) {
                    // η = 2: b mod 5 by multiplication, b - 5·⌊205·b / 1024⌋.
                    let v = if eta == 2 {
                        b - 5 * ((205 * b) >> 10)
                    } else {
                        b
                    };
                    s[j] = eta as i32 - v as i32;
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

/// ExpandMask's polynomial of nonce `nonce` (Algorithm 34, one row):
/// BitUnpack(H(ρ'' || u16le(nonce)), γ1 - 1, γ1), coefficients in
/// (-γ1, γ1]. Branch-free in the secret bytes.
pub fn expand_mask_poly(rho2: &[u8; 64], nonce: u16, gamma1_bits: u32, y: &mut [i32; N]) {
    let bits = gamma1_bits + 1;
    let n = 32 * bits as usize;
    let mut buf = [0u8; 640];
    let mut h = Shake256::new();
    h.absorb(rho2);
    h.absorb(&nonce.to_le_bytes());
    h.squeeze(&mut buf[..n]);
    crate::pack::unpack_signed(&buf[..n], 1 << gamma1_bits, bits, y);
    pqforge_core::ct::wipe(&mut buf);
}

/// SampleInBall for signing, constant time in c̃ (which stays secret while
/// its attempt may still be rejected): every byte of the first squeezed
/// block is processed, each with masked updates of a list of the τ
/// (position, sign) entries, so neither the byte count nor any memory index
/// depends on c̃. Only whether one block held all τ positions is
/// declassified (it fails with probability below 2^-40 for every set) and
/// then the next block is processed the same way. Output: the same c as
/// [`sample_in_ball`].
pub fn sample_in_ball_ct(ctilde: &[u8], tau: usize, c: &mut [i32; N]) {
    let mut h = Shake256::new();
    h.absorb(ctilde);
    let mut block = [0u8; 136];
    h.squeeze(&mut block);
    let mut signs = [0u8; 8];
    signs.copy_from_slice(&block[..8]);
    let mut st = BallList {
        pos: [0; 8],
        val: [0; 8],
        signs: u64::from_le_bytes(signs),
        count: 0,
        tau: tau as u64,
    };
    let mut start = 8;
    loop {
        for &b in &block[start..] {
            st.step(u64::from(b));
        }
        if ctgrind::declassify_val(st.count >= st.tau) {
            break;
        }
        h.squeeze(&mut block);
        start = 0;
    }
    st.to_poly(c);
    pqforge_core::ct::wipe(&mut block);
}

const ONES: u64 = 0x0101_0101_0101_0101;

/// 0xFF in each byte of x that is zero, 0 elsewhere (exact: no carries
/// between bytes).
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let t = !(((x & LOW7) + LOW7) | x | LOW7);
    (t >> 7) * 0xFF
}

/// The state of [`sample_in_ball_ct`]: 64 one-byte positions and 64
/// one-byte values (0x01 or 0xFF for ±1) in eight 64-bit words each, byte
/// e of the list (word e / 8, byte e % 8) being entry e. Entries past
/// `count` hold value 0, so whatever position they have adds nothing.
struct BallList {
    pos: [u64; 8],
    val: [u64; 8],
    /// The sign bits not used yet, from bit 0.
    signs: u64,
    count: u64,
    tau: u64,
}

impl BallList {
    /// One byte b of the XOF, with masks only (SWAR byte compares). Out of
    /// line: unrolled over a whole block it makes a basic block too large
    /// for valgrind's translator.
    #[inline(never)]
    fn step(&mut self, b: u64) {
        // i = 256 - τ + count ≤ 255 while count < τ.
        let i = 256 - self.tau + self.count;
        // acc: all ones iff count < τ and b ≤ i (borrows, no branch).
        let lt = self.count.wrapping_sub(self.tau) >> 63;
        let le = (i.wrapping_sub(b) >> 63) ^ 1;
        let acc = (lt & le).wrapping_neg();
        // c_i = c_b: the entry at position b moves to i; then c_b = ±1:
        // entry `count` becomes (b, the next sign bit).
        let sign = 1 | (0xFE * (self.signs & 1));
        self.signs = ((self.signs >> 1) & acc) | (self.signs & !acc);
        let (bb, ib, cb, sb) = (b * ONES, (i & 0xFF) * ONES, self.count * ONES, sign * ONES);
        for w in 0..8 {
            let idx = u64::from_le_bytes(core::array::from_fn(|k| (8 * w + k) as u8));
            let new = acc & zero_bytes(idx ^ cb);
            let moved = acc & zero_bytes(self.pos[w] ^ bb) & !new;
            self.pos[w] = (self.pos[w] & !(moved | new)) | (ib & moved) | (bb & new);
            self.val[w] = (self.val[w] & !new) | (sb & new);
        }
        self.count += acc & 1;
    }

    /// c[t] = the value of the entry at position t (at most one).
    fn to_poly(&self, c: &mut [i32; N]) {
        for (t, ct) in c.iter_mut().enumerate() {
            let tb = t as u64 * ONES;
            let mut v = 0u64;
            for w in 0..8 {
                v |= self.val[w] & zero_bytes(self.pos[w] ^ tb);
            }
            let v = v | v >> 32;
            let v = v | v >> 16;
            let v = v | v >> 8;
            *ct = i32::from(v as u8 as i8);
        }
    }
}

impl Drop for BallList {
    fn drop(&mut self) {
        pqforge_core::ct::wipe(&mut self.pos);
        pqforge_core::ct::wipe(&mut self.val);
        self.signs = core::hint::black_box(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_time_sample_in_ball_matches_the_standard() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        for tau in [39, 49, 60] {
            for len in [32, 48, 64] {
                for _ in 0..if cfg!(miri) { 2 } else { 200 } {
                    let mut ct = [0u8; 64];
                    for b in &mut ct[..len] {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        *b = seed as u8;
                    }
                    let (mut a, mut b) = ([0i32; N], [0i32; N]);
                    sample_in_ball(&ct[..len], tau, &mut a);
                    sample_in_ball_ct(&ct[..len], tau, &mut b);
                    assert_eq!(a, b);
                    assert_eq!(a.iter().filter(|&&x| x != 0).count(), tau);
                }
            }
        }
    }
}
