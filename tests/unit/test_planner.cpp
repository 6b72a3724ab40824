// Planner: the FFTW-MPI block distribution, stage widths within the memory budget, and that the
// stages cover every column of every destination exactly once.
#include <gtest/gtest.h>

#include <vector>

#include "engine/src/planner.h"
#include "xpose/error.h"

namespace xpose {
namespace {

TEST(BlockDistribution, MatchesFftwBlocks) {
  // 10 over 4: blocks of 3 -> 3,3,3,1
  BlockDistribution d(10, 4);
  EXPECT_EQ(d.block, 3);
  EXPECT_EQ(d.count(0), 3);
  EXPECT_EQ(d.count(3), 1);
  EXPECT_EQ(d.offset(3), 9);
  // 5 over 4: blocks of 2 -> 2,2,1,0 (a trailing empty rank)
  BlockDistribution e(5, 4);
  EXPECT_EQ(e.count(2), 1);
  EXPECT_EQ(e.count(3), 0);
  EXPECT_EQ(e.offset(3), 5);
  // 1 over 3: only rank 0 holds anything
  BlockDistribution f(1, 3);
  EXPECT_EQ(f.count(0), 1);
  EXPECT_EQ(f.count(1), 0);
  EXPECT_EQ(f.count(2), 0);
  for (int n : {1, 2, 7, 64, 1031})
    for (int p = 1; p <= 9; ++p) {
      BlockDistribution b(n, p);
      std::int64_t sum = 0;
      for (int r = 0; r < p; ++r) {
        EXPECT_EQ(b.offset(r), std::min<std::int64_t>(n, sum)) << n << "/" << p;
        sum += b.count(r);
      }
      EXPECT_EQ(sum, n);
    }
}

PlanRequest request(Shape shape, std::size_t s, int ranks, std::int64_t mem) {
  PlanRequest r;
  r.shape = shape;
  r.elem_size = s;
  r.nranks = ranks;
  r.host_mem = mem;
  return r;
}

TEST(Planner, WholeSlabFitsInOneStage) {
  Plan p = make_plan(request({1024, 2048}, 4, 2, 1ll << 30));
  EXPECT_EQ(p.num_stages(), 1);
  EXPECT_EQ(p.width, 1024);
  EXPECT_EQ(p.out_shape, (Shape{2048, 1024}));
  EXPECT_LE(p.memory_per_rank(), 1ll << 30);
}

TEST(Planner, StreamsWhenTheBudgetIsSmall) {
  // 2 GiB float32 over 3 ranks in 256 MiB: many stages, each within budget.
  const std::int64_t budget = 256ll << 20;
  Plan p = make_plan(request({16384, 32768}, 4, 3, budget));
  EXPECT_GT(p.num_stages(), 1);
  EXPECT_LE(p.memory_per_rank(), budget);
  EXPECT_GE(p.memory_per_rank(), budget / 2) << "stages should use most of the budget";
}

TEST(Planner, StagesCoverEveryColumnOnce) {
  for (int ranks : {1, 2, 3, 4, 7})
    for (std::int64_t cap : {0, 1, 3, 5}) {
      PlanRequest r = request({3, 13, 29}, 8, ranks, 1ll << 30);
      r.max_width = cap;
      Plan p = make_plan(r);
      // covered[b][c] counts how often column c of matrix b is handled
      std::vector<std::vector<int>> covered(3, std::vector<int>(29, 0));
      for (std::int64_t k = 0; k < p.num_stages(); ++k) {
        Stage s = p.stage(k);
        for (int q = 0; q < ranks; ++q)
          for (std::int64_t c = 0; c < p.width_of(q, s); ++c)
            for (std::int64_t b = 0; b < s.inner_count; ++b)
              ++covered[s.inner_begin + b][p.out_rows.offset(q) + s.col_offset + c];
      }
      for (auto& row : covered)
        for (int v : row) ASSERT_EQ(v, 1) << "ranks=" << ranks << " cap=" << cap;
    }
}

TEST(Planner, BatchesShareAStageWhenTheyFit) {
  Plan p = make_plan(request({2, 8, 16, 16}, 4, 2, 1ll << 30));
  EXPECT_EQ(p.batch_outer, 2);
  EXPECT_EQ(p.batch_inner, 8);
  EXPECT_EQ(p.inner_per_stage, 8);
  EXPECT_EQ(p.num_stages(), 2);
  Stage s = p.stage(1);
  EXPECT_EQ(s.outer, 1);
  EXPECT_EQ(s.inner_count, 8);
}

TEST(Planner, StagesAreBalanced) {
  PlanRequest r = request({100, 1000}, 4, 1, 0);
  r.max_width = 600;
  r.host_mem = 1ll << 30;
  Plan p = make_plan(r);
  EXPECT_EQ(p.col_stages, 2);
  EXPECT_EQ(p.width, 500);
}

TEST(Planner, CountsStayWithinMpiInt) {
  PlanRequest r = request({1ll << 20, 1ll << 20}, 1, 2, 1ll << 62);
  Plan p = make_plan(r);
  EXPECT_LE(p.buffer_elems, 2147483647);
  EXPECT_GT(p.num_stages(), 1);
}

TEST(Planner, RejectsTooSmallBudgetWithTheNeededSize) {
  try {
    make_plan(request({1 << 20, 16}, 8, 4, 1024));
    FAIL() << "expected ResourceError";
  } catch (const ResourceError& e) {
    EXPECT_NE(std::string(e.what()).find("--host-mem"), std::string::npos) << e.what();
  }
}

TEST(Planner, AnEmptyDatasetHasNoStages) {
  // An extent of 0 anywhere: nothing to move, and no division by the empty extent.
  for (const Shape& shape : {Shape{0, 5}, Shape{5, 0}, Shape{3, 0, 4}, Shape{2, 3, 0}, Shape{0, 0}})
    for (int nranks : {1, 3}) {
      Plan p = make_plan(request(shape, 8, nranks, 1));
      EXPECT_EQ(p.num_stages(), 0) << format_shape(shape);
      EXPECT_EQ(p.total_bytes(), 0);
      EXPECT_EQ(p.buffer_bytes(), 0);
      EXPECT_EQ(p.out_shape[shape.size() - 1], shape[shape.size() - 2]);
      EXPECT_NE(p.describe().find("empty"), std::string::npos) << p.describe();
    }
}

TEST(Planner, RejectsRankOneAndOddElementSizes) {
  EXPECT_THROW(make_plan(request({10}, 4, 1, 1 << 20)), UnsupportedInputError);
  EXPECT_THROW(make_plan(request({10, 10}, 3, 1, 1 << 20)), UnsupportedInputError);
  EXPECT_THROW(make_plan(request({10, 10}, 32, 1, 1 << 20)), UnsupportedInputError);
}

TEST(Planner, ExchangedBytesExcludeOwnPiece) {
  Plan p = make_plan(request({10, 20}, 4, 2, 1 << 20));
  // rank 0 holds rows 0..4 and keeps columns 0..9: it sends 5 x 10 elements.
  EXPECT_EQ(p.exchanged_bytes(0), 5 * 10 * 4);
  Plan one = make_plan(request({10, 20}, 4, 1, 1 << 20));
  EXPECT_EQ(one.exchanged_bytes(0), 0);
}

}  // namespace
}  // namespace xpose
