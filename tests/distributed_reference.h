/// @file
/// The reference data of the DistributedTranspose tests (host: tests/mpi, device: tests/gpu):
/// rank helpers, a global input whose every byte depends on its indices and a seed, and a
/// check of a rank's output against that formula, element by element.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "xpose/distributed_transpose.h"

namespace xpose::test {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

inline int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

inline std::int64_t sum_over_ranks(std::int64_t v) {
  std::int64_t s = 0;
  MPI_Allreduce(&v, &s, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

/// Element (b, i, j) of the global input: every byte depends on all three indices and on `seed`.
inline void element(std::byte* dst, std::size_t s, std::int64_t b, std::int64_t i, std::int64_t j,
                    std::uint64_t seed) {
  std::uint64_t v = (static_cast<std::uint64_t>(b) * 0x100000001B3ull) ^
                    (static_cast<std::uint64_t>(i) << 32) ^ static_cast<std::uint64_t>(j) ^ seed;
  v *= 0x9E3779B97F4A7C15ull;
  v ^= v >> 29;
  for (std::size_t k = 0; k < s; ++k) dst[k] = static_cast<std::byte>((v >> (8 * (k % 8))) + 7 * k);
}

/// This rank's input slab of `plan`, followed by `extra_bytes` of 0xEE (room a caller may need).
inline std::vector<std::byte> make_input(const DistributedTranspose& plan, std::size_t extra_bytes,
                                         std::uint64_t seed) {
  const std::size_t s = plan.element_type().size;
  const std::int64_t n = plan.local_input_rows(), C = plan.cols();
  std::vector<std::byte> in(plan.local_input_bytes() + extra_bytes, std::byte{0xEE});
  for (std::int64_t b = 0; b < plan.batch(); ++b)
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < C; ++j)
        element(&in[((b * n + i) * C + j) * s], s, b, plan.input_row_offset() + i, j, seed);
  return in;
}

/// Wrong elements of this rank's output, checked against the input formula.
inline std::int64_t count_wrong(const DistributedTranspose& plan, const std::byte* out,
                                std::uint64_t seed) {
  const std::size_t s = plan.element_type().size;
  const std::int64_t m = plan.local_output_rows(), R = plan.rows();
  std::vector<std::byte> want(s);
  std::int64_t wrong = 0;
  for (std::int64_t b = 0; b < plan.batch(); ++b)
    for (std::int64_t j = 0; j < m; ++j)
      for (std::int64_t i = 0; i < R; ++i) {
        element(want.data(), s, b, i, plan.output_row_offset() + j, seed);
        wrong += std::memcmp(want.data(), out + ((b * m + j) * R + i) * s, s) != 0;
      }
  return wrong;
}

}  // namespace xpose::test
