#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The peer benchmark in one command (bench/peers/README.md): builds MinEX
# and the peer drivers found on this machine, makes the cases, runs every
# driver x method x --param of settings.tsv and MinEX (told each k), scores
# every partition with `minex eval`, cross-checks the scores with the
# independent score.py, and writes the report (docs/benchmarks.md and
# docs/img/peers_ratio.{png,svg}).
#
#   bench/peers/run.sh [--quick] [--build DIR] [--out DIR] [--report DIR]
#                      [--no-build] [--only GLOB] [--check-max-vtxs N]
#                      [--timeout S] [--skip-without-drivers] [--minex-only]
#
#   --quick       one tiny case and a 2-step simulation (CI; seconds); the
#                 report goes to OUT/report unless --report is given
#   --build DIR   CMake build folder (default: REPO/build-peers, Release)
#   --no-build    use DIR as it is (its programs must exist)
#   --out DIR     work folder: cases, partitions, logs, results.jsonl
#                 (default: /tmp/minex-peers, or /tmp/minex-peers-quick)
#   --report DIR  where benchmarks.md and img/ go (default: REPO/docs; with
#                 --quick or --only: OUT/report)
#   --only GLOB   only the cases whose name matches the shell pattern GLOB
#                 (e.g. 'cube202k-hetero4*', 'sim32'; names in the README)
#   --check-max-vtxs N  score.py recomputes every partition of the cases up
#                 to N vertices (default 250000; homogeneous or not)
#   --timeout S   a program running longer than S seconds is stopped and
#                 its run recorded as failed (default 600)
#   --skip-without-drivers  exit 77 (skipped) when no peer driver is built
#                 (the ctest of --quick)
#   --minex-only  re-run MinEX alone on the cases of an earlier full run in
#                 OUT (its cases and peer partitions are kept: the peers are
#                 deterministic and their inputs unchanged), then collect,
#                 cross-check and report as usual; meta.json records it and
#                 keeps the earlier run's as meta_peers.json
#
# Exit status: 0 when every run and every cross-check succeeded; 1 when a
# run failed (the report lists it), a cross-check found a mismatch, or a
# step of the pipeline failed; 2 on a bad command line; 77 with
# --skip-without-drivers and no driver.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
QUICK=0
BUILD="$REPO/build-peers"
DO_BUILD=1
OUT=""
REPORT=""
CHECK_MAX_VTXS=250000
ONLY='*'
SKIP_WITHOUT_DRIVERS=0
MINEX_ONLY=0
TIMEOUT=600
ARGS=("$@")

# the comment above, up to the first line that is not one
usage() { awk 'NR > 2 && !/^#/ {exit} NR > 2 {sub(/^# ?/, ""); print}' "$0"; }
while [ $# -gt 0 ]; do
  case "$1" in
  --quick) QUICK=1 ;;
  --build) BUILD="$2"; shift ;;
  --no-build) DO_BUILD=0 ;;
  --out) OUT="$2"; shift ;;
  --report) REPORT="$2"; shift ;;
  --only) ONLY="$2"; shift ;;
  --skip-without-drivers) SKIP_WITHOUT_DRIVERS=1 ;;
  --minex-only) MINEX_ONLY=1 ;;
  --timeout) TIMEOUT="$2"; shift ;;
  --check-max-vtxs) CHECK_MAX_VTXS="$2"; shift ;;
  -h | --help) usage; exit 0 ;;
  *) echo "run.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$OUT" ]; then
  OUT=/tmp/minex-peers
  [ "$QUICK" = 1 ] && OUT=/tmp/minex-peers-quick
fi
if [ -z "$REPORT" ]; then
  REPORT="$REPO/docs"
  [ "$QUICK" = 1 ] || [ "$ONLY" != '*' ] && REPORT="$OUT/report"
fi
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
LOG="$OUT/run.log"
: >"$LOG"
T_START=$(date +%s)

say() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$LOG" >&2; }
die() { say "run.sh: $*"; exit 1; }

# ------------------------------------------------------------ the cases
# k of the horizon T_k = MaxRemap + k * SteadyMax, and the alphas.
KS=(1 10 100 1000)
ALPHAS=(0 1)
# Single-step cases: NAME | mesh (file, or peers_case options) | P. Each is
# crossed with the machines below (machines/NAME_P.xml, homo: homoP.xml).
MACHINES=(homo hetero4 conn100x8)
if [ "$QUICK" = 1 ]; then
  MESHES=("tiny|--box 6 6 6|16")
  SIM_ARGS=(--box 4 4 4 --steps 2 --depth 2 --nprocs 8)
else
  MESHES=(
    "box1e4|--elements 10000|16"
    "perfusion18k|$REPO/data/meshes/perfusion_micro3d.mesh|16"
    "cube202k|$REPO/data/meshes/cube_big_tetra.mesh|32"
    "box1e6|--elements 1000000|64"
  )
  SIM_ARGS=() # the default workload: 9 adaptations, P = 32, 4 clusters
fi
# above this many vertices a case runs the 'large' settings of settings.tsv
LARGE_VTXS=500000

# ------------------------------------------------------------- building
if [ "$DO_BUILD" = 1 ]; then
  say "building MinEX and the peer drivers in $BUILD (Release)"
  cmake -S "$REPO" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
    -DMINEX_BUILD_TESTS=OFF >>"$LOG" 2>&1 || die "cmake failed (see $LOG)"
  cmake --build "$BUILD" -j "$(nproc)" >>"$LOG" 2>&1 ||
    die "build failed (see $LOG)"
fi
MINEX="$BUILD/programs/minex"
CASE_BIN="$BUILD/bench/peers/peers_case"
[ -x "$MINEX" ] || die "$MINEX missing"
[ -x "$CASE_BIN" ] || die "$CASE_BIN missing"
[ -x /usr/bin/time ] || die "/usr/bin/time missing (Debian package 'time')"
# the whole help read first: `grep -q` stops reading at the first match, and
# under pipefail the writer's SIGPIPE would fail the check at random
repart_help="$("$MINEX" repart --help)"
grep -q -- '--iters' <<<"$repart_help" ||
  die "minex repart has no --iters (the horizon): this MinEX is too old"

# drivers built, and the settings they get (settings.tsv: one place)
DRIVERS=()
for t in metis scotch zoltan; do
  if [ -x "$BUILD/bench/peers/peer_$t" ]; then
    DRIVERS+=("$t")
  else
    say "peer_$t not built (package missing?): its rows are left out"
  fi
done
SETTINGS=()
while read -r tool method params large; do
  case "$tool" in '#'* | '') continue ;; esac
  for d in "${DRIVERS[@]}"; do
    [ "$d" = "$tool" ] && SETTINGS+=("$tool $method $params $large")
  done
done <"$HERE/settings.tsv"
say "drivers: ${DRIVERS[*]:-none}; ${#SETTINGS[@]} peer methods"
if [ ${#DRIVERS[@]} -eq 0 ] && [ "$SKIP_WITHOUT_DRIVERS" = 1 ]; then
  say "no peer driver built: skipped (exit 77)"
  exit 77
fi

# ------------------------------------------------------------ the runs
FAILED=0
declare -A UNSUPPORTED=()

# Runs a command under /usr/bin/time: peak RSS (KB) into $dir/rss, stdout
# into $dir/run.json, stderr into $dir/stderr; stopped after $TIMEOUT s.
# Returns its exit status (124 when it timed out).
timed() {
  local dir="$1"
  shift
  local st=0 lsan="${LSAN_OPTIONS:-}"
  # in a sanitizer build: Open MPI's MPI_Init (peer_zoltan only) leaks
  # from plugins it has unloaded, frames no suppression can name
  case "$1" in */peer_zoltan) lsan="detect_leaks=0" ;; esac
  LSAN_OPTIONS="$lsan" /usr/bin/time -f %M -o "$dir/rss" \
    timeout "$TIMEOUT" "$@" >"$dir/run.json" 2>"$dir/stderr" || st=$?
  [ $st = 124 ] && echo "timed out after $TIMEOUT s" >>"$dir/stderr"
  return $st
}

# score DIR GRAPH OLD CFG ITERS ALPHA...: scores DIR/new.part, one JSON per
# alpha (DIR/eval_aA.json).
score() {
  local dir="$1" graph="$2" old="$3" cfg="$4" iters="$5"
  shift 5
  local a
  for a in "$@"; do
    "$MINEX" eval "$graph" --old "$old" --new "$dir/new.part" --config "$cfg" \
      --alpha "$a" --iters "$iters" --json >"$dir/eval_a$a.json.tmp" \
      2>>"$dir/stderr" || return 1
    mv "$dir/eval_a$a.json.tmp" "$dir/eval_a$a.json"
  done
}

# chain CASEDIR NSTEPS RUNDIR KIND ARG...: runs one setting through the
# case's steps, each from the previous step's result (step 1 from
# CASEDIR/case_initial.part). KIND peer: ARG = tool method param; KIND
# minex: ARG = k alpha. On failure writes RUNDIR/error and returns the
# exit status of the failing command.
chain() {
  local cdir="$1" nsteps="$2" rdir="$3" kind="$4"
  shift 4
  local cfg="$cdir/case_config.xml" old="$cdir/case_initial.part" s st
  mkdir -p "$rdir"
  for ((s = 1; s <= nsteps; s++)); do
    local sd="$rdir/step$s" graph="$cdir/case_step$s.graph"
    mkdir -p "$sd"
    st=0
    if [ "$kind" = peer ]; then
      timed "$sd" "$BUILD/bench/peers/peer_$1" "$graph" --old "$old" \
        --config "$cfg" --method "$2" --param "$3" --seed 1 \
        -o "$sd/new.part" || st=$?
      [ $st = 0 ] && { score "$sd" "$graph" "$old" "$cfg" 1 "${ALPHAS[@]}" ||
        st=1; }
    else
      timed "$sd" "$MINEX" repart "$graph" --old "$old" --config "$cfg" \
        --iters "$1" --alpha "$2" --seed 1 --json -o "$sd/new.part" || st=$?
      # the figures at k = 1 like every other row (T_k follows from
      # SteadyMax and MaxRemap), and eval's own T_k at the k MinEX was told
      # (collect.py checks the two agree)
      [ $st = 0 ] && { score "$sd" "$graph" "$old" "$cfg" 1 "$2" || st=1; }
      [ $st = 0 ] && { "$MINEX" eval "$graph" --old "$old" --new \
        "$sd/new.part" --config "$cfg" --alpha "$2" --iters "$1" --json \
        >"$sd/eval_k.json.tmp" 2>>"$sd/stderr" &&
        mv "$sd/eval_k.json.tmp" "$sd/eval_k.json" || st=1; }
    fi
    if [ $st != 0 ]; then
      { echo "step $s: exit status $st"; tail -n 5 "$sd/stderr"; } \
        >"$rdir/error"
      return $st
    fi
    printf '{"graph": "%s", "old": "%s", "config": "%s", "part": "%s"}\n' \
      "$graph" "$old" "$cfg" "$sd/new.part" >"$sd/files.json"
    old="$sd/new.part"
  done
}

# run_case NAME NSTEPS NVTXS: every peer setting and MinEX on one case.
run_case() {
  local name="$1" nsteps="$2" nvtxs="$3"
  local cdir="$OUT/cases/$name" rbase="$OUT/runs/$name" line
  if [ "$MINEX_ONLY" = 1 ]; then
    rm -rf "$rbase"/minex-*
  else
    rm -rf "$rbase"
  fi
  mkdir -p "$rbase"
  for line in "${SETTINGS[@]}"; do
    [ "$MINEX_ONLY" = 1 ] && break
    read -r tool method params large <<<"$line"
    if [ "$nvtxs" -gt "$LARGE_VTXS" ]; then
      [ "$large" = - ] && continue
      params="$large"
    fi
    local p
    for p in ${params//,/ }; do
      [ -n "${UNSUPPORTED[$tool/$method]:-}" ] && break
      local rdir="$rbase/$tool-$method-$p" t0 st=0
      t0=$(date +%s.%N)
      chain "$cdir" "$nsteps" "$rdir" peer "$tool" "$method" "$p" || st=$?
      printf '{"tool": "%s", "method": "%s", "param": %s}\n' \
        "$tool" "$method" "$p" >"$rdir/meta.json"
      if [ $st = 2 ]; then
        say "$name: peer_$tool --method $method: refused (exit 2): skipped" \
          "from now on: $(tail -n 1 "$rdir/step1/stderr" 2>/dev/null)"
        UNSUPPORTED[$tool/$method]=1
        rm -rf "$rdir"
        break
      elif [ $st != 0 ]; then
        FAILED=1
        say "$name: $tool $method $p FAILED: $(tr '\n' ' ' <"$rdir/error")"
      else
        say "$name: $tool $method $p done in" \
          "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s"
      fi
    done
  done
  local k a
  for k in "${KS[@]}"; do
    for a in "${ALPHAS[@]}"; do
      local rdir="$rbase/minex-k$k-a$a" st=0
      chain "$cdir" "$nsteps" "$rdir" minex "$k" "$a" || st=$?
      printf '{"tool": "minex", "method": "repart", "param": %s, "alpha": %s}\n' \
        "$k" "$a" >"$rdir/meta.json"
      if [ $st != 0 ]; then
        FAILED=1
        say "$name: MinEX k=$k alpha=$a FAILED: $(tr '\n' ' ' <"$rdir/error")"
      fi
    done
  done
  say "$name: MinEX done"
}

if [ "$MINEX_ONLY" = 1 ]; then
  # the cases of the earlier run, as they are
  [ -f "$OUT/meta.json" ] && [ -d "$OUT/cases" ] ||
    die "--minex-only: $OUT holds no earlier full run (meta.json, cases/)"
  cp "$OUT/meta.json" "$OUT/meta_peers.json.tmp"
  [ -f "$OUT/meta_peers.json" ] || mv "$OUT/meta_peers.json.tmp" "$OUT/meta_peers.json"
  rm -f "$OUT/meta_peers.json.tmp"
  CASES=()
  for cdir in "$OUT"/cases/*/; do
    name="$(basename "$cdir")"
    # shellcheck disable=SC2053 # GLOB is a pattern on purpose
    [[ $name == $ONLY ]] && [ -f "$cdir/nsteps" ] && CASES+=("$name")
  done
else
  rm -rf "$OUT/cases" "$OUT/runs"
  mkdir -p "$OUT/cases" "$OUT/runs"
  rm -f "$OUT/meta_peers.json"
  CASES=()
  for mesh in "${MESHES[@]}"; do
    IFS='|' read -r mname msrc P <<<"$mesh"
    for mach in "${MACHINES[@]}"; do
      cfg="$HERE/machines/${mach}_$P.xml"
      [ "$mach" = homo ] && cfg="$HERE/machines/homo$P.xml"
      name="$mname-$mach-p$P"
      # shellcheck disable=SC2053 # GLOB is a pattern on purpose
      [[ $name == $ONLY ]] || continue
      cdir="$OUT/cases/$name"
      if [ "${msrc#-}" != "$msrc" ]; then
        # shellcheck disable=SC2086 # the generator's options are meant to split
        "$CASE_BIN" $msrc --config "$cfg" -o "$cdir" --name "$name" >>"$LOG" ||
          die "peers_case $name failed"
      else
        "$CASE_BIN" "$msrc" --config "$cfg" -o "$cdir" --name "$name" \
          >>"$LOG" || die "peers_case $name failed"
      fi
      ln -sf graph.graph "$cdir/case_step1.graph"
      ln -sf old.part "$cdir/case_initial.part"
      ln -sf config.xml "$cdir/case_config.xml"
      echo 1 >"$cdir/nsteps"
      CASES+=("$name")
    done
  done
  # the simulation's sequence (minex sim's workload and machine)
  name=sim32
  [ "$QUICK" = 1 ] && name=simtiny
  # shellcheck disable=SC2053 # GLOB is a pattern on purpose
  if [[ $name == $ONLY ]]; then
    cdir="$OUT/cases/$name"
    mkdir -p "$cdir"
    "$MINEX" sim "${SIM_ARGS[@]}" --no-partition --json \
      --write-graphs "$cdir/case" >"$cdir/sim.json" 2>>"$LOG" ||
      die "minex sim --write-graphs failed"
    find "$cdir" -name 'case_step*.graph' | wc -l | tr -d ' ' >"$cdir/nsteps"
    CASES+=("$name")
  fi
fi
[ ${#CASES[@]} -gt 0 ] || die "no case matches --only '$ONLY'"

for name in "${CASES[@]}"; do
  cdir="$OUT/cases/$name"
  nvtxs=$(head -n 1 "$cdir/case_step1.graph" | awk '{print $1}')
  say "case $name: $nvtxs vertices, $(cat "$cdir/nsteps") step(s)"
  run_case "$name" "$(cat "$cdir/nsteps")" "$nvtxs"
done

# ------------------------------------------------ results, checks, report
T_RUNS=$(date +%s)
{
  printf '{"command": "bench/peers/run.sh'
  for a in "${ARGS[@]}"; do printf ' %s' "$a"; done
  printf '", "quick": %s, "date": "%s", "host": "%s", ' "$QUICK" \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(hostname)"
  printf '"cpu": "%s", "ncpus": %s, "mem_gb": %s, ' \
    "$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)" "$(nproc)" \
    "$(awk '/MemTotal/ {printf "%.1f", $2 / 1048576}' /proc/meminfo)"
  printf '"os": "%s", "compiler": "%s", ' \
    "$(sed -n 's/^PRETTY_NAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' /etc/os-release)" \
    "$(cc --version | head -n 1)"
  printf '"minex_commit": "%s", ' \
    "$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)"
  printf '"peers": {'
  sep=""
  for p in libmetis-dev libscotch-dev libtrilinos-zoltan-dev; do
    printf '%s"%s": "%s"' "$sep" "$p" \
      "$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || echo absent)"
    sep=", "
  done
  printf '}, "drivers": "%s", "ks": [%s], "alphas": [%s], ' "${DRIVERS[*]}" \
    "$(IFS=,; echo "${KS[*]}")" "$(IFS=,; echo "${ALPHAS[*]}")"
  printf '"large_vtxs": %s, "seconds_runs": %s, "minex_only": %s}\n' \
    "$LARGE_VTXS" "$((T_RUNS - T_START))" "$MINEX_ONLY"
} >"$OUT/meta.json.tmp"
mv "$OUT/meta.json.tmp" "$OUT/meta.json"

python3 "$HERE/collect.py" "$OUT" 2>&1 | tee -a "$LOG" >&2 ||
  { FAILED=1; say "collect.py found eval figures that disagree (above)"; }
[ -s "$OUT/results.jsonl" ] || [ -f "$OUT/results.jsonl" ] ||
  die "collect.py wrote no results"
for name in "${CASES[@]}"; do
  python3 "$HERE/score.py" --check "$OUT/results.jsonl" --case "$name" \
    --max-vtxs "$CHECK_MAX_VTXS" 2>&1 | tee -a "$LOG" >&2 ||
    { FAILED=1; say "CROSS-CHECK FAILED for $name: minex eval and score.py" \
      "disagree (above)"; }
done
python3 "$HERE/report.py" "$OUT" "$REPORT" || die "report.py failed"
say "report: $REPORT/benchmarks.md; results: $OUT/results.jsonl;" \
  "total $(($(date +%s) - T_START)) s"
if [ "$FAILED" != 0 ]; then
  say "run.sh: some runs or cross-checks FAILED (see above and $LOG)"
  exit 1
fi
