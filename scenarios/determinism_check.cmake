# Runs every scenario file in two processes and requires byte-identical
# JSON reports. Inputs: DURASIM, SCENARIOS, WORK_DIR.
foreach(round first second)
  execute_process(
    COMMAND ${DURASIM} run ${SCENARIOS} --report-json ${WORK_DIR}/determinism_${round}.json
    RESULT_VARIABLE result OUTPUT_QUIET)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "durasim run (${round} round) exited ${result}")
  endif()
endforeach()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/determinism_first.json ${WORK_DIR}/determinism_second.json
  RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "two runs of the same scenario files gave different reports: "
                      "${WORK_DIR}/determinism_first.json vs ${WORK_DIR}/determinism_second.json")
endif()
file(READ ${WORK_DIR}/determinism_first.json report)
string(REGEX MATCHALL "\"trace_hash\"" hashes "${report}")
list(LENGTH hashes count)
message(STATUS "${count} scenario runs, identical trace hashes in both processes")
