#include "test_common/harness/reports/mismatch_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace cts {
namespace {

const GridShape kBlock{"sub-group 0: block", 4, 8, "row", "column"};

TEST(MismatchPicture, JsonRoundTrip) {
    MismatchPicture p;
    p.mark(kBlock, 3, 7, 0x0102030405060708ull, 0, 8);
    for (uint32_t col : {0, 1, 2}) p.mark(kBlock, 0, col, 1, 2, 8);
    p.mark(kBlock, 1, 0, 1, 2, 8);
    p.omitted_cells = 2;
    nlohmann::json j = nlohmann::json::parse(pictureJson(p).dump());
    EXPECT_EQ(j["grids"][0]["cells"][0]["expected"], "0x0102030405060708");
    EXPECT_EQ(j["grids"][0]["marked"], "0+3,8+1,31+1");  // row-major runs: (0, 0..2), (1, 0), (3, 7)
    EXPECT_EQ(j["grids"][0]["row_axis"], "row");
    MismatchPicture back = pictureFromJson(j);
    ASSERT_EQ(back.grids.size(), 1u);
    EXPECT_EQ(back.grids[0].shape.title, kBlock.title);
    EXPECT_EQ(back.grids[0].cells[0].col, 7u);
    EXPECT_EQ(back.grids[0].cells[0].actual, "0x0000000000000000");
    EXPECT_EQ(back.omitted_cells, 2u);
    EXPECT_EQ(back.grids[0].marked, p.grids[0].marked);
    j["grids"][0]["marked"] = "3-4";
    EXPECT_THROW(pictureFromJson(j), std::invalid_argument);
    EXPECT_THROW(pictureFromJson(nlohmann::json::parse(R"({"grids": [{"title": 1}]})")),
                 nlohmann::json::exception);
}

}  // namespace
}  // namespace cts
