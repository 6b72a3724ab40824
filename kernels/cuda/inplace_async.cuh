/// @file
/// Optional, sm_80 and newer: the in-place swap with asynchronous copies (cp.async) from global
/// to shared memory, for one element a word (odd n). The loads of a block's P tile pairs go
/// straight into the shared tiles (each element to its transposed slot), so they hold no
/// registers while in flight: a block's bytes in flight are bounded by shared memory only, and
/// more blocks fit on an SM than with the register-staged kernels (inplace.cuh). Where the device
/// or the build has no sm_80 image, launch_inplace_async declines and the caller runs a portable
/// kernel.
#pragma once

#include <cstdint>

#include "kernels/cuda/check.h"
#include "kernels/cuda/inplace.cuh"
#include "kernels/cuda/tile.cuh"

namespace xpose::kernels::cuda_tile {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/// Starts an asynchronous copy of N bytes (4, 8 or 16) from global `src` to shared `dst`.
template <int N>
__device__ __forceinline__ void copy_async(void* dst, const void* src) {
  const auto d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(d), "l"(src), "n"(N) : "memory");
}
__device__ __forceinline__ void copy_async_wait_all() {
  asm volatile("cp.async.wait_all;" ::: "memory");
}

/// Copies the tile at `src` (rows `pitch` bytes apart) into shared memory in output order, one
/// element per copy, only elements with row < rows_left and col < cols_left.
template <class C>
__device__ __forceinline__ void load_tile_async(const char* __restrict__ src, std::int64_t pitch,
                                                std::int64_t rows_left, std::int64_t cols_left,
                                                typename C::Word* __restrict__ smem) {
#pragma unroll
  for (int q = 0; q < C::TH * C::TW / C::NT; ++q) {
    const int idx = threadIdx.x + q * C::NT;
    const int i = idx / C::TW;  // input row in the tile
    const int j = idx % C::TW;  // input column = output row
    if (i < rows_left && j < cols_left)
      copy_async<C::S>(smem + C::slot(j, i), src + i * pitch + j * C::S);
  }
}
#endif

/// P consecutive pairs a block (order Order, e.g. grouped), every load of the block's 2P tiles an
/// asynchronous copy into shared memory issued before the first wait.
template <class C, PairOrder Order, int P>
__global__ void __launch_bounds__(C::NT, C::MINB) inplace_async_kernel(InplaceParams p) {
  static_assert(C::TH == C::TW && C::V == 1 && (C::S == 4 || C::S == 8 || C::S == 16),
                "square tiles of one element a word, 4, 8 or 16 bytes");
  static_assert((C::TH * C::TW) % C::NT == 0, "whole rounds of threads");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  extern __shared__ uint4 inplace_async_smem_raw[];
  auto* smem = reinterpret_cast<typename C::Word*>(inplace_async_smem_raw);
  constexpr int T = C::TH;
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    char* m = p.buf + b * p.stride_bytes;
    for (std::uint64_t k0 = static_cast<std::uint64_t>(blockIdx.x) * P; k0 < p.blocks;
         k0 += static_cast<std::uint64_t>(gridDim.x) * P) {
      std::int64_t r0[P], c0[P];
      bool live[P];
#pragma unroll
      for (int i = 0; i < P; ++i) {
        live[i] = k0 + i < p.blocks;
        tri::TilePair tp{0, 0};
        if (live[i]) pair_of<Order>(p, k0 + i, tp);
        r0[i] = static_cast<std::int64_t>(tp.row) * T;
        c0[i] = static_cast<std::int64_t>(tp.col) * T;
        if (!live[i]) continue;
        auto* sa = smem + (2 * i) * C::WORDS;
        load_tile_async<C>(m + r0[i] * p.pitch_bytes + c0[i] * C::S, p.pitch_bytes, p.n - r0[i],
                           p.n - c0[i], sa);
        if (r0[i] != c0[i])
          load_tile_async<C>(m + c0[i] * p.pitch_bytes + r0[i] * C::S, p.pitch_bytes,
                             p.n - c0[i], p.n - r0[i], sa + C::WORDS);
      }
      copy_async_wait_all();
      __syncthreads();
#pragma unroll
      for (int i = 0; i < P; ++i) {
        if (!live[i]) continue;
        const auto* sa = smem + (2 * i) * C::WORDS;
        const bool full = c0[i] + T <= p.n;
        char* upper = m + r0[i] * p.pitch_bytes + c0[i] * C::S;
        char* lower = m + c0[i] * p.pitch_bytes + r0[i] * C::S;
        store_tile<C>(lower, p.pitch_bytes, p.n - c0[i], p.n - r0[i], full, sa);
        if (r0[i] != c0[i])
          store_tile<C>(upper, p.pitch_bytes, p.n - r0[i], p.n - c0[i], full, sa + C::WORDS);
      }
      __syncthreads();  // the next pairs overwrite shared memory
    }
  }
#else
  __trap();  // never launched: launch_inplace_async checks for an sm_80 image first
#endif
}

/// Whether `kernel` has an sm_80 (or newer) image for the current device, which must be sm_80 or
/// newer itself.
inline bool async_copy_runs_here(const void* kernel) {
  int device = 0, major = 0;
  cudaFuncAttributes attr{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaFuncGetAttributes(&attr, kernel) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return major >= 8 && attr.binaryVersion >= 80;
}

/// Launches inplace_async_kernel<C, Order, P> over `batch` dense n x n matrices at `buf` on
/// `stream`; false, launching nothing, where it cannot run (no sm_80 image or device).
template <class C, PairOrder Order, int P>
bool launch_inplace_async(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream,
                          int group) {
  auto* kernel = inplace_async_kernel<C, Order, P>;
  if (!async_copy_runs_here(reinterpret_cast<const void*>(kernel))) return false;
  launch_inplace_with<C, Order, P>(kernel, "inplace_async_kernel", buf, n, batch, stream, 0,
                                   group);
  return true;
}

}  // namespace xpose::kernels::cuda_tile
