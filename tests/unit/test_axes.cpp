// Axis orders: parsing and resolving --axes, and AxisMap, the reduction of any permutation to the
// engine's batched 2-D transpose. The map is checked element by element: for every element of the
// engine's view, the dataset coordinates it reads (dataset_in) and writes (dataset_out) must be
// related by the permutation, and the merged views' row-major offsets must be the datasets' own.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/src/axes.h"
#include "engine/src/planner.h"
#include "xpose/error.h"

namespace xpose {
namespace {

std::int64_t linear(const Shape& index, const Shape& shape) {
  std::int64_t l = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) l = l * shape[d] + index[d];
  return l;
}

Shape unravel(std::int64_t l, const Shape& shape) {
  Shape index(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    index[d] = l % shape[d];
    l /= shape[d];
  }
  return index;
}

TEST(Axes, SplitsAndRejectsEmptyEntries) {
  EXPECT_EQ(split_axes("2,0,1"), (std::vector<std::string>{"2", "0", "1"}));
  EXPECT_EQ(split_axes(" lat , lon,time"), (std::vector<std::string>{"lat", "lon", "time"}));
  EXPECT_THROW(split_axes(""), UsageError);
  EXPECT_THROW(split_axes("0,,1"), UsageError);
  EXPECT_THROW(split_axes("0,1,"), UsageError);
}

TEST(Axes, ResolvesNumbersAsNumpyDoes) {
  const Shape s{4, 5, 6};
  EXPECT_EQ(resolve_axes({"2", "0", "1"}, s, {}, "x"), (Permutation{2, 0, 1}));
  EXPECT_EQ(resolve_axes({"-1", "0", "-2"}, s, {}, "x"), (Permutation{2, 0, 1}));
  for (auto bad : std::vector<std::vector<std::string>>{
           {"0", "1"}, {"0", "1", "1"}, {"0", "1", "3"}, {"0", "1", "-4"}, {"0", "x", "1"}})
    EXPECT_THROW(resolve_axes(bad, s, {}, "x"), UsageError) << bad.size();
  // Names where the dataset has none: a usage error that suggests numbers.
  EXPECT_THROW(resolve_axes({"lat", "lon", "time"}, s, {}, "x"), UsageError);
  EXPECT_THROW(resolve_axes({"1", "0"}, Shape{7}, {}, "x"), UnsupportedInputError);
  EXPECT_THROW(resolve_axes({"0", "1", "2", "3", "4", "5", "6", "7", "8"}, Shape(9, 2), {}, "x"),
               UnsupportedInputError);
  EXPECT_EQ(resolve_axes({"7", "6", "5", "4", "3", "2", "1", "0"}, Shape(8, 2), {}, "x"),
            (Permutation{7, 6, 5, 4, 3, 2, 1, 0}));
}

TEST(Axes, ResolvesNamesAsNcpdqDoes) {
  const Shape s{3, 4, 5, 6};
  const std::vector<std::string> dims{"time", "lev", "lat", "lon"};
  EXPECT_EQ(resolve_axes({"lon", "lat", "lev", "time"}, s, dims, "v"), (Permutation{3, 2, 1, 0}));
  // Some dimensions named: those take the positions they hold, in the order given.
  EXPECT_EQ(resolve_axes({"lon", "lat"}, s, dims, "v"), (Permutation{0, 1, 3, 2}));
  EXPECT_EQ(resolve_axes({"lat", "lon", "time"}, s, dims, "v"), (Permutation{2, 1, 3, 0}));
  EXPECT_THROW(resolve_axes({"lat", "depth"}, s, dims, "v"), UsageError);
  EXPECT_THROW(resolve_axes({"lat", "lat"}, s, dims, "v"), UsageError);
  EXPECT_THROW(resolve_axes({"lat", "0"}, s, dims, "v"), UsageError);
  EXPECT_THROW(resolve_axes({"x"}, Shape{3, 3}, {"x", "x"}, "v"), UsageError);
  EXPECT_EQ(reorder_by_names({"time", "lat", "lon"}, {"lat", "lon", "time"}),
            (Permutation{1, 2, 0}));
  EXPECT_EQ(reorder_by_names({"lat", "nv"}, {"lat", "lon", "time"}), (Permutation{0, 1}));
  EXPECT_EQ(reorder_by_names({"time", "nv", "lat"}, {"lat", "lon", "time"}),
            (Permutation{2, 1, 0}));
}

TEST(Axes, RegionsCoverARangeExactlyInOrder) {
  const Shape shape{3, 4, 5};
  for (std::int64_t first = 0; first < 60; first += 7)
    for (std::int64_t count = 0; first + count <= 60; count += 5) {
      std::vector<Region> regions;
      regions_for_range(shape, first, count, regions);
      std::vector<std::int64_t> seen;
      for (const auto& r : regions) {
        const std::int64_t n = element_count(r.count);
        for (std::int64_t k = 0; k < n; ++k) {
          Shape idx = unravel(k, r.count);
          for (std::size_t d = 0; d < 3; ++d) idx[d] += r.start[d];
          seen.push_back(linear(idx, shape));
        }
      }
      std::vector<std::int64_t> want(static_cast<std::size_t>(count));
      std::iota(want.begin(), want.end(), first);
      EXPECT_EQ(seen, want) << first << "+" << count;
      EXPECT_LE(regions.size(), 5u);
    }
}

// Every element of the engine's view reads input x and writes output y with y[i] == x[perm[i]];
// together they cover each dataset element once; the merged views address the same bytes.
void check_map(const Shape& shape, const Permutation& perm) {
  const AxisMap m = AxisMap::make(shape, perm);
  const std::string what = format_shape(shape) + " axes " + format_axes(perm);
  const Shape out_shape = permute_shape(shape, perm);
  ASSERT_EQ(m.out_shape(), out_shape) << what;
  const Shape& engine = m.engine_shape();
  ASSERT_GE(engine.size(), 2u) << what;
  const std::int64_t elem = m.element_extent();
  ASSERT_EQ(element_count(engine) * elem, element_count(shape)) << what;
  const Shape min = m.merged_in_shape(), mout = m.merged_out_shape();
  ASSERT_EQ(element_count(min), element_count(engine)) << what;
  ASSERT_EQ(element_count(mout), element_count(engine)) << what;
  std::set<std::int64_t> read, written;
  const std::size_t n = engine.size();
  for (std::int64_t e = 0; e < element_count(engine); ++e) {
    Region r{unravel(e, engine), Shape(n, 1)};
    std::vector<Region> in, out;
    m.dataset_in(r, in);
    m.dataset_out(r, out);
    ASSERT_EQ(in.size(), 1u) << what;
    ASSERT_EQ(out.size(), 1u) << what;
    ASSERT_EQ(element_count(in[0].count), elem) << what;
    ASSERT_EQ(element_count(out[0].count), elem) << what;
    // The element's dataset elements, in order, on both sides.
    for (std::int64_t k = 0; k < elem; ++k) {
      Shape x = unravel(k, in[0].count), y = unravel(k, out[0].count);
      for (std::size_t d = 0; d < shape.size(); ++d) {
        x[d] += in[0].start[d];
        y[d] += out[0].start[d];
      }
      for (std::size_t i = 0; i < shape.size(); ++i)
        ASSERT_EQ(y[i], x[perm[i]]) << what << " engine element " << e;
      ASSERT_TRUE(read.insert(linear(x, shape)).second) << what;
      ASSERT_TRUE(written.insert(linear(y, out_shape)).second) << what;
      if (k == 0) {
        // Merged views: the same offsets, in engine elements.
        ASSERT_EQ(linear(m.merged_in(r).start, min) * elem, linear(x, shape)) << what;
        ASSERT_EQ(linear(m.merged_out(r).start, mout) * elem, linear(y, out_shape)) << what;
        // Strides of the engine axes in the merged views.
        for (std::size_t a = 0; a < n; ++a) {
          if (r.start[a] + 1 >= engine[a]) continue;
          Region next = r;
          ++next.start[a];
          ASSERT_EQ(linear(m.merged_in(next).start, min) - linear(m.merged_in(r).start, min),
                    m.in_stride(a))
              << what;
          ASSERT_EQ(linear(m.merged_out(next).start, mout) - linear(m.merged_out(r).start, mout),
                    m.out_stride(a))
              << what;
        }
      }
    }
  }
  ASSERT_EQ(static_cast<std::int64_t>(read.size()), element_count(shape)) << what;
  // Whole engine regions map to the same elements as their single elements (a rows x cols piece).
  if (n >= 2 && engine[n - 2] > 1 && engine[n - 1] > 2) {
    Region piece{Shape(n, 0), engine};
    piece.start[n - 1] = 1;
    piece.count[n - 1] = engine[n - 1] - 2;
    piece.count[n - 2] = engine[n - 2] - 1;
    std::vector<Region> in;
    m.dataset_in(piece, in);
    std::int64_t covered = 0;
    for (const auto& r : in) covered += element_count(r.count);
    ASSERT_EQ(covered, element_count(piece.count) * elem) << what;
  }
}

TEST(AxisMap, EveryOrderOfRanksTwoToFourMapsEveryElement) {
  for (const Shape& shape :
       {Shape{3, 4}, Shape{1, 5}, Shape{2, 3, 4}, Shape{3, 1, 5}, Shape{2, 3, 4, 5},
        Shape{1, 3, 1, 2}, Shape{1, 1}, Shape{2, 1, 3, 1}}) {
    Permutation perm(shape.size());
    std::iota(perm.begin(), perm.end(), 0);
    do {
      check_map(shape, perm);
      if (HasFatalFailure()) return;
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

TEST(AxisMap, RandomOrdersOfRanksFiveToEight) {
  std::mt19937 rng(50);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t rank = 5 + trial % 4;
    Shape shape(rank);
    for (auto& e : shape) e = 1 + static_cast<std::int64_t>(rng() % 3);
    Permutation perm(rank);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    check_map(shape, perm);
    if (HasFatalFailure()) return;
  }
}

TEST(AxisMap, GroupsAxesThatMoveTogether) {
  // (time, lat, lon) -> (lat, lon, time): (time, lat*lon) transposed, one pass.
  AxisMap m = AxisMap::make({64, 2048, 2048}, {1, 2, 0});
  EXPECT_EQ(m.engine_shape(), (Shape{64, 4194304}));
  EXPECT_EQ(m.element_extent(), 1);
  // (a, b, c) -> (b, a, c): c-long elements.
  m = AxisMap::make({5, 6, 7}, {1, 0, 2});
  EXPECT_EQ(m.engine_shape(), (Shape{5, 6}));
  EXPECT_EQ(m.element_extent(), 7);
  // (2, 3, 1, 0) of (A, B, C, D): C*D against A, B a batch between them on both sides.
  m = AxisMap::make({16, 64, 512, 512}, {2, 3, 1, 0});
  EXPECT_EQ(m.engine_shape(), (Shape{64, 16, 262144}));
  EXPECT_FALSE(m.in_batch_outer());
  EXPECT_FALSE(m.out_batch_outer());
  // Length-1 axes take no part: (4, 1, 5) -> (5, 1, 4) is a 2-D transpose.
  m = AxisMap::make({4, 1, 5}, {2, 1, 0});
  EXPECT_EQ(m.engine_shape(), (Shape{4, 5}));
  // The identity: one row of every element.
  m = AxisMap::make({3, 4}, {0, 1});
  EXPECT_EQ(m.engine_shape(), (Shape{1, 12}));
  // Without --axes nothing merges: today's plan, axis for axis.
  m = AxisMap::swap_last_two({2, 8, 16, 16});
  EXPECT_EQ(m.engine_shape(), (Shape{2, 8, 16, 16}));
  EXPECT_EQ(m.out_shape(), (Shape{2, 8, 16, 16}));
  EXPECT_TRUE(m.in_batch_outer() && m.out_batch_outer());
}

TEST(AxisMap, PlannerTakesTheEngineViewAndWideElements) {
  PlanRequest r;
  r.shape = {5, 6, 7};
  r.elem_size = 8;
  r.perm = {1, 0, 2};
  r.nranks = 2;
  r.host_mem = 1 << 20;
  Plan p = make_plan(r);
  EXPECT_EQ(p.out_shape, (Shape{6, 5, 7}));
  EXPECT_EQ(p.elem_size, 56u);
  EXPECT_EQ(p.rows, 5);
  EXPECT_EQ(p.cols, 6);
  EXPECT_EQ(p.total_bytes(), 5 * 6 * 7 * 8);
  EXPECT_NE(p.describe().find("element"), std::string::npos) << p.describe();
  r.perm = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  r.shape = Shape(9, 2);
  EXPECT_THROW(make_plan(r), UnsupportedInputError);
}

TEST(AxisMap, ABatchInsideTheOutputRowsIsTakenWholeFirst) {
  // (2, 3, 1, 0): output [C][B][R]; a stage of every matrix writes runs of B x R elements.
  for (int ranks : {1, 2, 3})
    for (std::int64_t mem :
         {std::int64_t{4} << 10, std::int64_t{64} << 10, std::int64_t{1} << 30}) {
      PlanRequest r;
      r.shape = {4, 6, 5, 7};
      r.elem_size = 4;
      r.perm = {2, 3, 1, 0};
      r.nranks = ranks;
      r.host_mem = mem;
      Plan p = make_plan(r);
      ASSERT_FALSE(p.axes.out_batch_outer());
      EXPECT_EQ(p.inner_per_stage, p.batch_inner) << ranks << " ranks, " << mem << " B";
      // Every column of every matrix once.
      std::vector<int> covered(static_cast<std::size_t>(p.batch_inner * p.cols), 0);
      for (std::int64_t k = 0; k < p.num_stages(); ++k) {
        const Stage s = p.stage(k);
        for (int q = 0; q < ranks; ++q)
          for (std::int64_t c = 0; c < p.width_of(q, s); ++c)
            for (std::int64_t b = 0; b < s.inner_count; ++b)
              ++covered[static_cast<std::size_t>((s.inner_begin + b) * p.cols +
                                                 p.out_rows.offset(q) + s.col_offset + c)];
      }
      for (int v : covered) ASSERT_EQ(v, 1) << ranks << " ranks, " << mem << " B";
      EXPECT_LE(p.memory_per_rank(),
                std::max<std::int64_t>(mem, p.buffer_bytes() * p.host_buffers));
    }
}

}  // namespace
}  // namespace xpose
