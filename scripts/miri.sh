#!/usr/bin/env bash
# Miri (nightly) over the unit tests of pqforge-core, every scheme crate and
# the C library (its tests drive the C boundary through raw pointers:
# in-place signing, overlapping outputs, NULL), portable backends (`--cfg pqforge_backend="portable"`: Miri cannot run the
# x86 SIMD intrinsics the dispatch would pick). Miri is about 1000x slower
# than native code, so every test runs alone under a time limit: a test that
# finishes is checked (undefined behaviour, out-of-bounds, uninitialised
# reads, alignment, leaks fail it); one that runs out of time is reported
# as not checked, never as passed. Unit tests loop fewer times under Miri
# (`if cfg!(miri)`); those that read ../shared are ignored under Miri
# (`#[cfg_attr(miri, ignore = ...)]`) and reported as not run.
#
#   scripts/miri.sh                    # every crate, 120 s per test
#   MIRI_TIMEOUT=900 scripts/miri.sh   # the slowest (McEliece BM and genpoly: minutes)
#   MIRI_TIMEOUT=30 scripts/miri.sh pqforge-core
#   MIRI_JOBS=2 scripts/miri.sh        # tests at once (default: nproc)
#   scripts/miri.sh --simd [crates]    # the x86 backends Miri emulates instead
#
# --simd: the AVX2 / BMI / PCLMULQDQ backends (their `unsafe` loads, stores
# and intrinsics), built with those target features on (core's CPU probe
# reports the build's features under Miri, which runs no CPUID), so that
# every dispatch and every backend-against-portable unit test takes the
# SIMD path. AVX-512 and VPCLMULQDQ stay off (Miri emulates few of them).
#
# Needs: rustup component add miri rust-src --toolchain nightly
set -uo pipefail
cd "$(dirname "$0")/.."
mode=portable
if [ "${1:-}" = --simd ]; then mode=simd; shift; fi
TIMEOUT=${MIRI_TIMEOUT:-120}
JOBS=${MIRI_JOBS:-$(nproc 2>/dev/null || echo 2)}
crates=${*:-$(ls -d crates/pqforge-core crates/pqforge-[a-z]* | xargs -n1 basename \
  | grep -v -e '^pqforge-cli$' | sort -u)}
if [ $mode = simd ]; then
  export RUSTFLAGS='-Ctarget-feature=+avx2,+bmi1,+bmi2,+pclmulqdq,+sse4.1,+ssse3,+popcnt' \
    CARGO_TARGET_DIR=target/miri-simd
else
  export RUSTFLAGS='--cfg pqforge_backend="portable"' CARGO_TARGET_DIR=target/miri
fi
export MIRIFLAGS=${MIRIFLAGS:-"-Zmiri-strict-provenance"}
cargo +nightly miri --version >/dev/null 2>&1 || { echo "miri: not installed (rustup component add miri rust-src --toolchain nightly)"; exit 2; }
res=$(mktemp -d)
pass=0; fail=0; slow=0; ignored=0
for c in $crates; do
  # Build once, then list the unit tests. Tests marked
  # `#[cfg_attr(miri, ignore = ...)]` (those reading the official data:
  # Miri isolates the file system) are listed apart and reported as not run.
  # Falcon with the FN-DSA draft's modules too.
  feat=(); [ "$c" = pqforge-falcon ] && feat=(--features fndsa)
  all=$(cargo +nightly miri test -q -p "$c" "${feat[@]}" --lib -- --list 2>/dev/null | sed -n 's/: test$//p') || true
  ign=$(cargo +nightly miri test -q -p "$c" "${feat[@]}" --lib -- --list --ignored 2>/dev/null | sed -n 's/: test$//p') || true
  # (No ignored tests: an empty pattern file removes nothing.)
  list=$(grep -vxF -f <(printf '%s\n' "$ign" | grep .) <<< "$all" || true)
  n=$(grep -c . <<< "$list")
  ni=$(grep -c . <<< "$ign")
  echo "== $c: $n unit tests ($ni ignored under Miri)"
  ignored=$((ignored + ni))
  [ "$n" -gt 0 ] || { echo "  FAIL: no tests listed"; fail=$((fail+1)); continue; }
  i=0
  while IFS= read -r t; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    (
      start=$(date +%s)
      timeout "$TIMEOUT" cargo +nightly miri test -q -p "$c" "${feat[@]}" --lib -- --exact "$t" --nocapture >"$res/$c.$i.log" 2>&1
      rc=$?
      secs=$(( $(date +%s) - start ))
      case $rc in
        # A test that returns early for want of a CPU feature says so
        # ("...: skipped (this CPU has no ...)"): not checked either.
        0) if grep -q ': skipped (' "$res/$c.$i.log"; then v=skipped; else v=ok; fi ;;
        124) v=timeout ;;
        *) v=FAIL ;;
      esac
      printf '  %-7s %4ss %s\n' "$v" "$secs" "$t" > "$res/$c.$i.res"
    ) &
    i=$((i+1))
  done <<< "$list"
  wait
  for f in $(ls "$res"/"$c".*.res 2>/dev/null | sort -V); do cat "$f"; done
done
pass=$(cat "$res"/*.res 2>/dev/null | grep -c '^  ok')
slow=$(cat "$res"/*.res 2>/dev/null | grep -c '^  timeout')
skipped=$(cat "$res"/*.res 2>/dev/null | grep -c '^  skipped')
fail=$((fail + $(cat "$res"/*.res 2>/dev/null | grep -c '^  FAIL')))
for f in "$res"/*.res; do
  grep -q '^  FAIL' "$f" && { echo "--- ${f%.res}.log"; tail -n 30 "${f%.res}.log"; }
done
echo "miri ($mode): $pass passed, $fail failed, $slow not checked (over ${TIMEOUT} s), $ignored not run (ignored under Miri), $skipped skipped (CPU feature off)"
rm -rf "$res"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
