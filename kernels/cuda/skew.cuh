/// @file
/// The out-of-place transpose for layouts the word-aligned kernel (tiled.cuh) cannot take:
/// pitches that are not a multiple of 16 bytes, such as a 16411-wide float matrix.
///
/// Two things go wrong there with the tiled kernel. Its V x V register blocks need V rows with the
/// same alignment, so it falls back to one element per access. And each tile writes, per output
/// row, a piece that starts and ends inside a 32-byte sector; the neighbouring tile that fills
/// the rest of the sector runs a whole tile row later, so the memory system merges partial
/// sectors (measured: 0.64 x memcpy for f32, 0.72 for f64, 0.87 for complex128 at 16411²).
///
/// This kernel skews the tiles instead. Output row c is cut into pieces that start at an
/// A_OUT-aligned address (A_OUT = 32: whole sectors; 128: whole lines): piece k of row c covers
/// output columns [k*TH - m_c, (k+1)*TH - m_c), where m_c < A_OUT/S is that row's misalignment in
/// elements. A block owns pieces k of TW consecutive output rows, so it needs input rows
/// [k*TH - M, (k+1)*TH) with M = A_OUT/S - 1: the M rows above its own are read again (the block
/// above read them one tile row earlier, so they come from L2). Loads are W-byte words at
/// W-aligned addresses, whatever the row's alignment; their elements are scattered one by one into
/// a padded shared tile; stores gather elements back into whole aligned words. Words that stick
/// out of the matrix fall back to guarded element accesses, so there is one code path for edge
/// and interior tiles. Plain shared memory and __syncthreads only (sm_35 onwards).
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/check.h"
#include "kernels/cuda/tile.cuh"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels::cuda_tile {

/// S: element bytes; W: access bytes; TH x TW: output columns x output rows a block writes;
/// NT: threads; A_OUT: alignment of the output pieces in bytes (0: pieces follow the matrix
/// grid, as the in-place kernel needs); MINB, HINT: as TileConfig (HINT: loads only).
template <int S_, int W_, int TH_, int TW_, int NT_, int A_OUT_, int MINB_ = 1, int HINT_ = 0>
struct SkewConfig {
  static constexpr int S = S_;
  static constexpr int W = W_;
  static constexpr int V = W / S;
  static constexpr int TH = TH_;
  static constexpr int TW = TW_;
  static constexpr int NT = NT_;
  static constexpr int A_OUT = A_OUT_;
  static constexpr int MINB = MINB_;
  static constexpr int HINT = HINT_;
  static constexpr bool SKEWED = A_OUT > 0;
  static constexpr int M = A_OUT > S ? A_OUT / S - 1 : 0;  ///< most extra input rows
  static constexpr int WORDS_IN = TW / V + 1;              ///< words covering TW columns of a row
  /// Words covering one output piece: aligned pieces need TH / V, others one more.
  static constexpr int WORDS_OUT = TH / V + (SKEWED ? 0 : 1);
  /// Elements one conflict-free shared-memory wavefront serves (32 banks of 4 bytes).
  static constexpr int SWZ = 128 / (S > 4 ? S : 4);
  /// Shared row pitch in elements, a multiple of SWZ: element (j, i) sits at
  /// j * PITCH + (i ^ (j / V mod SWZ)), so the scatter of consecutive words (V shared rows apart,
  /// same i) lands on distinct banks and the XOR stays inside the row.
  static constexpr int PITCH = (TH + M + SWZ - 1) / SWZ * SWZ;
  static constexpr int LOAD_ITERS = ((TH + M) * WORDS_IN + NT - 1) / NT;
  static constexpr int STORE_ITERS = (TW * WORDS_OUT + NT - 1) / NT;
  static constexpr std::size_t SMEM_BYTES = static_cast<std::size_t>(TW) * PITCH * S;

  using Elem = typename Bytes<S>::type;
  using Word = typename Bytes<W>::type;
  union Pack {
    Word w;
    Elem e[V];
  };

  static_assert(W % S == 0 && W <= 16, "a word holds whole elements");
  static_assert(!SKEWED || (A_OUT % W == 0 && TH % (A_OUT >= S ? A_OUT / S : 1) == 0),
                "aligned pieces start and end on word boundaries");
  static_assert(TH % V == 0 && NT % 32 == 0, "whole words, whole warps");

  __device__ __forceinline__ static int slot(int j, int i) {
    return j * PITCH + (i ^ ((j / V) & (SWZ - 1)));
  }
};

/// TiledParams, with tiles of C::TH rows that start m rows early (the pieces' shift).
struct SkewParams : TiledParams {
  int m;  ///< extra input rows this launch needs: C::M, or 0 when every output row is aligned
};

/// Load phase, first half: rows i_begin .. i_begin + n_rows - 1 and columns c0 .. c0 + TW - 1 of
/// the matrix at `base` (rows `pitch` bytes apart, rows x cols valid), as W-byte words at
/// W-aligned addresses, into the thread's registers `v` (LOAD_ITERS words); j0[it] is the column
/// of word it's first element, counted from c0 (TW: nothing to scatter). All loads are issued
/// here and none is used, so a caller can issue several tiles' loads before the first
/// scatter_rows.
/// EXACT: touch no element outside the block (the in-place kernel's neighbours are writing
/// there): a word that straddles the block's edge is read element by element. Otherwise a word is
/// read whole wherever it lies inside the row.
template <class C, bool EXACT>
__device__ __forceinline__ void issue_rows(const char* __restrict__ base, std::int64_t pitch,
                                           std::int64_t rows, std::int64_t cols,
                                           std::int64_t i_begin, int n_rows, std::int64_t c0,
                                           typename C::Pack (&v)[C::LOAD_ITERS],
                                           int (&j0)[C::LOAD_ITERS]) {
  using Elem = typename C::Elem;
  using Word = typename C::Word;
  const std::int64_t own_cols = cols - c0 < C::TW ? cols - c0 : C::TW;  // columns of the block
#pragma unroll
  for (int it = 0; it < C::LOAD_ITERS; ++it) {
    const int s = threadIdx.x + it * C::NT;
    const int il = s / C::WORDS_IN;  // row in the block
    const int k = s - il * C::WORDS_IN;
    const std::int64_t i = i_begin + il;
    j0[it] = C::TW;
    if (il >= n_rows || i < 0 || i >= rows) continue;
    const char* row = base + i * pitch;
    const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(row + c0 * C::S);
    const std::uintptr_t word = (first & ~std::uintptr_t(C::W - 1)) + std::uintptr_t(k) * C::W;
    const int j = static_cast<int>(
        (static_cast<std::intptr_t>(word) - static_cast<std::intptr_t>(first)) / C::S);
    if (j >= own_cols) continue;
    j0[it] = j;
    const bool whole =
        EXACT ? j >= 0 && j + C::V <= own_cols : c0 + j >= 0 && c0 + j + C::V <= cols;
    if (whole) {
      v[it].w = load_word<C::HINT>(reinterpret_cast<const Word*>(word));
    } else {  // only the word's elements inside the block (EXACT) or the row
#pragma unroll
      for (int e = 0; e < C::V; ++e) {
        const bool inside =
            EXACT ? j + e >= 0 && j + e < own_cols : c0 + j + e >= 0 && c0 + j + e < cols;
        v[it].e[e] = inside ? reinterpret_cast<const Elem*>(word)[e] : Elem{};
      }
    }
  }
}

/// Load phase, second half: scatters the words issue_rows loaded (same `cols` and `c0`) into
/// shared memory in output order (shared row j = column c0 + j, shared column il = row
/// i_begin + il), the block's own elements only.
template <class C>
__device__ __forceinline__ void scatter_rows(std::int64_t cols, std::int64_t c0,
                                             const typename C::Pack (&v)[C::LOAD_ITERS],
                                             const int (&j0)[C::LOAD_ITERS],
                                             typename C::Elem* __restrict__ smem) {
  const std::int64_t own_cols = cols - c0 < C::TW ? cols - c0 : C::TW;
#pragma unroll
  for (int it = 0; it < C::LOAD_ITERS; ++it) {
    if (j0[it] >= C::TW) continue;
    const int il = (threadIdx.x + it * C::NT) / C::WORDS_IN;
#pragma unroll
    for (int e = 0; e < C::V; ++e) {
      const int j = j0[it] + e;
      if (j >= 0 && j < own_cols) smem[C::slot(j, il)] = v[it].e[e];
    }
  }
}

/// Store phase: output rows c0 .. c0 + TW - 1 of the matrix at `base` (rows `pitch` bytes apart,
/// out_rows x out_cols valid); row c gets the piece of TH elements that starts at column
/// p_base - mis_c, gathered from shared memory (shared column p - (p_base - m)) into W-byte
/// words. SKEWED: mis_c aligns the piece to A_OUT (when m > 0), so every word is whole except at
/// the matrix's edges. Otherwise mis_c = 0 and the words at both ends of a misaligned piece are
/// written element by element. Either way no element outside the pieces is written.
template <class C>
__device__ __forceinline__ void store_rows(char* __restrict__ base, std::int64_t pitch,
                                           std::int64_t out_rows, std::int64_t out_cols,
                                           std::int64_t c0, std::int64_t p_base, int m,
                                           const typename C::Elem* __restrict__ smem) {
  using Elem = typename C::Elem;
  using Word = typename C::Word;
  using Pack = typename C::Pack;
#pragma unroll
  for (int it = 0; it < C::STORE_ITERS; ++it) {
    const int s = threadIdx.x + it * C::NT;
    const int cl = s / C::WORDS_OUT;
    const int h = s - cl * C::WORDS_OUT;
    const std::int64_t c = c0 + cl;
    if (cl >= C::TW || c >= out_rows) continue;
    char* orow = base + c * pitch;
    int mis = 0;
    if (C::SKEWED && m > 0)
      mis = static_cast<int>((reinterpret_cast<std::uintptr_t>(orow) % (C::SKEWED ? C::A_OUT : 1)) /
                             C::S);
    const std::int64_t p_begin = p_base - mis;  // the piece: [p_begin, p_begin + TH)
    const std::int64_t lo = p_begin > 0 ? p_begin : 0;
    const std::int64_t hi = p_begin + C::TH < out_cols ? p_begin + C::TH : out_cols;
    // First element of word h: pieces of a skewed launch start aligned; others from the word
    // boundary at or before p_begin.
    std::int64_t pw = p_begin + h * C::V;
    if (!C::SKEWED)
      pw -= static_cast<std::int64_t>(
          (reinterpret_cast<std::uintptr_t>(orow + p_begin * C::S) % C::W) / C::S);
    if (pw >= hi || pw + C::V <= lo) continue;
    const int i0 =
        static_cast<int>(pw - (p_base - m));  // shared column of the word's first element
    Pack v;
#pragma unroll
    for (int e = 0; e < C::V; ++e) {
      const int il = i0 + e;
      v.e[e] = il >= 0 && il < C::PITCH ? smem[C::slot(cl, il)] : Elem{};
    }
    char* dst = orow + pw * C::S;
    if (pw >= lo && pw + C::V <= hi) {
      *reinterpret_cast<Word*>(dst) = v.w;
    } else {
#pragma unroll
      for (int e = 0; e < C::V; ++e)
        if (pw + e >= lo && pw + e < hi) reinterpret_cast<Elem*>(dst)[e] = v.e[e];
    }
  }
}

// The kernel and its launcher need nvcc.
#if defined(__CUDACC__)
/// SPREAD: the tiles in the order of TiledParams::spread (for_each_tile's SPREAD).
template <class C, bool SPREAD = false>
__global__ void __launch_bounds__(C::NT, C::MINB) skew_kernel(SkewParams p) {
  extern __shared__ uint4 skew_smem_raw[];
  auto* smem = reinterpret_cast<typename C::Elem*>(skew_smem_raw);
  for_each_tile<SPREAD>(p, C::TH, C::TW,
                        [&](const char* in, char* out, std::int64_t r0, std::int64_t c0) {
                          typename C::Pack v[C::LOAD_ITERS];  // all loads issued before the scatter
                          int j0[C::LOAD_ITERS];
                          issue_rows<C, false>(in, p.in_pitch_bytes, p.rows, p.cols, r0 - p.m,
                                               C::TH + p.m, c0, v, j0);
                          scatter_rows<C>(p.cols, c0, v, j0, smem);
                          __syncthreads();
                          store_rows<C>(out, p.out_pitch_bytes, p.cols, p.rows, c0, r0, p.m, smem);
                          __syncthreads();  // the next tile overwrites shared memory
                        });
}

/// Whether skew_kernel<C> can take this (resolved) shape: only element alignment is needed.
template <class C>
bool skew_accepts(const void* in, const void* out, const TransposeShape&) {
  return element_aligned(in, out, C::S);
}

/// Launches a kernel of the skewed layout (skew_kernel, or realign.cuh's rskew_kernel) on
/// `stream`: tiles of C::TH rows that start `m` rows early (the pieces' shift), `group` as
/// launch_tiled's; `stagger`, `turn`, `spread` as TiledParams'. `s` resolved and non-empty;
/// `name` names the kernel in a launch error.
template <class C>
void launch_skewed_with(void (*kernel)(SkewParams), const char* name, const void* in, void* out,
                        const TransposeShape& s, std::int64_t m, cudaStream_t stream, int group,
                        std::uint32_t stagger = 0, std::uint32_t turn = 0,
                        std::uint32_t spread = 1) {
  SkewParams p;
  static_cast<TiledParams&>(p) = tiled_params(in, out, s, C::S, (s.cols + C::TW - 1) / C::TW,
                                              (s.rows + m + C::TH - 1) / C::TH, group);
  p.stagger = stagger;
  p.turn = turn;
  p.spread = spread;
  p.m = static_cast<int>(m);
  const std::int64_t gx = std::min<std::int64_t>(p.tiles, 0x7fffffff);
  const std::int64_t gy = std::min<std::int64_t>(s.batch, 65535);
  cuda_detail::allow_dynamic_smem(kernel, C::SMEM_BYTES);
  kernel<<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), C::NT, C::SMEM_BYTES,
           stream>>>(p);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    cuda_detail::throw_cuda_error(err, cat("launch of ", name).c_str(), __FILE__, __LINE__);
}

/// Launches skew_kernel<C, SPREAD> on `stream`; `group` as launch_tiled's, `stagger`, `turn` and
/// `spread` (SPREAD only) as TiledParams'.
template <class C, bool SPREAD = false>
void launch_skew(const void* in, void* out, const TransposeShape& s, cudaStream_t stream,
                 int group = 1, std::uint32_t stagger = 0, std::uint32_t turn = 0,
                 std::uint32_t spread = 1) {
  // Every output row aligned: no skew, no extra rows.
  const bool aligned = output_rows_aligned(out, s, C::S, C::A_OUT);
  launch_skewed_with<C>(skew_kernel<C, SPREAD>, "skew_kernel", in, out, s, aligned ? 0 : C::M,
                        stream, group, stagger, turn, spread);
}

#endif  // __CUDACC__

}  // namespace xpose::kernels::cuda_tile
