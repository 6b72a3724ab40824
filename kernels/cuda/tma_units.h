/// @file
/// Which V x V block of a tile each thread of the TMA transpose (tma.cuh) moves, and where its
/// 16-byte chunks sit in the 128-byte-swizzled shared tile. Plain C++ that also compiles as device
/// code, so the host unit test (TmaUnits in tests/unit/test_kernels_cpu.cpp) checks exactly what
/// the kernel runs: every block taken once, and the 8 threads of each shared-memory phase on 8
/// distinct 16-byte bank groups, on the read and on the write.
#pragma once

#if defined(__CUDACC__)
#define XPOSE_TMA_HD __host__ __device__ __forceinline__
#else
#define XPOSE_TMA_HD inline
#endif

namespace xpose::kernels::tma_units {

/// Block u (0 <= u < 64 * KC * KR) of a tile: rb indexes groups of V input rows (0 .. 8 KR - 1),
/// cb 16-byte chunks of an input row (0 .. 8 KC - 1). Within each run of 64 blocks, block
/// j + 8 s takes the diagonal s: (rb, cb) = (j + s mod 8, j) for V = 2, 4 and (j, s) for V = 1.
XPOSE_TMA_HD void unit(int u, int kr, int v, int& rb, int& cb) {
  const int j = u & 7, s = (u >> 3) & 7, g = u >> 6;
  rb = 8 * (g % kr) + (v == 1 ? j : ((j + s) & 7));
  cb = 8 * (g / kr) + (v == 1 ? s : j);
}

/// Byte offset of chunk `chunk` (0..7) of row `row` in a box of 128-byte rows that starts on a
/// 1024-byte boundary, under the TMA's 128-byte swizzle.
XPOSE_TMA_HD int swizzled(int row, int chunk) {
  return row * 128 + 16 * (chunk ^ (row & 7));
}

}  // namespace xpose::kernels::tma_units
