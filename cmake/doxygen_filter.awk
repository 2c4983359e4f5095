# SPDX-License-Identifier: GPL-3.0-or-later
# Doxygen's INPUT_FILTER (docs/Doxyfile.in): prints a header as it is,
# except the body of enum minex_errno, which the header builds from the
# X-macro list MINEX_ERRNO_MAP: that line is replaced by the enum values
# the list makes, each documented by its own message, so that the reference
# lists every error code with the text minex_strerror gives. One output
# line per input line (the warnings' line numbers stay right).
/^  X\([A-Z0-9_]+, *-?[0-9]+, *".*"\)/ {
  s = $0
  sub(/^  X\(/, "", s)
  name = s; sub(/,.*/, "", name)
  code = s; sub(/^[A-Z0-9_]+, */, "", code); sub(/,.*/, "", code)
  msg = s; sub(/^[^"]*"/, "", msg); sub(/".*/, "", msg)
  values = values "MINEX_" name " = " code ", /**< " msg " */ "
}
# the helper macro that builds the enum is internal: an empty line
/^#(define|undef) MINEX_ERRNO_ENUM_/ { print ""; next }
/^  MINEX_ERRNO_MAP\(MINEX_ERRNO_ENUM_\)/ { print "  " values; next }
{ print }
