/// @file
/// The out-of-place tiled transpose kernel, as a template over the tile shape (tile.cuh), and
/// its launcher; kernels/cuda/kernels.def lists the shapes the library uses.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/check.h"
#include "kernels/cuda/tile.cuh"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels::cuda_tile {

/// One block per tile, grid-stride over tiles (blockIdx.x, so no 65535 limit) and over the
/// batch (blockIdx.y); tiles are numbered row-major, so neighbouring blocks read neighbouring
/// tiles of the same input rows.
template <class C>
__global__ void __launch_bounds__(C::NT, C::MINB) tiled_kernel(TiledParams p) {
  extern __shared__ uint4 tiled_smem_raw[];
  auto* smem = reinterpret_cast<typename C::Word*>(tiled_smem_raw);
  for_each_tile(p, C::TH, C::TW, [&](const char* in, char* out, std::int64_t r0, std::int64_t c0) {
    const std::int64_t rows_left = p.rows - r0;
    const std::int64_t cols_left = p.cols - c0;
    const bool full = rows_left >= C::TH && cols_left >= C::TW;
    load_tile<C>(in + r0 * p.in_pitch_bytes + c0 * C::S, p.in_pitch_bytes, rows_left, cols_left,
                 full, smem);
    __syncthreads();
    store_tile<C>(out + c0 * p.out_pitch_bytes + r0 * C::S, p.out_pitch_bytes, cols_left, rows_left,
                  full, smem);
    __syncthreads();  // the next tile overwrites shared memory
  });
}

/// Whether tiled_kernel<C> can take this (resolved) shape: W-byte words must be aligned.
template <class C>
bool tiled_accepts(const void* in, const void* out, const TransposeShape& s) {
  return words_aligned<C>(in, out, s.in_pitch, s.out_pitch, s.in_batch_stride, s.out_batch_stride,
                          s.batch);
}

/// Launches tiled_kernel<C> on `stream`, one block a tile. `s` must be resolved, non-empty and
/// taken. `group`: tile rows per group of the block order (see tile_of).
template <class C>
void launch_tiled(const void* in, void* out, const TransposeShape& s, cudaStream_t stream,
                  int group = 1) {
  const TiledParams p = tiled_params(in, out, s, C::S, (s.cols + C::TW - 1) / C::TW,
                                     (s.rows + C::TH - 1) / C::TH, group);
  const std::int64_t gx = std::min<std::int64_t>(p.tiles, 0x7fffffff);
  const std::int64_t gy = std::min<std::int64_t>(s.batch, 65535);
  cuda_detail::allow_dynamic_smem(tiled_kernel<C>, C::SMEM_BYTES);
  tiled_kernel<C><<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), C::NT,
                    C::SMEM_BYTES, stream>>>(p);
  XPOSE_CHECK_CUDA_LAUNCH("tiled_kernel");
}

}  // namespace xpose::kernels::cuda_tile
