// subgroups.image_block_read / subgroups.image_block_write: OpSubgroupImageBlockReadINTEL /
// OpSubgroupImageBlockWriteINTEL on a 2D image.
//
// Kernel (scripts/generators/subgroups.py): image, info, data, coords. Sub-group block
// b = WorkgroupId * NumSubgroups + SubgroupId uses Coordinate (coords[2b], coords[2b+1]) = (x in bytes, row).
// The image (and the written data) hold seeded channel values of the image's format, every other one a
// value a format conversion would change (fillDistinctiveChannels): block IO moves raw bits. Reads are
// compared lane by lane, writes by reading the whole image back (every texel outside the written blocks, and
// every dropped out-of-bounds texel, must be unchanged). With "backing": "buffer" the image is created from
// a buffer (cl_khr_image2d_from_buffer) at the smallest legal row pitch above the row's bytes, and writes
// are checked in the buffer, the bytes between the rows included.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "test_common/cl/device_info.h"
#include "test_common/cl/image_formats.h"
#include "test_common/harness/kernel_util.h"
#include "test_common/reference/subgroups.h"
#include "test_conformance/subgroups/common.h"
#include "test_conformance/subgroups/families.h"

namespace cts::subgroups {
namespace {

struct ImageCase {
    bool write;
    ComponentType type;
    uint32_t width, sg;
    NamedImageFormat format;
    bool wide;
    // The scale sizes: CL_DEVICE_IMAGE2D_MAX_WIDTH texels wide (or MAX_HEIGHT rows high), the other side
    // tight, so blocks at the far edges are addressed while the image stays small.
    bool max_width, max_height;
    std::string coords;
    size_t local, groups;
    bool from_buffer;

    static ImageCase fromParams(const Params& p) {
        ImageCase c{};
        std::string op = p.s("op");
        if (op != "image_block_read" && op != "image_block_write")
            throw InternalError("unknown image block op '" + op + "'");
        c.write = op == "image_block_write";
        c.type = componentType(p.s("type"));
        c.width = uint32_t(p.u("width"));
        c.sg = uint32_t(p.u("sg"));
        c.format = namedImageFormat(p.s("format"));
        std::string size = p.s("size");
        if (size != "size_tight" && size != "size_wide" && size != "size_max_width" &&
            size != "size_max_height")
            throw InternalError("unknown image size '" + size + "'");
        c.wide = size == "size_wide";
        c.max_width = size == "size_max_width";
        c.max_height = size == "size_max_height";
        c.coords = p.s("coords");
        c.local = p.u("local");
        c.groups = p.u("groups");
        const std::string backing = p.has("backing") ? p.s("backing") : "image";
        if (backing != "image" && backing != "buffer")
            throw InternalError("unknown backing '" + backing + "'");
        c.from_buffer = backing == "buffer";
        if (c.sg == 0 || c.local % c.sg != 0 || c.groups == 0)
            throw InternalError("image block IO needs work-groups of whole sub-groups");
        return c;
    }
};

// Block coordinates (x in bytes, y in rows) for one pattern. Blocks never overlap, so concurrent writes of
// different sub-groups never touch the same texel. All x are multiples of 4 (required for writes).
std::vector<int32_t> blockCoordinates(const ImageCase& c, int32_t blocks, int32_t block_bytes,
                                      int32_t image_bytes, int32_t height) {
    const int32_t n = int32_t(c.width);
    std::vector<int32_t> xy;
    for (int32_t b = 0; b < blocks; ++b) {
        int32_t x = 0, y = 0;
        const bool last = b == blocks - 1;
        if (c.coords == "interior") {  // a whole texel right of the block before (4 bytes for small texels)
            x = b * block_bytes + std::max(4, int32_t(c.format.texel_bytes));
            y = b * (n + 1) + 1;
        } else if (c.coords == "right_edge") {  // the block ends exactly at the right edge
            x = image_bytes - block_bytes;
            y = b * (n + 1);
        } else if (c.coords == "bottom_edge") {  // the last component reads the last row
            x = b * block_bytes;
            y = height - n;
        } else if (c.coords == "beyond_right") {  // half the block (the last one: all of it) beyond the edge
            // Half rounded down to a multiple of 4 bytes: a 4-byte block (u8 at sub-group size 4) cannot be
            // half inside with x a multiple of 4, so it lies wholly beyond the edge.
            x = last ? image_bytes + 8 : image_bytes - block_bytes / 2 / 4 * 4;
            y = b * (n + 1);
        } else if (c.coords == "beyond_bottom") {
            x = b * block_bytes;
            y = b % 2 == 0 ? height - n / 2 : height + 2;
        } else if (c.coords == "before_left_top") {  // negative coordinates
            x = last ? -(block_bytes + 8) : -4 * (b + 1);
            y = b == 0 ? -(n / 2 + 1) : b * (n + 1);
        } else {
            throw InternalError("unknown coordinate pattern '" + c.coords + "'");
        }
        xy.push_back(x);
        xy.push_back(y);
    }
    return xy;
}

// cl_khr_image2d_from_buffer: the row pitch must be a multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT pixels.
// The smallest such pitch larger than the row, so a device that steps rows by width * texel is caught.
size_t bufferRowPitch(const DeviceInfo& device, size_t row_bytes, size_t texel) {
    const size_t align = size_t(std::max<cl_uint>(device.image_pitch_alignment, 1)) * texel;
    size_t pitch = (row_bytes + align - 1) / align * align;
    return pitch == row_bytes ? pitch + align : pitch;
}

// The image holding model.data: copied from the host, or a view of a buffer holding it (*buffer).
MemHandle createImage(RunContext& ctx, const ImageCase& c, const reference::ImageBytes& model,
                      MemHandle* buffer) {
    cl_image_format format{c.format.order, c.format.type};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = model.width;
    desc.image_height = model.height;
    cl_int err = CL_SUCCESS;
    void* host = const_cast<uint8_t*>(model.data.data());
    MemHandle image;
    if (c.from_buffer) {
        buffer->reset(clCreateBuffer(ctx.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, model.data.size(),
                                     host, &err));
        checkInternal(err, "clCreateBuffer for the image");
        desc.image_row_pitch = model.row_pitch;
        desc.mem_object = buffer->get();
        image.reset(clCreateImage(ctx.context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err));
    } else {
        image.reset(
            clCreateImage(ctx.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &format, &desc, host, &err));
    }
    checkInternal(err, "clCreateImage(" + std::string(c.format.name) +
                           (c.from_buffer ? " from a buffer" : "") + ", " + std::to_string(model.width) +
                           "x" + std::to_string(model.height) +
                           (c.from_buffer ? ", row pitch " + std::to_string(model.row_pitch) : "") + ")");
    return image;
}

class ImageBlockIoFamily : public Family {
public:
    std::string name() const override { return "subgroups.image_block_io"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema{
            {"op", ParamType::String},     {"type", ParamType::String},
            {"width", ParamType::UInt},    {"sg", ParamType::UInt},
            {"format", ParamType::String}, {"size", ParamType::String},
            {"coords", ParamType::String}, {"local", ParamType::UInt},
            {"groups", ParamType::UInt},   {"backing", ParamType::String, kOptional}};
        return schema;
    }

    Outcome checkSupport(const CaseSpec& spec, const DeviceInfo& device) const override {
        if (spec.params.has("backing") && spec.params.s("backing") == "buffer" &&
            !device.hasExtension("cl_khr_image2d_from_buffer"))
            return Outcome::notSupported("images from buffers need cl_khr_image2d_from_buffer");
        return Outcome::pass();
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const ImageCase c = ImageCase::fromParams(spec.params);
        const unsigned bytes = c.type.bytes;
        const size_t global = c.local * c.groups;
        const size_t sgs_per_group = c.local / c.sg;
        const int32_t blocks = int32_t(c.groups * sgs_per_group);
        const int32_t block_bytes = int32_t(c.sg * bytes);
        const uint32_t texel = c.format.texel_bytes;
        // Rounded up to whole texels (8- and 16-byte texels).
        int32_t image_bytes = (blocks * block_bytes + 8 + (c.wide ? 64 : 0) + int32_t(texel) - 1) /
                              int32_t(texel) * int32_t(texel);
        int32_t height = blocks * int32_t(c.width + 1) + 3 + (c.wide ? 8 : 0);
        // Coordinates are 32-bit: a maximum beyond 2^30 bytes or rows would leave no room for beyond_*
        // blocks.
        if ((c.max_width && ctx.device.image2d_max_width * texel > (size_t(1) << 30)) ||
            (c.max_height && ctx.device.image2d_max_height > (size_t(1) << 30)))
            throw InternalError("CL_DEVICE_IMAGE2D_MAX_WIDTH/HEIGHT too large for 32-bit coordinates");
        if (c.max_width) image_bytes = int32_t(ctx.device.image2d_max_width * texel);
        if (c.max_height) height = int32_t(ctx.device.image2d_max_height);
        if (image_bytes % texel != 0) throw InternalError("image row is not a whole number of texels");
        Rng rng(ctx.seed);
        auto random = [&rng] { return rng.next(); };

        reference::ImageBytes model{
            uint32_t(image_bytes / texel),
            uint32_t(height),
            texel,
            c.from_buffer ? bufferRowPitch(ctx.device, size_t(image_bytes), texel) : size_t(image_bytes),
            {}};
        model.data.resize(model.row_pitch * height);
        fillDistinctiveChannels(c.format, model.data.data(), model.data.size(), random);
        std::vector<int32_t> xy = blockCoordinates(c, blocks, block_bytes, image_bytes, height);
        MemHandle buffer;
        MemHandle image = createImage(ctx, c, model, &buffer);

        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);
        const size_t comps = global * c.width;
        GuardedBuffer data(ctx, comps * bytes), info(ctx, global * 16), coords(ctx, xy.size() * 4);
        coords.write(xy.data(), xy.size() * 4);
        std::vector<uint8_t> lane_data;
        if (c.write) {
            // Components of 4 bytes or more hold whole channels at channel-aligned image offsets (x is a
            // multiple of 4), so the image receives distinctive channel values.
            lane_data.resize(comps * bytes);
            fillDistinctiveChannels(c.format, lane_data.data(), lane_data.size(), random);
            data.write(lane_data.data(), lane_data.size());
        }
        cl_mem image_mem = image.get();
        KernelArgs args(kernel, spec);
        args.set("image", image_mem);
        args.set("info", info.mem());
        args.set("data", data.mem());
        args.set("coords", coords.mem());
        runNDRange(ctx, args, 1, &global, &c.local);

        for (const GuardedBuffer* g : {&data, &info}) {
            std::string guard = g->checkGuards();
            if (!guard.empty()) return Outcome::fail(guard);
        }
        std::vector<uint8_t> info_bytes = info.read();
        dumpBytes(ctx, "in_image", model.data.data(), model.data.size());
        dumpBytes(ctx, "in_coords", xy.data(), xy.size() * 4);
        dumpBytes(ctx, "in_lanes", lane_data.data(), lane_data.size());
        dumpBytes(ctx, "out_info", info_bytes.data(), info_bytes.size());
        SubgroupMap map;
        std::string bad = buildSubgroupMap(info_bytes, c.local, c.groups, c.sg, &map);
        if (!bad.empty()) return Outcome::fail("work-item to sub-group mapping: " + bad);
        for (const SubgroupMap::Item& it : map.items)
            if (it.size != c.sg)
                return Outcome::fail(
                    "the device formed a partial sub-group (SubgroupSize " + std::to_string(it.size) +
                    ") from work-groups of whole sub-groups; block IO needs full sub-groups");
        auto blockOf = [&](size_t gid) { return (gid / c.local) * sgs_per_group + map.items[gid].sub_group; };
        auto blockText = [&](size_t block) {
            return " (block " + std::to_string(block) + " at x " + std::to_string(xy[2 * block]) +
                   " bytes, y " + std::to_string(xy[2 * block + 1]) + ")";
        };

        MismatchLog log;
        if (!c.write) {
            log.setRule(
                "OpSubgroupImageBlockReadINTEL: lane L component j = bytes at x + L*size in row y + j, "
                "clamped to the edge for 4-byte texels");
            std::vector<uint8_t> result = data.read();
            dumpBytes(ctx, "out_lanes", result.data(), result.size());
            for (size_t gid = 0; gid < global; ++gid) {
                const SubgroupMap::Item& it = map.items[gid];
                const size_t block = blockOf(gid);
                for (uint32_t j = 0; j < c.width; ++j) {
                    auto expected = reference::imageBlockReadComponent(model, xy[2 * block],
                                                                       xy[2 * block + 1], it.lane, j, bytes);
                    if (!expected) {
                        log.skipped();  // out of bounds of a texel size other than 4 bytes: undefined
                        continue;
                    }
                    uint64_t actual = loadComponent(result.data(), gid * c.width + j, bytes);
                    if (*expected == actual) {
                        log.checked();
                        continue;
                    }
                    compare(log, where(gid / c.local, it.sub_group, it.lane, j) + blockText(block), c.type,
                            *expected, actual,
                            LaneCell{gid / c.local, it.sub_group, it.lane, j, c.sg, c.width});
                }
            }
            return log.outcome();
        }

        log.setRule(
            "OpSubgroupImageBlockWriteINTEL: lane L component j -> bytes at x + L*size in row y + j; "
            "out-of-bounds 4-byte texels dropped; nothing else changes");
        reference::ImageBytes expected = model;
        for (size_t gid = 0; gid < global; ++gid) {
            const SubgroupMap::Item& it = map.items[gid];
            const size_t block = blockOf(gid);
            for (uint32_t j = 0; j < c.width; ++j) {
                uint64_t v = loadComponent(lane_data.data(), gid * c.width + j, bytes);
                auto effect = reference::imageBlockWriteComponent(expected, xy[2 * block], xy[2 * block + 1],
                                                                  it.lane, j, bytes, v);
                if (effect == reference::ImageWriteEffect::Undefined)
                    throw InternalError("case writes an undefined image location" + blockText(block));
            }
        }
        const int32_t pitch = int32_t(model.row_pitch);
        std::vector<uint8_t> actual(model.data.size());
        if (c.from_buffer) {
            checkCl(clEnqueueReadBuffer(ctx.queue, buffer, CL_TRUE, 0, actual.size(), actual.data(), 0,
                                        nullptr, nullptr),
                    "clEnqueueReadBuffer (the image's buffer)");
        } else {
            size_t origin[3] = {0, 0, 0}, region[3] = {model.width, model.height, 1};
            checkCl(clEnqueueReadImage(ctx.queue, image, CL_TRUE, origin, region, model.row_pitch, 0,
                                       actual.data(), 0, nullptr, nullptr),
                    "clEnqueueReadImage");
        }
        dumpBytes(ctx, "out_image", actual.data(), actual.size());
        const ComponentType byte_type = componentType("u8");
        for (int32_t y = 0; y < height; ++y)
            for (int32_t x = 0; x < pitch; ++x) {
                size_t i = size_t(y) * pitch + x;
                if (expected.data[i] == actual[i]) {
                    log.checked();
                    continue;
                }
                compare(log,
                        "row " + std::to_string(y) + " byte " + std::to_string(x) +
                            (x >= image_bytes ? " (row pitch gap)"
                                              : " (texel " + std::to_string(x / int32_t(texel)) + ")") +
                            (expected.data[i] == model.data[i] ? " not written by any lane" : ""),
                        byte_type, expected.data[i], actual[i]);
                log.mark(GridShape{"image after the writes: rows x bytes", uint32_t(height), uint32_t(pitch),
                                   "image row", "byte"},
                         uint32_t(y), uint32_t(x), expected.data[i], actual[i], 1);
            }
        return log.outcome();
    }
};

}  // namespace

std::unique_ptr<Family> makeImageBlockIoFamily() {
    return std::make_unique<ImageBlockIoFamily>();
}

}  // namespace cts::subgroups
