//! Known-answer tests: regenerate the official 100-record `.rsp` of each
//! set through the randomised dynamic API (`KatSource` with the NIST DRBG,
//! as `pqforge kat` does) and compare the whole text with the official
//! file (when the shared data is present) and its SHA-256 with the digest
//! of PROVENANCE.md (always). Record 0 is compared field by field first,
//! for readable failures.
//!
//! `sntrup761.oneshot-randombytes.rsp` (the one-call-per-list convention of
//! PQClean / liboqs) is reproduced through `testing::keygen_with` /
//! `encaps_with` with `Convention::PerList`.

use pqforge_core::kat::{KatSource, data_dir, rsp, standard_seeds};
use pqforge_core::{DynKem, KatRng, Scheme};
use pqforge_ntruprime::testing::{self, Backend, Convention};
use pqforge_ntruprime::{ParameterSet, Sntrup761};
use sha2::{Digest, Sha256};

/// SHA-256 of the official files (PROVENANCE.md of the shared data).
const DIGESTS: [(&str, &str); 6] = [
    (
        "sntrup653",
        "65181e2fb8de0455248c25ec1b1aa628a96bd6cc604d411af2ea46c06b9f9693",
    ),
    (
        "sntrup761",
        "e720b256c12c50fa4281708342aae2c6a47b01ae83b152f3fd03d7680e376172",
    ),
    (
        "sntrup857",
        "ca8d4c876bbb2c3b105fa997f6ee0a5a839363e8c697ced2175ea9348f71c4b3",
    ),
    (
        "sntrup953",
        "d95e16d37e97d40496b9f2e5c67b002252254485522ac180e27d92ab8627f3d3",
    ),
    (
        "sntrup1013",
        "8e282b2fdb83a95d01c6a4336875b3e303eec31d40c61437c05db8185d08d98b",
    ),
    (
        "sntrup1277",
        "9e208aabc5c340932ef547abe0b14e16cf75eb7bebaafe2c3469c8d7d8b688f0",
    ),
];

/// SHA-256 of `sntrup761.oneshot-randombytes.rsp`.
const ONESHOT_761: &str = "3a1848b32a2361c3743c8163ea1f814ca1ff6114372ffdcc1ce0e65680d84c2a";

fn header_and_records(
    header: &str,
    seeds: &[[u8; 48]],
    mut one: impl FnMut(&[u8; 48]) -> [Vec<u8>; 4],
) -> String {
    let mut out = format!("{header}\n\n");
    for (i, seed) in seeds.iter().enumerate() {
        let [pk, sk, ct, ss] = one(seed);
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

/// The `.rsp` text of `records` records through the dynamic API;
/// decapsulation is checked on every record.
fn rsp_text(alg: &dyn DynKem, records: usize) -> String {
    let info = alg.info();
    let mut seeds = vec![[0u8; 48]; records];
    standard_seeds(info.kat, &mut seeds);
    header_and_records(info.kat_header, &seeds, |seed| {
        let mut rng = KatSource::new(info.kat, seed);
        let (mut pk, mut sk) = (vec![0u8; info.pk_bytes], vec![0u8; info.sk_bytes]);
        let (mut ct, mut ss, mut ss2) = (vec![0u8; info.ct_bytes], vec![0u8; 32], vec![0u8; 32]);
        alg.keygen(&mut rng, &mut pk, &mut sk).expect("keygen");
        alg.encaps(&mut rng, &pk, &mut ct, &mut ss).expect("encaps");
        alg.decaps(&sk, &ct, &mut ss2).expect("decaps");
        assert_eq!(ss, ss2, "{}: decaps disagrees", info.name);
        [pk, sk, ct, ss]
    })
}

fn sha256_hex(b: &[u8]) -> String {
    rsp::to_hex(&Sha256::digest(b)).to_lowercase()
}

fn official(file: &str) -> Option<String> {
    let dir = data_dir()?;
    Some(std::fs::read_to_string(dir.join("kat/ntruprime").join(file)).expect("read .rsp"))
}

fn check(index: usize) {
    let Scheme::Kem(alg) = pqforge_ntruprime::SCHEMES[index] else {
        panic!("SCHEMES[{index}] is not a KEM");
    };
    let (name, digest) = DIGESTS[index];
    assert_eq!(alg.info().name, name);
    let file = official(&format!("{name}.rsp"));
    if let Some(text) = &file {
        assert_eq!(text.lines().next(), Some(alg.info().kat_header));
        let theirs = rsp::parse(text).expect("parse");
        let ours = rsp::parse(&rsp_text(alg, 1)).expect("parse ours");
        for field in ["count", "seed", "pk", "sk", "ct", "ss"] {
            assert_eq!(
                ours[0].get(field),
                theirs[0].get(field),
                "{name}: record 0 field `{field}`"
            );
        }
    }
    let text = rsp_text(alg, 100);
    if let Some(want) = &file {
        assert!(&text == want, "{name}: 100-record file differs");
    }
    assert_eq!(sha256_hex(text.as_bytes()), digest, "{name}: .rsp digest");
}

#[test]
fn kat_sntrup653() {
    check(0);
}

#[test]
fn kat_sntrup761() {
    check(1);
}

#[test]
fn kat_sntrup857() {
    check(2);
}

#[test]
fn kat_sntrup953() {
    check(3);
}

#[test]
fn kat_sntrup1013() {
    check(4);
}

#[test]
fn kat_sntrup1277() {
    check(5);
}

/// One randombytes call per list (PQClean / liboqs / OpenSSH 2026)
/// reproduces the regenerated one-call transcript, all 100 records, on
/// every backend available.
#[test]
fn kat_sntrup761_oneshot_randombytes() {
    type P = Sntrup761;
    let mut seeds = vec![[0u8; 48]; 100];
    standard_seeds(KatRng::NistDrbg, &mut seeds);
    let file = official("sntrup761.oneshot-randombytes.rsp");
    for b in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        let text = header_and_records("# kem/sntrup761", &seeds, |seed| {
            let mut rng = KatSource::new(KatRng::NistDrbg, seed);
            let (pk, sk) =
                testing::keygen_with::<P, _>(b, Convention::PerList, &mut rng).expect("available");
            let (ct, ss) =
                testing::encaps_with::<P, _>(b, Convention::PerList, &mut rng, &pk).expect("ok");
            let ss2 = testing::decaps::<P>(b, &sk, &ct).expect("ok");
            assert_eq!(ss, ss2);
            assert_eq!(pk.len(), P::PK_BYTES);
            [pk.to_vec(), sk.to_vec(), ct.to_vec(), ss.to_vec()]
        });
        if let Some(want) = &file {
            assert!(&text == want, "{}: one-call transcript differs", b.name());
        }
        assert_eq!(sha256_hex(text.as_bytes()), ONESHOT_761, "{}", b.name());
    }
}
