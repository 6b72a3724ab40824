/// @file
/// The out-of-place transpose on the traffic of inplace_rotated_kernel (inplace.cuh): square
/// TS x TS tiles, one element an access, the input tile's rows and the output piece's rows each
/// read or written by warp accesses rotated onto 128-byte lines (lane l takes element
/// (s + 32 q + l) mod TS of a row, s the row's first line boundary), one shared tile with rows
/// TS + 1 apart between them. A candidate for layouts whose rows are off sectors (kernels/NOTES.md,
/// run 19), where the library runs the skewed kernel.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/check.h"
#include "kernels/cuda/tile.cuh"
#include "kernels/transpose.h"

namespace xpose::kernels::cuda_tile {

/// Shared memory of rotated_kernel<T, TS, P>: P TS x TS tiles of T, rows TS + 1 apart.
template <class T, int TS, int P = 1>
constexpr std::size_t rotated_oop_smem_bytes() {
  return static_cast<std::size_t>(P * TS * (TS + 1)) * sizeof(T);
}

/// See the file comment. A block takes P consecutive tiles (tile_of order) and issues all their
/// loads before the first shared store. Tiles clipped by the matrix edge go element by element
/// through the first shared tile, lanes along the rows on both sides.
template <class T, int TS, int NT, int MINB, int HINT, int P = 1>
__global__ void __launch_bounds__(NT, MINB) rotated_kernel(TiledParams p) {
  constexpr int PT = TS + 1, WARPS = NT / 32, Q = TS / 32, R = TS / WARPS;
  constexpr int LINE = 128 / sizeof(T) > 0 ? 128 / sizeof(T) : 1;  // elements a 128-byte line
  static_assert(TS % 32 == 0 && TS % WARPS == 0 && NT % 32 == 0, "whole rows a warp");
  extern __shared__ uint4 rotated_smem_raw[];
  T* A = reinterpret_cast<T*>(rotated_smem_raw);  // tile i at A + i * TS * PT, [r * PT + c]
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  auto rot = [lane](const char* row, int q) {
    const int off = static_cast<int>((reinterpret_cast<std::uintptr_t>(row) / sizeof(T)) % LINE);
    const int e = (LINE - off) % LINE + q * 32 + lane;
    return e >= TS ? e - TS : e;
  };
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    const char* in = p.in + b * p.in_stride_bytes;
    char* out = p.out + b * p.out_stride_bytes;
    for (std::uint64_t t0 = static_cast<std::uint64_t>(blockIdx.x) * P; t0 < p.tiles;
         t0 += static_cast<std::uint64_t>(gridDim.x) * P) {
      std::int64_t r0[P], c0[P];
      bool full = true;
#pragma unroll
      for (int i = 0; i < P; ++i) {
        std::uint32_t ty = 0, tx = 0;
        const bool live = t0 + i < p.tiles;
        if (live) tile_of(p, static_cast<std::uint32_t>(t0 + i), ty, tx);
        r0[i] = static_cast<std::int64_t>(ty) * TS;
        c0[i] = static_cast<std::int64_t>(tx) * TS;
        full = full && live && r0[i] + TS <= p.rows && c0[i] + TS <= p.cols;
      }
      if (!full) {  // one tile after another, element by element (edges: few)
#pragma unroll 1
        for (int i = 0; i < P && t0 + i < p.tiles; ++i) {
          const int h = static_cast<int>(std::min<std::int64_t>(TS, p.rows - r0[i]));
          const int w = static_cast<int>(std::min<std::int64_t>(TS, p.cols - c0[i]));
#pragma unroll 1
          for (int e = threadIdx.x; e < h * w; e += NT)
            A[(e / w) * PT + e % w] =
                reinterpret_cast<const T*>(in + (r0[i] + e / w) * p.in_pitch_bytes)[c0[i] + e % w];
          __syncthreads();
#pragma unroll 1
          for (int e = threadIdx.x; e < h * w; e += NT)
            reinterpret_cast<T*>(out + (c0[i] + e / h) * p.out_pitch_bytes)[r0[i] + e % h] =
                A[(e % h) * PT + e / h];
          __syncthreads();
        }
        continue;
      }
      T u[P][R][Q];
#pragma unroll
      for (int i = 0; i < P; ++i) {
        const char* src = in + r0[i] * p.in_pitch_bytes + c0[i] * sizeof(T);
#pragma unroll
        for (int a = 0; a < R; ++a) {
          const char* row = src + (warp + a * WARPS) * p.in_pitch_bytes;
#pragma unroll
          for (int q = 0; q < Q; ++q)
            u[i][a][q] = load_word<HINT>(reinterpret_cast<const T*>(row) + rot(row, q));
        }
      }
#pragma unroll
      for (int i = 0; i < P; ++i) {
        const char* src = in + r0[i] * p.in_pitch_bytes + c0[i] * sizeof(T);
#pragma unroll
        for (int a = 0; a < R; ++a) {
          const int r = warp + a * WARPS;
#pragma unroll
          for (int q = 0; q < Q; ++q)
            A[i * TS * PT + r * PT + rot(src + r * p.in_pitch_bytes, q)] = u[i][a][q];
        }
      }
      __syncthreads();
#pragma unroll
      for (int i = 0; i < P; ++i) {
        char* dst = out + c0[i] * p.out_pitch_bytes + r0[i] * sizeof(T);  // TS output rows
#pragma unroll
        for (int a = 0; a < R; ++a) {  // output row c, column e <- input (e, c)
          const int c = warp + a * WARPS;
          char* row = dst + c * p.out_pitch_bytes;
#pragma unroll
          for (int q = 0; q < Q; ++q) {
            const int e = rot(row, q);
            reinterpret_cast<T*>(row)[e] = A[i * TS * PT + e * PT + c];
          }
        }
      }
      __syncthreads();  // the next tiles overwrite shared memory
    }
  }
}

/// Whether the current device gives one block of rotated_kernel<T, TS> its shared memory.
template <class T, int TS, int P = 1>
bool rotated_oop_fits_device() {
  int device = 0, optin = 0;
  XPOSE_CHECK_CUDA(cudaGetDevice(&device));
  XPOSE_CHECK_CUDA(
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return static_cast<std::size_t>(optin) >= rotated_oop_smem_bytes<T, TS, P>();
}

/// Launches rotated_kernel<T, TS, NT, MINB, HINT, P> on `stream`, tiles numbered as tile_of
/// says with `group` (kColumnMajor: down the tile columns). `s` must be resolved and non-empty,
/// the buffers aligned to the element.
template <class T, int TS, int NT, int MINB, int HINT, int P = 1>
void launch_rotated(const void* in, void* out, const TransposeShape& s, cudaStream_t stream,
                    int group) {
  constexpr std::size_t smem = rotated_oop_smem_bytes<T, TS, P>();
  auto* kernel = rotated_kernel<T, TS, NT, MINB, HINT, P>;
  const TiledParams p = tiled_params(in, out, s, sizeof(T), (s.cols + TS - 1) / TS,
                                     (s.rows + TS - 1) / TS, group);
  const auto gx = static_cast<unsigned>(std::min<std::int64_t>((static_cast<std::int64_t>(p.tiles) + P - 1) / P, 0x7fffffff));
  const auto gy = static_cast<unsigned>(std::min<std::int64_t>(s.batch, 65535));
  cuda_detail::allow_dynamic_smem(kernel, smem);
  kernel<<<dim3(gx, gy), NT, smem, stream>>>(p);
  XPOSE_CHECK_CUDA_LAUNCH("rotated_kernel");
}

}  // namespace xpose::kernels::cuda_tile
