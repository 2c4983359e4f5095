# Checks that README.md shows examples/quickstart.c verbatim (without the
# file's opening comment), so the documented example is the tested one.
# cmake -DREADME=... -DSOURCE=... -P check_readme.cmake
file(READ "${SOURCE}" src)
string(FIND "${src}" "*/\n" end)
math(EXPR start "${end} + 3")
string(SUBSTRING "${src}" ${start} -1 body)
file(READ "${README}" readme)
string(FIND "${readme}" "${body}" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "README.md does not contain examples/quickstart.c "
          "verbatim: update the C API example in the README")
endif()
