# SPDX-License-Identifier: GPL-3.0-or-later
# Scotch 7 peer driver (README.md, "Driver: Scotch"): peer_scotch, built
# when the sequential Scotch library is found (Debian: libscotch-dev, whose
# scotch.h lives in include/scotch/). No MPI.
find_path(SCOTCH_INCLUDE_DIR scotch.h PATH_SUFFIXES scotch)
find_library(SCOTCH_LIBRARY scotch)
find_library(SCOTCHERR_LIBRARY scotcherr)
if(NOT SCOTCH_INCLUDE_DIR OR NOT SCOTCH_LIBRARY OR NOT SCOTCHERR_LIBRARY)
  message(STATUS "bench/peers: Scotch not found (scotch.h, libscotch, "
    "libscotcherr): peer_scotch not built")
  return()
endif()
message(STATUS "bench/peers: Scotch ${SCOTCH_LIBRARY}: building peer_scotch")

add_executable(peer_scotch peer_scotch.c)
target_include_directories(peer_scotch PRIVATE ${SCOTCH_INCLUDE_DIR})
target_link_libraries(peer_scotch PRIVATE peers_common ${SCOTCH_LIBRARY}
  ${SCOTCHERR_LIBRARY} Threads::Threads)
if(MATH_LIBRARY)
  target_link_libraries(peer_scotch PRIVATE ${MATH_LIBRARY})
endif()

# Smoke test: a tiny refined box, each method on a 2-cluster machine and on
# the same machine with a processor gone, each result scored by minex eval
# (which must succeed and leave nothing on the processor that left).
if(MINEX_BUILD_TESTS AND TARGET minex_tool)
  add_test(NAME peer_scotch_smoke
    COMMAND ${CMAKE_COMMAND}
      -DMINEX=$<TARGET_FILE:minex_tool>
      -DPEER=$<TARGET_FILE:peer_scotch>
      -DMACHINES=${CMAKE_CURRENT_SOURCE_DIR}/machines
      -DWORK=${CMAKE_CURRENT_BINARY_DIR}/peer_scotch_smoke
      -P ${CMAKE_CURRENT_SOURCE_DIR}/scotch_smoke.cmake)
  set_tests_properties(peer_scotch_smoke PROPERTIES TIMEOUT 60)
endif()
