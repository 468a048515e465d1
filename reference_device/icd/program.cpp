// Programs: SPIR-V only. clCreateProgramWithIL + clBuildProgram run the interpreter's loader with the
// platform's profile; OpenCL C source is accepted but never builds (no compiler: CL_COMPILER_NOT_AVAILABLE).
#include "reference_device/icd/common.h"

namespace refdev::icd {

namespace {

const char* const kNoCompilerLog =
    "The reference device has no OpenCL C compiler (CL_DEVICE_COMPILER_AVAILABLE is CL_FALSE); it builds "
    "SPIR-V programs only: use clCreateProgramWithIL.";

cl_program newProgram(cl_context c) {
    auto* p = new _cl_program;
    p->context = c;
    retainObject(c);
    registerObject(p);
    return p;
}

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

cl_int checkDeviceList(cl_uint num_devices, const cl_device_id* devices) {
    if ((num_devices == 0) != (devices == nullptr)) return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_devices; ++i)
        if (!isDevice(devices[i])) return CL_INVALID_DEVICE;
    return CL_SUCCESS;
}

cl_int build(cl_program p) {
    if (p->from_source) {
        p->status = CL_BUILD_ERROR;
        p->log = kNoCompilerLog;
        return CL_COMPILER_NOT_AVAILABLE;
    }
    p->module.reset();
    if (p->il.size() % 4 != 0) {
        p->status = CL_BUILD_ERROR;
        p->log = "SPIR-V module size " + std::to_string(p->il.size()) + " bytes is not a multiple of 4";
        return CL_BUILD_PROGRAM_FAILURE;
    }
    std::vector<uint32_t> words(p->il.size() / 4);
    std::memcpy(words.data(), p->il.data(), p->il.size());
    // The platform's faults: a planted compiler bug may reject a valid module here (REFDEV_FAULTS).
    spirv::BuildResult result =
        spirv::buildModule(words.data(), words.size(), *thePlatform()->profile, thePlatform()->faults);
    p->log = result.log;
    if (!result.module) {
        if (p->log.empty()) p->log = "SPIR-V module rejected (no reason given)";
        p->status = CL_BUILD_ERROR;
        return CL_BUILD_PROGRAM_FAILURE;
    }
    p->module = std::move(result.module);
    p->status = CL_BUILD_SUCCESS;
    return CL_SUCCESS;
}

cl_int CL_API_CALL BuildProgram(cl_program p, cl_uint num_devices, const cl_device_id* devices,
                                const char* options, void(CL_CALLBACK* notify)(cl_program, void*),
                                void* user_data) {
    Lock lock(apiMutex());
    if (!liveProgram(p)) return CL_INVALID_PROGRAM;
    if (cl_int e = checkDeviceList(num_devices, devices)) return e;
    if (!notify && user_data) return CL_INVALID_VALUE;
    if (p->attached_kernels) return CL_INVALID_OPERATION;
    // Options only affect OpenCL C compilation; they are recorded for CL_PROGRAM_BUILD_OPTIONS.
    p->options = options ? options : "";
    cl_int e = build(p);
    if (notify) notify(p, user_data);
    return e;
}

cl_int CL_API_CALL CompileProgram(cl_program p, cl_uint num_devices, const cl_device_id* devices, const char*,
                                  cl_uint, const cl_program*, const char**,
                                  void(CL_CALLBACK*)(cl_program, void*), void*) {
    Lock lock(apiMutex());
    if (!liveProgram(p)) return CL_INVALID_PROGRAM;
    if (cl_int e = checkDeviceList(num_devices, devices)) return e;
    p->status = CL_BUILD_ERROR;
    p->log = kNoCompilerLog;
    return CL_COMPILER_NOT_AVAILABLE;  // separate compilation needs a compiler; use clBuildProgram
}

cl_program CL_API_CALL LinkProgram(cl_context c, cl_uint, const cl_device_id*, const char*, cl_uint,
                                   const cl_program*, void(CL_CALLBACK*)(cl_program, void*), void*,
                                   cl_int* err) {
    if (err) *err = liveContext(c) ? CL_LINKER_NOT_AVAILABLE : CL_INVALID_CONTEXT;
    return nullptr;
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
            return infoValue<cl_program_binary_type>(
                size, value, ret,
                p->module ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : CL_PROGRAM_BINARY_TYPE_NONE);
        case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: return infoValue<size_t>(size, value, ret, 0);
        default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL SetProgramSpecializationConstant(cl_program p, cl_uint, size_t, const void*) {
    Lock lock(apiMutex());
    if (!liveProgram(p)) return CL_INVALID_PROGRAM;
    return p->from_source ? CL_INVALID_PROGRAM : CL_INVALID_SPEC_ID;  // specialization is not implemented
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
