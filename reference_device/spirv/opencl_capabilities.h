// The base OpenCL capability list: the SPIR-V capabilities of an OpenCL device without images, without the
// Intel extensions and without clustered sub-group operations. The interpreter's test profile and the fuzz
// profile take exactly these; driver_report.cpp's compute-runtime release lists them among the rest.
#pragma once

#include <cstdint>
#include <vector>

#include "reference_device/spirv/tokens.h"

namespace refdev {

inline const std::vector<uint32_t>& openclBaseCapabilities() {
    static const std::vector<uint32_t> caps = {token(spv::Capability::Addresses),
                                               token(spv::Capability::Linkage),
                                               token(spv::Capability::Kernel),
                                               token(spv::Capability::Vector16),
                                               token(spv::Capability::Float16Buffer),
                                               token(spv::Capability::Float16),
                                               token(spv::Capability::Float64),
                                               token(spv::Capability::Int64),
                                               token(spv::Capability::Int64Atomics),
                                               token(spv::Capability::Groups),
                                               token(spv::Capability::Int16),
                                               token(spv::Capability::GenericPointer),
                                               token(spv::Capability::Int8),
                                               token(spv::Capability::SubgroupDispatch),
                                               token(spv::Capability::GroupNonUniform),
                                               token(spv::Capability::GroupNonUniformVote),
                                               token(spv::Capability::GroupNonUniformArithmetic),
                                               token(spv::Capability::GroupNonUniformBallot),
                                               token(spv::Capability::GroupNonUniformShuffle),
                                               token(spv::Capability::GroupNonUniformShuffleRelative)};
    return caps;
}

}  // namespace refdev
