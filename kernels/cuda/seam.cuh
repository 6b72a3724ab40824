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
///     the elements of a row piece that fall in a sector shared with the neighbouring piece (a
///     "seam" sector) are not written to the matrix. Instead the block writes the first and the
///     last sector's worth of elements of each such piece (32 bytes each, whole sectors, one store
///     instruction each) to its own two workspace sectors of that (row, tile). Seam positions keep
///     their old values through phase 1, so every block still reads what it needs;
///   phase 2 (seam_phase2_kernel): each seam sector is assembled from the end sector of the piece
///     on its left and the start sector of the piece on its right, and written whole by two
///     adjacent threads' 16-byte stores in one instruction.
///
/// A first version (commit da3881a) had both blocks of a seam write their halves into one shared
/// workspace sector: the partial-sector writes had only moved, and it was slower than the plain
/// kernel everywhere (NOTES.md, run 7).
///
/// Workspace: 64 bytes per (matrix, row, tile) = 64 / (T * S) of the matrix (12.5 % for T * S =
/// 512). The sectors at the very start and end of a matrix (which may hold bytes outside it) are
/// written directly, as before. Needs whole sectors in every row piece: T >= 32 / S and a last
/// tile (n mod T) of none or at least a sector's worth.
#pragma once

#include <cstdint>

#include "kernels/cuda/inplace.cuh"

namespace xpose::kernels::cuda_tile {

/// Writes the tile held in shared memory (output order, one element per word) to output rows
/// [orow0, orow0 + T) and columns [ocol0, ocol0 + T) of matrix `m`; the seam elements go only to
/// the workspace `ws` (this matrix's), see the file comment. Every store is predicated, not
/// branched, so that the lanes writing one sector do it in one instruction.
template <class C>
__device__ __forceinline__ void store_tile_seam(char* m, char* ws, const InplaceParams& p,
                                                unsigned base_off, std::int64_t orow0,
                                                std::int64_t ocol0, bool full,
                                                const typename C::Word* __restrict__ smem) {
  using Elem = typename C::Elem;
  static_assert(C::W == C::S, "one element per word");
  constexpr int T = C::TH;
  constexpr int E = 32 / C::S;  // elements per sector
  const auto tiles = static_cast<std::int64_t>(p.tiles);
  const std::int64_t rows_left = p.n - orow0;
  const int w = static_cast<int>(p.n - ocol0 < T ? p.n - ocol0 : T);  // this piece's width
  const std::int64_t k = ocol0 / T;
  const bool ends_matrix = ocol0 + w == p.n;
  (void)full;
#pragma unroll 4
  for (int idx = threadIdx.x; idx < T * T; idx += C::NT) {
    const int r = idx / T;  // output row in the tile
    const int c = idx % T;  // output column
    if (r >= rows_left || c >= w) continue;
    const Elem v = smem[C::slot(r, c)];
    const std::int64_t i = orow0 + r;
    const std::int64_t a0 = static_cast<std::int64_t>(base_off) + (i * p.n + ocol0) * C::S;
    const int d0 = static_cast<int>((a0 & 31) / C::S);                    // piece start in its sector
    const int d1 = static_cast<int>(((a0 + w * C::S) & 31) / C::S);      // piece end in its sector
    const bool ws_start = d0 != 0 && !(i == 0 && ocol0 == 0) && c < E;
    const bool ws_end = d1 != 0 && !(i == p.n - 1 && ends_matrix) && c >= w - E;
    const bool seam = (ws_start && c < E - d0) || (ws_end && c >= w - d1);
    char* slot = ws + (i * tiles + k) * 64;
    if (ws_start) *reinterpret_cast<Elem*>(slot + c * C::S) = v;
    if (ws_end) *reinterpret_cast<Elem*>(slot + 32 + (c - (w - E)) * C::S) = v;
    if (!seam) *reinterpret_cast<Elem*>(m + i * p.pitch_bytes + (ocol0 + c) * C::S) = v;
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
    char* ws = p.ws + b * p.n * static_cast<std::int64_t>(p.tiles) * 64;
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

/// Phase 2: every seam sector written whole; two threads a sector (16 bytes each, adjacent lanes,
/// one store instruction). Thread pair (matrix, i, k) takes the sector across the start of the
/// piece of row i at tile column k (k = 0: the start of row i).
template <int S, int T>
__global__ void seam_phase2_kernel(InplaceParams p) {
  constexpr int E = 32 / S;  // elements per sector
  constexpr int H = E / 2;   // elements per 16-byte half
  using Elem = typename Bytes<S>::type;
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
    if (k == 0 && i == 0) continue;  // the matrix's first sector: written directly
    char* m = p.buf + b * p.stride_bytes;
    const auto base_off = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(m) & 31u);
    const std::int64_t e0 = i * p.n + k * T;  // first element of the piece on the right
    const int d = static_cast<int>(((static_cast<std::int64_t>(base_off) + e0 * S) & 31) / S);
    if (d == 0) continue;  // the boundary falls on a sector: no seam
    const char* ws = p.ws + b * per_matrix * 64;
    const char* left = ws + (slot - 1) * 64 + 32;  // end sector of the piece on the left
    const char* right = ws + slot * 64;            // start sector of the piece on the right
    uint4 out;
    Elem* o = reinterpret_cast<Elem*>(&out);
#pragma unroll
    for (int x = 0; x < H; ++x) {
      const int pos = half * H + x;  // place in the sector
      o[x] = pos < d ? reinterpret_cast<const Elem*>(left)[E - d + pos]
                     : reinterpret_cast<const Elem*>(right)[pos - d];
    }
    *reinterpret_cast<uint4*>(m + (e0 - d) * S + half * 16) = out;
  }
}

/// Bytes of workspace the seam path needs for `batch` n x n matrices with T x T tiles.
template <class C>
std::int64_t seam_workspace_bytes(std::int64_t n, std::int64_t batch) {
  const std::int64_t tiles = (n + C::TH - 1) / C::TH;
  return batch * n * tiles * 64;
}

/// Whether the seam path takes this buffer and n: one element per word, a sector spans at most
/// two tiles, at least two tiles a side (rows of one or two sectors are left to the plain
/// kernel), and rows or the buffer off 32-byte sectors (otherwise there are no seams).
template <class C>
bool seam_accepts(const void* buf, std::int64_t n) {
  static_assert(C::W == C::S && C::TH * C::S >= 32, "one element a word; tiles >= a sector");
  constexpr std::int64_t E = 32 / C::S;
  const auto addr = reinterpret_cast<std::uintptr_t>(buf);
  if (C::S < 4 || addr % C::S != 0 || n < 2 * C::TH) return false;
  const std::int64_t last = n % C::TH;
  if (last != 0 && last < E) return false;
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
