#!/usr/bin/env bash
# Fuzzing (libFuzzer through libfuzzer-sys; the targets are a cargo-fuzz
# project in fuzz/, so `cargo +nightly fuzz run <target>` works as well
# where cargo-fuzz is installed). This script builds the targets with the
# same instrumentation as cargo-fuzz (SanitizerCoverage, AddressSanitizer,
# `--cfg fuzzing`, release with debug assertions) using only the nightly
# toolchain, seeds each corpus from the official vectors, and runs them.
#
#   scripts/fuzz.sh smoke              # every target 20 s (CI)
#   scripts/fuzz.sh run kem_decaps 600 # one target, 600 s
#   scripts/fuzz.sh long 600           # every target, 600 s each
#   scripts/fuzz.sh list
#
# smoke and long run FUZZ_JOBS targets at a time (default: the number of
# CPUs), each a single libFuzzer process; reports print in target order.
# FUZZ_TIMEOUT (default 60): seconds of wall time one input may take before
# libFuzzer reports a hang; raise it when the fuzzers share the machine
# (under `nice` next to a build, a starved process passes 60 s on inputs
# that take 3 s alone).
#
# A crash leaves the input in fuzz/artifacts/<target>/ and fails the run.
# Corpora grow in fuzz/corpus/<target>/ (not committed); the seeds come from
# ../shared (or $PQFORGE_DATA) via scripts/fuzz_seeds.py at every run.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLCHAIN=${FUZZ_TOOLCHAIN:-nightly}
TRIPLE=x86_64-unknown-linux-gnu
targets() { sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^pqforge-fuzz$'; }

build() {
  RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks \
-Zsanitizer=address -Cforce-frame-pointers" \
  cargo "+$TOOLCHAIN" build -q --release --manifest-path fuzz/Cargo.toml --target "$TRIPLE" \
    --target-dir fuzz/target --bins
}

run_one() { # target seconds; output buffered in fuzz/target/<target>.out
  local t=$1 secs=$2 corpus=fuzz/corpus/$1 art=fuzz/artifacts/$1/
  mkdir -p "$corpus" "$art"
  local log=fuzz/target/$t.log
  echo "-- $t: ${secs} s ($(ls "$corpus" | wc -l) corpus inputs)"
  # CPU seconds (user + system) where /usr/bin/time exists: the figure a
  # long run reports, which wall time overstates on a busy machine.
  local timer=()
  [ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%U %S' -o "$log.cpu")
  if ! "${timer[@]}" "fuzz/target/$TRIPLE/release/$t" "$corpus" -max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-60}" \
      -rss_limit_mb=4096 -max_len=65536 -artifact_prefix="$art" -print_final_stats=1 >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "fuzz: $t FAILED (input in $art)"
    return 1
  fi
  grep -E '^stat::number_of_executed_units|^stat::new_units_added' "$log" | tr '\n' ' '
  [ -s "$log.cpu" ] && awk '{printf "cpu: %.1f min ", ($1 + $2) / 60}' "$log.cpu"
  echo "corpus: $(ls "$corpus" | wc -l)"
}

run_all() { # seconds: every target, FUZZ_JOBS at a time
  local secs=$1 jobs=${FUZZ_JOBS:-$(nproc)} rc=0 t
  local all=()
  mapfile -t all < <(targets)
  for t in "${all[@]}"; do
    rm -f "fuzz/target/$t.rc"
    ( if run_one "$t" "$secs" >"fuzz/target/$t.out" 2>&1; then echo 0; else echo 1; fi >"fuzz/target/$t.rc" ) &
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  done
  wait
  for t in "${all[@]}"; do
    cat "fuzz/target/$t.out"
    [ "$(cat "fuzz/target/$t.rc" 2>/dev/null)" = 0 ] || rc=1
  done
  [ "${#all[@]}" -gt 0 ] || { echo "fuzz: no targets found"; rc=1; }
  echo "fuzz: ${#all[@]} targets, $([ $rc = 0 ] && echo 'no crash' || echo 'CRASHES (see above)')"
  return $rc
}

cmd=${1:-smoke}
case $cmd in
  list) targets ;;
  smoke|long|run)
    python3 scripts/fuzz_seeds.py "${PQFORGE_DATA:-../shared}" fuzz/corpus
    # A failed build must end the run: the binaries of an earlier build
    # would otherwise be fuzzed and pass.
    build || { echo "fuzz: build failed"; exit 2; }
    rc=0
    if [ "$cmd" = run ]; then
      run_one "$2" "${3:-60}" || rc=1
    elif [ "$cmd" = smoke ]; then
      run_all "${2:-20}" || rc=1
    else
      run_all "${2:-600}" || rc=1
    fi
    exit $rc ;;
  *) echo "usage: scripts/fuzz.sh smoke|long [secs]|run TARGET [secs]|list"; exit 2 ;;
esac
