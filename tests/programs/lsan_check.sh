#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Proves that tests/lsan.supp hides only the third-party leak of MPI_Init:
#   1. no pattern of lsan.supp occurs in a symbol of the MinEX binaries
#      (library, tool, MPI sweep) nor in a path of the sources, so a frame
#      of MinEX code can never match one;
#   2. a program that leaks 4242 bytes after MPI_Init, run like the MPI
#      tests (suppressions, slow unwinder), still fails with that leak
#      reported, while the MPI_Init leak is counted as suppressed.
# Run by ctest in sanitizer builds (-DCMAKE_BUILD_TYPE=Asan) with MPI.
# Usage: lsan_check.sh SUPP SOURCE_DIR MPIEXEC NPFLAG LEAK_PROGRAM BINARY...
set -euo pipefail

supp=$1 src=$2 mpiexec=$3 npflag=$4 leak=$5
shift 5
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

patterns=$(sed -n 's/^leak://p' "$supp")
[ -n "$patterns" ] || fail "$supp has no leak: pattern"
for pat in $patterns; do
  for bin in "$@"; do
    if nm "$bin" 2>/dev/null | awk '$2 ~ /^[TtDdBbRr]$/ {print $3}' |
      grep -qiF -- "$pat"; then
      fail "pattern '$pat' matches a symbol defined in $bin"
    fi
  done
  if (cd "$src" && git ls-files 2>/dev/null || find . -type f) |
    grep -qiF -- "$pat"; then
    fail "pattern '$pat' matches a source path"
  fi
done
echo "lsan_check: no pattern of $(basename "$supp") names MinEX code"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:fast_unwind_on_malloc=0" \
  LSAN_OPTIONS="suppressions=$supp:print_suppressions=1" \
  timeout 60 "$mpiexec" "$npflag" 1 "$leak" >"$log" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "the deliberate leak was not reported: $(cat "$log")"
grep -q "4242 byte(s) in 1 object(s)" "$log" ||
  fail "no report of the 4242-byte leak: $(cat "$log")"
grep -q "lsan_leak_on_purpose" "$log" ||
  fail "the report does not name lsan_leak_on_purpose: $(cat "$log")"
if grep -q "SUMMARY: AddressSanitizer: 4242 byte(s) leaked in 1 allocation" \
  "$log"; then
  echo "lsan_check: the deliberate leak is reported, nothing else"
else
  fail "more than the deliberate leak is reported: $(cat "$log")"
fi
grep -A4 "Suppressions used" "$log" || true
