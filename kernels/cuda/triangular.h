/// @file
/// Block numbering of the in-place square transpose (Gholami & Natarajan, seed 002): the T(T+1)/2
/// tile pairs (I, J), I <= J, of a T x T tile grid get one block each. Plain C++ that also
/// compiles as device code, so the host unit tests check exactly what the kernel runs.
#pragma once

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define XPOSE_HD __host__ __device__ __forceinline__
#else
#define XPOSE_HD inline
#endif

namespace xpose::kernels::tri {

/// Number of tile pairs on or above the diagonal of a T x T tile grid.
XPOSE_HD std::uint64_t pair_count(std::uint64_t t) {
  return t * (t + 1) / 2;
}

/// First index of band d, where band d holds the T - d pairs (i, i + d). The numbering runs
/// band by band: band 0 is the diagonal, band 1 the first superdiagonal, and so on.
XPOSE_HD std::uint64_t band_start(std::uint64_t t, std::uint64_t d) {
  return d * (2 * t + 1 - d) / 2;
}

/// The band d of index k (< pair_count(t)): the largest d with band_start(t, d) <= k. Valid for
/// t < 2^31. A double sqrt of the exact integer discriminant gives the estimate; the loops fix
/// the last unit that rounding can get wrong, so the result is exact.
XPOSE_HD std::uint64_t band_of(std::uint64_t t, std::uint64_t k) {
  // band_start(d) <= k  <=>  d^2 - (2t+1) d + 2k >= 0, so d <= ((2t+1) - sqrt((2t+1)^2 - 8k)) / 2.
  const std::uint64_t b = 2 * t + 1;
  const std::uint64_t disc = b * b - 8 * k;  // > 0 because k < t(t+1)/2
  const double root = sqrt(static_cast<double>(disc));
  double est = (static_cast<double>(b) - root) * 0.5;
  if (est < 0.0) est = 0.0;
  std::uint64_t d = static_cast<std::uint64_t>(est);
  if (d > t - 1) d = t - 1;
  while (d > 0 && band_start(t, d) > k) --d;
  while (d + 1 < t && band_start(t, d + 1) <= k) ++d;
  return d;
}

/// A tile pair: the block swaps tile (row, col) with tile (col, row); row <= col.
struct TilePair {
  std::uint64_t row;
  std::uint64_t col;
};

/// Staggered order (figure 1-d of seed 002): index k walks down the bands, so consecutive
/// blocks take (i, i+d), (i+1, i+1+d), ...: each one a tile row and a tile column further on,
/// and their mirror tiles likewise, which spreads neighbouring blocks over memory channels.
XPOSE_HD TilePair staggered_pair(std::uint64_t t, std::uint64_t k) {
  const std::uint64_t d = band_of(t, k);
  const std::uint64_t i = k - band_start(t, d);
  return {i, i + d};
}

/// Row-wise triangular order (figure 1-b): row r holds (r, r), (r, r+1), ..., (r, T-1).
/// Neighbouring blocks read neighbouring tiles of one row but write tiles one tile row apart.
XPOSE_HD TilePair row_pair(std::uint64_t t, std::uint64_t k) {
  const std::uint64_t r = band_of(t, k);  // row r starts at the same offset as band r
  return {r, r + (k - band_start(t, r))};
}

/// Interleaved row-wise order: the row-wise order's pair numbers cut into s runs of
/// ceil(P / s) (P = pair_count(t)), and block k takes number (k mod s) * run + k / s, so s
/// consecutive blocks come from s places of the triangle far apart, each walking its own tile
/// row. Their mirror tiles sit in s tile columns instead of one: on pitches where rows at one
/// column offset share a DRAM stack (rows 5 x 64 KiB apart on an H100 80 GB) the row-wise order's mirror
/// tiles of a tile row all sit on one. s * run block numbers; the last s * run - P are idle.
XPOSE_HD std::uint64_t interleaved_blocks(std::uint64_t t, std::uint64_t s) {
  return (pair_count(t) + s - 1) / s * s;
}
/// The pair of block k (< interleaved_blocks(t, s)) in the interleaved order; false where k is
/// one of the idle numbers past the last pair.
XPOSE_HD bool interleaved_pair(std::uint64_t t, std::uint64_t s, std::uint64_t k, TilePair& tp) {
  const std::uint64_t count = pair_count(t);
  const std::uint64_t run = (count + s - 1) / s;
  const std::uint64_t q = (k % s) * run + k / s;
  if (q >= count) return false;
  tp = row_pair(t, q);
  return true;
}

/// Grouped triangular order: the rows are taken G at a time (the last group may have fewer), and
/// inside a group column by column, so consecutive blocks take (i, j), (i+1, j), ... (i+G-1, j):
/// their mirror tiles (j, i), (j, i+1), ... sit side by side in one tile row, and the pieces
/// they write into each output row meet while both are in flight. Group rows g0 .. g0+R-1 start
/// at index band_start(t, g0) (as row g0 does in the row-wise order); inside a group, the first
/// R-1 columns form a triangle (column g0+c holds rows g0 .. g0+c), the rest full columns of R.
XPOSE_HD TilePair grouped_pair(std::uint64_t t, std::uint64_t g, std::uint64_t k) {
  const std::uint64_t g0 = band_of(t, k) / g * g;  // first row of k's group
  const std::uint64_t q = k - band_start(t, g0);
  const std::uint64_t rows = t - g0 < g ? t - g0 : g;
  const std::uint64_t tri_count = rows * (rows - 1) / 2;
  if (q < tri_count) {
    std::uint64_t c = static_cast<std::uint64_t>((sqrt(8.0 * static_cast<double>(q) + 1.0) - 1.0) * 0.5);
    while (c > 0 && c * (c + 1) / 2 > q) --c;
    while ((c + 1) * (c + 2) / 2 <= q) ++c;
    return {g0 + (q - c * (c + 1) / 2), g0 + c};
  }
  const std::uint64_t q2 = q - tri_count;
  return {g0 + q2 % rows, g0 + rows - 1 + q2 / rows};
}

/// Whether the p pairs k0 .. k0 + p - 1 of the grouped order (g rows a group) are (I, J) ..
/// (I + p - 1, J) with I + p - 1 < J: one tile column, consecutive rows, none on the diagonal.
/// Sets `first` to pair k0 when true. The pairs of one column come in row order, across groups
/// too, so a window with first and last pair in one column and p - 1 rows apart holds nothing
/// else (tested against every pair of the window in GroupedColumnRun).
XPOSE_HD bool grouped_column_run(std::uint64_t t, std::uint64_t g, std::uint64_t p,
                                 std::uint64_t k0, TilePair& first) {
  TilePair last{0, 0};
  first = {0, 0};
  const bool live = p > 0 && k0 + p <= pair_count(t);
  if (live) {
    first = grouped_pair(t, g, k0);
    last = grouped_pair(t, g, k0 + p - 1);
  }
  return live && last.col == first.col && last.row == first.row + (p - 1) && last.row < first.col;
}

}  // namespace xpose::kernels::tri
