# Strategy: explore with a mutant must exit 1 (an invariant violation), write
# a failing scenario for the expected invariant, shrink it to at most
# MAX_ATTEMPTS attempts and MAX_INPUTS inputs, and `durasim run` on that file
# must reproduce the failure (the file expects it, so run exits 0).
# Inputs: DURASIM, MUTANT, INVARIANT, SEEDS, WORK_DIR, MAX_ATTEMPTS, MAX_INPUTS.
set(dir ${WORK_DIR}/explore_${MUTANT})
file(REMOVE_RECURSE ${dir})
execute_process(
  COMMAND ${DURASIM} explore --seeds ${SEEDS} --jobs 2 --mutant ${MUTANT} --failures-dir ${dir}
          --shrink-budget-s 20 --report-json ${dir}.json
  RESULT_VARIABLE result OUTPUT_VARIABLE output)
if(NOT result EQUAL 1)
  message(FATAL_ERROR "explore --mutant ${MUTANT} exited ${result}, expected 1 (violation):\n${output}")
endif()
file(GLOB failures ${dir}/*_${INVARIANT}.yaml)
list(LENGTH failures count)
if(count EQUAL 0)
  message(FATAL_ERROR "no ${INVARIANT} failure was written to ${dir}:\n${output}")
endif()
# The first one was shrunk (the sweep shrinks its first failures).
set(shrunk "")
foreach(failure ${failures})
  file(READ ${failure} text)
  if(text MATCHES "# shrunk: ")
    set(shrunk ${failure})
    break()
  endif()
endforeach()
if(shrunk STREQUAL "")
  message(FATAL_ERROR "no shrunk ${INVARIANT} failure among ${failures}")
endif()
file(READ ${shrunk} text)
string(REGEX MATCH "# shrunk: [^\n]*; ([0-9]+) attempts, ([0-9]+) inputs" line "${text}")
if(CMAKE_MATCH_1 GREATER MAX_ATTEMPTS OR CMAKE_MATCH_2 GREATER MAX_INPUTS)
  message(FATAL_ERROR "${shrunk} shrank only to ${CMAKE_MATCH_1} attempts and ${CMAKE_MATCH_2} inputs:\n${text}")
endif()
execute_process(COMMAND ${DURASIM} run ${shrunk} RESULT_VARIABLE rerun OUTPUT_VARIABLE rerun_output)
if(NOT rerun EQUAL 0)
  message(FATAL_ERROR "durasim run ${shrunk} did not reproduce the ${INVARIANT} failure:\n${rerun_output}")
endif()
message(STATUS "${MUTANT}: ${count} ${INVARIANT} failures; ${shrunk} has ${CMAKE_MATCH_1} attempts, ${CMAKE_MATCH_2} inputs and reproduces")
