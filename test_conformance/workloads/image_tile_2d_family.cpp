// workloads.image_tile_2d.*: one sub-group moves one tile between a CL_R unsigned-integer image and a
// row-major buffer with both extensions (see scripts/assets/generators/workloads.py): image block read, add
// c(x) = 3 x + 1 per element, 2D block store (image_to_buffer), or 2D block load, add, image block write read
// back with clEnqueueReadImage (buffer_to_image). Every element inside the image (and, for 4-byte texels
// read into a buffer of whole tiles, the clamped edge texels right of it), the pitch gap of every buffer row
// (stores past Memory Width are dropped) and every work-item's done record are checked against plain host
// loops.
#include <algorithm>
#include <random>

#include "test_common/cl/device_info.h"
#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/model/param_fields.h"
#include "test_common/harness/selection/done_record.h"
#include "test_conformance/workloads/common.h"
#include "test_conformance/workloads/families.h"

namespace cts::workloads {
namespace {

constexpr uint32_t kSubGroup = 16;
// SPIR-V capability Subgroup2DBlockIOINTEL (SPV_INTEL_2d_block_io).
constexpr cl_uint kCapability2dBlockIo = 6228;

uint32_t align(uint32_t v, uint32_t a) {
    return (v + a - 1) / a * a;
}

// The element of column x after the kernel's per-element step: in + 3 x + 1, wrapping at the element width.
uint32_t transformed(uint32_t in, uint32_t x, unsigned e) {
    const uint32_t v = in + 3 * x + 1;
    return e == 4 ? v : v & ((1u << (8 * e)) - 1);
}

// The manifest's parameters, declared once in fields(); the schema and TileCase follow from it.
struct TileParams {
    std::string direction;
    uint32_t element_bytes = 0, tile_height = 0, width = 0, height = 0, sub_groups_per_work_group = 0;
};

const ParamFields<TileParams>& fields() {
    using P = TileParams;
    static const ParamFields<P> fields{
        {"direction", &P::direction},     {"element_bytes", &P::element_bytes},
        {"tile_height", &P::tile_height}, {"width", &P::width},
        {"height", &P::height},           {"sub_groups_per_work_group", &P::sub_groups_per_work_group}};
    return fields;
}

// A case's parameters and the sizes of the tiles, the image and the buffer that follow from them.
struct TileCase {
    bool to_buffer;
    unsigned e;                           // bytes per element and per texel
    uint32_t th, w, h, sgs;               // tile height, image width and height, sub-groups per work-group
    uint32_t tw, tiles_x, tiles;          // tile width, tiles per row, tiles in all
    uint32_t row_bytes, cols, mem_width;  // image row bytes, buffer columns, the 2D Memory Width in bytes
    uint32_t pitch;

    explicit TileCase(const Params& params) : TileCase(readFields(params, fields())) {}
    explicit TileCase(const TileParams& p)
        : to_buffer(p.direction == "image_to_buffer"),
          e(p.element_bytes),
          th(p.tile_height),
          w(p.width),
          h(p.height),
          sgs(p.sub_groups_per_work_group),
          tw(e == 1 ? 32 : 16),
          tiles_x((w + tw - 1) / tw),
          tiles(tiles_x * ((h + th - 1) / th)),
          row_bytes(w * e),
          // The 2D Memory Width: the image's for 1- and 2-byte texels; whole tiles when an image block read
          // of 4-byte texels fills the right edge tile with the clamped edge texel. The pitch is a multiple
          // of 16 (not of 64) with a gap of junk or poison.
          cols(to_buffer && e == 4 ? tiles_x * tw : w),
          mem_width(cols * e),
          pitch(align(mem_width, 16) + 48) {}

    std::string str() const {
        return std::to_string(w) + " x " + std::to_string(h) + " image of " + std::to_string(8 * e) +
               "-bit texels, tiles " + std::to_string(tw) + " x " + std::to_string(th);
    }
    std::string where(uint32_t x, uint32_t y) const {
        return "element (" + std::to_string(x) + ", " + std::to_string(y) + ") of tile (" +
               std::to_string(x / tw) + ", " + std::to_string(y / th) + ")";
    }
};

// The source (image texels or buffer elements), row-major w x h, the expected result, and the image's
// initial bytes: the source, or (written by the kernel) the complement of the result, so that a texel the
// kernel leaves unwritten shows.
struct TileData {
    std::vector<uint32_t> src, want;
    std::vector<uint8_t> image_bytes;

    TileData(const TileCase& c, std::mt19937_64& rng)
        : src(size_t(c.w) * c.h), want(src.size()), image_bytes(size_t(c.row_bytes) * c.h) {
        for (size_t i = 0; i < src.size(); ++i) {
            src[i] = uint32_t(rng()) & (c.e == 4 ? 0xffffffffu : (1u << (8 * c.e)) - 1);
            want[i] = transformed(src[i], uint32_t(i % c.w), c.e);
        }
        for (size_t i = 0; i < src.size(); ++i)
            storeBits(image_bytes.data() + i * c.e, c.to_buffer ? src[i] : ~want[i], c.e);
    }
};

MemHandle createTileImage(RunContext& ctx, const TileCase& c, TileData& d) {
    cl_int err = CL_SUCCESS;
    const cl_channel_type types[] = {0, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, 0, CL_UNSIGNED_INT32};
    cl_image_format format{CL_R, types[c.e]};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = c.w;
    desc.image_height = c.h;
    MemHandle img(clCreateImage(ctx.context,
                                (c.to_buffer ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY) | CL_MEM_COPY_HOST_PTR,
                                &format, &desc, d.image_bytes.data(), &err));
    checkInternal(err, "clCreateImage(CL_R, " + std::to_string(8 * c.e) + "-bit unsigned, " +
                           std::to_string(c.w) + "x" + std::to_string(c.h) + ")");
    return img;
}

// The image, the kernel, the row-major buffer (seeded for buffer_to_image) and the done records of one
// case, bound to the kernel by argument name (scripts/assets/generators/workloads.py) and launched.
struct ImageTileLaunch {
    MemHandle image;
    uint32_t groups;
    KernelHandle kernel;
    GuardedBuffer buf, done;
    std::vector<uint8_t> buf_bytes;  // what buffer_to_image wrote to `buf`

    ImageTileLaunch(RunContext& ctx, const CaseSpec& spec, const TileCase& c, TileData& d,
                    std::mt19937_64& rng)
        : image(createTileImage(ctx, c, d)),
          groups(launchSubGroups(c.tiles, c.sgs)),
          kernel(createKernel(ctx, spec.module, spec.kernel)),
          buf(ctx, size_t(c.pitch) * c.h),
          done(ctx, size_t(groups) * kSubGroup * 4),
          buf_bytes(size_t(c.pitch) * c.h) {
        if (c.to_buffer) return;
        // The pitch gap holds junk a load must not read as data (past Memory Width it loads zeros).
        for (size_t i = 0; i < buf_bytes.size(); ++i) buf_bytes[i] = uint8_t(rng());
        for (uint32_t y = 0; y < c.h; ++y)
            for (uint32_t x = 0; x < c.w; ++x)
                storeBits(buf_bytes.data() + size_t(y) * c.pitch + size_t(x) * c.e,
                          d.src[size_t(y) * c.w + x], c.e);
        buf.write(buf_bytes.data(), buf_bytes.size());
    }

    void run(RunContext& ctx, const CaseSpec& spec, const TileCase& c) {
        KernelArgs args(kernel, spec);
        args.set("image", image.get());
        args.set("buf", buf.mem());
        args.set("done", done.mem());
        args.set("width", cl_uint(c.w));
        args.set("height", cl_uint(c.h));
        args.set("pitch", cl_uint(c.pitch));
        args.set("mem_width", cl_uint(c.mem_width));
        args.set("tiles_x", cl_uint(c.tiles_x));
        args.set("tiles", cl_uint(c.tiles));
        const size_t local = size_t(c.sgs) * kSubGroup, global = size_t(groups) * kSubGroup;
        runNDRange(ctx, args, 1, &global, &local);
    }
};

// image_to_buffer: every buffer element (and, for 4-byte texels, the clamped edge texels right of the image)
// and the pitch gap of every row.
void checkBuffer(RunContext& ctx, const TileCase& c, const TileData& d, const ImageTileLaunch& launch,
                 MismatchLog& log) {
    const std::vector<uint8_t> got = launch.buf.read();
    dumpBytes(ctx, "image", d.image_bytes.data(), d.image_bytes.size());
    dumpBytes(ctx, "buf", got.data(), got.size());
    for (uint32_t y = 0; y < c.h; ++y) {
        for (uint32_t x = 0; x < c.cols; ++x) {
            // Past the right edge (4-byte texels only) the read clamps to the edge texel.
            const uint32_t expect =
                x < c.w ? d.want[size_t(y) * c.w + x] : transformed(d.src[size_t(y) * c.w + c.w - 1], x, c.e);
            const uint32_t actual = loadBits(got.data() + size_t(y) * c.pitch + size_t(x) * c.e, c.e);
            log.checked();
            if (actual != expect)
                log.add(c.where(x, y) + (x < c.w ? "" : " (right of the image: edge texel clamped)"), expect,
                        actual, c.e);
        }
        // Past Memory Width the 2D store drops elements: the pitch gap keeps the buffer's poison.
        for (uint32_t b = c.mem_width; b < c.pitch; ++b) {
            log.checked();
            if (got[size_t(y) * c.pitch + b] != 0xA5)
                log.add("buffer row " + std::to_string(y) + " byte " + std::to_string(b) +
                            " past Memory Width (out-of-bounds store must be dropped)",
                        0xA5, got[size_t(y) * c.pitch + b], 1);
        }
    }
}

// buffer_to_image: every texel, read back with clEnqueueReadImage.
void checkImage(RunContext& ctx, const TileCase& c, const TileData& d, const ImageTileLaunch& launch,
                MismatchLog& log) {
    std::vector<uint8_t> got(d.image_bytes.size());
    const size_t origin[3] = {0, 0, 0}, region[3] = {c.w, c.h, 1};
    checkCl(clEnqueueReadImage(ctx.queue, launch.image.get(), CL_TRUE, origin, region, c.row_bytes, 0,
                               got.data(), 0, nullptr, nullptr),
            "clEnqueueReadImage");
    dumpBytes(ctx, "buf", launch.buf_bytes.data(), launch.buf_bytes.size());
    dumpBytes(ctx, "image", got.data(), got.size());
    for (uint32_t y = 0; y < c.h; ++y)
        for (uint32_t x = 0; x < c.w; ++x) {
            const uint32_t actual = loadBits(got.data() + (size_t(y) * c.w + x) * c.e, c.e);
            log.checked();
            if (actual != d.want[size_t(y) * c.w + x])
                log.add(c.where(x, y), d.want[size_t(y) * c.w + x], actual, c.e);
        }
}

class ImageTile2dFamily : public Family {
public:
    std::string name() const override { return "workloads_image_tile_2d"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema = schemaOf(fields());
        return schema;
    }

    // As the two families it composes: a device with cl_khr_spirv_queries that lists SPV_INTEL_2d_block_io
    // says whether it accepts Subgroup2DBlockIOINTEL; one that does not list the extension says nothing
    // (api.spirv_queries judges the omission). The image block IO capability is not asked for, as the
    // subgroups family does not: Intel's runtime lists SPV_INTEL_subgroups with no capability table a
    // description records, and the offline mode knows none (asking made every case NotSupported there
    // while ocloc builds the modules; offline_cross_check.py caught it).
    Outcome checkSupport(const CaseSpec&, const DeviceInfo& device) const override {
        const auto& exts = device.spirv_extensions;
        if (!device.has_spirv_queries ||
            std::find(exts.begin(), exts.end(), "SPV_INTEL_2d_block_io") == exts.end())
            return Outcome::pass();
        const auto& caps = device.spirv_capabilities;
        if (std::find(caps.begin(), caps.end(), kCapability2dBlockIo) == caps.end())
            return Outcome::notSupported(
                "CL_DEVICE_SPIRV_CAPABILITIES_KHR lists SPV_INTEL_2d_block_io but not "
                "capability " +
                std::to_string(kCapability2dBlockIo));
        return Outcome::pass();
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const TileCase c(spec.params);
        if (c.e != 1 && c.e != 2 && c.e != 4)
            return Outcome::internalError("element_bytes " + std::to_string(c.e) + " is not 1, 2 or 4");
        std::mt19937_64 rng(ctx.seed);
        TileData d(c, rng);
        ImageTileLaunch launch(ctx, spec, c, d, rng);
        launch.run(ctx, spec, c);

        MismatchLog log(c.to_buffer ? "image block read, + 3x + 1, 2D block store: buffer element (x, y) = "
                                      "texel (x, y) + 3x + 1"
                                    : "2D block load, + 3x + 1, image block write: texel (x, y) = buffer "
                                      "element (x, y) + 3x + 1");
        if (c.to_buffer)
            checkBuffer(ctx, c, d, launch, log);
        else
            checkImage(ctx, c, d, launch, log);
        checkDoneRecords(launch.done.read(), DoneLayout{launch.groups / c.sgs, c.sgs, kSubGroup}, log);
        for (const GuardedBuffer* g : {&launch.buf, &launch.done})
            if (std::string bad = g->checkGuards(); !bad.empty()) log.addLine(bad);
        Outcome out = log.outcome();
        if (out.status != Status::Pass) out.message = c.str() + "\n" + out.message;
        return out;
    }
};

}  // namespace

std::unique_ptr<Family> makeImageTile2dFamily() {
    return std::make_unique<ImageTile2dFamily>();
}

}  // namespace cts::workloads
