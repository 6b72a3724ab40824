/// @file
/// The in-place transpose's memory traffic without its transposition: kernels that read the
/// regions an in-place block owns (a region of the upper triangle and its mirror) and write every
/// element back where it was read, flipped (XOR kFlip), with no shared memory. Same block order
/// as the library's odd-n kernels (the grouped triangular order, tri::grouped_pair), same region
/// shapes or larger ones. bench_inplace_pattern times them beside cudaMemcpy and the library's
/// in-place transpose: if a copy with exactly the strip kernel's accesses is no faster than the
/// strip kernel, that kernel is held by its traffic, and only a traffic whose copy runs faster
/// can help. pattern_rotated_swap adds the transposition
/// to the fastest of those copies, through shared memory, so the two can be held side by side.
///
/// The flip makes the copies checkable: after one run every element is flipped exactly once,
/// or the check fails (an element missed stays as it was, one taken twice flips back).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/cuda/tile.cuh"
#include "kernels/cuda/triangular.h"

namespace xpose::bench {

/// Flipped bits: the sign and one mantissa bit (a pattern float stays a normal float).
constexpr std::uint32_t kFlip = 0x80400000u;

struct PatternParams {
  std::uint32_t* m;     ///< the n x n float32 matrix, rows `pitch` elements apart
  std::int64_t n;
  std::int64_t pitch;   ///< >= n (the in-place transpose itself takes pitch = n only)
  std::uint64_t tiles;  ///< tiles of TS a side: ceil(n / TS)
  std::uint64_t group;  ///< G of the grouped order
  std::uint64_t pairs;  ///< tiles (tiles + 1) / 2
};

/// Flips the h x w block at (r0, c0) element by element, lanes along its rows (coalesced),
/// eight elements a thread in flight at a time.
template <int NT>
__device__ __forceinline__ void flip_block(const PatternParams& p, std::int64_t r0, std::int64_t c0,
                                           int h, int w) {
  constexpr int U = 8;
#pragma unroll 1
  for (int base = 0; base < h * w; base += NT * U) {
    std::uint32_t v[U];
    std::uint32_t* a[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int e = base + u * NT + static_cast<int>(threadIdx.x);
      a[u] = e < h * w ? p.m + (r0 + e / w) * p.pitch + c0 + e % w : nullptr;
      if (a[u] != nullptr) v[u] = *a[u];
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (a[u] != nullptr) *a[u] = v[u] ^ kFlip;
  }
}

/// Flips the pair (I, J) of TS x TS tiles element by element (edge and diagonal pairs: few).
template <int TS, int NT>
__device__ __forceinline__ void flip_pair_generic(const PatternParams& p, kernels::tri::TilePair tp) {
  const std::int64_t r0 = static_cast<std::int64_t>(tp.row) * TS;
  const std::int64_t c0 = static_cast<std::int64_t>(tp.col) * TS;
  const int h = static_cast<int>(p.n - r0 < TS ? p.n - r0 : TS);
  const int w = static_cast<int>(p.n - c0 < TS ? p.n - c0 : TS);
  flip_block<NT>(p, r0, c0, h, w);
  if (tp.row != tp.col) flip_block<NT>(p, c0, r0, w, h);
}

/// P consecutive pairs of the grouped order (pairs k0 .. k0 + P - 1); returns true, with the
/// first pair, when they are (I, J) .. (I + P - 1, J) off the diagonal and inside the matrix
/// (the region pair the fast path takes); otherwise flips them one by one and returns false.
template <int TS, int P, int NT>
__device__ __forceinline__ bool region_or_generic(const PatternParams& p, std::uint64_t k0,
                                                  kernels::tri::TilePair& first) {
  namespace tri = kernels::tri;
  if (tri::grouped_column_run(p.tiles, p.group, P, k0, first) &&
      static_cast<std::int64_t>(first.col + 1) * TS <= p.n)
    return true;
#pragma unroll 1
  for (int i = 0; i < P && k0 + i < p.pairs; ++i)
    flip_pair_generic<TS, NT>(p, tri::grouped_pair(p.tiles, p.group, k0 + i));
  return false;
}

/// The strip kernel's accesses exactly (kernels/cuda/inplace.cuh, swap_strip, f32 default):
/// P tiles of 32 x 32 down one tile column, a warp on one 128-byte row piece each; the mirror
/// strip (32 rows of 32 P elements) with each row rotated to start on its first 128-byte line.
/// Loads with the cache hints HINT (load_word), all issued before the first use. BARRIER: a
/// block barrier between the loads' use and the stores, as the kernel's shared-memory exchange
/// has.
template <int P, int NT, int MINB, int HINT, bool BARRIER>
__global__ void __launch_bounds__(NT, MINB) pattern_strip_elem(PatternParams p) {
  using kernels::cuda_tile::load_word;
  constexpr int T = 32, WARPS = NT / 32, UP = T * P / WARPS, SR = T / WARPS, SW = T * P;
  static_assert(T * P % WARPS == 0 && T % WARPS == 0, "whole rows a warp");
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (std::uint64_t k0 = static_cast<std::uint64_t>(blockIdx.x) * P; k0 < p.pairs;
       k0 += static_cast<std::uint64_t>(gridDim.x) * P) {
    kernels::tri::TilePair first;
    if (!region_or_generic<T, P, NT>(p, k0, first)) continue;
    const std::int64_t r0 = static_cast<std::int64_t>(first.row) * T;
    const std::int64_t c0 = static_cast<std::int64_t>(first.col) * T;
    std::uint32_t* upper = p.m + r0 * p.pitch + c0;
    std::uint32_t* strip = p.m + c0 * p.pitch + r0;
    std::uint32_t u[UP], s[SR][P];
    int shift[SR];
#pragma unroll
    for (int a = 0; a < UP; ++a) u[a] = load_word<HINT>(upper + (warp + a * WARPS) * p.pitch + lane);
#pragma unroll
    for (int a = 0; a < SR; ++a) {
      const std::uint32_t* row = strip + (warp + a * WARPS) * p.pitch;
      const int off = static_cast<int>((reinterpret_cast<std::uintptr_t>(row) / 4) % 32);
      shift[a] = (32 - off) % 32;
#pragma unroll
      for (int q = 0; q < P; ++q) {
        int e = shift[a] + q * T + lane;
        e = e >= SW ? e - SW : e;
        s[a][q] = load_word<HINT>(row + e);
      }
    }
#pragma unroll
    for (int a = 0; a < UP; ++a) u[a] ^= kFlip;
#pragma unroll
    for (int a = 0; a < SR; ++a)
#pragma unroll
      for (int q = 0; q < P; ++q) s[a][q] ^= kFlip;
    if (BARRIER) __syncthreads();
#pragma unroll
    for (int a = 0; a < SR; ++a) {
      std::uint32_t* row = strip + (warp + a * WARPS) * p.pitch;
#pragma unroll
      for (int q = 0; q < P; ++q) {
        int e = shift[a] + q * T + lane;
        e = e >= SW ? e - SW : e;
        row[e] = s[a][q];
      }
    }
#pragma unroll
    for (int a = 0; a < UP; ++a) upper[(warp + a * WARPS) * p.pitch + lane] = u[a];
    if (BARRIER) __syncthreads();
  }
}

/// Slot s of a block of pattern_words / pattern_words_async: word k of a row piece of either
/// region (the upper one, H = TS P rows x W = TS columns from (r0, c0), then its mirror, W rows x
/// H columns from (c0, r0)). Sets `word` to the aligned 16-byte word (nullptr: no such slot, or
/// the word lies past the piece) and j0 to the piece column of its first element (-3 .. width).
template <int TS, int P>
__device__ __forceinline__ void region_slot(const PatternParams& p, std::int64_t r0,
                                            std::int64_t c0, int s, uint4*& word, int& j0,
                                            int& width) {
  constexpr int H = TS * P, W = TS;
  constexpr int WU = W / 4 + 1, WM = H / 4 + 1;
  word = nullptr;
  if (s >= H * WU + W * WM) return;
  std::int64_t row, col0;
  int k;
  if (s < H * WU) {
    row = r0 + s / WU, k = s % WU, col0 = c0, width = W;
  } else {
    s -= H * WU;
    row = c0 + s / WM, k = s % WM, col0 = r0, width = H;
  }
  const std::uintptr_t first_byte = reinterpret_cast<std::uintptr_t>(p.m + row * p.pitch + col0);
  const std::uintptr_t w = (first_byte & ~std::uintptr_t(15)) + std::uintptr_t(k) * 16;
  j0 = static_cast<int>((static_cast<std::intptr_t>(w) - static_cast<std::intptr_t>(first_byte)) /
                        4);
  if (j0 < width) word = reinterpret_cast<uint4*>(w);
}

/// Writes word v back to slot `word` (region_slot): whole inside the piece, element by element
/// where the word holds a neighbour's elements too.
__device__ __forceinline__ void store_slot(uint4* word, int j0, int width, uint4 v) {
  if (j0 >= 0 && j0 + 4 <= width) {
    *word = v;
  } else {
    auto* e = reinterpret_cast<std::uint32_t*>(word);
    const std::uint32_t x[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int q = 0; q < 4; ++q)
      if (j0 + q >= 0 && j0 + q < width) e[q] = x[q];
  }
}

/// The widest accesses a block of the same regions could use: region (I .. I + P - 1, J) of
/// TS-tiles (TS P rows x TS columns) and its mirror (TS rows x TS P columns) read as the aligned
/// 16-byte words that cover each row piece (whole, neighbours' elements included, as a kernel
/// may read and drop them), written back as whole words inside the piece and element by element
/// in the words the piece shares with a neighbour (which a kernel must not overwrite). With P = 1
/// the regions are square TS x TS pairs. BARRIER as pattern_strip_elem. The buffer needs 16
/// bytes of slack past its end (the last row's last word is read whole).
template <int TS, int P, int NT, int MINB, int HINT, bool BARRIER>
__global__ void __launch_bounds__(NT, MINB) pattern_words(PatternParams p) {
  using kernels::cuda_tile::load_word;
  constexpr int H = TS * P, W = TS;              // upper region: H rows x W columns
  constexpr int SLOTS = H * (W / 4 + 1) + W * (H / 4 + 1);  // words covering its row pieces
  constexpr int ITERS = (SLOTS + NT - 1) / NT;
  for (std::uint64_t k0 = static_cast<std::uint64_t>(blockIdx.x) * P; k0 < p.pairs;
       k0 += static_cast<std::uint64_t>(gridDim.x) * P) {
    kernels::tri::TilePair first;
    if (!region_or_generic<TS, P, NT>(p, k0, first)) continue;
    const std::int64_t r0 = static_cast<std::int64_t>(first.row) * TS;
    const std::int64_t c0 = static_cast<std::int64_t>(first.col) * TS;
    auto slot = [&](int it, uint4*& word, int& j0, int& width) {
      region_slot<TS, P>(p, r0, c0, static_cast<int>(threadIdx.x) + it * NT, word, j0, width);
    };
    uint4 v[ITERS];
#pragma unroll
    for (int it = 0; it < ITERS; ++it) {
      uint4* word;
      int j0, width;
      slot(it, word, j0, width);
      if (word != nullptr) v[it] = load_word<HINT>(word);
    }
#pragma unroll
    for (int it = 0; it < ITERS; ++it)  // after all loads: a use of each, before the barrier
      v[it].x ^= kFlip, v[it].y ^= kFlip, v[it].z ^= kFlip, v[it].w ^= kFlip;
    if (BARRIER) __syncthreads();
#pragma unroll
    for (int it = 0; it < ITERS; ++it) {
      uint4* word;
      int j0, width;
      slot(it, word, j0, width);
      if (word != nullptr) store_slot(word, j0, width, v[it]);
    }
    if (BARRIER) __syncthreads();
  }
}

/// pattern_words with the loads copied straight into shared memory (cp.async, 16 bytes, with
/// the 256-byte L2 fetch; sm_80 onwards, plain loads and stores elsewhere), as a kernel of large
/// regions would stage them: no registers held while they are in flight, so square regions of
/// 96 and 128 fit. A barrier after the copies land, then the stores from shared memory.
/// Dynamic shared memory: pattern_words_smem<TS, P>() bytes.
template <int TS, int P>
__host__ __device__ constexpr std::size_t pattern_words_smem() {
  return static_cast<std::size_t>(TS * P * (TS / 4 + 1) + TS * (TS * P / 4 + 1)) * 16;
}

template <int TS, int P, int NT, int MINB>
__global__ void __launch_bounds__(NT, MINB) pattern_words_async(PatternParams p) {
  extern __shared__ uint4 pattern_smem[];
  constexpr int SLOTS = static_cast<int>(pattern_words_smem<TS, P>() / 16);
  for (std::uint64_t k0 = static_cast<std::uint64_t>(blockIdx.x) * P; k0 < p.pairs;
       k0 += static_cast<std::uint64_t>(gridDim.x) * P) {
    kernels::tri::TilePair first;
    if (!region_or_generic<TS, P, NT>(p, k0, first)) continue;
    const std::int64_t r0 = static_cast<std::int64_t>(first.row) * TS;
    const std::int64_t c0 = static_cast<std::int64_t>(first.col) * TS;
#pragma unroll 4
    for (int s = threadIdx.x; s < SLOTS; s += NT) {
      uint4* word;
      int j0, width;
      region_slot<TS, P>(p, r0, c0, s, word, j0, width);
      if (word == nullptr) continue;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(pattern_smem + s));
      asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;\n" ::"r"(dst), "l"(word)
                   : "memory");
#else
      pattern_smem[s] = *word;
#endif
    }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
    __syncthreads();
#pragma unroll 4
    for (int s = threadIdx.x; s < SLOTS; s += NT) {
      uint4* word;
      int j0, width;
      region_slot<TS, P>(p, r0, c0, s, word, j0, width);
      if (word == nullptr) continue;
      uint4 v = pattern_smem[s];
      v.x ^= kFlip, v.y ^= kFlip, v.z ^= kFlip, v.w ^= kFlip;
      store_slot(word, j0, width, v);
    }
    __syncthreads();  // the next region pair overwrites shared memory
  }
}

/// Region pairs of TS-tiles (P tiles down one tile column, as pattern_words) with one element an
/// access on both sides and every row rotated as the strip kernel rotates its mirror rows: lane l
/// takes element (s + 32 q + l) mod width of a row, s the row's first 128-byte line, so each warp
/// instruction writes within one line (the wrap-around one within two). With P = 1: square
/// regions with both sides' rows on lines (super-tiles as a copy). Loads with HINT, all
/// issued before the first use; a barrier between loads and stores.
template <int TS, int P, int NT, int MINB, int HINT>
__global__ void __launch_bounds__(NT, MINB) pattern_rotated(PatternParams p) {
  using kernels::cuda_tile::load_word;
  constexpr int H = TS * P, W = TS, WARPS = NT / 32;
  constexpr int QU = W / 32, QM = H / 32;               // words a lane per row of each side
  constexpr int RU = H / WARPS, RM = W / WARPS;         // rows a warp of each side
  static_assert(W % 32 == 0 && H % WARPS == 0 && W % WARPS == 0, "whole rows a warp");
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (std::uint64_t k0 = static_cast<std::uint64_t>(blockIdx.x) * P; k0 < p.pairs;
       k0 += static_cast<std::uint64_t>(gridDim.x) * P) {
    kernels::tri::TilePair first;
    if (!region_or_generic<TS, P, NT>(p, k0, first)) continue;
    const std::int64_t r0 = static_cast<std::int64_t>(first.row) * TS;
    const std::int64_t c0 = static_cast<std::int64_t>(first.col) * TS;
    std::uint32_t* upper = p.m + r0 * p.pitch + c0;   // H rows of W
    std::uint32_t* mirror = p.m + c0 * p.pitch + r0;  // W rows of H
    auto rot = [lane](const std::uint32_t* row, int width, int q) {
      const int off = static_cast<int>((reinterpret_cast<std::uintptr_t>(row) / 4) % 32);
      const int e = (32 - off) % 32 + q * 32 + lane;
      return e >= width ? e - width : e;
    };
    std::uint32_t u[RU][QU], m[RM][QM];
#pragma unroll
    for (int a = 0; a < RU; ++a) {
      const std::uint32_t* row = upper + (warp + a * WARPS) * p.pitch;
#pragma unroll
      for (int q = 0; q < QU; ++q) u[a][q] = load_word<HINT>(row + rot(row, W, q));
    }
#pragma unroll
    for (int a = 0; a < RM; ++a) {
      const std::uint32_t* row = mirror + (warp + a * WARPS) * p.pitch;
#pragma unroll
      for (int q = 0; q < QM; ++q) m[a][q] = load_word<HINT>(row + rot(row, H, q));
    }
#pragma unroll
    for (int a = 0; a < RU; ++a)
#pragma unroll
      for (int q = 0; q < QU; ++q) u[a][q] ^= kFlip;
#pragma unroll
    for (int a = 0; a < RM; ++a)
#pragma unroll
      for (int q = 0; q < QM; ++q) m[a][q] ^= kFlip;
    __syncthreads();
    // As the strip kernel: recompute the addresses from the two bases instead of keeping every
    // load's 64-bit address live across the barrier.
    asm volatile("" : "+l"(upper), "+l"(mirror));
#pragma unroll
    for (int a = 0; a < RM; ++a) {
      std::uint32_t* row = mirror + (warp + a * WARPS) * p.pitch;
#pragma unroll
      for (int q = 0; q < QM; ++q) row[rot(row, H, q)] = m[a][q];
    }
#pragma unroll
    for (int a = 0; a < RU; ++a) {
      std::uint32_t* row = upper + (warp + a * WARPS) * p.pitch;
#pragma unroll
      for (int q = 0; q < QU; ++q) row[rot(row, W, q)] = u[a][q];
    }
    __syncthreads();
  }
}

/// Shared memory of pattern_rotated_swap<TS>: two TS x TS tiles, rows TS + 1 words apart.
template <int TS>
__host__ __device__ constexpr std::size_t rotated_swap_smem() {
  return static_cast<std::size_t>(2 * TS * (TS + 1)) * 4;
}

/// Transposes the TS x TS tile pair (r0, c0), (c0, r0) (either clipped at the matrix edge; one
/// tile when r0 == c0) element by element through the two shared tiles A and B (rows TS + 1
/// words apart): lanes along the rows on both global sides (coalesced). The edge and diagonal
/// pairs of pattern_rotated_swap (few). Ends with a barrier.
template <int TS, int NT>
__device__ __forceinline__ void swap_pair_generic(const PatternParams& p, std::int64_t r0,
                                                  std::int64_t c0, std::uint32_t* A,
                                                  std::uint32_t* B) {
  constexpr int PT = TS + 1;
  const int h = static_cast<int>(p.n - r0 < TS ? p.n - r0 : TS);  // upper tile: h x w
  const int w = static_cast<int>(p.n - c0 < TS ? p.n - c0 : TS);
  const bool diagonal = r0 == c0;
  for (int e = threadIdx.x; e < h * w; e += NT)
    A[(e / w) * PT + e % w] = p.m[(r0 + e / w) * p.pitch + c0 + e % w];
  if (!diagonal)
    for (int e = threadIdx.x; e < h * w; e += NT)
      B[(e / h) * PT + e % h] = p.m[(c0 + e / h) * p.pitch + r0 + e % h];
  __syncthreads();
  // Mirror tile (w x h) row i, column j <- upper (j, i); upper (i, j) <- mirror (j, i).
  if (!diagonal)
    for (int e = threadIdx.x; e < h * w; e += NT)
      p.m[(c0 + e / h) * p.pitch + r0 + e % h] = A[(e % h) * PT + e / h];
  const std::uint32_t* src = diagonal ? A : B;
  for (int e = threadIdx.x; e < h * w; e += NT)
    p.m[(r0 + e / w) * p.pitch + c0 + e % w] = src[(e % w) * PT + e / w];
  __syncthreads();
}

/// An in-place transpose on exactly pattern_rotated's traffic (P = 1): square TS x TS tile
/// pairs in the grouped order, one element an access, both sides' rows rotated onto 128-byte
/// lines; the two tiles exchanged through shared memory (rows TS + 1 words apart, so the rotated
/// row writes and the column reads after the barrier are both free of bank conflicts). Held
/// against pattern_rotated in the same program, it says what the transposition costs on that
/// traffic. Diagonal and edge pairs: swap_pair_generic. Dynamic
/// shared memory: rotated_swap_smem<TS>() bytes.
template <int TS, int NT, int MINB, int HINT>
__global__ void __launch_bounds__(NT, MINB) pattern_rotated_swap(PatternParams p) {
  using kernels::cuda_tile::load_word;
  extern __shared__ uint4 rotated_swap_raw[];
  constexpr int PT = TS + 1, WARPS = NT / 32, Q = TS / 32, R = TS / WARPS;
  static_assert(TS % 32 == 0 && TS % WARPS == 0, "whole rows a warp");
  auto* A = reinterpret_cast<std::uint32_t*>(rotated_swap_raw);  // upper tile, A[r * PT + c]
  std::uint32_t* B = A + TS * PT;                                // mirror tile, the same way
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (std::uint64_t k = blockIdx.x; k < p.pairs; k += gridDim.x) {
    const kernels::tri::TilePair tp = kernels::tri::grouped_pair(p.tiles, p.group, k);
    const std::int64_t r0 = static_cast<std::int64_t>(tp.row) * TS;
    const std::int64_t c0 = static_cast<std::int64_t>(tp.col) * TS;
    if (tp.row == tp.col || c0 + TS > p.n) {
      swap_pair_generic<TS, NT>(p, r0, c0, A, B);
      continue;
    }
    std::uint32_t* upper = p.m + r0 * p.pitch + c0;   // TS rows of TS from (r0, c0)
    std::uint32_t* mirror = p.m + c0 * p.pitch + r0;  // TS rows of TS from (c0, r0)
    auto rot = [lane](const std::uint32_t* row, int q) {
      const int off = static_cast<int>((reinterpret_cast<std::uintptr_t>(row) / 4) % 32);
      const int e = (32 - off) % 32 + q * 32 + lane;
      return e >= TS ? e - TS : e;
    };
    std::uint32_t u[R][Q], m[R][Q];
#pragma unroll
    for (int a = 0; a < R; ++a) {
      const std::uint32_t* row = upper + (warp + a * WARPS) * p.pitch;
#pragma unroll
      for (int q = 0; q < Q; ++q) u[a][q] = load_word<HINT>(row + rot(row, q));
    }
#pragma unroll
    for (int a = 0; a < R; ++a) {
      const std::uint32_t* row = mirror + (warp + a * WARPS) * p.pitch;
#pragma unroll
      for (int q = 0; q < Q; ++q) m[a][q] = load_word<HINT>(row + rot(row, q));
    }
#pragma unroll
    for (int a = 0; a < R; ++a) {
      const int r = warp + a * WARPS;
      const std::uint32_t* urow = upper + r * p.pitch;
      const std::uint32_t* mrow = mirror + r * p.pitch;
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        A[r * PT + rot(urow, q)] = u[a][q];
        B[r * PT + rot(mrow, q)] = m[a][q];
      }
    }
    __syncthreads();
    asm volatile("" : "+l"(upper), "+l"(mirror));  // as pattern_rotated
    // Mirror row r, column e <- upper (e, r); upper row r, column e <- mirror (e, r).
#pragma unroll
    for (int a = 0; a < R; ++a) {
      const int r = warp + a * WARPS;
      std::uint32_t* row = mirror + r * p.pitch;
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        const int e = rot(row, q);
        row[e] = A[e * PT + r];
      }
    }
#pragma unroll
    for (int a = 0; a < R; ++a) {
      const int r = warp + a * WARPS;
      std::uint32_t* row = upper + r * p.pitch;
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        const int e = rot(row, q);
        row[e] = B[e * PT + r];
      }
    }
    __syncthreads();
  }
}

}  // namespace xpose::bench
