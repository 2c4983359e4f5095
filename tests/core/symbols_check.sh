#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The libraries define only minex_ (public API) and minex__ (internal, see
# src/core/rename.h) symbols, so they cannot collide with a user's own
# names; the shared library exports only the public minex_ API.
# Usage: symbols_check.sh LIBMINEX.a LIBMINEX.so
set -euo pipefail
static=$1 shared=$2
# symbols the sanitizers' instrumentation adds beside each global, and the
# two error hooks libscotch requires of the program that links it
# (src/scratch/scratch.c: they keep Scotch's messages, never print)
instr='^(__odr_asan[.]|__asan_|__ubsan_|__tsan_|__sancov_|SCOTCH_errorPrintW?$)'
bad=$(nm -g --defined-only "$static" 2>/dev/null |
  awk 'NF == 3 && $2 ~ /[TDBRCVWGS]/ {print $3}' | grep -Ev "$instr" |
  grep -v '^minex_' || true)
if [ -n "$bad" ]; then
  echo "FAIL: $static defines names outside the minex_ namespace" \
    "(add them to src/core/rename.h):"
  echo "$bad"
  exit 1
fi
internal=$(nm -g --defined-only "$static" 2>/dev/null |
  awk 'NF == 3 && $2 ~ /[TDBRCVWGS]/ {print $3}' | grep -c '^minex__' || true)
exported=$(nm -D --defined-only "$shared" | awk '{print $3}' |
  grep -Ev "$instr" || true)
bad=$(printf '%s\n' "$exported" | grep -v '^minex_' | grep . || true)
leaked=$(printf '%s\n' "$exported" | grep '^minex__' || true)
if [ -n "$bad$leaked" ]; then
  echo "FAIL: $shared exports non-API names:"
  echo "$bad$leaked"
  exit 1
fi
echo "$(printf '%s\n' "$exported" | grep -c .) public symbols exported;" \
  "$internal internal minex__ symbols in the static library; nothing else"
