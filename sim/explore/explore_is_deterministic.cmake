# Strategy: the same sweep with 2 jobs twice and with 1 job gives identical
# per-seed verdicts and trace hashes (the wall time aside).
# Inputs: DURASIM, SEEDS, WORK_DIR.
foreach(run a b c)
  if(run STREQUAL "c")
    set(jobs 1)
  else()
    set(jobs 2)
  endif()
  execute_process(
    COMMAND ${DURASIM} explore --seeds ${SEEDS} --jobs ${jobs} --report-json ${WORK_DIR}/determinism_${run}.json
            --failures-dir ${WORK_DIR}/determinism_failures
    RESULT_VARIABLE result OUTPUT_QUIET)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "explore run ${run} exited ${result}")
  endif()
  file(READ ${WORK_DIR}/determinism_${run}.json report)
  string(JSON seeds_${run} GET "${report}" seeds)
endforeach()
if(NOT seeds_a STREQUAL seeds_b OR NOT seeds_a STREQUAL seeds_c)
  message(FATAL_ERROR "per-seed results differ between runs: see ${WORK_DIR}/determinism_{a,b,c}.json")
endif()
string(JSON count LENGTH "${seeds_a}")
message(STATUS "${count} seeds: identical verdicts and trace hashes across 3 sweeps")
