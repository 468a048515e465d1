// Fault registry: the core faults live here; each op family registers its own lists (faults.h).
#include "reference_device/faults.h"

#include <algorithm>
#include <utility>

namespace refdev {

// hang, crash and flaky_first_launch act at kernel enqueue (kernel_launch.cpp); the query faults in the ICD's
// info queries.
std::vector<FaultInfo> coreFaults() {
    return {
        {"hang", "every kernel enqueue never returns (tests the runner's per-case timeout)"},
        {"crash", "the process dies with SIGSEGV at every kernel enqueue (tests crash isolation)"},
        // A case must fail when its kernel never ran or its results were not read back intact.
        {"kernel_not_run", "every kernel enqueue reports success but runs nothing"},
        // Flakiness: a first launch that goes wrong and a retry that does not (the runner's --retry).
        {"flaky_first_launch",
         "the first launch in the process of a kernel whose FNV-1a hash of (module, kernel name) is 0 mod 8 "
         "reports success but runs nothing; every later launch of it is correct"},
        {"read_back_corrupt", "clEnqueueReadBuffer flips the lowest bit of the last byte it reads"},
        // Program faults (reference_device/icd/program.cpp): caught by the device's API tests.
        {"spec_constant_ignored",
         "clSetProgramSpecializationConstant succeeds but the build keeps every specialization constant's "
         "default value"},
        // Memory-object faults (reference_device/icd): what a driver gets wrong binding memory other than a
        // plain buffer; caught by the block IO families' memory-object cases.
        {"sub_buffer_origin_rounded_to_page",
         "kernel arguments that are sub-buffers start at the origin rounded down to 4 KiB (page-granular "
         "binding): origins at CL_DEVICE_MEM_BASE_ADDR_ALIGN that are not page multiples read and write the "
         "wrong bytes"},
        {"use_host_ptr_map_stale",
         "CL_MEM_USE_HOST_PTR buffers are cached in device storage and clEnqueueMapBuffer returns host_ptr "
         "without copying the latest bits there (clEnqueueReadBuffer is right)"},
        // Memory layout (reference_device/spirv/launch.cpp): caught by the API test AlignmentTest under
        // REFDEV_FAULTS (reference_device/tests/CMakeLists.txt).
        {"alignment_decoration_ignored",
         "private, local and constant variables and __local argument buffers are 16-byte aligned only: "
         "Alignment decorations and the 32- to 128-byte alignment of long4..long16 are not honoured"},
        // Core OpenCL C built-ins (reference_device/spirv/instructions): caught by the device's own tests.
        {"async_copy_stride_ignored",
         "async_work_group_strided_copy (OpGroupAsyncCopy) copies contiguously, as if its stride were 1"},
        // Image faults (spirv/instructions/image_sampler.cpp): caught by the device's own API tests.
        {"sampler_clamp_to_edge_as_clamp",
         "samplers with CLK_ADDRESS_CLAMP_TO_EDGE address as CLK_ADDRESS_CLAMP: coordinates past the image's "
         "edge read the border colour instead of the edge texel"},
        // Query faults (reference_device/icd): driver bugs in what the device reports, not in execution.
        {"spirv_queries_omit_new_extensions",
         "CL_DEVICE_SPIRV_EXTENSIONS_KHR / _CAPABILITIES_KHR omit SPV_INTEL_2d_block_io and "
         "SPV_INTEL_subgroup_matrix_multiply_accumulate and their capabilities (modules still build)"},
        {"sub_group_sizes_unsorted_duplicate",
         "CL_DEVICE_SUB_GROUP_SIZES_INTEL lists the sizes largest first with the smallest repeated"},
        {"compile_sub_group_size_query_zero",
         "CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL reports 0 for a kernel with SubgroupSize"},
        {"kernel_num_args_plus_one", "CL_KERNEL_NUM_ARGS reports one argument more than the kernel has"},
        {"kernel_arg_address_qualifier_private",
         "CL_KERNEL_ARG_ADDRESS_QUALIFIER reports private for every argument, buffers included"},
        {"extension_version_2d_block_io_unreported",
         "CL_DEVICE_EXTENSIONS lists cl_intel_subgroup_2d_block_io, but CL_DEVICE_EXTENSIONS_WITH_VERSION "
         "(and "
         "the platform's) leaves it out, so it has no version"},
    };
}

namespace {

std::vector<std::pair<std::string, FaultList>>& faultLists() {
    static std::vector<std::pair<std::string, FaultList>> lists;
    return lists;
}

}  // namespace

void addFaultList(const char* family, FaultList list) {
    faultLists().emplace_back(family, list);
}

const std::vector<FaultInfo>& allFaults() {
    static const std::vector<FaultInfo> all = [] {
        std::vector<FaultInfo> v = coreFaults();
        auto lists = faultLists();
        // Static initialisation order is unspecified: a family's lists in registration order within it, the
        // families by name, so that every build lists the faults alike.
        std::stable_sort(lists.begin(), lists.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& list : lists)
            for (FaultInfo& f : list.second()) v.push_back(std::move(f));
        return v;
    }();
    return all;
}

bool Faults::parse(const std::string& spec, std::string* error) {
    std::vector<std::string> parsed;
    size_t start = 0;
    while (start <= spec.size()) {
        size_t comma = spec.find(',', start);
        if (comma == std::string::npos) comma = spec.size();
        std::string name = spec.substr(start, comma - start);
        // Tolerate spaces around names ("a, b") but nothing else.
        name.erase(0, name.find_first_not_of(" \t"));
        name.erase(name.find_last_not_of(" \t") + 1);
        if (!name.empty()) {
            const auto& all = allFaults();
            bool known =
                std::any_of(all.begin(), all.end(), [&](const FaultInfo& f) { return f.name == name; });
            if (!known) {
                if (error) {
                    *error = "REFDEV_FAULTS: unknown fault '" + name + "'; valid:";
                    for (const FaultInfo& f : all) *error += " " + f.name;
                }
                return false;
            }
            if (std::find(parsed.begin(), parsed.end(), name) == parsed.end()) parsed.push_back(name);
        }
        start = comma + 1;
    }
    active_ = std::move(parsed);
    return true;
}

bool Faults::has(std::string_view name) const {
    return std::find(active_.begin(), active_.end(), name) != active_.end();
}

}  // namespace refdev
