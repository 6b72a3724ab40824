/// @file
/// The data the GPU benchmarks fill and check on the device: element `index` of an S-byte type
/// is a fixed function of (seed, index), so every output element can be checked against the
/// input element it must hold without a host copy. Used by bench_kernels and
/// bench_kernel_counters.
#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/cuda/tile.cuh"

namespace xpose::bench {

using kernels::cuda_tile::Bytes;

__host__ __device__ inline std::uint32_t mix32(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return static_cast<std::uint32_t>(x);
}

// Word w of element `index`. Each 32-bit word is a float in +-[1, 2): so every 4-, 8- and 16-byte
// element is a normal float, double, complex64 or complex128, and geam (alpha 1, beta 0) must
// reproduce it bit for bit. Never zero, fresh per seed.
__device__ inline std::uint32_t pattern_word(std::uint64_t seed, std::uint64_t index, int w) {
  const std::uint32_t h = mix32(seed * 0x9e3779b97f4a7c15ULL + index * 4 + w);
  return (h & 0x807fffffu) | 0x3f800000u;
}

template <int S>
__device__ inline void pattern_element(std::uint64_t seed, std::uint64_t index,
                                       unsigned char* out) {
  if (S >= 4) {
    for (int w = 0; w < S / 4; ++w) {
      const std::uint32_t v = pattern_word(seed, index, w);
      memcpy(out + 4 * w, &v, 4);
    }
  } else {
    const std::uint32_t v = mix32(seed * 0x9e3779b97f4a7c15ULL + index) | 0x01010101u;
    memcpy(out, &v, S);
  }
}

template <int S>
__global__ void fill_kernel(unsigned char* buf, std::uint64_t count, std::uint64_t seed) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    typename Bytes<S>::type v;
    pattern_element<S>(seed, i, reinterpret_cast<unsigned char*>(&v));
    reinterpret_cast<typename Bytes<S>::type*>(buf)[i] = v;
  }
}

// Checks every element of `batch` consecutive rows x cols results: element (r, c) of matrix b
// must hold the pattern of input element (c, r) of input matrix b when `transposed` (the inputs
// were cols x rows, consecutive too), else of (r, c).
template <int S>
__global__ void verify_kernel(const unsigned char* buf, std::int64_t rows, std::int64_t cols,
                              bool transposed, std::uint64_t seed, unsigned long long* bad,
                              unsigned long long* first_bad, std::int64_t batch = 1) {
  const std::uint64_t one = static_cast<std::uint64_t>(rows) * cols;
  const std::uint64_t count = one * static_cast<std::uint64_t>(batch);
  unsigned long long local = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const std::uint64_t m = i / one, j = i % one;
    const std::uint64_t r = j / cols, c = j % cols;
    const std::uint64_t src = m * one + (transposed ? c * rows + r : j);
    typename Bytes<S>::type want, got;
    pattern_element<S>(seed, src, reinterpret_cast<unsigned char*>(&want));
    got = reinterpret_cast<const typename Bytes<S>::type*>(buf)[i];
    bool same = true;
    for (int k = 0; k < S; ++k)
      same &= reinterpret_cast<const unsigned char*>(&want)[k] ==
              reinterpret_cast<const unsigned char*>(&got)[k];
    if (!same) {
      ++local;
      atomicMin(first_bad, static_cast<unsigned long long>(i));
    }
  }
  if (local) atomicAdd(bad, local);
}

}  // namespace xpose::bench
