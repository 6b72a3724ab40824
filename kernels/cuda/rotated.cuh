/// @file
/// The out-of-place transpose on the traffic of inplace_rotated_kernel (inplace.cuh): square
/// TS x TS tiles, one element an access, the input tile's rows and the output piece's rows each
/// read or written by warp accesses rotated onto 128-byte lines (rotated_column, inplace.cuh),
/// one shared tile with rows rotated_pitch apart between them. The library's kernel for u16
/// where output rows are off 32-byte sectors on devices that cannot give the narrow kernels their
/// shared memory (u16 16411^2: 0.85 against 0.48 x memcpy for the skewed kernel, H100).
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/check.h"
#include "kernels/cuda/inplace.cuh"
#include "kernels/cuda/tile.cuh"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels::cuda_tile {

/// Shared memory of rotated_kernel<T, TS>: one TS x TS tile of T, rows rotated_pitch apart.
template <class T, int TS>
constexpr std::size_t rotated_oop_smem_bytes() {
  return rotated_smem_bytes<T, TS>() / 2;
}

/// Transposes the TS x TS tile at (r0, c0) of the matrix at `in` (clipped by the matrix edge to
/// h x w) into `out`, element by element through the shared tile A (rows rotated_pitch apart),
/// lanes along the rows on both sides. The edge tiles of rotated_kernel and narrow_kernel
/// (narrow.cuh): few. Ends with a barrier.
template <class T, int TS, int NT>
__device__ __forceinline__ void rotated_tile_generic(const TiledParams& p, const char* in,
                                                     char* out, std::int64_t r0, std::int64_t c0,
                                                     T* A) {
  constexpr int PT = rotated_pitch<T, TS>();
  const int h = static_cast<int>(std::min<std::int64_t>(TS, p.rows - r0));
  const int w = static_cast<int>(std::min<std::int64_t>(TS, p.cols - c0));
#pragma unroll 1
  for (int e = threadIdx.x; e < h * w; e += NT)
    A[(e / w) * PT + e % w] =
        reinterpret_cast<const T*>(in + (r0 + e / w) * p.in_pitch_bytes)[c0 + e % w];
  __syncthreads();
#pragma unroll 1
  for (int e = threadIdx.x; e < h * w; e += NT)
    reinterpret_cast<T*>(out + (c0 + e / h) * p.out_pitch_bytes)[r0 + e % h] =
        A[(e % h) * PT + e / h];
  __syncthreads();
}

/// See the file comment. Tiles clipped by the matrix edge go element by element through the same
/// shared tile (rotated_tile_generic).
template <class T, int TS, int NT, int MINB, int HINT>
__global__ void __launch_bounds__(NT, MINB) rotated_kernel(TiledParams p) {
  constexpr int PT = rotated_pitch<T, TS>(), WARPS = NT / 32, Q = TS / 32, R = TS / WARPS;
  static_assert(TS % 32 == 0 && TS % WARPS == 0 && NT % 32 == 0, "whole rows a warp");
  extern __shared__ uint4 rotated_smem_raw[];
  T* A = reinterpret_cast<T*>(rotated_smem_raw);  // the input tile, A[r * PT + c]
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  auto rot = [lane](const char* row, int q) { return rotated_column<T, TS>(row, q, lane); };
  for_each_tile(p, TS, TS, [&](const char* in, char* out, std::int64_t r0, std::int64_t c0) {
    if (r0 + TS > p.rows || c0 + TS > p.cols) {  // clipped by the matrix edge
      rotated_tile_generic<T, TS, NT>(p, in, out, r0, c0, A);
      return;
    }
    const char* src = in + r0 * p.in_pitch_bytes + c0 * sizeof(T);  // TS input rows
    char* dst = out + c0 * p.out_pitch_bytes + r0 * sizeof(T);      // TS output rows
    T u[R][Q];
#pragma unroll
    for (int a = 0; a < R; ++a) {
      const char* row = src + (warp + a * WARPS) * p.in_pitch_bytes;
#pragma unroll
      for (int q = 0; q < Q; ++q)
        u[a][q] = load_word<HINT>(reinterpret_cast<const T*>(row) + rot(row, q));
    }
#pragma unroll
    for (int a = 0; a < R; ++a) {
      const int r = warp + a * WARPS;
#pragma unroll
      for (int q = 0; q < Q; ++q) A[r * PT + rot(src + r * p.in_pitch_bytes, q)] = u[a][q];
    }
    __syncthreads();
#pragma unroll
    for (int a = 0; a < R; ++a) {  // output row c, column e <- input (e, c)
      const int c = warp + a * WARPS;
      char* row = dst + c * p.out_pitch_bytes;
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        const int e = rot(row, q);
        reinterpret_cast<T*>(row)[e] = A[e * PT + c];
      }
    }
    __syncthreads();  // the next tile overwrites shared memory
  });
}

/// Launches rotated_kernel<T, TS, NT, MINB, HINT> on `stream`, tiles numbered as tile_of says
/// with `group` (kColumnMajor: down the tile columns). `s` must be resolved and non-empty, the
/// buffers aligned to the element.
template <class T, int TS, int NT, int MINB, int HINT>
void launch_rotated(const void* in, void* out, const TransposeShape& s, cudaStream_t stream,
                    int group) {
  launch_tiles(rotated_kernel<T, TS, NT, MINB, HINT>, "rotated_kernel", TS, TS, 0, sizeof(T), NT,
               rotated_oop_smem_bytes<T, TS>(), in, out, s, stream, group);
}

}  // namespace xpose::kernels::cuda_tile
