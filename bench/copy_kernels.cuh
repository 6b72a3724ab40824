/// @file
/// Copy kernels of 16-byte words, the yardsticks the transposes are held against:
/// bench_copy_ceiling times them beside cudaMemcpy, bench_kernel_counters reads the counters of
/// the grid-stride one.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/cuda/tile.cuh"

namespace xpose::bench {

/// Grid-stride, one 16-byte word per thread per step.
__global__ void copy_stride(const uint4* __restrict__ in, uint4* __restrict__ out,
                            std::int64_t words) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < words;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

/// One block per chunk of U x blockDim words; every load of a thread issued before its stores.
/// HINT: the cache hints of cuda_tile::TileConfig (kLoadStreaming, kStoreStreaming).
template <int U, int HINT>
__global__ void copy_unrolled(const uint4* __restrict__ in, uint4* __restrict__ out,
                              std::int64_t words) {
  const std::int64_t base = blockIdx.x * std::int64_t(blockDim.x) * U + threadIdx.x;
  uint4 v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::int64_t i = base + std::int64_t(u) * blockDim.x;
    if (i < words) v[u] = kernels::cuda_tile::load_word<HINT>(in + i);
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::int64_t i = base + std::int64_t(u) * blockDim.x;
    if (i < words) kernels::cuda_tile::store_word<HINT>(out + i, v[u]);
  }
}

}  // namespace xpose::bench
