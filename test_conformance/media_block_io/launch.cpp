#include "test_conformance/media_block_io/launch.h"

#include <cstring>
#include <string>

namespace cts::media {

MediaImageObject::MediaImageObject(RunContext& ctx, const MediaCase& c, const reference::MediaImage& model) {
    cl_int err = CL_SUCCESS;
    cl_image_format format{c.format.order, c.format.type};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = model.width;
    desc.image_height = model.height;
    if (c.from_buffer) {
        buffer_.reset(clCreateBuffer(ctx.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, model.data.size(),
                                     const_cast<uint8_t*>(model.data.data()), &err));
        checkInternal(err, "clCreateBuffer for the image");
        desc.image_row_pitch = model.row_pitch_bytes;
        desc.mem_object = buffer_.get();
        image_.reset(clCreateImage(ctx.context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err));
    } else {
        image_.reset(clCreateImage(ctx.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &format, &desc,
                                   const_cast<uint8_t*>(model.data.data()), &err));
    }
    checkInternal(err, std::string("clCreateImage(") + c.format.name +
                           (c.from_buffer ? " from a buffer" : "") + ", " + std::to_string(model.width) +
                           "x" + std::to_string(model.height) + ")");
}

std::vector<uint8_t> MediaImageObject::read(RunContext& ctx, const reference::MediaImage& model) const {
    std::vector<uint8_t> out(model.data.size());
    if (buffer_) {
        checkCl(clEnqueueReadBuffer(ctx.queue, buffer_.get(), CL_TRUE, 0, out.size(), out.data(), 0, nullptr,
                                    nullptr),
                "clEnqueueReadBuffer (image buffer)");
        return out;
    }
    const size_t origin[3] = {0, 0, 0}, region[3] = {model.width, model.height, 1};
    checkCl(clEnqueueReadImage(ctx.queue, image_.get(), CL_TRUE, origin, region, model.row_pitch_bytes, 0,
                               out.data(), 0, nullptr, nullptr),
            "clEnqueueReadImage");
    return out;
}

namespace {

std::vector<int32_t> coordinateWords(const MediaCase& c) {
    std::vector<int32_t> xy;
    for (const auto& [x, y] : c.coords) xy.push_back(x), xy.push_back(y);
    return xy;
}

// What each lane writes: seeded bytes (distinctive channel values when the case asks), with the slots the
// write ignores holding a byte the image does not, so that writing one shows.
std::vector<uint8_t> writeData(const MediaCase& c, const reference::MediaImage& image, std::mt19937_64& rng) {
    const reference::MediaBlockShape& s = c.shape;
    const size_t lane_bytes = c.laneBytes(), sub_group_bytes = size_t(s.sub_group_size) * lane_bytes;
    std::vector<uint8_t> data(c.subGroups() * sub_group_bytes);
    if (c.distinctive)  // 4-byte elements at 4-byte aligned x: whole channels at channel offsets
        fillDistinctiveChannels(c.format, data.data(), data.size(), rng);
    else
        for (auto& b : data) b = uint8_t(rng());
    const uint8_t ignored = ignoredDataByte(image);
    for (size_t g = 0; g < c.subGroups(); ++g)
        for (uint32_t l = 0; l < s.sub_group_size; ++l)
            for (uint32_t j = 0; j < s.components; ++j)
                if (!reference::mediaSlot(s, l, j).defined)
                    std::memset(data.data() + g * sub_group_bytes + l * lane_bytes + j * s.element_bytes,
                                ignored, s.element_bytes);
    return data;
}

}  // namespace

MediaBlockLaunch::MediaBlockLaunch(RunContext& ctx, const MediaCase& c, const reference::MediaImage& image,
                                   std::mt19937_64& rng)
    : layout{c.subGroups(), 1, c.shape.sub_group_size},
      coords(ctx, c.coords.size() * 2 * sizeof(int32_t)),
      lanes(ctx, c.subGroups() * c.shape.sub_group_size * c.laneBytes()),
      done(ctx, layout.bytes()),
      back(ctx, c.shape.sub_group_size * c.laneBytes()),
      op_(c.op),
      sub_group_bytes_(c.shape.sub_group_size * c.laneBytes()) {
    const std::vector<int32_t> xy = coordinateWords(c);
    coords.write(xy.data(), xy.size() * sizeof(int32_t));
    if (op_ == Op::Read) return;
    data = writeData(c, image, rng);
    lanes.write(data.data(), data.size());
}

void MediaBlockLaunch::run(RunContext& ctx, cl_kernel kernel, const CaseSpec& spec, cl_mem image) {
    KernelArgs args(kernel, spec);
    args.set("image", image);
    args.set("coords", coords.mem());
    args.set("lanes", lanes.mem());
    args.set("done", done.mem());
    if (op_ == Op::RoundTrip) args.set("back", back.mem());
    const size_t local = layout.sub_group_size, global = size_t(layout.work_groups) * local;
    runNDRange(ctx, args, 1, &global, &local);
}

std::vector<uint8_t> MediaBlockLaunch::subGroupBytes(const std::vector<uint8_t>& bytes, size_t g) const {
    return std::vector<uint8_t>(bytes.begin() + g * sub_group_bytes_,
                                bytes.begin() + (g + 1) * sub_group_bytes_);
}

}  // namespace cts::media
