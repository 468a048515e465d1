// clCompileProgram and clLinkProgram. A compiled object is SPIR-V: an IL program's module with its
// specialization constants applied, or what clang-15 + llvm-spirv-15 made of OpenCL C source. Linking merges
// the objects and resolves Import-linkage declarations against Export definitions (spirv::linkModules), then
// builds the executable, or keeps the merged module as a library (-create-library).
#include <sstream>

#include "reference_device/icd/program_internal.h"

namespace refdev::icd {
namespace {

// Link options: what the spec lists for clLinkProgram; anything else is CL_INVALID_LINKER_OPTIONS.
cl_int parseLinkOptions(const std::string& options, bool* library) {
    static const char* const kMathOptions[] = {"-cl-denorms-are-zero",          "-cl-no-signed-zeros",
                                               "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
                                               "-cl-fast-relaxed-math",         "-cl-no-subgroup-ifp"};
    std::istringstream in(options);
    std::string o;
    bool enable_link_options = false;
    *library = false;
    while (in >> o) {
        if (o == "-create-library") {
            *library = true;
        } else if (o == "-enable-link-options") {
            enable_link_options = true;
        } else {
            bool known = false;
            for (const char* m : kMathOptions) known = known || o == m;
            if (!known) return CL_INVALID_LINKER_OPTIONS;
        }
    }
    // -enable-link-options lets a library be changed by later link options: it goes with -create-library.
    if (enable_link_options && !*library) return CL_INVALID_LINKER_OPTIONS;
    return CL_SUCCESS;
}

}  // namespace

cl_int CL_API_CALL CompileProgram(cl_program p, cl_uint num_devices, const cl_device_id* devices,
                                  const char* options, cl_uint num_headers, const cl_program* headers,
                                  const char** header_names, void(CL_CALLBACK* notify)(cl_program, void*),
                                  void* user_data) {
    Lock lock(apiMutex());
    if (!liveProgram(p)) return CL_INVALID_PROGRAM;
    if (cl_int e = checkDeviceList(num_devices, devices)) return e;
    if (!notify && user_data) return CL_INVALID_VALUE;
    if ((num_headers == 0) != (headers == nullptr) || (num_headers == 0) != (header_names == nullptr))
        return CL_INVALID_VALUE;
    std::vector<std::pair<std::string, std::string>> header_sources;
    for (cl_uint i = 0; i < num_headers; ++i) {
        if (!liveProgram(headers[i]) || !header_names[i]) return CL_INVALID_VALUE;
        header_sources.emplace_back(header_names[i], headers[i]->source);
    }
    if (p->attached_kernels || p->linked) return CL_INVALID_OPERATION;
    p->options = options ? options : "";
    p->log.clear();
    p->module.reset();
    p->object.clear();
    p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
    p->status = CL_BUILD_ERROR;
    std::vector<uint32_t> words;
    cl_int e = CL_SUCCESS;
    if (p->from_source) {
        e = compileSource(p->source, p->options, header_sources, CL_COMPILE_PROGRAM_FAILURE,
                          CL_INVALID_COMPILER_OPTIONS, &words, &p->log);
    } else if (!specializedWords(p, &words)) {
        e = CL_COMPILE_PROGRAM_FAILURE;
    } else {
        // A structural check only: imports may be resolved by the link, so the module is not built yet.
        spirv::LinkResult check = spirv::linkModules({words}, true);
        p->log = check.log;
        if (check.words.empty()) e = CL_COMPILE_PROGRAM_FAILURE;
    }
    if (e == CL_SUCCESS) {
        p->object = std::move(words);
        p->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
        p->status = CL_BUILD_SUCCESS;
    }
    if (notify) notify(p, user_data);
    return e;
}

cl_program CL_API_CALL LinkProgram(cl_context c, cl_uint num_devices, const cl_device_id* devices,
                                   const char* options, cl_uint num_inputs, const cl_program* inputs,
                                   void(CL_CALLBACK* notify)(cl_program, void*), void* user_data,
                                   cl_int* err) {
    Lock lock(apiMutex());
    auto result = [&](cl_int e) {
        if (err) *err = e;
        return nullptr;
    };
    if (!liveContext(c)) return result(CL_INVALID_CONTEXT);
    if (cl_int e = checkDeviceList(num_devices, devices)) return result(e);
    if (num_inputs == 0 || !inputs || (!notify && user_data)) return result(CL_INVALID_VALUE);
    std::vector<std::vector<uint32_t>> objects;
    for (cl_uint i = 0; i < num_inputs; ++i) {
        if (!liveProgram(inputs[i]) || inputs[i]->context != c) return result(CL_INVALID_PROGRAM);
        if (inputs[i]->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
            inputs[i]->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY)
            return result(CL_INVALID_OPERATION);  // only compiled objects and libraries link
        objects.push_back(inputs[i]->object);
    }
    const std::string opts = options ? options : "";
    bool library = false;
    if (cl_int e = parseLinkOptions(opts, &library)) return result(e);
    // The link can begin: the program is returned even when it fails, with the reason in its log.
    cl_program p = newProgram(c);
    p->linked = true;
    p->options = opts;
    spirv::LinkResult linked = spirv::linkModules(objects, library);
    p->log = linked.log;
    cl_int e = CL_SUCCESS;
    if (linked.words.empty()) {
        if (p->log.empty()) p->log = "error: the link failed (no reason given)\n";
        p->status = CL_BUILD_ERROR;
        e = CL_LINK_PROGRAM_FAILURE;
    } else if (library) {
        p->object = std::move(linked.words);
        p->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
        p->status = CL_BUILD_SUCCESS;
    } else {
        e = buildExecutable(p, linked.words, CL_LINK_PROGRAM_FAILURE);
    }
    if (notify) notify(p, user_data);
    if (err) *err = e;
    return p;
}

}  // namespace refdev::icd
