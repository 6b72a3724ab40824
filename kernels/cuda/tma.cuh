/// @file
/// Hopper-only out-of-place transpose through the Tensor Memory Accelerator (TMA), beside the
/// portable kernels (tiled.cuh, skew.cuh). With TMA stores (tma_kernel) it ran 2-3 % behind the
/// tiled kernel on aligned layouts; the load-only form (tma_load_kernel: TMA loads, plain 16-byte
/// stores) is the library's for f32 on high-bandwidth devices (an H200) where rows are on 16 bytes
/// and for small f32 matrices on any sm_90 device (kernels/kernel_table.csv).
///
/// One tile of TH x TW input elements per block step. Thread 0 issues KC bulk tensor loads
/// (cp.async.bulk.tensor, one box of C input columns x TH input rows each, C = 128 / S so that a
/// box row is one 128-byte line) that land in shared memory with the 128-byte swizzle and signal
/// an mbarrier with their byte count. Every thread then reads its V x V blocks (V = 16 / S, one
/// 16-byte chunk per row), transposes them in registers and writes them back to the same shared
/// memory in output order: KR boxes of C output columns x TW output rows, same swizzle. Thread 0
/// issues the KR bulk tensor stores. The tensor maps clip the edges: loads past the matrix fill
/// zeros, stores past it write nothing, so edge tiles need no code of their own.
///
/// Bank conflicts: a 16-byte shared access is served in four phases of 8 threads; the 8 threads of
/// a phase take the chunks (rb, cb) with cb = j, rb = j + s (mod 8) for V = 2, 4 and rb = j, cb = s
/// for V = 1 (j the thread within the phase, s the phase's diagonal), which puts them on 8
/// distinct 16-byte bank groups under the swizzle on both the read and the write (checked for
/// every s and k by the host test TmaUnits, tma_units.h).
///
/// Needs CUDA 12 (tensor maps) and an sm_90 image: elsewhere tma_accepts says no and the caller
/// takes a portable kernel. Layout limits of the TMA unit: base addresses and row pitches (and
/// batch strides) multiples of 16 bytes, extents under 2^30.
#pragma once

#include <cuda_runtime_api.h>
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
#define XPOSE_HAVE_TMA 1
#else
#define XPOSE_HAVE_TMA 0
#endif

#if XPOSE_HAVE_TMA

#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

#include "kernels/cuda/check.h"
#include "kernels/cuda/tma_units.h"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels::cuda_tile {

/// S: element bytes (4, 8 or 16). KC x KR: the tile in boxes (C x C elements each). NT: threads.
template <int S_, int KC_, int KR_, int NT_, int MINB_ = 1>
struct TmaConfig {
  static constexpr int S = S_;
  static constexpr int C = 128 / S;  ///< elements in one 128-byte box row
  static constexpr int V = 16 / S;   ///< elements in one 16-byte chunk
  static constexpr int KC = KC_;
  static constexpr int KR = KR_;
  static constexpr int TW = C * KC;  ///< input columns of a tile
  static constexpr int TH = C * KR;  ///< input rows of a tile
  static constexpr int NT = NT_;
  static constexpr int MINB = MINB_;
  static constexpr int UNITS = 64 * KC * KR;  ///< V x V blocks (one chunk per row) in a tile
  static constexpr int PER_THREAD = UNITS / NT;
  static constexpr int BOX_A = TH * 128;  ///< bytes of one load box
  static constexpr int BOX_B = TW * 128;  ///< bytes of one store box
  static constexpr int TILE_BYTES = TH * TW * S;
  static constexpr std::size_t SMEM_BYTES = TILE_BYTES + 1024;  ///< + room to align to 1024
  /// TMA element: 4 or 8 bytes; a 16-byte element is two 8-byte TMA elements.
  static constexpr int EU = S == 16 ? 2 : 1;
  static_assert(S == 4 || S == 8 || S == 16, "TMA path: 4-, 8- and 16-byte elements");
  static_assert(TH <= 256 && TW <= 256, "a TMA box is at most 256 rows");
  static_assert(UNITS % NT == 0 && NT % 32 == 0, "every thread takes whole units");
};

struct TmaParams {
  std::uint32_t tiles_x;  ///< tiles across the input columns
  std::uint32_t tiles;    ///< tiles per matrix
  std::uint64_t total;    ///< tiles x batch
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

/// The shared state of a TMA block: the tile (1024-byte aligned, as the 128-byte swizzle repeats
/// every 1024 bytes) and the mbarrier its loads complete on.
struct TmaBlock {
  unsigned char* tile;
  std::uint32_t base;  ///< shared address of `tile`
  std::uint32_t bar;   ///< shared address of the mbarrier
  std::uint32_t phase = 0;

  /// Thread 0 initialises the mbarrier (one arrival per load round); all threads then sync.
  __device__ TmaBlock(unsigned char* raw_smem, std::uint64_t* mbar) {
    const std::uint32_t raw = smem_addr(raw_smem);
    base = (raw + 1023u) & ~1023u;
    tile = raw_smem + (base - raw);
    bar = smem_addr(mbar);
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
  }

  /// Thread 0 loads tile (ty, tx) of matrix b as KC boxes; every thread waits until all
  /// TILE_BYTES have landed (the mbarrier's phase flips).
  template <class C>
  __device__ void load(const CUtensorMap* map, std::int32_t b, std::int32_t ty, std::int32_t tx) {
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
                   "r"(C::TILE_BYTES)
                   : "memory");
#pragma unroll
      for (int kc = 0; kc < C::KC; ++kc) {
        const std::int32_t x = (tx * C::TW + kc * C::C) * C::EU;
        const std::int32_t y = ty * C::TH;
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
            " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(base + kc * C::BOX_A),
            "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(b), "r"(bar)
            : "memory");
      }
    }
    asm volatile(
        "{\n"
        ".reg .pred done;\n"
        "WAIT_LOOP:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
        "@!done bra WAIT_LOOP;\n"
        "}\n" ::"r"(bar),
        "r"(phase)
        : "memory");
    phase ^= 1u;
  }

  /// The V 16-byte chunks of V x V block (rb, cb) of the loaded tile (rows V rb .. V rb + V-1).
  template <class C>
  __device__ void read_block(int rb, int cb, uint4 (&v)[C::V]) const {
#pragma unroll
    for (int m = 0; m < C::V; ++m)
      v[m] = *reinterpret_cast<const uint4*>(tile + (cb >> 3) * C::BOX_A +
                                             tma_units::swizzled(C::V * rb + m, cb & 7));
  }
};

/// Transposes a V x V block held as V 16-byte chunks: output chunk k holds element k of input
/// rows 0 .. V-1.
template <int V>
__device__ __forceinline__ void transpose_block(const uint4 (&v)[V], uint4 (&o)[V]) {
  if constexpr (V == 4) {
    const auto* e = reinterpret_cast<const std::uint32_t*>(v);
    auto* f = reinterpret_cast<std::uint32_t*>(o);
#pragma unroll
    for (int k = 0; k < 4; ++k)
#pragma unroll
      for (int m = 0; m < 4; ++m) f[4 * k + m] = e[4 * m + k];
  } else if constexpr (V == 2) {
    const auto* e = reinterpret_cast<const unsigned long long*>(v);
    auto* f = reinterpret_cast<unsigned long long*>(o);
#pragma unroll
    for (int k = 0; k < 2; ++k)
#pragma unroll
      for (int m = 0; m < 2; ++m) f[2 * k + m] = e[2 * m + k];
  } else {
    o[0] = v[0];
  }
}
#endif

/// Tile (ty, tx) of matrix b for step t of a block's loop over p.total tiles.
__device__ __forceinline__ void tma_tile_of(const TmaParams& p, std::uint64_t t, std::int32_t& b,
                                            std::int32_t& ty, std::int32_t& tx) {
  b = static_cast<std::int32_t>(t / p.tiles);
  const auto r = static_cast<std::uint32_t>(t % p.tiles);
  ty = static_cast<std::int32_t>(r / p.tiles_x);
  tx = static_cast<std::int32_t>(r % p.tiles_x);
}

template <class C>
__global__ void __launch_bounds__(C::NT, C::MINB)
    tma_kernel(const __grid_constant__ CUtensorMap in_map,
               const __grid_constant__ CUtensorMap out_map, TmaParams p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ unsigned char tma_smem_raw[];
  __shared__ alignas(8) std::uint64_t mbar;
  TmaBlock blk(tma_smem_raw, &mbar);
  const std::uint64_t out_desc = reinterpret_cast<std::uint64_t>(&out_map);
  for (std::uint64_t t = blockIdx.x; t < p.total; t += gridDim.x) {
    std::int32_t b, ty, tx;
    tma_tile_of(p, t, b, ty, tx);
    blk.load<C>(&in_map, b, ty, tx);
    uint4 v[C::PER_THREAD][C::V];
#pragma unroll
    for (int i = 0; i < C::PER_THREAD; ++i) {
      int rb, cb;
      tma_units::unit(static_cast<int>(threadIdx.x) + i * C::NT, C::KR, C::V, rb, cb);
      blk.read_block<C>(rb, cb, v[i]);
    }
    __syncthreads();  // every chunk read before any is overwritten
#pragma unroll
    for (int i = 0; i < C::PER_THREAD; ++i) {
      int rb, cb;
      tma_units::unit(static_cast<int>(threadIdx.x) + i * C::NT, C::KR, C::V, rb, cb);
      uint4 o[C::V];
      transpose_block<C::V>(v[i], o);
#pragma unroll
      for (int k = 0; k < C::V; ++k) {
        const int orow = C::V * cb + k;
        *reinterpret_cast<uint4*>(blk.tile + (rb >> 3) * C::BOX_B +
                                  tma_units::swizzled(orow, rb & 7)) = o[k];
      }
    }
    // Make the generic-proxy writes visible to the TMA unit, then one thread stores the boxes.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
#pragma unroll
      for (int kr = 0; kr < C::KR; ++kr) {
        const std::int32_t x = (ty * C::TH + kr * C::C) * C::EU;
        const std::int32_t y = tx * C::TW;
        asm volatile(
            "cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group"
            " [%0, {%2, %3, %4}], [%1];" ::"l"(out_desc),
            "r"(blk.base + kr * C::BOX_B), "r"(x), "r"(y), "r"(b)
            : "memory");
      }
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      // Shared memory is reused by the next tile's loads: wait until the stores have read it.
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#endif
}

/// Where the load-only variant (tma_load_kernel) writes: the output as plain memory.
struct TmaStoreParams {
  char* out;
  std::int64_t rows;  ///< input rows (output columns)
  std::int64_t cols;  ///< input columns (output rows)
  std::int64_t out_pitch_bytes;
  std::int64_t out_stride_bytes;
};

/// The TMA loads of tma_kernel, but ordinary 16-byte stores from registers instead of TMA
/// stores: a warp's 32 threads take consecutive V-row groups (rb fastest), so each store
/// instruction writes 8 KR chunks (128 KR bytes) of one output row per V x V block column. The
/// shared-memory reads meet 2-4-way bank conflicts, affordable at these rates.
template <class C>
__global__ void __launch_bounds__(C::NT, C::MINB)
    tma_load_kernel(const __grid_constant__ CUtensorMap in_map, TmaParams p, TmaStoreParams q) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ unsigned char tma_smem_raw[];
  __shared__ alignas(8) std::uint64_t mbar;
  TmaBlock blk(tma_smem_raw, &mbar);
  for (std::uint64_t t = blockIdx.x; t < p.total; t += gridDim.x) {
    std::int32_t b, ty, tx;
    tma_tile_of(p, t, b, ty, tx);
    blk.load<C>(&in_map, b, ty, tx);
    const std::int64_t r0 = static_cast<std::int64_t>(ty) * C::TH;
    const std::int64_t c0 = static_cast<std::int64_t>(tx) * C::TW;
    char* out = q.out + static_cast<std::int64_t>(b) * q.out_stride_bytes;
#pragma unroll
    for (int i = 0; i < C::PER_THREAD; ++i) {
      const int u = static_cast<int>(threadIdx.x) + i * C::NT;
      const int rb = u % (8 * C::KR), cb = u / (8 * C::KR);
      uint4 v[C::V], o[C::V];
      blk.read_block<C>(rb, cb, v);
      transpose_block<C::V>(v, o);
      const std::int64_t oc = r0 + C::V * rb;  // first output column of the chunk
#pragma unroll
      for (int k = 0; k < C::V; ++k) {
        const std::int64_t orow = c0 + C::V * cb + k;
        if (orow >= q.cols || oc >= q.rows) continue;
        char* dst = out + orow * q.out_pitch_bytes + oc * C::S;
        if (oc + C::V <= q.rows) {
          *reinterpret_cast<uint4*>(dst) = o[k];
        } else {  // the matrix ends inside this chunk: its elements one by one
#pragma unroll
          for (int x = 0; x < C::V; ++x) {
            if (oc + x >= q.rows) break;
            if constexpr (C::S == 4)
              reinterpret_cast<std::uint32_t*>(dst)[x] =
                  reinterpret_cast<const std::uint32_t*>(&o[k])[x];
            else if constexpr (C::S == 8)
              reinterpret_cast<unsigned long long*>(dst)[x] =
                  reinterpret_cast<const unsigned long long*>(&o[k])[x];
          }
        }
      }
    }
    __syncthreads();  // shared memory is read before the next tile's loads land
  }
#endif
}

namespace tma_detail {

inline PFN_cuTensorMapEncodeTiled_v12000 encoder() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult q{};
#if CUDART_VERSION >= 12050
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault,
                                         &q) != cudaSuccess)
      f = nullptr;
#else
    if (cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &f, cudaEnableDefault, &q) != cudaSuccess)
      f = nullptr;
#endif
    if (f == nullptr) (void)cudaGetLastError();  // clear only the error this call set
    if (q != cudaDriverEntryPointSuccess) f = nullptr;
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
  }();
  return fn;
}

/// Whether `kernel` has an sm_90 image on the current device (cached per device and kernel).
inline bool kernel_runs_here(const void* kernel) {
  static std::mutex mu;
  static std::map<std::pair<int, const void*>, bool> known;
  // A failing query leaves its error as the thread's last error: cleared here, and only then,
  // so that an error of the caller's own is not swallowed.
  const auto good = [](cudaError_t e) {
    if (e != cudaSuccess) (void)cudaGetLastError();
    return e == cudaSuccess;
  };
  int device = 0;
  if (!good(cudaGetDevice(&device))) return false;
  std::lock_guard<std::mutex> lock(mu);
  const auto key = std::make_pair(device, kernel);
  const auto it = known.find(key);
  if (it != known.end()) return it->second;
  int major = 0;
  cudaFuncAttributes attr{};
  const bool ok = good(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device)) &&
                  major >= 9 && good(cudaFuncGetAttributes(&attr, kernel)) &&
                  attr.binaryVersion >= 90 && encoder() != nullptr;
  known.emplace(key, ok);
  return ok;
}

/// A 3-D tensor map (columns, rows, batch) over `base` with the 128-byte swizzle.
template <class C>
bool encode(CUtensorMap* map, const void* base, std::int64_t rows, std::int64_t cols,
            std::int64_t batch, std::int64_t pitch_bytes, std::int64_t stride_bytes,
            std::uint32_t box_rows) {
  const CUtensorMapDataType type =
      C::S == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32 : CU_TENSOR_MAP_DATA_TYPE_UINT64;
  const cuuint64_t dims[3] = {static_cast<cuuint64_t>(cols * C::EU),
                              static_cast<cuuint64_t>(rows), static_cast<cuuint64_t>(batch)};
  const cuuint64_t strides[2] = {static_cast<cuuint64_t>(pitch_bytes),
                                 static_cast<cuuint64_t>(stride_bytes)};
  const cuuint32_t box[3] = {static_cast<cuuint32_t>(C::C * C::EU), box_rows, 1};
  const cuuint32_t estr[3] = {1, 1, 1};
  return encoder()(map, type, 3, const_cast<void*>(base), dims, strides, box, estr,
                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                   CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

}  // namespace tma_detail

/// Whether the TMA kernel (`TmaStore`) or the TMA-load kernel runs on the current device (an
/// sm_90 image, a compute capability 9 device, the driver's tensor-map encoder).
template <class C, bool TmaStore = true>
bool tma_runs_here() {
  if constexpr (TmaStore)
    return tma_detail::kernel_runs_here(reinterpret_cast<const void*>(&tma_kernel<C>));
  else
    return tma_detail::kernel_runs_here(reinterpret_cast<const void*>(&tma_load_kernel<C>));
}

/// Launches tma_kernel<C> (TmaStore) or tma_load_kernel<C> on an accepted layout. Returns false,
/// launching nothing, if a tensor map cannot be encoded.
template <class C, bool TmaStore = true>
bool launch_tma(const void* in, void* out, const TransposeShape& s, cudaStream_t stream) {
  // With one matrix the batch stride is never used, but the map wants a valid one.
  const std::int64_t in_stride = s.batch > 1 ? s.in_batch_stride * C::S : s.in_pitch * C::S;
  const std::int64_t out_stride = s.batch > 1 ? s.out_batch_stride * C::S : s.out_pitch * C::S;
  CUtensorMap in_map, out_map;
  if (!tma_detail::encode<C>(&in_map, in, s.rows, s.cols, s.batch, s.in_pitch * C::S, in_stride,
                             C::TH))
    return false;
  if (TmaStore && !tma_detail::encode<C>(&out_map, out, s.cols, s.rows, s.batch,
                                         s.out_pitch * C::S, out_stride, C::TW))
    return false;
  const std::int64_t tiles_x = (s.cols + C::TW - 1) / C::TW;
  const std::int64_t tiles_y = (s.rows + C::TH - 1) / C::TH;
  TmaParams p;
  p.tiles_x = static_cast<std::uint32_t>(tiles_x);
  p.tiles = static_cast<std::uint32_t>(tiles_x * tiles_y);
  p.total = static_cast<std::uint64_t>(tiles_x * tiles_y) * static_cast<std::uint64_t>(s.batch);
  const auto gx = static_cast<unsigned>(std::min<std::uint64_t>(p.total, 0x7fffffffu));
  if constexpr (TmaStore) {
    cuda_detail::allow_dynamic_smem(tma_kernel<C>, C::SMEM_BYTES);
    tma_kernel<C><<<gx, C::NT, C::SMEM_BYTES, stream>>>(in_map, out_map, p);
    XPOSE_CHECK_CUDA_LAUNCH("tma_kernel");
  } else {
    TmaStoreParams q;
    q.out = static_cast<char*>(out);
    q.rows = s.rows;
    q.cols = s.cols;
    q.out_pitch_bytes = s.out_pitch * C::S;
    q.out_stride_bytes = out_stride;
    cuda_detail::allow_dynamic_smem(tma_load_kernel<C>, C::SMEM_BYTES);
    tma_load_kernel<C><<<gx, C::NT, C::SMEM_BYTES, stream>>>(in_map, p, q);
    XPOSE_CHECK_CUDA_LAUNCH("tma_load_kernel");
  }
  return true;
}

}  // namespace xpose::kernels::cuda_tile

#endif  // XPOSE_HAVE_TMA
