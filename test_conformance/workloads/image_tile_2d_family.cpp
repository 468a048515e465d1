// workloads.image_tile_2d.*: one sub-group moves one tile between a CL_R unsigned-integer image and a
// row-major buffer with both extensions (see scripts/generators/workloads.py): image block read, add
// c(x) = 3 x + 1 per element, 2D block store (image_to_buffer), or 2D block load, add, image block write read
// back with clEnqueueReadImage (buffer_to_image). Every element inside the image (and, for 4-byte texels
// read into a buffer of whole tiles, the clamped edge texels right of it), the pitch gap of every buffer row
// (stores past Memory Width are dropped) and every work-item's done record are checked against plain host
// loops.
#include <algorithm>
#include <random>

#include "test_common/cl/device_info.h"
#include "test_common/harness/done_record.h"
#include "test_common/harness/kernel_util.h"
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

class ImageTile2dFamily : public Family {
public:
    std::string name() const override { return "workloads_image_tile_2d"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema{
            {"direction", ParamType::String}, {"element_bytes", ParamType::UInt},
            {"tile_height", ParamType::UInt}, {"width", ParamType::UInt},
            {"height", ParamType::UInt},      {"sub_groups_per_work_group", ParamType::UInt}};
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
        const Params& p = spec.params;
        const bool to_buffer = p.s("direction") == "image_to_buffer";
        const unsigned e = unsigned(p.u("element_bytes"));
        const uint32_t th = uint32_t(p.u("tile_height")), w = uint32_t(p.u("width")),
                       h = uint32_t(p.u("height"));
        const uint32_t sgs = uint32_t(p.u("sub_groups_per_work_group"));
        if (e != 1 && e != 2 && e != 4)
            return Outcome::internalError("element_bytes " + std::to_string(e) + " is not 1, 2 or 4");
        const uint32_t tw = e == 1 ? 32 : 16;
        const uint32_t tiles_x = (w + tw - 1) / tw, tiles = tiles_x * ((h + th - 1) / th);
        // The 2D Memory Width: the image's for 1- and 2-byte texels; whole tiles when an image block read
        // of 4-byte texels fills the right edge tile with the clamped edge texel. The pitch is a multiple of
        // 16 (not of 64) with a gap of junk or poison.
        const uint32_t row_bytes = w * e;
        const uint32_t cols = to_buffer && e == 4 ? tiles_x * tw : w, mem_width = cols * e;
        const uint32_t pitch = align(mem_width, 16) + 48;
        std::mt19937_64 rng(ctx.seed);

        // The source (image texels or buffer elements), row-major w x h, and the expected result.
        std::vector<uint32_t> src(size_t(w) * h), want(src.size());
        for (size_t i = 0; i < src.size(); ++i) {
            src[i] = uint32_t(rng()) & (e == 4 ? 0xffffffffu : (1u << (8 * e)) - 1);
            want[i] = transformed(src[i], uint32_t(i % w), e);
        }
        // The image: the source, or (written by the kernel) the complement of the result, so that a texel
        // the kernel leaves unwritten shows.
        std::vector<uint8_t> image_bytes(size_t(row_bytes) * h);
        for (size_t i = 0; i < src.size(); ++i)
            storeBits(image_bytes.data() + i * e, to_buffer ? src[i] : ~want[i], e);

        cl_int err = CL_SUCCESS;
        const cl_channel_type types[] = {0, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, 0, CL_UNSIGNED_INT32};
        cl_image_format format{CL_R, types[e]};
        cl_image_desc desc{};
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = w;
        desc.image_height = h;
        MemHandle img(clCreateImage(ctx.context,
                                    (to_buffer ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY) | CL_MEM_COPY_HOST_PTR,
                                    &format, &desc, image_bytes.data(), &err));
        checkInternal(err, "clCreateImage(CL_R, " + std::to_string(8 * e) + "-bit unsigned, " +
                               std::to_string(w) + "x" + std::to_string(h) + ")");

        const uint32_t groups = launchSubGroups(tiles, sgs);
        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);
        GuardedBuffer buf(ctx, size_t(pitch) * h), done(ctx, size_t(groups) * kSubGroup * 4);
        std::vector<uint8_t> buf_bytes(size_t(pitch) * h);
        if (!to_buffer) {
            // The pitch gap holds junk a load must not read as data (past Memory Width it loads zeros).
            for (size_t i = 0; i < buf_bytes.size(); ++i) buf_bytes[i] = uint8_t(rng());
            for (uint32_t y = 0; y < h; ++y)
                for (uint32_t x = 0; x < w; ++x)
                    storeBits(buf_bytes.data() + size_t(y) * pitch + size_t(x) * e, src[size_t(y) * w + x],
                              e);
            buf.write(buf_bytes.data(), buf_bytes.size());
        }
        cl_mem img_mem = img.get();
        KernelArgs args(kernel, spec);
        args.set("image", img_mem);
        args.set("buf", buf.mem());
        args.set("done", done.mem());
        args.set("width", cl_uint(w));
        args.set("height", cl_uint(h));
        args.set("pitch", cl_uint(pitch));
        args.set("mem_width", cl_uint(mem_width));
        args.set("tiles_x", cl_uint(tiles_x));
        args.set("tiles", cl_uint(tiles));
        const size_t local = size_t(sgs) * kSubGroup, global = size_t(groups) * kSubGroup;
        runNDRange(ctx, args, 1, &global, &local);

        const std::string what = std::to_string(w) + " x " + std::to_string(h) + " image of " +
                                 std::to_string(8 * e) + "-bit texels, tiles " + std::to_string(tw) + " x " +
                                 std::to_string(th);
        MismatchLog log(to_buffer ? "image block read, + 3x + 1, 2D block store: buffer element (x, y) = "
                                    "texel (x, y) + 3x + 1"
                                  : "2D block load, + 3x + 1, image block write: texel (x, y) = buffer "
                                    "element (x, y) + 3x + 1");
        auto where = [&](uint32_t x, uint32_t y) {
            return "element (" + std::to_string(x) + ", " + std::to_string(y) + ") of tile (" +
                   std::to_string(x / tw) + ", " + std::to_string(y / th) + ")";
        };
        if (to_buffer) {
            const std::vector<uint8_t> got = buf.read();
            dumpBytes(ctx, "image", image_bytes.data(), image_bytes.size());
            dumpBytes(ctx, "buf", got.data(), got.size());
            for (uint32_t y = 0; y < h; ++y) {
                for (uint32_t x = 0; x < cols; ++x) {
                    // Past the right edge (4-byte texels only) the read clamps to the edge texel.
                    const uint32_t expect =
                        x < w ? want[size_t(y) * w + x] : transformed(src[size_t(y) * w + w - 1], x, e);
                    const uint32_t actual = loadBits(got.data() + size_t(y) * pitch + size_t(x) * e, e);
                    log.checked();
                    if (actual != expect)
                        log.add(where(x, y) + (x < w ? "" : " (right of the image: edge texel clamped)"),
                                expect, actual, e);
                }
                // Past Memory Width the 2D store drops elements: the pitch gap keeps the buffer's poison.
                for (uint32_t b = mem_width; b < pitch; ++b) {
                    log.checked();
                    if (got[size_t(y) * pitch + b] != 0xA5)
                        log.add("buffer row " + std::to_string(y) + " byte " + std::to_string(b) +
                                    " past Memory Width (out-of-bounds store must be dropped)",
                                0xA5, got[size_t(y) * pitch + b], 1);
                }
            }
        } else {
            std::vector<uint8_t> got(image_bytes.size());
            const size_t origin[3] = {0, 0, 0}, region[3] = {w, h, 1};
            checkCl(clEnqueueReadImage(ctx.queue, img_mem, CL_TRUE, origin, region, row_bytes, 0, got.data(),
                                       0, nullptr, nullptr),
                    "clEnqueueReadImage");
            dumpBytes(ctx, "buf", buf_bytes.data(), buf_bytes.size());
            dumpBytes(ctx, "image", got.data(), got.size());
            for (uint32_t y = 0; y < h; ++y)
                for (uint32_t x = 0; x < w; ++x) {
                    const uint32_t actual = loadBits(got.data() + (size_t(y) * w + x) * e, e);
                    log.checked();
                    if (actual != want[size_t(y) * w + x])
                        log.add(where(x, y), want[size_t(y) * w + x], actual, e);
                }
        }
        checkDoneRecords(done.read(), DoneLayout{groups / sgs, sgs, kSubGroup}, log);
        for (const GuardedBuffer* g : {&buf, &done})
            if (std::string bad = g->checkGuards(); !bad.empty()) log.addLine(bad);
        Outcome out = log.outcome();
        if (out.status != Status::Pass) out.message = what + "\n" + out.message;
        return out;
    }
};

}  // namespace

std::unique_ptr<Family> makeImageTile2dFamily() {
    return std::make_unique<ImageTile2dFamily>();
}

}  // namespace cts::workloads
