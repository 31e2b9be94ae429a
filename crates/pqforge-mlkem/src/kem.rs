//! The ML-KEM internal algorithms (FIPS 203 §6, Algorithms 16-18): the
//! Fujisaki-Okamoto transform with implicit rejection, written once over a
//! K-PKE strategy ([`Pke`]: matrix stored or streamed, on any kernels).
//!
//! Byte layouts (FIPS 203):
//! * ek = ByteEncode12(t-hat) || rho                         (384k + 32)
//! * dk = ByteEncode12(s-hat) || ek || H(ek) || z             (768k + 96)
//! * c  = ByteEncode_du(Compress_du(u)) || ByteEncode_dv(Compress_dv(v))

use pqforge_core::{ct, ctgrind};
use zeroize::Zeroize;

use crate::hash::{self, DecapsHashes};
use crate::params::ParameterSet;
use crate::pke::{Compare, Pke, Write, coins};
use crate::poly::POLY_BYTES;

/// ML-KEM.KeyGen_internal(d, z) (Algorithm 16 with K-PKE.KeyGen,
/// Algorithm 13). Writes `ek` (384k+32 bytes) and `dk` (768k+96 bytes).
/// `ipd` drops the domain-separating k byte from G(d || k), as in the
/// August 2023 draft (only for old test vectors such as C2SP CCTV's).
pub(crate) fn keygen<P: ParameterSet, K: Pke>(
    d: &[u8; 32],
    z: &[u8; 32],
    ek: &mut [u8],
    dk: &mut [u8],
    ipd: bool,
) {
    let k = P::K;
    let ek = &mut ek[..P::EK_BYTES];
    let dk = &mut dk[..P::DK_BYTES];
    // (rho, sigma) = G(d || k)
    let k_byte = [k as u8];
    let mut g = hash::g(&[d, if ipd { &[] } else { &k_byte }]);
    let (halves, _) = g.as_chunks_mut::<32>();
    let [rho, sigma] = halves else { unreachable!() };
    // Public: rho is the seed of the public matrix and is part of ek.
    ctgrind::declassify(rho);

    let (ek_t, ek_rho) = ek.split_at_mut(POLY_BYTES * k);
    let (dk_s, rest) = dk.split_at_mut(POLY_BYTES * k);
    K::keygen::<P>(rho, sigma, ek_t, dk_s);
    ek_rho.copy_from_slice(rho);
    g.zeroize();
    // Public: the encapsulation key is the public output of key generation.
    ctgrind::declassify(ek);

    let (dk_ek, rest) = rest.split_at_mut(P::EK_BYTES);
    dk_ek.copy_from_slice(ek);
    let (dk_h, dk_z) = rest.split_at_mut(32);
    dk_h.copy_from_slice(&hash::h(ek));
    dk_z.copy_from_slice(z);
}

/// ML-KEM.Encaps_internal(ek, m) (Algorithm 17); `h` = H(ek), `ek`
/// modulus-checked.
pub(crate) fn encaps<P: ParameterSet, K: Pke>(
    ek: &[u8],
    h: &[u8; 32],
    m: &[u8; 32],
    c: &mut [u8],
    key: &mut [u8; 32],
) {
    let ek = &ek[..P::EK_BYTES];
    let c = &mut c[..P::CT_BYTES];
    // (K, r) = G(m || H(ek))
    let mut g = hash::g(&[m, h]);
    key.copy_from_slice(&g[..32]);
    K::encrypt::<P, _>(ek, m, coins(&g), &mut Write(c));
    // Public: the ciphertext is the public output of encapsulation.
    ctgrind::declassify(c);
    g.zeroize();
}

/// ML-KEM.Decaps_internal(dk, c) (Algorithm 18): implicit rejection with a
/// full-length constant-time comparison and a constant-time select.
pub(crate) fn decaps<P: ParameterSet, K: Pke>(dk: &[u8], c: &[u8], key: &mut [u8; 32]) {
    let k = P::K;
    let dk = &dk[..P::DK_BYTES];
    let c = &c[..P::CT_BYTES];
    let (dk_pke, rest) = dk.split_at(POLY_BYTES * k);
    let (ek, rest) = rest.split_at(P::EK_BYTES);
    let (h, z) = rest.split_at(32);

    let mut m = [0u8; 32];
    K::decrypt::<P>(dk_pke, c, &mut m);
    // (K', r') = G(m' || h), K-bar = J(z || c), and c' = K-PKE.Encrypt(ek,
    // m', r') compared with c as it is produced.
    let mut g = [0u8; 64];
    let mut kbar = [0u8; 32];
    let mut cmp = Compare::new(c);
    let hashes = DecapsHashes { m: &m, h, z, c };
    K::reencrypt::<P, _>(ek, &hashes, &mut g, &mut kbar, &mut cmp);
    // CT: full-length comparison, never declassified; then a masked select.
    ct::select(cmp.eq_mask(), &g[..32], &kbar, key);
    m.zeroize();
    g.zeroize();
    kbar.zeroize();
}

#[cfg(test)]
mod tests {
    use pqforge_core::ByteArray;

    use super::*;
    use crate::backend::Portable;
    use crate::params::{MlKem512, MlKem768, MlKem1024};
    use crate::pke::{Stored, Streamed};

    fn round_trip<P: ParameterSet, K: Pke>() {
        let mut ek = P::EkBytes::zeroed();
        let mut dk = P::DkBytes::zeroed();
        keygen::<P, K>(&[1; 32], &[2; 32], ek.as_mut(), dk.as_mut(), false);
        // Layout: dk = dk_pke || ek || H(ek) || z.
        let off = POLY_BYTES * P::K;
        assert_eq!(&dk.as_ref()[off..off + P::EK_BYTES], ek.as_ref());
        assert_eq!(
            &dk.as_ref()[off + P::EK_BYTES..off + P::EK_BYTES + 32],
            &hash::h(ek.as_ref())
        );
        assert_eq!(&dk.as_ref()[P::DK_BYTES - 32..], &[2; 32]);
        let mut c = P::CtBytes::zeroed();
        let mut k1 = [0u8; 32];
        encaps::<P, K>(
            ek.as_ref(),
            &hash::h(ek.as_ref()),
            &[3; 32],
            c.as_mut(),
            &mut k1,
        );
        let mut k2 = [0u8; 32];
        decaps::<P, K>(dk.as_ref(), c.as_ref(), &mut k2);
        assert_eq!(k1, k2);
        // A modified ciphertext yields J(z || c').
        c.as_mut()[0] ^= 1;
        decaps::<P, K>(dk.as_ref(), c.as_ref(), &mut k2);
        assert_eq!(k2, hash::j(&[&[2; 32], c.as_ref()]));
        // The draft KeyGen (no k byte in G) gives a different key.
        let mut ek2 = P::EkBytes::zeroed();
        let mut dk2 = P::DkBytes::zeroed();
        keygen::<P, K>(&[1; 32], &[2; 32], ek2.as_mut(), dk2.as_mut(), true);
        assert_ne!(ek.as_ref(), ek2.as_ref());
    }

    #[test]
    fn round_trips() {
        round_trip::<MlKem512, Streamed<Portable>>();
        round_trip::<MlKem512, Stored<Portable>>();
        if cfg!(miri) {
            // Miri runs one set per matrix layout (the others are the same
            // code with larger K): about a minute each.
            return;
        }
        round_trip::<MlKem768, Streamed<Portable>>();
        round_trip::<MlKem1024, Streamed<Portable>>();
        round_trip::<MlKem768, Stored<Portable>>();
        round_trip::<MlKem1024, Stored<Portable>>();
    }
}
