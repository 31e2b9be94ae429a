//! `pqforge`: list the algorithms, write KAT files, run the functional test,
//! benchmark, and check official vector files.
//!
//! With no arguments: functional test plus a quick benchmark of every
//! algorithm, printed as one markdown table.

mod bench;
mod kat;
mod list;
mod meter;
mod plot;
mod rng;
mod selftest;
mod vectors;

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
        /// Rounds per algorithm.
        #[arg(long, default_value_t = 10)]
        rounds: usize,
    },
    /// Time, stack and heap of every operation.
    Bench {
        /// Only algorithms whose name contains this string.
        #[arg(long)]
        filter: Option<String>,
        #[arg(long, value_enum, default_value = "md")]
        format: BenchFormat,
        /// Iterations per operation (fewer if an operation exceeds the time budget).
        #[arg(long, default_value_t = 100)]
        iters: usize,
        /// Also draw the medians as an SVG chart.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
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

/// A failure the user should read: one line, exit code 2 (usage or input
/// problem) or 1 (a check failed).
pub(crate) struct Failure {
    code: u8,
    msg: String,
}

impl Failure {
    /// Bad arguments or unreadable/malformed input (exit 2).
    pub(crate) fn usage(msg: impl Into<String>) -> Self {
        Self {
            code: 2,
            msg: msg.into(),
        }
    }
    /// A test or vector check failed (exit 1).
    pub(crate) fn check(msg: impl Into<String>) -> Self {
        Self {
            code: 1,
            msg: msg.into(),
        }
    }
}

/// Resolves an algorithm name.
pub(crate) fn parse_alg(name: &str) -> Result<pqforge::Algorithm, Failure> {
    name.parse()
        .map_err(|e: pqforge::ParseAlgorithmError| Failure::usage(e.to_string()))
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
        Some(Cmd::Test { filter, rounds }) => selftest::run(filter.as_deref(), rounds),
        Some(Cmd::Bench {
            filter,
            format,
            iters,
            plot,
        }) => bench::run(filter.as_deref(), format, iters, plot.as_deref()),
        Some(Cmd::Vectors { paths, alg }) => vectors::run(&paths, alg.as_deref()),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("pqforge: {}", f.msg);
            ExitCode::from(f.code)
        }
    }
}
