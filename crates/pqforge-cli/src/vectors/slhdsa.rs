//! SLH-DSA (FIPS 205) vector formats, all twelve parameter sets.
//!
//! Key generation, pure signing and HashSLH-DSA go through the signature
//! contract's dynamic API ([`DynSig`]: key generation from
//! SK.seed‖SK.prf‖PK.seed, signing and verification with [`SignOptions`]:
//! context, pre-hash, deterministic or with the vector's opt_rand drawn
//! from the generator, which must be drawn exactly). The internal interface
//! on a raw M′ (ACVP `signatureInterface: internal`, the legacy sigVer set,
//! BoringSSL `siggen` / `sigver`) uses the crate's
//! [`pqforge::slhdsa::hazmat`] functions after the contract's key checks.
//! HashSLH-DSA: SHA-3 / SHAKE pre-hashes go in as `PreHash` (the library
//! hashes), SHA-2 ones as `Digest` with the digest from the independent
//! `sha2` crate, so both modes are exercised. Every signature made is also
//! verified.
//!
//! Formats:
//!
//! * NIST ACVP `SLH-DSA-keyGen-FIPS205` (prompt + expected results; the
//!   `internalProjection.json` next to them must hold the same tests),
//!   `SLH-DSA-sigGen-FIPS205` (prompt + expected results: every group,
//!   external pure / pre-hash and internal, deterministic and hedged),
//!   the legacy `SLH-DSA-sigVer-FIPS205-v1.1.0.35` projection (internal
//!   verification, `testPassed`). The FIPS205 sigVer folder holds only
//!   `expectedResults.json` (its prompt was not obtainable): its tests are
//!   counted as skipped, with that reason.
//! * Signing the `s` sets is slow (0.1 to 1 s a signature): by default two
//!   sigGen tests per `s`-set group are checked and the rest reported as
//!   skipped; `PQFORGE_FULL=1` checks every test.
//! * BoringSSL `slhdsa_*_keygen.txt` (seed → pub, priv), `_siggen.txt`
//!   (internal interface, opt_rand = `entropy`), `_sigver.txt` (internal
//!   verification, `valid`), `_prehash.txt` (HashSLH-DSA verification of a
//!   given digest, with context).
//! * OpenSSL `evppkey_slh_dsa_keygen.txt` (`hexseed` → `hexpub`,
//!   `hexpriv`).

use std::path::Path;

use pqforge::slhdsa::hazmat::{slh_sign_internal, slh_verify_internal};
use pqforge::slhdsa::params::ParameterSet;
use pqforge::slhdsa::{
    SlhDsaSha2_128f, SlhDsaSha2_128s, SlhDsaSha2_192f, SlhDsaSha2_192s, SlhDsaSha2_256f,
    SlhDsaSha2_256s, SlhDsaShake128f, SlhDsaShake128s, SlhDsaShake192f, SlhDsaShake192s,
    SlhDsaShake256f, SlhDsaShake256s,
};
use pqforge::{Algorithm, DynSig, HashAlg, SignOptions};
use serde_json::Value;

use super::common::{
    Fail, FixedRnd, Tally, bad, blocks, cmp, contains, dir_name, hash_alg, hex_field, judge,
    need_hex, parse_json, refused, same_tests, sha2_digest, unhex, with_expected,
};
use super::{Counts, Ctx};
use crate::Failure;

/// Handles every SLH-DSA vector file; `None` for anything else.
pub(crate) fn handle(
    path: &Path,
    bytes: &[u8],
    _ctx: &Ctx,
) -> Option<Result<Vec<Counts>, Failure>> {
    let name = path.file_name()?.to_str()?;
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "json" => {
            let head = &bytes[..bytes.len().min(400)];
            let acvp_name = matches!(
                name,
                "internalProjection.json" | "prompt.json" | "expectedResults.json"
            );
            (acvp_name
                && (contains(head, b"\"SLH-DSA\"")
                    || dir_name(path.parent()).starts_with("SLH-DSA-")))
            .then(|| acvp(path, name, bytes))
        }
        "txt" => {
            if let Some(rest) = name.strip_prefix("slhdsa_") {
                let (set, kind) = boringssl_name(rest)?;
                return Some(boringssl(path, bytes, set, kind));
            }
            (name == "evppkey_slh_dsa_keygen.txt").then(|| evp_keygen(path, bytes))
        }
        _ => None,
    }
}

// ------------------------------------------------------------------ sets

/// One of the twelve parameter sets, by its index in [`Set::LABELS`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Set(usize);

/// Calls `$f::<P>($args)` with `P` the parameter-set type of `$set`.
macro_rules! with_set {
    ($set:expr, $f:ident($($arg:expr),*)) => {
        match $set.0 {
            0 => $f::<SlhDsaSha2_128s>($($arg),*),
            1 => $f::<SlhDsaSha2_128f>($($arg),*),
            2 => $f::<SlhDsaSha2_192s>($($arg),*),
            3 => $f::<SlhDsaSha2_192f>($($arg),*),
            4 => $f::<SlhDsaSha2_256s>($($arg),*),
            5 => $f::<SlhDsaSha2_256f>($($arg),*),
            6 => $f::<SlhDsaShake128s>($($arg),*),
            7 => $f::<SlhDsaShake128f>($($arg),*),
            8 => $f::<SlhDsaShake192s>($($arg),*),
            9 => $f::<SlhDsaShake192f>($($arg),*),
            10 => $f::<SlhDsaShake256s>($($arg),*),
            _ => $f::<SlhDsaShake256f>($($arg),*),
        }
    };
}

impl Set {
    /// The ACVP names, in [`with_set!`] order.
    const LABELS: [&'static str; 12] = [
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

    /// `"SLH-DSA-SHAKE-256f"` (ACVP, OpenSSL).
    fn parse(s: &str) -> Option<Set> {
        Set::LABELS.iter().position(|l| *l == s).map(Set)
    }

    /// The registry name, `"slh-dsa-shake-256f"`.
    fn alg(self) -> String {
        Set::LABELS[self.0].to_ascii_lowercase()
    }

    /// The small-signature sets, whose signing is slow.
    fn slow(self) -> bool {
        Set::LABELS[self.0].ends_with('s')
    }

    fn dyn_sig(self) -> &'static dyn DynSig {
        self.alg()
            .parse::<Algorithm>()
            .ok()
            .and_then(Algorithm::sig)
            .expect("feature slhdsa-vectors builds SLH-DSA into the registry")
    }

    fn n(self) -> usize {
        self.dyn_sig().info().pk_bytes / 2
    }
}

// ------------------------------------------------------------------ operations

/// What a signature is over.
#[derive(Clone, Copy)]
enum Msg<'a> {
    /// SLH-DSA: M, with the context.
    Pure(&'a [u8]),
    /// HashSLH-DSA: M, hashed here (SHA-2) or by the library, with the context.
    PreHash(HashAlg, &'a [u8]),
    /// HashSLH-DSA of a digest computed elsewhere.
    Digest(HashAlg, &'a [u8]),
    /// The internal interface on M′ itself.
    Internal(&'a [u8]),
}

/// The message argument and options of a contract call.
fn contract_call<'a>(
    m: Msg<'a>,
    ctx: &'a [u8],
    deterministic: bool,
) -> Option<(std::borrow::Cow<'a, [u8]>, SignOptions<'a>)> {
    use std::borrow::Cow;
    let o = SignOptions::new().with_context(ctx);
    let o = if deterministic { o.deterministic() } else { o };
    Some(match m {
        Msg::Pure(m) => (Cow::Borrowed(m), o),
        Msg::PreHash(h, m) => match sha2_digest(h, m) {
            Some(d) => (Cow::Owned(d), o.with_digest(h)),
            None => (Cow::Borrowed(m), o.with_prehash(h)),
        },
        Msg::Digest(h, d) => (Cow::Borrowed(d), o.with_digest(h)),
        Msg::Internal(_) => return None,
    })
}

fn sign_internal_p<P: ParameterSet>(sk: &[u8], m: &[u8], addrnd: &[u8]) -> Result<Vec<u8>, Fail> {
    let mut sig = vec![0u8; P::SIG_BYTES];
    slh_sign_internal::<P>(&[m], sk, addrnd, &mut sig).map_err(refused)?;
    Ok(sig)
}

fn verify_internal_p<P: ParameterSet>(pk: &[u8], m: &[u8], sig: &[u8]) -> bool {
    slh_verify_internal::<P>(&[m], sig, pk)
}

/// Signs; `rnd` is opt_rand (`None`: deterministic, opt_rand = PK.seed).
fn sign(set: Set, sk: &[u8], m: Msg<'_>, ctx: &[u8], rnd: Option<&[u8]>) -> Result<Vec<u8>, Fail> {
    let s = set.dyn_sig();
    if let Msg::Internal(m) = m {
        s.check_sk(sk).map_err(refused)?;
        let n = set.n();
        let addrnd = rnd.unwrap_or(&sk[2 * n..3 * n]);
        return with_set!(set, sign_internal_p(sk, m, addrnd));
    }
    let (msg, opts) = contract_call(m, ctx, rnd.is_none()).expect("not internal");
    let mut rng = FixedRnd { rnd, drawn: 0 };
    let mut sig = vec![0u8; s.info().sig_bytes];
    let len = s
        .sign(&mut rng, sk, &msg, &opts, &mut sig)
        .map_err(refused)?;
    let want = rnd.map_or(0, <[u8]>::len);
    if rng.drawn != want {
        return Err(Fail::Mismatch(format!(
            "signing drew {} random bytes, expected {want}",
            rng.drawn
        )));
    }
    sig.truncate(len);
    Ok(sig)
}

/// Verifies: `Ok` accepted, `Rejected` refused.
fn verify(set: Set, pk: &[u8], m: Msg<'_>, ctx: &[u8], sig: &[u8]) -> Result<(), Fail> {
    let s = set.dyn_sig();
    if let Msg::Internal(m) = m {
        s.check_vk(pk).map_err(refused)?;
        return if with_set!(set, verify_internal_p(pk, m, sig)) {
            Ok(())
        } else {
            Err(Fail::Rejected("signature not accepted".into()))
        };
    }
    let (msg, opts) = contract_call(m, ctx, false).expect("not internal");
    s.verify(pk, &msg, &opts, sig).map_err(refused)
}

/// The public key inside a private key (after the key checks).
fn public_of(set: Set, sk: &[u8]) -> Result<Vec<u8>, Fail> {
    let s = set.dyn_sig();
    let mut pk = vec![0u8; s.info().pk_bytes];
    s.verifying_key(sk, &mut pk).map_err(refused)?;
    Ok(pk)
}

/// SK.seed‖SK.prf‖PK.seed → pk, sk through the contract, compared; the
/// public key read back from the private key too.
fn check_keygen(set: Set, seed: &[u8], pk: &[u8], sk: &[u8]) -> Result<(), Fail> {
    let s = set.dyn_sig();
    let i = s.info();
    let (mut gpk, mut gsk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    s.keygen_derand(seed, &mut gpk, &mut gsk).map_err(refused)?;
    cmp("pk", &gpk, Some(pk))?;
    cmp("sk", &gsk, Some(sk))?;
    cmp("pk from sk", &public_of(set, sk)?, Some(pk))
}

/// Signs, compares with the expected signature (if any), then verifies
/// what was made under the public key of `sk`.
fn check_sign(
    set: Set,
    sk: &[u8],
    m: Msg<'_>,
    ctx: &[u8],
    rnd: Option<&[u8]>,
    want: Option<&[u8]>,
) -> Result<(), Fail> {
    let sig = sign(set, sk, m, ctx, rnd)?;
    cmp("signature", &sig, want)?;
    let pk = public_of(set, sk)?;
    verify(set, &pk, m, ctx, &sig).map_err(|e| match e {
        Fail::Rejected(e) => Fail::Mismatch(format!("own signature not accepted: {e}")),
        m @ Fail::Mismatch(_) => m,
    })
}

// ------------------------------------------------------------------ ACVP

fn acvp(path: &Path, name: &str, bytes: &[u8]) -> Result<Vec<Counts>, Failure> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let prompt = dir.join("prompt.json");
    match name {
        "expectedResults.json" if prompt.is_file() => Ok(vec![Counts::covered(
            "slh-dsa (expected results: counted with prompt.json)",
        )]),
        "expectedResults.json" => {
            // Answers without questions: count the tests, check none.
            let v = parse_json(path, bytes)?;
            let n: usize = groups(path, &v)?
                .iter()
                .map(|g| g.get("tests").and_then(Value::as_array).map_or(0, Vec::len))
                .sum();
            let mut c = Counts::new("slh-dsa");
            c.skip(
                n,
                "expected results without their prompt.json (not obtainable, see PROVENANCE.md)",
            );
            Ok(vec![c])
        }
        "internalProjection.json" if prompt.is_file() => {
            let proj = parse_json(path, bytes)?;
            let pbytes =
                std::fs::read(&prompt).map_err(|e| bad(&prompt, format!("cannot read: {e}")))?;
            let merged = with_expected(&prompt, &pbytes)?;
            let mut c = Counts::covered(
                "slh-dsa (same tests as prompt.json + expectedResults.json: counted there)",
            );
            if let Err(e) = same_tests(&merged, &proj) {
                c.record(false, || {
                    format!("differs from prompt.json + expectedResults.json: {e}")
                });
            }
            Ok(vec![c])
        }
        "internalProjection.json" => {
            let proj = parse_json(path, bytes)?;
            acvp_run(path, &proj)
        }
        _ => {
            let merged = with_expected(path, bytes)?;
            acvp_run(path, &merged)
        }
    }
}

fn groups<'a>(path: &Path, v: &'a Value) -> Result<&'a Vec<Value>, Failure> {
    v.get("testGroups")
        .and_then(Value::as_array)
        .ok_or_else(|| bad(path, "no testGroups"))
}

/// `PQFORGE_FULL=1`: every slow test too.
fn full() -> bool {
    std::env::var("PQFORGE_FULL").is_ok_and(|v| v == "1")
}

/// How many sigGen tests of each `s`-set group the default run checks.
const SAMPLE: usize = 2;

fn acvp_run(path: &Path, v: &Value) -> Result<Vec<Counts>, Failure> {
    let alg = v.get("algorithm").and_then(Value::as_str).unwrap_or("");
    let mode = v.get("mode").and_then(Value::as_str).unwrap_or("");
    if alg != "SLH-DSA" || !matches!(mode, "keyGen" | "sigGen" | "sigVer") {
        return Err(bad(path, format!("unknown ACVP {alg:?} mode {mode:?}")));
    }
    let full = full();
    let mut tally = Tally::new();
    for g in groups(path, v)? {
        let ps = g.get("parameterSet").and_then(Value::as_str).unwrap_or("");
        let set = Set::parse(ps).ok_or_else(|| bad(path, format!("parameter set {ps:?}")))?;
        let tg = g.get("tgId").and_then(Value::as_u64).unwrap_or(0);
        for (i, t) in g
            .get("tests")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let tc = t.get("tcId").map_or_else(String::new, |v| match v {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            });
            let id = format!("tgId {tg} tcId {tc}");
            if mode == "sigGen" && set.slow() && !full && i >= SAMPLE {
                tally.get(&set.alg()).skip(
                    1,
                    format!("s set: {SAMPLE} sigGen tests per group by default, PQFORGE_FULL=1 checks all"),
                );
                continue;
            }
            let (r, expect) =
                acvp_case(mode, set, g, t).map_err(|e| bad(path, format!("{id}: {e}")))?;
            tally.record(&set.alg(), &id, judge(r, Some(expect)));
        }
    }
    Ok(tally.done())
}

/// An ACVP boolean: `true` or `"True"`.
fn flag(v: Option<&Value>) -> Option<bool> {
    match v? {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Some(true),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Some(false),
        _ => None,
    }
}

/// One ACVP test: its outcome and whether it should pass.
fn acvp_case(
    mode: &str,
    set: Set,
    g: &Value,
    t: &Value,
) -> Result<(Result<(), Fail>, bool), String> {
    match mode {
        "keyGen" => {
            let mut seed = need_hex(t, "skSeed")?;
            seed.extend(need_hex(t, "skPrf")?);
            seed.extend(need_hex(t, "pkSeed")?);
            let (pk, sk) = (need_hex(t, "pk")?, need_hex(t, "sk")?);
            Ok((check_keygen(set, &seed, &pk, &sk), true))
        }
        "sigGen" => {
            let sk = need_hex(t, "sk")?;
            let msg = need_hex(t, "message")?;
            let ctx = hex_field(t, "context")?.unwrap_or_default();
            let want = need_hex(t, "signature")?;
            let deterministic = flag(g.get("deterministic")).ok_or("no `deterministic`")?;
            let rnd = if deterministic {
                None
            } else {
                Some(need_hex(t, "additionalRandomness")?)
            };
            let iface = g.get("signatureInterface").and_then(Value::as_str);
            let pre = g.get("preHash").and_then(Value::as_str);
            let m = match (iface, pre) {
                (Some("internal"), _) => Msg::Internal(&msg),
                (Some("external"), Some("pure")) => Msg::Pure(&msg),
                (Some("external"), Some("preHash")) => {
                    let h = t
                        .get("hashAlg")
                        .and_then(Value::as_str)
                        .ok_or("no `hashAlg`")?;
                    Msg::PreHash(hash_alg(h)?, &msg)
                }
                other => return Err(format!("unknown interface {other:?}")),
            };
            Ok((
                check_sign(set, &sk, m, &ctx, rnd.as_deref(), Some(&want)),
                true,
            ))
        }
        _ => {
            // Legacy sigVer (v1.1.0.35): internal interface only.
            let pk = need_hex(t, "pk")?;
            let msg = need_hex(t, "message")?;
            let sig = need_hex(t, "signature")?;
            let expect = flag(t.get("testPassed")).ok_or("no `testPassed`")?;
            if let Some(sk) = hex_field(t, "sk")? {
                // The key pair must be consistent, whatever the signature.
                cmp(
                    "pk from sk",
                    &public_of(set, &sk).map_err(|_| "bad sk")?,
                    Some(&pk),
                )
                .map_err(|_| "sk and pk disagree")?;
            }
            Ok((verify(set, &pk, Msg::Internal(&msg), &[], &sig), expect))
        }
    }
}

// ------------------------------------------------------------------ BoringSSL

#[derive(Clone, Copy)]
enum BsKind {
    Keygen,
    Siggen,
    Sigver,
    Prehash,
}

/// `sha2_128s_keygen.txt` → (SLH-DSA-SHA2-128s, keygen).
fn boringssl_name(rest: &str) -> Option<(Set, BsKind)> {
    let stem = rest.strip_suffix(".txt")?;
    let (set, kind) = stem.rsplit_once('_')?;
    let (family, level) = set.split_once('_')?;
    let label = format!("SLH-DSA-{}-{level}", family.to_ascii_uppercase());
    let kind = match kind {
        "keygen" => BsKind::Keygen,
        "siggen" => BsKind::Siggen,
        "sigver" => BsKind::Sigver,
        "prehash" => BsKind::Prehash,
        _ => return None,
    };
    Some((Set::parse(&label)?, kind))
}

/// BoringSSL's hash names (`SHA-256`, `SHA-384`).
fn bs_hash(name: &str) -> Result<HashAlg, String> {
    match name {
        "SHA-224" => Ok(HashAlg::Sha2_224),
        "SHA-256" => Ok(HashAlg::Sha2_256),
        "SHA-384" => Ok(HashAlg::Sha2_384),
        "SHA-512" => Ok(HashAlg::Sha2_512),
        other => hash_alg(other),
    }
}

fn boringssl(path: &Path, bytes: &[u8], set: Set, kind: BsKind) -> Result<Vec<Counts>, Failure> {
    let text = std::str::from_utf8(bytes).map_err(|_| bad(path, "not UTF-8"))?;
    let mut c = Counts::new(set.alg());
    for (i, b) in blocks(text, ':').into_iter().enumerate() {
        let raw = |k: &str| -> Result<&str, Failure> {
            b.iter()
                .find(|(key, _)| *key == k)
                .map(|(_, v)| *v)
                .ok_or_else(|| bad(path, format!("block {}: no `{k}`", i + 1)))
        };
        let get = |k: &str| -> Result<Vec<u8>, Failure> {
            unhex(raw(k)?).map_err(|e| bad(path, format!("block {}: {k}: {e}", i + 1)))
        };
        let (r, expect) = match kind {
            BsKind::Keygen => (
                check_keygen(set, &get("seed")?, &get("pub")?, &get("priv")?),
                true,
            ),
            BsKind::Siggen => {
                let (sk, msg, rnd) = (get("priv")?, get("msg")?, get("entropy")?);
                let want = get("sig")?;
                (
                    check_sign(set, &sk, Msg::Internal(&msg), &[], Some(&rnd), Some(&want)),
                    true,
                )
            }
            BsKind::Sigver => {
                let valid = raw("valid")?;
                let (pk, msg, sig) = (get("pub")?, get("msg")?, get("sig")?);
                (
                    verify(set, &pk, Msg::Internal(&msg), &[], &sig),
                    valid == "true",
                )
            }
            BsKind::Prehash => {
                let h = bs_hash(raw("hash")?).map_err(|e| bad(path, e))?;
                let (pk, digest, ctx, sig) =
                    (get("pub")?, get("msg")?, get("context")?, get("sig")?);
                (verify(set, &pk, Msg::Digest(h, &digest), &ctx, &sig), true)
            }
        };
        let r = judge(r, Some(expect));
        c.record(r.is_ok(), || {
            format!("block {}: {}", i + 1, r.err().unwrap_or_default())
        });
    }
    Ok(vec![c])
}

// ------------------------------------------------------------------ OpenSSL

/// `evppkey_slh_dsa_keygen.txt`: `KeyGen = <set>`, `Ctrl = hexseed:…`,
/// `CtrlOut = hexpub:…` / `hexpriv:…`.
fn evp_keygen(path: &Path, bytes: &[u8]) -> Result<Vec<Counts>, Failure> {
    let text = std::str::from_utf8(bytes).map_err(|_| bad(path, "not UTF-8"))?;
    let mut tally = Tally::new();
    for (i, st) in blocks(text, '=').into_iter().enumerate() {
        let Some(&(_, alg)) = st.iter().find(|(k, _)| *k == "KeyGen") else {
            continue;
        };
        let set = Set::parse(alg).ok_or_else(|| bad(path, format!("stanza {}: {alg:?}", i + 1)))?;
        let ctrl = |key: &str| -> Result<Vec<u8>, Failure> {
            let v = st
                .iter()
                .filter(|(k, _)| *k == "Ctrl" || *k == "CtrlOut")
                .find_map(|(_, v)| v.strip_prefix(key)?.strip_prefix(':'))
                .ok_or_else(|| bad(path, format!("stanza {}: no {key}", i + 1)))?;
            unhex(v).map_err(|e| bad(path, format!("stanza {}: {key}: {e}", i + 1)))
        };
        let r = check_keygen(set, &ctrl("hexseed")?, &ctrl("hexpub")?, &ctrl("hexpriv")?);
        let id = format!("stanza {}", i + 1);
        tally.record(&set.alg(), &id, judge(r, Some(true)));
    }
    Ok(tally.done())
}
