#pragma once

#include <string>
#include <vector>

namespace cts {

// Where the runner finds its SPIR-V assets and the reference device when neither an option nor the
// environment says: next to the program, so that one binary works from the build tree
// (<build>/bin/spirv_intel_cts: <build>/assets, <build>/icd) and from an installed or unpacked package
// (<prefix>/bin/spirv_intel_cts: <prefix>/share/spirv_intel_cts/{assets,icd}), and no path of the
// machine that built it is compiled in.
struct DefaultPaths {
    std::string assets_dir;                 // the first candidate holding manifest.json; "" if none does
    std::vector<std::string> assets_tried;  // every candidate, in the order tried
    // OCL_ICD_VENDORS for the reference device; "" when there is none. Always this tree's own library:
    // <build>/icd when its .icd file names <build>/lib/libRefDevOpenCL.so; otherwise (an installed tree,
    // whose .icd file names no path, or a copied build tree) the library itself, which ocl-icd loads
    // directly, with icd_filenames set too, for the Khronos loader.
    std::string icd_vendors;
    std::string icd_filenames;
    std::vector<std::string> icd_tried;
    // The target descriptions of the offline-compiler mode (<build>/targets, <prefix>/share/spirv_intel_cts/
    // targets): the first candidate that is a directory; "" if none is.
    std::string targets_dir;
    std::vector<std::string> targets_tried;
};

// root: the parent of the directory holding the program.
DefaultPaths findDefaultPaths(const std::string& root);

// "A or B": for messages naming where the runner looked.
std::string joinTried(const std::vector<std::string>& tried);

}  // namespace cts
