// CPU transposes: cache-blocked, register-level micro-kernels per element size and instruction
// set, spread over the persistent pool in kernels/cpu/thread_pool.h.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <utility>
#include <memory>
#include <type_traits>

#include "kernels/cpu/micro_kernels.h"
#include "kernels/cpu/thread_pool.h"
#include "kernels/cpu/transpose_cpu_internal.h"
#include "kernels/transpose.h"
#include "xpose/error.h"
#include "xpose/types.h"

namespace xpose::kernels {

using cpu::Byte;

namespace cpu {
namespace {

// Below this many bytes moved a call runs on the calling thread: waking a worker costs more.
constexpr std::int64_t kParallelMinBytes = 64 * 1024;
// Work handed out per task: large enough that the shared counter is cheap, small enough that
// the threads end together; smaller calls get smaller tasks (at least 4 per thread).
constexpr std::int64_t kTaskBytes = 256 * 1024;
constexpr std::int64_t kMinTaskBytes = 16 * 1024;

// Tile side of the direct path, in elements: a tile row is 64-256 bytes, so every cache line
// fetched is used whole, and a tile (in + out) stays in L1.
constexpr std::int64_t direct_tile_side(std::size_t elem_size) {
  return elem_size == 1 ? 128 : elem_size <= 4 ? 64 : 32;
}

// Tiles of the streamed path are tall: h input rows become output row segments of 512 bytes
// (1 KiB for 4-byte and wider elements when output rows are not line-aligned, so that the
// partial lines at the ends are a small share), w input columns are 64-256 bytes. Long segments
// on both sides keep DRAM pages and prefetches busy. Measured on 8192^2 f32 and 16384^2 u8:
// 10-30% faster than square 64 x 64 tiles; f64 5793^2 (misaligned rows) 30% faster.
void streamed_tile(std::size_t elem_size, bool out_aligned, std::int64_t& h, std::int64_t& w) {
  const auto es = static_cast<std::int64_t>(elem_size);
  h = (out_aligned || es < 4 ? 512 : 1024) / es;
  w = es <= 4 ? 64 : 32;
}

// Transposes moving at least this many bytes take the streamed path (L1 buffer, non-temporal
// stores). Measured on the 2-core EPYC: from 4 MiB it is faster (1.5-2.5x at power-of-two
// pitches, which alias in L1); below, the direct path is faster and leaves the output cached
// for whoever reads it next.
constexpr std::int64_t kStreamMinBytesDefault = 4 * 1024 * 1024;
std::atomic<std::int64_t> g_stream_min_bytes{kStreamMinBytesDefault};

// The streamed path's tile buffer, one per thread: up to 64 KiB is too much for the stack of an
// arbitrary caller's thread.
constexpr std::size_t kTileBufferBytes = 64 * 1024;
static_assert(1024 * 64 <= kTileBufferBytes, "largest streamed tile: 1 KiB x 64 columns");
struct alignas(64) TileBuffer {
  Byte bytes[kTileBufferBytes];
};
Byte* tile_buffer() {
  thread_local const std::unique_ptr<TileBuffer> buffer(new TileBuffer);  // not zeroed
  return buffer->bytes;
}

// In-place tiles go through three buffers of this many bytes, carved from the tile buffer.
constexpr std::size_t kInplaceBufferBytes = 16 * 1024;
constexpr std::int64_t inplace_tile_side(std::size_t elem_size) {
  return elem_size <= 2 ? 64 : elem_size == 4 ? 64 : 32;
}
static_assert(64 * 64 * 4 <= kInplaceBufferBytes && 32 * 32 * 16 <= kInplaceBufferBytes &&
                  3 * kInplaceBufferBytes <= kTileBufferBytes,
              "");

// Constant-initialised (no static-order hazard); -1 means "not chosen yet": use the best.
std::atomic<int> g_isa{-1};

CpuIsa current_isa() noexcept {
  const int isa = g_isa.load(std::memory_order_relaxed);
  return isa < 0 ? best_cpu_isa() : static_cast<CpuIsa>(isa);
}

void check_elem_size(const char* who, std::size_t elem_size) {
  if (elem_size != 1 && elem_size != 2 && elem_size != 4 && elem_size != 8 && elem_size != 16)
    throw UnsupportedInputError(
        cat(who, ": element size ", elem_size, " bytes is not one of 1, 2, 4, 8, 16"));
}

// ---- out-of-place ---------------------------------------------------------------------------

// One call's geometry, in bytes, and how it is cut into tasks: tiles of tile_h input rows by
// tile_w input columns, and tasks of band_group x group tiles.
struct OutOfPlaceJob {
  const Byte* in;
  Byte* out;
  std::int64_t rows, cols;
  std::ptrdiff_t in_pitch, out_pitch;    // bytes
  std::ptrdiff_t in_stride, out_stride;  // bytes between matrices
  std::int64_t tile_h, tile_w;           // tile: input rows, input columns
  std::int64_t tiles_i, tiles_j;         // tiles per column, per row
  std::int64_t band_group, group;        // a task: band_group bands x group tiles
  std::int64_t groups_per_band;          // tasks side by side
  std::int64_t tasks_per_matrix;
  bool stream;  // through a buffer, non-temporal stores
};

// Transposes the edges of a block that full Micro blocks leave: the bottom rows [hm, h) and
// the right columns [wm, w) of the rows above, with the next smaller kernel, down to scalar.
template <class Micro, std::size_t S>
XPOSE_ALWAYS_INLINE void transpose_edges(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                         std::ptrdiff_t op, std::int64_t h, std::int64_t w,
                                         std::int64_t hm, std::int64_t wm);

// Transposes an h x w block straight into the output: full Micro blocks, column blocks outer
// and row blocks inner, so each output row segment is written front to back.
template <class Micro, std::size_t S>
XPOSE_ALWAYS_INLINE void transpose_tile(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                        std::ptrdiff_t op, std::int64_t h, std::int64_t w) {
  if constexpr (std::is_void_v<Micro>) {
    transpose_scalar<S>(in, ip, out, op, h, w);
  } else {
    constexpr std::int64_t M = Micro::M;
    const std::int64_t hm = h - h % M;
    const std::int64_t wm = w - w % M;
    for (std::int64_t j = 0; j < wm; j += M) {
      const Byte* src = in + j * static_cast<std::ptrdiff_t>(S);
      Byte* dst = out + j * op;
      for (std::int64_t i = 0; i < hm; i += M) Micro::run(src + i * ip, ip, dst + i * S, op);
    }
    transpose_edges<Micro, S>(in, ip, out, op, h, w, hm, wm);
  }
}

template <class Micro, std::size_t S>
XPOSE_ALWAYS_INLINE void transpose_edges(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                         std::ptrdiff_t op, std::int64_t h, std::int64_t w,
                                         std::int64_t hm, std::int64_t wm) {
  using Next = typename Micro::Smaller;
  if (hm < h) transpose_tile<Next, S>(in + hm * ip, ip, out + hm * S, op, h - hm, w);
  if (wm < w) transpose_tile<Next, S>(in + wm * S, ip, out + wm * op, op, hm, w - wm);
}

// Transposes an h x w tile through `buf` (the output tile, pitch bp), then streams whole output
// rows out: the path for data far larger than the cache.
//  - Register blocks fill the buffer band by band, so each input line is used whole while it is
//    in L1 even when a power-of-two pitch puts every row of the tile in the same L1 set.
//  - Output rows leave as whole lines with non-temporal stores (no read-for-ownership); register
//    blocks writing those directly would leave lines half-written and thrash the write-combining
//    buffers.
//  - The next tile's input rows (`next`, next_bytes per row) are prefetched a band at a time:
//    with one stream per row the hardware prefetcher cannot follow them.
template <class Isa, std::size_t S>
XPOSE_ALWAYS_INLINE void transpose_tile_streamed(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                                 std::ptrdiff_t op, std::int64_t h, std::int64_t w,
                                                 Byte* buf, const Byte* next,
                                                 std::int64_t next_bytes) {
  using Micro = typename Isa::template Micro<S>;
  constexpr std::int64_t M = Micro::M;
  const std::ptrdiff_t bp = h * static_cast<std::ptrdiff_t>(S);
  const std::int64_t hm = h - h % M;
  const std::int64_t wm = w - w % M;
  for (std::int64_t i = 0; i < hm; i += M) {
    const Byte* src = in + i * ip;
    Byte* dst = buf + i * S;
    if (next)
      for (std::int64_t r = i; r < i + M; ++r)
        for (std::int64_t k = 0; k < next_bytes; k += 64) __builtin_prefetch(next + r * ip + k);
    for (std::int64_t j = 0; j < wm; j += M) Micro::run(src + j * S, ip, dst + j * bp, bp);
  }
  transpose_edges<Micro, S>(in, ip, buf, bp, h, w, hm, wm);
  for (std::int64_t r = 0; r < w; ++r)
    Isa::stream_row(out + r * op, buf + r * bp, static_cast<std::size_t>(bp));
}

template <class Isa, std::size_t S>
XPOSE_ALWAYS_INLINE void out_of_place_task(const OutOfPlaceJob& job, std::int64_t task) {
  const std::int64_t b = task / job.tasks_per_matrix;
  const std::int64_t r = task % job.tasks_per_matrix;
  const std::int64_t ti_begin = (r / job.groups_per_band) * job.band_group;
  const std::int64_t ti_end = std::min(job.tiles_i, ti_begin + job.band_group);
  const std::int64_t tj_begin = (r % job.groups_per_band) * job.group;
  const std::int64_t tj_end = std::min(job.tiles_j, tj_begin + job.group);
  const std::int64_t TH = job.tile_h, TW = job.tile_w;
  const Byte* in = job.in + b * job.in_stride;
  Byte* out = job.out + b * job.out_stride;
  auto tile_in = [&](std::int64_t ti, std::int64_t tj) {
    return in + ti * TH * job.in_pitch + tj * TW * static_cast<std::ptrdiff_t>(S);
  };
  auto tile_out = [&](std::int64_t ti, std::int64_t tj) {
    return out + tj * TW * job.out_pitch + ti * TH * static_cast<std::ptrdiff_t>(S);
  };
  auto height = [&](std::int64_t ti) { return std::min(TH, job.rows - ti * TH); };
  auto width = [&](std::int64_t tj) { return std::min(TW, job.cols - tj * TW); };
  if constexpr (Isa::kCanStream) {
    if (job.stream) {
      Byte* buf = tile_buffer();
      for (std::int64_t ti = ti_begin; ti < ti_end; ++ti) {
        const std::int64_t h = height(ti);
        for (std::int64_t tj = tj_begin; tj < tj_end; ++tj) {
          // The next tile of this task, whose input is prefetched meanwhile.
          std::int64_t ni = ti, nj = tj + 1;
          if (nj == tj_end) ni = ti + 1, nj = tj_begin;
          const bool more = ni < ti_end && height(ni) >= h;
          transpose_tile_streamed<Isa, S>(tile_in(ti, tj), job.in_pitch, tile_out(ti, tj),
                                          job.out_pitch, h, width(tj), buf,
                                          more ? tile_in(ni, nj) : nullptr,
                                          more ? width(nj) * static_cast<std::int64_t>(S) : 0);
        }
      }
      stream_fence();
      return;
    }
  }
  for (std::int64_t ti = ti_begin; ti < ti_end; ++ti)
    for (std::int64_t tj = tj_begin; tj < tj_end; ++tj)
      transpose_tile<typename Isa::template Micro<S>, S>(
          tile_in(ti, tj), job.in_pitch, tile_out(ti, tj), job.out_pitch, height(ti), width(tj));
}

// ---- in-place square ------------------------------------------------------------------------

// Task (b, I) swaps the tile pairs (I, J), J >= I, of matrix b. Task I holds tiles - I pairs;
// the pool hands out small I (the big tasks) first, so they balance.
struct InPlaceJob {
  Byte* buf;
  std::int64_t n;
  std::ptrdiff_t pitch, stride;  // bytes
  std::int64_t tile, tiles;
};

// Copies h rows of `bytes` bytes.
XPOSE_ALWAYS_INLINE void copy_rows(Byte* dst, std::ptrdiff_t dp, const Byte* src, std::ptrdiff_t sp,
                                   std::int64_t h, std::size_t bytes) {
  for (std::int64_t r = 0; r < h; ++r) std::memcpy(dst + r * dp, src + r * sp, bytes);
}

// Both tiles of a pair are copied whole into L1 buffers, transposed there, and copied back
// whole: the matrix is only touched in full row segments, so power-of-two pitches (every row
// of a tile in one L1 set) cost no conflict misses.
template <class Isa, std::size_t S>
XPOSE_ALWAYS_INLINE void in_place_task(const InPlaceJob& job, std::int64_t task) {
  using Micro = typename Isa::template Micro<S>;
  const std::int64_t b = task / job.tiles;
  const std::int64_t ti = task % job.tiles;
  const std::int64_t T = job.tile;
  const std::ptrdiff_t bp = T * static_cast<std::ptrdiff_t>(S);  // buffer pitch
  Byte* const upper_buf = tile_buffer();
  Byte* const lower_buf = upper_buf + kInplaceBufferBytes;
  Byte* const out_buf = lower_buf + kInplaceBufferBytes;
  const std::ptrdiff_t p = job.pitch;
  Byte* m = job.buf + b * job.stride;
  const std::int64_t i0 = ti * T;
  const std::int64_t h = std::min(T, job.n - i0);
  for (std::int64_t tj = ti; tj < job.tiles; ++tj) {
    const std::int64_t j0 = tj * T;
    const std::int64_t w = std::min(T, job.n - j0);
    Byte* upper = m + i0 * p + j0 * static_cast<std::ptrdiff_t>(S);  // tile (I, J): h x w
    Byte* lower = m + j0 * p + i0 * static_cast<std::ptrdiff_t>(S);  // tile (J, I): w x h
    const auto wb = static_cast<std::size_t>(w) * S, hb = static_cast<std::size_t>(h) * S;
    copy_rows(upper_buf, bp, upper, p, h, wb);
    if (tj != ti) copy_rows(lower_buf, bp, lower, p, w, hb);
    transpose_tile<Micro, S>(upper_buf, bp, out_buf, bp, h, w);
    copy_rows(lower, p, out_buf, bp, w, hb);
    if (tj != ti) {
      transpose_tile<Micro, S>(lower_buf, bp, out_buf, bp, w, h);
      copy_rows(upper, p, out_buf, bp, h, wb);
    }
  }
}

// ---- dispatch -------------------------------------------------------------------------------

using OutOfPlaceFn = void (*)(const OutOfPlaceJob&, std::int64_t);
using InPlaceFn = void (*)(const InPlaceJob&, std::int64_t);

template <std::size_t S>
void out_of_place_portable(const OutOfPlaceJob& job, std::int64_t task) {
  out_of_place_task<PortableIsa, S>(job, task);
}
template <std::size_t S>
void in_place_portable(const InPlaceJob& job, std::int64_t task) {
  in_place_task<PortableIsa, S>(job, task);
}

#if XPOSE_CPU_X86
template <std::size_t S>
void out_of_place_sse2(const OutOfPlaceJob& job, std::int64_t task) {
  out_of_place_task<Sse2Isa, S>(job, task);
}
template <std::size_t S>
void in_place_sse2(const InPlaceJob& job, std::int64_t task) {
  in_place_task<Sse2Isa, S>(job, task);
}
// The avx2 target sits on these entry points, and `flatten` inlines the generic loops and the
// AVX2 kernels into them, so all of it is compiled for AVX2 while the rest of the binary still
// runs on any x86-64.
template <std::size_t S>
XPOSE_TARGET_AVX2_FLATTEN void out_of_place_avx2(const OutOfPlaceJob& job, std::int64_t task) {
  out_of_place_task<Avx2Isa, S>(job, task);
}
template <std::size_t S>
XPOSE_TARGET_AVX2_FLATTEN void in_place_avx2(const InPlaceJob& job, std::int64_t task) {
  in_place_task<Avx2Isa, S>(job, task);
}
#endif

template <template <std::size_t> class Table>
auto pick(std::size_t elem_size) {
  switch (elem_size) {
    case 1:
      return Table<1>::fn;
    case 2:
      return Table<2>::fn;
    case 4:
      return Table<4>::fn;
    case 8:
      return Table<8>::fn;
    default:
      return Table<16>::fn;
  }
}

#define XPOSE_KERNEL_TABLE(Name, Fn)   \
  template <std::size_t S>             \
  struct Name {                        \
    static constexpr auto fn = &Fn<S>; \
  }
XPOSE_KERNEL_TABLE(OutOfPlacePortable, out_of_place_portable);
XPOSE_KERNEL_TABLE(InPlacePortable, in_place_portable);
#if XPOSE_CPU_X86
XPOSE_KERNEL_TABLE(OutOfPlaceSse2, out_of_place_sse2);
XPOSE_KERNEL_TABLE(InPlaceSse2, in_place_sse2);
XPOSE_KERNEL_TABLE(OutOfPlaceAvx2, out_of_place_avx2);
XPOSE_KERNEL_TABLE(InPlaceAvx2, in_place_avx2);
#endif
#undef XPOSE_KERNEL_TABLE

OutOfPlaceFn out_of_place_kernel(CpuIsa isa, std::size_t elem_size) {
  switch (isa) {
#if XPOSE_CPU_X86
    case CpuIsa::avx2:
      return pick<OutOfPlaceAvx2>(elem_size);
    case CpuIsa::sse2:
      return pick<OutOfPlaceSse2>(elem_size);
#endif
    default:
      return pick<OutOfPlacePortable>(elem_size);
  }
}

InPlaceFn in_place_kernel(CpuIsa isa, std::size_t elem_size) {
  switch (isa) {
#if XPOSE_CPU_X86
    case CpuIsa::avx2:
      return pick<InPlaceAvx2>(elem_size);
    case CpuIsa::sse2:
      return pick<InPlaceSse2>(elem_size);
#endif
    default:
      return pick<InPlacePortable>(elem_size);
  }
}

// Threads for a call moving `bytes` bytes: one for small calls, where waking a worker costs
// more than it saves.
int threads_for(int threads, std::int64_t bytes) {
  return bytes < kParallelMinBytes ? 1 : resolve_threads(threads);
}

// Bytes per task for a call moving `bytes` on `threads` threads.
std::int64_t task_bytes_for(std::int64_t bytes, int threads) {
  return std::clamp<std::int64_t>(bytes / (4 * threads), kMinTaskBytes, kTaskBytes);
}

// Runs tasks 0..tasks-1 (together moving `bytes`) on the pool, handing them out in runs of
// consecutive tasks of about task_bytes: a batch of tiny matrices is one task per matrix, far
// less work than taking a task from the shared counter.
template <class Fn>
void run_grouped(std::int64_t tasks, std::int64_t bytes, std::int64_t task_bytes, int threads,
                 const Fn& fn) {
  const std::int64_t per_task = std::max<std::int64_t>(1, bytes / std::max<std::int64_t>(1, tasks));
  const std::int64_t run = std::clamp<std::int64_t>(task_bytes / per_task, 1, tasks);
  ThreadPool::instance().run((tasks + run - 1) / run, threads, [&](std::int64_t g) {
    const std::int64_t end = std::min(tasks, (g + 1) * run);
    for (std::int64_t t = g * run; t < end; ++t) fn(t);
  });
}

// ---- wide elements --------------------------------------------------------------------------
// Elements of any other size: an axis group that moves as one (engine/src/axes.h). Each element
// is copied whole; tiles of about 16 KiB keep a tile's input and output rows in L1, and a wide
// element already fills cache lines by itself. Sizes up to 64 bytes get a copy of constant size
// (a few moves instead of a memcpy call).

struct WideJob {
  const Byte* in;
  Byte* out;
  std::int64_t rows, cols;
  std::ptrdiff_t in_pitch, out_pitch, in_stride, out_stride;  // bytes
  std::int64_t tile, tiles_i, tiles_j;
  std::size_t elem;
};
using WideFn = void (*)(const WideJob&, std::int64_t);

template <std::size_t S>
void wide_task(const WideJob& job, std::int64_t task) {
  const std::size_t size = S ? S : job.elem;
  const std::int64_t per_matrix = job.tiles_i * job.tiles_j;
  const std::int64_t b = task / per_matrix, t = task % per_matrix;
  const std::int64_t i0 = t / job.tiles_j * job.tile, j0 = t % job.tiles_j * job.tile;
  const std::int64_t i1 = std::min(job.rows, i0 + job.tile), j1 = std::min(job.cols, j0 + job.tile);
  const auto es = static_cast<std::ptrdiff_t>(size);
  const Byte* in = job.in + b * job.in_stride;
  Byte* out = job.out + b * job.out_stride;
  // Output rows outer: each output row segment is written front to back.
  for (std::int64_t j = j0; j < j1; ++j) {
    Byte* dst = out + j * job.out_pitch + i0 * es;
    const Byte* src = in + i0 * job.in_pitch + j * es;
    for (std::int64_t i = i0; i < i1; ++i, dst += es, src += job.in_pitch) std::memcpy(dst, src, size);
  }
}

template <std::size_t... S>
constexpr std::array<WideFn, sizeof...(S)> wide_table(std::index_sequence<S...>) {
  return {&wide_task<S>...};
}

WideFn wide_kernel(std::size_t elem_size) {
  static constexpr auto table = wide_table(std::make_index_sequence<65>{});  // [0]: any size
  return elem_size < table.size() ? table[elem_size] : table[0];
}

}  // namespace

const char* cpu_isa_name(CpuIsa isa) noexcept {
  switch (isa) {
    case CpuIsa::avx2:
      return "avx2";
    case CpuIsa::sse2:
      return "sse2";
    default:
      return "portable";
  }
}

CpuIsa best_cpu_isa() noexcept {
#if XPOSE_CPU_X86 && (defined(__GNUC__) || defined(__clang__))
  static const CpuIsa best = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? CpuIsa::avx2 : CpuIsa::sse2;
  }();
  return best;
#elif XPOSE_CPU_X86
  return CpuIsa::sse2;
#else
  return CpuIsa::portable;
#endif
}

CpuIsa active_cpu_isa() noexcept {
  return current_isa();
}

void set_cpu_isa(CpuIsa isa) {
  const CpuIsa best = best_cpu_isa();
  if (static_cast<int>(isa) > static_cast<int>(best))
    throw UnsupportedInputError(cat("CPU kernels: instruction set ", cpu_isa_name(isa),
                                    " is not available here (best: ", cpu_isa_name(best), ")"));
  g_isa.store(static_cast<int>(isa), std::memory_order_relaxed);
}

std::int64_t stream_min_bytes() noexcept {
  return g_stream_min_bytes.load(std::memory_order_relaxed);
}

void set_stream_min_bytes(std::int64_t bytes) noexcept {
  g_stream_min_bytes.store(bytes < 0 ? kStreamMinBytesDefault : bytes, std::memory_order_relaxed);
}

}  // namespace cpu

// ---- public entry points --------------------------------------------------------------------

void transpose_naive(const void* in, void* out, std::size_t elem_size,
                     const TransposeShape& shape) {
  if (elem_size == 0) throw UnsupportedInputError("transpose_naive: element size 0");
  const auto s = shape.resolved();
  const auto* src = static_cast<const Byte*>(in);
  auto* dst = static_cast<Byte*>(out);
  const auto es = static_cast<std::int64_t>(elem_size);
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t i = 0; i < s.rows; ++i)
      for (std::int64_t j = 0; j < s.cols; ++j)
        std::memcpy(dst + (b * s.out_batch_stride + j * s.out_pitch + i) * es,
                    src + (b * s.in_batch_stride + i * s.in_pitch + j) * es, elem_size);
}

void transpose_cpu(const void* in, void* out, std::size_t elem_size, const TransposeShape& shape,
                   int threads) {
  if (elem_size == 0) throw UnsupportedInputError("transpose_cpu: element size 0");
  const auto s = shape.resolved();
  if (s.rows == 0 || s.cols == 0 || s.batch == 0) return;
  if (in == nullptr || out == nullptr)
    throw InternalError("transpose_cpu: null buffer for a non-empty transpose");
  if (!is_supported_element_size(elem_size)) {
    const auto es = static_cast<std::ptrdiff_t>(elem_size);
    cpu::WideJob job{};
    job.in = static_cast<const Byte*>(in);
    job.out = static_cast<Byte*>(out);
    job.rows = s.rows;
    job.cols = s.cols;
    job.in_pitch = s.in_pitch * es;
    job.out_pitch = s.out_pitch * es;
    job.in_stride = s.in_batch_stride * es;
    job.out_stride = s.out_batch_stride * es;
    job.elem = elem_size;
    job.tile = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(std::sqrt(16384.0 / static_cast<double>(elem_size))), 1, 64);
    job.tiles_i = (s.rows + job.tile - 1) / job.tile;
    job.tiles_j = (s.cols + job.tile - 1) / job.tile;
    const std::int64_t bytes = s.batch * s.rows * s.cols * es;
    const int nthreads = cpu::threads_for(threads, bytes);
    const cpu::WideFn kernel = cpu::wide_kernel(elem_size);
    cpu::run_grouped(s.batch * job.tiles_i * job.tiles_j, bytes, cpu::task_bytes_for(bytes, nthreads), nthreads,
                     [&](std::int64_t t) { kernel(job, t); });
    return;
  }

  const auto es = static_cast<std::ptrdiff_t>(elem_size);
  cpu::OutOfPlaceJob job{};
  job.in = static_cast<const Byte*>(in);
  job.out = static_cast<Byte*>(out);
  job.rows = s.rows;
  job.cols = s.cols;
  job.in_pitch = s.in_pitch * es;
  job.out_pitch = s.out_pitch * es;
  job.in_stride = s.in_batch_stride * es;
  job.out_stride = s.out_batch_stride * es;
  const std::int64_t bytes = s.batch * s.rows * s.cols * es;
  const cpu::CpuIsa isa = cpu::current_isa();
  // Streaming pays for output rows of at least a cache line; shorter ones could only be
  // written partially anyway.
  job.stream = isa != cpu::CpuIsa::portable && s.rows * es >= 64 &&
               bytes >= cpu::g_stream_min_bytes.load(std::memory_order_relaxed);
  if (job.stream) {
    const bool out_aligned =
        (reinterpret_cast<std::uintptr_t>(out) % 64 == 0 && job.out_pitch % 64 == 0 &&
         (s.batch == 1 || job.out_stride % 64 == 0));
    cpu::streamed_tile(elem_size, out_aligned, job.tile_h, job.tile_w);
  } else {
    job.tile_h = job.tile_w = cpu::direct_tile_side(elem_size);
  }
  job.tiles_i = (s.rows + job.tile_h - 1) / job.tile_h;
  job.tiles_j = (s.cols + job.tile_w - 1) / job.tile_w;
  // A task is a block of band_group x group tiles moving about task_bytes, near square in
  // elements: that touches the fewest pages per byte (every input and output row is on its own
  // page, and TLB misses are a large part of the cost). Thin matrices get long strips instead.
  std::int64_t side = 1;
  const int nthreads = cpu::threads_for(threads, bytes);
  const std::int64_t task_bytes = cpu::task_bytes_for(bytes, nthreads);
  while ((side + 1) * (side + 1) * es <= task_bytes) ++side;
  const std::int64_t tile_bytes = std::min(job.tile_h, s.rows) * std::min(job.tile_w, s.cols) * es;
  job.band_group = std::clamp<std::int64_t>(side / job.tile_h, 1, job.tiles_i);
  job.group = std::clamp<std::int64_t>(task_bytes / (job.band_group * tile_bytes), 1, job.tiles_j);
  job.band_group =
      std::clamp<std::int64_t>(task_bytes / (job.group * tile_bytes), job.band_group, job.tiles_i);
  job.groups_per_band = (job.tiles_j + job.group - 1) / job.group;
  job.tasks_per_matrix = (job.tiles_i + job.band_group - 1) / job.band_group * job.groups_per_band;
  const cpu::OutOfPlaceFn kernel = cpu::out_of_place_kernel(isa, elem_size);
  cpu::run_grouped(s.batch * job.tasks_per_matrix, bytes, task_bytes, nthreads,
                   [&](std::int64_t t) { kernel(job, t); });
}

void transpose_inplace_cpu(void* buf, std::size_t elem_size, std::int64_t n, std::int64_t batch,
                           int threads) {
  cpu::check_elem_size("transpose_inplace_cpu", elem_size);
  if (n < 0 || batch < 0)
    throw DimensionMismatch(
        cat("transpose_inplace_cpu: negative extent (n=", n, ", batch=", batch, ")"));
  if (n == 0 || batch == 0) return;
  if (buf == nullptr) throw InternalError("transpose_inplace_cpu: null buffer");

  const auto es = static_cast<std::ptrdiff_t>(elem_size);
  cpu::InPlaceJob job{};
  job.buf = static_cast<Byte*>(buf);
  job.n = n;
  job.pitch = n * es;
  job.stride = n * n * es;
  job.tile = cpu::inplace_tile_side(elem_size);
  job.tiles = (n + job.tile - 1) / job.tile;

  const cpu::InPlaceFn kernel = cpu::in_place_kernel(cpu::current_isa(), elem_size);
  const std::int64_t bytes = batch * n * n * es;
  const int nthreads = cpu::threads_for(threads, bytes);
  cpu::run_grouped(batch * job.tiles, bytes, cpu::task_bytes_for(bytes, nthreads), nthreads,
                   [&](std::int64_t t) { kernel(job, t); });
}

void copy_2d_cpu(const void* src, std::int64_t src_pitch, void* dst, std::int64_t dst_pitch,
                 std::int64_t row_bytes, std::int64_t rows, int threads) {
  if (row_bytes < 0 || rows < 0)
    throw DimensionMismatch(
        cat("copy_2d_cpu: negative extent (row_bytes=", row_bytes, ", rows=", rows, ")"));
  if (row_bytes == 0 || rows == 0) return;
  if (rows > 1 && (src_pitch < row_bytes || dst_pitch < row_bytes))
    throw DimensionMismatch(cat("copy_2d_cpu: pitch smaller than a row (src_pitch=", src_pitch,
                                ", dst_pitch=", dst_pitch, ", row_bytes=", row_bytes, ")"));
  if (src == nullptr || dst == nullptr) throw InternalError("copy_2d_cpu: null buffer");

  const auto* s = static_cast<const Byte*>(src);
  auto* d = static_cast<Byte*>(dst);
  // Long rows are cut into pieces, short rows grouped, so every task moves about task_bytes.
  const int nthreads = cpu::threads_for(threads, rows * row_bytes);
  const std::int64_t task_bytes = cpu::task_bytes_for(rows * row_bytes, nthreads);
  const std::int64_t pieces = (row_bytes + task_bytes - 1) / task_bytes;
  const std::int64_t piece = (row_bytes + pieces - 1) / pieces;
  const std::int64_t rows_per_task = std::max<std::int64_t>(1, task_bytes / row_bytes);
  const std::int64_t tasks =
      pieces > 1 ? rows * pieces : (rows + rows_per_task - 1) / rows_per_task;
  auto task = [&](std::int64_t t) {
    if (pieces > 1) {
      const std::int64_t r = t / pieces;
      const std::int64_t off = (t % pieces) * piece;
      std::memcpy(d + r * dst_pitch + off, s + r * src_pitch + off,
                  static_cast<std::size_t>(std::min(piece, row_bytes - off)));
      return;
    }
    const std::int64_t r_end = std::min(rows, (t + 1) * rows_per_task);
    for (std::int64_t r = t * rows_per_task; r < r_end; ++r)
      std::memcpy(d + r * dst_pitch, s + r * src_pitch, static_cast<std::size_t>(row_bytes));
  };
  cpu::ThreadPool::instance().run(tasks, nthreads, task);
}

}  // namespace xpose::kernels
