//! Known-answer tests against the official FrodoKEM / eFrodoKEM transcripts
//! (`../shared/kat/frodokem`, PROVENANCE.md there): the first two records
//! byte for byte against `*.first2.rsp` (an exact prefix of the official
//! file: header, blank line, records 0 and 1), and the whole 100-record
//! transcript regenerated through the dynamic API with the NIST DRBG and
//! compared with the SHA-256 of the official file (embedded below, from
//! `kat_hashes.json`). The 640 transcripts run by default; the 976 and
//! 1344 ones are `#[ignore]`d (run them with `--ignored`).

use pqforge_core::kat::{KatSource, data_dir, rsp, standard_seeds};
use pqforge_core::{DynKem, Scheme};
use sha2::{Digest, Sha256};

/// (name, first2 file under kat/frodokem, SHA-256 of the whole official
/// 100-record file), in `SCHEMES` order.
const FILES: [(&str, &str, &str); 12] = [
    (
        "frodokem-640-aes",
        "FrodoKEM/PQCkemKAT_19888.first2.rsp",
        "ed46a5054b2dca53d60df524ffe3a7f8dfbee58c12ea6465a8ef7d59f8c2fbf4",
    ),
    (
        "frodokem-640-shake",
        "FrodoKEM/PQCkemKAT_19888_shake.first2.rsp",
        "712ed35063d8b8329f610c42d6e3037cd1c24346f85f21651e927d6cb7057b0d",
    ),
    (
        "frodokem-976-aes",
        "FrodoKEM/PQCkemKAT_31296.first2.rsp",
        "d1bc19050269a99bfa84038ad466688428ebc98417ba35b48a06f3c05aefc9bd",
    ),
    (
        "frodokem-976-shake",
        "FrodoKEM/PQCkemKAT_31296_shake.first2.rsp",
        "e29858b32dbd88f926e2a45d3d464812642e1df7cd45fcf9c3db4b4c683f45f0",
    ),
    (
        "frodokem-1344-aes",
        "FrodoKEM/PQCkemKAT_43088.first2.rsp",
        "1c866df7985ef3e3ca1402d046778d49c643ec584b8bf25b30baf7a34bcdde34",
    ),
    (
        "frodokem-1344-shake",
        "FrodoKEM/PQCkemKAT_43088_shake.first2.rsp",
        "05cdb3dad681f448da3b86eaa8404e6555593199b4311b6738fcfabf79f288dd",
    ),
    (
        "efrodokem-640-aes",
        "eFrodoKEM/PQCkemKAT_19888.first2.rsp",
        "d1e69503e9042f9484b6e01a466865baa607471c63d7e45d2409f639ba161206",
    ),
    (
        "efrodokem-640-shake",
        "eFrodoKEM/PQCkemKAT_19888_shake.first2.rsp",
        "604a10cfc871dfaed9cb5b057c644ab03b16852cea7f39bc7f9831513b5b1cfa",
    ),
    (
        "efrodokem-976-aes",
        "eFrodoKEM/PQCkemKAT_31296.first2.rsp",
        "32ed6b1622c845b487c3170ce6878df7baae07e90bd2819a19e5960ce04a55f7",
    ),
    (
        "efrodokem-976-shake",
        "eFrodoKEM/PQCkemKAT_31296_shake.first2.rsp",
        "32b0ad60047273fb52696f0516acac7ed083e31f5478b416d579ae5e8d8e734c",
    ),
    (
        "efrodokem-1344-aes",
        "eFrodoKEM/PQCkemKAT_43088.first2.rsp",
        "9756f7c8cc88d7048ff6e81fa66425bb1392e35c1d30016c190dba17de15221a",
    ),
    (
        "efrodokem-1344-shake",
        "eFrodoKEM/PQCkemKAT_43088_shake.first2.rsp",
        "591adc09a718afbc0ac36e1f57a191e557fe4eec7899e078104b9706b75e2f96",
    ),
];

fn alg(index: usize) -> &'static dyn DynKem {
    let Scheme::Kem(alg) = pqforge_frodokem::SCHEMES[index] else {
        panic!("SCHEMES[{index}] is not a KEM");
    };
    assert_eq!(alg.info().name, FILES[index].0);
    alg
}

/// The `.rsp` text (header, blank line, `records` records); decapsulation
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

/// Records 0 and 1 against the official prefix file, byte for byte (field
/// by field first, for a readable failure). Fails under `CI=true` when the
/// data is missing (`data_dir`).
fn first2(index: usize) {
    let Some(dir) = data_dir() else { return };
    let alg = alg(index);
    let path = dir.join("kat/frodokem").join(FILES[index].1);
    let official = std::fs::read_to_string(&path).expect("read official first2 .rsp");
    let ours = rsp_text(alg, 2);
    let (a, b) = (
        rsp::parse(&ours).expect("parse"),
        rsp::parse(&official).expect("parse"),
    );
    assert_eq!(a.len(), 2);
    assert_eq!(b.len(), 2);
    for r in 0..2 {
        for field in ["count", "seed", "pk", "sk", "ct", "ss"] {
            assert_eq!(
                a[r].get(field),
                b[r].get(field),
                "{}: record {r} field `{field}`",
                FILES[index].0
            );
        }
    }
    assert!(
        ours == official,
        "{}: first two records not byte-identical",
        FILES[index].0
    );
}

/// The whole 100-record transcript against the official file's SHA-256.
fn full(index: usize) {
    let text = rsp_text(alg(index), 100);
    let digest = Sha256::digest(text.as_bytes());
    assert_eq!(
        rsp::to_hex(&digest).to_lowercase(),
        FILES[index].2,
        "{}: .rsp digest",
        FILES[index].0
    );
}

macro_rules! kat_tests {
    ($($idx:literal: $first:ident, $full:ident, $($ign:ident)?;)*) => {$(
        #[test]
        #[cfg_attr(miri, ignore = "reads ../shared")]
        fn $first() {
            first2($idx);
        }

        #[test]
        $(#[$ign = "slow: the whole 100-record transcript"])?
        #[cfg_attr(miri, ignore = "too slow")]
        fn $full() {
            full($idx);
        }
    )*};
}

kat_tests! {
    0: kat_first2_frodokem_640_aes, kat_full_frodokem_640_aes, ;
    1: kat_first2_frodokem_640_shake, kat_full_frodokem_640_shake, ;
    2: kat_first2_frodokem_976_aes, kat_full_frodokem_976_aes, ;
    3: kat_first2_frodokem_976_shake, kat_full_frodokem_976_shake, ;
    4: kat_first2_frodokem_1344_aes, kat_full_frodokem_1344_aes, ;
    5: kat_first2_frodokem_1344_shake, kat_full_frodokem_1344_shake, ;
    6: kat_first2_efrodokem_640_aes, kat_full_efrodokem_640_aes, ;
    7: kat_first2_efrodokem_640_shake, kat_full_efrodokem_640_shake, ;
    8: kat_first2_efrodokem_976_aes, kat_full_efrodokem_976_aes, ;
    9: kat_first2_efrodokem_976_shake, kat_full_efrodokem_976_shake, ;
    10: kat_first2_efrodokem_1344_aes, kat_full_efrodokem_1344_aes, ;
    11: kat_first2_efrodokem_1344_shake, kat_full_efrodokem_1344_shake, ;
}
