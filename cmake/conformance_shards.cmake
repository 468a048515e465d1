# CTest-driven conformance runs: `ctest -L conformance -j N` runs the whole suite on the configured device as
# CTS_CONFORMANCE_SHARDS shards, each a CTest test with its own JSON, JUnit and log in <build>/conformance/
# (GoogleTest sharding protocol: GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX), then conformance.merge merges the
# shard reports with scripts/reports/merge_results.py (--fail-on-failures) into <build>/conformance/merged.json.
# The default test presets exclude the label: `ctest --preset default` stays the unit tests.
set(CTS_CONFORMANCE_SHARDS 2 CACHE STRING "number of conformance shard tests (ctest -L conformance)")
set(CTS_CONFORMANCE_ARGS "--isolate;--jobs=1;--timeout=120" CACHE STRING
    "runner options of the conformance shard tests (a ;-separated list, e.g. --icd=system;--isolate)")
if(NOT CTS_CONFORMANCE_SHARDS MATCHES "^[1-9][0-9]*$")
  message(FATAL_ERROR "CTS_CONFORMANCE_SHARDS must be a positive integer, not '${CTS_CONFORMANCE_SHARDS}'")
endif()

set(_cts_conf_dir ${CMAKE_BINARY_DIR}/conformance)
# Starts every `ctest -L conformance` from an empty directory, so the merge never picks up an earlier run's
# shard report.
add_test(NAME conformance.prepare
         COMMAND sh -c "rm -rf '${_cts_conf_dir}' && mkdir -p '${_cts_conf_dir}'")
set_tests_properties(conformance.prepare PROPERTIES LABELS conformance FIXTURES_SETUP cts_conformance_dir)

math(EXPR _cts_last "${CTS_CONFORMANCE_SHARDS} - 1")
set(_cts_shard_tests)
set(_cts_shard_reports)
foreach(i RANGE 0 ${_cts_last})
  set(_name conformance.shard_${i}_of_${CTS_CONFORMANCE_SHARDS})
  add_test(NAME ${_name}
           COMMAND spirv_intel_cts ${CTS_CONFORMANCE_ARGS} --json=${_cts_conf_dir}/shard_${i}.json
                   --junit=${_cts_conf_dir}/shard_${i}.xml --log=${_cts_conf_dir}/shard_${i}.log)
  set_tests_properties(${_name} PROPERTIES LABELS conformance FIXTURES_REQUIRED cts_conformance_dir TIMEOUT 5400
                       ENVIRONMENT "GTEST_TOTAL_SHARDS=${CTS_CONFORMANCE_SHARDS};GTEST_SHARD_INDEX=${i}")
  list(APPEND _cts_shard_tests ${_name})
  list(APPEND _cts_shard_reports ${_cts_conf_dir}/shard_${i}.json)
endforeach()

# After every shard (DEPENDS orders without skipping the merge when a shard fails: the merge then reports it).
add_test(NAME conformance.merge
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/reports/merge_results.py ${_cts_shard_reports}
                 -o ${_cts_conf_dir}/merged.json --fail-on-failures)
set_tests_properties(conformance.merge PROPERTIES LABELS conformance DEPENDS "${_cts_shard_tests}"
                     FIXTURES_REQUIRED cts_conformance_dir)

# The whole suite on Intel's OpenCL CPU runtime (scripts/setup/run_intel_cpu.sh: one runner with --jobs, the waivers
# shipped for that runtime release, --fail-on-stale-waivers); skipped (77) when the runtime is not installed
# (scripts/setup/install_intel_cpu_runtime.sh). `ctest -L intel_cpu` runs it with the reproducers of its bugs.
add_test(NAME intel_cpu.suite
         COMMAND ${CMAKE_SOURCE_DIR}/scripts/setup/run_intel_cpu.sh --build-dir=${CMAKE_BINARY_DIR}
                 --out=${CMAKE_BINARY_DIR}/intel_cpu)
set_tests_properties(intel_cpu.suite PROPERTIES LABELS intel_cpu SKIP_RETURN_CODE 77 TIMEOUT 5400 RUN_SERIAL TRUE)
