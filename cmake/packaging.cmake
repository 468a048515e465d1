# Installing and packaging: `cmake --install <build> --prefix P` and `cpack -G TGZ` / `cpack -G DEB` from the
# build directory. The installed tree needs only the OpenCL ICD loader and Python 3 at run time:
#   P/bin/spirv_intel_cts, P/bin/refdev_faults
#   P/lib/spirv_intel_cts/libRefDevOpenCL.so         the reference device (not on the loader's search path)
#   P/share/spirv_intel_cts/icd/refdev.icd           names that library (absolute path, written at install)
#   P/share/spirv_intel_cts/assets/                  manifest.json, manifest.sha256 + modules/ (the .spv and their .spvasm)
#   P/share/spirv_intel_cts/targets/                 target descriptions of the offline-compiler mode
#   P/share/spirv_intel_cts/scripts/                 merge_results.py, compare_results.py, results_html.py,
#                                                    fault_campaign.py, install_intel_cpu_runtime.sh
#   P/share/doc/spirv_intel_cts/                     README.md, LICENSE, docs/*.md
# The runner finds assets and ICD relative to itself (test_common/harness/layout.h). Unit-test programs
# are not installed.
include_guard(GLOBAL)

set(CTS_SHARE_DIR share/spirv_intel_cts)
set(CTS_REFDEV_LIB_DIR lib/spirv_intel_cts)

foreach(tool spirv_intel_cts refdev_faults)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION bin)
  endif()
endforeach()

if(TARGET RefDevOpenCL)
  install(TARGETS RefDevOpenCL LIBRARY DESTINATION ${CTS_REFDEV_LIB_DIR})
  # The .icd file must name the installed library, so it is written when installing, not when building.
  # A CPack archive is installed into a staging directory under the build tree and unpacked anywhere: it
  # gets the bare library name (never a path of the build machine), and its runner, seeing that the .icd
  # names no existing file, loads <prefix>/lib/spirv_intel_cts/libRefDevOpenCL.so itself. A Debian
  # package installs with DESTDIR, so its prefix (/usr) is the final one.
  install(CODE "
    get_filename_component(_cts_prefix \"\${CMAKE_INSTALL_PREFIX}\" ABSOLUTE)
    set(_cts_lib \"\${_cts_prefix}/${CTS_REFDEV_LIB_DIR}/$<TARGET_FILE_NAME:RefDevOpenCL>\")
    string(FIND \"\${_cts_prefix}/\" \"${CMAKE_BINARY_DIR}/_CPack_Packages/\" _cts_staged)
    if(_cts_staged EQUAL 0)
      set(_cts_lib \"$<TARGET_FILE_NAME:RefDevOpenCL>\")
    endif()
    set(_cts_icd \"\$ENV{DESTDIR}\${_cts_prefix}/${CTS_SHARE_DIR}/icd/refdev.icd\")
    message(STATUS \"Installing: \${_cts_icd} (\${_cts_lib})\")
    file(WRITE \"\${_cts_icd}\" \"\${_cts_lib}\\n\")
  ")
endif()

if(DEFINED CTS_ASSETS_DIR)
  install(FILES ${CTS_ASSETS_DIR}/manifest.json ${CTS_ASSETS_DIR}/manifest.sha256
          DESTINATION ${CTS_SHARE_DIR}/assets)
  install(DIRECTORY ${CTS_ASSETS_DIR}/modules DESTINATION ${CTS_SHARE_DIR}/assets
          FILES_MATCHING PATTERN "*.spv" PATTERN "*.spvasm")
endif()

install(PROGRAMS scripts/merge_results.py scripts/compare_results.py scripts/results_html.py
                 scripts/fault_campaign.py scripts/install_intel_cpu_runtime.sh
        DESTINATION ${CTS_SHARE_DIR}/scripts)
install(FILES README.md LICENSE DESTINATION share/doc/spirv_intel_cts)
install(DIRECTORY docs/ DESTINATION share/doc/spirv_intel_cts/docs FILES_MATCHING PATTERN "*.md")

# Packages: build/spirv_intel_cts-<version>-Linux.tar.gz (relocatable) and build/spirv-intel-cts_<version>_<arch>.deb
# (installs under /usr). CPack's DEB generator writes the archive itself: no dpkg-deb or fakeroot needed.
set(CPACK_PACKAGE_NAME spirv_intel_cts)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "the spirv_intel_cts authors")
set(CPACK_PACKAGE_CONTACT "spirv_intel_cts maintainers <maintainers@users.noreply.a-seed-eba3e11f.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Conformance tests for Intel's SPIR-V sub-group extensions on OpenCL, with a reference CPU device")
set(CPACK_PACKAGE_DESCRIPTION
    "spirv_intel_cts checks SPV_INTEL_subgroups, SPV_INTEL_media_block_io, SPV_INTEL_2d_block_io and
SPV_INTEL_subgroup_matrix_multiply_accumulate on an OpenCL driver, against host references. It ships its
SPIR-V kernels prebuilt and a reference OpenCL device (a CPU interpreter of SPIR-V) as its default device.")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR TGZ DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_NAME spirv-intel-cts)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "ocl-icd-libopencl1, python3, libc6, libstdc++6, libgcc-s1")
include(CPack)

# Installs into a temporary prefix and runs the installed runner from there (scripts/package_test.py).
if(TARGET spirv_intel_cts AND TARGET RefDevOpenCL AND DEFINED CTS_ASSETS_DIR)
  add_test(NAME package.install_and_run
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/package_test.py
                   --build-dir ${CMAKE_BINARY_DIR} --cmake ${CMAKE_COMMAND})
  set_tests_properties(package.install_and_run PROPERTIES LABELS package TIMEOUT 900)
endif()
