//! Heap-free checks shared by the host and the Cortex-M4 harness.
//!
//! * [`digest`]: SHA3-256 of the KAT transcript of the first `records`
//!   standard seeds, i.e. of the first `records` records of
//!   `pqforge kat <alg>` (header line included), computed by streaming the
//!   `.rsp` text into the hash. The board and the host run this same
//!   function; equal digests mean bit-identical keys, ciphertexts, signatures
//!   and secrets.
//! * [`functional_test`]: the pqm4-style functional test, without heap (the
//!   host's [`selftest`](crate::selftest) runs it in a `Vec`).
//!
//! Both work in one caller-provided scratch buffer (see [`scratch_bytes`] and
//! [`test_scratch_bytes`]), so the board can use a static arena.
//!
//! ```
//! # #[cfg(feature = "hqc")] {
//! use pqforge::{Algorithm, transcript};
//! let s = "hqc-1".parse::<Algorithm>().unwrap().scheme();
//! let mut scratch = vec![0u8; transcript::scratch_bytes(s, 1)];
//! let d = transcript::digest(s, 1, &mut scratch).unwrap();
//! # #[cfg(feature = "std")] {
//! let req = pqforge::katgen::standard_req(s, 1);
//! let rsp = pqforge::katgen::write_rsp(s, &req).unwrap();
//! assert_eq!(d, pqforge::keccak::sha3_256(rsp.as_bytes()));
//! # } }
//! ```

use core::fmt;

use pqforge_core::kat::{KAT_ENTROPY, KatSource, NistDrbg};
use pqforge_core::keccak::Sha3_256;
use pqforge_core::{AlgInfo, CryptoRng, DynKem, DynSig, Error, Kind, Rng, Scheme, SignOptions};

/// Message length of the functional test (pqm4's `MLEN`).
pub const TEST_MSG_BYTES: usize = 59;

/// Why a check failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The scratch buffer is too small.
    Scratch {
        /// Bytes needed.
        needed: usize,
        /// Bytes given.
        got: usize,
    },
    /// An operation returned an error.
    Op {
        /// `"keygen"`, `"encaps"`, ...
        op: &'static str,
        /// Test round or transcript record.
        round: usize,
        /// The error.
        err: Error,
    },
    /// An accelerated kernel of the scheme's family (the backend this
    /// build and CPU run) differs from the portable one on random inputs.
    Kernel {
        /// The backend's name for the kernel (`"ntt"`, ...).
        name: &'static str,
    },
    /// An operation succeeded with a wrong result.
    Check {
        /// What went wrong.
        what: &'static str,
        /// Test round or transcript record.
        round: usize,
    },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Scratch { needed, got } => {
                write!(f, "scratch buffer has {got} bytes, needs {needed}")
            }
            Failure::Op { op, round, err } => write!(f, "round {round}: {op}: {err}"),
            Failure::Kernel { name } => {
                write!(f, "kernel `{name}` differs from the portable one")
            }
            Failure::Check { what, round } => write!(f, "round {round}: {what}"),
        }
    }
}

impl core::error::Error for Failure {}

/// Length of the message of standard KAT record `i` (signatures).
const fn kat_msg_bytes(i: usize) -> usize {
    33 * (i + 1)
}

/// Scratch bytes [`digest`] needs for `records` records.
#[must_use]
pub fn scratch_bytes(scheme: Scheme, records: usize) -> usize {
    let info = scheme.info();
    let keys = info.pk_bytes + info.sk_bytes;
    match scheme {
        Scheme::Kem(_) => keys + info.ct_bytes + 2 * info.ss_bytes,
        Scheme::Sig(s) => {
            let m = kat_msg_bytes(records.saturating_sub(1));
            keys + m + s.signed_message_bytes(m)
        }
    }
}

/// Scratch bytes [`functional_test`] needs.
#[must_use]
pub fn test_scratch_bytes(info: &AlgInfo) -> usize {
    // This round's key pair and the previous round's.
    let pairs = 2 * (info.pk_bytes + info.sk_bytes);
    match info.kind {
        // ct, random ct, 2 ss.
        Kind::Kem => pairs + 2 * info.ct_bytes + 2 * info.ss_bytes,
        // message, signature.
        Kind::Sig => pairs + TEST_MSG_BYTES + info.sig_bytes,
    }
}

/// Hands out consecutive pieces of a scratch buffer.
struct Carve<'a>(&'a mut [u8]);

impl<'a> Carve<'a> {
    /// The next `n` bytes (the caller checked the total length).
    fn take(&mut self, n: usize) -> &'a mut [u8] {
        let (head, tail) = core::mem::take(&mut self.0).split_at_mut(n);
        self.0 = tail;
        head
    }
}

fn check_scratch(needed: usize, got: usize) -> Result<(), Failure> {
    if got < needed {
        return Err(Failure::Scratch { needed, got });
    }
    Ok(())
}

/// Streams `.rsp` text into SHA3-256 without building it.
struct RspHasher(Sha3_256);

impl RspHasher {
    fn str(&mut self, s: &str) {
        self.0.absorb(s.as_bytes());
    }

    fn int(&mut self, name: &str, mut n: usize) {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.str(name);
        self.str(" = ");
        self.0.absorb(&digits[i..]);
        self.str("\n");
    }

    /// Upper-case hex, as `pqforge_core::kat::rsp::to_hex`.
    fn hex(&mut self, name: &str, bytes: &[u8]) {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        self.str(name);
        self.str(" = ");
        let mut chunk = [0u8; 128];
        for part in bytes.chunks(chunk.len() / 2) {
            for (pair, b) in chunk.chunks_exact_mut(2).zip(part) {
                pair[0] = HEX[usize::from(b >> 4)];
                pair[1] = HEX[usize::from(b & 15)];
            }
            self.0.absorb(&chunk[..2 * part.len()]);
        }
        self.str("\n");
    }
}

/// SHA3-256 of the `.rsp` transcript of the first `records` standard KAT
/// records (the first `records` records of `pqforge kat <alg>`, header line
/// included): seeds from the scheme's KAT generator, keys, ciphertexts and
/// secrets (KEM) or messages and signed messages (signature).
///
/// Each record is also checked: decapsulation must return the encapsulated
/// secret.
///
/// # Errors
/// [`Failure::Scratch`] if `scratch` is shorter than [`scratch_bytes`];
/// otherwise the first failed operation or check.
pub fn digest(scheme: Scheme, records: usize, scratch: &mut [u8]) -> Result<[u8; 32], Failure> {
    let info = scheme.info();
    check_scratch(scratch_bytes(scheme, records), scratch.len())?;
    let mut buf = Carve(scratch);
    let pk = buf.take(info.pk_bytes);
    let sk = buf.take(info.sk_bytes);
    let mut h = RspHasher(Sha3_256::new());
    h.str(info.kat_header);
    h.str("\n\n");
    let op = |op, round| move |err| Failure::Op { op, round, err };
    match scheme {
        Scheme::Kem(k) => {
            let ct = buf.take(info.ct_bytes);
            let ss = buf.take(info.ss_bytes);
            let ss2 = buf.take(info.ss_bytes);
            // The generator `standard_seeds` uses, one seed at a time.
            let mut seeds = KatSource::new(info.kat, &KAT_ENTROPY);
            for i in 0..records {
                let mut seed = [0u8; 48];
                seeds.fill_bytes(&mut seed);
                let seed = &seed;
                let mut rng = KatSource::new(info.kat, seed);
                k.keygen(&mut rng, pk, sk).map_err(op("keygen", i))?;
                k.encaps(&mut rng, pk, ct, ss).map_err(op("encaps", i))?;
                k.decaps(sk, ct, ss2).map_err(op("decaps", i))?;
                if ss != ss2 {
                    return Err(Failure::Check {
                        what: "decapsulated secret differs from encapsulated one",
                        round: i,
                    });
                }
                h.int("count", i);
                h.hex("seed", seed);
                h.hex("pk", pk);
                h.hex("sk", sk);
                h.hex("ct", ct);
                h.hex("ss", ss);
                h.str("\n");
            }
        }
        Scheme::Sig(s) => {
            let msg_all = buf.take(kat_msg_bytes(records.saturating_sub(1)));
            let sm = buf.0;
            // Seeds and messages alternate in one NIST DRBG stream, as in
            // `katgen::standard_req`.
            let mut g = NistDrbg::new(&KAT_ENTROPY);
            for i in 0..records {
                let mut seed = [0u8; 48];
                g.fill(&mut seed);
                let msg = &mut msg_all[..kat_msg_bytes(i)];
                g.fill(msg);
                let mut rng = KatSource::new(info.kat, &seed);
                s.keygen(&mut rng, pk, sk).map_err(op("keygen", i))?;
                let sm = &mut sm[..s.signed_message_bytes(msg.len())];
                let n = s
                    .sign_message(&mut rng, sk, msg, sm)
                    .map_err(op("sign", i))?;
                h.int("count", i);
                h.hex("seed", &seed);
                h.int("mlen", msg.len());
                h.hex("msg", msg);
                h.hex("pk", pk);
                h.hex("sk", sk);
                h.int("smlen", n);
                h.hex("sm", &sm[..n]);
                h.str("\n");
            }
        }
    }
    let mut out = [0u8; 32];
    h.0.finalize_into(&mut out);
    Ok(out)
}

/// Runs `rounds` rounds (at least one) of the pqm4-style functional test,
/// without heap; the host's [`selftest`](crate::selftest) and the Cortex-M4
/// harness both run this.
///
/// Per round, for a KEM: key generation, encapsulation and decapsulation
/// agree; decapsulation with another secret key, and of a random ciphertext,
/// succeeds (implicit rejection) with a different secret. For a signature:
/// sign then verify succeeds; a modified message, a modified signature and
/// another key are each rejected. The "other key" of a round is the previous
/// round's key pair, so a round costs one key generation (it matters for
/// Classic McEliece).
///
/// # Errors
/// [`Failure::Scratch`] if `scratch` is shorter than
/// [`test_scratch_bytes`]; otherwise the first failed operation or check.
pub fn functional_test(
    scheme: Scheme,
    rounds: usize,
    rng: &mut dyn CryptoRng,
    scratch: &mut [u8],
) -> Result<(), Failure> {
    functional_test_until(scheme, rounds, &mut || false, rng, scratch).map(|_| ())
}

/// Like [`functional_test`], but stops early after the first round for
/// which `stop()` returns true (a time budget, say). Returns the number of
/// rounds run.
///
/// # Errors
/// As [`functional_test`].
pub fn functional_test_until(
    scheme: Scheme,
    rounds: usize,
    stop: &mut dyn FnMut() -> bool,
    rng: &mut dyn CryptoRng,
    scratch: &mut [u8],
) -> Result<usize, Failure> {
    let info = scheme.info();
    check_scratch(test_scratch_bytes(info), scratch.len())?;
    let mut buf = Carve(scratch);
    let mut this = KeyPair {
        pk: buf.take(info.pk_bytes),
        sk: buf.take(info.sk_bytes),
    };
    let mut other = KeyPair {
        pk: buf.take(info.pk_bytes),
        sk: buf.take(info.sk_bytes),
    };
    let rest = buf.0;
    crate::registry::check_kernels(info.family, 8).map_err(|name| Failure::Kernel { name })?;
    other.generate(scheme, rng, 0)?;
    let mut round = 0;
    while round < rounds.max(1) {
        this.generate(scheme, rng, round)?;
        match scheme {
            Scheme::Kem(k) => kem_round(k, round, &this, &other, rng, rest)?,
            Scheme::Sig(s) => sig_round(s, round, &this, &other, rng, rest)?,
        }
        core::mem::swap(&mut this, &mut other);
        round += 1;
        if stop() {
            break;
        }
    }
    Ok(round)
}

/// An encoded key pair in the scratch buffer.
struct KeyPair<'a> {
    pk: &'a mut [u8],
    sk: &'a mut [u8],
}

impl KeyPair<'_> {
    fn generate(
        &mut self,
        scheme: Scheme,
        rng: &mut dyn CryptoRng,
        round: usize,
    ) -> Result<(), Failure> {
        match scheme {
            Scheme::Kem(k) => k.keygen(rng, self.pk, self.sk),
            Scheme::Sig(s) => s.keygen(rng, self.pk, self.sk),
        }
        .map_err(|err| Failure::Op {
            op: "keygen",
            round,
            err,
        })
    }
}

fn kem_round(
    k: &dyn DynKem,
    round: usize,
    kp: &KeyPair<'_>,
    other: &KeyPair<'_>,
    rng: &mut dyn CryptoRng,
    scratch: &mut [u8],
) -> Result<(), Failure> {
    let i = k.info();
    let op = |op| move |err| Failure::Op { op, round, err };
    let check = |what| Err(Failure::Check { what, round });
    let mut buf = Carve(scratch);
    let ct = buf.take(i.ct_bytes);
    let random_ct = buf.take(i.ct_bytes);
    let ss = buf.take(i.ss_bytes);
    let ss_dec = buf.take(i.ss_bytes);
    k.encaps(rng, kp.pk, ct, ss).map_err(op("encaps"))?;
    k.decaps(kp.sk, ct, ss_dec).map_err(op("decaps"))?;
    if ss != ss_dec {
        return check("decapsulated secret differs from encapsulated one");
    }
    k.decaps(other.sk, ct, ss_dec)
        .map_err(op("decaps with another key"))?;
    if ss == ss_dec {
        return check("decaps with another secret key gave the same secret");
    }
    rng.fill_bytes(random_ct);
    k.decaps(kp.sk, random_ct, ss_dec)
        .map_err(op("decaps of a random ciphertext"))?;
    if ss == ss_dec {
        return check("decaps of a random ciphertext gave the honest secret");
    }
    Ok(())
}

fn sig_round(
    s: &dyn DynSig,
    round: usize,
    kp: &KeyPair<'_>,
    other: &KeyPair<'_>,
    rng: &mut dyn CryptoRng,
    scratch: &mut [u8],
) -> Result<(), Failure> {
    let i = s.info();
    let op = |op| move |err| Failure::Op { op, round, err };
    let check = |what| Err(Failure::Check { what, round });
    let mut buf = Carve(scratch);
    let msg = buf.take(TEST_MSG_BYTES);
    let sig = buf.take(i.sig_bytes);
    rng.fill_bytes(msg);
    let n = s
        .sign(rng, kp.sk, msg, &SignOptions::new(), sig)
        .map_err(op("sign"))?;
    let sig = &mut sig[..n];
    s.verify(kp.pk, msg, &SignOptions::new(), sig)
        .map_err(op("verify (valid signature rejected)"))?;
    msg[0] ^= 1;
    if s.verify(kp.pk, msg, &SignOptions::new(), sig).is_ok() {
        return check("signature accepted on a modified message");
    }
    msg[0] ^= 1;
    let pos = n / 2;
    sig[pos] ^= 0x10;
    if s.verify(kp.pk, msg, &SignOptions::new(), sig).is_ok() {
        return check("modified signature accepted");
    }
    sig[pos] ^= 0x10;
    if s.verify(other.pk, msg, &SignOptions::new(), sig).is_ok() {
        return check("signature accepted under another key");
    }
    Ok(())
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::{Algorithm, katgen};

    /// Every algorithm; under Miri ML-KEM-512 only (the others take from
    /// minutes to hours there; the C library's Miri tests sign through the
    /// same dynamic API), enough for the transcript code around it.
    fn algorithms() -> impl Iterator<Item = Algorithm> {
        Algorithm::all().filter(|a| !cfg!(miri) || a.info().name == "ml-kem-512")
    }

    #[test]
    fn digest_is_sha3_of_the_rsp_text() {
        for a in algorithms() {
            let s = a.scheme();
            let n = 2;
            let mut scratch = vec![0u8; scratch_bytes(s, n)];
            let d = digest(s, n, &mut scratch);
            let rsp = katgen::write_rsp(s, &katgen::standard_req(s, n));
            match (d, rsp) {
                (Ok(d), Ok(rsp)) => {
                    assert_eq!(d, pqforge_core::keccak::sha3_256(rsp.as_bytes()), "{a}");
                }
                // A KAT path that fails fails in both (the scheme's own
                // tests report it); the transcript must not diverge.
                (Err(_), Err(_)) => {}
                (d, r) => panic!("{a}: digest {d:?}, write_rsp {:?}", r.map(|_| ())),
            }
        }
    }

    #[test]
    fn functional_test_passes_and_checks_scratch() {
        for a in algorithms() {
            let s = a.scheme();
            let mut rng = KatSource::new(s.info().kat, &[5u8; 48]);
            let mut scratch = vec![0u8; test_scratch_bytes(s.info())];
            functional_test(s, 2, &mut rng, &mut scratch).unwrap();
            let short = scratch.len() - 1;
            assert!(matches!(
                functional_test(s, 1, &mut rng, &mut scratch[..short]),
                Err(Failure::Scratch { .. })
            ));
        }
    }
}
