//! Interleaved timing of several implementations of the same operations.

use std::time::Instant;

/// Command-line options.
pub struct Opts {
    /// Only scheme names containing this.
    pub filter: Option<String>,
    /// Timed calls per implementation, operation and round.
    pub iters: usize,
    /// Rounds (implementations alternate within each round).
    pub rounds: usize,
}

/// `--no-avx512`: pqforge's dispatch treats AVX-512 as absent (its AVX2
/// paths, as on CPUs without AVX-512); the peers never use AVX-512.
const NO_AVX512: &str = "--no-avx512";

impl Opts {
    /// Parses `--filter S`, `--iters N`, `--rounds N`, `--no-avx512` (acted
    /// on here: see [`pqforge::cpu::disable_avx512`]).
    pub fn parse(mut args: impl Iterator<Item = String>) -> Result<Self, String> {
        let mut o = Opts {
            filter: None,
            iters: 50,
            rounds: 5,
        };
        while let Some(a) = args.next() {
            let mut val = |name: &str| args.next().ok_or(format!("{name} needs a value"));
            match a.as_str() {
                "--filter" => o.filter = Some(val("--filter")?),
                "--iters" => o.iters = val("--iters")?.parse().map_err(|_| "bad --iters")?,
                "--rounds" => o.rounds = val("--rounds")?.parse().map_err(|_| "bad --rounds")?,
                NO_AVX512 => pqforge::cpu::disable_avx512(),
                _ => return Err(format!("unknown argument `{a}`")),
            }
        }
        Ok(o)
    }

    /// Whether `scheme` passes the filter.
    pub fn wants(&self, scheme: &str) -> bool {
        self.filter
            .as_ref()
            .is_none_or(|f| scheme.contains(f.as_str()))
    }
}

/// One operation of one implementation: a closure performing one call.
pub type Op = Box<dyn FnMut()>;

/// An implementation under test: its name and its operations, in the same
/// order for every implementation of a scheme.
pub struct Impl {
    /// Display name (`pqforge`, `hqc-kem`, ...).
    pub name: &'static str,
    /// `(op name, closure)`.
    pub ops: Vec<(&'static str, Op)>,
}

fn tsc() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: RDTSC exists on every x86_64 CPU and touches no memory.
        #[allow(unsafe_code, unused_unsafe)]
        unsafe {
            core::arch::x86_64::_rdtsc()
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        0
    }
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

/// Times every implementation (the first is pqforge) and prints one row per
/// operation and implementation; a pqforge row names the backend of
/// `scheme` (a registry name), `pqforge [avx2]`.
#[cfg_attr(
    not(any(
        feature = "hqc",
        feature = "mlkem",
        feature = "frodokem",
        feature = "ntru",
        feature = "ntruprime"
    )),
    allow(dead_code)
)]
pub fn compare(scheme: &str, impls: Vec<Impl>, opts: &Opts) {
    compare_scaled(scheme, impls, opts, &[]);
}

/// [`compare`], with operation `k` timed `1 / div[k]` as often (rounded
/// up, at least once per round; missing entries mean 1): for slow
/// operations such as Classic McEliece key generation.
pub fn compare_scaled(scheme: &str, mut impls: Vec<Impl>, opts: &Opts, div: &[usize]) {
    let nops = impls[0].ops.len();
    let mut ns = vec![vec![Vec::new(); nops]; impls.len()];
    let mut cyc = vec![vec![Vec::new(); nops]; impls.len()];
    for im in &mut impls {
        for (_, f) in &mut im.ops {
            f(); // warm-up
        }
    }
    for _ in 0..opts.rounds {
        for (i, im) in impls.iter_mut().enumerate() {
            for (k, (_, f)) in im.ops.iter_mut().enumerate() {
                let d = div.get(k).copied().unwrap_or(1).max(1);
                for _ in 0..opts.iters.div_ceil(opts.rounds).div_ceil(d).max(1) {
                    let c0 = tsc();
                    let t0 = Instant::now();
                    f();
                    let dt = t0.elapsed();
                    cyc[i][k].push(tsc().wrapping_sub(c0));
                    ns[i][k].push(u64::try_from(dt.as_nanos()).unwrap_or(u64::MAX));
                }
            }
        }
    }
    let med: Vec<Vec<(u64, u64)>> = (0..impls.len())
        .map(|i| {
            (0..nops)
                .map(|k| (median(&mut ns[i][k]), median(&mut cyc[i][k])))
                .collect()
        })
        .collect();
    // pqforge's rows say which of its backends ran (after `--no-avx512`).
    let backend = pqforge::Algorithm::find(scheme).map_or("?", pqforge::Algorithm::backend);
    let label = |name: &str| {
        if name.starts_with("pqforge") {
            format!("{name} [{backend}]")
        } else {
            name.to_string()
        }
    };
    for k in 0..nops {
        for (i, im) in impls.iter().enumerate() {
            let ratio = if i == 0 {
                "-".to_string()
            } else {
                format!("{:.2}", med[0][k].1 as f64 / med[i][k].1.max(1) as f64)
            };
            println!(
                "| {scheme} | {} | {} | {} | {} | {ratio} |",
                im.ops[k].0,
                label(im.name),
                med[i][k].0,
                med[i][k].1
            );
        }
    }
}

/// `rand_core` 0.6 view of the bench generator, for the peers that still
/// use rand 0.8 (`fn-dsa`, `classic-mceliece-rust`).
#[cfg(any(feature = "falcon", feature = "mceliece"))]
pub struct Rng06(pub rand_chacha::ChaCha20Rng);

#[cfg(any(feature = "falcon", feature = "mceliece"))]
impl rand_core_06::RngCore for Rng06 {
    fn next_u32(&mut self) -> u32 {
        rand_core::Rng::next_u32(&mut self.0)
    }
    fn next_u64(&mut self) -> u64 {
        rand_core::Rng::next_u64(&mut self.0)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        rand_core::Rng::fill_bytes(&mut self.0, dest);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core_06::Error> {
        rand_core::Rng::fill_bytes(&mut self.0, dest);
        Ok(())
    }
}

#[cfg(any(feature = "falcon", feature = "mceliece"))]
impl rand_core_06::CryptoRng for Rng06 {}

/// A fresh OS-seeded ChaCha20 generator.
pub fn rng() -> rand_chacha::ChaCha20Rng {
    use rand_core::SeedableRng;
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).expect("OS random source");
    rand_chacha::ChaCha20Rng::from_seed(seed)
}

/// pqforge's typed API (keys parsed once, like every peer's API) for `K`.
#[cfg_attr(
    not(any(
        feature = "hqc",
        feature = "mlkem",
        feature = "frodokem",
        feature = "ntru",
        feature = "ntruprime"
    )),
    allow(dead_code)
)]
pub fn pqforge_typed<K: pqforge::Kem>() -> Impl {
    let mut r = rng();
    let (ek, dk) = K::keygen(&mut r);
    let (ct, _) = K::encaps(&ek, &mut r);
    let (mut r1, mut r2) = (rng(), rng());
    Impl {
        name: "pqforge",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    std::hint::black_box(K::keygen(&mut r1));
                }),
            ),
            (
                "encaps",
                Box::new(move || {
                    std::hint::black_box(K::encaps(&ek, &mut r2));
                }),
            ),
            (
                "decaps",
                Box::new(move || {
                    std::hint::black_box(K::decaps(&dk, &ct));
                }),
            ),
        ],
    }
}

/// A PQClean KEM of a `pqcrypto-*` crate, by its three functions (keys and
/// ciphertext made once, like [`pqforge_typed`]).
#[cfg(any(feature = "frodokem", feature = "ntru", feature = "ntruprime"))]
pub fn pqclean_kem<PK: 'static, SK: 'static, CT: 'static, SS: 'static>(
    name: &'static str,
    keypair: fn() -> (PK, SK),
    encapsulate: fn(&PK) -> (SS, CT),
    decapsulate: fn(&CT, &SK) -> SS,
) -> Impl {
    let (pk, sk) = keypair();
    let (_, ct) = encapsulate(&pk);
    Impl {
        name,
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    std::hint::black_box(keypair());
                }),
            ),
            (
                "encaps",
                Box::new(move || {
                    std::hint::black_box(encapsulate(std::hint::black_box(&pk)));
                }),
            ),
            (
                "decaps",
                Box::new(move || {
                    std::hint::black_box(decapsulate(std::hint::black_box(&ct), &sk));
                }),
            ),
        ],
    }
}

/// A liboqs KEM through the `oqs` crate (one `Kem` object per operation).
#[cfg(any(feature = "frodokem", feature = "ntruprime"))]
pub fn liboqs_kem(alg: oqs::kem::Algorithm) -> Impl {
    use oqs::kem::Kem;
    let new = || Kem::new(alg).expect("liboqs algorithm enabled");
    let (k0, k1, k2) = (new(), new(), new());
    let (pk, sk) = k0.keypair().expect("liboqs keygen");
    let (ct, _) = k0.encapsulate(&pk).expect("liboqs encaps");
    Impl {
        name: "oqs (liboqs 0.13, AVX2 if available)",
        ops: vec![
            (
                "keygen",
                Box::new(move || {
                    std::hint::black_box(k0.keypair().expect("keygen"));
                }),
            ),
            (
                "encaps",
                Box::new(move || {
                    std::hint::black_box(
                        k1.encapsulate(std::hint::black_box(&pk)).expect("encaps"),
                    );
                }),
            ),
            (
                "decaps",
                Box::new(move || {
                    std::hint::black_box(
                        k2.decapsulate(&sk, std::hint::black_box(&ct))
                            .expect("decaps"),
                    );
                }),
            ),
        ],
    }
}

/// `() -> (public key, secret key)`, over bytes.
#[cfg(any(feature = "frodokem", feature = "ntru", feature = "ntruprime"))]
type KeypairFn = Box<dyn Fn() -> (Vec<u8>, Vec<u8>)>;
/// `public key -> (ciphertext, shared secret)`, over bytes.
#[cfg(any(feature = "frodokem", feature = "ntru", feature = "ntruprime"))]
type EncapsFn = Box<dyn Fn(&[u8]) -> (Vec<u8>, Vec<u8>)>;
/// `(secret key, ciphertext) -> shared secret`, over bytes.
#[cfg(any(feature = "frodokem", feature = "ntru", feature = "ntruprime"))]
type DecapsFn = Box<dyn Fn(&[u8], &[u8]) -> Vec<u8>>;

/// A peer KEM over bytes, for [`cross_check_kem`].
#[cfg(any(feature = "frodokem", feature = "ntru", feature = "ntruprime"))]
pub struct PeerKem {
    /// Display name.
    pub name: &'static str,
    /// `() -> (pk, sk)`.
    pub keypair: KeypairFn,
    /// `pk -> (ct, ss)`.
    pub encaps: EncapsFn,
    /// `(sk, ct) -> ss`.
    pub decaps: DecapsFn,
}

/// A `pqcrypto-*` KEM as a [`PeerKem`].
#[cfg(any(feature = "frodokem", feature = "ntru", feature = "ntruprime"))]
pub fn pqclean_peer<PK, SK, CT, SS>(
    name: &'static str,
    keypair: fn() -> (PK, SK),
    encapsulate: fn(&PK) -> (SS, CT),
    decapsulate: fn(&CT, &SK) -> SS,
) -> PeerKem
where
    PK: pqcrypto_traits::kem::PublicKey + Clone + 'static,
    SK: pqcrypto_traits::kem::SecretKey + Clone + 'static,
    CT: pqcrypto_traits::kem::Ciphertext + Copy + 'static,
    SS: pqcrypto_traits::kem::SharedSecret + 'static,
{
    PeerKem {
        name,
        keypair: Box::new(move || {
            let (pk, sk) = keypair();
            (pk.as_bytes().to_vec(), sk.as_bytes().to_vec())
        }),
        encaps: Box::new(move |pk| {
            let pk = PK::from_bytes(pk).expect("peer accepts the public key's length");
            let (ss, ct) = encapsulate(&pk);
            (ct.as_bytes().to_vec(), ss.as_bytes().to_vec())
        }),
        decaps: Box::new(move |sk, ct| {
            let sk = SK::from_bytes(sk).expect("peer accepts the secret key's length");
            let ct = CT::from_bytes(ct).expect("peer accepts the ciphertext's length");
            decapsulate(&ct, &sk).as_bytes().to_vec()
        }),
    }
}

/// A liboqs KEM as a [`PeerKem`].
#[cfg(any(feature = "frodokem", feature = "ntruprime"))]
pub fn liboqs_peer(alg: oqs::kem::Algorithm) -> PeerKem {
    let new = move || oqs::kem::Kem::new(alg).expect("liboqs algorithm enabled");
    PeerKem {
        name: "oqs (liboqs)",
        keypair: Box::new(move || {
            let (pk, sk) = new().keypair().expect("liboqs keygen");
            (pk.into_vec(), sk.into_vec())
        }),
        encaps: Box::new(move |pk| {
            let k = new();
            let pk = k
                .public_key_from_bytes(pk)
                .expect("liboqs accepts the public key's length");
            let (ct, ss) = k.encapsulate(pk).expect("liboqs encaps");
            (ct.into_vec(), ss.into_vec())
        }),
        decaps: Box::new(move |sk, ct| {
            let k = new();
            let sk = k
                .secret_key_from_bytes(sk)
                .expect("liboqs accepts the secret key's length");
            let ct = k
                .ciphertext_from_bytes(ct)
                .expect("liboqs accepts the ciphertext's length");
            k.decapsulate(sk, ct).expect("liboqs decaps").into_vec()
        }),
    }
}

/// Checks that pqforge's `K` and `peer` are the same KEM byte for byte:
/// the peer's keys work in pqforge and pqforge's in the peer, and a
/// ciphertext made by either decapsulates in the other to the same secret.
/// Panics with a clear message otherwise.
#[cfg(any(feature = "frodokem", feature = "ntru", feature = "ntruprime"))]
pub fn cross_check_kem<K: pqforge::Kem>(scheme: &str, peer: &PeerKem) {
    let fail = |what: &str| -> ! {
        panic!(
            "{scheme}: cross-check with {} FAILED: {what}; the benchmark would compare \
             different computations",
            peer.name
        )
    };
    let mut r = rng();
    // Peer's keys, pqforge encapsulates (and decapsulates with the peer's
    // secret key), the peer decapsulates.
    let (pk, sk) = (peer.keypair)();
    let ek = pqforge::EncapsKey::<K>::try_from(pk.as_slice())
        .unwrap_or_else(|e| fail(&format!("pqforge rejects the peer's public key ({e:?})")));
    let (ct, ss) = K::encaps(&ek, &mut r);
    if (peer.decaps)(&sk, ct.as_ref()) != ss.as_ref() {
        fail("the peer decapsulates pqforge's ciphertext to another secret");
    }
    let dk = pqforge::DecapsKey::<K>::try_from(sk.as_slice())
        .unwrap_or_else(|e| fail(&format!("pqforge rejects the peer's secret key ({e:?})")));
    if K::decaps(&dk, &ct).as_ref() != ss.as_ref() {
        fail("pqforge decapsulates with the peer's secret key to another secret");
    }
    // pqforge's keys, the peer encapsulates, pqforge decapsulates (and the
    // peer with pqforge's secret key).
    let (ek, dk) = K::keygen(&mut r);
    let (pct, pss) = (peer.encaps)(ek.as_ref());
    let ct = pqforge::Ciphertext::<K>::try_from(pct.as_slice())
        .unwrap_or_else(|e| fail(&format!("pqforge rejects the peer's ciphertext ({e:?})")));
    if K::decaps(&dk, &ct).as_ref() != pss.as_slice() {
        fail("pqforge decapsulates the peer's ciphertext to another secret");
    }
    if (peer.decaps)(dk.as_ref(), &pct) != pss {
        fail("the peer decapsulates with pqforge's secret key to another secret");
    }
    eprintln!(
        "{scheme}: cross-check ok with {}: keys, ciphertexts and secrets interoperate",
        peer.name
    );
}
