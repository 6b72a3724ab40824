/// @file
/// The out-of-place tiled transpose kernel, as a template over the tile shape (tile.cuh), and
/// its launcher. transpose_tiled.cu instantiates the shapes the library uses; bench/kernels.cu
/// instantiates others to compare.
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
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    const char* in = p.in + b * p.in_stride_bytes;
    char* out = p.out + b * p.out_stride_bytes;
    for (std::uint64_t t = blockIdx.x; t < p.tiles; t += gridDim.x) {
      std::uint32_t ty, tx;
      tile_of(p, static_cast<std::uint32_t>(t), ty, tx);
      const std::int64_t r0 = static_cast<std::int64_t>(ty) * C::TH;
      const std::int64_t c0 = static_cast<std::int64_t>(tx) * C::TW;
      const std::int64_t rows_left = p.rows - r0;
      const std::int64_t cols_left = p.cols - c0;
      const bool full = rows_left >= C::TH && cols_left >= C::TW;
      load_tile<C>(in + r0 * p.in_pitch_bytes + c0 * C::S, p.in_pitch_bytes, rows_left, cols_left,
                   full, smem);
      __syncthreads();
      store_tile<C>(out + c0 * p.out_pitch_bytes + r0 * C::S, p.out_pitch_bytes, cols_left,
                    rows_left, full, smem);
      __syncthreads();  // the next tile overwrites shared memory
    }
  }
}

/// Whether tiled_kernel<C> can take this (resolved) shape: W-byte words must be aligned.
template <class C>
bool tiled_accepts(const void* in, const void* out, const TransposeShape& s) {
  return words_aligned<C>(in, out, s.in_pitch, s.out_pitch, s.in_batch_stride, s.out_batch_stride,
                          s.batch);
}

/// Launches tiled_kernel<C> on `stream`. `s` must be resolved, non-empty and accepted.
/// `max_blocks` > 0 caps the grid (a persistent grid loops over the tiles); 0: one block a tile.
/// `group`: tile rows per group of the block order (see tile_of).
template <class C>
void launch_tiled(const void* in, void* out, const TransposeShape& s, cudaStream_t stream,
                  std::int64_t max_blocks = 0, int group = 1) {
  const std::int64_t tiles_x = (s.cols + C::TW - 1) / C::TW;
  const std::int64_t tiles_y = (s.rows + C::TH - 1) / C::TH;
  const std::int64_t tiles = tiles_x * tiles_y;
  if (tiles >= (std::int64_t{1} << 32))
    throw DimensionMismatch(
        cat("transpose_cuda: ", s.rows, " x ", s.cols, " needs ", tiles, " tiles, more than 2^32"));
  TiledParams p;
  p.in = static_cast<const char*>(in);
  p.out = static_cast<char*>(out);
  p.rows = s.rows;
  p.cols = s.cols;
  p.batch = s.batch;
  p.in_pitch_bytes = s.in_pitch * C::S;
  p.out_pitch_bytes = s.out_pitch * C::S;
  p.in_stride_bytes = s.in_batch_stride * C::S;
  p.out_stride_bytes = s.out_batch_stride * C::S;
  p.tiles_x = static_cast<std::uint32_t>(tiles_x);
  p.tiles_y = static_cast<std::uint32_t>(tiles_y);
  p.tiles = static_cast<std::uint32_t>(tiles);
  p.group = group > 1 && group * tiles_x < (std::int64_t{1} << 32)
                ? static_cast<std::uint32_t>(group)
                : 1;
  std::int64_t gx = std::min<std::int64_t>(tiles, 0x7fffffff);
  if (max_blocks > 0) gx = std::min(gx, max_blocks);
  const std::int64_t gy = std::min<std::int64_t>(s.batch, 65535);
  if (C::SMEM_BYTES > 48 * 1024)
    XPOSE_CHECK_CUDA(cudaFuncSetAttribute(tiled_kernel<C>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(C::SMEM_BYTES)));
  tiled_kernel<C><<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), C::NT,
                    C::SMEM_BYTES, stream>>>(p);
  XPOSE_CHECK_CUDA_LAUNCH("tiled_kernel");
}

/// Blocks of tiled_kernel<C> that fit on the whole device at once (for a persistent grid).
template <class C>
std::int64_t tiled_resident_blocks() {
  int device = 0, sms = 0, per_sm = 0;
  XPOSE_CHECK_CUDA(cudaGetDevice(&device));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (C::SMEM_BYTES > 48 * 1024)
    XPOSE_CHECK_CUDA(cudaFuncSetAttribute(tiled_kernel<C>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(C::SMEM_BYTES)));
  XPOSE_CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tiled_kernel<C>, C::NT,
                                                                 C::SMEM_BYTES));
  return static_cast<std::int64_t>(sms) * std::max(per_sm, 1);
}

}  // namespace xpose::kernels::cuda_tile
