/// @file
/// Hopper-only candidate (run 21): the skewed kernel (skew.cuh) with K vertically adjacent tiles
/// of one tile column in a thread block cluster. A skewed tile reads the M = A_OUT / S - 1 input
/// rows above its own (its output pieces start up to M elements early); the tile above read the
/// same rows as the last M of its own, one block earlier. Here a block whose cluster neighbour
/// holds the tile above copies those rows from that block's shared memory (distributed shared
/// memory) instead of reading them again through L2: K - 1 of every K tiles read TH rows instead
/// of TH + M (f32: 64 instead of 71). The block order, the shared tile and the stores are the
/// skewed kernel's. One tile a block; the grid is rounded up to a multiple of K, and blocks past
/// the last tile only take part in the cluster barriers.
///
/// Needs CUDA 12 and an sm_90 image; elsewhere run_skew_cluster declines and the caller takes a
/// portable kernel.
#pragma once

#include "kernels/cuda/skew.cuh"
#include "kernels/cuda/tma.cuh"  // XPOSE_HAVE_TMA, tma_detail::kernel_runs_here

#if XPOSE_HAVE_TMA && defined(__CUDACC__)
#include <cooperative_groups.h>

namespace xpose::kernels::cuda_tile {

/// Tile (ty, tx) of this block (tile_of, one tile a block) and whether the block of cluster rank
/// `rank` - 1 holds the tile above it. Recomputed in each phase of the kernel rather than kept
/// across the cluster barriers: kept, they cost 80-104 bytes of spills at 64 registers.
__device__ __forceinline__ bool cluster_tile(const SkewParams& p, unsigned rank,
                                             std::uint32_t& ty, std::uint32_t& tx) {
  const std::uint32_t t = blockIdx.x;
  tile_of(p, t, ty, tx);
  if (rank == 0 || ty == 0 || p.m == 0) return false;
  std::uint32_t uy = 0, ux = 0;
  tile_of(p, t - 1, uy, ux);
  return ux == tx && uy + 1 == ty;
}

template <class C, int K>
__global__ void __launch_bounds__(C::NT, C::MINB) skew_cluster_kernel(SkewParams p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  extern __shared__ uint4 skew_cluster_smem_raw[];
  auto* smem = reinterpret_cast<typename C::Elem*>(skew_cluster_smem_raw);
  cg::cluster_group cluster = cg::this_cluster();
  const bool valid = blockIdx.x < p.tiles;
  // Every member of a cluster has the same blockIdx.y, so the same number of iterations here.
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    if (valid) {
      std::uint32_t ty = 0, tx = 0;
      const int skip = cluster_tile(p, cluster.block_rank(), ty, tx) ? p.m : 0;
      const std::int64_t c0 = static_cast<std::int64_t>(tx) * C::TW;
      typename C::Pack v[C::LOAD_ITERS];
      int j0[C::LOAD_ITERS];
      issue_rows<C, false>(p.in + b * p.in_stride_bytes, p.in_pitch_bytes, p.rows, p.cols,
                           static_cast<std::int64_t>(ty) * C::TH - p.m + skip, C::TH + p.m - skip,
                           c0, v, j0);
      scatter_rows<C>(p.cols, c0, v, j0, smem, skip);
    }
    cluster.sync();  // every block's own rows are in its shared memory
    if (valid) {
      const unsigned rank = cluster.block_rank();
      std::uint32_t ty = 0, tx = 0;
      if (cluster_tile(p, rank, ty, tx)) {  // the halo rows from the block above
        const typename C::Elem* up = cluster.map_shared_rank(smem, rank - 1);
        const std::int64_t c0 = static_cast<std::int64_t>(tx) * C::TW;
        const int own_cols = static_cast<int>(p.cols - c0 < C::TW ? p.cols - c0 : C::TW);
        for (int s = threadIdx.x; s < C::TW * p.m; s += C::NT) {
          const int j = s / p.m;
          const int d = s - j * p.m;
          if (j < own_cols) smem[C::slot(j, d)] = up[C::slot(j, C::TH + d)];
        }
      }
    }
    __syncthreads();
    if (valid) {
      std::uint32_t ty = 0, tx = 0;
      tile_of(p, blockIdx.x, ty, tx);
      store_rows<C>(p.out + b * p.out_stride_bytes, p.out_pitch_bytes, p.cols, p.rows,
                    static_cast<std::int64_t>(tx) * C::TW, static_cast<std::int64_t>(ty) * C::TH,
                    p.m, smem);
    }
    cluster.sync();  // the block below has read these rows: shared memory is free again
  }
#endif
}

/// Launches skew_cluster_kernel<C, K> on `stream` (`group` as launch_tiled's) and returns true, or
/// returns false without launching where the device or the build has no sm_90 image or the tile
/// grid does not fit one launch.
template <class C, int K>
bool launch_skew_cluster(const void* in, void* out, const TransposeShape& s, cudaStream_t stream,
                         int group) {
  auto* kernel = skew_cluster_kernel<C, K>;
  if (!tma_detail::kernel_runs_here(reinterpret_cast<const void*>(kernel))) return false;
  if (reinterpret_cast<std::uintptr_t>(in) % C::S != 0 ||
      reinterpret_cast<std::uintptr_t>(out) % C::S != 0)
    return false;
  const std::int64_t m = output_rows_aligned(out, s, C::S, C::A_OUT) ? 0 : C::M;
  SkewParams p;
  static_cast<TiledParams&>(p) = tiled_params(in, out, s, C::S, (s.cols + C::TW - 1) / C::TW,
                                              (s.rows + m + C::TH - 1) / C::TH, group);
  p.m = static_cast<int>(m);
  if (p.tiles > 0x7fffffffu - K) return false;
  cuda_detail::allow_dynamic_smem(kernel, C::SMEM_BYTES);
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3((p.tiles + K - 1) / K * K,
                     static_cast<unsigned>(std::min<std::int64_t>(s.batch, 65535)));
  cfg.blockDim = dim3(C::NT);
  cfg.dynamicSmemBytes = C::SMEM_BYTES;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = K;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  const cudaError_t err = cudaLaunchKernelEx(&cfg, kernel, p);
  if (err != cudaSuccess)
    cuda_detail::throw_cuda_error(err, "launch of skew_cluster_kernel", __FILE__, __LINE__);
  return true;
}

}  // namespace xpose::kernels::cuda_tile

#endif  // XPOSE_HAVE_TMA && __CUDACC__
