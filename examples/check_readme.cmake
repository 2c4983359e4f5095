# SPDX-License-Identifier: GPL-3.0-or-later
# Checks that a Markdown page shows an example verbatim (without the
# file's opening comment), so the documented example is the tested one:
# README.md shows examples/quickstart.c, docs/guide/mpi.md
# examples/mpi_quickstart.c.
# cmake -DREADME=PAGE.md -DSOURCE=FILE.c -P check_readme.cmake
file(READ "${SOURCE}" src)
# the SPDX line, then the opening comment, are not shown in the README
string(REGEX REPLACE "^/\\* SPDX-License-Identifier:[^\n]*\n" "" src "${src}")
string(FIND "${src}" "*/\n" end)
math(EXPR start "${end} + 3")
string(SUBSTRING "${src}" ${start} -1 body)
file(READ "${README}" readme)
string(FIND "${readme}" "${body}" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "${README} does not contain ${SOURCE} verbatim "
          "(without its opening comment): update the example in it")
endif()
