// Size and shape strings, dtype names, checked arithmetic.
#include <gtest/gtest.h>

#include "xpose/error.h"
#include "xpose/types.h"

namespace xpose {
namespace {

TEST(ParseSize, AcceptsBytesAndBinaryUnits) {
  EXPECT_EQ(parse_size("4096"), 4096);
  EXPECT_EQ(parse_size("256MiB"), 256ll << 20);
  EXPECT_EQ(parse_size("256M"), 256ll << 20);
  EXPECT_EQ(parse_size("256MB"), 256ll << 20);
  EXPECT_EQ(parse_size("2G"), 2ll << 30);
  EXPECT_EQ(parse_size("2gib"), 2ll << 30);
  EXPECT_EQ(parse_size("1T"), 1ll << 40);
  EXPECT_EQ(parse_size("8k"), 8192);
  EXPECT_EQ(parse_size("1.5GiB"), 3ll << 29);
  EXPECT_EQ(parse_size(" 64 MiB "), 64ll << 20);
}

TEST(ParseSize, RejectsGarbage) {
  for (const char* bad : {"", "MiB", "12XB", "1.2.3G", "-5M", "lots"})
    EXPECT_THROW(parse_size(bad), UsageError) << bad;
}

TEST(ParseShape, ParsesAndRejects) {
  EXPECT_EQ(parse_shape("1024x2048"), (Shape{1024, 2048}));
  EXPECT_EQ(parse_shape("4x257x1031"), (Shape{4, 257, 1031}));
  EXPECT_EQ(format_shape({4, 257, 1031}), "4x257x1031");
  for (const char* bad : {"", "0x5", "5x", "ax3", "3x-1", "99999999999x99999999999"})
    EXPECT_THROW(parse_shape(bad), UsageError) << bad;
}

TEST(ElementTypeNames, RoundTrip) {
  for (const char* n : {"float32", "float64", "complex64", "complex128", "int8", "uint64"})
    EXPECT_EQ(ElementType::parse(n).name(), n);
  EXPECT_EQ(ElementType::parse("complex128").size, 16u);
  EXPECT_THROW(ElementType::parse("float16x"), UsageError);
}

TEST(CheckedMul, DetectsOverflow) {
  EXPECT_EQ(checked_mul(1ll << 31, 1ll << 31), 1ll << 62);
  EXPECT_THROW(checked_mul(1ll << 32, 1ll << 32), DimensionMismatch);
  EXPECT_THROW(element_count({1ll << 40, 1ll << 40}), DimensionMismatch);
}

TEST(FormatSize, BinaryUnits) {
  EXPECT_EQ(format_size(256.0 * (1 << 20)), "256 MiB");
  EXPECT_EQ(format_size(1536), "1.5 KiB");
  EXPECT_EQ(format_size(12), "12 B");
}

}  // namespace
}  // namespace xpose
