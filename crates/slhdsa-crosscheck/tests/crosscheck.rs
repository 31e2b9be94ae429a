//! pqforge's SLH-DSA against RustCrypto `slh-dsa`, byte for byte, on the
//! inputs of the ACVP sigGen prompts (`SLH-DSA-sigGen-FIPS205/prompt.json`;
//! the expected results are not read: the peer is the reference here).
//!
//! Every test case of every group is signed by both implementations:
//! - `internal`: slh_sign_internal of the message, opt_rand = PK.seed
//!   (deterministic groups) or the case's `additionalRandomness`;
//! - `external` / `pure`: pqforge's typed API (`sign_with` with the context,
//!   deterministic, or hedged with a generator that hands out exactly the
//!   case's `additionalRandomness`) against RustCrypto's
//!   `try_sign_with_context`;
//! - `external` / `preHash`: pqforge's typed API with `with_prehash` against
//!   RustCrypto's slh_sign_internal of M′ = 1 || |ctx| || ctx || OID ||
//!   PH(M), built here with RustCrypto's `sha2` / `sha3` and the OIDs of the
//!   NIST hash registry (RustCrypto `slh-dsa` has no HashSLH-DSA API).
//!
//! pqforge's signature must equal RustCrypto's and verify under pqforge
//! (and not on a changed message). By default: [`F_PER_GROUP`] cases of
//! each f-set group and [`S_PER_GROUP`] of each s-set group, starting at
//! index tgId modulo the group's size, so that the groups sample different
//! cases (hash functions, contexts); an s-set signature takes RustCrypto up
//! to 2.5 s (SHAKE sets). `SLHDSA_CROSSCHECK_FULL=1`: every case.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use pqforge_core::{HashAlg, SignOptions, SignatureScheme, SigningKey, VerifyingKey};
use pqforge_slhdsa::hazmat::{slh_sign_internal, slh_verify_internal};
use pqforge_slhdsa::params::{
    ParameterSet, SlhDsaSha2_128f, SlhDsaSha2_128s, SlhDsaSha2_192f, SlhDsaSha2_192s,
    SlhDsaSha2_256f, SlhDsaSha2_256s, SlhDsaShake128f, SlhDsaShake128s, SlhDsaShake192f,
    SlhDsaShake192s, SlhDsaShake256f, SlhDsaShake256s,
};
use serde_json::Value;

/// s-set cases per group in the default run (36 s-set groups: 36 cases,
/// most of the default run's time).
const S_PER_GROUP: usize = 1;

/// f-set cases per group in the default run (every f-set case, as
/// `SLHDSA_CROSSCHECK_FULL=1` runs them, takes about a minute more).
const F_PER_GROUP: usize = 3;

/// The sigGen prompt file, or `None` (skip) when absent outside CI.
fn prompt_path() -> Option<PathBuf> {
    let d = std::env::var_os("PQFORGE_DATA").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared")),
        PathBuf::from,
    );
    let p = d.join("vectors/acvp/SLH-DSA-sigGen-FIPS205/prompt.json");
    if p.is_file() {
        Some(p)
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI: test data missing at {}",
            p.display()
        );
        eprintln!("skipped: no test data at {}", p.display());
        None
    }
}

fn hex(v: &Value) -> Vec<u8> {
    let s = v.as_str().expect("hex string");
    assert!(s.len().is_multiple_of(2), "odd hex length");
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// pqforge's pre-hash function of an ACVP name (`"SHA2-512/224"`, ...).
fn hash_alg(name: &str) -> HashAlg {
    HashAlg::ALL
        .into_iter()
        .find(|h| h.name() == name)
        .unwrap_or_else(|| panic!("unknown hashAlg {name}"))
}

/// The DER OID (2.16.840.1.101.3.4.2.arc, NIST hash registry) and PH(M) of
/// an ACVP hash name, with RustCrypto's hashes (SHAKE128: 256 bits,
/// SHAKE256: 512 bits, FIPS 205 §10.2.2).
fn rustcrypto_prehash(name: &str, msg: &[u8]) -> ([u8; 11], Vec<u8>) {
    use sha2::Digest as _;
    use sha3::digest::XofReader as _;
    fn xof<H: Default + sha3::digest::Update + sha3::digest::ExtendableOutput>(
        msg: &[u8],
        n: usize,
    ) -> Vec<u8> {
        let mut h = H::default();
        h.update(msg);
        let mut out = vec![0u8; n];
        h.finalize_xof().read(&mut out);
        out
    }
    let (arc, digest): (u8, Vec<u8>) = match name {
        "SHA2-256" => (1, sha2::Sha256::digest(msg).to_vec()),
        "SHA2-384" => (2, sha2::Sha384::digest(msg).to_vec()),
        "SHA2-512" => (3, sha2::Sha512::digest(msg).to_vec()),
        "SHA2-224" => (4, sha2::Sha224::digest(msg).to_vec()),
        "SHA2-512/224" => (5, sha2::Sha512_224::digest(msg).to_vec()),
        "SHA2-512/256" => (6, sha2::Sha512_256::digest(msg).to_vec()),
        "SHA3-224" => (7, sha3::Sha3_224::digest(msg).to_vec()),
        "SHA3-256" => (8, sha3::Sha3_256::digest(msg).to_vec()),
        "SHA3-384" => (9, sha3::Sha3_384::digest(msg).to_vec()),
        "SHA3-512" => (10, sha3::Sha3_512::digest(msg).to_vec()),
        "SHAKE-128" => (11, xof::<sha3::Shake128>(msg, 32)),
        "SHAKE-256" => (12, xof::<sha3::Shake256>(msg, 64)),
        other => panic!("unknown hashAlg {other}"),
    };
    (
        [
            0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, arc,
        ],
        digest,
    )
}

/// A generator that hands out exactly the given bytes (the case's
/// `additionalRandomness`) and panics if asked for more.
struct Replay {
    bytes: Vec<u8>,
    pos: usize,
}

impl Replay {
    fn take(&mut self, n: usize) -> &[u8] {
        let end = self.pos + n;
        assert!(
            end <= self.bytes.len(),
            "pqforge drew more randomness than opt_rand"
        );
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        s
    }
}

impl rand_core::TryRng for Replay {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(u32::from_le_bytes(self.take(4).try_into().expect("4")))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(u64::from_le_bytes(self.take(8).try_into().expect("8")))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        dst.copy_from_slice(self.take(dst.len()));
        Ok(())
    }
}

impl rand_core::TryCryptoRng for Replay {}

/// One test case of group `g`: pqforge's signature and RustCrypto's, and
/// whether pqforge verifies its own (and rejects it on another message).
struct Signed {
    pqforge: Vec<u8>,
    rustcrypto: Vec<u8>,
    verifies: bool,
}

fn sign_case<P, R>(g: &Value, t: &Value) -> Signed
where
    P: ParameterSet + SignatureScheme,
    R: slh_dsa::ParameterSet,
{
    let n = <P as ParameterSet>::N;
    let sk = hex(&t["sk"]);
    let msg = hex(&t["message"]);
    let pk = &sk[2 * n..];
    let pk_seed = &sk[2 * n..3 * n];
    let det = g["deterministic"].as_bool().expect("deterministic");
    let addrnd = (!det).then(|| hex(&t["additionalRandomness"]));
    let rc_sk = slh_dsa::SigningKey::<R>::try_from(&sk[..]).expect("RustCrypto sk");
    let rc_sig = |s: slh_dsa::Signature<R>| s.to_bytes().to_vec();
    let other: &[u8] = b"another message";

    match g["signatureInterface"].as_str().expect("interface") {
        "internal" => {
            let mut sig = vec![0u8; P::SIG_BYTES];
            let opt_rand = addrnd.as_deref().unwrap_or(pk_seed);
            slh_sign_internal::<P>(&[&msg], &sk, opt_rand, &mut sig).expect("pqforge sign");
            let rustcrypto = rc_sig(rc_sk.slh_sign_internal(&[&msg], addrnd.as_deref()));
            let verifies = slh_verify_internal::<P>(&[&msg], &sig, pk)
                && !slh_verify_internal::<P>(&[other], &sig, pk);
            Signed {
                pqforge: sig,
                rustcrypto,
                verifies,
            }
        }
        "external" => {
            let ctx = hex(&t["context"]);
            let sk_t = SigningKey::<P>::try_from(&sk[..]).expect("pqforge sk");
            let vk_t = VerifyingKey::<P>::try_from(pk).expect("pqforge vk");
            let mut opts = SignOptions::new().with_context(&ctx);
            let rustcrypto = match g["preHash"].as_str().expect("preHash") {
                "pure" => rc_sig(
                    rc_sk
                        .try_sign_with_context(&msg, &ctx, addrnd.as_deref())
                        .expect("RustCrypto sign"),
                ),
                "preHash" => {
                    let name = t["hashAlg"].as_str().expect("hashAlg");
                    opts = opts.with_prehash(hash_alg(name));
                    let (oid, ph) = rustcrypto_prehash(name, &msg);
                    let head = [1, u8::try_from(ctx.len()).expect("context length")];
                    rc_sig(rc_sk.slh_sign_internal(&[&head, &ctx, &oid, &ph], addrnd.as_deref()))
                }
                other => panic!("unknown preHash {other}"),
            };
            let mut rng = Replay {
                bytes: addrnd.clone().unwrap_or_default(),
                pos: 0,
            };
            if addrnd.is_none() {
                opts = opts.deterministic();
            }
            let sig = P::sign_with(&sk_t, &msg, &opts, &mut rng).expect("pqforge sign");
            assert_eq!(
                rng.pos,
                rng.bytes.len(),
                "pqforge did not use all of opt_rand"
            );
            let sig = sig.as_bytes().to_vec();
            let verifies = P::verify_with(&vk_t, &msg, &opts, &sig).is_ok()
                && P::verify_with(&vk_t, other, &opts, &sig).is_err();
            Signed {
                pqforge: sig,
                rustcrypto,
                verifies,
            }
        }
        other => panic!("unknown signatureInterface {other}"),
    }
}

/// Calls `sign_case::<pqforge set, RustCrypto set>` for the set `$name`.
macro_rules! by_name {
    ($name:expr, $g:expr, $t:expr) => {
        match $name {
            "SLH-DSA-SHA2-128s" => sign_case::<SlhDsaSha2_128s, slh_dsa::Sha2_128s>($g, $t),
            "SLH-DSA-SHA2-128f" => sign_case::<SlhDsaSha2_128f, slh_dsa::Sha2_128f>($g, $t),
            "SLH-DSA-SHA2-192s" => sign_case::<SlhDsaSha2_192s, slh_dsa::Sha2_192s>($g, $t),
            "SLH-DSA-SHA2-192f" => sign_case::<SlhDsaSha2_192f, slh_dsa::Sha2_192f>($g, $t),
            "SLH-DSA-SHA2-256s" => sign_case::<SlhDsaSha2_256s, slh_dsa::Sha2_256s>($g, $t),
            "SLH-DSA-SHA2-256f" => sign_case::<SlhDsaSha2_256f, slh_dsa::Sha2_256f>($g, $t),
            "SLH-DSA-SHAKE-128s" => sign_case::<SlhDsaShake128s, slh_dsa::Shake128s>($g, $t),
            "SLH-DSA-SHAKE-128f" => sign_case::<SlhDsaShake128f, slh_dsa::Shake128f>($g, $t),
            "SLH-DSA-SHAKE-192s" => sign_case::<SlhDsaShake192s, slh_dsa::Shake192s>($g, $t),
            "SLH-DSA-SHAKE-192f" => sign_case::<SlhDsaShake192f, slh_dsa::Shake192f>($g, $t),
            "SLH-DSA-SHAKE-256s" => sign_case::<SlhDsaShake256s, slh_dsa::Shake256s>($g, $t),
            "SLH-DSA-SHAKE-256f" => sign_case::<SlhDsaShake256f, slh_dsa::Shake256f>($g, $t),
            other => panic!("unknown set {other}"),
        }
    };
}

const SETS: [&str; 12] = [
    "SLH-DSA-SHA2-128s",
    "SLH-DSA-SHA2-128f",
    "SLH-DSA-SHA2-192s",
    "SLH-DSA-SHA2-192f",
    "SLH-DSA-SHA2-256s",
    "SLH-DSA-SHA2-256f",
    "SLH-DSA-SHAKE-128s",
    "SLH-DSA-SHAKE-128f",
    "SLH-DSA-SHAKE-192s",
    "SLH-DSA-SHAKE-192f",
    "SLH-DSA-SHAKE-256s",
    "SLH-DSA-SHAKE-256f",
];

/// Cases compared per set: (deterministic, with additionalRandomness).
#[derive(Default)]
struct Count {
    det: usize,
    rnd: usize,
    secs: f64,
}

#[test]
fn siggen_pqforge_equals_rustcrypto() {
    let Some(path) = prompt_path() else { return };
    let full = std::env::var_os("SLHDSA_CROSSCHECK_FULL").is_some();
    let prompt: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read prompt")).expect("json");
    let start = Instant::now();
    let mut counts: BTreeMap<&str, Count> = SETS.iter().map(|s| (*s, Count::default())).collect();
    let mut interfaces: BTreeMap<String, usize> = BTreeMap::new();
    for g in prompt["testGroups"].as_array().expect("testGroups") {
        let set = g["parameterSet"].as_str().expect("parameterSet");
        let tests = g["tests"].as_array().expect("tests");
        let per_group = if set.ends_with('f') {
            F_PER_GROUP
        } else {
            S_PER_GROUP
        };
        let (skip, take) = if full || tests.len() <= per_group {
            (0, tests.len())
        } else {
            let tg = usize::try_from(g["tgId"].as_u64().expect("tgId")).expect("tgId");
            (tg % (tests.len() - per_group + 1), per_group)
        };
        let det = g["deterministic"].as_bool().expect("deterministic");
        let iface = match g["preHash"].as_str() {
            Some(p) => format!("{}/{p}", g["signatureInterface"].as_str().unwrap_or("?")),
            None => g["signatureInterface"].as_str().unwrap_or("?").to_string(),
        };
        for t in tests.iter().skip(skip).take(take) {
            let t0 = Instant::now();
            let s = by_name!(set, g, t);
            let secs = t0.elapsed().as_secs_f64();
            let what = format!(
                "{set} tgId {} tcId {} ({iface}, {})",
                g["tgId"],
                t["tcId"],
                if det {
                    "deterministic"
                } else {
                    "additionalRandomness"
                }
            );
            assert!(
                s.pqforge == s.rustcrypto,
                "{what}: pqforge's signature differs from RustCrypto's (first difference at byte {:?})",
                s.pqforge
                    .iter()
                    .zip(&s.rustcrypto)
                    .position(|(a, b)| a != b)
            );
            assert!(s.verifies, "{what}: pqforge's signature does not verify");
            let c = counts.get_mut(set).expect("known set");
            c.secs += secs;
            if det {
                c.det += 1;
            } else {
                c.rnd += 1;
            }
            *interfaces.entry(iface.clone()).or_default() += 1;
        }
    }
    let (mut det, mut rnd) = (0, 0);
    for (set, c) in &counts {
        eprintln!(
            "{set}: {} signatures identical ({} deterministic, {} with additionalRandomness), \
             {:.1} s",
            c.det + c.rnd,
            c.det,
            c.rnd,
            c.secs
        );
        assert!(c.det > 0, "{set}: no deterministic case compared");
        assert!(c.rnd > 0, "{set}: no additionalRandomness case compared");
        det += c.det;
        rnd += c.rnd;
    }
    eprintln!(
        "compared {} cases ({det} deterministic, {rnd} with additionalRandomness; by interface: \
         {interfaces:?}), {} mode, {:.1} s",
        det + rnd,
        if full { "full" } else { "default" },
        start.elapsed().as_secs_f64()
    );
}
