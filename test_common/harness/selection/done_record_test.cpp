#include "test_common/harness/selection/done_record.h"

#include <gtest/gtest.h>

namespace cts {
namespace {

std::vector<uint8_t> records(const DoneLayout& layout) {
    std::vector<uint8_t> done(layout.bytes());
    for (size_t s = 0; s < layout.invocations(); ++s)
        for (int b = 0; b < 4; ++b) done[4 * s + b] = uint8_t((s + kDoneMagic) >> (8 * b));
    return done;
}

const DoneLayout kLayout{2, 3, 16};  // 96 invocations

TEST(DoneRecords, EveryRecordPresentPasses) {
    MismatchLog log;
    checkDoneRecords(records(kLayout), kLayout, log);
    EXPECT_TRUE(log.ok());
    EXPECT_EQ(log.checkedCount(), 96u);
}

TEST(DoneRecords, KernelThatNeverRanFailsEveryRecord) {
    MismatchLog log;
    checkDoneRecords(std::vector<uint8_t>(kLayout.bytes(), 0xA5), kLayout, log);
    EXPECT_EQ(log.count(), 96u);
}

TEST(DoneRecords, OneMissingRecordNamesItsWorkGroupSubGroupAndLane) {
    std::vector<uint8_t> done = records(kLayout);
    const size_t s = 1 * 48 + 2 * 16 + 5;  // work-group 1, sub-group 2, lane 5
    done[4 * s] = 0xA5;
    MismatchLog log;
    checkDoneRecords(done, kLayout, log);
    EXPECT_EQ(log.count(), 1u);
    EXPECT_NE(log.outcome().message.find("work-group 1 sub-group 2 lane 5"), std::string::npos)
        << log.outcome().message;
}

TEST(DoneRecords, ConstantRecordFromEveryInvocationFails) {
    // A store of the same value by every invocation (or every record in slot 0's value) is not a record.
    std::vector<uint8_t> done(kLayout.bytes());
    for (size_t s = 0; s < kLayout.invocations(); ++s) done[4 * s + 1] = kDoneMagic >> 8;
    MismatchLog log;
    checkDoneRecords(done, kLayout, log);
    EXPECT_EQ(log.count(), 95u);
}

TEST(DoneRecords, CorruptLastByteFails) {
    std::vector<uint8_t> done = records(kLayout);
    done.back() ^= 1;  // what a read-back that flips its last byte does
    MismatchLog log;
    checkDoneRecords(done, kLayout, log);
    EXPECT_EQ(log.count(), 1u);
}

TEST(DoneRecords, ShortBufferFails) {
    std::vector<uint8_t> done = records(kLayout);
    done.resize(done.size() - 4);
    MismatchLog log;
    checkDoneRecords(done, kLayout, log);
    EXPECT_FALSE(log.ok());
}

}  // namespace
}  // namespace cts
