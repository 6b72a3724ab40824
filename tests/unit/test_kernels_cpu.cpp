// CPU kernels against the naive oracle: every element size, every instruction-set path this
// machine runs, odd and prime shapes, sub-blocks with pitches and batch strides, 1-3 threads.
// Payloads encode each element's linear index exactly, and outputs start poisoned, so a
// misplaced, missing or stray write is caught byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "kernels/cpu/thread_pool.h"
#include "kernels/cpu/transpose_cpu_internal.h"
#include "kernels/cuda/tma_units.h"
#include "kernels/cuda/spread.h"
#include "kernels/cuda/triangular.h"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels {
namespace {

using Bytes = std::vector<unsigned char>;
constexpr unsigned char kPoison = 0xAB;
const std::size_t kElemSizes[] = {1, 2, 4, 8, 16};

std::vector<cpu::CpuIsa> isas_here() {
  std::vector<cpu::CpuIsa> isas;
  for (auto isa : {cpu::CpuIsa::portable, cpu::CpuIsa::sse2, cpu::CpuIsa::avx2})
    if (static_cast<int>(isa) <= static_cast<int>(cpu::best_cpu_isa())) isas.push_back(isa);
  return isas;
}

// Elements narrower than the index would alias; such sizes are tested once per "plane": plane
// p stores bits [p*8*es, (p+1)*8*es) of the index, so all planes together pin every element.
int planes_for(std::size_t elem_size, std::int64_t max_index) {
  if (elem_size >= 8) return 1;
  int planes = 1;
  const int bits = static_cast<int>(8 * elem_size);
  while (planes * bits < 64 && (max_index >> (planes * bits)) != 0) ++planes;
  return planes;
}

// Writes index `idx` (plane `plane`) into one element; 16-byte elements also carry ~idx in
// their upper half, so swapped halves show.
void put_index(unsigned char* p, std::size_t elem_size, std::uint64_t idx, int plane) {
  if (elem_size == 16) {
    const std::uint64_t v[2] = {idx, ~idx};
    std::memcpy(p, v, 16);
    return;
  }
  const std::uint64_t v = idx >> (plane * 8 * elem_size);
  std::memcpy(p, &v, elem_size);  // little-endian: the low bytes
}

// Input buffer of a (resolved) shape, every in-block element its linear index (b, i, j), the
// gaps between rows and matrices poisoned.
Bytes make_input(const TransposeShape& s, std::size_t es, int plane) {
  const std::int64_t span =
      s.batch == 0 ? 0 : (s.batch - 1) * s.in_batch_stride + s.rows * s.in_pitch;
  Bytes in(static_cast<std::size_t>(span) * es + 1, kPoison);
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t i = 0; i < s.rows; ++i)
      for (std::int64_t j = 0; j < s.cols; ++j)
        put_index(&in[(b * s.in_batch_stride + i * s.in_pitch + j) * es], es,
                  static_cast<std::uint64_t>((b * s.rows + i) * s.cols + j), plane);
  return in;
}

Bytes poisoned_output(const TransposeShape& s, std::size_t es) {
  // One spare element past the end catches an overrun of the last row.
  const std::int64_t span =
      s.batch == 0 ? 0 : (s.batch - 1) * s.out_batch_stride + s.cols * s.out_pitch;
  return Bytes(static_cast<std::size_t>(span + 1) * es, kPoison);
}

std::string describe(cpu::CpuIsa isa, std::size_t es, const TransposeShape& s, int threads) {
  return cat(cpu::cpu_isa_name(isa), " elem=", es, " ", s.batch, "x", s.rows, "x", s.cols,
             " pitch ", s.in_pitch, "/", s.out_pitch, " stride ", s.in_batch_stride, "/",
             s.out_batch_stride, " threads=", threads);
}

// transpose_cpu == transpose_naive, byte for byte over the whole output buffer (gaps included),
// for every instruction set, both paths (direct and streamed), plane and thread count.
void expect_matches_naive(TransposeShape shape, std::size_t es) {
  const auto s = shape.resolved();
  const std::int64_t max_index = s.batch * s.rows * s.cols;
  for (int plane = 0; plane < planes_for(es, max_index); ++plane) {
    const Bytes in = make_input(s, es, plane);
    Bytes expected = poisoned_output(s, es);
    transpose_naive(in.data(), expected.data(), es, s);
    Bytes storage(expected.size() + 128);
    for (auto isa : isas_here())
      for (bool streamed : {false, true}) {
        cpu::ScopedCpuIsa use(isa);
        // Both paths on every shape: direct (huge threshold) and streamed (threshold 0).
        cpu::ScopedStreamMinBytes path(streamed ? 0 : std::int64_t{1} << 62);
        // Output on a cache-line boundary and one element off it: the streamed path tiles
        // differently for line-aligned and unaligned output rows.
        for (std::size_t misalign : {std::size_t{0}, es})
          for (int threads : {1, 2, 3}) {
            std::fill(storage.begin(), storage.end(), kPoison);
            const std::size_t at =
                (64 - reinterpret_cast<std::uintptr_t>(storage.data()) % 64) % 64 + misalign;
            const auto first = storage.begin() + static_cast<std::ptrdiff_t>(at);
            const auto last = first + static_cast<std::ptrdiff_t>(expected.size());
            transpose_cpu(in.data(), &*first, es, shape, threads);
            ASSERT_TRUE(std::equal(first, last, expected.begin()))
                << describe(isa, es, s, threads) << " plane " << plane
                << (streamed ? " streamed" : " direct") << " misalign " << misalign;
            auto poisoned = [](unsigned char c) { return c == kPoison; };
            ASSERT_TRUE(std::all_of(storage.begin(), first, poisoned) &&
                        std::all_of(last, storage.end(), poisoned))
                << describe(isa, es, s, threads) << ": write outside the output buffer";
          }
      }
  }
}

TEST(KernelsCpu, NaiveIsATranspose) {
  // The oracle itself, checked element by element, with pitches, strides and a batch.
  TransposeShape s;
  s.rows = 5;
  s.cols = 7;
  s.batch = 2;
  s.in_pitch = 9;
  s.out_pitch = 6;
  s.in_batch_stride = 50;
  s.out_batch_stride = 45;
  const Bytes in = make_input(s, 4, 0);
  Bytes out = poisoned_output(s, 4);
  transpose_naive(in.data(), out.data(), 4, s);
  std::vector<bool> inside(out.size() / 4, false);
  for (std::int64_t b = 0; b < 2; ++b)
    for (std::int64_t i = 0; i < 5; ++i)
      for (std::int64_t j = 0; j < 7; ++j) {
        const std::int64_t at = b * 45 + j * 6 + i;
        std::uint32_t v;
        std::memcpy(&v, &out[at * 4], 4);
        EXPECT_EQ(v, static_cast<std::uint32_t>((b * 5 + i) * 7 + j));
        inside[at] = true;
      }
  for (std::size_t e = 0; e < inside.size(); ++e) {
    if (inside[e]) continue;
    for (int k = 0; k < 4; ++k) ASSERT_EQ(out[e * 4 + k], kPoison) << "element " << e;
  }
}

TEST(KernelsCpu, OutOfPlaceSmallAndThinShapes) {
  for (std::size_t es : kElemSizes)
    for (auto [r, c] : {std::pair<int, int>{1, 1},
                        {1, 2},
                        {2, 1},
                        {1, 300},
                        {300, 1},
                        {3, 5},
                        {7, 7},
                        {8, 8},
                        {9, 17},
                        {31, 33},
                        {2, 5000},
                        {5000, 3}})
      expect_matches_naive(TransposeShape::dense(r, c), es);
}

TEST(KernelsCpu, OutOfPlacePrimeShape) {
  for (std::size_t es : kElemSizes) expect_matches_naive(TransposeShape::dense(257, 1031), es);
}

TEST(KernelsCpu, OutOfPlaceSquare1024) {
  for (std::size_t es : kElemSizes) expect_matches_naive(TransposeShape::dense(1024, 1024), es);
}

TEST(KernelsCpu, OutOfPlaceSubBlocksWithPitchesAndBatch) {
  // Read a sub-block of a wider input, write a sub-block of a wider output, matrices spaced
  // further apart than dense: nothing outside the sub-blocks may change.
  for (std::size_t es : kElemSizes) {
    TransposeShape s;
    s.rows = 37;
    s.cols = 45;
    s.batch = 3;
    s.in_pitch = 50;
    s.out_pitch = 41;
    s.in_batch_stride = 37 * 50 + 7;
    s.out_batch_stride = 45 * 41 + 3;
    expect_matches_naive(s, es);

    TransposeShape big;  // large enough to run on several threads
    big.rows = 129;
    big.cols = 203;
    big.batch = 2;
    big.in_pitch = 211;
    big.out_pitch = 130;
    big.in_batch_stride = 129 * 211 + 64;
    big.out_batch_stride = 203 * 130 + 1;
    expect_matches_naive(big, es);
  }
}

TEST(KernelsCpu, OutOfPlaceManySmallMatrices) {
  for (std::size_t es : kElemSizes) expect_matches_naive(TransposeShape::dense(5, 7, 700), es);
}

TEST(KernelsCpu, OutOfPlaceEmptyIsANoOp) {
  for (auto [r, c, b] : {std::tuple<int, int, int>{0, 5, 1}, {5, 0, 1}, {0, 0, 1}, {4, 4, 0}}) {
    Bytes out(64, kPoison);
    transpose_cpu(nullptr, out.data(), 4, TransposeShape::dense(r, c, b), 2);
    transpose_cpu(nullptr, nullptr, 4, TransposeShape::dense(r, c, b), 2);
    EXPECT_EQ(out, Bytes(64, kPoison));
  }
}

TEST(KernelsCpu, BadArgumentsThrowTypedErrors) {
  Bytes a(64), b(64);
  // Any other element size is a wide element (test_kernels_wide.cpp); none at all is an error.
  EXPECT_THROW(transpose_cpu(a.data(), b.data(), 0, TransposeShape::dense(2, 2)),
               UnsupportedInputError);
  EXPECT_THROW(transpose_inplace_cpu(a.data(), 12, 2), UnsupportedInputError);
  TransposeShape negative;
  negative.rows = -1;
  negative.cols = 2;
  EXPECT_THROW(transpose_cpu(a.data(), b.data(), 4, negative), DimensionMismatch);
  TransposeShape narrow;
  narrow.rows = 2;
  narrow.cols = 4;
  narrow.in_pitch = 3;
  EXPECT_THROW(transpose_cpu(a.data(), b.data(), 4, narrow), DimensionMismatch);
  EXPECT_THROW(transpose_inplace_cpu(a.data(), 4, -1), DimensionMismatch);
  EXPECT_THROW(copy_2d_cpu(a.data(), 4, b.data(), 8, 8, 2), DimensionMismatch);
  EXPECT_THROW(copy_2d_cpu(a.data(), 8, b.data(), 8, -1, 2), DimensionMismatch);
}

TEST(KernelsCpu, InPlaceMatchesOutOfPlaceAndTwiceIsIdentity) {
  for (std::size_t es : kElemSizes)
    for (std::int64_t n : {1, 2, 3, 31, 64, 65, 200, 257})
      for (std::int64_t batch : {1, 3}) {
        const auto shape = TransposeShape::dense(n, n, batch);
        for (int plane = 0; plane < planes_for(es, batch * n * n); ++plane) {
          const Bytes original = make_input(shape, es, plane);
          Bytes expected(original.size(), kPoison);
          transpose_naive(original.data(), expected.data(), es, shape);
          for (auto isa : isas_here()) {
            cpu::ScopedCpuIsa use(isa);
            for (int threads : {1, 2, 3}) {
              Bytes buf = original;
              transpose_inplace_cpu(buf.data(), es, n, batch, threads);
              ASSERT_TRUE(buf == expected) << describe(isa, es, shape, threads) << " in place";
              Bytes out(original.size(), kPoison);
              transpose_cpu(original.data(), out.data(), es, shape, threads);
              ASSERT_TRUE(buf == out) << describe(isa, es, shape, threads) << " vs out of place";
              transpose_inplace_cpu(buf.data(), es, n, batch, threads);
              ASSERT_TRUE(buf == original) << describe(isa, es, shape, threads) << " twice";
            }
          }
        }
      }
}

TEST(KernelsCpu, InPlaceEmptyIsANoOp) {
  transpose_inplace_cpu(nullptr, 8, 0, 5, 2);
  transpose_inplace_cpu(nullptr, 8, 5, 0, 2);
}

TEST(KernelsCpu, Copy2dCopiesRowsAndNothingElse) {
  struct Case {
    std::int64_t rows, row_bytes, src_pitch, dst_pitch;
  };
  const Case cases[] = {{1, 1, 1, 1},
                        {1, 3 * 1024 * 1024 + 5, 0, 0},
                        {7, 13, 16, 29},
                        {1000, 300, 301, 512},
                        {3, 700 * 1024, 700 * 1024 + 3, 701 * 1024}};
  for (const auto& c : cases)
    for (int threads : {1, 2, 3}) {
      const std::int64_t src_pitch = std::max(c.src_pitch, c.row_bytes);
      const std::int64_t dst_pitch = std::max(c.dst_pitch, c.row_bytes);
      Bytes src(static_cast<std::size_t>(src_pitch * c.rows));
      for (std::size_t k = 0; k < src.size(); ++k) src[k] = static_cast<unsigned char>(k * 7 + 1);
      Bytes dst(static_cast<std::size_t>(dst_pitch * c.rows + 1), kPoison);
      copy_2d_cpu(src.data(), src_pitch, dst.data(), dst_pitch, c.row_bytes, c.rows, threads);
      for (std::int64_t r = 0; r < c.rows; ++r) {
        ASSERT_EQ(0, std::memcmp(&dst[r * dst_pitch], &src[r * src_pitch], c.row_bytes))
            << "row " << r << " of " << c.rows << "x" << c.row_bytes << " threads " << threads;
        for (std::int64_t k = r * dst_pitch + c.row_bytes; k < (r + 1) * dst_pitch; ++k)
          ASSERT_EQ(dst[k], kPoison) << "gap byte " << k;
      }
      ASSERT_EQ(dst.back(), kPoison);
    }
  copy_2d_cpu(nullptr, 0, nullptr, 0, 0, 5, 2);  // empty: no-op
  copy_2d_cpu(nullptr, 0, nullptr, 0, 5, 0, 2);
}

TEST(KernelsCpu, ThreadPoolRunsEveryTaskOnceAndRethrows) {
  auto& pool = cpu::ThreadPool::instance();
  for (int threads : {1, 2, 3, 8})
    for (std::int64_t n : {0, 1, 2, 5, 1000}) {
      std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
      pool.run(n, threads, [&](std::int64_t t) { hits[static_cast<std::size_t>(t)]++; });
      for (std::int64_t t = 0; t < n; ++t) ASSERT_EQ(hits[t].load(), 1) << t << "/" << n;
    }
  EXPECT_THROW(pool.run(100, 2,
                        [](std::int64_t t) {
                          if (t == 37) throw std::runtime_error("task 37");
                        }),
               std::runtime_error);
  // Nested calls run inline instead of deadlocking; the pool still works afterwards.
  std::atomic<int> inner{0};
  pool.run(4, 2, [&](std::int64_t) { pool.run(3, 2, [&](std::int64_t) { inner++; }); });
  EXPECT_EQ(inner.load(), 12);
}

TEST(KernelsCpu, ConcurrentCallersGetCorrectResults) {
  // The engine's I/O thread and main thread may both call kernels: calls queue on the pool.
  const auto shape = TransposeShape::dense(300, 500);
  const Bytes in = make_input(shape, 4, 0);
  Bytes expected = poisoned_output(shape, 4);
  transpose_naive(in.data(), expected.data(), 4, shape);
  std::vector<Bytes> outs(4, poisoned_output(shape, 4));
  std::vector<std::thread> callers;
  for (auto& out : outs)
    callers.emplace_back([&] {
      for (int k = 0; k < 20; ++k) transpose_cpu(in.data(), out.data(), 4, shape, 2);
    });
  for (auto& c : callers) c.join();
  for (const auto& out : outs) EXPECT_TRUE(out == expected);
}

}  // namespace
// The grouped triangular order of the in-place kernel (kernels/cuda/triangular.h, compiled into
// the kernel as is): every pair (i, j), i <= j, exactly once, for tile counts around the group
// size and a large one; and consecutive blocks inside a full column take consecutive rows.
TEST(GroupedPairOrder, EveryPairOnce) {
  for (std::uint64_t t : {1u, 2u, 3u, 7u, 8u, 9u, 31u, 64u, 65u, 130u, 513u}) {
    for (std::uint64_t g : {1u, 2u, 4u, 8u, 16u, 64u}) {
      SCOPED_TRACE(::testing::Message() << "t=" << t << " g=" << g);
      std::vector<int> seen(static_cast<std::size_t>(t * t), 0);
      const std::uint64_t count = tri::pair_count(t);
      for (std::uint64_t k = 0; k < count; ++k) {
        const tri::TilePair tp = tri::grouped_pair(t, g, k);
        ASSERT_LE(tp.row, tp.col);
        ASSERT_LT(tp.col, t);
        ++seen[static_cast<std::size_t>(tp.row * t + tp.col)];
      }
      for (std::uint64_t i = 0; i < t; ++i)
        for (std::uint64_t j = 0; j < t; ++j)
          EXPECT_EQ(seen[static_cast<std::size_t>(i * t + j)], i <= j ? 1 : 0) << i << "," << j;
    }
  }
  // t = 100, g = 8: group 0 ends with column 99 holding rows 0..7 in order.
  const std::uint64_t last = tri::pair_count(100) - tri::pair_count(92) - 1;
  EXPECT_EQ(tri::grouped_pair(100, 8, last).row, 7u);
  EXPECT_EQ(tri::grouped_pair(100, 8, last).col, 99u);
  EXPECT_EQ(tri::grouped_pair(100, 8, last - 7).row, 0u);
  EXPECT_EQ(tri::grouped_pair(100, 8, last - 7).col, 99u);
}

// The interleaved order (tri::interleaved_pair): over interleaved_blocks(t, s) block numbers
// every pair (i, j), i <= j, exactly once and the rest idle (fewer than s), and s consecutive
// blocks walk s different tile rows where the triangle holds at least s rows' worth of pairs.
TEST(InterleavedPairOrder, EveryPairOnce) {
  for (std::uint64_t t : {1u, 2u, 3u, 7u, 16u, 31u, 65u, 130u, 640u}) {
    for (std::uint64_t s : {1u, 2u, 5u, 8u, 16u}) {
      SCOPED_TRACE(::testing::Message() << "t=" << t << " s=" << s);
      std::vector<int> seen(static_cast<std::size_t>(t * t), 0);
      const std::uint64_t blocks = tri::interleaved_blocks(t, s);
      ASSERT_EQ(blocks % s, 0u);
      ASSERT_GE(blocks, tri::pair_count(t));
      ASSERT_LT(blocks - tri::pair_count(t), s);
      std::uint64_t idle = 0;
      for (std::uint64_t k = 0; k < blocks; ++k) {
        tri::TilePair tp{0, 0};
        if (!tri::interleaved_pair(t, s, k, tp)) {
          ++idle;
          continue;
        }
        ASSERT_LE(tp.row, tp.col);
        ASSERT_LT(tp.col, t);
        ++seen[static_cast<std::size_t>(tp.row * t + tp.col)];
      }
      EXPECT_EQ(idle, blocks - tri::pair_count(t));
      for (std::uint64_t i = 0; i < t; ++i)
        for (std::uint64_t j = 0; j < t; ++j)
          EXPECT_EQ(seen[static_cast<std::size_t>(i * t + j)], i <= j ? 1 : 0) << i << "," << j;
    }
  }
  // t = 640 (c128 n = 20480 in 32 x 32 tiles), s = 5: blocks 0..4 start five runs in five
  // different tile rows, the first at (0, 0).
  std::vector<std::uint64_t> rows;
  for (std::uint64_t k = 0; k < 5; ++k) {
    tri::TilePair tp{0, 0};
    ASSERT_TRUE(tri::interleaved_pair(640, 5, k, tp));
    rows.push_back(tp.row);
  }
  EXPECT_EQ(rows[0], 0u);
  for (std::size_t a = 1; a < rows.size(); ++a) EXPECT_GT(rows[a], rows[a - 1]);
}

// The spread order of tile rows (kernels/cuda/spread.h, compiled into the kernels as is): a
// bijection on [0, rows) for row counts below, at and off multiples of s; consecutive rows of a
// full round are rows / s (or one more) apart, and a run's rows come in order.
TEST(SpreadRowOrder, EveryRowOnce) {
  for (std::uint32_t rows : {1u, 2u, 4u, 5u, 6u, 9u, 10u, 11u, 99u, 437u, 1281u, 5121u}) {
    for (std::uint32_t s : {1u, 2u, 3u, 5u, 8u, 10u}) {
      SCOPED_TRACE(::testing::Message() << "rows=" << rows << " s=" << s);
      std::vector<int> seen(rows, 0);
      for (std::uint32_t l = 0; l < rows; ++l) {
        const std::uint32_t r = xpose::kernels::cuda_tile::spread_row(l, rows, s);
        ASSERT_LT(r, rows);
        ++seen[r];
        if (l % s != 0 && l < rows / s * s) {
          const std::uint32_t prev = xpose::kernels::cuda_tile::spread_row(l - 1, rows, s);
          EXPECT_GE(r - prev, rows / s);
          EXPECT_LE(r - prev, rows / s + 1);
        }
        if (l >= s) {
          EXPECT_EQ(r, xpose::kernels::cuda_tile::spread_row(l - s, rows, s) + 1);
        }
      }
      for (std::uint32_t r = 0; r < rows; ++r) EXPECT_EQ(seen[r], 1) << r;
    }
  }
  // 1281 tile rows (f32 81920 input rows) over five runs: the first five blocks take rows 0,
  // 257, 513, 769, 1025 (the first run one row longer), 64 KiB of output row apart.
  for (std::uint32_t l = 0; l < 5; ++l)
    EXPECT_EQ(xpose::kernels::cuda_tile::spread_row(l, 1281, 5), l * 256 + (l > 0 ? 1 : 0));
}

// inplace_strip_kernel's test for a block's P pairs (tri::grouped_column_run) against every pair
// of the window: true exactly when all P pairs are (I + i, J), i < P, with I + P - 1 < J. Also:
// most windows are such runs where the tile grid is large (the kernel's fast path).
TEST(GroupedColumnRun, MatchesEveryPairOfTheWindow) {
  for (std::uint64_t t : {1u, 2u, 5u, 9u, 33u, 65u, 130u, 513u}) {
    for (std::uint64_t g : {1u, 4u, 16u, 32u}) {
      for (std::uint64_t p : {2u, 4u, 8u}) {
        SCOPED_TRACE(::testing::Message() << "t=" << t << " g=" << g << " p=" << p);
        const std::uint64_t count = tri::pair_count(t);
        std::uint64_t runs = 0, windows = 0;
        for (std::uint64_t k0 = 0; k0 < count; k0 += p) {
          ++windows;
          bool expected = k0 + p <= count;
          tri::TilePair f0{0, 0};
          if (expected) f0 = tri::grouped_pair(t, g, k0);
          for (std::uint64_t i = 0; expected && i < p; ++i) {
            const tri::TilePair tp = tri::grouped_pair(t, g, k0 + i);
            expected = tp.col == f0.col && tp.row == f0.row + i && tp.row < tp.col;
          }
          tri::TilePair first{0, 0};
          const bool got = tri::grouped_column_run(t, g, p, k0, first);
          ASSERT_EQ(got, expected) << "k0=" << k0;
          if (got) {
            ++runs;
            EXPECT_EQ(first.row, f0.row);
            EXPECT_EQ(first.col, f0.col);
          }
        }
        if (t == 513 && g == 32) {
          EXPECT_GT(runs * 100, windows * 95) << runs << " of " << windows;
        }
      }
    }
  }
}

// The thread-to-block map of the Hopper TMA kernel (kernels/cuda/tma_units.h, compiled into the
// kernel as is): every V x V block of a tile taken exactly once, and the 8 threads of each
// shared-memory phase on 8 distinct 16-byte bank groups when they read the input box and when
// they write the output box (a 16-byte access is served 8 threads at a time).
TEST(TmaUnits, EveryBlockOnceAndNoBankConflicts) {
  for (int v : {1, 2, 4}) {
    for (int kr : {1, 2, 4}) {
      for (int kc : {1, 2, 4}) {
        SCOPED_TRACE(::testing::Message() << "V=" << v << " KR=" << kr << " KC=" << kc);
        std::vector<int> seen(static_cast<std::size_t>(64 * kr * kc), 0);
        for (int u0 = 0; u0 < 64 * kr * kc; u0 += 8) {
          for (int k = 0; k < v; ++k) {
            unsigned read_groups = 0, write_groups = 0;
            for (int u = u0; u < u0 + 8; ++u) {
              int rb = -1, cb = -1;
              tma_units::unit(u, kr, v, rb, cb);
              ASSERT_GE(rb, 0);
              ASSERT_LT(rb, 8 * kr);
              ASSERT_GE(cb, 0);
              ASSERT_LT(cb, 8 * kc);
              if (k == 0) ++seen[static_cast<std::size_t>(rb * 8 * kc + cb)];
              // Read: row V*rb+k of the input box, chunk cb mod 8; write: row V*cb+k of the
              // output box, chunk rb mod 8. Bank group = 16-byte slot within the 128-byte row.
              read_groups |= 1u << ((tma_units::swizzled(v * rb + k, cb & 7) % 128) / 16);
              write_groups |= 1u << ((tma_units::swizzled(v * cb + k, rb & 7) % 128) / 16);
            }
            EXPECT_EQ(read_groups, 0xffu) << "phase at u=" << u0 << " k=" << k;
            EXPECT_EQ(write_groups, 0xffu) << "phase at u=" << u0 << " k=" << k;
          }
        }
        for (int c : seen) EXPECT_EQ(c, 1);
      }
    }
  }
}

}  // namespace xpose::kernels
