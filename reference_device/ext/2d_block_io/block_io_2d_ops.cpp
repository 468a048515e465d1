// SPV_INTEL_2d_block_io instructions on the reference device, read from the spec text (sections "Mapping
// Block Data to Invocations", "Out-of-Bounds Behavior", "Restrictions") and the OpenCL environment of
// cl_intel_subgroup_2d_block_io. This code walks the block element by element and computes which lane and
// destination slot receives it; it shares nothing with the suite's host reference.
#include "reference_device/ext/2d_block_io/block_io_2d_ops.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace refdev::spirv::block_io_2d {
namespace {

constexpr int64_t kTwoTo24 = int64_t(1) << 24;
constexpr int64_t kInt32Min = -(int64_t(1) << 31), kInt32Max = (int64_t(1) << 31) - 1;

// Shape bounds checked before any arithmetic on the shape operands (every supported shape lies within
// them; see unsupportedShape): they keep the products below (padded row bytes, lane slots, destination
// bytes) far from overflow and every loop over the block short.
constexpr uint32_t kMaxBlockWidth = 64, kMaxBlockHeight = 32, kMaxBlockCount = 4;

// Smallest power of two >= v. 64-bit, so that it terminates for every 32-bit v (a 32-bit loop never
// reaches a v above 2^31: p overflows to 0 and stays there).
uint64_t ceilPow2(uint32_t v) {
    uint64_t p = 1;
    while (p < v) p <<= 1;
    return p;
}
bool isPow2(uint32_t v) {
    return v && !(v & (v - 1));
}

const char* opName(uint32_t opcode) {
    switch (opcode) {
        case kOpLoad: return "OpSubgroup2DBlockLoadINTEL";
        case kOpLoadTransform: return "OpSubgroup2DBlockLoadTransformINTEL";
        case kOpLoadTranspose: return "OpSubgroup2DBlockLoadTransposeINTEL";
        case kOpPrefetch: return "OpSubgroup2DBlockPrefetchINTEL";
        case kOpStore: return "OpSubgroup2DBlockStoreINTEL";
        case kOpExtendedRead: return "intel_subgroup_block_read (cl_intel_subgroup_extended_block_read)";
        case kOpExtendedReadTransform:
            return "intel_subgroup_block_read_transform (cl_intel_subgroup_extended_block_read)";
        case kOpExtendedReadTranspose:
            return "intel_subgroup_block_read_transpose (cl_intel_subgroup_extended_block_read)";
    }
    return "Op2DBlock?";
}

// The SPIR-V load an extended block read is (the same message, with the block in the result).
uint32_t spirvLoad(uint32_t opcode) {
    switch (opcode) {
        case kOpExtendedRead: return kOpLoad;
        case kOpExtendedReadTransform: return kOpLoadTransform;
        case kOpExtendedReadTranspose: return kOpLoadTranspose;
    }
    return opcode;
}

// Operand positions (env "Tokens"): ElementSize, BlockWidth, BlockHeight, BlockCount, then
// loads: SrcBase, MemoryWidth, MemoryHeight, MemoryPitch, Coordinate, Dst;
// prefetch: SrcBase, MemoryWidth, MemoryHeight, MemoryPitch, Coordinate;
// store: Src (private), DstBase, MemoryWidth, MemoryHeight, MemoryPitch, Coordinate.
struct Operands {
    uint32_t opcode = 0;
    uint32_t element_size = 0, block_width = 0, block_height = 0, block_count = 0;
    uint32_t base_k = 4, memory_k = 5, coord_k = 8, private_k = UINT32_MAX;
    uint64_t base = 0;
    int64_t memory_width = 0, memory_height = 0, memory_pitch = 0;  // bytes, rows, bytes
    int64_t x = 0, y = 0;                                           // elements, rows
};

// The block as assigned to lanes: after padding and transform/transpose.
struct Assigned {
    uint32_t rows = 0, cols = 0, element_bytes = 0, pack = 1, per_lane = 0;
};

// Every lane's private bytes of one instruction, in one allocation (on the stack for every shape this
// device supports).
class LaneBuffer {
public:
    LaneBuffer(uint32_t lanes, size_t lane_bytes) : lane_bytes_(lane_bytes) {
        if (size_t(lanes) * lane_bytes > sizeof small_) big_.resize(size_t(lanes) * lane_bytes);
    }
    uint8_t* lane(uint32_t l) { return (big_.empty() ? small_ : big_.data()) + l * lane_bytes_; }

private:
    size_t lane_bytes_;
    uint8_t small_[4096];
    std::vector<uint8_t> big_;
};

Assigned assigned(const Operands& o, uint32_t sub_group_size) {
    Assigned a;
    if (o.opcode == kOpLoadTransform) {
        a.pack = o.element_size == 1 ? 4 : 2;  // 1-byte: four rows per 32-bit value; 2-byte: two
        a.rows = (o.block_height + a.pack - 1) / a.pack;
        a.cols = uint32_t(ceilPow2(o.block_width));
        a.element_bytes = 4;
    } else if (o.opcode == kOpLoadTranspose) {
        a.rows = o.block_width;  // transpose pads Block Height to a power of two; it becomes the columns
        a.cols = uint32_t(ceilPow2(o.block_height));
        a.element_bytes = o.element_size;
    } else {
        a.rows = o.block_height;
        a.cols = uint32_t(ceilPow2(o.block_width));
        a.element_bytes = o.element_size;
    }
    a.per_lane = (a.rows * a.cols + sub_group_size - 1) / sub_group_size;
    return a;
}

// Component `component` of integer operand k, sign-extended from its own width (decode checks the width is
// 8, 16, 32 or 64 bits before calling this, so the read stays within the operand's bytes).
int64_t signedValue(const OpContext& ctx, uint32_t lane, uint32_t k, uint32_t component) {
    switch (ctx.operandType(k).component_bits) {
        case 8: return ctx.get<int8_t>(lane, k, component);
        case 16: return ctx.get<int16_t>(lane, k, component);
        case 64: return ctx.get<int64_t>(lane, k, component);
        default: return ctx.get<int32_t>(lane, k, component);
    }
}

bool integerBits(const TypeInfo& t) {
    return t.component_bits == 8 || t.component_bits == 16 || t.component_bits == 32 ||
           t.component_bits == 64;
}

uint32_t firstActive(const OpContext& ctx) {
    for (uint32_t l = 0; l < ctx.lanes(); ++l)
        if (ctx.active(l)) return l;
    return 0;
}

// Decodes the operands and checks every precondition the spec and the OpenCL environment state. Reports
// undefined behaviour (and returns false) on the first violation.
bool decode(OpContext& ctx, Operands* o) {
    const uint32_t op = ctx.opcode();
    const char* name = opName(op);  // no string built unless a rule is broken
    uint32_t lane0 = firstActive(ctx);
    auto ub = [&](const std::string& what) {
        ctx.undefinedBehavior(lane0, std::string(name) + ": " + what);
        return false;
    };
    o->opcode = spirvLoad(op);
    // The extended block reads return the block (no Dst Pointer). Their shapes are fixed for sub-groups of
    // 16: the driver's header and implementation define them for intel_reqd_sub_group_size(16) (transform
    // blocks as wide, transpose blocks as tall as the sub-group), and a result type of another size.
    if (op != o->opcode && ctx.maxLanes() != 16)
        return ub(
            "the built-in's block and result type are shaped for sub-groups of 16 work-items, this "
            "sub-group has " +
            std::to_string(ctx.maxLanes()));
    if (op == kOpStore) {
        o->private_k = 4, o->base_k = 5, o->memory_k = 6, o->coord_k = 9;
    } else if (op != kOpPrefetch && op == o->opcode) {
        o->private_k = 9;
    }
    // "the SubgroupMaxSize is a power of two"; "the SubgroupSize is equal to the SubgroupMaxSize"; "all
    // invocations within the subgroup execute the same dynamic instance of this instruction".
    if (!isPow2(ctx.maxLanes()))
        return ub("behavior is undefined unless the SubgroupMaxSize is a power of two");
    if (!ctx.fullSubgroup())
        return ub(
            "behavior is undefined unless this is a full subgroup and all invocations execute the same "
            "dynamic instance of this instruction");
    static const char* kConstNames[] = {"Element Size", "Block Width", "Block Height", "Block Count"};
    for (uint32_t k = 0; k < 4; ++k) {
        const TypeInfo& t = ctx.operandType(k);
        if (!ctx.isConstant(k) || t.kind != TypeInfo::Kind::Int || t.component_bits != 32)
            return ub(std::string(kConstNames[k]) +
                      " must be a constant instruction with scalar 32-bit integer type");
    }
    o->element_size = uint32_t(ctx.getUint(lane0, 0));
    o->block_width = uint32_t(ctx.getUint(lane0, 1));
    o->block_height = uint32_t(ctx.getUint(lane0, 2));
    o->block_count = uint32_t(ctx.getUint(lane0, 3));
    const uint32_t e = o->element_size;
    if (e != 1 && e != 2 && e != 4 && e != 8)
        return ub("the Element Size must be 1, 2, 4, or 8 bytes (it is " + std::to_string(e) + ")");
    if ((e == 1 && o->block_width % 4) || (e == 2 && o->block_width % 2))
        return ub(
            "the Block Width must be a multiple of four for 1-byte elements, or a multiple of two for "
            "2-byte elements");
    // unsupportedShape bounds Block Width, Height and Count before it computes with them; nothing below
    // runs on a shape it rejects.
    if (std::string why = unsupportedShape(o->opcode, e, o->block_width, o->block_height, o->block_count);
        !why.empty())
        return ub("block shape not supported by this device: " + why);

    // "Behavior is undefined unless Block Width, Block Height, Block Count, <base pointer>, Memory Width,
    // Memory Height, Memory Pitch, and Coordinate are dynamically uniform for all invocations".
    static const char* kUniformNames[] = {"Memory Width", "Memory Height", "Memory Pitch", "Coordinate"};
    if (!ctx.uniform(o->base_k)) return ub("the base pointer is not dynamically uniform across the subgroup");
    for (uint32_t k = 0; k < 4; ++k)
        if (!ctx.uniform(o->memory_k + k))
            return ub(std::string(kUniformNames[k]) + " is not dynamically uniform across the subgroup");
    const TypeInfo& base_type = ctx.operandType(o->base_k);
    if (base_type.kind != TypeInfo::Kind::Pointer || base_type.storage_class != kStorageCrossWorkgroup)
        return ub("the base pointer must be a pointer to the CrossWorkgroup storage class");
    if (o->private_k != UINT32_MAX) {
        const TypeInfo& t = ctx.operandType(o->private_k);
        if (t.kind != TypeInfo::Kind::Pointer || t.storage_class != kStorageFunction)
            return ub(std::string(op == kOpStore ? "Src Pointer" : "Dst Pointer") +
                      " must be a pointer to the Function storage class");
    }
    for (uint32_t k = 0; k < 3; ++k) {
        const TypeInfo& t = ctx.operandType(o->memory_k + k);
        if (t.kind != TypeInfo::Kind::Int || !integerBits(t))
            return ub(std::string(kUniformNames[k]) + " must be an integer type scalar");
    }
    const TypeInfo& coord_type = ctx.operandType(o->coord_k);
    if (coord_type.kind != TypeInfo::Kind::Vector || coord_type.components != 2 ||
        coord_type.component_kind != TypeInfo::Kind::Int || !integerBits(coord_type))
        return ub("Coordinate must be a vector of two integer type components");

    o->base = ctx.getUint(lane0, o->base_k);
    o->memory_width = signedValue(ctx, lane0, o->memory_k, 0);
    o->memory_height = signedValue(ctx, lane0, o->memory_k + 1, 0);
    o->memory_pitch = signedValue(ctx, lane0, o->memory_k + 2, 0);
    o->x = signedValue(ctx, lane0, o->coord_k, 0);
    o->y = signedValue(ctx, lane0, o->coord_k, 1);

    if (o->base % 64)
        return ub("the base address " + std::to_string(o->base) + " is not cache-line aligned (64 bytes)");
    if (o->memory_width < 64 || o->memory_width > kTwoTo24)
        return ub("Memory Width " + std::to_string(o->memory_width) + " is outside [64, 2^24] bytes");
    // OpenCL environment: width a multiple of 4 bytes for 1- and 2-byte data, else of the element size.
    if (o->memory_width % std::max<uint32_t>(4, e))
        return ub("Memory Width " + std::to_string(o->memory_width) + " is not a multiple of " +
                  std::to_string(std::max<uint32_t>(4, e)) + " bytes (OpenCL environment)");
    if (o->memory_height < 1 || o->memory_height > kTwoTo24)
        return ub("Memory Height " + std::to_string(o->memory_height) + " is outside [1, 2^24] rows");
    // SPIR-V says a multiple of 8 bytes; the OpenCL environment (this device's) says 16.
    if (o->memory_pitch < o->memory_width || o->memory_pitch % 16)
        return ub("Memory Pitch " + std::to_string(o->memory_pitch) +
                  " must be >= Memory Width and a multiple of 16 bytes (OpenCL environment)");
    // Only 64-bit operands (which the OpenCL environment does not allow: its pitch and coordinates are
    // 32-bit ints) can go further; bounding them keeps every element offset, (y + row) * pitch + (x + column)
    // * Element Size, well inside 64 bits.
    if (o->memory_pitch > kInt32Max)
        return ub("Memory Pitch " + std::to_string(o->memory_pitch) +
                  " is above 2^31 - 1 bytes, the largest the OpenCL environment's 32-bit pitch can express");
    if (o->x < kInt32Min || o->x > kInt32Max || o->y < kInt32Min || o->y > kInt32Max)
        return ub("Coordinate (" + std::to_string(o->x) + ", " + std::to_string(o->y) +
                  ") is outside the 32-bit range of the OpenCL environment's int2 coordinate");
    if ((e == 1 && o->x % 4) || (e == 2 && o->x % 2))
        return ub("the first component of Coordinate (" + std::to_string(o->x) +
                  ") must be a multiple of four for 1-byte elements, or of two for 2-byte elements");
    // Planted faults: a driver that keeps these operands in 16-bit fields (the default run's 70,000-row and
    // 70,000-byte surfaces show it).
    if (ctx.faults().has("height_or_y_16bit"))
        o->memory_height = o->memory_height & 0xffff, o->y = int64_t(int16_t(uint16_t(o->y)));
    if (ctx.faults().has("width_pitch_or_x_16bit"))
        o->memory_width = o->memory_width & 0xffff, o->memory_pitch = o->memory_pitch & 0xffff,
        o->x = int64_t(int16_t(uint16_t(o->x)));
    if (o->private_k != UINT32_MAX) {
        for (uint32_t l = 0; l < ctx.lanes(); ++l)
            if (ctx.getUint(l, o->private_k) % e) {
                ctx.undefinedBehavior(
                    l, std::string(name) + ": the per-invocation address is not aligned to the Element Size");
                return false;
            }
    }
    return true;
}

enum class Fetch { Data, Padding, OutOfBounds, Error };

struct Surface {
    const Operands& o;
    const Faults& faults;

    // Byte offset of block `b` element (brow, bcol) from the base, or false when it lies outside the memory
    // (or, with `check` false, when its row/column is negative under the faults that skip the check).
    bool locate(uint32_t b, uint32_t brow, uint32_t bcol, bool check, int64_t* offset) const {
        const int64_t e = o.element_size;
        int64_t x0 = o.x, y0 = o.y;
        if (faults.has("negative_coord_clamped"))
            x0 = std::max<int64_t>(x0, 0), y0 = std::max<int64_t>(y0, 0);
        // The 1-byte rule (x a multiple of 4) applied to every element size: x rounded down to it.
        if (faults.has("coord_x_rounded_to_4_elements")) x0 &= ~int64_t(3);
        // Blocks follow each other along the row: block b starts b * Block Width elements to the right.
        int64_t element = int64_t(b) * o.block_width + bcol;
        int64_t byte = faults.has("coord_x_as_bytes") ? x0 + element * e : (x0 + element) * e;
        int64_t row = y0 + brow;
        int64_t stride = faults.has("pitch_ignored") ? o.memory_width : o.memory_pitch;
        if (faults.has("pitch_rounded_to_64")) stride &= ~int64_t(63);
        *offset = row * stride + byte;
        // 32-bit offset arithmetic, in both places a driver keeps offsets: each element's offset from the
        // base (wraps only past 2^31 / 2^32 bytes: the huge cases) and the block origin y * pitch + x * size,
        // whose truncation error every element then carries (a negative origin wraps to near +4 GiB in
        // unsigned 32 bits; one below -2^31 turns positive in signed 32 bits: small default-run cases).
        const bool wrap = faults.has("offset_32bit_wrap"), overflow = faults.has("offset_int32_overflow");
        if (wrap || overflow) {
            auto narrow = [wrap](int64_t v) {
                return wrap ? int64_t(uint32_t(v)) : int64_t(int32_t(uint32_t(v)));
            };
            const int64_t origin = y0 * stride + (faults.has("coord_x_as_bytes") ? x0 : x0 * e);
            *offset = narrow(*offset) + (narrow(origin) - origin);
        }
        if (!check) return true;
        // Out of bounds is per element, against Memory Width (bytes) and Memory Height (rows), not pitch.
        int64_t right = faults.has("right_edge_from_pitch") ? o.memory_pitch : o.memory_width;
        if (faults.has("memory_width_rounded_to_16")) right &= ~int64_t(15);
        bool inside_row;
        if (faults.has("memory_width_as_elements"))
            inside_row = byte >= 0 && byte / e < right;
        else if (faults.has("oob_check_4byte_granularity"))
            inside_row = byte >= 0 && (byte + e - 1) / 4 * 4 + 4 <= right;
        else
            inside_row = byte >= 0 && byte + e <= right;
        return inside_row && row >= 0 && row < o.memory_height;
    }

    Fetch fetch(OpContext& ctx, uint32_t b, uint32_t brow, uint32_t bcol, uint64_t* value) const {
        *value = 0;
        if (brow >= o.block_height || bcol >= o.block_width) return Fetch::Padding;
        int64_t offset;
        if (!locate(b, brow, bcol, true, &offset)) return Fetch::OutOfBounds;
        const uint8_t* p = ctx.memory(0, o.base + uint64_t(offset), o.element_size, false);
        if (!p) return Fetch::Error;
        std::memcpy(value, p, o.element_size);
        return Fetch::Data;
    }
};

// Lane and slot (within one block's share) of assigned-block element (row, col).
void laneSlot(const Assigned& a, uint32_t sg, uint32_t row, uint32_t col, bool h32_fault, uint32_t* lane,
              uint32_t* slot) {
    if (a.cols >= sg) {
        // Wider than the sub-group: each lane takes a run of consecutive columns of every row.
        uint32_t run = a.cols / sg;
        if (h32_fault && run > 1) {
            *lane = col % sg, *slot = row * run + col / sg;
        } else {
            *lane = col / run, *slot = row * run + col % run;
        }
    } else {
        // Narrower: sg / cols consecutive rows share one destination slot.
        uint32_t flat = row * a.cols + col;
        *lane = flat % sg, *slot = flat / sg;
    }
}

// The memory of all blocks when every element lies inside Memory Width x Memory Height, and the rows from
// the first element to the last lie in one allocation that each of `lanes` lanes may access: then no element
// is out of bounds and no access can fail, and the block is read or written directly. Otherwise nullptr,
// and the element-wise path decides (and reports) element by element.
uint8_t* wholeBlocks(OpContext& ctx, const Operands& o, uint32_t lanes, bool write) {
    const int64_t e = o.element_size, row_bytes = int64_t(o.block_width) * o.block_count * e;
    if (o.x < 0 || o.y < 0 || o.x * e + row_bytes > o.memory_width || o.y + o.block_height > o.memory_height)
        return nullptr;
    const uint64_t first = o.base + uint64_t(o.y * o.memory_pitch + o.x * e);
    const size_t span = size_t((int64_t(o.block_height) - 1) * o.memory_pitch + row_bytes);
    uint8_t* p = nullptr;
    for (uint32_t l = 0; l < lanes; ++l)
        if (!(p = ctx.probeMemory(l, first, span, write))) return nullptr;
    return p;
}

// Each lane's Dst bytes from `dst`.
void writeBack(OpContext& ctx, const Operands& o, LaneBuffer& dst, uint32_t sg, size_t lane_bytes) {
    for (uint32_t l = 0; l < sg; ++l) {
        uint8_t* p = ctx.memory(l, ctx.getUint(l, o.private_k), lane_bytes, true);
        if (!p) return;
        std::memcpy(p, dst.lane(l), lane_bytes);
    }
}

// One element of `bytes` (1, 2, 4 or 8) bytes; fixed-size copies compile to plain moves.
void copyElement(uint8_t* out, const uint8_t* in, uint32_t bytes) {
    switch (bytes) {
        case 1: *out = *in; break;
        case 2: std::memcpy(out, in, 2); break;
        case 4: std::memcpy(out, in, 4); break;
        default: std::memcpy(out, in, 8); break;
    }
}

// Blocks at least as wide as the sub-group, where lane l takes the run of columns l * run ... l * run + run -
// 1 of every assigned row (laneSlot). A plain load copies each run of a row at once.
void loadRuns(const uint8_t* blocks, const Operands& o, const Assigned& a, uint32_t sg, LaneBuffer& dst) {
    const uint32_t e = o.element_size, run = a.cols / sg;
    for (uint32_t b = 0; b < o.block_count; ++b)
        for (uint32_t row = 0; row < a.rows; ++row) {
            const uint8_t* in = blocks + size_t(row) * size_t(o.memory_pitch) + size_t(b) * o.block_width * e;
            for (uint32_t lane = 0; lane < sg; ++lane) {
                const uint32_t first = lane * run;
                const uint32_t data = first >= o.block_width ? 0 : std::min(run, o.block_width - first);
                uint8_t* out = dst.lane(lane) + (size_t(b) * a.per_lane + size_t(row) * run) * e;
                if (data == run && run * e <= 8) {
                    copyElement(out, in + size_t(first) * e, run * e);  // the usual interior run
                    continue;
                }
                std::memcpy(out, in + size_t(first) * e, size_t(data) * e);
                std::memset(out + size_t(data) * e, 0, size_t(run - data) * e);  // padding
            }
        }
}

// The same for a transform of E-byte data: each assigned element packs a.pack rows of one column, lower rows
// in lower bytes.
template <uint32_t E>
void transformRuns(const uint8_t* blocks, const Operands& o, const Assigned& a, uint32_t sg,
                   LaneBuffer& dst) {
    const uint32_t run = a.cols / sg;
    const size_t pitch = size_t(o.memory_pitch);
    for (uint32_t b = 0; b < o.block_count; ++b)
        for (uint32_t row = 0; row < a.rows; ++row)
            for (uint32_t lane = 0; lane < sg; ++lane)
                for (uint32_t j = 0; j < run; ++j) {
                    const uint32_t col = lane * run + j;
                    uint8_t* out = dst.lane(lane) + (size_t(b) * a.per_lane + size_t(row) * run + j) * 4;
                    for (uint32_t part = 0, brow = row * a.pack; part < a.pack; ++part, ++brow, out += E) {
                        if (col < o.block_width && brow < o.block_height)
                            std::memcpy(out, blocks + brow * pitch + (size_t(b) * o.block_width + col) * E,
                                        E);
                        else
                            std::memset(out, 0, E);  // padding
                    }
                }
}

// executeLoad's mapping on the clean device for wholeBlocks() memory: no element is out of bounds, so each
// part is read straight from memory and padding is zero.
void loadDirect(const uint8_t* blocks, const Operands& o, const Assigned& a, uint32_t sg, LaneBuffer& dst) {
    const uint32_t e = o.element_size;
    const size_t pitch = size_t(o.memory_pitch);
    if (a.cols >= sg && o.opcode == kOpLoad) return loadRuns(blocks, o, a, sg, dst);
    if (a.cols >= sg && o.opcode == kOpLoadTransform)
        return e == 1 ? transformRuns<1>(blocks, o, a, sg, dst) : transformRuns<2>(blocks, o, a, sg, dst);
    for (uint32_t b = 0; b < o.block_count; ++b)
        for (uint32_t row = 0; row < a.rows; ++row)
            for (uint32_t col = 0; col < a.cols; ++col) {
                uint32_t lane, slot;
                laneSlot(a, sg, row, col, false, &lane, &slot);
                uint8_t* out = dst.lane(lane) + (size_t(b) * a.per_lane + slot) * a.element_bytes;
                for (uint32_t part = 0; part < a.pack; ++part, out += e) {
                    uint32_t brow = row, bcol = col;
                    if (o.opcode == kOpLoadTranspose) brow = col, bcol = row;
                    if (o.opcode == kOpLoadTransform) brow = row * a.pack + part;
                    if (brow >= o.block_height || bcol >= o.block_width)
                        std::memset(out, 0, e);
                    else
                        copyElement(out, blocks + brow * pitch + (size_t(b) * o.block_width + bcol) * e, e);
                }
            }
}

// Planted faults that show only in a sub-group of 32 (the 2d_block_io.sg32.* cases), applied to every lane's
// private data after a plain load (to_memory false) or before a store (to_memory true).
//  - sg32_second_half_gets_first_half_rows: lanes 16-31 receive (load) or supply (store) lanes 0-15's data.
//  - sg32_old_igc_layout: the lowering of IGC before 2.38, which kept the SIMD16 message and halved its
//    per-lane result type: the block's payload is laid out as at 16 lanes (lane i's unit j at payload unit
//    16 j + i, a unit being the run of a 16-lane row, e.g. two bytes of a 1-byte block 32 wide) and read back
//    32 lanes wide (lane l's unit j is payload unit 32 j + l). For a 1-byte block 32 wide lane 0 gets (row,
//    column) (0,0), (0,1), (2,0), (2,1) instead of (0,0), (1,0), (2,0), (3,0). Blocks at most 16 wide map
//    the same either way (their payload is row-major in element units at both sizes), so only wider ones
//    change.
void sg32Faults(const Faults& faults, const Operands& o, uint32_t sg, LaneBuffer& lanes, size_t lane_bytes,
                bool to_memory) {
    if (sg != 32) return;
    if (faults.has("sg32_old_igc_layout") && o.opcode != kOpLoadTransform && o.opcode != kOpLoadTranspose) {
        const Assigned a32 = assigned(o, 32), a16 = assigned(o, 16);
        const uint32_t e = o.element_size;
        const size_t unit = size_t(e) * (a16.cols / 16),
                     lane16_bytes = size_t(a16.per_lane) * e * o.block_count;
        // A lane's share smaller than one 16-lane unit (one row of 1-byte x 32: one byte per lane) has
        // nothing to regroup.
        if (a32.cols > 16 && (size_t(a32.rows) * a32.cols) % 32 == 0 && lane_bytes % unit == 0) {
            std::vector<uint8_t> simd16(16 * lane16_bytes);
            // Element (b, row, col) in the 16-lane layout and in the 32-lane one.
            auto each = [&](auto&& f) {
                for (uint32_t b = 0; b < o.block_count; ++b)
                    for (uint32_t row = 0; row < a32.rows; ++row)
                        for (uint32_t col = 0; col < a32.cols; ++col) {
                            uint32_t l32, s32, l16, s16;
                            laneSlot(a32, 32, row, col, false, &l32, &s32);
                            laneSlot(a16, 16, row, col, false, &l16, &s16);
                            f(lanes.lane(l32) + (size_t(b) * a32.per_lane + s32) * e,
                              simd16.data() + l16 * lane16_bytes + (size_t(b) * a16.per_lane + s16) * e);
                        }
            };
            // The payload unit p = 32 j + l read as lane l's unit j, in the 16-lane layout p % 16's p / 16.
            auto payload = [&](auto&& f) {
                for (uint32_t l = 0; l < 32; ++l)
                    for (size_t j = 0; (j + 1) * unit <= lane_bytes; ++j) {
                        const size_t p = j * 32 + l;
                        if ((p / 16 + 1) * unit <= lane16_bytes)
                            f(lanes.lane(l) + j * unit,
                              simd16.data() + (p % 16) * lane16_bytes + (p / 16) * unit);
                    }
            };
            if (!to_memory) {
                each([e](uint8_t* lane, uint8_t* wide) { std::memcpy(wide, lane, e); });
                payload([unit](uint8_t* lane, uint8_t* wide) { std::memcpy(lane, wide, unit); });
            } else {
                payload([unit](uint8_t* lane, uint8_t* wide) { std::memcpy(wide, lane, unit); });
                each([e](uint8_t* lane, uint8_t* wide) { std::memcpy(lane, wide, e); });
            }
        }
    }
    if (faults.has("sg32_second_half_gets_first_half_rows"))
        for (uint32_t l = 16; l < 32; ++l) std::memcpy(lanes.lane(l), lanes.lane(l - 16), lane_bytes);
}

}  // namespace

std::string unsupportedShape(uint32_t opcode, uint32_t e, uint32_t w, uint32_t h, uint32_t c) {
    if (!w || !h || !c) return "zero Block Width, Height or Count";
    // Range first, so that the arithmetic below cannot overflow (a Block Width above 2^31 used to hang
    // ceilPow2, and 2^30 wrapped the row bytes to 0).
    if (e != 1 && e != 2 && e != 4 && e != 8)
        return "Element Size " + std::to_string(e) + " is not 1, 2, 4 or 8 bytes";
    if (w > kMaxBlockWidth)
        return "Block Width " + std::to_string(w) + " is above " + std::to_string(kMaxBlockWidth) +
               " elements (no supported block has more than 64 bytes per row)";
    if (h > kMaxBlockHeight)
        return "Block Height " + std::to_string(h) + " is above " + std::to_string(kMaxBlockHeight) + " rows";
    if (c > kMaxBlockCount)
        return "Block Count " + std::to_string(c) + " is above " + std::to_string(kMaxBlockCount);
    const uint64_t row_bytes = ceilPow2(w) * e * c;  // at most 64 * 8 * 4
    switch (opcode) {
        case kOpLoad:
        case kOpPrefetch:
            if (c != 1 && c != 2 && c != 4) return "Block Count must be 1, 2 or 4";
            if (h > 32 || row_bytes > 64) return "more than 32 rows or 64 bytes per row";
            return "";
        case kOpLoadTransform:
            if (e != 1 && e != 2) return "transform needs 1- or 2-byte elements";
            if (c != 1 && c != 2 && c != 4) return "Block Count must be 1, 2 or 4";
            if (h > 32 || row_bytes > 64) return "more than 32 rows or 64 bytes per row";
            return "";
        case kOpLoadTranspose:
            if (e != 4 && e != 8) return "transpose needs 4- or 8-byte elements";
            if (c != 1) return "transpose needs Block Count 1";
            if (h > 32 || w * e > 32) return "more than 32 rows or 32 bytes per row";
            return "";
        case kOpStore:
            if (c != 1) return "store needs Block Count 1";
            if (h > 8 || row_bytes > 64) return "more than 8 rows or 64 bytes per row";
            return "";
    }
    return "unknown instruction";
}

// prefetch_serves_next_load: a prefetch records (base, coordinate) in fault state slots 1-2; the next load
// from that base takes the recorded coordinate.
void recordPrefetch(OpContext& ctx, const Operands& o) {
    uint64_t *base = ctx.faultState(1), *coord = ctx.faultState(2);
    if (!base || !coord || !ctx.faults().has("prefetch_serves_next_load")) return;
    *base = o.base;
    *coord = uint64_t(uint32_t(o.x)) | uint64_t(uint32_t(o.y)) << 32;
}

void servedFromPrefetch(OpContext& ctx, Operands* o) {
    uint64_t *base = ctx.faultState(1), *coord = ctx.faultState(2);
    if (!base || !coord || *base == 0 || *base != o->base || !ctx.faults().has("prefetch_serves_next_load"))
        return;
    o->x = int32_t(uint32_t(*coord)), o->y = int32_t(uint32_t(*coord >> 32));
    *base = 0;
}

// Each lane's bytes of a load's blocks (lane_bytes each) into `dst`, which holds the bytes to keep where the
// spec leaves a slot undefined. False after reporting an error.
bool loadLanes(OpContext& ctx, Operands o, LaneBuffer& dst, size_t lane_bytes) {
    const Faults& faults = ctx.faults();
    const uint32_t sg = ctx.lanes();
    servedFromPrefetch(ctx, &o);
    // A one-row multi-block load mapped (wrongly) as one block as wide as all blocks together.
    bool one_wide = faults.has("one_row_multiblock_noncontiguous") && o.opcode == kOpLoad &&
                    o.block_height == 1 && o.block_count > 1;
    Operands shape = o;
    if (one_wide) shape.block_width = o.block_width * o.block_count, shape.block_count = 1;
    const Assigned a = assigned(shape, sg);
    const Assigned real = assigned(o, sg);
    // Planted faults change the element-wise path only; the clean device reads in-bounds blocks directly.
    if (const uint8_t* blocks = faults.any() ? nullptr : wholeBlocks(ctx, o, 1, false)) {
        loadDirect(blocks, o, real, sg, dst);
        return true;
    }

    Surface surface{o, faults};
    const bool stale_oob = faults.has("oob_load_stale"), stale_padding = faults.has("padding_not_zeroed");
    const bool swapped = faults.has("transform_row_order_swapped");
    const bool h32 = faults.has("transpose_h32_interleave_wrong") && o.opcode == kOpLoadTranspose;
    const bool interleaved = faults.has("blocks_row_interleaved");
    const bool group_granular = faults.has("oob_check_4byte_granularity") && o.opcode == kOpLoadTransform;
    const uint32_t part_bytes = o.element_size;

    for (uint32_t b = 0; b < shape.block_count; ++b)
        for (uint32_t row = 0; row < a.rows; ++row)
            for (uint32_t col = 0; col < a.cols; ++col) {
                uint32_t lane, slot;
                laneSlot(a, sg, row, col, h32, &lane, &slot);
                uint32_t index = interleaved ? slot * o.block_count + b : b * a.per_lane + slot;
                uint8_t* out = dst.lane(lane) + size_t(index) * a.element_bytes;
                if (size_t(index + 1) * a.element_bytes > lane_bytes) continue;  // only under one_wide
                for (uint32_t part = 0; part < a.pack; ++part) {
                    uint32_t brow = row, bcol = col;
                    if (o.opcode == kOpLoadTranspose) brow = col, bcol = row;
                    if (o.opcode == kOpLoadTransform) brow = row * a.pack + part;
                    uint32_t fb = b;
                    if (one_wide) fb = bcol / o.block_width, bcol %= o.block_width;
                    uint64_t v;
                    Fetch f = surface.fetch(ctx, fb, brow, bcol, &v);
                    if (f == Fetch::Error) return false;
                    if (f == Fetch::Data && group_granular) {
                        // The hardware note: out-of-bounds judged per packed row group.
                        int64_t last_row = o.y + int64_t(row) * a.pack + a.pack - 1;
                        if (last_row >= o.memory_height) f = Fetch::OutOfBounds, v = 0;
                    }
                    if ((f == Fetch::OutOfBounds && stale_oob) || (f == Fetch::Padding && stale_padding))
                        continue;
                    // Lower-numbered rows go to the lower bits of a packed value.
                    uint32_t position = swapped && a.pack > 1 ? a.pack - 1 - part : part;
                    std::memcpy(out + position * part_bytes, &v, part_bytes);
                }
            }
    sg32Faults(faults, o, sg, dst, lane_bytes, false);
    return true;
}

void executeLoad(OpContext& ctx) {
    Operands o;
    if (!decode(ctx, &o)) return;
    const uint32_t sg = ctx.lanes();
    const Assigned real = assigned(o, sg);
    const size_t lane_bytes = size_t(real.per_lane) * real.element_bytes * o.block_count;
    LaneBuffer dst(sg, lane_bytes);
    if (o.private_k == UINT32_MAX) {
        // An extended block read: each lane's share of the blocks is its result.
        const uint32_t result_bytes = ctx.resultType().byte_size;
        if (result_bytes != lane_bytes)
            return ctx.undefinedBehavior(0, std::string(opName(ctx.opcode())) + ": the result type has " +
                                                std::to_string(result_bytes) +
                                                " bytes, the block gives each " + "work-item " +
                                                std::to_string(lane_bytes));
        for (uint32_t l = 0; l < sg; ++l) std::memset(dst.lane(l), 0, lane_bytes);
        if (!loadLanes(ctx, o, dst, lane_bytes)) return;
        for (uint32_t l = 0; l < sg; ++l) std::memcpy(ctx.result(l), dst.lane(l), lane_bytes);
        return;
    }
    // Start from the destination's current bytes: slots the spec leaves undefined are not written.
    for (uint32_t l = 0; l < sg; ++l) {
        const uint8_t* p = ctx.memory(l, ctx.getUint(l, o.private_k), lane_bytes, false);
        if (!p) return;
        std::memcpy(dst.lane(l), p, lane_bytes);
    }
    if (loadLanes(ctx, o, dst, lane_bytes)) writeBack(ctx, o, dst, sg, lane_bytes);
}

void executePrefetch(OpContext& ctx) {
    Operands o;
    if (!decode(ctx, &o)) return;
    recordPrefetch(ctx, o);
    // A prefetch has no effect on memory or on any invocation. The planted fault touches every address of
    // the block, in bounds or not.
    if (!ctx.faults().has("prefetch_touches_oob")) return;
    Surface surface{o, ctx.faults()};
    for (uint32_t b = 0; b < o.block_count; ++b)
        for (uint32_t r = 0; r < o.block_height; ++r)
            for (uint32_t c = 0; c < o.block_width; ++c) {
                int64_t offset;
                surface.locate(b, r, c, false, &offset);
                if (!ctx.memory(0, o.base + uint64_t(offset), o.element_size, false)) return;
            }
}

void executeStore(OpContext& ctx) {
    Operands o;
    if (!decode(ctx, &o)) return;
    const uint32_t sg = ctx.lanes();
    const Assigned a = assigned(o, sg);
    const size_t lane_bytes = size_t(a.per_lane) * a.element_bytes * o.block_count;
    LaneBuffer src(sg, lane_bytes);
    for (uint32_t l = 0; l < sg; ++l) {
        const uint8_t* p = ctx.memory(l, ctx.getUint(l, o.private_k), lane_bytes, false);
        if (!p) return;
        std::memcpy(src.lane(l), p, lane_bytes);
    }
    sg32Faults(ctx.faults(), o, sg, src, lane_bytes, true);
    Surface surface{o, ctx.faults()};
    const bool writes_all = ctx.faults().has("store_writes_oob_or_padding");
    // A store whose padded block is narrower than the sub-group (lanes hold elements of several rows) writes
    // block row 0 only (the shapes Triton keeps off the SPIR-V path, docs/known_driver_bugs.md).
    const bool narrow_drops_rows = ctx.faults().has("store_narrow_block_drops_rows") && a.cols < sg;
    // Every lane writes its own elements, so every lane must be able to reach the blocks' memory.
    if (uint8_t* blocks = ctx.faults().any() ? nullptr : wholeBlocks(ctx, o, sg, true)) {
        for (uint32_t row = 0; row < a.rows; ++row)
            for (uint32_t col = 0; col < a.cols; ++col) {
                // Padded elements are ignored; Block Count is 1 for stores.
                if (col >= o.block_width || row >= o.block_height) continue;
                uint32_t lane, slot;
                laneSlot(a, sg, row, col, false, &lane, &slot);
                std::memcpy(blocks + size_t(row) * size_t(o.memory_pitch) + size_t(col) * o.element_size,
                            src.lane(lane) + size_t(slot) * o.element_size, o.element_size);
            }
        return;
    }
    for (uint32_t b = 0; b < o.block_count; ++b)
        for (uint32_t row = 0; row < a.rows; ++row)
            for (uint32_t col = 0; col < a.cols; ++col) {
                uint32_t lane, slot;
                laneSlot(a, sg, row, col, false, &lane, &slot);
                int64_t offset;
                bool write;
                if (col >= o.block_width || row >= o.block_height) {
                    // "For stores, the value of any padded elements is ignored."
                    write = writes_all && surface.locate(b, row, col, false, &offset) && offset >= 0;
                } else if (surface.locate(b, row, col, true, &offset)) {
                    write = true;
                } else {
                    // "For prefetches and stores, any out-of-bounds elements are ignored."
                    surface.locate(b, row, col, false, &offset);
                    write = writes_all && o.x >= 0 && o.y >= 0;
                }
                if (!write || (narrow_drops_rows && row > 0)) continue;
                uint8_t* p = ctx.memory(lane, o.base + uint64_t(offset), o.element_size, true);
                if (!p) return;
                std::memcpy(p, src.lane(lane) + (size_t(b) * a.per_lane + slot) * o.element_size,
                            o.element_size);
            }
}

}  // namespace refdev::spirv::block_io_2d

namespace refdev::spirv {

// cl_intel_subgroup_extended_block_read's built-ins at build: a block shape this device's 2D block reads do
// not support (the 16-wide 32-bit and 8-wide 64-bit transposes, which Intel's compiler takes only from Xe3P
// on) fails the build, naming the shape.
template <uint32_t Op>
std::string checkExtendedRead(const ExtBuildView& view) {
    using namespace block_io_2d;
    uint32_t shape[4] = {};
    for (uint32_t k = 0; k < 4; ++k) {
        if (view.int_constant.size() <= k || !view.int_constant[k])
            return std::string(opName(Op)) + ": the block shape must be constant";
        shape[k] = uint32_t(view.int_value[k]);
    }
    std::string why = unsupportedShape(spirvLoad(Op), shape[0], shape[1], shape[2], shape[3]);
    return why.empty() ? why : std::string(opName(Op)) + ": block shape not supported by this device: " + why;
}

void register2dBlockIoOps(ExtOpTable& table) {
    using namespace block_io_2d;
    // Transform and transpose capabilities implicitly declare Subgroup2DBlockIOINTEL.
    const std::vector<uint32_t> io = {kCapabilityIo, kCapabilityTransform, kCapabilityTranspose};
    table.add({kOpLoad, "OpSubgroup2DBlockLoadINTEL", false, 10, 10, UINT32_MAX, io, executeLoad});
    table.add({kOpLoadTransform,
               "OpSubgroup2DBlockLoadTransformINTEL",
               false,
               10,
               10,
               UINT32_MAX,
               {kCapabilityTransform},
               executeLoad});
    table.add({kOpLoadTranspose,
               "OpSubgroup2DBlockLoadTransposeINTEL",
               false,
               10,
               10,
               UINT32_MAX,
               {kCapabilityTranspose},
               executeLoad});
    table.add({kOpPrefetch, "OpSubgroup2DBlockPrefetchINTEL", false, 9, 9, UINT32_MAX, io, executePrefetch});
    table.add({kOpStore, "OpSubgroup2DBlockStoreINTEL", false, 10, 10, UINT32_MAX, io, executeStore});
    // cl_intel_subgroup_extended_block_read (OpenCL C only, reached through its built-ins): Element Size,
    // Block Width, Block Height, Block Count, then the built-in's base, width, height, pitch and coord.
    table.add({kOpExtendedRead,
               opName(kOpExtendedRead),
               true,
               9,
               9,
               UINT32_MAX,
               {},
               executeLoad,
               checkExtendedRead<kOpExtendedRead>});
    table.add({kOpExtendedReadTransform,
               opName(kOpExtendedReadTransform),
               true,
               9,
               9,
               UINT32_MAX,
               {},
               executeLoad,
               checkExtendedRead<kOpExtendedReadTransform>});
    table.add({kOpExtendedReadTranspose,
               opName(kOpExtendedReadTranspose),
               true,
               9,
               9,
               UINT32_MAX,
               {},
               executeLoad,
               checkExtendedRead<kOpExtendedReadTranspose>});
}

REFDEV_REGISTER_EXT_OPS("2d_block_io", register2dBlockIoOps);

}  // namespace refdev::spirv
