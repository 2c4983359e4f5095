#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs scripts/errors_table.sh (every class of bad input the tool reaches,
# the table of docs/reference/errors.md) and checks each row: an input marked
# "(legal)" or the empty graph succeeds; every other one exits non-zero
# with a message that names the code (MINEX_E...) or the option at fault;
# no row's peak memory exceeds 100 MB (a few bytes of input never size
# gigabytes).
# Usage: errors_table_check.sh SCRIPT MINEX
set -euo pipefail
table=$(bash "$1" "$2")
fail=0 rows=0
while IFS='|' read -r _ class cmd rc msg rss _; do
  rows=$((rows + 1))
  rc=${rc// /} rss=${rss// /}
  case "$class" in
  *legal* | *"0 vertices"*) want=0 ;;
  *) want=nonzero ;;
  esac
  if [ "$want" = 0 ] && [ "$rc" != 0 ]; then
    echo "FAIL:$class: exit $rc, expected success:$msg"
    fail=1
  elif [ "$want" = nonzero ]; then
    if [ "$rc" = 0 ]; then
      echo "FAIL:$class: exit 0 for bad input"
      fail=1
    elif ! printf '%s' "$msg" | grep -Eq 'MINEX_E[A-Z]+|--[a-z-]+: expected'; then
      echo "FAIL:$class: message names no code or option:$msg"
      fail=1
    fi
  fi
  if [ "$rss" -gt 100 ]; then
    echo "FAIL:$class: peak RSS $rss MB > 100 MB"
    fail=1
  fi
done < <(printf '%s\n' "$table" | tail -n +3)
echo "$rows rows checked"
[ "$rows" -ge 40 ] || { echo "FAIL: only $rows rows"; fail=1; }
exit $fail
