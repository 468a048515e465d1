// workloads.media_filter.*: media block reads of 8 x 8 tiles of a 32-bit image (and of the tiles left and
// right of them) feeding the 1D filter out = left + 2 centre + right through ShuffleUp / ShuffleDown (see
// scripts/assets/generators/workloads.py). Out-of-bounds media reads replicate the edge texel, so the host
// filter clamps x; every output pixel and every done record is checked.
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

constexpr uint32_t kSubGroup = 8, kTile = 8;

// The manifest's parameters, declared once in fields(); the schema and run()'s reading follow from it.
struct FilterParams {
    uint32_t width = 0, height = 0, sub_groups_per_work_group = 0;
};

const ParamFields<FilterParams>& fields() {
    static const ParamFields<FilterParams> fields{
        {"width", &FilterParams::width},
        {"height", &FilterParams::height},
        {"sub_groups_per_work_group", &FilterParams::sub_groups_per_work_group}};
    return fields;
}

class MediaFilterFamily : public Family {
public:
    std::string name() const override { return "workloads_media_filter"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema = schemaOf(fields());
        return schema;
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const FilterParams p = readFields(spec.params, fields());
        const uint32_t w = p.width, h = p.height, sgs = p.sub_groups_per_work_group;
        std::mt19937_64 rng(ctx.seed);
        std::vector<uint32_t> image(size_t(w) * h);
        for (auto& v : image) v = uint32_t(rng() & 0xfffff);

        cl_int err = CL_SUCCESS;
        cl_image_format format{CL_R, CL_UNSIGNED_INT32};
        cl_image_desc desc{};
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = w;
        desc.image_height = h;
        MemHandle img(clCreateImage(ctx.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc,
                                    image.data(), &err));
        checkInternal(err, "clCreateImage(CL_R/CL_UNSIGNED_INT32, " + std::to_string(w) + "x" +
                               std::to_string(h) + ")");

        const uint32_t tiles_x = (w + kTile - 1) / kTile, tiles_y = (h + kTile - 1) / kTile;
        const uint32_t groups = launchSubGroups(tiles_x * tiles_y, sgs);
        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);
        GuardedBuffer out(ctx, image.size() * 4), done(ctx, size_t(groups) * kSubGroup * 4);
        cl_mem img_mem = img.get();
        KernelArgs args(kernel, spec);
        args.set("image", img_mem);
        args.set("out", out.mem());
        args.set("done", done.mem());
        args.set("width", cl_uint(w));
        args.set("height", cl_uint(h));
        args.set("tiles_x", cl_uint(tiles_x));
        const size_t local = size_t(sgs) * kSubGroup, global = size_t(groups) * kSubGroup;
        runNDRange(ctx, args, 1, &global, &local);
        const std::vector<uint8_t> got = out.read();
        dumpBytes(ctx, "image", image.data(), image.size() * 4);
        dumpBytes(ctx, "out", got.data(), got.size());

        MismatchLog log(
            "media block read (edges replicated) + ShuffleUp/ShuffleDown filter left + 2 centre + right");
        for (uint32_t y = 0; y < h; ++y)
            for (uint32_t x = 0; x < w; ++x) {
                const uint32_t* row = image.data() + size_t(y) * w;
                const uint32_t want = row[x == 0 ? 0 : x - 1] + 2 * row[x] + row[std::min(x + 1, w - 1)];
                const uint32_t actual = loadBits(got.data() + 4 * (size_t(y) * w + x), 4);
                log.checked();
                if (actual != want)
                    log.add("pixel (" + std::to_string(x) + ", " + std::to_string(y) +
                                ") of sub-group tile (" + std::to_string(x / kTile) + ", " +
                                std::to_string(y / kTile) + ") lane " + std::to_string(x % kTile) + " row " +
                                std::to_string(y % kTile),
                            want, actual, 4);
            }
        checkDoneRecords(done.read(), DoneLayout{groups / sgs, sgs, kSubGroup}, log);
        for (const GuardedBuffer* g : {&out, &done})
            if (std::string bad = g->checkGuards(); !bad.empty()) log.addLine(bad);
        Outcome result = log.outcome();
        if (result.status != Status::Pass)
            result.message =
                std::to_string(w) + " x " + std::to_string(h) + " r32ui image\n" + result.message;
        return result;
    }
};

}  // namespace

std::unique_ptr<Family> makeMediaFilterFamily() {
    return std::make_unique<MediaFilterFamily>();
}

}  // namespace cts::workloads
