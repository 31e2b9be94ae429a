//! NIST-DRBG known-answer test: record 0 of the `PQCgenKAT_kem`-style
//! transcript (seed from the DRBG started on bytes 0x00..0x2F; keygen draws
//! d || z as one 64-byte block, encaps draws m as one 32-byte block) must
//! hash to the "single" digests that liboqs publishes for its ML-KEM
//! (mlkem-native, FIPS 203) in `tests/KATs/kem/kats.json`: the text
//! `count = 0\nseed = ..\npk = ..\nsk = ..\nct = ..\nss = ..\n`, upper-case hex.
#![allow(clippy::unwrap_used)]

use core::fmt::Write as _;

use pqforge_core::kat::{KatSource, standard_seeds};
use pqforge_core::{KatRng, Kem, KemAlg};
use pqforge_mlkem::{MlKem512, MlKem768, MlKem1024};
use sha2::{Digest, Sha256};

fn hex(s: &mut String, label: &str, b: &[u8]) {
    s.push_str(label);
    for x in b {
        let _ = write!(s, "{x:02X}");
    }
    s.push('\n');
}

fn record0<K: Kem>() -> String {
    let mut seeds = [[0u8; 48]; 1];
    standard_seeds(KatRng::NistDrbg, &mut seeds);
    let mut rng = KatSource::new(KatRng::NistDrbg, &seeds[0]);
    let (ek, dk) = K::keygen(&mut rng);
    let (ct, ss) = K::encaps(&ek, &mut rng);
    assert_eq!(K::decaps(&dk, &ct).as_ref(), ss.as_ref());
    let mut s = String::from("count = 0\n");
    hex(&mut s, "seed = ", &seeds[0]);
    hex(&mut s, "pk = ", ek.as_ref());
    hex(&mut s, "sk = ", dk.as_ref());
    hex(&mut s, "ct = ", ct.as_ref());
    hex(&mut s, "ss = ", ss.as_ref());
    s
}

/// The same record through the dynamic API (the board and the CLI
/// transcripts use it): the same draws, the same bytes.
fn record0_dyn<K: Kem>() -> String {
    let kem = KemAlg::<K>::DYN;
    let i = kem.info();
    let mut seeds = [[0u8; 48]; 1];
    standard_seeds(KatRng::NistDrbg, &mut seeds);
    let mut rng = KatSource::new(KatRng::NistDrbg, &seeds[0]);
    let (mut ek, mut dk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    kem.keygen(&mut rng, &mut ek, &mut dk).unwrap();
    let (mut ct, mut ss) = (vec![0u8; i.ct_bytes], vec![0u8; i.ss_bytes]);
    kem.encaps(&mut rng, &ek, &mut ct, &mut ss).unwrap();
    let mut ss2 = vec![0u8; i.ss_bytes];
    kem.decaps(&dk, &ct, &mut ss2).unwrap();
    assert_eq!(ss, ss2);
    let mut s = String::from("count = 0\n");
    hex(&mut s, "seed = ", &seeds[0]);
    hex(&mut s, "pk = ", &ek);
    hex(&mut s, "sk = ", &dk);
    hex(&mut s, "ct = ", &ct);
    hex(&mut s, "ss = ", &ss);
    s
}

fn sha256_hex(s: &str) -> String {
    Sha256::digest(s.as_bytes())
        .iter()
        .fold(String::new(), |mut o, b| {
            let _ = write!(o, "{b:02x}");
            o
        })
}

#[test]
fn nist_drbg_record0_matches_liboqs() {
    assert_eq!(
        sha256_hex(&record0::<MlKem512>()),
        "c70041a761e01cd6426fa60e9fd6a4412c2be817386c8d0f3334898082512782"
    );
    assert_eq!(
        sha256_hex(&record0::<MlKem768>()),
        "5352539586b6c3df58be6158a6250aeff402bd73060b0a3de68850ac074c17c3"
    );
    assert_eq!(
        sha256_hex(&record0::<MlKem1024>()),
        "f580d851e5fb27e6876e5e203fa18be4cdbfd49e05d48fec3d3992c8f43a13e6"
    );
}

#[test]
fn dynamic_api_gives_the_same_record0() {
    assert_eq!(record0_dyn::<MlKem512>(), record0::<MlKem512>());
    assert_eq!(record0_dyn::<MlKem768>(), record0::<MlKem768>());
    assert_eq!(record0_dyn::<MlKem1024>(), record0::<MlKem1024>());
}
