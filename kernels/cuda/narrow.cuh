/// @file
/// 1- and 2-byte elements on rows of any alignment, four bytes an access (out of place and in
/// place).
///
/// The rotated kernels (rotated.cuh, inplace.cuh) move one element an access. For 4-byte
/// elements that is 128 bytes a warp access and runs at 0.92 x memcpy; for one byte it is 32
/// bytes an access, a quarter of the bytes in flight for the same instructions, and u8 ran at
/// 0.44-0.54 x memcpy where rows are off 32-byte sectors (H100). Here every
/// global access is an aligned 4-byte word, whatever the rows' alignment:
///  - Loads: a warp reads one TS-element row piece as the aligned words that hold it (lane l word
///    l, lane 31 also the word after the last when the piece is off 4 bytes), takes the next
///    word from the neighbouring lane (one shuffle) and funnel-shifts the pair, so each lane has
///    the piece's own word l, which it stores whole in shared memory.
///  - Shared tile: TS rows of WB = TS * sizeof(T) / 4 words, word w of row s at
///    s * WB + (w ^ (s / E mod 32)) (E elements a word). Row writes and the column reads below
///    are then free of bank conflicts.
///  - Stores: a warp writes output row pieces as the aligned words that hold them; lane q builds
///    word q of E rows at once from the 2E - 1 shared words that hold their elements
///    (narrow_store_rows: byte permutes and a funnel shift a row), and stores each word whole.
///    Where a piece is off 4 bytes, its first and last word also hold elements of the
///    neighbouring tiles' pieces: only this tile's elements of those are written (the
///    neighbouring blocks write the rest; in place they may be rewriting theirs at the same
///    time).
///  - Forms the library uses (kernels/cuda/kernels.def): out of place u8 256 x 256 tiles on
///    16-byte rows, 128 x 128 elsewhere; u16 128 x 128; in place u8 256 x 256 and u16 128 x 128
///    pairs with one tile's rows in registers at a time (SEQ). ROT rotates the loads onto
///    128-byte lines.
///  - Tiles clipped by the matrix edge, and those whose first or last row's words would reach
///    outside the matrix (a buffer off 4 bytes): out of place, the same word path with guards
///    (only the words that hold the tile's elements are read, bytes outside the matrix not at
///    all; output words that hold other elements too are written element by element), or element
///    by element (rotated_tile_generic), as NarrowEdge says: the element path cost 20-50 % where
///    edge tiles are many or wide, so the library keeps it only for u8 where both matrices' rows
///    are on 16 bytes and no tile is partial (see narrow_edge_tile). In place, pairs clipped so go element by element (rotated_swap_generic)
///    or through guarded words (narrow_swap_edge), as NarrowEdge says.
/// Plain loads, stores, shuffles, funnel shifts and __syncthreads: sm_35 and newer (CUDA 9 for
/// __shfl_sync).
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/check.h"
#include "kernels/cuda/inplace.cuh"
#include "kernels/cuda/rotated.cuh"
#include "kernels/cuda/tile.cuh"
#include "kernels/transpose.h"

namespace xpose::kernels::cuda_tile {

/// The word layout of narrow_kernel's and inplace_narrow_kernel's shared tiles for TS x TS
/// tiles of T (1 or 2 bytes).
template <class T, int TS>
struct NarrowTile {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2, "1- and 2-byte elements");
  static constexpr int S = sizeof(T);
  static constexpr int E = 4 / S;        ///< elements a word
  static constexpr int WB = TS * S / 4;  ///< words a tile row
  static constexpr int K = WB / 32;      ///< words a lane a row
  static_assert(WB % 32 == 0, "whole warps a row");
  /// Shared word of row s, word w.
  __device__ static __forceinline__ int word(int s, int w) { return s * WB + (w ^ ((s / E) & 31)); }
};

/// Bytes from the aligned 4-byte word that holds `p` to p.
__device__ __forceinline__ unsigned narrow_offset(const void* p) {
  return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(p)) & 3u;
}

/// The aligned 4-byte word at `w`, read whole where it lies inside [lo, hi); otherwise only its
/// bytes inside, with zeros for the rest (edge tiles: the matrix's first and last words).
__device__ __forceinline__ std::uint32_t narrow_guarded_word(const char* w, const char* lo,
                                                             const char* hi) {
  if (w >= lo && w + 4 <= hi) return *reinterpret_cast<const std::uint32_t*>(w);
  std::uint32_t v = 0;
#pragma unroll
  for (int b = 0; b < 4; ++b)
    if (w + b >= lo && w + b < hi)
      v |= static_cast<std::uint32_t>(static_cast<unsigned char>(w[b])) << (8 * b);
  return v;
}

/// The first word of a piece's aligned words (starting at `base`) that starts a 128-byte line.
__device__ __forceinline__ int narrow_line_word(const void* base) {
  const unsigned a = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(base)) & 127u;
  return static_cast<int>(((128u - a) & 127u) >> 2);
}

/// A warp's loads of one TS-element row piece at `row` (aligned to T): the aligned words that
/// hold it, lane l word 32 k + l, and in `x` (lane 31, where the piece is off 4 bytes) the word
/// after the last. ROT: lane l takes word (q0 + 32 k + l) mod WB instead, q0 the first word on a
/// 128-byte line, so that each warp access but the wrapping one covers one whole line (the
/// rotated kernels' order, on words); `x` is then read by the lane of word WB - 1.
template <class T, int TS, bool ROT = false>
struct NarrowRow {
  using L = NarrowTile<T, TS>;
  static_assert(!ROT || (L::WB & (L::WB - 1)) == 0, "rotation modulo a power of two");
  __device__ static __forceinline__ int first(const char* base) {
    return ROT ? narrow_line_word(base) : 0;
  }
  std::uint32_t w[L::K];
  std::uint32_t x;
  __device__ __forceinline__ void load(const char* row, int lane) {
    const unsigned off = narrow_offset(row);
    const auto* base = reinterpret_cast<const std::uint32_t*>(row - off);
    const int q0 = first(row - off);
#pragma unroll
    for (int k = 0; k < L::K; ++k) w[k] = base[(q0 + 32 * k + lane) & (L::WB - 1)];
    x = 0;
    if (off != 0 && ((q0 + lane) & 31) == 31) x = base[L::WB];  // the lane of word WB - 1
  }
  /// load for tiles at the matrix's edges: only the words that hold the piece's first n
  /// elements are read (the others are zero), each through narrow_guarded_word (bytes outside
  /// [lo, hi) read as zeros).
  __device__ __forceinline__ void load_guarded(const char* row, int lane, int n, const char* lo,
                                               const char* hi) {
    const unsigned off = narrow_offset(row);
    const char* base = row - off;
    const int q0 = first(base);
    const int nb = static_cast<int>(off) + n * static_cast<int>(sizeof(T));  // bytes used
#pragma unroll
    for (int k = 0; k < L::K; ++k) {
      const int q = (q0 + 32 * k + lane) & (L::WB - 1);
      w[k] = 4 * q < nb ? narrow_guarded_word(base + 4 * q, lo, hi) : 0;
    }
    x = 0;
    if (off != 0 && ((q0 + lane) & 31) == 31 && 4 * L::WB < nb)
      x = narrow_guarded_word(base + 4 * L::WB, lo, hi);
  }
  /// Row s of the shared tile: word 32 k + l of the piece itself, funnel-shifted from the word
  /// this lane read and the next one (the next lane's, or `x` past the last); `row` the piece's
  /// address as given to load (only its offset from 4 bytes is used: recomputing it here keeps a
  /// register a row free while the loads are in flight; holding it spilled for u8 and cost
  /// 3-17 %).
  __device__ __forceinline__ void store(std::uint32_t* tile, int s, int lane,
                                        const char* row) const {
    const unsigned shift = 8 * narrow_offset(row);
    const int q0 = first(row - narrow_offset(row));
    std::uint32_t next[L::K];
#pragma unroll
    for (int k = 0; k < L::K; ++k) next[k] = __shfl_sync(0xffffffffu, w[k], (lane + 1) & 31);
#pragma unroll
    for (int k = 0; k < L::K; ++k) {
      // lane 31's next word is lane 0's word of the next k (what it got from the shuffle of
      // w[k + 1], k + 1 taken mod K), and the next word of word WB - 1 is x.
      std::uint32_t hi = next[k];
      int q = 32 * k + lane;
      if constexpr (ROT) {
        q = (q0 + q) & (L::WB - 1);
        if (lane == 31) hi = next[(k + 1) % L::K];
        if (q == L::WB - 1) hi = x;
      } else {
        if (lane == 31) hi = k + 1 < L::K ? next[k + 1] : x;
      }
      tile[L::word(s, q)] = __funnelshift_r(w[k], hi, shift);
    }
  }
};

/// A warp writes E consecutive output row pieces (rows cg .. cg + E - 1 of the tile's output, cg
/// a multiple of E; row i at row0 + i * pitch), element e of row i the shared tile's (e, cg + i).
/// Lane q takes word q of each piece: it reads the 2E - 1 shared words of column cg / E in rows
/// E q - E + 1 .. E q + E - 1 once (E = 4: 7 loads for 16 bytes of output, where one element a
/// load took 16 and ran 10-19 % slower), and for each row i picks element i of each
/// with byte permutes into the sequence P:Q, whose funnel shift by the row's offset is the word.
/// The first and the last word of a piece off 4 bytes are written only where they hold this piece's
/// elements: at most a 1-byte and a 2-byte store each, by lanes 0 and 31 at once.
/// EDGE (tiles at the matrix's edges): only the first `rows` of the E rows and the first `h`
/// elements of each are written; words that hold other elements too, element by element.
template <class T, int TS, bool EDGE = false>
__device__ __forceinline__ void narrow_store_rows(char* row0, std::int64_t pitch,
                                                  const std::uint32_t* tile, int cg, int lane,
                                                  int rows = NarrowTile<T, TS>::E, int h = TS) {
  using L = NarrowTile<T, TS>;
  constexpr int E = L::E, S = L::S, J = 2 * E - 1;
  const int wc = cg / E;  // the shared word column of these E output rows
#pragma unroll
  for (int k = 0; k < L::K; ++k) {
    const int q = 32 * k + lane;
    std::uint32_t w[J];
#pragma unroll
    for (int j = 0; j < J; ++j) {
      int r = E * q - (E - 1) + j;  // rows above the tile (word 0's) are never used: read row 0
      if (k == 0 && j < E - 1) r = r < 0 ? 0 : r;
      w[j] = tile[L::word(r, wc)];
    }
#pragma unroll
    for (int i = 0; i < E; ++i) {
      char* row = row0 + i * pitch;
      const unsigned off = narrow_offset(row);
      auto* base = reinterpret_cast<std::uint32_t*>(row - off);
      std::uint32_t lo, hi;  // element i of w[0] .. w[E - 1], and of w[E] .. w[J - 1]
      if constexpr (S == 1) {
        const unsigned sel = i | ((4 + i) << 4);
        lo = __byte_perm(__byte_perm(w[0], w[1], sel), __byte_perm(w[2], w[3], sel), 0x5410);
        hi = __byte_perm(__byte_perm(w[4], w[5], sel), __byte_perm(w[6], w[6], sel), 0x5410);
      } else {
        const unsigned sel =
            (2 * i) | ((2 * i + 1) << 4) | ((2 * i + 4) << 8) | ((2 * i + 5) << 12);
        lo = __byte_perm(w[0], w[1], sel);
        hi = w[2] >> (16 * i);
      }
      // word q holds elements E q - m + t (t < E), m = off / S: elements E - 1 - m + t of lo:hi
      const unsigned sh = 8 * (4 - S - off);
      const std::uint32_t v = __funnelshift_r(lo, hi, sh);
      if constexpr (EDGE) {
        if (i >= rows) break;
        const int m = static_cast<int>(off) / S, j0 = E * q - m;  // word q's first element
        if (j0 >= 0 && j0 + E <= h) {
          base[q] = v;
        } else {
#pragma unroll
          for (int t = 0; t < E; ++t)
            if (j0 + t >= 0 && j0 + t < h)
              reinterpret_cast<T*>(base + q)[t] = static_cast<T>(v >> (8 * S * t));
        }
        if (off != 0 && q == L::WB - 1) {  // elements TS - m + t (t < m) in the word after it
          const std::uint32_t ev = hi >> sh;
#pragma unroll
          for (int t = 0; t < E - 1; ++t)
            if (t < m && TS - m + t < h)
              reinterpret_cast<T*>(base + L::WB)[t] = static_cast<T>(ev >> (8 * S * t));
        }
        continue;
      }
      if (q > 0 || off == 0) base[q] = v;
      if (off != 0 && (q == 0 || q == L::WB - 1)) {
        // lane of word 0: its bytes [off, 4); lane of the last word: the bytes [0, off) of the
        // word after it (elements TS - m + t, t < m: the rest of hi)
        const bool head = q == 0;
        const std::uint32_t ev = head ? v : hi >> sh;
        char* ew = reinterpret_cast<char*>(base + (head ? 0 : L::WB));
        if (S == 1 && (off & 1u) != 0) {
          const unsigned pb = head ? off : off - 1;
          ew[pb] = static_cast<char>(ev >> (8 * pb));
        }
        if (head ? off <= 2 : off >= 2) {
          const unsigned ph = head ? 2 : 0;
          *reinterpret_cast<std::uint16_t*>(ew + ph) = static_cast<std::uint16_t>(ev >> (8 * ph));
        }
      }
    }
  }
}

/// Whether the words that hold the TS-element pieces of rows `first` .. `last` (pieces at the
/// same column) lie inside [lo, hi).
template <class T, int TS>
__device__ __forceinline__ bool narrow_words_inside(const char* first, const char* last,
                                                    const char* lo, const char* hi) {
  const auto a = reinterpret_cast<std::uintptr_t>(first);
  const auto b = reinterpret_cast<std::uintptr_t>(last) + TS * sizeof(T);
  return (a & ~std::uintptr_t{3}) >= reinterpret_cast<std::uintptr_t>(lo) &&
         ((b + 3) & ~std::uintptr_t{3}) <= reinterpret_cast<std::uintptr_t>(hi);
}

/// The rows of a TS x TS tile that warp `warp` of an NT-thread block moves, rows warp + a WARPS
/// (a < R): loaded as NarrowRow words (load), stored to a shared tile (put), and written out of
/// a shared tile E output rows at a time (write). `base` is the tile's first row, rows `pitch`
/// bytes apart.
template <class T, int TS, int NT, bool ROT = false>
struct NarrowWarp {
  static constexpr int WARPS = NT / 32, R = TS / WARPS, E = NarrowTile<T, TS>::E;
  static_assert(TS % (WARPS * E) == 0 && NT % 32 == 0, "whole rows a warp");
  NarrowRow<T, TS, ROT> u[R];
  __device__ __forceinline__ void load(const char* base, std::int64_t pitch, int warp, int lane) {
#pragma unroll
    for (int a = 0; a < R; ++a) u[a].load(base + (warp + a * WARPS) * pitch, lane);
  }
  __device__ __forceinline__ void put(std::uint32_t* tile, const char* base, std::int64_t pitch,
                                      int warp, int lane) const {
#pragma unroll
    for (int a = 0; a < R; ++a)
      u[a].store(tile, warp + a * WARPS, lane, base + (warp + a * WARPS) * pitch);
  }
  /// Output row r of the tile at `base` <- column r of `tile` (narrow_store_rows).
  __device__ __forceinline__ static void write(char* base, std::int64_t pitch,
                                               const std::uint32_t* tile, int warp, int lane) {
#pragma unroll
    for (int a = 0; a < R / E; ++a) {
      const int rg = E * (warp + a * WARPS);
      narrow_store_rows<T, TS>(base + rg * pitch, pitch, tile, rg, lane);
    }
  }
  /// write for a tile at the matrix's edges: its first w output rows' first h elements.
  __device__ __forceinline__ static void write_edge(char* base, std::int64_t pitch,
                                                    const std::uint32_t* tile, int warp, int lane,
                                                    int h, int w) {
#pragma unroll
    for (int a = 0; a < R / E; ++a) {
      const int rg = E * (warp + a * WARPS);
      if (rg >= w) break;  // the warp's later row groups lie further down
      narrow_store_rows<T, TS, true>(base + rg * pitch, pitch, tile, rg, lane, w - rg, h);
    }
  }
};

/// Shared memory of one tile of narrow_kernel<T, TS> (inplace_narrow_kernel: two): the larger
/// of the word tile and the in-place edge pairs' element-wise tile (rows rotated_pitch apart;
/// out of place the same size, so that its launch is as it was measured).
template <class T, int TS>
constexpr std::size_t narrow_tile_bytes() {
  return std::max<std::size_t>(rotated_smem_bytes<T, TS>() / 2, TS * TS * sizeof(T));
}

/// How narrow_kernel moves its tiles at the matrix's edges.
enum class NarrowEdge {
  kElements,  ///< element by element (rotated_tile_generic)
  kWords      ///< guarded words (narrow_edge_tile), inlined: as a call the kernels ran 12-30 %
              ///< slower on every shape, whole tiles too
};

/// Loads the first h rows' first w elements of the TS x TS tile at `src` (rows `pitch` bytes
/// apart) into the shared word tile `tile` through guarded words (NarrowRow::load_guarded, bytes
/// outside [lo, hi) not read), CH rows a warp in flight at a time; the other rows' words are zero.
template <class T, int TS, int NT, bool ROT, int CH = 4>
__device__ __forceinline__ void narrow_load_edge(std::uint32_t* tile, const char* src,
                                                 std::int64_t pitch, int h, int w, const char* lo,
                                                 const char* hi, int warp, int lane) {
  using W = NarrowWarp<T, TS, NT, ROT>;
  static_assert(W::R % CH == 0, "whole chunks of rows");
#pragma unroll 1
  for (int a0 = 0; a0 < W::R; a0 += CH) {
    NarrowRow<T, TS, ROT> u[CH];
#pragma unroll
    for (int c = 0; c < CH; ++c) {
      const int s = warp + (a0 + c) * W::WARPS;
      if (s < h) {
        u[c].load_guarded(src + s * pitch, lane, w, lo, hi);
      } else {
#pragma unroll
        for (int k = 0; k < NarrowTile<T, TS>::K; ++k) u[c].w[k] = 0;
        u[c].x = 0;
      }
    }
#pragma unroll
    for (int c = 0; c < CH; ++c) {
      const int s = warp + (a0 + c) * W::WARPS;
      u[c].store(tile, s, lane, src + s * pitch);
    }
  }
}

/// narrow_kernel's tiles at the matrix's edges: the word path with guards (narrow_load_edge,
/// NarrowWarp::write_edge). Inlined, it leaves the unguarded path's PTX as it was, but ptxas then
/// allocates that path differently (two lane constants spilled, addresses in the uniform
/// datapath) and u8 256 x 256 tiles where both matrices' rows are on 16 bytes ran 1.1-1.8 %
/// slower (elsewhere level). Ends with a barrier.
template <class T, int TS, int NT, bool ROT>
__device__ __forceinline__ void narrow_edge_tile(const TiledParams& p, const char* in, char* out,
                                                 std::int64_t r0, std::int64_t c0,
                                                 std::uint32_t* tile, int warp, int lane) {
  const char* end = in + (p.rows - 1) * p.in_pitch_bytes + p.cols * sizeof(T);
  const char* src = in + r0 * p.in_pitch_bytes + c0 * sizeof(T);
  char* dst = out + c0 * p.out_pitch_bytes + r0 * sizeof(T);
  const int h = static_cast<int>(std::min<std::int64_t>(TS, p.rows - r0));
  const int w = static_cast<int>(std::min<std::int64_t>(TS, p.cols - c0));
  narrow_load_edge<T, TS, NT, ROT>(tile, src, p.in_pitch_bytes, h, w, in, end, warp, lane);
  __syncthreads();
  NarrowWarp<T, TS, NT, ROT>::write_edge(dst, p.out_pitch_bytes, tile, warp, lane, h, w);
  __syncthreads();
}

/// Out of place: see the file comment. NT threads, MINB blocks an SM, TS x TS tiles; ROT as
/// NarrowRow's (the loads only: the word gathers share each shared word among E rows whose line
/// offsets differ); EDGE: how tiles at the matrix's edges are moved; SPREAD: the tiles in the
/// order of TiledParams::spread (for_each_tile's SPREAD).
template <class T, int TS, int NT, int MINB, bool ROT = false, NarrowEdge EDGE = NarrowEdge::kWords,
          bool SPREAD = false>
__global__ void __launch_bounds__(NT, MINB) narrow_kernel(TiledParams p) {
  using W = NarrowWarp<T, TS, NT, ROT>;
  extern __shared__ uint4 narrow_smem_raw[];
  auto* tile = reinterpret_cast<std::uint32_t*>(narrow_smem_raw);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for_each_tile<SPREAD>(
      p, TS, TS, [&](const char* in, char* out, std::int64_t r0, std::int64_t c0) {
        const char* src = in + r0 * p.in_pitch_bytes + c0 * sizeof(T);  // TS input rows
        if (r0 + TS > p.rows || c0 + TS > p.cols ||
            !narrow_words_inside<T, TS>(
                src, src + (TS - 1) * p.in_pitch_bytes, in,
                in + (p.rows - 1) * p.in_pitch_bytes + p.cols * sizeof(T))) {
          if constexpr (EDGE == NarrowEdge::kWords)
            narrow_edge_tile<T, TS, NT, ROT>(p, in, out, r0, c0, tile, warp, lane);
          else
            rotated_tile_generic<T, TS, NT>(p, in, out, r0, c0, reinterpret_cast<T*>(tile));
          return;
        }
        char* dst = out + c0 * p.out_pitch_bytes + r0 * sizeof(T);  // TS output rows
        W u;
        u.load(src, p.in_pitch_bytes, warp, lane);
        u.put(tile, src, p.in_pitch_bytes, warp, lane);
        __syncthreads();
        W::write(dst, p.out_pitch_bytes, tile, warp, lane);  // output row r <- input column r
        __syncthreads();  // the next tile overwrites shared memory
      });
}

/// Launches narrow_kernel<T, TS, NT, MINB, ROT, EDGE, SPREAD> on `stream`, tiles in tile_of's
/// order with `group` and (SPREAD) `spread`. `s` must be resolved and non-empty, the buffers
/// aligned to the element.
template <class T, int TS, int NT, int MINB, bool ROT = false, NarrowEdge EDGE = NarrowEdge::kWords,
          bool SPREAD = false>
void launch_narrow(const void* in, void* out, const TransposeShape& s, cudaStream_t stream,
                   int group, std::uint32_t spread = 1) {
  launch_tiles(narrow_kernel<T, TS, NT, MINB, ROT, EDGE, SPREAD>, "narrow_kernel", TS, TS, 0,
               sizeof(T), NT, narrow_tile_bytes<T, TS>(), in, out, s, stream, group, spread);
}

/// inplace_narrow_kernel's pairs clipped by the matrix edge or with words outside [m, end): both
/// tiles loaded through guarded words (narrow_load_edge) into A (tile (I, J) at `upper`, h x w)
/// and B (tile (J, I) at `lower`, w x h), then each written over the other's place
/// (NarrowWarp::write_edge); a diagonal tile (r0 == c0) through A alone. Ends with a barrier.
template <class T, int TS, int NT>
__device__ __forceinline__ void narrow_swap_edge(const InplaceParams& p, char* m, const char* end,
                                                 std::int64_t r0, std::int64_t c0, std::uint32_t* A,
                                                 std::uint32_t* B, int warp, int lane) {
  using W = NarrowWarp<T, TS, NT>;
  const int h = static_cast<int>(std::min<std::int64_t>(TS, p.n - r0));
  const int w = static_cast<int>(std::min<std::int64_t>(TS, p.n - c0));
  char* upper = m + r0 * p.pitch_bytes + c0 * sizeof(T);
  char* lower = m + c0 * p.pitch_bytes + r0 * sizeof(T);
  const bool diagonal = r0 == c0;
  narrow_load_edge<T, TS, NT, false>(A, upper, p.pitch_bytes, h, w, m, end, warp, lane);
  if (!diagonal)
    narrow_load_edge<T, TS, NT, false>(B, lower, p.pitch_bytes, w, h, m, end, warp, lane);
  __syncthreads();
  if (!diagonal) W::write_edge(lower, p.pitch_bytes, A, warp, lane, h, w);
  W::write_edge(upper, p.pitch_bytes, diagonal ? A : B, warp, lane, diagonal ? h : w,
                diagonal ? w : h);
  __syncthreads();
}

/// In place for any n: square TS x TS tile pairs in the grouped order, both tiles read into two
/// shared tiles as narrow_kernel reads its one, then each written over the other's place,
/// transposed, as narrow_kernel writes. Diagonal tiles through one tile; pairs clipped by the
/// matrix edge, or whose words would reach outside the matrix, element by element
/// (rotated_swap_generic), or through guarded words (EDGE: narrow_swap_edge; 22 % ahead where
/// the edge pairs are wide, u8 n = 16584, but 2-6 % behind on the other pairs). SEQ: tile
/// (I, J)'s rows are loaded and stored to shared memory before tile (J, I)'s are read, half the
/// registers a thread (u8 256 x 256 pairs without spills, u16 with two blocks an SM).
template <class T, int TS, int NT, int MINB, bool SEQ = false,
          NarrowEdge EDGE = NarrowEdge::kElements>
__global__ void __launch_bounds__(NT, MINB) inplace_narrow_kernel(InplaceParams p) {
  using L = NarrowTile<T, TS>;
  using W = NarrowWarp<T, TS, NT>;
  extern __shared__ uint4 inplace_narrow_smem_raw[];
  auto* A = reinterpret_cast<std::uint32_t*>(inplace_narrow_smem_raw);  // tile (I, J)
  std::uint32_t* B = A + TS * L::WB;                                    // tile (J, I)
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    char* m = p.buf + b * p.stride_bytes;
    const char* end = m + p.stride_bytes;
    for (std::uint64_t k = blockIdx.x; k < p.blocks; k += gridDim.x) {
      tri::TilePair tp;
      pair_of<PairOrder::Grouped>(p, k, tp);
      const std::int64_t r0 = static_cast<std::int64_t>(tp.row) * TS;
      const std::int64_t c0 = static_cast<std::int64_t>(tp.col) * TS;
      char* upper = m + r0 * p.pitch_bytes + c0 * sizeof(T);  // tile (I, J), TS rows
      char* lower = m + c0 * p.pitch_bytes + r0 * sizeof(T);  // tile (J, I), TS rows
      constexpr std::int64_t kLast = TS - 1;
      if (c0 + TS > p.n ||  // clipped by the matrix edge (c0 >= r0: tile (J, J) bounds both)
          !narrow_words_inside<T, TS>(upper, upper + kLast * p.pitch_bytes, m, end) ||
          !narrow_words_inside<T, TS>(lower, lower + kLast * p.pitch_bytes, m, end)) {
        if constexpr (EDGE == NarrowEdge::kWords)
          narrow_swap_edge<T, TS, NT>(p, m, end, r0, c0, A, B, warp, lane);
        else
          rotated_swap_generic<T, TS, NT>(p, m, r0, c0, reinterpret_cast<T*>(A),
                                          reinterpret_cast<T*>(A) + TS * rotated_pitch<T, TS>());
        continue;
      }
      const bool diagonal = tp.row == tp.col;
      const std::int64_t pitch = p.pitch_bytes;
      W u, v;
      u.load(upper, pitch, warp, lane);
      if (SEQ) {  // tile (I, J) stored to shared memory before tile (J, I) is read
        u.put(A, upper, pitch, warp, lane);
        if (!diagonal) {
          u.load(lower, pitch, warp, lane);
          u.put(B, lower, pitch, warp, lane);
        }
      } else {
        if (!diagonal) v.load(lower, pitch, warp, lane);
        u.put(A, upper, pitch, warp, lane);
        if (!diagonal) v.put(B, lower, pitch, warp, lane);
      }
      __syncthreads();
      // tile (J, I) row r <- tile (I, J) column r, and tile (I, J) row r <- the other's column r
      if (!diagonal) W::write(lower, pitch, A, warp, lane);
      W::write(upper, pitch, diagonal ? A : B, warp, lane);
      __syncthreads();  // the next pair overwrites shared memory
    }
  }
}

/// The shape launch_inplace_with needs of inplace_narrow_kernel<T, TS> with NT threads.
template <class T, int TS, int NT_>
struct NarrowShape {
  static constexpr int S = sizeof(T);
  static constexpr int TH = TS;
  static constexpr int NT = NT_;
  static constexpr std::size_t SMEM_BYTES = narrow_tile_bytes<T, TS>();
};

/// Launches inplace_narrow_kernel<T, TS, NT, MINB> (G tile rows a group in the grouped order)
/// over `batch` dense n x n matrices at `buf` on `stream`.
template <class T, int TS, int NT, int MINB, bool SEQ = false,
          NarrowEdge EDGE = NarrowEdge::kElements>
void launch_inplace_narrow(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream,
                           int group) {
  launch_inplace_with<NarrowShape<T, TS, NT>, PairOrder::Grouped>(
      inplace_narrow_kernel<T, TS, NT, MINB, SEQ, EDGE>, "inplace_narrow_kernel", buf, n, batch,
      stream, group);
}

}  // namespace xpose::kernels::cuda_tile
