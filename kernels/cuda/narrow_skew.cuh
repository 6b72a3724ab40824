/// @file
/// 1- and 2-byte elements where the output rows are off 32-byte sectors (out of place): the
/// narrow kernel's aligned 4-byte words (narrow.cuh) with the skewed kernel's output pieces
/// (skew.cuh), so that no output word or sector is written in part.
///
/// The narrow kernel writes each output row's TS-element piece from where the tile starts: on a
/// row off 4 bytes the piece's first and last words are shared with the neighbouring tiles and
/// written a byte or two at a time, and on a row off 32 bytes its first and last sectors are
/// completed by another block later. Both cost: u8 16411² ran at 0.75 x memcpy against 0.88 for
/// 16384x16411, whose output rows are aligned (H100).
///
/// Here, as in skew.cuh, output row c's piece of a tile starts on a 32-byte boundary: it covers
/// input rows [r0 - m_c, r0 + TH - m_c), m_c < 32 / S the row's offset from its sector in
/// elements, so a block reads the M = 32 / S input rows above its own as well (the block above
/// read them just before: L2 hits).
///  - Loads: a warp reads each input row piece as the aligned words that hold it and
///    funnel-shifts neighbouring lanes' words into the piece's own words, as NarrowRow does
///    (written out here: the same loads through NarrowRow's methods ran 2-6 % slower). A lane
///    holds the same word of E = 4 / S consecutive rows, transposes that E x E block of elements
///    with byte permutes, and stores the E words, one per tile column, to shared memory.
///  - Shared tile: one row of P words per tile column (output row), word g holding input rows
///    E g .. E g + E - 1 of the TH + M loaded; word g of row c at c P + (g ^ ((c / E / 4) mod
///    8)), P chosen so that E P / 8 is odd: the stores of a warp (32 columns E apart) and the
///    reads (32 consecutive words of a row) are then free of bank conflicts.
///  - Stores: a warp writes one output row at a time; lane q takes words q, q + 32, ... of the
///    piece, each the funnel shift of two consecutive shared words (the second from the next
///    lane), and stores it whole.
///  - Tiles at the matrix's edges (the first tile row, which has no rows above, the last ones,
///    the last tile column, and tiles whose words would reach outside the buffer) take the same
///    path with guards: rows outside the matrix are not read, words that reach outside the
///    buffer are read element by element, and output words that hold elements outside the
///    matrix are written element by element.
/// Plain loads, stores, shuffles, byte permutes, funnel shifts and __syncthreads: sm_35 and newer.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/check.h"
#include "kernels/cuda/narrow.cuh"
#include "kernels/cuda/tile.cuh"
#include "kernels/transpose.h"

namespace xpose::kernels::cuda_tile {

/// T: element (1 or 2 bytes); TH x TW: input rows x input columns of a tile (TH elements an
/// output piece, TW output rows); NT threads, MINB blocks an SM; BATCH: row groups a warp loads
/// before it stores any (bytes in flight against registers).
template <class T, int TH_, int TW_, int NT_, int MINB_, int BATCH_>
struct NarrowSkewConfig {
  using Elem = T;
  static constexpr int S = sizeof(T);
  static constexpr int E = 4 / S;  ///< elements a word
  static constexpr int TH = TH_;
  static constexpr int TW = TW_;
  static constexpr int NT = NT_;
  static constexpr int MINB = MINB_;
  static constexpr int BATCH = BATCH_;
  static constexpr int WARPS = NT / 32;
  static constexpr int M = 32 / S;                      ///< rows loaded above the tile
  static constexpr int HG = (TH + M) / E;               ///< row groups loaded (shared words a row)
  static constexpr int K = TW * S / 4 / 32;             ///< words a lane an input row
  static constexpr int KO = TH * S / 4 / 32;            ///< words a lane an output row
  static constexpr int GPW = (HG + WARPS - 1) / WARPS;  ///< row groups a warp (the last: fewer)
  static constexpr int pitch() {
    int p = HG;
    while ((E * p) % 8 != 0 || ((E * p / 8) & 1) == 0) ++p;
    return p;
  }
  static constexpr int P = pitch();  ///< shared words a tile column
  static constexpr std::size_t SMEM_BYTES = static_cast<std::size_t>(TW) * P * 4;
  static_assert(S == 1 || S == 2, "1- and 2-byte elements");
  static_assert(K >= 1 && KO >= 1 && TW * S % 128 == 0 && TH * S % 128 == 0,
                "whole warps of words on both sides");
  static_assert(HG % 8 == 0, "the swizzle permutes aligned runs of 8 words");
  static_assert(TW % WARPS == 0 && BATCH <= GPW, "whole output rows a warp");
  __device__ __forceinline__ static int slot(int c, int g) {
    return c * P + (g ^ ((c / E >> 2) & 7));
  }
};

/// Column u (0 .. E - 1) of the E x E block of elements in words r[0 .. E - 1] (word t a row):
/// element t of the result is element u of r[t].
template <int E>
__device__ __forceinline__ void narrow_block_transpose(const std::uint32_t (&r)[E],
                                                       std::uint32_t (&c)[E]) {
  if constexpr (E == 4) {
    const std::uint32_t t0 = __byte_perm(r[0], r[1], 0x5140);  // a0 b0 a1 b1
    const std::uint32_t t1 = __byte_perm(r[0], r[1], 0x7362);  // a2 b2 a3 b3
    const std::uint32_t t2 = __byte_perm(r[2], r[3], 0x5140);  // c0 d0 c1 d1
    const std::uint32_t t3 = __byte_perm(r[2], r[3], 0x7362);  // c2 d2 c3 d3
    c[0] = __byte_perm(t0, t2, 0x5410);
    c[1] = __byte_perm(t0, t2, 0x7632);
    c[2] = __byte_perm(t1, t3, 0x5410);
    c[3] = __byte_perm(t1, t3, 0x7632);
  } else {
    c[0] = __byte_perm(r[0], r[1], 0x5410);
    c[1] = __byte_perm(r[0], r[1], 0x7632);
  }
}

/// One tile: input rows r0 - M .. r0 + TH - 1, columns c0 .. c0 + TW - 1 of the matrix at `in`
/// (bytes [in, end)), output pieces as the file comment says. EDGE: with the guards.
template <class C, bool EDGE>
__device__ __forceinline__ void narrow_skew_tile(const TiledParams& p, const char* in,
                                                 const char* end, char* out, std::int64_t r0,
                                                 std::int64_t c0, std::uint32_t* tile, int warp,
                                                 int lane) {
  using T = typename C::Elem;
  constexpr int E = C::E, K = C::K, WB = 32 * K;
#pragma unroll
  for (int j0 = 0; j0 < C::GPW; j0 += C::BATCH) {
    std::uint32_t w[C::BATCH][E][K];
    std::uint32_t x[C::BATCH][E];
    // A row's offset from 4 bytes (0 for rows outside the matrix), recomputed where it is used
    // rather than held while the loads are in flight (as NarrowRow::store).
    const auto offset = [&](int g, int t) -> unsigned {
      const std::int64_t i = r0 - C::M + E * g + t;
      if (EDGE && (i < 0 || i >= p.rows)) return 0;
      return narrow_offset(in + i * p.in_pitch_bytes + c0 * C::S);
    };
#pragma unroll
    for (int jb = 0; jb < C::BATCH; ++jb) {
      const int g = warp + (j0 + jb) * C::WARPS;
#pragma unroll
      for (int t = 0; t < E; ++t) {
        const std::int64_t i = r0 - C::M + E * g + t;
        x[jb][t] = 0;
#pragma unroll
        for (int k = 0; k < K; ++k) w[jb][t][k] = 0;
        if (g >= C::HG || (EDGE && (i < 0 || i >= p.rows))) continue;
        const char* row = in + i * p.in_pitch_bytes + c0 * C::S;
        const unsigned off = narrow_offset(row);
        const char* base = row - off;
#pragma unroll
        for (int k = 0; k < K; ++k) {
          const char* a = base + 4 * (32 * k + lane);
          w[jb][t][k] =
              EDGE ? narrow_guarded_word(a, in, end) : *reinterpret_cast<const std::uint32_t*>(a);
        }
        if (off != 0 && lane == 31)
          x[jb][t] = EDGE ? narrow_guarded_word(base + 4 * WB, in, end)
                          : *reinterpret_cast<const std::uint32_t*>(base + 4 * WB);
      }
    }
#pragma unroll
    for (int jb = 0; jb < C::BATCH; ++jb) {
      const int g = warp + (j0 + jb) * C::WARPS;
      if (g >= C::HG) continue;
      std::uint32_t s[K][E];  // the piece's own words (word 32 k + lane) of rows E g + t
#pragma unroll
      for (int t = 0; t < E; ++t) {
        const unsigned sh = 8 * offset(g, t);
        std::uint32_t next[K];
#pragma unroll
        for (int k = 0; k < K; ++k)
          next[k] = __shfl_sync(0xffffffffu, w[jb][t][k], (lane + 1) & 31);
#pragma unroll
        for (int k = 0; k < K; ++k) {
          std::uint32_t hi = next[k];
          if (lane == 31) hi = k + 1 < K ? next[(k + 1) % K] : x[jb][t];
          s[k][t] = __funnelshift_r(w[jb][t][k], hi, sh);
        }
      }
#pragma unroll
      for (int k = 0; k < K; ++k) {
        std::uint32_t col[E];
        narrow_block_transpose<E>(s[k], col);
#pragma unroll
        for (int u = 0; u < E; ++u) tile[C::slot(E * (32 * k + lane) + u, g)] = col[u];
      }
    }
  }
  __syncthreads();
  constexpr int KO = C::KO;
#pragma unroll
  for (int a = 0; a < C::TW / C::WARPS; ++a) {
    const int cl = warp + a * C::WARPS;
    const std::int64_t c = c0 + cl;  // output row
    if (EDGE && c >= p.cols) break;  // rows further down the tile are outside too
    char* orow = out + c * p.out_pitch_bytes;
    const int mis =
        static_cast<int>((reinterpret_cast<std::uintptr_t>(orow + r0 * C::S) & 31u) / C::S);
    const int s0 = C::M - mis;  // shared word-row index of the piece's first element, in elements
    const int g0 = s0 / E, sh = 8 * C::S * (s0 % E);
    auto* piece = reinterpret_cast<std::uint32_t*>(orow + (r0 - mis) * C::S);
    std::uint32_t v[KO];
#pragma unroll
    for (int k = 0; k < KO; ++k) v[k] = tile[C::slot(cl, g0 + 32 * k + lane)];
    std::uint32_t xo = 0;
    if (lane == 31) xo = tile[C::slot(cl, min(g0 + 32 * KO, C::HG - 1))];
    std::uint32_t next[KO];
#pragma unroll
    for (int k = 0; k < KO; ++k) next[k] = __shfl_sync(0xffffffffu, v[k], (lane + 1) & 31);
#pragma unroll
    for (int k = 0; k < KO; ++k) {
      std::uint32_t hi = next[k];
      if (lane == 31) hi = k + 1 < KO ? next[(k + 1) % KO] : xo;
      const std::uint32_t word = __funnelshift_r(v[k], hi, sh);
      const int q = 32 * k + lane;
      if (!EDGE) {
        piece[q] = word;
        continue;
      }
      const std::int64_t e0 = r0 - mis + static_cast<std::int64_t>(E) * q;  // its first element
      if (e0 >= 0 && e0 + E <= p.rows) {
        piece[q] = word;
      } else {
#pragma unroll
        for (int t = 0; t < E; ++t)
          if (e0 + t >= 0 && e0 + t < p.rows)
            reinterpret_cast<T*>(piece + q)[t] = static_cast<T>(word >> (8 * C::S * t));
      }
    }
  }
  __syncthreads();  // the next tile overwrites shared memory
}

/// SPREAD: the tiles in the order of TiledParams::spread (for_each_tile's SPREAD).
template <class C, bool SPREAD = false>
__global__ void __launch_bounds__(C::NT, C::MINB) narrow_skew_kernel(TiledParams p) {
  extern __shared__ uint4 narrow_skew_smem_raw[];
  auto* tile = reinterpret_cast<std::uint32_t*>(narrow_skew_smem_raw);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for_each_tile<SPREAD>(
      p, C::TH, C::TW, [&](const char* in, char* out, std::int64_t r0, std::int64_t c0) {
        const char* end = in + (p.rows - 1) * p.in_pitch_bytes + p.cols * C::S;
        const bool inner = r0 >= C::M && r0 + C::TH <= p.rows && c0 + C::TW <= p.cols &&
                           narrow_words_inside<typename C::Elem, C::TW>(
                               in + (r0 - C::M) * p.in_pitch_bytes + c0 * C::S,
                               in + (r0 + C::TH - 1) * p.in_pitch_bytes + c0 * C::S, in, end);
        if (inner)
          narrow_skew_tile<C, false>(p, in, end, out, r0, c0, tile, warp, lane);
        else
          narrow_skew_tile<C, true>(p, in, end, out, r0, c0, tile, warp, lane);
      });
}

/// Launches narrow_skew_kernel<C> on `stream`, tiles in tile_of's order with `group`: tiles of
/// C::TH input rows, one more tile row where the pieces' shift reaches past the last. `s` must be
/// resolved and non-empty, the buffers aligned to the element.
template <class C, bool SPREAD = false>
void launch_narrow_skew(const void* in, void* out, const TransposeShape& s, cudaStream_t stream,
                        int group, std::uint32_t spread = 1) {
  launch_tiles(narrow_skew_kernel<C, SPREAD>, "narrow_skew_kernel", C::TH, C::TW, C::M - 1, C::S,
               C::NT, C::SMEM_BYTES, in, out, s, stream, group, spread);
}

}  // namespace xpose::kernels::cuda_tile
