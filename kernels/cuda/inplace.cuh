/// @file
/// The in-place square transpose kernel (Gholami & Natarajan, seed 002) as a template over the
/// tile shape and the block order, and its launcher. transpose_inplace.cu instantiates the
/// row-wise triangular order for the library and the staggered one as candidates;
/// bench/kernels.cu also the classic order as a baseline.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/check.h"
#include "kernels/cuda/skew.cuh"
#include "kernels/cuda/tile.cuh"
#include "kernels/cuda/triangular.h"
#include "xpose/error.h"

namespace xpose::kernels::cuda_tile {

/// How block numbers map to tile pairs.
enum class PairOrder {
  Staggered,  ///< T(T+1)/2 blocks, band by band (figure 1-d of seed 002)
  RowWise,    ///< T(T+1)/2 blocks, row by row (figure 1-b): the library's order (2-4 % faster
              ///< than Staggered on an H100 on every shape measured: kernels/NOTES.md, run 5)
  Grouped,    ///< T(T+1)/2 blocks, G rows at a time, column by column (tri::grouped_pair)
  Classic,    ///< T*T blocks in row-major order; those below the diagonal return at once
};

struct InplaceParams {
  char* buf;
  std::int64_t n;
  std::int64_t batch;
  std::int64_t pitch_bytes;   ///< n * element size
  std::int64_t stride_bytes;  ///< n * n * element size
  std::uint64_t tiles;        ///< tiles along a side
  std::uint64_t blocks;       ///< blocks one matrix needs in this order
  std::uint64_t group;        ///< rows per group of the Grouped order
};

/// Decodes block number k of a matrix into its tile pair; false for the idle blocks of the
/// classic order.
template <PairOrder Order>
__device__ __forceinline__ bool pair_of(const InplaceParams& p, std::uint64_t k,
                                        tri::TilePair& tp) {
  if (Order == PairOrder::Staggered) {
    tp = tri::staggered_pair(p.tiles, k);
  } else if (Order == PairOrder::RowWise) {
    tp = tri::row_pair(p.tiles, k);
  } else if (Order == PairOrder::Grouped) {
    tp = tri::grouped_pair(p.tiles, p.group, k);
  } else {
    tp = {k / p.tiles, k % p.tiles};
    if (tp.row > tp.col) return false;
  }
  return true;
}

// The three in-place kernels (here and in realign.cuh) each write out their loop over tile
// pairs. A shared loop helper that took the swap as a lambda cost the grouped-order kernels 6
// registers (64 -> 70 at 256 threads: 3 blocks per SM instead of 4) and 6-8 % at 16411² on the
// H100 (NOTES.md, run 7), so the loops stay as they are.

/// Shifted words: tile rows of V = 2 elements a word that do not all start on a word boundary.
/// With n odd, f32 rows with 8-byte words (f64 with 16-byte words) start alternately on a word
/// boundary and one element past one, the same for the whole row. BC (BR) consecutive lanes take
/// one tile row, lane g its word g (elements 2g and 2g + 1). In a row one element off, lane g
/// reads the aligned word holding elements 2g - 1 and 2g and takes element 2g + 1 from lane g + 1
/// by a shuffle; the last lane reads element TW - 1 alone. Element -1 (the tile on the left, or
/// the row above's last) is read and dropped: the caller's buffer must start on a word boundary,
/// so row 0 is never off and that element lies inside the buffer. One load, one shuffle and two
/// selects a word; the V x V blocks then go through store_blocks_transposed as usual.
template <class C>
__device__ __forceinline__ void load_tile_regs_shift(const char* __restrict__ src,
                                                     std::int64_t pitch,
                                                     typename C::Pack (&v)[C::LOADS][C::V]) {
  static_assert(C::V == 2 && 32 % C::BC == 0 && 32 % C::BR == 0, "rows of whole lane groups");
  using Word = typename C::Word;
  using Elem = typename C::Elem;
  const int g = static_cast<int>(threadIdx.x % C::BC);  // block_src's g for every q (NT % 32 == 0)
  Elem last[C::LOADS][C::V];
  bool off[C::LOADS][C::V];
#pragma unroll
  for (int q = 0; q < C::LOADS; ++q) {
    int gq;
    const char* base = block_src<C>(src, pitch, q, gq);
#pragma unroll
    for (int m = 0; m < C::V; ++m) {
      const char* w = base + m * pitch;  // word g of the row, as the row would hold it aligned
      off[q][m] = reinterpret_cast<std::uintptr_t>(w) % C::W != 0;
      v[q][m].w = load_word<C::HINT>(reinterpret_cast<const Word*>(off[q][m] ? w - C::S : w));
      last[q][m] = Elem{};
      if (off[q][m] && g == C::BC - 1) last[q][m] = *reinterpret_cast<const Elem*>(w + C::S);
    }
  }
#pragma unroll
  for (int q = 0; q < C::LOADS; ++q) {
#pragma unroll
    for (int m = 0; m < C::V; ++m) {
      const Elem next = __shfl_down_sync(0xffffffffu, v[q][m].e[0], 1, C::BC);
      if (off[q][m]) {
        v[q][m].e[0] = v[q][m].e[1];
        v[q][m].e[1] = g == C::BC - 1 ? last[q][m] : next;
      }
    }
  }
}

/// store_tile's whole-tile path for shifted words (see load_tile_regs_shift): in an output row
/// one element off, lane h writes the aligned word of elements 2h - 1 and 2h (2h - 1 from lane
/// h - 1 by a shuffle); lane 0 writes element 0 and the last lane element TW - 1 alone, so no
/// element outside the tile is written.
template <class C>
__device__ __forceinline__ void store_tile_shift(char* __restrict__ dst, std::int64_t pitch,
                                                 const typename C::Word* __restrict__ smem) {
  using Word = typename C::Word;
  using Elem = typename C::Elem;
  using Pack = typename C::Pack;
#pragma unroll
  for (int q = 0; q < C::STORES; ++q) {
    const int idx = threadIdx.x + q * C::NT;
    const int r = idx / C::BR;
    const int h = idx % C::BR;
    Pack t;
    t.w = smem[C::slot(r, h)];
    char* w = dst + static_cast<std::int64_t>(r) * pitch + h * C::W;
    const bool off = reinterpret_cast<std::uintptr_t>(w) % C::W != 0;
    const Elem prev = __shfl_up_sync(0xffffffffu, t.e[1], 1, C::BR);
    if (!off) {
      store_word<C::HINT>(reinterpret_cast<Word*>(w), t.w);
      continue;
    }
    if (h == 0) {
      *reinterpret_cast<Elem*>(w) = t.e[0];
    } else {
      Pack a;
      a.e[0] = prev;
      a.e[1] = t.e[0];
      store_word<C::HINT>(reinterpret_cast<Word*>(w - C::S), a.w);
    }
    if (h == C::BR - 1) *reinterpret_cast<Elem*>(w + C::S) = t.e[1];
  }
}

/// Swaps tile pair tp of matrix `m`, tile (I, J) with tile (J, I), I <= J, through the first two
/// shared tiles at `smem` (a diagonal tile through one), guarded where the pair is at the matrix
/// edge; both tiles are read before the barrier and written after it. Two barriers.
/// SHIFT: whole tiles move shifted words (load_tile_regs_shift), for rows off word boundaries.
template <class C, bool SHIFT = false>
__device__ __forceinline__ void swap_one_pair(const InplaceParams& p, char* m, tri::TilePair tp,
                                              typename C::Word* __restrict__ smem) {
  constexpr int T = C::TH;
  const std::int64_t r0 = static_cast<std::int64_t>(tp.row) * T;
  const std::int64_t c0 = static_cast<std::int64_t>(tp.col) * T;
  const bool diagonal = tp.row == tp.col;
  const bool full = c0 + T <= p.n;                   // c0 >= r0, so tile (J, J) bounds both
  char* upper = m + r0 * p.pitch_bytes + c0 * C::S;  // tile (I, J)
  char* lower = m + c0 * p.pitch_bytes + r0 * C::S;  // tile (J, I)
  if constexpr (SHIFT) {
    if (full) {
      typename C::Pack va[C::LOADS][C::V], vb[C::LOADS][C::V];
      load_tile_regs_shift<C>(upper, p.pitch_bytes, va);
      if (!diagonal) load_tile_regs_shift<C>(lower, p.pitch_bytes, vb);
      store_blocks_transposed<C>(va, smem);
      if (!diagonal) store_blocks_transposed<C>(vb, smem + C::WORDS);
      __syncthreads();
      store_tile_shift<C>(lower, p.pitch_bytes, smem);
      if (!diagonal) store_tile_shift<C>(upper, p.pitch_bytes, smem + C::WORDS);
      __syncthreads();
      return;
    }
  }
  load_tile<C>(upper, p.pitch_bytes, p.n - r0, p.n - c0, full, smem);
  if (!diagonal) load_tile<C>(lower, p.pitch_bytes, p.n - c0, p.n - r0, full, smem + C::WORDS);
  __syncthreads();
  store_tile<C>(lower, p.pitch_bytes, p.n - c0, p.n - r0, full, smem);
  if (!diagonal) store_tile<C>(upper, p.pitch_bytes, p.n - r0, p.n - c0, full, smem + C::WORDS);
  __syncthreads();  // the next pair overwrites shared memory
}

/// Each block swaps tile (I, J) with tile (J, I), I <= J, through two shared tiles; a diagonal
/// tile goes through one. Both tiles are read before the barrier and written after it, and no
/// other block touches them, so the swap needs no extra global memory.
/// SHIFT: swap_one_pair's shifted words.
template <class C, PairOrder Order, bool SHIFT = false>
__global__ void __launch_bounds__(C::NT, C::MINB) inplace_kernel(InplaceParams p) {
  static_assert(C::TH == C::TW, "square tiles");
  extern __shared__ uint4 inplace_smem_raw[];
  auto* smem = reinterpret_cast<typename C::Word*>(inplace_smem_raw);
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    char* m = p.buf + b * p.stride_bytes;
    for (std::uint64_t k = blockIdx.x; k < p.blocks; k += gridDim.x) {
      tri::TilePair tp;
      if (!pair_of<Order>(p, k, tp)) continue;  // idle lower half (uniform across the block)
      swap_one_pair<C, SHIFT>(p, m, tp, smem);
    }
  }
}

/// The swap of inplace_kernel for P consecutive pairs per block at once: the loads of all 2P
/// tiles are issued into registers before the first is used (2P tiles of shared memory), so a
/// block keeps P times the bytes in flight while the blocks still run in order (neighbouring
/// pairs are in flight together, as with one pair per block). Edge pairs take the guarded path.
/// A separate kernel, not inplace_kernel's general case: compiled with P = 1 this body took
/// 12-31 more registers than inplace_kernel on the library's aligned tiles (f32 64 x 64 words:
/// 96 against 79, two blocks per SM instead of three; ptxas, run 8 review).
/// P consecutive pairs from block number k0 of matrix `m`, for inplace_multi_kernel and
/// inplace_strip_kernel: the loads of all 2P tiles are issued into registers before the first is
/// used (2P tiles of shared memory at `smem`). Edge pairs take the guarded path. Ends with a
/// barrier, so the caller may reuse shared memory at once.
template <class C, PairOrder Order, int P>
__device__ __forceinline__ void swap_pairs(const InplaceParams& p, char* m, std::uint64_t k0,
                                           typename C::Word* __restrict__ smem) {
  constexpr int T = C::TH;
  typename C::Pack v[P][2][C::LOADS][C::V];
  char* upper[P];
  char* lower[P];
  std::int64_t r0[P], c0[P];
  bool diagonal[P], full[P], live[P];
#pragma unroll
  for (int i = 0; i < P; ++i) {
    live[i] = k0 + i < p.blocks;
    tri::TilePair tp{0, 0};
    if (live[i]) pair_of<Order>(p, k0 + i, tp);
    r0[i] = static_cast<std::int64_t>(tp.row) * T;
    c0[i] = static_cast<std::int64_t>(tp.col) * T;
    diagonal[i] = tp.row == tp.col;
    full[i] = live[i] && c0[i] + T <= p.n;
    upper[i] = m + r0[i] * p.pitch_bytes + c0[i] * C::S;
    lower[i] = m + c0[i] * p.pitch_bytes + r0[i] * C::S;
    if (full[i]) {
      load_tile_regs<C>(upper[i], p.pitch_bytes, v[i][0]);
      if (!diagonal[i]) load_tile_regs<C>(lower[i], p.pitch_bytes, v[i][1]);
    }
  }
#pragma unroll
  for (int i = 0; i < P; ++i) {
    auto* sa = smem + (2 * i) * C::WORDS;
    auto* sb = sa + C::WORDS;
    if (full[i]) {
      store_blocks_transposed<C>(v[i][0], sa);
      if (!diagonal[i]) store_blocks_transposed<C>(v[i][1], sb);
    } else if (live[i]) {
      load_tile<C>(upper[i], p.pitch_bytes, p.n - r0[i], p.n - c0[i], false, sa);
      if (!diagonal[i]) load_tile<C>(lower[i], p.pitch_bytes, p.n - c0[i], p.n - r0[i], false, sb);
    }
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < P; ++i) {
    if (!live[i]) continue;
    const auto* sa = smem + (2 * i) * C::WORDS;
    const auto* sb = sa + C::WORDS;
    store_tile<C>(lower[i], p.pitch_bytes, p.n - c0[i], p.n - r0[i], full[i], sa);
    if (!diagonal[i]) store_tile<C>(upper[i], p.pitch_bytes, p.n - r0[i], p.n - c0[i], full[i], sb);
  }
  __syncthreads();  // the next pairs overwrite shared memory
}

/// The swap of inplace_kernel for P consecutive pairs per block at once (swap_pairs): a block
/// keeps P times the bytes in flight while the blocks still run in order (neighbouring pairs are
/// in flight together, as with one pair per block).
/// A separate kernel, not inplace_kernel's general case: compiled with P = 1 this body took
/// 12-31 more registers than inplace_kernel on the library's aligned tiles (f32 64 x 64 words:
/// 96 against 79, two blocks per SM instead of three; ptxas, run 8 review).
template <class C, PairOrder Order, int P>
__global__ void __launch_bounds__(C::NT, C::MINB) inplace_multi_kernel(InplaceParams p) {
  static_assert(C::TH == C::TW, "square tiles");
  static_assert(Order != PairOrder::Classic, "every block number must be a pair");
  extern __shared__ uint4 inplace_multi_smem_raw[];
  auto* smem = reinterpret_cast<typename C::Word*>(inplace_multi_smem_raw);
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    char* m = p.buf + b * p.stride_bytes;
    for (std::uint64_t k0 = static_cast<std::uint64_t>(blockIdx.x) * P; k0 < p.blocks;
         k0 += static_cast<std::uint64_t>(gridDim.x) * P)
      swap_pairs<C, Order, P>(p, m, k0, smem);
  }
}

/// The strip swap of inplace_strip_kernel (see below) for the P pairs (first.row + i, first.col),
/// i < P, all above the diagonal and inside the matrix; ends with a barrier.
template <class C, int P, int ALIGN, int SHINT>
__device__ __forceinline__ void swap_strip(const InplaceParams& p, char* m, tri::TilePair first,
                                           typename C::Word* __restrict__ smem) {
  static_assert(C::TH == C::TW && C::TW == 32 && C::V == 1, "32 x 32 tiles of one element a word");
  static_assert(P >= 2 && C::NT % 32 == 0 && 32 % (C::NT / 32) == 0, "whole rows per warp");
  using Word = typename C::Word;
  constexpr int T = 32;
  constexpr int WARPS = C::NT / 32;
  constexpr int ROWS = T / WARPS;                          // strip rows per warp
  constexpr int SE = ALIGN / C::S > 0 ? ALIGN / C::S : 1;  // elements per ALIGN bytes
  constexpr int SW = T * P;                                // strip width in elements
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const std::int64_t c0 = static_cast<std::int64_t>(first.col) * T;
  const std::int64_t r0 = static_cast<std::int64_t>(first.row) * T;
  char* strip_base = m + c0 * p.pitch_bytes + r0 * C::S;  // tile (J, I), row 0
  char* upper_base = m + r0 * p.pitch_bytes + c0 * C::S;  // tile (I, J)
  const std::int64_t tile_step = T * p.pitch_bytes;       // tile (I, J) to (I + 1, J)
  // Loads: the P upper tiles as usual, the strip rotated; all issued before the first use.
  typename C::Pack v[P][C::LOADS][1];
  Word w[ROWS][P];
#pragma unroll
  for (int i = 0; i < P; ++i) load_tile_regs<C>(upper_base + i * tile_step, p.pitch_bytes, v[i]);
  // Strip element of lane `lane` in word q of a strip row whose first ALIGN boundary is `shift`
  // elements in (the row rotated to start there).
  auto elem = [lane](int shift, int q) {
    const int e = shift + q * T + lane;
    return e >= SW ? e - SW : e;
  };
  int shift[ROWS];
#pragma unroll
  for (int a = 0; a < ROWS; ++a) {
    const int rr = warp + a * WARPS;
    const char* row = strip_base + rr * p.pitch_bytes;
    const int off = static_cast<int>((reinterpret_cast<std::uintptr_t>(row) / C::S) % SE);
    shift[a] = (SE - off) % SE;
#pragma unroll
    for (int q = 0; q < P; ++q)
      w[a][q] = load_word<SHINT>(reinterpret_cast<const Word*>(row + elem(shift[a], q) * C::S));
  }
  // Shared memory: upper tile i at 2i, mirror tile i at 2i + 1, both in output order.
#pragma unroll
  for (int i = 0; i < P; ++i) store_blocks_transposed<C>(v[i], smem + (2 * i) * C::WORDS);
#pragma unroll
  for (int a = 0; a < ROWS; ++a) {
    const int rr = warp + a * WARPS;
#pragma unroll
    for (int q = 0; q < P; ++q) {
      const int e = elem(shift[a], q);
      const int i = e / T, cc = e % T;  // mirror tile i, its input column cc = output row
      smem[(2 * i + 1) * C::WORDS + C::slot(cc, rr)] = w[a][q];
    }
  }
  __syncthreads();
  // The stores go to the addresses the loads read; without this the compiler keeps every
  // load's 64-bit address live across the barrier (2 registers each) instead of two bases.
  asm volatile("" : "+l"(strip_base), "+l"(upper_base));
  // Stores: the strip rotated (from the upper tiles), the upper tiles as usual.
#pragma unroll
  for (int a = 0; a < ROWS; ++a) {
    const int rr = warp + a * WARPS;
    char* row = strip_base + rr * p.pitch_bytes;
#pragma unroll
    for (int q = 0; q < P; ++q) {
      const int e = elem(shift[a], q);
      const int i = e / T, cc = e % T;
      *reinterpret_cast<Word*>(row + e * C::S) = smem[(2 * i) * C::WORDS + C::slot(rr, cc)];
    }
  }
#pragma unroll
  for (int i = 0; i < P; ++i)
    store_tile<C>(upper_base + i * tile_step, p.pitch_bytes, T, T, true,
                  smem + (2 * i + 1) * C::WORDS);
  __syncthreads();  // the next pairs overwrite shared memory
}

/// swap_strip for 32 x 32 tiles of shifted words (V = 2, load_tile_regs_shift): the upper tiles
/// as shifted words, half a warp a row; the mirror strip's rows rotated onto ALIGN bytes as in
/// swap_strip, but as two-element words. In a strip row one element off, word k holds elements
/// 2k - 1 and 2k; the lane of word 0 drops element -1 (read, not written) and also moves element
/// SW - 1 alone. The strip side goes through shared memory element by element.
template <class C, int P, int ALIGN, int SHINT>
__device__ __forceinline__ void swap_strip_shift(const InplaceParams& p, char* m,
                                                 tri::TilePair first,
                                                 typename C::Word* __restrict__ smem) {
  static_assert(C::TH == 32 && C::TW == 32 && C::V == 2, "32 x 32 tiles of two elements a word");
  static_assert(P >= 2 && 32 % (C::NT / 32) == 0, "whole rows per warp");
  using Word = typename C::Word;
  using Elem = typename C::Elem;
  using Pack = typename C::Pack;
  constexpr int T = 32;
  constexpr int WARPS = C::NT / 32;
  constexpr int ROWS = T / WARPS;  // strip rows per warp
  constexpr int SE = ALIGN / C::S;  // elements per ALIGN bytes
  constexpr int SW = T * P;         // strip width in elements
  constexpr int NW = SW / 2;        // words a strip row
  constexpr int Q = NW / 32;        // warp accesses a strip row
  static_assert(SE % 2 == 0 && SE <= SW && NW % 32 == 0, "rotation onto whole words");
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const std::int64_t c0 = static_cast<std::int64_t>(first.col) * T;
  const std::int64_t r0 = static_cast<std::int64_t>(first.row) * T;
  char* strip_base = m + c0 * p.pitch_bytes + r0 * C::S;  // tile (J, I), row 0
  char* upper_base = m + r0 * p.pitch_bytes + c0 * C::S;  // tile (I, J)
  const std::int64_t tile_step = T * p.pitch_bytes;       // tile (I, J) to (I + 1, J)
  Pack v[P][C::LOADS][C::V];
#pragma unroll
  for (int i = 0; i < P; ++i)
    load_tile_regs_shift<C>(upper_base + i * tile_step, p.pitch_bytes, v[i]);
  // Row a of this warp: o = 1 when it starts one element past a word boundary; its words run
  // from k0, the word at the row's first ALIGN boundary, round the row.
  int k0[ROWS], o[ROWS];
  Pack w[ROWS][Q];
  Elem tail[ROWS];
  auto word_of = [lane](int first_word, int q) {
    const int k = first_word + q * 32 + lane;
    return k >= NW ? k - NW : k;
  };
#pragma unroll
  for (int a = 0; a < ROWS; ++a) {
    const int rr = warp + a * WARPS;
    const char* row = strip_base + rr * p.pitch_bytes;
    const int x = static_cast<int>((reinterpret_cast<std::uintptr_t>(row) / C::S) % SE);
    o[a] = x % 2;
    k0[a] = ((SE - x) % SE + o[a]) / 2;  // (SE - x) % SE has the parity of o
    tail[a] = Elem{};
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      const int k = word_of(k0[a], q);
      w[a][q].w = load_word<SHINT>(reinterpret_cast<const Word*>(row + (2 * k - o[a]) * C::S));
      if (o[a] != 0 && k == 0) tail[a] = *reinterpret_cast<const Elem*>(row + (SW - 1) * C::S);
    }
  }
  // Element (r, c) of shared tile t, in output order.
  auto at = [smem](int t, int r, int c) -> Elem& {
    return reinterpret_cast<Elem*>(smem + t * C::WORDS + C::slot(r, c / 2))[c % 2];
  };
  // Shared memory: upper tile i at 2i, mirror tile i at 2i + 1, both in output order.
#pragma unroll
  for (int i = 0; i < P; ++i) store_blocks_transposed<C>(v[i], smem + (2 * i) * C::WORDS);
#pragma unroll
  for (int a = 0; a < ROWS; ++a) {
    const int rr = warp + a * WARPS;
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      const int e0 = 2 * word_of(k0[a], q) - o[a];
#pragma unroll
      for (int b = 0; b < 2; ++b) {
        const int e = e0 + b;
        if (e >= 0) at(2 * (e / T) + 1, e % T, rr) = w[a][q].e[b];
      }
      if (e0 < 0) at(2 * P - 1, T - 1, rr) = tail[a];
    }
  }
  __syncthreads();
  // As in swap_strip: keep two bases live across the barrier, not every address.
  asm volatile("" : "+l"(strip_base), "+l"(upper_base));
#pragma unroll
  for (int a = 0; a < ROWS; ++a) {
    const int rr = warp + a * WARPS;
    char* row = strip_base + rr * p.pitch_bytes;
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      const int e0 = 2 * word_of(k0[a], q) - o[a];
      if (e0 < 0) {  // element 0 and the row's last element, alone
        *reinterpret_cast<Elem*>(row) = at(0, rr, 0);
        *reinterpret_cast<Elem*>(row + (SW - 1) * C::S) = at(2 * (P - 1), rr, T - 1);
        continue;
      }
      Pack t;
#pragma unroll
      for (int b = 0; b < 2; ++b) t.e[b] = at(2 * ((e0 + b) / T), rr, (e0 + b) % T);
      *reinterpret_cast<Word*>(row + e0 * C::S) = t.w;
    }
  }
#pragma unroll
  for (int i = 0; i < P; ++i)
    store_tile_shift<C>(upper_base + i * tile_step, p.pitch_bytes, smem + (2 * i + 1) * C::WORDS);
  __syncthreads();  // the next pairs overwrite shared memory
}

/// inplace_multi_kernel for one element a word (V = 1) in the grouped order, where the P pairs of
/// a block are (I, J) .. (I + P - 1, J), full and off the diagonal (most blocks): their mirror
/// tiles (J, I) .. (J, I + P - 1) form one strip of 32 rows x 32P elements, and that strip is
/// read and written by warp instructions that each start on an ALIGN-byte boundary of the row
/// (ALIGN 32: a sector, 128: a line), rotated (lane l takes element (s + 32 q + l) mod 32P of
/// the row, s the row's first such boundary).
/// Where rows are off sectors (odd n), a 32-element piece touches 5 sectors instead of 4; the
/// rotated strip touches 32P/8 + 1 per row instead of 5P (f32). The tiles (I + i, J) stay as in
/// inplace_multi_kernel. Other blocks swap their pairs one after another, as inplace_kernel does:
/// swap_pairs there took 6-60 more registers than either path alone (ptxas, inlined or called).
/// SHINT: the strip loads' cache hints (C::HINT applies to the tiles (I + i, J)).
/// SHIFT: C has shifted words (V = 2): swap_strip_shift, and swap_one_pair's shifted words.
template <class C, int P, int ALIGN = 32, int SHINT = 0, bool SHIFT = false>
__global__ void __launch_bounds__(C::NT, C::MINB) inplace_strip_kernel(InplaceParams p) {
  extern __shared__ uint4 inplace_strip_smem_raw[];
  auto* smem = reinterpret_cast<typename C::Word*>(inplace_strip_smem_raw);
  constexpr int T = 32;
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    char* m = p.buf + b * p.stride_bytes;
    for (std::uint64_t k0 = static_cast<std::uint64_t>(blockIdx.x) * P; k0 < p.blocks;
         k0 += static_cast<std::uint64_t>(gridDim.x) * P) {
      // P pairs of one tile column, consecutive rows, off the diagonal, and all inside.
      tri::TilePair first{0, 0};
      const bool strip = tri::grouped_column_run(p.tiles, p.group, P, k0, first) &&
                         static_cast<std::int64_t>(first.col + 1) * T <= p.n;
      if (!strip) {  // one pair after another, as inplace_kernel does (few blocks; see above)
#pragma unroll 1
        for (int i = 0; i < P && k0 + i < p.blocks; ++i) {
          tri::TilePair tp;
          pair_of<PairOrder::Grouped>(p, k0 + i, tp);
          swap_one_pair<C, SHIFT>(p, m, tp, smem);
        }
        continue;
      }
      if constexpr (SHIFT)
        swap_strip_shift<C, P, ALIGN, SHINT>(p, m, first, smem);
      else
        swap_strip<C, P, ALIGN, SHINT>(p, m, first, smem);
    }
  }
}

/// The same swap for any n (rows not a whole number of 16-byte words apart): C is a SkewConfig
/// without skew (A_OUT 0, TH == TW). Each tile goes through an element-wise shared tile (skew.cuh's
/// phases); global accesses are aligned W-byte words, and the words at a tile's edges, which
/// hold elements of the neighbouring tiles, are read and written element by element, because the
/// blocks of those tiles may be rewriting them at the same time. Both tiles' loads are issued
/// before the first is scattered (run 13: 0.61-0.75 x memcpy at 16411² f32, against 0.42-0.51 when
/// each tile was loaded and scattered in turn; still far under the strip kernel's 0.86).
template <class C, PairOrder Order>
__global__ void __launch_bounds__(C::NT, C::MINB) inplace_words_kernel(InplaceParams p) {
  static_assert(C::TH == C::TW && !C::SKEWED, "square tiles on the matrix grid");
  extern __shared__ uint4 inplace_words_smem_raw[];
  auto* sa = reinterpret_cast<typename C::Elem*>(inplace_words_smem_raw);
  auto* sb = sa + C::TW * C::PITCH;
  constexpr int T = C::TH;
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    char* m = p.buf + b * p.stride_bytes;
    for (std::uint64_t k = blockIdx.x; k < p.blocks; k += gridDim.x) {
      tri::TilePair tp;
      if (!pair_of<Order>(p, k, tp)) continue;
      const std::int64_t r0 = static_cast<std::int64_t>(tp.row) * T;
      const std::int64_t c0 = static_cast<std::int64_t>(tp.col) * T;
      const bool diagonal = tp.row == tp.col;
      typename C::Pack va[C::LOAD_ITERS], vb[C::LOAD_ITERS];
      int ja[C::LOAD_ITERS], jb[C::LOAD_ITERS];
      issue_rows<C, true>(m, p.pitch_bytes, p.n, p.n, r0, T, c0, va, ja);  // tile (I, J)
      if (!diagonal) issue_rows<C, true>(m, p.pitch_bytes, p.n, p.n, c0, T, r0, vb, jb);  // (J, I)
      scatter_rows<C>(p.n, c0, va, ja, sa);
      if (!diagonal) scatter_rows<C>(p.n, r0, vb, jb, sb);
      __syncthreads();
      store_rows<C>(m, p.pitch_bytes, p.n, p.n, c0, r0, 0, sa);
      if (!diagonal) store_rows<C>(m, p.pitch_bytes, p.n, p.n, r0, c0, 0, sb);
      __syncthreads();
    }
  }
}

template <class C>
bool inplace_accepts(const void* buf, std::int64_t n) {
  return words_aligned<C>(buf, buf, n, n, n * n, n * n, 1);
}

/// Raises `kernel`'s dynamic shared-memory limit where a launch needs more than the default
/// 48 KiB (every in-place kernel holds two tiles of C for each of its P pairs).
template <class C, int P = 1>
void inplace_prepare(void (*kernel)(InplaceParams)) {
  cuda_detail::allow_dynamic_smem(kernel, 2 * P * C::SMEM_BYTES);
}

/// Launches one of the in-place kernels of C and Order (inplace_kernel, inplace_words_kernel,
/// inplace_realign_kernel, inplace_multi_kernel with P pairs a block: they share InplaceParams
/// and the grid) over `batch` dense n x n matrices at `buf` on `stream`: one block per P tile
/// pairs, or at most `max_blocks` (a persistent grid) when that is > 0. `name` names the kernel
/// in a launch error.
template <class C, PairOrder Order, int P = 1>
void launch_inplace_with(void (*kernel)(InplaceParams), const char* name, void* buf, std::int64_t n,
                         std::int64_t batch, cudaStream_t stream, std::int64_t max_blocks = 0,
                         int group = 1) {
  const std::uint64_t tiles = static_cast<std::uint64_t>((n + C::TH - 1) / C::TH);
  if (tiles >= (std::uint64_t{1} << 31))
    throw DimensionMismatch(cat("transpose_inplace_cuda: n = ", n, " is too large"));
  InplaceParams p;
  p.buf = static_cast<char*>(buf);
  p.n = n;
  p.batch = batch;
  p.pitch_bytes = n * C::S;
  p.stride_bytes = n * n * C::S;
  p.tiles = tiles;
  p.blocks = Order == PairOrder::Classic ? tiles * tiles : tri::pair_count(tiles);
  p.group = group > 1 ? static_cast<std::uint64_t>(group) : 1;
  std::int64_t gx =
      static_cast<std::int64_t>(std::min<std::uint64_t>((p.blocks + P - 1) / P, 0x7fffffff));
  if (max_blocks > 0) gx = std::min(gx, max_blocks);
  const std::int64_t gy = std::min<std::int64_t>(batch, 65535);
  inplace_prepare<C, P>(kernel);
  kernel<<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), C::NT, 2 * P * C::SMEM_BYTES,
           stream>>>(p);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    cuda_detail::throw_cuda_error(err, cat("launch of ", name).c_str(), __FILE__, __LINE__);
}

/// Launches inplace_kernel<C, Order> (P = 1) or inplace_multi_kernel<C, Order, P> over `batch`
/// dense n x n matrices at `buf` on `stream`. `max_blocks` > 0 caps the grid (a persistent grid);
/// 0: one block per P tile pairs.
/// SHIFT (P = 1): inplace_kernel's shifted words.
template <class C, PairOrder Order, int P = 1, bool SHIFT = false>
void launch_inplace(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream,
                    std::int64_t max_blocks = 0, int group = 1) {
  static_assert(P == 1 || !SHIFT, "shifted words: one pair a block");
  if constexpr (P == 1)
    launch_inplace_with<C, Order>(inplace_kernel<C, Order, SHIFT>, "inplace_kernel", buf, n, batch,
                                  stream, max_blocks, group);
  else
    launch_inplace_with<C, Order, P>(inplace_multi_kernel<C, Order, P>, "inplace_multi_kernel", buf,
                                     n, batch, stream, max_blocks, group);
}

/// Launches inplace_strip_kernel<C, P> (grouped order, G tile rows a group) over `batch` dense
/// n x n matrices at `buf` on `stream`.
template <class C, int P, int ALIGN = 32, int SHINT = 0, bool SHIFT = false>
void launch_inplace_strip(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream,
                          int group) {
  launch_inplace_with<C, PairOrder::Grouped, P>(inplace_strip_kernel<C, P, ALIGN, SHINT, SHIFT>,
                                                "inplace_strip_kernel", buf, n, batch, stream, 0,
                                                group);
}

/// Launches inplace_words_kernel<C, Order> (any n) over `batch` dense n x n matrices at `buf`.
template <class C, PairOrder Order>
void launch_inplace_words(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream) {
  launch_inplace_with<C, Order>(inplace_words_kernel<C, Order>, "inplace_words_kernel", buf, n,
                                batch, stream);
}

/// Blocks of inplace_kernel<C, Order> resident on the whole device at once.
template <class C, PairOrder Order>
std::int64_t inplace_resident_blocks() {
  int device = 0, sms = 0, per_sm = 0;
  XPOSE_CHECK_CUDA(cudaGetDevice(&device));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  inplace_prepare<C>(inplace_kernel<C, Order>);
  XPOSE_CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, inplace_kernel<C, Order>,
                                                                 C::NT, 2 * C::SMEM_BYTES));
  return static_cast<std::int64_t>(sms) * std::max(per_sm, 1);
}

}  // namespace xpose::kernels::cuda_tile
