#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Style checks that need no build: every C file of the project is formatted
# by the checked-in .clang-format (clang-format --dry-run --Werror), and
# every source file (C, shell, Python, CMake) carries the SPDX licence line.
# Run by scripts/test.sh before the builds.
# Usage: bash scripts/format_check.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
fail=0
mapfile -t cfiles < <(git ls-files '*.c' '*.h' 2>/dev/null ||
  find . -name '*.[ch]' -not -path './build*')
if ! clang-format --dry-run --Werror "${cfiles[@]}"; then
  echo "format: run clang-format -i on the files above"
  fail=1
fi
mapfile -t all < <(git ls-files '*.c' '*.h' '*.h.in' '*.sh' '*.py' \
  'CMakeLists.txt' '*/CMakeLists.txt' '*.cmake' '*.cmake.in' '.ci/run')
for f in "${all[@]}"; do
  if ! head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-3.0-or-later'; then
    echo "licence: $f lacks the SPDX-License-Identifier line"
    fail=1
  fi
done
[ "$fail" = 0 ] && echo "format: ${#cfiles[@]} C files formatted, ${#all[@]} files with SPDX"
exit $fail
