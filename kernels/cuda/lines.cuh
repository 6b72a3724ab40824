/// @file
/// Out-of-place transpose with every warp access inside one aligned line: one element a lane,
/// and a warp's 32 lanes cover the aligned 32 x S bytes (a 128-byte line for 4-byte elements)
/// that hold their elements, whatever the row's alignment; lanes outside the tile sit idle.
///
/// A row piece of TC elements that starts inside a line takes TC / 32 + 1 such accesses instead
/// of TC / 32 accesses that each straddle two lines. This is cuBLAS geam's read and write pattern
/// (whole aligned windows, the lanes outside the tile idle), for rows the word kernels (tiled.cuh,
/// tma.cuh) cannot take (off 16 bytes) or take only as skewed pieces (off 256 bytes: skew.cuh).
/// Unlike a window kernel that stored each load to shared memory before issuing the next (0.27 x
/// memcpy for f32), a thread issues its loads into registers first and only then
/// writes them to shared memory, in PH phases of TR / (NT / 32) / PH rows: PH = 1 puts all
/// TR / (NT / 32) x (TC / 32 + 1) loads in flight but needs 80 registers for 64 x 64 f32 tiles
/// (3 blocks an SM, 2625 GB/s at 16411² on an H200); two or four phases fit 6 blocks in 40
/// registers (the same tiles 3379-3476 GB/s, 64 x 128 tiles in four phases 3500-3519). The
/// shared tile is padded to TR + 1 elements a row (conflict-free both ways for 4-, 8- and 16-byte
/// elements). Partial sectors stay at the pieces' ends; in column-major block order the next block
/// completes them. Plain shared memory and __syncthreads only (sm_35 on).
#pragma once

#include <cstdint>

#include "kernels/cuda/tile.cuh"
#include "kernels/transpose.h"

namespace xpose::kernels::cuda_tile {

/// S: element bytes (4, 8 or 16); TR x TC: input rows x input columns of a tile (multiples of
/// 32 and of the warps); NT: threads; MINB, HINT (loads only) as TileConfig's; PH: phases the
/// read takes (each issues its share of a warp's rows, then stores them to shared memory: fewer
/// registers, so more blocks an SM, for fewer loads in flight a thread).
template <int S_, int TR_, int TC_, int NT_, int MINB_ = 1, int HINT_ = 0, int PH_ = 1>
struct LinesConfig {
  static constexpr int S = S_;
  static constexpr int TR = TR_;
  static constexpr int TC = TC_;
  static constexpr int NT = NT_;
  static constexpr int MINB = MINB_;
  static constexpr int HINT = HINT_;
  static constexpr int NW = NT / 32;             ///< warps
  static constexpr int LINE = 32 * S;            ///< bytes a warp access covers (aligned)
  static constexpr int ROWS_IN = TR / NW;        ///< input row pieces a warp reads
  static constexpr int PH = PH_;
  static constexpr int ROWS_PH = ROWS_IN / PH;   ///< of them in one phase
  static constexpr int ROWS_OUT = TC / NW;       ///< output row pieces a warp writes
  static constexpr int LINES_IN = TC / 32 + 1;   ///< accesses an input row piece can need
  static constexpr int LINES_OUT = TR / 32 + 1;  ///< accesses an output row piece can need
  static constexpr int PITCH = TR + 1;           ///< shared row (one input column), in elements
  static constexpr std::size_t SMEM_BYTES = static_cast<std::size_t>(TC) * PITCH * S;
  using Elem = typename Bytes<S>::type;
  static_assert(S == 4 || S == 8 || S == 16, "4-, 8- or 16-byte elements");
  static_assert(NT % 32 == 0 && TR % 32 == 0 && TC % 32 == 0 && TR % NW == 0 && TC % NW == 0,
                "whole warps, whole lines");
  static_assert(ROWS_IN % PH == 0, "whole rows a phase");
};

#if defined(__CUDACC__)

/// Elements of the aligned LINE-byte line before `p` (an element of a row).
template <class C>
__device__ __forceinline__ int line_offset(const char* p) {
  return static_cast<int>((reinterpret_cast<std::uintptr_t>(p) % C::LINE) / C::S);
}

template <class C>
__global__ void __launch_bounds__(C::NT, C::MINB) lines_kernel(TiledParams p) {
  extern __shared__ uint4 lines_smem_raw[];
  using Elem = typename C::Elem;
  auto* smem = reinterpret_cast<Elem*>(lines_smem_raw);
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  for_each_tile(p, C::TR, C::TC, [&](const char* in, char* out, std::int64_t r0, std::int64_t c0) {
    const int nr = static_cast<int>(p.rows - r0 < C::TR ? p.rows - r0 : C::TR);
    const int nc = static_cast<int>(p.cols - c0 < C::TC ? p.cols - c0 : C::TC);
    // Read: input row i = warp + q * NW of the tile; lane l of access k takes column
    // l - offset + 32 k of the tile (offset: the row piece's first element within its line).
#pragma unroll
    for (int ph = 0; ph < C::PH; ++ph) {
      Elem v[C::ROWS_PH][C::LINES_IN];
      int first[C::ROWS_PH];
#pragma unroll
      for (int q = 0; q < C::ROWS_PH; ++q) {
        const int i = warp + (ph * C::ROWS_PH + q) * C::NW;
        const char* src = in + (r0 + (i < nr ? i : 0)) * p.in_pitch_bytes + c0 * C::S;
        first[q] = i < nr ? lane - line_offset<C>(src) : C::TC;  // TC: nothing in this row
#pragma unroll
        for (int k = 0; k < C::LINES_IN; ++k) {
          const int col = first[q] + k * 32;
          if (col >= 0 && col < nc)
            v[q][k] = load_word<C::HINT>(reinterpret_cast<const Elem*>(src + col * C::S));
        }
      }
#pragma unroll
      for (int q = 0; q < C::ROWS_PH; ++q) {
        const int i = warp + (ph * C::ROWS_PH + q) * C::NW;
#pragma unroll
        for (int k = 0; k < C::LINES_IN; ++k) {
          const int col = first[q] + k * 32;
          if (col >= 0 && col < nc) smem[col * C::PITCH + i] = v[q][k];
        }
      }
    }
    __syncthreads();
    // Write: output row j = warp + q * NW (input column c0 + j), output columns r0 .. r0 + nr - 1,
    // the same way.
#pragma unroll
    for (int q = 0; q < C::ROWS_OUT; ++q) {
      const int j = warp + q * C::NW;
      if (j >= nc) continue;
      char* dst = out + (c0 + j) * p.out_pitch_bytes + r0 * C::S;
      const int f = lane - line_offset<C>(dst);
#pragma unroll
      for (int k = 0; k < C::LINES_OUT; ++k) {
        const int col = f + k * 32;
        if (col >= 0 && col < nr)
          *reinterpret_cast<Elem*>(dst + col * C::S) = smem[j * C::PITCH + col];
      }
    }
    __syncthreads();  // the next tile overwrites shared memory
  });
}

/// Launches lines_kernel<C> on `stream`; `s` resolved, non-empty, both buffers aligned to the
/// element. `group`: tile rows per group of the block order (tile_of), or kColumnMajor.
template <class C>
void launch_lines(const void* in, void* out, const TransposeShape& s, cudaStream_t stream,
                  int group) {
  launch_tiles(lines_kernel<C>, "lines_kernel", C::TR, C::TC, 0, C::S, C::NT, C::SMEM_BYTES, in,
               out, s, stream, group);
}

#endif  // __CUDACC__

}  // namespace xpose::kernels::cuda_tile
