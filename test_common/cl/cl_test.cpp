#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

#include "test_common/cl/build_log.h"
#include "test_common/cl/device_info.h"
#include "test_common/cl/driver_messages.h"
#include "test_common/cl/image_formats.h"
#include "test_common/cl/program_cache.h"
#include "test_common/cl/wrappers.h"
#include "test_common/errors.h"

namespace cts {
namespace {

std::string writeTemp(const std::string& name, const std::vector<unsigned char>& bytes) {
    std::string path = ::testing::TempDir() + "cts_cl_test_" + std::to_string(getpid()) + "_" + name;
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path;
}

std::string errorOf(const std::string& path) {
    try {
        ProgramCache::readSpirvFile(path);
    } catch (const InternalError& e) {
        return e.what();
    }
    return "";
}

// Issue 45 #4: one cap for every build log, kept while it is read: the head, the size dropped, the tail.
TEST(BuildLogCap, KeepsHeadAndTailAndSaysWhatWasDropped) {
    EXPECT_EQ(capText("short log"), "short log");
    std::string huge = "HEAD" + std::string(200u << 20, 'x') + "TAIL";
    std::string kept = capText(huge);
    EXPECT_EQ(kept.rfind("HEAD", 0), 0u);
    EXPECT_EQ(kept.substr(kept.size() - 4), "TAIL");
    EXPECT_NE(kept.find("\n[... 199 MB dropped ...]\n"), std::string::npos);
    EXPECT_EQ(kept.size(),
              kBuildLogHeadBytes + kBuildLogTailBytes + std::string("\n[... 199 MB dropped ...]\n").size());
    // Read in pieces, the same text, with memory bounded by the cap.
    CappedLog pieces;
    for (size_t at = 0; at < huge.size(); at += 4093) pieces.append(huge.substr(at, 4093));
    EXPECT_EQ(pieces.text(), kept);
    EXPECT_EQ(capText(std::string(100, 'a') + std::string(100, 'b'), 10, 5),
              std::string(10, 'a') + "\n[... 185 bytes dropped ...]\n" + std::string(5, 'b'));
    EXPECT_EQ(sizeText(20480), "20 KB");
}

TEST(ProgramCacheFile, RejectsBadFilesNamingThem) {
    std::vector<unsigned char> header = {0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0, 0, 0,
                                         0,    0,    1,    0,    0, 0, 0, 0, 0, 0};
    std::string good = writeTemp("good.spv", header);
    EXPECT_EQ(ProgramCache::readSpirvFile(good).size(), 5u);

    std::string missing = ::testing::TempDir() + "no_such_module.spv";
    std::string empty = writeTemp("empty.spv", {});
    auto odd_bytes = header;
    odd_bytes.push_back(0);
    std::string odd = writeTemp("odd.spv", odd_bytes);
    auto bad_magic = header;
    bad_magic[0] = 0x04;
    std::string magic = writeTemp("magic.spv", bad_magic);
    std::string shortfile = writeTemp("short.spv", {0x03, 0x02, 0x23, 0x07});

    struct Expect {
        std::string path, words;
    };
    for (const Expect& e : {Expect{missing, "missing"}, Expect{empty, "empty"}, Expect{odd, "32-bit words"},
                            Expect{magic, "magic"}, Expect{shortfile, "header"}}) {
        std::string err = errorOf(e.path);
        EXPECT_NE(err.find(e.path), std::string::npos) << err;
        EXPECT_NE(err.find(e.words), std::string::npos) << err;
    }
    for (const auto& p : {good, empty, odd, magic, shortfile}) std::remove(p.c_str());
}

TEST(ModuleHash, Crc32KnownVectors) {
    // The same values as Python's binascii.crc32 (scripts/assets/build_assets.py module_hash).
    auto hash = [](const std::string& s) { return ProgramCache::moduleHash(s.data(), s.size()); };
    EXPECT_EQ(hash(""), "crc32:00000000");
    EXPECT_EQ(hash("a"), "crc32:e8b7be43");
    EXPECT_EQ(hash("123456789"), "crc32:cbf43926");
    EXPECT_EQ(hash("The quick brown fox jumps over the lazy dog"), "crc32:414fa339");
    std::vector<unsigned char> zeros(4096, 0);
    EXPECT_EQ(ProgramCache::moduleHash(zeros.data(), zeros.size()), "crc32:c71c0011");
}

// A module of 7 words: the header and OpCapability Kernel.
std::vector<unsigned char> moduleBytes() {
    return {0x03, 0x02, 0x23, 0x07, 0x00, 0x02, 0x01, 0x00, 0,    0,    0,    0, 2, 0,
            0,    0,    0,    0,    0,    0,    0x11, 0x00, 0x02, 0x00, 0x06, 0, 0, 0};
}

std::string hashErrorOf(const std::string& path, const std::string& expected) {
    try {
        ProgramCache::readSpirvFile(path, expected);
    } catch (const InternalError& e) {
        return e.what();
    }
    return "";
}

TEST(ProgramCacheFile, HashMismatchIsAnInternalErrorNamingFileAndBothHashes) {
    std::vector<unsigned char> good = moduleBytes();
    const std::string want = ProgramCache::moduleHash(good.data(), good.size());
    std::string good_path = writeTemp("hash_good.spv", good);
    EXPECT_EQ(ProgramCache::readSpirvFile(good_path, want).size(), 7u);

    auto flipped = good;
    flipped[24] ^= 0x04;  // one bit of the capability operand: still a well-formed module
    auto truncated = good;
    truncated.resize(good.size() - 4);  // a whole number of words, header intact
    for (const auto& bad : {std::make_pair(std::string("hash_flipped.spv"), flipped),
                            std::make_pair(std::string("hash_truncated.spv"), truncated)}) {
        std::string path = writeTemp(bad.first, bad.second);
        EXPECT_NO_THROW(ProgramCache::readSpirvFile(path));  // size and magic alone do not see it
        std::string have = ProgramCache::moduleHash(bad.second.data(), bad.second.size());
        ASSERT_NE(have, want);
        std::string err = hashErrorOf(path, want);
        EXPECT_NE(err.find(path), std::string::npos) << err;
        EXPECT_NE(err.find(want), std::string::npos) << err;
        EXPECT_NE(err.find(have), std::string::npos) << err;
        EXPECT_NE(err.find("rebuild the assets target"), std::string::npos) << err;
        std::remove(path.c_str());
    }
    // No hash to check against is an error too, never an unchecked load.
    std::string err = hashErrorOf(good_path, "");
    EXPECT_NE(err.find(good_path), std::string::npos) << err;
    EXPECT_NE(err.find("no hash"), std::string::npos) << err;
    std::remove(good_path.c_str());
}

TEST(ProgramCacheFile, DirectoryIsNamedNotMeasured) {
    // An empty "module" made the path <assets>/modules/, which used to be reported as
    // "9223372036854775807 bytes is not a whole number of 32-bit words".
    std::string dir = ::testing::TempDir();
    std::string err = errorOf(dir);
    EXPECT_NE(err.find(dir), std::string::npos) << err;
    EXPECT_NE(err.find("directory"), std::string::npos) << err;
    EXPECT_EQ(err.find("bytes"), std::string::npos) << err;
}

TEST(ProgramCacheFile, VerifiedOncePerPathThenComparedWithTheRecordedHash) {
    // No context: every build fails (CL_INVALID_CONTEXT), which the cache records like any build failure.
    ProgramCache cache(nullptr, nullptr);
    std::vector<unsigned char> good = moduleBytes();
    const std::string want = ProgramCache::moduleHash(good.data(), good.size());
    std::string path = writeTemp("hash_once.spv", good);
    const BuiltProgram& first = cache.get(path, want);
    EXPECT_FALSE(first.built);
    // Changed on disk after the first load: the cache does not read the file again for the same build ...
    auto flipped = good;
    flipped[24] ^= 0x04;
    writeTemp("hash_once.spv", flipped);
    EXPECT_EQ(&cache.get(path, want), &first);
    // ... but still holds every later caller to the hash it recorded,
    std::string err;
    try {
        cache.get(path, "crc32:00000000");
    } catch (const InternalError& e) {
        err = e.what();
    }
    EXPECT_NE(err.find(path), std::string::npos) << err;
    EXPECT_NE(err.find(want), std::string::npos) << err;
    // and a new build (other options) reads the file again, which now fails the check.
    EXPECT_THROW(cache.get(path, want, "-cl-opt-disable"), InternalError);
    std::remove(path.c_str());
}

TEST(ErrorNames, KnownAndUnknownCodes) {
    EXPECT_STREQ(clErrorName(CL_SUCCESS), "CL_SUCCESS");
    EXPECT_STREQ(clErrorName(CL_INVALID_VALUE), "CL_INVALID_VALUE");
    EXPECT_STREQ(clErrorName(CL_BUILD_PROGRAM_FAILURE), "CL_BUILD_PROGRAM_FAILURE");
    EXPECT_STREQ(clErrorName(CL_MAX_SIZE_RESTRICTION_EXCEEDED), "CL_MAX_SIZE_RESTRICTION_EXCEEDED");
    EXPECT_STREQ(clErrorName(-1234), "CL error -1234");
    // Every code from 0 to -72 that the 3.0 headers define has a name (the gaps -20..-29 are unused).
    for (int code = 0; code >= -72; --code) {
        if (code <= -20 && code >= -29) continue;
        EXPECT_EQ(std::string(clErrorName(code)).rfind("CL_", 0), 0u) << code;
    }
}

TEST(CheckedCalls, ThrowTheRightKind) {
    EXPECT_NO_THROW(checkCl(CL_SUCCESS, "x"));
    EXPECT_THROW(checkCl(CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel"), CaseFailure);
    EXPECT_THROW(checkInternal(CL_OUT_OF_RESOURCES, "clCreateBuffer"), InternalError);
    try {
        checkCl(CL_INVALID_KERNEL_ARGS, "enqueue");
    } catch (const CaseFailure& e) {
        EXPECT_STREQ(e.what(), "enqueue: CL_INVALID_KERNEL_ARGS");
    }
}

TEST(DriverMessagesSink, CollectsFromManyThreadsAndClears) {
    DriverMessages sink;
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&sink] {
            for (int i = 0; i < 100; ++i) DriverMessages::notify("msg", nullptr, 0, &sink);
        });
    for (auto& t : threads) t.join();
    std::string all = sink.take();
    size_t lines = 1;
    for (char c : all) lines += c == '\n';
    EXPECT_EQ(lines, 400u);
    EXPECT_EQ(sink.take(), "");
}

TEST(DeviceInfoHelpers, VersionsSizesFormats) {
    DeviceInfo d;
    d.extensions = {{"cl_a", 1, 1, 0, true}, {"cl_b", 0, 0, 0, false}};
    EXPECT_TRUE(d.hasExtension("cl_a", 1, 0));
    EXPECT_TRUE(d.hasExtension("cl_a", 1, 1));
    EXPECT_FALSE(d.hasExtension("cl_a", 1, 2));
    EXPECT_FALSE(d.hasExtension("cl_a", 2, 0));
    EXPECT_TRUE(d.hasExtension("cl_b"));
    EXPECT_FALSE(d.hasExtension("cl_b", 1, 0));
    EXPECT_FALSE(d.hasExtension("cl_c"));
    d.il_versions = {"SPIR-V_1.2"};
    EXPECT_TRUE(d.supportsSpirv(1, 0));
    EXPECT_TRUE(d.supportsSpirv(1, 2));
    EXPECT_FALSE(d.supportsSpirv(1, 3));
    EXPECT_EQ(d.minSubGroupSize(), 0u);
    d.sub_group_sizes = {32, 16};
    EXPECT_EQ(d.minSubGroupSize(), 16u);
    d.image2d_rw_formats = {{CL_R, CL_UNSIGNED_INT8}};
    EXPECT_TRUE(d.hasImageFormat(CL_R, CL_UNSIGNED_INT8));
    EXPECT_FALSE(d.hasImageFormat(CL_RG, CL_UNSIGNED_INT8));
}

TEST(ImageFormats, OneTableForEveryFamily) {
    const NamedImageFormat& r8 = namedImageFormat("r8ui");
    EXPECT_EQ(r8.order, cl_channel_order(CL_R));
    EXPECT_EQ(r8.type, cl_channel_type(CL_UNSIGNED_INT8));
    EXPECT_EQ(r8.texel_bytes, 1u);
    EXPECT_EQ(namedImageFormat("rgba8ui").texel_bytes, 4u);
    EXPECT_EQ(namedImageFormat("rg8ui").order, cl_channel_order(CL_RG));
    try {
        namedImageFormat("r11g11b10f");
        FAIL() << "an unknown format must be refused";
    } catch (const InternalError& e) {
        EXPECT_NE(std::string(e.what()).find("'r11g11b10f'"), std::string::npos) << e.what();
    }
}

TEST(ImageFormats, EveryOrderAndChannelTypeWithItsTexelSize) {
    EXPECT_EQ(allImageFormats().size(), 36u);
    const NamedImageFormat& f = namedImageFormat("rgba32f");
    EXPECT_EQ(f.type, cl_channel_type(CL_FLOAT));
    EXPECT_EQ(f.texel_bytes, 16u);
    EXPECT_EQ(f.channel_bytes, 4u);
    EXPECT_EQ(namedImageFormat("r16f").type, cl_channel_type(CL_HALF_FLOAT));
    EXPECT_EQ(namedImageFormat("rg8_snorm").type, cl_channel_type(CL_SNORM_INT8));
    EXPECT_EQ(namedImageFormat("rgba16").type, cl_channel_type(CL_UNORM_INT16));
    EXPECT_EQ(namedImageFormat("rgba16").texel_bytes, 8u);
    for (const NamedImageFormat& g : allImageFormats())
        EXPECT_EQ(g.texel_bytes % g.channel_bytes, 0u) << g.name;
}

// Every other channel holds a distinctive value, whole and channel-aligned: SNORM -32768, a NaN payload.
TEST(ImageFormats, DistinctiveFillPutsWholeSpecialValuesInEveryOtherChannel) {
    uint64_t state = 1;
    auto random = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
    std::vector<uint8_t> bytes(32);
    fillDistinctiveChannels(namedImageFormat("r16_snorm"), bytes.data(), bytes.size(), random);
    EXPECT_EQ(bytes[0], 0x00);
    EXPECT_EQ(bytes[1], 0x80);  // -32768
    EXPECT_EQ(bytes[4], 0x01);
    EXPECT_EQ(bytes[5], 0x80);  // -32767
    fillDistinctiveChannels(namedImageFormat("rgba32f"), bytes.data(), bytes.size(), random);
    uint32_t first = 0, third = 0;
    std::memcpy(&first, bytes.data(), 4);
    std::memcpy(&third, bytes.data() + 8, 4);
    EXPECT_EQ(first, 0x7fc00001u);  // a quiet NaN with a payload
    EXPECT_EQ(third, 0x7f800001u);  // a signalling NaN
    for (const NamedImageFormat& g : allImageFormats())
        EXPECT_FALSE(distinctiveChannelValues(g.type).empty());
}

}  // namespace
}  // namespace cts
