/// @file
/// Out-of-place transpose with line-aligned windows: one element per lane, and every warp access
/// confined to one aligned 256-byte window of its row, whatever the row's alignment.
///
/// A block transposes a T x T tile through a padded shared tile (T + 1 columns), as the seed
/// kernel does, but each row piece of the tile (T elements on the read side, T on the write side)
/// is covered by the aligned 256-byte windows it overlaps, WIN = 256 / S lanes a window: lane l of
/// window w takes the element at the window's start + l, and only elements inside the tile are
/// read or written (the others' lanes sit idle). So a row piece that starts inside a line costs
/// one more, partly idle, access instead of accesses that straddle three lines; partial sectors at
/// the tile's ends stay (the neighbouring tile writes the rest of them). For element sizes whose
/// rows are off 256-byte windows anyway (odd pitches), 16-byte elements above all. Plain shared
/// memory and __syncthreads only.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/check.h"
#include "kernels/cuda/tile.cuh"
#include "kernels/transpose.h"

namespace xpose::kernels::cuda_tile {

/// S: element bytes; T: tile side; NT: threads; MINB as TileConfig's.
template <int S_, int T_, int NT_, int MINB_ = 1>
struct WindowConfig {
  static constexpr int S = S_;
  static constexpr int T = T_;
  static constexpr int NT = NT_;
  static constexpr int MINB = MINB_;
  static constexpr int WIN = 256 / S;                  ///< lanes (elements) of a 256-byte window
  static constexpr int ROWS = NT / WIN;                ///< row pieces a pass covers
  static constexpr int PASSES = T / ROWS;              ///< passes over a tile's T row pieces
  static constexpr int NWIN = (T + WIN - 1) / WIN + 1; ///< windows a row piece can overlap
  static constexpr int PITCH = T + 1;                  ///< shared row, in elements
  static constexpr std::size_t SMEM_BYTES = static_cast<std::size_t>(T) * PITCH * S;
  using Elem = typename Bytes<S>::type;
  static_assert(256 % S == 0 && NT % WIN == 0 && T % ROWS == 0, "whole windows, whole passes");
};

#if defined(__CUDACC__)

/// Elements of the aligned 256-byte window that come before `p` (an element of the row).
template <class C>
__device__ __forceinline__ int window_offset(const char* p) {
  return static_cast<int>((reinterpret_cast<std::uintptr_t>(p) & 255u) / C::S);
}

template <class C>
__global__ void __launch_bounds__(C::NT, C::MINB) window_kernel(TiledParams p) {
  extern __shared__ uint4 window_smem_raw[];
  using Elem = typename C::Elem;
  auto* smem = reinterpret_cast<Elem*>(window_smem_raw);
  const int lane = static_cast<int>(threadIdx.x) % C::WIN;
  const int prow = static_cast<int>(threadIdx.x) / C::WIN;
  for_each_tile(p, C::T, C::T, [&](const char* in, char* out, std::int64_t r0, std::int64_t c0) {
    const int nr = static_cast<int>(p.rows - r0 < C::T ? p.rows - r0 : C::T);  // rows of the tile
    const int nc = static_cast<int>(p.cols - c0 < C::T ? p.cols - c0 : C::T);  // columns
    // Read: row i of the tile, windows over columns c0 .. c0 + nc - 1, into shared memory.
#pragma unroll
    for (int q = 0; q < C::PASSES; ++q) {
      const int i = prow + q * C::ROWS;
      const char* src = in + (r0 + i) * p.in_pitch_bytes + c0 * C::S;
      const int first = lane - window_offset<C>(src);  // column of this lane in window 0
#pragma unroll
      for (int w = 0; w < C::NWIN; ++w) {
        const int col = first + w * C::WIN;
        if (i < nr && col >= 0 && col < nc)
          smem[col * C::PITCH + i] = *reinterpret_cast<const Elem*>(src + col * C::S);
      }
    }
    __syncthreads();
    // Write: output row j (input column c0 + j), windows over output columns r0 .. r0 + nr - 1.
#pragma unroll
    for (int q = 0; q < C::PASSES; ++q) {
      const int j = prow + q * C::ROWS;
      char* dst = out + (c0 + j) * p.out_pitch_bytes + r0 * C::S;
      const int first = lane - window_offset<C>(dst);
#pragma unroll
      for (int w = 0; w < C::NWIN; ++w) {
        const int col = first + w * C::WIN;
        if (j < nc && col >= 0 && col < nr)
          *reinterpret_cast<Elem*>(dst + col * C::S) = smem[j * C::PITCH + col];
      }
    }
    __syncthreads();  // the next tile overwrites shared memory
  });
}

/// Launches window_kernel<C> on `stream`; `s` resolved, non-empty, element-aligned.
/// `group`: tile rows per group of the block order (tile_of); at least the tile rows of the
/// matrix: column by column.
template <class C>
void launch_window(const void* in, void* out, const TransposeShape& s, cudaStream_t stream,
                   int group = 1) {
  const TiledParams p = tiled_params(in, out, s, C::S, (s.cols + C::T - 1) / C::T,
                                     (s.rows + C::T - 1) / C::T, group);
  const std::int64_t gx = std::min<std::int64_t>(p.tiles, 0x7fffffff);
  const std::int64_t gy = std::min<std::int64_t>(s.batch, 65535);
  cuda_detail::allow_dynamic_smem(window_kernel<C>, C::SMEM_BYTES);
  window_kernel<C><<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), C::NT,
                     C::SMEM_BYTES, stream>>>(p);
  XPOSE_CHECK_CUDA_LAUNCH("window_kernel");
}

#endif  // __CUDACC__

}  // namespace xpose::kernels::cuda_tile
