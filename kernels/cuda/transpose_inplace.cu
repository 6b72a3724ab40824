// In-place square CUDA transpose: the triangular kernel (inplace.cuh): only the T(T+1)/2 tile
// pairs on or above the diagonal are launched. Per element size, the widest square tile whose
// words the buffer and n allow where rows start on 256-byte boundaries (run 19: elsewhere the
// kernels below beat the word kernels, by up to 25 %), down to one element per access. The
// pairs are numbered row by row where rows start on 32-byte sectors; where they do not (odd n),
// in groups of a few tile
// rows taken column by column (tri::grouped_pair), which measured 3-14 % faster there and slower
// on aligned rows (kernels/NOTES.md, run 7), and each block swaps several consecutive pairs with
// all their loads issued first (inplace_multi_kernel: 2-20 % faster there, run 8; for 4- and
// 8-byte elements inplace_strip_kernel, which also reads and writes the mirror tiles' rows from
// 128-byte line boundaries: 3 % faster again, run 9). For f32 wherever rows are off 256 bytes
// (odd n, and even n such as 16400 or 30000, where the word kernels fell to 0.73-0.80 x
// memcpy), since run 19, inplace_rotated_kernel: 128 x 128 pairs, 32 tile rows a group, both
// tiles' rows read and written from 128-byte line boundaries and exchanged through shared memory
// (5.5 % ahead of the strip kernel at 16411²; it needs sm_80's shared memory, older devices keep
// the word kernels and the strip kernel). For 1- and 2-byte elements, since run 20,
// inplace_narrow_kernel (narrow.cuh): aligned 4-byte words on rows of any alignment (u8 off
// 256-byte rows, u16 everywhere). Since run 33, f64 and c128 (since run 34 f32 too) take one 32
// x 32 pair a block where their kernels for rows off 256 bytes would launch few blocks per SM
// (small n: FewBlocks; since run 35 u8 too, and u16 on any rows), and
// the f32 rotated kernel moves the pairs the matrix edge clips under guards, a row's loads
// together (rotated_swap_edge), instead of element by element. The
// staggered numbering of seed 002 is built and tested too (the "-stag" candidates), but measured
// 2-4 % slower than row-wise on an H100 on every shape (run 5). On high-bandwidth devices (an
// H200; the H100 keeps the kernels above), since run 44: f32's rotated kernel with 512 threads
// from n = 12000, the rotated kernel for c128 off 256-byte rows (64 x 64 pairs), and f64 64 x 64
// word pairs on 256-byte rows.
// (inplace_words_kernel, which keeps 16-byte words for any n, measured slower: kernels/NOTES.md.)
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/cuda/dispatch.h"
#include "kernels/cuda/inplace.cuh"
#include "kernels/cuda/narrow.cuh"
#include "kernels/cuda/realign.cuh"
#include "kernels/cuda/variants.h"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels {

namespace {

using cuda_tile::kFetch256;
using cuda_tile::NarrowEdge;
using cuda_tile::PairOrder;
using cuda_tile::Tile32;
using cuda_tile::TileConfig;
constexpr PairOrder kIlv = PairOrder::Interleaved;  // also the candidates' -iS (below)

// Blocks a launch over one n x n matrix takes: the tile pairs on and above the diagonal of
// `side`-element tiles (tri::pair_count), `per_block` of them a block (launch_inplace_with's
// grid, before batches).
inline std::int64_t pair_blocks(std::int64_t n, int side, int per_block) {
  const std::uint64_t pairs = tri::pair_count(static_cast<std::uint64_t>((n + side - 1) / side));
  return static_cast<std::int64_t>((pairs + per_block - 1) / per_block);
}

// Tile pairs through register-transposed word blocks: n a whole number of words; P consecutive
// pairs a block, their loads all issued before the first use.
template <class C, PairOrder O = PairOrder::RowWise, int G = 1, int P = 1>
struct Tiled {
  using Config = C;
  // Past the default 48 KiB (2 P tiles of C), only on devices that let a block opt in to it.
  static bool accepts(void* buf, std::int64_t n) {
    constexpr std::size_t smem = 2 * P * C::SMEM_BYTES;
    return cuda_tile::inplace_accepts<C>(buf, n) &&
           (smem <= 48 * 1024 || cuda_detail::device_smem_fits(smem));
  }
  static std::int64_t blocks(std::int64_t n) { return pair_blocks(n, C::TH, P); }
  static void launch(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t st) {
    cuda_tile::launch_inplace<C, O, P>(buf, n, batch, st, 0, G);
  }
};
// inplace_strip_kernel: P pairs a block, grouped order, the mirror strip rotated onto ALIGN bytes.
template <class C, int G, int P, int ALIGN = 32, int SHINT = 0>
struct Strip {
  using Config = C;
  static bool accepts(void* buf, std::int64_t n) { return cuda_tile::inplace_accepts<C>(buf, n); }
  static std::int64_t blocks(std::int64_t n) { return pair_blocks(n, C::TH, P); }
  static void launch(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t st) {
    cuda_tile::launch_inplace_strip<C, P, ALIGN, SHINT>(buf, n, batch, st, G);
  }
};
// inplace_rotated_kernel: TS x TS pairs of elements T, both sides' rows rotated onto 128-byte
// lines, NT threads, MINB blocks an SM, grouped order with G tile rows a group (G = 1: row-wise);
// any n, on devices that give a block the kernel's shared memory.
template <class T, int TS, int NT, int MINB, int G, int HINT, bool DIAG = true,
          PairOrder O = PairOrder::Grouped, bool EDGE = false>
struct Rotated {
  static bool accepts(void* buf, std::int64_t) {
    return reinterpret_cast<std::uintptr_t>(buf) % sizeof(T) == 0 &&
           cuda_tile::rotated_fits_device<T, TS>();
  }
  static std::int64_t blocks(std::int64_t n) { return pair_blocks(n, TS, 1); }
  static void launch(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t st) {
    cuda_tile::launch_inplace_rotated<T, TS, NT, MINB, HINT, DIAG, O, EDGE>(buf, n, batch, st, G);
  }
};
// inplace_narrow_kernel (narrow.cuh): TS x TS pairs of 1- or 2-byte elements, every global access
// an aligned 4-byte word, NT threads, MINB blocks an SM, grouped order with G tile rows a group;
// any n.
template <class T, int TS, int NT, int MINB, int G, bool SEQ = false,
          NarrowEdge EDGE = NarrowEdge::kElements>
struct Narrow {
  using Elem = T;
  static constexpr int tile_rows() { return TS; }
  static bool accepts(void* buf, std::int64_t) {
    return reinterpret_cast<std::uintptr_t>(buf) % sizeof(T) == 0 &&
           cuda_tile::narrow_fits_device<T, TS, true>();
  }
  static std::int64_t blocks(std::int64_t n) { return pair_blocks(n, TS, 1); }
  static void launch(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t st) {
    cuda_tile::launch_inplace_narrow<T, TS, NT, MINB, SEQ, EDGE>(buf, n, batch, st, G);
  }
};
// K (a Narrow), only where the pairs at the matrix's edge are at least MIN elements wide and,
// with OFF_LINES, where the rows are not all on 128-byte lines (n elements a multiple of 128
// bytes).
template <class K, int MIN, bool OFF_LINES = false>
struct WideEdge : K {
  static bool accepts(void* buf, std::int64_t n) {
    const bool on_lines = (n * std::int64_t(sizeof(typename K::Elem))) % 128 == 0;
    return n % K::tile_rows() >= MIN && !(OFF_LINES && on_lines) && K::accepts(buf, n);
  }
};
// K, only where every row (and the buffer) starts on a 256-byte boundary. Every element size of
// 4 bytes or more runs its word kernels only there (run 19, x memcpy, word kernel against the
// kernel that takes the other rows: f32 n = 16416 / 20000, rows on 128-byte lines, 0.901 / 0.891
// against the rotated kernel's 0.916 / 0.909, n = 16400, 16392, 16386, 30000, 30002, rows off
// lines, 0.73-0.80 against 0.88-0.92, and n = 16384 / 24000, rows on 256 bytes, 0.958 / 0.950
// against 0.942 / 0.927; f64 n = 16400 / 16392 / 30000 0.908 / 0.746 / 0.890 against the strip
// kernel's 0.919 / 0.915 / 0.911, n = 16384 / 20000 0.961 / 0.944 against 0.946 / 0.931; c128
// n = 16392 / 16386 0.916 / 0.860 against the grouped multi-pair kernel's 0.920 / 0.919, n =
// 16384 0.951 against 0.949).
template <class K>
struct On256 : K {
  static bool accepts(void* buf, std::int64_t n) {
    const auto addr = reinterpret_cast<std::uintptr_t>(buf);
    return (n * K::Config::S) % 256 == 0 && addr % 256 == 0 && K::accepts(buf, n);
  }
};

// K, only where the rows (n elements) are a multiple of 320 KiB apart on a five-stack device
// (cuda_detail::pitch_on_one_stack): there the DRAM stack of an address follows its column offset
// alone, and the row-wise order's blocks in flight, the pairs of one or two tile rows, have all
// their mirror tiles in one tile column, on one stack.
template <class K>
struct OnOneStack : K {
  static bool accepts(void* buf, std::int64_t n) {
    return cuda_detail::pitch_on_one_stack(n * K::Config::S) && K::accepts(buf, n);
  }
};

// Whether K takes the buffer, n and the batch count: K::accepts(buf, n, batch) where K has one
// (FewBlocks, ManyBlocks), else K::accepts(buf, n).
template <class K>
auto accepts_batch(void* buf, std::int64_t n, std::int64_t batch, int)
    -> decltype(K::accepts(buf, n, batch)) {
  return K::accepts(buf, n, batch);
}
template <class K>
bool accepts_batch(void* buf, std::int64_t n, std::int64_t, long) {
  return K::accepts(buf, n);
}

// K where BIG, the kernel the list takes next, would launch fewer than MIN_HUNDREDTHS / 100 blocks
// per SM (small n: runs 33-35), counted over the whole batch, or for one matrix with PER_MATRIX.
// BIG's several pairs a block then leave most of the device idle or wait on one block's tail (f64
// n = 1000: 132 blocks of four 32 x 32 pairs; f32 n = 1000: 36 blocks of 128 x 128 pairs), and
// one pair a block finishes sooner.
template <class K, class BIG, int MIN_HUNDREDTHS, bool PER_MATRIX = false>
struct FewBlocks : K {
  static bool accepts(void* buf, std::int64_t n, std::int64_t batch) {
    if (!K::accepts(buf, n)) return false;  // the layout first: no device query
    return cuda_detail::under_per_sm(double(BIG::blocks(n)) * double(PER_MATRIX ? 1 : batch),
                                     MIN_HUNDREDTHS);
  }
};

// K, only where it launches at least MIN_HUNDREDTHS / 100 blocks per SM over the whole batch.
template <class K, int MIN_HUNDREDTHS>
struct ManyBlocks : K {
  static bool accepts(void* buf, std::int64_t n, std::int64_t batch) {
    if (!K::accepts(buf, n)) return false;
    return !cuda_detail::under_per_sm(double(K::blocks(n)) * double(batch), MIN_HUNDREDTHS);
  }
};

// Tile pairs with realigned 16-byte words (realign.cuh): any n, buffer aligned to the element.
template <class C, PairOrder O>
struct Realigned {
  static bool accepts(void* buf, std::int64_t) {
    return reinterpret_cast<std::uintptr_t>(buf) % C::S == 0;
  }
  static void launch(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t st) {
    cuda_tile::launch_inplace_realign<C, O>(buf, n, batch, st);
  }
};

using cuda_dispatch::KernelList;
using cuda_dispatch::list_size;

// The first kernel that accepts the buffer, n and the batch runs; the last one takes whatever is
// left.
template <class K, class... Rest>
void dispatch(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream) {
  if constexpr (sizeof...(Rest) == 0) {
    K::launch(buf, n, batch, stream);
  } else {
    if (accepts_batch<K>(buf, n, batch, 0))
      K::launch(buf, n, batch, stream);
    else
      dispatch<Rest...>(buf, n, batch, stream);
  }
}
template <class... K>
void dispatch(KernelList<K...>, void* buf, std::int64_t n, std::int64_t batch,
              cudaStream_t stream) {
  dispatch<K...>(buf, n, batch, stream);
}

// The position in the list of the kernel that dispatch runs.
template <class K, class... Rest>
int choose(void* buf, std::int64_t n, std::int64_t batch, int i = 0) {
  if constexpr (sizeof...(Rest) == 0) {
    return i;
  } else {
    return accepts_batch<K>(buf, n, batch, 0) ? i : choose<Rest...>(buf, n, batch, i + 1);
  }
}
template <class... K>
int choose(KernelList<K...>, void* buf, std::int64_t n, std::int64_t batch) {
  return choose<K...>(buf, n, batch);
}

// The library's kernels where rows are off sectors; each is also a named candidate below.
// kFetch256 (run 11, NOTES.md): at 16411² x memcpy f32 0.83 -> 0.859, f64 0.882 -> 0.904 (on
// the strip's loads too), c128 0.903 -> 0.914; on rows on sectors the loads lose up to 0.3 %
// with it, so only these take it.
// f32 where rows are off 256 bytes (odd n among them), one element an access: 128 x 128 pairs,
// both sides' rows rotated onto 128-byte lines, 1024 threads, grouped order with 32 tile rows a
// group (run 19, x memcpy: 0.906 at
// 16411², 0.891 at 24577², 0.898 at 32749², against the strip kernel's 0.859 / 0.842 / 0.847
// and the row-wise order's 0.892 / 0.867 / 0.848; 16-48 rows a group are within 0.5 % of 32);
// its 129 KiB of shared memory a block need sm_80 or newer, so older devices (V100, K80) take
// the strip kernel: 32 x 32 tiles,
// 4 pairs a block of 512 threads, the mirror strip on 128-byte lines, grouped order, 8 tile rows
// a group (run 9). Since run 33 its pairs clipped by the matrix edge take rotated_swap_edge
// (guarded, a row's loads issued together, no division) instead of the element loop: in place
// GB/s, old / new (NOTES.md, call 10, two rounds within 5 %): n = 700 291 / 446, 1000 421 / 916,
// 1200 990 / 1328, 1500 1029 / 1940, 2000 1576 / 2331, 2500 2151 / 2763, 2900 2114 / 2713, 3001
// 2258 / 2612, 4001 2257 / 2361, 6007 2256 / 2473, 1700 2154 / 2166 (edge 36), 10007 2630 /
// 2639, 16411 2727 / 2734, 16500 2657 / 2707, 24577 2693 / 2688, 32749 2721 / 2739; four
// matrices of 1000 / 1500 1357 / 2198, 1888 / 2545. Under one wave of blocks the widest edge
// pair had been the launch's slowest block.
using F32Rotated =
    Rotated<std::uint32_t, 128, 1024, 1, 32, kFetch256, true, PairOrder::Grouped, true>;
// K, only from n = MIN_N up.
template <class K, std::int64_t MIN_N>
struct FromN : K {
  static bool accepts(void* buf, std::int64_t n) { return n >= MIN_N && K::accepts(buf, n); }
};
// f32 where the words fit: 64 x 64 pairs of 16-byte words, 32 x 32 of 8-byte words.
using F32Words16 = Tiled<TileConfig<4, 16, 16, 16, 256>>;
using F32Words8 = Tiled<TileConfig<4, 8, 32, 32, 256>>;
using F32Strip = Strip<TileConfig<4, 4, 32, 32, 512, 2, kFetch256>, 8, 4, 128, kFetch256>;
// 1- and 2-byte elements: the same kernel, no fetch hint (run 19, x memcpy: u8 16411² 0.441
// against single bytes' 0.266, but 0.45 against the 4- and 16-byte-word kernels' 0.53-0.54 at
// n = 16392, 16400, 16416, so only where n is not a multiple of 4; u16 0.67-0.68 against
// 0.63-0.64 at n = 16392, 16400, 16416 and 0.670 against 0.422 at 16411², and 0.739 against 0.900
// at 16384²: everywhere but on 256-byte rows).
using U8Rotated = Rotated<std::uint8_t, 128, 1024, 1, 32, 0>;
using U16Rotated = Rotated<std::uint16_t, 128, 1024, 1, 32, 0>;
// Since run 20 (NOTES.md, call 2, x memcpy at n = 16400 / 16416 / 16392 / 16386 / 16411), off
// 256-byte rows the narrow kernel (narrow.cuh: aligned 4-byte words on rows of any alignment):
// u8 128 x 128 pairs, 512 threads, 2 blocks an SM, 32 tile rows a group: 0.733 / 0.718 / 0.733 /
// 0.663 / 0.619 against 0.540 / 0.535 / 0.528 / 0.446 / 0.442; u16 128 x 128 pairs, 1024 threads,
// 8 tile rows a group: 0.791 / 0.784 / 0.785 / 0.779 / 0.711 against 0.678 / 0.674 / 0.680 /
// 0.678 / 0.670 (its 65 KiB of shared memory a block: K80-class devices keep the kernels above).
// On 256-byte rows the word kernels stay (n = 16384: u8 0.899 against 0.749, u16 0.900 against
// 0.840).
using U8Narrow = Narrow<std::uint8_t, 128, 512, 2, 32>;
using U16Narrow = Narrow<std::uint16_t, 128, 1024, 1, 8>;
// Run 20, call 7: the same with one tile's rows in registers at a time (SEQ), which lets u8 take
// 256 x 256 pairs (1024 threads, 16 tile rows a group) and u16 2 blocks of 512 threads an SM;
// x memcpy at n = 16384 / 16400 / 16416 / 16392 / 16386 / 16411, two runs: u8 0.774 / 0.768-0.769
// / 0.759 / 0.757-0.759 / 0.722 / 0.692-0.693 against the kernels above' 0.897 / 0.731-0.733 /
// 0.718-0.719 / 0.732-0.733 / 0.662 / 0.616-0.620 (so off 256-byte rows only); u16 0.935-0.937
// / 0.856-0.858 / 0.852-0.854 / 0.841-0.842 / 0.826-0.827 / 0.788-0.789 against 0.898-0.899 /
// 0.789 / 0.784 / 0.783 / 0.777 / 0.709 (everywhere, 256-byte rows too). Shared memory a block:
// u8 130 KiB (sm_80 and newer), u16 65 KiB (sm_70 and newer); older devices take the kernels
// above.
template <NarrowEdge EDGE>
using U8NarrowSeqEdge = Narrow<std::uint8_t, 256, 1024, 1, 16, true, EDGE>;
template <NarrowEdge EDGE>
using U16NarrowSeqEdge = Narrow<std::uint16_t, 128, 512, 2, 8, true, EDGE>;
using U8NarrowSeq = U8NarrowSeqEdge<NarrowEdge::kElements>;
using U16NarrowSeq = U16NarrowSeqEdge<NarrowEdge::kElements>;
// Run 24 (NOTES.md, calls 1-2, x memcpy, element edges / guarded edges): the same kernels with
// the pairs at the matrix's edge through guarded words (narrow_swap_edge) where the edge is wide.
// The inlined edge path costs the whole pairs 2-6 % (u16 16384² 0.939 / 0.882, u8 16400² 0.769 /
// 0.751) and saves in proportion to the edge's width: u8 edge (n mod 256) 16 / 27 / 32 0.769 /
// 0.751, 0.691 / 0.679, 0.742 / 0.744, from 48 on ahead at every width measured (48 / 64 / 96 /
// 128 / 160 / 192 / 200 / 224: 0.725 / 0.752, 0.706 / 0.754, 0.690 / 0.755, 0.640 / 0.751, 0.631 /
// 0.747, 0.657 / 0.748, 0.609 / 0.741, 0.596 / 0.746); u16 edge (n mod 128) 16 / 64 behind (0.860
// / 0.846, 0.864 / 0.825: n = 16448 has rows on 128-byte lines, where the whole pairs run
// fastest), 27 / 40 / 48 ahead by 2 %, from 72 on ahead at every width measured (72 / 96 / 120:
// 0.798 / 0.832, 0.816 / 0.838, 0.776 / 0.835). Run 25 (call 3, held-out n, default / guarded):
// u16 edge 20 / 24 +0.6 %, 28 +1.2 %, 32 -1.8 % (n = 16416) and +0.3 % (24608), 36 / 40 / 44 /
// 56 +2.1-3.3 %, 64 -4.5 to -5.3 % (n = 16448, 24640: rows on 128-byte lines); so u16 takes the
// guarded edge from 36 on, except where every row is on a 128-byte line.
using U8NarrowSeqWide = WideEdge<U8NarrowSeqEdge<NarrowEdge::kWords>, 48>;
using U16NarrowSeqWide = WideEdge<U16NarrowSeqEdge<NarrowEdge::kWords>, 36, true>;
// f64 where rows are off 256 bytes (odd n among them): the strip kernel with 64 tile rows a group
// (run 10).
using F64OddN = Strip<TileConfig<8, 8, 32, 32, 512, 2, kFetch256>, 64, 4, 128, kFetch256>;
// c128 where rows are off 256 bytes: 2 pairs a block, grouped order, 32 tile rows at a time (run
// 8; the grouped order's consecutive blocks write side-by-side mirror tiles, so the pieces of
// each straddled sector are written close together: run 7, c128 at 16411² 0.877 against 0.853
// x memcpy row-wise).
using C128OffSector =
    Tiled<TileConfig<16, 16, 32, 32, 256, 1, kFetch256>, PairOrder::Grouped, 32, 2>;
// K's layouts as one dispatch entry; on high-bandwidth devices (an H200) HI runs those of them it
// takes.
template <class HI, class K>
struct InPlaceOnHighBandwidth : K {
  static void launch(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t st) {
    if (cuda_detail::high_bandwidth_device() && accepts_batch<HI>(buf, n, batch, 0))
      HI::launch(buf, n, batch, st);
    else
      K::launch(buf, n, batch, st);
  }
};
// Run 43 (NOTES.md calls 6-8): on high-bandwidth devices one 32 x 32 pair a block in groups of 4
// tile rows there (the bench's tile-32-g4). In place GB/s on H200s, C128OffSector / this: 16411²
// 3294-3306 / 3571-3585, 16387² 3299 / 3565-3568, 12001² 3284-3286 / 3547-3548, 20001² 3296-3299 /
// 3510-3512, 8191² 3232-3244 / 3521-3523.
// Since run 44 (NOTES.md calls 6-7), there the rotated kernel instead (f32's off 256-byte rows:
// both tiles' rows read and written from 128-byte line boundaries) with 64 x 64 pairs, 512
// threads, one block an SM (130 KiB), groups of 32 tile rows (the bench's
// rot64-t512-g32-b1-p256-fe). Call 6, in place GB/s on an H200, two rounds, tile-32-g4 / this:
// 16411² 3562-3566 / 3762, 16387² 3531-3532 / 3732-3733, 12001² 3537-3539 / 3681-3682, 20001²
// 3499-3502 / 3647-3649, 8191² 3482 / 3647-3648.
using C128Rot64 = Rotated<uint4, 64, 512, 1, 32, kFetch256, true, PairOrder::Grouped, true>;
using C128OffSectorAny = InPlaceOnHighBandwidth<C128Rot64, C128OffSector>;
// f32 where F32Rotated runs (rows off 256 bytes), since run 44 on high-bandwidth devices from n =
// 12000 up: its 128 x 128 pairs with 512 threads instead of 1024 (the bench's
// rot128-t512-g32-b1-p256-fe). Run 43 calls 5 and 7 on H200s, in place GB/s, F32Rotated / this:
// 16411² 3365 / 3462-3473, 16387² 3370-3381 / 3465-3489, 12001² 3316-3333 / 3366-3374, 20001²
// 3352-3358 / 3449-3450, 24001² 3344-3354 / 3467-3472, 30001² 3340-3345 / 3485-3486, but 8191²
// 3235 / 3217-3221; held out (run 44 call 1): 12289² 3369-3372 / 3449-3451, 14003² 3334-3346 /
// 3425-3434, 22003² 3346-3350 / 3432-3434, 36001² 3361-3372 / 3502-3505, 16400² 3456-3476 / 3588,
// 20002² 3366 / 3417-3418, 30000² 3462-3470 / 3597-3599 (+2.9 % over ten shapes).
using F32Rot512 =
    Rotated<std::uint32_t, 128, 512, 1, 32, kFetch256, true, PairOrder::Grouped, true>;
using F32RotatedAny = InPlaceOnHighBandwidth<FromN<F32Rot512, 12000>, F32Rotated>;

// The dispatch, per element size. u8: the word kernel on 256-byte rows, the narrow kernel
// elsewhere (run 20); u16: the narrow kernel, on 256-byte rows too (run 20); f32: the word kernels
// on 256-byte rows, elsewhere the rotated kernel, and where the device cannot give it its shared
// memory the word kernels where the words fit, else the strip kernel.
// Small n: one 32 x 32 pair a block ran 2-2.5 x faster than the narrow kernels at n = 700-1200,
// but a rule by blocks per SM (half a block for u8, one for u16) lost 6 % at u8 n = 2500 and
// 12-15 % at u16 n = 1900 on held-out n (run 33, NOTES.md calls 12-13), and the tighter
// thresholds fitted to those calls (u8 0.4, u16 0.6 blocks an SM) failed on fresh n too (run 34,
// call 3: u8 n = 2100 +1.2 %, two of 1300 -1.6 %; u16 n = 1300 -12 %, 1536 -11 %, two of 900
// -16 %). Run 35's thresholds sit under every loss measured:
// - u8 takes the 32 x 32 pairs under 0.25 narrow blocks (256 x 256 pairs) an SM over the batch
//   (one matrix on 132 SMs: T <= 7, n <= 1792). In place GB/s, pairs / narrow kernel, fresh n:
//   under 0.2 (call 1) 1.5-3 x (1290 342 / 227, 1530 401 / 215, four of 500 231 / 103); at
//   0.2-0.25 (call 2) 1.15-1.9 x (1560 410 / 357, 1790 464 / 300, nine of 450 340 / 177). The
//   losses of runs 33-34 began at 0.27 (1800: -2.6 % in one round).
// - u16 takes them under 0.3 narrow blocks (128 x 128 pairs) an SM over the batch (T <= 8, n <=
//   1024 for one matrix): runs 33-34 had them 12-110 % ahead at every such n (700-1024) and every
//   loss (-11 to -16 %: 1300, 1536, 1537, 1700, 1900, two of 900) at 0.5 blocks an SM or more.
//   Held out (call 3, pairs / narrow kernel): 520 170 / 133, 790 341 / 277, 950 455 / 337, 1020
//   504 / 324, two of 640 477 / 399, four of 300 210 / 131 (+20 to +75 %).
using U8Small = FewBlocks<Tiled<Tile32<1>>, U8NarrowSeq, 25>;
using U8Kernels = KernelList<On256<Tiled<TileConfig<1, 16, 8, 8, 64>>>, U8Small, U8NarrowSeqWide,
                             U8NarrowSeq, U8Narrow>;
using U16Small = FewBlocks<Tiled<Tile32<2>>, U16NarrowSeq, 30>;
using U16Kernels =
    KernelList<U16Small, U16NarrowSeqWide, U16NarrowSeq, On256<Tiled<TileConfig<2, 16, 8, 8, 64>>>,
               U16Narrow, U16Rotated, Tiled<TileConfig<2, 16, 8, 8, 64>>,
               Tiled<TileConfig<2, 4, 32, 32, 256>>, Tiled<Tile32<2>>>;
// On one-stack pitches (OnOneStack) the word kernels' tiles in the interleaved order with 16 runs
// (run 31, x memcpy, row-wise / 5 / 8 / 16 runs / staggered, two rounds alike: c128 n = 20480
// 0.824 / 0.922 / 0.925 / 0.928 / 0.882, f64 n = 40960 0.824 / 0.914 / 0.916 / 0.919 / 0.878; off
// such pitches the row-wise order stays, 1.0-1.6 % ahead of 16 runs at c128 n = 20000 / 16384
// and f64 n = 40000). Call 2: f32 n = 81920 0.824 / 0.919 (row-wise / 16 runs), held out c128
// n = 40960 (rows 640 KiB apart) 0.822 / 0.913.
template <class C>
using InterleavedOnOneStack = OnOneStack<On256<Tiled<C, kIlv, 16>>>;

// Small n off 256-byte rows (run 33, NOTES.md calls 4-7): where the kernel above would launch
// few blocks per SM, one pair a block of 32 x 32 tiles, row-wise (FewBlocks). In place GB/s on
// an H100 (132 SMs), one matrix, n = 700 / 1000 / 1500 / 2500 / 3001 / 4001 (call 5, round 1 of
// two; round 2 within 6 %, the same leader at every n):
// - f64, the strip kernel (4 pairs a block) / 32 x 32 pairs of 8-byte words: 519 / 1082, 1140 /
//   1883, 1635 / 2629, 2051 / 2157, 2102 / 2164, 2409 / 2241: ahead up to 8.5 strip blocks an
//   SM (n = 3001), behind from 15 (4001). Held out (call 6): 800 / 1200 / 1800 / 2200 / 2800
//   +6-84 %, 3300 and 3600 unchanged. Batches count (call 7): two matrices of 2500 or 3001 and
//   four of 2200 run 2-5 % faster on the strip kernel, which they get; four of 1500 and sixteen
//   of 700 get the 32 x 32 pairs (+7 %, +13 %); sixteen of 1200 get the strip kernel, 9 % behind.
// - c128, the grouped kernel (2 pairs a block) / 32 x 32 pairs: 1361 / 1863, 2162 / 2774, 2126 /
//   2896, 2367 / 2441, 2428 / 2454, 2528 / 2423: ahead by 3 % or more up to 12 grouped blocks an
//   SM (n = 2500), by 1 % at 17 (3001), behind at 4001. Held out: 800 / 1200 / 1800 / 2200
//   +12-30 %, 3300 unchanged. Batches do not count (PER_MATRIX): 32 x 32 pairs ahead by 0.3-12 %
//   in the nine batches of 2-16 matrices measured where the whole batch has enough blocks (calls
//   6-7).
// f32: at small n the 128-tile rotated kernel's speed followed its edge pairs' width (n mod
// 128), not its block count (call 6: 1700 and 1800, edges 36 and 8, ran 7-13 % faster on it
// than on the smaller tiles, while 1500 and 2000, edges 92 and 80, ran 30-50 % slower). With its
// edge pairs through rotated_swap_edge (call 10) it is within 10 % of the best smaller kernel
// from n = 1200 up and the best from 2900. Under 0.3 of its blocks an SM (n <= 1024 for one
// matrix) the 32 x 32 pairs, since run 34 (call 3, three rounds, rotated / 32 x 32, GB/s round
// 1): n = 500 202 / 285, 650 353 / 463, 777 490 / 621, 900 662 / 804, 1000 831 / 977, 1023 787 /
// 904, every round 15 % or more ahead; past the threshold 1025 847 / 964, 1100 1019 / 1047 (one
// round 2.6 % behind), 1150 +5-6 %, 1300 1390 / 1296. Held out (call 4): n = 300 / 555 / 700 /
// 1010 83 / 114, 274 / 370, 416 / 540, 790 / 916; two of 400 283 / 368, three of 300 249 / 321.
using F32Rot64 = Rotated<std::uint32_t, 64, 512, 2, 4, kFetch256>;
using F32Small = FewBlocks<Tiled<Tile32<4>>, F32Rotated, 30>;
using F64Small = FewBlocks<Tiled<Tile32<8>>, F64OddN, 900>;
using C128Small = FewBlocks<Tiled<Tile32<16>>, C128OffSector, 1300, true>;

using F32Kernels =
    KernelList<InterleavedOnOneStack<F32Words16::Config>, On256<F32Words16>, On256<F32Words8>,
               F32Small, F32RotatedAny, F32Words16, F32Words8, F32Strip>;
// f64 on 256-byte rows: 32 x 32 pairs of 16-byte words (2 x 2 elements), 256 threads; since run
// 44 on high-bandwidth devices 64 x 64 pairs, 4 of the 2 x 2 blocks a thread, 3 blocks an SM (the
// bench's tile-64w16-row-b3: the f32 word kernel's bytes a thread and more). Run 44 call 1 on an
// H200, in place GB/s, two rounds, 32 x 32 / 64 x 64: 8192² 3780-3784 / 3967-3970, 16384² 3812 /
// 3922-3924, 20480² 3834 / 4013-4014, 24576² 3811-3812 / 3992, 32768² 3808-3809 / 3938-3939.
using F64Words32 = On256<Tiled<TileConfig<8, 16, 16, 16, 256>>>;
// (F64Words64 runs only inside F64Words, whose accepts is F64Words32's: rows on 256 bytes.)
using F64Words64 = Tiled<TileConfig<8, 16, 32, 32, 256, 3>>;
// Held out (call 2), 32 x 32 / 64 x 64: 3072² 3432-3449 / 3523-3536, 4096² 3611-3640 /
// 3762-3765, 6144² 3750-3763 / 3922-3926, 10240² 3821 / 3943-3948, 12288² 3855-3857 / 4024-4029,
// 14336² 3871 / 4022-4023, 18432² 3880-3882 / 4032-4034, 28672² 3892 / 4033, 40000² 3867-3868 /
// 4003, four of 2048² 3658-3660 / 3810-3822, but one 2048² (4.0 of its blocks an SM) 4356-4429 /
// 4161-4276; so only from 6 of its blocks an SM over the batch (3072²: 8.9).
using F64Words = InPlaceOnHighBandwidth<ManyBlocks<F64Words64, 600>, F64Words32>;
using F64Kernels =
    KernelList<InterleavedOnOneStack<TileConfig<8, 16, 16, 16, 256>>, F64Words, F64Small, F64OddN>;
using C128Kernels = KernelList<InterleavedOnOneStack<Tile32<16>>, On256<Tiled<Tile32<16>>>,
                               C128Small, C128OffSectorAny>;

template <class F>
decltype(auto) with_kernels(std::size_t elem_size, const char* who, F&& f) {
  return cuda_dispatch::with_element_size<U8Kernels, U16Kernels, F32Kernels, F64Kernels,
                                          C128Kernels>(elem_size, who, std::forward<F>(f));
}

}  // namespace

void transpose_inplace_cuda(void* buf, std::size_t elem_size, std::int64_t n, std::int64_t batch,
                            DeviceStream stream) {
  if (n < 0 || batch < 0)
    throw DimensionMismatch(
        cat("transpose_inplace_cuda: negative extent (n=", n, ", batch=", batch, ")"));
  if (n <= 1 || batch == 0) return;  // a 1 x 1 matrix is its own transpose
  if (buf == nullptr) throw DimensionMismatch("transpose_inplace_cuda: null buffer");
  const bool supported =
      elem_size == 1 || elem_size == 2 || elem_size == 4 || elem_size == 8 || elem_size == 16;
  if (supported && reinterpret_cast<std::uintptr_t>(buf) % elem_size != 0)
    throw DimensionMismatch(cat("transpose_inplace_cuda: buffer ", buf,
                                " is not aligned to the element size (", elem_size, " bytes)"));
  auto* st = static_cast<cudaStream_t>(stream);
  with_kernels(elem_size, "transpose_inplace_cuda",
               [&](auto list) { dispatch(list, buf, n, batch, st); });
}

// ---- candidates, by name (variants.h) ----------------------------------------------------------

namespace variants {

namespace {

using Runner = bool (*)(void*, std::int64_t, std::int64_t, cudaStream_t);

template <class K>
bool run_kernel(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t st) {
  if (!K::accepts(buf, n)) return false;
  K::launch(buf, n, batch, st);
  return true;
}

struct Entry {
  std::size_t elem;
  const char* name;
  Runner run;
};

constexpr PairOrder kStag = PairOrder::Staggered;
constexpr PairOrder kRow = PairOrder::RowWise;
constexpr PairOrder kGrp = PairOrder::Grouped;

// Names: kernel-TILE[wWORD][-tTHREADS]-order[-bMINB]; TILE the square tile's side in elements;
// stag: the staggered triangular order, row: row-wise triangular, gG: grouped, G tile rows at a
// time, iS: the row-wise order in S interleaved runs (the library's orders: row-wise on
// sector-aligned rows, 16 interleaved runs on one-stack pitches, grouped otherwise). tile:
// inplace_kernel (words need n a multiple of the word); multiP: inplace_multi_kernel, P pairs a
// block; stripP: inplace_strip_kernel, P pairs a block, mirror strip on sectors (-l128: on 128-byte
// lines); realign: inplace_realign_kernel (any n); -pBYTES: loads with an L2 prefetch size
// (-pBYTESs: the strip's loads too).
const Entry kEntries[] = {
    {1, "tile-128w16-stag", run_kernel<Tiled<TileConfig<1, 16, 8, 8, 64>, kStag>>},
    {1, "tile-128w16-row", run_kernel<Tiled<TileConfig<1, 16, 8, 8, 64>, kRow>>},
    {1, "tile-32w4-row", run_kernel<Tiled<TileConfig<1, 4, 32, 32, 256>, kRow>>},
    {1, "tile-32w1-row", run_kernel<Tiled<Tile32<1>, kRow>>},
    {1, "rot128-t1024-g32", run_kernel<U8Rotated>},
    // narrowP: inplace_narrow_kernel, P x P pairs, 4-byte words on any rows
    {1, "narrow128-t1024-g32", run_kernel<Narrow<std::uint8_t, 128, 1024, 1, 32>>},
    {1, "narrow128-t1024-g8", run_kernel<Narrow<std::uint8_t, 128, 1024, 1, 8>>},
    {1, "narrow128-t512-b2-g32", run_kernel<U8Narrow>},
    // -seq: one tile's rows in registers at a time (tile (I, J) stored before (J, I) is read)
    {1, "narrow256-t1024-g16-seq", run_kernel<U8NarrowSeq>},
    {1, "narrow128-t512-b2-g32-seq", run_kernel<Narrow<std::uint8_t, 128, 512, 2, 32, true>>},
    // -wedge: pairs at the matrix's edge through guarded words (narrow_swap_edge) instead of
    // element by element (run 23). Pruned after run 24 call 1: -calledge (the same as a
    // __noinline__ call), 12-20 % behind -wedge on every n (commit 7326483 has it).
    {1, "narrow256-t1024-g16-seq-wedge", run_kernel<U8NarrowSeqEdge<NarrowEdge::kWords>>},
    {2, "tile-64w16-stag", run_kernel<Tiled<TileConfig<2, 16, 8, 8, 64>, kStag>>},
    {2, "tile-64w16-row", run_kernel<Tiled<TileConfig<2, 16, 8, 8, 64>, kRow>>},
    {2, "tile-32w4-row", run_kernel<Tiled<TileConfig<2, 4, 32, 32, 256>, kRow>>},
    {2, "tile-32w2-row", run_kernel<Tiled<Tile32<2>, kRow>>},
    {2, "rot128-t1024-g32", run_kernel<U16Rotated>},
    {2, "narrow64-t512-b2-g32", run_kernel<Narrow<std::uint16_t, 64, 512, 2, 32>>},
    {2, "narrow128-t1024-g32", run_kernel<Narrow<std::uint16_t, 128, 1024, 1, 32>>},
    {2, "narrow128-t1024-g8", run_kernel<U16Narrow>},
    {2, "narrow128-t512-b2-g8-seq", run_kernel<U16NarrowSeq>},
    {2, "narrow128-t512-b2-g8-seq-wedge", run_kernel<U16NarrowSeqEdge<NarrowEdge::kWords>>},
    // f32
    {4, "tile-64w16-stag", run_kernel<Tiled<TileConfig<4, 16, 16, 16, 256>, kStag>>},
    {4, "tile-64w16-row", run_kernel<Tiled<TileConfig<4, 16, 16, 16, 256>, kRow>>},
    {4, "tile-64w16-i5", run_kernel<Tiled<TileConfig<4, 16, 16, 16, 256>, kIlv, 5>>},
    {4, "tile-64w16-i8", run_kernel<Tiled<TileConfig<4, 16, 16, 16, 256>, kIlv, 8>>},
    {4, "tile-64w16-i16", run_kernel<Tiled<TileConfig<4, 16, 16, 16, 256>, kIlv, 16>>},
    {4, "tile-64w4-stag", run_kernel<Tiled<TileConfig<4, 4, 64, 64, 256>, kStag>>},
    {4, "tile-64w4-row", run_kernel<Tiled<TileConfig<4, 4, 64, 64, 256>, kRow>>},
    {4, "tile-32w4-row", run_kernel<Tiled<Tile32<4>, kRow>>},
    {4, "tile-64w4-t512-row", run_kernel<Tiled<TileConfig<4, 4, 64, 64, 512, 2>, kRow>>},
    {4, "tile-64w4-t512-g2", run_kernel<Tiled<TileConfig<4, 4, 64, 64, 512, 2>, kGrp, 2>>},
    {4, "tile-64w4-t512-g4", run_kernel<Tiled<TileConfig<4, 4, 64, 64, 512, 2>, kGrp, 4>>},
    {4, "multi2-64w4-t512-g2", run_kernel<Tiled<TileConfig<4, 4, 64, 64, 512>, kGrp, 2, 2>>},
    {4, "tile-32w4-g4", run_kernel<Tiled<Tile32<4>, kGrp, 4>>},
    {4, "tile-32w4-t128-g4", run_kernel<Tiled<TileConfig<4, 4, 32, 32, 128>, kGrp, 4>>},
    {4, "multi2-32w4-g4-b3", run_kernel<Tiled<TileConfig<4, 4, 32, 32, 256, 3>, kGrp, 4, 2>>},
    {4, "multi4-32w4-g4", run_kernel<Tiled<Tile32<4>, kGrp, 4, 4>>},
    {4, "multi4-32w4-g4-b2", run_kernel<Tiled<TileConfig<4, 4, 32, 32, 256, 2>, kGrp, 4, 4>>},
    {4, "multi4-32w4-g8-b2", run_kernel<Tiled<TileConfig<4, 4, 32, 32, 256, 2>, kGrp, 8, 4>>},
    {4, "multi4-32w4-g16-b2", run_kernel<Tiled<TileConfig<4, 4, 32, 32, 256, 2>, kGrp, 16, 4>>},
    {4, "multi4-32w4-g32-b2", run_kernel<Tiled<TileConfig<4, 4, 32, 32, 256, 2>, kGrp, 32, 4>>},
    {4, "strip4-32w4-g32-b2", run_kernel<Strip<TileConfig<4, 4, 32, 32, 256, 2>, 32, 4>>},
    {4, "strip4-32w4-t512-g8-b2", run_kernel<Strip<TileConfig<4, 4, 32, 32, 512, 2>, 8, 4>>},
    {4, "strip4-32w4-t512-g4-b2-l128",
     run_kernel<Strip<TileConfig<4, 4, 32, 32, 512, 2>, 4, 4, 128>>},
    {4, "strip4-32w4-t512-g8-b2-l128",
     run_kernel<Strip<TileConfig<4, 4, 32, 32, 512, 2>, 8, 4, 128>>},
    {4, "strip4-32w4-t512-g8-b2-l128-p256s", run_kernel<F32Strip>},
    {4, "strip4-32w4-t512-g8-b2-l128-p256",
     run_kernel<Strip<TileConfig<4, 4, 32, 32, 512, 2, kFetch256>, 8, 4, 128>>},
    {4, "strip8-32w4-t512-g32-b2", run_kernel<Strip<TileConfig<4, 4, 32, 32, 512, 2>, 32, 8>>},
    // rotP: inplace_rotated_kernel, P x P pairs, one element an access, both sides rotated onto
    // 128-byte lines (run 19)
    {4, "rot64-t512-g4-b2-p256", run_kernel<F32Rot64>},
    {4, "rot128-t1024-g1-p256", run_kernel<Rotated<std::uint32_t, 128, 1024, 1, 1, kFetch256>>},
    {4, "rot128-t1024-g16-p256", run_kernel<Rotated<std::uint32_t, 128, 1024, 1, 16, kFetch256>>},
    {4, "rot128-t1024-g32-p256", run_kernel<Rotated<std::uint32_t, 128, 1024, 1, 32, kFetch256>>},
    {4, "rot128-t1024-g64-p256", run_kernel<Rotated<std::uint32_t, 128, 1024, 1, 64, kFetch256>>},
    // -fe: pairs clipped by the matrix edge through rotated_swap_edge (guarded, a row's loads
    // issued together) instead of element by element (run 33)
    {4, "rot128-t1024-g32-p256-fe", run_kernel<F32Rotated>},  // the library's since run 33
    // run 43's survey (H200, call 5): 128 x 128 pairs with 512 threads, +1.4 to +3.7 % over the
    // library's at odd n (short of a rule); 96 x 96 pairs with 384 / 768 threads (2 blocks an SM)
    // and 64 x 64 with 256 (4 blocks) ran 4-27 % behind and were pruned (commit 134da9e has them)
    {4, "rot128-t512-g32-b1-p256-fe", run_kernel<F32Rot512>},  // the library's from n = 12000
    {4, "rot64-t512-g4-b2-p256-fe",
     run_kernel<Rotated<std::uint32_t, 64, 512, 2, 4, kFetch256, true, kGrp, true>>},
    // -dg: diagonal pairs element by element (as the bench's swap)
    {4, "rot64-t512-g4-b2-p256-dg",
     run_kernel<Rotated<std::uint32_t, 64, 512, 2, 4, kFetch256, false>>},
    {4, "multi2-32w4-g16-b3", run_kernel<Tiled<TileConfig<4, 4, 32, 32, 256, 3>, kGrp, 16, 2>>},
    {4, "realign-64-stag", run_kernel<Realigned<TileConfig<4, 16, 16, 16, 256>, kStag>>},
    {4, "realign-64-row", run_kernel<Realigned<TileConfig<4, 16, 16, 16, 256>, kRow>>},
    {4, "realign-64-row-b3", run_kernel<Realigned<TileConfig<4, 16, 16, 16, 256, 3>, kRow>>},
    {4, "realign-32-row", run_kernel<Realigned<TileConfig<4, 16, 8, 8, 64>, kRow>>},
    // f64
    {8, "tile-32w16-stag", run_kernel<Tiled<TileConfig<8, 16, 16, 16, 256>, kStag>>},
    {8, "tile-32w16-row", run_kernel<Tiled<TileConfig<8, 16, 16, 16, 256>, kRow>>},
    // run 31: the default's tiles in the interleaved order, for one-stack pitches
    {8, "tile-32w16-i5", run_kernel<Tiled<TileConfig<8, 16, 16, 16, 256>, kIlv, 5>>},
    {8, "tile-32w16-i8", run_kernel<Tiled<TileConfig<8, 16, 16, 16, 256>, kIlv, 8>>},
    {8, "tile-32w16-i16", run_kernel<Tiled<TileConfig<8, 16, 16, 16, 256>, kIlv, 16>>},
    {8, "tile-32w8-stag", run_kernel<Tiled<Tile32<8>, kStag>>},
    {8, "tile-32w8-row", run_kernel<Tiled<Tile32<8>, kRow>>},
    {8, "tile-64w8-t512-row", run_kernel<Tiled<TileConfig<8, 8, 64, 64, 512, 2>, kRow>>},
    {8, "tile-64w8-t512-g2", run_kernel<Tiled<TileConfig<8, 8, 64, 64, 512, 2>, kGrp, 2>>},
    {8, "tile-64w8-t512-g4", run_kernel<Tiled<TileConfig<8, 8, 64, 64, 512, 2>, kGrp, 4>>},
    {8, "tile-32w8-g3", run_kernel<Tiled<Tile32<8>, kGrp, 3>>},
    {8, "tile-32w8-g4", run_kernel<Tiled<Tile32<8>, kGrp, 4>>},
    {8, "tile-32w8-t128-g3", run_kernel<Tiled<TileConfig<8, 8, 32, 32, 128>, kGrp, 3>>},
    {8, "multi2-32w8-g3", run_kernel<Tiled<Tile32<8>, kGrp, 3, 2>>},
    {8, "multi2-32w8-g4", run_kernel<Tiled<Tile32<8>, kGrp, 4, 2>>},
    {8, "multi2-32w8-g16", run_kernel<Tiled<Tile32<8>, kGrp, 16, 2>>},
    {8, "strip2-32w8-g4", run_kernel<Strip<Tile32<8>, 4, 2>>},
    {8, "strip4-32w8-t512-g16-b2", run_kernel<Strip<TileConfig<8, 8, 32, 32, 512, 2>, 16, 4>>},
    {8, "strip8-32w8-t1024-g16", run_kernel<Strip<TileConfig<8, 8, 32, 32, 1024>, 16, 8>>},
    {8, "strip4-32w8-t512-g8-b2-l128",
     run_kernel<Strip<TileConfig<8, 8, 32, 32, 512, 2>, 8, 4, 128>>},
    {8, "strip4-32w8-t512-g64-b2-l128",
     run_kernel<Strip<TileConfig<8, 8, 32, 32, 512, 2>, 64, 4, 128>>},
    {8, "strip4-32w8-t512-g64-b2-l128-p256s", run_kernel<F64OddN>},
    {8, "strip4-32w8-t512-g64-b2-l128-p256",
     run_kernel<Strip<TileConfig<8, 8, 32, 32, 512, 2, kFetch256>, 64, 4, 128>>},
    {8, "strip4-32w8-g16-b2-l128", run_kernel<Strip<TileConfig<8, 8, 32, 32, 256, 2>, 16, 4, 128>>},
    {8, "strip4-32w8-g16-b2", run_kernel<Strip<TileConfig<8, 8, 32, 32, 256, 2>, 16, 4>>},
    {8, "realign-32-stag", run_kernel<Realigned<TileConfig<8, 16, 16, 16, 256>, kStag>>},
    {8, "realign-32-row", run_kernel<Realigned<TileConfig<8, 16, 16, 16, 256>, kRow>>},
    {8, "realign-64-row-b2", run_kernel<Realigned<TileConfig<8, 16, 32, 32, 256, 2>, kRow>>},
    // 64 x 64 pairs of 16-byte words (the f32 word kernel's bytes a thread and more): the
    // library's on 256-byte rows on high-bandwidth devices since run 44 (F64Words). Run 44's
    // survey also had 512 threads, 2 blocks an SM (0.3-0.9 % behind it; commit 98448bb has it).
    {8, "tile-64w16-row-b3", run_kernel<F64Words64>},
    // complex128 (one element a word: realigning has nothing to do)
    {16, "tile-32-stag", run_kernel<Tiled<Tile32<16>, kStag>>},
    {16, "tile-32-row", run_kernel<Tiled<Tile32<16>, kRow>>},
    {16, "tile-32-i5", run_kernel<Tiled<Tile32<16>, kIlv, 5>>},
    {16, "tile-32-i8", run_kernel<Tiled<Tile32<16>, kIlv, 8>>},
    {16, "tile-32-i16", run_kernel<Tiled<Tile32<16>, kIlv, 16>>},
    {16, "tile-32-g2", run_kernel<Tiled<Tile32<16>, kGrp, 2>>},
    {16, "tile-32-g4", run_kernel<Tiled<Tile32<16>, kGrp, 4>>},
    {16, "multi2-32-g2", run_kernel<Tiled<Tile32<16>, kGrp, 2, 2>>},
    {16, "multi2-32-g4", run_kernel<Tiled<Tile32<16>, kGrp, 4, 2>>},
    {16, "multi2-32-g8", run_kernel<Tiled<Tile32<16>, kGrp, 8, 2>>},
    {16, "multi2-32-g16", run_kernel<Tiled<Tile32<16>, kGrp, 16, 2>>},
    {16, "multi2-32-g32", run_kernel<Tiled<Tile32<16>, kGrp, 32, 2>>},
    {16, "multi2-32-g32-p256", run_kernel<C128OffSector>},
    {16, "strip2-32-g32", run_kernel<Strip<Tile32<16>, 32, 2>>},
    {16, "tile-16-stag", run_kernel<Tiled<TileConfig<16, 16, 16, 16, 256>, kStag>>},
    {16, "tile-16-row", run_kernel<Tiled<TileConfig<16, 16, 16, 16, 256>, kRow>>},
    // the rotated kernel with 64 x 64 c128 pairs (130 KiB a block), off 256-byte rows (run 44,
    // calls 6-7; the same kernel with 64 x 64 f64 pairs, 512 / 256 threads, 2 / 3 blocks an SM,
    // ran 5 % / 40 % behind the strip kernel and was pruned: commit 5d454ea has it)
    {16, "rot64-t512-g32-b1-p256-fe", run_kernel<C128Rot64>},  // the library's since run 44
    {16, "rot64-t1024-g32-b1-p256-fe",
     run_kernel<Rotated<uint4, 64, 1024, 1, 32, kFetch256, true, kGrp, true>>},
    {16, "rot64-t512-g4-b1-p256-fe",
     run_kernel<Rotated<uint4, 64, 512, 1, 4, kFetch256, true, kGrp, true>>},
    // run 44's survey (H200, calls 1-2 and 8, on 256-byte rows): 32 x 32 pairs with 128 threads
    // (8 words of a tile a thread), +0.3 to +1.2 % over the default row-wise, the interleaved form
    // +3.1 to +3.7 % at 8192² and 16384² and behind at 4096², 12288², 20480², 32768² (no rule).
    // Pruned (commit 98448bb has them): 64 x 64 pairs with 1024 / 512 threads (128 KiB a block:
    // 0.4-2.6 % behind the default), and off 256-byte rows (call 4) 128-thread forms in groups of
    // 4 / 8 tile rows (1.5-2 % behind tile-32-g4) and tile-32-g8 (level); f32 rot128 forms with
    // 256 threads (8-11 % behind) and 16 / 64 tile rows a group (within 0.6 % of 32).
    {16, "tile-32-t128-row", run_kernel<Tiled<TileConfig<16, 16, 32, 32, 128>, kRow>>},
    {16, "tile-32-t128-i8", run_kernel<Tiled<TileConfig<16, 16, 32, 32, 128>, kIlv, 8>>},
};

}  // namespace

std::vector<std::string> in_place(std::size_t elem_size) {
  std::vector<std::string> names{"default"};
  for (const Entry& e : kEntries)
    if (e.elem == elem_size) names.emplace_back(e.name);
  return names;
}

bool run_in_place(const std::string& name, void* buf, std::size_t elem_size, std::int64_t n,
                  std::int64_t batch, DeviceStream stream) {
  if (name == "default") {
    transpose_inplace_cuda(buf, elem_size, n, batch, stream);
    return true;
  }
  for (const Entry& e : kEntries) {
    if (e.elem != elem_size || name != e.name) continue;
    if (n < 0 || batch < 0)
      throw DimensionMismatch(
          cat("transpose_inplace_cuda: negative extent (n=", n, ", batch=", batch, ")"));
    if (n <= 1 || batch == 0) return true;
    if (buf == nullptr) throw DimensionMismatch("transpose_inplace_cuda: null buffer");
    if (reinterpret_cast<std::uintptr_t>(buf) % elem_size != 0) return false;
    return e.run(buf, n, batch, static_cast<cudaStream_t>(stream));
  }
  throw UnsupportedInputError(
      cat("transpose_inplace_cuda: no variant '", name, "' for element size ", elem_size));
}

DispatchChoice default_in_place(void* buf, std::size_t elem_size, std::int64_t n,
                                std::int64_t batch) {
  return with_kernels(elem_size, "default_in_place", [&](auto list) {
    return DispatchChoice{choose(list, buf, n, batch), list_size(list)};
  });
}

}  // namespace variants

}  // namespace xpose::kernels
