// The CUDA transposes against the CPU reference (transpose_naive, transpose_inplace_cpu): the
// library's entry points over layouts of every class the kernel choice distinguishes, and every
// kernel of the library by name (kernels/cuda/by_name.h) over the layouts it takes. Payloads
// encode each element's linear index, outputs are poisoned first, and pitched cases check that
// bytes outside the sub-block stay untouched. Which kernel each layout gets is tested on the CPU
// (tests/unit/test_kernel_choice.cpp, every layout here on six device profiles); here each
// choice must also compute the right result on the device at hand. Every GPU test skips where no
// device is visible (CI builds this binary with nvcc but has no GPU); the triangular-index tests
// and the argument checks need no device and always run.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "kernels/choice.h"
#include "kernels/cuda/by_name.h"
#include "kernels/cuda/check.h"
#include "kernels/cuda/triangular.h"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace {

using xpose::kernels::TileOrder;
using xpose::kernels::TransposeShape;
namespace tri = xpose::kernels::tri;
namespace by_name = xpose::kernels::by_name;

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

// The hand-picked cases below take one layout per class of the kernel choice. The random-layout
// tests (the fixture's random_out_of_place / random_in_place) draw layouts from a fixed seed and
// mix the classes: pitches dense or padded and rounded to a random alignment (1 to 256 bytes),
// batches with gaps, pointers shifted by whole elements, small and medium shapes, tall and wide
// ones past the column sweeps' height, multiples of the tile sizes, large u8 / u16 ones with few
// partial tiles, f32 inputs of 200000 rows. The kernel each case got is counted and printed.
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


// The library's kernels of `elems` whose names contain `part` (out of place, or in place), as
// (element size, name): the tests that run kernels by name count them, so that a renamed or
// dropped kernel cannot pass silently.
std::vector<std::pair<std::size_t, std::string>> kernels_with(
    std::initializer_list<std::size_t> elems, const std::string& part, bool inplace = false) {
  std::vector<std::pair<std::size_t, std::string>> found;
  for (std::size_t e : elems)
    for (const std::string& v : inplace ? by_name::in_place(e) : by_name::out_of_place(e))
      if (v != "default" && v.find(part) != std::string::npos) found.emplace_back(e, v);
  return found;
}

// The kernel the library chooses on this device ("copy" for a copy in order).
std::string chosen_kernel(const void* in, const void* out, std::size_t elem,
                          const TransposeShape& shape) {
  const TransposeShape s = shape.resolved();
  if (xpose::kernels::copies_in_order(s)) return "copy";
  const auto c = xpose::kernels::choose_out_of_place(in, out, elem, s,
                                                     xpose::kernels::current_device_profile());
  return xpose::kernels::kernel_list()[static_cast<std::size_t>(c.kernel)].name;
}
std::string chosen_in_place(void* buf, std::size_t elem, std::int64_t n, std::int64_t batch) {
  const auto c = xpose::kernels::choose_in_place(buf, elem, n, batch,
                                                 xpose::kernels::current_device_profile());
  return xpose::kernels::kernel_list()[static_cast<std::size_t>(c.kernel)].name;
}

using Hits = std::map<std::string, int>;  // "ELEM KERNEL" -> cases

void report(const char* what, const Hits& hits) {
  std::printf("  %s, cases per kernel:", what);
  for (const auto& [k, n] : hits) std::printf(" [%s] %d", k.c_str(), n);
  std::printf("\n");
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
  // elements, to take the kernels off 16-byte alignment. `kernel`: a library kernel by name
  // (by_name.h), in `order` where given; empty: the library entry point, and `chosen` (where
  // given) receives the kernel it chose. A kernel that does not take the layout is skipped, or
  // with `must_run` fails the test.
  void check_transpose(std::size_t elem, TransposeShape shape, std::int64_t in_off = 0,
                       std::int64_t out_off = 0, const std::string& kernel = "",
                       std::string* chosen = nullptr, bool must_run = false,
                       const TileOrder* order = nullptr) {
    const TransposeShape s = shape.resolved();
    SCOPED_TRACE(::testing::Message()
                 << (kernel.empty() ? "transpose_cuda" : kernel) << " elem=" << elem << " "
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
    const unsigned char* src = din.bytes() + in_off * elem;
    unsigned char* dst = dout.bytes() + out_off * elem;
    if (kernel.empty()) {
      if (chosen != nullptr && s.rows > 0 && s.cols > 0 && s.batch > 0)
        *chosen = chosen_kernel(src, dst, elem, shape);
      xpose::kernels::transpose_cuda(src, dst, elem, shape, stream_);
    } else if (!by_name::run_out_of_place(kernel, src, dst, elem, shape, stream_, order)) {
      if (must_run) ADD_FAILURE() << kernel << " declined a layout it must take";
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
                     const std::string& kernel = "", std::string* chosen = nullptr) {
    SCOPED_TRACE(::testing::Message()
                 << (kernel.empty() ? "transpose_inplace_cuda" : kernel) << " elem=" << elem
                 << " n=" << n << " batch=" << batch << " offset=" << off);
    const std::int64_t count = off + n * n * batch;
    const std::vector<unsigned char> orig = payload_buffer(elem, count);
    std::vector<unsigned char> want = orig;
    xpose::kernels::transpose_inplace_cpu(want.data() + off * elem, elem, n, batch);

    DeviceBuffer d(orig.size());
    unsigned char* buf = d.bytes() + off * elem;
    if (kernel.empty() && chosen != nullptr && n > 1 && batch > 0)
      *chosen = chosen_in_place(buf, elem, n, batch);
    XPOSE_CHECK_CUDA(
        cudaMemcpyAsync(d.ptr, orig.data(), orig.size(), cudaMemcpyHostToDevice, stream_));
    auto run = [&] {
      if (kernel.empty()) {
        xpose::kernels::transpose_inplace_cuda(buf, elem, n, batch, stream_);
        return true;
      }
      return by_name::run_in_place(kernel, buf, elem, n, batch, stream_);
    };
    if (!run()) return;  // the kernel does not take this buffer / n
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

  // `cases` random layouts drawn from r (draw_out_of_place / draw_in_place; element sizes in
  // turn), each checked as above, the kernel of each counted in `hits`. Stops at the first
  // failure; `label` names the draw in the failure's trace.
  void random_out_of_place(RandomLayout& r, int cases, bool small, const char* label, Hits& hits) {
    for (int i = 0; i < cases && !HasFailure(); ++i) {
      const std::size_t e = kElemSizes[i % 5];
      const OutOfPlaceCase c = draw_out_of_place(r, e, small);
      std::string chosen;
      SCOPED_TRACE(::testing::Message() << "out of place case " << i << " of " << label);
      check_transpose(e, c.shape, c.in_off, c.out_off, "", &chosen);
      ++hits[std::to_string(e) + " " + chosen];
    }
  }
  void random_in_place(RandomLayout& r, int cases, bool small, const char* label, Hits& hits) {
    for (int i = 0; i < cases && !HasFailure(); ++i) {
      const std::size_t e = kElemSizes[i % 5];
      const InPlaceCase c = draw_in_place(r, e, small);
      std::string chosen;
      SCOPED_TRACE(::testing::Message() << "in place case " << i << " of " << label);
      check_inplace(e, c.n, c.batch, c.off, "", &chosen);
      ++hits[std::to_string(e) + " " + chosen];
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
  // Buffers off the element size's alignment are refused before any device query.
  EXPECT_THROW(xpose::kernels::transpose_cuda(reinterpret_cast<void*>(0x1002),
                                              reinterpret_cast<void*>(0x2000), 4,
                                              TransposeShape::dense(8, 8), nullptr),
               xpose::DimensionMismatch);
  EXPECT_THROW(
      xpose::kernels::transpose_inplace_cuda(reinterpret_cast<void*>(0x1004), 8, 8, 1, nullptr),
      xpose::DimensionMismatch);
}

TEST(CudaKernelArguments, KernelNamesListedAndUnknownRefused) {
  for (std::size_t e : kElemSizes) {
    const auto oop = by_name::out_of_place(e);
    const auto ip = by_name::in_place(e);
    ASSERT_GT(oop.size(), 2u);
    ASSERT_GT(ip.size(), 2u);
    EXPECT_EQ(oop.front(), "default");
    EXPECT_EQ(ip.front(), "default");
  }
  EXPECT_THROW(by_name::run_out_of_place("no-such-kernel", nullptr, nullptr, 4,
                                         TransposeShape::dense(4, 4), nullptr),
               xpose::UnsupportedInputError);
  EXPECT_THROW(by_name::run_in_place("no-such-kernel", nullptr, 4, 4, 1, nullptr),
               xpose::UnsupportedInputError);
}

// ---- out of place, through the library's choice --------------------------------------------

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

// A sub-block of a wider input into a sub-block of a wider output, batched with gaps.
TEST_F(CudaKernels, PitchedSubBlocks) {
  for (std::size_t e : kElemSizes) {
    check_transpose(e, kOddSubBlocks);
    check_transpose(e, kWordSubBlocks);
    check_transpose(e, kWordSubBlocks, 16, 32);
  }
}

// Pointers off 16-byte alignment and odd pitches take the kernels of any row alignment.
TEST_F(CudaKernels, MisalignedFallbacks) {
  for (std::size_t e : kElemSizes) {
    for (std::int64_t off : {1, 2, 3}) {
      check_transpose(e, TransposeShape::dense(256, 192), off, 0);
      check_transpose(e, TransposeShape::dense(256, 192), 0, off);
    }
    check_transpose(e, TransposeShape::dense(258, 194));  // pitches multiple of 2 only
    check_transpose(e, TransposeShape::dense(260, 196));  // multiple of 4 only
    check_transpose(e, TransposeShape::dense(1001, 999));
    // Output rows on 128-byte lines but off 256 bytes (the skewed kernels), and output rows on
    // 256 bytes with input rows off them (the tiled kernels); c128 past its thin limit.
    const auto es = static_cast<std::int64_t>(e);
    check_transpose(e, TransposeShape::dense(es == 16 ? 72 : 384 / es, 200));
    check_transpose(e, TransposeShape::dense(es == 16 ? 88 : 640 / es, 130, 2));
    check_transpose(e, TransposeShape::dense(es == 16 ? 80 : 512 / es, es == 1 ? 152 : 136));
  }
}

// u8 / u16 on shapes large enough for the narrow kernels' whole tiles (narrow.cuh, 
// narrow_skew.cuh): both rows on 16 bytes, batched, pitched with gaps; output rows on 16 bytes
// with the input's off them, in column order and in sweeps of tile rows (64000 rows); partial
// tiles clipped on the right, at the bottom and both; in place at n off 256 bytes and on them,
// edge pairs wide and narrow, batched, the buffer off 4 bytes.
TEST_F(CudaKernels, NarrowDefaults) {
  for (std::size_t e : {std::size_t{1}, std::size_t{2}}) {
    check_transpose(e, TransposeShape::dense(1024, 768, 2));
    check_transpose(e, pitched(520, 784, 2, 800, 528, 48, 16));
    check_transpose(e, TransposeShape::dense(1031, 777));
    check_transpose(e, TransposeShape::dense(777, 1031), 3, 1);
    check_transpose(e, TransposeShape::dense(1024, 768), 0, 2);
    check_transpose(e, TransposeShape::dense(1024, 777));
    check_transpose(e, TransposeShape::dense(1040, 1031, 2));
    check_transpose(e, TransposeShape::dense(64000, 261));
    check_transpose(e, TransposeShape::dense(1024, 1040));
    check_transpose(e, TransposeShape::dense(1040, 1024, 2));
    check_transpose(e, TransposeShape::dense(1296, 528), 16, 32);
    for (std::int64_t n : {1040, 1031, 768, 1000, 1071, 1047, 583, 1059, 1060, 1088})
      check_inplace(e, n, 1, 0);
    check_inplace(e, 1040, 2, 3);
    check_inplace(e, 1100, 2, 4 / e);
  }
}

// More than 65535 tile rows (and tile columns): grids are 1-D and stride over tiles. Every
// kernel of the library that takes these thin shapes runs them too.
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
    for (const std::string& v : by_name::out_of_place(c.elem))
      check_transpose(c.elem, TransposeShape::dense(c.rows, c.cols), 0, 0, v);
}

// The choice's classes on larger layouts: tall inputs in groups of tile rows (f32, f64, c128
// past 28000 rows), f32 output rows on sectors from 200000 rows, the thin kernel's short sides
// at both ends of its ranges and just outside them (each orientation; u8 / u16 with the wide
// rows on 4 bytes and off them, dense, batched, pitched with gaps), the narrow skewed kernels,
// u16 on 256-byte rows both ways (the word tiles of high-bandwidth devices).
TEST_F(CudaKernels, LargerSquareAndRectangular) {
  check_transpose(4, TransposeShape::dense(4099, 2053));
  check_transpose(4, TransposeShape::dense(40001, 61));
  check_transpose(4, TransposeShape::dense(70003, 53, 2));
  check_transpose(8, TransposeShape::dense(40001, 53));
  check_transpose(16, TransposeShape::dense(70003, 13, 2));
  check_transpose(4, TransposeShape::dense(200008, 50));
  check_transpose(4, TransposeShape::dense(200008, 76, 2));
  // The ends of the thin kernel's ranges (kernel_table.csv) and one past them.
  const struct {
    std::size_t e;
    std::vector<std::int64_t> m;
  } thin[] = {{1, {2, 128, 129, 150, 151, 230, 248, 249, 250, 251, 252}},
              {2, {2, 63, 64, 96, 97, 98, 104, 118, 119, 125, 126, 138, 150, 176, 177}},
              {4, {2, 31, 32, 38, 39, 48, 49, 63, 65, 78, 81, 82, 240}},
              {8, {2, 25, 26, 47, 48, 49, 71, 72, 85, 86, 200}},
              {16, {2, 14, 15, 20, 33, 43, 44, 64, 65, 100, 128}}};
  for (const auto& t : thin) {
    const auto es = static_cast<std::int64_t>(t.e);
    for (const bool on4 : {true, false}) {
      if (!on4 && es >= 4) continue;
      const std::int64_t len = on4 ? 20012 : 20011;  // wide rows on / off 4 bytes (u8, u16)
      const std::int64_t tall_off = 4 / es + 1;        // the tall buffer off 4 bytes
      const std::int64_t wide_off = on4 ? 0 : 1;
      for (const std::int64_t m : t.m) {
        check_transpose(t.e, TransposeShape::dense(m, len, 2), 0, tall_off);
        check_transpose(t.e, TransposeShape::dense(len, m, 2), tall_off, 0);
        check_transpose(t.e, TransposeShape::dense(m, len));
        check_transpose(t.e, pitched(m, 5001, 2, 5012, m + 1, 4, 5), wide_off, 0);
        check_transpose(t.e, pitched(5001, m, 2, m + 1, 5012, 3, 4), 0, wide_off);
      }
    }
  }
  check_transpose(1, TransposeShape::dense(3001, 2053));
  check_transpose(1, pitched(1100, 600, 2, 1237, 1103, 5, 7), 1, 3);
  check_transpose(1, TransposeShape::dense(4096, 1001));
  check_transpose(1, TransposeShape::dense(4096, 3001, 2));
  check_transpose(2, TransposeShape::dense(40011, 300));
  check_transpose(2, pitched(20011, 131, 2, 133, 20013, 3, 5), 2, 1);
  check_transpose(8, TransposeShape::dense(2048, 3072));
  check_transpose(16, TransposeShape::dense(1500, 1700));
  check_transpose(2, TransposeShape::dense(3001, 4096));
  check_transpose(2, TransposeShape::dense(4096, 8192, 2));
  check_transpose(2, TransposeShape::dense(2048, 4096, 3));
  check_transpose(2, pitched(1920, 1152, 2, 1280, 2048, 128, 256));
  check_transpose(1, TransposeShape::dense(4096, 4095));
}

// The small-size and many-tile rules (kernel_table.csv's tiles(...) conditions): layouts on both
// sides of each count on a 132-SM device, dense, batched, pitched with gaps, shifted inputs.
TEST_F(CudaKernels, TileCountClasses) {
  const struct {
    std::size_t elem;
    std::int64_t rows, cols, batch, in_pad, out_pad, in_off;
  } cases[] = {
      // u8 / u16: 32 x 32 tiles, the 128-tile narrow kernel, the 256-tile kernels
      {1, 1000, 1000, 1, 0, 0, 0}, {1, 1024, 1024, 1, 0, 0, 0}, {1, 2048, 512, 1, 0, 0, 0},
      {1, 700, 700, 2, 0, 0, 0}, {1, 4608, 4608, 1, 0, 0, 0}, {1, 4864, 4864, 1, 0, 0, 0},
      {1, 2048, 2048, 6, 0, 0, 0}, {1, 896, 896, 1, 0, 0, 0}, {1, 1000, 1024, 1, 0, 0, 0},
      {1, 600, 600, 4, 0, 0, 0}, {1, 3001, 3001, 1, 0, 0, 0}, {1, 4001, 4001, 1, 0, 0, 0},
      {1, 1000, 1000, 13, 0, 0, 0}, {1, 3600, 3600, 1, 0, 0, 0}, {1, 700, 9000, 1, 0, 0, 0},
      {2, 1001, 1001, 1, 0, 0, 0}, {2, 600, 600, 1, 0, 0, 0}, {2, 1151, 1151, 1, 0, 0, 0},
      {2, 500, 700, 3, 0, 0, 0}, {2, 6001, 1001, 1, 0, 0, 0}, {2, 2701, 2701, 1, 0, 0, 0},
      {2, 3001, 3001, 2, 0, 0, 0},
      // f32: TMA loads from 2.5 to 12 skewed tiles an SM (sm_90), line-aligned tiles (HBM)
      {4, 1500, 1500, 1, 0, 0, 0}, {4, 1000, 3000, 1, 0, 0, 0}, {4, 1000, 1000, 4, 0, 0, 0},
      {4, 1000, 1496, 1, 4, 8, 0}, {4, 4000, 4000, 1, 0, 0, 0}, {4, 1501, 1501, 1, 0, 0, 0},
      {4, 1201, 1201, 1, 0, 0, 1}, {4, 20000, 131, 1, 0, 0, 0}, {4, 20001, 131, 1, 0, 0, 0},
      {4, 24001, 1301, 1, 0, 0, 0}, {4, 3201, 3201, 1, 0, 0, 0}, {4, 2201, 2199, 3, 3, 5, 0},
      {4, 8004, 8004, 1, 0, 0, 0}, {4, 7940, 8004, 1, 0, 0, 0}, {4, 4004, 4004, 4, 0, 0, 0},
      {4, 20004, 10004, 1, 0, 0, 0}, {4, 32768, 4096, 1, 0, 0, 0}, {4, 6144, 6144, 1, 0, 0, 0},
      // f64: 32 x 32 word tiles, geam's 64 x 64 tiles, line-aligned tiles
      {8, 1000, 1000, 1, 0, 0, 0}, {8, 700, 2000, 1, 0, 0, 0}, {8, 512, 512, 4, 0, 0, 0},
      {8, 1001, 1001, 1, 0, 0, 0}, {8, 1000, 998, 2, 3, 5, 0}, {8, 1000, 1001, 42, 0, 0, 0},
      {8, 2001, 1999, 11, 3, 5, 0}, {8, 2801, 2801, 1, 0, 0, 0}, {8, 2401, 2401, 1, 0, 0, 0},
      {8, 301, 301, 16, 0, 0, 0}, {8, 20000, 641, 1, 0, 1, 0}, {8, 2560, 3000, 1, 0, 0, 0},
      {8, 2048, 4096, 4, 0, 0, 0}, {8, 448, 16384, 4, 0, 0, 0}, {8, 4096, 8160, 1, 32, 32, 0},
      // c128: 16 x 16 tiles with 128 threads, 32 x 32 tiles, line-aligned tiles
      {16, 700, 700, 1, 0, 0, 0}, {16, 1000, 1000, 1, 0, 0, 0}, {16, 500, 600, 3, 1, 2, 0},
      {16, 1001, 1001, 1, 0, 0, 0}, {16, 1001, 1003, 3, 0, 0, 1}, {16, 1500, 1501, 2, 2, 1, 0},
      {16, 1300, 1300, 1, 0, 0, 0}, {16, 1650, 1650, 1, 0, 0, 0}, {16, 4096, 4096, 1, 0, 0, 0},
      {16, 3200, 3001, 1, 3, 16, 0}, {16, 1024, 1001, 7, 0, 0, 0}};
  for (const auto& c : cases)
    check_transpose(c.elem, padded(c.rows, c.cols, c.batch, c.in_pad, c.out_pad), c.in_off);
}

// Output rows a multiple of 320 KiB apart (on one DRAM stack of a five-stack H100 80 GB; on
// other devices ordinary pitches): the skewed kernels in column order, in spread groups past
// 28000 rows, with the stagger where the input rows are 320 KiB apart; the narrow kernels'
// spread sweeps past 32000 rows. f32, f64, c128, u8, u16; every output checked.
TEST_F(CudaKernels, OneStackPitches) {
  for (const std::size_t e : {std::size_t{4}, std::size_t{8}, std::size_t{16}}) {
    const std::int64_t p320 = 5 * 65536 / static_cast<std::int64_t>(e);  // elements
    check_transpose(e, pitched(1000, 64, 1, 64, p320, 0, 0));
    check_transpose(e, pitched(1000, 64, 1, 64, p320 * 21 / 20, 0, 0));
    check_transpose(e, TransposeShape::dense(p320, 64));
    check_transpose(e, pitched(p320, 96, 1, 96, p320, 0, 0));
    check_transpose(e, pitched(e == 16 ? 2100 : 300, 96, 1, p320, e == 16 ? 2101 : 301, 0, 0));
    check_transpose(e, pitched(p320, 96, 1, 98, p320, 0, 0));
    check_transpose(e, pitched(28001, 50, 1, 50, (28001 + p320 - 1) / p320 * p320, 0, 0));
  }
  const std::int64_t u8p = 5 * 65536, u16p = u8p / 2;
  check_transpose(1, pitched(65536, 512, 1, 512, u8p, 0, 0));
  check_transpose(1, pitched(32001, 512, 1, 512, u8p, 0, 0));
  check_transpose(1, pitched(32001, 301, 1, 301, u8p, 0, 0));
  check_transpose(2, pitched(32001, 301, 1, 301, u16p, 0, 0));
  check_transpose(2, pitched(40001, 201, 1, 201, u16p * 2, 0, 0), 1, 0);
}

// The skewed kernels past 28000 input rows: column order where the input rows are on the
// kernel's fetch unit (f32 256 bytes, f64 / c128 128), groups of rows where they are not; every
// element checked on both sides of the split, batched and pitched too.
TEST_F(CudaKernels, SkewOrderTall) {
  for (std::size_t e : {std::size_t{4}, std::size_t{8}, std::size_t{16}}) {
    const std::int64_t line = 128 / static_cast<std::int64_t>(e);  // elements in 128 bytes
    for (std::int64_t rows : {std::int64_t{28001}, std::int64_t{40003}}) {
      check_transpose(e, TransposeShape::dense(rows, 4 * line));
      check_transpose(e, TransposeShape::dense(rows, 4 * line + 1));
      check_transpose(e, pitched(rows, 3 * line, 2, 5 * line, rows + 3, 0, 0));
      check_transpose(e, pitched(rows, 3 * line, 2, 6 * line, rows + 3, 0, 0));
      check_transpose(e, pitched(rows, 3 * line, 2, 6 * line, rows + 3, 7, 0));
      check_transpose(e, TransposeShape::dense(rows, 2 * line), 1, 0);
    }
  }
}

// A side of 1 whose elements are consecutive in both buffers, the matrices without gaps: a copy
// in order (cudaMemcpyAsync). One row, one column, 1 x 1, batches, pointers off every
// alignment; where an element step or a gap between matrices breaks the run, a kernel.
TEST_F(CudaKernels, CopiesInOrder) {
  for (std::size_t e : kElemSizes) {
    const auto es = static_cast<std::int64_t>(e);
    for (const auto& s : {TransposeShape::dense(1, 100003), TransposeShape::dense(100003, 1),
                          TransposeShape::dense(1, 4096, 3), TransposeShape::dense(4097, 1, 5),
                          TransposeShape::dense(1, 1), TransposeShape::dense(1, 1, 7)}) {
      for (const std::int64_t off : {std::int64_t{0}, std::int64_t{1}}) {
        std::string chosen;
        check_transpose(e, s, off, 2 * off, "", &chosen);
        EXPECT_EQ(chosen, "copy") << "elem " << e << " " << s.rows << "x" << s.cols;
      }
    }
    std::string chosen;
    check_transpose(e, pitched(1, 3001, 1, 3001, 2, 0, 0), 0, 0, "", &chosen);
    EXPECT_NE(chosen, "copy") << "one row, output pitch 2";
    check_transpose(e, pitched(3001, 1, 1, 3, 3001, 0, 0), 0, 0, "", &chosen);
    EXPECT_NE(chosen, "copy") << "one column, input pitch 3";
    check_transpose(e, pitched(1, 4000, 3, 4000, 1, 16 / es, 16 / es), 0, 0, "", &chosen);
    EXPECT_NE(chosen, "copy") << "one row, gaps between matrices";
    check_transpose(e, pitched(4000, 1, 3, 1, 4000, 0, 16 / es), 0, 0, "", &chosen);
    EXPECT_NE(chosen, "copy") << "one column, a gap in the output only";
  }
}

// ---- in place, through the library's choice --------------------------------------------------

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
    check_inplace(e, 256, 2, 1);  // off 16-byte alignment
    check_inplace(e, 256, 1, 2);
    check_inplace(e, 258, 1);
    check_inplace(e, 260, 1);
    check_inplace(e, 389, 3, 1);  // 3 x 128 + 5, batched, off alignment: whole, diagonal and
                                  // edge pairs of the 128 x 128 kernels in a batch
  }
  check_inplace(4, 1031, 2);
}

TEST_F(CudaKernels, InPlaceLarger) {
  check_inplace(4, 4096, 1);
  check_inplace(4, 4099, 1);
  check_inplace(4, 12007, 1);  // odd n from 12000: 512 threads on high-bandwidth devices
  check_inplace(8, 3000, 1);
  check_inplace(8, 4096, 1);  // 256-byte rows: 64 x 64 pairs on high-bandwidth devices
  check_inplace(8, 2080, 2);  // the same with edge pairs (2080 = 32 x 65), a batch of 2
  check_inplace(16, 2048, 1);
  check_inplace(16, 3001, 2);  // off 256-byte rows: 64 x 64 rotated pairs on high-bandwidth
  check_inplace(16, 4099, 1);  // devices, edge pairs 3 wide
  check_inplace(1, 4111, 1);
  check_inplace(2, 2500, 2);
}

// Small n (the one-pair kernels under a count of the larger kernel's blocks an SM) on both sides
// of each count on a 132-SM device, single matrices and batches.
TEST_F(CudaKernels, InPlaceFewBlocks) {
  const struct {
    std::size_t elem;
    std::int64_t n, batch;
  } cases[] = {{1, 1000, 1},  {1, 3100, 1}, {1, 1790, 1}, {1, 1810, 1}, {1, 1850, 1},
               {1, 1100, 2},  {1, 850, 4},  {1, 450, 9},  {2, 1000, 1}, {2, 3100, 1},
               {2, 1024, 1},  {2, 1030, 1}, {2, 750, 2},  {4, 1000, 1}, {4, 1700, 2},
               {4, 1023, 1},  {4, 1025, 1}, {4, 500, 4},  {8, 700, 1},  {8, 3001, 1},
               {8, 4001, 1},  {8, 2000, 4}, {16, 999, 1}, {16, 2500, 2}, {16, 3001, 1},
               {16, 1000, 8}, {16, 700, 3}};
  for (const auto& c : cases) check_inplace(c.elem, c.n, c.batch);
}

// Rows a multiple of 320 KiB apart (one DRAM stack of a five-stack H100 80 GB): the interleaved
// order of the word kernels where the device has five stacks. c128 n = 20480 (6.7 GB) through
// the default, twice, every element checked, where the device and the host have the room.
TEST_F(CudaKernels, InPlaceOneStack) {
  std::size_t free_b = 0, total_b = 0;
  XPOSE_CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
  const std::int64_t n = 20480;
  const std::size_t bytes = std::size_t(n) * n * 16;
  const double host_b = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  if (free_b < bytes + (std::size_t(1) << 30) || host_b < 4.0 * double(bytes)) {
    std::printf("  %.1f GiB free on the device, %.1f GiB of host memory: c128 20480^2 not "
                "transposed\n",
                free_b / 1073741824.0, host_b / 1073741824.0);
    return;
  }
  std::string chosen;
  check_inplace(16, n, 1, 0, "", &chosen);
  std::printf("  c128 20480^2 in place: %s\n", chosen.c_str());
}

// ---- random layouts through the library's choice --------------------------------------------

TEST_F(CudaKernels, RandomLayoutsOutOfPlace) {
  RandomLayout r(20261127);
  Hits hits;
  random_out_of_place(r, 800, false, "seed 20261127", hits);
  report("out of place", hits);
}

TEST_F(CudaKernels, RandomLayoutsInPlace) {
  RandomLayout r(20261128);
  Hits hits;
  random_in_place(r, 300, false, "seed 20261128", hits);
  report("in place", hits);
}

// Small random layouts for compute-sanitizer (tests/gpu/sanitize.sh): out-of-bounds reads,
// writes into the test buffers' slack, and races that leave the results right, which the tests
// above cannot see.
TEST_F(CudaKernels, SanitizerRandomLayouts) {
  RandomLayout r(20261129);
  Hits oop, inp;
  random_out_of_place(r, 300, true, "seed 20261129", oop);
  random_in_place(r, 150, true, "seed 20261129", inp);
  report("out of place", oop);
  report("in place", inp);
}

// Results must not depend on timing: the same transposes on a second, busy stream.
TEST_F(CudaKernels, RepeatableOnAnotherStream) {
  for (int i = 0; i < 3; ++i) {
    check_transpose(4, TransposeShape::dense(777, 555));
    check_inplace(8, 555, 2);
  }
}

// A handful of shapes for compute-sanitizer: full, edge and diagonal tiles of every element
// size, batches, misaligned buffers.
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
    check_inplace(e, 301, 1);
    check_inplace(e, 97, 3, 1);
  }
}

// ---- every kernel of the library by name ----------------------------------------------------

// Every out-of-place kernel, every element size: degenerate, odd and prime shapes, batches,
// pitched sub-blocks with gaps, pointers off 16-byte alignment, pitches on 16 bytes with rows
// ending inside a word; whole poisoned output compared wherever the kernel takes the layout.
TEST_F(CudaKernels, EveryKernelOutOfPlace) {
  const std::int64_t shapes[][2] = {{1, 1},     {1, 1000},  {1000, 1},   {31, 33},    {33, 31},
                                    {2, 3},     {127, 129}, {128, 128},  {257, 1031}, {1031, 257},
                                    {509, 509}, {300, 5},   {1001, 999}, {250, 4099}};
  for (std::size_t e : kElemSizes) {
    for (const std::string& v : by_name::out_of_place(e)) {
      for (const auto& sh : shapes)
        check_transpose(e, TransposeShape::dense(sh[0], sh[1]), 0, 0, v);
      check_transpose(e, TransposeShape::dense(100, 70, 3), 0, 0, v);
      check_transpose(e, TransposeShape::dense(33, 1, 4), 0, 0, v);
      check_transpose(e, kOddSubBlocks, 0, 0, v);
      check_transpose(e, kWordSubBlocks, 0, 0, v);
      check_transpose(e, kWordSubBlocks, 16, 32, v);
      check_transpose(e, pitched(517, 301, 2, 304, 520, 16, 16), 0, 0, v);
      for (std::int64_t off : {1, 3}) {
        check_transpose(e, TransposeShape::dense(256, 192), off, 0, v);
        check_transpose(e, TransposeShape::dense(256, 192), 0, off, v);
      }
      check_transpose(e, TransposeShape::dense(258, 194), 0, 0, v);
      check_transpose(e, TransposeShape::dense(4096, 4099), 0, 0, v);
    }
  }
}

// Every in-place kernel: n around tile and word sizes (odd n above all), primes, batches,
// buffers off 16-byte alignment; equal to the CPU result, and twice = identity.
TEST_F(CudaKernels, EveryKernelInPlace) {
  for (std::size_t e : kElemSizes) {
    for (const std::string& v : by_name::in_place(e)) {
      for (std::int64_t n : {1, 2, 3, 5, 31, 32, 33, 63, 64, 65, 127, 129, 257, 1031})
        check_inplace(e, n, 1, 0, v);
      check_inplace(e, 100, 3, 0, v);
      check_inplace(e, 65, 2, 0, v);
      check_inplace(e, 130, 1, 1, v);
      check_inplace(e, 131, 2, 3, v);
      check_inplace(e, 256, 1, 2, v);
      check_inplace(e, 704, 2, 1, v);
      check_inplace(e, 33, 40, 0, v);  // many small matrices: blocks with idle pair slots
      check_inplace(e, 1200, 1, 0, v);
    }
  }
}

// The thin kernel: short sides around its slab sizes' limits (32, 64, 128, 256) and the warp
// width, both orientations; long sides under one slab, over one and many slabs, ending inside a
// 4-byte word; a batch with gaps and odd pitches; buffers off by whole elements and by 4 bytes;
// for 1- and 2-byte elements the wide matrix 1-3 elements off a word (rows of 16387 or 4099
// elements: every row at another offset) and P x P blocks (m a multiple of 4 / e).
TEST_F(CudaKernels, ThinKernel) {
  const std::int64_t shorts[] = {1, 2, 17, 31, 32, 33, 64, 65, 100, 128, 129, 200, 255, 256};
  const std::int64_t longs[] = {1, 7, 1000, 4099};
  for (std::size_t e : kElemSizes) {
    for (std::int64_t m : shorts) {
      for (std::int64_t len : longs) {
        check_transpose(e, TransposeShape::dense(m, len), 0, 0, "thin", nullptr, true);
        check_transpose(e, TransposeShape::dense(len, m), 0, 0, "thin", nullptr, true);
      }
      check_transpose(e, pitched(m, 3001, 3, 3005, m + 3, 11, 7), 1, 2, "thin");
      check_transpose(e, pitched(3001, m, 2, m + 5, 3010, 3, 9), 2, 1, "thin");
      const std::int64_t q = std::max<std::int64_t>(1, 4 / static_cast<std::int64_t>(e));
      check_transpose(e, TransposeShape::dense(m, 1000, 2), q, q, "thin");
      check_transpose(e, TransposeShape::dense(1000, m, 2), q, 3 * q, "thin");
      for (std::int64_t off : {1, 2, 3}) {
        if (e >= 4) break;
        const std::int64_t len = m <= 32 ? 16387 : 4099;
        check_transpose(e, TransposeShape::dense(m, len), off, 0, "thin");
        check_transpose(e, TransposeShape::dense(len, m), 0, off, "thin");
        check_transpose(e, pitched(m, 5000, 2, 5001, m, off, 1), off, 0, "thin");
        check_transpose(e, pitched(5000, m, 2, m, 5002, 2, off), 0, off, "thin");
      }
    }
    for (std::int64_t m : {4, 8, 12}) {
      check_transpose(e, pitched(m, 1030, 2, 1032, m, 4, 0), 0, 0, "thin");
      check_transpose(e, pitched(1030, m, 2, m, 1032, 0, 4), 0, 0, "thin");
    }
    check_transpose(e, TransposeShape::dense(5, (1 << 20) + 3), 0, 0, "thin");
    check_transpose(e, TransposeShape::dense((1 << 17) + 3, 70, 2), 0, 0, "thin");
  }
  // Both sides over 256: not the thin kernel's.
  DeviceBuffer a(300 * 300), b(300 * 300);
  EXPECT_FALSE(by_name::run_out_of_place("thin", a.ptr, b.ptr, 1, TransposeShape::dense(300, 257),
                                         stream_));
}

// The records kernels (whole output lines / pieces of the wide rows): u8 and u16, every short
// side m from 1 to 16 in both orientations; long sides under one chunk, at whole chunks and past
// them, over many chunks; the wide rows pitched on 4 bytes, batches with gaps, buffers 4 bytes
// off 16. Each must take these layouts; it must decline m = 17, wide rows off 4 bytes and the
// tall matrix pitched or off 4 bytes.
TEST_F(CudaKernels, RecordsKernels) {
  for (const std::string v : {"records-lines", "records-pieces"}) {
    for (std::size_t e : {std::size_t{1}, std::size_t{2}}) {
      const std::int64_t p = 4 / static_cast<std::int64_t>(e);  // elements a word
      auto gap = [&](std::int64_t x) { return (p - x % p) % p + p; };
      for (std::int64_t m = 1; m <= 16; ++m) {
        const std::int64_t lens[] = {1,         3,          p,    31 * p, 32 * p,
                                     33 * p,    32 * p + 1, 1000, 4099,   65 * 32 * p + 5 * p,
                                     100003 * p};
        for (std::int64_t len : lens) {
          const bool must = len >= m && len % p == 0;
          check_transpose(e, TransposeShape::dense(m, len), 0, 0, v, nullptr, must);
          check_transpose(e, TransposeShape::dense(len, m), 0, 0, v, nullptr, must);
        }
        check_transpose(e, pitched(m, 3001, 3, 3004, m, p, gap(3001 * m)), 0, 0, v, nullptr, true);
        check_transpose(e, pitched(3001, m, 2, m, 3008, gap(3001 * m), 3 * p), 0, 0, v, nullptr,
                        true);
        check_transpose(e, TransposeShape::dense(m, 2000, 2), p, 3 * p, v, nullptr, true);
        check_transpose(e, TransposeShape::dense(2000, m, 2), 3 * p, p, v, nullptr, true);
      }
    }
  }
  DeviceBuffer a(1 << 20), b(1 << 20);
  auto takes = [&](std::size_t e, std::int64_t in_off, std::int64_t out_off,
                   const TransposeShape& s) {
    return by_name::run_out_of_place("records-lines", a.bytes() + in_off * e,
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

// The narrow kernels' edge tiles (guarded words) and the narrow skewed kernels' guarded first,
// last and right-hand tiles: rows off 4 bytes on both sides, tiles clipped on the right, at the
// bottom and both, buffers off 4 bytes, pitched with gaps, batches.
TEST_F(CudaKernels, NarrowKernelEdges) {
  const auto narrow = kernels_with({1, 2}, "narrow-");
  const auto skewed = kernels_with({1, 2}, "nskew-");
  for (const auto& [e, v] : narrow) {
    check_transpose(e, TransposeShape::dense(1040, 1001), 1, 0, v);
    check_transpose(e, TransposeShape::dense(2064, 300), 3, 0, v);
    check_transpose(e, TransposeShape::dense(528, 257, 3), 2, 0, v);
    check_transpose(e, TransposeShape::dense(4096, 4099), 0, 0, v);
    check_transpose(e, pitched(1104, 333, 2, 337, 1120, 3, 16), 1, 0, v);
  }
  for (const auto& [e, v] : skewed) {
    check_transpose(e, TransposeShape::dense(1031, 1029), 0, 0, v);
    check_transpose(e, TransposeShape::dense(777, 1031, 2), 1, 3, v);
    check_transpose(e, pitched(1100, 600, 2, 1237, 1103, 5, 7), 0, 0, v);
    check_transpose(e, TransposeShape::dense(2053, 300), 0, 1, v);
    check_transpose(e, TransposeShape::dense(1024, 1024), 0, 0, v);
    check_transpose(e, TransposeShape::dense(1040, 1031), 3, 0, v);
  }
  for (const auto& [e, v] : kernels_with({1, 2}, "narrow-pairs", true)) {
    check_inplace(e, 257, 1, 0, v);
    check_inplace(e, 456, 1, 0, v);
    check_inplace(e, 1031, 1, 0, v);
    check_inplace(e, 300, 2, 1, v);
  }
  EXPECT_EQ(narrow.size(), 4u);
  EXPECT_EQ(skewed.size(), 2u);
}

// The tile orders the choice asks for on tall inputs and one-stack pitches, on any device: the
// skewed kernels' stagger (bands of tile rows turning by 64 KiB of input row; tall enough for
// two and three bands, so the turn wraps), the skewed and narrow kernels' spread order (tile
// rows dealt over five runs, counts off a multiple of five), and groups of tile rows; pitched,
// batched, shifted pointers. Every element checked, so an order that misses or repeats a tile
// fails. Small enough for compute-sanitizer.
TEST_F(CudaKernels, SanitizerTileOrders) {
  for (const auto& [e, v] : kernels_with({4, 8, 16}, "skew-")) {
    for (const std::uint32_t band : {3u, 64u}) {
      TileOrder o;
      o.group = TileOrder::kColumnMajor;
      o.stagger = band;
      o.turn = static_cast<std::uint32_t>(65536 / (e == 4 ? 64 * 4 : e == 8 ? 64 * 8 : 32 * 16));
      check_transpose(e, TransposeShape::dense(700, 197), 0, 0, v, nullptr, true, &o);
      check_transpose(e, pitched(333, 130, 2, 141, 338, 3, 0), 1, 0, v, nullptr, true, &o);
    }
  }
  const auto spread_kernels = [] {
    auto k = kernels_with({4, 8, 16}, "skew-");
    for (const auto& n : kernels_with({1, 2}, "narrow-")) k.push_back(n);
    for (const auto& n : kernels_with({1, 2}, "nskew-")) k.push_back(n);
    return k;
  }();
  for (const auto& [e, v] : spread_kernels) {
    for (const std::int64_t group : {std::int64_t{4}, std::int64_t{7}}) {
      TileOrder o;
      o.group = group;
      o.spread = 5;
      check_transpose(e, TransposeShape::dense(1291, 517), 0, 0, v, nullptr, false, &o);
      check_transpose(e, pitched(97, 61, 2, 64, 101, 3, 0), 1, 0, v, nullptr, false, &o);
      check_transpose(e, pitched(2807, 70, 2, 73, 2810, 3, 5), 0, 1, v, nullptr, false, &o);
    }
  }
  EXPECT_EQ(spread_kernels.size(), 10u);
}

// The interleaved in-place order (16 runs of the row-wise order, idle block numbers at the end)
// and the rotated kernels' guarded edge pairs (edge widths 1, 3, 44 and 72, the diagonal edge
// pair), batches, a shifted buffer. Small enough for compute-sanitizer.
TEST_F(CudaKernels, SanitizerPairOrders) {
  const auto interleaved = kernels_with({4, 8, 16}, "-i16", true);
  for (const auto& [e, v] : interleaved) {
    check_inplace(e, 97, 1, 0, v);
    check_inplace(e, 128, 2, 0, v);
    check_inplace(e, 65, 3, 0, v);
  }
  const auto rotated = kernels_with({4, 16}, "rot-pairs", true);
  for (const auto& [e, v] : rotated) {
    check_inplace(e, 129, 1, 0, v);
    check_inplace(e, 131, 2, 1, v);
    check_inplace(e, 300, 1, 0, v);
    check_inplace(e, 200, 3, 0, v);
    check_inplace(e, 45, 1, 2, v);
  }
  EXPECT_EQ(interleaved.size(), 3u);
  EXPECT_EQ(rotated.size(), 3u);
}

// The thin and records kernels' classes on few, small shapes, for compute-sanitizer.
TEST_F(CudaKernels, SanitizerThinAndRecords) {
  for (std::size_t e : kElemSizes) {
    for (std::int64_t m : {1, 3, 17, 33, 129, 256}) {
      check_transpose(e, TransposeShape::dense(m, 1031), 0, 0, "thin");
      check_transpose(e, TransposeShape::dense(1031, m), 0, 0, "thin");
      check_transpose(e, pitched(m, 601, 2, 603, m + 1, 1, 3), 1, 2, "thin");
      check_transpose(e, pitched(601, m, 2, m, 607, 2, 1), 3, 1, "thin");
    }
    check_transpose(e, TransposeShape::dense(2, 16387), 1, 0, "thin");
    check_transpose(e, TransposeShape::dense(16387, 3), 0, 3, "thin");
    for (std::int64_t m : {4, 12}) {
      check_transpose(e, pitched(m, 1030, 2, 1032, m, 4, 0), 0, 0, "thin");
      check_transpose(e, pitched(1030, m, 2, m, 1032, 0, 4), 0, 0, "thin");
    }
  }
  for (const std::string v : {"records-lines", "records-pieces"}) {
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

// The Hopper TMA-load kernels on layouts they take: 16-byte aligned bases, pitches and batch
// strides; edge tiles both ways (the tensor maps clip them), thin shapes, batches, pitched
// sub-blocks, bases shifted by 16 bytes. On sm_90 each must take such a layout (so this test
// cannot pass by skipping everything); elsewhere each must decline. A pitch off 16 bytes: never.
TEST_F(CudaKernels, TmaLoadKernels) {
  const bool sm90 = xpose::kernels::current_device_profile().tma;
  const auto tma = kernels_with({4}, "tma-load");
  EXPECT_EQ(tma.size(), 2u);
  for (const auto& [e, v] : tma) {
    const std::int64_t q = 16 / static_cast<std::int64_t>(e);
    SCOPED_TRACE(v);
    DeviceBuffer a(64 * 64 * e), b(64 * 64 * e);
    const bool took = by_name::run_out_of_place(v, a.ptr, b.ptr, e, TransposeShape::dense(64, 64),
                                                stream_);
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream_));
    EXPECT_EQ(took, sm90) << "on a device " << (sm90 ? "with" : "without") << " TMA";
    if (!took) continue;
    const std::int64_t shapes[][2] = {{q, q},      {q, 1000},   {1000, q},  {36, 44},
                                      {260, 1028}, {1028, 260}, {508, 516}, {1000, 996},
                                      {64, 64},    {128, 256},  {2048, 132}};
    for (const auto& sh : shapes)
      check_transpose(e, TransposeShape::dense(sh[0], sh[1]), 0, 0, v, nullptr, true);
    check_transpose(e, TransposeShape::dense(100, 72, 3), 0, 0, v, nullptr, true);
    check_transpose(e, TransposeShape::dense(36, 44), q, 3 * q, v, nullptr, true);
    check_transpose(e, pitched(200, 136, 2, 144 + 4 * q, 224 + 2 * q, 8 * q, q), 0, 0, v,
                    nullptr, true);
    check_transpose(e, pitched(517, 301, 2, 304, 520, 16, 16), 0, 0, v, nullptr, true);
    EXPECT_FALSE(by_name::run_out_of_place(v, a.ptr, b.ptr, e, TransposeShape::dense(q + 1, q + 1),
                                           stream_));
  }
}

}  // namespace
