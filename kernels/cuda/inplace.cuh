/// @file
/// The in-place square transpose kernels (Gholami & Natarajan, seed 002): tile pairs on and
/// above the diagonal, one or P pairs a block (inplace_kernel, inplace_multi_kernel), with the
/// mirror strip on 128-byte lines (inplace_strip_kernel), with both tiles' rows rotated onto
/// lines (inplace_rotated_kernel), and their launcher. kernels/cuda/kernels.def lists the forms
/// the library runs; bench/kernels.cu runs the classic order (every pair launched) as a baseline.
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
  RowWise,    ///< T(T+1)/2 blocks, row by row (figure 1-b): 2-4 % ahead of Staggered on every
              ///< shape measured on an H100
  Grouped,    ///< T(T+1)/2 blocks, G rows at a time, column by column (tri::grouped_pair)
  Interleaved,  ///< the row-wise order in G interleaved runs (tri::interleaved_pair); a few
                ///< idle blocks at the end
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
  std::uint64_t group;        ///< rows per group of the Grouped order, runs of Interleaved
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
  } else if (Order == PairOrder::Interleaved) {
    return tri::interleaved_pair(p.tiles, p.group, k, tp);
  } else {
    tp = {k / p.tiles, k % p.tiles};
    if (tp.row > tp.col) return false;
  }
  return true;
}

// The in-place kernels each write out their loop over tile pairs: a shared loop helper taking
// the swap as a lambda cost the grouped-order kernels 6 registers (3 blocks an SM instead of 4)
// and 6-8 % at 16411^2 on an H100.

/// Swaps tile pair tp of matrix `m`, tile (I, J) with tile (J, I), I <= J, through the first two
/// shared tiles at `smem` (a diagonal tile through one), guarded where the pair is at the matrix
/// edge; both tiles are read before the barrier and written after it. Two barriers.
template <class C>
__device__ __forceinline__ void swap_one_pair(const InplaceParams& p, char* m, tri::TilePair tp,
                                              typename C::Word* __restrict__ smem) {
  constexpr int T = C::TH;
  const std::int64_t r0 = static_cast<std::int64_t>(tp.row) * T;
  const std::int64_t c0 = static_cast<std::int64_t>(tp.col) * T;
  const bool diagonal = tp.row == tp.col;
  const bool full = c0 + T <= p.n;                   // c0 >= r0, so tile (J, J) bounds both
  char* upper = m + r0 * p.pitch_bytes + c0 * C::S;  // tile (I, J)
  char* lower = m + c0 * p.pitch_bytes + r0 * C::S;  // tile (J, I)
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
template <class C, PairOrder Order>
__global__ void __launch_bounds__(C::NT, C::MINB) inplace_kernel(InplaceParams p) {
  static_assert(C::TH == C::TW, "square tiles");
  extern __shared__ uint4 inplace_smem_raw[];
  auto* smem = reinterpret_cast<typename C::Word*>(inplace_smem_raw);
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    char* m = p.buf + b * p.stride_bytes;
    for (std::uint64_t k = blockIdx.x; k < p.blocks; k += gridDim.x) {
      tri::TilePair tp;
      if (!pair_of<Order>(p, k, tp)) continue;  // idle lower half (uniform across the block)
      swap_one_pair<C>(p, m, tp, smem);
    }
  }
}

/// The swap of inplace_kernel for P consecutive pairs per block at once: the loads of all 2P
/// tiles are issued into registers before the first is used (2P tiles of shared memory), so a
/// block keeps P times the bytes in flight while the blocks still run in order (neighbouring
/// pairs are in flight together, as with one pair per block). Edge pairs take the guarded path.
/// A separate kernel, not inplace_kernel's general case: compiled with P = 1 this body took
/// 12-31 more registers than inplace_kernel on the library's aligned tiles (f32 64 x 64 words:
/// 96 against 79, two blocks per SM instead of three).
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
/// 96 against 79, two blocks per SM instead of three).
template <class C, PairOrder Order, int P>
__global__ void __launch_bounds__(C::NT, C::MINB) inplace_multi_kernel(InplaceParams p) {
  static_assert(C::TH == C::TW, "square tiles");
  static_assert(Order != PairOrder::Classic && Order != PairOrder::Interleaved,
                "every block number must be a pair");
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
template <class C, int P, int ALIGN = 32, int SHINT = 0>
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
          swap_one_pair<C>(p, m, tp, smem);
        }
        continue;
      }
      swap_strip<C, P, ALIGN, SHINT>(p, m, first, smem);
    }
  }
}

/// Row pitch, in elements, of inplace_rotated_kernel's shared tiles: an odd number of 4-byte
/// banks a row, so that 32 consecutive rows of one column fall on 32 distinct banks (TS + 1 for
/// 4-, 8- and 16-byte elements; for 1- and 2-byte ones TS + 1 would put 4 or 2 consecutive rows
/// on one bank, so one word more: TS + 4 / TS + 2, with TS a multiple of 32).
template <class T, int TS>
constexpr int rotated_pitch() {
  return sizeof(T) >= 4 ? TS + 1 : TS + static_cast<int>(4 / sizeof(T));
}

/// The column of a TS-element tile row that lane `lane` takes in warp access q (q < TS / 32) of
/// the rotated kernels (this file's inplace_rotated_kernel, rotated.cuh's rotated_kernel): the
/// row rotated to start at its first 128-byte line boundary, element (s + 32 q + lane) mod TS
/// with s that boundary's offset, so all but one access a row stay on whole lines.
template <class T, int TS>
__device__ __forceinline__ int rotated_column(const char* row, int q, int lane) {
  constexpr int LINE = 128 / sizeof(T) > 0 ? 128 / sizeof(T) : 1;  // elements a 128-byte line
  const int off = static_cast<int>((reinterpret_cast<std::uintptr_t>(row) / sizeof(T)) % LINE);
  const int e = (LINE - off) % LINE + q * 32 + lane;
  return e >= TS ? e - TS : e;
}

/// Shared memory of inplace_rotated_kernel<T, TS>: two TS x TS tiles of T, rows rotated_pitch
/// apart.
template <class T, int TS>
constexpr std::size_t rotated_smem_bytes() {
  return static_cast<std::size_t>(2 * TS * rotated_pitch<T, TS>()) * sizeof(T);
}

/// Swaps the TS x TS tile pair at (r0, c0) and (c0, r0) of matrix `m` (either clipped at the
/// matrix edge; one tile when r0 == c0) element by element through the shared tiles A and B
/// (rows rotated_pitch apart), lanes along the rows on both global sides. The edge pairs of
/// inplace_rotated_kernel (few). Ends with a barrier.
template <class T, int TS, int NT>
__device__ __forceinline__ void rotated_swap_generic(const InplaceParams& p, char* m,
                                                     std::int64_t r0, std::int64_t c0, T* A, T* B) {
  constexpr int PT = rotated_pitch<T, TS>();
  const int h = static_cast<int>(p.n - r0 < TS ? p.n - r0 : TS);  // tile (I, J): h x w
  const int w = static_cast<int>(p.n - c0 < TS ? p.n - c0 : TS);
  const bool diagonal = r0 == c0;
  auto at = [&](std::int64_t r, std::int64_t c) {
    return reinterpret_cast<T*>(m + r * p.pitch_bytes) + c;
  };
#pragma unroll 1
  for (int e = threadIdx.x; e < h * w; e += NT)
    A[(e / w) * PT + e % w] = *at(r0 + e / w, c0 + e % w);
  if (!diagonal) {
#pragma unroll 1
    for (int e = threadIdx.x; e < h * w; e += NT)
      B[(e / h) * PT + e % h] = *at(c0 + e / h, r0 + e % h);
  }
  __syncthreads();
  if (!diagonal) {  // tile (J, I), w x h: (i, j) <- (j, i) of tile (I, J)
#pragma unroll 1
    for (int e = threadIdx.x; e < h * w; e += NT)
      *at(c0 + e / h, r0 + e % h) = A[(e % h) * PT + e / h];
  }
  const T* src = diagonal ? A : B;
#pragma unroll 1
  for (int e = threadIdx.x; e < h * w; e += NT)
    *at(r0 + e / w, c0 + e % w) = src[(e % w) * PT + e / w];
  __syncthreads();
}

/// The same swap for a pair clipped by the matrix edge (tile (I, J) h x w, h or w under TS), in
/// the fast path's access pattern under guards: a warp takes rows warp, warp + WARPS, ...
/// of each tile, one row at a time with its Q accesses (lanes along the row, not rotated onto
/// lines) issued before the shared stores, and no division. rotated_swap_generic's element
/// loop keeps one load in flight per thread and divides per element; under one wave of blocks
/// (small n) a wide edge pair through it was the launch's slowest block (f32 n = 1500, edge 92:
/// 1013 GB/s against 2079 at n = 1700, edge 36). The rows go one at a time so that the kernel's
/// register budget stays the fast path's (all rows at once spilled 156 bytes in the 128-tile
/// kernel). Ends with a barrier.
template <class T, int TS, int NT>
__device__ __forceinline__ void rotated_swap_edge(const InplaceParams& p, char* m, std::int64_t r0,
                                                  std::int64_t c0, T* A, T* B) {
  constexpr int PT = rotated_pitch<T, TS>(), WARPS = NT / 32, Q = TS / 32;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int h = static_cast<int>(p.n - r0 < TS ? p.n - r0 : TS);  // tile (I, J): h x w
  const int w = static_cast<int>(p.n - c0 < TS ? p.n - c0 : TS);  // tile (J, I): w x h
  const bool diagonal = r0 == c0;
  auto at = [&](std::int64_t r, std::int64_t c) {
    return reinterpret_cast<T*>(m + r * p.pitch_bytes) + c;
  };
  // The two tiles' loops are written out: as one lambda called twice, ptxas spilled 8 bytes in
  // the 128-tile kernel.
#pragma unroll 1
  for (int r = warp; r < h; r += WARPS) {
    T u[Q];
#pragma unroll
    for (int q = 0; q < Q; ++q)
      if (q * 32 + lane < w) u[q] = *at(r0 + r, c0 + q * 32 + lane);
#pragma unroll
    for (int q = 0; q < Q; ++q)
      if (q * 32 + lane < w) A[r * PT + q * 32 + lane] = u[q];
  }
  if (!diagonal) {
#pragma unroll 1
    for (int r = warp; r < w; r += WARPS) {
      T v[Q];
#pragma unroll
      for (int q = 0; q < Q; ++q)
        if (q * 32 + lane < h) v[q] = *at(c0 + r, r0 + q * 32 + lane);
#pragma unroll
      for (int q = 0; q < Q; ++q)
        if (q * 32 + lane < h) B[r * PT + q * 32 + lane] = v[q];
    }
  }
  __syncthreads();
  if (!diagonal) {  // tile (J, I) row r, column c <- tile (I, J) (c, r)
#pragma unroll 1
    for (int r = warp; r < w; r += WARPS) {
#pragma unroll
      for (int q = 0; q < Q; ++q)
        if (q * 32 + lane < h) *at(c0 + r, r0 + q * 32 + lane) = A[(q * 32 + lane) * PT + r];
    }
  }
  const T* src = diagonal ? A : B;  // tile (I, J) row r, column c <- (c, r) of the other
#pragma unroll 1
  for (int r = warp; r < h; r += WARPS) {
#pragma unroll
    for (int q = 0; q < Q; ++q)
      if (q * 32 + lane < w) *at(r0 + r, c0 + q * 32 + lane) = src[(q * 32 + lane) * PT + r];
  }
  __syncthreads();
}

/// In place for any n, one element of T an access: square TS x TS tile pairs in the grouped
/// order, both tiles' rows read and written by warp accesses rotated onto 128-byte lines
/// (rotated_column), exchanged through two shared tiles
/// whose rows are rotated_pitch elements apart (the rotated row writes and the column reads
/// after the barrier are free of bank conflicts). Diagonal tiles go through one tile; pairs that
/// the matrix edge clips through rotated_swap_generic. Its traffic was first timed as a copy
/// (bench_inplace_pattern: square regions with both sides' rows rotated are the fastest traffic
/// found where rows are off sectors). DIAG false: diagonal pairs element by element too (1-5 %
/// slower: the diagonal branch splits the loads into smaller batches). EDGE true: clipped pairs
/// through rotated_swap_edge instead of rotated_swap_generic (the library's forms).
template <class T, int TS, int NT, int MINB, int HINT, bool DIAG = true,
          PairOrder Order = PairOrder::Grouped, bool EDGE = false>
__global__ void __launch_bounds__(NT, MINB) inplace_rotated_kernel(InplaceParams p) {
  static_assert(Order != PairOrder::Classic && Order != PairOrder::Interleaved,
                "every block number must be a pair");
  constexpr int PT = rotated_pitch<T, TS>(), WARPS = NT / 32, Q = TS / 32, R = TS / WARPS;
  static_assert(TS % 32 == 0 && TS % WARPS == 0 && NT % 32 == 0, "whole rows a warp");
  extern __shared__ uint4 inplace_rotated_smem_raw[];
  T* A = reinterpret_cast<T*>(inplace_rotated_smem_raw);  // tile (I, J), A[r * PT + c]
  T* B = A + TS * PT;                                     // tile (J, I), the same way
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  auto rot = [lane](const char* row, int q) { return rotated_column<T, TS>(row, q, lane); };
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    char* m = p.buf + b * p.stride_bytes;
    for (std::uint64_t k = blockIdx.x; k < p.blocks; k += gridDim.x) {
      tri::TilePair tp;
      pair_of<Order>(p, k, tp);
      const std::int64_t r0 = static_cast<std::int64_t>(tp.row) * TS;
      const std::int64_t c0 = static_cast<std::int64_t>(tp.col) * TS;
      const bool clipped = c0 + TS > p.n;  // by the matrix edge (c0 >= r0: (J, J) bounds both)
      if constexpr (EDGE) {
        if (clipped) {
          rotated_swap_edge<T, TS, NT>(p, m, r0, c0, A, B);
          continue;
        }
      }
      if (clipped || (!DIAG && tp.row == tp.col)) {
        rotated_swap_generic<T, TS, NT>(p, m, r0, c0, A, B);
        continue;
      }
      const bool diagonal = tp.row == tp.col;
      char* upper = m + r0 * p.pitch_bytes + c0 * sizeof(T);  // tile (I, J), TS rows
      char* lower = m + c0 * p.pitch_bytes + r0 * sizeof(T);  // tile (J, I), TS rows
      T u[R][Q], v[R][Q];
#pragma unroll
      for (int a = 0; a < R; ++a) {
        const char* row = upper + (warp + a * WARPS) * p.pitch_bytes;
#pragma unroll
        for (int q = 0; q < Q; ++q)
          u[a][q] = load_word<HINT>(reinterpret_cast<const T*>(row) + rot(row, q));
      }
      if (!diagonal) {
#pragma unroll
        for (int a = 0; a < R; ++a) {
          const char* row = lower + (warp + a * WARPS) * p.pitch_bytes;
#pragma unroll
          for (int q = 0; q < Q; ++q)
            v[a][q] = load_word<HINT>(reinterpret_cast<const T*>(row) + rot(row, q));
        }
      }
#pragma unroll
      for (int a = 0; a < R; ++a) {
        const int r = warp + a * WARPS;
#pragma unroll
        for (int q = 0; q < Q; ++q) A[r * PT + rot(upper + r * p.pitch_bytes, q)] = u[a][q];
      }
      if (!diagonal) {
#pragma unroll
        for (int a = 0; a < R; ++a) {
          const int r = warp + a * WARPS;
#pragma unroll
          for (int q = 0; q < Q; ++q) B[r * PT + rot(lower + r * p.pitch_bytes, q)] = v[a][q];
        }
      }
      __syncthreads();
      // As swap_strip: recompute the addresses from the two bases after the barrier.
      asm volatile("" : "+l"(upper), "+l"(lower));
      if (!diagonal) {  // tile (J, I) row r, column e <- tile (I, J) (e, r)
#pragma unroll
        for (int a = 0; a < R; ++a) {
          const int r = warp + a * WARPS;
          char* row = lower + r * p.pitch_bytes;
#pragma unroll
          for (int q = 0; q < Q; ++q) {
            const int e = rot(row, q);
            reinterpret_cast<T*>(row)[e] = A[e * PT + r];
          }
        }
      }
      const T* src = diagonal ? A : B;  // tile (I, J) row r, column e <- (e, r) of the other
#pragma unroll
      for (int a = 0; a < R; ++a) {
        const int r = warp + a * WARPS;
        char* row = upper + r * p.pitch_bytes;
#pragma unroll
        for (int q = 0; q < Q; ++q) {
          const int e = rot(row, q);
          reinterpret_cast<T*>(row)[e] = src[e * PT + r];
        }
      }
      __syncthreads();  // the next pair overwrites shared memory
    }
  }
}

/// The shape launch_inplace_with needs of inplace_rotated_kernel<T, TS> with NT threads: element
/// size, tile side, threads, and one of its two shared tiles.
template <class T, int TS, int NT_>
struct RotatedShape {
  static constexpr int S = sizeof(T);
  static constexpr int TH = TS;
  static constexpr int NT = NT_;
  static constexpr std::size_t SMEM_BYTES = rotated_smem_bytes<T, TS>() / 2;
};

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

/// Launches one of the in-place kernels of C and Order (inplace_kernel, inplace_multi_kernel with
/// P pairs a block, inplace_strip_kernel, inplace_rotated_kernel with C a RotatedShape,
/// inplace_narrow_kernel with C a NarrowShape: they share InplaceParams and the grid) over
/// `batch` dense n x n matrices at `buf` on `stream`, one block per P tile pairs; `group` tile
/// rows a group of the grouped order (runs of the interleaved one). `name` names the kernel in a
/// launch error.
template <class C, PairOrder Order, int P = 1>
void launch_inplace_with(void (*kernel)(InplaceParams), const char* name, void* buf, std::int64_t n,
                         std::int64_t batch, cudaStream_t stream, int group = 1) {
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
  p.group = group > 1 ? static_cast<std::uint64_t>(group) : 1;
  p.blocks = Order == PairOrder::Classic       ? tiles * tiles
             : Order == PairOrder::Interleaved ? tri::interleaved_blocks(tiles, p.group)
                                               : tri::pair_count(tiles);
  const auto gx =
      static_cast<std::int64_t>(std::min<std::uint64_t>((p.blocks + P - 1) / P, 0x7fffffff));
  const std::int64_t gy = std::min<std::int64_t>(batch, 65535);
  inplace_prepare<C, P>(kernel);
  kernel<<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), C::NT, 2 * P * C::SMEM_BYTES,
           stream>>>(p);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    cuda_detail::throw_cuda_error(err, cat("launch of ", name).c_str(), __FILE__, __LINE__);
}

/// Launches inplace_kernel<C, Order> (P = 1) or inplace_multi_kernel<C, Order, P> over `batch`
/// dense n x n matrices at `buf` on `stream`, `group` as launch_inplace_with's.
template <class C, PairOrder Order, int P = 1>
void launch_inplace(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream,
                    int group = 1) {
  if constexpr (P == 1)
    launch_inplace_with<C, Order>(inplace_kernel<C, Order>, "inplace_kernel", buf, n, batch, stream,
                                  group);
  else
    launch_inplace_with<C, Order, P>(inplace_multi_kernel<C, Order, P>, "inplace_multi_kernel", buf,
                                     n, batch, stream, group);
}

/// Launches inplace_strip_kernel<C, P> (grouped order, G tile rows a group) over `batch` dense
/// n x n matrices at `buf` on `stream`.
template <class C, int P, int ALIGN = 32, int SHINT = 0>
void launch_inplace_strip(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream,
                          int group) {
  launch_inplace_with<C, PairOrder::Grouped, P>(inplace_strip_kernel<C, P, ALIGN, SHINT>,
                                                "inplace_strip_kernel", buf, n, batch, stream,
                                                group);
}

/// Launches inplace_rotated_kernel<T, TS, NT, MINB, HINT, DIAG, Order, EDGE> (G tile rows a group
/// in the grouped order) over `batch` dense n x n matrices at `buf` on `stream`.
template <class T, int TS, int NT, int MINB, int HINT, bool DIAG = true,
          PairOrder Order = PairOrder::Grouped, bool EDGE = false>
void launch_inplace_rotated(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream,
                            int group) {
  launch_inplace_with<RotatedShape<T, TS, NT>, Order>(
      inplace_rotated_kernel<T, TS, NT, MINB, HINT, DIAG, Order, EDGE>, "inplace_rotated_kernel",
      buf, n, batch, stream, group);
}

}  // namespace xpose::kernels::cuda_tile
