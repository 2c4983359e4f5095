# SPDX-License-Identifier: GPL-3.0-or-later
# The reference documentation (docs/reference/build-reference.md):
#  - the C API reference, Doxygen over the public headers, HTML only, any
#    Doxygen warning an error: the `docs` target (not part of ALL), its
#    output in build/docs/api/html, installed to ${CMAKE_INSTALL_DOCDIR}/api
#    when it was built;
#  - the man pages minex(1), minex-COMMAND(1) and minex-sweep-mpi(1), made
#    from the programs' own --help output at build time (cmake/gen_man.sh),
#    so they say what --help says; installed to ${CMAKE_INSTALL_MANDIR}/man1.
# Included from the top-level CMakeLists.txt after the programs.

# ---- the C API reference (Doxygen)
find_package(Doxygen)
set(MINEX_DOCS_OUTPUT ${PROJECT_BINARY_DIR}/docs/api)
set(MINEX_DOCS_HEADERS
  ${PROJECT_SOURCE_DIR}/include/minex.h
  ${PROJECT_SOURCE_DIR}/include/minex_drum.h
  ${PROJECT_SOURCE_DIR}/include/minex_mpi.h
  ${PROJECT_SOURCE_DIR}/include/minex_parmetis.h
  ${PROJECT_BINARY_DIR}/include/minex_version.h)
string(REPLACE ";" " " MINEX_DOCS_INPUT
       "${PROJECT_SOURCE_DIR}/docs/reference/api-index.md;${MINEX_DOCS_HEADERS}")
set(MINEX_DOCS_FILTER "awk -f ${PROJECT_SOURCE_DIR}/cmake/doxygen_filter.awk")
if(DOXYGEN_FOUND)
  configure_file(${PROJECT_SOURCE_DIR}/docs/Doxyfile.in
                 ${PROJECT_BINARY_DIR}/docs/Doxyfile @ONLY)
  # the same configuration with its own output, for the docs_doxygen test
  # (which then never races the install test reading docs/api)
  set(MINEX_DOCS_OUTPUT_USER ${MINEX_DOCS_OUTPUT})
  set(MINEX_DOCS_OUTPUT ${PROJECT_BINARY_DIR}/docs/api-test)
  configure_file(${PROJECT_SOURCE_DIR}/docs/Doxyfile.in
                 ${PROJECT_BINARY_DIR}/docs/Doxyfile.test @ONLY)
  set(MINEX_DOCS_OUTPUT ${MINEX_DOCS_OUTPUT_USER})
  # a fresh output each time: no page of a removed declaration stays
  add_custom_target(docs
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${MINEX_DOCS_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${MINEX_DOCS_OUTPUT}
    COMMAND ${DOXYGEN_EXECUTABLE} ${PROJECT_BINARY_DIR}/docs/Doxyfile
    COMMAND ${CMAKE_COMMAND} -E echo
            "API reference: ${MINEX_DOCS_OUTPUT}/html/index.html"
    DEPENDS ${MINEX_DOCS_HEADERS} ${PROJECT_SOURCE_DIR}/docs/Doxyfile.in
            ${PROJECT_SOURCE_DIR}/docs/reference/api-index.md
            ${PROJECT_SOURCE_DIR}/cmake/doxygen_filter.awk
    WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
    COMMENT "Doxygen: the C API reference (warnings are errors)"
    VERBATIM)
else()
  add_custom_target(docs
    COMMAND ${CMAKE_COMMAND} -E echo
            "docs: doxygen not found (Debian: apt-get install doxygen)"
    COMMAND ${CMAKE_COMMAND} -E false
    VERBATIM)
endif()
install(DIRECTORY ${MINEX_DOCS_OUTPUT}/html/
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/api OPTIONAL)

# ---- the man pages, from the tool's --help (cmake/gen_man.sh)
if(TARGET minex_tool)
  set(MINEX_MAN_DIR ${PROJECT_BINARY_DIR}/man/man1)
  set(MINEX_MAN_STAMP ${PROJECT_BINARY_DIR}/man/pages.stamp)
  # minex-sweep-mpi(1) too when the program is built, outside the
  # sanitizer builds (whose MPI program would run at build time under the
  # sanitizers' runtime and MPI_Init's third-party leaks, tests/lsan.supp)
  set(MINEX_MAN_MPI "")
  set(MINEX_MAN_MPI_FILE "")
  if(TARGET minex_sweep_mpi AND NOT CMAKE_BUILD_TYPE MATCHES "^(Asan|Tsan)$")
    set(MINEX_MAN_MPI minex_sweep_mpi)
    set(MINEX_MAN_MPI_FILE $<TARGET_FILE:minex_sweep_mpi>)
  endif()
  add_custom_command(OUTPUT ${MINEX_MAN_STAMP}
    COMMAND ${CMAKE_COMMAND} -E env HWLOC_COMPONENTS=-pci
            bash ${PROJECT_SOURCE_DIR}/cmake/gen_man.sh
            $<TARGET_FILE:minex_tool> ${MINEX_MAN_DIR} ${PROJECT_VERSION}
            "${MINEX_MAN_MPI_FILE}"
    COMMAND ${CMAKE_COMMAND} -E touch ${MINEX_MAN_STAMP}
    DEPENDS minex_tool ${MINEX_MAN_MPI} ${PROJECT_SOURCE_DIR}/cmake/gen_man.sh
    COMMENT "Man pages minex(1), minex-COMMAND(1) from minex --help"
    VERBATIM)
  add_custom_target(man ALL DEPENDS ${MINEX_MAN_STAMP})
  install(DIRECTORY ${MINEX_MAN_DIR}/
          DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
          FILES_MATCHING PATTERN "*.1")
endif()

# ---- their tests
if(MINEX_BUILD_TESTS)
  # every warning of Doxygen fails the build of the docs target; in the
  # Release stage of scripts/test.sh only (the headers are the same in
  # every build type)
  if(NOT CMAKE_BUILD_TYPE MATCHES "^(Asan|Tsan)$")
    if(DOXYGEN_FOUND)
      # what the docs target runs (docs/Doxyfile.in, FAIL_ON_WARNINGS), into
      # build/docs/api-test
      add_test(NAME docs_doxygen
        COMMAND ${DOXYGEN_EXECUTABLE} ${PROJECT_BINARY_DIR}/docs/Doxyfile.test
        WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
      set_tests_properties(docs_doxygen PROPERTIES TIMEOUT 300)
    else()
      # reported as skipped, not passed (scripts/deps.sh installs doxygen)
      add_test(NAME docs_doxygen
        COMMAND ${CMAKE_COMMAND} -E echo "doxygen not found: skipped")
      set_tests_properties(docs_doxygen PROPERTIES SKIP_REGULAR_EXPRESSION
                           "doxygen not found")
    endif()
  endif()
  # every page renders without a groff warning and holds every option of
  # the --help it was made from
  if(TARGET minex_tool)
    add_test(NAME man_pages
      COMMAND bash ${PROJECT_SOURCE_DIR}/tests/docs/test_man.sh
              $<TARGET_FILE:minex_tool> ${MINEX_MAN_DIR}
              "${MINEX_MAN_MPI_FILE}")
    set_tests_properties(man_pages PROPERTIES ENVIRONMENT HWLOC_COMPONENTS=-pci)
    set_tests_properties(man_pages PROPERTIES TIMEOUT 120)
  endif()
endif()
