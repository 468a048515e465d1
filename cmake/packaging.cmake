# Installing and packaging: `cmake --install <build> --prefix P` and `cpack -G TGZ` / `cpack -G DEB` from the
# build directory. The installed tree needs only the OpenCL ICD loader and Python 3 at run time:
#   P/bin/spirv_intel_cts, P/bin/refdev_faults
#   P/lib/spirv_intel_cts/libRefDevOpenCL.so         the reference device (not on the loader's search path)
#   P/share/spirv_intel_cts/icd/refdev.icd           names that library by its file name only
#   P/share/spirv_intel_cts/assets/                  manifest.json, manifest.sha256, manifest.index + modules/ (the .spv and their .spvasm)
#   P/share/spirv_intel_cts/targets/                 target descriptions of the offline-compiler mode
#   P/share/spirv_intel_cts/scripts/                 the rooms of scripts/ the installed tree uses, laid out as in the
#                                                    source tree (scripts/ is their import root): reports/ (merge_results.py,
#                                                    compare_results.py, results_html.py, report_io.py, failures_html.py),
#                                                    faults/ (fault_campaign.py, fault_runs.py), setup/
#                                                    (install_intel_cpu_runtime.sh, lib/installer.sh)
#   P/share/doc/spirv_intel_cts/                     README.md, LICENSE, docs/*.md
# The runner finds assets and the reference device relative to itself (test_common/harness/model/layout.h), so
# no installed file holds a path of the build, staging or install tree. Unit-test programs are not
# installed.
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
  # An installed tree may be moved, copied or unpacked anywhere (a CPack archive is installed into a
  # staging directory first), so no installed file names a path: the .icd file holds the library's file
  # name only, and the runner loads <prefix>/lib/spirv_intel_cts/libRefDevOpenCL.so of its own tree.
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/packaging/refdev.icd CONTENT "$<TARGET_FILE_NAME:RefDevOpenCL>\n")
  install(FILES ${CMAKE_BINARY_DIR}/packaging/refdev.icd DESTINATION ${CTS_SHARE_DIR}/icd)
endif()

if(DEFINED CTS_ASSETS_DIR)
  install(FILES ${CTS_ASSETS_DIR}/manifest.json ${CTS_ASSETS_DIR}/manifest.sha256 ${CTS_ASSETS_DIR}/manifest.index
          DESTINATION ${CTS_SHARE_DIR}/assets)
  install(DIRECTORY ${CTS_ASSETS_DIR}/modules DESTINATION ${CTS_SHARE_DIR}/assets
          FILES_MATCHING PATTERN "*.spv" PATTERN "*.spvasm")
endif()

install(PROGRAMS scripts/reports/merge_results.py scripts/reports/compare_results.py scripts/reports/results_html.py
        DESTINATION ${CTS_SHARE_DIR}/scripts/reports)
install(FILES scripts/reports/__init__.py scripts/reports/report_io.py scripts/reports/failures_html.py
        DESTINATION ${CTS_SHARE_DIR}/scripts/reports)
install(PROGRAMS scripts/faults/fault_campaign.py DESTINATION ${CTS_SHARE_DIR}/scripts/faults)
install(FILES scripts/faults/__init__.py scripts/faults/fault_runs.py DESTINATION ${CTS_SHARE_DIR}/scripts/faults)
# The installer and the library it sources from its own directory's lib/.
install(PROGRAMS scripts/setup/install_intel_cpu_runtime.sh DESTINATION ${CTS_SHARE_DIR}/scripts/setup)
install(FILES scripts/setup/lib/installer.sh DESTINATION ${CTS_SHARE_DIR}/scripts/setup/lib)
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

# Installs into a temporary prefix and runs the installed runner from there, from a copy and from a moved
# copy; then writes the TGZ and DEB packages into a temporary directory and runs each unpacked
# (scripts/ci/package_test.py).
if(TARGET spirv_intel_cts AND TARGET RefDevOpenCL AND DEFINED CTS_ASSETS_DIR)
  add_test(NAME package.install_and_run
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/ci/package_test.py
                   --build-dir ${CMAKE_BINARY_DIR} --cmake ${CMAKE_COMMAND} --cpack ${CMAKE_CPACK_COMMAND})
  set_tests_properties(package.install_and_run PROPERTIES LABELS package TIMEOUT 900)
endif()
