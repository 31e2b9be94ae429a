//! Constant-time harness: runs one case under valgrind memcheck with every
//! secret marked undefined ("ctgrind"). Memcheck then reports each branch
//! and each memory address that depends on a secret.
//!
//! `pqforge-ctgrind --list` prints the cases; `pqforge-ctgrind CASE` runs one.
//! Cases: every registered algorithm (keygen, encaps, decaps of an honest and
//! of a tampered ciphertext; or keygen, sign, verify) and two negative
//! controls that MUST be flagged (an early-exit comparison and a
//! secret-indexed table lookup), so the harness cannot pass silently.
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

fn run_alg(a: Algorithm) -> Result<(), String> {
    let s = a.scheme();
    let i = s.info();
    let mut rng = secret_rng(i.name);
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
            k.encaps(&mut rng, &pk, &mut ct, &mut ss)
                .map_err(|e| e.to_string())?;
            k.decaps(&sk, &ct, &mut ss2).map_err(|e| e.to_string())?;
            // Test oracle only: the harness itself compares the secrets.
            declassify(&mut ss);
            declassify(&mut ss2);
            if ss != ss2 {
                return Err("honest decapsulation mismatch".into());
            }
            ct[i.ct_bytes / 3] ^= 0x04;
            k.decaps(&sk, &ct, &mut ss2).map_err(|e| e.to_string())?;
            declassify(&mut ss2);
            if ss == ss2 {
                return Err("tampered ciphertext not rejected".into());
            }
        }
        Scheme::Sig(g) => {
            g.keygen(&mut rng, &mut pk, &mut sk)
                .map_err(|e| e.to_string())?;
            poison_sk(s, &mut sk);
            let msg = b"pqforge constant-time harness";
            let mut sig = vec![0u8; i.sig_bytes];
            let n = g
                .sign(&mut rng, &sk, msg, &SignOptions::new(), &mut sig)
                .map_err(|e| e.to_string())?;
            declassify(&mut sig);
            g.verify(&pk, msg, &SignOptions::new(), &sig[..n])
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

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
            for c in CONTROLS {
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
