#!/usr/bin/env bash
# Static scan for variable-latency instructions (the KyberSlash class) in the
# compiled code of pqforge-core and every scheme crate: hardware integer
# division (div/idiv), and floating-point div/sqrt on x86_64. Stock memcheck
# cannot see secret division, so this complements scripts/ctgrind.sh.
#
# A hit is a function to review: remove the division or, if every operand is
# public, add the function to the ALLOW list below with the reason.
#
#   scripts/divscan.sh                       # profiles release, release-os, release-oz,
#                                            # then the LTO-linked release artifacts
#   PROFILES=release-oz LTO_SCAN=0 scripts/divscan.sh
#
# Scanned: LTO-linked machine code, where cross-crate inlining has happened
# (per-crate rlibs compiled without LTO miss what inlining creates): at
# every opt-level we ship, the valgrind harness binary of that profile
# (every algorithm of the registry; shared with scripts/ctgrind.sh, so no
# extra build in CI), then the release artifacts exactly as shipped (the
# CLI binary `pqforge` and the C library `libpqforge_capi.so`). At opt-level "z" LLVM keeps a `div` even for a constant
# divisor (it prefers size to the multiply-by-reciprocal), so a secret
# `x % Q` that is harmless at O3 shows there.
# (thumbv7em-none-eabihf: `cargo xtask m4 divscan`.)
set -u
cd "$(dirname "$0")/.."
PROFILES=${PROFILES:-"release release-os release-oz"}
OBJDUMP=${OBJDUMP:-objdump}
command -v "$OBJDUMP" >/dev/null || { echo "divscan: objdump missing (apt-get install binutils)"; exit 2; }

# Reviewed functions whose divisions have only public operands:
# - the KAT file codec and the KAT-only AES (test vectors, no secrets);
# - core::iter adapter length arithmetic (Zip/ChunksExact sizes: slice
#   lengths, which are public in every pqforge API), emitted out of line at
#   opt-level "s";
# - HQC's Karatsuba scratch-size computation (parameter-set sizes only).
# - Classic McEliece's `testing` hooks (differential tests of the backends:
#   buffer length / word size, never secret data).
# - Classic McEliece functions that LLVM leaves out of line since the
#   contract change (before, every call site had its lengths folded to
#   constants); reviewed, every divisor and dividend is public:
#   `backend::avx2::keygen::xor_rows_masked` (row length / 32, runs of at
#   most 12 chunks), `backend::avx2::benes::benes` (layer count and bytes
#   per layer from the field size), `bm::unpack_locator` (lane index j by
#   the interleave width w), `genpoly::powers_portable` (`chunks_exact` by
#   the row stride, column index c / 2), `backend::avx2::encaps::and_parities`
#   (row count = matrix length / row bytes; out of line only where it is
#   instantiated, e.g. in the C library).
# - Reviewed at opt-level "z" (2026-11-28), every operand public:
#   Falcon `backend::avx2::mq::ntt_avx2` (layer counter % 3),
#   `ntru::solve_ntru` (the Babai schedule scale_k / 31 and % 31: depends
#   on the depth and the iteration only), `scheme::hash_message` (hash to
#   point: w % q on the hash of the public nonce and message); HQC
#   `backend::portable::karatsuba` (operand lengths); McEliece
#   `genpoly::forward_portable` and `backend::avx2::genpoly::forward`
#   (`chunks_exact` by the row stride); ML-DSA `backend::avx2::sample::
#   rej_uniform` (sampling the public matrix); ML-KEM `backend::avx2::hash::
#   decaps_hashes` (input length / rate: lengths fixed by the set); SLH-DSA
#   `internal::ht_verify` (verification: all inputs public),
#   `backend::avx2::tree::xmss_pk_from_sig` and `backend::avx2::hash::X8::t`
#   (lengths); and core's length helpers `usize::div_ceil`,
#   `Iterator::step_by`, `slice::chunks_exact(_mut)` (chunk counts of
#   slices, whose lengths are public in every pqforge API).
# - Reviewed in the LTO-linked binaries (2026-11-28), every operand public:
#   FN-DSA `fndsa::sign::hash_to_point` (opt-level z turns the loop
#   `while w >= q { w -= q }` into a div; w comes from the hash of the
#   public nonce and message), SLH-DSA `backend::avx2::tree::fors_sign` and
#   `xmss_sign` (inlined `chunks_exact_mut` by n: slice lengths), McEliece
#   `backend::avx2::gf::vmul_planes` (loop bound from the slice lengths and
#   the plane stride).
# Floating-point div/sqrt (divsd/sqrtsd, never integer div) allowed where the
# scheme deliberately uses native binary64 on x86_64: Falcon's FFT, ffLDL and
# sampler. As in Falcon's reference "native" build, this relies on SSE2
# DIVSD/SQRTSD timing not depending on the (normal, never subnormal) operands
# on current x86_64 cores; other targets, and `--features fpr-emulated`, use
# the integer emulation instead.
ALLOW_FP='^pqforge_falcon::'
ALLOW='pqforge_hqc::params::karatsuba_scratch|pqforge_mceliece::backend::testing::|^pqforge_mceliece::backend::avx2::keygen::xor_rows_masked|^pqforge_mceliece::backend::avx2::benes::benes|^pqforge_mceliece::bm::unpack_locator|^pqforge_mceliece::genpoly::powers_portable|^pqforge_mceliece::backend::avx2::encaps::and_parities|pqforge_core::kat::rsp::|pqforge_core::aes::|^<?core::iter::adapters::|^core::iter::adapters::zip::TrustedRandomAccessNoCoerce::size'

ALLOW_OZ='^pqforge_falcon::backend::avx2::mq::ntt_avx2$|^pqforge_falcon::ntru::solve_ntru$|^pqforge_falcon::scheme::hash_message$|^pqforge_hqc::backend::portable::karatsuba$|^pqforge_mceliece::genpoly::forward_portable$|^pqforge_mceliece::backend::avx2::genpoly::forward$|^pqforge_mldsa::backend::avx2::sample::rej_uniform$|^pqforge_mlkem::backend::avx2::hash::decaps_hashes$|^pqforge_slhdsa::internal::ht_verify$|^pqforge_slhdsa::backend::avx2::tree::xmss_pk_from_sig$|^pqforge_slhdsa::backend::avx2::hash::X8::t$|^<usize>::div_ceil$|^core::iter::traits::iterator::Iterator::step_by$|^core::slice::<impl \[T\]>::chunks_exact(_mut)?$|^pqforge_falcon::fndsa::sign::hash_to_point$|^pqforge_slhdsa::backend::avx2::tree::(fors_sign|xmss_sign)$|^pqforge_mceliece::backend::avx2::gf::vmul_planes$'
ALLOW="$ALLOW|$ALLOW_OZ"

# Functions with division instructions in objdump output: "name<TAB> ops".
div_hits() {
  awk '
    /^[0-9a-f]+ <.*>:$/ { fn=$0; sub(/^[0-9a-f]+ </,"",fn); sub(/>:$/,"",fn); next }
    {
      line=$0; sub(/^[ \t]*[0-9a-f]+:[ \t]*/,"",line); split(line, w, /[ \t]+/)
      if (w[1] ~ /^(i?div[bwlq]?|v?divs[sd]|v?divp[sd]|v?sqrts[sd]|v?sqrtp[sd])$/) hits[fn]=hits[fn] " " w[1]
    }
    END { for (f in hits) print f "\t" hits[f] }' | sort
}

# Classifies hit lines (stdin) under label $1; returns 1 on a REVIEW line.
classify() {
  local label=$1 l fn ops int_ops bad=0
  while IFS= read -r l; do
    [ -n "$l" ] || continue
    fn=${l%%$'\t'*}
    ops=${l#*$'\t'}
    int_ops=$(tr ' ' '\n' <<< "$ops" | grep -E '^i?div[bwlq]?$' | tr '\n' ' ')
    if echo "$fn" | grep -Eq "$ALLOW"; then
      echo "  $label: allowed  $l"
    elif [ -z "$int_ops" ] && echo "$fn" | grep -Eq "$ALLOW_FP"; then
      echo "  $label: allowed (native binary64) $l"
    else
      echo "  $label: REVIEW   $l"; bad=1
    fi
  done
  return $bad
}

rc=0
# Each opt-level: the LTO-linked valgrind-harness binary of that profile
# (the build scripts/ctgrind.sh makes; built here if missing), which holds
# every algorithm of the registry as the release profiles compile it (the
# harness adds only valgrind client requests and its own driver code,
# `pqforge_ctgrind::`, not scanned).
for prof in $PROFILES; do
  CARGO_TARGET_DIR=target/ctgrind \
    cargo build -q --profile "$prof" -p pqforge-cli --features ctgrind --bin pqforge-ctgrind || exit 2
  bin=target/ctgrind/$prof/pqforge-ctgrind
  echo "== x86_64 ($prof, LTO-linked: $bin)"
  asm=$("$OBJDUMP" -d --no-show-raw-insn -C "$bin" 2>/dev/null)
  keep='pqforge_[a-z]+::'
  nfn=$(grep -E '^[0-9a-f]+ <.*>:$' <<< "$asm" | grep -E "$keep" | grep -vc 'pqforge_ctgrind::')
  # Guard against a scan that silently sees nothing.
  if [ "$nfn" -eq 0 ]; then echo "  no pqforge function in $bin"; rc=1; continue; fi
  hits=$(div_hits <<< "$asm" | grep -E "$keep" | grep -v '^pqforge_ctgrind::')
  if [ -z "$hits" ]; then echo "  no division in $nfn functions"; continue; fi
  classify "$prof" <<< "$hits" || rc=1
  echo "  ($nfn functions of the pqforge crates)"
done

# The LTO-linked release artifacts as shipped (default features): every
# function of the library crates in the CLI binary (the CLI's own code,
# `pqforge::…` there, is tables and timing), every function in the C
# library (its exported C functions hold whatever LTO inlined into them).
if [ "${LTO_SCAN:-1}" = 1 ]; then
  cargo build -q --release -p pqforge-cli --bin pqforge || exit 2
  cargo build -q --release -p pqforge-capi || exit 2
  echo "== x86_64 (release, LTO-linked as shipped)"
  for art in target/release/pqforge target/release/libpqforge_capi.so; do
    asm=$("$OBJDUMP" -d --no-show-raw-insn -C "$art" 2>/dev/null)
    case $art in
      *pqforge) keep='pqforge_[a-z]+::' ;;
      *) keep='pqforge|crypto_(kem|sign)' ;;
    esac
    nfn=$(grep -E '^[0-9a-f]+ <.*>:$' <<< "$asm" | grep -cE "$keep")
    if [ "$nfn" -eq 0 ]; then echo "  $art: no pqforge function found"; rc=1; continue; fi
    hits=$(div_hits <<< "$asm" | grep -E "$keep")
    if [ -z "$hits" ]; then echo "  $art: no division in $nfn functions"; continue; fi
    classify "$(basename "$art")" <<< "$hits" || rc=1
  done
fi
[ $rc = 0 ] && echo "divscan: clean" || echo "divscan: divisions to review (see REVIEW lines)"
exit $rc
