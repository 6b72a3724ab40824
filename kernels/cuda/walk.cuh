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

template <int S_, int H_, int K_, int NT_, int MINB_ = 1, int HINT_ = 0>
struct WalkConfig {
  static constexpr int S = S_;
  static constexpr int W = 16;
  static constexpr int V = W / S;
  static constexpr int E = 32 / S;  ///< elements a sector
  static constexpr int M = E - 1;
  static constexpr int H = H_;
  static constexpr int K = K_;
  static constexpr int NT = NT_;
  static constexpr int MINB = MINB_;
  static constexpr int HINT = HINT_;
  static constexpr int RING = (H + M) <= 32 ? 32 : (H + M) <= 64 ? 64 : (H + M) <= 128 ? 128 : 256;
  static constexpr int U_WORDS = H / V;      ///< words of a piece (on a sector)
  static constexpr int L_WORDS = H / V + 1;  ///< words covering H elements at any alignment
  static constexpr int U_ITERS = (H * U_WORDS + NT - 1) / NT;
  static constexpr int L_ITERS = ((H + M) * L_WORDS + NT - 1) / NT;
  static constexpr int SWZ = 128 / (S > 4 ? S : 4);
  static constexpr int PB = (H + SWZ - 1) / SWZ * SWZ;
  static constexpr std::size_t SMEM_BYTES =
      (static_cast<std::size_t>(H) * RING + static_cast<std::size_t>(RING) * PB) * S;

  using Elem = typename Bytes<S>::type;
  using Word = typename Bytes<W>::type;
  union Pack {
    Word w;
    Elem e[V];
  };

  static_assert(S == 4 || S == 8 || S == 16, "4-, 8- or 16-byte elements");
  static_assert(H % E == 0 && H % V == 0 && K >= 2, "chunks on sectors");
  static_assert(RING >= SWZ && H * (H + 1) <= H * RING, "rings hold the diagonal tile");

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
};

#if defined(__CUDACC__)

template <class C>
struct WalkBlock {
  using Elem = typename C::Elem;
  using Word = typename C::Word;
  using Pack = typename C::Pack;

  char* mat;
  std::int64_t pitch;  // bytes
  walk::Geom g;
  walk::Segment sg;
  std::int64_t r0;      // band's first row
  std::int64_t r_lim;   // min(n, r0 + H)
  Elem* a;
  Elem* b;

  __device__ __forceinline__ std::int64_t lo_u(std::int64_t i, int d) const {
    const std::int64_t x = sg.c_first - d;
    return x > i + 1 ? x : i + 1;
  }
  __device__ __forceinline__ std::int64_t hi_u(int d) const {
    const std::int64_t x = sg.c_end - d;
    return x < g.n ? x : g.n;
  }

  // The chunk's pieces: word w of band row il, elements [j0, j0 + V).
  __device__ __forceinline__ void issue_u(std::int64_t c, Pack (&v)[C::U_ITERS]) const {
#pragma unroll
    for (int it = 0; it < C::U_ITERS; ++it) {
      const int s = threadIdx.x + it * C::NT;
      const int il = s / C::U_WORDS;
      const int w = s - il * C::U_WORDS;
      const std::int64_t i = r0 + il;
      if ((C::H * C::U_WORDS) % C::NT != 0 && il >= C::H) continue;
      if (i >= r_lim) continue;
      const int d = walk::delta(g, i);
      const std::int64_t j0 = c - d + w * C::V;
      const std::int64_t lo = lo_u(i, d), hi = hi_u(d);
      const Elem* p = reinterpret_cast<const Elem*>(mat + i * pitch) + j0;
      if (j0 >= lo && j0 + C::V <= hi) {
        v[it].w = load_word<C::HINT>(reinterpret_cast<const Word*>(p));
      } else {
#pragma unroll
        for (int e = 0; e < C::V; ++e)
          v[it].e[e] = (j0 + e >= lo && j0 + e < hi) ? p[e] : Elem{};
      }
    }
  }
  __device__ __forceinline__ void scatter_u(std::int64_t c, const Pack (&v)[C::U_ITERS]) const {
#pragma unroll
    for (int it = 0; it < C::U_ITERS; ++it) {
      const int s = threadIdx.x + it * C::NT;
      const int il = s / C::U_WORDS;
      const int w = s - il * C::U_WORDS;
      const std::int64_t i = r0 + il;
      if ((C::H * C::U_WORDS) % C::NT != 0 && il >= C::H) continue;
      if (i >= r_lim) continue;
      const int d = walk::delta(g, i);
      const std::int64_t j0 = c - d + w * C::V;
      const std::int64_t lo = lo_u(i, d), hi = hi_u(d);
#pragma unroll
      for (int e = 0; e < C::V; ++e)
        if (j0 + e >= lo && j0 + e < hi)
          b[C::slot_b(static_cast<int>((j0 + e) & (C::RING - 1)), il)] = v[it].e[e];
    }
  }
  __device__ __forceinline__ void store_u(std::int64_t c) const {
#pragma unroll
    for (int it = 0; it < C::U_ITERS; ++it) {
      const int s = threadIdx.x + it * C::NT;
      const int il = s / C::U_WORDS;
      const int w = s - il * C::U_WORDS;
      const std::int64_t i = r0 + il;
      if ((C::H * C::U_WORDS) % C::NT != 0 && il >= C::H) continue;
      if (i >= r_lim) continue;
      const int d = walk::delta(g, i);
      const std::int64_t j0 = c - d + w * C::V;
      const std::int64_t lo = lo_u(i, d), hi = hi_u(d);
      Pack v;
#pragma unroll
      for (int e = 0; e < C::V; ++e)
        v.e[e] = a[C::slot_a(il, static_cast<int>((j0 + e) & (C::RING - 1)))];
      Elem* p = reinterpret_cast<Elem*>(mat + i * pitch) + j0;
      if (j0 >= lo && j0 + C::V <= hi) {
        *reinterpret_cast<Word*>(p) = v.w;
      } else {
#pragma unroll
        for (int e = 0; e < C::V; ++e)
          if (j0 + e >= lo && j0 + e < hi) p[e] = v.e[e];
      }
    }
  }

  // L rows [r_begin, r_begin + rows): word w of row rl covers band columns [i0, i0 + V).
  // Element (r, i) is the block's when i is in the band and (r, i) mirrors an owned piece
  // element; rows away from the segment's ends own every band column.
  __device__ __forceinline__ bool own_l(std::int64_t r, std::int64_t i, bool full) const {
    return i >= r0 && i < r_lim && (full || walk::owns(g, sg, i, r));
  }
  __device__ __forceinline__ bool full_row(std::int64_t r) const {
    return r >= sg.c_first && r + C::M < sg.c_end && r < g.n;
  }
  __device__ __forceinline__ const char* l_word(std::int64_t r, int w, std::int64_t& i0) const {
    const char* first = mat + r * pitch + r0 * C::S;
    const char* word = reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(first) &
                                                     ~std::uintptr_t(C::W - 1)) +
                       w * C::W;
    i0 = r0 + (word - first) / C::S;
    return word;
  }

  __device__ __forceinline__ void issue_l(std::int64_t r_begin, int rows,
                                          Pack (&v)[C::L_ITERS]) const {
#pragma unroll
    for (int it = 0; it < C::L_ITERS; ++it) {
      const int s = threadIdx.x + it * C::NT;
      const int rl = s / C::L_WORDS;
      const int w = s - rl * C::L_WORDS;
      const std::int64_t r = r_begin + rl;
      if (rl >= rows || r >= g.n) continue;
      std::int64_t i0;
      const Elem* p = reinterpret_cast<const Elem*>(l_word(r, w, i0));
      const bool full = full_row(r);
      if (full && i0 >= r0 && i0 + C::V <= r_lim) {
        v[it].w = load_word<C::HINT>(reinterpret_cast<const Word*>(p));
      } else {
#pragma unroll
        for (int e = 0; e < C::V; ++e) v[it].e[e] = own_l(r, i0 + e, full) ? p[e] : Elem{};
      }
    }
  }
  __device__ __forceinline__ void scatter_l(std::int64_t r_begin, int rows,
                                            const Pack (&v)[C::L_ITERS]) const {
#pragma unroll
    for (int it = 0; it < C::L_ITERS; ++it) {
      const int s = threadIdx.x + it * C::NT;
      const int rl = s / C::L_WORDS;
      const int w = s - rl * C::L_WORDS;
      const std::int64_t r = r_begin + rl;
      if (rl >= rows || r >= g.n) continue;
      std::int64_t i0;
      l_word(r, w, i0);
      const bool full = full_row(r);
      const int rr = static_cast<int>(r & (C::RING - 1));
#pragma unroll
      for (int e = 0; e < C::V; ++e)
        if (own_l(r, i0 + e, full)) a[C::slot_a(static_cast<int>(i0 + e - r0), rr)] = v[it].e[e];
    }
  }
  __device__ __forceinline__ void store_l(std::int64_t r_begin, int rows) const {
#pragma unroll
    for (int it = 0; it < C::L_ITERS; ++it) {
      const int s = threadIdx.x + it * C::NT;
      const int rl = s / C::L_WORDS;
      const int w = s - rl * C::L_WORDS;
      const std::int64_t r = r_begin + rl;
      if (rl >= rows || r >= g.n || r < 0) continue;
      std::int64_t i0;
      char* p = const_cast<char*>(l_word(r, w, i0));
      const bool full = full_row(r);
      const int rr = static_cast<int>(r & (C::RING - 1));
      Pack v;
#pragma unroll
      for (int e = 0; e < C::V; ++e) {
        const int il = static_cast<int>(i0 + e - r0);
        v.e[e] = il >= 0 && il < C::PB ? b[C::slot_b(rr, il)] : Elem{};
      }
      if (full && i0 >= r0 && i0 + C::V <= r_lim) {
        *reinterpret_cast<Word*>(p) = v.w;
      } else {
#pragma unroll
        for (int e = 0; e < C::V; ++e)
          if (own_l(r, i0 + e, full)) reinterpret_cast<Elem*>(p)[e] = v.e[e];
      }
    }
  }

  __device__ void run() {
    const int steps = static_cast<int>((sg.c_end - sg.c_first) / C::H);
    Pack u[C::U_ITERS];
    Pack l[C::L_ITERS];
    issue_u(sg.c_first, u);
    issue_l(sg.c_first - C::M, C::H + C::M, l);
    for (int q = 0; q < steps; ++q) {
      const std::int64_t c = sg.c_first + static_cast<std::int64_t>(q) * C::H;
      const bool first = q == 0;
      const bool last = q + 1 == steps;
      scatter_u(c, u);
      if (first)
        scatter_l(c - C::M, C::H + C::M, l);
      else
        scatter_l(c, C::H, l);
      __syncthreads();
      if (!last) {
        issue_u(c + C::H, u);
        issue_l(c + C::H, C::H, l);
      }
      store_u(c);
      store_l(c - C::M, last ? C::H + C::M : C::H);
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
      tile[il * (C::H + 1) + jl] =
          reinterpret_cast<const Elem*>(mat + (r0 + il) * pitch)[r0 + jl];
  }
  __syncthreads();
  for (int s = threadIdx.x; s < hh * hh; s += C::NT) {
    const int il = s / hh, jl = s - il * hh;
    if (walk::owns_diag(g, band, r0 + il, r0 + jl))
      reinterpret_cast<Elem*>(mat + (r0 + il) * pitch)[r0 + jl] = tile[jl * (C::H + 1) + il];
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
                 static_cast<int>((reinterpret_cast<std::uintptr_t>(mat) % 32) / C::S)};
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
      wb.r_lim = wb.r0 + C::H < p.n ? wb.r0 + C::H : p.n;
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
  const walk::Geom g{n, C::H, C::K, C::E, 0};
  WalkParams p;
  p.buf = static_cast<char*>(buf);
  p.n = n;
  p.batch = batch;
  p.diag_blocks = walk::bands(g);
  p.walk_blocks = walk::walk_blocks(g);
  p.k = C::K;
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
