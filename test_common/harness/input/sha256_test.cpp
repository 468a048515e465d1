#include "test_common/harness/input/sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace cts {
namespace {

std::string hashOf(const std::string& s) {
    return sha256Hex(s.data(), s.size());
}

// The examples of FIPS 180-4's appendix (one block, two blocks, a million 'a').
TEST(Sha256, StandardExamples) {
    EXPECT_EQ(hashOf(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(hashOf("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(hashOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(hashOf(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths around the padding's block boundaries (55/56 bytes: the length still fits or spills into a second
// block); expected values from Python's hashlib.
TEST(Sha256, PaddingBoundaries) {
    EXPECT_EQ(hashOf(std::string(55, 'x')),
              "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072");
    EXPECT_EQ(hashOf(std::string(56, 'x')),
              "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e");
    EXPECT_EQ(hashOf(std::string(63, 'x')),
              "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2");
    EXPECT_EQ(hashOf(std::string(64, 'x')),
              "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c");
    EXPECT_EQ(hashOf(std::string(119, 'x')),
              "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c");
    EXPECT_EQ(hashOf(std::string(120, 'x')),
              "13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37308b276ba98");
}

TEST(Sha256, FilesGoThroughThePathGuard) {
    std::string error;
    EXPECT_EQ(sha256OfFile("/dev/zero", 1 << 20, &error), "");
    EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
}

}  // namespace
}  // namespace cts
