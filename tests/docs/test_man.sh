#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The man pages made by cmake/gen_man.sh: there is one page per command
# of `minex --help`, minex(1) and minex-sweep-mpi(1) when given, and no
# other; each renders with groff
# without a warning (-ww) and through man -l; and each holds, in its
# rendered text, every option (-x, --xyz) printed by the --help it was made
# from, and minex(1) every command. The check is then run on a page with
# one option line removed, which it must refuse (the test can fail).
# With SWEEP_MPI, minex-sweep-mpi(1) is checked alike against
# `minex-sweep-mpi --help`.
# Usage: test_man.sh MINEX MANDIR [SWEEP_MPI]
set -euo pipefail
exe="$1" dir="$2" sweep_mpi="${3:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export MANWIDTH=80 LC_ALL=C.UTF-8

commands="$("$exe" --help | awk '
  /^Commands:$/ { on = 1; next }
  on && /^$/ { exit }
  on && /^  [a-z0-9-]+  +/ { print $1 }')"
[ -n "$commands" ] || { echo "no command in minex --help"; exit 1; }

# options HELPFILE: the option words of a help text, one per line
options() {
  grep -oE '(^|[][ ,|(])--?[A-Za-z][A-Za-z0-9-]*' "$1" |
    sed 's/^[][ ,|(]//' | sort -u
}

# check PAGE HELPFILE [WORD...]: PAGE renders without warning and its text
# holds every option of HELPFILE and every WORD; prints what is missing
check() {
  local page="$1" help="$2" text="$work/text" err="$work/err" bad=0 w
  shift 2
  groff -man -Tutf8 -ww -z "$page" 2>"$err"
  if [ -s "$err" ]; then
    echo "$page: groff warns:"
    cat "$err"
    bad=1
  fi
  man -l "$page" 2>"$err" | col -b >"$text"
  if [ -s "$err" ] || [ ! -s "$text" ]; then
    echo "$page: man -l fails or shows nothing:"
    cat "$err"
    bad=1
  fi
  while read -r w; do
    grep -qF -e "$w" "$text" || { echo "$page: lacks $w"; bad=1; }
  done < <(options "$help"; printf '%s\n' "$@")
  return $bad
}

fail=0
"$exe" --help >"$work/minex.help"
# shellcheck disable=SC2086  # one word per command
check "$dir/minex.1" "$work/minex.help" $commands || fail=1
n=1
for c in $commands; do
  "$exe" "$c" --help >"$work/$c.help"
  [ "$(options "$work/$c.help" | wc -l)" -ge 2 ] ||
    { echo "minex $c --help: fewer than 2 options"; fail=1; }
  if [ ! -f "$dir/minex-$c.1" ]; then
    echo "no page minex-$c.1"
    fail=1
    continue
  fi
  check "$dir/minex-$c.1" "$work/$c.help" "minex-$c" || fail=1
  n=$((n + 1))
done
if [ -n "$sweep_mpi" ]; then
  timeout 120 "$sweep_mpi" --help >"$work/sweep-mpi.help"
  check "$dir/minex-sweep-mpi.1" "$work/sweep-mpi.help" minex-sweep-mpi ||
    fail=1
  n=$((n + 1))
fi
pages=("$dir"/*.1)
if [ "${#pages[@]}" -ne "$n" ]; then
  echo "$dir holds ${#pages[@]} pages, expected $n:" "${pages[@]}"
  fail=1
fi

# the check refuses a page that lost an option line
first="$(printf '%s\n' $commands | head -n 1)"
opt="$(options "$work/$first.help" | grep -e '^--' | head -n 1)"
grep -vF -e "${opt//-/\\-}" "$dir/minex-$first.1" >"$work/broken.1"
if check "$work/broken.1" "$work/$first.help" >/dev/null; then
  echo "the check accepts minex-$first.1 without $opt"
  fail=1
fi
[ "$fail" = 0 ] && echo "man pages: ${#pages[@]} pages checked"
exit $fail
