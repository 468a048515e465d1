// media_block_io.*: one OpSubgroupImageMediaBlockReadINTEL / WriteINTEL (or a write then a read of the same
// region) at one coordinate of a plain image or an image created from a buffer. Reads are compared per lane
// and component with the host reference (undefined slots skipped); writes by reading the whole image (or
// buffer, pitch gaps included) back: every byte the write must not touch keeps its value. Every lane also
// stores a completion record (test_common/harness/done_record.h), so a kernel that never ran fails even where
// the write itself is dropped. Cases come
// from scripts/generators/media_block_io.py (its docstring gives the kernel ABI).
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>

#include "test_common/cl/device_info.h"
#include "test_common/cl/image_formats.h"
#include "test_common/harness/done_record.h"
#include "test_common/harness/kernel_util.h"
#include "test_common/harness/mismatch.h"
#include "test_common/reference/media_block_io.h"
#include "test_conformance/families.h"

namespace cts {
namespace {

using reference::MediaBlockShape;
using reference::MediaImage;

constexpr size_t kBufferPitchAlign = 64;  // images from buffers: row pitch a multiple of 64 (OpenCL env)

enum class Op { Read, Write, RoundTrip };

struct MediaCase {
    Op op = Op::Read;
    MediaBlockShape shape;
    NamedImageFormat format{};
    bool from_buffer = false;
    uint32_t image_width_bytes = 0, image_height = 0;
    int32_t x = 0, y = 0;
    // The scale cases (docs/media_block_io.md, "Scale"): several sub-groups (one per work-group), each at its
    // own Coordinate from `coords`; or an image CL_DEVICE_IMAGE2D_MAX_WIDTH texels wide / MAX_HEIGHT rows
    // high, with x / y counted from its right / bottom edge.
    std::vector<std::pair<int32_t, int32_t>> coords;  // per sub-group; resolve() fills it
    std::string image_size;                           // "", "max_width" or "max_height"
    // "fill": "distinctive": image and data hold channel values of the format that a conversion would change
    // (fillDistinctiveChannels); otherwise seeded non-zero bytes.
    bool distinctive = false;
    size_t pitch_align = kBufferPitchAlign;  // images from buffers: resolve() adds the device's alignment

    static MediaCase fromParams(const Params& p) {
        MediaCase c;
        const std::string op = p.s("op");
        c.op = op == "read"         ? Op::Read
               : op == "write"      ? Op::Write
               : op == "round_trip" ? Op::RoundTrip
                                    : throw InternalError("media_block_io: unknown op '" + op + "'");
        c.shape = {uint32_t(p.u("element_bytes")), uint32_t(p.u("components")), uint32_t(p.u("width")),
                   uint32_t(p.u("height")), uint32_t(p.u("sg"))};
        c.format = namedImageFormat(p.s("format"));
        const std::string backing = p.s("backing");
        if (backing != "image" && backing != "buffer")
            throw InternalError("media_block_io: unknown backing '" + backing + "'");
        c.from_buffer = backing == "buffer";
        c.image_width_bytes = uint32_t(p.u("image_width_bytes"));
        c.image_height = uint32_t(p.u("image_height"));
        c.x = int32_t(p.i("x")), c.y = int32_t(p.i("y"));
        if (c.format.texel_bytes != p.u("texel_bytes") || c.image_width_bytes % c.format.texel_bytes)
            throw InternalError("media_block_io: image width is not a whole number of texels");
        if (p.has("image_size")) c.image_size = p.s("image_size");
        if (p.has("fill") && p.s("fill") != "distinctive")
            throw InternalError("media_block_io: unknown fill '" + p.s("fill") + "'");
        c.distinctive = p.has("fill");
        if (c.image_size != "" && c.image_size != "max_width" && c.image_size != "max_height")
            throw InternalError("media_block_io: unknown image_size '" + c.image_size + "'");
        if (p.has("coords")) {
            std::vector<int64_t> xy = p.list("coords");
            if (xy.empty() || xy.size() % 2)
                throw InternalError("media_block_io: coords must hold (x, y) pairs");
            for (size_t i = 0; i < xy.size(); i += 2)
                c.coords.push_back({int32_t(xy[i]), int32_t(xy[i + 1])});
        }
        return c;
    }

    // The device's maximum image size where the case asks for it, and one Coordinate per sub-group.
    void resolve(const DeviceInfo& device) {
        // cl_khr_image2d_from_buffer: the pitch is also a multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT texels.
        pitch_align = std::lcm(kBufferPitchAlign, size_t(std::max<cl_uint>(device.image_pitch_alignment, 1)) *
                                                      format.texel_bytes);
        if (image_size == "max_width") {
            if (device.image2d_max_width * format.texel_bytes > (size_t(1) << 30))
                throw InternalError(
                    "media_block_io: CL_DEVICE_IMAGE2D_MAX_WIDTH too large for int coordinates");
            image_width_bytes = uint32_t(device.image2d_max_width * format.texel_bytes);
            x += int32_t(image_width_bytes);
        } else if (image_size == "max_height") {
            if (device.image2d_max_height > (size_t(1) << 30))
                throw InternalError(
                    "media_block_io: CL_DEVICE_IMAGE2D_MAX_HEIGHT too large for int coordinates");
            image_height = uint32_t(device.image2d_max_height);
            y += int32_t(image_height);
        }
        if (coords.empty()) coords.push_back({x, y});
        if (coords.size() > 1 && op == Op::RoundTrip)
            throw InternalError("media_block_io: round trip runs one sub-group");
    }
    uint32_t subGroups() const { return uint32_t(coords.size()); }

    size_t laneBytes() const { return size_t(shape.components) * shape.element_bytes; }
    size_t pitch() const {
        return from_buffer ? (image_width_bytes + pitch_align - 1) / pitch_align * pitch_align
                           : image_width_bytes;
    }
};

uint64_t loadLe(const uint8_t* p, uint32_t bytes) {
    uint64_t v = 0;
    std::memcpy(&v, p, bytes);
    return v;
}

// GuardedBuffer's fill: the lanes (read destination) and back buffers hold it before the kernel runs.
constexpr uint8_t kBufferFill = 0xA5;
// Preferred fill of the Data slots a write ignores (row padding, the tail of a region smaller than
// S x components): non-zero and not kBufferFill; seeded images never hold it.
constexpr uint8_t kIgnoredData = 0x5A;

// The byte the ignored Data slots hold: kIgnoredData unless the image holds it (distinctive channel fills),
// then the first other non-zero byte the image does not hold and that is not kBufferFill. A device that
// writes an ignored slot then changes every image byte it lands on. Only an image holding all 254 candidate
// bytes falls back to kIgnoredData.
uint8_t ignoredDataByte(const MediaImage& image) {
    bool present[256] = {};
    for (uint8_t b : image.data) present[b] = true;
    if (!present[kIgnoredData]) return kIgnoredData;
    for (unsigned v = 1; v < 256; ++v)
        if (!present[v] && v != kBufferFill) return uint8_t(v);
    return kIgnoredData;
}

// The image (or its buffer) with seeded bytes, never zero so that a zero from a wrong edge rule shows, never
// kBufferFill (a read that leaves a defined element unwritten shows) nor kIgnoredData.
MediaImage makeImage(const MediaCase& c, std::mt19937_64& rng) {
    MediaImage m;
    m.width = c.image_width_bytes / c.format.texel_bytes;
    m.height = c.image_height;
    m.texel_bytes = c.format.texel_bytes;
    m.row_pitch_bytes = c.pitch();
    m.data.resize(m.row_pitch_bytes * m.height);
    if (c.distinctive)
        fillDistinctiveChannels(c.format, m.data.data(), m.data.size(), rng);
    else
        for (auto& b : m.data) {
            b = uint8_t(1 + rng() % 255);
            if (b == kBufferFill || b == kIgnoredData) b ^= 1;
        }
    return m;
}

class MediaBlockIoFamily : public Family {
public:
    std::string name() const override { return "media_block_io"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema{{"op", ParamType::String},
                                        {"format", ParamType::String},
                                        {"backing", ParamType::String},
                                        {"sg", ParamType::UInt},
                                        {"width", ParamType::UInt},
                                        {"height", ParamType::UInt},
                                        {"element_bytes", ParamType::UInt},
                                        {"components", ParamType::UInt},
                                        {"texel_bytes", ParamType::UInt},
                                        {"image_width_bytes", ParamType::UInt},
                                        {"image_height", ParamType::UInt},
                                        {"x", ParamType::Int},
                                        {"y", ParamType::Int},
                                        {"image_size", ParamType::String, kOptional},
                                        {"fill", ParamType::String, kOptional},
                                        {"coords", ParamType::IntList, kOptional}};
        return schema;
    }

    Outcome checkSupport(const CaseSpec& spec, const DeviceInfo& device) const override {
        const NamedImageFormat& f = namedImageFormat(spec.params.s("format"));
        if (!device.hasImageFormat(f.order, f.type))
            return Outcome::notSupported(std::string("image format ") + f.name +
                                         " is not supported read-write");
        if (spec.params.s("backing") == "buffer" && !device.hasExtension("cl_khr_image2d_from_buffer"))
            return Outcome::notSupported("images from buffers need cl_khr_image2d_from_buffer");
        return Outcome::pass();
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        MediaCase c = MediaCase::fromParams(spec.params);
        c.resolve(ctx.device);
        const MediaBlockShape& s = c.shape;
        const uint32_t sg = s.sub_group_size;
        std::mt19937_64 rng(ctx.seed);
        const MediaImage before = makeImage(c, rng);

        // The image: plain (copied from the host) or a view of a buffer with a 64-byte-multiple pitch.
        cl_int err = CL_SUCCESS;
        MemHandle buffer, image;
        cl_image_format format{c.format.order, c.format.type};
        cl_image_desc desc{};
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = before.width;
        desc.image_height = before.height;
        if (c.from_buffer) {
            buffer.reset(clCreateBuffer(ctx.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                        before.data.size(), const_cast<uint8_t*>(before.data.data()), &err));
            checkInternal(err, "clCreateBuffer for the image");
            desc.image_row_pitch = before.row_pitch_bytes;
            desc.mem_object = buffer.get();
            image.reset(clCreateImage(ctx.context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err));
        } else {
            image.reset(clCreateImage(ctx.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &format, &desc,
                                      const_cast<uint8_t*>(before.data.data()), &err));
        }
        checkInternal(err, std::string("clCreateImage(") + c.format.name +
                               (c.from_buffer ? " from a buffer" : "") + ", " + std::to_string(before.width) +
                               "x" + std::to_string(before.height) + ")");

        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);
        std::vector<int32_t> xy;
        for (const auto& [x, y] : c.coords) xy.push_back(x), xy.push_back(y);
        const size_t groups = c.subGroups(), lane_bytes = size_t(sg) * c.laneBytes();
        // One sub-group per work-group: sub-group g is work-group g.
        const DoneLayout launch{uint32_t(groups), 1, sg};
        GuardedBuffer coords(ctx, xy.size() * 4), lanes(ctx, groups * lane_bytes), done(ctx, launch.bytes()),
            back(ctx, sg * c.laneBytes());
        coords.write(xy.data(), xy.size() * 4);
        std::vector<uint8_t> data;
        if (c.op != Op::Read) {
            data.resize(groups * lane_bytes);
            if (c.distinctive)  // 4-byte elements at 4-byte aligned x: whole channels at channel offsets
                fillDistinctiveChannels(c.format, data.data(), data.size(), rng);
            else
                for (auto& b : data) b = uint8_t(rng());
            // The slots the write ignores hold a byte the image does not: writing one shows.
            const uint8_t ignored = ignoredDataByte(before);
            for (size_t g = 0; g < groups; ++g)
                for (uint32_t l = 0; l < sg; ++l)
                    for (uint32_t j = 0; j < s.components; ++j)
                        if (!reference::mediaSlot(s, l, j).defined)
                            std::memset(
                                data.data() + g * lane_bytes + l * c.laneBytes() + j * s.element_bytes,
                                ignored, s.element_bytes);
            lanes.write(data.data(), data.size());
        }
        cl_mem image_mem = image.get();
        KernelArgs args(kernel, spec);
        args.set("image", image_mem);
        args.set("coords", coords.mem());
        args.set("lanes", lanes.mem());
        args.set("done", done.mem());
        if (c.op == Op::RoundTrip) args.set("back", back.mem());
        // One sub-group per work-group: sub-group g is work-group g.
        const size_t global = groups * sg, local = sg;
        runNDRange(ctx, args, 1, &global, &local);

        MismatchLog log;
        checkDoneRecords(done.read(), launch, log);
        if (c.op == Op::Read) {
            log.setRule("SPV_INTEL_media_block_io read: region re-tiled S elements wide, edges replicated");
            const std::vector<uint8_t> got = lanes.read();
            for (size_t g = 0; g < groups; ++g) {
                const std::vector<uint8_t> mine(got.begin() + g * lane_bytes,
                                                got.begin() + (g + 1) * lane_bytes);
                checkRead(c, reference::mediaBlockRead(s, before, c.coords[g].first, c.coords[g].second),
                          mine, groups > 1 ? "sub-group " + std::to_string(g) + " " : "", log);
            }
        } else {
            log.setRule(
                "SPV_INTEL_media_block_io write: region re-tiled from S-wide data, out of bounds dropped");
            // Sub-groups write disjoint regions: apply them one after the other.
            reference::MediaWriteResult want{before, std::vector<uint8_t>(before.data.size(), 0)};
            for (size_t g = 0; g < groups; ++g) {
                const std::vector<uint8_t> mine(data.begin() + g * lane_bytes,
                                                data.begin() + (g + 1) * lane_bytes);
                reference::MediaWriteResult next = reference::mediaBlockWrite(
                    s, want.image, split(c, mine), c.coords[g].first, c.coords[g].second);
                for (size_t i = 0; i < next.undefined.size(); ++i) next.undefined[i] |= want.undefined[i];
                want = std::move(next);
            }
            const std::vector<uint8_t> after = readImage(ctx, c, image.get(), buffer.get(), before);
            dumpBytes(ctx, "image_out", after.data(), after.size());
            checkImage(c, want, after, log);
            if (c.op == Op::RoundTrip) {
                // The read sees what the write left, including bytes the write left undefined.
                MediaImage written = want.image;
                for (size_t i = 0; i < written.data.size(); ++i)
                    if (want.undefined[i]) written.data[i] = after[i];
                checkRead(c, reference::mediaBlockRead(s, written, c.coords[0].first, c.coords[0].second),
                          back.read(), "read back ", log);
            }
        }
        dumpBytes(ctx, "image_in", before.data.data(), before.data.size());
        dumpBytes(ctx, "lanes_in", data.data(), data.size());
        for (const GuardedBuffer* b : {&coords, &lanes, &done, &back})
            if (std::string bad = b->checkGuards(); !bad.empty()) log.addLine(bad);
        Outcome out = log.outcome();
        if (out.status != Status::Pass)
            out.message = s.str() + " " + c.format.name +
                          (c.from_buffer ? " image from a buffer" : " image") + " at (" +
                          std::to_string(c.x) + ", " + std::to_string(c.y) + ")\n" + out.message;
        return out;
    }

private:
    static std::vector<std::vector<uint64_t>> split(const MediaCase& c, const std::vector<uint8_t>& bytes) {
        std::vector<std::vector<uint64_t>> v(c.shape.sub_group_size,
                                             std::vector<uint64_t>(c.shape.components));
        if (bytes.empty()) return v;
        for (uint32_t l = 0; l < c.shape.sub_group_size; ++l)
            for (uint32_t j = 0; j < c.shape.components; ++j)
                v[l][j] = loadLe(bytes.data() + l * c.laneBytes() + j * c.shape.element_bytes,
                                 c.shape.element_bytes);
        return v;
    }

    static void checkRead(const MediaCase& c, const std::vector<std::vector<reference::MediaValue>>& want,
                          const std::vector<uint8_t>& got, const std::string& what, MismatchLog& log) {
        const MediaBlockShape& s = c.shape;
        const GridShape grid{what + "region at (" + std::to_string(c.x) + ", " + std::to_string(c.y) + "), " +
                                 s.str() + ": rows x elements",
                             s.height, reference::mediaRowStrideBytes(s) / s.element_bytes, "region row",
                             "element"};
        for (uint32_t l = 0; l < s.sub_group_size; ++l)
            for (uint32_t j = 0; j < s.components; ++j) {
                const reference::MediaValue& e = want[l][j];
                if (!e.defined) {
                    log.skipped();  // padding, the tail, or an out-of-bounds texel larger than the element
                    continue;
                }
                const uint64_t actual =
                    loadLe(got.data() + l * c.laneBytes() + j * s.element_bytes, s.element_bytes);
                log.checked();
                if (actual == e.value) continue;
                const reference::MediaSlot slot = reference::mediaSlot(s, l, j);
                log.add(what + "lane " + std::to_string(l) + " component " + std::to_string(j) +
                            " (region row " + std::to_string(slot.row) + ", element " +
                            std::to_string(slot.col) + ")",
                        e.value, actual, s.element_bytes);
                log.mark(grid, slot.row, slot.col, e.value, actual, s.element_bytes);
            }
    }

    static void checkImage(const MediaCase& c, const reference::MediaWriteResult& want,
                           const std::vector<uint8_t>& after, MismatchLog& log) {
        const size_t pitch = want.image.row_pitch_bytes;
        const GridShape grid{"image after the write: rows x bytes", uint32_t(want.image.data.size() / pitch),
                             uint32_t(pitch), "image row", "byte"};
        for (size_t i = 0; i < want.image.data.size(); ++i) {
            if (want.undefined[i]) {
                log.skipped();  // a region element no Data value maps to
                continue;
            }
            log.checked();
            if (after[i] == want.image.data[i]) continue;
            char where[96];
            std::snprintf(where, sizeof where, "image row %zu byte %zu%s", i / pitch, i % pitch,
                          i % pitch >= c.image_width_bytes ? " (row pitch gap)" : "");
            log.add(where, want.image.data[i], after[i], 1);
            log.mark(grid, uint32_t(i / pitch), uint32_t(i % pitch), want.image.data[i], after[i], 1);
        }
    }

    // The image's bytes after the kernel, in the model's layout (row_pitch_bytes apart).
    static std::vector<uint8_t> readImage(RunContext& ctx, const MediaCase& c, cl_mem image, cl_mem buffer,
                                          const MediaImage& model) {
        std::vector<uint8_t> out(model.data.size());
        if (buffer) {
            checkCl(clEnqueueReadBuffer(ctx.queue, buffer, CL_TRUE, 0, out.size(), out.data(), 0, nullptr,
                                        nullptr),
                    "clEnqueueReadBuffer (image buffer)");
            return out;
        }
        const size_t origin[3] = {0, 0, 0}, region[3] = {model.width, model.height, 1};
        checkCl(clEnqueueReadImage(ctx.queue, image, CL_TRUE, origin, region, model.row_pitch_bytes, 0,
                                   out.data(), 0, nullptr, nullptr),
                "clEnqueueReadImage");
        (void)c;
        return out;
    }
};

void registerMediaBlockIoFamilies(Registry& registry) {
    registry.addFamily(std::make_unique<MediaBlockIoFamily>());
}

}  // namespace

CTS_REGISTER_FAMILIES("media_block_io", registerMediaBlockIoFamilies);

}  // namespace cts
