//! Known-answer tests: regenerate the official NIST-DRBG transcripts and
//! compare their SHA-256 with the digests of
//! `../shared/kat/mceliece/kat_hashes.json` (embedded below; the data
//! itself is not in the repository). When the data directory is present,
//! the official files are also compared byte for byte.
//!
//! Hash coverage (PROVENANCE.md): `single` = record 0 without its trailing
//! empty line (= `*.count0.txt`); `rsp10` = `# kem/<name>\n\n` + records
//! 0..9, each followed by an empty line. For pc/pcf the header is
//! `# kem/<name>pc` (`pchdr_rsp10_sha256`).
//!
//! The 10-record checks of the 460896 and larger sets are `#[ignore]`d
//! (minutes at opt-level 3 on 2 cores); run them with `--ignored`.
//!
//! The transcripts go through the dynamic API on heap buffers, as the
//! `pqforge kat` command and the board harness make them.

use std::fmt::Write as _;

use pqforge_core::kat::{KatSource, standard_seeds};
use pqforge_core::{KatRng, KemAlg};
use pqforge_mceliece::*;
use sha2::{Digest, Sha256};

fn hex(out: &mut String, b: &[u8]) {
    for x in b {
        let _ = write!(out, "{x:02X}");
    }
}

/// Records 0..n in the official format, each ending with its `ss` line.
fn records<P: ParameterSet>(n: usize) -> Vec<String> {
    let mut seeds = vec![[0u8; 48]; n];
    standard_seeds(KatRng::NistDrbg, &mut seeds);
    let mut pk = vec![0u8; P::PK_BYTES];
    let mut sk = vec![0u8; P::SK_BYTES];
    let mut ct = vec![0u8; P::CT_BYTES];
    let kem = KemAlg::<P>::DYN;
    seeds
        .iter()
        .enumerate()
        .map(|(count, seed)| {
            let mut rng = KatSource::new(KatRng::NistDrbg, seed);
            let (mut ss, mut ss2) = ([0u8; 32], [0u8; 32]);
            kem.keygen(&mut rng, &mut pk, &mut sk).expect("keygen");
            kem.encaps(&mut rng, &pk, &mut ct, &mut ss).expect("encaps");
            kem.decaps(&sk, &ct, &mut ss2).expect("decaps");
            assert_eq!(ss, ss2, "{} record {count}: decaps mismatch", P::NAME);
            let mut r = format!("count = {count}\nseed = ");
            hex(&mut r, seed);
            r.push_str("\npk = ");
            hex(&mut r, &pk);
            r.push_str("\nsk = ");
            hex(&mut r, &sk);
            r.push_str("\nct = ");
            hex(&mut r, &ct);
            r.push_str("\nss = ");
            hex(&mut r, &ss);
            r.push('\n');
            r
        })
        .collect()
}

fn sha256_hex(s: &str) -> String {
    Sha256::digest(s.as_bytes())
        .iter()
        .fold(String::new(), |mut o, b| {
            let _ = write!(o, "{b:02x}");
            o
        })
}

fn official(file: &str) -> Option<String> {
    let dir = pqforge_core::kat::data_dir()?.join("kat/mceliece");
    let p = dir.join(file);
    if p.is_file() {
        Some(std::fs::read_to_string(p).expect("read official file"))
    } else {
        None
    }
}

fn check_first<P: ParameterSet>(single: &str) {
    let rec = records::<P>(1).remove(0);
    if let Some(want) = official(&format!("{}.count0.txt", P::NAME)) {
        assert!(
            rec == want,
            "{}: record 0 differs from the official file",
            P::NAME
        );
    }
    assert_eq!(sha256_hex(&rec), single, "{}: record 0 digest", P::NAME);
}

fn check_ten<P: ParameterSet>(rsp10: &str) {
    let mut file = format!("{}\n\n", P::INFO.kat_header);
    for r in records::<P>(10) {
        file.push_str(&r);
        file.push('\n');
    }
    if let Some(want) = official(&format!("{}.kat10.rsp", P::NAME)) {
        assert!(
            file == want,
            "{}: 10-record file differs from the official one",
            P::NAME
        );
    }
    assert_eq!(sha256_hex(&file), rsp10, "{}: 10-record digest", P::NAME);
}

macro_rules! kat {
    ($($first:ident, $ten:ident, $ty:ty, $single:literal, $rsp10:literal $(, ignore = $why:literal)?;)*) => {$(
        #[test]
        fn $first() {
            check_first::<$ty>($single);
        }
        #[test]
        $(#[ignore = $why])?
        fn $ten() {
            check_ten::<$ty>($rsp10);
        }
    )*};
}

kat! {
    first_348864, ten_348864, McEliece348864,
        "6f0f50626df15ce403c0c1d5f91648245282afebcac90e5db3595ce9b20b1817",
        "76351ed2e95a616ca76230bac579cead21012d89181c7398381d0bbe904ab92c";
    first_348864f, ten_348864f, McEliece348864f,
        "9b17b21becc1d3acf9df0a6d87875790259c075abeb50f97ea254c8d29395a41",
        "d0d5ea348a181740862dcc8476ff7d00ce44d1c6e36b2145289d97f580f2cd7d";
    first_460896, ten_460896, McEliece460896,
        "03124a66e44aea18a3c1fcd63be22f2217ec5514b7d84166b1da71094c251769",
        "fd785edfe1b721fb24fe159cb9f30cc17daec3d188d59a4bf47a83388880192e", ignore = "10 records of a large set: slow (run with --ignored)";
    first_460896f, ten_460896f, McEliece460896f,
        "a027478ab01849de3d492176ea95c071110bcb8f7e4e6afa136a30cd1a1f6074",
        "552da50baff2666db7b64486c88da4e2b65b25c3d5424be682ca08ffce15a356", ignore = "10 records of a large set: slow (run with --ignored)";
    first_6688128, ten_6688128, McEliece6688128,
        "4c825bf86378d76b197caca6f957942c0cc98b50ce4a6b26cad6efa25d1d20c6",
        "3f926328959729c61a11b11ab6326246a42d9b3e76943bba2625342ea33723e2", ignore = "10 records of a large set: slow (run with --ignored)";
    first_6688128f, ten_6688128f, McEliece6688128f,
        "1fa84d1abd8ef104cdcf75277ca4399475945e97087dde3183a09415e1d61987",
        "7b64c9882a00bc984e0ca9d3748d0b1bd9215d1bcf921643ee88d28d539303d8", ignore = "10 records of a large set: slow (run with --ignored)";
    first_6960119, ten_6960119, McEliece6960119,
        "8feea532732502134b7965fd495e6618b09f0b4747c2d94b29a85a90a0b6cc8a",
        "e4d608fa9795c1a1704709ab9df3940ae1dbf0f708cc0dbdf76c8f3173088e46", ignore = "10 records of a large set: slow (run with --ignored)";
    first_6960119f, ten_6960119f, McEliece6960119f,
        "9a586a40d1af4819efb3f7343a05c260bd27d7e5d450945fee0ace5593761c3b",
        "d6d3e929ff505108fd545d14df5f5bac234cd6d882f0eed3fd628f122e3093c6", ignore = "10 records of a large set: slow (run with --ignored)";
    first_8192128, ten_8192128, McEliece8192128,
        "cbe9b802465df7a7b3a59a08d3bd3ea603b6277532c15f89418b8d0d6508ee24",
        "beb28fc0d1555a0028afeb6ebc72b8337f424a826be3d49b47759b8bda50db90", ignore = "10 records of a large set: slow (run with --ignored)";
    first_8192128f, ten_8192128f, McEliece8192128f,
        "f497b217022465568f0ed6c7987c462b74ba2d3e39f963ac357436c727ed9bdb",
        "3fdb40d47705829c16de4fb5a81f7c095eb4dadc306cfc2c89eff2f483c42402", ignore = "10 records of a large set: slow (run with --ignored)";
    first_348864pc, ten_348864pc, McEliece348864pc,
        "c583208559c42dafb83c8cdebc8aac1059239e67d11eadcd2f14884859249298",
        "9c11e1e4e34fb4fbc57137afd1d510444d21a9ec0297906090116f1514e066a0";
    first_348864pcf, ten_348864pcf, McEliece348864pcf,
        "b7e910df051852104e6470798a830f3a00bda23dcadb9802d8a0e91425d4e3cc",
        "b0af7f6aa523af742209939a3b6d11a96ddf88b1647804a6babfa266b813e88c";
    first_460896pc, ten_460896pc, McEliece460896pc,
        "ccd77cbc1099ff48920eddedde451df942273725af0fcd21167757d681717e37",
        "0130fb3682a01005b3a81d5b8f865c079914bbc8910fedb5de1e5d463fd99beb", ignore = "10 records of a large set: slow (run with --ignored)";
    first_460896pcf, ten_460896pcf, McEliece460896pcf,
        "604645e9e7902480a5d9be8a8eed4a75efa5cd0b1a594a8e779546c62eb22177",
        "4a32a0690ec54122c366edb4e7f745342f18f555a46248fab4ead1d0ec2a8556", ignore = "10 records of a large set: slow (run with --ignored)";
    first_6688128pc, ten_6688128pc, McEliece6688128pc,
        "35583a5d54832f14783aad7d9c9806acd12a9f0e210e51525a85d016a3848b7b",
        "77a3613f6524d5b34bd1915dfe65a527ed3527388a97b89cb6b30a94417ef398", ignore = "10 records of a large set: slow (run with --ignored)";
    first_6688128pcf, ten_6688128pcf, McEliece6688128pcf,
        "54d72c5c1bdae33dda60298c42c7d8dce5e805245df5a023803e001e58038bc7",
        "376c96a1932d92654360d0bf2edd9988f740b101f25e3b90d4040452b5902fc0", ignore = "10 records of a large set: slow (run with --ignored)";
    first_6960119pc, ten_6960119pc, McEliece6960119pc,
        "d1b18d629b1116ed7e9939f4f6dbd6bc3f1bded3c4543174aa8f0b003fbd23ff",
        "33d299b1199c6a44ca29f933c5c86c71d8073a0efa04c4a2a2c575ed9fc815cb", ignore = "10 records of a large set: slow (run with --ignored)";
    first_6960119pcf, ten_6960119pcf, McEliece6960119pcf,
        "af0beb7170396ac27ffb8c2c427c865a29923945641df82f4de8cab6e8ccb6f9",
        "e9e0422426cfd53925953f22e38dab7622d4de62910810e33a33ce38408cea7a", ignore = "10 records of a large set: slow (run with --ignored)";
    first_8192128pc, ten_8192128pc, McEliece8192128pc,
        "9495c83e9145b4d475aafed40b0645bdbac6f8c4e31a780d8b3e7aec2e5a6a0a",
        "4e17f036be63adaf2eb947118564eaa021124aea5634796c82a6d9383e54ce4a", ignore = "10 records of a large set: slow (run with --ignored)";
    first_8192128pcf, ten_8192128pcf, McEliece8192128pcf,
        "99c2fb4e72464bdd8a0f7c1cc9fd2b280b9152f81342b03bd9d0c62ca93d7808",
        "3f7d45ee77b548014678e3cbc58fddb719130c297924e73c3be31bec23bf2b83", ignore = "10 records of a large set: slow (run with --ignored)";
}
