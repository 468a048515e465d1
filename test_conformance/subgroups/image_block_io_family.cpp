// subgroups.image_block_read / subgroups.image_block_write: OpSubgroupImageBlockReadINTEL /
// OpSubgroupImageBlockWriteINTEL on a 2D image.
//
// Kernel (scripts/assets/generators/subgroups.py): image, info, data, coords. Sub-group block
// b = WorkgroupId * NumSubgroups + SubgroupId uses Coordinate (coords[2b], coords[2b+1]) = (x in bytes, row).
// The image (and the written data) hold seeded channel values of the image's format, every other one a
// value a format conversion would change (fillDistinctiveChannels): block IO moves raw bits. Reads are
// compared lane by lane, writes by reading the whole image back (every texel outside the written blocks, and
// every dropped out-of-bounds texel, must be unchanged). With "backing": "buffer" the image is created from
// a buffer (cl_khr_image2d_from_buffer) at the smallest legal row pitch above the row's bytes, and writes
// are checked in the buffer, the bytes between the rows included.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "test_common/cl/device_info.h"
#include "test_common/cl/image_formats.h"
#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/model/param_fields.h"
#include "test_common/reference/subgroups.h"
#include "test_conformance/subgroups/common.h"
#include "test_conformance/subgroups/families.h"

namespace cts::subgroups {
namespace {

struct ImageCase : SubgroupGrid {
    bool write;
    ComponentType type;
    uint32_t width;
    NamedImageFormat format;
    bool wide;
    // The scale sizes: CL_DEVICE_IMAGE2D_MAX_WIDTH texels wide (or MAX_HEIGHT rows high), the other side
    // tight, so blocks at the far edges are addressed while the image stays small.
    bool max_width, max_height;
    std::string coords;
    bool from_buffer;

    static ImageCase fromParams(const Params& params);
};

// The manifest's parameters as scripts/assets/generators/subgroups.py writes them, each declared once in
// imageFields(): the family's schema and fromParams' reading follow from that table.
struct ImageParams {
    std::string op, type;
    uint32_t width = 0, sg = 0;
    std::string format, size, coords;
    uint64_t local = 0, groups = 0;
    std::optional<std::string> backing;
};

const ParamFields<ImageParams>& imageFields() {
    static const ParamFields<ImageParams> fields{
        {"op", &ImageParams::op},          {"type", &ImageParams::type},     {"width", &ImageParams::width},
        {"sg", &ImageParams::sg},          {"format", &ImageParams::format}, {"size", &ImageParams::size},
        {"coords", &ImageParams::coords},  {"local", &ImageParams::local},   {"groups", &ImageParams::groups},
        {"backing", &ImageParams::backing}};
    return fields;
}

ImageCase ImageCase::fromParams(const Params& params) {
    const ImageParams p = readFields(params, imageFields());
    ImageCase c{};
    if (p.op != "image_block_read" && p.op != "image_block_write")
        throw InternalError("unknown image block op '" + p.op + "'");
    c.write = p.op == "image_block_write";
    c.type = componentType(p.type);
    c.width = p.width;
    c.sg = p.sg;
    c.format = namedImageFormat(p.format);
    if (p.size != "size_tight" && p.size != "size_wide" && p.size != "size_max_width" &&
        p.size != "size_max_height")
        throw InternalError("unknown image size '" + p.size + "'");
    c.wide = p.size == "size_wide";
    c.max_width = p.size == "size_max_width";
    c.max_height = p.size == "size_max_height";
    c.coords = p.coords;
    c.local = p.local;
    c.groups = p.groups;
    const std::string backing = p.backing.value_or("image");
    if (backing != "image" && backing != "buffer") throw InternalError("unknown backing '" + backing + "'");
    c.from_buffer = backing == "buffer";
    if (c.sg == 0 || c.local % c.sg != 0 || c.groups == 0)
        throw InternalError("image block IO needs work-groups of whole sub-groups");
    return c;
}

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

// The image's size: row bytes and rows around the blocks (wide: with room to spare), or at the device's
// maximum for the scale sizes; one block of sg * component bytes per sub-group.
struct ImageGeometry {
    int32_t blocks, block_bytes, image_bytes, height;
    uint32_t texel;

    static ImageGeometry of(const ImageCase& c, const DeviceInfo& device) {
        ImageGeometry g{};
        g.blocks = int32_t(c.groups * c.subGroupsPerGroup());
        g.block_bytes = int32_t(c.sg * c.type.bytes);
        g.texel = c.format.texel_bytes;
        const int32_t texel = int32_t(g.texel);
        // Rounded up to whole texels (8- and 16-byte texels).
        g.image_bytes = (g.blocks * g.block_bytes + 8 + (c.wide ? 64 : 0) + texel - 1) / texel * texel;
        g.height = g.blocks * int32_t(c.width + 1) + 3 + (c.wide ? 8 : 0);
        // Coordinates are 32-bit: a maximum beyond 2^30 bytes or rows would leave no room for beyond_*
        // blocks.
        if ((c.max_width && device.image2d_max_width * g.texel > (size_t(1) << 30)) ||
            (c.max_height && device.image2d_max_height > (size_t(1) << 30)))
            throw InternalError("CL_DEVICE_IMAGE2D_MAX_WIDTH/HEIGHT too large for 32-bit coordinates");
        if (c.max_width) g.image_bytes = int32_t(device.image2d_max_width * g.texel);
        if (c.max_height) g.height = int32_t(device.image2d_max_height);
        if (g.image_bytes % g.texel != 0) throw InternalError("image row is not a whole number of texels");
        return g;
    }
};

// The host model of the image: seeded distinctive channels, rows at the pitch the backing needs.
reference::ImageBytes seededImage(const ImageCase& c, const ImageGeometry& g, const DeviceInfo& device,
                                  Rng& rng) {
    reference::ImageBytes model{
        uint32_t(g.image_bytes / g.texel),
        uint32_t(g.height),
        g.texel,
        c.from_buffer ? bufferRowPitch(device, size_t(g.image_bytes), g.texel) : size_t(g.image_bytes),
        {}};
    model.data.resize(model.row_pitch * g.height);
    auto random = [&rng] { return rng.next(); };
    fillDistinctiveChannels(c.format, model.data.data(), model.data.size(), random);
    return model;
}

// One launch of the kernel (image, info, data, coords): the image and its model, the block coordinates, the
// lanes' components (writes: seeded) and the info records. The members are built in declaration order, so
// the seed gives the image data first, then the lane data, and the image exists before the kernel.
struct ImageBlockLaunch {
    ImageBlockLaunch(RunContext& ctx, const CaseSpec& spec, const ImageCase& c)
        : geometry(ImageGeometry::of(c, ctx.device)),
          rng(ctx.seed),
          model(seededImage(c, geometry, ctx.device, rng)),
          xy(blockCoordinates(c, geometry.blocks, geometry.block_bytes, geometry.image_bytes,
                              geometry.height)),
          image(createImage(ctx, c, model, &buffer)),
          kernel(createKernel(ctx, spec.module, spec.kernel)),
          data(ctx, c.global() * c.width * c.type.bytes),
          info(ctx, c.global() * 16),
          coords(ctx, xy.size() * 4) {
        coords.write(xy.data(), xy.size() * 4);
        if (c.write) {
            // Components of 4 bytes or more hold whole channels at channel-aligned image offsets (x is a
            // multiple of 4), so the image receives distinctive channel values.
            lane_data.resize(data.size());
            auto random = [this] { return rng.next(); };
            fillDistinctiveChannels(c.format, lane_data.data(), lane_data.size(), random);
            data.write(lane_data.data(), lane_data.size());
        }
    }

    void run(RunContext& ctx, const CaseSpec& spec, const ImageCase& c) {
        cl_mem image_mem = image.get();
        KernelArgs args(kernel, spec);
        args.set("image", image_mem);
        args.set("info", info.mem());
        args.set("data", data.mem());
        args.set("coords", coords.mem());
        c.run(ctx, args);
    }

    // The image's bytes after the launch, row pitch included: from the buffer behind it, or read back.
    std::vector<uint8_t> readImage(RunContext& ctx, const ImageCase& c) const {
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
        return actual;
    }

    // " (block b at x X bytes, y Y)"
    std::string blockText(size_t block) const {
        return " (block " + std::to_string(block) + " at x " + std::to_string(xy[2 * block]) + " bytes, y " +
               std::to_string(xy[2 * block + 1]) + ")";
    }

    const ImageGeometry geometry;
    Rng rng;
    const reference::ImageBytes model;  // the image before the launch
    const std::vector<int32_t> xy;      // block b's coordinate: (xy[2b] bytes, xy[2b + 1] rows)
    MemHandle buffer;                   // backing "buffer": the buffer the image views
    MemHandle image;
    KernelHandle kernel;
    GuardedBuffer data, info, coords;
    std::vector<uint8_t> lane_data;  // writes: the components written to `data` before the launch
};

// Reads: every defined component of every lane against the image model.
void checkReads(RunContext& ctx, const ImageCase& c, const ImageBlockLaunch& launch, const SubgroupMap& map,
                MismatchLog& log) {
    log.setRule(
        "OpSubgroupImageBlockReadINTEL: lane L component j = bytes at x + L*size in row y + j, "
        "clamped to the edge for 4-byte texels");
    const unsigned bytes = c.type.bytes;
    const std::vector<int32_t>& xy = launch.xy;
    std::vector<uint8_t> result = launch.data.read();
    dumpBytes(ctx, "out_lanes", result.data(), result.size());
    for (size_t gid = 0; gid < c.global(); ++gid) {
        const SubgroupMap::Item& it = map.items[gid];
        const size_t block = c.blockOf(map, gid);
        for (uint32_t j = 0; j < c.width; ++j) {
            auto expected = reference::imageBlockReadComponent(launch.model, xy[2 * block], xy[2 * block + 1],
                                                               it.lane, j, bytes);
            if (!expected) {
                log.skipped();  // out of bounds of a texel size other than 4 bytes: undefined
                continue;
            }
            uint64_t actual = loadComponent(result.data(), gid * c.width + j, bytes);
            if (*expected == actual) {
                log.checked();
                continue;
            }
            compare(log, where(gid / c.local, it.sub_group, it.lane, j) + launch.blockText(block), c.type,
                    *expected, actual, LaneCell{gid / c.local, it.sub_group, it.lane, j, c.sg, c.width});
        }
    }
}

// The image model after every lane's writes; a case that writes an undefined location is an InternalError.
reference::ImageBytes expectedAfterWrites(const ImageCase& c, const ImageBlockLaunch& launch,
                                          const SubgroupMap& map) {
    const unsigned bytes = c.type.bytes;
    reference::ImageBytes expected = launch.model;
    for (size_t gid = 0; gid < c.global(); ++gid) {
        const SubgroupMap::Item& it = map.items[gid];
        const size_t block = c.blockOf(map, gid);
        for (uint32_t j = 0; j < c.width; ++j) {
            uint64_t v = loadComponent(launch.lane_data.data(), gid * c.width + j, bytes);
            auto effect = reference::imageBlockWriteComponent(expected, launch.xy[2 * block],
                                                              launch.xy[2 * block + 1], it.lane, j, bytes, v);
            if (effect == reference::ImageWriteEffect::Undefined)
                throw InternalError("case writes an undefined image location" + launch.blockText(block));
        }
    }
    return expected;
}

// Writes: every byte of the image (row pitch gaps included) against the model after the writes.
void checkWrites(RunContext& ctx, const ImageCase& c, const ImageBlockLaunch& launch, const SubgroupMap& map,
                 MismatchLog& log) {
    log.setRule(
        "OpSubgroupImageBlockWriteINTEL: lane L component j -> bytes at x + L*size in row y + j; "
        "out-of-bounds 4-byte texels dropped; nothing else changes");
    const reference::ImageBytes expected = expectedAfterWrites(c, launch, map);
    const reference::ImageBytes& model = launch.model;
    const int32_t pitch = int32_t(model.row_pitch), height = launch.geometry.height;
    const std::vector<uint8_t> actual = launch.readImage(ctx, c);
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
                        (x >= launch.geometry.image_bytes
                             ? " (row pitch gap)"
                             : " (texel " + std::to_string(x / int32_t(launch.geometry.texel)) + ")") +
                        (expected.data[i] == model.data[i] ? " not written by any lane" : ""),
                    byte_type, expected.data[i], actual[i]);
            log.mark(GridShape{"image after the writes: rows x bytes", uint32_t(height), uint32_t(pitch),
                               "image row", "byte"},
                     uint32_t(y), uint32_t(x), expected.data[i], actual[i], 1);
        }
}

class ImageBlockIoFamily : public Family {
public:
    std::string name() const override { return "subgroups.image_block_io"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema = schemaOf(imageFields());
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
        ImageBlockLaunch launch(ctx, spec, c);
        launch.run(ctx, spec, c);

        for (const GuardedBuffer* g : {&launch.data, &launch.info}) {
            std::string guard = g->checkGuards();
            if (!guard.empty()) return Outcome::fail(guard);
        }
        std::vector<uint8_t> info_bytes = launch.info.read();
        dumpBytes(ctx, "in_image", launch.model.data.data(), launch.model.data.size());
        dumpBytes(ctx, "in_coords", launch.xy.data(), launch.xy.size() * 4);
        dumpBytes(ctx, "in_lanes", launch.lane_data.data(), launch.lane_data.size());
        dumpBytes(ctx, "out_info", info_bytes.data(), info_bytes.size());
        SubgroupMap map;
        if (std::string bad = c.mapSubGroups(info_bytes, &map); !bad.empty()) return Outcome::fail(bad);
        if (std::string bad = c.partialSubGroup(map); !bad.empty()) return Outcome::fail(bad);

        MismatchLog log;
        if (c.write)
            checkWrites(ctx, c, launch, map, log);
        else
            checkReads(ctx, c, launch, map, log);
        return log.outcome();
    }
};

}  // namespace

std::unique_ptr<Family> makeImageBlockIoFamily() {
    return std::make_unique<ImageBlockIoFamily>();
}

}  // namespace cts::subgroups
