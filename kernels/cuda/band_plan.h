/// @file
/// Candidate of run 16 (kernels/NOTES.md): the schedule of the banded in-place transpose
/// (band.cuh). Plain C++ that also compiles as device code, so the host unit test runs exactly
/// the schedule and the scratch addressing the kernel runs.
///
/// The n x n matrix is cut into bands of h rows (and, mirrored, h columns). Band b owns rows and
/// columns [r0, r1), r0 = b h. Its diagonal block is transposed on its own (tasks D). Right of it,
/// the row band's columns [r1, n) are cut into chunks of TILE columns, x0 = r1, r1 + TILE, ...;
/// in row y a chunk's piece starts mis(y) elements early, on a 32-byte sector, as the skewed
/// out-of-place kernel's pieces do (skew.cuh). For each chunk q:
///   S(q, k): TILE rows y0 = r0 + k TILE .. of the row band: saves the old piece to a ring buffer
///            (scratch), then writes the piece from the column band (rows x, columns y), which
///            nobody has touched yet: an out-of-place skewed tile, in place.
///   T(q, k): rows x in [x0, x0 + TILE) of the column band: writes them from the saved pieces,
///            with the band's inner tile boundaries skewed onto sectors too.
/// T(q, .) needs S(q, .) and S(q + 1, .) done (the saved columns of a row straddle two chunks,
/// and both read the rows T overwrites). The ring holds RING chunks; S(q) reuses the columns
/// that T(q - RING) and T(q - RING - 1) read. Blocks take tickets in the order of `tasks`, and a
/// task waits only on tasks with earlier tickets, so the waits cannot deadlock.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/cuda/triangular.h"  // XPOSE_HD

namespace xpose::kernels::band {

enum TaskType : int { kDiag = 0, kSave = 1, kTake = 2 };

/// kDiag: a = band, b <= c: the tile pair (b, c) of the band's diagonal block.
/// kSave / kTake: a = chunk, b = k (TILE-row block of the band).
struct Task {
  int type, a, b, c;
};

struct Chunk {
  int band;
  int x0;
  int next;    ///< 1: chunk a + 1 is in the same band
  int has_t;   ///< 1: x0 < n, so T tasks exist
};

/// Column of the ring (scratch row y - r0) that holds element x of row y for chunk q, where
/// dx = x - x0(q) and mis = mis(y). S(q) stores its piece (dx from -mis) to columns
/// [slot TILE, slot TILE + TILE) of its slot, two whole 128-byte lines for 4-byte elements;
/// the piece of chunk q + 1 follows on, so T(q) reads one contiguous run, wrapping at the
/// ring's end. Of slot q's two lines, T(q) alone reads the second; the first also T(q - 1),
/// its first mis elements.
XPOSE_HD std::int64_t ring_col(int q, int ring, int tile, std::int64_t dx, int mis) {
  std::int64_t u = static_cast<std::int64_t>(q % ring) * tile + dx + mis;
  if (u >= static_cast<std::int64_t>(ring) * tile) u -= static_cast<std::int64_t>(ring) * tile;
  return u;
}

/// The counts a task waits for. With DISCARD, the last T block of chunk q to finish waits for
/// T(q - 1) (same band), drops slot q's lines from L2 without writing them back
/// (discard.global.L2) and then counts once more (K + 1): the ring's dead lines never reach
/// DRAM. S(q) then waits for that step of chunk q - RING instead of its T blocks.
XPOSE_HD int save_wait_count(bool discard, int kb) { return discard ? kb + 1 : kb; }

/// Row blocks (of TILE rows) of band b.
XPOSE_HD int band_blocks(std::int64_t n, int h, int b, int tile) {
  const std::int64_t r0 = static_cast<std::int64_t>(b) * h;
  const std::int64_t r1 = r0 + h < n ? r0 + h : n;
  return static_cast<int>((r1 - r0 + tile - 1) / tile);
}

struct Plan {
  std::vector<Chunk> chunks;
  std::vector<Task> diag;   ///< the kDiag tasks (their own launch, first)
  std::vector<Task> tasks;  ///< kSave and kTake, in ticket order
};

/// Whether bands of h rows work with pieces of `tile` elements shifted by up to m (= PH - 1):
/// h a multiple of PH (chunks start on sectors) and h + m <= K tile, K = ceil(h / tile), so that
/// K pieces, each starting up to m early, still cover the band's width in every column-band row
/// (h = 248 or 504 for f32: 4 or 8 pieces of 64).
inline bool band_height_ok(int h, int tile, int m) {
  const int k = (h + tile - 1) / tile;
  return h > 0 && h % (m + 1) == 0 && h + m <= k * tile;
}

/// The schedule for an n x n matrix: bands of h rows (band_height_ok), chunks of `tile`
/// columns, pieces shifted by up to m elements (PH - 1), T(q) issued `lag` (>= 1) chunks after
/// S(q); the kernel's ring must hold more than lag + 1 chunks.
inline Plan make_plan(std::int64_t n, int h, int tile, int m, int lag) {
  Plan p;
  const int bands = static_cast<int>((n + h - 1) / h);
  for (int b = 0; b < bands; ++b) {
    const std::int64_t r1 = std::int64_t(b) * h + h < n ? std::int64_t(b) * h + h : n;
    const int first = static_cast<int>(p.chunks.size());
    for (std::int64_t x0 = r1; x0 <= n - 1 + m; x0 += tile)
      p.chunks.push_back(Chunk{b, static_cast<int>(x0), 0, x0 < n ? 1 : 0});
    for (int q = first; q + 1 < static_cast<int>(p.chunks.size()); ++q) p.chunks[q].next = 1;
    const int kb = band_blocks(n, h, b, tile);
    for (int k1 = 0; k1 < kb; ++k1)
      for (int k2 = k1; k2 < kb; ++k2) p.diag.push_back(Task{kDiag, b, k1, k2});
  }
  const int q_count = static_cast<int>(p.chunks.size());
  for (int t = 0; t < q_count + lag; ++t) {
    if (t < q_count) {
      const int kb = band_blocks(n, h, p.chunks[t].band, tile);
      for (int k = 0; k < kb; ++k) p.tasks.push_back(Task{kSave, t, k, 0});
    }
    const int q = t - lag;
    if (q >= 0 && q < q_count && p.chunks[q].has_t) {
      const int kb = band_blocks(n, h, p.chunks[q].band, tile);
      for (int k = 0; k < kb; ++k) p.tasks.push_back(Task{kTake, q, k, 0});
    }
  }
  return p;
}

}  // namespace xpose::kernels::band
