#include "test_common/harness/model/mismatch.h"

#include <gtest/gtest.h>

namespace cts {
namespace {

const GridShape kBlock{"sub-group 0: block", 4, 8, "row", "column"};

TEST(MismatchPicture, FailingOutcomeCarriesTheMarkedCells) {
    MismatchLog log("rule");
    log.checked(32);
    log.add("row 1 col 2", 0x12, 0xa5, 1);
    log.mark(kBlock, 1, 2, 0x12, 0xa5, 1);
    log.mark(GridShape{"lanes", 16, 4, "lane", "component"}, 15, 3, 0x1234, 0, 2);
    Outcome out = log.outcome();
    ASSERT_EQ(out.status, Status::Fail);
    EXPECT_NE(out.message.find("row 1 col 2: expected 0x12 actual 0xa5"), std::string::npos);  // text stays
    ASSERT_EQ(out.picture.grids.size(), 2u);
    const MismatchGrid& g = out.picture.grids[0];
    EXPECT_EQ(g.shape.title, "sub-group 0: block");
    EXPECT_EQ(g.shape.rows, 4u);
    EXPECT_EQ(g.shape.cols, 8u);
    EXPECT_EQ(g.count, 1u);
    ASSERT_EQ(g.cells.size(), 1u);
    EXPECT_EQ(g.cells[0].row, 1u);
    EXPECT_EQ(g.cells[0].col, 2u);
    EXPECT_EQ(g.cells[0].expected, "0x12");
    EXPECT_EQ(g.cells[0].actual, "0xa5");
    const MismatchGrid& lanes = out.picture.grids[1];
    EXPECT_EQ(lanes.shape.row_axis, "lane");
    EXPECT_EQ(lanes.shape.col_axis, "component");
    EXPECT_EQ(lanes.cells[0].expected, "0x1234");
    EXPECT_EQ(lanes.cells[0].actual, "0x0000");
}

TEST(MismatchPicture, PassingOutcomeHasNoPicture) {
    MismatchLog log;
    log.checked();
    EXPECT_EQ(log.outcome().status, Status::Pass);
    EXPECT_TRUE(log.outcome().picture.empty());
}

TEST(MismatchPicture, BoundedCellsAndGridsButCountsEverything) {
    MismatchPicture p;
    for (uint32_t i = 0; i < 1000; ++i) p.mark(kBlock, i / 8, i % 8, i, i + 1, 4);
    for (uint32_t g = 0; g < MismatchPicture::kMaxGrids + 3; ++g)
        p.mark(GridShape{"grid " + std::to_string(g), 1, 1}, 0, 0, 0, 1, 1);
    ASSERT_EQ(p.grids.size(), MismatchPicture::kMaxGrids);
    EXPECT_EQ(p.grids[0].count, 1000u);
    EXPECT_EQ(p.grids[0].cells.size(), MismatchPicture::kMaxCells);
    EXPECT_EQ(p.grids[0].cells.back().row, (MismatchPicture::kMaxCells - 1) / 8);  // the first ones are kept
    EXPECT_EQ(p.grids[0].marked.size(), 1000u);  // every position, up to kMaxMarked
    for (uint32_t i = 0; i < MismatchPicture::kMaxMarked; ++i) p.mark(kBlock, 0, 0, 0, 1, 1);
    EXPECT_EQ(p.grids[0].marked.size(), 1000u);  // the same cell twice is one position
    MismatchPicture big;
    const GridShape surface{"memory", 1000, 1000};
    for (uint32_t i = 0; i < 2 * MismatchPicture::kMaxMarked; ++i)
        big.mark(surface, i / 1000, i % 1000, 0, 1, 1);
    EXPECT_EQ(big.grids[0].marked.size(), MismatchPicture::kMaxMarked);
    EXPECT_EQ(big.grids[0].count, 2 * MismatchPicture::kMaxMarked);
    EXPECT_EQ(p.omitted_cells, 4u);  // the grids past kMaxGrids: only counted
    EXPECT_FALSE(p.empty());
}

}  // namespace
}  // namespace cts
