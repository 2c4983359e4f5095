#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Tests of programs/sweep_mpi.c, run by ctest when MPI was found:
#   same     minex-sweep-mpi on 2 ranks writes the table `minex sweep` writes
#            on one thread (CSV files but for the timing column, Markdown,
#            gnuplot data and script byte for byte);
#   failure  a failure on one rank (rank 0's output directory cannot be
#            made; rank 0 cannot write a file after the reduction; a mesh
#            no rank can read) ends every rank non-zero within the time
#            limit with status 1 (so no sanitizer report either), with the
#            rank in the message; a usage error exits 2.
# Usage: sweep_mpi.sh same|failure MPIEXEC NPFLAG SWEEP_MPI MINEX WORKDIR
set -euo pipefail

mode=$1 mpiexec=$2 npflag=$3 sweep_mpi=$4 minex=$5 work=$6
rm -rf "$work"
mkdir -p "$work"
small=(--box 4 4 4 --steps 2 --depth 2 --no-plots)
limit=60 # seconds; a hung rank fails the test instead of blocking ctest

# In a sanitizer build, MPI_Init leaks ~1 KB inside hwloc's PCI plugin
# (third party): without the PCI component it does not happen, and
# tests/lsan.supp suppresses it otherwise. The caller's options are kept.
supp="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lsan.supp"
export LSAN_OPTIONS="suppressions=$supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

mpi() { # ranks args...
  local n=$1
  shift
  HWLOC_COMPONENTS=-pci \
    timeout "$limit" "$mpiexec" "$npflag" "$n" "$sweep_mpi" "$@"
}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# drops the last CSV column (seconds_repartition / seconds)
untimed() { sed 's/,[^,]*$//' "$1"; }

case "$mode" in
same)
  mpi 2 --table 1 "${small[@]}" -v -o "$work/mpi" >"$work/mpi.log" \
    2>"$work/mpi.err"
  # -v names the ThroTTle auto chose (never the placeholder 0): 8 lines
  [ "$(grep -c 'ThroTTle auto ([0-9.e+inf]*):' "$work/mpi.err")" -eq 8 ] ||
    fail "-v: want 8 'ThroTTle auto (T)' lines: $(cat "$work/mpi.err")"
  ! grep -q 'ThroTTle auto (0)' "$work/mpi.err" || fail "-v: auto (0)"
  "$minex" sweep --table 1 "${small[@]}" --threads 1 -o "$work/serial" \
    >"$work/serial.log"
  for f in table1.csv table1_steps.csv; do
    rows=$(wc -l <"$work/serial/$f")
    [ "$rows" -gt 1 ] || fail "$f: no rows"
    diff <(untimed "$work/mpi/$f") <(untimed "$work/serial/$f") ||
      fail "$f differs between 2 ranks and the serial run"
  done
  [ "$(wc -l <"$work/mpi/table1.csv")" -eq 73 ] ||
    fail "table1.csv: want a header and 72 rows"
  for f in table1.md table1.dat table1.gp; do
    cmp "$work/mpi/$f" "$work/serial/$f" || fail "$f differs"
  done
  grep -q '^# table1:' "$work/mpi.log" || fail "the table was not printed"
  ;;
failure)
  # rank 0 alone fails before the workload: its directory is under a file
  touch "$work/file"
  rc=0
  mpi 2 --table 1 "${small[@]}" -o "$work/file/out" >/dev/null \
    2>"$work/e1.log" || rc=$?
  [ "$rc" -eq 1 ] || fail "directory: exit $rc"
  grep -q 'rank 0 of 2: .*file/out' "$work/e1.log" ||
    fail "directory: message without the rank: $(cat "$work/e1.log")"
  # rank 0 alone fails after the reduction: table1.csv is a directory
  mkdir -p "$work/out2/table1.csv"
  rc=0
  mpi 2 --table 1,2 "${small[@]}" -o "$work/out2" >/dev/null \
    2>"$work/e2.log" || rc=$?
  [ "$rc" -eq 1 ] || fail "write: exit $rc"
  grep -q 'rank 0 of 2: .*table1.csv' "$work/e2.log" ||
    fail "write: message without the rank: $(cat "$work/e2.log")"
  [ ! -e "$work/out2/table2.csv" ] || fail "write: went on to table 2"
  ls "$work/out2" | grep -q tmp && fail "write: a temporary file is left"
  # every rank fails to read the mesh
  rc=0
  mpi 2 --table 1 "${small[@]}" "$work/missing.mesh" -o "$work/out3" \
    >/dev/null 2>"$work/e3.log" || rc=$?
  [ "$rc" -eq 1 ] || fail "mesh: exit $rc"
  grep -q 'rank 1 of 2: .*missing.mesh' "$work/e3.log" ||
    fail "mesh: no message of rank 1: $(cat "$work/e3.log")"
  # usage error: exit 2, one message (rank 0's)
  rc=0
  mpi 2 --table 9 -o "$work/out4" >/dev/null 2>"$work/e4.log" || rc=$?
  [ "$rc" -eq 2 ] || fail "usage: exit $rc, want 2"
  [ "$(grep -c "unknown table '9'" "$work/e4.log")" -eq 1 ] ||
    fail "usage: want one message: $(cat "$work/e4.log")"
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
echo "sweep_mpi $mode: ok"
