//! The `SignatureScheme` contract for the twelve SLH-DSA sets: the message
//! M′ of FIPS 205 §10.2 (pure, Algorithm 22) or §10.2.2 (HashSLH-DSA,
//! Algorithm 23) handed to slh_sign_internal / slh_verify_internal as
//! parts, never concatenated (no heap, any message length).

use pqforge_core::{
    AlgInfo, CryptoRng, Error, HashAlg, KatRng, KeyForms, MessageMode, PreparedSk, PreparedVk,
    SignCaps, SignChecked, SignOptions, SignatureScheme, Status, VerifyChecked,
};

use crate::internal;
use crate::params::{
    ParameterSet, SlhDsaSha2_128f, SlhDsaSha2_128s, SlhDsaSha2_192f, SlhDsaSha2_192s,
    SlhDsaSha2_256f, SlhDsaSha2_256s, SlhDsaShake128f, SlhDsaShake128s, SlhDsaShake192f,
    SlhDsaShake192s, SlhDsaShake256f, SlhDsaShake256s,
};

/// What every SLH-DSA set accepts: contexts up to 255 bytes, HashSLH-DSA
/// with every pre-hash of FIPS 205 §10.2.2 (the SHA-2, SHA-3 and SHAKE
/// functions of [`HashAlg::ALL`]) either computed here or passed as a
/// caller's digest, deterministic signing (opt_rand = PK.seed). There is
/// no external μ in FIPS 205.
const CAPS: SignCaps = SignCaps {
    max_context: 255,
    prehash: &HashAlg::ALL,
    digest: &HashAlg::ALL,
    external_mu: false,
    deterministic: true,
};

/// M′ as parts: the two-byte header, the context, then the message (pure)
/// or the DER OID and the digest (HashSLH-DSA).
struct MessagePrime<'a> {
    head: [u8; 2],
    ctx: &'a [u8],
    oid: [u8; 11],
    /// The digest for [`MessageMode::PreHash`] (up to 64 bytes).
    digest: [u8; 64],
    /// Bytes of `digest` used, or `None` for pure signing.
    digest_len: Option<usize>,
    msg: &'a [u8],
}

impl<'a> MessagePrime<'a> {
    /// Builds M′ for `msg` under `opts` (checked against [`CAPS`] by core).
    fn new(opts: &SignOptions<'a>, msg: &'a [u8]) -> Result<Self, Error> {
        let ctx = opts.context();
        let Ok(clen) = u8::try_from(ctx.len()) else {
            return Err(Error::InvalidInput("context longer than 255 bytes"));
        };
        let mut m = Self {
            head: [0, clen],
            ctx,
            oid: [0; 11],
            digest: [0; 64],
            digest_len: None,
            msg,
        };
        match opts.message() {
            MessageMode::Pure => {}
            MessageMode::PreHash(h) => {
                m.head[0] = 1;
                m.oid = h.oid_der();
                m.digest_len = Some(h.digest(msg, &mut m.digest)?);
                m.msg = &[];
            }
            MessageMode::Digest(h) => {
                if msg.len() != h.output_bytes() {
                    return Err(Error::InvalidInput(
                        "digest length differs from the hash function's output length",
                    ));
                }
                m.head[0] = 1;
                m.oid = h.oid_der();
                // The caller's digest is the message part after the OID.
            }
            MessageMode::ExternalMu | _ => {
                // Refused by `Checked::new` already (CAPS.external_mu is false).
                return Err(Error::Unsupported {
                    alg: "SLH-DSA",
                    what: "external mu",
                });
            }
        }
        Ok(m)
    }

    /// The parts whose concatenation is M′.
    fn parts(&self) -> [&[u8]; 4] {
        let oid: &[u8] = if self.head[0] == 1 { &self.oid } else { &[] };
        let last = match self.digest_len {
            Some(n) => &self.digest[..n],
            None => self.msg,
        };
        [&self.head, self.ctx, oid, last]
    }
}

macro_rules! slhdsa_set {
    ($ty:ident, $name:literal, $stem:literal, $oid:literal, $n:literal, $sig:literal, $cat:literal) => {
        impl SignatureScheme for $ty {
            const BACKENDS: pqforge_core::cpu::Backends = crate::backend::BACKENDS;
            const INFO: AlgInfo = AlgInfo::sig($name, "SLH-DSA", 2 * $n, 4 * $n, $sig, $cat)
                .with_status(Status::Standard)
                .with_kat(KatRng::None, "")
                .with_oid($oid)
                .with_c_stem($stem)
                .with_feature("slhdsa")
                .with_key_forms(KeyForms::EXPANDED)
                .with_seeds(3 * $n, 0)
                .with_sign_caps(CAPS);

            /// PK.seed and PK.root (bytes 2n..4n) are public.
            const SK_PUBLIC: &'static [core::ops::Range<usize>] = &[2 * $n..4 * $n];

            type VkBytes = [u8; 2 * $n];
            type SkBytes = [u8; 4 * $n];
            type SigBytes = [u8; $sig];
            /// SK.seed || SK.prf || PK.seed, the inputs of slh_keygen_internal.
            type KeygenSeed = [u8; 3 * $n];
            type VkState = ();
            type SkState = ();

            /// Every 2n-byte string is a public key.
            fn prepare_vk(_vk: &[u8; 2 * $n]) -> Result<(), Error> {
                Ok(())
            }

            /// Every 4n-byte string is accepted. PK.root is not recomputed
            /// from SK.seed here (that is a whole key generation, up to
            /// tens of milliseconds for the s sets): a key whose PK.root is
            /// not its own signs, but its signatures do not verify. Keys
            /// loaded from files run [`Self::check_sk_consistency`].
            fn prepare_sk(_sk: &[u8; 4 * $n]) -> Result<(), Error> {
                Ok(())
            }

            /// PK.root recomputed from SK.seed and PK.seed
            /// (slh_keygen_internal) must be the stored one.
            fn check_sk_consistency(sk: PreparedSk<'_, Self>) -> Result<(), Error> {
                let sk = sk.bytes();
                let (mut vk, mut sk2) = ([0u8; 2 * $n], [0u8; 4 * $n]);
                let (sk_seed, rest) = sk.split_at($n);
                let (sk_prf, rest) = rest.split_at($n);
                internal::keygen::<Self>(sk_seed, sk_prf, &rest[..$n], &mut sk2, &mut vk);
                pqforge_core::ct::wipe(&mut sk2);
                // PK.root is public (keygen declassified the recomputed one).
                if vk[..] == sk[2 * $n..] {
                    Ok(())
                } else {
                    Err(Error::InvalidKey(
                        "SLH-DSA private key: PK.root is not the root its SK.seed and PK.seed give",
                    ))
                }
            }

            /// slh_keygen_internal(SK.seed, SK.prf, PK.seed) (Algorithm 18).
            fn keygen_derand_into(
                seed: &[u8; 3 * $n],
                vk: &mut [u8; 2 * $n],
                sk: &mut [u8; 4 * $n],
            ) -> ((), ()) {
                let (sk_seed, rest) = seed.split_at($n);
                let (sk_prf, pk_seed) = rest.split_at($n);
                internal::keygen::<Self>(sk_seed, sk_prf, pk_seed, sk, vk);
                ((), ())
            }

            fn verifying_key_into(sk: PreparedSk<'_, Self>, vk: &mut [u8; 2 * $n]) {
                vk.copy_from_slice(&sk.bytes()[2 * $n..]);
            }

            /// M′ from the options (pure or HashSLH-DSA), opt_rand drawn
            /// with one n-byte `fill_bytes` (PK.seed when deterministic),
            /// then slh_sign_internal.
            fn sign_into<R: CryptoRng + ?Sized>(
                sk: PreparedSk<'_, Self>,
                msg: &[u8],
                opts: &SignChecked<'_, Self>,
                rng: &mut R,
                sig: &mut [u8; $sig],
            ) -> Result<usize, Error> {
                let sk = sk.bytes();
                let m = MessagePrime::new(opts.options(), msg)?;
                let mut opt_rand = [0u8; $n];
                if opts.is_deterministic() {
                    opt_rand.copy_from_slice(&sk[2 * $n..3 * $n]);
                } else {
                    rng.fill_bytes(&mut opt_rand);
                }
                internal::sign::<Self>(&m.parts(), sk, &opt_rand, sig);
                Ok($sig)
            }

            fn verify_prepared(
                vk: PreparedVk<'_, Self>,
                msg: &[u8],
                opts: &VerifyChecked<'_, Self>,
                sig: &[u8],
            ) -> Result<(), Error> {
                let m = MessagePrime::new(opts.options(), msg)?;
                if internal::verify::<Self>(&m.parts(), sig, vk.bytes()) {
                    Ok(())
                } else {
                    Err(Error::Verification)
                }
            }
        }

        const _: () = assert!(
            <$ty as ParameterSet>::N == $n
                && <$ty as ParameterSet>::PK_BYTES == 2 * $n
                && <$ty as ParameterSet>::SK_BYTES == 4 * $n
                && <$ty as ParameterSet>::SIG_BYTES == $sig
        );
    };
}

slhdsa_set!(
    SlhDsaSha2_128s,
    "slh-dsa-sha2-128s",
    "slhdsasha2128s",
    "2.16.840.1.101.3.4.3.20",
    16,
    7856,
    1
);
slhdsa_set!(
    SlhDsaSha2_128f,
    "slh-dsa-sha2-128f",
    "slhdsasha2128f",
    "2.16.840.1.101.3.4.3.21",
    16,
    17088,
    1
);
slhdsa_set!(
    SlhDsaSha2_192s,
    "slh-dsa-sha2-192s",
    "slhdsasha2192s",
    "2.16.840.1.101.3.4.3.22",
    24,
    16224,
    3
);
slhdsa_set!(
    SlhDsaSha2_192f,
    "slh-dsa-sha2-192f",
    "slhdsasha2192f",
    "2.16.840.1.101.3.4.3.23",
    24,
    35664,
    3
);
slhdsa_set!(
    SlhDsaSha2_256s,
    "slh-dsa-sha2-256s",
    "slhdsasha2256s",
    "2.16.840.1.101.3.4.3.24",
    32,
    29792,
    5
);
slhdsa_set!(
    SlhDsaSha2_256f,
    "slh-dsa-sha2-256f",
    "slhdsasha2256f",
    "2.16.840.1.101.3.4.3.25",
    32,
    49856,
    5
);
slhdsa_set!(
    SlhDsaShake128s,
    "slh-dsa-shake-128s",
    "slhdsashake128s",
    "2.16.840.1.101.3.4.3.26",
    16,
    7856,
    1
);
slhdsa_set!(
    SlhDsaShake128f,
    "slh-dsa-shake-128f",
    "slhdsashake128f",
    "2.16.840.1.101.3.4.3.27",
    16,
    17088,
    1
);
slhdsa_set!(
    SlhDsaShake192s,
    "slh-dsa-shake-192s",
    "slhdsashake192s",
    "2.16.840.1.101.3.4.3.28",
    24,
    16224,
    3
);
slhdsa_set!(
    SlhDsaShake192f,
    "slh-dsa-shake-192f",
    "slhdsashake192f",
    "2.16.840.1.101.3.4.3.29",
    24,
    35664,
    3
);
slhdsa_set!(
    SlhDsaShake256s,
    "slh-dsa-shake-256s",
    "slhdsashake256s",
    "2.16.840.1.101.3.4.3.30",
    32,
    29792,
    5
);
slhdsa_set!(
    SlhDsaShake256f,
    "slh-dsa-shake-256f",
    "slhdsashake256f",
    "2.16.840.1.101.3.4.3.31",
    32,
    49856,
    5
);
