#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes the man pages minex(1) and minex-COMMAND(1) from the tool's own
# help: `minex --help` gives minex(1) and the list of commands, and
# `minex COMMAND --help` each command's page, so a page says what --help
# says (run at build time by cmake/Docs.cmake; checked by the man_pages
# test, tests/docs/test_man.sh).
# The help text's layout becomes roff: the Usage lines the SYNOPSIS, an
# unindented line ending in ':' a subsection, a line indented by two spaces
# an entry (its term, then two or more spaces and the description, which
# the more deeply indented lines after it continue), other lines running
# text, and blank lines paragraph breaks.
# With SWEEP_MPI (the minex-sweep-mpi program) it also makes
# minex-sweep-mpi(1) from `minex-sweep-mpi --help` (run as one MPI process).
# Usage: gen_man.sh MINEX OUTDIR VERSION [SWEEP_MPI]
set -euo pipefail
exe="$1" out="$2" version="$3" sweep_mpi="${4:-}"
mkdir -p "$out"
rm -f "$out"/minex.1 "$out"/minex-*.1

top="$("$exe" --help)"
# the command list: the two-space lines of the Commands: section
commands="$(printf '%s\n' "$top" | awk '
  /^Commands:$/ { on = 1; next }
  on && /^$/ { exit }
  on && /^  [a-z0-9-]+  +/ { print $1 }')"
[ -n "$commands" ] || { echo "gen_man: no command in $exe --help" >&2; exit 1; }

# help2roff NAME SUMMARY SEEALSO: the help text on stdin as a man page
help2roff() {
  awk -v name="$1" -v summary="$2" -v seealso="$3" -v version="$version" '
    function esc(s) {
      gsub(/\\/, "\\e", s)
      gsub(/-/, "\\-", s)
      if (s ~ /^[.\047]/) s = "\\&" s
      return s
    }
    # a term: options (words starting with -) and a leading lower-case
    # word (a command) bold, arguments italic
    function term(t,   n, w, i, r, sep) {
      n = split(t, w, " ")
      r = ""
      for (i = 1; i <= n; i++) {
        sep = (i > 1) ? " " : ""
        if (w[i] ~ /^-/ || (i == 1 && w[i] ~ /^[a-z]/))
          r = r sep "\\fB" esc(w[i]) "\\fR"
        else r = r sep "\\fI" esc(w[i]) "\\fR"
      }
      return r
    }
    BEGIN {
      up = toupper(name)
      printf ".TH %s 1 \"\" \"minex %s\" \"MinEX Manual\"\n", up, version
      print ".\\\" made from the tool\047s --help by cmake/gen_man.sh: do not edit"
      print ".nh"
      print ".ad l"
      print ".SH NAME"
      print esc(name) " \\- " esc(summary)
      state = "usage"
    }
    state == "usage" && /^$/ {
      print ".fi"
      print ".SH DESCRIPTION"
      state = "text"; mode = ""
      next
    }
    state == "usage" {
      line = $0
      if (!started) {
        print ".SH SYNOPSIS"
        print ".nf"
        started = 1
        sub(/^Usage: /, "", line)
      } else {
        sub(/^       /, "", line)
      }
      print esc(line)
      next
    }
    /^$/ { if (mode != "") print ".PP"; mode = ""; next }
    /^[^ ].*:$/ {
      h = $0; sub(/:$/, "", h)
      print ".SS " esc(h)
      mode = ""
      next
    }
    /^  [^ ]/ {
      line = substr($0, 3)
      t = line; d = ""
      if (match(line, /  +/)) {
        t = substr(line, 1, RSTART - 1)
        d = substr(line, RSTART + RLENGTH)
      }
      print ".TP"
      print term(t)
      if (d != "") print esc(d)
      mode = "entry"
      next
    }
    /^   / && mode == "entry" {
      line = $0; sub(/^ +/, "", line)
      print esc(line)
      next
    }
    {
      line = $0; sub(/^ +/, "", line)
      if (mode == "entry") print ".PP"
      print esc(line)
      mode = "text"
    }
    END {
      if (state == "usage") print ".fi"
      if (seealso != "") {
        print ".SH SEE ALSO"
        print seealso
      }
    }'
}

see=""
for c in $commands; do
  see="$see${see:+,
}.BR minex\\-$c (1)"
done
# minex(1)'s NAME line: the first paragraph after Usage, without "MinEX: "
summary="$(printf '%s\n' "$top" | awk '
  /^$/ { n++; next }
  n == 1 { s = s (s == "" ? "" : " ") $0 }
  END { sub(/^MinEX: */, "", s); sub(/\.$/, "", s); print s }')"
printf '%s\n' "$top" | help2roff minex "$summary" "$see" >"$out/minex.1"
for c in $commands; do
  s="$(printf '%s\n' "$top" |
    awk -v c="$c" '$1 == c && /^  / { $1 = ""; sub(/^ +/, ""); print; exit }')"
  "$exe" "$c" --help |
    help2roff "minex-$c" "$s" ".BR minex (1)" >"$out/minex-$c.1"
done
if [ -n "$sweep_mpi" ]; then
  # NAME: the sweep command's summary, spread over MPI ranks
  s="$(printf '%s\n' "$top" |
    awk '$1 == "sweep" && /^  / { $1 = ""; sub(/^ +/, ""); print; exit }')"
  help="$(timeout 120 "$sweep_mpi" --help)"
  printf '%s\n' "$help" |
    help2roff minex-sweep-mpi "$s, over MPI ranks" \
      ".BR minex\\-sweep (1),
.BR minex (1)" >"$out/minex-sweep-mpi.1"
fi
