//! Key-file commands: `keygen`, `pub`, `encaps`, `decaps`, `sign`, `verify`.
//!
//! For scripts: `-` names standard input or output; `--format json` prints
//! one JSON object on standard output (or standard error when standard
//! output carries data); errors are one line on standard error with exit
//! status 2, a signature that does not verify exits 1. Secret outputs
//! (private keys, shared secrets) are created with mode 0600 (on Unix), no
//! output file is ever replaced without `--force`, and nothing is written
//! unless every output can be (see `files.rs`). Secrets go only where
//! asked (`--out`, `--ss`). The algorithm comes from the key file; raw key
//! files need `--alg`.

use pqforge::keyfile::{Encoding, PrivateKey, PrivateKeyForm, PublicKey};
use pqforge::{Algorithm, HashAlg, Kind, SignOptions};
use serde_json::json;
use zeroize::Zeroizing;

use crate::files::{KEY_LIMIT, MESSAGE_LIMIT, Outputs, read_input};
use crate::{Failure, parse_alg, rng};

/// A key-file error as a one-line failure naming the file.
fn key_err(path: &str, e: &pqforge::Error) -> Failure {
    Failure::usage(format!("{path}: {e}"))
}

/// Reads a private key: PEM or DER (algorithm from the file), or raw with
/// `--alg`.
fn load_private(path: &str, alg: Option<&str>) -> Result<PrivateKey, Failure> {
    let data = read_input(path, KEY_LIMIT)?;
    let key = match alg {
        // A raw key file with --alg; a PEM or DER file (which names its
        // algorithm) must be that algorithm's.
        Some(a) if !looks_encoded(&data) => PrivateKey::from_raw(parse_alg(a)?, &data),
        Some(a) => {
            let a = parse_alg(a)?;
            match PrivateKey::decode(&data) {
                Ok(k) if k.algorithm() != a => {
                    return Err(Failure::usage(format!(
                        "{path}: a {} key, not {a}",
                        k.algorithm()
                    )));
                }
                // A raw key may start with 0x30 too (one in 256 random
                // seeds): what does not decode as PEM or DER but is a valid
                // raw key of the algorithm is that; otherwise the decoding
                // error is the one reported.
                Err(e) => PrivateKey::from_raw(a, &data).map_err(|_| e),
                r => r,
            }
        }
        None => PrivateKey::decode(&data),
    };
    key.map_err(|e| key_err(path, &e))
}

/// Reads a public key: PEM or DER, or raw with `--alg`.
fn load_public(path: &str, alg: Option<&str>) -> Result<PublicKey, Failure> {
    let data = read_input(path, KEY_LIMIT)?;
    let key = match alg {
        // A raw key file with --alg; a PEM or DER file (which names its
        // algorithm) must be that algorithm's.
        Some(a) if !looks_encoded(&data) => PublicKey::from_raw(parse_alg(a)?, &data),
        Some(a) => {
            let a = parse_alg(a)?;
            match PublicKey::decode(&data) {
                Ok(k) if k.algorithm() != a => {
                    return Err(Failure::usage(format!(
                        "{path}: a {} key, not {a}",
                        k.algorithm()
                    )));
                }
                // A raw key may start with 0x30 too (one in 256 random
                // seeds): what does not decode as PEM or DER but is a valid
                // raw key of the algorithm is that; otherwise the decoding
                // error is the one reported.
                Err(e) => PublicKey::from_raw(a, &data).map_err(|_| e),
                r => r,
            }
        }
        None => PublicKey::decode(&data),
    };
    key.map_err(|e| key_err(path, &e))
}

/// Whether `data` is PEM or starts like DER (a SEQUENCE), as opposed to a
/// raw key.
fn looks_encoded(data: &[u8]) -> bool {
    let t = data
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map_or(&[][..], |i| &data[i..]);
    t.starts_with(b"-----BEGIN") || data.first() == Some(&0x30)
}

/// The private-key form names of `--key-form`.
fn key_form(s: Option<&str>) -> Result<Option<PrivateKeyForm>, Failure> {
    Ok(match s {
        None => None,
        Some("seed") => Some(PrivateKeyForm::Seed),
        Some("expanded") => Some(PrivateKeyForm::Expanded),
        Some("both") => Some(PrivateKeyForm::Both),
        Some(o) => {
            return Err(Failure::usage(format!(
                "--key-form {o}: expected seed, expanded or both"
            )));
        }
    })
}

/// `--form pem|der|raw`.
pub(crate) fn encoding(s: &str) -> Result<Encoding, Failure> {
    match s {
        "pem" => Ok(Encoding::Pem),
        "der" => Ok(Encoding::Der),
        "raw" => Ok(Encoding::Raw),
        o => Err(Failure::usage(format!(
            "--form {o}: expected pem, der or raw"
        ))),
    }
}

/// Prints the JSON report: on standard output, unless data went there.
fn report(v: &serde_json::Value, data_on_stdout: bool) {
    if data_on_stdout {
        eprintln!("{v}");
    } else {
        println!("{v}");
    }
}

/// Decodes hex (upper or lower case, even length).
fn unhex(s: &str) -> Result<Vec<u8>, Failure> {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(2) {
        return Err(Failure::usage("--context-hex: odd number of hex digits"));
    }
    b.chunks(2)
        .map(|p| {
            std::str::from_utf8(p)
                .ok()
                .and_then(|t| u8::from_str_radix(t, 16).ok())
                .ok_or_else(|| Failure::usage("--context-hex: not hexadecimal"))
        })
        .collect()
}

/// The pre-hash function of `--prehash`, any common spelling (`SHA2-256`,
/// `sha256`, `sha3-512`, `shake128`, `SHA2-512/256`).
fn prehash(s: &str) -> Result<HashAlg, Failure> {
    let norm = |x: &str| -> String {
        x.chars()
            .filter(char::is_ascii_alphanumeric)
            .flat_map(char::to_lowercase)
            .collect()
    };
    let want = norm(s);
    HashAlg::ALL
        .iter()
        .copied()
        .find(|h| {
            let n = norm(h.name());
            // "sha2256" also as "sha256", "sha2512256" as "sha512256".
            n == want
                || n.strip_prefix("sha2")
                    .is_some_and(|r| format!("sha{r}") == want)
        })
        .ok_or_else(|| {
            Failure::usage(format!(
                "--prehash {s}: unknown; one of {}",
                HashAlg::ALL.map(HashAlg::name).join(", ")
            ))
        })
}

/// The arguments of `keygen`.
pub(crate) struct KeygenArgs<'a> {
    pub alg: &'a str,
    pub out: &'a str,
    pub public: Option<&'a str>,
    pub form: &'a str,
    pub key_form: Option<&'a str>,
    pub force: bool,
    pub json: bool,
}

pub(crate) fn keygen(a: &KeygenArgs<'_>) -> Result<(), Failure> {
    let alg = parse_alg(a.alg)?;
    let enc = encoding(a.form)?;
    let form = key_form(a.key_form)?;
    if form.is_some_and(|f| f != PrivateKeyForm::Expanded) && !alg.info().key_forms.seed {
        return Err(Failure::usage(format!(
            "--key-form: {alg} private keys have no seed form (expanded only)"
        )));
    }
    let key = PrivateKey::generate(alg, &mut rng::os_seeded())
        .map_err(|e| Failure::usage(format!("key generation: {e}")))?;
    let bytes = key
        .encode(enc, form)
        .map_err(|e| Failure::usage(format!("--out: {e}")))?;
    let mut outs = Outputs::new(a.force);
    outs.add(a.out, &bytes, true);
    if let Some(p) = a.public {
        let pk = key
            .public_key()
            .and_then(|k| k.encode(enc))
            .map_err(|e| Failure::usage(format!("--pub: {e}")))?;
        outs.add(p, &pk, false);
    }
    let on_stdout = outs.uses_stdout();
    outs.commit(&[])?;
    if a.json {
        let form = form.unwrap_or(if key.seed().is_some() {
            PrivateKeyForm::Seed
        } else {
            PrivateKeyForm::Expanded
        });
        report(
            &json!({
                "algorithm": alg.name(),
                "private_key": a.out,
                "public_key": a.public,
                "encoding": enc.as_str(),
                "key_form": form.as_str(),
            }),
            on_stdout,
        );
    }
    Ok(())
}

pub(crate) fn public(
    key: &str,
    alg: Option<&str>,
    out: &str,
    form: &str,
    force: bool,
    json: bool,
) -> Result<(), Failure> {
    let enc = encoding(form)?;
    let k = load_private(key, alg)?;
    let p = k
        .public_key()
        .and_then(|p| p.encode(enc))
        .map_err(|e| key_err(key, &e))?;
    let mut outs = Outputs::new(force);
    outs.add(out, &p, false);
    outs.commit(&[key])?;
    if json {
        report(
            &json!({ "algorithm": k.algorithm().name(), "public_key": out, "encoding": enc.as_str() }),
            out == "-",
        );
    }
    Ok(())
}

/// `--ss`: required, secrets are only written where asked.
fn ss_target(ss_path: Option<&str>) -> Result<&str, Failure> {
    ss_path.ok_or_else(|| {
        Failure::usage(
            "--ss FILE is required (- for standard output): the shared secret is written only where asked",
        )
    })
}

pub(crate) fn encaps(
    pub_path: &str,
    alg: Option<&str>,
    ct_path: &str,
    ss_path: Option<&str>,
    force: bool,
    json: bool,
) -> Result<(), Failure> {
    let ss_path = ss_target(ss_path)?;
    let pk = load_public(pub_path, alg)?;
    let kem = kem_of(pk.algorithm())?;
    let i = kem.info();
    let mut ct = vec![0u8; i.ct_bytes];
    let mut ss = Zeroizing::new(vec![0u8; i.ss_bytes]);
    kem.encaps(&mut rng::os_seeded(), pk.as_bytes(), &mut ct, &mut ss)
        .map_err(|e| key_err(pub_path, &e))?;
    let mut outs = Outputs::new(force);
    outs.add(ct_path, &ct, false);
    outs.add(ss_path, &ss, true);
    let on_stdout = outs.uses_stdout();
    outs.commit(&[pub_path])?;
    if json {
        report(
            &json!({ "algorithm": i.name, "ciphertext": ct_path, "shared_secret": ss_path }),
            on_stdout,
        );
    }
    Ok(())
}

pub(crate) fn decaps(
    key_path: &str,
    alg: Option<&str>,
    ct_path: &str,
    ss_path: Option<&str>,
    force: bool,
    json: bool,
) -> Result<(), Failure> {
    let ss_path = ss_target(ss_path)?;
    if key_path == "-" && ct_path == "-" {
        return Err(Failure::usage(
            "--key - and --ct -: only one input can be standard input",
        ));
    }
    let k = load_private(key_path, alg)?;
    let kem = kem_of(k.algorithm())?;
    let ct = read_input(ct_path, KEY_LIMIT)?;
    let mut ss = Zeroizing::new(vec![0u8; kem.info().ss_bytes]);
    kem.decaps(k.expanded(), &ct, &mut ss)
        .map_err(|e| key_err(ct_path, &e))?;
    let mut outs = Outputs::new(force);
    outs.add(ss_path, &ss, true);
    outs.commit(&[key_path, ct_path])?;
    if json {
        report(
            &json!({ "algorithm": kem.info().name, "shared_secret": ss_path }),
            ss_path == "-",
        );
    }
    Ok(())
}

fn kem_of(a: Algorithm) -> Result<&'static dyn pqforge::DynKem, Failure> {
    a.kem()
        .ok_or_else(|| Failure::usage(format!("{a} is a signature scheme, not a KEM")))
}

fn sig_of(a: Algorithm) -> Result<&'static dyn pqforge::DynSig, Failure> {
    a.sig()
        .ok_or_else(|| Failure::usage(format!("{a} is a KEM, not a signature scheme")))
}

/// The signing options shared by `sign` and `verify`.
pub(crate) struct SigArgs<'a> {
    pub context: Option<&'a str>,
    pub context_hex: Option<&'a str>,
    pub prehash: Option<&'a str>,
    /// `sign --deterministic` (verification ignores it).
    pub deterministic: bool,
}

impl SigArgs<'_> {
    fn context(&self) -> Result<Vec<u8>, Failure> {
        match (self.context, self.context_hex) {
            (Some(c), None) => Ok(c.as_bytes().to_vec()),
            (None, Some(h)) => unhex(h),
            (None, None) => Ok(Vec::new()),
            (Some(_), Some(_)) => Err(Failure::usage(
                "--context and --context-hex: one or the other",
            )),
        }
    }

    fn options<'c>(&self, ctx: &'c [u8]) -> Result<SignOptions<'c>, Failure> {
        let mut o = SignOptions::new().with_context(ctx);
        if let Some(h) = self.prehash {
            o = o.with_prehash(prehash(h)?);
        }
        Ok(o)
    }
}

pub(crate) fn sign(
    key_path: &str,
    alg: Option<&str>,
    input: &str,
    sig_path: &str,
    s: &SigArgs<'_>,
    force: bool,
    json: bool,
) -> Result<(), Failure> {
    if key_path == "-" && input == "-" {
        return Err(Failure::usage(
            "--key - and --in -: only one input can be standard input",
        ));
    }
    let k = load_private(key_path, alg)?;
    let sig = sig_of(k.algorithm())?;
    let msg = read_input(input, MESSAGE_LIMIT)?;
    let ctx = s.context()?;
    let mut opts = s.options(&ctx)?;
    if s.deterministic {
        opts = opts.deterministic();
    }
    let mut out = vec![0u8; sig.info().sig_bytes];
    let n = sig
        .sign(&mut rng::os_seeded(), k.expanded(), &msg, &opts, &mut out)
        .map_err(|e| Failure::usage(format!("sign: {e}")))?;
    let mut outs = Outputs::new(force);
    outs.add(sig_path, &out[..n], false);
    outs.commit(&[key_path, input])?;
    if json {
        report(
            &json!({ "algorithm": sig.info().name, "signature": sig_path, "bytes": n }),
            sig_path == "-",
        );
    }
    Ok(())
}

pub(crate) fn verify(
    pub_path: &str,
    alg: Option<&str>,
    input: &str,
    sig_path: &str,
    s: &SigArgs<'_>,
    json: bool,
) -> Result<(), Failure> {
    let inputs = [pub_path, input, sig_path];
    if inputs.iter().filter(|p| **p == "-").count() > 1 {
        return Err(Failure::usage("only one input can be standard input"));
    }
    let pk = load_public(pub_path, alg)?;
    if pk.algorithm().kind() != Kind::Sig {
        return Err(Failure::usage(format!(
            "{pub_path}: {} is a KEM, not a signature scheme",
            pk.algorithm()
        )));
    }
    let sig = sig_of(pk.algorithm())?;
    let msg = read_input(input, MESSAGE_LIMIT)?;
    let signature = read_input(sig_path, KEY_LIMIT)?;
    let ctx = s.context()?;
    let opts = s.options(&ctx)?;
    let r = sig.verify(pk.as_bytes(), &msg, &opts, &signature);
    let valid = match r {
        Ok(()) => true,
        Err(pqforge::Error::Verification) => false,
        // An option the set does not define, a malformed key: usage errors.
        Err(e) => return Err(Failure::usage(format!("verify: {e}"))),
    };
    if json {
        report(
            &json!({ "algorithm": sig.info().name, "valid": valid }),
            false,
        );
    } else if valid {
        eprintln!("pqforge: signature valid");
    }
    if valid {
        Ok(())
    } else {
        Err(Failure::check("signature invalid"))
    }
}
