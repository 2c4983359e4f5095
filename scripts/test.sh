#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the dependencies and runs every test stage, each timed
# (`== STAGE took N s`), stopping at the first failure:
#   format     clang-format and the SPDX line (scripts/format_check.sh)
#   Release    build with warnings as errors, then the whole ctest suite
#   Python     the Python package's tests (pytest) over the Release build
#   valgrind   the Check suites and the MPI tests under valgrind (memcheck)
#   Asan       AddressSanitizer + UBSan build with the invariant checks
#              (MINEX_CHECKS), then ctest
#   ThreadSanitizer  the threaded tests and tool runs (gcc and clang builds)
#   fuzz       every libFuzzer harness (scripts/fuzz.sh)
# Usage: bash scripts/test.sh [--full]   (from anywhere; as root on a fresh
# Debian 12 it installs what is missing). This is what CI runs, in at most
# 30 minutes on the 2-core reference machine: valgrind leaves out the Check
# cases tagged "slow" and runs the MPI tests on 2 ranks with their quick
# cases only, the Asan build leaves out the 3- and 4-rank MPI runs and the
# peer benchmark's quick run (the Release build runs them) and runs the
# golden corpus's subset (MINEX_GOLDEN_QUICK=1), and each fuzz
# harness runs 10 s.
# --full, for a release: valgrind on every case and every MPI test, the
# whole MPI matrix under Asan, and 120 s per fuzz harness
# (MINEX_FUZZ_SECONDS overrides either).
# MINEX_SKIP_PYTHON=1, MINEX_SKIP_VALGRIND=1, MINEX_SKIP_ASAN=1,
# MINEX_SKIP_TSAN=1 and MINEX_SKIP_FUZZ=1 leave out a stage.
set -euo pipefail

full=0
for arg in "$@"; do
  case "$arg" in
  --full) full=1 ;;
  *)
    echo "usage: bash scripts/test.sh [--full]" >&2
    exit 2
    ;;
  esac
done
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/deps.sh
source "$root/scripts/deps.sh"
minex_install_deps
minex_gen_locales

jobs="$(nproc 2>/dev/null || echo 2)"
export CTEST_OUTPUT_ON_FAILURE=1

# the time of each stage, for the README's table
stage_start=$SECONDS
took() {
  echo "== $1 took $((SECONDS - stage_start)) s"
  stage_start=$SECONDS
}
if [ "$full" = 1 ]; then
  echo "== mode: --full (every case under valgrind, the whole MPI matrix)"
  vg_tags=()
  vg_mpi=()
  asan_exclude=()
  golden_quick=0
  export MINEX_FUZZ_SECONDS="${MINEX_FUZZ_SECONDS:-120}"
else
  echo "== mode: CI (the representative subset; --full runs the whole)"
  vg_tags=(CK_EXCLUDE_TAGS=slow)
  vg_mpi=(MINEX_TEST_QUICK=1) # tests/mpi: the first cases of each program
  # on 3 and 4 MPI ranks the Release stage runs tests/mpi's representative
  # cases too: test_inproc runs the distributed algorithm on 1-8 ranks
  export MINEX_TEST_QUICK_RANKS=3
  # the 3- and 4-rank MPI runs and the peer benchmark's pipeline (METIS,
  # Scotch, Zoltan drivers) run in the Release stage
  asan_exclude=(-E '^((test_mpi|test_migrate|test_dist|test_golden_mpi)_n[34]|peers_quick.*)$')
  # the golden corpus: test_golden on 2 threads and two of its inputs,
  # test_golden_mpi on 4elt alone, test_golden_inproc on 4elt, each case
  # on one in-process rank count (the Release stage runs them whole)
  golden_quick=1
  export MINEX_FUZZ_SECONDS="${MINEX_FUZZ_SECONDS:-10}"
fi
took dependencies

# style: clang-format and the SPDX line (scripts/format_check.sh)
echo "== format"
bash "$root/scripts/format_check.sh"
took format

build_and_test() { # build-dir build-type [ctest arguments]
  local dir="$root/$1" type="$2"
  shift 2
  echo "== $type build in $dir"
  cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DMINEX_WERROR=ON
  cmake --build "$dir" -j "$jobs"
  (cd "$dir" && ctest --output-on-failure -j "$jobs" "$@")
}

build_and_test build-test Release
took Release

# the Python package (python/, docs/guide/python.md): pytest on the source
# tree's package over the Release build's libminex.so and minex tool,
# with Debian's python3 (the one python3-numpy and the others are for;
# MINEX_PYTHON names another)
if [ "${MINEX_SKIP_PYTHON:-0}" != 1 ]; then
  echo "== Python"
  (cd "$root/python" && PYTHONDONTWRITEBYTECODE=1 \
    MINEX_BUILD_DIR="$root/build-test" \
    "${MINEX_PYTHON:-/usr/bin/python3}" -m pytest -q -p no:cacheprovider \
    tests)
  took Python
fi

# valgrind: every Check suite of the Release build in-process (CK_FORK=no,
# so leaks of the tests themselves count); in CI without the cases tagged
# slow (each suite's heavier cases: the same code paths on larger inputs).
# The tool test spawns the tool and is covered by the sanitizer build.
if [ "${MINEX_SKIP_VALGRIND:-0}" != 1 ]; then
  echo "== valgrind"
  vg_fail=0
  # the suites run $jobs at a time (valgrind runs a process on one core),
  # their verdicts printed in suite order
  vg_one() { # test log
    local rc=0
    env CK_FORK=no "${vg_tags[@]}" valgrind -q --error-exitcode=99 \
      --leak-check=full --errors-for-leak-kinds=definite,indirect \
      "$1" >"$2" 2>&1 || rc=$?
    echo "$rc" >"$2.rc"
  }
  vg_tests=()
  for t in "$root"/build-test/tests/*/test_*; do
    case "$t" in
    */tests/mpi/*) continue ;; # MPI programs: below, on 2 ranks
    esac
    case "$(basename "$t")" in
    test_tool) continue ;;
    esac
    [ -x "$t" ] || continue
    vg_tests+=("$t")
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    vg_one "$t" "$root/build-test/valgrind-$(basename "$t").log" &
  done
  wait
  for t in "${vg_tests[@]}"; do
    log="$root/build-test/valgrind-$(basename "$t").log"
    rc="$(cat "$log.rc" 2>/dev/null || echo 1)"
    if [ "$rc" = 0 ]; then
      echo "valgrind clean: $(basename "$t")"
    elif [ "$rc" = 77 ]; then # test_skip: none failed, some skipped
      echo "valgrind clean, some tests skipped: $(basename "$t")"
      grep -h "skipped: " "$log"
    else
      echo "valgrind FAILED: $(basename "$t") (log below)"
      cat "$log"
      vg_fail=1
    fi
  done
  # the MPI layer on 2 ranks, each under valgrind; only MPI_Init's
  # third-party leak is suppressed (tests/valgrind-mpi.supp)
  for t in "$root"/build-test/tests/mpi/test_mpi \
    "$root"/build-test/tests/mpi/test_migrate \
    "$root"/build-test/tests/mpi/test_dist \
    "$root"/build-test/tests/mpi/test_mpi_nomem \
    "$root"/build-test/tests/mpi/test_bound_mpi; do
    [ -x "$t" ] || continue
    rc=0
    log="$root/build-test/valgrind-$(basename "$t").log"
    timeout 1200 env "${vg_mpi[@]}" mpiexec.mpich -n 2 valgrind -q --error-exitcode=99 \
      --leak-check=full --errors-for-leak-kinds=definite,indirect \
      --suppressions="$root/tests/valgrind-mpi.supp" "$t" >"$log" 2>&1 ||
      rc=$?
    if [ "$rc" = 0 ]; then
      echo "valgrind clean: $(basename "$t") (2 ranks)"
    else
      echo "valgrind FAILED: $(basename "$t") on 2 ranks (log below)"
      cat "$log"
      vg_fail=1
    fi
  done
  [ "$vg_fail" = 0 ] || exit 1
  took valgrind
fi

if [ "${MINEX_SKIP_ASAN:-0}" != 1 ]; then
  # leak checks included; halt on the first UBSan report. The MPI tests
  # (tests/programs/sweep_mpi.sh) add tests/lsan.supp, which suppresses only
  # the third-party leak inside MPI_Init (hwloc's PCI plugin), and ctest's
  # lsan_suppressions_hide_only_mpi_init proves it hides no MinEX leak.
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
  if [ "$golden_quick" = 1 ]; then export MINEX_GOLDEN_QUICK=1; fi
  build_and_test build-asan Asan "${asan_exclude[@]}"
  unset MINEX_GOLDEN_QUICK
  if [ "$full" = 1 ] && [ -x "$root/build-asan/tests/mpi/test_mpi_nomem" ]; then
    # every allocation of each failing rank, not a sample (MINEX_CHECKS is
    # on in this build: its checks allocate too)
    for np in 2 3; do
      echo "== test_mpi_nomem on $np ranks, every allocation"
      HWLOC_COMPONENTS=-pci \
        LSAN_OPTIONS="suppressions=$root/tests/lsan.supp" \
        MINEX_NOMEM_SAMPLES=0 timeout 900 mpiexec.mpich -n "$np" \
        "$root/build-asan/tests/mpi/test_mpi_nomem"
    done
  fi
  took Asan
fi
if [ "${MINEX_SKIP_TSAN:-0}" != 1 ]; then
  # only what runs threads; a report fails the stage (exit code 66). Two
  # builds: GCC's for the POSIX threads (the DRUM monitor thread, the sweep
  # workers: test_drum_monitor, test_sim, minex sweep), and clang's with its
  # OpenMP runtime for the repartitioner's OpenMP threads (test_threads and
  # test_scratch, `minex repart --threads 4` under five option sets): the
  # archer tool of clang's runtime tells ThreadSanitizer about OpenMP's
  # barriers, while GCC's libgomp synchronises through futexes it cannot
  # see, so every parallel region would report false races
  # (docs/reference/reliability.md)
  echo "== ThreadSanitizer build in $root/build-tsan (gcc, POSIX threads)"
  export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}"
  cmake -S "$root" -B "$root/build-tsan" -DCMAKE_BUILD_TYPE=Tsan \
    -DMINEX_WERROR=ON -DMINEX_BUILD_BENCH=OFF
  cmake --build "$root/build-tsan" -j "$jobs" \
    --target test_drum_monitor test_sim minex_tool
  (cd "$root/build-tsan" &&
    ctest --output-on-failure -R '^(test_drum_monitor|test_sim)$')
  "$root/build-tsan/programs/minex" sweep --table 1,2 --box 3 3 3 \
    --steps 2 --depth 1 --threads 4 --no-plots \
    -o "$root/build-tsan/sweep-tsan" >/dev/null
  echo "== ThreadSanitizer build in $root/build-tsan-omp (clang, libomp, archer)"
  archer="$(ls /usr/lib/llvm-*/lib/libarcher.so 2>/dev/null | sort -V | tail -1)"
  if [ -z "$archer" ]; then
    echo "ThreadSanitizer stage: libarcher.so not found (libomp-14-dev)" >&2
    exit 1
  fi
  CC=clang cmake -S "$root" -B "$root/build-tsan-omp" -DCMAKE_BUILD_TYPE=Tsan \
    -DMINEX_WERROR=ON -DMINEX_BUILD_BENCH=OFF
  cmake --build "$root/build-tsan-omp" -j "$jobs" \
    --target test_scratch test_threads test_expand test_workspace \
    test_inproc minex_tool
  export OMP_TOOL_LIBRARIES="$archer"
  export TSAN_OPTIONS="$TSAN_OPTIONS:ignore_noninstrumented_modules=1"
  (cd "$root/build-tsan-omp" &&
    ctest --output-on-failure \
      -R '^(test_scratch|test_threads|test_expand|test_workspace)$')
  # the distributed algorithm on ranks simulated by threads (its
  # one-to-eight-rank sweep is the Release stage's)
  CK_EXCLUDE_TAGS=slow "$root/build-tsan-omp/tests/dist/test_inproc"
  tg="$root/build-tsan-omp/tsan-repart"
  mkdir -p "$tg"
  "$root/build-tsan-omp/programs/minex" gen --elements 40000 --refine \
    --part "$tg/old.part" --nparts 8 -o "$tg/g.graph" >/dev/null
  for flags in "" "--iters 100" "--alpha 1 --iters 4" "--paper-exact" \
    "--throttle auto --scratch on"; do
    # shellcheck disable=SC2086
    "$root/build-tsan-omp/programs/minex" repart "$tg/g.graph" \
      --old "$tg/old.part" --nparts 8 --threads 4 $flags >/dev/null
  done
  unset OMP_TOOL_LIBRARIES
  echo "ThreadSanitizer clean: test_drum_monitor, test_sim, minex sweep" \
    "(gcc); test_scratch, test_threads, test_expand, test_workspace," \
    "test_inproc (quick)," \
    "minex repart --threads 4 under 5" \
    "option sets (clang, libomp)"
  took ThreadSanitizer
fi

if [ "${MINEX_SKIP_FUZZ:-0}" != 1 ]; then
  MINEX_FUZZ_BUILD="$root/build-fuzz" bash "$root/scripts/fuzz.sh"
  took fuzz
fi
echo "== all tests passed in $SECONDS s (CI's budget: 1800 s)"
