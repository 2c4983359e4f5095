# SPDX-License-Identifier: GPL-3.0-or-later
# peer_metis: the METIS 5 driver (README.md, "Driver: METIS"). Built only
# when metis.h and libmetis are found (Debian: libmetis-dev); otherwise
# nothing is built and the configure step says so.
find_path(MINEX_METIS_INCLUDE_DIR metis.h)
find_library(MINEX_METIS_LIBRARY metis)
if(NOT MINEX_METIS_INCLUDE_DIR OR NOT MINEX_METIS_LIBRARY)
  message(STATUS "bench/peers: METIS not found (metis.h, libmetis): "
                 "peer_metis is not built")
  return()
endif()
message(STATUS "bench/peers: peer_metis with ${MINEX_METIS_LIBRARY}")
add_executable(peer_metis peer_metis.c)
target_include_directories(peer_metis PRIVATE ${MINEX_METIS_INCLUDE_DIR})
target_link_libraries(peer_metis PRIVATE peers_common ${MINEX_METIS_LIBRARY})

if(MINEX_BUILD_TESTS AND TARGET minex_tool)
  add_test(NAME peers_metis_smoke
    COMMAND ${CMAKE_COMMAND} -DDRIVER=$<TARGET_FILE:peer_metis>
            -DMETHODS=kway,kway2,kwayvol
            -DMINEX=$<TARGET_FILE:minex_tool>
            -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/smoke_metis
            -P ${CMAKE_CURRENT_SOURCE_DIR}/smoke_driver.cmake)
endif()
