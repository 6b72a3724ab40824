/// @file
/// 16-byte accesses on rows that are not 16 bytes apart (odd pitches such as 16411), without
/// element-by-element shared memory: words are realigned in registers.
///
/// The tiled kernel (tile.cuh) transposes V x V blocks in registers, which needs V rows with the
/// same alignment; with an odd pitch every row has its own, so the library fell back to one
/// element per access (in place) or to the skewed kernel (skew.cuh), which scatters every
/// element into shared memory one by one and is issue-bound (NOTES.md, runs 3-4). Here a thread
/// reads the V elements it wants from a row as the aligned 16-byte word that holds the first of
/// them plus, when the row is off, the next aligned word, and funnel-shifts the pair in
/// registers (32-bit selects). The V x V block is then whole and goes through the tiled
/// kernel's register transpose and swizzled shared tile unchanged. On the way out, a word of
/// output that straddles two shared words is read as both and shifted the same way.
///
/// Two kernels use it:
///  - rskew_kernel (out of place): output pieces aligned to 32-byte sectors, as the skewed
///    kernel's (each output row's piece starts on a sector; the block reads the 32/S input rows
///    above its own), but with whole-word shared memory on both sides;
///  - inplace_realign_kernel: the in-place tile-pair swap for any n; full tiles move whole
///    realigned words, and only the one or two words per tile row that hold elements of the
///    neighbouring tiles are written element by element (the in-place kernel cannot skew).
/// Element sizes 4, 8 and 16 bytes (the shift works on 32-bit lanes). Plain loads, stores,
/// shared memory and __syncthreads: nothing newer than sm_35.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/check.h"
#include "kernels/cuda/inplace.cuh"
#include "kernels/cuda/skew.cuh"
#include "kernels/cuda/tile.cuh"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels::cuda_tile {

/// A 16-byte word seen as four 32-bit lanes.
union Quad {
  uint4 w;
  std::uint32_t u[4];
};

/// Lanes k .. k+3 of the 8-lane pair (a, b), shifted by `sh` lanes (0..3, run time): plain
/// selects, so nothing is indexed at run time (no local memory).
__device__ __forceinline__ uint4 funnel(const Quad& a, const Quad& b, int sh) {
  const std::uint32_t c[8] = {a.u[0], a.u[1], a.u[2], a.u[3], b.u[0], b.u[1], b.u[2], b.u[3]};
  Quad x;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    x.u[k] = sh == 0 ? c[k] : sh == 1 ? c[k + 1] : sh == 2 ? c[k + 2] : c[k + 3];
  return x.w;
}

/// The 16 bytes from p (aligned to S in {4, 8, 16}), read as aligned 16-byte words and shifted
/// into place. Only bytes in [lo, hi) are read: where the aligned words would cross either end,
/// the word is read element by element, and elements at or past hi come back as zero.
template <int S>
__device__ __forceinline__ uint4 load_shifted(const char* p, std::uintptr_t lo, std::uintptr_t hi) {
  static_assert(S == 4 || S == 8 || S == 16, "32-bit lanes");
  using Elem = typename Bytes<S>::type;
  union {
    uint4 w;
    Elem e[16 / S];
  } x;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t off = a & 15u;
  const std::uintptr_t b = a - off;
  if (b >= lo && b + (off ? 32u : 16u) <= hi) {
    // Addresses derived from p (not from the integer), so the loads stay ld.global.
    const auto* w = reinterpret_cast<const uint4*>(p - off);
    Quad w0, w1;
    w0.w = w[0];
    if (off == 0) return w0.w;
    w1.w = w[1];
    return funnel(w0, w1, static_cast<int>(off >> 2));
  }
#pragma unroll
  for (int e = 0; e < 16 / S; ++e)
    x.e[e] = a + (e + 1) * S <= hi ? reinterpret_cast<const Elem*>(p)[e] : Elem{};
  return x.w;
}

/// Output word of row r of a shared tile (TileConfig layout, 16-byte words) that starts at
/// element t of that row: one shared word when t is a whole word, else two, shifted.
template <class C>
__device__ __forceinline__ uint4 smem_word_at(const uint4* __restrict__ smem, int r, int t,
                                              int words_in_row) {
  const int q = t / C::V;
  const int sub = t - q * C::V;
  Quad x0;
  x0.w = smem[C::slot(r, q)];
  if (sub == 0 || q + 1 >= words_in_row) return x0.w;
  Quad x1;
  x1.w = smem[C::slot(r, q + 1)];
  return funnel(x0, x1, sub * C::S / 4);
}

// ---- out of place: realigned skew -------------------------------------------------------------

/// S: element bytes (4, 8, 16); TH: output columns a block writes per output row (a whole
/// number of 32-byte sectors); TW: output rows (input columns) a block covers; NT threads;
/// MINB as TileConfig. The block reads input rows [r0 - MH, r0 + TH), MH = 32 / S, so that
/// every output row's piece can start on a sector.
template <int S_, int TH_, int TW_, int NT_, int MINB_ = 1>
struct RealignConfig {
  static constexpr int S = S_;
  static constexpr int W = 16;
  static constexpr int V = W / S;
  static constexpr int TH = TH_;
  static constexpr int TW = TW_;
  static constexpr int NT = NT_;
  static constexpr int MINB = MINB_;
  static constexpr int MH = 32 / S;           ///< halo rows above the block's own
  static constexpr int NR = TH + MH;          ///< input rows read
  static constexpr int BR = NR / V;           ///< words per shared (output) row
  static constexpr int BC = TW / V;           ///< V x V blocks across
  static constexpr int BLOCKS = BR * BC;      ///< V x V blocks per tile
  static constexpr int LOADS = (BLOCKS + NT - 1) / NT;
  static constexpr int WORDS_OUT = TH / V;    ///< words of one output piece
  static constexpr int STORES = (TW * WORDS_OUT + NT - 1) / NT;
  static constexpr int SW = min_int(BR, 8);   ///< swizzle period (TileConfig's)
  static constexpr std::size_t SMEM_BYTES = static_cast<std::size_t>(TW) * BR * W;

  using Elem = typename Bytes<S>::type;
  using Word = uint4;
  union Pack {
    Word w;
    Elem e[V];
  };

  static_assert(S == 4 || S == 8 || S == 16, "32-bit lanes");
  static_assert((TH * S) % 32 == 0, "pieces are whole sectors");
  static_assert(NR % V == 0 && TW % V == 0 && BR % SW == 0, "whole words, swizzle in the row");
  static_assert(NT % 32 == 0, "whole warps");

  __device__ __forceinline__ static int slot(int r, int h) {
    return r * BR + (h ^ ((r / V) & (SW - 1)));
  }
};

template <class C>
__global__ void __launch_bounds__(C::NT, C::MINB) rskew_kernel(SkewParams p) {
  using Pack = typename C::Pack;
  using Elem = typename C::Elem;
  extern __shared__ uint4 rskew_smem_raw[];
  uint4* smem = rskew_smem_raw;
  const std::int64_t out_cols = p.rows;
  for_each_tile(p, C::TH, C::TW, [&](const char* in, char* out, std::int64_t r0, std::int64_t c0) {
    const std::int64_t i_begin = r0 - C::MH;
    // Load: every word issued before the first shift.
    Pack v[C::LOADS][C::V];
#pragma unroll
    for (int q = 0; q < C::LOADS; ++q) {
      const int blk = threadIdx.x + q * C::NT;
      const int g = blk % C::BC;
      const int h = blk / C::BC;
      const std::int64_t col = c0 + g * C::V;
#pragma unroll
      for (int a = 0; a < C::V; ++a) {
        const std::int64_t i = i_begin + h * C::V + a;
        v[q][a].w = make_uint4(0, 0, 0, 0);
        if (blk < C::BLOCKS && i >= 0 && i < p.rows && col < p.cols) {
          const char* row = in + i * p.in_pitch_bytes;
          const auto lo = reinterpret_cast<std::uintptr_t>(row);
          v[q][a].w = load_shifted<C::S>(row + col * C::S, lo, lo + p.cols * C::S);
        }
      }
    }
    store_blocks_transposed<C>(v, smem);
    __syncthreads();
    // Store: output row c = c0 + r gets [r0 - mis, r0 - mis + TH), mis its offset from a
    // sector in elements; shared column of output column x is x - i_begin.
#pragma unroll
    for (int q = 0; q < C::STORES; ++q) {
      const int idx = threadIdx.x + q * C::NT;
      const int r = idx / C::WORDS_OUT;
      const int h = idx - r * C::WORDS_OUT;
      const std::int64_t c = c0 + r;
      if (r >= C::TW || c >= p.cols) continue;
      char* orow = out + c * p.out_pitch_bytes;
      const int mis =
          static_cast<int>((reinterpret_cast<std::uintptr_t>(orow + r0 * C::S) & 31u) / C::S);
      const std::int64_t pb = r0 - mis + h * C::V;  // first output column of the word
      if (pb >= out_cols || pb + C::V <= 0) continue;
      Pack x;
      x.w = smem_word_at<C>(smem, r, C::MH - mis + h * C::V, C::BR);
      char* dst = orow + pb * C::S;
      if (pb >= 0 && pb + C::V <= out_cols) {
        *reinterpret_cast<uint4*>(dst) = x.w;
      } else {
#pragma unroll
        for (int e = 0; e < C::V; ++e)
          if (pb + e >= 0 && pb + e < out_cols) reinterpret_cast<Elem*>(dst)[e] = x.e[e];
      }
    }
    __syncthreads();  // the next tile overwrites shared memory
  });
}

/// Launches rskew_kernel<C>; `s` resolved, non-empty, and taken by skew_accepts (element-aligned
/// buffers, any pitch). Pieces start up to MH - 1 rows early.
template <class C>
void launch_rskew(const void* in, void* out, const TransposeShape& s, cudaStream_t stream,
                  int group = 1) {
  launch_skewed_with<C>(rskew_kernel<C>, "rskew_kernel", in, out, s, C::MH, stream, group);
}

// ---- in place: realigned tile pairs --------------------------------------------------------

/// load_tile's full path with realigned words: the tile at `src` (T x T, rows `pitch` bytes
/// apart, any alignment of S). Reads stay inside the matrix rows ([row - c0, row - c0 + n)):
/// bytes of neighbouring tiles that share an aligned word are read and dropped (their blocks
/// may be rewriting them; nothing of theirs is used or written back).
template <class C>
__device__ __forceinline__ void load_tile_realign(const char* __restrict__ src, std::int64_t pitch,
                                                  std::int64_t c0_bytes, std::int64_t row_bytes,
                                                  uint4* __restrict__ smem) {
  using Pack = typename C::Pack;
  Pack v[C::LOADS][C::V];
#pragma unroll
  for (int q = 0; q < C::LOADS; ++q) {
    int g;
    const char* base = block_src<C>(src, pitch, q, g);
#pragma unroll
    for (int a = 0; a < C::V; ++a) {
      const char* p = base + a * pitch;
      const auto lo = reinterpret_cast<std::uintptr_t>(p) - g * C::W - c0_bytes;
      v[q][a].w = load_shifted<C::S>(p, lo, lo + row_bytes);
    }
  }
  store_blocks_transposed<C>(v, smem);
}

/// store_tile's full path for rows at any alignment: each output row of the tile (T elements)
/// is covered by aligned 16-byte words; those wholly inside the row's piece are written whole
/// (from one or two shared words), the one or two that also hold neighbouring tiles' elements
/// are written element by element.
template <class C>
__device__ __forceinline__ void store_tile_realign(char* __restrict__ dst, std::int64_t pitch,
                                                   const uint4* __restrict__ smem) {
  using Elem = typename C::Elem;
  using Pack = typename C::Pack;
  constexpr int T = C::TH;
  constexpr int NW = T / C::V + 1;  // aligned words that can cover a misaligned piece
  constexpr int ITERS = (T * NW + C::NT - 1) / C::NT;
#pragma unroll
  for (int it = 0; it < ITERS; ++it) {
    const int idx = threadIdx.x + it * C::NT;
    const int r = idx / NW;
    const int k = idx - r * NW;
    if (r >= T) continue;
    char* row = dst + static_cast<std::int64_t>(r) * pitch;
    const int mis = static_cast<int>((reinterpret_cast<std::uintptr_t>(row) & 15u) / C::S);
    const int t = k * C::V - mis;  // row element at the aligned word's start
    if (t >= T) continue;
    if (t >= 0 && t + C::V <= T) {
      *reinterpret_cast<uint4*>(row + t * C::S) = smem_word_at<C>(smem, r, t, C::BR);
    } else {
#pragma unroll
      for (int e = 0; e < C::V; ++e) {
        const int j = t + e;
        if (j >= 0 && j < T)
          reinterpret_cast<Elem*>(row)[j] =
              reinterpret_cast<const Elem*>(smem + C::slot(r, j / C::V))[j % C::V];
      }
    }
  }
  (void)sizeof(Pack);
}

/// inplace_kernel with realigned words on full tile pairs (any n); edge tiles take the
/// element-wise path of load_tile / store_tile, as in inplace_kernel. C: square TileConfig with
/// 16-byte words.
template <class C, PairOrder Order>
__global__ void __launch_bounds__(C::NT, C::MINB) inplace_realign_kernel(InplaceParams p) {
  static_assert(C::TH == C::TW && C::W == 16, "square tiles of 16-byte words");
  extern __shared__ uint4 inplace_realign_smem_raw[];
  uint4* sa = inplace_realign_smem_raw;
  uint4* sb = sa + C::WORDS;
  constexpr int T = C::TH;
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    char* m = p.buf + b * p.stride_bytes;
    for (std::uint64_t k = blockIdx.x; k < p.blocks; k += gridDim.x) {
      tri::TilePair tp;
      if (!pair_of<Order>(p, k, tp)) continue;
      const std::int64_t r0 = static_cast<std::int64_t>(tp.row) * T;
      const std::int64_t c0 = static_cast<std::int64_t>(tp.col) * T;
      const bool diagonal = tp.row == tp.col;
      const bool full = c0 + T <= p.n;
      char* upper = m + r0 * p.pitch_bytes + c0 * C::S;
      char* lower = m + c0 * p.pitch_bytes + r0 * C::S;
      if (full) {
        load_tile_realign<C>(upper, p.pitch_bytes, c0 * C::S, p.pitch_bytes, sa);
        if (!diagonal) load_tile_realign<C>(lower, p.pitch_bytes, r0 * C::S, p.pitch_bytes, sb);
        __syncthreads();
        store_tile_realign<C>(lower, p.pitch_bytes, sa);
        if (!diagonal) store_tile_realign<C>(upper, p.pitch_bytes, sb);
      } else {
        load_tile<C>(upper, p.pitch_bytes, p.n - r0, p.n - c0, false, sa);
        if (!diagonal) load_tile<C>(lower, p.pitch_bytes, p.n - c0, p.n - r0, false, sb);
        __syncthreads();
        store_tile<C>(lower, p.pitch_bytes, p.n - c0, p.n - r0, false, sa);
        if (!diagonal) store_tile<C>(upper, p.pitch_bytes, p.n - r0, p.n - c0, false, sb);
      }
      __syncthreads();
    }
  }
}

/// Launches inplace_realign_kernel<C, Order> over `batch` dense n x n matrices (any n; the
/// buffer aligned to the element size).
template <class C, PairOrder Order>
void launch_inplace_realign(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream) {
  launch_inplace_with<C, Order>(inplace_realign_kernel<C, Order>, "inplace_realign_kernel", buf, n,
                                batch, stream);
}

}  // namespace xpose::kernels::cuda_tile
