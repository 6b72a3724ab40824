/// @file
/// In-place square transpose for n whose rows do not start on 32-byte sectors (odd n and the
/// like), without partial-sector writes: two launches and a small workspace.
///
/// With such an n every row piece a tile writes starts or ends inside a sector whose other part
/// belongs to the neighbouring tile, written by another block at another time. Partial-sector
/// writes are what cost the in-place kernel most at these n (kernels/NOTES.md: c128 at 16411²
/// in place runs at 0.85 x memcpy against 0.95 on aligned n, with the same whole-element words).
/// The out-of-place skewed kernel avoids them by moving its pieces; an in-place kernel cannot,
/// since a tile and its mirror must cover the same elements. Instead:
///
///   phase 1 (seam_phase1_kernel): the triangular tile-pair swap of inplace_kernel, except that
///     elements whose sector straddles two tiles (a "seam" sector) go to a workspace slot of 32
///     bytes per seam sector instead of into the matrix. Seam positions keep their old values
///     through phase 1, so every block still reads what it needs;
///   phase 2 (seam_phase2_kernel): each seam sector is written whole, from its slot, by two
///     adjacent threads' 16-byte stores in one instruction.
///
/// Slots: one per (matrix, row i, k) with k in [0, tiles): k = 0 is the sector across the start
/// of row i (its first elements and the end of row i - 1), k >= 1 the sector across column k*T
/// of row i. A sector across a row end that also crosses a column boundary (a last tile narrower
/// than a sector) belongs to the row-end slot. The sectors at the very start and end of a matrix
/// (which may hold bytes outside it) are written directly, element by element, as before.
/// Workspace: batch * n * tiles * 32 bytes = 32 / (T * S) of the matrix (6.25 % for T * S = 512).
/// Needs T >= 32 / S (a sector spans at most two tiles of a row) and one element per word.
#pragma once

#include <cstdint>

#include "kernels/cuda/inplace.cuh"

namespace xpose::kernels::cuda_tile {

/// The seam slot of element (i, j) of an n x n matrix whose first byte is base_off bytes past a
/// 32-byte boundary; -1 where the element's sector lies inside one tile (or at the matrix's
/// ends). `d`: the element's place in its sector.
template <int S, int T>
__device__ __forceinline__ std::int64_t seam_slot(std::int64_t n, std::int64_t tiles,
                                                  unsigned base_off, std::int64_t i,
                                                  std::int64_t j, int& d) {
  constexpr int E = 32 / S;
  const std::int64_t a = static_cast<std::int64_t>(base_off) + (i * n + j) * S;
  d = static_cast<int>((a & 31) / S);
  const std::int64_t js = j - d;  // first column of the sector (may lie in the row before)
  const std::int64_t je = js + E - 1;
  if (js < 0) return i == 0 ? -1 : i * tiles;                       // across the start of row i
  if (je >= n) return i == n - 1 ? -1 : (i + 1) * tiles;           // across the end of row i
  const std::int64_t kl = js / T, kr = je / T;
  return kl == kr ? -1 : i * tiles + kr;                            // across column kr * T
}

/// Writes the tile held in shared memory (output order, one element per word) to output rows
/// [orow0, orow0 + T) and columns [ocol0, ocol0 + T) of matrix `m`, seam elements to the
/// workspace `ws` (this matrix's slots) instead.
template <class C>
__device__ __forceinline__ void store_tile_seam(char* m, char* ws, const InplaceParams& p,
                                                unsigned base_off, std::int64_t orow0,
                                                std::int64_t ocol0, bool full,
                                                const typename C::Word* __restrict__ smem) {
  using Elem = typename C::Elem;
  static_assert(C::W == C::S, "one element per word");
  constexpr int T = C::TH;
  const auto tiles = static_cast<std::int64_t>(p.tiles);
  constexpr int E = 32 / C::S;
  const std::int64_t rows_left = p.n - orow0, cols_left = p.n - ocol0;
  // Columns whose sector cannot reach past either end of the row piece: no seam to look up.
  const int inner_hi = static_cast<int>(cols_left < T ? cols_left : T) - E;
#pragma unroll 4
  for (int idx = threadIdx.x; idx < T * T; idx += C::NT) {
    const int r = idx / T;  // output row in the tile
    const int c = idx % T;  // output column
    if (!full && (r >= rows_left || c >= cols_left)) continue;
    const Elem v = smem[C::slot(r, c)];
    const std::int64_t i = orow0 + r, j = ocol0 + c;
    if (c >= E - 1 && c <= inner_hi) {
      *reinterpret_cast<Elem*>(m + i * p.pitch_bytes + j * C::S) = v;
      continue;
    }
    int d = 0;
    const std::int64_t slot = seam_slot<C::S, T>(p.n, tiles, base_off, i, j, d);
    if (slot < 0)
      *reinterpret_cast<Elem*>(m + i * p.pitch_bytes + j * C::S) = v;
    else
      *reinterpret_cast<Elem*>(ws + slot * 32 + d * C::S) = v;
  }
}

/// Phase 1: inplace_kernel's tile-pair swap, seam elements to the workspace (p.ws).
template <class C, PairOrder Order>
__global__ void __launch_bounds__(C::NT, C::MINB) seam_phase1_kernel(InplaceParams p) {
  static_assert(C::TH == C::TW, "square tiles");
  extern __shared__ uint4 seam_smem_raw[];
  auto* sa = reinterpret_cast<typename C::Word*>(seam_smem_raw);
  auto* sb = sa + C::WORDS;
  constexpr int T = C::TH;
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    char* m = p.buf + b * p.stride_bytes;
    char* ws = p.ws + b * p.n * static_cast<std::int64_t>(p.tiles) * 32;
    const auto base_off = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(m) & 31u);
    for (std::uint64_t k = blockIdx.x; k < p.blocks; k += gridDim.x) {
      tri::TilePair tp;
      if (!pair_of<Order>(p, k, tp)) continue;
      const std::int64_t r0 = static_cast<std::int64_t>(tp.row) * T;
      const std::int64_t c0 = static_cast<std::int64_t>(tp.col) * T;
      const bool diagonal = tp.row == tp.col;
      const bool full = c0 + T <= p.n;
      load_tile<C>(m + r0 * p.pitch_bytes + c0 * C::S, p.pitch_bytes, p.n - r0, p.n - c0, full,
                   sa);
      if (!diagonal)
        load_tile<C>(m + c0 * p.pitch_bytes + r0 * C::S, p.pitch_bytes, p.n - c0, p.n - r0,
                     full, sb);
      __syncthreads();
      store_tile_seam<C>(m, ws, p, base_off, c0, r0, full, sa);  // tile (I, J) -> (J, I)
      if (!diagonal) store_tile_seam<C>(m, ws, p, base_off, r0, c0, full, sb);
      __syncthreads();
    }
  }
}

/// Phase 2: every seam sector written whole from its slot; two threads a slot (16 bytes each,
/// adjacent lanes, one store instruction).
template <int S, int T>
__global__ void seam_phase2_kernel(InplaceParams p) {
  constexpr int E = 32 / S;
  const auto tiles = static_cast<std::int64_t>(p.tiles);
  const std::int64_t per_matrix = p.n * tiles;
  const std::int64_t total = per_matrix * p.batch * 2;
  for (std::int64_t g = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       g < total; g += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t slot_all = g >> 1;
    const int half = static_cast<int>(g & 1);
    const std::int64_t b = slot_all / per_matrix;
    const std::int64_t slot = slot_all % per_matrix;
    const std::int64_t i = slot / tiles, k = slot % tiles;
    if (k == 0 && i == 0) continue;
    char* m = p.buf + b * p.stride_bytes;
    const auto base_off = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(m) & 31u);
    const std::int64_t j = k * T;  // column 0 of row i, or the boundary column k * T
    const std::int64_t a = static_cast<std::int64_t>(base_off) + (i * p.n + j) * S;
    const int d = static_cast<int>((a & 31) / S);
    if (d == 0) continue;                       // the boundary falls on a sector: no seam
    if (k > 0 && j - d + E - 1 >= p.n) continue;  // owned by the row-end slot (i + 1, 0)
    const std::int64_t l0 = i * p.n + j - d;      // first element of the sector
    const char* src = p.ws + slot_all * 32 + half * 16;
    *reinterpret_cast<uint4*>(m + l0 * S + half * 16) = *reinterpret_cast<const uint4*>(src);
  }
}

/// Bytes of workspace the seam path needs for `batch` n x n matrices with T x T tiles.
template <class C>
std::int64_t seam_workspace_bytes(std::int64_t n, std::int64_t batch) {
  const std::int64_t tiles = (n + C::TH - 1) / C::TH;
  return batch * n * tiles * 32;
}

/// Whether the seam path takes this buffer and n: one element per word, a sector spans at most
/// two tiles, at least two tiles a side (rows of one or two sectors are left to the plain
/// kernel), and rows or the buffer off 32-byte sectors (otherwise there are no seams).
template <class C>
bool seam_accepts(const void* buf, std::int64_t n) {
  static_assert(C::W == C::S && C::TH * C::S >= 32, "one element a word; tiles >= a sector");
  const auto addr = reinterpret_cast<std::uintptr_t>(buf);
  if (C::S < 4 || addr % C::S != 0 || n < 2 * C::TH) return false;
  return (n * C::S) % 32 != 0 || addr % 32 != 0;
}

/// Launches both phases on `stream`; `ws` holds seam_workspace_bytes<C>(n, batch) bytes, 16-byte
/// aligned.
template <class C, PairOrder Order>
void launch_inplace_seam(void* buf, std::int64_t n, std::int64_t batch, void* ws,
                         cudaStream_t stream) {
  launch_inplace_with<C, Order>(seam_phase1_kernel<C, Order>, "seam_phase1_kernel", buf, n, batch,
                                stream, 0, static_cast<char*>(ws));
  InplaceParams p;
  p.buf = static_cast<char*>(buf);
  p.n = n;
  p.batch = batch;
  p.pitch_bytes = n * C::S;
  p.stride_bytes = n * n * C::S;
  p.tiles = static_cast<std::uint64_t>((n + C::TH - 1) / C::TH);
  p.blocks = 0;
  p.ws = static_cast<char*>(ws);
  const std::int64_t threads = 2 * n * static_cast<std::int64_t>(p.tiles) * batch;
  const std::int64_t blocks = std::min<std::int64_t>((threads + 255) / 256, 1 << 20);
  seam_phase2_kernel<C::S, C::TH><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(p);
  XPOSE_CHECK_CUDA_LAUNCH("seam_phase2_kernel");
}

}  // namespace xpose::kernels::cuda_tile
