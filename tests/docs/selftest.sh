#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The docs runner (scripts/doc_commands.py) on the fixtures of
# tests/docs/fixtures: blocks run in order with exports and the working
# directory carried over, in a copy of the tree, without a `minex` the
# set-up did not install; a marked block does not run and is reported with
# its reason; a failing command (also inside a pipeline) fails the run and
# stops its file; a fence without a language and a mark without a reason
# or without a shell fence below it are errors before anything runs.
# Usage: selftest.sh PYTHON SOURCE_DIR WORK_DIR
set -euo pipefail
py="$1" src="$2" work="$3"
run="$src/scripts/doc_commands.py"
fx=tests/docs/fixtures
rm -rf "$work"
mkdir -p "$work/fakebin"
# a `minex` on PATH that the blocks must not see
printf '#!/bin/sh\nexit 0\n' >"$work/fakebin/minex"
chmod +x "$work/fakebin/minex"
export PATH="$work/fakebin:$PATH"

fail=0
check() { # description, command...
  local what="$1"
  shift
  if "$@"; then
    echo "ok: $what"
  else
    echo "FAILED: $what"
    fail=1
  fi
}

# rc OUT FIXTURE: runs the fixture as the set-up file; output in OUT
rc=0
runfx() {
  rc=0
  "$py" "$run" --root "$src" --setup "$fx/$2.md" --work "$work/$2" \
    "$src/$fx/$2.md" >"$work/$1" 2>&1 || rc=$?
  cat "$work/$1"
}

runfx good.out good
check "good.md passes" test "$rc" = 0
check "good.md: 2 blocks ran, 1 marked, 1 in another language" \
  grep -q "2 shell block(s) ran, 0 failed, 1 marked no-test, 1 in other" \
  "$work/good.out"
check "good.md: the mark's reason is printed" \
  grep -q "reason: fails if it runs" "$work/good.out"
check "good.md: its scratch copy is removed" test ! -e "$work/good"

runfx fail.out fail
check "fail.md fails" test "$rc" = 1
check "fail.md: the failing block is named" \
  grep -q "^FAIL $fx/fail.md:3 " "$work/fail.out"
scratch="$work/fail/${fx//\//_}_fail.md"
check "fail.md: the block ran in its scratch copy" test -f "$scratch/data/README.md"
check "fail.md: the pipeline's failure stopped the block" \
  test ! -e "$scratch/reached"
check "fail.md: the next block is not reached" \
  grep -q "1 shell block(s) ran, 1 failed.*1 not reached" "$work/fail.out"
check "fail.md: its scratch copy is kept" test -d "$work/fail"

for f in nolang noreason dangling markc; do
  runfx "$f.out" "$f"
  check "$f.md is refused" test "$rc" = 1
  check "$f.md: nothing ran" grep -q "nothing run" "$work/$f.out"
done
check "nolang.md: says which fence" \
  grep -q "$fx/nolang.md:3: fence without a language" "$work/nolang.out"
check "noreason.md: says the reason is missing" \
  grep -q "no-test mark without a reason" "$work/noreason.out"
check "dangling.md: says the mark is not before a fence" \
  grep -q "not right before a fence" "$work/dangling.out"
check "markc.md: says the marked block is not shell" \
  grep -q "no-test mark on a c block" "$work/markc.out"

[ "$fail" = 0 ] && rm -rf "$work"
exit "$fail"
