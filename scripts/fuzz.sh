#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer harnesses of tests/fuzz with clang (ASan + UBSan +
# coverage, -DMINEX_BUILD_FUZZ=ON) and runs each for a bounded time, one
# at a time. Exits non-zero when any harness found a crash, a leak, a
# timeout or an out-of-memory; its input is left in
# $MINEX_FUZZ_OUT/crashes/<harness>/ (crash-*, leak-*, timeout-*, oom-*).
# To keep one as a regression test, copy it to
# tests/fuzz/regressions/<harness>/ (ctest replays that folder).
#
# Environment (all optional):
#   MINEX_FUZZ_SECONDS   time per harness, seconds (default 30)
#   MINEX_FUZZ_HARNESSES which harnesses (default: all, see below)
#   MINEX_FUZZ_BUILD     clang build directory (default <repo>/build-fuzz)
#   MINEX_FUZZ_OUT       corpus, logs and crashes (default <build>/fuzz-out);
#                        the grown corpus is kept there between runs
#   MINEX_FUZZ_MALLOC_MB largest single allocation, MB (default 512): the
#                        inputs are a few KB, so more means memory
#                        proportional to a number in the file
#   MINEX_FUZZ_RSS_MB    memory limit of the process, MB (default 2048)
#   MINEX_FUZZ_FORK=1    keep fuzzing after a crash (-fork=1
#                        -ignore_crashes=1 ...); every crash is still saved
#                        and still makes the script fail
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
secs="${MINEX_FUZZ_SECONDS:-30}"
build="${MINEX_FUZZ_BUILD:-$root/build-fuzz}"
out="${MINEX_FUZZ_OUT:-$build/fuzz-out}"
harnesses="${MINEX_FUZZ_HARNESSES:-metis_graph part_file config_xml drum_xml medit gmsh vtk vtu repartition threads rounds}"
malloc_mb="${MINEX_FUZZ_MALLOC_MB:-512}"
rss_mb="${MINEX_FUZZ_RSS_MB:-2048}"
jobs=2

if ! command -v clang >/dev/null 2>&1; then
  echo "fuzz: clang not found (scripts/deps.sh installs it)" >&2
  exit 1
fi

echo "== fuzz build in $build"
CC=clang cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMINEX_WERROR=ON -DMINEX_BUILD_FUZZ=ON -DMINEX_BUILD_TOOLS=OFF \
  -DMINEX_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target minex_fuzzers

export MINEX_SCHEMA_DIR="$root/schema"
# halt on the first UBSan report; leaks are reported by libFuzzer itself
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
fail=0
for h in $harnesses; do
  bin="$build/tests/fuzz/fuzz_$h"
  corpus="$out/corpus/$h"
  crashes="$out/crashes/$h"
  log="$out/logs/$h.log"
  mkdir -p "$corpus" "$crashes" "$out/logs"
  # seeds (tests/data fixtures, listed by CMake) and kept regressions
  while IFS= read -r f; do
    [ -n "$f" ] && cp -f "$f" "$corpus/"
  done <"$build/tests/fuzz/seeds_$h.txt"
  if [ -d "$root/tests/fuzz/regressions/$h" ]; then
    cp -f "$root/tests/fuzz/regressions/$h"/* "$corpus/" 2>/dev/null || true
  fi
  args=(-max_total_time="$secs" -rss_limit_mb="$rss_mb"
    -malloc_limit_mb="$malloc_mb" -timeout=10 -print_final_stats=1
    -artifact_prefix="$crashes/")
  if [ -f "$root/tests/fuzz/dict/$h.dict" ]; then
    args+=(-dict="$root/tests/fuzz/dict/$h.dict")
  fi
  if [ "${MINEX_FUZZ_FORK:-0}" = 1 ]; then
    args+=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
  fi
  before="$(find "$crashes" -type f | wc -l)"
  echo "== fuzz_$h: ${secs} s (log $log)"
  rc=0
  (cd "$out" && "$bin" "${args[@]}" "$corpus") >"$log" 2>&1 || rc=$?
  after="$(find "$crashes" -type f | wc -l)"
  grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE|cov:)' "$log" | tail -n 1 || true
  if [ "$rc" != 0 ] || [ "$after" != "$before" ]; then
    echo "fuzz_$h FAILED (exit $rc, $((after - before)) new inputs in $crashes):"
    grep -E 'ERROR|SUMMARY|property failed' "$log" | head -n 5 || true
    fail=1
  fi
done
[ "$fail" = 0 ] || { echo "== fuzz: failures, inputs in $out/crashes"; exit 1; }
echo "== fuzz: no crash"
