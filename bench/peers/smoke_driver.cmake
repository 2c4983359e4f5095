# SPDX-License-Identifier: GPL-3.0-or-later
# Smoke test of one peer driver (cmake -P, from the ctests of metis.cmake
# and zoltan.cmake): makes a small case, runs DRIVER with each of METHODS
# (comma-separated) twice and checks that
#   - the driver exits 0 and prints its JSON line,
#   - both runs wrote the same partition, byte for byte (same seed),
#   - `minex eval` (MINEX) accepts the partition and reports no vertex
#     stranded on the unavailable processor.
# The case: the 4x4x4 box with the refined ball (384 vertices), an old
# partition into 4 parts, and a machine of 6 processors in 4 clusters:
# Proc 1 and 2, an empty cluster, processor 1 unavailable (its vertices
# must move) and processors 4, 5 new (they own nothing in the old one).
foreach(v DRIVER METHODS MINEX WORKDIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "smoke_driver.cmake: -D${v}=... is required")
  endif()
endforeach()
string(REPLACE "," ";" METHODS "${METHODS}")
file(REMOVE_RECURSE ${WORKDIR})
file(MAKE_DIRECTORY ${WORKDIR})
file(WRITE ${WORKDIR}/machine.xml
"<?xml version=\"1.0\" encoding=\"UTF-8\"?>
<minex-config version=\"1\" default-link-slowdown=\"10\">
  <cluster name=\"a\" procs=\"2\" proc-slowdown=\"1\"/>
  <cluster name=\"b\" procs=\"2\" proc-slowdown=\"2\"/>
  <cluster name=\"c\" procs=\"0\" proc-slowdown=\"1\"/>
  <cluster name=\"d\" procs=\"2\" proc-slowdown=\"1\"/>
  <unavailable proc=\"1\"/>
</minex-config>
")
execute_process(
  COMMAND ${MINEX} gen --box 4 4 4 --refine --part ${WORKDIR}/old.part
          --nparts 4 -o ${WORKDIR}/g.graph
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "minex gen failed (${rc})")
endif()
foreach(m ${METHODS})
  foreach(run 1 2)
    execute_process(
      COMMAND ${DRIVER} ${WORKDIR}/g.graph --old ${WORKDIR}/old.part
              --config ${WORKDIR}/machine.xml --method ${m} --seed 7
              -o ${WORKDIR}/${m}.${run}.part
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${DRIVER} --method ${m} failed (${rc}): ${err}")
    endif()
    if(NOT out MATCHES "\"method\": \"${m}\".*\"seconds\": [0-9]")
      message(FATAL_ERROR "${DRIVER} --method ${m}: no JSON line: ${out}")
    endif()
  endforeach()
  file(SHA256 ${WORKDIR}/${m}.1.part h1)
  file(SHA256 ${WORKDIR}/${m}.2.part h2)
  if(NOT h1 STREQUAL h2)
    message(FATAL_ERROR "${DRIVER} --method ${m}: two runs with the same "
                        "seed wrote different partitions")
  endif()
  execute_process(
    COMMAND ${MINEX} eval ${WORKDIR}/g.graph --old ${WORKDIR}/old.part
            --new ${WORKDIR}/${m}.1.part --config ${WORKDIR}/machine.xml
            --json
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "minex eval of --method ${m} failed (${rc}): ${err}")
  endif()
  # the first "stranded" is the new partition's (the old one's follows)
  if(NOT out MATCHES "\"stranded\": ([0-9]+)" OR NOT CMAKE_MATCH_1 EQUAL 0)
    message(FATAL_ERROR "--method ${m} left vertices on the unavailable "
                        "processor: ${out}")
  endif()
  message(STATUS "${m}: valid, deterministic")
endforeach()
