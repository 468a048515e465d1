// nonExecutingDriverMode: compute-runtime's no-hardware (AUB) mode is recognised from its debug keys only
// when they are read, and only for the AUB command stream receiver (the others execute on a GPU or a
// simulator).
#include "test_common/harness/device/device_under_test.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace cts {
namespace {

std::string modeWith(const std::map<std::string, std::string>& vars) {
    return nonExecutingDriverMode([&vars](const char* name) -> const char* {
        auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    });
}

TEST(NonExecutingDriverMode, TheAubReceiverWithItsKeysReadIsRefusedInOneLine) {
    const std::string why = modeWith({{"NEOReadDebugKeys", "1"}, {"SetCommandStreamReceiver", "1"}});
    EXPECT_NE(why.find("--build-only"), std::string::npos) << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
    EXPECT_FALSE(modeWith({{"NEOReadDebugKeys", "0x1"}, {"SetCommandStreamReceiver", "0x1"}}).empty());
}

TEST(NonExecutingDriverMode, OtherReceiversUnreadKeysAndMalformedValuesRun) {
    EXPECT_EQ(modeWith({}), "");
    EXPECT_EQ(modeWith({{"SetCommandStreamReceiver", "1"}}), "");  // the keys are not read
    EXPECT_EQ(modeWith({{"NEOReadDebugKeys", "0"}, {"SetCommandStreamReceiver", "1"}}), "");
    for (const char* csr : {"0", "2", "3", "4", "-1", "1x", ""})
        EXPECT_EQ(modeWith({{"NEOReadDebugKeys", "1"}, {"SetCommandStreamReceiver", csr}}), "") << csr;
}

}  // namespace
}  // namespace cts
