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
  # Open MPI's MPI_Init leaks ~10 KB in 28 blocks (hwloc and MCA plugins it
  # has dlclose'd, so the frames have no names a suppression could match);
  # LeakSanitizer is off for this one driver, whose own code is the shared
  # peers_common (leak-checked through peer_metis / peer_scotch) and a
  # valgrind-checked Zoltan wrapper (bench/peers/README.md).
  set_tests_properties(peers_zoltan_smoke PROPERTIES
    ENVIRONMENT "LSAN_OPTIONS=detect_leaks=0")
endif()

# peer_zoltan_mpi: Zoltan PHG on R ranks beside bench_mpi (docs/guide/mpi.md).
# Linked to libminex (which uses no MPI) to build and score the case; run
# with mpiexec.openmpi.
add_executable(peer_zoltan_mpi peer_zoltan_mpi.c ../dist_case.c)
target_include_directories(peer_zoltan_mpi BEFORE PRIVATE
  ${MINEX_OMPI_INCLUDE_DIR} ${MINEX_ZOLTAN_INCLUDE_DIR})
target_include_directories(peer_zoltan_mpi PRIVATE ${PROJECT_SOURCE_DIR}/bench)
target_link_libraries(peer_zoltan_mpi PRIVATE minex
  ${MINEX_ZOLTAN_LIBRARY} ${MINEX_OMPI_LIBRARY})
if(MATH_LIBRARY)
  target_link_libraries(peer_zoltan_mpi PRIVATE ${MATH_LIBRARY})
endif()
find_program(MINEX_OMPI_EXEC mpiexec.openmpi)
if(MINEX_BUILD_TESTS AND MINEX_OMPI_EXEC)
  # CI runs as root, which Open MPI refuses unless told; LeakSanitizer off
  # as for peer_zoltan (Open MPI's MPI_Init leaks in unloaded plugins)
  add_test(NAME peers_zoltan_mpi_smoke
    COMMAND ${MINEX_OMPI_EXEC} --oversubscribe -n 2
            $<TARGET_FILE:peer_zoltan_mpi> --elements 6000 --repeat 1)
  set_tests_properties(peers_zoltan_mpi_smoke PROPERTIES TIMEOUT 300
    ENVIRONMENT "LSAN_OPTIONS=detect_leaks=0;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
endif()
