/// @file
/// Candidate of run 17 (kernels/NOTES.md): the geometry of the walking in-place transpose
/// (walk.cuh). Plain C++ that also compiles as device code, so the host unit test checks exactly
/// the ownership and block numbering the kernel uses.
///
/// The n x n matrix is cut into bands of h rows, R_b = [b h, b h + h). Right of its diagonal
/// block, band b's rows are cut into chunks of cw columns (cw divides h) with nominal starts
/// c = (b + 1) h, (b + 1) h + cw, ...; in row i a chunk's piece starts delta(i) elements early, on a 32-byte sector
/// (delta(i) < e, e elements a sector), so every piece is whole sectors. The upper region U_b is
/// {(i, j): i in R_b, j >= (b + 1) h - delta(i), j > i}; its mirror L_b holds rows j and columns
/// R_b. A block walks a segment of consecutive chunks of one band, at most k h columns. At each
/// chunk it reads the chunk's pieces and the L rows [c, c + cw) (whole rows of the band's
/// columns), and writes the pieces and the L rows [c - m, c + cw - m), m = e - 1, keeping the m rows and columns that
/// straddle two chunks in shared memory from one chunk to the next. So the pieces are whole
/// sectors, the L rows are written whole but for their two ends, and only the m rows at each end
/// of a segment are shared (element by element) with the neighbouring segment.
/// Segments are aligned on absolute columns: segment column s holds the chunks with nominal
/// starts in [s k h, (s + 1) k h), and blocks are numbered column by column, bands upwards.
/// What is left near the diagonal, D_b = {(i, j) in R_b x R_b, i != j, max < (b + 1) h -
/// delta(min)}, goes through one block per band.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/cuda/triangular.h"  // XPOSE_HD

namespace xpose::kernels::walk {

struct Geom {
  std::int64_t n;  ///< matrix side
  int h;           ///< band height, a multiple of cw
  int k;           ///< band heights a segment spans (>= 2)
  int e;           ///< elements a 32-byte sector
  int phase;       ///< the matrix's first element's offset from a sector, in elements (< e)
  int cw;          ///< chunk width, a multiple of e
};

XPOSE_HD std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

/// delta(i): how far row i's pieces start before the nominal chunk start (0 .. e - 1).
XPOSE_HD int delta(const Geom& g, std::int64_t i) {
  return static_cast<int>((g.phase + (i % g.e) * (g.n % g.e)) % g.e);
}

XPOSE_HD std::int64_t bands(const Geom& g) {
  return ceil_div(g.n, g.h);
}

/// Nominal chunk starts are multiples of cw below this (so that the last piece of every row
/// reaches n).
XPOSE_HD std::int64_t chunk_limit(const Geom& g) {
  return ceil_div(g.n + g.e - 1, g.cw) * g.cw;
}

/// Bands with at least one chunk: (b + 1) h < chunk_limit.
XPOSE_HD std::int64_t active_bands(const Geom& g) {
  const std::int64_t a = ceil_div(chunk_limit(g), g.h) - 1;
  const std::int64_t b = bands(g);
  return a < b ? a : b;
}

XPOSE_HD std::int64_t segment_columns(const Geom& g) {
  return active_bands(g) > 0 ? ceil_div(chunk_limit(g), static_cast<std::int64_t>(g.k) * g.h) : 0;
}

/// Bands with a chunk in segment column s: b + 1 < (s + 1) k, at most active_bands.
XPOSE_HD std::int64_t column_count(const Geom& g, std::int64_t s) {
  const std::int64_t c = (s + 1) * g.k - 1;
  const std::int64_t a = active_bands(g);
  return c < a ? c : a;
}

/// The first segment column whose count is capped by active_bands.
XPOSE_HD std::int64_t cap_column(const Geom& g) {
  return ceil_div(active_bands(g) + 1, g.k) - 1;
}

/// Blocks in segment columns before s.
XPOSE_HD std::int64_t column_start(const Geom& g, std::int64_t s) {
  const std::int64_t sc = cap_column(g);
  const std::int64_t t = s < sc ? s : sc;
  const std::int64_t tri = static_cast<std::int64_t>(g.k) * t * (t + 1) / 2 - t;
  return s <= sc ? tri : tri + (s - sc) * active_bands(g);
}

XPOSE_HD std::int64_t walk_blocks(const Geom& g) {
  return column_start(g, segment_columns(g));
}

struct Segment {
  std::int64_t band;
  std::int64_t c_first;  ///< nominal start of the first chunk
  std::int64_t c_end;    ///< nominal start past the last chunk
};

/// Block t (< walk_blocks) of the walk: segment column s, band t - column_start(s).
XPOSE_HD Segment segment_of(const Geom& g, std::int64_t t) {
  const std::int64_t sc = cap_column(g);
  std::int64_t s;
  if (t >= column_start(g, sc)) {
    s = sc + (t - column_start(g, sc)) / active_bands(g);
  } else {
    // k s (s + 1) / 2 - s <= t  <=>  k s^2 + (k - 2) s - 2 t <= 0.
    const double kk = static_cast<double>(g.k);
    const double disc = (kk - 2) * (kk - 2) + 8.0 * kk * static_cast<double>(t);
    double est = (-(kk - 2) + sqrt(disc)) / (2 * kk);
    if (est < 0) est = 0;
    s = static_cast<std::int64_t>(est);
    while (s > 0 && column_start(g, s) > t) --s;
    while (column_start(g, s + 1) <= t) ++s;
  }
  const std::int64_t b = t - column_start(g, s);
  const std::int64_t span = static_cast<std::int64_t>(g.k) * g.h;
  const std::int64_t c0 = (b + 1) * g.h;
  const std::int64_t lo = s * span;
  const std::int64_t hi = (s + 1) * span;
  const std::int64_t lim = chunk_limit(g);
  return {b, c0 > lo ? c0 : lo, hi < lim ? hi : lim};
}

/// Whether element (i, j) of the upper region (and so (j, i) of the lower) is the segment's.
XPOSE_HD bool owns(const Geom& g, const Segment& sg, std::int64_t i, std::int64_t j) {
  const std::int64_t r0 = sg.band * g.h;
  if (i < r0 || i >= r0 + g.h || i >= g.n || j >= g.n || j <= i) return false;
  const int d = delta(g, i);
  return j >= sg.c_first - d && j < sg.c_end - d;
}

/// Whether (i, j) is in the diagonal part D_b of band b (either side of the diagonal).
XPOSE_HD bool owns_diag(const Geom& g, std::int64_t b, std::int64_t i, std::int64_t j) {
  const std::int64_t r0 = b * g.h;
  const std::int64_t r1 = r0 + g.h < g.n ? r0 + g.h : g.n;
  if (i < r0 || i >= r1 || j < r0 || j >= r1 || i == j) return false;
  const std::int64_t lo = i < j ? i : j;
  const std::int64_t hi = i < j ? j : i;
  return hi < r0 + g.h - delta(g, lo);
}

}  // namespace xpose::kernels::walk
