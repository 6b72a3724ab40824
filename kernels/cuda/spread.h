/// @file
/// The spread order of tile rows (TiledParams::spread): plain C++ that also compiles as
/// device code, so the host unit tests check exactly what the kernels run.
#pragma once

#include <cstdint>

#if !defined(XPOSE_HD)
#if defined(__CUDACC__)
#define XPOSE_HD __host__ __device__ __forceinline__
#else
#define XPOSE_HD inline
#endif
#endif

namespace xpose::kernels::cuda_tile {

/// Row l of the order of `rows` tile rows dealt over `s` runs in turn: the tile rows are cut into
/// s runs of consecutive rows (the first rows mod s runs one longer), and l takes row l / s of
/// run l mod s (the last, partial round only the longer runs). A bijection on [0, rows), so that
/// consecutive l are rows / s apart: blocks that follow each other down a column of tiles write
/// output pieces far apart along the same output rows. s >= 1 (1: the identity).
XPOSE_HD std::uint32_t spread_row(std::uint32_t l, std::uint32_t rows, std::uint32_t s) {
  const std::uint32_t base = rows / s, longer = rows - base * s;
  std::uint32_t k, j;
  if (l < base * s) {
    k = l / s;
    j = l - k * s;
  } else {
    k = base;
    j = l - base * s;
  }
  return j * base + (j < longer ? j : longer) + k;
}

}  // namespace xpose::kernels::cuda_tile
