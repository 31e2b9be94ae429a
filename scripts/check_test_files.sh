#!/usr/bin/env bash
# Crates with `autotests = false` build only the test targets they list, so
# a new file in tests/ that neither tests/main.rs declares (`mod x;`) nor a
# `[[test]]` names would never run, silently. Fails on such a file.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0; n=0
for toml in crates/*/Cargo.toml; do
  grep -q '^autotests = false' "$toml" || continue
  d=$(dirname "$toml")
  for f in "$d"/tests/*.rs; do
    m=$(basename "$f" .rs)
    n=$((n+1))
    [ "$m" = main ] && continue
    grep -qx "mod $m;" "$d/tests/main.rs" 2>/dev/null && continue
    grep -qx "path = \"tests/$m.rs\"" "$toml" && continue
    echo "test files: $f is neither a module of $d/tests/main.rs nor a [[test]] of $toml"
    bad=$((bad+1))
  done
done
[ "$n" -gt 0 ] || { echo "test files: no crate with autotests = false found"; exit 1; }
echo "test files: $n checked, $bad not built"
[ "$bad" = 0 ]
