/// @file
/// FFTW-MPI's block distribution of n items over P ranks: blocks of ceil(n/P), so trailing
/// ranks may hold fewer items or none. Data laid out for fftw_mpi_local_size_2d_transposed (with
/// the default block sizes) is handed to xpose as is.
#pragma once

#include <algorithm>
#include <cstdint>

namespace xpose {

struct BlockDistribution {
  std::int64_t total = 0;  ///< n
  int parts = 1;           ///< P
  std::int64_t block = 0;  ///< ceil(n / P)

  BlockDistribution() = default;
  BlockDistribution(std::int64_t n, int p) : total(n), parts(p), block(p > 0 ? (n + p - 1) / p : 0) {}

  /// First item of part p.
  std::int64_t offset(int p) const { return std::min(total, block * p); }
  /// Number of items of part p (0 for trailing empty parts).
  std::int64_t count(int p) const { return std::max<std::int64_t>(0, std::min(total - offset(p), block)); }
};

}  // namespace xpose
