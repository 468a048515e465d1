# Finds every build dependency. A missing one stops the configure step with one line saying what to install,
# so a build never fails later, or at run time, for want of a tool.
include_guard(GLOBAL)

function(cts_missing what package)
  message(FATAL_ERROR "${what} not found: apt-get install ${package}")
endfunction()

find_package(Threads REQUIRED)

# OpenCL: the Khronos loader's CMake packages when installed, otherwise Debian's ocl-icd + opencl-headers.
find_package(OpenCLHeaders CONFIG QUIET)
find_package(OpenCLICDLoader CONFIG QUIET)
if(OpenCLICDLoader_FOUND AND TARGET OpenCL::OpenCL)
  set(CTS_OPENCL_SOURCE "Khronos OpenCLICDLoader package")
  if(TARGET OpenCL::Headers)
    set_property(TARGET OpenCL::OpenCL APPEND PROPERTY INTERFACE_LINK_LIBRARIES OpenCL::Headers)
  endif()
  set_property(TARGET OpenCL::OpenCL APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS CL_TARGET_OPENCL_VERSION=300)
else()
  find_path(OpenCL_INCLUDE_DIR CL/cl.h)
  if(NOT OpenCL_INCLUDE_DIR)
    cts_missing("OpenCL headers (CL/cl.h)" "opencl-headers")
  endif()
  find_library(OpenCL_LIBRARY OpenCL)
  if(NOT OpenCL_LIBRARY)
    cts_missing("OpenCL ICD loader (libOpenCL.so)" "ocl-icd-opencl-dev")
  endif()
  set(CTS_OPENCL_SOURCE "${OpenCL_LIBRARY}")
  if(NOT TARGET OpenCL::OpenCL)
    add_library(OpenCL::OpenCL UNKNOWN IMPORTED)
    set_target_properties(OpenCL::OpenCL PROPERTIES IMPORTED_LOCATION "${OpenCL_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${OpenCL_INCLUDE_DIR}"
      INTERFACE_COMPILE_DEFINITIONS "CL_TARGET_OPENCL_VERSION=300")
  endif()
endif()
# The reference device is an ICD; the ICD dispatch table header comes with the headers package.
find_path(OpenCL_ICD_INCLUDE_DIR CL/cl_icd.h HINTS ${OpenCL_INCLUDE_DIR})
if(NOT OpenCL_ICD_INCLUDE_DIR)
  cts_missing("OpenCL ICD dispatch header (CL/cl_icd.h)" "opencl-headers ocl-icd-dev")
endif()

find_package(nlohmann_json 3 QUIET)
if(NOT nlohmann_json_FOUND)
  cts_missing("nlohmann_json (JSON for Modern C++)" "nlohmann-json3-dev")
endif()

find_package(GTest QUIET)
if(NOT GTest_FOUND)
  cts_missing("GoogleTest" "libgtest-dev googletest")
endif()
include(GoogleTest)

find_package(Python3 3.7 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  cts_missing("Python 3 (3.7 or later)" "python3")
endif()

include(${CMAKE_CURRENT_LIST_DIR}/SpirvTools.cmake)

# clang-15 + llvm-spirv-15 compile the compiled.* kernels (test_conformance/compiled/kernels/*.cl) at build
# time; without either (or spirv-dis) that group is absent, said in one line, and everything else builds.
find_program(CTS_CLANG_15 clang-15)
find_program(CTS_LLVM_SPIRV_15 llvm-spirv-15)
if(CTS_CLANG_15 AND CTS_LLVM_SPIRV_15 AND SPIRV_DIS)
  set(CTS_COMPILED_TOOLS --clang ${CTS_CLANG_15} --llvm-spirv ${CTS_LLVM_SPIRV_15} --spirv-dis ${SPIRV_DIS})
else()
  set(CTS_COMPILED_TOOLS "")
  message(STATUS "compiled.* cases absent: clang-15, llvm-spirv-15 or spirv-dis not found (apt-get install clang-15 llvm-spirv-15)")
endif()

option(CTS_CHECK_FORMAT "Register the 'format' test (needs clang-format-14)" ON)
if(CTS_CHECK_FORMAT)
  find_program(CLANG_FORMAT_14 clang-format-14)
  if(NOT CLANG_FORMAT_14)
    message(FATAL_ERROR "clang-format-14 not found: apt-get install clang-format-14 (or configure with -DCTS_CHECK_FORMAT=OFF)")
  endif()
endif()

message(STATUS "OpenCL: ${CTS_OPENCL_SOURCE}")
