#include "test_common/cl/image_formats.h"

#include "test_common/errors.h"

namespace cts {

const NamedImageFormat& namedImageFormat(const std::string& name) {
    static const NamedImageFormat formats[] = {
        {"r32ui", CL_R, CL_UNSIGNED_INT32, 4},   {"rgba8ui", CL_RGBA, CL_UNSIGNED_INT8, 4},
        {"rg16ui", CL_RG, CL_UNSIGNED_INT16, 4}, {"r16ui", CL_R, CL_UNSIGNED_INT16, 2},
        {"rg8ui", CL_RG, CL_UNSIGNED_INT8, 2},   {"r8ui", CL_R, CL_UNSIGNED_INT8, 1},
    };
    for (const NamedImageFormat& f : formats)
        if (name == f.name) return f;
    throw InternalError("unknown image format '" + name + "'");
}

}  // namespace cts
