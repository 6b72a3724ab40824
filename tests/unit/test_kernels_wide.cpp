// The CPU kernel on the layouts axis orders bring (engine/src/axes.h): elements of any size (an
// axis group moved as one) and batches whose matrices interleave row by row (a batch axis between
// the rows and the columns), against the naive oracle, with poisoned outputs so stray or missing
// writes show.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels {
namespace {

constexpr unsigned char kPoison = 0xAB;

std::vector<unsigned char> random_bytes(std::size_t n, std::mt19937& rng) {
  std::vector<unsigned char> v(n);
  for (auto& b : v) b = static_cast<unsigned char>(rng());
  return v;
}

// Bytes a layout spans: the farthest element plus one.
std::size_t span(std::int64_t batch, std::int64_t stride, std::int64_t h, std::int64_t pitch,
                 std::int64_t w, std::size_t elem) {
  return static_cast<std::size_t>((batch - 1) * stride + (h - 1) * pitch + w) * elem;
}

void compare(std::size_t elem, const TransposeShape& shape, int threads, std::mt19937& rng) {
  const TransposeShape s = shape.resolved();
  const auto in =
      random_bytes(span(s.batch, s.in_batch_stride, s.rows, s.in_pitch, s.cols, elem), rng);
  const std::size_t out_bytes =
      span(s.batch, s.out_batch_stride, s.cols, s.out_pitch, s.rows, elem);
  std::vector<unsigned char> want(out_bytes, kPoison), got(out_bytes, kPoison);
  transpose_naive(in.data(), want.data(), elem, s);
  transpose_cpu(in.data(), got.data(), elem, s, threads);
  ASSERT_EQ(want, got) << "elem " << elem << " rows " << s.rows << " cols " << s.cols << " batch "
                       << s.batch << " pitches " << s.in_pitch << "/" << s.out_pitch << " strides "
                       << s.in_batch_stride << "/" << s.out_batch_stride << " threads " << threads;
}

TEST(WideElements, EverySizeAgainstTheOracle) {
  std::mt19937 rng(12);
  for (std::size_t elem : {3u, 5u, 6u, 12u, 20u, 24u, 32u, 48u, 64u, 65u, 100u, 384u, 4096u}) {
    for (auto [rows, cols, batch] :
         {std::tuple{1, 1, 1}, {7, 3, 1}, {33, 70, 2}, {1, 129, 1}, {90, 1, 3}}) {
      TransposeShape s = TransposeShape::dense(rows, cols, batch);
      compare(elem, s, 2, rng);
      if (HasFatalFailure()) return;
      // A sub-block of larger buffers: pitches and batch strides with gaps.
      TransposeShape sub;
      sub.rows = rows;
      sub.cols = cols;
      sub.batch = batch;
      sub.in_pitch = cols + 3;
      sub.out_pitch = rows + 5;
      sub.in_batch_stride = rows * sub.in_pitch + 7;
      sub.out_batch_stride = cols * sub.out_pitch + 2;
      compare(elem, sub, 3, rng);
      if (HasFatalFailure()) return;
    }
  }
  // Large enough to take several threads and tasks.
  compare(24, TransposeShape::dense(300, 500, 1), 2, rng);
}

TEST(InterleavedBatches, MatricesSharingRowsAgainstTheOracle) {
  std::mt19937 rng(13);
  for (std::size_t elem : {1u, 2u, 4u, 8u, 16u, 12u, 40u}) {
    for (auto [rows, cols, batch] : {std::tuple{5, 7, 3}, {16, 64, 4}, {1, 9, 5}, {37, 2, 6}}) {
      // Input [rows][batch][cols] and output [cols][batch][rows]: row i of matrix b at
      // (i * batch + b) * cols, as a stage reads a batch axis that lies inside the rows.
      TransposeShape s;
      s.rows = rows;
      s.cols = cols;
      s.batch = batch;
      s.in_pitch = batch * cols;
      s.in_batch_stride = cols;
      s.out_pitch = batch * rows;
      s.out_batch_stride = rows;
      compare(elem, s, 2, rng);
      if (HasFatalFailure()) return;
      // One side interleaved, the other not.
      s.out_pitch = rows;
      s.out_batch_stride = rows * cols;
      compare(elem, s, 1, rng);
      if (HasFatalFailure()) return;
    }
  }
  // Overlapping matrices are still refused.
  TransposeShape bad;
  bad.rows = 4;
  bad.cols = 4;
  bad.batch = 2;
  bad.in_pitch = 4;
  bad.in_batch_stride = 2;
  EXPECT_THROW(bad.resolved(), DimensionMismatch);
}

}  // namespace
}  // namespace xpose::kernels
