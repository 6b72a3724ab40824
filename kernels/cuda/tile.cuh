/// @file
/// The tile machinery shared by the out-of-place and the in-place CUDA transposes (and by the
/// baselines bench/kernels.cu times against them).
///
/// A tile of the input is TH x TW elements. Each thread moves V x V blocks of elements, where V
/// = W / S elements make one W-byte word (W = 16: one 128-bit access; W = S: one element):
///   load:  a thread reads V words (V input rows, V elements each), transposes the V x V block in
///          registers and writes V words to shared memory, already in output order;
///   store: a thread reads one word (V consecutive output elements) from shared memory and writes
///          it to the output row.
/// Global accesses are W bytes wide and coalesced across the warp on both sides. Shared memory
/// holds TW output rows of BR words each, with no padding: word h of row r sits at slot
/// h ^ ((r / V) mod SW), an XOR swizzle that keeps both phases free of bank conflicts and keeps
/// every word W-aligned (a padded row would break 16-byte alignment). Only plain shared memory,
/// __syncthreads and ordinary loads and stores: this builds for sm_35 onwards.
#pragma once

#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/cuda/check.h"
#include "kernels/cuda/spread.h"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels::cuda_tile {

/// The integer type of exactly N bytes (its alignment is N too).
template <int N>
struct Bytes;
template <>
struct Bytes<1> {
  using type = std::uint8_t;
};
template <>
struct Bytes<2> {
  using type = std::uint16_t;
};
template <>
struct Bytes<4> {
  using type = std::uint32_t;
};
template <>
struct Bytes<8> {
  using type = unsigned long long;
};
template <>
struct Bytes<16> {
  using type = uint4;
};

constexpr int min_int(int a, int b) {
  return a < b ? a : b;
}
constexpr bool is_pow2(int x) {
  return x > 0 && (x & (x - 1)) == 0;
}

/// One tile shape. S: element bytes; W: access bytes (a multiple of S, at most 16); BR x BC:
/// the tile in V x V blocks (powers of two); NT: threads per block; MINB: blocks per SM the
/// compiler must leave registers for (__launch_bounds__), 1 to let it choose; HINT: cache hints,
/// the k* bits below.
template <int S_, int W_, int BR_, int BC_, int NT_, int MINB_ = 1, int HINT_ = 0>
struct TileConfig {
  static constexpr int S = S_;
  static constexpr int W = W_;
  static constexpr int V = W / S;  ///< elements per word
  static constexpr int BR = BR_;   ///< blocks down the tile (words per output row)
  static constexpr int BC = BC_;   ///< blocks across the tile
  static constexpr int NT = NT_;
  static constexpr int MINB = MINB_;
  static constexpr int HINT = HINT_;
  static constexpr int TH = BR * V;  ///< input rows of a tile
  static constexpr int TW = BC * V;  ///< input columns of a tile
  static constexpr int BLOCKS = BR * BC;
  static constexpr int LOADS = BLOCKS / NT;  ///< V x V blocks each thread loads
  static constexpr int WORDS = TW * BR;      ///< words of shared memory per tile
  static constexpr int STORES = WORDS / NT;  ///< words each thread stores
  static constexpr int BANK_WORDS =
      W >= 4 ? 128 / W : 32;                          ///< words one conflict-free wavefront serves
  static constexpr int SW = min_int(BR, BANK_WORDS);  ///< swizzle period
  static constexpr std::size_t SMEM_BYTES = static_cast<std::size_t>(WORDS) * W;

  using Elem = typename Bytes<S>::type;
  using Word = typename Bytes<W>::type;
  /// A word seen as V elements, for the in-register V x V transpose.
  union Pack {
    Word w;
    Elem e[V];
  };

  static_assert(W % S == 0 && W <= 16, "a word holds whole elements");
  static_assert(is_pow2(BR) && is_pow2(BC) && is_pow2(V), "tile extents are powers of two");
  static_assert(BLOCKS % NT == 0 && LOADS >= 1, "every thread loads whole blocks");
  static_assert(NT % 32 == 0, "whole warps");

  /// Shared-memory slot of word h of output row r (see the file comment).
  __device__ __forceinline__ static int slot(int r, int h) {
    return r * BR + (h ^ ((r / V) & (SW - 1)));
  }
};

/// One 32 x 32 tile of S-byte elements, one element a word, 256 threads: the small-size kernels
/// (in place one pair a block, out of place the tiny-matrix tiles of u8 / u16).
template <int S>
using Tile32 = TileConfig<S, S, 32, 32, 256>;

/// HINT bits (TileConfig, SkewConfig).
constexpr int kLoadStreaming = 1;   ///< ld.global.cs
constexpr int kStoreStreaming = 2;  ///< st.global.cs
/// ld.global.L2::256B: L2 fetches the aligned 256 bytes around a load that misses (sm_80 onwards
/// with CUDA 11.4 or newer; plain loads elsewhere). (128-byte fetches measured between plain
/// loads and these everywhere and are not offered.)
constexpr int kFetch256 = 4;

/// A global load or store of one word, with the cache hints of HINT (sm_32+ intrinsics; plain
/// accesses where the code is compiled for the host).
template <int HINT, class T>
__device__ __forceinline__ T load_word(const T* p) {
  // The prefetch sizes need sm_80 (ptxas refuses .L2::256B for sm_75) and PTX ISA 7.4 (CUDA
  // 11.4); older targets and toolkits (the sm_37 build with CUDA 11.0-11.3) get plain loads.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && \
    (__CUDACC_VER_MAJOR__ > 11 || (__CUDACC_VER_MAJOR__ == 11 && __CUDACC_VER_MINOR__ >= 4))
  if constexpr ((HINT & kFetch256) != 0 && (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16)) {
    // The asm reads memory the compiler does not see: "memory" keeps it ordered with the
    // kernel's own stores (the in-place kernels write where they read; the clobber measured at
    // no cost).
    T v;
    if constexpr (sizeof(T) == 16) {
      uint4& u = reinterpret_cast<uint4&>(v);
      asm volatile("ld.global.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(u.x), "=r"(u.y), "=r"(u.z), "=r"(u.w)
                   : "l"(p)
                   : "memory");
    } else if constexpr (sizeof(T) == 8) {
      asm volatile("ld.global.L2::256B.u64 %0, [%1];"
                   : "=l"(reinterpret_cast<unsigned long long&>(v))
                   : "l"(p)
                   : "memory");
    } else {
      asm volatile("ld.global.L2::256B.u32 %0, [%1];"
                   : "=r"(reinterpret_cast<unsigned&>(v))
                   : "l"(p)
                   : "memory");
    }
    return v;
  }
#endif
#if defined(__CUDA_ARCH__)
  if constexpr ((HINT & kLoadStreaming) != 0) return __ldcs(p);
#endif
  return *p;
}
template <int HINT, class T>
__device__ __forceinline__ void store_word(T* p, const T& v) {
#if defined(__CUDA_ARCH__)
  if constexpr ((HINT & kStoreStreaming) != 0) {
    __stcs(p, v);
    return;
  }
#endif
  *p = v;
}

/// Writes the V x V blocks this thread loaded to shared memory in output order, each transposed
/// in registers: v[q][m] is word m (input row m of the block) of block threadIdx.x + q * NT,
/// block b = (h, g) sitting h blocks down and g across. Blocks past C::BLOCKS (a last, partial
/// round of threads) are skipped.
template <class C, class Word>
__device__ __forceinline__ void store_blocks_transposed(const typename C::Pack (&v)[C::LOADS][C::V],
                                                        Word* __restrict__ smem) {
  using Pack = typename C::Pack;
#pragma unroll
  for (int q = 0; q < C::LOADS; ++q) {
    const int blk = threadIdx.x + q * C::NT;
    if (C::BLOCKS % C::NT != 0 && blk >= C::BLOCKS) continue;
    const int g = blk % C::BC;
    const int h = blk / C::BC;
#pragma unroll
    for (int a = 0; a < C::V; ++a) {
      Pack t;
#pragma unroll
      for (int b = 0; b < C::V; ++b) t.e[b] = v[q][b].e[a];
      smem[C::slot(g * C::V + a, h)] = t.w;
    }
  }
}

/// V x V block threadIdx.x + q * NT of the tile at `src` (rows `pitch` bytes apart): sets g, its
/// column in blocks, and returns the address of its first word.
template <class C>
__device__ __forceinline__ const char* block_src(const char* src, std::int64_t pitch, int q,
                                                 int& g) {
  const int blk = threadIdx.x + q * C::NT;
  g = blk % C::BC;
  const int h = blk / C::BC;
  return src + static_cast<std::int64_t>(h * C::V) * pitch + g * C::W;
}

/// Issues the loads of a whole tile at `src` (rows `pitch` bytes apart) into registers, every load
/// before the first use: v[q][m] is word m of V x V block threadIdx.x + q * NT (as
/// store_blocks_transposed takes them). No guards: the tile must lie inside the matrix.
template <class C>
__device__ __forceinline__ void load_tile_regs(const char* __restrict__ src, std::int64_t pitch,
                                               typename C::Pack (&v)[C::LOADS][C::V]) {
  using Word = typename C::Word;
#pragma unroll
  for (int p = 0; p < C::LOADS; ++p) {
    int g;
    const char* base = block_src<C>(src, pitch, p, g);
#pragma unroll
    for (int m = 0; m < C::V; ++m)
      v[p][m].w = load_word<C::HINT>(reinterpret_cast<const Word*>(base + m * pitch));
  }
}

/// Reads the tile at `src` (its first element; rows `pitch` bytes apart) into shared memory in
/// output order. `full`: the whole tile lies inside the matrix, so no guards and whole words;
/// otherwise only elements with row < rows_left and col < cols_left are read, one by one (edge
/// tiles are few; keeping them out of the unrolled path keeps its register count down).
template <class C>
__device__ __forceinline__ void load_tile(const char* __restrict__ src, std::int64_t pitch,
                                          std::int64_t rows_left, std::int64_t cols_left, bool full,
                                          typename C::Word* __restrict__ smem) {
  using Elem = typename C::Elem;
  if (!full) {
#pragma unroll 1
    for (int idx = threadIdx.x; idx < C::TH * C::TW; idx += C::NT) {
      const int i = idx / C::TW;  // input row in the tile
      const int j = idx % C::TW;  // input column = output row
      Elem e{};
      if (i < rows_left && j < cols_left)
        e = *reinterpret_cast<const Elem*>(src + i * pitch + j * C::S);
      reinterpret_cast<Elem*>(smem + C::slot(j, i / C::V))[i % C::V] = e;
    }
    return;
  }
  typename C::Pack v[C::LOADS][C::V];
  load_tile_regs<C>(src, pitch, v);
  store_blocks_transposed<C>(v, smem);
}

/// Writes the tile held in shared memory (output order) to `dst`, its first output element;
/// output rows are `pitch` bytes apart. Guarded, element by element, when not `full`.
template <class C>
__device__ __forceinline__ void store_tile(char* __restrict__ dst, std::int64_t pitch,
                                           std::int64_t rows_left, std::int64_t cols_left,
                                           bool full, const typename C::Word* __restrict__ smem) {
  using Word = typename C::Word;
  using Elem = typename C::Elem;
  if (!full) {
#pragma unroll 1
    for (int idx = threadIdx.x; idx < C::TW * C::TH; idx += C::NT) {
      const int r = idx / C::TH;  // output row in the tile
      const int c = idx % C::TH;  // output column
      if (r < rows_left && c < cols_left)
        *reinterpret_cast<Elem*>(dst + r * pitch + c * C::S) =
            reinterpret_cast<const Elem*>(smem + C::slot(r, c / C::V))[c % C::V];
    }
    return;
  }
#pragma unroll
  for (int q = 0; q < C::STORES; ++q) {
    const int idx = threadIdx.x + q * C::NT;
    const int r = idx / C::BR;
    const int h = idx % C::BR;
    store_word<C::HINT>(
        reinterpret_cast<Word*>(dst + static_cast<std::int64_t>(r) * pitch + h * C::W),
        smem[C::slot(r, h)]);
  }
}

/// Kernel arguments; sizes in bytes where the name says so, else in elements.
struct TiledParams {
  const char* in;
  char* out;
  std::int64_t rows;
  std::int64_t cols;
  std::int64_t batch;
  std::int64_t in_pitch_bytes;
  std::int64_t out_pitch_bytes;
  std::int64_t in_stride_bytes;
  std::int64_t out_stride_bytes;
  std::uint32_t tiles_x;  ///< tiles across the input columns
  std::uint32_t tiles_y;  ///< tiles down the input rows
  std::uint32_t tiles;    ///< tiles per matrix
  std::uint32_t group;    ///< tile rows per group of the block order (1: plain row-major)
  std::uint32_t stagger;  ///< 0, or tile rows a band: band k's tile columns turn by k turn
  std::uint32_t turn;     ///< tile columns a band turns by (with stagger)
  std::uint32_t spread;   ///< S >= 1: tile rows dealt over S runs (spread_row; SPREAD kernels)
};

/// Tile (ty, tx) of block number t. Blocks run in order, so the tiles in flight at one time are
/// a run of consecutive t. Numbered row-major (group 1), that run spans whole tile rows: the reads
/// are long and contiguous but every output row gets one short piece. With groups of G tile rows
/// numbered column-major, the run covers a squarer patch and both sides get longer pieces; with one
/// group of every tile row (kColumnMajor) it runs down a column of tiles, so the blocks that write
/// neighbouring pieces of the same output rows run one after the other.
/// With a stagger (p.stagger = H tile rows, p.turn = T tile columns), the tile columns of band k
/// (tile rows k H .. k H + H - 1) turn by k T (mod tiles_x), so a run down a column of tiles
/// reads T tile columns further on in each band: with T tiles = 64 KiB of input row its input
/// addresses move through every DRAM stack where the input rows are a multiple of the stacks'
/// interleave apart (pitch_on_one_stack). SPREAD (a kernel's own instantiation, so that the
/// others keep their code as it was): with p.spread = S the tile row so found is the S-run
/// order's (spread_row), before the stagger.
template <bool SPREAD = false>
__device__ __forceinline__ void tile_of(const TiledParams& p, std::uint32_t t, std::uint32_t& ty,
                                        std::uint32_t& tx) {
  if (p.group <= 1) {
    ty = t / p.tiles_x;
    tx = t - ty * p.tiles_x;
  } else {
    const std::uint32_t per_group = p.group * p.tiles_x;
    const std::uint32_t g = t / per_group;
    const std::uint32_t in_group = t - g * per_group;
    const std::uint32_t first = g * p.group;
    const std::uint32_t height = min(p.group, p.tiles_y - first);
    tx = in_group / height;
    ty = first + (in_group - tx * height);
  }
  if constexpr (SPREAD) ty = spread_row(ty, p.tiles_y, p.spread);
  if (p.stagger != 0) {
    const std::uint64_t turned = tx + std::uint64_t(ty / p.stagger) * p.turn;
    tx = static_cast<std::uint32_t>(turned % p.tiles_x);
  }
}

/// The `group` that numbers the tiles column by column: one group of every tile row, so the
/// tiles in flight at one time run down a column of tiles.
constexpr int kColumnMajor = -1;

/// Whether both buffers are aligned to the element (`elem` bytes): what every kernel needs.
inline bool element_aligned(const void* in, const void* out, std::size_t elem) {
  return reinterpret_cast<std::uintptr_t>(in) % elem == 0 &&
         reinterpret_cast<std::uintptr_t>(out) % elem == 0;
}

/// Whether every output row of `s` (resolved) at `out`, elements of `elem` bytes, starts on an
/// `align`-byte boundary: output pointer, pitch and (batched) batch stride multiples of `align`.
inline bool output_rows_aligned(const void* out, const TransposeShape& s, std::int64_t elem,
                                std::int64_t align) {
  return reinterpret_cast<std::uintptr_t>(out) % align == 0 && (s.out_pitch * elem) % align == 0 &&
         (s.batch <= 1 || (s.out_batch_stride * elem) % align == 0);
}

/// The same for the input matrix's rows at `in`.
inline bool input_rows_aligned(const void* in, const TransposeShape& s, std::int64_t elem,
                               std::int64_t align) {
  return reinterpret_cast<std::uintptr_t>(in) % align == 0 && (s.in_pitch * elem) % align == 0 &&
         (s.batch <= 1 || (s.in_batch_stride * elem) % align == 0);
}

/// Kernel arguments for `s` (resolved) at `in` / `out`, elements of `elem` bytes, in a grid of
/// tiles_x x tiles_y tiles per matrix numbered as tile_of says with `group` (or kColumnMajor).
/// Throws DimensionMismatch for 2^32 tiles or more.
inline TiledParams tiled_params(const void* in, void* out, const TransposeShape& s, int elem,
                                std::int64_t tiles_x, std::int64_t tiles_y, int group) {
  const std::int64_t tiles = tiles_x * tiles_y;
  if (tiles >= (std::int64_t{1} << 32))
    throw DimensionMismatch(
        cat("transpose_cuda: ", s.rows, " x ", s.cols, " needs ", tiles, " tiles, more than 2^32"));
  TiledParams p;
  p.in = static_cast<const char*>(in);
  p.out = static_cast<char*>(out);
  p.rows = s.rows;
  p.cols = s.cols;
  p.batch = s.batch;
  p.in_pitch_bytes = s.in_pitch * elem;
  p.out_pitch_bytes = s.out_pitch * elem;
  p.in_stride_bytes = s.in_batch_stride * elem;
  p.out_stride_bytes = s.out_batch_stride * elem;
  p.tiles_x = static_cast<std::uint32_t>(tiles_x);
  p.tiles_y = static_cast<std::uint32_t>(tiles_y);
  p.tiles = static_cast<std::uint32_t>(tiles);
  const std::int64_t g = group == kColumnMajor ? tiles_y : group;
  p.group = g > 1 && g * tiles_x < (std::int64_t{1} << 32) ? static_cast<std::uint32_t>(g) : 1;
  p.stagger = 0;
  p.turn = 0;
  p.spread = 1;
  return p;
}

/// Runs body(in, out, r0, c0) for every tile this block takes: matrices over blockIdx.y, tiles
/// over blockIdx.x (both grid-stride), in the order of tile_of; `in` and `out` point at the
/// matrix, (r0, c0) is the tile's first input element for tiles of th x tw. SPREAD as tile_of's.
template <bool SPREAD = false, class Body>
__device__ __forceinline__ void for_each_tile(const TiledParams& p, int th, int tw, Body&& body) {
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    const char* in = p.in + b * p.in_stride_bytes;
    char* out = p.out + b * p.out_stride_bytes;
    for (std::uint64_t t = blockIdx.x; t < p.tiles; t += gridDim.x) {
      std::uint32_t ty, tx;
      tile_of<SPREAD>(p, static_cast<std::uint32_t>(t), ty, tx);
      body(in, out, static_cast<std::int64_t>(ty) * th, static_cast<std::int64_t>(tx) * tw);
    }
  }
}

/// Launches `kernel`, which takes one th x tw tile (input rows x columns) of elements of `elem`
/// bytes a block (NT threads, `smem` bytes of dynamic shared memory), over `s` (resolved,
/// non-empty) on `stream`, with `extra_rows` more input rows counted in the tile grid (tiles that
/// start that many rows early, as narrow_skew.cuh's), tiles numbered as tile_of says with
/// `group` and `spread` (TiledParams'); `name` names it in a launch error. The launcher of
/// rotated_kernel (rotated.cuh), narrow_kernel (narrow.cuh), narrow_skew_kernel (narrow_skew.cuh)
/// and lines_kernel (lines.cuh).
inline void launch_tiles(void (*kernel)(TiledParams), const char* name, int th, int tw,
                         int extra_rows, std::size_t elem, int nt, std::size_t smem, const void* in,
                         void* out, const TransposeShape& s, cudaStream_t stream, int group,
                         std::uint32_t spread = 1) {
  TiledParams p = tiled_params(in, out, s, static_cast<int>(elem), (s.cols + tw - 1) / tw,
                               (s.rows + extra_rows + th - 1) / th, group);
  p.spread = spread;
  const auto gx = static_cast<unsigned>(std::min<std::int64_t>(p.tiles, 0x7fffffff));
  const auto gy = static_cast<unsigned>(std::min<std::int64_t>(s.batch, 65535));
  cuda_detail::allow_dynamic_smem(kernel, smem);
  kernel<<<dim3(gx, gy), nt, smem, stream>>>(p);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    cuda_detail::throw_cuda_error(err, cat("launch of ", name).c_str(), __FILE__, __LINE__);
}

/// True when pointers, pitches and strides (in elements) allow W-byte words of C.
template <class C>
bool words_aligned(const void* a, const void* b, std::int64_t pitch_a, std::int64_t pitch_b,
                   std::int64_t stride_a, std::int64_t stride_b, std::int64_t batch) {
  const auto ua = reinterpret_cast<std::uintptr_t>(a);
  const auto ub = reinterpret_cast<std::uintptr_t>(b);
  if (ua % C::W != 0 || ub % C::W != 0) return false;
  if (pitch_a % C::V != 0 || pitch_b % C::V != 0) return false;
  if (batch > 1 && (stride_a % C::V != 0 || stride_b % C::V != 0)) return false;
  return true;
}

}  // namespace xpose::kernels::cuda_tile
