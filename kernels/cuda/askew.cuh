/// @file
/// The skewed out-of-place transpose (skew.cuh) with its input words copied to shared memory
/// asynchronously (cp.async, sm_80 and newer) instead of through registers.
///
/// The skewed kernel holds a tile's input words in registers between the loads and the scatter
/// into the transposed shared tile, so its registers bound the bytes an SM has in flight (four
/// blocks of 256 threads with five 16-byte words each for f32: 80 KB). Here the words go to a
/// staging area of shared memory as they are (row il of the block at word il * WORDS_IN), so the
/// loads hold no registers while in flight; the scatter then reads them from there. STAGES = 2
/// adds a second staging area and a persistent grid: a block issues the copies of its next tile
/// before it scatters and stores the current one, so its loads are in flight all the time.
/// Words that stick out of a matrix row are read element by element with plain loads (as in the
/// skewed kernel). Without sm_80 the copies are plain loads and shared stores, so the kernel is
/// correct on every architecture; the layout (pieces, extra rows, stores) is the skewed
/// kernel's.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/check.h"
#include "kernels/cuda/skew.cuh"
#include "kernels/cuda/tile.cuh"

namespace xpose::kernels::cuda_tile {

/// A SkewConfig with the staging area: ROWS input rows of WORDS_IN W-byte words each.
template <class C, int STAGES_>
struct AsyncSkewConfig : C {
  static constexpr int STAGES = STAGES_;
  static constexpr int ROWS = C::TH + C::M;
  static constexpr int STAGE_WORDS = ROWS * C::WORDS_IN;
  static constexpr std::size_t STAGE_BYTES = static_cast<std::size_t>(STAGE_WORDS) * C::W;
  static constexpr std::size_t TOTAL_SMEM = C::SMEM_BYTES + STAGES * STAGE_BYTES;
  static_assert(C::W == 16, "16-byte copies");
  static_assert(C::SMEM_BYTES % 16 == 0, "the staging area starts 16-byte aligned");
};

#if defined(__CUDACC__)

__device__ __forceinline__ void copy16_async(void* dst, const void* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const auto d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src) : "memory");
#else
  *static_cast<uint4*>(dst) = *static_cast<const uint4*>(src);
#endif
}
__device__ __forceinline__ void copy_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
/// Waits until at most N committed groups of this thread are still in flight.
template <int N>
__device__ __forceinline__ void copy_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
}

/// Where word s of the block's staging area comes from: input row i_begin + il, the W-aligned
/// word k of that row's part from column c0 on. Sets j (column - c0 of its first element) and
/// returns false where the word holds nothing of the block.
template <class C>
__device__ __forceinline__ bool stage_word(const char* base, std::int64_t pitch,
                                           std::int64_t rows, std::int64_t i_begin, int n_rows,
                                           std::int64_t c0, int own_cols, int s, int& il,
                                           const char*& word, int& j) {
  il = s / C::WORDS_IN;
  const int k = s - il * C::WORDS_IN;
  const std::int64_t i = i_begin + il;
  if (s >= C::ROWS * C::WORDS_IN || il >= n_rows || i < 0 || i >= rows) return false;
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(base + i * pitch + c0 * C::S);
  const std::uintptr_t w = (first & ~std::uintptr_t(C::W - 1)) + std::uintptr_t(k) * C::W;
  j = static_cast<int>((static_cast<std::intptr_t>(w) - static_cast<std::intptr_t>(first)) / C::S);
  word = reinterpret_cast<const char*>(w);
  return j < own_cols;
}

/// Issues the copies of the tile's input words into `stage` (one commit group).
template <class C>
__device__ __forceinline__ void stage_issue(const char* __restrict__ base, std::int64_t pitch,
                                            std::int64_t rows, std::int64_t cols,
                                            std::int64_t i_begin, int n_rows, std::int64_t c0,
                                            typename C::Word* __restrict__ stage) {
  using Elem = typename C::Elem;
  using Pack = typename C::Pack;
  const int own_cols = static_cast<int>(cols - c0 < C::TW ? cols - c0 : C::TW);
#pragma unroll 1
  for (int it = 0; it < (C::STAGE_WORDS + C::NT - 1) / C::NT; ++it) {
    const int s = threadIdx.x + it * C::NT;
    int il, j;
    const char* word;
    if (!stage_word<C>(base, pitch, rows, i_begin, n_rows, c0, own_cols, s, il, word, j)) continue;
    if (c0 + j >= 0 && c0 + j + C::V <= cols) {
      copy16_async(stage + s, word);
    } else {  // the word sticks out of the row: its elements inside, one by one
      Pack v;
#pragma unroll
      for (int e = 0; e < C::V; ++e)
        v.e[e] = c0 + j + e >= 0 && c0 + j + e < cols ? reinterpret_cast<const Elem*>(word)[e]
                                                      : Elem{};
      stage[s] = v.w;
    }
  }
  copy_async_commit();
}

/// Scatters the staged words into the transposed tile (as skew.cuh's load_rows does from
/// registers).
template <class C>
__device__ __forceinline__ void stage_scatter(const char* __restrict__ base, std::int64_t pitch,
                                              std::int64_t rows, std::int64_t cols,
                                              std::int64_t i_begin, int n_rows, std::int64_t c0,
                                              const typename C::Word* __restrict__ stage,
                                              typename C::Elem* __restrict__ smem) {
  using Pack = typename C::Pack;
  const int own_cols = static_cast<int>(cols - c0 < C::TW ? cols - c0 : C::TW);
#pragma unroll 1
  for (int it = 0; it < (C::STAGE_WORDS + C::NT - 1) / C::NT; ++it) {
    const int s = threadIdx.x + it * C::NT;
    int il, j;
    const char* word;
    if (!stage_word<C>(base, pitch, rows, i_begin, n_rows, c0, own_cols, s, il, word, j)) continue;
    Pack v;
    v.w = stage[s];
#pragma unroll
    for (int e = 0; e < C::V; ++e)
      if (j + e >= 0 && j + e < own_cols) smem[C::slot(j + e, il)] = v.e[e];
  }
}

/// One tile a block per round (STAGES = 1), or a persistent grid that stages its next tile while
/// it finishes the current one (STAGES = 2). Tiles (and matrices of a batch) are numbered
/// u = batch index * tiles + tile, taken in order u = blockIdx.x, blockIdx.x + gridDim.x, ...
template <class C>
__global__ void __launch_bounds__(C::NT, C::MINB) askew_kernel(SkewParams p) {
  extern __shared__ uint4 askew_smem_raw[];
  auto* smem = reinterpret_cast<typename C::Elem*>(askew_smem_raw);
  auto* stage0 = reinterpret_cast<typename C::Word*>(reinterpret_cast<char*>(askew_smem_raw) +
                                                     C::SMEM_BYTES);
  const std::uint64_t total = static_cast<std::uint64_t>(p.tiles) * p.batch;
  struct Tile {
    const char* in;
    char* out;
    std::int64_t r0, c0;
  };
  const auto tile = [&](std::uint64_t u) {
    const std::uint64_t b = u / p.tiles;
    std::uint32_t ty, tx;
    tile_of(p, static_cast<std::uint32_t>(u - b * p.tiles), ty, tx);
    return Tile{p.in + static_cast<std::int64_t>(b) * p.in_stride_bytes,
                p.out + static_cast<std::int64_t>(b) * p.out_stride_bytes,
                static_cast<std::int64_t>(ty) * C::TH, static_cast<std::int64_t>(tx) * C::TW};
  };
  std::uint64_t u = blockIdx.x;
  if (u >= total) return;
  Tile cur = tile(u);
  stage_issue<C>(cur.in, p.in_pitch_bytes, p.rows, p.cols, cur.r0 - p.m, C::TH + p.m, cur.c0,
                 stage0);
  for (int k = 0;; ++k) {
    typename C::Word* stage = stage0 + (C::STAGES == 2 ? (k & 1) * C::STAGE_WORDS : 0);
    const std::uint64_t un = u + gridDim.x;
    Tile next{};
    if (C::STAGES == 2) {
      if (un < total) {
        next = tile(un);
        stage_issue<C>(next.in, p.in_pitch_bytes, p.rows, p.cols, next.r0 - p.m, C::TH + p.m,
                       next.c0, stage0 + ((k + 1) & 1) * C::STAGE_WORDS);
      } else {
        copy_async_commit();  // an empty group keeps the count of wait_group<1> right
      }
      copy_async_wait<1>();
    } else {
      copy_async_wait<0>();
    }
    __syncthreads();  // every thread's words are in the staging area
    stage_scatter<C>(cur.in, p.in_pitch_bytes, p.rows, p.cols, cur.r0 - p.m, C::TH + p.m, cur.c0,
                     stage, smem);
    __syncthreads();
    store_rows<C>(cur.out, p.out_pitch_bytes, p.cols, p.rows, cur.c0, cur.r0, p.m, smem);
    if (un >= total) break;
    __syncthreads();  // the next scatter overwrites the tile (and, STAGES 1, the staging area)
    u = un;
    if (C::STAGES == 2) {
      cur = next;
    } else {
      cur = tile(u);
      stage_issue<C>(cur.in, p.in_pitch_bytes, p.rows, p.cols, cur.r0 - p.m, C::TH + p.m, cur.c0,
                     stage0);
    }
  }
}

/// Launches askew_kernel<C> on `stream` (`s` resolved, non-empty, element-aligned): one block a
/// tile for STAGES 1, as many blocks as fit on the device at once for STAGES 2.
template <class C>
void launch_askew(const void* in, void* out, const TransposeShape& s, cudaStream_t stream) {
  const std::int64_t out_pitch_bytes = s.out_pitch * C::S;
  const bool aligned = reinterpret_cast<std::uintptr_t>(out) % C::A_OUT == 0 &&
                       out_pitch_bytes % C::A_OUT == 0 &&
                       (s.batch <= 1 || s.out_batch_stride * C::S % C::A_OUT == 0);
  const std::int64_t m = aligned ? 0 : C::M;
  SkewParams p;
  static_cast<TiledParams&>(p) = tiled_params(in, out, s, C::S, (s.cols + C::TW - 1) / C::TW,
                                              (s.rows + m + C::TH - 1) / C::TH, 1);
  p.m = static_cast<int>(m);
  const std::int64_t total = static_cast<std::int64_t>(p.tiles) * s.batch;
  cuda_detail::allow_dynamic_smem(askew_kernel<C>, C::TOTAL_SMEM);
  std::int64_t gx = std::min<std::int64_t>(total, 0x7fffffff);
  if (C::STAGES == 2) {
    int device = 0, sms = 0, per_sm = 0;
    XPOSE_CHECK_CUDA(cudaGetDevice(&device));
    XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    XPOSE_CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, askew_kernel<C>, C::NT,
                                                                   C::TOTAL_SMEM));
    gx = std::min<std::int64_t>(gx, static_cast<std::int64_t>(sms) * std::max(per_sm, 1));
  }
  askew_kernel<C><<<static_cast<unsigned>(gx), C::NT, C::TOTAL_SMEM, stream>>>(p);
  XPOSE_CHECK_CUDA_LAUNCH("askew_kernel");
}

#endif  // __CUDACC__

}  // namespace xpose::kernels::cuda_tile
