# SPDX-License-Identifier: GPL-3.0-or-later
# peer_zoltan: the Zoltan driver (README.md, "Driver: Zoltan"). Built only
# when zoltan.h, libtrilinos_zoltan (Debian: libtrilinos-zoltan-dev) and
# Open MPI are found; otherwise nothing is built and the configure step
# says so.
#
# Debian's Zoltan is built against Open MPI, while MinEX's own MPI program
# uses MPICH (programs/CMakeLists.txt). So this driver, and only it, takes
# Open MPI's mpi.h and libmpi, found through pkg-config (ompi-c) or in
# Debian's Open MPI folder, under variables of its own: nothing here
# touches FindMPI's MPI_* cache entries or the mpicc MinEX uses.
find_path(MINEX_ZOLTAN_INCLUDE_DIR zoltan.h PATH_SUFFIXES trilinos)
find_library(MINEX_ZOLTAN_LIBRARY NAMES trilinos_zoltan zoltan)
pkg_check_modules(MINEX_OMPI QUIET ompi-c)
find_path(MINEX_OMPI_INCLUDE_DIR mpi.h
  HINTS ${MINEX_OMPI_INCLUDE_DIRS}
  PATHS /usr/lib/x86_64-linux-gnu/openmpi/include /usr/lib64/openmpi/include
  NO_DEFAULT_PATH)
find_library(MINEX_OMPI_LIBRARY mpi
  HINTS ${MINEX_OMPI_LIBRARY_DIRS}
  PATHS /usr/lib/x86_64-linux-gnu/openmpi/lib /usr/lib64/openmpi/lib
  NO_DEFAULT_PATH)
if(NOT MINEX_ZOLTAN_INCLUDE_DIR OR NOT MINEX_ZOLTAN_LIBRARY)
  message(STATUS "bench/peers: Zoltan not found (zoltan.h, "
                 "libtrilinos_zoltan): peer_zoltan is not built")
  return()
endif()
if(NOT MINEX_OMPI_INCLUDE_DIR OR NOT MINEX_OMPI_LIBRARY)
  message(STATUS "bench/peers: Open MPI (mpi.h, libmpi) not found, which "
                 "Debian's Zoltan needs: peer_zoltan is not built")
  return()
endif()
message(STATUS "bench/peers: peer_zoltan with ${MINEX_ZOLTAN_LIBRARY} "
               "and ${MINEX_OMPI_LIBRARY}")
add_executable(peer_zoltan peer_zoltan.c)
# Open MPI's mpi.h first, before any folder that might hold another MPI's
target_include_directories(peer_zoltan BEFORE PRIVATE
  ${MINEX_OMPI_INCLUDE_DIR} ${MINEX_ZOLTAN_INCLUDE_DIR})
target_link_libraries(peer_zoltan PRIVATE peers_common
  ${MINEX_ZOLTAN_LIBRARY} ${MINEX_OMPI_LIBRARY})

if(MINEX_BUILD_TESTS AND TARGET minex_tool)
  add_test(NAME peers_zoltan_smoke
    COMMAND ${CMAKE_COMMAND} -DDRIVER=$<TARGET_FILE:peer_zoltan>
            -DMETHODS=graph,phg
            -DMINEX=$<TARGET_FILE:minex_tool>
            -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/smoke_zoltan
            -P ${CMAKE_CURRENT_SOURCE_DIR}/smoke_driver.cmake)
endif()
