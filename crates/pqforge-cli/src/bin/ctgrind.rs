//! Constant-time harness: runs one case under valgrind memcheck with every
//! secret marked undefined ("ctgrind"). Memcheck then reports each branch
//! and each memory address that depends on a secret.
//!
//! `pqforge-ctgrind --list` prints the cases; `pqforge-ctgrind CASE` runs one.
//! Cases: every registered algorithm (keygen, encaps, decaps of an honest and
//! of a tampered ciphertext; or keygen, sign, verify), FN-DSA included (the
//! `ctgrind` feature enables it), Falcon signing with an expanded key
//! (`falcon-512-expanded`, `falcon-1024-expanded`), and two negative
//! controls that MUST be flagged (an early-exit comparison and a
//! secret-indexed table lookup), so the harness cannot pass silently.
//!
//! Every algorithm case runs with `CTGRIND_SEEDS` independent keys (default
//! 2; two signatures or two encapsulations per key), so that rarer branches
//! such as Falcon's keygen and signing retries or ML-DSA's rejections run
//! (SLH-DSA, which has neither: one key).
//!
//! Outside valgrind the binary refuses to run a case (exit 3): a native run
//! proves nothing. Driven by `scripts/ctgrind.sh`.

use std::hint::black_box;
use std::process::ExitCode;

use pqforge::ctgrind::{declassify, poison, running_on_valgrind};
use pqforge::{Algorithm, Scheme, SignOptions};

/// Deterministic SHAKE256 stream whose every output byte is poisoned, like
/// liboqs's constant-time test poisons `randombytes`.
struct SecretRng(pqforge::keccak::Shake256);

pqforge::fill_rng!(impl for SecretRng, |s: &mut SecretRng, dst: &mut [u8]| {
    s.0.squeeze(dst);
    poison(dst);
});

fn secret_rng(label: &str) -> SecretRng {
    let mut x = pqforge::keccak::Shake256::new();
    x.absorb(b"pqforge ctgrind ");
    x.absorb(label.as_bytes());
    SecretRng(x)
}

/// Poisons the secret key except its public ranges.
fn poison_sk(s: Scheme, sk: &mut [u8]) {
    poison(sk);
    for r in s.sk_public_ranges() {
        declassify(&mut sk[r.clone()]);
    }
}

/// Independent keys per algorithm case: `CTGRIND_SEEDS` (1 to 100),
/// default 2.
fn seeds() -> Result<usize, String> {
    match std::env::var("CTGRIND_SEEDS") {
        Err(_) => Ok(2),
        Ok(v) => match v.parse::<usize>() {
            Ok(n @ 1..=100) => Ok(n),
            _ => Err(format!("CTGRIND_SEEDS must be 1 to 100, not `{v}`")),
        },
    }
}

fn run_alg(a: Algorithm) -> Result<(), String> {
    // SLH-DSA has no retry loop and no rejection: one key runs all its
    // code (its s sets take minutes per key under valgrind).
    let n = if a.info().family == "SLH-DSA" {
        1
    } else {
        seeds()?
    };
    for seed in 0..n {
        run_alg_seed(a, seed)?;
    }
    Ok(())
}

fn run_alg_seed(a: Algorithm, seed: usize) -> Result<(), String> {
    let s = a.scheme();
    let i = s.info();
    let mut rng = secret_rng(&format!("{} {seed}", i.name));
    let (mut pk, mut sk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
    match s {
        Scheme::Kem(k) => {
            let (mut ct, mut ss, mut ss2) = (
                vec![0u8; i.ct_bytes],
                vec![0u8; i.ss_bytes],
                vec![0u8; i.ss_bytes],
            );
            k.keygen(&mut rng, &mut pk, &mut sk)
                .map_err(|e| e.to_string())?;
            poison_sk(s, &mut sk);
            for round in 0..2 {
                k.encaps(&mut rng, &pk, &mut ct, &mut ss)
                    .map_err(|e| e.to_string())?;
                k.decaps(&sk, &ct, &mut ss2).map_err(|e| e.to_string())?;
                // Test oracle only: the harness itself compares the secrets.
                declassify(&mut ss);
                declassify(&mut ss2);
                if ss != ss2 {
                    return Err("honest decapsulation mismatch".into());
                }
                // A flip in the first and in the last third.
                ct[(1 + round) * i.ct_bytes / 3 - 1] ^= 0x04;
                k.decaps(&sk, &ct, &mut ss2).map_err(|e| e.to_string())?;
                declassify(&mut ss2);
                if ss == ss2 {
                    return Err("tampered ciphertext not rejected".into());
                }
            }
        }
        Scheme::Sig(g) => {
            g.keygen(&mut rng, &mut pk, &mut sk)
                .map_err(|e| e.to_string())?;
            poison_sk(s, &mut sk);
            let mut sig = vec![0u8; i.sig_bytes];
            for msg in [&b"pqforge constant-time harness"[..], b"second message"] {
                let n = g
                    .sign(&mut rng, &sk, msg, &SignOptions::new(), &mut sig)
                    .map_err(|e| e.to_string())?;
                declassify(&mut sig);
                g.verify(&pk, msg, &SignOptions::new(), &sig[..n])
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}

/// Falcon signing with an expanded key (basis and LDL tree built once):
/// its own code path (`sign_tree`), compressed and padded signatures.
macro_rules! expanded_case {
    ($fn:ident, $set:ident, $alg:literal) => {
        fn $fn() -> Result<(), String> {
            use pqforge::falcon::{SignatureScheme, SigningKey, $set};
            let a: Algorithm = $alg.parse().map_err(|_| "unknown algorithm")?;
            let Scheme::Sig(g) = a.scheme() else {
                return Err("not a signature scheme".into());
            };
            for seed in 0..seeds()? {
                let mut rng = secret_rng(&format!("{}-expanded {seed}", $alg));
                let (vk, sk) = $set::keygen(&mut rng);
                let mut skb = sk.as_ref().to_vec();
                drop(sk);
                poison_sk(a.scheme(), &mut skb);
                let sk = SigningKey::<$set>::try_from(&skb[..]).map_err(|e| e.to_string())?;
                let ek = $set::expand(&sk);
                let mut sig = vec![0u8; <$set as SignatureScheme>::INFO.sig_bytes + 64];
                for (msg, padded) in [(&b"expanded key"[..], false), (b"padded", true)] {
                    let n = ek
                        .sign(msg, &mut rng, padded, &mut sig)
                        .map_err(|e| e.to_string())?;
                    declassify(&mut sig);
                    if !padded {
                        g.verify(vk.as_ref(), msg, &SignOptions::new(), &sig[..n])
                            .map_err(|e| e.to_string())?;
                    }
                }
            }
            Ok(())
        }
    };
}
expanded_case!(falcon_512_expanded, Falcon512, "falcon-512");
expanded_case!(falcon_1024_expanded, Falcon1024, "falcon-1024");

/// Cases beyond one per registered algorithm.
const EXTRA: [&str; 2] = ["falcon-512-expanded", "falcon-1024-expanded"];

/// Negative control: early-exit comparison of a secret (must be flagged).
#[inline(never)]
fn control_early_exit() {
    let mut secret = [0x42u8; 32];
    poison(&mut secret);
    let public = black_box([0x42u8; 32]);
    let mut equal = true;
    for (a, b) in secret.iter().zip(&public) {
        if a != b {
            equal = false;
            break;
        }
    }
    black_box(equal);
}

/// Negative control: table lookup at a secret index (must be flagged).
#[inline(never)]
fn control_secret_index() {
    let table: [u8; 256] = black_box(core::array::from_fn(|i| (i as u8).wrapping_mul(7)));
    let mut secret = [3u8; 1];
    poison(&mut secret);
    let idx = black_box(secret[0]);
    black_box(table[idx as usize]);
}

const CONTROLS: [&str; 2] = ["control-early-exit", "control-secret-index"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--list") => {
            for a in Algorithm::all() {
                println!("{}", a.name());
            }
            for c in EXTRA.iter().chain(&CONTROLS) {
                println!("{c}");
            }
            ExitCode::SUCCESS
        }
        Some(case) if args.len() == 1 => {
            if running_on_valgrind() == 0 {
                eprintln!("pqforge-ctgrind: not running under valgrind; refusing to pass");
                return ExitCode::from(3);
            }
            let r = match case {
                "control-early-exit" => {
                    control_early_exit();
                    Ok(())
                }
                "control-secret-index" => {
                    control_secret_index();
                    Ok(())
                }
                "falcon-512-expanded" => falcon_512_expanded(),
                "falcon-1024-expanded" => falcon_1024_expanded(),
                name => {
                    let Ok(a) = name.parse::<Algorithm>() else {
                        eprintln!("pqforge-ctgrind: unknown case `{name}`");
                        return ExitCode::from(2);
                    };
                    run_alg(a)
                }
            };
            match r {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("pqforge-ctgrind: {case}: {e}");
                    ExitCode::from(4)
                }
            }
        }
        _ => {
            eprintln!("usage: pqforge-ctgrind --list | pqforge-ctgrind CASE");
            ExitCode::from(2)
        }
    }
}
