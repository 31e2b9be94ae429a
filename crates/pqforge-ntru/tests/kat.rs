//! Full known-answer tests: regenerate the official 100-record `.rsp` of
//! each parameter set through the randomised entry points (the one-shot
//! dynamic API of `SCHEMES`, driven by the NIST DRBG `KatSource`) and
//! compare its SHA-256 with the digest of the official file (PROVENANCE.md
//! of `../shared/kat/ntru`, embedded below). Record 0 is also compared
//! field by field with the official file (required under `CI=true`:
//! `data_dir()` panics there when the data is missing).

use pqforge_core::kat::{KatSource, data_dir, rsp, standard_seeds};
use pqforge_core::{DynKem, Scheme};
use sha2::{Digest, Sha256};

/// SHA-256 of the official `.rsp` files.
const DIGESTS: [(&str, &str, &str); 6] = [
    (
        "ntru-hps-2048-509",
        "ntruhps2048509/PQCkemKAT_935.rsp",
        "f85cbfd585ee9e03feb10817f7a4ba42695a67af95db383c5ebbc2beab27e6bc",
    ),
    (
        "ntru-hps-2048-677",
        "ntruhps2048677/PQCkemKAT_1234.rsp",
        "0e1d2eccfbc6e4f4d6f139b21de27417316202a5c113602d25704316aebb9303",
    ),
    (
        "ntru-hps-4096-821",
        "ntruhps4096821/PQCkemKAT_1590.rsp",
        "95235f04c6206a82477fd5a877f184e99906d658a242dcd7ebb8337048129a4b",
    ),
    (
        "ntru-hps-4096-1229",
        "ntruhps40961229/PQCkemKAT_2366.rsp",
        "64cd59d85211cedd65578d6cb3a8eab87d1ac08cf74fedf00759ab0b5f0aa413",
    ),
    (
        "ntru-hrss-701",
        "ntruhrss701/PQCkemKAT_1450.rsp",
        "1e7c8e02f7dc1a9796332d60d1b08995fff5dfe81f2ae7394ec2f4816dedf4b6",
    ),
    (
        "ntru-hrss-1373",
        "ntruhrss1373/PQCkemKAT_2983.rsp",
        "953856fbf1f57f2a1d6592d320082d6f945ecf9e9f06fea7ce8c0dced792d8a8",
    ),
];

/// The `.rsp` text for `alg` (header, blank line, records); decapsulation
/// is checked on every record along the way.
fn rsp_text(alg: &dyn DynKem, records: usize) -> String {
    let info = alg.info();
    let mut seeds = vec![[0u8; 48]; records];
    standard_seeds(info.kat, &mut seeds);
    let mut out = format!("{}\n\n", info.kat_header);
    let (mut pk, mut sk) = (vec![0u8; info.pk_bytes], vec![0u8; info.sk_bytes]);
    let (mut ct, mut ss, mut ss2) = (
        vec![0u8; info.ct_bytes],
        vec![0u8; info.ss_bytes],
        vec![0u8; info.ss_bytes],
    );
    for (i, seed) in seeds.iter().enumerate() {
        let mut rng = KatSource::new(info.kat, seed);
        alg.keygen(&mut rng, &mut pk, &mut sk).expect("keygen");
        alg.encaps(&mut rng, &pk, &mut ct, &mut ss).expect("encaps");
        alg.decaps(&sk, &ct, &mut ss2).expect("decaps");
        assert_eq!(ss, ss2, "{} record {i}: decaps disagrees", info.name);
        rsp::write_record(
            &mut out,
            &[
                ("count", rsp::Value::Int(i)),
                ("seed", rsp::Value::Hex(seed)),
                ("pk", rsp::Value::Hex(&pk)),
                ("sk", rsp::Value::Hex(&sk)),
                ("ct", rsp::Value::Hex(&ct)),
                ("ss", rsp::Value::Hex(&ss)),
            ],
        );
    }
    out
}

fn sha256_hex(b: &[u8]) -> String {
    rsp::to_hex(&Sha256::digest(b)).to_lowercase()
}

fn alg(index: usize) -> &'static dyn DynKem {
    let Scheme::Kem(alg) = pqforge_ntru::SCHEMES[index] else {
        panic!("SCHEMES[{index}] is not a KEM");
    };
    assert_eq!(alg.info().name, DIGESTS[index].0);
    alg
}

/// Record 0 against the official file, field by field.
fn check_first(index: usize) {
    let alg = alg(index);
    let (name, rel, _) = DIGESTS[index];
    if let Some(dir) = data_dir() {
        let path = dir.join("kat/ntru").join(rel);
        let official = std::fs::read_to_string(&path).expect("read official .rsp");
        assert_eq!(official.lines().next(), Some(alg.info().kat_header));
        let theirs = rsp::parse(&official).expect("parse");
        let ours = rsp::parse(&rsp_text(alg, 1)).expect("parse ours");
        for field in ["count", "seed", "pk", "sk", "ct", "ss"] {
            assert_eq!(
                ours[0].get(field),
                theirs[0].get(field),
                "{name}: record 0 field `{field}`"
            );
        }
    }
}

/// The whole 100-record transcript against the official digest.
fn check_all(index: usize) {
    let (name, _, digest) = DIGESTS[index];
    let text = rsp_text(alg(index), 100);
    assert_eq!(sha256_hex(text.as_bytes()), digest, "{name}: .rsp digest");
}

macro_rules! kat {
    ($($first:ident, $all:ident, $i:literal;)*) => {$(
        #[test]
        fn $first() {
            check_first($i);
        }
        #[test]
        fn $all() {
            check_all($i);
        }
    )*};
}

kat! {
    first_ntru_hps_2048_509, all_ntru_hps_2048_509, 0;
    first_ntru_hps_2048_677, all_ntru_hps_2048_677, 1;
    first_ntru_hps_4096_821, all_ntru_hps_4096_821, 2;
    first_ntru_hps_4096_1229, all_ntru_hps_4096_1229, 3;
    first_ntru_hrss_701, all_ntru_hrss_701, 4;
    first_ntru_hrss_1373, all_ntru_hrss_1373, 5;
}
