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
/// NT: threads; A_OUT: alignment of the output pieces in bytes; MINB: as TileConfig.
template <int S_, int W_, int TH_, int TW_, int NT_, int A_OUT_, int MINB_ = 1>
struct SkewConfig {
  static constexpr int S = S_;
  static constexpr int W = W_;
  static constexpr int V = W / S;
  static constexpr int TH = TH_;
  static constexpr int TW = TW_;
  static constexpr int NT = NT_;
  static constexpr int A_OUT = A_OUT_;
  static constexpr int MINB = MINB_;
  static constexpr int M = A_OUT > S ? A_OUT / S - 1 : 0;  ///< most extra input rows
  static constexpr int WORDS_IN = TW / V + 1;              ///< words covering TW columns of a row
  static constexpr int WORDS_OUT = TH / V;                 ///< words of one output piece
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
  static_assert(A_OUT % W == 0 && A_OUT >= W, "pieces start at word boundaries");
  static_assert(TH % (A_OUT / S > 0 ? A_OUT / S : 1) == 0 && TH % V == 0,
                "pieces end where the next one starts aligned");
  static_assert(NT % 32 == 0, "whole warps");

  __device__ __forceinline__ static int slot(int j, int i) {
    return j * PITCH + (i ^ ((j / V) & (SWZ - 1)));
  }
};

struct SkewParams {
  const char* in;
  char* out;
  std::int64_t rows;
  std::int64_t cols;
  std::int64_t batch;
  std::int64_t in_pitch_bytes;
  std::int64_t out_pitch_bytes;
  std::int64_t in_stride_bytes;
  std::int64_t out_stride_bytes;
  std::uint32_t tiles_x;
  std::uint32_t tiles_y;
  std::uint32_t tiles;
  std::uint32_t group;
  int m;  ///< extra input rows this launch needs: C::M, or 0 when every output row is aligned
};

/// Load phase of tile (ty, tx): input rows ty*TH - m .. ty*TH + TH - 1, columns c0 .. c0 + TW - 1
/// (c0 = tx*TW), as W-byte words, scattered into shared memory in output order. All loads are
/// issued first (LOAD_ITERS words in flight per thread), then the scatter.
template <class C>
__device__ __forceinline__ void skew_load(const SkewParams& p, const char* __restrict__ in,
                                          std::uint32_t ty, std::int64_t c0,
                                          typename C::Elem* __restrict__ smem) {
  using Elem = typename C::Elem;
  using Word = typename C::Word;
  using Pack = typename C::Pack;
  const std::int64_t r_base = static_cast<std::int64_t>(ty) * C::TH - p.m;  // smem column 0
  const int halo_rows = C::TH + p.m;
  const std::int64_t row_bytes = p.cols * C::S;  // valid bytes of an input row
  Pack v[C::LOAD_ITERS];
  int j0[C::LOAD_ITERS];  // column - c0 of each word's first element; TW: nothing to do
#pragma unroll
  for (int it = 0; it < C::LOAD_ITERS; ++it) {
    const int s = threadIdx.x + it * C::NT;
    const int il = s / C::WORDS_IN;  // row in the tile
    const int k = s - il * C::WORDS_IN;
    const std::int64_t i = r_base + il;
    j0[it] = C::TW;
    if (il >= halo_rows || i < 0 || i >= p.rows) continue;
    const char* row = in + i * p.in_pitch_bytes;
    const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(row + c0 * C::S);
    const std::uintptr_t word = (first & ~std::uintptr_t(C::W - 1)) + std::uintptr_t(k) * C::W;
    const int j = static_cast<int>(
        (static_cast<std::intptr_t>(word) - static_cast<std::intptr_t>(first)) / C::S);
    if (j >= C::TW || c0 + j >= p.cols) continue;
    j0[it] = j;
    const std::uintptr_t row_lo = reinterpret_cast<std::uintptr_t>(row);
    if (word >= row_lo && word + C::W <= row_lo + row_bytes) {
      v[it].w = *reinterpret_cast<const Word*>(word);
    } else {  // the word sticks out of the row: only its elements inside
#pragma unroll
      for (int e = 0; e < C::V; ++e) {
        const std::int64_t col = c0 + j + e;
        v[it].e[e] = (col >= 0 && col < p.cols) ? reinterpret_cast<const Elem*>(word)[e] : Elem{};
      }
    }
  }
#pragma unroll
  for (int it = 0; it < C::LOAD_ITERS; ++it) {
    if (j0[it] >= C::TW) continue;
    const int il = (threadIdx.x + it * C::NT) / C::WORDS_IN;
#pragma unroll
    for (int e = 0; e < C::V; ++e) {
      const int j = j0[it] + e;
      if (j >= 0 && j < C::TW) smem[C::slot(j, il)] = v[it].e[e];
    }
  }
}

/// Store phase: output rows c0 .. c0 + TW - 1, each its aligned piece of TH elements, gathered
/// from shared memory into whole W-byte words.
template <class C>
__device__ __forceinline__ void skew_store(const SkewParams& p, char* __restrict__ out,
                                           std::uint32_t ty, std::int64_t c0,
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
    if (cl >= C::TW || c >= p.cols) continue;
    char* orow = out + c * p.out_pitch_bytes;
    const int mis =
        p.m ? static_cast<int>((reinterpret_cast<std::uintptr_t>(orow) % C::A_OUT) / C::S) : 0;
    const std::int64_t p0 =
        static_cast<std::int64_t>(ty) * C::TH - mis + h * C::V;  // first output column
    if (p0 >= p.rows || p0 + C::V <= 0) continue;
    const int i0 = p.m - mis + h * C::V;  // shared column of the word's first element
    Pack v;
#pragma unroll
    for (int e = 0; e < C::V; ++e) v.e[e] = smem[C::slot(cl, i0 + e)];
    char* dst = orow + p0 * C::S;
    if (p0 >= 0 && p0 + C::V <= p.rows) {
      *reinterpret_cast<Word*>(dst) = v.w;
    } else {
#pragma unroll
      for (int e = 0; e < C::V; ++e)
        if (p0 + e >= 0 && p0 + e < p.rows) reinterpret_cast<Elem*>(dst)[e] = v.e[e];
    }
  }
}

// The phases above also compile as host code (the layout tests simulate them); the kernel and
// its launcher need nvcc.
#if defined(__CUDACC__)
template <class C>
__global__ void __launch_bounds__(C::NT, C::MINB) skew_kernel(SkewParams p) {
  extern __shared__ uint4 skew_smem_raw[];
  auto* smem = reinterpret_cast<typename C::Elem*>(skew_smem_raw);
  TiledParams order{};
  order.tiles_x = p.tiles_x;
  order.tiles_y = p.tiles_y;
  order.group = p.group;
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    const char* in = p.in + b * p.in_stride_bytes;
    char* out = p.out + b * p.out_stride_bytes;
    for (std::uint64_t t = blockIdx.x; t < p.tiles; t += gridDim.x) {
      std::uint32_t ty, tx;
      tile_of(order, static_cast<std::uint32_t>(t), ty, tx);
      const std::int64_t c0 = static_cast<std::int64_t>(tx) * C::TW;
      skew_load<C>(p, in, ty, c0, smem);
      __syncthreads();
      skew_store<C>(p, out, ty, c0, smem);
      __syncthreads();  // the next tile overwrites shared memory
    }
  }
}

/// Whether skew_kernel<C> can take this (resolved) shape: only element alignment is needed.
template <class C>
bool skew_accepts(const void* in, const void* out, const TransposeShape&) {
  return reinterpret_cast<std::uintptr_t>(in) % C::S == 0 &&
         reinterpret_cast<std::uintptr_t>(out) % C::S == 0;
}

/// Launches skew_kernel<C> on `stream`; `group` as launch_tiled's.
template <class C>
void launch_skew(const void* in, void* out, const TransposeShape& s, cudaStream_t stream,
                 int group = 1) {
  SkewParams p;
  p.in = static_cast<const char*>(in);
  p.out = static_cast<char*>(out);
  p.rows = s.rows;
  p.cols = s.cols;
  p.batch = s.batch;
  p.in_pitch_bytes = s.in_pitch * C::S;
  p.out_pitch_bytes = s.out_pitch * C::S;
  p.in_stride_bytes = s.in_batch_stride * C::S;
  p.out_stride_bytes = s.out_batch_stride * C::S;
  // Every output row aligned: no skew, no extra rows.
  const bool aligned = reinterpret_cast<std::uintptr_t>(out) % C::A_OUT == 0 &&
                       p.out_pitch_bytes % C::A_OUT == 0 &&
                       (s.batch <= 1 || p.out_stride_bytes % C::A_OUT == 0);
  p.m = aligned ? 0 : C::M;
  const std::int64_t tiles_x = (s.cols + C::TW - 1) / C::TW;
  const std::int64_t tiles_y = (s.rows + p.m + C::TH - 1) / C::TH;
  const std::int64_t tiles = tiles_x * tiles_y;
  if (tiles >= (std::int64_t{1} << 32))
    throw DimensionMismatch(
        cat("transpose_cuda: ", s.rows, " x ", s.cols, " needs ", tiles, " tiles, more than 2^32"));
  p.tiles_x = static_cast<std::uint32_t>(tiles_x);
  p.tiles_y = static_cast<std::uint32_t>(tiles_y);
  p.tiles = static_cast<std::uint32_t>(tiles);
  p.group = group > 1 && group * tiles_x < (std::int64_t{1} << 32)
                ? static_cast<std::uint32_t>(group)
                : 1;
  const std::int64_t gx = std::min<std::int64_t>(tiles, 0x7fffffff);
  const std::int64_t gy = std::min<std::int64_t>(s.batch, 65535);
  if (C::SMEM_BYTES > 48 * 1024)
    XPOSE_CHECK_CUDA(cudaFuncSetAttribute(skew_kernel<C>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(C::SMEM_BYTES)));
  skew_kernel<C><<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), C::NT, C::SMEM_BYTES,
                   stream>>>(p);
  XPOSE_CHECK_CUDA_LAUNCH("skew_kernel");
}

#endif  // __CUDACC__

}  // namespace xpose::kernels::cuda_tile
