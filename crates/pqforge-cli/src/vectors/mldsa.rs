//! ML-DSA (FIPS 204) vector formats.
//!
//! Every check goes through the signature contract's dynamic API
//! ([`DynSig`] from the registry: key generation from ξ, key checks, the
//! verifying key of an expanded key, signing and verification with
//! [`SignOptions`]: context, HashML-DSA, external μ, deterministic or with a
//! given `rnd`), except where the contract has no such mode:
//!
//! * the internal interface on a raw M′ (ACVP `signatureInterface:
//!   internal` without external μ, BoringSSL `siggen`): the crate's
//!   `Sign_internal` / `Verify_internal` ([`pqforge::mldsa::hazmat::sign_internal`],
//!   [`pqforge::mldsa::hazmat::verify_internal`] with `Message::Prime`), after the
//!   contract's key check;
//! * the CCTV field-operation hash: [`pqforge::mldsa::hazmat`] (Power2Round,
//!   Decompose, UseHint);
//! * the OpenSSL μ digest: the verifying-key state (tr) and core's μ
//!   ([`pqforge_core::sig::mu::mu`], what the contract signs over).
//!
//! HashML-DSA: SHA-3 / SHAKE pre-hashes go in as
//! [`pqforge::MessageMode::PreHash`] (the library hashes), SHA-2 ones as
//! [`pqforge::MessageMode::Digest`] with the digest computed here (`sha2`
//! crate; core's `HashAlg::digest` has no SHA-2 yet), so both modes are
//! exercised. Every signature made is also verified with the same options,
//! under the public key recomputed from the expanded key (or the given one).
//!
//! Formats:
//!
//! * NIST ACVP `ML-DSA-keyGen-FIPS204`, `-sigGen-`, `-sigVer-`:
//!   `prompt.json` joined with `expectedResults.json` (required). keyGen: ξ
//!   → pk and the expanded sk (and pk again from that sk); sigGen: every
//!   group (external pure and pre-hash with context, internal with external
//!   μ or raw M′, deterministic or hedged); sigVer: `testPassed` of every
//!   group. An `internalProjection.json` next to a `prompt.json` is checked
//!   to hold the same tests and answers and is counted there (so a
//!   directory run counts each test once); alone, it is run itself.
//! * Wycheproof `mldsa_*_verify_test.json` (a wrong-length key fails every
//!   test of its group), `mldsa_*_sign_seed_test.json` (ξ, public key
//!   compared) and `mldsa_*_sign_noseed_test.json` (expanded key): `msg`
//!   with `ctx`, or only `mu` (external μ); `rnd` absent = deterministic;
//!   `invalid` cases (bad key length or range, context over 255 bytes)
//!   must be refused with an error. A test with both `msg` and `mu` also
//!   verifies under external μ.
//! * C2SP CCTV: the ML-DSA section of `accumulated-hashes.json` (100 and
//!   10 000 iterations of KeyGen + deterministic Sign + Verify, and the
//!   exhaustive field-operation hash; the 60 000 000-iteration values are
//!   reported as skipped, 5 to 17 hours of CPU time per set, unless
//!   `PQFORGE_FULL=1`).
//!   `ML-DSA/benchmark/*.json` (signing-time benchmark messages) carry no
//!   expected values: each message is signed (deterministic, empty
//!   context, key from the all-zero ξ) and the signature verified, a
//!   round-trip check labelled as such.
//! * BoringSSL `mldsa_nist_keygen_{44,65,87}_tests.txt` (ξ → pub, priv) and
//!   `mldsa_nist_siggen_{44,65,87}_tests.txt` (internal interface on M′,
//!   deterministic).
//! * OpenSSL `evp_test` files `evppkey_ml_dsa_*.txt` (KeyGen,
//!   Sign-Message / Verify-Message-Public with message-encoding,
//!   context, deterministic or test entropy, external μ; KeyFromData that
//!   must fail; every stanza runs, including those the file repeats for
//!   later provider versions) and `evpmd_ml_dsa_mu.txt` (μ).
//! * OpenSSL `15-test_ml_dsa_codecs_data`: the `openssl pkey -text` dumps
//!   (`prv-N-seed.txt`: ξ → priv, pub; `prv-N-priv.txt`: priv → pub;
//!   `pub-N.txt`; all equal to KeyGen(ξ = 00 01 … 1f), the recipe's key)
//!   and `sig-N.dat` (the deterministic pure signature, empty context, of
//!   the DER of `pub-N.pem`, which must be next to it). The `.pem` files
//!   (PKCS#8 / SubjectPublicKeyInfo) are run by the key-file handler
//!   (`keyfiles.rs`).

use std::borrow::Cow;
use std::path::Path;

use pqforge::keccak::Shake128;
use pqforge::mldsa::hazmat::{self, Message};
use pqforge::mldsa::params::{ParameterSet, Q};
use pqforge::mldsa::{MlDsa44, MlDsa65, MlDsa87, MlDsaVkState};
use pqforge::{Algorithm, DynSig, Error, HashAlg, SignOptions, SignatureScheme};
use serde_json::Value;

use super::common::{
    Fail, FixedRnd, Tally, bad, blocks, cmp, contains, dir_name, evp_bytes, hash_alg, hex_field,
    judge, need_hex, parse_json, refused, same_tests, sha2_digest, unhex, with_expected,
};
use super::{Counts, Ctx};
use crate::Failure;

/// Handles every ML-DSA vector file; `None` for anything else.
pub(crate) fn handle(
    path: &Path,
    bytes: &[u8],
    _ctx: &Ctx,
) -> Option<Result<Vec<Counts>, Failure>> {
    let name = path.file_name()?.to_str()?;
    let parent = dir_name(path.parent());
    let grandparent = dir_name(path.parent().and_then(Path::parent));
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext {
        "json" => {
            if name == "accumulated-hashes.json" {
                return contains(bytes, b"\"ML-DSA\"").then(|| accumulated(path, bytes));
            }
            if grandparent == "ML-DSA" && parent == "benchmark" {
                let set = Set::from_name(name.strip_prefix("ML-DSA-")?)?;
                return Some(benchmark(path, bytes, set));
            }
            if !contains(&bytes[..bytes.len().min(400)], b"\"ML-DSA") {
                return None;
            }
            if name.starts_with("mldsa_") {
                return Some(wycheproof(path, bytes));
            }
            if matches!(
                name,
                "internalProjection.json" | "prompt.json" | "expectedResults.json"
            ) {
                return Some(acvp(path, name, bytes));
            }
            None
        }
        "txt" => {
            if let Some(rest) = name.strip_prefix("mldsa_nist_") {
                let set = Set::from_name(rest.split('_').nth(1)?)?;
                return Some(boringssl(path, bytes, rest.starts_with("keygen_"), set));
            }
            if name.starts_with("evppkey_ml_dsa_") || name == "evpmd_ml_dsa_mu.txt" {
                return Some(evp(path, bytes));
            }
            if bytes.starts_with(b"ML-DSA-") {
                return Some(codec_text(path, bytes));
            }
            None
        }
        "dat" => {
            let set = Set::from_name(name.strip_prefix("sig-")?)?;
            (bytes.len() == set.dyn_sig().info().sig_bytes)
                .then(|| codec_signature(path, bytes, set))
        }
        _ => None,
    }
}

// ------------------------------------------------------------------ sets

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Set {
    D44,
    D65,
    D87,
}

impl Set {
    const ALL: [Set; 3] = [Set::D44, Set::D65, Set::D87];

    /// `"ML-DSA-65"`.
    fn parse(s: &str) -> Option<Set> {
        Set::from_name(s.strip_prefix("ML-DSA-")?)
    }

    /// A name that starts with the level: `"65"`, `"65.alt.json"`, `"65-seed.txt"`.
    fn from_name(s: &str) -> Option<Set> {
        let level: String = s.chars().take_while(char::is_ascii_digit).collect();
        match level.as_str() {
            "44" => Some(Set::D44),
            "65" => Some(Set::D65),
            "87" => Some(Set::D87),
            _ => None,
        }
    }

    fn alg(self) -> &'static str {
        match self {
            Set::D44 => "ml-dsa-44",
            Set::D65 => "ml-dsa-65",
            Set::D87 => "ml-dsa-87",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Set::D44 => "ML-DSA-44",
            Set::D65 => "ML-DSA-65",
            Set::D87 => "ML-DSA-87",
        }
    }

    /// The set's signature interface, from the registry.
    fn dyn_sig(self) -> &'static dyn DynSig {
        self.alg()
            .parse::<Algorithm>()
            .ok()
            .and_then(Algorithm::sig)
            .expect("feature mldsa-vectors builds ML-DSA into the registry")
    }
}

// ------------------------------------------------------------------ bytes

fn rnd32(v: &[u8]) -> Result<[u8; 32], String> {
    v.try_into()
        .map_err(|_| format!("rnd has {} bytes, expected 32", v.len()))
}

/// The body of a PEM file, base64-decoded.
fn pem_body(bytes: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(bytes).ok()?;
    if !text.starts_with("-----BEGIN ") {
        return None;
    }
    let b64: String = text
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .flat_map(str::chars)
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut out = Vec::with_capacity(b64.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in b64.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

// ------------------------------------------------------------------ checks

/// What a signature is over.
#[derive(Clone, Copy)]
enum Msg<'a> {
    /// ML-DSA: M, with the context.
    Pure(&'a [u8]),
    /// HashML-DSA: M, pre-hashed with the function, with the context.
    PreHash(HashAlg, &'a [u8]),
    /// External μ (64 bytes).
    Mu(&'a [u8]),
    /// The internal interface on M′ itself.
    Internal(&'a [u8]),
}

/// The message argument and options of a contract call, or the raw M′.
enum Call<'a> {
    Contract(Cow<'a, [u8]>, SignOptions<'a>),
    Internal(&'a [u8]),
}

fn call<'a>(m: Msg<'a>, ctx: &'a [u8], deterministic: bool) -> Call<'a> {
    let o = SignOptions::new().with_context(ctx);
    let o = if deterministic { o.deterministic() } else { o };
    match m {
        Msg::Pure(m) => Call::Contract(Cow::Borrowed(m), o),
        Msg::PreHash(h, m) => match sha2_digest(h, m) {
            Some(d) => Call::Contract(Cow::Owned(d), o.with_digest(h)),
            None => Call::Contract(Cow::Borrowed(m), o.with_prehash(h)),
        },
        Msg::Mu(mu) => Call::Contract(Cow::Borrowed(mu), o.with_external_mu()),
        Msg::Internal(m) => Call::Internal(m),
    }
}

fn sign_internal_p<P: ParameterSet>(sk: &[u8], m: &[u8], rnd: &[u8; 32]) -> Vec<u8> {
    let mut sig = vec![0u8; P::SIG_BYTES];
    if hazmat::sign_internal::<P>(sk, Message::Prime(m), rnd, &mut sig).is_err() {
        // The key was checked before: unreachable; an empty signature
        // fails the comparison.
        sig.clear();
    }
    sig
}

fn verify_internal_p<P: ParameterSet>(pk: &[u8], m: &[u8], sig: &[u8]) -> bool {
    hazmat::verify_internal::<P>(pk, Message::Prime(m), sig)
}

/// Signs; `rnd` `None` = deterministic.
fn sign(
    set: Set,
    sk: &[u8],
    m: Msg<'_>,
    ctx: &[u8],
    rnd: Option<[u8; 32]>,
) -> Result<Vec<u8>, Fail> {
    let s = set.dyn_sig();
    match call(m, ctx, rnd.is_none()) {
        Call::Contract(msg, opts) => {
            let mut rng = FixedRnd {
                rnd: rnd.as_ref().map(|r| &r[..]),
                drawn: 0,
            };
            let mut sig = vec![0u8; s.info().sig_bytes];
            let n = s
                .sign(&mut rng, sk, &msg, &opts, &mut sig)
                .map_err(refused)?;
            let want = if rnd.is_some() { 32 } else { 0 };
            if rng.drawn != want {
                return Err(Fail::Mismatch(format!(
                    "signing drew {} random bytes, expected {want}",
                    rng.drawn
                )));
            }
            sig.truncate(n);
            Ok(sig)
        }
        Call::Internal(m) => {
            // The contract's key checks (length, s1/s2 range) first.
            s.check_sk(sk).map_err(refused)?;
            let rnd = rnd.unwrap_or([0; 32]);
            Ok(match set {
                Set::D44 => sign_internal_p::<MlDsa44>(sk, m, &rnd),
                Set::D65 => sign_internal_p::<MlDsa65>(sk, m, &rnd),
                Set::D87 => sign_internal_p::<MlDsa87>(sk, m, &rnd),
            })
        }
    }
}

/// Verifies: `Ok` accepted, `Rejected` refused.
fn verify(set: Set, pk: &[u8], m: Msg<'_>, ctx: &[u8], sig: &[u8]) -> Result<(), Fail> {
    match call(m, ctx, false) {
        Call::Contract(msg, opts) => set.dyn_sig().verify(pk, &msg, &opts, sig).map_err(refused),
        Call::Internal(m) => {
            set.dyn_sig().check_vk(pk).map_err(refused)?;
            let ok = match set {
                Set::D44 => verify_internal_p::<MlDsa44>(pk, m, sig),
                Set::D65 => verify_internal_p::<MlDsa65>(pk, m, sig),
                Set::D87 => verify_internal_p::<MlDsa87>(pk, m, sig),
            };
            if ok {
                Ok(())
            } else {
                Err(Fail::Rejected("signature not accepted".into()))
            }
        }
    }
}

/// KeyGen_internal(ξ) through the contract: (pk, expanded sk).
fn keygen(set: Set, seed: &[u8]) -> Result<(Vec<u8>, Vec<u8>), Fail> {
    let s = set.dyn_sig();
    let i = s.info();
    let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    s.keygen_derand(seed, &mut pk, &mut sk).map_err(refused)?;
    Ok((pk, sk))
}

/// The verifying key of an expanded key (after the key checks).
fn public_of(set: Set, sk: &[u8]) -> Result<Vec<u8>, Fail> {
    let s = set.dyn_sig();
    let mut pk = vec![0u8; s.info().pk_bytes];
    s.verifying_key(sk, &mut pk).map_err(refused)?;
    Ok(pk)
}

/// ξ → pk, sk, compared with what is given; pk recomputed from sk.
fn check_keygen(set: Set, seed: &[u8], pk: Option<&[u8]>, sk: Option<&[u8]>) -> Result<(), Fail> {
    let (gpk, gsk) = keygen(set, seed)?;
    cmp("pk", &gpk, pk)?;
    cmp("sk", &gsk, sk)?;
    cmp(
        "pk (from the expanded sk)",
        &public_of(set, &gsk)?,
        Some(&gpk),
    )
}

/// A private key as a vector gives it.
#[derive(Clone, Copy)]
enum Key<'a> {
    Seed(&'a [u8]),
    Expanded(&'a [u8]),
}

/// One signing vector.
struct SignCase<'a> {
    key: Key<'a>,
    /// Public key to compare with the one derived from the private key.
    pk: Option<&'a [u8]>,
    msg: Msg<'a>,
    ctx: &'a [u8],
    /// `None`: deterministic.
    rnd: Option<[u8; 32]>,
    sig: Option<&'a [u8]>,
    /// μ of the same message, when the vector gives it: the signature must
    /// also verify under external μ.
    mu: Option<&'a [u8]>,
}

/// Signs as the case asks, compares, then verifies the signature with the
/// same options.
fn check_sign(set: Set, c: &SignCase<'_>) -> Result<(), Fail> {
    let (pk, sk) = match c.key {
        Key::Seed(seed) => keygen(set, seed)?,
        Key::Expanded(sk) => (public_of(set, sk)?, sk.to_vec()),
    };
    cmp("public key", &pk, c.pk)?;
    let sig = sign(set, &sk, c.msg, c.ctx, c.rnd)?;
    cmp("signature", &sig, c.sig)?;
    let own = |r: Result<(), Fail>, how: &str| {
        r.map_err(|e| match e {
            Fail::Rejected(e) => Fail::Mismatch(format!("own signature not accepted{how}: {e}")),
            m @ Fail::Mismatch(_) => m,
        })
    };
    own(verify(set, &pk, c.msg, c.ctx, &sig), "")?;
    if let Some(mu) = c.mu {
        own(
            verify(set, &pk, Msg::Mu(mu), &[], &sig),
            " under external mu",
        )?;
    }
    Ok(())
}

// ------------------------------------------------------------------ ACVP

fn acvp(path: &Path, name: &str, bytes: &[u8]) -> Result<Vec<Counts>, Failure> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let prompt = dir.join("prompt.json");
    match name {
        "expectedResults.json" => {
            if !prompt.is_file() {
                return Err(bad(path, "no prompt.json next to it"));
            }
            Ok(vec![Counts::covered(
                "ml-dsa (expected results: counted with prompt.json)",
            )])
        }
        "internalProjection.json" => {
            let proj = parse_json(path, bytes)?;
            if !prompt.is_file() {
                return acvp_run(path, &proj);
            }
            let bytes =
                std::fs::read(&prompt).map_err(|e| bad(&prompt, format!("cannot read: {e}")))?;
            let merged = with_expected(&prompt, &bytes)?;
            let mut c = Counts::covered(
                "ml-dsa (same tests as prompt.json + expectedResults.json: counted there)",
            );
            if let Err(e) = same_tests(&merged, &proj) {
                c.record(false, || {
                    format!("differs from prompt.json + expectedResults.json: {e}")
                });
            }
            Ok(vec![c])
        }
        _ => {
            let merged = with_expected(path, bytes)?;
            acvp_run(path, &merged)
        }
    }
}

/// Runs merged ACVP tests (prompt + expected results, or a projection).
fn acvp_run(path: &Path, v: &Value) -> Result<Vec<Counts>, Failure> {
    let alg = v.get("algorithm").and_then(Value::as_str).unwrap_or("");
    let mode = v.get("mode").and_then(Value::as_str).unwrap_or("");
    if alg != "ML-DSA" || !matches!(mode, "keyGen" | "sigGen" | "sigVer") {
        return Err(bad(path, format!("unknown ACVP {alg:?} mode {mode:?}")));
    }
    let mut tally = Tally::new();
    for g in v
        .get("testGroups")
        .and_then(Value::as_array)
        .ok_or_else(|| bad(path, "no testGroups"))?
    {
        let ps = g.get("parameterSet").and_then(Value::as_str).unwrap_or("");
        let set = Set::parse(ps).ok_or_else(|| bad(path, format!("parameter set {ps:?}")))?;
        let tg = g.get("tgId").and_then(Value::as_u64).unwrap_or(0);
        for t in g
            .get("tests")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let id = format!(
                "tgId {tg} tcId {}",
                t.get("tcId").and_then(Value::as_u64).unwrap_or(0)
            );
            let (r, expect) =
                acvp_case(mode, set, g, t).map_err(|e| bad(path, format!("{id}: {e}")))?;
            tally.record(set.alg(), &id, judge(r, Some(expect)));
        }
    }
    Ok(tally.done())
}

/// One ACVP test: its outcome and whether it should pass.
fn acvp_case(
    mode: &str,
    set: Set,
    g: &Value,
    t: &Value,
) -> Result<(Result<(), Fail>, bool), String> {
    if mode == "keyGen" {
        let seed = need_hex(t, "seed")?;
        let (pk, sk) = (need_hex(t, "pk")?, need_hex(t, "sk")?);
        return Ok((check_keygen(set, &seed, Some(&pk), Some(&sk)), true));
    }
    let message = hex_field(t, "message")?;
    let mu = hex_field(t, "mu")?;
    let ctx = hex_field(t, "context")?.unwrap_or_default();
    let external = match g.get("signatureInterface").and_then(Value::as_str) {
        Some("external") => true,
        Some("internal") => false,
        i => return Err(format!("signatureInterface {i:?}")),
    };
    let hash = if external && g.get("preHash").and_then(Value::as_str) == Some("preHash") {
        let name = t.get("hashAlg").and_then(Value::as_str).unwrap_or("");
        Some(hash_alg(name)?)
    } else {
        None
    };
    let ext_mu = !external && g.get("externalMu").and_then(Value::as_bool) == Some(true);
    let m = match (external, hash, ext_mu) {
        (true, None, _) => Msg::Pure(message.as_deref().ok_or("no `message`")?),
        (true, Some(h), _) => Msg::PreHash(h, message.as_deref().ok_or("no `message`")?),
        (false, _, true) => Msg::Mu(mu.as_deref().ok_or("no `mu`")?),
        (false, _, false) => Msg::Internal(message.as_deref().ok_or("no `message`")?),
    };
    if mode == "sigGen" {
        let sk = need_hex(t, "sk")?;
        let sig = need_hex(t, "signature")?;
        let rnd = match g.get("deterministic").and_then(Value::as_bool) {
            Some(true) => None,
            Some(false) => Some(rnd32(&need_hex(t, "rnd")?)?),
            None => return Err("no `deterministic`".into()),
        };
        let case = SignCase {
            key: Key::Expanded(&sk),
            pk: None,
            msg: m,
            ctx: &ctx,
            rnd,
            sig: Some(&sig),
            mu: None,
        };
        return Ok((check_sign(set, &case), true));
    }
    let pk = need_hex(t, "pk")?;
    let sig = need_hex(t, "signature")?;
    let expect = t
        .get("testPassed")
        .and_then(Value::as_bool)
        .ok_or("no `testPassed`")?;
    Ok((verify(set, &pk, m, &ctx, &sig), expect))
}

// ------------------------------------------------------------------ Wycheproof

fn wycheproof(path: &Path, bytes: &[u8]) -> Result<Vec<Counts>, Failure> {
    let v = parse_json(path, bytes)?;
    let schema = v.get("schema").and_then(Value::as_str).unwrap_or("");
    let kind = match schema {
        "mldsa_verify_schema.json" => WyKind::Verify,
        "mldsa_sign_seed_schema.json" => WyKind::SignSeed,
        "mldsa_sign_noseed_schema.json" => WyKind::SignExpanded,
        s => return Err(bad(path, format!("unknown Wycheproof ML-DSA schema {s:?}"))),
    };
    let alg = v.get("algorithm").and_then(Value::as_str).unwrap_or("");
    let set = Set::parse(alg).ok_or_else(|| bad(path, format!("algorithm {alg:?}")))?;
    let mut tally = Tally::new();
    for g in v
        .get("testGroups")
        .and_then(Value::as_array)
        .ok_or_else(|| bad(path, "no testGroups"))?
    {
        // Sign groups with a wrong-length private key have no public key.
        let pk = match kind {
            WyKind::Verify => Some(need_hex(g, "publicKey")),
            _ => hex_field(g, "publicKey").transpose(),
        }
        .transpose()
        .map_err(|e| bad(path, e))?;
        let key = match kind {
            WyKind::SignSeed => Some(need_hex(g, "privateSeed")),
            WyKind::SignExpanded => Some(need_hex(g, "privateKey")),
            WyKind::Verify => None,
        }
        .transpose()
        .map_err(|e| bad(path, e))?;
        for t in g
            .get("tests")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let tc = t.get("tcId").and_then(Value::as_u64).unwrap_or(0);
            let flags: Vec<&str> = t
                .get("flags")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let id = format!("tcId {tc} [{}]", flags.join(","));
            let expect = match t.get("result").and_then(Value::as_str) {
                Some("valid") => Some(true),
                Some("invalid") => Some(false),
                Some("acceptable") => None,
                r => return Err(bad(path, format!("{id}: result {r:?}"))),
            };
            let r = wycheproof_case(set, pk.as_deref(), key.as_deref(), kind, t)
                .map_err(|e| bad(path, format!("{id}: {e}")))?;
            tally.record(set.alg(), &id, judge(r, expect));
        }
    }
    Ok(tally.done())
}

/// The three Wycheproof ML-DSA schemas.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WyKind {
    Verify,
    SignSeed,
    SignExpanded,
}

fn wycheproof_case(
    set: Set,
    pk: Option<&[u8]>,
    key: Option<&[u8]>,
    kind: WyKind,
    t: &Value,
) -> Result<Result<(), Fail>, String> {
    let msg = hex_field(t, "msg")?;
    let mu = hex_field(t, "mu")?;
    let ctx = hex_field(t, "ctx")?.unwrap_or_default();
    let sig = need_hex(t, "sig")?;
    let m = match (&msg, &mu) {
        (Some(m), _) => Msg::Pure(m),
        (None, Some(mu)) => Msg::Mu(mu),
        (None, None) => return Err("neither `msg` nor `mu`".into()),
    };
    let Some(key) = key else {
        return Ok(verify(set, pk.unwrap_or_default(), m, &ctx, &sig));
    };
    // Invalid tests carry an empty `sig`: there is nothing to compare.
    let case = SignCase {
        key: if kind == WyKind::SignSeed {
            Key::Seed(key)
        } else {
            Key::Expanded(key)
        },
        pk,
        msg: m,
        ctx: &ctx,
        rnd: hex_field(t, "rnd")?.map(|r| rnd32(&r)).transpose()?,
        sig: (!sig.is_empty()).then_some(&sig[..]),
        mu: if msg.is_some() { mu.as_deref() } else { None },
    };
    Ok(check_sign(set, &case))
}

// ------------------------------------------------------------------ CCTV

/// The ML-DSA section of CCTV's accumulated-hashes.json.
fn accumulated(path: &Path, bytes: &[u8]) -> Result<Vec<Counts>, Failure> {
    let v = parse_json(path, bytes)?;
    let sec = v
        .get("ML-DSA")
        .ok_or_else(|| bad(path, "no ML-DSA section"))?;
    let mut out = Vec::new();
    let full = std::env::var("PQFORGE_FULL").as_deref() == Ok("1");
    for (label, n) in [
        ("100", 100usize),
        ("10000", 10_000),
        ("60000000", 60_000_000),
    ] {
        let Some(tab) = sec.get(label) else { continue };
        for set in Set::ALL {
            let Some(want) = tab.get(set.label()).and_then(Value::as_str) else {
                continue;
            };
            let want = unhex(want).map_err(|e| bad(path, e))?;
            let mut c = Counts::new(format!("{} accumulated x{n}", set.alg()));
            if n > 10_000 && !full {
                c.skip(
                    1,
                    "60 000 000 iterations: 5 to 17 hours per set here; PQFORGE_FULL=1 runs it",
                );
            } else {
                let got = accumulate(set, n);
                c.record(
                    got.as_ref().is_ok_and(|g| g[..] == want[..]),
                    || match got {
                        Ok(_) => "accumulated hash differs".into(),
                        Err(e) => e,
                    },
                );
            }
            out.push(c);
        }
    }
    if let Some(f) = sec.get("field_ops_exhaustive") {
        let want = f.get("sha").and_then(Value::as_str).unwrap_or("");
        let want = unhex(want).map_err(|e| bad(path, e))?;
        let mut c = Counts::new("ml-dsa field operations, every r in [0, q)");
        let got = field_ops();
        c.record(
            got.as_ref().is_ok_and(|g| g[..] == want[..]),
            || match got {
                Ok(_) => "field-operation hash differs".into(),
                Err(e) => e,
            },
        );
        out.push(c);
    }
    Ok(out)
}

/// CCTV's accumulated test: ξ from one SHAKE128 stream; pk and the
/// deterministic signature of the empty message (empty context) absorbed
/// into another; every signature must verify.
fn accumulate(set: Set, n: usize) -> Result<[u8; 32], String> {
    let s = set.dyn_sig();
    let i = s.info();
    let mut seeds = Shake128::new();
    seeds.absorb(b"");
    let mut acc = Shake128::new();
    let (mut pk, mut sk, mut sig) = (
        vec![0u8; i.pk_bytes],
        vec![0u8; i.sk_bytes],
        vec![0u8; i.sig_bytes],
    );
    let opts = SignOptions::new().deterministic();
    for k in 0..n {
        let mut xi = [0u8; 32];
        seeds.squeeze(&mut xi);
        s.keygen_derand(&xi, &mut pk, &mut sk)
            .map_err(|e| format!("iteration {k}: keygen: {e}"))?;
        acc.absorb(&pk);
        let mut rng = FixedRnd {
            rnd: None,
            drawn: 0,
        };
        let len = s
            .sign(&mut rng, &sk, b"", &opts, &mut sig)
            .map_err(|e| format!("iteration {k}: sign: {e}"))?;
        acc.absorb(&sig[..len]);
        s.verify(&pk, b"", &opts, &sig[..len])
            .map_err(|e| format!("iteration {k}: verify: {e}"))?;
    }
    let mut h = [0u8; 32];
    acc.squeeze(&mut h);
    Ok(h)
}

/// The exhaustive field-operation hash: for every r in [0, q), 12 decimal
/// lines (see `procedure` in accumulated-hashes.json) into SHAKE128.
fn field_ops() -> Result<[u8; 32], String> {
    fn line(buf: &mut Vec<u8>, x: i32) {
        use std::io::Write as _;
        let _ = writeln!(buf, "{x}");
    }
    fn four<P: ParameterSet>(buf: &mut Vec<u8>, r: i32) -> Result<(), String> {
        let (high, low) = hazmat::decompose::<P>(r);
        if hazmat::use_hint::<P>(false, r) != high {
            return Err(format!("UseHint(0, {r}) != HighBits({r})"));
        }
        line(buf, high);
        line(buf, hazmat::use_hint::<P>(true, r));
        line(buf, low);
        line(buf, low.abs());
        Ok(())
    }
    let mut sh = Shake128::new();
    let mut buf = Vec::with_capacity(1 << 17);
    for r in 0..Q {
        let centred = if r > (Q - 1) / 2 { r - Q } else { r };
        line(&mut buf, centred);
        line(&mut buf, centred.abs());
        let (r1, r0) = hazmat::power2round(r);
        line(&mut buf, r1);
        line(&mut buf, r0.rem_euclid(Q));
        // γ2 = (q - 1) / 88 (ML-DSA-44), then (q - 1) / 32 (-65, -87).
        four::<MlDsa44>(&mut buf, r)?;
        four::<MlDsa65>(&mut buf, r)?;
        if buf.len() > (1 << 16) {
            sh.absorb(&buf);
            buf.clear();
        }
    }
    sh.absorb(&buf);
    let mut h = [0u8; 32];
    sh.squeeze(&mut h);
    Ok(h)
}

/// CCTV's signing benchmark set: no expected values, so each message is
/// signed (deterministic, empty context, key from the all-zero ξ) and
/// the signature must verify.
fn benchmark(path: &Path, bytes: &[u8], set: Set) -> Result<Vec<Counts>, Failure> {
    let v = parse_json(path, bytes)?;
    let msgs = v
        .as_array()
        .ok_or_else(|| bad(path, "not a JSON array of messages"))?;
    let (pk, sk) = keygen(set, &[0; 32])
        .map_err(|_| bad(path, "key generation from the all-zero seed failed"))?;
    let mut c = Counts::new(format!(
        "{} (benchmark messages, no expected values: sign/verify round trip)",
        set.alg()
    ));
    for (i, m) in msgs.iter().enumerate() {
        let m = m
            .as_str()
            .ok_or_else(|| bad(path, format!("message {i} is not a string")))?;
        let r = sign(set, &sk, Msg::Pure(m.as_bytes()), &[], None).and_then(|sig| {
            verify(set, &pk, Msg::Pure(m.as_bytes()), &[], &sig)
                .map_err(|_| Fail::Mismatch("own signature not accepted".into()))
        });
        let r = judge(r, Some(true));
        c.record(r.is_ok(), || {
            format!("message {i}: {}", r.err().unwrap_or_default())
        });
    }
    Ok(vec![c])
}

// ------------------------------------------------------------------ BoringSSL

fn boringssl(
    path: &Path,
    bytes: &[u8],
    keygen_file: bool,
    set: Set,
) -> Result<Vec<Counts>, Failure> {
    let text = std::str::from_utf8(bytes).map_err(|_| bad(path, "not UTF-8"))?;
    let mut c = Counts::new(set.alg());
    for (i, b) in blocks(text, ':').into_iter().enumerate() {
        let get = |k: &str| -> Result<Vec<u8>, Failure> {
            let v = b
                .iter()
                .find(|(key, _)| *key == k)
                .ok_or_else(|| bad(path, format!("block {}: no `{k}`", i + 1)))?;
            unhex(v.1).map_err(|e| bad(path, format!("block {}: {k}: {e}", i + 1)))
        };
        let r = if keygen_file {
            check_keygen(set, &get("seed")?, Some(&get("pub")?), Some(&get("priv")?))
        } else {
            let (sk, msg, sig) = (get("sk")?, get("message")?, get("signature")?);
            check_sign(
                set,
                &SignCase {
                    key: Key::Expanded(&sk),
                    pk: None,
                    msg: Msg::Internal(&msg),
                    ctx: &[],
                    rnd: None,
                    sig: Some(&sig),
                    mu: None,
                },
            )
        };
        let r = judge(r, Some(true));
        c.record(r.is_ok(), || {
            format!("block {}: {}", i + 1, r.err().unwrap_or_default())
        });
    }
    Ok(vec![c])
}

// ------------------------------------------------------------------ OpenSSL evp_test

fn evp(path: &Path, bytes: &[u8]) -> Result<Vec<Counts>, Failure> {
    let text = std::str::from_utf8(bytes).map_err(|_| bad(path, "not UTF-8"))?;
    let mut keys: Vec<(String, Set, Vec<u8>)> = Vec::new();
    let mut tally = Tally::new();
    for (i, st) in blocks(text, '=').into_iter().enumerate() {
        let first = st
            .iter()
            .find(|(k, _)| !matches!(*k, "FIPSversion" | "Title"));
        let Some(&(kind, value)) = first else {
            continue;
        };
        let id = format!(
            "stanza {} ({kind} = {})",
            i + 1,
            value.split(':').next_back().unwrap_or("")
        );
        match kind {
            "PrivateKeyRaw" | "PublicKeyRaw" => {
                let mut parts = value.splitn(3, ':');
                let (Some(name), Some(alg), Some(hex)) = (parts.next(), parts.next(), parts.next())
                else {
                    return Err(bad(path, format!("{id}: expected NAME:ALG:HEX")));
                };
                let set = Set::parse(alg).ok_or_else(|| bad(path, format!("{id}: {alg:?}")))?;
                let key = unhex(hex).map_err(|e| bad(path, format!("{id}: {e}")))?;
                keys.push((format!("{kind}:{name}"), set, key));
            }
            "KeyGen" | "KeyFromData" | "Sign-Message" | "Verify-Message-Public" | "Digest" => {
                let (set, r) = evp_case(kind, value, &st, &keys)
                    .map_err(|e| bad(path, format!("{id}: {e}")))?;
                tally.record(set.alg(), &id, r);
            }
            "Security-Category" | "KeyName" | "Ctrl" | "CtrlOut" | "Input" | "Output"
            | "Result" => {
                return Err(bad(path, format!("{id}: stanza without an operation")));
            }
            k => return Err(bad(path, format!("{id}: unknown evp_test keyword {k:?}"))),
        }
    }
    Ok(tally.done())
}

/// One evp_test operation stanza: its set and outcome.
fn evp_case(
    kind: &str,
    value: &str,
    st: &[(&str, &str)],
    keys: &[(String, Set, Vec<u8>)],
) -> Result<(Set, Result<(), String>), String> {
    let ctrl = |name: &str| -> Option<&str> {
        st.iter()
            .filter(|(k, _)| *k == "Ctrl" || *k == "CtrlOut")
            .find_map(|(_, v)| v.strip_prefix(name).and_then(|v| v.strip_prefix(':')))
    };
    let field = |name: &str| st.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
    let bytes_of = |name: &str| -> Result<Vec<u8>, String> {
        evp_bytes(field(name).ok_or_else(|| format!("no `{name}`"))?)
    };
    let expect_ok = field("Result").is_none();
    let hex_ctrl = |name: &str| -> Result<Vec<u8>, String> {
        unhex(ctrl(name).ok_or_else(|| format!("no `{name}`"))?)
    };
    if kind == "Digest" {
        if value != "ML-DSA-MU" {
            return Err(format!("digest {value:?}"));
        }
        let pk = hex_ctrl("hexpub")?;
        let set = Set::ALL
            .into_iter()
            .find(|s| s.dyn_sig().info().pk_bytes == pk.len())
            .ok_or("public key of no ML-DSA length")?;
        let got = mu_of(set, &pk, &bytes_of("Input")?).map_err(|e| format!("mu: {e}"))?;
        let want = bytes_of("Output")?;
        return Ok((
            set,
            if got[..] == want[..] {
                Ok(())
            } else {
                Err("mu differs".into())
            },
        ));
    }
    let (alg, key_name) = value.split_once(':').unwrap_or((value, ""));
    let set = Set::parse(alg).ok_or_else(|| format!("algorithm {alg:?}"))?;
    let key = |prefix: &str| -> Result<&Vec<u8>, String> {
        let want = format!("{prefix}:{key_name}");
        keys.iter()
            .find(|(n, s, _)| *n == want && *s == set)
            .map(|(_, _, k)| k)
            .ok_or_else(|| format!("no {prefix} named {key_name:?} for {alg}"))
    };
    let r = match kind {
        "KeyGen" => check_keygen(
            set,
            &hex_ctrl("hexseed")?,
            Some(&hex_ctrl("hexpub")?),
            Some(&hex_ctrl("hexpriv")?),
        ),
        "KeyFromData" => match (ctrl("hexpriv"), ctrl("hexpub")) {
            (Some(sk), _) => set.dyn_sig().check_sk(&unhex(sk)?).map_err(refused),
            (None, Some(pk)) => set.dyn_sig().check_vk(&unhex(pk)?).map_err(refused),
            (None, None) => return Err("no hexpriv / hexpub".into()),
        },
        _ => {
            let input = bytes_of("Input")?;
            let output = bytes_of("Output")?;
            let ctx = ctrl("hexcontext-string")
                .map(unhex)
                .transpose()?
                .unwrap_or_default();
            let m = if ctrl("mu") == Some("1") {
                Msg::Mu(&input)
            } else if ctrl("message-encoding") == Some("0") {
                Msg::Internal(&input)
            } else {
                Msg::Pure(&input)
            };
            if kind == "Verify-Message-Public" {
                verify(set, key("PublicKeyRaw")?, m, &ctx, &output)
            } else {
                let rnd = match (ctrl("deterministic"), ctrl("hextest-entropy")) {
                    (Some("1"), _) => None,
                    (_, Some(e)) => Some(rnd32(&unhex(e)?)?),
                    _ => return Err("hedged signing without test entropy".into()),
                };
                check_sign(
                    set,
                    &SignCase {
                        key: Key::Expanded(key("PrivateKeyRaw")?),
                        pk: None,
                        msg: m,
                        ctx: &ctx,
                        rnd,
                        sig: expect_ok.then_some(&output[..]),
                        mu: None,
                    },
                )
            }
        }
    };
    Ok((set, judge(r, Some(expect_ok))))
}

/// μ of `msg` (pure, empty context) under `pk`: tr from the contract's
/// verifying-key state, μ from core's construction.
fn mu_of(set: Set, pk: &[u8], msg: &[u8]) -> Result<[u8; 64], Error> {
    fn tr<P: SignatureScheme<VkState = MlDsaVkState>>(pk: &[u8]) -> Result<[u8; 64], Error> {
        Ok(pqforge_core::sig::prepare_vk::<P>(pk)?.1.tr)
    }
    let tr = match set {
        Set::D44 => tr::<MlDsa44>(pk)?,
        Set::D65 => tr::<MlDsa65>(pk)?,
        Set::D87 => tr::<MlDsa87>(pk)?,
    };
    pqforge_core::sig::mu::mu(&tr, &SignOptions::new(), msg)
}

// ------------------------------------------------------------------ OpenSSL codecs

/// The key of OpenSSL's codec tests (and the LAMPS examples): ξ = 00 01 … 1f.
fn codec_key(set: Set) -> Result<(Vec<u8>, Vec<u8>), Fail> {
    let xi: Vec<u8> = (0u8..32).collect();
    keygen(set, &xi)
}

/// `openssl pkey -text` output: `name:` lines, each followed by indented
/// colon-separated hex bytes.
fn pkey_text(text: &str) -> Result<Vec<(&str, Vec<u8>)>, String> {
    let mut out: Vec<(&str, Vec<u8>)> = Vec::new();
    for line in text.lines().skip(1) {
        if line.starts_with(char::is_whitespace) {
            let (_, v) = out.last_mut().ok_or("hex before a field name")?;
            for b in line.trim().split(':').filter(|b| !b.is_empty()) {
                v.push(u8::from_str_radix(b, 16).map_err(|e| format!("{b:?}: {e}"))?);
            }
        } else if let Some(name) = line.trim().strip_suffix(':') {
            out.push((name, Vec::new()));
        } else if !line.trim().is_empty() {
            return Err(format!("unexpected line {line:?}"));
        }
    }
    Ok(out)
}

fn codec_text(path: &Path, bytes: &[u8]) -> Result<Vec<Counts>, Failure> {
    let text = std::str::from_utf8(bytes).map_err(|_| bad(path, "not UTF-8"))?;
    let head = text.lines().next().unwrap_or("");
    let set = head
        .split_whitespace()
        .next()
        .and_then(Set::parse)
        .ok_or_else(|| bad(path, format!("header {head:?}")))?;
    let fields = pkey_text(text).map_err(|e| bad(path, e))?;
    let get = |n: &str| fields.iter().find(|(k, _)| *k == n).map(|(_, v)| &v[..]);
    let r = (|| {
        let (pk, sk) = codec_key(set)?;
        if let Some(seed) = get("seed") {
            check_keygen(set, seed, get("pub"), get("priv"))?;
        }
        if let Some(priv_) = get("priv") {
            cmp("pub (from priv)", &public_of(set, priv_)?, get("pub"))?;
            cmp("priv (KeyGen(00..1f))", priv_, Some(&sk))?;
        }
        let pub_ = get("pub").ok_or_else(|| Fail::Mismatch("no `pub`".into()))?;
        set.dyn_sig().check_vk(pub_).map_err(refused)?;
        cmp("pub (KeyGen(00..1f))", pub_, Some(&pk))
    })();
    let mut c = Counts::new(set.alg());
    let r = judge(r, Some(true));
    c.record(r.is_ok(), || r.err().unwrap_or_default());
    Ok(vec![c])
}

/// `sig-N.dat`: the deterministic pure signature (empty context) of the
/// DER SubjectPublicKeyInfo in `pub-N.pem`, under KeyGen(00..1f).
fn codec_signature(path: &Path, bytes: &[u8], set: Set) -> Result<Vec<Counts>, Failure> {
    let level = &set.label()[7..];
    let pem_path = path.with_file_name(format!("pub-{level}.pem"));
    let pem = std::fs::read(&pem_path).map_err(|e| bad(&pem_path, format!("cannot read: {e}")))?;
    let der = pem_body(&pem).ok_or_else(|| bad(&pem_path, "not a PEM file"))?;
    let r = codec_key(set).and_then(|(pk, sk)| {
        check_sign(
            set,
            &SignCase {
                key: Key::Expanded(&sk),
                pk: Some(&pk),
                msg: Msg::Pure(&der),
                ctx: &[],
                rnd: None,
                sig: Some(bytes),
                mu: None,
            },
        )
    });
    let mut c = Counts::new(set.alg());
    let r = judge(r, Some(true));
    c.record(r.is_ok(), || r.err().unwrap_or_default());
    Ok(vec![c])
}
