//! FrodoKEM and eFrodoKEM, generic over the parameter set and the backend:
//! key generation, encapsulation and decapsulation (FO transform with
//! implicit rejection). The matrix A is never stored whole: four (or, on
//! the SIMD backends, eight) rows at a time are generated inside the
//! products.

use pqforge_core::ct;
use zeroize::Zeroize;

use crate::aes::{self, AesKey};
use crate::matrix::{SampleStream, decode, encode, mul_as, mul_sa, pack8, shake, unpack8};
use crate::params::{MatrixGen, NBAR, ParameterSet, SEED_A_BYTES, U16Buf};

/// Domain byte of the key-generation error stream.
const DOMAIN_KEYGEN: u8 = 0x5F;
/// Domain byte of the encryption error stream.
const DOMAIN_ENCAPS: u8 = 0x96;

/// The public matrix A's generator: `seed_A` and, for the AES sets, its key
/// schedule.
pub(crate) struct MatrixA {
    pub(crate) seed: [u8; SEED_A_BYTES],
    pub(crate) key: Option<AesKey>,
}

impl MatrixA {
    pub(crate) fn new<P: ParameterSet>(seed_a: &[u8]) -> Self {
        let mut seed = [0u8; SEED_A_BYTES];
        seed.copy_from_slice(&seed_a[..SEED_A_BYTES]);
        let key = match P::MATRIX {
            MatrixGen::Aes128 => Some(AesKey::new(&seed)),
            MatrixGen::Shake128 => None,
        };
        Self { seed, key }
    }
}

/// The kernels a backend provides (portable defaults) and the stage
/// frames, compiled per backend.
pub(crate) trait Backend {
    /// `portable`, `aesni`, `avx2` or `avx2-vaes`.
    const NAME: &'static str;
    /// Rows of A generated per call (4 or 8).
    const ROWS: usize;
    /// A buffer of `ROWS` rows of A.
    type RowBuf<P: ParameterSet>: U16Buf;

    /// Rows r0.. of A with AES-128 (`out.len()` a multiple of 4·n).
    fn rows_aes<P: ParameterSet>(key: &AesKey, r0: usize, out: &mut [u16]) {
        aes::rows_soft::<P>(key, r0, out);
    }

    /// Rows r0.. of A with SHAKE128 (`out.len()` a multiple of 4·n).
    fn rows_shake<P: ParameterSet>(seed: &[u8; SEED_A_BYTES], r0: usize, out: &mut [u16]) {
        rows_shake_scalar::<P>(seed, r0, out);
    }

    /// [`crate::matrix::mul_as`].
    fn mul_as<P: ParameterSet>(a: &[u16], st: &[u16], out: &mut [u16; 32]) {
        mul_as::<P>(a, st, out);
    }

    /// [`crate::matrix::mul_sa`].
    fn mul_sa<P: ParameterSet>(a: &[u16], s: &[u16], r0: usize, acc: &mut [u16]) {
        mul_sa::<P>(a, s, r0, acc);
    }

    /// [`keygen_frame`] in a frame of its own.
    #[inline(never)]
    fn keygen_frame<P: ParameterSet>(
        seed_se: &[u8],
        seed_a: &[u8],
        pk_b: &mut [u8],
        sk_st: &mut [u8],
    ) where
        Self: Sized,
    {
        keygen_frame::<P, Self>(seed_se, seed_a, pk_b, sk_st);
    }

    /// [`encrypt_frame`] in a frame of its own.
    #[inline(never)]
    fn encrypt_frame<P: ParameterSet, S: Sink>(seed_se: &[u8], pk: &[u8], mu: &[u8], sink: &mut S)
    where
        Self: Sized,
    {
        encrypt_frame::<P, Self, S>(seed_se, pk, mu, sink);
    }

    /// [`decrypt_frame`] in a frame of its own.
    #[inline(never)]
    fn decrypt_frame<P: ParameterSet>(sk_st: &[u8], c: &[u8], mu: &mut [u8])
    where
        Self: Sized,
    {
        decrypt_frame::<P, Self>(sk_st, c, mu);
    }
}

/// Rows of A with one SHAKE128 call per row:
/// row i = SHAKE128(i as 16-bit little-endian ‖ seed_A), 2n bytes.
pub(crate) fn rows_shake_scalar<P: ParameterSet>(
    seed: &[u8; SEED_A_BYTES],
    r0: usize,
    out: &mut [u16],
) {
    let n = P::N;
    let mut blk = [0u8; 168];
    // Index loops, not `chunks`: at opt-level "z" their length arithmetic
    // is a `div` (public operands, but divscan flags it).
    let (mut row, mut start) = (r0, 0);
    while start + n <= out.len() {
        let idx = (row as u16).to_le_bytes();
        let mut x = pqforge_core::sponge::Shake128::absorb(&[&idx, seed], 0x1F);
        let mut off = 0;
        while off < n {
            let take = core::cmp::min(84, n - off);
            x.squeeze_block(&mut blk[..2 * take]);
            let dst = &mut out[start + off..start + off + take];
            for (i, o) in dst.iter_mut().enumerate() {
                *o = u16::from_le_bytes([blk[2 * i], blk[2 * i + 1]]);
            }
            off += take;
        }
        row += 1;
        start += n;
    }
}

/// Rows r0.. of A on backend `B` (`out.len() / n` of them).
#[inline(always)]
fn rows<P: ParameterSet, B: Backend>(a: &MatrixA, r0: usize, out: &mut [u16]) {
    match &a.key {
        Some(key) => B::rows_aes::<P>(key, r0, out),
        None => B::rows_shake::<P>(&a.seed, r0, out),
    }
}

/// Where the packed ciphertext `c1 ‖ c2` goes: written (encapsulation) or
/// compared in constant time (decapsulation's re-encryption).
pub(crate) trait Sink {
    /// Bytes `off .. off + bytes.len()` of `c1 ‖ c2`.
    fn put(&mut self, off: usize, bytes: &[u8]);
}

/// Writes the ciphertext.
pub(crate) struct Writer<'a>(pub(crate) &'a mut [u8]);

impl Sink for Writer<'_> {
    #[inline]
    fn put(&mut self, off: usize, bytes: &[u8]) {
        self.0[off..off + bytes.len()].copy_from_slice(bytes);
    }
}

/// Compares with a received ciphertext: `diff` is nonzero iff some byte
/// differs.
pub(crate) struct Comparer<'a> {
    pub(crate) ct: &'a [u8],
    pub(crate) diff: u8,
}

impl Sink for Comparer<'_> {
    #[inline]
    fn put(&mut self, off: usize, bytes: &[u8]) {
        // CT: differences are ORed over every byte (no early exit); only
        // `ct::nonzero_to_mask_u8` of the total is used, as a mask.
        for (a, b) in self.ct[off..off + bytes.len()].iter().zip(bytes) {
            self.diff |= a ^ b;
        }
    }
}

/// Key generation's matrix stage: S and E from SHAKE(0x5F ‖ seed_SE),
/// B = A·S + E packed into `pk_b` row by row, Sᵀ into `sk_st` (16-bit
/// little-endian).
#[inline(always)]
pub(crate) fn keygen_frame<P: ParameterSet, B: Backend>(
    seed_se: &[u8],
    seed_a: &[u8],
    pk_b: &mut [u8],
    sk_st: &mut [u8],
) {
    let n = P::N;
    let mut st = P::Mat::zeroed();
    let mut xof = SampleStream::new::<P>(DOMAIN_KEYGEN, seed_se);
    xof.sample::<P>(st.as_mut());
    let a = MatrixA::new::<P>(seed_a);
    let mut rows_buf = B::RowBuf::<P>::zeroed();
    debug_assert_eq!(rows_buf.as_ref().len(), B::ROWS * n);
    let mut out = [0u16; 32];
    let mut e = [0u16; 32];
    for r0 in (0..n).step_by(B::ROWS) {
        rows::<P, B>(&a, r0, rows_buf.as_mut());
        for h in 0..B::ROWS / 4 {
            let four = &rows_buf.as_ref()[4 * n * h..4 * n * (h + 1)];
            B::mul_as::<P>(four, st.as_ref(), &mut out);
            xof.sample::<P>(&mut e);
            for (o, x) in out.iter_mut().zip(&e) {
                *o = o.wrapping_add(*x);
            }
            for t in 0..4 {
                let off = (r0 + 4 * h + t) * P::LOGQ;
                pack8(
                    &out[8 * t..8 * t + 8],
                    P::LOGQ,
                    &mut pk_b[off..off + P::LOGQ],
                );
            }
        }
    }
    for (i, x) in st.as_ref().iter().enumerate() {
        sk_st[2 * i..2 * i + 2].copy_from_slice(&x.to_le_bytes());
    }
    st.as_mut().zeroize();
    e.zeroize();
    out.zeroize();
}

/// Encryption's matrix stage (encapsulation, and decapsulation's
/// re-encryption): S', E', E'' from SHAKE(0x96 ‖ seed_SE);
/// c1 = pack(S'·A + E'), c2 = pack(S'·B + E'' + encode(μ)), handed to `sink`.
#[inline(always)]
pub(crate) fn encrypt_frame<P: ParameterSet, B: Backend, S: Sink>(
    seed_se: &[u8],
    pk: &[u8],
    mu: &[u8],
    sink: &mut S,
) {
    let n = P::N;
    let logq = P::LOGQ;
    let mut sp = P::Mat::zeroed();
    let mut acc = P::Mat::zeroed();
    let mut xof = SampleStream::new::<P>(DOMAIN_ENCAPS, seed_se);
    xof.sample::<P>(sp.as_mut());
    xof.sample::<P>(acc.as_mut());
    let a = MatrixA::new::<P>(&pk[..SEED_A_BYTES]);
    let mut rows_buf = B::RowBuf::<P>::zeroed();
    debug_assert_eq!(rows_buf.as_ref().len(), B::ROWS * n);
    for r0 in (0..n).step_by(B::ROWS) {
        rows::<P, B>(&a, r0, rows_buf.as_mut());
        for h in 0..B::ROWS / 4 {
            let four = &rows_buf.as_ref()[4 * n * h..4 * n * (h + 1)];
            B::mul_sa::<P>(four, sp.as_ref(), r0 + 4 * h, acc.as_mut());
        }
    }
    let mut packed = [0u8; 16];
    for g in 0..acc.as_ref().len() / 8 {
        pack8(&acc.as_ref()[8 * g..8 * g + 8], logq, &mut packed);
        sink.put(g * logq, &packed[..logq]);
    }
    acc.as_mut().zeroize();
    // V = S'·B + E'' (B streamed from the key, one row of 8 at a time).
    let mut v = [0u16; 64];
    xof.sample::<P>(&mut v);
    let pk_b = &pk[SEED_A_BYTES..];
    let s = sp.as_ref();
    let mut brow = [0u16; 8];
    for j in 0..n {
        unpack8(&pk_b[j * logq..], logq, &mut brow);
        for i in 0..NBAR {
            let c = s[i * n + j];
            for k in 0..NBAR {
                v[i * 8 + k] = v[i * 8 + k].wrapping_add(c.wrapping_mul(brow[k]));
            }
        }
    }
    let mut m = [0u16; 64];
    encode::<P>(mu, &mut m);
    for (x, y) in v.iter_mut().zip(&m) {
        *x = x.wrapping_add(*y);
    }
    for g in 0..8 {
        pack8(&v[8 * g..8 * g + 8], logq, &mut packed);
        sink.put(P::MAT_BYTES + g * logq, &packed[..logq]);
    }
    sp.as_mut().zeroize();
    v.zeroize();
    m.zeroize();
    packed.zeroize();
}

/// Decryption: μ' = decode(C − B'·S), B' and C unpacked from `c`, S from
/// `sk_st`.
#[inline(always)]
pub(crate) fn decrypt_frame<P: ParameterSet, B: Backend>(sk_st: &[u8], c: &[u8], mu: &mut [u8]) {
    let n = P::N;
    let logq = P::LOGQ;
    let mut st = P::Mat::zeroed();
    for (i, x) in st.as_mut().iter_mut().enumerate() {
        *x = u16::from_le_bytes([sk_st[2 * i], sk_st[2 * i + 1]]);
    }
    // Bp is n̄ × n: rows 0..4 and 4..8 in two rounds of mul_as.
    let mut bp = P::Rows::zeroed();
    let mut w = [0u16; 64];
    for half in 0..2 {
        let rows_bytes = &c[half * 4 * n * logq / 8..];
        for g in 0..bp.as_ref().len() / 8 {
            unpack8(
                &rows_bytes[g * logq..],
                logq,
                &mut bp.as_mut()[8 * g..8 * g + 8],
            );
        }
        let mut out = [0u16; 32];
        B::mul_as::<P>(bp.as_ref(), st.as_ref(), &mut out);
        w[32 * half..32 * half + 32].copy_from_slice(&out);
        out.zeroize();
    }
    let mut cm = [0u16; 64];
    for g in 0..8 {
        unpack8(
            &c[P::MAT_BYTES + g * logq..],
            logq,
            &mut cm[8 * g..8 * g + 8],
        );
    }
    for (x, y) in w.iter_mut().zip(&cm) {
        *x = y.wrapping_sub(*x);
    }
    decode::<P>(&w, mu);
    st.as_mut().zeroize();
    w.zeroize();
}

/// Key generation from `s ‖ seed_SE ‖ z` into `ek` and `dk`.
pub(crate) fn keygen<P: ParameterSet, B: Backend>(seed: &[u8], ek: &mut [u8], dk: &mut [u8]) {
    let sec = P::LEN_SEC;
    let (s, rest) = seed.split_at(sec);
    let (seed_se, z) = rest.split_at(P::SEED_SE_BYTES);
    let (seed_a, pk_b) = ek.split_at_mut(SEED_A_BYTES);
    shake::<P>(&[z], seed_a);
    let st_off = sec + P::EK_BYTES;
    let st_len = 2 * P::N * NBAR;
    B::keygen_frame::<P>(seed_se, seed_a, pk_b, &mut dk[st_off..st_off + st_len]);
    dk[..sec].copy_from_slice(s);
    dk[sec..sec + P::EK_BYTES].copy_from_slice(ek);
    shake::<P>(&[ek], &mut dk[st_off + st_len..]);
}

/// Encapsulation with the randomness `μ (‖ salt)` under `ek`, whose hash
/// `pkh = SHAKE(ek)` (`len_sec` bytes) the caller computed when it checked
/// the key.
pub(crate) fn encaps<P: ParameterSet, B: Backend>(
    ek: &[u8],
    pkh: &[u8],
    mu_salt: &[u8],
    ct: &mut [u8],
    ss: &mut [u8],
) {
    let sec = P::LEN_SEC;
    let (mu, salt) = mu_salt.split_at(sec);
    let mut g2 = [0u8; 96];
    let g2 = &mut g2[..P::SEED_SE_BYTES + sec];
    shake::<P>(&[pkh, mu, salt], g2);
    let (seed_se, k) = g2.split_at(P::SEED_SE_BYTES);
    let body = P::MAT_BYTES + P::C2_BYTES;
    B::encrypt_frame::<P, _>(seed_se, ek, mu, &mut Writer(&mut ct[..body]));
    ct[body..].copy_from_slice(salt);
    shake::<P>(&[ct, k], ss);
    g2.zeroize();
}

/// Decapsulation of `ct` under the (checked) `dk` into `ss`; a ciphertext
/// that does not re-encrypt exactly gives SHAKE(ct ‖ s).
pub(crate) fn decaps<P: ParameterSet, B: Backend>(dk: &[u8], ct: &[u8], ss: &mut [u8]) {
    let sec = P::LEN_SEC;
    let s = &dk[..sec];
    let pk = &dk[sec..sec + P::EK_BYTES];
    let st_off = sec + P::EK_BYTES;
    let st_len = 2 * P::N * NBAR;
    let pkh = &dk[st_off + st_len..];
    let body = P::MAT_BYTES + P::C2_BYTES;
    let (c, salt) = ct.split_at(body);
    let mut mu = [0u8; 32];
    B::decrypt_frame::<P>(&dk[st_off..st_off + st_len], c, &mut mu[..sec]);
    let mut g2 = [0u8; 96];
    let g2 = &mut g2[..P::SEED_SE_BYTES + sec];
    shake::<P>(&[pkh, &mu[..sec], salt], g2);
    let (seed_se, k) = g2.split_at(P::SEED_SE_BYTES);
    let mut cmp = Comparer { ct: c, diff: 0 };
    B::encrypt_frame::<P, _>(seed_se, pk, &mu[..sec], &mut cmp);
    // CT: 0xFF if the re-encryption matches (keep k'), else 0 (take s);
    // the choice is a masked select, never a branch.
    let ok = !ct::nonzero_to_mask_u8(cmp.diff);
    let mut kk = [0u8; 32];
    ct::select(ok, k, s, &mut kk[..sec]);
    shake::<P>(&[ct, &kk[..sec]], ss);
    mu.zeroize();
    kk.zeroize();
    g2.zeroize();
}

/// All-ones iff every entry of the stored Sᵀ lies in the support of χ
/// (|x| < the table length), checked without branches on the entries.
pub(crate) fn check_st<P: ParameterSet>(sk_st: &[u8]) -> u32 {
    let bound = (P::CDF.len() - 1) as u32;
    let mut bad = 0u32;
    for i in 0..sk_st.len() / 2 {
        let x = u16::from_le_bytes([sk_st[2 * i], sk_st[2 * i + 1]]);
        // CT: |x| as a signed 16-bit value, computed branch-free; the bound
        // check is a borrow mask, ORed over all entries.
        let v = i32::from(x as i16);
        let sign = (v >> 31) as u32;
        let abs = ((v as u32) ^ sign).wrapping_sub(sign);
        bad |= ct::lt_mask_u32(bound, abs);
    }
    !bad
}
