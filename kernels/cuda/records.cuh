/// @file
/// Records: 1- and 2-byte elements where the short side m is at most kRecordsMax, the tall matrix
/// (len rows of m elements) is dense and on 4 bytes and the wide one's rows (m rows of len) start
/// on 4 bytes: interleaved channels such as RGB pixels (len x 3 u8) to planes (3 x len) and back.
/// The thin kernel (thin.cuh) goes through a shared slab one element at a time where m is not a
/// multiple of 4 / S (0.57-0.77 x memcpy for u8); here M = m is a template argument and
/// no element is moved alone:
///   a group is P = 4 / S consecutive tall rows, M words of the tall run; its transpose is one
///   word of each of the M wide rows (column P g of each), built from the group's words by byte
///   permutes whose selectors are constants;
///   a warp takes 32 consecutive groups (a chunk: 32 M words of the tall run, one 128-byte piece
///   of each wide row). The tall run is read or written by the warp as 32 M consecutive words
///   (M coalesced accesses) and handed between lanes through shared memory (lane l's group is
///   words l M .. l M + M - 1 of the chunk; records_pad keeps both sides of the exchange free of
///   bank conflicts, or two-way for some even M); the wide rows are read or written as one 4-byte
///   word a lane. Short columns have two forms (records_cols_kernel): each warp's 128-byte
///   pieces where they fall, or whole 128-byte lines of the wide rows, which pays where the rows
///   are off 32-byte sectors.
/// The last len mod 32 P tall rows of each matrix go element by element. Plain loads and stores,
/// byte permutes and __syncwarp: sm_35 on (CUDA 9 and newer).
#pragma once

#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/cuda/check.h"
#include "kernels/cuda/thin.cuh"
#include "kernels/cuda/tile.cuh"
#include "kernels/transpose.h"

namespace xpose::kernels::cuda_tile {

/// The longest short side the records kernel takes.
constexpr int kRecordsMax = 16;

struct RecordsParams {
  const unsigned char* in;
  unsigned char* out;
  std::int64_t len;                  ///< long side, elements (tall rows)
  std::int64_t pitch;                ///< bytes between the wide matrix's rows
  std::int64_t in_batch, out_batch;  ///< bytes between matrices
  std::int64_t batch;
  std::int64_t chunks;  ///< whole chunks (32 P tall rows) a matrix
};

/// Chunks a warp has in flight at once: at least 4 words a lane where M is small.
template <int M>
constexpr int records_unroll() {
  return M == 1 ? 4 : M == 2 ? 4 : M <= 4 ? 2 : 1;
}

/// Index of word i of a warp's chunk in its shared buffer: for odd M none (words l M + t of the
/// 32 lanes then fall on 32 banks), for even M one pad word every 32 (no conflict for M = 2, 4,
/// 8, 16; two-way for 6, 10, 12, 14); words t 32 + l take 32 banks either way.
template <int M>
__device__ __forceinline__ int records_pad(int i) {
  return M % 2 == 0 ? i + (i >> 5) : i;
}

/// Bytes b0..b3 of words a0..a3 as one word (selectors constant where the b's are).
__device__ __forceinline__ std::uint32_t records_pick4(std::uint32_t a0, int b0, std::uint32_t a1,
                                                       int b1, std::uint32_t a2, int b2,
                                                       std::uint32_t a3, int b3) {
  const std::uint32_t lo = __byte_perm(a0, a1, static_cast<unsigned>(b0 | ((b1 + 4) << 4)));
  const std::uint32_t hi = __byte_perm(a2, a3, static_cast<unsigned>(b2 | ((b3 + 4) << 4)));
  return __byte_perm(lo, hi, 0x5410);
}

/// Halves h0, h1 of words a0, a1 as one word.
__device__ __forceinline__ std::uint32_t records_pick2(std::uint32_t a0, int h0, std::uint32_t a1,
                                                       int h1) {
  return __byte_perm(a0, a1,
                     static_cast<unsigned>((2 * h0) | ((2 * h0 + 1) << 4) | ((4 + 2 * h1) << 8) |
                                           ((5 + 2 * h1) << 12)));
}

/// Wide word c of a group: element k (k < P) is the group's element k M + c (tall row k,
/// column c), from the group's words g.
template <int S, int M>
__device__ __forceinline__ std::uint32_t records_wide_word(const std::uint32_t (&g)[M], int c) {
  if constexpr (S == 1) {
    return records_pick4(g[c >> 2], c & 3, g[(M + c) >> 2], (M + c) & 3, g[(2 * M + c) >> 2],
                         (2 * M + c) & 3, g[(3 * M + c) >> 2], (3 * M + c) & 3);
  } else {
    return records_pick2(g[c >> 1], c & 1, g[(M + c) >> 1], (M + c) & 1);
  }
}

/// Tall word t of a group: element j (j < P) is the group's element P t + j, i.e. tall row
/// (P t + j) / M, column (P t + j) % M: element (P t + j) / M of wide word (P t + j) % M.
template <int S, int M>
__device__ __forceinline__ std::uint32_t records_tall_word(const std::uint32_t (&w)[M], int t) {
  if constexpr (S == 1) {
    const int e = 4 * t;
    return records_pick4(w[e % M], e / M, w[(e + 1) % M], (e + 1) / M, w[(e + 2) % M], (e + 2) / M,
                         w[(e + 3) % M], (e + 3) / M);
  } else {
    const int e = 2 * t;
    return records_pick2(w[e % M], e / M, w[(e + 1) % M], (e + 1) / M);
  }
}

/// Chunks a warp takes one after another where it writes the wide rows in whole lines.
constexpr int kRecordsRun = 16;
/// Threads a block: short rows 256; short columns 128 (the line form's shared memory, 97 M words
/// a warp, stays under 48 KiB).
template <bool SHORT_ROWS>
constexpr int records_threads() {
  return SHORT_ROWS ? 256 : 128;
}

/// The last len mod 32 P tall rows of a matrix, element by element (block 0 of the matrix).
template <int S, int M, bool SHORT_ROWS>
__device__ __forceinline__ void records_tail(const RecordsParams& p, const unsigned char* in,
                                             unsigned char* out) {
  using T = typename Bytes<S>::type;
  constexpr int P = 4 / S;
  const std::int64_t j0 = p.chunks * 32 * P;
  const int tail = static_cast<int>(p.len - j0) * M;
  for (int e = static_cast<int>(threadIdx.x); e < tail; e += records_threads<SHORT_ROWS>()) {
    const std::int64_t j = j0 + e / M;
    const int c = e % M;
    if constexpr (SHORT_ROWS)
      reinterpret_cast<T*>(out)[j * M + c] = *reinterpret_cast<const T*>(in + c * p.pitch + j * S);
    else
      *reinterpret_cast<T*>(out + c * p.pitch + j * S) = reinterpret_cast<const T*>(in)[j * M + c];
  }
}

/// Short rows: the input is the wide matrix (M x len), the output the tall one (len x M).
/// blockIdx.y (strided) over the batch, the warps strided over the chunks.
template <int S, int M>
__global__ void __launch_bounds__(records_threads<true>()) records_rows_kernel(RecordsParams p) {
  constexpr int U = records_unroll<M>();
  constexpr int kWarps = records_threads<true>() / 32;
  __shared__ std::uint32_t sm[kWarps][U][33 * M];
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  const std::int64_t nw = std::int64_t(gridDim.x) * kWarps;
  const std::int64_t gw = std::int64_t(blockIdx.x) * kWarps + warp;
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    const unsigned char* in = p.in + b * p.in_batch;
    unsigned char* out = p.out + b * p.out_batch;
    auto* tall_out = reinterpret_cast<std::uint32_t*>(out);
    for (std::int64_t k0 = gw; k0 < p.chunks; k0 += nw * U) {
      std::uint32_t v[U][M];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const std::int64_t k = k0 + u * nw;  // the same for every lane of the warp
        if (k >= p.chunks) continue;
#pragma unroll
        for (int t = 0; t < M; ++t)
          v[u][t] = *reinterpret_cast<const std::uint32_t*>(in + t * p.pitch + (k * 32 + lane) * 4);
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const std::int64_t k = k0 + u * nw;
        if (k >= p.chunks) continue;
        std::uint32_t* buf = sm[warp][u];
        std::uint32_t tw[M];
#pragma unroll
        for (int t = 0; t < M; ++t) tw[t] = records_tall_word<S, M>(v[u], t);
#pragma unroll
        for (int t = 0; t < M; ++t) buf[records_pad<M>(lane * M + t)] = tw[t];
        __syncwarp();
#pragma unroll
        for (int t = 0; t < M; ++t)
          tall_out[k * 32 * M + t * 32 + lane] = buf[records_pad<M>(t * 32 + lane)];
      }
      __syncwarp();  // the next chunks overwrite the warp's buffers
    }
    if (blockIdx.x == 0) records_tail<S, M, true>(p, in, out);
  }
}

/// Short columns: the input is the tall matrix (len x M), the output the wide one (M x len).
/// LINES = false: the warps stride over the chunks and write each wide row's 128-byte piece where
/// it falls. LINES: the warps stride over runs of kRecordsRun chunks and write each wide row in
/// whole 128-byte lines: row c starts d_c words past a line, so the line of chunk k takes the
/// chunk's words shifted up by d_c lanes and, in its first d_c lanes, the last d_c words of chunk
/// k - 1. The words go through a ring of two 32-word halves a row in shared memory (chunk k in
/// half k mod 2), so the previous chunk's words need no registers; a run's first line leaves its
/// first d_c lanes to the run before it, which writes them after its last chunk. With the pieces
/// off 32-byte sectors, every line written half by one warp and half by another, LINES = false
/// ran 0.52-0.72 x memcpy where it ran 0.85-0.88 on sectors; the previous chunk's words in
/// registers instead took 64-128 registers and lost at M >= 5.
template <int S, int M, bool LINES>
__global__ void __launch_bounds__(records_threads<false>()) records_cols_kernel(RecordsParams p) {
  constexpr int U = records_unroll<M>();
  constexpr int kWarps = records_threads<false>() / 32;
  __shared__ std::uint32_t ex[kWarps][33 * M];               // the exchange of a chunk
  __shared__ std::uint32_t ring[kWarps][LINES ? M : 1][64];  // LINES: two chunks a row
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  const std::int64_t nw = std::int64_t(gridDim.x) * kWarps;
  const std::int64_t gw = std::int64_t(blockIdx.x) * kWarps + warp;
  const std::int64_t runs = LINES ? (p.chunks + kRecordsRun - 1) / kRecordsRun : p.chunks;
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    const unsigned char* in = p.in + b * p.in_batch;
    unsigned char* out = p.out + b * p.out_batch;
    const auto* tall_in = reinterpret_cast<const std::uint32_t*>(in);
    // LINES: warp gw takes runs gw, gw + nw, ...; else chunks gw, gw + nw, ..., U at a time.
    for (std::int64_t r = gw; r < runs; r += LINES ? nw : nw * U) {
      const std::int64_t k_begin = LINES ? r * kRecordsRun : r;
      const std::int64_t k_end =
          LINES ? (k_begin + kRecordsRun < p.chunks ? k_begin + kRecordsRun : p.chunks) : 0;
      const std::int64_t step = LINES ? 1 : nw;  // from one chunk of the U to the next
      for (std::int64_t k0 = k_begin; LINES ? k0 < k_end : k0 == k_begin; k0 += U) {
        std::uint32_t v[U][M];
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const std::int64_t k = k0 + u * step;
          if (LINES ? k >= k_end : k >= p.chunks) continue;
#pragma unroll
          for (int t = 0; t < M; ++t) v[u][t] = tall_in[k * 32 * M + t * 32 + lane];
        }
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const std::int64_t k = k0 + u * step;
          if (LINES ? k >= k_end : k >= p.chunks) continue;
#pragma unroll
          for (int t = 0; t < M; ++t) ex[warp][records_pad<M>(t * 32 + lane)] = v[u][t];
          __syncwarp();
          std::uint32_t g[M];
#pragma unroll
          for (int t = 0; t < M; ++t) g[t] = ex[warp][records_pad<M>(lane * M + t)];
          __syncwarp();  // ex is written again by the next chunk
          unsigned char* row = out;
          // Opaque to the compiler: the rows' addresses and offsets are found again for each
          // chunk instead of being held for all M rows (3 M registers).
          asm volatile("" : "+l"(row));
#pragma unroll
          for (int c = 0; c < M; ++c, row += p.pitch) {
            const std::uint32_t w = records_wide_word<S, M>(g, c);
            if constexpr (LINES) {
              const int half = static_cast<int>(k & 1) * 32;
              ring[warp][c][half + lane] = w;
              __syncwarp();
              const int d = static_cast<int>((reinterpret_cast<std::uintptr_t>(row) & 127u) >> 2);
              // Lanes >= d: this chunk's word lane - d; lanes < d: the previous chunk's word
              // 32 + lane - d, in the other half.
              if (lane >= d || k > k_begin)
                (reinterpret_cast<std::uint32_t*>(row) - d)[k * 32 + lane] =
                    ring[warp][c][(half + lane - d) & 63];
            } else {
              reinterpret_cast<std::uint32_t*>(row)[k * 32 + lane] = w;
            }
          }
        }
      }
      if constexpr (LINES) {
        // The run's last d_c words of each row, into the line after its last chunk.
        __syncwarp();
        const int half = static_cast<int>((k_end - 1) & 1) * 32;
        unsigned char* row = out;
#pragma unroll
        for (int c = 0; c < M; ++c, row += p.pitch) {
          const int d = static_cast<int>((reinterpret_cast<std::uintptr_t>(row) & 127u) >> 2);
          if (lane < d)
            (reinterpret_cast<std::uint32_t*>(row) - d)[k_end * 32 + lane] =
                ring[warp][c][(half + 32 + lane - d) & 63];
        }
        __syncwarp();  // the next run writes the ring again
      }
    }
    if (blockIdx.x == 0) records_tail<S, M, false>(p, in, out);
  }
}

namespace records_detail {

using RecordsKernel = void (*)(RecordsParams);

/// records_rows_kernel / records_cols_kernel for M = m.
template <int S, bool SR, bool LINES, int M = 1>
RecordsKernel pick(int m) {
  if constexpr (M > kRecordsMax) {
    (void)m;
    return nullptr;
  } else {
    if (m == M) {
      if constexpr (SR)
        return records_rows_kernel<S, M>;
      else
        return records_cols_kernel<S, M, LINES>;
    }
    return pick<S, SR, LINES, M + 1>(m);
  }
}

}  // namespace records_detail

/// Launches records_rows_kernel<S, m> or records_cols_kernel<S, m, LINES> on `stream`. `s`
/// resolved, non-empty and taken (kernel_list.cpp: a short side of at most kRecordsMax, both
/// matrices in 4-byte words).
template <int S, bool LINES = true>
void launch_records(const void* in, void* out, const TransposeShape& s, cudaStream_t stream) {
  const bool short_rows = s.rows <= s.cols;
  RecordsParams p;
  p.in = static_cast<const unsigned char*>(in);
  p.out = static_cast<unsigned char*>(out);
  const int m = static_cast<int>(short_rows ? s.rows : s.cols);
  p.len = short_rows ? s.cols : s.rows;
  p.pitch = (short_rows ? s.in_pitch : s.out_pitch) * S;
  p.in_batch = s.in_batch_stride * S;
  p.out_batch = s.out_batch_stride * S;
  p.batch = s.batch;
  p.chunks = p.len / (32 * (4 / S));
  // About 4 chunks a warp (short rows, and short columns without LINES), one run a warp with
  // LINES; at most 4096 blocks.
  const int threads = short_rows ? records_threads<true>() : records_threads<false>();
  const std::int64_t per_block =
      std::int64_t(threads / 32) * (!short_rows && LINES ? kRecordsRun : 4);
  const records_detail::RecordsKernel kernel = short_rows
                                                   ? records_detail::pick<S, true, LINES>(m)
                                                   : records_detail::pick<S, false, LINES>(m);
  const std::int64_t gx = std::clamp<std::int64_t>((p.chunks + per_block - 1) / per_block, 1, 4096);
  const std::int64_t gy = std::min<std::int64_t>(s.batch, 65535);
  kernel<<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), threads, 0, stream>>>(p);
  XPOSE_CHECK_CUDA_LAUNCH("records_kernel");
}

}  // namespace xpose::kernels::cuda_tile
