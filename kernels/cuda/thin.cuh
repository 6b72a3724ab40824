/// @file
/// Thin matrices: one side (the short side, m elements) at most kThinMax. The tiled and skewed
/// kernels cut such a matrix into tiles of 32 to 256 elements a side, so most of their tiles are
/// partial: a 1298424 x 68 f32 input makes two tile columns, one of 64 columns and one of 4, and
/// the blocks of the second move 1/16 of what the first move in about the same time (0.51 x
/// memcpy, run 26 call 3). Here a block takes the whole short side and a slab of w positions
/// along the long side, so that every block moves m x w elements:
///   short rows (input m x len): the block reads w consecutive elements of each input row and
///     writes w output rows of m elements each (one contiguous run where the output is dense);
///   short columns (input len x m): it reads w input rows of m elements and writes w
///     consecutive elements of each output row.
/// The shared slab is m rows of ld = w + pad elements (pad: one 4-byte word or one element, so
/// that consecutive lanes on consecutive rows of the slab hit distinct banks), rows of 32768 / m
/// bytes rounded down to a power of two (at most 16384, at least 128: 1024 bytes for m = 17-32,
/// 128 for m = 129-256), so that a block moves 16-32 KiB, except that short input rows from m = 6
/// to 32 take 1024-byte slab rows (launch_thin); at most 37 KiB of shared memory. The tall
/// matrix's elements are found by one multiply-shift division by m each. Accesses of one element,
/// or of 4-byte words for 1- and 2-byte elements where the layout allows; plain loads and stores,
/// so it builds for sm_35 on.
#pragma once

#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/cuda/check.h"
#include "kernels/cuda/tile.cuh"
#include "kernels/transpose.h"

namespace xpose::kernels::cuda_tile {

/// The longest short side the thin kernel takes.
constexpr std::int64_t kThinMax = 256;
constexpr int kThinThreads = 256;

struct ThinParams {
  const unsigned char* in;
  unsigned char* out;
  std::int64_t m;                    ///< short side, elements
  std::int64_t len;                  ///< long side, elements
  std::int64_t in_pitch, out_pitch;  ///< bytes between rows
  std::int64_t in_batch, out_batch;  ///< bytes between matrices
  std::int64_t batch;
  std::uint64_t magic;  ///< ceil(2^32 / m): e / m = (e * magic) >> 32 for e < 2^24
  int w, log_w, ld;     ///< slab width (a power of two), its log2, slab row length
};

/// The wide matrix (m rows of len elements: the input where rows are short, else the output) is
/// moved row by row: slab row r <-> row r, positions l0 .. l0 + wl - 1, consecutive lanes on
/// consecutive positions. VEC (1- and 2-byte elements, rows on 4 bytes): 4-byte words, the last
/// partial word element by element.
template <int S, bool TO_SLAB, bool VEC>
__device__ __forceinline__ void thin_wide(const ThinParams& p, unsigned char* base,
                                          std::int64_t pitch, std::int64_t l0, int wl,
                                          typename Bytes<S>::type* slab) {
  using T = typename Bytes<S>::type;
  const int m = static_cast<int>(p.m);
  if constexpr (VEC && S < 4) {
    constexpr int P = 4 / S;  // elements a word
    const int log_wpr = p.log_w - (P == 4 ? 2 : 1);
    const int wpr = 1 << log_wpr;
    for (int i = threadIdx.x; i < (m << log_wpr); i += kThinThreads) {
      const int r = i >> log_wpr, j0 = (i & (wpr - 1)) * P;
      if (j0 >= wl) continue;
      unsigned char* g = base + r * pitch + (l0 + j0) * S;
      T* sh = slab + r * p.ld + j0;
      if (j0 + P <= wl) {
        if (TO_SLAB)
          *reinterpret_cast<std::uint32_t*>(sh) = *reinterpret_cast<const std::uint32_t*>(g);
        else
          *reinterpret_cast<std::uint32_t*>(g) = *reinterpret_cast<const std::uint32_t*>(sh);
      } else {
        for (int t = 0; t < wl - j0; ++t) {
          if (TO_SLAB)
            sh[t] = reinterpret_cast<const T*>(g)[t];
          else
            reinterpret_cast<T*>(g)[t] = sh[t];
        }
      }
    }
  } else {
    for (int i = threadIdx.x; i < (m << p.log_w); i += kThinThreads) {
      const int r = i >> p.log_w, j = i & (p.w - 1);
      if (j >= wl) continue;
      T* g = reinterpret_cast<T*>(base + r * pitch + (l0 + j) * S);
      if (TO_SLAB)
        slab[r * p.ld + j] = *g;
      else
        *g = slab[r * p.ld + j];
    }
  }
}

/// The tall matrix (len rows of m elements) is moved as rows l0 .. l0 + wl - 1: element e of
/// them (row e / m, column e % m) <-> slab column e / m, row e % m, consecutive lanes on
/// consecutive elements (the slab's rows are one word apart mod 32 banks, so consecutive lanes
/// hit distinct banks). VEC (1- and 2-byte elements; the rows dense and on 4 bytes, so they are
/// one contiguous run): 4-byte words of the run, each lane taking its word's elements in a
/// rotated order so that the lanes of a warp stay on distinct banks.
template <int S, bool TO_SLAB, bool VEC>
__device__ __forceinline__ void thin_tall(const ThinParams& p, unsigned char* base,
                                          std::int64_t pitch, std::int64_t l0, int wl,
                                          typename Bytes<S>::type* slab) {
  using T = typename Bytes<S>::type;
  const int m = static_cast<int>(p.m);
  const int n = wl * m;
  auto div = [&](int e) {
    return static_cast<int>((static_cast<std::uint64_t>(e) * p.magic) >> 32);
  };
  int first_tail = 0;
  if constexpr (VEC && S < 4) {
    constexpr int P = 4 / S;
    constexpr std::uint32_t kMask = S == 1 ? 0xffu : 0xffffu;
    auto* run = reinterpret_cast<std::uint32_t*>(base + l0 * m * S);
    const int words = n / P;
    for (int i = threadIdx.x; i < words; i += kThinThreads) {
      std::uint32_t word = TO_SLAB ? run[i] : 0u;
#pragma unroll
      for (int t = 0; t < P; ++t) {
        const int tt = (t + i) & (P - 1);
        const int e = i * P + tt;
        const int j = div(e), c = e - j * m;
        if (TO_SLAB)
          slab[c * p.ld + j] = static_cast<T>((word >> (8 * S * tt)) & kMask);
        else
          word |= static_cast<std::uint32_t>(slab[c * p.ld + j]) << (8 * S * tt);
      }
      if (!TO_SLAB) run[i] = word;
    }
    first_tail = words * P;
  }
  for (int e = first_tail + threadIdx.x; e < n; e += kThinThreads) {
    const int j = div(e), c = e - j * m;
    T* g = reinterpret_cast<T*>(base + (l0 + j) * pitch + c * S);
    if (TO_SLAB)
      slab[c * p.ld + j] = *g;
    else
      *g = slab[c * p.ld + j];
  }
}

/// SHORT_ROWS: the input is the wide matrix (m x len), else the tall one (len x m). VEC_WIDE /
/// VEC_TALL: 4-byte words on that side for 1- and 2-byte elements (thin_wide / thin_tall).
template <int S, bool SHORT_ROWS, bool VEC_WIDE, bool VEC_TALL>
__global__ void __launch_bounds__(kThinThreads) thin_kernel(ThinParams p) {
  using T = typename Bytes<S>::type;
  extern __shared__ __align__(16) unsigned char thin_smem[];
  T* slab = reinterpret_cast<T*>(thin_smem);
  const std::int64_t slabs = (p.len + p.w - 1) / p.w;
  for (std::int64_t k = blockIdx.x + std::int64_t(gridDim.x) * blockIdx.y; k < slabs * p.batch;
       k += std::int64_t(gridDim.x) * gridDim.y) {
    const std::int64_t b = k / slabs;
    const std::int64_t l0 = (k - b * slabs) * p.w;
    const int wl = static_cast<int>(p.len - l0 < p.w ? p.len - l0 : p.w);  // positions in the slab
    auto* in = const_cast<unsigned char*>(p.in) + b * p.in_batch;
    unsigned char* out = p.out + b * p.out_batch;
    if (SHORT_ROWS) {
      thin_wide<S, true, VEC_WIDE>(p, in, p.in_pitch, l0, wl, slab);
      __syncthreads();
      thin_tall<S, false, VEC_TALL>(p, out, p.out_pitch, l0, wl, slab);
    } else {
      thin_tall<S, true, VEC_TALL>(p, in, p.in_pitch, l0, wl, slab);
      __syncthreads();
      thin_wide<S, false, VEC_WIDE>(p, out, p.out_pitch, l0, wl, slab);
    }
    __syncthreads();  // the next slab overwrites shared memory
  }
}

/// Whether thin_kernel takes this (resolved) shape: a side of at most kThinMax elements and
/// element-aligned buffers (any pitches and batch strides).
inline bool thin_accepts(const void* in, const void* out, std::size_t elem,
                         const TransposeShape& s) {
  return std::min(s.rows, s.cols) <= kThinMax && element_aligned(in, out, elem);
}

namespace thin_detail {

using ThinKernel = void (*)(ThinParams);

/// thin_kernel<S, SR, vw, vt>; the word forms (vw, vt) exist for 1- and 2-byte elements only.
template <int S, bool SR>
ThinKernel pick(bool vw, bool vt) {
  if constexpr (S < 4) {
    if (vw) return vt ? thin_kernel<S, SR, true, true> : thin_kernel<S, SR, true, false>;
    return vt ? thin_kernel<S, SR, false, true> : thin_kernel<S, SR, false, false>;
  } else {
    return thin_kernel<S, SR, false, false>;
  }
}

/// Whether the matrices of a batch at `base`, `batch_bytes` apart, all start on 4 bytes.
inline bool on4(const void* base, std::int64_t batch_bytes, std::int64_t batch) {
  return reinterpret_cast<std::uintptr_t>(base) % 4 == 0 && (batch == 1 || batch_bytes % 4 == 0);
}

}  // namespace thin_detail

/// Launches thin_kernel<S, ...> on `stream`: short rows where rows <= cols; for 1- and 2-byte
/// elements 4-byte words on the wide matrix where its rows start on 4 bytes, and on the tall one
/// where it is dense and starts on 4 bytes. `s` resolved, non-empty and accepted.
template <int S>
void launch_thin(const void* in, void* out, const TransposeShape& s, cudaStream_t stream) {
  const bool short_rows = s.rows <= s.cols;
  ThinParams p;
  p.in = static_cast<const unsigned char*>(in);
  p.out = static_cast<unsigned char*>(out);
  p.m = short_rows ? s.rows : s.cols;
  p.len = short_rows ? s.cols : s.rows;
  p.in_pitch = s.in_pitch * S;
  p.out_pitch = s.out_pitch * S;
  p.in_batch = s.in_batch_stride * S;
  p.out_batch = s.out_batch_stride * S;
  p.batch = s.batch;
  p.magic = ((std::uint64_t{1} << 32) + static_cast<std::uint64_t>(p.m) - 1) /
            static_cast<std::uint64_t>(p.m);
  // Bytes of a slab row (run 26, calls 6-7): where the input's columns are short, slabs of about
  // 32 KiB (32768 / m rounded down to a power of two, at most 16384 a row); where its rows are,
  // the same up to m = 5 and rows of 1024 bytes from 6 to 32 (32 KiB slabs lost 2-11 % at m =
  // 8-16 there). Both: 512 bytes a row up to m = 64, 256 to 128, 128 to 256.
  int slab_bytes = 16384;
  while (slab_bytes > 128 && static_cast<std::int64_t>(slab_bytes) * p.m > 32768) slab_bytes /= 2;
  if (short_rows && p.m > 5) slab_bytes = std::min(slab_bytes, 1024);
  p.w = std::max(1, slab_bytes / S);
  p.log_w = 0;
  while ((1 << p.log_w) < p.w) ++p.log_w;
  p.ld = p.w + std::max(1, 4 / S);  // slab rows one 4-byte word (or element) apart mod 32 banks
  const std::size_t smem = static_cast<std::size_t>(p.m) * p.ld * S;
  // One block a slab (slabs of the batch's matrices one after another), grid-stride past 2^31.
  const std::int64_t slabs = (p.len + p.w - 1) / p.w * s.batch;
  const std::int64_t gx = std::min<std::int64_t>(slabs, 0x7fffffff);
  const std::int64_t gy = std::min<std::int64_t>((slabs + gx - 1) / gx, 65535);
  const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
  const void* wide = short_rows ? in : out;
  const void* tall = short_rows ? out : in;
  const std::int64_t wide_pitch = short_rows ? p.in_pitch : p.out_pitch;
  const std::int64_t tall_pitch = short_rows ? p.out_pitch : p.in_pitch;
  const std::int64_t wide_batch = short_rows ? p.in_batch : p.out_batch;
  const std::int64_t tall_batch = short_rows ? p.out_batch : p.in_batch;
  const bool vw = wide_pitch % 4 == 0 && thin_detail::on4(wide, wide_batch, s.batch);
  const bool vt = tall_pitch == p.m * S && thin_detail::on4(tall, tall_batch, s.batch);
  const thin_detail::ThinKernel kernel =
      short_rows ? thin_detail::pick<S, true>(vw, vt) : thin_detail::pick<S, false>(vw, vt);
  kernel<<<grid, kThinThreads, smem, stream>>>(p);
  XPOSE_CHECK_CUDA_LAUNCH("thin_kernel");
}

}  // namespace xpose::kernels::cuda_tile
