//! `pqforge list`.

use pqforge::{Algorithm, Kind};
use serde_json::{Value, json};

/// One algorithm as a JSON object (keys fixed by the CLI contract).
pub fn info_json(a: Algorithm) -> Value {
    let i = a.info();
    let mut o = json!({
        "name": i.name,
        "kind": i.kind.as_str(),
        "pk_bytes": i.pk_bytes,
        "sk_bytes": i.sk_bytes,
        "category": i.category,
        "status": i.status.as_str(),
        "family": i.family,
        "feature": i.feature,
        "c_stem": i.c_stem,
        "aliases": i.aliases,
        "oid": i.oid,
        "key_forms": {"seed": i.key_forms.seed, "expanded": i.key_forms.expanded},
        "keygen_seed_bytes": i.keygen_seed_bytes,
    });
    let m = o.as_object_mut().expect("json object");
    match i.kind {
        Kind::Kem => {
            m.insert("ct_bytes".into(), i.ct_bytes.into());
            m.insert("ss_bytes".into(), i.ss_bytes.into());
            m.insert("encaps_seed_bytes".into(), i.encaps_seed_bytes.into());
        }
        Kind::Sig => {
            m.insert("sig_bytes".into(), i.sig_bytes.into());
            let hashes = |h: &[pqforge::HashAlg]| h.iter().map(|h| h.name()).collect::<Vec<_>>();
            m.insert(
                "sign_options".into(),
                json!({
                    "max_context": i.sign.max_context,
                    "prehash": hashes(i.sign.prehash),
                    "digest": hashes(i.sign.digest),
                    "external_mu": i.sign.external_mu,
                    "deterministic": i.sign.deterministic,
                }),
            );
        }
    }
    o
}

/// Prints the table (markdown) or a JSON array.
pub fn run(json: bool) {
    if json {
        let v: Vec<Value> = Algorithm::all().map(info_json).collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("serialisable")
        );
        return;
    }
    println!(
        "| algorithm | kind | pk bytes | sk bytes | ct/sig bytes | ss bytes | category | status |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---|");
    for a in Algorithm::all() {
        let i = a.info();
        let (ct, ss) = match i.kind {
            Kind::Kem => (i.ct_bytes.to_string(), i.ss_bytes.to_string()),
            Kind::Sig => (i.sig_bytes.to_string(), "-".to_string()),
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            i.name,
            i.kind.as_str(),
            i.pk_bytes,
            i.sk_bytes,
            ct,
            ss,
            i.category,
            i.status.as_str()
        );
    }
}
