# One helper per target kind.

# durasim_test(NAME SOURCES... DEPS ... [LABEL label]): a GoogleTest binary
# registered with ctest, its tests labelled `unit` unless another label is
# given (gtest_discover_tests flattens a list of labels, so one label each).
function(durasim_test name)
  cmake_parse_arguments(ARG "" "LABEL" "SOURCES;DEPS" ${ARGN})
  if(NOT ARG_LABEL)
    set(ARG_LABEL unit)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${name} PROPERTIES LABELS ${ARG_LABEL} DISCOVERY_TIMEOUT 60)
endfunction()
