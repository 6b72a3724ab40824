/// @file
/// Candidate of run 17 (kernels/NOTES.md): in place at any n, each block walking a segment of one
/// band (walk_plan.h has the geometry and the numbering). Per chunk a block
///   loads   the band's pieces of the chunk (H rows of H elements, on sectors: whole 16-byte
///           words) and the L rows [c, c + H) (H elements each, at any alignment: whole words
///           but at the ends, where only the block's own elements are read),
///   keeps   both in two rings of shared memory, RING >= H + M slots deep, indexed by the
///           absolute L row / U column mod RING, so the M rows and columns that straddle two
///           chunks are still there at the next chunk,
///   writes  the pieces from the L rows and the L rows [c - M, c + H - M) from the pieces,
/// and issues the next chunk's loads before this chunk's stores (they touch disjoint elements).
/// Diagonal parts (walk::owns_diag) go through the first bands() blocks of the same grid.
#pragma once

#include <cstdint>

#include "kernels/cuda/check.h"
#include "kernels/cuda/tile.cuh"
#include "kernels/cuda/walk_plan.h"
#include "xpose/error.h"

namespace xpose::kernels::cuda_tile {

template <int S_, int H_, int CW_, int K_, int NT_, int MINB_ = 1, int HINT_ = 0>
struct WalkConfig {
  static constexpr int S = S_;
  static constexpr int W = 16;
  static constexpr int V = W / S;
  static constexpr int E = 32 / S;  ///< elements a sector
  static constexpr int M = E - 1;
  static constexpr int H = H_;    ///< band height
  static constexpr int CW = CW_;  ///< chunk width
  static constexpr int K = K_;    ///< band heights a segment spans
  static constexpr int NT = NT_;
  static constexpr int MINB = MINB_;
  static constexpr int HINT = HINT_;
  static constexpr int SWZ = 128 / (S > 4 ? S : 4);
  static constexpr int RING0 =
      (CW + M) <= 32 ? 32 : (CW + M) <= 64 ? 64 : (CW + M) <= 128 ? 128 : 256;
  static constexpr int RING = RING0 > SWZ ? RING0 : SWZ;
  static constexpr int U_WORDS = CW / V;     ///< words of a piece (on a sector)
  static constexpr int L_WORDS = H / V + 1;  ///< words covering H elements at any alignment
  static constexpr int U_ITERS = (H * U_WORDS + NT - 1) / NT;
  static constexpr int L_ITERS = ((CW + M) * L_WORDS + NT - 1) / NT;
  static constexpr int PB = (H + SWZ - 1) / SWZ * SWZ;
  static constexpr int SMEM_ELEMS = H * RING + RING * PB;
  static constexpr std::size_t SMEM_BYTES = static_cast<std::size_t>(SMEM_ELEMS) * S;

  using Elem = typename Bytes<S>::type;
  using Word = typename Bytes<W>::type;
  union Pack {
    Word w;
    Elem e[V];
  };

  static_assert(S == 4 || S == 8 || S == 16, "4-, 8- or 16-byte elements");
  static_assert(CW % E == 0 && CW % V == 0 && H % CW == 0 && K >= 2, "chunks on sectors");
  static_assert(H * H <= SMEM_ELEMS && H % 32 == 0, "the rings hold the diagonal tile");

  /// Ring A: L row r (slot r mod RING) as column, band row il as row: feeds the pieces.
  __device__ __forceinline__ static int slot_a(int il, int rr) {
    return il * RING + (rr ^ ((il / V) & (SWZ - 1)));
  }
  /// Ring B: U column j (slot j mod RING) as row, band row il as column: feeds the L rows.
  __device__ __forceinline__ static int slot_b(int rr, int il) {
    return rr * PB + (il ^ ((rr / V) & (SWZ - 1)));
  }
};

struct WalkParams {
  char* buf;
  std::int64_t n;
  std::int64_t batch;
  std::int64_t diag_blocks;  ///< walk::bands
  std::int64_t walk_blocks;  ///< walk::walk_blocks (the same for every matrix of the batch)
  int k;
  int cw;
};

#if defined(__CUDACC__)

/// One block's segment. Per thread, the pieces' words are fixed (band row il, word w), so their
/// row pointers and offsets are worked out once; ownership inside a segment reduces to j > i and
/// j < n for the pieces, and to the band's columns for L rows away from the segment's ends.
template <class C>
struct WalkBlock {
  using Elem = typename C::Elem;
  using Word = typename C::Word;
  using Pack = typename C::Pack;

  char* mat;
  std::int64_t pitch;  // bytes
  walk::Geom g;
  walk::Segment sg;
  std::int64_t r0;  // band's first row
  int hh;           // rows of the band (H, or fewer in the last band)
  Elem* a;
  Elem* b;
  Elem* ubase[C::U_ITERS];  // element (i, jr) of the piece's row: + c is the word's first
  int ujr[C::U_ITERS];      // w V - delta(i), the word's first column relative to c
  int uil[C::U_ITERS];      // band row (>= hh: none)
  int lil0[C::L_ITERS];     // loaded L words: first element's band column (relative to r0)

  __device__ __forceinline__ void init() {
#pragma unroll
    for (int it = 0; it < C::U_ITERS; ++it) {
      const int s = threadIdx.x + it * C::NT;
      const int il = s / C::U_WORDS;
      const int w = s - il * C::U_WORDS;
      uil[it] = il < hh ? il : C::H;
      const std::int64_t i = r0 + (il < hh ? il : 0);
      ujr[it] = w * C::V - walk::delta(g, i);
      ubase[it] = reinterpret_cast<Elem*>(mat + i * pitch) + ujr[it];
    }
  }

  // Ownership of the piece word's elements at chunk c: jr + e in [lo, hi).
  __device__ __forceinline__ void u_bounds(std::int64_t c, int it, int& lo, int& hi) const {
    const std::int64_t l = r0 + uil[it] + 1 - c;  // j > i
    const std::int64_t h = g.n - c;                // j < n
    lo = l < -C::CW ? -C::CW : static_cast<int>(l);
    hi = h > 2 * C::CW ? 2 * C::CW : static_cast<int>(h);
  }

  __device__ __forceinline__ void issue_u(std::int64_t c, Pack (&v)[C::U_ITERS]) const {
#pragma unroll
    for (int it = 0; it < C::U_ITERS; ++it) {
      if (uil[it] >= C::H) continue;
      int lo, hi;
      u_bounds(c, it, lo, hi);
      const int jr = ujr[it];
      const Elem* p = ubase[it] + c;
      if (jr >= lo && jr + C::V <= hi) {
        v[it].w = load_word<C::HINT>(reinterpret_cast<const Word*>(p));
      } else {
#pragma unroll
        for (int e = 0; e < C::V; ++e) v[it].e[e] = (jr + e >= lo && jr + e < hi) ? p[e] : Elem{};
      }
    }
  }
  __device__ __forceinline__ void scatter_u(std::int64_t c, const Pack (&v)[C::U_ITERS]) const {
    const int cr = static_cast<int>(c & (C::RING - 1));
#pragma unroll
    for (int it = 0; it < C::U_ITERS; ++it) {
      if (uil[it] >= C::H) continue;
      int lo, hi;
      u_bounds(c, it, lo, hi);
      const int jr = ujr[it];
#pragma unroll
      for (int e = 0; e < C::V; ++e)
        if (jr + e >= lo && jr + e < hi)
          b[C::slot_b((cr + jr + e) & (C::RING - 1), uil[it])] = v[it].e[e];
    }
  }
  __device__ __forceinline__ void store_u(std::int64_t c) const {
    const int cr = static_cast<int>(c & (C::RING - 1));
#pragma unroll
    for (int it = 0; it < C::U_ITERS; ++it) {
      if (uil[it] >= C::H) continue;
      int lo, hi;
      u_bounds(c, it, lo, hi);
      const int jr = ujr[it];
      Pack v;
#pragma unroll
      for (int e = 0; e < C::V; ++e) v.e[e] = a[C::slot_a(uil[it], (cr + jr + e) & (C::RING - 1))];
      Elem* p = ubase[it] + c;
      if (jr >= lo && jr + C::V <= hi) {
        *reinterpret_cast<Word*>(p) = v.w;
      } else {
#pragma unroll
        for (int e = 0; e < C::V; ++e)
          if (jr + e >= lo && jr + e < hi) p[e] = v.e[e];
      }
    }
  }

  // L row r: its word w (16-byte aligned) and the band column of the word's first element.
  __device__ __forceinline__ char* l_word(std::int64_t r, int w, int& il0) const {
    char* first = mat + r * pitch + r0 * C::S;
    const int off = static_cast<int>(reinterpret_cast<std::uintptr_t>(first) & (C::W - 1));
    il0 = w * C::V - off / C::S;
    return first - off + w * C::W;
  }
  // Rows away from the segment's ends own every band column.
  __device__ __forceinline__ bool full_row(std::int64_t r) const {
    return r >= sg.c_first && r + C::M < sg.c_end;
  }
  __device__ __forceinline__ bool own_l(std::int64_t r, int il, bool full) const {
    return il >= 0 && il < hh && (full || walk::owns(g, sg, r0 + il, r));
  }

  __device__ __forceinline__ void issue_l(std::int64_t r_begin, int rows, Pack (&v)[C::L_ITERS]) {
#pragma unroll
    for (int it = 0; it < C::L_ITERS; ++it) {
      const int s = threadIdx.x + it * C::NT;
      const int rl = s / C::L_WORDS;
      const int w = s - rl * C::L_WORDS;
      const std::int64_t r = r_begin + rl;
      lil0[it] = C::H;
      if (rl >= rows || r >= g.n) continue;
      int il0;
      const Elem* p = reinterpret_cast<const Elem*>(l_word(r, w, il0));
      lil0[it] = il0;
      const bool full = full_row(r);
      if (full && il0 >= 0 && il0 + C::V <= hh) {
        v[it].w = load_word<C::HINT>(reinterpret_cast<const Word*>(p));
      } else {
#pragma unroll
        for (int e = 0; e < C::V; ++e) v[it].e[e] = own_l(r, il0 + e, full) ? p[e] : Elem{};
      }
    }
  }
  __device__ __forceinline__ void scatter_l(std::int64_t r_begin, const Pack (&v)[C::L_ITERS]) const {
#pragma unroll
    for (int it = 0; it < C::L_ITERS; ++it) {
      if (lil0[it] >= C::H) continue;
      const int s = threadIdx.x + it * C::NT;
      const int rl = s / C::L_WORDS;
      const std::int64_t r = r_begin + rl;
      const bool full = full_row(r);
      const int rr = static_cast<int>(r & (C::RING - 1));
      const int il0 = lil0[it];
#pragma unroll
      for (int e = 0; e < C::V; ++e)
        if (own_l(r, il0 + e, full)) a[C::slot_a(il0 + e, rr)] = v[it].e[e];
    }
  }
  __device__ __forceinline__ void store_l(std::int64_t r_begin, int rows) const {
#pragma unroll
    for (int it = 0; it < C::L_ITERS; ++it) {
      const int s = threadIdx.x + it * C::NT;
      const int rl = s / C::L_WORDS;
      const int w = s - rl * C::L_WORDS;
      const std::int64_t r = r_begin + rl;
      if (rl >= rows || r >= g.n) continue;
      int il0;
      Elem* p = reinterpret_cast<Elem*>(l_word(r, w, il0));
      const bool full = full_row(r);
      const int rr = static_cast<int>(r & (C::RING - 1));
      Pack v;
#pragma unroll
      for (int e = 0; e < C::V; ++e) {
        const int il = il0 + e;
        v.e[e] = il >= 0 && il < C::PB ? b[C::slot_b(rr, il)] : Elem{};
      }
      if (full && il0 >= 0 && il0 + C::V <= hh) {
        *reinterpret_cast<Word*>(p) = v.w;
      } else {
#pragma unroll
        for (int e = 0; e < C::V; ++e)
          if (own_l(r, il0 + e, full)) p[e] = v.e[e];
      }
    }
  }

  __device__ void run() {
    init();
    const int steps = static_cast<int>((sg.c_end - sg.c_first) / C::CW);
    Pack u[C::U_ITERS];
    Pack l[C::L_ITERS];
    issue_u(sg.c_first, u);
    issue_l(sg.c_first - C::M, C::CW + C::M, l);
    for (int q = 0; q < steps; ++q) {
      const std::int64_t c = sg.c_first + static_cast<std::int64_t>(q) * C::CW;
      const bool last = q + 1 == steps;
      scatter_u(c, u);
      scatter_l(q == 0 ? c - C::M : c, l);
      __syncthreads();
      if (!last) {
        issue_u(c + C::CW, u);
        issue_l(c + C::CW, C::CW, l);
      }
      store_u(c);
      store_l(c - C::M, last ? C::CW + C::M : C::CW);
      __syncthreads();
    }
  }
};

/// D_b: the band's diagonal square through shared memory, element by element.
template <class C>
__device__ void walk_diag(char* mat, const walk::Geom& g, std::int64_t band,
                          typename C::Elem* tile) {
  using Elem = typename C::Elem;
  const std::int64_t r0 = band * C::H;
  const int hh = static_cast<int>(g.n - r0 < C::H ? g.n - r0 : C::H);
  const std::int64_t pitch = g.n * C::S;
  for (int s = threadIdx.x; s < hh * hh; s += C::NT) {
    const int il = s / hh, jl = s - il * hh;
    if (walk::owns_diag(g, band, r0 + il, r0 + jl))
      tile[il * C::H + (jl ^ (il & 31))] =
          reinterpret_cast<const Elem*>(mat + (r0 + il) * pitch)[r0 + jl];
  }
  __syncthreads();
  for (int s = threadIdx.x; s < hh * hh; s += C::NT) {
    const int il = s / hh, jl = s - il * hh;
    if (walk::owns_diag(g, band, r0 + il, r0 + jl))
      reinterpret_cast<Elem*>(mat + (r0 + il) * pitch)[r0 + jl] = tile[jl * C::H + (il ^ (jl & 31))];
  }
  __syncthreads();
}

template <class C>
__global__ void __launch_bounds__(C::NT, C::MINB) walk_kernel(WalkParams p) {
  extern __shared__ uint4 walk_smem_raw[];
  auto* smem = reinterpret_cast<typename C::Elem*>(walk_smem_raw);
  for (std::int64_t z = blockIdx.y; z < p.batch; z += gridDim.y) {
    char* mat = p.buf + z * p.n * p.n * C::S;
    walk::Geom g{p.n, C::H, p.k, C::E,
                 static_cast<int>((reinterpret_cast<std::uintptr_t>(mat) % 32) / C::S), p.cw};
    for (std::int64_t t = blockIdx.x; t < p.diag_blocks + p.walk_blocks; t += gridDim.x) {
      if (t < p.diag_blocks) {
        walk_diag<C>(mat, g, t, smem);
        continue;
      }
      WalkBlock<C> wb;
      wb.mat = mat;
      wb.pitch = p.n * C::S;
      wb.g = g;
      wb.sg = walk::segment_of(g, t - p.diag_blocks);
      wb.r0 = wb.sg.band * C::H;
      wb.hh = static_cast<int>(p.n - wb.r0 < C::H ? p.n - wb.r0 : C::H);
      wb.a = smem;
      wb.b = smem + C::H * C::RING;
      wb.run();
    }
  }
}

template <class C>
bool walk_accepts(void* buf, std::int64_t) {
  return reinterpret_cast<std::uintptr_t>(buf) % C::S == 0;
}

/// Launches walk_kernel<C> with segments of K chunks on `stream`. n >= 2.
template <class C>
void launch_walk(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream) {
  // walk_blocks does not depend on the phase; any phase gives the same numbering.
  const walk::Geom g{n, C::H, C::K, C::E, 0, C::CW};
  WalkParams p;
  p.buf = static_cast<char*>(buf);
  p.n = n;
  p.batch = batch;
  p.diag_blocks = walk::bands(g);
  p.walk_blocks = walk::walk_blocks(g);
  p.k = C::K;
  p.cw = C::CW;
  const std::int64_t total = p.diag_blocks + p.walk_blocks;
  const std::int64_t gx = total < 0x7fffffff ? total : 0x7fffffff;
  const std::int64_t gy = batch < 65535 ? batch : 65535;
  cuda_detail::allow_dynamic_smem(walk_kernel<C>, C::SMEM_BYTES);
  walk_kernel<C><<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), C::NT,
                   C::SMEM_BYTES, stream>>>(p);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    cuda_detail::throw_cuda_error(err, "launch of walk_kernel", __FILE__, __LINE__);
}

#endif  // __CUDACC__

}  // namespace xpose::kernels::cuda_tile
