// media_block_io.*: one OpSubgroupImageMediaBlockReadINTEL / WriteINTEL (or a write then a read of the same
// region) at one coordinate of a plain image or an image created from a buffer. Reads are compared per lane
// and component with the host reference (undefined slots skipped); writes by reading the whole image (or
// buffer, pitch gaps included) back: every byte the write must not touch keeps its value. Every lane also
// stores a completion record (test_common/harness/selection/done_record.h), so a kernel that never ran fails
// even where the write itself is dropped. Cases come from scripts/assets/generators/media_block_io.py (its
// docstring gives the kernel ABI); their parameters are media_case.h's, the objects the kernel runs on
// launch.h's.
#include <cstdio>
#include <cstring>
#include <random>

#include "test_common/cl/device_info.h"
#include "test_common/cl/image_formats.h"
#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/model/mismatch.h"
#include "test_common/harness/selection/done_record.h"
#include "test_common/reference/media_block_io.h"
#include "test_conformance/families.h"
#include "test_conformance/media_block_io/launch.h"
#include "test_conformance/media_block_io/media_case.h"

namespace cts {
namespace {

using media::MediaBlockLaunch;
using media::MediaCase;
using media::MediaImageObject;
using media::Op;
using reference::MediaBlockShape;
using reference::MediaImage;

uint64_t loadLe(const uint8_t* p, uint32_t bytes) {
    uint64_t v = 0;
    std::memcpy(&v, p, bytes);
    return v;
}

// `bytes` (one sub-group's lanes) as [lane][component] values.
std::vector<std::vector<uint64_t>> split(const MediaCase& c, const std::vector<uint8_t>& bytes) {
    std::vector<std::vector<uint64_t>> v(c.shape.sub_group_size, std::vector<uint64_t>(c.shape.components));
    if (bytes.empty()) return v;
    for (uint32_t l = 0; l < c.shape.sub_group_size; ++l)
        for (uint32_t j = 0; j < c.shape.components; ++j)
            v[l][j] =
                loadLe(bytes.data() + l * c.laneBytes() + j * c.shape.element_bytes, c.shape.element_bytes);
    return v;
}

// One sub-group's lanes (`got`) against the read the host reference gives, defined slots only.
void checkRead(const MediaCase& c, const std::vector<std::vector<reference::MediaValue>>& want,
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
            log.add(what + "lane " + std::to_string(l) + " component " + std::to_string(j) + " (region row " +
                        std::to_string(slot.row) + ", element " + std::to_string(slot.col) + ")",
                    e.value, actual, s.element_bytes);
            log.mark(grid, slot.row, slot.col, e.value, actual, s.element_bytes);
        }
}

// Reads: every sub-group's lanes against the image it read.
void checkReads(const MediaCase& c, const MediaImage& before, const MediaBlockLaunch& launch,
                MismatchLog& log) {
    log.setRule("SPV_INTEL_media_block_io read: region re-tiled S elements wide, edges replicated");
    const std::vector<uint8_t> got = launch.lanes.read();
    for (size_t g = 0; g < c.subGroups(); ++g)
        checkRead(c, reference::mediaBlockRead(c.shape, before, c.coords[g].first, c.coords[g].second),
                  launch.subGroupBytes(got, g),
                  c.subGroups() > 1 ? "sub-group " + std::to_string(g) + " " : "", log);
}

// The whole image (buffer: pitch gaps too) after the write against the host reference's.
void checkImage(const MediaCase& c, const reference::MediaWriteResult& want,
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

// What every sub-group's write leaves in `before`. Sub-groups write disjoint regions: apply them one after
// the other.
reference::MediaWriteResult expectedWrite(const MediaCase& c, const MediaImage& before,
                                          const MediaBlockLaunch& launch) {
    reference::MediaWriteResult want{before, std::vector<uint8_t>(before.data.size(), 0)};
    for (size_t g = 0; g < c.subGroups(); ++g) {
        reference::MediaWriteResult next =
            reference::mediaBlockWrite(c.shape, want.image, split(c, launch.subGroupBytes(launch.data, g)),
                                       c.coords[g].first, c.coords[g].second);
        for (size_t i = 0; i < next.undefined.size(); ++i) next.undefined[i] |= want.undefined[i];
        want = std::move(next);
    }
    return want;
}

// Writes: the image read back; round trips also the read of what the write left.
void checkWrites(RunContext& ctx, const MediaCase& c, const MediaImage& before, const MediaImageObject& image,
                 const MediaBlockLaunch& launch, MismatchLog& log) {
    log.setRule("SPV_INTEL_media_block_io write: region re-tiled from S-wide data, out of bounds dropped");
    const reference::MediaWriteResult want = expectedWrite(c, before, launch);
    const std::vector<uint8_t> after = image.read(ctx, before);
    dumpBytes(ctx, "image_out", after.data(), after.size());
    checkImage(c, want, after, log);
    if (c.op != Op::RoundTrip) return;
    // The read sees what the write left, including bytes the write left undefined.
    MediaImage written = want.image;
    for (size_t i = 0; i < written.data.size(); ++i)
        if (want.undefined[i]) written.data[i] = after[i];
    checkRead(c, reference::mediaBlockRead(c.shape, written, c.coords[0].first, c.coords[0].second),
              launch.back.read(), "read back ", log);
}

class MediaBlockIoFamily : public Family {
public:
    std::string name() const override { return "media_block_io"; }
    const ParamSchema& paramSchema() const override { return MediaCase::schema(); }

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
        std::mt19937_64 rng(ctx.seed);
        const MediaImage before = media::makeImage(c, rng);
        const MediaImageObject image(ctx, c, before);
        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);
        MediaBlockLaunch launch(ctx, c, before, rng);
        launch.run(ctx, kernel, spec, image.image());

        MismatchLog log;
        checkDoneRecords(launch.done.read(), launch.layout, log);
        if (c.op == Op::Read)
            checkReads(c, before, launch, log);
        else
            checkWrites(ctx, c, before, image, launch, log);
        dumpBytes(ctx, "image_in", before.data.data(), before.data.size());
        dumpBytes(ctx, "lanes_in", launch.data.data(), launch.data.size());
        for (const GuardedBuffer* b : {&launch.coords, &launch.lanes, &launch.done, &launch.back})
            if (std::string bad = b->checkGuards(); !bad.empty()) log.addLine(bad);
        Outcome out = log.outcome();
        if (out.status != Status::Pass) out.message = c.str() + "\n" + out.message;
        return out;
    }
};

void registerMediaBlockIoFamilies(Registry& registry) {
    registry.addFamily(std::make_unique<MediaBlockIoFamily>());
}

}  // namespace

CTS_REGISTER_FAMILIES("media_block_io", registerMediaBlockIoFamilies);

}  // namespace cts
