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
/// that a warp walking down a column of the slab hits distinct banks). Slabs are 1024 bytes
/// along the long side for m up to 32, 512 up to 64, 256 up to 128, 128 up to 256: at most
/// 37 KiB of shared memory, plain loads and stores of one element, so it builds for sm_35 on.
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
  std::int64_t m;                       ///< short side, elements
  std::int64_t len;                     ///< long side, elements
  std::int64_t in_pitch, out_pitch;     ///< bytes between rows
  std::int64_t in_batch, out_batch;     ///< bytes between matrices
  std::int64_t batch;
  int w, log_w, ld;                     ///< slab width (a power of two), its log2, slab row length
};

template <int S, bool SHORT_ROWS>
__global__ void __launch_bounds__(kThinThreads) thin_kernel(ThinParams p) {
  using T = typename Bytes<S>::type;
  extern __shared__ __align__(16) unsigned char thin_smem[];
  T* slab = reinterpret_cast<T*>(thin_smem);
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid & 31, warp = tid >> 5, warps = static_cast<int>(blockDim.x) >> 5;
  const int m = static_cast<int>(p.m);
  const int total = m << p.log_w;
  const std::int64_t slabs = (p.len + p.w - 1) / p.w;
  for (std::int64_t k = blockIdx.x + std::int64_t(gridDim.x) * blockIdx.y; k < slabs * p.batch;
       k += std::int64_t(gridDim.x) * gridDim.y) {
    const std::int64_t b = k / slabs;
    const std::int64_t l0 = (k - b * slabs) * p.w;
    const int wl = static_cast<int>(p.len - l0 < p.w ? p.len - l0 : p.w);  // positions in the slab
    const unsigned char* in = p.in + b * p.in_batch;
    unsigned char* out = p.out + b * p.out_batch;
    if (SHORT_ROWS) {
      // Input row r: elements l0 .. l0 + wl - 1, read along the row.
      for (int i = tid; i < total; i += kThinThreads) {
        const int r = i >> p.log_w, c = i & (p.w - 1);
        if (c < wl)
          slab[r * p.ld + c] = *reinterpret_cast<const T*>(in + r * p.in_pitch + (l0 + c) * S);
      }
      __syncthreads();
      // Output row l0 + j: the m elements of slab column j, one warp a row.
      for (int j = warp; j < wl; j += warps) {
        unsigned char* row = out + (l0 + j) * p.out_pitch;
        for (int r = lane; r < m; r += 32) *reinterpret_cast<T*>(row + r * S) = slab[r * p.ld + j];
      }
    } else {
      // Input row l0 + j: m elements, one warp a row, into slab column j.
      for (int j = warp; j < wl; j += warps) {
        const unsigned char* row = in + (l0 + j) * p.in_pitch;
        for (int c = lane; c < m; c += 32)
          slab[c * p.ld + j] = *reinterpret_cast<const T*>(row + c * S);
      }
      __syncthreads();
      // Output row c: elements l0 .. l0 + wl - 1, written along the row.
      for (int i = tid; i < total; i += kThinThreads) {
        const int c = i >> p.log_w, j = i & (p.w - 1);
        if (j < wl)
          *reinterpret_cast<T*>(out + c * p.out_pitch + (l0 + j) * S) = slab[c * p.ld + j];
      }
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

/// Launches thin_kernel<S, ...> on `stream`, short rows where rows <= cols. `s` resolved,
/// non-empty and accepted.
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
  const int slab_bytes = p.m <= 32 ? 1024 : p.m <= 64 ? 512 : p.m <= 128 ? 256 : 128;
  p.w = std::max(1, slab_bytes / S);
  p.log_w = 0;
  while ((1 << p.log_w) < p.w) ++p.log_w;
  p.ld = p.w + (S >= 4 ? 1 : 4 / S);
  const std::size_t smem = static_cast<std::size_t>(p.m) * p.ld * S;
  // One block a slab (slabs of the batch's matrices one after another), grid-stride past 2^31.
  const std::int64_t slabs = (p.len + p.w - 1) / p.w * s.batch;
  const std::int64_t gx = std::min<std::int64_t>(slabs, 0x7fffffff);
  const std::int64_t gy = std::min<std::int64_t>((slabs + gx - 1) / gx, 65535);
  const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
  if (short_rows)
    thin_kernel<S, true><<<grid, kThinThreads, smem, stream>>>(p);
  else
    thin_kernel<S, false><<<grid, kThinThreads, smem, stream>>>(p);
  XPOSE_CHECK_CUDA_LAUNCH("thin_kernel");
}

}  // namespace xpose::kernels::cuda_tile
