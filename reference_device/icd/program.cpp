// Programs: creation, clBuildProgram, queries and specialization constants. IL programs build with the
// interpreter's loader under the platform's profile; OpenCL C source is compiled to SPIR-V first
// (program_source.cpp); clCompileProgram and clLinkProgram are in program_link.cpp.
#include "reference_device/icd/program_internal.h"
#include "reference_device/icd/spec_constants.h"

namespace refdev::icd {

cl_program newProgram(cl_context c) {
    auto* p = new _cl_program;
    p->context = c;
    retainObject(c);
    registerObject(p);
    return p;
}

cl_int checkDeviceList(cl_uint num_devices, const cl_device_id* devices) {
    if ((num_devices == 0) != (devices == nullptr)) return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_devices; ++i)
        if (!isDevice(devices[i])) return CL_INVALID_DEVICE;
    return CL_SUCCESS;
}

bool specializedWords(cl_program p, std::vector<uint32_t>* words) {
    if (p->il.size() % 4 != 0) {
        p->log = "SPIR-V module size " + std::to_string(p->il.size()) + " bytes is not a multiple of 4";
        return false;
    }
    words->resize(p->il.size() / 4);
    std::memcpy(words->data(), p->il.data(), p->il.size());
    // Planted fault: the values clSetProgramSpecializationConstant recorded never reach the module.
    if (!thePlatform()->faults.has("spec_constant_ignored")) *words = specialize(*words, p->spec_values);
    return true;
}

cl_int buildExecutable(cl_program p, const std::vector<uint32_t>& words, cl_int failure) {
    p->module.reset();
    p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
    // The platform's faults: a planted compiler bug may reject a valid module here (REFDEV_FAULTS).
    spirv::BuildResult result =
        spirv::buildModule(words.data(), words.size(), *thePlatform()->profile, thePlatform()->faults);
    p->log += result.log;
    if (!result.module) {
        if (p->log.empty()) p->log = "SPIR-V module rejected (no reason given)";
        p->status = CL_BUILD_ERROR;
        return failure;
    }
    p->module = std::move(result.module);
    p->status = CL_BUILD_SUCCESS;
    p->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    return CL_SUCCESS;
}

namespace {

cl_program CL_API_CALL CreateProgramWithIL(cl_context c, const void* il, size_t length, cl_int* err) {
    Lock lock(apiMutex());
    if (!liveContext(c)) {
        if (err) *err = CL_INVALID_CONTEXT;
        return nullptr;
    }
    if (!il || length == 0) {
        if (err) *err = CL_INVALID_VALUE;
        return nullptr;
    }
    cl_program p = newProgram(c);
    const auto* bytes = static_cast<const uint8_t*>(il);
    p->il.assign(bytes, bytes + length);
    if (err) *err = CL_SUCCESS;
    return p;
}

cl_program CL_API_CALL CreateProgramWithSource(cl_context c, cl_uint count, const char** strings,
                                               const size_t* lengths, cl_int* err) {
    Lock lock(apiMutex());
    if (!liveContext(c)) {
        if (err) *err = CL_INVALID_CONTEXT;
        return nullptr;
    }
    if (count == 0 || !strings) {
        if (err) *err = CL_INVALID_VALUE;
        return nullptr;
    }
    std::string source;
    for (cl_uint i = 0; i < count; ++i) {
        if (!strings[i]) {
            if (err) *err = CL_INVALID_VALUE;
            return nullptr;
        }
        source += (lengths && lengths[i]) ? std::string(strings[i], lengths[i]) : std::string(strings[i]);
    }
    cl_program p = newProgram(c);
    p->source = std::move(source);
    p->from_source = true;
    if (err) *err = CL_SUCCESS;
    return p;
}

cl_program CL_API_CALL CreateProgramWithBinary(cl_context c, cl_uint num_devices, const cl_device_id* devices,
                                               const size_t* lengths, const unsigned char** binaries,
                                               cl_int* status, cl_int* err) {
    Lock lock(apiMutex());
    if (!liveContext(c)) {
        if (err) *err = CL_INVALID_CONTEXT;
        return nullptr;
    }
    if (num_devices == 0 || !devices || !lengths || !binaries) {
        if (err) *err = CL_INVALID_VALUE;
        return nullptr;
    }
    for (cl_uint i = 0; i < num_devices; ++i) {
        if (!isDevice(devices[i])) {
            if (err) *err = CL_INVALID_DEVICE;
            return nullptr;
        }
        if (!lengths[i] || !binaries[i]) {
            if (err) *err = CL_INVALID_VALUE;
            return nullptr;
        }
    }
    // The device has no binary format of its own (CL_PROGRAM_BINARY_SIZES is 0).
    for (cl_uint i = 0; status && i < num_devices; ++i) status[i] = CL_INVALID_BINARY;
    if (err) *err = CL_INVALID_BINARY;
    return nullptr;
}

cl_program CL_API_CALL CreateProgramWithBuiltInKernels(cl_context c, cl_uint, const cl_device_id*,
                                                       const char*, cl_int* err) {
    if (err) *err = liveContext(c) ? CL_INVALID_VALUE : CL_INVALID_CONTEXT;  // no built-in kernels
    return nullptr;
}

cl_int build(cl_program p) {
    p->log.clear();
    p->object.clear();
    std::vector<uint32_t> words;
    if (p->from_source) {
        cl_int e = compileSource(p->source, p->options, {}, CL_BUILD_PROGRAM_FAILURE,
                                 CL_INVALID_BUILD_OPTIONS, &words, &p->log);
        if (e != CL_SUCCESS) {
            p->module.reset();
            p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
            p->status = CL_BUILD_ERROR;
            return e;
        }
    } else if (!specializedWords(p, &words)) {
        p->module.reset();
        p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
        p->status = CL_BUILD_ERROR;
        return CL_BUILD_PROGRAM_FAILURE;
    }
    return buildExecutable(p, words, CL_BUILD_PROGRAM_FAILURE);
}

cl_int CL_API_CALL BuildProgram(cl_program p, cl_uint num_devices, const cl_device_id* devices,
                                const char* options, void(CL_CALLBACK* notify)(cl_program, void*),
                                void* user_data) {
    Lock lock(apiMutex());
    if (!liveProgram(p)) return CL_INVALID_PROGRAM;
    if (cl_int e = checkDeviceList(num_devices, devices)) return e;
    if (!notify && user_data) return CL_INVALID_VALUE;
    if (p->attached_kernels || p->linked)
        return CL_INVALID_OPERATION;  // a linked program has no source or IL
    // Options affect OpenCL C compilation only; they are recorded for CL_PROGRAM_BUILD_OPTIONS.
    p->options = options ? options : "";
    cl_int e = build(p);
    if (notify) notify(p, user_data);
    return e;
}

cl_int CL_API_CALL RetainProgram(cl_program p) {
    Lock lock(apiMutex());
    if (!liveProgram(p)) return CL_INVALID_PROGRAM;
    retainObject(p);
    return CL_SUCCESS;
}

cl_int CL_API_CALL ReleaseProgram(cl_program p) {
    Lock lock(apiMutex());
    if (!liveProgram(p)) return CL_INVALID_PROGRAM;
    releaseProgram(p);
    return CL_SUCCESS;
}

cl_int CL_API_CALL GetProgramInfo(cl_program p, cl_program_info name, size_t size, void* value, size_t* ret) {
    Lock lock(apiMutex());
    if (!liveProgram(p)) return CL_INVALID_PROGRAM;
    switch (name) {
        case CL_PROGRAM_REFERENCE_COUNT: return infoValue<cl_uint>(size, value, ret, p->refs.load());
        case CL_PROGRAM_CONTEXT: return infoValue(size, value, ret, p->context);
        case CL_PROGRAM_NUM_DEVICES: return infoValue<cl_uint>(size, value, ret, 1);
        case CL_PROGRAM_DEVICES: return infoValue(size, value, ret, theDevice());
        case CL_PROGRAM_SOURCE: return infoString(size, value, ret, p->source);
        case CL_PROGRAM_IL: return infoArray(size, value, ret, p->il);
        case CL_PROGRAM_BINARY_SIZES: return infoValue<size_t>(size, value, ret, 0);
        case CL_PROGRAM_BINARIES: {
            // One pointer per device; with a zero binary size nothing is written through it.
            if (value && size < sizeof(unsigned char*)) return CL_INVALID_VALUE;
            if (ret) *ret = sizeof(unsigned char*);
            return CL_SUCCESS;
        }
        case CL_PROGRAM_NUM_KERNELS:
        case CL_PROGRAM_KERNEL_NAMES: {
            if (!p->module) return CL_INVALID_PROGRAM_EXECUTABLE;
            const auto& ks = spirv::kernels(*p->module);
            if (name == CL_PROGRAM_NUM_KERNELS) return infoValue<size_t>(size, value, ret, ks.size());
            std::string names;
            for (const auto& k : ks) names += (names.empty() ? "" : ";") + k.name;
            return infoString(size, value, ret, names);
        }
        case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
        case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: return infoValue<cl_bool>(size, value, ret, CL_FALSE);
        default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL GetProgramBuildInfo(cl_program p, cl_device_id d, cl_program_build_info name, size_t size,
                                       void* value, size_t* ret) {
    Lock lock(apiMutex());
    if (!liveProgram(p)) return CL_INVALID_PROGRAM;
    if (!isDevice(d)) return CL_INVALID_DEVICE;
    switch (name) {
        case CL_PROGRAM_BUILD_STATUS: return infoValue(size, value, ret, p->status);
        case CL_PROGRAM_BUILD_OPTIONS: return infoString(size, value, ret, p->options);
        case CL_PROGRAM_BUILD_LOG: return infoString(size, value, ret, p->log);
        case CL_PROGRAM_BINARY_TYPE:
            return infoValue<cl_program_binary_type>(size, value, ret, p->binary_type);
        case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: return infoValue<size_t>(size, value, ret, 0);
        default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL SetProgramSpecializationConstant(cl_program p, cl_uint spec_id, size_t spec_size,
                                                    const void* spec_value) {
    Lock lock(apiMutex());
    if (!liveProgram(p)) return CL_INVALID_PROGRAM;
    if (p->from_source || p->linked || p->il.empty()) return CL_INVALID_PROGRAM;  // IL programs only
    if (!spec_value) return CL_INVALID_VALUE;
    std::vector<uint32_t> words(p->il.size() / 4);
    std::memcpy(words.data(), p->il.data(), words.size() * 4);
    const auto decls = specConstants(words);
    auto it = decls.find(spec_id);
    if (it == decls.end()) return CL_INVALID_SPEC_ID;
    if (spec_size != it->second.size) return CL_INVALID_VALUE;  // the declared type's size; 1 for a bool
    const auto* bytes = static_cast<const uint8_t*>(spec_value);
    p->spec_values[spec_id].assign(bytes, bytes + spec_size);  // applied by the next build or compile
    return CL_SUCCESS;
}

cl_int CL_API_CALL SetProgramReleaseCallback(cl_program p, void(CL_CALLBACK*)(cl_program, void*), void*) {
    Lock lock(apiMutex());
    return liveProgram(p) ? CL_INVALID_OPERATION : CL_INVALID_PROGRAM;  // deprecated in 3.0, optional
}

}  // namespace

void fillProgramEntries(cl_icd_dispatch& d) {
    d.clCreateProgramWithIL = CreateProgramWithIL;
    d.clCreateProgramWithSource = CreateProgramWithSource;
    d.clCreateProgramWithBinary = CreateProgramWithBinary;
    d.clCreateProgramWithBuiltInKernels = CreateProgramWithBuiltInKernels;
    d.clBuildProgram = BuildProgram;
    d.clCompileProgram = CompileProgram;
    d.clLinkProgram = LinkProgram;
    d.clRetainProgram = RetainProgram;
    d.clReleaseProgram = ReleaseProgram;
    d.clGetProgramInfo = GetProgramInfo;
    d.clGetProgramBuildInfo = GetProgramBuildInfo;
    d.clSetProgramSpecializationConstant = SetProgramSpecializationConstant;
    d.clSetProgramReleaseCallback = SetProgramReleaseCallback;
}

void* programWithILEntry() {
    return reinterpret_cast<void*>(&CreateProgramWithIL);
}

}  // namespace refdev::icd
