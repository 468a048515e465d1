// Host reference for SPV_INTEL_subgroups. Comments quote the spec sentence each rule comes from.
#include "test_common/reference/subgroups.h"

#include <cstring>

namespace cts::reference {

const char* shuffleOpName(ShuffleOp op) {
    switch (op) {
        case ShuffleOp::Shuffle: return "OpSubgroupShuffleINTEL";
        case ShuffleOp::ShuffleDown: return "OpSubgroupShuffleDownINTEL";
        case ShuffleOp::ShuffleUp: return "OpSubgroupShuffleUpINTEL";
        case ShuffleOp::ShuffleXor: return "OpSubgroupShuffleXorINTEL";
    }
    return "?";
}

std::optional<ShuffleSource> shuffleSource(uint32_t invocation_id, uint32_t max_size) {
    // "The data that is returned for this invocation is the value of Data for the invocation identified by
    // InvocationId." No invocation has an id >= SubgroupMaxSize, so such an index returns nothing defined.
    if (invocation_id >= max_size) return std::nullopt;
    return ShuffleSource{invocation_id, ShuffleOperand::Data};
}

std::optional<ShuffleSource> shuffleDownSource(uint32_t lane, uint32_t delta, uint32_t max_size) {
    // "let the unsigned shuffle index be equivalent to the sum of this invocation's
    // SubgroupLocalInvocationId plus the specified Delta". Computed in 64 bits: a 32-bit wrap of L + Delta
    // would turn a huge Delta into an in-range index.
    uint64_t index = uint64_t(lane) + delta;
    // "If the shuffle index is less than the SubgroupMaxSize, ... Current ... equal to the shuffle index."
    if (index < max_size) return ShuffleSource{uint32_t(index), ShuffleOperand::Current};
    // "greater than or equal to the SubgroupMaxSize but less than twice the SubgroupMaxSize, ... Next ...
    // equal to the shuffle index minus the SubgroupMaxSize."
    if (index < 2ull * max_size) return ShuffleSource{uint32_t(index - max_size), ShuffleOperand::Next};
    return std::nullopt;  // "All other values of the shuffle index are considered to be out-of-range."
}

std::optional<ShuffleSource> shuffleUpSource(uint32_t lane, uint32_t delta, uint32_t max_size) {
    // "let the signed shuffle index be equivalent to this invocation's SubgroupLocalInvocationId minus the
    // specified Delta". Delta is read as unsigned: a huge Delta is far out of range, not a negative one.
    int64_t index = int64_t(lane) - int64_t(delta);
    // "greater than or equal to zero and less than the SubgroupMaxSize, ... Current"
    if (index >= 0 && index < int64_t(max_size))
        return ShuffleSource{uint32_t(index), ShuffleOperand::Current};
    // "less than zero but greater than or equal to the negative SubgroupMaxSize, ... Previous ... equal to
    // the shuffle index plus the SubgroupMaxSize."
    if (index < 0 && index >= -int64_t(max_size))
        return ShuffleSource{uint32_t(index + max_size), ShuffleOperand::Previous};
    return std::nullopt;
}

std::optional<ShuffleSource> shuffleXorSource(uint32_t lane, uint32_t value, uint32_t max_size) {
    // "the invocation with SubgroupLocalInvocationId equal to this invocation's SubgroupLocalInvocationId
    // XOR'd with the specified Value. If the result of the XOR is greater than SubgroupMaxSize then it is
    // considered out-of-range." A result equal to SubgroupMaxSize names no invocation either (ids run to
    // SubgroupMaxSize - 1), so it is undefined too: the suite reads the rule as ">=".
    uint32_t source = lane ^ value;
    if (source >= max_size) return std::nullopt;
    return ShuffleSource{source, ShuffleOperand::Data};
}

std::optional<ShuffleSource> shuffleSourceFor(ShuffleOp op, uint32_t lane, uint32_t index,
                                              uint32_t max_size) {
    switch (op) {
        case ShuffleOp::Shuffle: return shuffleSource(index, max_size);
        case ShuffleOp::ShuffleDown: return shuffleDownSource(lane, index, max_size);
        case ShuffleOp::ShuffleUp: return shuffleUpSource(lane, index, max_size);
        case ShuffleOp::ShuffleXor: return shuffleXorSource(lane, index, max_size);
    }
    return std::nullopt;
}

std::optional<ShuffleSource> definedShuffleSource(ShuffleOp op, uint32_t lane, uint32_t index,
                                                  uint32_t max_size, const std::vector<bool>& executed) {
    if (lane >= executed.size() || !executed[lane]) return std::nullopt;
    std::optional<ShuffleSource> source = shuffleSourceFor(op, lane, index, max_size);
    // An invocation beyond the actual size (a trailing partial sub-group) or one that did not reach the
    // instruction has no value to give: its data is undefined.
    if (!source || source->lane >= executed.size() || !executed[source->lane]) return std::nullopt;
    return source;
}

std::vector<std::vector<std::optional<uint64_t>>> shuffleSubgroup(
    ShuffleOp op, const std::vector<ShuffleLaneOperands>& lanes, uint32_t max_size, uint32_t components) {
    std::vector<bool> executed(lanes.size());
    for (size_t l = 0; l < lanes.size(); ++l) executed[l] = lanes[l].executed;
    std::vector<std::vector<std::optional<uint64_t>>> result(
        lanes.size(), std::vector<std::optional<uint64_t>>(components));
    for (uint32_t l = 0; l < lanes.size(); ++l) {
        std::optional<ShuffleSource> src = definedShuffleSource(op, l, lanes[l].index, max_size, executed);
        if (!src) continue;
        const ShuffleLaneOperands& from = lanes[src->lane];
        const std::vector<uint64_t>* values = &from.data;
        if (src->operand == ShuffleOperand::Current) values = &from.current;
        if (src->operand == ShuffleOperand::Next) values = &from.next;
        if (src->operand == ShuffleOperand::Previous) values = &from.previous;
        for (uint32_t c = 0; c < components && c < values->size(); ++c) result[l][c] = (*values)[c];
    }
    return result;
}

size_t blockElementIndex(uint32_t lane, uint32_t component, uint32_t max_size) {
    // "the first value read is: Ptr[ SubgroupLocalInvocationId ] and the second value read is:
    // Ptr[ SubgroupLocalInvocationId + SubgroupMaxSize ] etc."
    return size_t(lane) + size_t(component) * max_size;
}

static uint64_t loadLE(const uint8_t* p, uint32_t bytes) {
    uint64_t v = 0;
    for (uint32_t i = 0; i < bytes; ++i) v |= uint64_t(p[i]) << (8 * i);
    return v;
}

static void storeLE(uint8_t* p, uint32_t bytes, uint64_t v) {
    for (uint32_t i = 0; i < bytes; ++i) p[i] = uint8_t(v >> (8 * i));
}

uint64_t blockReadComponent(const uint8_t* ptr, uint32_t element_bytes, uint32_t lane, uint32_t component,
                            uint32_t max_size) {
    return loadLE(ptr + blockElementIndex(lane, component, max_size) * element_bytes, element_bytes);
}

void blockWriteLane(uint8_t* ptr, uint32_t element_bytes, uint32_t lane, const std::vector<uint64_t>& data,
                    uint32_t max_size) {
    for (uint32_t j = 0; j < data.size(); ++j)
        storeLE(ptr + blockElementIndex(lane, j, max_size) * element_bytes, element_bytes, data[j]);
}

static int64_t floorDiv(int64_t a, int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

std::optional<uint64_t> imageBlockReadComponent(const ImageBytes& image, int32_t x_bytes, int32_t y,
                                                uint32_t lane, uint32_t component, uint32_t element_bytes) {
    // "The x-component is a byte coordinate into rows of the image"; "the first value read is from the row
    // specified by the y-component ..., the second value ... plus one, etc."; lane L's element starts
    // L elements to the right of x.
    const int64_t row = int64_t(y) + component;
    const int64_t first = int64_t(x_bytes) + int64_t(lane) * element_bytes;
    uint64_t v = 0;
    for (uint32_t b = 0; b < element_bytes; ++b) {
        int64_t bx = first + b;
        int64_t texel = floorDiv(bx, image.texel_bytes);
        int64_t r = row;
        bool inside = texel >= 0 && texel < image.width && r >= 0 && r < image.height;
        if (!inside) {
            // Out-of-bounds reads clamp to the edge texel only for 4-byte texel formats; smaller (and
            // larger) texels out of bounds are undefined.
            if (image.texel_bytes != 4) return std::nullopt;
            texel = texel < 0 ? 0 : (texel >= image.width ? image.width - 1 : texel);
            r = r < 0 ? 0 : (r >= image.height ? image.height - 1 : r);
        }
        int64_t within = bx - floorDiv(bx, image.texel_bytes) * image.texel_bytes;
        v |= uint64_t(image.data[size_t(r) * image.row_pitch + size_t(texel) * image.texel_bytes + within])
             << (8 * b);
    }
    return v;
}

ImageWriteEffect imageBlockWriteComponent(ImageBytes& image, int32_t x_bytes, int32_t y, uint32_t lane,
                                          uint32_t component, uint32_t element_bytes, uint64_t value) {
    if (x_bytes % 4 != 0) return ImageWriteEffect::Undefined;  // writes need a 4-byte aligned x
    const int64_t row = int64_t(y) + component;
    const int64_t first = int64_t(x_bytes) + int64_t(lane) * element_bytes;
    auto inside = [&](int64_t bx) {
        int64_t texel = floorDiv(bx, image.texel_bytes);
        return texel >= 0 && texel < image.width && row >= 0 && row < image.height;
    };
    // Out-of-bounds writes are ignored only for 4-byte texel formats; for other texel sizes they are
    // undefined (and the image is left as it was, since nothing about it can be predicted).
    if (image.texel_bytes != 4)
        for (uint32_t b = 0; b < element_bytes; ++b)
            if (!inside(first + b)) return ImageWriteEffect::Undefined;
    bool any_written = false, any_dropped = false;
    for (uint32_t b = 0; b < element_bytes; ++b) {
        int64_t bx = first + b;
        if (!inside(bx)) {
            any_dropped = true;
            continue;
        }
        image.data[size_t(row) * image.row_pitch + size_t(bx)] = uint8_t(value >> (8 * b));
        any_written = true;
    }
    if (any_written && any_dropped) return ImageWriteEffect::PartlyDropped;
    return any_written ? ImageWriteEffect::Written : ImageWriteEffect::Dropped;
}

}  // namespace cts::reference
