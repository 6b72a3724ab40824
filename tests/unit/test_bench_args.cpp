// The bench programs' command-line values (bench/arg_list.h): lists split on commas, and whole
// numbers that are refused, not guessed, when mistyped (bench_kernels and bench_copy_ceiling
// exit with status 2 on them).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/arg_list.h"

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

}  // namespace
}  // namespace xpose::bench
