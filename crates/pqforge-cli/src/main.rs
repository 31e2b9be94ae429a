//! `pqforge`: list the algorithms, write KAT files, run the functional test,
//! benchmark, and check official vector files.
//!
//! With no arguments: functional test plus a quick benchmark of every
//! algorithm, printed as one markdown table. Key files: `keygen`, `pub`,
//! `encaps`, `decaps`, `sign`, `verify` (see `keys.rs`).

mod bench;
mod files;
mod kat;
mod keys;
mod list;
mod meter;
mod plot;
mod rng;
mod selftest;

// The vector parsers and runners live in the library target (fuzz targets
// reach them there); `crate::Failure` keeps naming the one error type.
pub(crate) use pqforge_cli::{Failure, parse_alg, vectors};

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// The counting allocator measures each operation's peak heap use.
#[global_allocator]
static ALLOC: meter::CountingAlloc = meter::CountingAlloc;

#[derive(Parser)]
#[command(
    name = "pqforge",
    version,
    about = "Post-quantum cryptography suite: tests, KATs and benchmarks of every scheme",
    long_about = "Post-quantum cryptography suite: tests, KATs and benchmarks of every scheme.\n\n\
                  Without a subcommand: functional test plus a quick benchmark of every \
                  algorithm, printed as one markdown table."
)]
struct Cli {
    #[command(subcommand)]
    cmd: Option<Cmd>,
}

/// Output format of `list`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ListFormat {
    Md,
    Json,
}

/// Output of the key-file commands: quiet text, or one JSON object.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum OutFormat {
    Text,
    Json,
}

/// The message options of `sign` and `verify`.
#[derive(clap::Args)]
struct SigOpts {
    /// Context string (UTF-8; at most 255 bytes).
    #[arg(long, conflicts_with = "context_hex")]
    context: Option<String>,
    /// Context string in hex.
    #[arg(long, value_name = "HEX")]
    context_hex: Option<String>,
    /// Pre-hash the message (HashML-DSA / HashSLH-DSA): SHA2-256, SHA3-512, SHAKE-128, ...
    #[arg(long, value_name = "HASH")]
    prehash: Option<String>,
}

impl SigOpts {
    fn args(&self, deterministic: bool) -> keys::SigArgs<'_> {
        keys::SigArgs {
            context: self.context.as_deref(),
            context_hex: self.context_hex.as_deref(),
            prehash: self.prehash.as_deref(),
            deterministic,
        }
    }
}

/// Output format of `bench`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum BenchFormat {
    Md,
    Json,
    Csv,
}

#[derive(Subcommand)]
enum Cmd {
    /// List every algorithm: name, kind, sizes, category, status.
    List {
        #[arg(long, value_enum, default_value = "md")]
        format: ListFormat,
    },
    /// Write the KAT `.rsp` for the standard 100 seeds (or those of --req).
    Kat {
        /// Canonical algorithm name (see `pqforge list`).
        alg: String,
        /// Request file whose seeds (and messages) to use.
        #[arg(long, value_name = "FILE", conflicts_with = "write_req")]
        req: Option<PathBuf>,
        /// Write here instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Print the standard `.req` instead.
        #[arg(long)]
        write_req: bool,
    },
    /// pqm4-style functional test of every algorithm (10 rounds each).
    Test {
        /// Only algorithms whose name contains this string.
        #[arg(long)]
        filter: Option<String>,
        /// Rounds per algorithm (1 to 1,000,000).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        rounds: u32,
    },
    /// Time, stack and heap of every operation.
    Bench {
        /// Only algorithms whose name contains this string.
        #[arg(long)]
        filter: Option<String>,
        #[arg(long, value_enum, default_value = "md")]
        format: BenchFormat,
        /// Iterations per operation, 1 to 1,000,000 (fewer if an operation
        /// exceeds the time budget).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        iters: u32,
        /// Also draw the medians as an SVG chart.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
    },
    /// Generate a key pair into key files (PEM by default; ML-KEM and
    /// ML-DSA private keys in the seed form).
    Keygen {
        /// Algorithm (see `pqforge list`).
        alg: String,
        /// Private key file (created with mode 0600; `-`: standard output).
        #[arg(long, value_name = "FILE")]
        out: String,
        /// Also write the public key here.
        #[arg(long = "pub", value_name = "FILE")]
        public: Option<String>,
        /// pem, der or raw.
        #[arg(long, default_value = "pem", value_name = "ENCODING")]
        form: String,
        /// Private-key form: seed, expanded or both (ML-KEM, ML-DSA; default seed).
        #[arg(long, value_name = "FORM")]
        key_form: Option<String>,
        /// Replace existing files.
        #[arg(long)]
        force: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: OutFormat,
    },
    /// Print (or write) the public key of a private key file.
    Pub {
        /// Private key file (PEM or DER; raw with --alg; `-`: standard input).
        key: String,
        /// Algorithm of a raw key file.
        #[arg(long)]
        alg: Option<String>,
        /// Where to write it (default: standard output).
        #[arg(long, default_value = "-", value_name = "FILE")]
        out: String,
        /// pem, der or raw.
        #[arg(long, default_value = "pem", value_name = "ENCODING")]
        form: String,
        /// Replace an existing file.
        #[arg(long)]
        force: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: OutFormat,
    },
    /// Encapsulate a fresh shared secret to a public key.
    Encaps {
        /// Public key file.
        #[arg(long = "pub", value_name = "FILE")]
        public: String,
        /// Algorithm of a raw key file.
        #[arg(long)]
        alg: Option<String>,
        /// Ciphertext output.
        #[arg(long, value_name = "FILE")]
        ct: String,
        /// Shared-secret output (mode 0600; `-`: standard output). Required:
        /// a secret is written only where asked.
        #[arg(long, value_name = "FILE")]
        ss: Option<String>,
        /// Replace existing files.
        #[arg(long)]
        force: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: OutFormat,
    },
    /// Decapsulate a ciphertext with a private key.
    Decaps {
        /// Private key file.
        #[arg(long, value_name = "FILE")]
        key: String,
        /// Algorithm of a raw key file.
        #[arg(long)]
        alg: Option<String>,
        /// Ciphertext input.
        #[arg(long, value_name = "FILE")]
        ct: String,
        /// Shared-secret output (mode 0600; `-`: standard output). Required:
        /// a secret is written only where asked.
        #[arg(long, value_name = "FILE")]
        ss: Option<String>,
        /// Replace an existing file.
        #[arg(long)]
        force: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: OutFormat,
    },
    /// Sign a file.
    Sign {
        /// Private key file.
        #[arg(long, value_name = "FILE")]
        key: String,
        /// Algorithm of a raw key file.
        #[arg(long)]
        alg: Option<String>,
        /// The message (`-`: standard input).
        #[arg(long = "in", value_name = "FILE")]
        input: String,
        /// Signature output.
        #[arg(long, value_name = "FILE")]
        sig: String,
        #[command(flatten)]
        opts: SigOpts,
        /// Deterministic signing (default: hedged).
        #[arg(long)]
        deterministic: bool,
        /// Replace an existing file.
        #[arg(long)]
        force: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: OutFormat,
    },
    /// Verify a signature: exit 0 valid, 1 invalid, 2 usage or input error.
    Verify {
        /// Public key file.
        #[arg(long = "pub", value_name = "FILE")]
        public: String,
        /// Algorithm of a raw key file.
        #[arg(long)]
        alg: Option<String>,
        /// The message (`-`: standard input).
        #[arg(long = "in", value_name = "FILE")]
        input: String,
        /// The signature.
        #[arg(long, value_name = "FILE")]
        sig: String,
        #[command(flatten)]
        opts: SigOpts,
        #[arg(long, value_enum, default_value = "text")]
        format: OutFormat,
    },
    /// Run official vector files (NIST .rsp, ACVP JSON, Wycheproof JSON).
    Vectors {
        /// Vector files or directories.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Algorithm for `.rsp` files whose header names several revisions
        /// (default: every algorithm with that header is tried).
        #[arg(long)]
        alg: Option<String>,
    },
}

/// Algorithms one of whose names contains `filter`, ignoring case and
/// separators (`mlkem` selects the `ml-kem-*` sets); all when `None`.
pub(crate) fn filtered(filter: Option<&str>) -> Result<Vec<pqforge::Algorithm>, Failure> {
    let v: Vec<_> = pqforge::Algorithm::all()
        .filter(|a| filter.is_none_or(|f| a.info().names().any(|n| pqforge::names::contains(n, f))))
        .collect();
    if let Some(f) = filter
        && v.is_empty()
    {
        return Err(Failure::usage(format!("no algorithm matches `{f}`")));
    }
    Ok(v)
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.cmd {
        None => selftest::main_job(),
        Some(Cmd::List { format }) => {
            list::run(format == ListFormat::Json);
            Ok(())
        }
        Some(Cmd::Kat {
            alg,
            req,
            out,
            write_req,
        }) => kat::run(&alg, req.as_deref(), out.as_deref(), write_req),
        Some(Cmd::Test { filter, rounds }) => selftest::run(filter.as_deref(), rounds as usize),
        Some(Cmd::Bench {
            filter,
            format,
            iters,
            plot,
        }) => bench::run(filter.as_deref(), format, iters as usize, plot.as_deref()),
        Some(Cmd::Vectors { paths, alg }) => vectors::run(&paths, alg.as_deref()),
        Some(Cmd::Keygen {
            alg,
            out,
            public,
            form,
            key_form,
            force,
            format,
        }) => keys::keygen(&keys::KeygenArgs {
            alg: &alg,
            out: &out,
            public: public.as_deref(),
            form: &form,
            key_form: key_form.as_deref(),
            force,
            json: format == OutFormat::Json,
        }),
        Some(Cmd::Pub {
            key,
            alg,
            out,
            form,
            force,
            format,
        }) => keys::public(
            &key,
            alg.as_deref(),
            &out,
            &form,
            force,
            format == OutFormat::Json,
        ),
        Some(Cmd::Encaps {
            public,
            alg,
            ct,
            ss,
            force,
            format,
        }) => keys::encaps(
            &public,
            alg.as_deref(),
            &ct,
            ss.as_deref(),
            force,
            format == OutFormat::Json,
        ),
        Some(Cmd::Decaps {
            key,
            alg,
            ct,
            ss,
            force,
            format,
        }) => keys::decaps(
            &key,
            alg.as_deref(),
            &ct,
            ss.as_deref(),
            force,
            format == OutFormat::Json,
        ),
        Some(Cmd::Sign {
            key,
            alg,
            input,
            sig,
            opts,
            deterministic,
            force,
            format,
        }) => keys::sign(
            &key,
            alg.as_deref(),
            &input,
            &sig,
            &opts.args(deterministic),
            force,
            format == OutFormat::Json,
        ),
        Some(Cmd::Verify {
            public,
            alg,
            input,
            sig,
            opts,
            format,
        }) => keys::verify(
            &public,
            alg.as_deref(),
            &input,
            &sig,
            &opts.args(false),
            format == OutFormat::Json,
        ),
    }
}

/// A closed pipe on standard output (`pqforge list | head`) ends the
/// process quietly, as for other command-line tools, instead of a panic in
/// `println!`: the default action of SIGPIPE (which the Rust runtime sets
/// to "ignore") is restored.
#[cfg(unix)]
#[allow(unsafe_code)]
fn quiet_broken_pipe() {
    // SAFETY: `signal` with SIG_DFL installs no handler code; it runs once at
    // start-up, before any thread is spawned.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    #[cfg(unix)]
    quiet_broken_pipe();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("pqforge: {}", f.message());
            ExitCode::from(f.code())
        }
    }
}
