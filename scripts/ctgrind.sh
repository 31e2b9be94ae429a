#!/usr/bin/env bash
# Constant-time check: every registered algorithm's secret operations run
# under valgrind memcheck with all secrets marked undefined, at every
# opt-level we ship. Two negative controls must be flagged, otherwise the
# harness itself is broken and the run fails.
#
#   scripts/ctgrind.sh                          # profiles release (O3) and release-os
#   PROFILES="release" scripts/ctgrind.sh
#   FILTER=hqc scripts/ctgrind.sh               # only cases whose name contains "hqc"
#   CTGRIND_FULL=1 scripts/ctgrind.sh           # also the slow cases (see SLOW)
#   PROFILES=release-oz SKIP='^mceliece' scripts/ctgrind.sh   # skip cases matching a regex
#   EXTRA_RUSTFLAGS='--cfg pqforge_backend="portable"' CTGRIND_TARGET=target/ctgrind-portable scripts/ctgrind.sh
#   CTGRIND_FEATURES=pqforge/falcon-fpr-emulated scripts/ctgrind.sh   # extra cargo features
#
# Prints one line per case and profile, then "ctgrind: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
PROFILES=${PROFILES:-"release release-os"}
FILTER=${FILTER:-}
VALGRIND=${VALGRIND:-valgrind}
command -v "$VALGRIND" >/dev/null || { echo "ctgrind: valgrind is not installed (apt-get install valgrind)"; exit 2; }

# Cases too slow under valgrind for every CI run (minutes each). They share
# their code path with a smaller parameter set of the same family, which
# always runs (mceliece348864*: the same generic code as the big sets;
# slh-dsa-*-128s and every f set: the same generic code as the 192s/256s
# sets, which take 1-2 minutes each under valgrind).
SLOW='^mceliece(460896|6688128|6960119|8192128)|^slh-dsa-(sha2|shake)-(192|256)s'

pass=0; fail=0; skipped=0
logdir=target/ctgrind-logs; mkdir -p "$logdir"
for prof in $PROFILES; do
  # A separate target dir keeps the ctgrind-feature build from invalidating
  # the normal one (CTGRIND_TARGET: another one per EXTRA_RUSTFLAGS).
  tdir=${CTGRIND_TARGET:-target/ctgrind}
  RUSTFLAGS="${EXTRA_RUSTFLAGS:-}" CARGO_TARGET_DIR=$tdir \
    cargo build -q --profile "$prof" -p pqforge-cli --features "ctgrind ${CTGRIND_FEATURES:-}" --bin pqforge-ctgrind || exit 2
  bin=$tdir/$prof/pqforge-ctgrind
  printf '== profile %s %s\n' "$prof" "${EXTRA_RUSTFLAGS:-}"
  for c in $("$bin" --list); do
    case "$c" in control-*) exp=must-flag ;; *) exp=must-pass ;; esac
    if [ -n "$FILTER" ] && [ "$exp" = must-pass ] && [[ "$c" != *"$FILTER"* ]]; then continue; fi
    if [ "${CTGRIND_FULL:-0}" != 1 ] && [[ "$c" =~ $SLOW ]]; then skipped=$((skipped+1)); continue; fi
    if [ -n "${SKIP:-}" ] && [ "$exp" = must-pass ] && [[ "$c" =~ $SKIP ]]; then skipped=$((skipped+1)); continue; fi
    log=$logdir/$prof-$c.log
    start=$(date +%s)
    # --vex-guest-max-insns=25 (default 50): with --track-origins, a block
    # of 50 AVX2 instructions (ML-DSA's unrolled norm check) overflows
    # valgrind's translation buffer ("VEX temporary storage exhausted").
    # Shorter blocks change only how valgrind translates, not what it checks.
    "$VALGRIND" -q --error-exitcode=1 --track-origins=yes --vex-guest-max-insns=25 --num-callers=12 "$bin" "$c" >/dev/null 2>"$log"
    rc=$?
    secs=$(( $(date +%s) - start ))
    case $rc in 0) got=clean ;; 1) got=FLAGGED ;; *) got="error(rc=$rc)" ;; esac
    if { [ "$exp" = must-pass ] && [ "$got" = clean ]; } || { [ "$exp" = must-flag ] && [ "$got" = FLAGGED ]; }; then
      verdict=ok; pass=$((pass+1))
    else
      verdict=FAIL; fail=$((fail+1))
    fi
    n=$(grep -cE 'Conditional jump|Use of uninitialised value|uninitialised' "$log")
    where=$(grep -m1 -oE '(at|by) 0x[0-9A-F]+: [^ ]+' "$log" | sed -E 's/(at|by) 0x[0-9A-F]+: //')
    printf '  %-24s %-9s %-8s %-4s %3ss %s\n' "$c" "$exp" "$got" "$verdict" "$secs" "${where:+($n reports, first in $where; log $log)}"
  done
done
[ "$skipped" = 0 ] || echo "($skipped cases skipped: slow ones unless CTGRIND_FULL=1, or SKIP)"
echo "ctgrind: $pass passed, $fail failed"
[ "$fail" = 0 ]
