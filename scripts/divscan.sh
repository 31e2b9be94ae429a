#!/usr/bin/env bash
# Static scan for variable-latency instructions (the KyberSlash class) in the
# compiled code of pqforge-core and every scheme crate: hardware integer
# division (div/idiv), and floating-point div/sqrt on x86_64. Stock memcheck
# cannot see secret division, so this complements scripts/ctgrind.sh.
#
# A hit is a function to review: remove the division or, if every operand is
# public, add the function to the ALLOW list below with the reason.
#
#   scripts/divscan.sh                       # profiles release and release-os
#   PROFILES=release-oz scripts/divscan.sh
#
# (thumbv7em-none-eabihf joins with the Cortex-M4 harness.)
set -u
cd "$(dirname "$0")/.."
PROFILES=${PROFILES:-"release release-os"}
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
# Floating-point div/sqrt (divsd/sqrtsd, never integer div) allowed where the
# scheme deliberately uses native binary64 on x86_64: Falcon's FFT, ffLDL and
# sampler. As in Falcon's reference "native" build, this relies on SSE2
# DIVSD/SQRTSD timing not depending on the (normal, never subnormal) operands
# on current x86_64 cores; other targets, and `--features fpr-emulated`, use
# the integer emulation instead.
ALLOW_FP='^pqforge_falcon::'
ALLOW='pqforge_hqc::params::karatsuba_scratch|pqforge_mceliece::backend::testing::|^pqforge_mceliece::backend::avx2::keygen::xor_rows_masked|^pqforge_mceliece::backend::avx2::benes::benes|^pqforge_mceliece::bm::unpack_locator|^pqforge_mceliece::genpoly::powers_portable|^pqforge_mceliece::backend::avx2::encaps::and_parities|pqforge_core::kat::rsp::|pqforge_core::aes::|^<?core::iter::adapters::|^core::iter::adapters::zip::TrustedRandomAccessNoCoerce::size'

# The crates whose code handles secrets.
CRATES=$(ls -d crates/pqforge-core crates/pqforge-[a-z]* | grep -v -e pqforge-cli | xargs -n1 basename | sort -u)
pkgs=""; for c in $CRATES; do pkgs="$pkgs -p $c"; done

rc=0
for prof in $PROFILES; do
  pvar=$(echo "$prof" | tr 'a-z-' 'A-Z_')
  # With LTO on, rlibs hold LLVM bitcode instead of machine code: turn it off
  # for the scan (per-crate code generation is otherwise the same).
  env "CARGO_PROFILE_${pvar}_LTO=off" CARGO_TARGET_DIR=target/divscan \
    cargo build -q --profile "$prof" $pkgs --features pqforge-core/std || exit 2
  echo "== x86_64 ($prof)"
  for c in $CRATES; do
    lib=target/divscan/$prof/lib$(echo "$c" | tr - _).rlib
    [ -f "$lib" ] || { echo "  missing $lib"; rc=1; continue; }
    asm=$("$OBJDUMP" -d --no-show-raw-insn -C "$lib" 2>/dev/null)
    nfn=$(grep -c '^[0-9a-f]* <.*>:$' <<< "$asm")
    # Guard against a scan that silently sees nothing (e.g. bitcode-only rlib).
    # A scheme crate may still be a placeholder; pqforge-core never is.
    if [ "$nfn" -eq 0 ]; then
      echo "  $c: no machine code in $lib"
      [ "$c" = pqforge-core ] && rc=1
      continue
    fi
    hits=$(awk '
      /^[0-9a-f]+ <.*>:$/ { fn=$0; sub(/^[0-9a-f]+ </,"",fn); sub(/>:$/,"",fn); next }
      {
        line=$0; sub(/^[ \t]*[0-9a-f]+:[ \t]*/,"",line); split(line, w, /[ \t]+/)
        if (w[1] ~ /^(i?div[bwlq]?|v?divs[sd]|v?divp[sd]|v?sqrts[sd]|v?sqrtp[sd])$/) hits[fn]=hits[fn] " " w[1]
      }
      END { for (f in hits) print f "\t" hits[f] }' <<< "$asm" | sort)
    if [ -z "$hits" ]; then echo "  $c: no division in $nfn functions"; continue; fi
    while IFS= read -r l; do
      fn=${l%%$'\t'*}
      ops=${l#*$'\t'}
      int_ops=$(tr ' ' '\n' <<< "$ops" | grep -E '^i?div[bwlq]?$' | tr '\n' ' ')
      if echo "$fn" | grep -Eq "$ALLOW"; then
        echo "  $c: allowed  $l"
      elif [ -z "$int_ops" ] && echo "$fn" | grep -Eq "$ALLOW_FP"; then
        echo "  $c: allowed (native binary64) $l"
      else
        echo "  $c: REVIEW   $l"; rc=1
      fi
    done <<< "$hits"
  done
done
[ $rc = 0 ] && echo "divscan: clean" || echo "divscan: divisions to review (see REVIEW lines)"
exit $rc
