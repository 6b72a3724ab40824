/// @file
/// Copy kernels of 16-byte words, the yardsticks the transposes are held against:
/// bench_copy_ceiling times them beside cudaMemcpy, bench_kernel_counters reads the counters of
/// the grid-stride one.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/cuda/tile.cuh"

namespace xpose::bench {

/// Grid-stride, one 16-byte word per thread per step.
__global__ void copy_stride(const uint4* __restrict__ in, uint4* __restrict__ out,
                            std::int64_t words) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < words;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

/// One block per chunk of U x blockDim words; every load of a thread issued before its stores.
/// HINT: the cache hints of cuda_tile::TileConfig (kLoadStreaming, kStoreStreaming).
template <int U, int HINT>
__global__ void copy_unrolled(const uint4* __restrict__ in, uint4* __restrict__ out,
                              std::int64_t words) {
  const std::int64_t base = blockIdx.x * std::int64_t(blockDim.x) * U + threadIdx.x;
  uint4 v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::int64_t i = base + std::int64_t(u) * blockDim.x;
    if (i < words) v[u] = kernels::cuda_tile::load_word<HINT>(in + i);
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::int64_t i = base + std::int64_t(u) * blockDim.x;
    if (i < words) kernels::cuda_tile::store_word<HINT>(out + i, v[u]);
  }
}

/// Block orders of copy_tiles: which tile block b takes.
enum TileOrder : int {
  kTilesRowMajor = 0,  ///< along tile rows (the tiled transpose's order)
  kTilesColMajor = 1,  ///< down tile columns
  kTilesGroup8 = 2,    ///< groups of 8 tile rows, each taken column by column
  kTilesSquare32 = 3,  ///< 32 x 32 squares of tiles, row-major inside and between them
  kTilesDiagonal = 4,  ///< block b: tile column b mod across, tile row shifted by it (diagonals)
};

template <int ORDER>
__device__ inline void tile_of_block(std::int64_t b, std::int64_t across, std::int64_t down,
                                     std::int64_t& ti, std::int64_t& tj) {
  if (ORDER == kTilesColMajor) {
    ti = b % down, tj = b / down;
  } else if (ORDER == kTilesGroup8) {
    const std::int64_t g = b / (8 * across), r = b % (8 * across);
    ti = g * 8 + r % 8, tj = r / 8;  // down must be a multiple of 8
  } else if (ORDER == kTilesSquare32) {
    const std::int64_t sq = b / 1024, r = b % 1024, per_row = across / 32;
    ti = (sq / per_row) * 32 + r / 32, tj = (sq % per_row) * 32 + r % 32;  // multiples of 32
  } else if (ORDER == kTilesDiagonal) {
    tj = b % across, ti = (b / across + tj) % down;
  } else {
    ti = b / across, tj = b % across;
  }
}

/// Copies ROWS x PIECE-byte tiles of a matrix of `row_bytes` bytes a row with WB-byte words,
/// one tile a block of 256 threads (all of a thread's loads before its stores), the tiles taken
/// in block order ORDER (row-major: as the tiled transpose takes them). PERMUTE: tile (i, j) of
/// the tiles_down x tiles_across grid lands at tile (j, i) of the transposed grid (tiles_across
/// x tiles_down, rows of tiles_down x PIECE bytes), rows kept: the transpose's traffic
/// (PIECE-byte pieces of ROWS output rows from each block) with no shared memory, barrier or
/// in-register transpose.
template <int ROWS, int WB, int PIECE, bool PERMUTE, int ORDER = kTilesRowMajor>
__global__ void __launch_bounds__(256)
    copy_tiles(const char* __restrict__ in, char* __restrict__ out, std::int64_t row_bytes,
               std::int64_t tiles_across, std::int64_t tiles_down) {
  using Word = typename kernels::cuda_tile::Bytes<WB>::type;
  constexpr int PER_ROW = PIECE / WB;          // words of a tile row
  constexpr int U = ROWS * PER_ROW / 256;      // words a thread
  static_assert(U >= 1 && ROWS * PER_ROW % 256 == 0, "whole words a thread");
  std::int64_t ti, tj;
  tile_of_block<ORDER>(blockIdx.x, tiles_across, tiles_down, ti, tj);
  Word v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const int w = threadIdx.x + 256 * u;
    v[u] = *reinterpret_cast<const Word*>(in + (ti * ROWS + w / PER_ROW) * row_bytes +
                                          tj * PIECE + (w % PER_ROW) * WB);
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const int w = threadIdx.x + 256 * u;
    const std::int64_t o =
        PERMUTE ? (tj * ROWS + w / PER_ROW) * (tiles_down * PIECE) + ti * PIECE + (w % PER_ROW) * WB
                : (ti * ROWS + w / PER_ROW) * row_bytes + tj * PIECE + (w % PER_ROW) * WB;
    *reinterpret_cast<Word*>(out + o) = v[u];
  }
}

}  // namespace xpose::bench
