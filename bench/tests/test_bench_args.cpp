// The bench programs' command-line values (bench/arg_list.h): lists split on commas, and whole
// numbers that are refused, not guessed, when mistyped (the bench programs exit with status 2
// on them); and the statistic they report for repeated timings (bench/stats.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/arg_list.h"
#include "bench/stats.h"

namespace xpose::bench {
namespace {

TEST(BenchArgs, SplitsListsAndDropsEmptyItems) {
  EXPECT_EQ(split_list("a,b,,c"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(split_list(",x,"), (std::vector<std::string>{"x"}));
  EXPECT_TRUE(split_list("").empty());
}

TEST(BenchArgs, ParsesWholeNumbersInRangeOnly) {
  long long v = -1;
  EXPECT_TRUE(parse_whole("20", 1, 100000, v));
  EXPECT_EQ(v, 20);
  EXPECT_TRUE(parse_whole("1048576", 1, 1LL << 20, v));
  EXPECT_EQ(v, 1LL << 20);
  v = -1;
  for (const char* bad : {"", "abc", "5x", "0", "100001", "-3", " ", "99999999999999999999999"})
    EXPECT_FALSE(parse_whole(bad, 1, 100000, v)) << "'" << bad << "'";
  EXPECT_EQ(v, -1) << "a refused value leaves the output alone";
}

TEST(BenchArgs, ParsesShapesWithinTheElementLimit) {
  long long r = -1, c = -1;
  EXPECT_TRUE(parse_shape("16384x16384", 32768LL * 32768LL, r, c));
  EXPECT_EQ(r, 16384);
  EXPECT_EQ(c, 16384);
  EXPECT_TRUE(parse_shape("1x1073741824", 1LL << 30, r, c));
  EXPECT_EQ(r, 1);
  EXPECT_EQ(c, 1LL << 30);
  r = c = -1;
  for (const char* bad : {"", "16384", "x5", "5x", "0x5", "5x0", "2x3x4", "32769x32768",
                          "1073741825x1", "-2x-3", "99999999999x99999999999"})
    EXPECT_FALSE(parse_shape(bad, 32768LL * 32768LL, r, c)) << "'" << bad << "'";
  EXPECT_EQ(r, -1) << "a refused shape leaves the outputs alone";
  EXPECT_EQ(c, -1);
}

TEST(BenchArgs, ReadsRepetitionCounts) {
  int reps = 7;
  EXPECT_TRUE(read_reps("20", reps));
  EXPECT_EQ(reps, 20);
  for (const char* bad : {"0", "100001", "ten", ""}) EXPECT_FALSE(read_reps(bad, reps)) << bad;
  EXPECT_EQ(reps, 20);
}

TEST(BenchStats, MedianAndInterquartileSpread) {
  // Odd count, any order: the middle value; quartiles t[n/4] = 2 and t[3n/4] = 4 of 1..5.
  Spread s = median_spread({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.iqr_pct, 100.0 * (4 - 2) / 3);
  // Even count: the mean of the two middle values (not the upper one).
  s = median_spread({10, 40, 20, 30});
  EXPECT_DOUBLE_EQ(s.median, 25);
  EXPECT_DOUBLE_EQ(s.iqr_pct, 100.0 * (40 - 20) / 25);
  s = median_spread({7});
  EXPECT_DOUBLE_EQ(s.median, 7);
  EXPECT_DOUBLE_EQ(s.iqr_pct, 0);
  s = median_spread({});
  EXPECT_DOUBLE_EQ(s.median, 0);
  EXPECT_DOUBLE_EQ(s.iqr_pct, 0);
}

TEST(BenchStats, BandwidthCountsEveryByteReadAndWritten) {
  // 1 GB read and written in 1 ms: 2000 GB/s; 4 GiB in 2.9 ms: about 2962 GB/s.
  EXPECT_DOUBLE_EQ(read_write_gbps(1e9, 1.0), 2000.0);
  EXPECT_NEAR(read_write_gbps(4294967296.0, 2.9), 2962.05, 0.01);
}

}  // namespace
}  // namespace xpose::bench
