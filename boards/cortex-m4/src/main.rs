//! pqm4-style harness for every algorithm of this build, on QEMU
//! `mps2-an386` (Cortex-M4F): functional test, instruction counts, stack
//! high-water marks and the KAT transcript digest.
//!
//! Configuration comes from the semihosting command line (QEMU
//! `-semihosting-config ...,arg=KEY=VALUE,...`); `cargo xtask m4` sets it:
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `mode` | `test,speed,stack,transcript` | what to run (`list` prints the algorithms; `hashshare`: one marked run per operation for the hashing-share plugin) |
//! | `alg` | all | exact algorithm name |
//! | `filter` | none | substring of the name (case-insensitive) |
//! | `n` | 5 | speed runs per operation |
//! | `rounds` | 3 | functional-test rounds |
//! | `records` | 3 | transcript records |
//!
//! Output: one line per result (`alg`, `test`, `speed`, `stack`,
//! `transcript`), then `done ok` or `done fail`. Exit status 0 when every
//! check passed, 1 on any failure, fault or panic.

#![no_std]
#![no_main]

mod meter;
mod rng;

use core::hint::black_box;
use core::ptr::addr_of_mut;

use cortex_m_rt::{entry, exception};
use cortex_m_semihosting::{debug, hprint, hprintln, nr, syscall};
use pqforge::kat::KatSource;
use pqforge::transcript::{self, TEST_MSG_BYTES};
use pqforge::{AlgInfo, Algorithm, Scheme, SignOptions};

use rng::BenchRng;

/// Semihosting SYS_EXIT with "run-time error", using no stack, so it also
/// works after a stack overflow. QEMU then exits with status 1.
#[inline(always)]
fn fail_now() -> ! {
    // SAFETY: semihosting call that does not return.
    unsafe {
        core::arch::asm!(
            "movs r0, #0x18",
            "movw r1, #0x0023",
            "movt r1, #0x0002",
            "bkpt 0xab",
            "b .",
            options(noreturn)
        )
    }
}

unsafe extern "C" {
    /// One past the top of the stack region (memory-*.x).
    static _stack_start: u32;
}

// HardFault, entered straight from the vector table (cortex-m-rt's table
// names the symbol `HardFault`). The faulting code's stack may be unusable
// (an overflow leaves SP below the region), so before anything touches the
// stack SP goes back to the top of the stack region (the interrupted code
// never resumes); then `fault_report` gets the faulting SP in r0. Written
// in assembly: a Rust handler's prologue would push to the bad stack.
core::arch::global_asm!(
    ".section .text.HardFault,\"ax\",%progbits",
    ".global HardFault",
    ".type HardFault,%function",
    ".thumb_func",
    "HardFault:",
    "mrs r0, msp",
    "ldr r1, ={top}",
    "mov sp, r1",
    "b {report}",
    ".ltorg",
    ".size HardFault, . - HardFault",
    top = sym _stack_start,
    report = sym fault_report,
);

/// Prints why the firmware stops (`fault stack overflow ...` when SP had
/// gone below the stack region, for `cargo xtask m4` to report as "does not
/// fit"), then exits with status 1.
extern "C" fn fault_report(sp: u32) -> ! {
    let floor = core::ptr::addr_of!(meter::_stack_end) as u32;
    // The exception frame (8 words, 26 with the FPU state) was pushed below
    // the faulting SP.
    if sp < floor + 26 * 4 {
        hprintln!(
            "fault stack overflow: sp {:#010x}, the stack's floor is {:#010x}",
            sp,
            floor
        );
    } else {
        hprintln!("fault hard fault: sp {:#010x}", sp);
    }
    fail_now()
}

#[exception]
unsafe fn DefaultHandler(_irqn: i16) -> ! {
    fail_now()
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    hprintln!("panic {}", info);
    fail_now()
}

/// Working memory for keys, ciphertexts and signatures: `cargo xtask m4`
/// sizes it for the largest algorithm of the build (`PQFORGE_M4_ARENA`,
/// bytes; 3 MB when built by hand). Checked per algorithm at run time.
const ARENA_BYTES: usize = match option_env!("PQFORGE_M4_ARENA") {
    Some(s) => parse_usize(s),
    None => 3 << 20,
};

/// Decimal `s` at compile time.
const fn parse_usize(s: &str) -> usize {
    let b = s.as_bytes();
    let mut v = 0usize;
    let mut i = 0;
    while i < b.len() {
        assert!(b[i].is_ascii_digit(), "PQFORGE_M4_ARENA: not a number");
        v = v * 10 + (b[i] - b'0') as usize;
        i += 1;
    }
    v
}
static mut ARENA: [u8; ARENA_BYTES] = [0; ARENA_BYTES];

/// Most speed runs per operation.
const MAX_RUNS: usize = 64;

/// Run configuration (see the crate documentation).
struct Config<'a> {
    list: bool,
    test: bool,
    speed: bool,
    stack: bool,
    transcript: bool,
    hashshare: bool,
    alg: Option<&'a str>,
    filter: Option<&'a str>,
    runs: usize,
    rounds: usize,
    records: usize,
}

impl<'a> Config<'a> {
    fn parse(cmdline: &'a str) -> Result<Self, &'a str> {
        let mut c = Config {
            list: false,
            test: true,
            speed: true,
            stack: true,
            transcript: true,
            hashshare: false,
            alg: None,
            filter: None,
            runs: 5,
            rounds: 3,
            records: 3,
        };
        for tok in cmdline.split_ascii_whitespace() {
            let Some((k, v)) = tok.split_once('=') else {
                continue; // e.g. the kernel file name
            };
            let num = |v: &'a str| v.parse::<usize>().map_err(|_| tok);
            match k {
                "mode" => {
                    (c.test, c.speed, c.stack, c.transcript) = (false, false, false, false);
                    for m in v.split(',') {
                        match m {
                            "all" => {
                                (c.test, c.speed, c.stack, c.transcript) = (true, true, true, true);
                            }
                            "list" => c.list = true,
                            "test" => c.test = true,
                            "speed" => c.speed = true,
                            "stack" => c.stack = true,
                            "transcript" => c.transcript = true,
                            "hashshare" => c.hashshare = true,
                            _ => return Err(tok),
                        }
                    }
                }
                "alg" => c.alg = Some(v),
                "filter" => c.filter = Some(v),
                "n" => c.runs = num(v)?.clamp(1, MAX_RUNS),
                "rounds" => c.rounds = num(v)?,
                "records" => c.records = num(v)?,
                _ => return Err(tok),
            }
        }
        Ok(c)
    }

    fn selects(&self, name: &str) -> bool {
        let exact = self.alg.is_none_or(|a| a.eq_ignore_ascii_case(name));
        let sub = self.filter.is_none_or(|f| contains_ignore_case(name, f));
        exact && sub
    }
}

fn contains_ignore_case(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    n.is_empty() || h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

/// The semihosting command line (QEMU joins its `arg=` values with spaces).
fn cmdline(buf: &mut [u8; 512]) -> &str {
    let block = [buf.as_mut_ptr() as usize, buf.len() - 1];
    // SAFETY: SYS_GET_CMDLINE writes at most block[1] bytes plus a NUL into buf.
    let r = unsafe { syscall(nr::GET_CMDLINE, &block) };
    if r != 0 {
        return "";
    }
    let len = buf.iter().position(|&b| b == 0).unwrap_or(0);
    core::str::from_utf8(&buf[..len]).unwrap_or("")
}

fn hex_line(prefix: &str, name: &str, records: usize, d: &[u8; 32]) {
    hprint!("{} {} {} ", prefix, name, records);
    for b in d {
        hprint!("{:02x}", b);
    }
    hprintln!("");
}

/// Min, median and max of `v` (sorted in place; median of an even count is
/// the lower middle).
fn summary(v: &mut [u64]) -> (u64, u64, u64) {
    v.sort_unstable();
    (v[0], v[(v.len() - 1) / 2], v[v.len() - 1])
}

/// The three operations of a scheme, in pqm4's order.
fn ops(info: &AlgInfo) -> [&'static str; 3] {
    match info.kind {
        pqforge::Kind::Kem => ["keygen", "encaps", "decaps"],
        pqforge::Kind::Sig => ["keygen", "sign", "verify"],
    }
}

/// The operations [`measure`] reports: [`ops`], then `dk-check` for a KEM
/// (empty for a signature scheme: not measured).
fn measured_ops(info: &AlgInfo) -> [&'static str; 4] {
    let [a, b, c] = ops(info);
    let d = match info.kind {
        pqforge::Kind::Kem => "dk-check",
        pqforge::Kind::Sig => "",
    };
    [a, b, c, d]
}

/// Splits `n` bytes off the front of `buf`.
fn take<'a>(buf: &mut &'a mut [u8], n: usize) -> &'a mut [u8] {
    let (head, tail) = core::mem::take(buf).split_at_mut(n);
    *buf = tail;
    head
}

/// Runs `f` under the stack meter (`stack`) or the instruction counter;
/// returns its verdict and the measurement.
fn measured(stack: bool, f: impl FnOnce() -> bool) -> (bool, u64) {
    if stack {
        let (r, b) = meter::stack_usage(f);
        (r, b as u64)
    } else {
        meter::count(f)
    }
}

/// Speed (`stack == false`: `cfg.runs` runs under the instruction counter)
/// or stack (`stack == true`: one run under stack painting) of the three
/// operations of one algorithm, and for a KEM also of `check_dk` (op
/// `dk-check`: the key checks that the one-shot `decaps` runs before
/// decapsulating and that a key prepared once skips). Returns false if an
/// operation failed.
fn measure(scheme: Scheme, cfg: &Config, arena: &mut [u8], stack: bool) -> bool {
    let info = scheme.info();
    let runs = if stack { 1 } else { cfg.runs };
    let mut t = [[0u64; MAX_RUNS]; 4];
    let mut buf = arena;
    let pk = take(&mut buf, info.pk_bytes);
    let sk = take(&mut buf, info.sk_bytes);
    let ct = take(&mut buf, info.ct_bytes);
    let sig = take(&mut buf, info.sig_bytes);
    for r in 0..runs {
        // A fresh deterministic generator per run: run r sees the same
        // randomness in every build, so counts are comparable across builds.
        let mut rng = BenchRng::new(r as u64);
        // A signature scheme has no fourth operation: its slot stays ok.
        let mut res = [(false, 0u64), (false, 0), (false, 0), (true, 0)];
        match scheme {
            Scheme::Kem(k) => {
                let k = black_box(k);
                let (mut ss, mut ss2) = ([0u8; 64], [0u8; 64]);
                let (ss, ss2) = (&mut ss[..info.ss_bytes], &mut ss2[..info.ss_bytes]);
                res[0] = measured(stack, || k.keygen(&mut rng, pk, sk).is_ok());
                res[1] = measured(stack, || k.encaps(&mut rng, pk, ct, ss).is_ok());
                res[2] = measured(stack, || k.decaps(sk, ct, ss2).is_ok());
                res[2].0 &= ss == ss2;
                res[3] = measured(stack, || k.check_dk(sk).is_ok());
            }
            Scheme::Sig(g) => {
                let g = black_box(g);
                let mut msg = [0u8; TEST_MSG_BYTES];
                rand_core::Rng::fill_bytes(&mut rng, &mut msg);
                let mut n = 0;
                res[0] = measured(stack, || g.keygen(&mut rng, pk, sk).is_ok());
                res[1] = measured(stack, || {
                    g.sign(&mut rng, sk, &msg, &SignOptions::new(), sig)
                        .map(|l| n = l)
                        .is_ok()
                });
                res[2] = measured(stack, || {
                    g.verify(pk, &msg, &SignOptions::new(), &sig[..n]).is_ok()
                });
            }
        }
        for (i, (ok, m)) in res.into_iter().enumerate() {
            if !ok {
                hprintln!(
                    "error {} {} failed in run {}",
                    info.name,
                    measured_ops(info)[i],
                    r
                );
                return false;
            }
            t[i][r] = m;
        }
    }
    for (i, op) in measured_ops(info).into_iter().enumerate() {
        if op.is_empty() {
            continue;
        }
        if stack {
            hprintln!("stack {} {} {}", info.name, op, t[i][0]);
        } else {
            let (min, med, max) = summary(&mut t[i][..runs]);
            hprintln!(
                "speed {} {} {} {} {} {}",
                info.name,
                op,
                min,
                med,
                max,
                runs
            );
        }
    }
    true
}

/// Marker for the QEMU plugin of `cargo xtask m4 hashshare`
/// (crates/xtask/plugin/hashcount.c): the plugin snapshots its instruction
/// counters whenever this function's first instruction executes. Not
/// inlined and not removable (the empty `asm!` is a side effect for LLVM);
/// `no_mangle` keeps the symbol name stable for the xtask to look up.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn pqforge_m4_hash_mark() {
    // SAFETY: an empty instruction sequence.
    unsafe { core::arch::asm!("", options(nostack, preserves_flags)) };
}

/// Runs `f` between two marker calls, under the instruction counter too
/// (the xtask compares the plugin's count with it).
fn marked(f: impl FnOnce() -> bool) -> (bool, u64) {
    meter::count(|| {
        pqforge_m4_hash_mark();
        let r = f();
        pqforge_m4_hash_mark();
        r
    })
}

/// One run of the three operations of `scheme`, each between two marker
/// calls (six marks in pqm4's operation order), for the hashing share.
/// Prints `hashshare NAME OP INSNS` (SysTick count) per operation.
fn hashshare(scheme: Scheme, arena: &mut [u8]) -> bool {
    let info = scheme.info();
    let mut buf = arena;
    let pk = take(&mut buf, info.pk_bytes);
    let sk = take(&mut buf, info.sk_bytes);
    let ct = take(&mut buf, info.ct_bytes);
    let sig = take(&mut buf, info.sig_bytes);
    let mut rng = BenchRng::new(0);
    let mut res = [(false, 0u64); 3];
    match scheme {
        Scheme::Kem(k) => {
            let k = black_box(k);
            let (mut ss, mut ss2) = ([0u8; 64], [0u8; 64]);
            let (ss, ss2) = (&mut ss[..info.ss_bytes], &mut ss2[..info.ss_bytes]);
            res[0] = marked(|| k.keygen(&mut rng, pk, sk).is_ok());
            res[1] = marked(|| k.encaps(&mut rng, pk, ct, ss).is_ok());
            res[2] = marked(|| k.decaps(sk, ct, ss2).is_ok());
            res[2].0 &= ss == ss2;
        }
        Scheme::Sig(g) => {
            let g = black_box(g);
            let mut msg = [0u8; TEST_MSG_BYTES];
            rand_core::Rng::fill_bytes(&mut rng, &mut msg);
            let mut n = 0;
            res[0] = marked(|| g.keygen(&mut rng, pk, sk).is_ok());
            res[1] = marked(|| {
                g.sign(&mut rng, sk, &msg, &SignOptions::new(), sig)
                    .map(|l| n = l)
                    .is_ok()
            });
            res[2] = marked(|| g.verify(pk, &msg, &SignOptions::new(), &sig[..n]).is_ok());
        }
    }
    let mut ok = true;
    for (op, (r, m)) in ops(info).into_iter().zip(res) {
        if r {
            hprintln!("hashshare {} {} {}", info.name, op, m);
        } else {
            hprintln!("error {} {} failed", info.name, op);
            ok = false;
        }
    }
    ok
}

#[cfg(feature = "overflow-demo")]
#[inline(never)]
fn recurse(n: u32) -> u32 {
    let mut pad = [n; 256];
    black_box(&mut pad);
    if n == 0 {
        0
    } else {
        recurse(n - 1).wrapping_add(pad[3])
    }
}

#[entry]
fn main() -> ! {
    meter::stack_guard();
    let shift = match meter::init() {
        Ok(s) => s,
        Err(e) => {
            hprintln!("error meter: {}", e);
            fail_now()
        }
    };
    let mut line = [0u8; 512];
    let cfg = match Config::parse(cmdline(&mut line)) {
        Ok(c) => c,
        Err(tok) => {
            hprintln!("error bad argument {}", tok);
            fail_now()
        }
    };
    hprintln!("pqf-m4 shift={} arena={}", shift, ARENA_BYTES);

    #[cfg(feature = "overflow-demo")]
    hprintln!("overflow-demo {}", recurse(black_box(1 << 20)));

    // SAFETY: the only reference to ARENA, taken once.
    let arena: &mut [u8] = unsafe { &mut *addr_of_mut!(ARENA) };
    let mut all_ok = true;
    for alg in Algorithm::all() {
        let scheme = alg.scheme();
        let info = scheme.info();
        if !cfg.selects(info.name) {
            continue;
        }
        hprintln!("alg {} {} {}", info.name, info.kind.as_str(), info.family);
        if cfg.list {
            continue;
        }
        let need = transcript::test_scratch_bytes(info)
            .max(transcript::scratch_bytes(scheme, cfg.records))
            .max(info.pk_bytes + info.sk_bytes + info.ct_bytes + info.sig_bytes);
        if need > arena.len() {
            hprintln!(
                "error {} needs {} arena bytes, have {}",
                info.name,
                need,
                arena.len()
            );
            all_ok = false;
            continue;
        }
        if cfg.test {
            let mut rng = KatSource::new(info.kat, &[0x4d; 48]);
            match transcript::functional_test(scheme, cfg.rounds, &mut rng, arena) {
                Ok(()) => hprintln!("test {} ok {}", info.name, cfg.rounds),
                Err(e) => {
                    hprintln!("test {} FAIL {}", info.name, e);
                    all_ok = false;
                }
            }
        }
        if cfg.speed {
            all_ok &= measure(scheme, &cfg, arena, false);
        }
        if cfg.stack {
            all_ok &= measure(scheme, &cfg, arena, true);
        }
        if cfg.hashshare {
            all_ok &= hashshare(scheme, arena);
        }
        if cfg.transcript {
            match transcript::digest(scheme, cfg.records, arena) {
                Ok(d) => hex_line("transcript", info.name, cfg.records, &d),
                Err(e) => {
                    hprintln!("error {} transcript: {}", info.name, e);
                    all_ok = false;
                }
            }
        }
    }
    hprintln!("done {}", if all_ok { "ok" } else { "fail" });
    if all_ok {
        debug::exit(debug::EXIT_SUCCESS);
    }
    fail_now()
}
