/// @file
/// Candidate of run 16 (kernels/NOTES.md): skew_kernel with R consecutive tiles down a column of
/// tiles a block. Tile ty + 1 needs input rows [r0 + TH - M, r0 + 2 TH), and the first M of them
/// are tile ty's last rows: they stay in shared memory, which is a ring of RP input rows (row i
/// in slot i mod RP), so a run of R tiles reads R TH + M rows instead of R (TH + M). The next
/// tile's new rows are loaded into registers while the current tile is stored (PIPE), or after.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/skew.cuh"

namespace xpose::kernels::cuda_tile {

#if defined(__CUDACC__)
template <class C>
struct RunRing {
  static constexpr int RP = 128;  ///< ring rows (a power of two >= 2 TH ... >= TH + M + TH - M)
  static_assert(C::TH + C::M + C::TH <= 2 * RP && C::TH + C::M <= RP, "ring too small");
  static constexpr std::size_t SMEM_BYTES = static_cast<std::size_t>(C::TW) * RP * C::S;
  __device__ __forceinline__ static int slot(int j, std::int64_t i) {
    return j * RP + (static_cast<int>(i & (RP - 1)) ^ ((j / C::V) & (C::SWZ - 1)));
  }
};

/// scatter_rows into the ring: the rows issue_rows loaded (first row i_begin).
template <class C>
__device__ __forceinline__ void ring_scatter(std::int64_t cols, std::int64_t c0,
                                             std::int64_t i_begin,
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
      if (j >= 0 && j < own_cols) smem[RunRing<C>::slot(j, i_begin + il)] = v[it].e[e];
    }
  }
}

template <class C, int R, bool PIPE>
__global__ void __launch_bounds__(C::NT, C::MINB) skew_run_kernel(SkewParams p,
                                                                  std::uint32_t runs_y) {
  using Ring = RunRing<C>;
  using Elem = typename C::Elem;
  using Word = typename C::Word;
  using Pack = typename C::Pack;
  extern __shared__ uint4 skew_run_smem_raw[];
  auto* smem = reinterpret_cast<Elem*>(skew_run_smem_raw);
  const std::uint32_t tx = blockIdx.x / runs_y;
  const std::uint32_t ty0 = (blockIdx.x % runs_y) * R;
  const std::uint32_t ty_end = std::min<std::uint32_t>(ty0 + R, p.tiles_y);
  const std::int64_t c0 = static_cast<std::int64_t>(tx) * C::TW;
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    const char* in = p.in + b * p.in_stride_bytes;
    char* out = p.out + b * p.out_stride_bytes;
    Pack v[C::LOAD_ITERS];
    int j0[C::LOAD_ITERS];
    std::int64_t r0 = static_cast<std::int64_t>(ty0) * C::TH;
    issue_rows<C, false>(in, p.in_pitch_bytes, p.rows, p.cols, r0 - p.m, C::TH + p.m, c0, v, j0);
    ring_scatter<C>(p.cols, c0, r0 - p.m, v, j0, smem);
    __syncthreads();
    for (std::uint32_t ty = ty0; ty < ty_end; ++ty, r0 += C::TH) {
      const bool more = ty + 1 < ty_end;
      if (PIPE && more)
        issue_rows<C, false>(in, p.in_pitch_bytes, p.rows, p.cols, r0 + C::TH, C::TH, c0, v, j0);
      // store_rows, with the ring's slots: output rows c0.., pieces from r0 - mis.
#pragma unroll
      for (int it = 0; it < C::STORE_ITERS; ++it) {
        const int s = threadIdx.x + it * C::NT;
        const int cl = s / C::WORDS_OUT;
        const int h = s - cl * C::WORDS_OUT;
        const std::int64_t c = c0 + cl;
        if (cl >= C::TW || c >= p.cols) continue;
        char* orow = out + c * p.out_pitch_bytes;
        const int mis = p.m > 0 ? static_cast<int>(
                                      (reinterpret_cast<std::uintptr_t>(orow) % C::A_OUT) / C::S)
                                : 0;
        const std::int64_t p_begin = r0 - mis;
        const std::int64_t lo = p_begin > 0 ? p_begin : 0;
        const std::int64_t hi = p_begin + C::TH < p.rows ? p_begin + C::TH : p.rows;
        const std::int64_t pw = p_begin + h * C::V;
        if (pw >= hi || pw + C::V <= lo) continue;
        Pack w;
#pragma unroll
        for (int e = 0; e < C::V; ++e) w.e[e] = smem[Ring::slot(cl, pw + e)];
        char* dst = orow + pw * C::S;
        if (pw >= lo && pw + C::V <= hi) {
          *reinterpret_cast<Word*>(dst) = w.w;
        } else {
#pragma unroll
          for (int e = 0; e < C::V; ++e)
            if (pw + e >= lo && pw + e < hi) reinterpret_cast<Elem*>(dst)[e] = w.e[e];
        }
      }
      __syncthreads();
      if (more) {
        if (!PIPE)
          issue_rows<C, false>(in, p.in_pitch_bytes, p.rows, p.cols, r0 + C::TH, C::TH, c0, v, j0);
        ring_scatter<C>(p.cols, c0, r0 + C::TH, v, j0, smem);
        __syncthreads();
      }
    }
    __syncthreads();  // the next matrix of the batch overwrites the ring
  }
}

/// Launches skew_run_kernel<C, R> on `stream`: runs of R tiles down each column of tiles,
/// consecutive blocks down the column.
template <class C, int R, bool PIPE>
void launch_skew_run(const void* in, void* out, const TransposeShape& s, cudaStream_t stream) {
  const bool aligned = output_rows_aligned(out, s, C::S, C::A_OUT);
  const std::int64_t m = aligned ? 0 : C::M;
  SkewParams p;
  const std::int64_t tiles_y = (s.rows + m + C::TH - 1) / C::TH;
  static_cast<TiledParams&>(p) =
      tiled_params(in, out, s, C::S, (s.cols + C::TW - 1) / C::TW, tiles_y, 1);
  p.m = static_cast<int>(m);
  const std::int64_t runs_y = (tiles_y + R - 1) / R;
  const std::int64_t gx = static_cast<std::int64_t>(p.tiles_x) * runs_y;
  if (gx > 0x7fffffff)
    throw DimensionMismatch("skew_run_kernel: too many blocks");
  const std::int64_t gy = std::min<std::int64_t>(s.batch, 65535);
  auto* kernel = skew_run_kernel<C, R, PIPE>;
  cuda_detail::allow_dynamic_smem(kernel, RunRing<C>::SMEM_BYTES);
  kernel<<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), C::NT,
           RunRing<C>::SMEM_BYTES, stream>>>(p, static_cast<std::uint32_t>(runs_y));
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    cuda_detail::throw_cuda_error(err, "launch of skew_run_kernel", __FILE__, __LINE__);
}
#endif  // __CUDACC__

}  // namespace xpose::kernels::cuda_tile
