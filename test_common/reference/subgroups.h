// Host reference for SPV_INTEL_subgroups: shuffles, buffer block read/write, image block read/write.
//
// Pure functions on raw bit patterns. Every value the spec leaves undefined comes back as std::nullopt so a
// checker skips it instead of comparing it. S below is SubgroupMaxSize, never the actual sub-group size:
// the spec defines every index rule in terms of SubgroupMaxSize.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cts::reference {

enum class ShuffleOp { Shuffle, ShuffleDown, ShuffleUp, ShuffleXor };
const char* shuffleOpName(ShuffleOp op);  // "OpSubgroupShuffleINTEL", ...

// Which operand of the instruction a result is taken from.
enum class ShuffleOperand { Data, Current, Next, Previous };

struct ShuffleSource {
    uint32_t lane = 0;  // SubgroupLocalInvocationId of the invocation whose operand is returned
    ShuffleOperand operand = ShuffleOperand::Data;
    bool operator==(const ShuffleSource& o) const { return lane == o.lane && operand == o.operand; }
};

// The index rules alone (nullopt: "considered to be out-of-range", an undefined value).
std::optional<ShuffleSource> shuffleSource(uint32_t invocation_id, uint32_t max_size);
std::optional<ShuffleSource> shuffleDownSource(uint32_t lane, uint32_t delta, uint32_t max_size);
std::optional<ShuffleSource> shuffleUpSource(uint32_t lane, uint32_t delta, uint32_t max_size);
std::optional<ShuffleSource> shuffleXorSource(uint32_t lane, uint32_t value, uint32_t max_size);
// Dispatch on op; `index` is InvocationId, Delta or Value.
std::optional<ShuffleSource> shuffleSourceFor(ShuffleOp op, uint32_t lane, uint32_t index, uint32_t max_size);

// The source of `lane`'s result when it is defined: the index rule gives a source, and that source
// invocation exists (lane < actual_size) and executed the instruction (`executed[lane]`, sized to the
// actual sub-group size). nullopt otherwise (also when `lane` itself did not execute it).
std::optional<ShuffleSource> definedShuffleSource(ShuffleOp op, uint32_t lane, uint32_t index,
                                                  uint32_t max_size, const std::vector<bool>& executed);

// One sub-group evaluated at once: operands[lane] holds that lane's operand values (raw bits, one entry per
// component) for Data / Current / Next / Previous as the op uses them.
struct ShuffleLaneOperands {
    bool executed = true;
    uint32_t index = 0;
    std::vector<uint64_t> data;      // Shuffle, ShuffleXor
    std::vector<uint64_t> current;   // ShuffleDown, ShuffleUp
    std::vector<uint64_t> next;      // ShuffleDown
    std::vector<uint64_t> previous;  // ShuffleUp
};
// result[lane][component], nullopt where undefined. The sub-group's actual size is lanes.size().
std::vector<std::vector<std::optional<uint64_t>>> shuffleSubgroup(
    ShuffleOp op, const std::vector<ShuffleLaneOperands>& lanes, uint32_t max_size, uint32_t components);

// Buffer block IO: component j of lane L is Ptr[L + j*S] ("the second value read is
// Ptr[ SubgroupLocalInvocationId + SubgroupMaxSize ]"). Index in elements of the pointee type.
size_t blockElementIndex(uint32_t lane, uint32_t component, uint32_t max_size);
// Reads component `component` of `lane` from the block at `ptr` (elements of element_bytes = 1, 2, 4, 8).
uint64_t blockReadComponent(const uint8_t* ptr, uint32_t element_bytes, uint32_t lane, uint32_t component,
                            uint32_t max_size);
// Applies one lane's block write (data: its components) to host memory at `ptr`.
void blockWriteLane(uint8_t* ptr, uint32_t element_bytes, uint32_t lane, const std::vector<uint64_t>& data,
                    uint32_t max_size);
// Alignment the OpenCL environment requires of Ptr: 4 bytes for reads, 16 for writes.
constexpr uint32_t kBlockReadAlignment = 4;
constexpr uint32_t kBlockWriteAlignment = 16;
// With a Workgroup Ptr (cl_intel_subgroup_local_block_io): "The pointer Ptr must be 128-bit (16-byte) aligned
// for both reads and writes."
constexpr uint32_t kLocalBlockAlignment = 16;

// Image block IO on a 2D image held as bytes (no format conversion: the block ops see raw texel bytes).
struct ImageBytes {
    uint32_t width = 0;        // texels
    uint32_t height = 0;       // rows
    uint32_t texel_bytes = 0;  // bytes per texel (all channels)
    size_t row_pitch = 0;      // bytes between rows
    std::vector<uint8_t> data;
    size_t rowBytes() const { return size_t(width) * texel_bytes; }
};

// Element `component` of `lane` for a block read at byte coordinate x, row y: the element_bytes bytes at
// x + lane*element_bytes in row y + component. Out of bounds: 4-byte texel formats clamp to the edge
// texel; other texel sizes give nullopt (undefined).
std::optional<uint64_t> imageBlockReadComponent(const ImageBytes& image, int32_t x_bytes, int32_t y,
                                                uint32_t lane, uint32_t component, uint32_t element_bytes);

enum class ImageWriteEffect { Written, Dropped, PartlyDropped, Undefined };
// Applies one element of a block write to `image`. 4-byte texel formats drop the bytes of out-of-bounds
// texels (PartlyDropped when the element spans an in-bounds and an out-of-bounds texel); other texel
// sizes out of bounds are Undefined and leave the image unchanged. x_bytes must be a multiple of 4
// (Undefined otherwise).
ImageWriteEffect imageBlockWriteComponent(ImageBytes& image, int32_t x_bytes, int32_t y, uint32_t lane,
                                          uint32_t component, uint32_t element_bytes, uint64_t value);

}  // namespace cts::reference
