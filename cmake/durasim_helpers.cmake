# One helper per target kind. Every target sees the floors it links and no
# other: a floor's headers are reachable only through the include root that
# its libraries publish (build/floors/<floor>/<floor> links to the folder),
# so an include from a lower floor to a higher one fails to build.

# The floor (top-level folder) of the current CMakeLists.txt.
function(durasim_current_floor out)
  file(RELATIVE_PATH relative ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  string(REGEX REPLACE "/.*" "" floor "${relative}")
  set(${out} ${floor} PARENT_SCOPE)
endfunction()

# The include root of `floor`: one folder holding one link, to the floor.
function(durasim_floor_root floor out)
  set(root ${PROJECT_BINARY_DIR}/floors/${floor})
  if(NOT EXISTS ${root}/${floor})
    file(MAKE_DIRECTORY ${root})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${floor} ${root}/${floor} SYMBOLIC)
  endif()
  set(${out} ${root} PARENT_SCOPE)
endfunction()

# With DURASIM_UNITY_BUILD (CMakeLists.txt): `sources` of library `name` in
# batches of 16, each batch a file in the build tree that includes its
# sources through the floor's include root ("model/attempt.cc"), never by an
# absolute path, so that ccache, which makes the include root's path
# relative, hits what a clone elsewhere compiled (CMake's own unity build
# writes absolute paths: every clean clone would compile from nothing).
# A batch file is rewritten only when its list changes.
function(durasim_unity_batches name floor out)
  set(batches "")
  set(content "")
  set(count 0)
  list(LENGTH ARGN total)
  foreach(source IN LISTS ARGN)
    get_filename_component(absolute ${source} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    file(RELATIVE_PATH relative ${PROJECT_SOURCE_DIR} ${absolute})
    if(NOT relative MATCHES "^${floor}/")
      message(FATAL_ERROR "${name}: ${source} is not in the floor ${floor}")
    endif()
    string(APPEND content "#include \"${relative}\"\n")
    math(EXPR count "${count} + 1")
    math(EXPR full "${count} % 16")
    if(full EQUAL 0 OR count EQUAL total)
      list(LENGTH batches index)
      set(batch ${CMAKE_CURRENT_BINARY_DIR}/${name}_unity_${index}.cc)
      file(CONFIGURE OUTPUT ${batch} CONTENT "// Generated: a batch of the sources of ${name} (DURASIM_UNITY_BUILD).\n${content}")
      list(APPEND batches ${batch})
      set(content "")
    endif()
  endforeach()
  set(${out} ${batches} PARENT_SCOPE)
endfunction()

# durasim_library(NAME SOURCES... DEPS ...): a library of the current floor;
# whoever links it sees this floor's headers.
function(durasim_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  durasim_current_floor(floor)
  durasim_floor_root(${floor} root)
  if(DURASIM_UNITY_BUILD)
    durasim_unity_batches(${name} ${floor} batches ${ARG_SOURCES})
    add_library(${name} ${batches})
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      # GCC takes a batch's sources for headers, and warns of an anonymous
      # namespace's type in a coroutine's frame, which only a header could
      # share; each file alone (the sanitizer build) keeps the warning.
      target_compile_options(${name} PRIVATE -Wno-subobject-linkage)
    endif()
  else()
    add_library(${name} ${ARG_SOURCES})
  endif()
  target_include_directories(${name} PUBLIC ${root})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

# durasim_executable(NAME SOURCES... DEPS ...): a program of the current
# floor, written to the top of the build tree.
function(durasim_executable name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  durasim_current_floor(floor)
  durasim_floor_root(${floor} root)
  add_executable(${name} ${ARG_SOURCES})
  target_include_directories(${name} PRIVATE ${root})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
endfunction()

# durasim_source_from_binary(TARGET): gives TARGET the path from the folder
# its program lands in to the source tree (DURASIM_SOURCE_FROM_BINARY, read
# by store/source_tree.h). Relative, so that a clone anywhere compiles it to
# the same bytes and ccache serves every clone; between real paths, as
# /proc/self/exe gives the program's.
function(durasim_source_from_binary target)
  get_target_property(binary_dir ${target} RUNTIME_OUTPUT_DIRECTORY)
  if(NOT binary_dir)
    set(binary_dir ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  file(REAL_PATH ${binary_dir} binary_real)
  file(REAL_PATH ${PROJECT_SOURCE_DIR} source_real)
  file(RELATIVE_PATH source_from_binary ${binary_real} ${source_real})
  target_compile_definitions(${target} PRIVATE DURASIM_SOURCE_FROM_BINARY="${source_from_binary}")
endfunction()

# durasim_test(NAME SOURCES... DEPS ... [LABEL label] [ENVIRONMENT env]): a
# GoogleTest binary of the current floor registered with ctest, its tests
# labelled `unit` unless another label is given (gtest_discover_tests
# flattens a list of labels, so one label each).
function(durasim_test name)
  cmake_parse_arguments(ARG "" "LABEL;ENVIRONMENT" "SOURCES;DEPS" ${ARGN})
  if(NOT ARG_LABEL)
    set(ARG_LABEL unit)
  endif()
  durasim_current_floor(floor)
  durasim_floor_root(${floor} root)
  add_executable(${name} ${ARG_SOURCES})
  target_include_directories(${name} PRIVATE ${root})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  durasim_source_from_binary(${name})
  if(ARG_ENVIRONMENT)
    gtest_discover_tests(${name} PROPERTIES LABELS ${ARG_LABEL} ENVIRONMENT "${ARG_ENVIRONMENT}"
                         DISCOVERY_TIMEOUT 60)
  else()
    gtest_discover_tests(${name} PROPERTIES LABELS ${ARG_LABEL} DISCOVERY_TIMEOUT 60)
  endif()
endfunction()
