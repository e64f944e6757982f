# One helper per target kind.

# durasim_test(NAME SOURCES... DEPS ...): a GoogleTest binary registered with ctest.
function(durasim_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${name} PROPERTIES LABELS "unit;${ARG_LABELS}"
                       DISCOVERY_TIMEOUT 60)
endfunction()
