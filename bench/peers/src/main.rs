//! Side-by-side benchmark of pqforge and peer implementations, in one
//! process, interleaved round by round so machine noise hits every
//! implementation alike. Prints medians and the ratio pqforge / peer
//! (below 1.0 means pqforge is faster), under the CPU line
//! (`pqforge::cpu::Summary`); pqforge's rows name the backend its dispatch
//! ran (`pqforge [avx2]`).
//!
//! ```text
//! cargo run --release -p pqforge-peers -- [--filter hqc] [--iters 200] [--rounds 5] [--no-avx512]
//! ```

#[cfg(feature = "falcon")]
mod falcon;
#[cfg(feature = "frodokem")]
mod frodokem;
mod harness;
#[cfg(feature = "hqc")]
mod hqc;
#[cfg(feature = "mceliece")]
mod mceliece;
#[cfg(feature = "mldsa")]
mod mldsa;
#[cfg(feature = "mlkem")]
mod mlkem;
#[cfg(feature = "ntru")]
mod ntru;
#[cfg(feature = "ntruprime")]
mod ntruprime;
#[cfg(feature = "slhdsa")]
mod slhdsa;
#[cfg(feature = "xwing")]
mod xwing;

use harness::Opts;

fn main() {
    let opts = match Opts::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("pqforge-peers: {e}");
            std::process::exit(2);
        }
    };
    // After `Opts::parse` (`--no-avx512`): the features the dispatches see.
    println!("{}\n", pqforge::cpu::Summary);
    println!("| scheme | op | impl | median ns | median cycles | ratio pqforge/impl |");
    println!("|---|---|---|---:|---:|---:|");
    #[cfg(feature = "hqc")]
    hqc::run(&opts);
    #[cfg(feature = "mlkem")]
    mlkem::run(&opts);
    #[cfg(feature = "mceliece")]
    mceliece::run(&opts);
    #[cfg(feature = "falcon")]
    falcon::run(&opts);
    #[cfg(feature = "mldsa")]
    mldsa::run(&opts);
    #[cfg(feature = "slhdsa")]
    slhdsa::run(&opts);
    #[cfg(feature = "xwing")]
    xwing::run(&opts);
    #[cfg(feature = "frodokem")]
    frodokem::run(&opts);
    #[cfg(feature = "ntru")]
    ntru::run(&opts);
    #[cfg(feature = "ntruprime")]
    ntruprime::run(&opts);
}
