# SPDX-License-Identifier: GPL-3.0-or-later
# Smoke test of peer_scotch (scotch.cmake): cmake -DMINEX=... -DPEER=...
# -DMACHINES=... -DWORK=... -P scotch_smoke.cmake. Fails (FATAL_ERROR) when
# the driver or minex eval fails, when the driver prints no JSON line, or
# when a processor that left still owns vertices.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "${cmd}: exit ${rc}\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

run(${MINEX} gen --box 4 4 4 --refine --part old.part --nparts 4
    -o g.graph)
foreach(cfg scotch_test2 scotch_test2_left)
  foreach(method repart remap-cmpltw remap-tleaf remap-deco:0.05)
    string(REPLACE ":" "_" tag "${cfg}_${method}")
    run(${PEER} g.graph --old old.part --config ${MACHINES}/${cfg}.xml
        --method ${method} --param 0.5 --seed 3 -o ${tag}.part)
    if(NOT out MATCHES "^{\"tool\": \"scotch\", \"method\": \"${method}\", \"param\": 0.5, \"seconds\": [0-9.]+}\n$")
      message(FATAL_ERROR "${method} on ${cfg}: unexpected output '${out}'")
    endif()
    run(${MINEX} eval g.graph --old old.part --new ${tag}.part
        --config ${MACHINES}/${cfg}.xml --json)
    if(cfg STREQUAL "scotch_test2_left" AND
       NOT out MATCHES "\"stranded\": *0[,}]")
      message(FATAL_ERROR "${method} on ${cfg}: vertices left on the "
        "unavailable processor: ${out}")
    endif()
    message(STATUS "${method} on ${cfg}: ok")
  endforeach()
endforeach()
