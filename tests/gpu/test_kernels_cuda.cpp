// The CUDA transposes against the CPU reference (transpose_naive, transpose_inplace_cpu).
// Payloads encode each element's linear index, outputs are poisoned first, and pitched cases
// check that bytes outside the sub-block stay untouched. Every GPU test skips where no device is
// visible (CI builds this binary with nvcc but has no GPU); the triangular-index tests and the
// argument checks need no device and always run.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "kernels/cuda/check.h"
#include "kernels/cuda/triangular.h"
#include "kernels/cuda/variants.h"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace {

using xpose::kernels::TransposeShape;
namespace tri = xpose::kernels::tri;

constexpr unsigned char kPoison = 0xcd;
const std::size_t kElemSizes[] = {1, 2, 4, 8, 16};

// ---- triangular block numbering (host; the kernel runs the same code) -----------------------

TEST(TriangularIndex, EveryPairOnceForSmallGrids) {
  for (std::uint64_t t = 1; t <= 300; ++t) {
    std::vector<unsigned char> seen_stag(t * t, 0), seen_row(t * t, 0);
    std::uint64_t k = 0;
    for (std::uint64_t d = 0; d < t; ++d) {
      ASSERT_EQ(tri::band_start(t, d), k) << "t=" << t << " d=" << d;
      for (std::uint64_t i = 0; i + d < t; ++i, ++k) {
        const auto s = tri::staggered_pair(t, k);
        ASSERT_EQ(s.row, i) << "t=" << t << " k=" << k;
        ASSERT_EQ(s.col, i + d) << "t=" << t << " k=" << k;
        ++seen_stag[s.row * t + s.col];
        const auto r = tri::row_pair(t, k);
        ASSERT_LE(r.row, r.col);
        ASSERT_LT(r.col, t);
        ++seen_row[r.row * t + r.col];
      }
    }
    ASSERT_EQ(k, tri::pair_count(t));
    for (std::uint64_t i = 0; i < t; ++i)
      for (std::uint64_t j = 0; j < t; ++j) {
        ASSERT_EQ(seen_stag[i * t + j], i <= j ? 1 : 0)
            << "t=" << t << " (" << i << "," << j << ")";
        ASSERT_EQ(seen_row[i * t + j], i <= j ? 1 : 0) << "t=" << t << " (" << i << "," << j << ")";
      }
  }
}

// Every band boundary (first index of each band, and the one before it) for t up to 5000.
TEST(TriangularIndex, BandBoundariesUpTo5000) {
  for (std::uint64_t t = 1; t <= 5000; ++t) {
    for (std::uint64_t d = 0; d < t; ++d) {
      const std::uint64_t k = tri::band_start(t, d);
      ASSERT_EQ(tri::band_of(t, k), d) << "t=" << t << " k=" << k;
      if (d > 0) {
        ASSERT_EQ(tri::band_of(t, k - 1), d - 1) << "t=" << t << " k=" << k - 1;
      }
    }
    ASSERT_EQ(tri::band_of(t, tri::pair_count(t) - 1), t - 1) << "t=" << t;
  }
}

// Around 2^32 pairs (t = 92681 has just under, 92682 just over), and the largest t allowed.
TEST(TriangularIndex, NearTwoTo32PairsAndBeyond) {
  for (std::uint64_t t :
       {std::uint64_t{92681}, std::uint64_t{92682}, std::uint64_t{92683}, std::uint64_t{131072}}) {
    for (std::uint64_t d = 0; d < t; ++d) {
      const std::uint64_t k = tri::band_start(t, d);
      ASSERT_EQ(tri::band_of(t, k), d) << "t=" << t;
      if (d > 0) {
        ASSERT_EQ(tri::band_of(t, k - 1), d - 1) << "t=" << t;
      }
    }
    const auto last = tri::staggered_pair(t, tri::pair_count(t) - 1);
    EXPECT_EQ(last.row, 0u);
    EXPECT_EQ(last.col, t - 1);
    const auto last_row = tri::row_pair(t, tri::pair_count(t) - 1);  // the library's order
    EXPECT_EQ(last_row.row, t - 1);
    EXPECT_EQ(last_row.col, t - 1);
    for (const std::uint64_t r : {std::uint64_t{1}, t / 2, t - 2}) {
      const auto first = tri::row_pair(t, tri::band_start(t, r));
      EXPECT_EQ(first.row, r);
      EXPECT_EQ(first.col, r);
      const auto end = tri::row_pair(t, tri::band_start(t, r) - 1);
      EXPECT_EQ(end.row, r - 1);
      EXPECT_EQ(end.col, t - 1);
    }
  }
  std::mt19937_64 rng(42);
  for (const std::uint64_t t :
       {(std::uint64_t{1} << 31) - 1, std::uint64_t{3037000499} / 2, std::uint64_t{1} << 30}) {
    for (const std::uint64_t d :
         {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, t / 3, t / 2, t - 2, t - 1}) {
      const std::uint64_t k = tri::band_start(t, d);
      ASSERT_EQ(tri::band_of(t, k), d) << "t=" << t;
      if (d > 0) {
        ASSERT_EQ(tri::band_of(t, k - 1), d - 1) << "t=" << t;
      }
    }
    for (int i = 0; i < 100000; ++i) {
      const std::uint64_t k = rng() % tri::pair_count(t);
      const std::uint64_t d = tri::band_of(t, k);
      ASSERT_LE(tri::band_start(t, d), k);
      if (d + 1 < t) {
        ASSERT_GT(tri::band_start(t, d + 1), k) << "t=" << t << " k=" << k;
      }
    }
  }
}

// ---- helpers ---------------------------------------------------------------------------------

// Element `index` holds its own index (truncated to the element). 1- and 2-byte elements fold
// the higher bytes in, so that a misplacement by 256 is still caught, and never equal the poison.
void put_payload(unsigned char* p, std::size_t elem, std::uint64_t index) {
  if (elem >= 8) {
    std::memcpy(p, &index, 8);
    if (elem == 16) {
      const std::uint64_t hi = ~index * 0x9e3779b97f4a7c15ULL;
      std::memcpy(p + 8, &hi, 8);
    }
  } else if (elem == 4) {
    const auto v = static_cast<std::uint32_t>(index);
    std::memcpy(p, &v, 4);
  } else {
    std::uint64_t f = index ^ (index >> 16) * 40503u ^ (index >> 32);
    if (elem == 1) f ^= f >> 8;
    const std::uint16_t poison = kPoison * 0x0101;
    auto v = static_cast<std::uint16_t>(f);
    if (elem == 1 && static_cast<unsigned char>(v) == kPoison) v ^= 0x01;
    if (elem == 2 && v == poison) v ^= 0x0100;
    std::memcpy(p, &v, elem);
  }
}

std::vector<unsigned char> payload_buffer(std::size_t elem, std::int64_t count) {
  std::vector<unsigned char> v(static_cast<std::size_t>(count) * elem);
  for (std::int64_t i = 0; i < count; ++i) put_payload(v.data() + i * elem, elem, i);
  return v;
}

bool gpu_visible(std::string* why) {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    *why = std::string("no usable CUDA device: ") + cudaGetErrorString(err);
    cudaGetLastError();
    return false;
  }
  if (n == 0) {
    *why = "no CUDA device visible";
    return false;
  }
  return true;
}

struct DeviceBuffer {
  explicit DeviceBuffer(std::size_t bytes) : size(bytes) {
    if (bytes) XPOSE_CHECK_CUDA(cudaMalloc(&ptr, bytes));
  }
  ~DeviceBuffer() {
    if (ptr) cudaFree(ptr);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  unsigned char* bytes() { return static_cast<unsigned char*>(ptr); }
  void* ptr = nullptr;
  std::size_t size = 0;
};

// Elements spanned by a batch of matrices: the last element's index + 1.
// A batch of rows x cols sub-blocks: rows in_pitch / out_pitch elements apart, matrices
// in_gap / out_gap elements further apart than their rows need.
TransposeShape pitched(std::int64_t rows, std::int64_t cols, std::int64_t batch,
                       std::int64_t in_pitch, std::int64_t out_pitch, std::int64_t in_gap,
                       std::int64_t out_gap) {
  TransposeShape s;
  s.rows = rows;
  s.cols = cols;
  s.batch = batch;
  s.in_pitch = in_pitch;
  s.out_pitch = out_pitch;
  s.in_batch_stride = rows * in_pitch + in_gap;
  s.out_batch_stride = cols * out_pitch + out_gap;
  return s;
}

// rows x cols (batch matrices), dense where both pads are 0, else with pitches `in_pad` /
// `out_pad` elements longer than the rows and gaps of 1 / 3 elements between the matrices.
TransposeShape padded(std::int64_t rows, std::int64_t cols, std::int64_t batch, std::int64_t in_pad,
                      std::int64_t out_pad) {
  return in_pad == 0 && out_pad == 0
             ? TransposeShape::dense(rows, cols, batch)
             : pitched(rows, cols, batch, cols + in_pad, rows + out_pad, 1, 3);
}

// A dispatch test's layout: `padded`'s, the input shifted by `in_off` elements.
struct EntryCase {
  std::size_t elem;
  std::int64_t rows, cols, batch, in_pad, out_pad, in_off;
};

// The two pitched layouts every kernel is checked on: odd gaps and pitches (element accesses),
// and pitches that are whole 16-element multiples (the word paths) with edge tiles.
const TransposeShape kOddSubBlocks = pitched(45, 77, 3, 100, 64, 13, 5);
const TransposeShape kWordSubBlocks = pitched(200, 130, 2, 144, 224, 32, 64);

std::int64_t extent(std::int64_t batch, std::int64_t stride, std::int64_t rows, std::int64_t pitch,
                    std::int64_t cols) {
  if (batch == 0 || rows == 0 || cols == 0) return 0;
  return (batch - 1) * stride + (rows - 1) * pitch + cols;
}

// Index and value of the first differing element, for a readable failure.
::testing::AssertionResult same_bytes(const std::vector<unsigned char>& want,
                                      const std::vector<unsigned char>& got, std::size_t elem) {
  if (want.size() != got.size()) return ::testing::AssertionFailure() << "size differs";
  const auto diff = std::mismatch(want.begin(), want.end(), got.begin());
  if (diff.first == want.end()) return ::testing::AssertionSuccess();
  const std::size_t e = static_cast<std::size_t>(diff.first - want.begin()) / elem;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < want.size(); i += elem)
    if (std::memcmp(&want[i], &got[i], elem) != 0) ++bad;
  auto hex = [&](const std::vector<unsigned char>& v) {
    std::string s;
    char b[4];
    for (std::size_t k = 0; k < elem; ++k) {
      std::snprintf(b, sizeof b, "%02x", v[e * elem + elem - 1 - k]);
      s += b;
    }
    return s;
  };
  return ::testing::AssertionFailure() << bad << " elements differ; first at element " << e
                                       << ": want 0x" << hex(want) << ", got 0x" << hex(got);
}

// ---- random layouts ---------------------------------------------------------------------------

// The hand-picked cases below take one layout per dispatch class. The random-layout tests (the
// fixture's random_out_of_place / random_in_place) draw layouts from a fixed seed and mix the
// classes: pitches dense or padded and rounded to a random alignment (1 to 256 bytes), batches
// with gaps, pointers shifted by whole elements, small and medium shapes, tall and wide ones past
// the column sweeps' height, multiples of the tile sizes, large u8 / u16 ones with few partial
// tiles, f32 inputs of 200000 rows. Each case's kernel is counted (variants::default_out_of_place
// / default_in_place) and the counts printed; where the device has an H100's shared memory (200
// KiB or more a block), every kernel of the dispatch that such a device runs must have been
// reached, so that the draw cannot silently miss a class. The other entries are the fallbacks of
// devices that cannot give the narrow, narrow skewed and rotated kernels their shared memory, and
// the f32 in-place 8-byte-word kernel on 256-byte rows (the 16-byte one takes every such n
// first). Out of place, thin shapes (a side under the type's thin limit) take the thin kernel,
// entry 0 of every element size since run 26.
class RandomLayout {
 public:
  explicit RandomLayout(std::uint64_t seed) : g_(seed) {}
  std::int64_t in(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(g_() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool chance(int percent) { return static_cast<int>(g_() % 100) < percent; }
  // Spread evenly over the orders of magnitude of [lo, hi].
  std::int64_t size(std::int64_t lo, std::int64_t hi) {
    const double u = static_cast<double>(g_() >> 11) / 9007199254740992.0;
    const double a = std::log(double(lo)), b = std::log(double(hi) + 1);
    const double v = std::exp(a + u * (b - a));
    return std::clamp(static_cast<std::int64_t>(v), lo, hi);
  }
  // Elements between rows of `min` elements: 0 (dense), or padded and rounded up to a random
  // alignment in bytes.
  std::int64_t pitch(std::size_t elem, std::int64_t min) {
    if (chance(40)) return 0;
    const std::int64_t align_bytes = std::int64_t{1} << in(0, 8);
    const std::int64_t q = std::max<std::int64_t>(1, align_bytes / std::int64_t(elem));
    const std::int64_t p = min + (chance(50) ? 0 : in(1, 40));
    return (p + q - 1) / q * q;
  }
  // Elements between matrices beyond what their rows need.
  std::int64_t gap(std::size_t elem) {
    if (chance(40)) return 0;
    if (chance(50)) return in(1, 63);
    const std::int64_t q = std::max<std::int64_t>(1, 256 / std::int64_t(elem));
    return (in(1, 300) + q - 1) / q * q;
  }

 private:
  std::mt19937_64 g_;
};

std::string coverage_line(std::size_t elem, const std::vector<int>& hits) {
  std::string line = std::to_string(elem) + "-byte elements, cases per dispatch entry:";
  for (std::size_t i = 0; i < hits.size(); ++i)
    line += " [" + std::to_string(i) + "] " + std::to_string(hits[i]);
  return line;
}

// Attribute `a` of the current device.
int device_attribute(cudaDeviceAttr a) {
  int device = 0, value = 0;
  XPOSE_CHECK_CUDA(cudaGetDevice(&device));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&value, a, device));
  return value;
}

bool device_has_h100_smem() {
  return device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin) >= 200 * 1024;
}

// An H100-class device: 132 SMs and an H100's shared memory, where the small-size rules'
// thresholds (blocks or tiles an SM) give the entries the tests assert.
bool device_is_h100_class() {
  return device_attribute(cudaDevAttrMultiProcessorCount) == 132 && device_has_h100_smem();
}

// Five HBM stacks (a 5120-bit bus, the H100 80 GB): where the one-stack pitch rules apply.
bool device_has_five_stacks() {
  return device_attribute(cudaDevAttrGlobalMemoryBusWidth) == 5120;
}

// Whether the out-of-place dispatch's high-bandwidth TMA entries (transpose_tiled.cu,
// HighBandwidthTma) run here: a build with the TMA candidates (CUDA 12 and an sm_90 image), a
// compute capability 9 device and a DRAM of cuda_detail::kHighBandwidth bytes per SM clock or
// more (an H200; not an H100).
bool device_runs_tma_dispatch() {
  const std::vector<std::string> names = xpose::kernels::variants::out_of_place(4);
  const bool built = std::find(names.begin(), names.end(), "tmald-128x64") != names.end();
  return built && device_attribute(cudaDevAttrComputeCapabilityMajor) == 9 &&
         xpose::cuda_detail::high_bandwidth_device();
}

// The candidates (variants.h) of the element sizes `elems` whose names contain `part`, as
// (element size, name): out of place, or in place with `inplace`. The candidate tests run each
// one over their shapes and count them, so that a renamed or dropped candidate cannot pass
// silently.
std::vector<std::pair<std::size_t, std::string>> candidates_with(
    std::initializer_list<std::size_t> elems, const std::string& part, bool inplace = false) {
  std::vector<std::pair<std::size_t, std::string>> found;
  for (std::size_t e : elems)
    for (const std::string& v : inplace ? xpose::kernels::variants::in_place(e)
                                        : xpose::kernels::variants::out_of_place(e))
      if (v.find(part) != std::string::npos) found.emplace_back(e, v);
  return found;
}

struct OutOfPlaceCase {
  TransposeShape shape;
  std::int64_t in_off = 0, out_off = 0;
};

// One random out-of-place layout of `elem`-byte elements. `small`: shapes that compute-sanitizer
// runs through in moments (no large u8 / u16 class, tall inputs only a few columns wide).
OutOfPlaceCase draw_out_of_place(RandomLayout& r, std::size_t elem, bool small) {
  const int cls = static_cast<int>(r.in(0, 99));
  const std::int64_t big = small ? 400 : 1500;
  std::int64_t rows = 0, cols = 0;
  if (cls < 40) {  // small and medium
    rows = r.size(1, big);
    cols = r.size(1, big);
  } else if (cls < 50) {  // tall: column sweeps past 28000 / 32000 rows, or the thin kernel
    rows = r.in(26000, small ? 40000 : 70000);
    cols = r.size(1, small ? 4 : 300);
  } else if (cls < 57) {  // wide
    rows = r.size(1, small ? 4 : 300);
    cols = r.in(26000, small ? 40000 : 70000);
  } else if (cls < 72) {  // whole tiles (u8 / u16: the 256 x 256 and 128 x 128 narrow tiles)
    const std::int64_t t = elem <= 2 ? 256 : std::int64_t{32} << r.in(0, 3);
    rows = t * r.in(1, small ? 2 : 6);
    cols = t * r.in(1, small ? 2 : 6);
  } else if (cls < 84 || (small && cls < 94)) {  // larger
    rows = r.in(small ? 300 : 1000, small ? 700 : 4200);
    cols = r.in(small ? 300 : 1000, small ? 700 : 4200);
  } else if (cls < 94 && elem <= 2) {  // under 4 % of the 256 x 256 tiles partial
    rows = 256 * r.in(20, 32);
    cols = r.in(7000, 8300);
  } else if (cls < 94) {
    rows = r.in(2000, 6000);
    cols = r.in(100, 3000);
  } else {  // 200000 rows and more (the f32 tiled kernel where output rows are off 256 bytes)
    rows = 200008 + 8 * r.in(0, 11) + (r.chance(50) ? 0 : r.in(1, 7));
    cols = small ? r.in(1, 2) : r.in(49, 64);  // between f32's thin ranges (1-48, 68-72 columns)
  }
  OutOfPlaceCase c;
  TransposeShape& s = c.shape;
  s.rows = rows;
  s.cols = cols;
  s.batch = rows * cols <= 3000000 && r.chance(25) ? r.in(2, 3) : 1;
  s.in_pitch = r.pitch(elem, cols);
  s.out_pitch = r.pitch(elem, rows);
  const std::int64_t in_gap = r.gap(elem), out_gap = r.gap(elem);
  if (s.batch > 1) {
    s.in_batch_stride = rows * (s.in_pitch ? s.in_pitch : cols) + in_gap;
    s.out_batch_stride = cols * (s.out_pitch ? s.out_pitch : rows) + out_gap;
  }
  const std::int64_t q = std::max<std::int64_t>(1, 64 / std::int64_t(elem));
  c.in_off = r.chance(65) ? 0 : r.in(1, q);
  c.out_off = r.chance(65) ? 0 : r.in(1, q);
  return c;
}

// One random in-place n (batch, shift) of `elem`-byte elements.
struct InPlaceCase {
  std::int64_t n = 0, batch = 1, off = 0;
};
InPlaceCase draw_in_place(RandomLayout& r, std::size_t elem, bool small) {
  const int cls = static_cast<int>(r.in(0, 99));
  InPlaceCase c;
  if (cls < 55)
    c.n = r.size(2, small ? 400 : 1300);
  else if (cls < 80)
    c.n = small ? r.in(400, 700) : r.in(1300, 4200);
  else  // rows on 256 bytes
    c.n = std::max<std::int64_t>(256 / std::int64_t(elem), 1) * r.in(1, small ? 3 : 12);
  c.batch = c.n <= 1500 && r.chance(25) ? r.in(2, 3) : 1;
  const std::int64_t q = std::max<std::int64_t>(1, 64 / std::int64_t(elem));
  c.off = r.chance(70) ? 0 : r.in(1, q);
  return c;
}

// The dispatch entries an H100-class device runs, per element size (positions in the lists of
// transpose_tiled.cu and transpose_inplace.cu).
std::vector<int> reachable_out_of_place(std::size_t elem) {
  // u8 / u16: the records kernel first (a side of at most 16); every size: the thin kernel. Then
  // u8: the 32 x 32 tiles on tiny matrices (since run 36), on whole tiles the 16-byte-word tiled
  // kernel where they are few (since run 36) and the narrow kernel where not, the narrow skewed
  // kernel where both matrices' rows are on 16 bytes, the narrow kernel where the output's are
  // and few tiles are partial, the narrow skewed kernel elsewhere, each skewed entry after its
  // few-tiles entry (the 128-tile narrow kernel, since run 35). The random layouts on whole
  // tiles are all few tiles (3), and those with both matrices' rows on 16 bytes all small enough
  // for the few-tiles entry (5), so the entries after them (4, 6) are asserted by
  // OutOfPlaceFewTiles and OneStackNarrow instead. u16: the narrow kernel where both / the output's
  // rows are on 16 bytes, then the 32 x 32 tiles on tiny matrices and the 128-tile narrow kernel on
  // small ones (since run 36), the narrow skewed kernel; f32: the tiled kernel on 256-byte output
  // rows and on 200000 rows or more, the skewed kernel; f64, c128: the tiled kernel, the skewed
  // kernel. f32 on an H200 (device_runs_tma_dispatch): the TMA kernel before the skewed one (entry
  // 3), which never runs on an H100.
  const bool tma = device_runs_tma_dispatch();
  switch (elem) {
    case 1:
      return {0, 1, 2, 3, 5, 8, 9, 10};
    case 2:
      return {0, 1, 2, 3, 4, 5, 6};
    case 4:
      return tma ? std::vector<int>{0, 1, 2, 3, 4} : std::vector<int>{0, 1, 2, 4};
    default:
      return {0, 1, 2};
  }
}
std::vector<int> reachable_in_place(std::size_t elem) {
  // u8: the word kernel on 256-byte rows, the 32 x 32 pairs (small n, since run 35), the narrow
  // kernel with and without guarded edges; u16: the 32 x 32 pairs (small n, since run 35), the
  // narrow kernel with and without them; f32: the 16-byte-word kernel on 256-byte rows, the 32 x 32
  // pairs (small n, since run 34), the rotated kernel; f64 and c128: the word kernel on 256-byte
  // rows, the 32 x 32 pairs (small n), the other. (Entry 0 of f32, f64 and c128, one-stack
  // pitches, needs n of 20480 or more: InPlaceOneStack.)
  switch (elem) {
    case 1:
      return {0, 1, 2, 3};
    case 2:
      return {0, 1, 2};
    case 4:
      return {1, 3, 4};
    default:
      return {1, 2, 3};
  }
}

using Hits = std::vector<std::vector<int>>;  // [element size][dispatch entry] -> cases

void count(Hits& hits, std::size_t elem, const xpose::kernels::variants::DispatchChoice& c) {
  if (c.copy) return;  // copied in order, no kernel (CopiesInOrder)
  ASSERT_GE(c.index, 0);
  hits[elem].resize(static_cast<std::size_t>(c.count));
  ++hits[elem][static_cast<std::size_t>(c.index)];
}

// Prints the counts; on an H100-class device, every entry in `reach` must have been taken.
void report(const char* what, const Hits& hits, std::vector<int> (*reach)(std::size_t),
            bool require) {
  const bool check = require && device_has_h100_smem();
  for (std::size_t e : kElemSizes) {
    std::printf("  %s, %s\n", what, coverage_line(e, hits[e]).c_str());
    if (!check) continue;
    for (int k : reach(e))
      EXPECT_TRUE(static_cast<std::size_t>(k) < hits[e].size() && hits[e][k] > 0)
          << what << ", " << e << "-byte elements: no random case reached dispatch entry " << k;
  }
}

class CudaKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!gpu_visible(&why)) GTEST_SKIP() << why;
    XPOSE_CHECK_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  void TearDown() override {
    if (stream_) cudaStreamDestroy(stream_);
  }

  // Out-of-place: the device result, whole output buffer included, must equal the CPU
  // reference applied to the same poisoned buffer. in_off / out_off shift the pointers by whole
  // elements, to take the kernels off 16-byte alignment.
  // `variant`: a candidate by name (kernels/cuda/variants.h); empty: the library entry point. A
  // candidate that does not take the layout is skipped (nothing launched, nothing to check).
  // `chosen`, where given (the library entry point only): which kernel the dispatch took.
  void check_transpose(std::size_t elem, TransposeShape shape, std::int64_t in_off = 0,
                       std::int64_t out_off = 0, const std::string& variant = "",
                       xpose::kernels::variants::DispatchChoice* chosen = nullptr,
                       bool must_run = false) {
    const TransposeShape s = shape.resolved();
    SCOPED_TRACE(::testing::Message()
                 << (variant.empty() ? "transpose_cuda" : variant) << " elem=" << elem << " "
                 << s.rows << "x" << s.cols << " batch=" << s.batch << " pitch=" << s.in_pitch
                 << "/" << s.out_pitch << " stride=" << s.in_batch_stride << "/"
                 << s.out_batch_stride << " offset=" << in_off << "/" << out_off);
    const std::int64_t in_n =
        in_off + extent(s.batch, s.in_batch_stride, s.rows, s.in_pitch, s.cols);
    // Slack after the output: bytes past the last element must stay poisoned too.
    const std::int64_t out_n =
        out_off + extent(s.batch, s.out_batch_stride, s.cols, s.out_pitch, s.rows) + 17;
    const std::vector<unsigned char> in = payload_buffer(elem, in_n);
    std::vector<unsigned char> want(static_cast<std::size_t>(out_n) * elem, kPoison);
    xpose::kernels::transpose_naive(in.data() + in_off * elem, want.data() + out_off * elem, elem,
                                    s);

    DeviceBuffer din(in.size() + 16), dout(want.size() + 16);
    XPOSE_CHECK_CUDA(
        cudaMemcpyAsync(din.ptr, in.data(), in.size(), cudaMemcpyHostToDevice, stream_));
    XPOSE_CHECK_CUDA(cudaMemsetAsync(dout.ptr, kPoison, dout.size, stream_));
    if (variant.empty()) {
      if (chosen != nullptr)
        *chosen = xpose::kernels::variants::default_out_of_place(
            din.bytes() + in_off * elem, dout.bytes() + out_off * elem, elem, shape);
      xpose::kernels::transpose_cuda(din.bytes() + in_off * elem, dout.bytes() + out_off * elem,
                                     elem, shape, stream_);
    } else if (!xpose::kernels::variants::run_out_of_place(variant, din.bytes() + in_off * elem,
                                                           dout.bytes() + out_off * elem, elem,
                                                           shape, stream_)) {
      if (must_run) ADD_FAILURE() << variant << " declined a layout it must take";
      return;  // does not take this layout
    }
    std::vector<unsigned char> got(want.size());
    XPOSE_CHECK_CUDA(
        cudaMemcpyAsync(got.data(), dout.ptr, got.size(), cudaMemcpyDeviceToHost, stream_));
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream_));
    EXPECT_TRUE(same_bytes(want, got, elem));
  }

  // In place: equal to the CPU in-place result, and the second transpose gives the input back.
  void check_inplace(std::size_t elem, std::int64_t n, std::int64_t batch, std::int64_t off = 0,
                     const std::string& variant = "",
                     xpose::kernels::variants::DispatchChoice* chosen = nullptr) {
    SCOPED_TRACE(::testing::Message()
                 << (variant.empty() ? "transpose_inplace_cuda" : variant) << " elem=" << elem
                 << " n=" << n << " batch=" << batch << " offset=" << off);
    const std::int64_t count = off + n * n * batch;
    const std::vector<unsigned char> orig = payload_buffer(elem, count);
    std::vector<unsigned char> want = orig;
    xpose::kernels::transpose_inplace_cpu(want.data() + off * elem, elem, n, batch);

    DeviceBuffer d(orig.size());
    if (variant.empty() && chosen != nullptr)
      *chosen = xpose::kernels::variants::default_in_place(d.bytes() + off * elem, elem, n, batch);
    XPOSE_CHECK_CUDA(
        cudaMemcpyAsync(d.ptr, orig.data(), orig.size(), cudaMemcpyHostToDevice, stream_));
    auto run = [&] {
      if (variant.empty()) {
        xpose::kernels::transpose_inplace_cuda(d.bytes() + off * elem, elem, n, batch, stream_);
        return true;
      }
      return xpose::kernels::variants::run_in_place(variant, d.bytes() + off * elem, elem, n, batch,
                                                    stream_);
    };
    if (!run()) return;  // the candidate does not take this buffer / n
    std::vector<unsigned char> got(orig.size());
    XPOSE_CHECK_CUDA(
        cudaMemcpyAsync(got.data(), d.ptr, got.size(), cudaMemcpyDeviceToHost, stream_));
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream_));
    EXPECT_TRUE(same_bytes(want, got, elem)) << "first transpose";

    run();
    XPOSE_CHECK_CUDA(
        cudaMemcpyAsync(got.data(), d.ptr, got.size(), cudaMemcpyDeviceToHost, stream_));
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream_));
    EXPECT_TRUE(same_bytes(orig, got, elem)) << "transposed twice";
  }

  // The layout of `c` through the library entry point, every element checked (check_transpose),
  // and the dispatch entry that took it expected to be `entry`.
  void expect_entry(const EntryCase& c, int entry) {
    xpose::kernels::variants::DispatchChoice chosen;
    check_transpose(c.elem, padded(c.rows, c.cols, c.batch, c.in_pad, c.out_pad), c.in_off, 0, "",
                    &chosen);
    EXPECT_EQ(chosen.index, entry)
        << "elem " << c.elem << " " << c.rows << " x " << c.cols << " batch " << c.batch;
  }

  // `cases` random layouts drawn from r (draw_out_of_place / draw_in_place; element sizes in
  // turn), each checked as above, the dispatch entry of each counted in `hits`. Stops at the first
  // failure; `label` names the draw in the failure's trace.
  void random_out_of_place(RandomLayout& r, int cases, bool small, const char* label, Hits& hits) {
    for (int i = 0; i < cases && !HasFailure(); ++i) {
      const std::size_t e = kElemSizes[i % 5];
      const OutOfPlaceCase c = draw_out_of_place(r, e, small);
      xpose::kernels::variants::DispatchChoice chosen;
      SCOPED_TRACE(::testing::Message() << "out of place case " << i << " of " << label);
      check_transpose(e, c.shape, c.in_off, c.out_off, "", &chosen);
      count(hits, e, chosen);
    }
  }
  void random_in_place(RandomLayout& r, int cases, bool small, const char* label, Hits& hits) {
    for (int i = 0; i < cases && !HasFailure(); ++i) {
      const std::size_t e = kElemSizes[i % 5];
      const InPlaceCase c = draw_in_place(r, e, small);
      xpose::kernels::variants::DispatchChoice chosen;
      SCOPED_TRACE(::testing::Message() << "in place case " << i << " of " << label);
      check_inplace(e, c.n, c.batch, c.off, "", &chosen);
      count(hits, e, chosen);
    }
  }

  cudaStream_t stream_ = nullptr;
};

// ---- argument checks (no device needed) -----------------------------------------------------

TEST(CudaKernelArguments, RejectsUnsupportedElementSize) {
  EXPECT_THROW(
      xpose::kernels::transpose_cuda(reinterpret_cast<void*>(16), reinterpret_cast<void*>(64), 3,
                                     TransposeShape::dense(4, 4), nullptr),
      xpose::UnsupportedInputError);
  EXPECT_THROW(
      xpose::kernels::transpose_inplace_cuda(reinterpret_cast<void*>(16), 32, 4, 1, nullptr),
      xpose::UnsupportedInputError);
}

TEST(CudaKernelArguments, RejectsBadShapesAndIgnoresEmptyOnes) {
  TransposeShape s = TransposeShape::dense(4, 4);
  s.in_pitch = 3;  // smaller than a row
  EXPECT_THROW(xpose::kernels::transpose_cuda(nullptr, nullptr, 4, s, nullptr),
               xpose::DimensionMismatch);
  EXPECT_THROW(xpose::kernels::transpose_inplace_cuda(nullptr, 4, -1, 1, nullptr),
               xpose::DimensionMismatch);
  // Nothing to do: no launch, no error, whatever the pointers.
  EXPECT_NO_THROW(
      xpose::kernels::transpose_cuda(nullptr, nullptr, 4, TransposeShape::dense(0, 7), nullptr));
  EXPECT_NO_THROW(
      xpose::kernels::transpose_cuda(nullptr, nullptr, 4, TransposeShape::dense(7, 0), nullptr));
  EXPECT_NO_THROW(xpose::kernels::transpose_inplace_cuda(nullptr, 8, 0, 3, nullptr));
  EXPECT_NO_THROW(xpose::kernels::transpose_inplace_cuda(nullptr, 8, 1, 1, nullptr));
  // Buffers off the element size's alignment are refused before any launch.
  EXPECT_THROW(xpose::kernels::transpose_cuda(reinterpret_cast<void*>(0x1002),
                                              reinterpret_cast<void*>(0x2000), 4,
                                              TransposeShape::dense(8, 8), nullptr),
               xpose::DimensionMismatch);
  EXPECT_THROW(
      xpose::kernels::transpose_inplace_cuda(reinterpret_cast<void*>(0x1004), 8, 8, 1, nullptr),
      xpose::DimensionMismatch);
}

// ---- out of place ----------------------------------------------------------------------------

TEST_F(CudaKernels, SmallAndDegenerateShapes) {
  const std::int64_t shapes[][2] = {{1, 1},     {1, 1000},  {1000, 1}, {31, 33}, {33, 31},
                                    {2, 3},     {17, 5},    {32, 32},  {64, 64}, {63, 65},
                                    {127, 129}, {128, 128}, {5, 300},  {300, 5}};
  for (std::size_t e : kElemSizes)
    for (const auto& sh : shapes) check_transpose(e, TransposeShape::dense(sh[0], sh[1]));
}

TEST_F(CudaKernels, PrimesAndPowersOfTwo) {
  const std::int64_t shapes[][2] = {{257, 1031}, {1031, 257}, {509, 509}, {1024, 1024},
                                    {256, 2048}, {2048, 256}, {4096, 128}};
  for (std::size_t e : kElemSizes)
    for (const auto& sh : shapes) check_transpose(e, TransposeShape::dense(sh[0], sh[1]));
}

TEST_F(CudaKernels, Batches) {
  for (std::size_t e : kElemSizes) {
    check_transpose(e, TransposeShape::dense(100, 70, 3));
    check_transpose(e, TransposeShape::dense(64, 128, 5));
    check_transpose(e, TransposeShape::dense(1, 1, 7));
    check_transpose(e, TransposeShape::dense(33, 1, 4));
  }
}

// The library's 1- and 2-byte defaults on shapes large enough for the narrow kernels' whole
// tiles (narrow.cuh): out of place u8 256 x 256 tiles (rows of both matrices on 16 bytes,
// batched, pitched with gaps), 128 x 128 tiles (odd pitches; pointers off 4 bytes, where the
// first tile's words would reach before the buffer and go element by element), u16 on 16-byte
// rows and off them (the rotated kernel); in place u8 256 x 256 and u16 128 x 128 pairs at n off
// 256 bytes and on them, batched, with a buffer off 4 bytes.
TEST_F(CudaKernels, NarrowDefaults) {
  for (std::size_t e : {std::size_t{1}, std::size_t{2}}) {
    check_transpose(e, TransposeShape::dense(1024, 768, 2));
    check_transpose(e, pitched(520, 784, 2, 800, 528, 48, 16));
    check_transpose(e, TransposeShape::dense(1031, 777));
    check_transpose(e, TransposeShape::dense(777, 1031), 3, 1);
    check_transpose(e, TransposeShape::dense(1024, 768), 0, 2);
    // Output rows on 16 bytes, input rows off them: the narrow kernel in column-major order
    // (under 32000 rows) and in groups of tile rows (64000 rows: two column sweeps), batched.
    check_transpose(e, TransposeShape::dense(1024, 777));
    check_transpose(e, TransposeShape::dense(1040, 1031, 2));
    check_transpose(e, TransposeShape::dense(64000, 261));
    // Both matrices' rows on 16 bytes with partial tiles (u8: the narrow skewed kernel since run
    // 24), clipped on the right, at the bottom and both, batched.
    check_transpose(e, TransposeShape::dense(1024, 1040));
    check_transpose(e, TransposeShape::dense(1040, 1024, 2));
    check_transpose(e, TransposeShape::dense(1296, 528), 16, 32);
    // In place; the guarded-word path for the edge pairs takes u8 where n mod 256 >= 48 (1000,
    // 583, 1100, 1088; 1071, 1059 and 1047 under it) and u16 where n mod 128 >= 36 with rows off
    // 128-byte lines (1000, 583, 1100, 1071, 1060; 1059 and 1047 under it, 1088 on lines);
    // batched, the buffer shifted by 3 elements and by 4 bytes.
    for (std::int64_t n : {1040, 1031, 768, 1000, 1071, 1047, 583, 1059, 1060, 1088})
      check_inplace(e, n, 1, 0);
    check_inplace(e, 1040, 2, 3);
    check_inplace(e, 1100, 2, 4 / e);
  }
}

// The narrow kernels' edge tiles (guarded words), for the library's choice and every narrow-*
// candidate: output rows on 16 bytes, tiles clipped on the right, at the bottom and both, the
// first and last tiles' words reaching outside the input (buffers off 4 bytes), pitched with
// gaps, a batch.
TEST_F(CudaKernels, NarrowEdgeTiles) {
  int ran = 0;
  for (std::size_t e : {std::size_t{1}, std::size_t{2}}) {
    for (const std::string& v : xpose::kernels::variants::out_of_place(e)) {
      if (v != "default" && v.rfind("narrow-", 0) != 0) continue;
      ++ran;
      check_transpose(e, TransposeShape::dense(1040, 1001), 1, 0, v);
      check_transpose(e, TransposeShape::dense(2064, 300), 3, 0, v);
      check_transpose(e, TransposeShape::dense(528, 257, 3), 2, 0, v);
      check_transpose(e, TransposeShape::dense(4096, 4099), 0, 0, v);
      check_transpose(e, pitched(1104, 333, 2, 337, 1120, 3, 16), 1, 0, v);
    }
  }
  EXPECT_GT(ran, 2);
}

// In place, the narrow kernels' pairs at the matrix's edge (the default and every narrow*
// candidate): n just past a tile, far past it, odd, a batch, a buffer off 4 bytes (the first
// pair's words reach outside the matrix).
TEST_F(CudaKernels, NarrowEdgePairs) {
  int ran = 0;
  for (std::size_t e : {std::size_t{1}, std::size_t{2}}) {
    for (const std::string& v : xpose::kernels::variants::in_place(e)) {
      if (v != "default" && v.rfind("narrow", 0) != 0) continue;
      ++ran;
      check_inplace(e, 257, 1, 0, v);
      check_inplace(e, 456, 1, 0, v);
      check_inplace(e, 1031, 1, 0, v);
      check_inplace(e, 300, 2, 1, v);
    }
  }
  EXPECT_GT(ran, 2);
}

// A sub-block of a wider input into a sub-block of a wider output, batched with gaps.
TEST_F(CudaKernels, PitchedSubBlocks) {
  for (std::size_t e : kElemSizes) {
    check_transpose(e, kOddSubBlocks);
    check_transpose(e, kWordSubBlocks);
    check_transpose(e, kWordSubBlocks, 16, 32);
  }
}

// Pointers off 16-byte alignment and odd pitches take the narrower fallback shapes.
TEST_F(CudaKernels, MisalignedFallbacks) {
  for (std::size_t e : kElemSizes) {
    for (std::int64_t off : {1, 2, 3}) {
      check_transpose(e, TransposeShape::dense(256, 192), off, 0);
      check_transpose(e, TransposeShape::dense(256, 192), 0, off);
    }
    check_transpose(e, TransposeShape::dense(258, 194));  // pitches multiple of 2 only
    check_transpose(e, TransposeShape::dense(260, 196));  // multiple of 4 only
    check_transpose(e, TransposeShape::dense(1001, 999));
    // Output rows on 128-byte lines but off 256 bytes (the 4-, 8- and 16-byte elements' skewed
    // kernel), and output rows on 256 bytes with input rows off them (their tiled kernel).
    // (c128: more rows than its thin limit of 64, with the same output-row alignment.)
    const auto es = static_cast<std::int64_t>(e);
    check_transpose(e, TransposeShape::dense(es == 16 ? 72 : 384 / es, 200));
    check_transpose(e, TransposeShape::dense(es == 16 ? 88 : 640 / es, 130, 2));
    check_transpose(e, TransposeShape::dense(es == 16 ? 80 : 512 / es, es == 1 ? 152 : 136));
  }
}

// More than 65535 tile rows (and tile columns): the grid is 1-D and strides over tiles. The
// library takes these thin shapes with the thin kernel since run 26, so every candidate runs
// them too (the tiled, skewed, narrow and rotated kernels among them).
TEST_F(CudaKernels, TileGridPast65535) {
  const struct {
    std::size_t elem;
    std::int64_t rows, cols;
  } cases[] = {{1, (1 << 23) + 7, 3},
               {1, 3, (1 << 23) + 7},
               {4, (1 << 22) + 1, 5},
               {16, (1 << 21) + 1, 2},
               {8, 2, (1 << 21) + 3}};
  for (const auto& c : cases)
    for (const std::string& v : xpose::kernels::variants::out_of_place(c.elem))
      check_transpose(c.elem, TransposeShape::dense(c.rows, c.cols), 0, 0, v);
}

TEST_F(CudaKernels, LargerSquareAndRectangular) {
  check_transpose(4, TransposeShape::dense(4099, 2053));
  // f32, f64 and c128 inputs taller than 28000 rows off 256-byte output rows: the skewed kernel
  // in groups of tile rows (three and five column sweeps), batched ones among them (more
  // columns than the thin kernel takes).
  check_transpose(4, TransposeShape::dense(40001, 61));
  check_transpose(4, TransposeShape::dense(70003, 53, 2));
  check_transpose(8, TransposeShape::dense(40001, 53));
  check_transpose(16, TransposeShape::dense(70003, 13, 2));
  // f32 output rows on 32 bytes but off 256, 200000 rows or more: the tiled kernel.
  check_transpose(4, TransposeShape::dense(200008, 50));
  check_transpose(4, TransposeShape::dense(200008, 76, 2));
  // The thin kernel where the library takes it (transpose_tiled.cu's ranges, round 3 of run
  // 28): at both ends of every range of short sides, in each orientation and, for u8 / u16, on
  // wide rows on 4 bytes and off them, dense and batched with the tall buffer off 4 bytes, and
  // pitched with gaps; just outside each range, where the dispatch must take another kernel. The
  // block ranges (round 4: m a multiple of 4 / e, both matrices in words, the wide rows on 4
  // bytes): thin at both ends, dense and batched; not with the tall buffer off 4 bytes (no blocks
  // there), nor at the next multiples of 4 / e outside, nor at m + 1.
  using Ranges = std::vector<std::array<std::int64_t, 2>>;
  const struct {
    std::size_t e;
    Ranges rows, cols, rows_off4, cols_off4;  // off4: the wide rows off 4 bytes (u8 / u16)
    Ranges rows_blocks, cols_blocks;
  } thin[] = {
      {1,
       {{1, 248}},
       {{1, 150}},
       {{1, 150}, {230, 250}},
       {{1, 128}},
       {{252, 252}},
       {{160, 160}, {200, 200}}},
      {2,
       {{1, 96}, {124, 127}, {130, 150}},
       {{1, 118}, {138, 176}},
       {{1, 63}, {115, 117}},
       {{1, 125}},
       {{98, 104}, {152, 160}},
       {}},
      {4,
       {{1, 31}, {33, 38}, {63, 63}, {65, 78}, {81, 81}},
       {{1, 48}, {65, 81}, {240, 240}},
       {},
       {},
       {},
       {}},
      {8, {{1, 25}, {30, 31}, {33, 47}, {65, 71}}, {{1, 48}, {65, 85}, {200, 200}}, {}, {}, {}, {}},
      {16, {{1, 64}, {128, 128}}, {{1, 14}, {17, 20}, {33, 43}, {98, 100}}, {}, {}, {}, {}}};
  auto inside = [](const Ranges& rs, std::int64_t m) {
    for (const auto& r : rs)
      if (r[0] <= m && m <= r[1]) return true;
    return false;
  };
  for (const auto& t : thin) {
    const auto es = static_cast<std::int64_t>(t.e);
    const int thin_index = es < 4 ? 1 : 0;  // u8 / u16: after the records kernel
    for (const bool on4 : {true, false}) {
      if (!on4 && es >= 4) continue;
      for (const bool short_rows : {true, false}) {
        const Ranges& rs =
            on4 ? (short_rows ? t.rows : t.cols) : (short_rows ? t.rows_off4 : t.cols_off4);
        // The long side 20012 puts the wide rows on 4 bytes at every element size, 20011 off
        // them for u8 / u16.
        const std::int64_t len = on4 ? 20012 : 20011;
        auto shape = [&](std::int64_t m, std::int64_t batch) {
          return short_rows ? TransposeShape::dense(m, len, batch)
                            : TransposeShape::dense(len, m, batch);
        };
        const std::int64_t tall_off = 4 / es + 1;  // the tall buffer off 4 bytes
        for (const auto& r : rs) {
          for (const std::int64_t m : {r[0], r[1]}) {
            const auto where = ::testing::Message()
                               << "elem " << t.e << (short_rows ? " rows " : " cols ") << m
                               << (on4 ? " on 4 bytes" : " off 4 bytes");
            xpose::kernels::variants::DispatchChoice c;
            check_transpose(t.e, shape(m, 2), short_rows ? 0 : tall_off, short_rows ? tall_off : 0,
                            "", &c);
            // m = 1, dense: a copy in order (CopiesInOrder); the pitched case below keeps the
            // thin kernel's m = 1.
            if (m == 1)
              EXPECT_TRUE(c.copy) << where;
            else
              EXPECT_EQ(c.index, thin_index) << where;
            // Pitched with gaps: the wide rows 5012 elements apart (on 4 bytes), the wide
            // buffer one element off where they are to be off 4 bytes; the tall rows pitched
            // (m + 1), so the records kernel does not take it.
            const std::int64_t wide_off = on4 ? 0 : 1;
            if (short_rows)
              check_transpose(t.e, pitched(m, 5001, 2, 5012, m + 1, 4, 5), wide_off, 0, "", &c);
            else
              check_transpose(t.e, pitched(5001, m, 2, m + 1, 5012, 3, 4), 0, wide_off, "", &c);
            EXPECT_EQ(c.index, thin_index) << where << ", pitched";
          }
          for (const std::int64_t m : {r[0] - 1, r[1] + 1}) {
            if (m < 1 || m > 256 || inside(rs, m)) continue;
            xpose::kernels::variants::DispatchChoice c;
            check_transpose(t.e, shape(m, 1), 0, 0, "", &c);
            EXPECT_GT(c.index, thin_index) << "elem " << t.e << (short_rows ? " rows " : " cols ")
                                           << m << (on4 ? " on 4 bytes" : " off 4 bytes");
          }
        }
        if (!on4) continue;
        const std::int64_t P = 4 / es;
        const Ranges& bs = short_rows ? t.rows_blocks : t.cols_blocks;
        for (const auto& r : bs) {
          for (const std::int64_t m : {r[0], r[1]}) {
            const auto where = ::testing::Message()
                               << "elem " << t.e << (short_rows ? " rows " : " cols ") << m;
            xpose::kernels::variants::DispatchChoice c;
            check_transpose(t.e, shape(m, 2), 0, 0, "", &c);
            EXPECT_EQ(c.index, thin_index) << where << ", blocks";
            check_transpose(t.e, shape(m, 1), short_rows ? 0 : tall_off, short_rows ? tall_off : 0,
                            "", &c);
            EXPECT_GT(c.index, thin_index) << where << ", tall buffer off 4 bytes";
          }
          for (const std::int64_t m : {r[0] - P, r[1] + P, r[1] + 1}) {
            if (m > 256 || inside(bs, m) || inside(rs, m)) continue;
            xpose::kernels::variants::DispatchChoice c;
            check_transpose(t.e, shape(m, 1), 0, 0, "", &c);
            EXPECT_GT(c.index, thin_index)
                << "elem " << t.e << (short_rows ? " rows " : " cols ") << m;
          }
        }
      }
    }
  }
  // u8 / u16 with output rows off 16 bytes: the narrow skewed kernel, interior and edge tiles,
  // tall inputs in column sweeps, a batch with odd gaps, buffers off 4 bytes.
  check_transpose(1, TransposeShape::dense(3001, 2053));
  check_transpose(1, pitched(1100, 600, 2, 1237, 1103, 5, 7), 1, 3);
  // u8 with output rows on 16 bytes but 4 % or more of the narrow kernel's tiles partial (few
  // columns): the narrow skewed kernel too.
  check_transpose(1, TransposeShape::dense(4096, 1001));
  check_transpose(1, TransposeShape::dense(4096, 3001, 2));
  check_transpose(2, TransposeShape::dense(40011, 300));
  check_transpose(2, pitched(20011, 131, 2, 133, 20013, 3, 5), 2, 1);
  check_transpose(8, TransposeShape::dense(2048, 3072));
  check_transpose(16, TransposeShape::dense(1500, 1700));
  check_transpose(2, TransposeShape::dense(3001, 4096));
  // u16 on 256-byte rows both ways: the word kernels on high-bandwidth devices (run 44; 128 x 128
  // tiles from 16 an SM, 64 x 64 below), dense, batched, pitched with gaps.
  check_transpose(2, TransposeShape::dense(4096, 8192, 2));
  check_transpose(2, TransposeShape::dense(2048, 4096, 3));
  check_transpose(2, pitched(1920, 1152, 2, 1280, 2048, 128, 256));
  check_transpose(1, TransposeShape::dense(4096, 4095));
}

// ---- in place --------------------------------------------------------------------------------

TEST_F(CudaKernels, InPlaceMatchesCpuAndTwiceIsIdentity) {
  for (std::size_t e : kElemSizes)
    for (std::int64_t n :
         {1, 2, 3, 16, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 257, 1000, 1031})
      check_inplace(e, n, 1);
}

TEST_F(CudaKernels, InPlaceBatchedAndMisaligned) {
  for (std::size_t e : kElemSizes) {
    check_inplace(e, 100, 3);
    check_inplace(e, 128, 4);
    check_inplace(e, 1, 5);
    check_inplace(e, 256, 2, 1);  // off 16-byte alignment: fallback shapes
    check_inplace(e, 256, 1, 2);
    check_inplace(e, 258, 1);
    check_inplace(e, 260, 1);
    check_inplace(e, 389, 3, 1);  // 3 x 128 + 5, batched, off alignment: every path of the f32
                                  // odd-n kernel (128 x 128 pairs, diagonal, edge) in a batch
  }
  check_inplace(4, 1031, 2);  // f32 odd n, a batch of 2: the rotated kernel's fast pairs
}

TEST_F(CudaKernels, InPlaceLarger) {
  check_inplace(4, 4096, 1);
  check_inplace(4, 4099, 1);
  check_inplace(4, 12007, 1);  // f32 odd n from 12000: 512 threads on high-bandwidth devices
  check_inplace(8, 3000, 1);
  check_inplace(8, 4096, 1);  // f64 on 256-byte rows: 64 x 64 pairs on high-bandwidth devices
  check_inplace(8, 2080, 2);  // the same with edge pairs (2080 = 32 x 65), a batch of 2
  check_inplace(16, 2048, 1);
  check_inplace(16, 3001, 2);  // c128 off 256-byte rows: the rotated kernel on high-bandwidth
  check_inplace(16, 4099, 1);  // devices (64 x 64 pairs; edge pairs 3 wide)
  check_inplace(1, 4111, 1);
  check_inplace(2, 2500, 2);
}

TEST_F(CudaKernels, RandomLayoutsOutOfPlace) {
  RandomLayout r(20261127);
  Hits hits(17);
  random_out_of_place(r, 800, false, "seed 20261127", hits);
  report("out of place", hits, reachable_out_of_place, true);
}

TEST_F(CudaKernels, RandomLayoutsInPlace) {
  RandomLayout r(20261128);
  Hits hits(17);
  random_in_place(r, 300, false, "seed 20261128", hits);
  report("in place", hits, reachable_in_place, true);
}

// Small random layouts for compute-sanitizer (tests/gpu/sanitize.sh runs memcheck, racecheck and
// synccheck on them): out-of-bounds reads, writes into the test buffers' slack, and races that
// leave the results right, which the tests above cannot see. The coverage is printed, not
// required (the large classes are left out).
TEST_F(CudaKernels, SanitizerRandomLayouts) {
  RandomLayout r(20261129);
  Hits oop(17), inp(17);
  random_out_of_place(r, 300, true, "seed 20261129", oop);
  random_in_place(r, 150, true, "seed 20261129", inp);
  report("out of place", oop, reachable_out_of_place, false);
  report("in place", inp, reachable_in_place, false);
}

// Results must not depend on timing: the same transposes on a second, busy stream.
TEST_F(CudaKernels, RepeatableOnAnotherStream) {
  for (int i = 0; i < 3; ++i) {
    check_transpose(4, TransposeShape::dense(777, 555));
    check_inplace(8, 555, 2);
  }
}

// A handful of shapes for compute-sanitizer (tests/gpu/sanitize.sh): small enough to run under
// memcheck and racecheck in seconds, and covering full, edge and diagonal tiles of every shape.
TEST_F(CudaKernels, SanitizerShapes) {
  for (std::size_t e : kElemSizes) {
    check_transpose(e, TransposeShape::dense(1, 1));
    check_transpose(e, TransposeShape::dense(31, 33));
    check_transpose(e, TransposeShape::dense(130, 257, 2));
    check_transpose(e, TransposeShape::dense(130, 257), 1, 3);
    check_transpose(e, TransposeShape::dense(160, 257));  // 1, 2 bytes: output rows on 16 only
    check_transpose(e, TransposeShape::dense(160, 257), 1, 0);  // and the input off 4 bytes
    check_inplace(e, 33, 1);
    check_inplace(e, 200, 2);
    check_inplace(e, 130, 1, 1);
  }
}

// Run 31's launches on few, small shapes, for compute-sanitizer (tests/gpu/sanitize.sh): the
// interleaved in-place order (-iS candidates; the library's on one-stack pitches) with idle block
// numbers, edge pairs, a batch and a shifted buffer; the skewed kernels' stagger with balanced
// bands (-stagc, the f32 / f64 library's) over tile rows that make 1-6 bands, pitched and batched.
TEST_F(CudaKernels, SanitizerRun31) {
  const auto in_place = candidates_with({4, 8, 16}, "-i", true);
  for (const auto& [e, v] : in_place) {
    check_inplace(e, 97, 1, 0, v);
    check_inplace(e, 128, 2, 0, v);
    check_inplace(e, 65, 3, 0, v);
  }
  const auto staggered = candidates_with({4, 8, 16}, "-stagc");
  for (const auto& [e, v] : staggered) {
    check_transpose(e, TransposeShape::dense(700, 197), 0, 0, v, nullptr, true);
    check_transpose(e, pitched(333, 130, 2, 141, 338, 3, 0), 1, 0, v, nullptr, true);
  }
  EXPECT_GE(in_place.size() + staggered.size(), 12u);
}

// Run 32's launches on few, small shapes, for compute-sanitizer (tests/gpu/sanitize.sh): the
// spread order (-sp5, every element size) in column order over tile-row counts off a multiple of
// five, pitched and batched; and (f32 / f64 / c128) the library's spread groups where they run,
// output rows a multiple of 320 KiB apart behind 28001 x 50 inputs (rows off 128 bytes, one row
// past the column rule's 28000), every output element and the untouched padding checked.
TEST_F(CudaKernels, SanitizerRun32) {
  const auto spread = candidates_with({1, 2, 4, 8, 16}, "-sp");
  for (const auto& [e, v] : spread) {
    const bool must = e >= 4 || device_has_h100_smem();
    check_transpose(e, TransposeShape::dense(333, 130), 0, 0, v, nullptr, must);
    check_transpose(e, pitched(97, 61, 2, 64, 101, 3, 0), 1, 0, v, nullptr, must);
    check_transpose(e, TransposeShape::dense(1291, 517), 0, 0, v, nullptr, must);
  }
  EXPECT_GE(spread.size(), 7u);
  for (std::size_t e : {std::size_t{4}, std::size_t{8}, std::size_t{16}}) {
    // Output rows a multiple of 320 KiB apart, at least 28001 elements: 320 KiB for f32 / f64,
    // 640 KiB for c128.
    const std::int64_t p320 = 5 * 65536 / static_cast<std::int64_t>(e);
    check_transpose(e, pitched(28001, 50, 1, 50, (28001 + p320 - 1) / p320 * p320, 0, 0));
  }
}

// Run 33's kernels on small shapes, for compute-sanitizer (in sanitize.sh's default filter): the
// rotated in-place kernels with guarded edge pairs (-fe, the library's and two candidates: edge
// widths 1, 3, 44 and 72, the diagonal edge pair, batches, a shifted buffer) and the defaults at
// small n (every element size: f32 / f64 / c128 one 32 x 32 pair a block since runs 33-34, u8 / u16
// their narrow kernels).
TEST_F(CudaKernels, SanitizerRun33) {
  const auto edge = candidates_with({4}, "-fe", true);
  for (const auto& [e, v] : edge) {
    check_inplace(e, 129, 1, 0, v);
    check_inplace(e, 131, 2, 1, v);
    check_inplace(e, 300, 1, 0, v);
    check_inplace(e, 200, 3, 0, v);
    check_inplace(e, 45, 1, 2, v);
  }
  EXPECT_EQ(edge.size(), 3u);
  for (std::size_t e : kElemSizes) {
    check_inplace(e, 301, 1);
    check_inplace(e, 97, 3, 1);
  }
}

// ---- every candidate kernel (variants.h), as bench_kernels --compare times them ---------------

TEST(CudaKernelVariants, NamesListedAndUnknownRefused) {
  for (std::size_t e : kElemSizes) {
    const auto oop = xpose::kernels::variants::out_of_place(e);
    const auto ip = xpose::kernels::variants::in_place(e);
    ASSERT_FALSE(oop.empty());
    ASSERT_FALSE(ip.empty());
    EXPECT_EQ(oop.front(), "default");
    EXPECT_EQ(ip.front(), "default");
  }
  EXPECT_THROW(xpose::kernels::variants::run_out_of_place("no-such-kernel", nullptr, nullptr, 4,
                                                          TransposeShape::dense(4, 4), nullptr),
               xpose::UnsupportedInputError);
  EXPECT_THROW(xpose::kernels::variants::run_in_place("no-such-kernel", nullptr, 4, 4, 1, nullptr),
               xpose::UnsupportedInputError);
}

// Every out-of-place candidate, every element size: degenerate, odd and prime shapes, batches,
// pitched sub-blocks with gaps, pointers off 16-byte alignment; whole poisoned output compared.
TEST_F(CudaKernels, EveryVariantOutOfPlace) {
  const std::int64_t shapes[][2] = {{1, 1},     {1, 1000},  {1000, 1},   {31, 33},    {33, 31},
                                    {2, 3},     {127, 129}, {128, 128},  {257, 1031}, {1031, 257},
                                    {509, 509}, {300, 5},   {1001, 999}, {250, 4099}};
  for (std::size_t e : kElemSizes) {
    for (const std::string& v : xpose::kernels::variants::out_of_place(e)) {
      for (const auto& sh : shapes)
        check_transpose(e, TransposeShape::dense(sh[0], sh[1]), 0, 0, v);
      check_transpose(e, TransposeShape::dense(100, 70, 3), 0, 0, v);
      check_transpose(e, TransposeShape::dense(33, 1, 4), 0, 0, v);
      check_transpose(e, kOddSubBlocks, 0, 0, v);
      check_transpose(e, kWordSubBlocks, 0, 0, v);
      check_transpose(e, kWordSubBlocks, 16, 32, v);
      // Pitches and gaps on 16 bytes, rows of odd length: words fit, rows end inside one (run
      // 34: the TMA stores wrote past such rows).
      check_transpose(e, pitched(517, 301, 2, 304, 520, 16, 16), 0, 0, v);
      for (std::int64_t off : {1, 3}) {
        check_transpose(e, TransposeShape::dense(256, 192), off, 0, v);
        check_transpose(e, TransposeShape::dense(256, 192), 0, off, v);
      }
      check_transpose(e, TransposeShape::dense(258, 194), 0, 0, v);
    }
  }
}

// The thin kernel's candidates for `elem`-byte elements: the library's form, and for 1- and 2-byte
// elements also wide rows off 4 bytes element by element / in shifted words everywhere.
std::vector<std::string> thin_forms(std::size_t elem) {
  if (elem < 4) return {"thin", "thin-elemwide", "thin-shifted"};
  return {"thin"};
}

// The thin kernel (thin.cuh; candidate "thin"): short sides around its slab sizes' limits (32,
// 64, 128, 256) and the warp width, in both orientations; long sides under one slab, over one
// and many slabs, and ending inside a 4-byte word; a batch with gaps and odd pitches; buffers
// off by whole elements and by 4 bytes (the word paths of 1- and 2-byte elements); wide rows off
// 4 bytes by 1, 2 and 3 elements, whole slabs among them (shifted words, run 27). For 1- and
// 2-byte elements also thin-elemwide and thin-shifted (those rows element by element / in
// shifted words everywhere; the library takes shifted words for u16 short rows only).
TEST_F(CudaKernels, ThinCandidate) {
  const std::int64_t shorts[] = {1, 2, 17, 31, 32, 33, 64, 65, 100, 128, 129, 200, 255, 256};
  const std::int64_t longs[] = {1, 7, 1000, 4099};
  for (std::size_t e : kElemSizes) {
    for (const std::string& v : thin_forms(e)) {
      for (std::int64_t m : shorts) {
        for (std::int64_t len : longs) {
          check_transpose(e, TransposeShape::dense(m, len), 0, 0, v);
          check_transpose(e, TransposeShape::dense(len, m), 0, 0, v);
        }
        check_transpose(e, pitched(m, 3001, 3, 3005, m + 3, 11, 7), 1, 2, v);
        check_transpose(e, pitched(3001, m, 2, m + 5, 3010, 3, 9), 2, 1, v);
        // Buffers 4 bytes off 16 (1- and 2-byte elements: 4-byte words on both sides), batched.
        const std::int64_t q = std::max<std::int64_t>(1, 4 / static_cast<std::int64_t>(e));
        check_transpose(e, TransposeShape::dense(m, 1000, 2), q, q, v);
        check_transpose(e, TransposeShape::dense(1000, m, 2), q, 3 * q, v);
        // 1- and 2-byte elements, the wide matrix off 4 bytes: its start 1-3 elements past a
        // word, rows of 16387 or 4099 elements (every row at another offset, whole slabs of
        // 128-16384 bytes a row among them), batches with odd pitches and gaps.
        for (std::int64_t off : {1, 2, 3}) {
          if (e >= 4) break;
          const std::int64_t len = m <= 32 ? 16387 : 4099;
          check_transpose(e, TransposeShape::dense(m, len), off, 0, v);
          check_transpose(e, TransposeShape::dense(len, m), 0, off, v);
          check_transpose(e, pitched(m, 5000, 2, 5001, m, off, 1), off, 0, v);
          check_transpose(e, pitched(5000, m, 2, m, 5002, 2, off), 0, off, v);
        }
      }
      // P x P blocks (m a multiple of 4 / e, the tall side dense on 4 bytes): tall rows of 1-3
      // words, the wide rows on 4 bytes with a partial last block (1030 of a 1032 pitch), batched.
      for (std::int64_t m : {4, 8, 12}) {
        check_transpose(e, pitched(m, 1030, 2, 1032, m, 4, 0), 0, 0, v);
        check_transpose(e, pitched(1030, m, 2, m, 1032, 0, 4), 0, 0, v);
      }
      // Many slabs: 2^20 + 3 and 2^17 + 3 positions along the long side.
      check_transpose(e, TransposeShape::dense(5, (1 << 20) + 3), 0, 0, v);
      check_transpose(e, TransposeShape::dense((1 << 17) + 3, 70, 2), 0, 0, v);
    }
  }
  // The candidate declines a layout with both sides over 256.
  DeviceBuffer a(300 * 300), b(300 * 300);
  EXPECT_FALSE(xpose::kernels::variants::run_out_of_place(
      "thin", a.ptr, b.ptr, 1, TransposeShape::dense(300, 257), stream_));
}

// The records kernels (records.cuh; candidates "records", "records-gs" and their one-wave grids
// "-1w"): u8 and u16, every short side m from 1 to 16 in both orientations; long sides under one
// chunk (32 P tall rows), at whole chunks and past them by 1 .. 32 P - 1 rows (the element-wise
// tail), over one and many runs of chunks; the wide rows pitched on 4 bytes (rows at many offsets
// from a 128-byte line), batches with gaps, buffers 4 bytes off 16. Each of these layouts must be
// taken (must_run); layouts it must decline: m = 17, wide rows off 4 bytes, the tall matrix pitched
// or off 4 bytes.
TEST_F(CudaKernels, RecordsCandidate) {
  for (const std::string v : {"records", "records-gs", "records-1w", "records-gs-1w"}) {
    for (std::size_t e : {std::size_t{1}, std::size_t{2}}) {
      const std::int64_t p = 4 / static_cast<std::int64_t>(e);  // elements a word
      // The gap that puts the next matrix x elements on on 4 bytes again (at least one word).
      auto gap = [&](std::int64_t x) { return (p - x % p) % p + p; };
      for (std::int64_t m = 1; m <= 16; ++m) {
        // Dense: the wide rows are on 4 bytes where len is a multiple of P (then it must run);
        // odd lengths are checked wherever it takes them.
        const std::int64_t lens[] = {1,         3,          p,    31 * p, 32 * p,
                                     33 * p,    32 * p + 1, 1000, 4099,   65 * 32 * p + 5 * p,
                                     100003 * p};
        for (std::int64_t len : lens) {
          const bool must = len >= m && len % p == 0;
          check_transpose(e, TransposeShape::dense(m, len), 0, 0, v, nullptr, must);
          check_transpose(e, TransposeShape::dense(len, m), 0, 0, v, nullptr, must);
        }
        // Wide rows pitched on 4 bytes, 3001 long (a partial last word), batches with gaps.
        check_transpose(e, pitched(m, 3001, 3, 3004, m, p, gap(3001 * m)), 0, 0, v, nullptr, true);
        check_transpose(e, pitched(3001, m, 2, m, 3008, gap(3001 * m), 3 * p), 0, 0, v, nullptr,
                        true);
        // Buffers 4 and 12 bytes off 16.
        check_transpose(e, TransposeShape::dense(m, 2000, 2), p, 3 * p, v, nullptr, true);
        check_transpose(e, TransposeShape::dense(2000, m, 2), 3 * p, p, v, nullptr, true);
      }
    }
  }
  DeviceBuffer a(1 << 20), b(1 << 20);
  auto takes = [&](std::size_t e, std::int64_t in_off, std::int64_t out_off,
                   const TransposeShape& s) {
    return xpose::kernels::variants::run_out_of_place("records", a.bytes() + in_off * e,
                                                      b.bytes() + out_off * e, e, s, stream_);
  };
  EXPECT_FALSE(takes(1, 0, 0, TransposeShape::dense(17, 1000)));
  EXPECT_FALSE(takes(2, 0, 0, TransposeShape::dense(1000, 17)));
  EXPECT_FALSE(takes(1, 1, 0, TransposeShape::dense(3, 1000)));      // wide rows off 4 bytes
  EXPECT_FALSE(takes(1, 0, 0, pitched(3, 1001, 1, 1001, 3, 0, 0)));  // wide pitch off 4 bytes
  EXPECT_FALSE(takes(1, 0, 1, TransposeShape::dense(3, 1000)));      // tall run off 4 bytes
  EXPECT_FALSE(takes(2, 0, 0, pitched(1000, 3, 1, 4, 1000, 0, 0)));  // tall rows pitched
  EXPECT_TRUE(takes(2, 0, 0, pitched(1000, 3, 1, 3, 1000, 0, 0)));
  XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream_));
}

// ThinCandidate's classes on few, small shapes, for compute-sanitizer (sanitize.sh: racecheck
// ran past 100 s on ThinCandidate in run 27): each element size and form, short sides at the
// slab sizes' edges, both orientations, wide rows off 4 bytes by 1-3 elements and whole slabs,
// and the P x P blocks.
TEST_F(CudaKernels, SanitizerThin) {
  for (std::size_t e : kElemSizes) {
    for (const std::string& v : thin_forms(e)) {
      for (std::int64_t m : {1, 3, 17, 33, 129, 256}) {
        check_transpose(e, TransposeShape::dense(m, 1031), 0, 0, v);
        check_transpose(e, TransposeShape::dense(1031, m), 0, 0, v);
        check_transpose(e, pitched(m, 601, 2, 603, m + 1, 1, 3), 1, 2, v);
        check_transpose(e, pitched(601, m, 2, m, 607, 2, 1), 3, 1, v);
      }
      check_transpose(e, TransposeShape::dense(2, 16387), 1, 0, v);
      check_transpose(e, TransposeShape::dense(16387, 3), 0, 3, v);
      // P x P blocks, as in ThinCandidate.
      for (std::int64_t m : {4, 12}) {
        check_transpose(e, pitched(m, 1030, 2, 1032, m, 4, 0), 0, 0, v);
        check_transpose(e, pitched(1030, m, 2, m, 1032, 0, 4), 0, 0, v);
      }
    }
  }
}

// The dispatch's records rule (transpose_tiled.cu, RecordsDispatch): u8 / u16, m = 1-16, both
// orientations, the wide rows on 32-byte sectors and off them (on 4 bytes): the records kernel
// (index 0) except u8 short columns off sectors at m = 12 and 16; with the tall buffer off 4
// bytes, or m = 17, the thin kernel (index 1). Dense m = 1 layouts are copies (CopiesInOrder).
// Every output checked.
TEST_F(CudaKernels, RecordsDispatch) {
  for (std::size_t e : {std::size_t{1}, std::size_t{2}}) {
    const std::int64_t p = 4 / static_cast<std::int64_t>(e);
    for (std::int64_t m = 1; m <= 17; ++m) {
      const auto where = ::testing::Message() << "elem " << e << " m " << m;
      const int records = m <= 16 ? 0 : 1;
      xpose::kernels::variants::DispatchChoice c;
      // m = 1 (dense): a copy in order whatever the alignment (CopiesInOrder).
      auto expect = [&](int index, const char* what) {
        if (m == 1)
          EXPECT_TRUE(c.copy) << where << what;
        else
          EXPECT_EQ(c.index, index) << where << what;
      };
      check_transpose(e, TransposeShape::dense(m, 1000 * p), 0, 0, "", &c);
      expect(records, " rows");
      check_transpose(e, TransposeShape::dense(1024 * p, m, 2), 0, 0, "", &c);
      expect(records, " cols, on sectors");
      check_transpose(e, TransposeShape::dense(1001 * p, m), 0, 0, "", &c);
      expect(e == 1 && (m == 12 || m == 16) ? 1 : records, " cols, off sectors");
      check_transpose(e, TransposeShape::dense(m, 1000 * p), 0, p + 1, "", &c);
      expect(1, " rows, tall buffer off 4 bytes");
      check_transpose(e, TransposeShape::dense(1000 * p, m), p + 1, 0, "", &c);
      expect(1, " cols, tall buffer off 4 bytes");
    }
  }
}

// A side of 1 whose elements are consecutive in both buffers, the matrices without gaps: the
// default copies them in order with cudaMemcpyAsync (transpose_tiled.cu, copies_in_order; run
// 32). Every element size: one row, one column, 1 x 1, batches, pointers off every alignment.
// Where an element step or a gap between matrices breaks the run, a kernel. Every output
// checked.
TEST_F(CudaKernels, CopiesInOrder) {
  for (std::size_t e : kElemSizes) {
    const auto es = static_cast<std::int64_t>(e);
    const auto where = ::testing::Message() << "elem " << e;
    xpose::kernels::variants::DispatchChoice c;
    for (const auto& s : {TransposeShape::dense(1, 100003), TransposeShape::dense(100003, 1),
                          TransposeShape::dense(1, 4096, 3), TransposeShape::dense(4097, 1, 5),
                          TransposeShape::dense(1, 1), TransposeShape::dense(1, 1, 7)}) {
      for (const std::int64_t off : {std::int64_t{0}, std::int64_t{1}}) {
        check_transpose(e, s, off, 2 * off, "", &c);
        EXPECT_TRUE(c.copy) << where << " " << s.rows << "x" << s.cols << " batch " << s.batch;
        EXPECT_EQ(c.index, -1);
      }
    }
    // A pitch on the one side that steps (one row: the output's; one column: the input's), or a
    // gap between matrices: not a copy.
    check_transpose(e, pitched(1, 3001, 1, 3001, 2, 0, 0), 0, 0, "", &c);
    EXPECT_FALSE(c.copy) << where << " one row, output pitch 2";
    check_transpose(e, pitched(3001, 1, 1, 3, 3001, 0, 0), 0, 0, "", &c);
    EXPECT_FALSE(c.copy) << where << " one column, input pitch 3";
    check_transpose(e, pitched(1, 4000, 3, 4000, 1, 16 / es, 16 / es), 0, 0, "", &c);
    EXPECT_FALSE(c.copy) << where << " one row, gaps between matrices";
    EXPECT_GE(c.index, 0) << where << " one row, gaps between matrices";
    check_transpose(e, pitched(4000, 1, 3, 1, 4000, 0, 16 / es), 0, 0, "", &c);
    EXPECT_FALSE(c.copy) << where << " one column, a gap in the output only";
    EXPECT_GE(c.index, 0) << where << " one column, a gap in the output only";
  }
}

// Output rows 320 KiB apart (5 x 64 KiB) on a five-stack device (a 5120-bit bus, H100 80 GB):
// the dispatch skips the tiled kernel for the skewed one wherever the skewed kernel runs in column
// order (run 29 calls 10-11, run 30); at 336 KiB and on other devices, the tiled kernel; input
// rows 320 KiB apart, the skewed kernel with the stagger. f32, f64, c128, dense and pitched
// sub-blocks; every output checked.
TEST_F(CudaKernels, OneStackPitch) {
  const bool five = device_has_five_stacks();
  const struct {
    std::size_t e;
    int tiled, skewed;  // dispatch positions (after the thin kernel)
  } types[] = {{4, 1, 4}, {8, 1, 2}, {16, 1, 2}};
  for (const auto& t : types) {
    const std::int64_t p320 = 5 * 65536 / static_cast<std::int64_t>(t.e);  // elements
    const auto where = ::testing::Message() << "elem " << t.e;
    xpose::kernels::variants::DispatchChoice c;
    check_transpose(t.e, pitched(1000, 64, 1, 64, p320, 0, 0), 0, 0, "", &c);
    EXPECT_EQ(c.index, five ? t.skewed : t.tiled) << where << ", 1000 rows, 320 KiB";
    check_transpose(t.e, pitched(1000, 64, 1, 64, p320 * 21 / 20, 0, 0), 0, 0, "", &c);
    EXPECT_EQ(c.index, t.tiled) << where << ", 1000 rows, 336 KiB";
    // 20480 .. 81920 rows: past 28000 rows the skewed kernel still runs, in column order where
    // the input rows are on 128 bytes (f32 on odd multiples of 128 without its 256-byte fetch
    // hint), in spread groups off them (run 32).
    check_transpose(t.e, TransposeShape::dense(p320, 64), 0, 0, "", &c);
    EXPECT_EQ(c.index, five ? t.skewed : t.tiled) << where << ", dense";
    check_transpose(t.e, pitched(p320, 96, 1, 96, p320, 0, 0), 0, 0, "", &c);
    EXPECT_EQ(c.index, five ? t.skewed : t.tiled) << where << ", input rows 96 elements apart";
    // Input rows 320 KiB apart, output rows off 256 bytes: the skewed kernel in column order with
    // the stagger; c128's 2100 rows are three of its bands (32 tile rows), so the turn wraps.
    const std::int64_t r = t.e == 16 ? 2100 : 300;
    check_transpose(t.e, pitched(r, 96, 1, p320, r + 1, 0, 0), 0, 0, "", &c);
    EXPECT_EQ(c.index, t.skewed) << where << ", input rows 320 KiB apart";
    check_transpose(t.e, pitched(p320, 96, 1, 98, p320, 0, 0), 0, 0, "", &c);
    EXPECT_EQ(c.index, five ? t.skewed : t.tiled) << where << ", input rows off 128 bytes";
  }
}

// The high-bandwidth TMA entry (transpose_tiled.cu, HighBandwidthTma; run 34): on an H200
// (device_runs_tma_dispatch) f32 layouts with bases and pitches on 16 bytes whose output rows are
// off 256 bytes take the TMA kernel (entry 3) instead of the skewed one (entry 4); on other
// devices (H100s) and off 16 bytes the skewed kernel, and on 256-byte output rows the tiled kernel
// (entry 1) everywhere. f64 takes its skewed kernel (entry 2) on every device. Dense, pitched,
// batched, with gaps, rows ending inside a 16-byte word, edge tiles; every output checked.
TEST_F(CudaKernels, HighBandwidthDispatch) {
  const bool tma = device_runs_tma_dispatch();
  std::printf("  the TMA entry %s on this device\n", tma ? "runs" : "does not run");
  for (const std::size_t e : {std::size_t{4}, std::size_t{8}}) {
    const std::int64_t q = 16 / static_cast<std::int64_t>(e);  // elements in 16 bytes
    const int skewed = e == 4 ? 4 : 2, with_tma = tma && e == 4 ? 3 : skewed;
    const auto where = ::testing::Message() << "elem " << e;
    xpose::kernels::variants::DispatchChoice c;
    check_transpose(e, TransposeShape::dense(1000, 1500), 0, 0, "", &c);
    EXPECT_EQ(c.index, with_tma) << where << ", 1000 x 1500";
    check_transpose(e, TransposeShape::dense(332, 48 * q, 3), 0, 0, "", &c);
    EXPECT_EQ(c.index, with_tma) << where << ", three of 332 x " << 48 * q;
    check_transpose(e, pitched(517, 301, 2, 300 + 4 * q, 520, 5 * q, 7 * q), q, 2 * q, "", &c);
    EXPECT_EQ(c.index, with_tma) << where << ", pitched, gaps, pointers shifted by 16 bytes";
    check_transpose(e, TransposeShape::dense(1001, 1003), 0, 0, "", &c);
    EXPECT_EQ(c.index, skewed) << where << ", rows off 16 bytes";
    check_transpose(e, TransposeShape::dense(1000, 1500), 1, 0, "", &c);
    EXPECT_EQ(c.index, skewed) << where << ", input off 16 bytes";
    check_transpose(e, TransposeShape::dense(256 / static_cast<std::int64_t>(e) * 3, 1000), 0, 0,
                    "", &c);
    EXPECT_EQ(c.index, 1) << where << ", output rows on 256 bytes";
    // The same entry on 256-byte output rows; since run 37 it runs, on high-bandwidth devices,
    // the TMA kernel (f32) or 32 x 32 tiles of 16-byte words (f64) where they take the layout,
    // and the tiled kernel where the input's rows are off 16 bytes.
    const std::int64_t w = 256 / static_cast<std::int64_t>(e);  // elements in 256 bytes
    check_transpose(e, TransposeShape::dense(8 * w, 12 * w), 0, 0, "", &c);
    EXPECT_EQ(c.index, 1) << where << ", 256-byte rows both ways";
    check_transpose(e, TransposeShape::dense(4 * w, 5 * w + q, 3), 0, 0, "", &c);
    EXPECT_EQ(c.index, 1) << where << ", three, input rows on 16 bytes";
    const std::int64_t cols = 3 * w + 7, in_pitch = cols + (e == 4 ? 3 : 2);
    check_transpose(e, pitched(2 * w, cols, 2, in_pitch, 2 * w, 0, 0), 0, 0, "", &c);
    EXPECT_EQ(c.index, 1) << where << ", two, input rows off 16 bytes";
  }
}

// f64 / c128 on rows off 256 bytes (run 38): on high-bandwidth devices (an H200) from 80 of the
// 64 x 64 f64 tiles / 20 of the 32 x 32 c128 tiles an SM over the batch, one element an access
// in those tiles down the tile columns, inside entry 2 (the skewed kernel's); below that and on
// other devices the skewed kernel. Cases on both sides of both counts (132 SMs): dense, batched,
// pitched with gaps, input shifted by an element; every element checked, the entry asserted on
// every device.
TEST_F(CudaKernels, HighBandwidthManyTiles) {
  std::printf("  the many-tile kernels %s on this device\n",
              xpose::cuda_detail::high_bandwidth_device() ? "run" : "do not run");
  // Tiles over the batch against the thresholds (132 SMs: 10560 f64 tiles, 2640 c128 tiles).
  const EntryCase cases[] = {{8, 1000, 1001, 42, 0, 0, 0},   // 10752: many
                             {8, 3201, 3201, 1, 0, 0, 0},    // 2601: skewed
                             {8, 2001, 1999, 11, 3, 5, 0},   // 11264, pitched, gaps: many
                             {8, 1000, 1001, 42, 0, 0, 1},   // input shifted by an element: many
                             {8, 4001, 4001, 1, 0, 0, 0},    // 3969: skewed
                             {16, 1001, 1003, 3, 0, 0, 0},   // 3072: many
                             {16, 1500, 1500, 1, 0, 0, 0},   // 2209: skewed
                             {16, 1500, 1501, 2, 2, 1, 0},   // 4418, pitched, gaps: many
                             {16, 1001, 1003, 3, 0, 0, 1},   // input shifted by an element: many
                             {16, 1801, 1801, 1, 0, 0, 0}};  // 3249: many
  for (const EntryCase& c : cases) expect_entry(c, 2);
  // c128 on output rows on 256 bytes (run 40): the same kernel inside entry 1 (the 128-thread
  // tiled kernel's on high-bandwidth devices) from 48 tiles an SM (6336 tiles).
  const EntryCase c128_aligned[] = {{16, 4096, 4096, 1, 0, 0, 0},   // 16384: many
                                    {16, 2048, 2048, 1, 0, 0, 0},   // 4096: tiled
                                    {16, 3200, 3001, 1, 3, 16, 0},  // 9400, pitched: many
                                    {16, 3200, 3001, 1, 0, 0, 1},   // input shifted: many
                                    {16, 1024, 1001, 6, 0, 0, 0},   // 6144: tiled
                                    {16, 1024, 1001, 7, 0, 0, 0}};  // 7168: many
  for (const EntryCase& c : c128_aligned) expect_entry(c, 1);
}

// f32 where a matrix's rows are off 16 bytes (run 39): on high-bandwidth devices the line-aligned
// kernel from 1.25 of its 64 x 128 tiles an SM over the batch, on inputs of up to 20000 rows
// (from 10 of them, 1320 tiles, its 128 x 128 form on inputs of any height: run 43),
// inside entry 4 (F32SkewSmall's); below that, above that height and on other devices the
// kernels before run 39. Cases on both sides of the count (132 SMs: 165 tiles) and the height:
// dense, batched, pitched with gaps, the input shifted by an element, only the output's rows off
// 16 bytes; every element checked, the entry asserted on every device. f64 (run 39 call 8) where
// its rows are off 256 bytes, the same way; and on 256-byte output rows (runs 40-41); c128 between
// 12 and 20 tiles an SM and f32 in front of the TMA kernel (run 42).
TEST_F(CudaKernels, HighBandwidthLines) {
  std::printf("  the line-aligned kernel %s on this device\n",
              xpose::cuda_detail::high_bandwidth_device() ? "runs" : "does not run");
  const EntryCase f32_cases[] = {{4, 1201, 1201, 1, 0, 0, 0},   // 190 tiles: lines
                                 {4, 1001, 1001, 1, 0, 0, 0},   // 128: skewed
                                 {4, 1001, 999, 2, 3, 5, 0},    // 256, pitched, gaps: lines
                                 {4, 1201, 1201, 1, 0, 0, 1},   // input shifted: lines
                                 {4, 1203, 1200, 1, 0, 0, 0},   // only the output's rows off
                                 {4, 640, 1601, 1, 0, 0, 0},    // 130: skewed
                                 {4, 20000, 131, 1, 0, 0, 0},   // 626, 20000 rows: lines
                                 {4, 20001, 131, 1, 0, 0, 0},   // taller: skewed
                                 {4, 24001, 1301, 1, 0, 0, 0},  // taller, 4136: 128 x 128
                                 {4, 2001, 3001, 1, 0, 0, 0},   // 32 x 24 = 768: lines
                                 {4, 3101, 3101, 1, 0, 0, 0},   // 1225: 64 x 128
                                 {4, 3201, 3201, 1, 0, 0, 0},   // 1326: 128 x 128
                                 {4, 2201, 2199, 3, 3, 5, 0}};  // 1890, pitched, gaps: 128 x 128
  for (const EntryCase& c : f32_cases) expect_entry(c, 4);
  // f64 on rows off 256 bytes: from 12 of its 64 x 64 tiles an SM (1584 tiles), up to 20000
  // rows, inside entry 2 (the skewed kernel's), in front of run 38's many-tile kernel; from 2.5
  // to under 12 of them (330 tiles; run 40) the 32 x 64 form of the kernel.
  const EntryCase f64_cases[] = {{8, 2801, 2801, 1, 0, 0, 0},   // 1936 tiles: lines
                                 {8, 2401, 2401, 1, 0, 0, 0},   // 1444: small lines
                                 {8, 1001, 1001, 1, 0, 0, 0},   // 256: small tiles
                                 {8, 701, 2001, 1, 3, 5, 0},    // 352, pitched, gaps: small lines
                                 {8, 1201, 1201, 1, 0, 0, 1},   // 361, shifted: small lines
                                 {8, 301, 301, 16, 0, 0, 0},    // 400, batched: small lines
                                 {8, 301, 301, 8, 0, 0, 0},     // 200: small tiles
                                 {8, 20001, 129, 1, 0, 0, 0},   // 939, taller: skewed
                                 {8, 1501, 1499, 3, 3, 5, 0},   // 1728, pitched, gaps: lines
                                 {8, 2801, 2801, 1, 0, 0, 1},   // input shifted: lines
                                 {8, 2802, 2800, 1, 0, 0, 0},   // rows on 16 bytes, off 256
                                 {8, 20000, 641, 1, 0, 1, 0},   // 3443, 20000 rows: lines
                                 {8, 20001, 641, 1, 0, 0, 0}};  // taller: many-tile kernel
  for (const EntryCase& c : f64_cases) expect_entry(c, 2);
  // f64 on output rows on 256 bytes (run 40): the same rule inside entry 1 (the tiled kernel's),
  // where the input's rows are off 256 bytes.
  const EntryCase f64_aligned[] = {{8, 4096, 4096, 1, 0, 0, 0},   // 4096, input on 256: tiled
                                   {8, 2560, 3000, 1, 0, 0, 0},   // 1880 tiles: lines
                                   {8, 2048, 3000, 1, 0, 0, 0},   // 1504: tiled
                                   {8, 2048, 4001, 1, 3, 32, 0},  // 2016, pitched: lines
                                   {8, 2560, 3000, 1, 0, 0, 1},   // input shifted: lines
                                   {8, 2048, 2048, 1, 0, 0, 0},   // 1024: tiled
                                   {8, 19968, 641, 1, 0, 0, 0},   // 3432, 19968 rows: lines
                                   {8, 20032, 641, 1, 0, 0, 0}};  // taller: tiled
  for (const EntryCase& c : f64_aligned) expect_entry(c, 1);
  // And where the input's rows are on 256 bytes too (run 41): from 48 of its tiles an SM (6336
  // tiles), up to 32768 rows, except on input rows of 128 KiB (16384 columns) under 16384 rows.
  const EntryCase f64_full[] = {{8, 2048, 4096, 4, 0, 0, 0},    // 8192 tiles: lines
                                {8, 2048, 4096, 3, 0, 0, 0},    // 6144: tiled
                                {8, 1024, 2048, 13, 0, 0, 0},   // 6656, batched: lines
                                {8, 448, 16384, 4, 0, 0, 0},    // 7168, 128 KiB rows: tiled
                                {8, 16384, 2048, 1, 0, 0, 0},   // 8192, 16384 rows: lines
                                {8, 4096, 8160, 1, 32, 32, 0},  // 8192, pitched: lines
                                {8, 32768, 1024, 1, 0, 0, 0},   // 8192, 32768 rows: lines
                                {8, 32800, 1024, 1, 0, 0, 0}};  // taller: tiled
  for (const EntryCase& c : f64_full) expect_entry(c, 1);
  // f32 on 256-byte rows (run 43, replacing run 41's pitch rule): the 128 x 128 form in front of
  // the TMA kernel inside entry 1, from 60 of the 64 x 128 tiles an SM (7920 tiles), any pitch.
  const EntryCase f32_pitch[] = {{4, 32768, 4096, 1, 0, 0, 0},      // 16384 tiles: lines
                                 {4, 32768, 2048, 1, 0, 0, 0},      // 8192, 8 KiB rows: lines
                                 {4, 32704, 4160, 1, 64, 64, 0},    // 16863, pitched: lines
                                 {4, 26432, 4096, 1, 0, 39104, 0},  // 256 KiB, 13216: lines
                                 {4, 8832, 12288, 1, 0, 7552, 0},   // 64 KiB, 48 KiB: lines
                                 {4, 6144, 6144, 1, 0, 0, 0},       // 4608: TMA
                                 {4, 8192, 8192, 1, 0, 0, 0},       // 8192: lines
                                 {4, 4096, 4096, 2, 0, 0, 0},       // 4096, batched: TMA
                                 {4, 32768, 4096, 1, 0, 0, 1}};     // input shifted: skewed
  for (const EntryCase& c : f32_pitch) expect_entry(c, c.in_off != 0 ? 4 : 1);
  // c128 (run 42): the 32 x 32 form (two phases) from 12 to under 20 of its tiles an SM (1584 to
  // 2639 tiles), between the small rule and the many-tile kernel, inside entry 2.
  const EntryCase c128_cases[] = {{16, 1300, 1300, 1, 0, 0, 0},   // 1681 tiles: lines
                                  {16, 1240, 1240, 1, 0, 0, 0},   // 1521: small rule
                                  {16, 1001, 1003, 2, 3, 5, 0},   // 2048, pitched, gaps: lines
                                  {16, 1300, 1300, 1, 0, 0, 1},   // input shifted: lines
                                  {16, 1302, 1302, 1, 0, 0, 0},   // rows on 32 bytes: lines
                                  {16, 1620, 1620, 1, 0, 0, 0},   // 2601: lines
                                  {16, 1650, 1650, 1, 0, 0, 0}};  // 2704: many-tile kernel
  for (const EntryCase& c : c128_cases) expect_entry(c, 2);
  // f32 where the TMA kernel runs (rows on 16 bytes, the output's off 256; run 42): the
  // line-aligned kernel (128 x 128 tiles since run 43) in front of it inside entry 3, from 60 of
  // the 64 x 128 tiles an SM (7920 tiles), up to 20000 rows, and (run 43) at any height with at
  // least half as many columns as rows; where the TMA entry does not run (other devices, input
  // shifted off 16 bytes) entry 4.
  const int tma = device_runs_tma_dispatch() ? 3 : 4;
  const EntryCase f32_tma[] = {{4, 8004, 8004, 1, 0, 0, 0},    // 7938 tiles: lines
                               {4, 7940, 8004, 1, 0, 0, 0},    // 7875: TMA
                               {4, 8004, 8004, 1, 4, 8, 0},    // 7938, pitched: lines
                               {4, 4004, 4004, 4, 0, 0, 0},    // 8064, batched: lines
                               {4, 4004, 30004, 1, 0, 0, 0},   // 14805, wide: lines
                               {4, 20000, 4004, 1, 0, 0, 0},   // 10016, 20000 rows: lines
                               {4, 20004, 4004, 1, 0, 0, 0},   // taller: TMA
                               {4, 20004, 10004, 1, 0, 0, 0},  // taller, 2 x 10004 >= rows: lines
                               {4, 20004, 9996, 1, 0, 0, 0},   // 2 x 9996 < rows: TMA
                               {4, 32764, 16388, 1, 0, 0, 0},  // 32764 rows, wide: lines
                               {4, 8004, 8004, 1, 0, 0, 1}};   // input shifted: entry 4
  for (const EntryCase& c : f32_tma) expect_entry(c, c.in_off != 0 ? 4 : tma);
}

// u8 / u16 output rows 320 KiB apart behind inputs of more than 32000 rows: the narrow kernels'
// sweeps dealt over five runs on a five-stack device (SpreadOnOneStack, run 32), the plain sweeps
// or column order elsewhere. The dispatch entries (after the records and thin kernels): u8 the
// 256-tile narrow kernel on whole tiles (entry 4), the narrow skewed kernel with both matrices'
// rows on 16 bytes (6) and with the input's off them (10); u16 the narrow kernel where the
// output's rows are on 16 bytes (3). Every output element checked.
TEST_F(CudaKernels, OneStackNarrow) {
  if (!device_has_h100_smem())
    GTEST_SKIP() << "the narrow kernels' tiles need an H100's shared memory";
  xpose::kernels::variants::DispatchChoice c;
  const std::int64_t u8p = 5 * 65536, u16p = u8p / 2;  // 320 KiB in elements
  check_transpose(1, pitched(65536, 512, 1, 512, u8p, 0, 0), 0, 0, "", &c);
  EXPECT_EQ(c.index, 4) << "u8 whole tiles";
  check_transpose(1, pitched(32001, 512, 1, 512, u8p, 0, 0), 0, 0, "", &c);
  EXPECT_EQ(c.index, 6) << "u8 rows on 16 bytes, partial tiles";
  check_transpose(1, pitched(32001, 301, 1, 301, u8p, 0, 0), 0, 0, "", &c);
  EXPECT_EQ(c.index, 10) << "u8 input rows off 16 bytes";
  check_transpose(2, pitched(32001, 301, 1, 301, u16p, 0, 0), 0, 0, "", &c);
  EXPECT_EQ(c.index, 3) << "u16 input rows off 16 bytes";
  check_transpose(2, pitched(40001, 201, 1, 201, u16p * 2, 0, 0), 1, 0, "", &c);
  EXPECT_EQ(c.index, 3) << "u16 input shifted, rows 640 KiB apart";
}

// Out of place, small u8 / u16 matrices (runs 35-36, FewTiles). u8: where the 128-tile narrow
// kernel would have under 0.6 of its tiles an SM over the batch and neither side is a multiple
// of 128, 32 x 32 tiles (entry 2); on whole 256 x 256 tiles with rows on 16 bytes the tiled
// kernel (16-byte words, 128 x 128 tiles) under 2.5 of those tiles an SM (3), the 256-tile
// narrow kernel past that (4); else where the narrow skewed kernel would have under 1.5 of its
// 256 x 256 tiles an SM, the 128-tile narrow kernel (entries 5 / 9: both matrices' rows on 16
// bytes / not), else the skewed kernel (6 / 10). u16, where neither matrix's rows are on 16 bytes:
// 32 x 32 tiles under 0.5 of the 128-tile kernel's tiles an SM (4), the 128-tile kernel under 1.5
// of the skewed kernel's 128 x 256 tiles (5), else the skewed kernel (6); on 16-byte rows the
// narrow kernel (2). Every element checked; on a 132-SM device with an H100's shared memory the
// entries are asserted too.
TEST_F(CudaKernels, OutOfPlaceFewTiles) {
  const bool h100 = device_is_h100_class();
  struct Case {
    std::size_t elem;
    std::int64_t rows, cols, batch;
    int entry;
  };
  const Case cases[] = {{1, 1000, 1000, 1, 2},  {1, 1024, 1024, 1, 3},  {1, 2048, 512, 1, 3},
                        {1, 700, 700, 2, 2},    {1, 4608, 4608, 1, 3},  {1, 4864, 4864, 1, 4},
                        {1, 2048, 2048, 6, 4},  {1, 896, 896, 1, 5},    {1, 1000, 1024, 1, 9},
                        {1, 1030, 1030, 1, 9},  {1, 600, 600, 4, 9},    {1, 3001, 3001, 1, 9},
                        {1, 4001, 4001, 1, 10}, {1, 1000, 1000, 12, 9}, {1, 1000, 1000, 13, 10},
                        {1, 2000, 2000, 1, 5},  {1, 3600, 3600, 1, 6},  {1, 700, 9000, 1, 9},
                        {1, 1000, 3000, 2, 9},  {2, 1001, 1001, 1, 4},  {2, 1021, 1021, 1, 4},
                        {2, 600, 600, 1, 2},    {2, 1151, 1151, 1, 5},  {2, 500, 700, 3, 5},
                        {2, 6001, 1001, 1, 5},  {2, 2401, 2401, 1, 5},  {2, 2701, 2701, 1, 6},
                        {2, 3001, 3001, 1, 6},  {2, 4001, 4001, 1, 6},  {2, 3001, 3001, 2, 6}};
  for (const Case& c : cases) {
    xpose::kernels::variants::DispatchChoice chosen;
    check_transpose(c.elem, TransposeShape::dense(c.rows, c.cols, c.batch), 0, 0, "", &chosen);
    if (h100) {
      EXPECT_EQ(chosen.index, c.entry)
          << "elem " << c.elem << " " << c.rows << " x " << c.cols << " batch " << c.batch;
    }
  }
}

// Out of place, small f64 / c128 matrices (run 37): inside their entries, f64 32 x 32 tiles of
// 16-byte words where the default's 32 x 64 tiles would be 2.5 to 8 an SM (both classes of
// rows), c128 16 x 16 tiles with 128 threads under 12 of the skewed kernel's 32 x 32 tiles an SM
// (rows off 256 bytes, output rows on 32 bytes). Run 38 added, in the skewed kernels' entries,
// 32 x 32 tiles of one element an access where those decline: f64 rows off 16 bytes in the same
// window, c128 output rows off 32 bytes from 4 to under 12 tiles an SM; and f32 on 16-byte rows
// through TMA loads (sm_90) from 2.5 to under 12 skewed tiles an SM. The entries' layouts do not
// change, so the positions stay (f64 1 / 2, c128 1 / 2 after the thin kernel, f32 4 on H100s);
// every element is checked, on both sides of each window and where the small kernels decline.
TEST_F(CudaKernels, SmallTileWindows) {
  struct Case {
    std::size_t elem;
    std::int64_t rows, cols, batch, in_pad, out_pad;
    int entry;
  };
  const Case cases[] = {
      {8, 1000, 1000, 1, 0, 0, 2},
      {8, 700, 2000, 1, 0, 0, 2},
      {8, 1024, 1024, 1, 0, 0, 1},
      {8, 512, 512, 4, 0, 0, 1},
      {8, 700, 700, 4, 0, 0, 2},
      {8, 1500, 1500, 1, 0, 0, 2},
      {8, 700, 700, 1, 0, 0, 2},
      {8, 1001, 1000, 1, 0, 0, 2},
      {8, 1000, 1001, 1, 0, 0, 2},
      {8, 1000, 998, 2, 3, 5, 2},
      {8, 998, 1000, 2, 2, 2, 2},
      {16, 700, 700, 1, 0, 0, 2},
      {16, 1000, 1000, 1, 0, 0, 2},
      {16, 700, 2000, 1, 0, 0, 2},
      {16, 1500, 1500, 1, 0, 0, 2},
      {16, 1001, 1000, 1, 0, 0, 2},
      {16, 700, 700, 4, 0, 0, 2},
      {16, 500, 600, 3, 1, 2, 2},
      // run 38: f64 rows off 16 bytes (3.9, 5.5, 3.9 an SM; 8.5 and 1.8 outside), c128 output
      // rows off 32 bytes (7.8, 10.9, 7.8 pitched; 2.7 and 14.7 outside)
      {8, 1001, 1001, 1, 0, 0, 2},
      {8, 1201, 1201, 1, 0, 0, 2},
      {8, 501, 501, 4, 0, 0, 2},
      {8, 1501, 1501, 1, 0, 0, 2},
      {8, 701, 701, 1, 0, 0, 2},
      {8, 1000, 999, 1, 1, 1, 2},
      {16, 1001, 1001, 1, 0, 0, 2},
      {16, 1201, 1201, 1, 0, 0, 2},
      {16, 500, 501, 4, 1, 1, 2},
      {16, 601, 601, 1, 0, 0, 2},
      {16, 1401, 1401, 1, 0, 0, 2},
      {16, 999, 1000, 1, 0, 0, 2},
      // run 38: f32 through TMA loads on sm_90 (entry 4 on H100s): 4.4, 5.7, 7.8, 2.9 (pitched)
      // skewed tiles an SM; 16.7, 30 and 1.9 outside; off 16 bytes (rows, batch strides)
      {4, 1500, 1500, 1, 0, 0, 4},
      {4, 1000, 3000, 1, 0, 0, 4},
      {4, 3000, 3000, 1, 0, 0, 4},
      {4, 1000, 1000, 4, 0, 0, 4},
      {4, 1000, 1496, 1, 4, 8, 4},
      {4, 4000, 4000, 1, 0, 0, 4},
      {4, 500, 500, 4, 0, 0, 4},
      {4, 1501, 1501, 1, 0, 0, 4},
      {4, 1000, 1000, 2, 4, 4, 4}};
  // 132 SMs and an H100's shared memory: H100s, and H200s, where the f32 layouts the TMA unit
  // takes (both matrices' rows and batch strides on 16 bytes) go to the high-bandwidth TMA
  // entry (3) instead.
  const bool h100 = device_is_h100_class();
  const bool tma_entry = device_runs_tma_dispatch();
  for (const Case& c : cases) {
    xpose::kernels::variants::DispatchChoice chosen;
    const TransposeShape shape = padded(c.rows, c.cols, c.batch, c.in_pad, c.out_pad);
    check_transpose(c.elem, shape, 0, 0, "", &chosen);
    const TransposeShape r = shape.resolved();
    const bool on16 = r.in_pitch % 4 == 0 && r.out_pitch % 4 == 0 &&
                      (r.batch <= 1 || (r.in_batch_stride % 4 == 0 && r.out_batch_stride % 4 == 0));
    const int entry = c.elem == 4 && tma_entry && on16 ? 3 : c.entry;
    if (h100) {
      EXPECT_EQ(chosen.index, entry)
          << "elem " << c.elem << " " << c.rows << " x " << c.cols << " batch " << c.batch;
    }
  }
}

// In place at small n (runs 33-35): where the kernel for such rows would launch few blocks per SM
// (u8: under 0.25 narrow blocks, u16 under 0.3, f32: under 0.3 rotated blocks, f64: under 9
// strip blocks, all over the batch; c128: under 13 grouped blocks for one matrix), one pair a
// block of 32 x 32 tiles (u8, f32, f64, c128: off 256-byte rows only). Every case is transposed
// twice, every element checked; on a 132-SM device with an H100's shared memory the entries are
// asserted too (u8 1 / 2 / 3: the 32 x 32 pairs / the narrow kernel with guarded / element
// edges; u16 0 / 1 / 2, the same; f32 3 / 4, f64 and c128 2 / 3: the 32 x 32 pairs / the
// rotated, strip or grouped kernel).
TEST_F(CudaKernels, InPlaceFewBlocks) {
  const bool h100 = device_is_h100_class();
  struct Case {
    std::size_t elem;
    std::int64_t n, batch;
    int entry;
  };
  const Case cases[] = {
      {1, 1000, 1, 1},  {1, 3100, 1, 3},  {1, 1290, 1, 1},  {1, 1790, 1, 1},  {1, 1810, 1, 3},
      {1, 1850, 1, 2},  {1, 1100, 2, 1},  {1, 850, 4, 2},   {1, 1300, 2, 3},  {1, 450, 9, 1},
      {2, 1000, 1, 0},  {2, 3100, 1, 2},  {2, 1024, 1, 0},  {2, 1030, 1, 2},  {2, 750, 2, 1},
      {2, 500, 2, 0},   {4, 1000, 1, 3},  {4, 1700, 2, 4},  {4, 1023, 1, 3},  {4, 1025, 1, 4},
      {4, 500, 3, 3},   {4, 500, 4, 4},   {8, 700, 1, 2},   {8, 1000, 1, 2},  {8, 3001, 1, 2},
      {8, 4001, 1, 3},  {8, 1000, 3, 2},  {8, 2000, 4, 3},  {16, 999, 1, 2},  {16, 1500, 1, 2},
      {16, 2001, 1, 2}, {16, 2500, 2, 2}, {16, 3001, 1, 3}, {16, 1000, 8, 2}, {16, 700, 3, 2}};
  for (const Case& c : cases) {
    xpose::kernels::variants::DispatchChoice chosen;
    check_inplace(c.elem, c.n, c.batch, 0, "", &chosen);
    if (h100) {
      EXPECT_EQ(chosen.index, c.entry) << "elem " << c.elem << " n " << c.n << " batch " << c.batch;
    }
  }
}

// In place on rows a multiple of 320 KiB apart on a five-stack device (an H100 80 GB): the
// interleaved order (entry 0; run 31) where the word kernels run, for f32 (n = 81920), f64
// (40960) and c128 (20480); next to them and on other devices the row-wise order (entry 1). The
// dispatch is asked without a transpose (these are 6.7-27 GB); c128 n = 20480 is also
// transposed through the default, twice, every element checked, where the device has the room.
TEST_F(CudaKernels, InPlaceOneStack) {
  const bool five = device_has_five_stacks();
  DeviceBuffer d(4096);  // an aligned base; the choice reads no element
  for (std::size_t e : {std::size_t{4}, std::size_t{8}, std::size_t{16}}) {
    const std::int64_t n = 5 * 65536 / static_cast<std::int64_t>(e);
    for (std::int64_t m : {n, 2 * n, n + 64, n - 64, 3 * n / 2}) {
      const auto c = xpose::kernels::variants::default_in_place(d.bytes(), e, m);
      const bool one_stack = five && m % n == 0;
      EXPECT_EQ(c.index, one_stack ? 0 : 1) << "elem " << e << " n " << m;
    }
    // Off 256 bytes (the base 16 bytes in), the word kernels do not run: neither order.
    EXPECT_GT(xpose::kernels::variants::default_in_place(d.bytes() + 16, e, n).index, 1)
        << "elem " << e;
  }
  // The check holds three host copies of the 6.7 GB matrix (input, reference, result).
  std::size_t free_b = 0, total_b = 0;
  XPOSE_CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
  const std::int64_t n = 20480;
  const std::size_t bytes = std::size_t(n) * n * 16;
  const double host_b = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  if (free_b < bytes + (std::size_t(1) << 30) || host_b < 4.0 * double(bytes)) {
    std::printf(
        "  InPlaceOneStack: %.1f GiB free on the device, %.1f GiB of host memory: c128 "
        "20480^2 not transposed\n",
        free_b / 1073741824.0, host_b / 1073741824.0);
    return;
  }
  xpose::kernels::variants::DispatchChoice c;
  check_inplace(16, n, 1, 0, "", &c);
  EXPECT_EQ(c.index, five ? 0 : 1);
}

// The skewed kernels' two orders past 28000 input rows (SkewGroups): column order where the input
// rows are on the kernel's fetch unit (f32 256 bytes, f64 / c128 128) and groups of rows where
// they are not; every element checked on both sides of the split, batched and pitched too.
TEST_F(CudaKernels, SkewOrderTall) {
  for (std::size_t e : {std::size_t{4}, std::size_t{8}, std::size_t{16}}) {
    const std::int64_t line = 128 / static_cast<std::int64_t>(e);  // elements in 128 bytes
    for (std::int64_t rows : {std::int64_t{28001}, std::int64_t{40003}}) {
      check_transpose(e, TransposeShape::dense(rows, 4 * line), 0, 0, "", nullptr);
      check_transpose(e, TransposeShape::dense(rows, 4 * line + 1), 0, 0, "", nullptr);
      check_transpose(e, pitched(rows, 3 * line, 2, 5 * line, rows + 3, 0, 0), 0, 0, "", nullptr);
      check_transpose(e, pitched(rows, 3 * line, 2, 6 * line, rows + 3, 0, 0), 0, 0, "", nullptr);
      check_transpose(e, pitched(rows, 3 * line, 2, 6 * line, rows + 3, 7, 0), 0, 0, "", nullptr);
      check_transpose(e, TransposeShape::dense(rows, 2 * line), 1, 0, "", nullptr);
    }
  }
}

// The skewed kernels in column order with the stagger (candidates -cm-stag[H],
// TiledParams::stagger: bands of H tile rows, 256 x 64 input rows for f32's -stag, 128 x 32 for
// f64 / c128's, turning by 64 KiB of input row): inputs tall enough for two and three of the
// largest bands, so tile columns turn by more than the grid is wide and wrap; batched and
// pitched too. Every element checked.
TEST_F(CudaKernels, StaggerCandidates) {
  const auto staggered = candidates_with({4, 8, 16}, "-stag");
  for (const auto& [e, v] : staggered) {
    const std::int64_t band_rows = e == 4 ? 256 * 64 : 128 * 32;
    const std::int64_t r = 2 * band_rows + 77;
    check_transpose(e, TransposeShape::dense(r, 197), 0, 0, v, nullptr, true);
    check_transpose(e, TransposeShape::dense(3 * band_rows, 64), 0, 0, v, nullptr, true);
    check_transpose(e, pitched(r, 130, 2, 141, r + 5, 3, 0), 1, 0, v, nullptr, true);
  }
  EXPECT_GE(staggered.size(), 3u);
}

// The spread-group candidates (-spS, run 32: tile rows dealt over S runs, TiledParams::spread):
// tall inputs in groups with a tile-row count off a multiple of S (the runs one row apart in
// length, the last round partial), column order under 28000 rows, a pitched batch with a gap
// and shifted pointers; every element checked, so an order that misses or repeats a tile fails.
// u8 / u16: the narrow kernels' -sp5 (groups past 32000 rows), which need an H100's shared
// memory (elsewhere they may decline).
TEST_F(CudaKernels, SpreadCandidates) {
  const auto spread = candidates_with({1, 2, 4, 8, 16}, "-sp");
  for (const auto& [e, v] : spread) {
    const bool must = e >= 4 || device_has_h100_smem();
    check_transpose(e, TransposeShape::dense(30001, 130), 0, 0, v, nullptr, must);
    check_transpose(e, TransposeShape::dense(40963, 97), 1, 0, v, nullptr, must);
    check_transpose(e, TransposeShape::dense(1001, 130), 0, 0, v, nullptr, must);
    check_transpose(e, pitched(28007, 70, 2, 73, 28010, 3, 5), 0, 1, v, nullptr, must);
    check_transpose(e, pitched(33001, 301, 1, 304, 33024, 0, 0), 0, 0, v, nullptr, must);
  }
  EXPECT_GE(spread.size(), 7u);
}

// RecordsCandidate's classes on few, small shapes, for compute-sanitizer: both forms, u8 and u16,
// odd and even short sides, both orientations, whole chunks with a tail, pitched and batched.
TEST_F(CudaKernels, SanitizerRecords) {
  for (const std::string v : {"records", "records-gs"}) {
    for (std::size_t e : {std::size_t{1}, std::size_t{2}}) {
      const std::int64_t p = 4 / static_cast<std::int64_t>(e);
      for (std::int64_t m : {1, 2, 3, 5, 6, 8, 16}) {
        check_transpose(e, TransposeShape::dense(m, 97 * p), 0, 0, v, nullptr, true);
        check_transpose(e, TransposeShape::dense(97 * p, m), 0, 0, v, nullptr, true);
        check_transpose(e, TransposeShape::dense(m, 300, 2), p, 0, v, nullptr, true);
        check_transpose(e, TransposeShape::dense(300, m, 2), 0, p, v, nullptr, true);
      }
    }
  }
}

// The narrow skewed candidates (nskew-*, narrow_skew.cuh) on shapes large enough for interior
// tiles (the unguarded path needs a tile row above and whole tiles): rows off 4 bytes on both
// sides, buffers off 4 bytes, batches with odd gaps, aligned rows, and the guarded first, last
// and right-hand tiles around them.
TEST_F(CudaKernels, NarrowSkewCandidates) {
  int ran = 0;
  for (std::size_t e : {std::size_t{1}, std::size_t{2}}) {
    for (const std::string& v : xpose::kernels::variants::out_of_place(e)) {
      if (v.rfind("nskew-", 0) != 0) continue;
      ++ran;
      check_transpose(e, TransposeShape::dense(1031, 1029), 0, 0, v);
      check_transpose(e, TransposeShape::dense(777, 1031, 2), 1, 3, v);
      check_transpose(e, pitched(1100, 600, 2, 1237, 1103, 5, 7), 0, 0, v);
      check_transpose(e, TransposeShape::dense(2053, 300), 0, 1, v);
      check_transpose(e, TransposeShape::dense(1024, 1024), 0, 0, v);
      check_transpose(e, TransposeShape::dense(1040, 1031), 3, 0, v);
    }
  }
  EXPECT_GT(ran, 0);
}

// Every in-place candidate: n around tile and word sizes (odd n above all), primes, batches,
// buffers off 16-byte alignment; equal to the CPU result, and twice = identity.
TEST_F(CudaKernels, EveryVariantInPlace) {
  for (std::size_t e : kElemSizes) {
    for (const std::string& v : xpose::kernels::variants::in_place(e)) {
      for (std::int64_t n : {1, 2, 3, 5, 31, 32, 33, 63, 64, 65, 127, 129, 257, 1031})
        check_inplace(e, n, 1, 0, v);
      check_inplace(e, 100, 3, 0, v);
      check_inplace(e, 65, 2, 0, v);
      check_inplace(e, 130, 1, 1, v);
      check_inplace(e, 131, 2, 3, v);
      check_inplace(e, 256, 1, 2, v);
    }
  }
  for (const std::string& v : xpose::kernels::variants::in_place(4))
    check_inplace(4, 2053, 1, 0, v);
  for (const std::string& v : xpose::kernels::variants::in_place(8))
    check_inplace(8, 1537, 1, 0, v);
}

// The multi-pair in-place kernels (inplace_multi_kernel, inplace_strip_kernel: P consecutive tile
// pairs per block, all loads issued first): pair counts that are not a multiple of P (the last
// block has idle slots), edge pairs in the last tile column, a shifted buffer, many small matrices
// in a batch. Also a racecheck target: `compute-sanitizer --tool racecheck xpose_gpu_tests
// --gtest_filter='*MultiPairInPlace*'`.
TEST_F(CudaKernels, MultiPairInPlace) {
  for (std::size_t e : {std::size_t{4}, std::size_t{8}, std::size_t{16}}) {
    int found = 0;
    for (const std::string& v : xpose::kernels::variants::in_place(e)) {
      if (v.rfind("multi", 0) != 0 && v.rfind("strip", 0) != 0) continue;
      ++found;
      check_inplace(e, 1031, 1, 0, v);  // 561 pairs of 32-tiles: edge pairs, odd n
      check_inplace(e, 704, 2, 1, v);   // aligned n, shifted buffer, a batch of 2
      check_inplace(e, 33, 40, 0, v);   // 3 pairs per matrix, 40 matrices
      check_inplace(e, 97, 1, 0, v);    // 10 pairs (P = 4: a last block with 2 idle slots)
    }
    EXPECT_GT(found, 0) << "no multi-pair candidate for " << e << "-byte elements";
  }
}

// The Hopper TMA candidates (kernels/cuda/tma.cuh) on layouts they take: 16-byte aligned bases,
// pitches and batch strides; edge tiles in both directions (the tensor maps clip them), thin
// shapes, batches, pitched sub-blocks, bases shifted by 16 bytes. On sm_90 each candidate must
// accept the layout (so this test cannot pass by skipping everything); elsewhere it must decline.
TEST_F(CudaKernels, TmaVariants) {
  const int major = device_attribute(cudaDevAttrComputeCapabilityMajor);
  int tma_candidates = 0;
  for (std::size_t e : {std::size_t{4}, std::size_t{8}, std::size_t{16}}) {
    const std::int64_t q = 16 / static_cast<std::int64_t>(e);  // elements in 16 bytes
    for (const std::string& v : xpose::kernels::variants::out_of_place(e)) {
      if (v.rfind("tma", 0) != 0) continue;  // tma-* and tmald-*
      ++tma_candidates;
      SCOPED_TRACE(v);
      DeviceBuffer a(64 * 64 * e), b(64 * 64 * e);
      const bool took = xpose::kernels::variants::run_out_of_place(
          v, a.ptr, b.ptr, e, TransposeShape::dense(64, 64), stream_);
      XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream_));
      if (major < 9) {
        EXPECT_FALSE(took) << "a TMA kernel ran on a device of compute capability " << major;
        continue;
      }
      ASSERT_TRUE(took) << "the TMA kernel declined an aligned layout on sm_" << major << "x";
      const std::int64_t shapes[][2] = {{q, q},      {q, 1000},   {1000, q},  {36, 44},
                                        {260, 1028}, {1028, 260}, {508, 516}, {1000, 996},
                                        {64, 64},    {128, 256},  {2048, 132}};
      for (const auto& sh : shapes)
        check_transpose(e, TransposeShape::dense(sh[0], sh[1]), 0, 0, v);
      check_transpose(e, TransposeShape::dense(100, 72, 3), 0, 0, v);
      check_transpose(e, TransposeShape::dense(36, 44), q, 3 * q, v);
      check_transpose(e, pitched(200, 136, 2, 144 + 4 * q, 224 + 2 * q, 8 * q, q), 0, 0, v);
      // Not taken: a pitch off 16 bytes (the library falls back to the portable kernels).
      if (e < 16) {
        EXPECT_FALSE(xpose::kernels::variants::run_out_of_place(
            v, a.ptr, b.ptr, e, TransposeShape::dense(q + 1, q + 1), stream_));
      }
    }
  }
  // The library's own f32 path on layouts the TMA-load kernel was once the default for (input
  // rows 32 or 64 bytes off 128-byte lines): the skewed kernel where output rows are off 256
  // bytes, the tiled kernel elsewhere.
  check_transpose(4, TransposeShape::dense(520, 1000));    // 4000-byte rows: 32 bytes off
  check_transpose(4, TransposeShape::dense(40, 1040, 3));  // 4160-byte rows: 64 bytes off
  check_transpose(4, TransposeShape::dense(1000, 30000));  // edge tiles on both sides
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
  EXPECT_EQ(tma_candidates, 20) << "TMA candidates compiled in with CUDA 12 or newer";
#endif
}

// The candidates on a few small shapes, for compute-sanitizer (tune_run.sh runs memcheck and
// racecheck on this test alone).
TEST_F(CudaKernels, SanitizerVariants) {
  for (std::size_t e : kElemSizes) {
    for (const std::string& v : xpose::kernels::variants::out_of_place(e)) {
      check_transpose(e, TransposeShape::dense(130, 257, 2), 0, 0, v);
      check_transpose(e, TransposeShape::dense(131, 259), 1, 3, v);
      check_transpose(e, TransposeShape::dense(132, 260, 2), 0, 0, v);  // 16-byte rows: TMA too
    }
    for (const std::string& v : xpose::kernels::variants::in_place(e)) {
      check_inplace(e, 200, 2, 0, v);
      check_inplace(e, 131, 1, 1, v);
    }
  }
}

}  // namespace
