// Out-of-place CUDA transpose: per element size, the tiled kernel (tiled.cuh) with the tile shape
// measured fastest, where pointers and pitches allow its words and every output row starts on a
// 256-byte boundary (1- and 2-byte elements: on a 32-byte sector; f32 from 200000 input rows on:
// on a 32-byte sector);
// otherwise the skewed kernel (skew.cuh), which takes any layout aligned to the element size and
// writes no partial sectors, with its blocks running down the columns of tiles for 4-, 8- and
// 16-byte elements (each output piece then shares its partial lines with the piece of the block
// just before and just after it; past 28000 input rows in groups of at most 16000 rows, run 21).
// For 1- and 2-byte elements the narrow kernel (narrow.cuh: aligned 4-byte words on rows of any
// alignment) takes the layouts whose output rows are on 16 bytes (u8 with 256-byte row pieces,
// runs 20-21), and the narrow skewed kernel (narrow_skew.cuh: the same words, output pieces on
// 32-byte sectors) those whose output rows are off 16 bytes (run 22); where a device does not
// give the latter its shared memory, u8's 128 x 128 narrow tiles and u16's rotated kernel
// (rotated.cuh). Launched on the caller's stream. The
// shapes and their measured speeds are in kernels/NOTES.md. Below the library entry point: the
// candidate kernels by name (variants.h), for the tests and bench_kernels --compare (the Hopper TMA
// kernels of tma.cuh are candidates, and since run 34 the dispatch's choice for f32 on devices
// whose DRAM gives 15 or more bytes per SM clock, an H200, where the skewed kernel would run and
// the TMA unit takes the layout: HighBandwidthTma).
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/cuda/dispatch.h"
#include "kernels/cuda/lines.cuh"
#include "kernels/cuda/narrow.cuh"
#include "kernels/cuda/narrow_skew.cuh"
#include "kernels/cuda/realign.cuh"
#include "kernels/cuda/rotated.cuh"
#include "kernels/cuda/skew.cuh"
#include "kernels/cuda/records.cuh"
#include "kernels/cuda/thin.cuh"
#include "kernels/cuda/tiled.cuh"
#include "kernels/cuda/tma.cuh"
#include "kernels/cuda/variants.h"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels {

namespace {

using cuda_tile::LinesConfig;
using cuda_tile::NarrowEdge;
using cuda_tile::NarrowSkewConfig;
using cuda_tile::RealignConfig;
using cuda_tile::SkewConfig;
using cuda_tile::Tile32;
using cuda_tile::TileConfig;

// The tiled kernel, only where every output row starts on an OUT_ALIGN-byte boundary.
// Output rows inside a 32-byte sector make it write partial sectors at both ends of every piece
// (measured 0.84 x memcpy for f32 rows 16 bytes off, 0.83 for c128 at 16411², against 0.90 and
// 0.91 for the skewed kernel there). The tiled kernels of 4-, 8- and 16-byte elements write
// 256-byte pieces of the output rows and take OUT_ALIGN 256: where the output pitch is off 256
// bytes they lose 2.5-4 % against the skewed kernel in column-major order, whose consecutive
// blocks complete each other's lines (run 11, NOTES.md, x memcpy: f32 16400x16384 0.925 against
// 0.955, 20000x30000 0.902 against 0.943; f64 16392x16384 0.931 against 0.955; c128 16392x16384,
// rows on 128-byte lines, 0.924 against 0.951), and where it is on them they win (c128
// 16400x16384 0.973; f64 / c128 20000x30000 0.953 / 0.963 against 0.945 / 0.961). The input side
// moves either kernel by less than 0.5 %.
// A side of 1 (one row or one column) whose elements are consecutive in both buffers, and whose
// matrices follow each other without gaps (or one matrix): the transpose is a copy of
// rows x cols x batch elements in order, which the dispatch hands to cudaMemcpyAsync (run 32,
// kernels/NOTES.md: the records / thin kernels copied such layouts at 0.89 x memcpy). Rows of one
// element with a pitch, or matrices with gaps, stay with the kernels. `s` resolved.
bool copies_in_order(const TransposeShape& s) {
  if (s.rows != 1 && s.cols != 1) return false;
  const std::int64_t n = s.rows * s.cols;
  // Steps between consecutive elements: along the one input row / down the one input column,
  // and where they land (output row j of a single input row, output row 0 of a single column).
  const std::int64_t in_step = s.rows == 1 ? 1 : s.in_pitch;
  const std::int64_t out_step = s.rows == 1 ? s.out_pitch : 1;
  if (n > 1 && (in_step != 1 || out_step != 1)) return false;
  return s.batch == 1 || (s.in_batch_stride == n && s.out_batch_stride == n);
}

void copy_in_order(const void* in, void* out, std::size_t elem_size, const TransposeShape& s,
                   cudaStream_t st) {
  const auto bytes = static_cast<std::size_t>(s.rows * s.cols * s.batch) * elem_size;
  XPOSE_CHECK_CUDA(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, st));
}

// G as tile_of's group (1: row-major; kColumnMajor: down the tile columns).
template <class C, int OUT_ALIGN = 32, int G = 1>
struct Tiled {
  using Elem = typename C::Elem;
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return cuda_tile::output_rows_aligned(out, s, C::S, OUT_ALIGN) &&
           cuda_tile::tiled_accepts<C>(in, out, s);
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    cuda_tile::launch_tiled<C>(in, out, s, st, 0, G);
  }
};

template <class C, int G = 1>
struct Skewed {
  static constexpr int tile_rows() { return C::TH; }  ///< input rows a tile advances by
  static constexpr int extra_rows() { return C::M; }  ///< rows the launch adds above the first
  static constexpr int elem_bytes() { return C::S; }  ///< bytes an element
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return cuda_tile::skew_accepts<C>(in, out, s);
  }
  static void launch_group(const void* in, void* out, const TransposeShape& s, cudaStream_t st,
                           int group, std::uint32_t stagger = 0, std::uint32_t turn = 0) {
    cuda_tile::launch_skew<C>(in, out, s, st, group, stagger, turn);
  }
  /// launch_group with the tile rows dealt over `spread` runs (TiledParams::spread).
  static void launch_spread(const void* in, void* out, const TransposeShape& s, cudaStream_t st,
                            int group, std::uint32_t spread) {
    cuda_tile::launch_skew<C, true>(in, out, s, st, group, 0, 0, spread);
  }
  /// Tile columns in 64 KiB of input row: the stagger's turn (TiledParams::stagger).
  static constexpr std::uint32_t turn_tiles() { return 65536 / (C::TW * C::S); }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    launch_group(in, out, s, st, G);
  }
};

// Kernel K (Skewed, Rotated, Narrow) in column-major order up to FROM input rows; taller inputs
// are split into the fewest groups of tile rows that keep each column sweep under CAP rows,
// groups of equal height (tile_of), column by column inside each. Measured (runs 19 and 21,
// kernels/NOTES.md, x memcpy): column-major falls with the height, for the skewed kernels from
// 26000-28000 input rows on (f32 20011² 0.926, 31013² 0.882, 60000x16411 0.719, 100000x5003
// 0.693; f64 and c128 by 2-3 %) and for the narrow ones where input rows are off 16 bytes past
// 32000 (u16 60000x16411 0.835, 100000x5003 0.810, against 0.885 / 0.874 in sweeps).
// Run 21's order for the skewed kernels (RowGroups): column-major up to 28000 input rows, groups
// of at most 16000 rows above; run 30 refines it (SkewGroups, skew_in_column_order). Past 32000
// rows, f32 / f64 / c128 geometric mean over seven shapes of 32749-100001 rows 0.910 / 0.903 /
// 0.910 x memcpy, against 0.898 / 0.893 / 0.902 for groups of up to 32000 rows and 0.758 / 0.879 /
// 0.888 column-major; from 28001 rows two groups beat column-major by 1.0-3.7 % (f32 31013² 0.915
// against 0.882), up to 24001 rows they lose 0-1 %. The narrow kernels take groups of up to 32000
// rows (Swept's default), 0-1 % ahead of 16000.
constexpr std::int64_t kSweepRows = 32000;
inline int capped_columns(std::int64_t rows, int tile_rows, int extra_rows, std::int64_t cap,
                          std::int64_t from) {
  if (rows <= from) return cuda_tile::kColumnMajor;
  const std::int64_t tiles_y = (rows + extra_rows + tile_rows - 1) / tile_rows;
  const std::int64_t sweeps = (rows + cap - 1) / cap;
  return static_cast<int>((tiles_y + sweeps - 1) / sweeps);
}
// FROM: plain column-major up to FROM input rows, groups of at most CAP rows above it.
template <class K, std::int64_t CAP = kSweepRows, std::int64_t FROM = CAP>
struct Swept : K {
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    K::launch_group(in, out, s, st,
                    capped_columns(s.rows, K::tile_rows(), K::extra_rows(), CAP, FROM));
  }
};
constexpr std::int64_t kSkewColumnRows = 28000;
// Run 21's order (above), the bench's -g16k; the dispatch refines it (SkewGroups below).
template <class K>
using RowGroups = Swept<K, 16000, kSkewColumnRows>;
// The spread groups' runs (SpreadGroups): five, one a stack of the H100 80 GB where the output
// pitch is k x 320 KiB with k not a multiple of five and the input about as tall as the pitch is
// wide (the runs then start k x 64 KiB of output row apart).
constexpr std::uint32_t kSpreadRuns = 5;
// RowGroups with the tile rows dealt over S runs (TiledParams::spread): a group of G rows of the
// order takes G / S tile rows from each of S runs tiles_y / S apart, so the blocks in flight
// write pieces S places along each output row instead of one (run 32, candidates -spS, for output
// rows on one stack: the groups' pieces in flight span 50-60 KiB of output row, one stack's 64).
// CAP, FROM as Swept's (the skewed kernels' RowGroups by default).
template <class K, std::uint32_t S, std::int64_t CAP = 16000, std::int64_t FROM = kSkewColumnRows>
struct SpreadGroups : K {
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    K::launch_spread(in, out, s, st,
                     capped_columns(s.rows, K::tile_rows(), K::extra_rows(), CAP, FROM), S);
  }
};
// The skewed layout with realigned 16-byte words on both sides (realign.cuh): whole-word shared
// memory instead of the skewed kernel's element-by-element scatter.
template <class C>
struct Realigned {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return cuda_tile::skew_accepts<C>(in, out, s);
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    cuda_tile::launch_rskew<C>(in, out, s, st);
  }
};

// Line-aligned accesses, one element a lane (lines.cuh): any layout aligned to the element; C a
// LinesConfig, G tile_of's group (column-major by default, as cuBLAS geam's grid).
template <class C, int G = cuda_tile::kColumnMajor>
struct Lines {
  using Elem = typename C::Elem;
  static bool accepts(const void* in, const void* out, const TransposeShape&) {
    return cuda_tile::element_aligned(in, out, C::S);
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    cuda_tile::launch_lines<C>(in, out, s, st, G);
  }
};

// Peeled: the tiled kernel on the interior that is a whole number of tiles (no edge tiles, so
// every tile takes the unrolled word path), the ragged right and bottom strips through kernel E
// (any layout, whole words inside each row) in two more launches on the same stream.
template <class C, class E>
struct Peeled {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return Tiled<C>::accepts(in, out, s) && E::accepts(in, out, s);
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    const std::int64_t ri = s.rows / C::TH * C::TH;
    const std::int64_t ci = s.cols / C::TW * C::TW;
    if (ri == 0 || ci == 0) {
      E::launch(in, out, s, st);
      return;
    }
    const auto* i8 = static_cast<const char*>(in);
    auto* o8 = static_cast<char*>(out);
    TransposeShape core = s;
    core.rows = ri;
    core.cols = ci;
    cuda_tile::launch_tiled<C>(in, out, core, st);
    if (ci < s.cols) {  // right strip: every row, columns [ci, cols)
      TransposeShape r = s;
      r.cols = s.cols - ci;
      E::launch(i8 + ci * C::S, o8 + ci * s.out_pitch * C::S, r, st);
    }
    if (ri < s.rows) {  // bottom strip: rows [ri, rows), columns [0, ci)
      TransposeShape b = s;
      b.rows = s.rows - ri;
      b.cols = ci;
      E::launch(i8 + ri * s.in_pitch * C::S, o8 + ri * C::S, b, st);
    }
  }
};

// rotated_kernel (rotated.cuh): TS x TS tiles, rows rotated onto 128-byte lines on both sides;
// G as tile_of's group (kColumnMajor: down the tile columns). Any layout aligned to the element,
// on devices that give a block its shared memory.
template <class T, int TS, int NT, int MINB, int G, int HINT>
struct Rotated {
  static bool accepts(const void* in, const void* out, const TransposeShape&) {
    return cuda_tile::element_aligned(in, out, sizeof(T)) &&
           cuda_tile::rotated_oop_fits_device<T, TS>();
  }
  static constexpr int tile_rows() { return TS; }
  static constexpr int extra_rows() { return 0; }
  static void launch_group(const void* in, void* out, const TransposeShape& s, cudaStream_t st,
                           int group) {
    cuda_tile::launch_rotated<T, TS, NT, MINB, HINT>(in, out, s, st, group);
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    launch_group(in, out, s, st, G);
  }
};

// narrow_kernel (narrow.cuh): 1- and 2-byte elements in TS x TS tiles, every global access an
// aligned 4-byte word on rows of any alignment; G as tile_of's group. Any layout aligned to the
// element.
template <class T, int TS, int NT, int MINB, int G, bool ROT = false,
          NarrowEdge EDGE = NarrowEdge::kWords>
struct Narrow {
  using Elem = T;
  static bool accepts(const void* in, const void* out, const TransposeShape&) {
    return cuda_tile::element_aligned(in, out, sizeof(T)) &&
           cuda_tile::narrow_fits_device<T, TS, false>();
  }
  static constexpr int tile_rows() { return TS; }
  static constexpr int tile_cols() { return TS; }
  static constexpr int extra_rows() { return 0; }
  static void launch_group(const void* in, void* out, const TransposeShape& s, cudaStream_t st,
                           int group) {
    cuda_tile::launch_narrow<T, TS, NT, MINB, ROT, EDGE>(in, out, s, st, group);
  }
  /// launch_group with the tile rows dealt over `spread` runs (TiledParams::spread).
  static void launch_spread(const void* in, void* out, const TransposeShape& s, cudaStream_t st,
                            int group, std::uint32_t spread) {
    cuda_tile::launch_narrow<T, TS, NT, MINB, ROT, EDGE, true>(in, out, s, st, group, spread);
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    launch_group(in, out, s, st, G);
  }
};

// narrow_skew_kernel (narrow_skew.cuh): 1- and 2-byte elements, the narrow kernel's aligned
// 4-byte words with output pieces on 32-byte boundaries (C: NarrowSkewConfig); G as tile_of's
// group. Any layout aligned to the element.
template <class C, int G>
struct NarrowSkewed {
  using Elem = typename C::Elem;
  static bool accepts(const void* in, const void* out, const TransposeShape&) {
    return cuda_tile::element_aligned(in, out, C::S) && cuda_tile::narrow_skew_fits_device<C>();
  }
  static constexpr int tile_rows() { return C::TH; }
  static constexpr int tile_cols() { return C::TW; }
  static constexpr int extra_rows() { return C::M - 1; }
  static void launch_group(const void* in, void* out, const TransposeShape& s, cudaStream_t st,
                           int group) {
    cuda_tile::launch_narrow_skew<C>(in, out, s, st, group);
  }
  /// launch_group with the tile rows dealt over `spread` runs (TiledParams::spread).
  static void launch_spread(const void* in, void* out, const TransposeShape& s, cudaStream_t st,
                            int group, std::uint32_t spread) {
    cuda_tile::launch_narrow_skew<C, true>(in, out, s, st, group, spread);
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    launch_group(in, out, s, st, G);
  }
};

// A closed range of short sides, lo <= m <= hi.
struct ThinRange {
  std::int64_t lo, hi;
};
template <std::size_t N>
constexpr bool in_ranges(const ThinRange (&r)[N], std::int64_t m) {
  for (std::size_t i = 0; i < N; ++i)
    if (r[i].lo <= m && m <= r[i].hi) return true;
  return false;
}
// Every short side the thin kernel takes (its candidates). kRows / kCols: where the wide
// matrix's rows are on 4 bytes (cuda_tile::thin_wide_on4; always for 4- to 16-byte elements);
// kRowsOff4 / kColsOff4: where they are off 4 bytes (1- and 2-byte elements only); kRowsBlocks /
// kColsBlocks: more short sides where the thin kernel runs in P x P blocks with the wide rows on 4
// bytes (cuda_tile::ThinForm::blocks; {0, 0}: none).
struct ThinAll {
  static constexpr ThinRange kRows[] = {{1, cuda_tile::kThinMax}};
  static constexpr ThinRange kCols[] = {{1, cuda_tile::kThinMax}};
  static constexpr ThinRange kRowsOff4[] = {{1, cuda_tile::kThinMax}};
  static constexpr ThinRange kColsOff4[] = {{1, cuda_tile::kThinMax}};
  static constexpr ThinRange kRowsBlocks[] = {{0, 0}};
  static constexpr ThinRange kColsBlocks[] = {{0, 0}};
};

// The thin kernel (thin.cuh), any layout: where rows <= cols (it takes the rows as its short
// side) where the rows are in R::kRows, elsewhere where the columns are in R::kCols, or in
// R::kRowsOff4 / R::kColsOff4 where the wide matrix's rows are off 4 bytes, and also in
// R::kRowsBlocks / R::kColsBlocks where it runs in blocks (all at most kThinMax). SHIFTED:
// where wide rows off 4 bytes go in shifted words (cuda_tile::ThinShifted). By default u16 short
// rows only: there they were ahead at every m (run 27 calls 1-2, x memcpy against element by
// element, 512 MiB, odd long sides, m = 3-100: 0.45-0.50 against 0.37-0.39); not u16 short
// columns (0.57-0.68 against 0.57-0.73) nor u8 (0.32-0.47 against 0.42-0.47: behind at 8 of 14
// shapes, by up to 23 % at 131 rows).
template <int S, class R = ThinAll,
          int SHIFTED = S == 2 ? cuda_tile::kThinShiftedShortRows : cuda_tile::kThinShiftedNever>
struct Thin {
  static_assert(R::kRows[std::size(R::kRows) - 1].hi <= cuda_tile::kThinMax &&
                R::kCols[std::size(R::kCols) - 1].hi <= cuda_tile::kThinMax &&
                R::kRowsOff4[std::size(R::kRowsOff4) - 1].hi <= cuda_tile::kThinMax &&
                R::kColsOff4[std::size(R::kColsOff4) - 1].hi <= cuda_tile::kThinMax &&
                R::kRowsBlocks[std::size(R::kRowsBlocks) - 1].hi <= cuda_tile::kThinMax &&
                R::kColsBlocks[std::size(R::kColsBlocks) - 1].hi <= cuda_tile::kThinMax);
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    if (!cuda_tile::thin_accepts(in, out, S, s)) return false;
    const cuda_tile::ThinForm f = cuda_tile::thin_form<S, SHIFTED>(in, out, s);
    const bool on4 = f.wide == cuda_tile::kThinWideWords;  // always for 4- to 16-byte elements
    const std::int64_t m = f.short_rows ? s.rows : s.cols;
    if (f.short_rows ? (on4 ? in_ranges(R::kRows, m) : in_ranges(R::kRowsOff4, m))
                     : (on4 ? in_ranges(R::kCols, m) : in_ranges(R::kColsOff4, m)))
      return true;
    return on4 && f.blocks &&
           (f.short_rows ? in_ranges(R::kRowsBlocks, m) : in_ranges(R::kColsBlocks, m));
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    cuda_tile::launch_thin<S, SHIFTED>(in, out, s, st);
  }
};

// The records kernels (records.cuh): 1- and 2-byte elements, a short side of at most
// kRecordsMax, the tall matrix dense on 4 bytes and the wide rows on 4 bytes. LINES: short
// columns write the wide rows in whole 128-byte lines. ONE_WAVE: launch_records' one-wave grid.
template <int S, bool LINES = true, bool ONE_WAVE = false>
struct Records {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return cuda_tile::records_accepts<S>(in, out, s);
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    cuda_tile::launch_records<S, LINES, ONE_WAVE>(in, out, s, st);
  }
};

// K's layouts as one dispatch entry; where the device's DRAM gives at least
// cuda_detail::kHighBandwidth bytes per SM clock (cuda_detail::high_bandwidth_device), HI runs
// those of them it takes, and K the rest, so the entry's layouts do not depend on the device.
template <class HI, class K>
struct PreferOnHighBandwidth : K {
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    if (cuda_detail::high_bandwidth_device() && HI::accepts(in, out, s))
      HI::launch(in, out, s, st);
    else
      K::launch(in, out, s, st);
  }
};

// Tiles of tr x tc elements a launch over `s` has, all its matrices counted (the small-size
// rules' count: FewTiles, PreferInTileWindow).
double tiles_over_batch(const TransposeShape& s, std::int64_t tr, std::int64_t tc) {
  return double((s.rows + tr - 1) / tr) * double((s.cols + tc - 1) / tc) *
         double(s.batch > 1 ? s.batch : 1);
}

// K's layouts as one dispatch entry; where K's launch would have from LO / 100 to under HI / 100
// tiles of TR x TC elements an SM over the batch, SMALL runs those of them it takes (run 37:
// small f64 / c128 matrices, NOTES.md calls 10-11). The entry's layouts stay K's.
template <class SMALL, class K, int TR, int TC, int LO, int HI>
struct PreferInTileWindow : K {
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    if (cuda_detail::per_sm_within(tiles_over_batch(s, TR, TC), LO, HI) &&
        SMALL::accepts(in, out, s))
      SMALL::launch(in, out, s, st);
    else
      K::launch(in, out, s, st);
  }
};

// No upper bound for PreferInTileWindow (tiles an SM, in hundredths).
constexpr int kNoTileLimit = 2000000000;

using cuda_detail::pitch_on_one_stack;
// Whether the skewed kernel of configuration C runs in plain column order rather than in groups
// of rows (run 30, H100, kernels/NOTES.md): up to kSkewColumnRows input rows always (run 21).
// Taller inputs whose rows are off the kernel's fetch unit (128-byte lines, or 256 bytes where
// its loads ask L2 for 256, kFetch256) share a unit between neighbouring tile columns, and in
// column order the second reader comes a whole column sweep later, when the unit has left L2:
// groups of rows lead there (x memcpy groups / column order, f32 100001x5003 0.898 / 0.692, f64
// 0.889 / 0.861, c128 0.900 / 0.877; rows on 32 bytes lose the same way; f32 rows on odd
// multiples of 128 bytes, 60001x12320, 0.912 / 0.863). On the unit column order runs at any
// height: f64 / c128 0.5-1.8 % ahead of the groups at 20 tall shapes, f32 1.2-3 % at 16 on 256
// bytes. (Run 30 also ran f64 and c128 in column order off lines where the output rows fall on
// one stack, 2.3-11 % ahead of the tiled kernel; since run 32 the spread groups take that class,
// SkewGroups::spread.)
template <class C>
constexpr int skew_fetch_bytes() {
  return (C::HINT & cuda_tile::kFetch256) != 0 ? 256 : 128;
}
template <class C>
bool skew_in_column_order(const void* in, const TransposeShape& s) {
  if (s.rows <= kSkewColumnRows) return true;
  return cuda_tile::input_rows_aligned(in, s, C::S, skew_fetch_bytes<C>());
}
// The skewed kernel of configuration C in the order skew_in_column_order gives, except on
// one-stack output pitches where C's order is the groups and PLAIN (C without the 256-byte fetch
// hint) would run column order on its own unit: there PLAIN runs in column order (run 30 call 5,
// f32 rows on odd multiples of 128 bytes, x memcpy tiled / PLAIN in column order: 163840x2080
// 0.847 / 0.926, 81920x7200 0.842 / 0.919, 81920x2080 0.846 / 0.924, 245760x1056 0.835 / 0.904;
// off one-stack pitches PLAIN's column order only levels the groups, 60001x12320 0.913 / 0.914).
// Column order where the input rows fall on one stack too (pitch_on_one_stack of the input
// pitch) runs with the stagger (TiledParams::stagger): bands of BAND tile rows turned by 64 KiB
// of input row, so the reads of a run down a column of tiles move across the stacks (run 30
// calls 8-10, x memcpy column order / staggered: c128 20480² 0.859 / 0.943, 20480x40960 0.853 /
// 0.941 with bands of 32 tile rows; f64 40960² 0.851 / 0.944, 20001x40960 0.851 / 0.917 with
// 128; f32 20001x81920 0.857 / 0.895 with 64; bands of 128 / 256 rows lost 1-2 % for f32).
// Since run 31, with BALANCED (f32, f64), the bands are balanced over the five stacks
// (balanced_band: 5 k bands of at most BAND tile rows), so that each turn takes as many
// tile rows: where BAND left few bands or a count off a multiple of five, one stack took more
// rows than another (calls 4-5, x memcpy, bands of BAND / balanced: f32 9001x81920 0.847 / 0.896,
// 12345x81920 0.862 / 0.896, 7001x81920 0.846 / 0.891, f64 10001x40960 0.859 / 0.920, 5001x40960
// 0.850 / 0.911, 12001x81920 0.835 / 0.873; never more than 0.2 % behind on 31 shapes). c128
// balances only where bands of 32 would be fewer than ten (BELOW, run 32): with more, balanced
// bands lost 1.5 % at 17001x20480 (27 rows a band; run 31 call 5), 0.9 % at 11001x40960, gained
// nothing at 12345x40960 (26) and 1.1 % at 13001x20480; with fewer they gained at seven of nine
// shapes and lost at none (run 31: 3001x40960 0.840 / 0.877, 7001x40960 0.900 / 0.921; run 32
// call 1, held out: 2001x40960 0.846 / 0.877, 4001x40960 0.861 / 0.876, 8001x20480 0.896 /
// 0.916, 4001x81920 0.858 / 0.874, 9501x61440 0.912 / 0.920).
// The stagger's band height for at most `band` tile rows a band that cuts the launch's tile rows
// into a whole multiple of five bands (5 k, k = ceil(tiles / 5 band)), so that on the five stacks
// each turn (band mod 5) takes as many tile rows (run 31; k rounded to the nearest instead, so
// that bands could grow longer than `band`, lost 2-3 % where they did: commit 0ef7df8 has it).
template <class K>
std::int64_t stagger_tile_rows(const TransposeShape& s) {
  return (s.rows + K::extra_rows() + K::tile_rows() - 1) / K::tile_rows();
}
template <class K>
std::uint32_t balanced_band(const TransposeShape& s, std::uint32_t band) {
  const std::int64_t tiles = stagger_tile_rows<K>(s);
  const std::int64_t per = 5 * static_cast<std::int64_t>(band);
  const std::int64_t k = std::max<std::int64_t>(1, (tiles + per - 1) / per);
  return static_cast<std::uint32_t>(std::max<std::int64_t>(1, (tiles + 5 * k - 1) / (5 * k)));
}
// The skewed kernel C in column order with the stagger (TiledParams::stagger): bands of H tile
// rows (0: as many as the turn's tile columns), each turning by 64 KiB of input row; BALANCED:
// balanced_band's bands of at most H, where bands of H would be fewer than BELOW (0: always).
// SkewGroups' launch where the input rows fall on one stack, and the bench candidates
// -stag[H] / -stagc[H][uBELOW].
template <class C, std::uint32_t H = 0, bool BALANCED = false, std::int64_t BELOW = 0>
struct StaggeredColumns : Skewed<C> {
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    constexpr std::uint32_t turn = Skewed<C>::turn_tiles();
    const std::uint32_t band = H == 0 ? turn : H;
    const bool balance = BALANCED && (BELOW == 0 || stagger_tile_rows<Skewed<C>>(s) < BELOW * band);
    Skewed<C>::launch_group(in, out, s, st, cuda_tile::kColumnMajor,
                            balance ? balanced_band<Skewed<C>>(s, band) : band, turn);
  }
};
template <class C, std::uint32_t BAND, class PLAIN = C, bool BALANCED = true,
          std::int64_t BELOW = 0>
struct SkewGroups : Skewed<C> {
  static bool plain_on_one_stack(const void* in, const TransposeShape& s) {
    return !std::is_same<C, PLAIN>::value && pitch_on_one_stack(s.out_pitch * C::S) &&
           skew_in_column_order<PLAIN>(in, s);
  }
  /// Whether this layout runs in column order (either configuration).
  static bool columns(const void* in, const TransposeShape& s) {
    return skew_in_column_order<C>(in, s) || plain_on_one_stack(in, s);
  }
  /// Whether this layout runs in groups of rows dealt over kSpreadRuns runs (SpreadGroups, run
  /// 32): output rows on one stack, more than kSkewColumnRows input rows, input rows off 128-byte
  /// lines. There the groups' blocks in flight wrote about 54 KiB of each output row, one stack's
  /// share, and column order (f64 / c128) lost the lines the next tile column shares; dealt over
  /// five runs, x memcpy old launch / spread groups: f32 (groups, or the tiled kernel on 8-byte
  /// rows) 81920x2049 0.831 / 0.907, 81920x3001 0.829 / 0.915, 163840x1001 0.834 / 0.910 (call
  /// 3), held out 81920x2051 0.839 / 0.916, 163840x1501 0.827 / 0.905, 245760x1003 0.832 /
  /// 0.901, 81920x2050 0.850 / 0.912, 81920x4098 0.841 / 0.915; f64 (column order) 40960x3001
  /// 0.887 / 0.915, held out 81920x2001 0.886 / 0.913, 40960x5001 0.875 / 0.901, 122880x1001
  /// 0.874 / 0.899; c128 40960x1501 0.898 / 0.927, held out 40960x1001 0.894 / 0.928, 61440x1503
  /// 0.886 / 0.907, 81920x777 0.883 / 0.908 (call 4). On 128-byte lines column order stays ahead
  /// (f64 40960x4096 0.959 / 0.954, c128 40960x2048 0.960 / 0.957), and off one stack the groups
  /// (f32 / f64 100001x5003 0.896 / 0.888, 0.890 / 0.881).
  static bool spread(const void* in, const TransposeShape& s) {
    return s.rows > kSkewColumnRows && pitch_on_one_stack(s.out_pitch * C::S) &&
           !cuda_tile::input_rows_aligned(in, s, C::S, 128);
  }
  /// Whether this layout runs one of the orders that lead the tiled kernel where the output rows
  /// fall on one stack (OffOneStack): column order or the spread groups.
  static bool on_one_stack(const void* in, const TransposeShape& s) {
    return spread(in, s) || columns(in, s);
  }
  /// Column order of configuration CC (C or PLAIN), with the stagger where the input rows fall
  /// on one stack.
  template <class CC>
  static void launch_columns(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    if (pitch_on_one_stack(s.in_pitch * C::S))
      StaggeredColumns<CC, BAND, BALANCED, BELOW>::launch(in, out, s, st);
    else
      Skewed<CC>::launch_group(in, out, s, st, cuda_tile::kColumnMajor);
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    if (spread(in, s))
      SpreadGroups<Skewed<C>, kSpreadRuns>::launch(in, out, s, st);
    else if (skew_in_column_order<C>(in, s))
      launch_columns<C>(in, out, s, st);
    else if (plain_on_one_stack(in, s))
      launch_columns<PLAIN>(in, out, s, st);
    else
      RowGroups<Skewed<C>>::launch(in, out, s, st);  // past kSkewColumnRows rows: groups of rows
  }
};
// K (a tiled kernel), except where its output rows fall on one DRAM stack (pitch_on_one_stack)
// and the skewed kernel after it (SKEW, a SkewGroups) runs in plain column order
// (skew_in_column_order), its consecutive blocks writing neighbouring pieces of the same output
// rows (run 29, H100, x memcpy tiled / skewed in column order: output pitches of 5 and 10 x 64
// KiB 0.862-0.864 / 0.931-0.956, call 10; held out, c128 20480x4096 and 20480x12288 0.866 / 0.966
// and 0.855 / 0.957, call 11; run 30, tall: f64 81920x2048 0.867 / 0.960, c128 40960x8192 0.855
// / 0.959), or in the spread groups (SkewGroups::spread, run 32: f32 81920x2050 0.850 / 0.912,
// 81920x4098 0.841 / 0.915). Where the skewed kernel would run in plain groups of rows the tiled
// kernel stays: the groups run level with it or 1-2 % behind on these pitches (f32 81920x2048
// 0.855 / 0.873).
template <class K, class SKEW>
struct OffOneStack : K {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return !(pitch_on_one_stack(s.out_pitch * SKEW::elem_bytes()) && SKEW::on_one_stack(in, s)) &&
           K::accepts(in, out, s);
  }
};

// K, only on inputs of at least ROWS rows.
template <class K, std::int64_t ROWS>
struct MinRows : K {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return s.rows >= ROWS && K::accepts(in, out, s);
  }
};

// K, only on inputs of at most ROWS rows.
template <class K, std::int64_t ROWS>
struct MaxRows : K {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return s.rows <= ROWS && K::accepts(in, out, s);
  }
};

// K, only on inputs of at most ROWS rows, or of at most WIDE rows with at least half as many
// columns as rows.
template <class K, std::int64_t ROWS, std::int64_t WIDE>
struct MaxRowsOrWide : K {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return (s.rows <= ROWS || (s.rows <= WIDE && 2 * s.cols >= s.rows)) && K::accepts(in, out, s);
  }
};

// K (square tiles of K::tile_rows()), only where fewer than PCT % of its tiles are clipped by
// the matrix's edges: the narrow kernel moves those element by element.
template <class K, int PCT>
struct MostlyWhole : K {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    const std::int64_t ts = K::tile_rows();
    const std::int64_t whole = (s.rows / ts) * (s.cols / ts);
    const std::int64_t all = ((s.rows + ts - 1) / ts) * ((s.cols + ts - 1) / ts);
    return (all - whole) * 100 < PCT * all && K::accepts(in, out, s);
  }
};

// K (square tiles of K::tile_rows()), only where no tile is clipped by the matrix's edges.
template <class K>
struct WholeTiles : K {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    const std::int64_t ts = K::tile_rows();
    return s.rows % ts == 0 && s.cols % ts == 0 && K::accepts(in, out, s);
  }
};

// K, only where both sides of the matrix are off multiples of TS (every TS x TS tile row and
// column ends in a partial tile).
template <class K, int TS>
struct PartialBothWays : K {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return s.rows % TS != 0 && s.cols % TS != 0 && K::accepts(in, out, s);
  }
};

// K, only where the output matrix's rows start on ALIGN-byte boundaries (the input's any).
template <class K, int ALIGN>
struct OutRowsOn : K {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return cuda_tile::output_rows_aligned(out, s, sizeof(typename K::Elem), ALIGN) &&
           K::accepts(in, out, s);
  }
};

// K, only where the rows of both matrices (pointers, pitches, batch strides) start on
// ALIGN-byte boundaries.
template <class K, int ALIGN>
struct RowsOn : OutRowsOn<K, ALIGN> {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return cuda_tile::input_rows_aligned(in, s, sizeof(typename K::Elem), ALIGN) &&
           OutRowsOn<K, ALIGN>::accepts(in, out, s);
  }
};

// K, only where the input matrix's rows do not all start on ALIGN-byte boundaries.
template <class K, int ALIGN>
struct InRowsOff : K {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return !cuda_tile::input_rows_aligned(in, s, sizeof(typename K::Elem), ALIGN) &&
           K::accepts(in, out, s);
  }
};

// K, except where the input's rows are BYTES apart and number fewer than a row of BYTES holds
// elements (for a dense input: fewer rows than columns).
template <class K, std::int64_t BYTES>
struct NotShortOnInPitch : K {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    const auto e = static_cast<std::int64_t>(sizeof(typename K::Elem));
    return !(s.in_pitch * e == BYTES && s.rows * e < BYTES) && K::accepts(in, out, s);
  }
};

// K, only where each input row holds MIN_IN bytes or more and the output's rows are one of BYTES
// apart.
template <class K, std::int64_t MIN_IN, std::int64_t... BYTES>
struct OnOutPitch : K {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    const auto e = static_cast<std::int64_t>(sizeof(typename K::Elem));
    const std::int64_t pitch = s.out_pitch * e;
    return ((pitch == BYTES) || ...) && s.cols * e >= MIN_IN && K::accepts(in, out, s);
  }
};

#if XPOSE_HAVE_TMA
// Hopper's bulk tensor copies (tma.cuh): only where the device and the build have sm_90 and the
// layout is 16-byte aligned; launch() is not used (run_tma decides and launches in one step).
template <class C, bool TmaStore = true>
bool run_tma(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
  return cuda_tile::tma_accepts<C, TmaStore>(in, out, s) &&
         cuda_tile::launch_tma<C, TmaStore>(in, out, s, st);
}
#endif

// The TMA-load kernel of tma.cuh (TMA loads, plain 16-byte stores) with S-byte elements, a tile
// of KC x KR 128-byte boxes and NT threads, where the TMA unit takes the layout (bases and pitches
// on 16 bytes, an sm_90 image and device, the driver's tensor-map encoder) and, with
// HIGH_BANDWIDTH, the device's DRAM gives cuda_detail::kHighBandwidth bytes per SM clock or more
// (an H200: HighBandwidthTma). FALLBACK runs where a tensor map cannot be encoded; builds without
// TMA (CUDA 11) never take it. One dispatch entry whatever the build, so the entries keep their
// positions. The checks go from cheap to dear: the layout (no device query, so a misaligned
// buffer is refused without one: CudaKernelArguments on a machine without a usable GPU), the
// bandwidth (cached per device), the kernel image (a lookup under a lock).
template <int S, int KC, int KR, int NT, class FALLBACK, bool HIGH_BANDWIDTH = false>
struct TmaLoad {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
#if XPOSE_HAVE_TMA
    using C = cuda_tile::TmaConfig<S, KC, KR, NT>;
    return cuda_tile::tma_layout_fits<C, false>(in, out, s) &&
           (!HIGH_BANDWIDTH || cuda_detail::high_bandwidth_device()) &&
           cuda_tile::tma_runs_here<C, false>();
#else
    (void)in, (void)out, (void)s;
    return false;
#endif
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
#if XPOSE_HAVE_TMA
    if (cuda_tile::launch_tma<cuda_tile::TmaConfig<S, KC, KR, NT>, false>(in, out, s, st)) return;
#endif
    FALLBACK::launch(in, out, s, st);
  }
};
template <int S, int KC, int KR, int NT, class FALLBACK>
using HighBandwidthTma = TmaLoad<S, KC, KR, NT, FALLBACK, true>;

// A dispatch entry that takes nothing (holds a position in a list).
struct Never {
  static bool accepts(const void*, const void*, const TransposeShape&) { return false; }
  static void launch(const void*, void*, const TransposeShape&, cudaStream_t) {}
};

using cuda_dispatch::KernelList;
using cuda_dispatch::list_size;

// The first kernel that accepts the layout runs.
template <class K, class... Rest>
void dispatch(const void* in, void* out, std::size_t elem_size, const TransposeShape& s,
              cudaStream_t stream) {
  if (K::accepts(in, out, s)) {
    K::launch(in, out, s, stream);
  } else if constexpr (sizeof...(Rest) > 0) {
    dispatch<Rest...>(in, out, elem_size, s, stream);
  } else {
    throw DimensionMismatch(cat("transpose_cuda: buffers must be aligned to the element size (",
                                elem_size, " bytes); got ", in, " and ", out));
  }
}
template <class... K>
void dispatch(KernelList<K...>, const void* in, void* out, std::size_t elem_size,
              const TransposeShape& s, cudaStream_t stream) {
  dispatch<K...>(in, out, elem_size, s, stream);
}

// A list as one kernel: the first of its kernels that accepts the layout (bench candidates,
// F64SmallAny).
template <class L>
struct FirstOf;
template <class... K>
struct FirstOf<KernelList<K...>> {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return (K::accepts(in, out, s) || ...);
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    dispatch<K...>(in, out, 0, s, st);
  }
};

// The position in the list of the kernel that dispatch runs; -1 where none accepts.
template <class K, class... Rest>
int choose(const void* in, const void* out, const TransposeShape& s, int i = 0) {
  if (K::accepts(in, out, s)) return i;
  if constexpr (sizeof...(Rest) > 0) return choose<Rest...>(in, out, s, i + 1);
  return -1;
}
template <class... K>
int choose(KernelList<K...>, const void* in, const void* out, const TransposeShape& s) {
  return choose<K...>(in, out, s);
}

// The library's kernels per element size (NOTES.md has the measurements behind them).
using U8Tile = TileConfig<1, 16, 8, 8, 64>;
using U8Skew = SkewConfig<1, 16, 128, 64, 256, 32>;
using U16Tile = TileConfig<2, 16, 8, 8, 64>;
using U16Skew = SkewConfig<2, 16, 64, 64, 256, 32>;
using F32Tile = TileConfig<4, 8, 32, 32, 256>;
// 256-byte L2 fetches on the skewed f32 loads (run 11: x memcpy 0.909 -> 0.928 at 16411²).
using F32Skew = SkewConfig<4, 16, 64, 64, 256, 32, 4, cuda_tile::kFetch256>;
// F32Skew without the 256-byte fetch hint (skew-64x64w16-b4).
using F32SkewPlain = SkewConfig<4, 16, 64, 64, 256, 32, 4>;
// Where f32 output rows are on 32 bytes but off 256, the tiled kernel (row-major) catches up with
// the skewed one as the input grows taller and passes it from 200000 rows on (run 21, calls
// 9-10, x memcpy skewed / tiled: 16400x16384 0.956 / 0.927, 60008x16384 0.929 / 0.921,
// 130008x8192 0.922 / 0.931, 200008x5000 0.891 / 0.921).
// The skewed fallbacks run column by column (run 10, NOTES.md: at 16411^2 x memcpy f32 0.901 ->
// 0.909, f64 0.920 -> 0.932, c128 0.920 -> 0.931, the last with 32 x 32 blocks).
constexpr int kSkewOrder = cuda_tile::kColumnMajor;
using F64Tile = TileConfig<8, 8, 32, 64, 256, 3>;
// 32 x 32 f64 tiles of 16-byte words, one word a thread: on high-bandwidth devices (an H200) on
// 256-byte rows (run 37, NOTES.md calls 2-3; x memcpy, 32 x 64 tiles / these, H200, held
// out: 3072² 0.910 / 0.953, 6144² 0.916 / 0.953, 10240² 0.909 / 0.943, 20480² 0.908 / 0.939,
// 12288x24576 0.898 / 0.933, 24576x12288 0.908 / 0.940, 40960x8192 0.905 / 0.944, 8192x40960
// 0.909 / 0.932, four of 4096² 0.929 / 0.967; 16384² level, 0.891 / 0.892), and on small
// matrices on every device (F64Small).
using F64TileW16 = TileConfig<8, 16, 16, 16, 256>;
using F64Skew = SkewConfig<8, 16, 32, 64, 256, 32, 4>;
using C128Tile = TileConfig<16, 16, 16, 16, 256>;
// Where the DRAM gives 15 bytes or more per SM clock (an H200's 18.4 against an H100's 12.8),
// c128's tiles go with 128 threads, two 16-byte loads each in flight instead of one (run 29 call
// 7, H200, x memcpy 256 / 128 threads: 16384² 0.880 / 0.924, 32768² 0.882 / 0.934, 20000x30000
// 0.886 / 0.939; on H100s 128 threads were 0.5 % behind, run 10).
// The same 16 x 16 tiles with 128 threads take small matrices off 256-byte rows on every device
// (C128Small, run 37).
using C128TileT128 = TileConfig<16, 16, 16, 16, 128>;
using C128Skew = SkewConfig<16, 16, 32, 32, 256, 32, 4>;  // skew-32x32-b4-cm (run 10)
// 1- and 2-byte elements where output rows are off 32-byte sectors: 128 x 128 tiles, one element
// an access, both sides' rows rotated onto 128-byte lines, 512 threads, 3 blocks an SM,
// column-major (run 19, x memcpy against the skewed kernel: u8 16400² / 16392² / 16411² 0.538 /
// 0.539 / 0.533 against 0.348 / 0.258 / 0.363; u16 16392² / 16411² 0.873 / 0.850 against 0.464 /
// 0.482). Where output rows are on sectors the tiled kernel stays (u8 16416² 0.664 against 0.534,
// u16 20000x30000 0.870 against 0.865). Since runs 20-22 the narrow kernels below take every u8 /
// u16 layout; u16's rotated kernel stays as the fallback where their blocks' shared memory does
// not fit (devices before sm_70).
using U8Rotated = Rotated<std::uint8_t, 128, 512, 3, kSkewOrder, 0>;
using U16Rotated = Rotated<std::uint16_t, 128, 512, 3, kSkewOrder, 0>;
// Since run 20 (NOTES.md, calls 1-3, x memcpy against the kernels above), the narrow kernel:
// u8 128 x 128 tiles, 256 threads, 4 blocks an SM, column-major, wherever output rows are off
// 256 bytes (n = 16400 / 16416 / 16392 / 16386 / 16411, 20000x30000: 0.821 / 0.798 / 0.825 /
// 0.755 / 0.708 / 0.784 against 0.537 / 0.666 / 0.538 / 0.537 / 0.533 / 0.746; on 256-byte rows
// the tiled kernel stays, 0.906 against 0.839). u16 128 x 128 tiles, 512 threads, 2 blocks an SM,
// column-major, where both matrices' rows are on 16 bytes (n = 16384 / 16400 / 16416 / 16392,
// 20000x30000: 0.961 / 0.927 / 0.918 / 0.912 / 0.907 against 0.922 / 0.861 / 0.850 / 0.874 /
// 0.869); at n = 16386 and 16411 (rows on 4 and 2 bytes) it ran 0.78-0.79 and 0.74-0.76 on two
// H100s (0.89 / 0.86 on a third), under the rotated kernel's 0.86 / 0.85, which stays there.
// u8 where both matrices' rows are on 16 bytes, run 20 call 5: 256 x 256 tiles (256-byte pieces
// as u16's), 512 threads, 2 blocks an SM, column-major: n = 16384 / 16400 / 16416, 20000x30000
// 0.925-0.931 / 0.889-0.892 / 0.900-0.901 / 0.896-0.897 against the kernels above' 0.907 /
// 0.816 / 0.796 / 0.782, but 0.65-0.75 where rows are off 16 bytes (n = 16392 / 16386 /
// 16411), as u16's 256-byte pieces; its 66 KiB of shared memory a block: sm_70 and newer.
// u8 where rows are off 4 bytes, run 20 call 10: the 256 x 256 tiles with the row words
// rotated onto 128-byte lines (`-rot`): n = 16386 / 16411 0.771-0.775 / 0.747-0.748 against the
// 128 tiles' 0.754-0.755 / 0.708-0.710 (at 16392, rows on 4 bytes, equal: 0.827-0.828 against
// 0.824-0.826; on 16-byte rows 8 % under the unrotated 256 tiles).
// Run 21 (NOTES.md, calls 1-3): where the output rows are on 16 bytes and the input rows are
// not, the narrow kernel beats the rotated one (and, for u8, the 128 tiles) on every shape
// measured, with column sweeps capped at 32000 rows past them (x memcpy, new against old: u16
// 16384x16411 0.920 / 0.883, 60000x16411 0.885 / 0.832, 100000x5003 0.876 / 0.802; u8 0.876 /
// 0.808, 0.859 / 0.786, 0.751 / 0.672, 16384x16392 0.899 / 0.814). Where both matrices' rows are
// on 16 bytes, column-major stays: 1-1.5 % ahead of the sweeps at 32768² and 65536x16384.
using U8Narrow = Narrow<std::uint8_t, 128, 256, 4, kSkewOrder>;
using U8Narrow256 = Narrow<std::uint8_t, 256, 512, 2, kSkewOrder>;
using U8Narrow256Rot = Narrow<std::uint8_t, 256, 512, 2, kSkewOrder, true>;
using U16Narrow = Narrow<std::uint16_t, 128, 512, 2, kSkewOrder>;
// Run 23 (NOTES.md, call 1): the narrow kernel's edge tiles on guarded words instead of element
// by element (U8Narrow256, U16Narrow above). x memcpy, new / old, where output rows are on 16
// bytes and input rows are not: u8 16384x12003 0.850 / 0.657, 16384x9001 0.848 / 0.822,
// 65536x1001 0.746 / 0.383 (the narrow skewed kernel still takes the u8 inputs with 4 % or more
// partial tiles: 30000x3001 0.850 against 0.829); u16 200000x1001 0.860 / 0.705, 65536x1001
// 0.864 / 0.687, 30000x3001 0.915 / 0.877, whole tiles level (16384² 0.958 / 0.959). Where both
// matrices' rows are on 16 bytes, u8's kernel with the new edges ran 1.1-1.8 % slower on whole
// tiles (16384² 0.917 / 0.927, 65536x16384, 16400² 0.880 / 0.896), so that class keeps the
// element edges (U8Narrow256Elem), but since run 24 only where no tile is partial (WholeTiles):
// with partial tiles the narrow skewed kernel is far ahead there (run 24 call 1, x memcpy,
// element edges / guarded edges / narrow skewed kernel, column-major: 16400x5008 0.598 / 0.854 /
// 0.871, 200000x1008 0.400 / 0.794 / 0.781, 30000x3008 0.530 / 0.845 / 0.874, 16384x12000 0.644
// / 0.856 / 0.868, 16400² 0.886 / 0.884 / 0.910; whole tiles 16384² 0.926 / 0.916 / 0.920,
// 32768² 0.951 / 0.941 / 0.953, 65536x16384 0.941 / 0.929 / 0.946). The edge path as a call
// (-calledge, run 23) ran 0.62-0.72 on every one of these shapes, whole tiles too, and is gone.
using U8Narrow256Elem = Narrow<std::uint8_t, 256, 512, 2, kSkewOrder, false, NarrowEdge::kElements>;
// Run 22 (NOTES.md, calls 1-6, x memcpy, new against old): the narrow skewed kernel
// (narrow_skew.cuh), output pieces on 32-byte sectors, in column sweeps capped at 32000 rows.
// u8: 256 x 256 tiles, 512 threads, 2 blocks an SM, three row groups a warp a batch, wherever the
// output rows are off 16 bytes: 16411² 0.878 / 0.749, 24001² 0.874 / 0.660, 60003x16411 0.855 /
// 0.634, 5003x100001 0.875 / 0.607, 16411x45001 0.879 / 0.705, 16386² 0.892 / 0.772, 16392²
// (rows on 8 bytes) 0.906 / 0.821. Where output rows are on 16 bytes the narrow kernel stays
// (call 4, this form in sweeps against it: 16384x16411 0.863 / 0.873, 16384x16392 0.890 / 0.900,
// 60000x16411 0.854 / 0.856, 100000x5003 0.833 / 0.750; both rows on 16 bytes, one shape
// measured: 16400² 0.912 / 0.892), but only where fewer than 4 % of its tiles are partial: it
// moves those element by element, and above that share this kernel is far ahead (calls 8-9, new
// / old: 200000x1001 0.809 / 0.401, 16384x5003 0.805 / 0.595, 30000x3001 0.855 / 0.544,
// 65536x1001 0.732 / 0.384). u16: 128 x 256 tiles (512-byte input pieces), 512 threads, 2
// blocks an SM, three row groups a warp a batch, wherever output rows are off 16 bytes (call 5,
// against the rotated kernel): 16411² 0.919 / 0.849, 16386² 0.921 / 0.859, 5003x100001 0.927 /
// 0.866, 16411x45001 0.916 / 0.839, 24001² 0.897 / 0.778, 60003x16411 0.857 / 0.678 (column-major);
// 6-9 % ahead of calls 2-4's 128 x 128 form, which had been taken from 20000 rows only. In
// sweeps (call 6) 0.853-0.873 at 45001-100003 rows, 0.8-2.3 % ahead of column-major. Where
// output rows are on 16 bytes the narrow kernel stays (call 6: level up to 16411 rows, 2.1-2.4 %
// ahead at 60000x16411 and 100000x5003).
using U8NarrowSkew = NarrowSkewed<NarrowSkewConfig<std::uint8_t, 256, 256, 512, 2, 3>, kSkewOrder>;
using U16NarrowSkew =
    NarrowSkewed<NarrowSkewConfig<std::uint16_t, 128, 256, 512, 2, 3>, kSkewOrder>;

// Thin matrices (run 26, NOTES.md, calls 3-5): where a side is shorter than the tiles, the tiled
// and skewed kernels' tiles are mostly empty (x memcpy at 512 MiB, short side m = 8 / 16 / 32,
// input m x len, then len x m: u8 0.023 / 0.046 / 0.090, 0.038 / 0.075 / 0.145; u16 0.074 /
// 0.145 / 0.270, 0.088 / 0.170 / 0.311; f32 0.229 / 0.427 / 0.725, 0.061 / 0.115 / 0.218; f64
// 0.491 / 0.812 / 0.983, 0.108 / 0.205 / 0.373; c128 0.580 / 0.960 / 0.967, 0.710 / 0.996 /
// 0.993). The thin kernel (thin.cuh) takes the whole short side in one block: 0.57 / 0.60 /
// 0.55, 0.50 / 0.56 / 0.58 (u8); 0.70 / 0.73 / 0.65, 0.71 / 0.76 / 0.73 (u16); 0.75 / 0.77 /
// 0.69, 0.83 / 0.85 / 0.88 (f32); 0.94 / 0.96 / 0.92, 0.91 / 0.95 / 0.97 (f64); 0.97 / 0.98 /
// 0.98, 0.88 / 0.95 / 0.97 (c128). It runs up to the largest m measured (8, 16, 32, 48, 64,
// 68, 96, 128, 131, 192, 256) at and below which it was ahead at every m, per orientation:
// u8 131 rows / 128 columns, u16 96 / 96, f32 16 / 48, f64 16 / 48, c128 64 / 8. Past those the
// tiled kernels win at their tile multiples (f32 64 x len 0.982 against 0.689).
// Run 27 (NOTES.md, calls 1-3): past those limits the tiled kernels are good at whole tiles and
// poor just past them, so thin takes ranges of short sides, by rules written before each call
// (bench/results/2026-11-27-run27/rules/ranges.py applies them to every measured m). Round 1
// (call 1): each run of measured m where thin was ahead by 3 % or more became a range. Call 2's
// held-out m removed three (thin more than 3 % behind the kernels after it where the long side
// changed alignment: u16 98-100 rows with rows off 4 bytes 0.445 / 0.581, u16 136 rows 0.380 /
// 0.618, u8 x136 columns 0.451 / 0.508) and showed extensions, taken in round 2 where they join a
// range (no new single points for u8 / u16, whose kernels swing with the long side's alignment).
// x memcpy, thin / the kernels after it, at points inside: u8 133 / 138 rows 0.418 / 0.326,
// 0.584 / 0.346, 236 / 244 rows 0.558 / 0.292, 0.439 / 0.293; u16 x104 / x116 columns 0.732 /
// 0.494, 0.735 / 0.534; f32 18 / 26 / 31 rows 0.758 / 0.371, 0.739 / 0.510, 0.700 / 0.585, 34
// rows 0.748 / 0.627, 66 / 70 / 74 rows 0.741 / 0.602, 0.735 / 0.627, 0.742 / 0.655, x66 / x74
// columns 0.791 / 0.569, 0.767 / 0.624, x240 0.827 / 0.712; f64 22 rows 0.928 / 0.883, 36 / 42
// rows 0.918 / 0.827, 0.920 / 0.848, 31 / 66 rows 0.901 / 0.703, 0.948 / 0.880, x66 / x76 columns
// 0.936 / 0.716, 0.838 / 0.794, x200 0.916 / 0.861; c128 128 rows 0.979 / 0.949, x18 0.919 / 0.854,
// x36 / x42 0.905 / 0.808, 0.901 / 0.860, x98 / x100 0.907 / 0.866, 0.924 / 0.876. Between and past
// the ranges the tiled kernels lead (f32 32 rows 0.691 / 0.724, 40 rows 0.748 / 0.804; f64 32 rows
// 0.916 / 0.984).
// Calls 3-4 (u16 short rows off 4 bytes, thin with shifted words / the kernels after it): m =
// 24, 32, 40, 48 0.486 / 0.206, 0.485 / 0.264, 0.452 / 0.319, 0.455 / 0.370; 52, 56, 60 0.456 /
// 0.370, 0.456 / 0.421, 0.457 / 0.418; 64, 72, 80, 88, 96 0.454 / 0.484, 0.442 / 0.509, 0.443 /
// 0.539, 0.446 / 0.588, 0.447 / 0.624; so there run 27 had u16 thin take at most 60 rows.
// Round 3 (run 28, bench/results/2026-11-27-run28/rules/ranges.py): the same rule on every
// point of run 26 call 5, run 27 and run 28 call 1, with u8 / u16 split by whether the wide
// matrix's rows are on 4 bytes (the two kernels swing with it), run 27's ranges kept as a floor
// where no point of the class refutes them, single points only for 4- to 16-byte elements.
// x memcpy, thin / the kernels after it, at points run 28 call 1 added: u8 rows on 4 bytes 140 /
// 176 / 230 / 248 0.601 / 0.352, 0.583 / 0.429, 0.561 / 0.280, 0.524 / 0.314, x140 / x150
// 0.562 / 0.520, 0.566 / 0.527; off them 139 / 150 / 250 rows 0.422 / 0.338, 0.424 / 0.361,
// 0.439 / 0.300; u16 on 4 bytes 106 / 124 / 150 rows 0.682 / 0.632, 0.678 / 0.424, 0.715 / 0.496,
// x150 / x176 0.741 / 0.702, 0.756 / 0.686; off them 63 rows 0.461 / 0.434, x117 / x125 0.574 /
// 0.528, 0.684 / 0.556; f32 37 / 38 / 77 / 78 rows 0.743 / 0.666, 0.750 / 0.684, 0.740 / 0.675,
// 0.718 / 0.673, x76-x81 0.779-0.831 / 0.641-0.713; f64 25 / 30 / 45 / 47 rows 0.926 / 0.877,
// 0.904 / 0.770, 0.922 / 0.833, 0.924 / 0.861, 65 / 69 / 71 rows 0.904 / 0.841, 0.915 / 0.865,
// 0.905 / 0.876, x83 / x85 0.889 / 0.832, 0.872 / 0.832; c128 x10 / x12 / x14 0.946 / 0.569,
// 0.949 / 0.696, 0.967 / 0.749, x105 0.928 / 0.880. Held out (call 2, 384 MiB): c128 x104 0.830 /
// 0.896, so c128 columns stay 98-100 (run 27's range). Call 4 (u8 / u16 with the kernel as
// shipped, 384 MiB): u16 112 rows on 4 bytes 0.661 / 0.715, so u16 rows on 4 bytes 1-96 again
// (run 27's); every other held-out point inside a range passed (56 of 57 u8 / u16 points).
// Round 4 (run 28 calls 10-11), the block kernels only (u8 / u16 with m a multiple of 4 / S,
// both matrices in words, the wide rows on 4 bytes): set-A runs of m where thin led by 3 % became
// ranges, kept where set-B points (other long sides) inside were at most 3 % behind. x memcpy,
// thin / the kernels after it: u16 rows 98 / 104 0.760 / 0.615, 0.738 / 0.672, 152 / 160 0.738 /
// 0.665, 0.746 / 0.687 (B: 100 0.731 / 0.600, 156 0.735 / 0.514); u8 x160 0.675 / 0.574 (B 0.565 /
// 0.575, 0.875 / 0.573), x200 0.807 / 0.662 (B 0.667 / 0.665, 0.657 / 0.663), 252 rows 0.647 /
// 0.319 (B 0.643 / 0.320, 0.651 / 0.317). Dropped on set B: u8 x176-x184 and x240-x248 (thin
// 0.55-0.88 by long side, against 0.61-0.75).
struct U8ThinRanges : ThinAll {
  static constexpr ThinRange kRows[] = {{1, 248}};
  static constexpr ThinRange kCols[] = {{1, 150}};
  static constexpr ThinRange kRowsOff4[] = {{1, 150}, {230, 250}};
  static constexpr ThinRange kColsOff4[] = {{1, 128}};
  static constexpr ThinRange kRowsBlocks[] = {{252, 252}};
  static constexpr ThinRange kColsBlocks[] = {{160, 160}, {200, 200}};
};
struct U16ThinRanges : ThinAll {
  static constexpr ThinRange kRows[] = {{1, 96}, {124, 127}, {130, 150}};
  static constexpr ThinRange kCols[] = {{1, 118}, {138, 176}};
  static constexpr ThinRange kRowsOff4[] = {{1, 63}, {115, 117}};
  static constexpr ThinRange kColsOff4[] = {{1, 125}};
  static constexpr ThinRange kRowsBlocks[] = {{98, 104}, {152, 160}};
};
struct F32ThinRanges : ThinAll {
  static constexpr ThinRange kRows[] = {{1, 31}, {33, 38}, {63, 63}, {65, 78}, {81, 81}};
  static constexpr ThinRange kCols[] = {{1, 48}, {65, 81}, {240, 240}};
};
struct F64ThinRanges : ThinAll {
  static constexpr ThinRange kRows[] = {{1, 25}, {30, 31}, {33, 47}, {65, 71}};
  static constexpr ThinRange kCols[] = {{1, 48}, {65, 85}, {200, 200}};
};
struct C128ThinRanges : ThinAll {
  static constexpr ThinRange kRows[] = {{1, 64}, {128, 128}};
  static constexpr ThinRange kCols[] = {{1, 14}, {17, 20}, {33, 43}, {98, 100}};
};
// Records (run 29, NOTES.md; records.cuh): u8 / u16 with a short side of at most 16, the tall
// matrix dense on 4 bytes and the wide rows on 4 bytes, ahead of the thin kernel. Set by the rule
// written before call 1 (a lead of 3 % or more in both set-A rounds, 512 MiB, and not more than
// 1 % behind at set B, 384 MiB, other long sides), applied to call 4 (H200), x memcpy, thin /
// records: short rows at every m (u8 0.42-0.64 / 0.76-0.96, u16 0.51-0.63 / 0.74-0.94); short
// columns at every m where every wide row is on a 32-byte sector (u8 0.41-0.78 / 0.82-0.90, u16
// 0.60-0.70 / 0.85-0.92) and off them (u8 0.41-0.78 / 0.76-0.89, u16 0.60-0.69 / 0.78-0.89) except
// u8 m = 12 (0.771 / 0.791 on set A, +2.6 %) and 16 (set B 0.751 / 0.753). On sectors the form
// is the one that led there on set A (call 4, whole lines / call 1's pieces): lines for u8 m = 2,
// 4, 7, 8, 9 (u8 m = 2 0.903 / 0.860) and u16 m = 2, 4, 8; pieces elsewhere (u8 m = 1 0.780 /
// 0.862, m = 16 0.825 / 0.868); the m not measured on sectors (u8 3, 6, 10-12, 14; u16 6, 10, 14)
// take the pieces. Off sectors always lines (the pieces 0.54-0.69 there).
constexpr bool records_lines_on_sectors(int elem, std::int64_t m) {
  return elem == 1 ? (m == 2 || m == 4 || m == 7 || m == 8 || m == 9)
                   : (m == 2 || m == 4 || m == 8);
}
template <int S>
struct RecordsDispatch {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    if (!cuda_tile::records_accepts<S>(in, out, s)) return false;
    if (s.rows <= s.cols) return true;
    return cuda_tile::output_rows_aligned(out, s, S, 32) ||
           !(S == 1 && (s.cols == 12 || s.cols == 16));
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    const bool lines = s.rows <= s.cols || !cuda_tile::output_rows_aligned(out, s, S, 32) ||
                       records_lines_on_sectors(S, s.cols);
    if (lines)
      cuda_tile::launch_records<S, true>(in, out, s, st);
    else
      cuda_tile::launch_records<S, false>(in, out, s, st);
  }
};

// Narrow kernel N in its own order L (its sweeps, Swept<N>, or N's column order), except where
// the output rows fall on one stack (pitch_on_one_stack) and the input has more than kSweepRows
// rows: there in sweeps dealt over kSpreadRuns runs (run 32, kernels/NOTES.md; x memcpy, old /
// spread: u8 narrow skewed kernel 327680x2049 0.742 / 0.806, 327680x3000 0.777 / 0.856,
// 655360x1001 0.761 / 0.812; u8 256-tile kernel on whole tiles, column order, 327680x4096 0.906
// / 0.933; u16 narrow kernel 163840x2049 0.794 / 0.863, 327680x1001 0.794 / 0.861, 163840x3000
// 0.838 / 0.872; u8 256-tile kernel on mostly whole tiles, its sweeps, 327680x6500 0.767 / 0.852,
// 327680x9999 0.762 / 0.847, 655360x7001 0.759 / 0.841). Off one stack the spread loses 1.5-5 % (u8
// 327000x2049 0.812 / 0.800, u16 163000x2049 0.841 / 0.801).
template <class N>
using SpreadSweeps = SpreadGroups<N, kSpreadRuns, kSweepRows, kSweepRows>;
template <class N, class L = Swept<N>>
struct SpreadOnOneStack : L {
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    if (s.rows > kSweepRows && pitch_on_one_stack(s.out_pitch * sizeof(typename N::Elem)))
      SpreadSweeps<N>::launch(in, out, s, st);
    else
      L::launch(in, out, s, st);
  }
};

// SMALL where BIG, the entry after it, takes the layout but has fewer than MIN_HUNDREDTHS / 100
// tiles an SM over the batch (small matrices: run 35, NOTES.md calls 5-7). u8's narrow skewed
// kernel's 256 x 256 tiles leave most of the device idle there, and the 128 x 128 narrow
// kernel's four times as many blocks run faster. Out of place GB/s on an H100 (132 SMs), skewed
// / 128-tile narrow kernel, call 5: u8 500² 36 / 60, 1000² 140 / 246, 1500² 320 / 533, 3001²
// 858 / 1163 (1.1 tiles an SM), four of 700² 274 / 460; x memcpy by tiles an SM, call 6: 4001²
// (1.9) 0.533 / 0.564, 5003² (3.0) 0.69 / 0.72, 6007² (4.4) 0.80 / 0.72, 16411² 0.876 / 0.730.
// u8 takes it under 1.5 tiles an SM; held out (call 7, three rounds, GB/s): 1200² 382 / 206,
// 1800² 828 / 464, 2500² 1070 / 883, 3300² 1412 / 1014, 3500² (1.48) 1673 / 1166, 2200x3300
// 1182 / 1037, 1100x6000 1056 / 926, 6000x1100 1102 / 929, 2400² 1111 / 806, three of 1500²
// 1137 / 947, five of 900² 873 / 569. u16 takes it under 1.5 of its 128 x 256 tiles an SM (run
// 36; run 35's 3 was level at 6001x1101, 1.78 an SM, and run 36 found 3401², 2.86, level too):
// held out (call 3, five rounds, GB/s, default / skewed) 1401² 853 / 617, 1901² 1287 / 1186,
// 2201² 1499 / 1162, 1201x3601 1347 / 1133, 3601x1201 1386 / 1026, 2501x2201 1642 / 1313, two
// of 1601² 1557 / 1235, three of 1201² 1342 / 1023, and call 2's 1501x3301, 3301x1501,
// 1201x4801, 4801x1201, 2101x2801, 2401² (+26 to +34 %).
// The tiny entries before it (U8Tiny, U16Tiny; run 36 call 3, GB/s, default / the old list's
// kernel): u8 550² 113 / 74, 750² 180 / 120, 1010² 280 / 213, 600x1500 257 / 214, 300x3000 254
// / 228, 3000x300 246 / 227, 1000x700 208 / 162, two of 650² 241 / 216, four of 400² 192 / 173;
// off both multiples of 128 only: at 896², 1024x900, 1024² and 2048x512 the 128-tile kernel tied
// or led (calls 1-2). u16 (old: the skewed kernel) 651² 282 / 141, 901² 482 / 264, 301x2501 439 /
// 245, 2501x301 428 / 254, two of 501² 315 / 160, and call 2's eleven shapes (1.6-2.0 x).
template <class SMALL, class BIG, int MIN_HUNDREDTHS>
struct FewTiles : SMALL {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    if (!BIG::accepts(in, out, s) || !SMALL::accepts(in, out, s)) return false;
    return cuda_detail::under_per_sm(tiles_over_batch(s, BIG::tile_rows(), BIG::tile_cols()),
                                     MIN_HUNDREDTHS);
  }
};

// One 32 x 32 tile a block of 256 threads, output rows on any byte: u8 / u16 under about half
// a 128 x 128 narrow tile an SM (FewTiles<PartialBothWays<U8Tiny, 128>, U8Narrow, 60>,
// FewTiles<U16Tiny, U16Narrow, 50> after u16's 16-byte-row entries; run 36, NOTES.md; the
// figures are FewTiles').
using U8Tiny = Tiled<Tile32<1>, 1>;
using U16Tiny = Tiled<Tile32<2>, 1>;

// K (S-byte elements), only where the output rows are not a one-stack pitch apart
// (pitch_on_one_stack): the narrow kernels' spread sweeps keep those (SpreadOnOneStack).
template <class K, int S>
struct OutOffOneStack : K {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return !pitch_on_one_stack(s.out_pitch * S) && K::accepts(in, out, s);
  }
};

using U8Thin = Thin<1, U8ThinRanges>;
using U16Thin = Thin<2, U16ThinRanges>;
using F32Thin = Thin<4, F32ThinRanges>;
using F64Thin = Thin<8, F64ThinRanges>;
using C128Thin = Thin<16, C128ThinRanges>;

// K in front of the list L.
template <class K, class L>
struct Prepend;
template <class K, class... R>
struct Prepend<K, KernelList<R...>> {
  using type = KernelList<K, R...>;
};

// The dispatch, per element size: the first kernel of the list that accepts the layout runs.
// The *Tiles lists are the kernels after the thin one (the bench's candidate "nothin"); u8 and
// u16 put the records kernels first.
using U8SkewOn16 = RowsOn<SpreadOnOneStack<U8NarrowSkew>, 16>;
using U8SkewAny = SpreadOnOneStack<U8NarrowSkew>;
// u8 on whole 256 x 256 tiles with rows on 16 bytes: the 256-tile narrow kernel (U8Whole), and
// before it the tiled kernel (16-byte words, 128 x 128 tiles) where U8Whole would have under 2.5
// tiles an SM over the batch, off one-stack output pitches (run 36, NOTES.md calls 4-5). GB/s,
// tiled / U8Whole, call 4: 512² 98 / 66, 1024² 383 / 262, 2048² 1331 / 971, 3072² 2030 / 1493,
// 4096² (1.94 tiles an SM) 2865 / 2596, 5120² (3.0) 2117 / 1992, 8192² (7.8) 2424 / 2397; held
// out (call 5, five rounds): 2304² 1565 / 1281, 2816² 2174 / 1783, 3328² 2347 / 1766, 3840²
// 2801 / 2339, 4352² 2466 / 2133, 4608² (2.45) 2194 / 2062, 1536x4096 1804 / 1438, 4608x512 776
// / 552, two of 3072² 2458 / 2129, five of 1024² 1638 / 1275; past 2.5 level (4864², 5632²,
// 7168², 10240²: 0.999-1.000).
using U8Whole = RowsOn<WholeTiles<SpreadOnOneStack<U8Narrow256Elem, U8Narrow256Elem>>, 16>;
using U8Tiles = KernelList<FewTiles<PartialBothWays<U8Tiny, 128>, U8Narrow, 60>,
                           FewTiles<OutOffOneStack<Tiled<U8Tile, 256>, 1>, U8Whole, 250>, U8Whole,
                           FewTiles<U8Narrow, U8SkewOn16, 150>, U8SkewOn16, Tiled<U8Tile, 256>,
                           OutRowsOn<MostlyWhole<SpreadOnOneStack<U8Narrow256>, 4>, 16>,
                           FewTiles<U8Narrow, U8SkewAny, 150>, U8SkewAny, U8Narrow>;
using U16SkewSwept = Swept<U16NarrowSkew>;
// Since run 44 (NOTES.md calls 10-13), on high-bandwidth devices where the rows of both matrices
// start on 256-byte boundaries: the word kernel, as u16 ran before run 20, in 128 x 128 tiles of
// 16-byte words with 256 threads (f32's word kernel's geometry). GB/s on an H200, call 10, two
// rounds, the narrow kernel / the 64 x 64 word kernel (64 threads): 16384² 3426-3428 / 3699-3701,
// 8192² 3216-3221 / 3578-3589, 12288x20480 3426-3429 / 3689-3693, 32768² 3468-3470 / 3655-3657;
// held out (call 11): 4096² 2659-2666 / 3366-3371, 10240² 3328-3331 / 3643-3647, 40960x8192
// 3434-3436 / 3668-3669, three of 4096x2048 2880-2884 / 3453-3458 (+12.7 % over eight shapes).
// The 128 x 128 tiles from 16 of them an SM over the batch, the 64 x 64 tiles below. Calls
// 11-12, the 64 x 64 / 128 x 128 word kernels, by 128 x 128 tiles an SM: 8192² (31) 3583-3587 /
// 3765-3766, 16384² 3698-3699 / 3979-3980, 32768² 3656 / 4001, 12288² (70) 3655-3659 / 3882-3895,
// 14336x10240 3665-3678 / 3895-3904, 28672² 3683 / 4001, 49152x4096 3716-3718 / 3919-3923; 5120²
// (12.1) 3366-3393 / 3388-3406; behind under 5: 3072² (4.4) 3715-3787 / 3323-3375, 2048²
// 2745-2796 / 2557-2621, four of 2048x1024 3883-3912 / 3597-3628. Held out (call 13, the 64 x
// 64 tiles / this rule): 6144² (17.5) 3487-3529 / 3588-3618, 7168² 3530-3550 / 3666-3684,
// 10240² 3657-3659 / 3861-3872, 20480x12288 3689-3692 / 3963-3967, 24576x8192 3699-3705 /
// 3947-3950, four of 4096² 3726-3733 / 3781-3810 (+4.6 %).
using U16Words128 = TileConfig<2, 16, 16, 16, 256>;
using U16WordsOn256 = PreferInTileWindow<RowsOn<Tiled<U16Words128>, 256>,
                                         RowsOn<Tiled<U16Tile>, 256>, 128, 128, 1600, kNoTileLimit>;
using U16NarrowOn16 = RowsOn<PreferOnHighBandwidth<U16WordsOn256, U16Narrow>, 16>;
using U16Tiles =
    KernelList<U16NarrowOn16, OutRowsOn<SpreadOnOneStack<U16Narrow>, 16>,
               FewTiles<U16Tiny, U16Narrow, 50>, FewTiles<U16Narrow, U16SkewSwept, 150>,
               U16SkewSwept, U16Rotated, Skewed<U16Skew>>;
using F32SkewOrder = SkewGroups<F32Skew, 64, F32SkewPlain>;
using F64SkewOrder = SkewGroups<F64Skew, 128>;
using C128SkewOrder = SkewGroups<C128Skew, 32, C128Skew, true, 10>;
// On an H200 (run 34, NOTES.md), where the skewed kernel would run and the TMA unit takes the
// layout, f32 runs `tmald-128x64` (TMA loads, plain stores). x memcpy, skewed / TMA: call 1,
// held-out shapes, two rounds alike within 0.1 %: 12000x36000 0.778 / 0.862, 16400² 0.781 /
// 0.871, 20000² 0.778 / 0.873, 24008x16008 0.779 / 0.863, 30000x20000 0.775 / 0.869 (cuBLAS
// Sgeam 0.908 / 0.858 / 0.904 / 0.841 / 0.900); call 2, fresh shapes: 10000x50000 0.784 / 0.816,
// 16388² (rows on 16 bytes only) 0.733 / 0.795, 28000x18000 0.779 / 0.878, four of 6000x7000
// 0.782 / 0.902. On rows on 256 bytes the tiled kernel stays there (`tmald-64x64` won 2.8-3.7 %
// at three shapes and lost 0.5 % at 32768x16384). f64 keeps the skewed kernel: `tma-32x64`, ahead
// by 2.8-4.3 % in call 1 (rows on 64 bytes or more), ran 0.661 / 0.676 x memcpy against 0.807 /
// 0.806 at 16386² and 28002x18000 (rows on 16 bytes) in call 2. On H100s (12.8 bytes per SM
// clock) the entry never runs.
// Since run 37 the same kernel on 256-byte rows there too (NOTES.md calls 2-3; x memcpy, tiled /
// TMA, H200, held out: 3072² 0.916 / 0.921, 6144² 0.914 / 0.931, 10240² 0.902 / 0.929, 20480²
// 0.897 / 0.928, 12288x24576 0.898 / 0.930, 24576x12288 0.904 / 0.935, 40960x8192 0.900 /
// 0.933, 8192x40960 0.899 / 0.925, four of 4096² 0.912 / 0.939, four of 2048² 0.911 / 0.919;
// call 2: 2048² 0.847 / 0.909, 32768² 0.889 / 0.912; `tmald-64x64`, as fast on large
// matrices, lost 5 % at 2048²).
// Small f32 matrices where the skewed kernel runs and the TMA unit takes the layout (rows on 16
// bytes, off 256; sm_90 only, so in practice H100s: H200s take the entry before): `tmald-64x32`
// from 2.5 to under 12 of the skewed kernel's 64 x 64 tiles an SM over the batch (run 38,
// NOTES.md calls 8-10; GB/s on an H100, four rounds of 100, median, default before / with it:
// call 8, 1200² (2.7 an SM) 1411 / 1870, 1500² 1620 / 2045, 1800² 2016 / 2668, 2200² (9.3)
// 2181 / 2575, 1000x3000 2043 / 2595, four of 1000² 2244 / 2861; held out, call 9, 1300² 1371 /
// 1785, 2000x2400 2200 / 2711, 800x4000 1983 / 2744, three of 1100² 1936 / 2538; call 10, 2100²
// 2085 / 2565, 2400² (10.9) 2129 / 2514, 2300x2600 2048 / 2316). Its first upper end, 20, failed
// call 9 at 3100² (18.2: 2274 / 2217); 2700² (14) was +3.5 %, 4000² (30) +2.2 %. At 1000² (1.9)
// rounds disagree. Sgeam: 1500² 2163, 1800² 2687, 2400² 2230.
using F32SkewSmall = PreferInTileWindow<TmaLoad<4, 1, 2, 128, F32SkewOrder>, F32SkewOrder,
                                        F32Skew::TH, F32Skew::TW, 250, 1200>;
// On high-bandwidth devices, BIG where K's launch would have from LO / 100 to under HI / 100 tiles
// of TR x TC an SM over the batch and BIG takes the layout; K elsewhere (the many-tile and
// line-aligned rules).
template <class BIG, class K, int TR, int TC, int LO, int HI = kNoTileLimit>
using PreferFromTilesOnHighBandwidth =
    PreferOnHighBandwidth<PreferInTileWindow<BIG, K, TR, TC, LO, HI>, K>;
// On high-bandwidth devices (an H200), where F32SkewSmall would run the skewed kernel there
// (rows off 16 bytes: the TMA entry before it takes the others), the line-aligned kernel
// (lines.cuh): 64 x 128 tiles, one element a lane, every warp access inside one aligned 128-byte
// line, 256 threads, 6 blocks an SM (40 registers), the read in four phases, blocks down the tile
// columns; from 1.25 of its tiles an SM over the batch, on inputs of up to kLinesColumnRows rows
// (run 39, NOTES.md calls 1-6). GB/s on H200s, skewed / this / Sgeam, calls 3-4: 16411²
// 3126-3135 / 3500-3519 / 3520-3525, 12001x20003 3128-3134 / 3517-3538 / 3558-3564, 16386²
// 3102-3109 / 3556-3574 / 3517-3520, 10007x30011 3132-3139 / 3541-3567 / 3603-3611, 8001²
// 3012-3018 / 3406-3412 / 3391, 4001² 2688-2693 / 2950-2965 / 2914-2929, 2401² 2280 /
// 2768-2793 / 2656-2668, 1201² (1.44 an SM) 1301-1311 / 1403-1414 / 1669-1681; level at 601²,
// 801², 1001² (0.4-1.0 an SM). Held out (call 5, three rounds, the list before / with the rule):
// 14001² 3127-3128 / 3514-3518, 18003² 3138 / 3509-3518, 9001x40001 3147-3149 / 3585-3588,
// 1301² 1343-1351 / 1640-1793, 2201² 2143-2155 / 2736-2777, 3501² 2577-2585 / 2875-2882,
// 5001x2003 2467-2477 / 2687-2692, 1601x3001 2105-2107 / 2780-2799, four of 1001² 2049-2061 /
// 2726-2745; 1101² (1.11 an SM) level. The same accesses with all 24 loads a thread in flight
// ran at 80 registers (3 blocks) and 2625 GB/s at 16411² (call 1). On H100s the skewed kernel
// stays (not measured).
using F32LinesConfig = LinesConfig<4, 64, 128, 256, 6, 0, 4>;
// Inputs of at most this many rows (a tile column of the lines kernel is 512 bytes of each input
// row, twice the skewed kernel's): taller, it fell behind the skewed kernel (calls 5-6, GB/s,
// skewed / column order: 24001x12001 3120-3134 / 2864-2997, 32001x9001 3093 / 2855-2874,
// 60001x8001 3097-3098 / 2791-2800, 100001x5003 3084 / 2726-2735; 27001x15001 3134-3147 /
// 2951-3192, 20001² 3137-3146 / 3078-3463 over four cards; only 40001x10001 ahead, 3103 / 3245),
// and in groups of 8000-16000 rows further still (2577-2839).
constexpr std::int64_t kLinesColumnRows = 20000;
// The line-aligned kernel of configuration C on inputs of up to ROWS rows.
template <class C, std::int64_t ROWS = kLinesColumnRows>
using BoundedLines = MaxRows<Lines<C>, ROWS>;
// That kernel by the rule above, its own tiles counted (from LO / 100 to under HI / 100 an SM).
template <class C, class K, int LO, int HI = kNoTileLimit>
using LinesOnHighBandwidth =
    PreferFromTilesOnHighBandwidth<BoundedLines<C>, K, C::TR, C::TC, LO, HI>;
// Since run 43 (NOTES.md calls 1-2), f32's line-aligned rules on high-bandwidth devices run 128 x
// 128 tiles with 512 threads, 3 blocks an SM, the read in two phases: the 64 x 128 two-phase
// form's 40 registers, 20 loads a thread in flight and 48 warps an SM, with half the
// partial-line accesses a byte where rows are off lines and 512-byte output pieces where they
// are on them. GB/s on H200s (call 2, two rounds), the rules' kernels before / this: rows off 16
// bytes 2201² 2790-2823 / 2932-2964, 4001² 2932-2939 / 3086-3109, 6001² 3241-3247 / 3440-3456,
// 8001² 3400-3401 / 3588-3594, 14001² 3490-3494 / 3678-3681, 16386² 3554 / 3700-3701, 16411²
// (call 1) 3518-3521 / 3713, 10007x30011 3544 / 3713-3715, 9001x40001 3560 / 3731, 20001²
// 3136-3138 / 3671-3673, but 1601² 2132-2139 / 2087-2114 and 1201² 1505-1541 / 1381-1515; the
// TMA class 4004x30004 3605-3614 / 3696-3697, 8004² 3514-3518 / 3609-3613, 12004² 3606-3611 /
// 3705-3708, 20000x30000 3782-3786 / 3831-3833, 26004² 3609-3610 / 3704-3706; rows on 256 bytes
// 16384² (call 1) 3995 / 4049-4050, 32768² 4016 / 4045-4048, 16384x24576 4004-4006 / 4056-4057,
// 32768x16384 4004-4005 / 4057, 65536x8192 3985-3987 / 4024-4026. The same tiles with four
// phases ran 1-9 % behind; f64 and c128 forms of the same geometry (64 x 128, 128 x 64, 64 x 64
// with 512 threads) 0.1-17 % behind their defaults.
using F32BigLinesConfig = LinesConfig<4, 128, 128, 512, 3, 0, 2>;
// Rows off 16 bytes: the 128 x 128 form from 10 of the 64 x 128 tiles an SM, on inputs of any
// height (call 3: held out 3501² (11.7 an SM) +5.7 %, 5001x7001 +4.7 %, 11001² +7 to +12 %,
// 19001² +4.9 %; taller than run 39's bound, against the skewed kernel, 27001x15001 +16 %,
// 60001x8001 +12.5 %, 100001x5003 +11 %); under 10 run 39's 64 x 128 four-phase form from 1.25
// up to kLinesColumnRows rows (the 128 x 128 form at 2101², 4.25 an SM, -4.8 %; 2601² and
// 3001², 6.5-8.5, +0.5 to +1.5 %). F32LinesOnHighBandwidthPre43: run 39's rule.
template <class K>
using F32LinesOnHighBandwidthPre43 = LinesOnHighBandwidth<F32LinesConfig, K, 125>;
template <class K>
using F32LinesOnHighBandwidth =
    PreferFromTilesOnHighBandwidth<Lines<F32BigLinesConfig>, F32LinesOnHighBandwidthPre43<K>,
                                   F32LinesConfig::TR, F32LinesConfig::TC, 1000>;
using F32HighBandwidth = HighBandwidthTma<4, 2, 4, 256, F32SkewOrder>;
using F32HighBandwidthAligned = HighBandwidthTma<4, 2, 4, 256, Tiled<F32Tile, 256>>;
// Since run 41 (NOTES.md calls 2-10), in front of the TMA kernel on 256-byte rows: where the
// output's rows are 128 or 256 KiB apart (32768 or 65536 rows, dense) and the input's hold 16
// KiB or more, or 64 KiB apart (16384 rows) and the input's hold 48 KiB or more, the line-aligned
// kernel in 64 x 128 tiles, the read in two phases, from 100 of its tiles an SM. The TMA kernel
// dips on those pitches (GB/s on an H200, call 4, TMA / this / Sgeam: 32768x12288 3749 / 4013 /
// 3991, 32768x16384 3792 / 4018 / 4008, 32768x8192 3780 / 3993 / 3972, 32768x4096 3829 / 3925 /
// 3889, 32768² 3962 / 4004 / 3924, 65536x8192 3817 / 3998 / 3975; on 8 KiB input rows it led,
// 32768x2048 3848 / 3796; call 9, 16384² 3930 / 3982 / 3962, 16384x24576 3927 / 4004 / 3994, but
// 16384x4096 3849 / 3795, 16384x8192 3916 / 3923). Held out, TMA / this: 128 KiB (call 5)
// 32768x24576 3794 / 4033, 32768x20480 3832 / 4028, 32768x40960 3848 / 4030, 32768x6144 3818 /
// 3966, 32768x10240 3872 / 3991, 32768x5120 3837 / 3942; 256 KiB (call 8) 65536x12352 3718 /
// 3979, 65536x9216 3760 / 3989, 65536x7168 3776 / 3981, 65536x4608 3822 / 3947, 65536x24576 3940
// / 4011, 65536x16400 3757 / 3783; 64 KiB (call 10) 16384x49152 3887 / 4043, 16384x40960 3934 /
// 4034, 16384x28672 3944 / 4026, 16384x20480 3942 / 4010, 16384x14336 3950 / 3990, 16384x12352
// 3938 / 3966. Elsewhere the two ran level (20480² to 45056², within 1.2 %) or small sizes far
// behind (2048² -19 %); at 384 and 512 KiB the TMA kernel led (call 6: 98304x8192 3970 / 3929,
// 131072x6144 3968 / 3944).
// Run 43 replaced that rule (the bench's lists before it keep it: F32AlignedPitchPre43).
using F32PitchLinesConfig = LinesConfig<4, 64, 128, 256, 6, 0, 2>;
using F32PitchLinesKernel = Lines<F32PitchLinesConfig>;
using F32PitchLines = FirstOf<KernelList<OnOutPitch<F32PitchLinesKernel, 16384, 131072, 262144>,
                                         OnOutPitch<F32PitchLinesKernel, 49152, 65536>>>;
// The TMA entry takes only high-bandwidth devices, so the window needs no device test of its own.
using F32AlignedPitchPre43 =
    PreferInTileWindow<F32PitchLines, F32HighBandwidthAligned, F32PitchLinesConfig::TR,
                       F32PitchLinesConfig::TC, 10000, kNoTileLimit>;
// Since run 43 (calls 2-4), on any pitch: the 128 x 128 form from 60 of the 64 x 128 tiles an
// SM, the TMA kernel under it. Against run 41's pitch rule it led by 0.7-1.4 % (call 3, held out:
// 16384x12288 4033-4040 / 3981, 32768x8192 4034-4035 / 3994-3995, 65536x4096 4012-4017 /
// 3965-3968, 32768x24576 4071 / 4031, 16384x32768 4030 / 4002-4005), against the TMA kernel on
// the other pitches by more (call 3, TMA / this: 10240² 3917-3918 / 3974-3975, 16384x8192
// 3914-3916 / 3994, 12288x24576 3950-3951 / 4071, 24576x12288 3964-3965 / 4045-4046, 40960x8192
// 3961 / 4022-4024, 98304x8192 3894-3896 / 3976, 131072x6144 3887-3888 / 3999, 32768x2048 (62 an
// SM) 3837-3843 / 3881-3883; under 60 it did not lead: 6144² (35) 3733-3741 / 3727-3733, 4096²
// (16) 3504-3512 / 3366-3386).
using F32HighBandwidthAlignedLines =
    PreferInTileWindow<Lines<F32BigLinesConfig>, F32HighBandwidthAligned, F32PitchLinesConfig::TR,
                       F32PitchLinesConfig::TC, 6000, kNoTileLimit>;
// Since run 42 (NOTES.md calls 2-7), in front of the TMA kernel where the output's rows are off
// 256 bytes (entry 3): the same two-phase lines kernel from 60 of its 64 x 128 tiles an SM over
// the batch, on inputs of up to kLinesColumnRows rows. The TMA kernel falls behind as the
// matrices grow, and most on wide inputs. GB/s on H200s, two rounds, TMA / this / Sgeam:
// 4004x30004 3136-3137 / 3630-3631 / 3605-3609, 19996² 3370-3372 / 3656-3657 / 3574, 18004²
// 3415-3417 / 3658 / 3584, 8004x16004 3442-3446 / 3621-3623 / 3615-3617, 14004² 3473-3480 / 3649
// / 3594-3597, 12004² 3453-3454 / 3623 / 3589-3591, 10000x30004 3586-3587 / 3729-3731 / 3712,
// 10004² (94 an SM) 3504-3506 / 3592-3597 / 3566-3567, 20000x30000 3703-3704 / 3799 / 3666, two
// of 8004² 3568-3570 / 3633-3635, 16004x8004 3546-3553 / 3601-3604 / 3548-3549, 20000x12004
// 3689-3691 / 3714-3716 / 3599-3600, 8004² (60 an SM) 3511-3520 / 3527-3537 / 3492-3498; below,
// the TMA kernel leads: 6004² (33) 3436-3442 / 3407-3424, 4004² (15) 3200-3207 / 3111-3144.
// Held out (call 4): 2004x60004 2909 / 3590, 11004x25004 3234 / 3669, 16004² 3454 / 3645, 9004²
// 3504 / 3576, 12004x6004 3486 / 3538, three of 6004² 3590 / 3624 (+6.5 % over nine shapes).
// Taller inputs (calls 5-6): up to 32004 rows it led on wide inputs (26004² 3237 / 3625,
// 21004x30004 3166 / 3662, 25004x18004 3420 / 3630) but less on narrower ones (28004x10004 3564
// / 3584, 32764x8004 3560 / 3576) and lost held out at 30004x4004 (3595 / 3518), so the bound
// stays; from 40004 rows the TMA kernel led at all four shapes measured (100004x4004 3548 /
// 3407). Narrow inputs under the bound run level (call 7: 20000x4004, 16004x4004, 18004x6004).
// Since run 43 (NOTES.md call 1), also on taller inputs with at least half as many columns as
// rows (at first up to 32768 rows; the bound is lifted below), where run 42's taller shapes led
// (TMA / this: 21004x30004 3166 / 3662, 26004² 3237 / 3625, 25004x18004 3420 / 3630, 30000x20000
// 3734 / 3839, 22004x14004 3490 / 3636, 24004x12004 3510 / 3616, 32004x16004 3458 / 3568) and the
// narrower ones did not (28004x10004, 32764x8004, 30004x4004 above). Since run 43 the kernel is
// F32BigLinesConfig's (calls 1-3: held out, 10004x14004 +2.4 %, 15004x22004 +2.5 %, 18004x8004 +2.6
// %, 24004x30004 +2.6 %, 28004x20004 +2.6 %), the window as before, and the wide inputs' bound
// lifted (call 4; the survey of call 3, TMA / this: 32772x20004 3379-3380 / 3688, 33004² 3085 /
// 3686-3687; narrower ones: 40004x12004 3535-3538 / 3623-3625, 50004x8004 3592-3597 / 3579-3580,
// 100004x4004 3525-3529 / 3501-3502).
constexpr std::int64_t kLinesWideRows = std::numeric_limits<std::int64_t>::max();
template <class C = F32BigLinesConfig, std::int64_t WIDE = kLinesWideRows>
using F32HighBandwidthLinesOf =
    PreferFromTilesOnHighBandwidth<MaxRowsOrWide<Lines<C>, kLinesColumnRows, WIDE>,
                                   F32HighBandwidth, F32PitchLinesConfig::TR,
                                   F32PitchLinesConfig::TC, 6000>;
// Run 42's form of that rule (the bench's "pre43"): the 64 x 128 kernel up to kLinesColumnRows
// rows only (the wide bound at kLinesColumnRows adds nothing).
using F32HighBandwidthLinesPre43 = F32HighBandwidthLinesOf<F32PitchLinesConfig, kLinesColumnRows>;
// The entries of the bench's lists before run 43's 128 x 128 tiles.
using F32LastPre43 = F32LinesOnHighBandwidthPre43<F32SkewSmall>;
// HB, HBA: those entries (HB F32HighBandwidthLinesOf<>, or F32HighBandwidth in the bench's "pre42"
// and older lists; HBA F32HighBandwidthAlignedLines, or F32AlignedPitchPre43 in "pre43b" to
// "pre42", or F32HighBandwidthAligned in "pre41" and older), or Never (the bench's "notma", the
// list before run 34); LAST: F32LinesOnHighBandwidth<F32SkewSmall>, or run 39's F32LastPre43
// ("pre43b" to "pre40"), or F32SkewSmall (the bench's "pre39"), or F32SkewOrder ("pre38" and
// "notma").
template <class HB = F32HighBandwidthLinesOf<>, class HBA = F32HighBandwidthAlignedLines,
          class LAST = F32LinesOnHighBandwidth<F32SkewSmall>>
using F32TilesWith =
    KernelList<OffOneStack<PreferOnHighBandwidth<HBA, Tiled<F32Tile, 256>>, F32SkewOrder>,
               OffOneStack<MinRows<Tiled<F32Tile>, 200000>, F32SkewOrder>, HB, LAST>;
using F32Tiles = F32TilesWith<>;
// Small f64 matrices (run 37, NOTES.md calls 10-11): where the default's 32 x 64 tiles would be
// from 2.5 to under 8 an SM over the batch, 32 x 32 tiles of 16-byte words (where both pitches
// take them), on either class of rows. GB/s on an H100, call 10, five rounds, default / these:
// 700x2000 2194 / 2588, 2000x700 2181 / 2602, 1200² 2250 / 2697, 1000² 1923 / 2146, four of 700²
// 2503 / 2737, four of 512² 2367 / 2595, 1024² 2310 / 2394; outside the window level or behind
// (1500², 8.5 tiles an SM, 2551 / 2540; 700², 1.8, 1317 / 1276).
template <class SMALL, class K>
using F64Window = PreferInTileWindow<SMALL, K, F64Tile::TH, F64Tile::TW, 250, 800>;
template <class K>
using F64Small = F64Window<Tiled<F64TileW16, 1>, K>;
// In the skewed kernel's entry, where those words do not fit (rows off 16 bytes), 32 x 32 tiles
// of one element an access in the same window (run 38, NOTES.md calls 6-7; GB/s on an H100, call
// 6, three rounds of 100, default / these: 801² 1403 / 1542, 1001² 1855 / 1949, 1201x801 1784 /
// 1871, 1201² 2115 / 2388, four of 501² 1786 / 1887; past the window 1501² (8.5 an SM) 2427 /
// 2376, 2001² 2295 / 2173).
template <class K>
using F64SmallAny = F64Window<FirstOf<KernelList<Tiled<F64TileW16, 1>, Tiled<Tile32<8>, 1>>>, K>;
static_assert(F64Tile::TH == F64Skew::TH && F64Tile::TW == F64Skew::TW,
              "F64Small counts the tiled and the skewed kernel's tiles alike");
// On high-bandwidth devices (an H200), where the skewed kernel would run (rows off 256 bytes),
// cuBLAS geam's geometry: 64 x 64 f64 tiles, one element an access (so any row alignment), 256
// threads, the blocks down the tile columns, from 80 of those tiles an SM over the batch (run
// 38, NOTES.md calls 1-3; x memcpy on an H200, skewed / these / Dgeam: 16411² 0.812 / 0.866 /
// 0.876, 10007x30011 0.810 / 0.863 / 0.872, 20001² 0.807 / 0.859 / 0.844, 16386² (rows on 16
// bytes) 0.806 / 0.876 / 0.868; GB/s by tiles an SM: 6001² (67) 3426 / 3440, 7001² (92) 3436 /
// 3522, 8001² (120) 3447 / 3604, 12001² (268) 3459 / 3649, four of 4001² (120) 3459 / 3519;
// 4001² (30) 3274 / 3152, and 20-40 % behind at 1000²-3001²). Row-major, the same tiles were
// 14 % behind (16411²). On H100s the skewed kernel stays.
using F64ManyConfig = TileConfig<8, 8, 64, 64, 256>;
using F64ManyTiles = Tiled<F64ManyConfig, 1, kSkewOrder>;
template <class K>
using F64ManyOnHighBandwidth =
    PreferFromTilesOnHighBandwidth<F64ManyTiles, K, F64ManyConfig::TH, F64ManyConfig::TW, 8000>;
// Since run 39 (NOTES.md call 7), in front of that rule on the same devices: the line-aligned
// kernel (lines.cuh, as f32's F32LinesOnHighBandwidth): 64 x 64 f64 tiles, 256 threads, 6 blocks
// an SM, the read in four phases, down the tile columns, from 12 of its tiles an SM over the
// batch, on inputs of up to kLinesColumnRows rows (its tile column is 512 bytes of each input
// row, as f32's). GB/s on an H200, two rounds, skewed (the default under 80 tiles an SM) / the
// many-tile kernel / this / Dgeam: 16411² 3468 / 3700-3703 / 3779 / 3740, 12001x20003 3465-3467
// / 3685-3688 / 3783-3784 / 3713-3724, 16386² 3457 / 3749-3751 / 3799-3800 / 3716-3728, 8001²
// (120 an SM) 3458-3459 / 3605-3606 / 3710-3711 / 3674-3676, 6001² 3422 / 3437-3442 / 3660-3665
// / 3650-3653, 4001² 3275-3279 / 3154-3158 / 3502-3513 / 3487-3500, 3001² (16.7) 3116-3122 /
// 2788-2794 / 3308-3324 / 3338-3340; 2001² (7.8) 2716-2733 / 2172-2185 / 2681-2701 / 2965-2979.
using F64LinesConfig = LinesConfig<8, 64, 64, 256, 6, 0, 4>;
template <class K>
using F64LinesOnHighBandwidth =
    LinesOnHighBandwidth<F64LinesConfig, F64ManyOnHighBandwidth<K>, 1200>;
// Since run 40 (NOTES.md calls 1-2), below that count on the same devices and in the same entry:
// the line-aligned kernel with 32 x 64 tiles, 8 blocks an SM, the read in two phases, from 2.5
// to under 12 of F64LinesConfig's 64 x 64 tiles an SM over the batch, on inputs of up to
// kLinesColumnRows rows. GB/s on an H200, call 1, two rounds of 100, default / this / Dgeam:
// 1201² (2.7 an SM) 2444-2461 / 2539-2575 / 2955-3149, 1501² 2465-2508 / 3044-3086 / 3372-3403,
// 1801² 2574-2599 / 2845-2890 / 2992-3031, 2001² (7.8) 2703-2733 / 2893-2924 / 2955-2983, 2401²
// (10.9) 2905-2917 / 3069-3101 / 3134-3160, 1001x3001 2589-2621 / 2916-2962 / 3052-3087, four
// of 1001² 2693-2711 / 2893-2910. (F64LinesConfig itself was ahead at 1201², 1501² and
// 1001x3001 by 2-4 % more, but 2 % behind the default at 2001².)
using F64SmallLinesConfig = LinesConfig<8, 32, 64, 256, 8, 0, 2>;
template <class K>
using F64SmallLinesOnHighBandwidth =
    PreferFromTilesOnHighBandwidth<BoundedLines<F64SmallLinesConfig>, K, F64LinesConfig::TR,
                                   F64LinesConfig::TC, 250, 1200>;
// A rule wrapper that leaves the entry as it is.
template <class K>
using Unchanged = K;
// F64SmallAny behind the small lines rule (run 40).
template <class K>
using F64SmallLinesAny = F64SmallLinesOnHighBandwidth<F64SmallAny<K>>;
// Since run 40 (NOTES.md calls 4-5) the line-aligned rule of F64LinesOnHighBandwidth (from 12 of
// its tiles an SM, up to kLinesColumnRows rows) in the first entry too (output rows on 256 bytes)
// where the input's rows are off 256 bytes; there high-bandwidth devices ran the tiled kernel of
// 16-byte words 1-3 % behind Dgeam. GB/s on H200s, two rounds of 20, that kernel / lines / Dgeam:
// call 4, 20000x30000 3889-3890 / 4002-4003 / 4005-4006, 16384x16400 3911 / 4013 / 4002-4003,
// 16384x16411 3740-3741 / 3852-3853 / 3871, 12288x20008 3839 / 3904-3905 / 3887-3888, 8192x8200
// 3826 / 3863-3864 / 3825-3828; held out, call 5, 16384x24008 3717 / 3919 / 3833-3835, 14336x9001
// 3733-3734 / 3843-3844 / 3795-3801, 6144x10001 3684-3685 / 3775-3776 / 3720-3723, 10240x15000
// 3869-3870 / 3907-3908 / 3844-3845, 4096x6000 3789-3797 / 3832-3834 / 3825-3832, 18432x18440
// 3883-3884 / 3907-3908 / 3831-3834. On inputs whose rows are on 256 bytes too it lost at
// 12288x16384 (4042 / 3930) though it led at 16384² (3815 / 4054), 8192² and 20000x16384 (call
// 5): left out.
template <class K>
using F64AlignedLinesOnHighBandwidth =
    PreferFromTilesOnHighBandwidth<InRowsOff<BoundedLines<F64LinesConfig>, 256>, K,
                                   F64LinesConfig::TR, F64LinesConfig::TC, 1200>;
// Since run 41 (NOTES.md calls 1-3), in the same entry where the input's rows are on 256 bytes
// too: the same kernel from 48 of its tiles an SM, on inputs of up to kF64FullLinesRows rows,
// except on input rows of 128 KiB with fewer rows than that holds elements (16384 columns, under
// 16384 rows), where it and Dgeam both lost to the tiled kernel (GB/s on H200s, call 1, tiled /
// lines / Dgeam: 12288x16384 4019 / 3941 / 3852, 8192x16384 3989 / 3914 / 3827, 10240x16384
// 4008 / 3932 / 3836; call 2, 6144x16384 4022 / 3944 / 3844; on 16416 columns it led: 8192x16416
// 4008 / 4098 / 4007). Elsewhere it led at 21 of 21 shapes in call 1 (16384² 3905 / 4061 / 3965,
// 16384x12288 3798 / 4129 / 4064, 32768² 3976 / 4110 / 3990, 12288² 4010 / 4122 / 4058, 8192²
// 3988 / 4080 / 4027) and from 62 tiles an SM in call 2 (4096x8192 3963 / 4007 / 3953, 6144²
// 3989 / 4044 / 3976); past 32768 rows mixed (65536x8192 3933 / 4091, 40960² 4041 / 4112, but
// 131072x2048 4062 / 4050, 40000x16384 4035 / 4033); under 48 the tiled kernel led (4096² (31)
// 3848 / 3806, 3072² 3709 / 3614, 2048x8192 3839 / 3791). Held out (call 3, tiled / this):
// 16384x10240 3805 / 4124, 32768x24576 3952 / 4120, 10240x28672 4007 / 4147, 30720x12288 4003 /
// 4110, 9216² 3993 / 4096, 26624x8192 4020 / 4087, 5120² (48.5 an SM) 3896 / 3922: +3.0 % on
// average over 13 shapes, none behind.
constexpr std::int64_t kF64FullLinesRows = 32768;
template <class K>
using F64FullLinesOnHighBandwidth = PreferFromTilesOnHighBandwidth<
    RowsOn<NotShortOnInPitch<BoundedLines<F64LinesConfig, kF64FullLinesRows>, 131072>, 256>, K,
    F64LinesConfig::TR, F64LinesConfig::TC, 4800>;
// Run 40's rule in front of run 41's (they take different inputs).
template <class K>
using F64LinesOnOutputLines = F64AlignedLinesOnHighBandwidth<F64FullLinesOnHighBandwidth<K>>;
// M, SM, AM: F64LinesOnHighBandwidth, F64SmallLinesAny and F64LinesOnOutputLines; or the same
// with F64AlignedLinesOnHighBandwidth (the bench's "pre41"); or the
// same with F64SmallAny and Unchanged (the bench's "pre40"); or F64ManyOnHighBandwidth,
// F64SmallAny, Unchanged ("pre39"); or Unchanged, F64Small, Unchanged ("pre38", the list before
// run 38).
template <template <class> class M, template <class> class SM, template <class> class AM>
using F64TilesWith = KernelList<
    OffOneStack<AM<PreferOnHighBandwidth<Tiled<F64TileW16, 256>, F64Small<Tiled<F64Tile, 256>>>>,
                F64SkewOrder>,
    M<SM<F64SkewOrder>>>;
using F64Tiles = F64TilesWith<F64LinesOnHighBandwidth, F64SmallLinesAny, F64LinesOnOutputLines>;
// Small c128 matrices off 256-byte rows (run 37, calls 10-11): under 12 of the skewed kernel's
// 32 x 32 tiles an SM over the batch, 16 x 16 tiles with 128 threads where the output rows are
// on 32 bytes. GB/s on an H100, call 10, five rounds, default / these: 700² 1877 / 2323, 1000²
// 2732 / 3115, 1200² 2443 / 2667, 700x2000 2428 / 2593, 2000x700 2418 / 2611, 500² 1337 / 1405;
// past that level (1500², 16.7 an SM, 2376 / 2406; four of 700², 14.7, 2390 / 2408).
// Where the output rows are off 32 bytes (odd widths), 32 x 32 tiles of one element an access
// from 4 to under 12 of the skewed kernel's tiles an SM (run 38, calls 5-7; GB/s, three rounds of
// 100, default / these, H100, call 6: 801² (5.1 an SM) 2128 / 2448, 1001² 2616 / 2938, four of
// 501² 2597 / 2828, 1201² (10.9) 2322 / 2432; H200, call 5: 801² 2114 / 2587, 1001² 2672 / 3274,
// 1201² 2834 / 3043; level at 601² (2.7), behind past the window on the H100: 1401² (14.7) 2322
// / 2302, 1501² 2369 / 2319).
template <class K>
using C128SmallOver =
    PreferInTileWindow<Tiled<C128TileT128>, K, C128Skew::TH, C128Skew::TW, 0, 1200>;
using C128Small = C128SmallOver<
    PreferInTileWindow<Tiled<Tile32<16>, 1>, C128SkewOrder, C128Skew::TH, C128Skew::TW, 400, 1200>>;
// On high-bandwidth devices, where C128Small would run the skewed kernel: cuBLAS geam's 32 x 32
// tiles, one element an access, 256 threads, down the tile columns, from 20 of those tiles an SM
// over the batch (run 38, calls 1-3; x memcpy on an H200, skewed / these / Zgeam: 16411² 0.873
// / 0.925 / 0.922, 10007x30011 0.866 / 0.924 / 0.920, 20001² 0.861 / 0.911 / 0.911, 4001²
// 0.899 / 0.955 / 0.947, 16392² (rows on 128 bytes) 0.895 / 0.942 / 0.940; GB/s by tiles an SM:
// 1601² (19.7) 3015 / 3117, 1801² (24.6) 3182 / 3265, 2201² (36) 3371 / 3485, four of 1001²
// (31) 3263 / 3437; mixed below 20: 1500² (16.7) 3052 / 3016, 1501² 2952 / 2988). Row-major,
// the same tiles were 11 % behind (16411²). On H100s the skewed kernel stays.
using C128ManyTiles = Tiled<Tile32<16>, 1, kSkewOrder>;
template <class K>
using C128ManyOnHighBandwidth =
    PreferFromTilesOnHighBandwidth<C128ManyTiles, K, Tile32<16>::TH, Tile32<16>::TW, 2000>;
// Since run 40 (NOTES.md calls 1-3) the same kernel in the first entry too (output rows on 256
// bytes), where high-bandwidth devices ran the 128-thread tiled kernel 2-4 % behind Zgeam, from 48
// of its tiles an SM over the batch. GB/s on an H200, two rounds, the 128-thread kernel / these /
// Zgeam: call 1, 16384² 3783-3785 / 4096 / 4080-4081, 20000x30000 3979-3980 / 4132-4133 / 4121,
// 8192² 3833-3834 / 3924-3926 / 3901-3904; held out, call 2: 32768² 3993-3994 / 4118 / 4112,
// 12288² 4009-4010 / 4170 / 4150-4156, 24576x8192 4008 / 4117-4118 / 4103-4104, 10240x20480
// 4009-4011 / 4180 / 4161, 4096² (124 an SM) 3932-3936 / 4043-4051 / 4036-4041. Where it starts
// (call 3): level from 31 to 93 an SM (2048² (31) 3656 / 3612-3623, six of 1024² (46.5)
// 3864-3882 / 3855-3869, 2560² (48.5) 3767-3772 / 3787-3805, 2896² (62.7) 3813-3815 / 3807-3809,
// twelve of 1024² (93) 4039-4070 / 4057-4079), ahead at 3072² (70) 3851-3853 / 3909-3915 and
// 3584² (95) 3911-3915 / 3980-3997; 48 is where it first led in both rounds.
template <class K>
using C128ManyOnAlignedHighBandwidth =
    PreferFromTilesOnHighBandwidth<C128ManyTiles, K, Tile32<16>::TH, Tile32<16>::TW, 4800>;
// Since run 42 (NOTES.md call 1), on high-bandwidth devices between the small rule and the
// many-tile rule (from 12 to under 20 of the 32 x 32 tiles an SM over the batch, where the skewed
// kernel ran): the line-aligned kernel (lines.cuh) in 32 x 32 tiles, 8 blocks an SM, the read in
// two phases, down the tile columns. GB/s on an H200, two rounds, skewed / this / Zgeam: 1301²
// (12.7 an SM) 2779-2807 / 3012-3039 / 3173-3179, 1501² (16.7) 2951-2988 / 3080-3116 /
// 3185-3187 (run 39 saw the same, +4 to +7 %); past 20 an SM it is level with the many-tile
// kernel (1999² 3401-3408 / 3427-3433, 2501² 3564-3565 / 3592).
using C128SmallLinesConfig = LinesConfig<16, 32, 32, 256, 8, 0, 2>;
template <class K>
using C128SmallLinesOnHighBandwidth = LinesOnHighBandwidth<C128SmallLinesConfig, K, 1200, 2000>;
static_assert(C128SmallLinesConfig::TR == C128Skew::TH && C128SmallLinesConfig::TC == C128Skew::TW,
              "the small, lines and many-tile rules count the same tiles");
using C128SmallLinesAny = C128SmallLinesOnHighBandwidth<C128Small>;
// M, SMALL, AM: C128ManyOnHighBandwidth, C128SmallLinesAny, C128ManyOnAlignedHighBandwidth; or
// the same with C128Small (the bench's "pre42"); or that with Unchanged for AM ("pre40"); or
// Unchanged, the small rule before run 38 and Unchanged ("pre38").
template <template <class> class M, class SMALL, template <class> class AM>
using C128TilesWith = KernelList<
    OffOneStack<AM<PreferOnHighBandwidth<Tiled<C128TileT128, 256>, Tiled<C128Tile, 256>>>,
                C128SkewOrder>,
    M<SMALL>>;
using C128Tiles =
    C128TilesWith<C128ManyOnHighBandwidth, C128SmallLinesAny, C128ManyOnAlignedHighBandwidth>;
using U8Kernels = Prepend<RecordsDispatch<1>, Prepend<U8Thin, U8Tiles>::type>::type;
using U16Kernels = Prepend<RecordsDispatch<2>, Prepend<U16Thin, U16Tiles>::type>::type;
using F32Kernels = Prepend<F32Thin, F32Tiles>::type;
using F64Kernels = Prepend<F64Thin, F64Tiles>::type;
using C128Kernels = Prepend<C128Thin, C128Tiles>::type;

template <class F>
decltype(auto) with_kernels(std::size_t elem_size, const char* who, F&& f) {
  return cuda_dispatch::with_element_size<U8Kernels, U16Kernels, F32Kernels, F64Kernels,
                                          C128Kernels>(elem_size, who, std::forward<F>(f));
}

}  // namespace

void transpose_cuda(const void* in, void* out, std::size_t elem_size, const TransposeShape& shape,
                    DeviceStream stream) {
  const TransposeShape s = shape.resolved();
  if (s.rows == 0 || s.cols == 0 || s.batch == 0) return;
  if (in == nullptr || out == nullptr)
    throw DimensionMismatch("transpose_cuda: null buffer for a non-empty transpose");
  auto* st = static_cast<cudaStream_t>(stream);
  with_kernels(elem_size, "transpose_cuda", [&](auto list) {
    if (copies_in_order(s)) {
      copy_in_order(in, out, elem_size, s, st);
      return;
    }
    dispatch(list, in, out, elem_size, s, st);
  });
}

// ---- candidates, by name (variants.h) ----------------------------------------------------------

namespace variants {

namespace {

using Runner = bool (*)(const void*, void*, const TransposeShape&, cudaStream_t);

template <class K>
bool run_kernel(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
  if (!K::accepts(in, out, s)) return false;
  K::launch(in, out, s, st);
  return true;
}

struct Entry {
  std::size_t elem;
  const char* name;
  Runner run;
};

// Names: kernel-TILE[wWORD][-tNT][-xPH][-bMINB][-cm][-pBYTES]; -pBYTES: loads with an L2
// prefetch size; TILE is input rows x input columns of a tile (tiled, tma, lines), output columns
// x output rows of a block (skew, rskew); -tNT: NT threads a block (256 where not named); -xPH:
// the read in PH phases (lines); -cm: blocks in column-major order. tile: tiled.cuh; skew:
// skew.cuh; rskew: realign.cuh (skewed pieces, realigned words); peel: tiled interior + skewed edge
// strips; tma: tma.cuh (Hopper bulk tensor copies; declines elsewhere); tmald: TMA loads, plain
// stores; lines: lines.cuh (line-aligned accesses). cuBLAS geam's f32 geometry (run 38's
// candidates): 64 x 64 tiles, one element an access.
using F32Tile64W4 = TileConfig<4, 4, 64, 64, 256>;
const Entry kEntries[] = {
    // thin: thin.cuh, a side of at most 256 elements (the whole short side in one block)
    {1, "thin", run_kernel<Thin<1>>},
    {2, "thin", run_kernel<Thin<2>>},
    {4, "thin", run_kernel<Thin<4>>},
    {8, "thin", run_kernel<Thin<8>>},
    {16, "thin", run_kernel<Thin<16>>},
    // records: records.cuh, u8 / u16 with a short side of at most 16 (run 29); -gs: short
    // columns with the warps striding over chunks, pieces of the wide rows where they fall
    {1, "records", run_kernel<Records<1>>},
    {2, "records", run_kernel<Records<2>>},
    {1, "records-gs", run_kernel<Records<1, false>>},
    {2, "records-gs", run_kernel<Records<2, false>>},
    // -1w: at most one wave of blocks (as many as fit on the device at once) instead of 4096
    {1, "records-1w", run_kernel<Records<1, true, true>>},
    {2, "records-1w", run_kernel<Records<2, true, true>>},
    {1, "records-gs-1w", run_kernel<Records<1, false, true>>},
    {2, "records-gs-1w", run_kernel<Records<2, false, true>>},
    // thin-elemwide / thin-shifted: the wide matrix's rows off 4 bytes element by element (as
    // before run 27) / in shifted words (thin.cuh; the library: u16 short rows only)
    {1, "thin-elemwide", run_kernel<Thin<1, ThinAll, cuda_tile::kThinShiftedNever>>},
    {2, "thin-elemwide", run_kernel<Thin<2, ThinAll, cuda_tile::kThinShiftedNever>>},
    {1, "thin-shifted", run_kernel<Thin<1, ThinAll, cuda_tile::kThinShiftedAlways>>},
    {2, "thin-shifted", run_kernel<Thin<2, ThinAll, cuda_tile::kThinShiftedAlways>>},
    // nothin: the library's kernels after the thin one (where the dispatch does not take thin)
    // norecords: the library's kernels after the records one (u8 / u16; the default before run 29)
    {1, "norecords", run_kernel<FirstOf<Prepend<U8Thin, U8Tiles>::type>>},
    {2, "norecords", run_kernel<FirstOf<Prepend<U16Thin, U16Tiles>::type>>},
    {1, "nothin", run_kernel<FirstOf<U8Tiles>>},
    {2, "nothin", run_kernel<FirstOf<U16Tiles>>},
    {4, "nothin", run_kernel<FirstOf<F32Tiles>>},
    {8, "nothin", run_kernel<FirstOf<F64Tiles>>},
    {16, "nothin", run_kernel<FirstOf<C128Tiles>>},
    // notma: the library's kernels without the high-bandwidth TMA kernel (f32, off and, since run
    // 37, on 256-byte rows; the default before run 34, and the default on H100s)
    {4, "notma",
     run_kernel<FirstOf<Prepend<F32Thin, F32TilesWith<Never, Never, F32SkewOrder>>::type>>},
    // pre38: the list before run 38's rules (f64, c128: many tiles on high-bandwidth devices and
    // small matrices on rows off 16 / 32 bytes; f32: small matrices through TMA loads)
    {4, "pre38",
     run_kernel<FirstOf<Prepend<
         F32Thin, F32TilesWith<F32HighBandwidth, F32HighBandwidthAligned, F32SkewOrder>>::type>>},
    {8, "pre38",
     run_kernel<FirstOf<Prepend<F64Thin, F64TilesWith<Unchanged, F64Small, Unchanged>>::type>>},
    // pre39: the list before run 39's rules (the line-aligned kernel on high-bandwidth devices:
    // f32 where rows are off 16 bytes, f64 where they are off 256)
    {4, "pre39",
     run_kernel<FirstOf<Prepend<
         F32Thin, F32TilesWith<F32HighBandwidth, F32HighBandwidthAligned, F32SkewSmall>>::type>>},
    {8, "pre39",
     run_kernel<FirstOf<
         Prepend<F64Thin, F64TilesWith<F64ManyOnHighBandwidth, F64SmallAny, Unchanged>>::type>>},
    // pre40: the list before run 40's rules (f64: the small line-aligned rule and the line-aligned
    // kernel on output rows on 256 bytes; c128: the many-tile kernel on output rows on 256 bytes;
    // all on high-bandwidth devices)
    {8, "pre40",
     run_kernel<FirstOf<
         Prepend<F64Thin, F64TilesWith<F64LinesOnHighBandwidth, F64SmallAny, Unchanged>>::type>>},
    // pre41: the list before run 41's rules (on high-bandwidth devices, f32: the line-aligned
    // kernel on output rows 128 KiB apart; f64: on inputs whose rows are on 256 bytes at both ends)
    {4, "pre41",
     run_kernel<FirstOf<Prepend<
         F32Thin, F32TilesWith<F32HighBandwidth, F32HighBandwidthAligned, F32LastPre43>>::type>>},
    {8, "pre41",
     run_kernel<FirstOf<Prepend<F64Thin, F64TilesWith<F64LinesOnHighBandwidth, F64SmallLinesAny,
                                                      F64AlignedLinesOnHighBandwidth>>::type>>},
    // pre43: the list before run 43's rule (f32 in the TMA class on inputs of 20001-32768 rows
    // with at least half as many columns as rows)
    {4, "pre43",
     run_kernel<FirstOf<Prepend<F32Thin, F32TilesWith<F32HighBandwidthLinesPre43,
                                                      F32AlignedPitchPre43, F32LastPre43>>::type>>},
    // pre43b: run 43's first rule (call 1) without its 128 x 128 tiles (call 3)
    {4, "pre43b",
     run_kernel<
         FirstOf<Prepend<F32Thin, F32TilesWith<F32HighBandwidthLinesOf<F32PitchLinesConfig, 32768>,
                                               F32AlignedPitchPre43, F32LastPre43>>::type>>},
    {4, "pre42",
     run_kernel<FirstOf<Prepend<
         F32Thin, F32TilesWith<F32HighBandwidth, F32AlignedPitchPre43, F32LastPre43>>::type>>},
    {16, "pre42",
     run_kernel<FirstOf<Prepend<C128Thin, C128TilesWith<C128ManyOnHighBandwidth, C128Small,
                                                        C128ManyOnAlignedHighBandwidth>>::type>>},
    {16, "pre40",
     run_kernel<FirstOf<
         Prepend<C128Thin, C128TilesWith<C128ManyOnHighBandwidth, C128Small, Unchanged>>::type>>},
    {16, "pre38",
     run_kernel<FirstOf<Prepend<
         C128Thin, C128TilesWith<Unchanged, C128SmallOver<C128SkewOrder>, Unchanged>>::type>>},
    // nocopy: the kernels where the dispatch copies (a side of 1, elements consecutive; the
    // default before run 32)
    {1, "nocopy", run_kernel<FirstOf<U8Kernels>>},
    {2, "nocopy", run_kernel<FirstOf<U16Kernels>>},
    {4, "nocopy", run_kernel<FirstOf<F32Kernels>>},
    {8, "nocopy", run_kernel<FirstOf<F64Kernels>>},
    {16, "nocopy", run_kernel<FirstOf<C128Kernels>>},
    {1, "tile-128x128w16", run_kernel<Tiled<U8Tile>>},
    // run 44's survey: 128 x 128 tiles of 8-byte words, 256 threads (call 12 on an H200, against
    // the default: 8192² +9.8 %, 16384² level, 32768² -4.5 %: no rule; the 256 x 256 tiles of
    // 16-byte words, 64 KiB a block, ran 6-21 % behind the default; commit 9cd93f4 has them)
    {1, "tile-128x128w8-t256", run_kernel<Tiled<TileConfig<1, 8, 16, 16, 256>>>},
    // -any: small tiles for small matrices (run 35), output rows on any byte
    {1, "tile-32x32w1-any", run_kernel<U8Tiny>},
    {1, "tile-32x32w4-any", run_kernel<Tiled<TileConfig<1, 4, 8, 8, 64>, 1>>},
    {1, "tile-64x64w4-any", run_kernel<Tiled<TileConfig<1, 4, 16, 16, 256>, 1>>},
    {1, "skew-128x64w16", run_kernel<Skewed<U8Skew>>},
    {1, "rot-128x128-t1024-b1-cm", run_kernel<Rotated<std::uint8_t, 128, 1024, 1, kSkewOrder, 0>>},
    {1, "rot-128x128-t512-b3-cm", run_kernel<U8Rotated>},
    {1, "rot-128x128-t512-b3", run_kernel<Rotated<std::uint8_t, 128, 512, 3, 1, 0>>},
    // narrow-TS: narrow_kernel (narrow.cuh), TS x TS tiles, 4-byte words on any rows; -rot: the
    // row words' loads rotated onto 128-byte lines. Pruned after run 20: -ko (row offsets held in
    // registers, call 3), -bt (4 x 4 byte-block permutes, call 5), u16 -eg-rot (call 10): commit
    // e175d2b has them; -eg (output words gathered one element a shared load, calls 1-2): commit
    // 2b1bd26.
    {1, "narrow-128-t256-b4-cm", run_kernel<U8Narrow>},
    {1, "narrow-256-t1024-b1-cm", run_kernel<Narrow<std::uint8_t, 256, 1024, 1, kSkewOrder>>},
    {1, "narrow-256-t512-b2-cm", run_kernel<U8Narrow256>},
    {1, "narrow-256-t512-b2-cm-rot", run_kernel<U8Narrow256Rot>},
    // -sweep: column sweeps capped at 32000 input rows (Swept), run 21 (the -sweep16k forms of
    // u8 and u16, 0-2 % behind -sweep in call 1, and -tall16k are in commit b39bf18)
    {1, "narrow-128-t256-b4-sweep", run_kernel<Swept<U8Narrow>>},
    {1, "narrow-256-t512-b2-sweep", run_kernel<Swept<U8Narrow256>>},
    {1, "narrow-256-t512-b2-sweep-rot", run_kernel<Swept<U8Narrow256Rot>>},
    // -eledge: edge tiles element by element, as before run 23 (the others: guarded words).
    // Pruned after run 24 call 1: -calledge (guarded words as a __noinline__ call), 0.62-0.72 x
    // memcpy on every shape, whole tiles too (commit 7326483 has it).
    {1, "narrow-256-t512-b2-cm-eledge", run_kernel<U8Narrow256Elem>},
    {1, "narrow-256-t512-b2-sweep-eledge", run_kernel<Swept<U8Narrow256Elem>>},
    // nskew-THxTW-tNT-bMINB-nBATCH: narrow_skew_kernel (narrow_skew.cuh), TH input rows x TW
    // input columns a tile, output pieces on 32-byte boundaries, BATCH row groups a warp's loads.
    // Pruned after run 22 (calls 1-2): u8 256x128, 128x128, 256x256 with 256 / 1024 threads or
    // one block an SM; u16 128x64, 64x64, 128x128 with 256 / 1024 threads or one group a batch
    // (commit 1fb760e has call 1's forms, 3caffac call 2's); u8 512x256 and 256x512, one block an
    // SM, 4-19 % behind in call 6 (commit 65c95a2).
    {1, "nskew-256x256-t512-b2-n1-cm",
     run_kernel<NarrowSkewed<NarrowSkewConfig<std::uint8_t, 256, 256, 512, 2, 1>, kSkewOrder>>},
    {1, "nskew-256x256-t512-b2-n2-cm",
     run_kernel<NarrowSkewed<NarrowSkewConfig<std::uint8_t, 256, 256, 512, 2, 2>, kSkewOrder>>},
    {1, "nskew-256x256-t512-b2-n3-cm", run_kernel<U8NarrowSkew>},
    {1, "nskew-256x256-t512-b2-n3-sweep", run_kernel<Swept<U8NarrowSkew>>},
    // -sp5: the sweeps' groups dealt over five runs (SpreadGroups, run 32)
    {1, "nskew-256x256-t512-b2-n3-sweep-sp5", run_kernel<SpreadSweeps<U8NarrowSkew>>},
    {1, "narrow-256-t512-b2-sweep-eledge-sp5", run_kernel<SpreadSweeps<U8Narrow256Elem>>},
    {1, "narrow-256-t512-b2-sweep-sp5", run_kernel<SpreadSweeps<U8Narrow256>>},
    {2, "tile-64x64w16", run_kernel<Tiled<U16Tile>>},
    // 128 x 128 tiles of 16-byte words, 256 threads (f32's word kernel's geometry): the library's
    // on 256-byte rows on high-bandwidth devices since run 44
    {2, "tile-128x128w16-t256", run_kernel<Tiled<U16Words128>>},
    {2, "tile-32x32w2-any", run_kernel<U16Tiny>},
    {2, "tile-32x32w4-any", run_kernel<Tiled<TileConfig<2, 4, 16, 16, 256>, 1>>},
    {2, "tile-64x64w4-any", run_kernel<Tiled<TileConfig<2, 4, 32, 32, 256>, 1>>},
    {2, "skew-64x64w16", run_kernel<Skewed<U16Skew>>},
    {2, "rot-128x128-t1024-b1-cm", run_kernel<Rotated<std::uint16_t, 128, 1024, 1, kSkewOrder, 0>>},
    {2, "rot-128x128-t512-b3-cm", run_kernel<U16Rotated>},
    {2, "rot-128x128-t512-b3", run_kernel<Rotated<std::uint16_t, 128, 512, 3, 1, 0>>},
    {2, "narrow-128-t512-b2-cm", run_kernel<U16Narrow>},
    {2, "narrow-128-t512-b2-cm-rot",
     run_kernel<Narrow<std::uint16_t, 128, 512, 2, kSkewOrder, true>>},
    {2, "narrow-128-t512-b2-sweep", run_kernel<Swept<U16Narrow>>},
    {2, "narrow-128-t512-b2-sweep-eledge",
     run_kernel<
         Swept<Narrow<std::uint16_t, 128, 512, 2, kSkewOrder, false, NarrowEdge::kElements>>>},
    {2, "rot-128x128-t512-b3-sweep", run_kernel<Swept<U16Rotated>>},
    {2, "nskew-128x128-t512-b2-n5-cm",
     run_kernel<NarrowSkewed<NarrowSkewConfig<std::uint16_t, 128, 128, 512, 2, 5>, kSkewOrder>>},
    {2, "nskew-256x128-t512-b2-n3-cm",
     run_kernel<NarrowSkewed<NarrowSkewConfig<std::uint16_t, 256, 128, 512, 2, 3>, kSkewOrder>>},
    {2, "nskew-256x128-t512-b2-n5-cm",
     run_kernel<NarrowSkewed<NarrowSkewConfig<std::uint16_t, 256, 128, 512, 2, 5>, kSkewOrder>>},
    {2, "nskew-128x256-t512-b2-n3-cm", run_kernel<U16NarrowSkew>},
    {2, "nskew-128x256-t512-b2-n3-sweep", run_kernel<Swept<U16NarrowSkew>>},
    // -sp5: the sweeps' groups dealt over five runs (SpreadGroups, run 32)
    {2, "nskew-128x256-t512-b2-n3-sweep-sp5", run_kernel<SpreadSweeps<U16NarrowSkew>>},
    {2, "narrow-128-t512-b2-sweep-sp5", run_kernel<SpreadSweeps<U16Narrow>>},
    // f32
    {4, "tile-64x64w8", run_kernel<Tiled<F32Tile>>},
    // 32 x 32 tiles, output rows on any element (run 37: small matrices; the w8 / w16 forms need
    // both pitches on their word)
    {4, "tile-32x32w4-any", run_kernel<Tiled<Tile32<4>, 1>>},
    {4, "tile-32x32w8-any", run_kernel<Tiled<TileConfig<4, 8, 16, 16, 256>, 1>>},
    {4, "tile-32x32w16-any", run_kernel<Tiled<TileConfig<4, 16, 8, 8, 64>, 1>>},
    // cuBLAS geam's geometry (64 x 64 tiles, one element an access, 256 threads), row-major and
    // down the tile columns (-cm), and 32 x 32 tiles down the columns (run 38: rows off 16 bytes)
    {4, "tile-64x64w4-any", run_kernel<Tiled<F32Tile64W4, 1>>},
    {4, "tile-64x64w4-any-cm", run_kernel<Tiled<F32Tile64W4, 1, kSkewOrder>>},
    {4, "tile-32x32w4-any-cm", run_kernel<Tiled<Tile32<4>, 1, kSkewOrder>>},
    // lines: lines.cuh (line-aligned accesses, one element a lane; run 39's candidates)
    {4, "lines-64x64-cm", run_kernel<Lines<LinesConfig<4, 64, 64, 256>>>},
    {4, "lines-64x64-b4-cm", run_kernel<Lines<LinesConfig<4, 64, 64, 256, 4>>>},
    {4, "lines-64x64-x2-b6-cm", run_kernel<Lines<LinesConfig<4, 64, 64, 256, 6, 0, 2>>>},
    {4, "lines-64x128-x4-b6-cm", run_kernel<Lines<F32LinesConfig>>},
    {4, "lines-64x128-x2-b6-cm", run_kernel<Lines<LinesConfig<4, 64, 128, 256, 6, 0, 2>>>},
    {4, "lines-64x128-x8-b6-cm", run_kernel<Lines<LinesConfig<4, 64, 128, 256, 6, 0, 8>>>},
    {4, "lines-64x128-x4-b7-cm", run_kernel<Lines<LinesConfig<4, 64, 128, 256, 7, 0, 4>>>},
    {4, "lines-64x128-x4-b6", run_kernel<Lines<F32LinesConfig, 1>>},
    // the library's f32 line-aligned kernel on high-bandwidth devices since run 43
    {4, "lines-128x128-t512-x2-b3-cm", run_kernel<Lines<F32BigLinesConfig>>},
    // Pruned after run 43 (call 2, refuted): lines-128x128-t512-x4-b3-cm (1-9 % behind the x2
    // form); f64 lines-64x128-t512-x2-b3-cm / lines-128x64-t512-x2-b3-cm and c128
    // lines-64x64-t512-x2-b3-cm / -x4-b3-cm (0.1-17 % behind their defaults). Commit 42cf973 has
    // them.
    // Pruned after run 42 (call 2): f32 tiles of 128 input rows (512-byte output row pieces, as
    // f64's and c128's tiles write), lines-128x64-x4-b6-cm / -x2-b4-cm, lines-128x128-x4-b3-cm /
    // -x8-b3-cm / -t512-x2-b2-cm, 8-21 % behind the default at the aligned goal shapes and in the
    // TMA class on an H200 (commit 52a0fda has them).
    {4, "peel-64x64w8", run_kernel<Peeled<F32Tile, Skewed<F32Skew, kSkewOrder>>>},
    // Pruned after run 24 (calls 4-5): -bandNk, the tiled kernels of f32 / f64 / c128 on column
    // bands of N x 1024 input columns, one launch a band; ahead only on a few power-of-two shapes
    // (f32 32768² 16k 0.970 / 0.968, f64 32768² 8k 0.965 / 0.960, c128 16384² 4k 0.973 / 0.966),
    // behind at 24576², 12288², 20000x30000 (commit 15134d3 has them).
    {4, "skew-64x64w16-b4", run_kernel<Skewed<F32SkewPlain>>},
    {4, "skew-64x64w16-b4-cm", run_kernel<Skewed<F32SkewPlain, kSkewOrder>>},
    {4, "skew-64x64w16-b4-cm-p256", run_kernel<Skewed<F32Skew, kSkewOrder>>},
    {4, "skew-64x64w16-b4-cm-p256-stag", run_kernel<StaggeredColumns<F32Skew>>},
    {4, "skew-64x64w16-b4-cm-p256-stag16", run_kernel<StaggeredColumns<F32Skew, 16>>},
    {4, "skew-64x64w16-b4-cm-p256-stag64", run_kernel<StaggeredColumns<F32Skew, 64>>},
    {4, "skew-64x64w16-b4-cm-p256-stagc64", run_kernel<StaggeredColumns<F32Skew, 64, true>>},
    // -sweep[16k]: column sweeps capped at 32000 [16000] rows; -g16k: column-major up to 28000
    // rows, groups of at most 16000 rows above (RowGroups, the default of runs 21-29; since run
    // 30 the dispatch's SkewGroups keeps column order on some taller inputs; run 21's -tall16k /
    // -tall20k / -tall24k, the same from 32000 rows, are in commit b39bf18)
    {4, "skew-64x64w16-b4-sweep-p256", run_kernel<Swept<Skewed<F32Skew>>>},
    {4, "skew-64x64w16-b4-g16k-p256", run_kernel<RowGroups<Skewed<F32Skew>>>},
    // -spS: groups of 16000 rows dealt over S runs (SpreadGroups, run 32; -sp5 is the library's
    // launch on one-stack output pitches past 28000 rows off lines; the unhinted f32 form, 3 %
    // behind, f32 -sp10, within 0.5 %, and f32 stagger bands of 32 / 128 and without the hint,
    // ahead at one shape of four, are in commit 05f1008)
    {4, "skew-64x64w16-b4-g16k-p256-sp5", run_kernel<SpreadGroups<Skewed<F32Skew>, 5>>},
    {4, "skew-64x64w16-b4-sweep16k-p256", run_kernel<Swept<Skewed<F32Skew>, 16000>>},
    {4, "rskew-56x64", run_kernel<Realigned<RealignConfig<4, 56, 64, 256>>>},
    {4, "rskew-56x64-b4", run_kernel<Realigned<RealignConfig<4, 56, 64, 256, 4>>>},
    {4, "rskew-56x128-b2", run_kernel<Realigned<RealignConfig<4, 56, 128, 256, 2>>>},
    {4, "rskew-120x64-b2", run_kernel<Realigned<RealignConfig<4, 120, 64, 256, 2>>>},
    {4, "rskew-120x64-b3", run_kernel<Realigned<RealignConfig<4, 120, 64, 256, 3>>>},
    {4, "rskew-120x32-b4", run_kernel<Realigned<RealignConfig<4, 120, 32, 256, 4>>>},
    // f64
    {8, "tile-32x64w8-b3", run_kernel<Tiled<F64Tile>>},
    {8, "tile-32x32w8-any", run_kernel<Tiled<Tile32<8>, 1>>},
    {8, "tile-32x32w16-any", run_kernel<Tiled<F64TileW16, 1>>},
    {8, "tile-64x64w8-any", run_kernel<Tiled<F64ManyConfig, 1>>},
    {8, "tile-64x64w8-any-cm", run_kernel<F64ManyTiles>},
    {8, "tile-32x32w8-any-cm", run_kernel<Tiled<Tile32<8>, 1, kSkewOrder>>},
    {8, "lines-64x64-cm", run_kernel<Lines<LinesConfig<8, 64, 64, 256>>>},
    {8, "lines-64x64-x2-b6-cm", run_kernel<Lines<LinesConfig<8, 64, 64, 256, 6, 0, 2>>>},
    {8, "lines-64x64-x4-b6-cm", run_kernel<Lines<F64LinesConfig>>},
    {8, "lines-64x64-x8-b6-cm", run_kernel<Lines<LinesConfig<8, 64, 64, 256, 6, 0, 8>>>},
    {8, "lines-32x64-x2-b8-cm", run_kernel<Lines<F64SmallLinesConfig>>},
    {8, "lines-64x32-x4-b8-cm", run_kernel<Lines<LinesConfig<8, 64, 32, 256, 8, 0, 4>>>},
    {8, "peel-32x64w8-b3", run_kernel<Peeled<F64Tile, Skewed<F64Skew, kSkewOrder>>>},
    {8, "tile-32x64w8-b4", run_kernel<Tiled<TileConfig<8, 8, 32, 64, 256, 4>>>},
    {8, "tile-64x64w16-b2", run_kernel<Tiled<TileConfig<8, 16, 32, 32, 256, 2>>>},
    {8, "skew-64x64w16", run_kernel<Skewed<SkewConfig<8, 16, 64, 64, 256, 32>>>},
    {8, "skew-32x64w16-b4", run_kernel<Skewed<F64Skew>>},
    {8, "skew-32x64w16-b4-cm", run_kernel<Skewed<F64Skew, kSkewOrder>>},
    {8, "skew-32x64w16-b4-cm-stag", run_kernel<StaggeredColumns<F64Skew>>},
    {8, "skew-32x64w16-b4-cm-stag32", run_kernel<StaggeredColumns<F64Skew, 32>>},
    {8, "skew-32x64w16-b4-cm-stagc128", run_kernel<StaggeredColumns<F64Skew, 128, true>>},
    {8, "skew-32x64w16-b4-sweep", run_kernel<Swept<Skewed<F64Skew>>>},
    {8, "skew-32x64w16-b4-sweep16k", run_kernel<Swept<Skewed<F64Skew>, 16000>>},
    {8, "skew-32x64w16-b4-g16k", run_kernel<RowGroups<Skewed<F64Skew>>>},
    {8, "skew-32x64w16-b4-g16k-sp5", run_kernel<SpreadGroups<Skewed<F64Skew>, 5>>},
    {8, "rskew-60x32", run_kernel<Realigned<RealignConfig<8, 60, 32, 256>>>},
    {8, "rskew-60x32-b4", run_kernel<Realigned<RealignConfig<8, 60, 32, 256, 4>>>},
    {8, "rskew-28x64-b4", run_kernel<Realigned<RealignConfig<8, 28, 64, 256, 4>>>},
    {8, "rskew-124x32-b2", run_kernel<Realigned<RealignConfig<8, 124, 32, 256, 2>>>},
    // complex128
    {16, "tile-16x16", run_kernel<Tiled<C128Tile>>},
    {16, "tile-16x16-any", run_kernel<Tiled<C128Tile, 1>>},
    {16, "tile-32x32-any", run_kernel<Tiled<Tile32<16>, 1>>},
    {16, "tile-32x32-any-cm", run_kernel<C128ManyTiles>},
    {16, "tile-16x16-any-cm", run_kernel<Tiled<C128Tile, 1, kSkewOrder>>},
    {16, "lines-32x32-cm", run_kernel<Lines<LinesConfig<16, 32, 32, 256>>>},
    {16, "lines-32x32-x2-b8-cm", run_kernel<Lines<C128SmallLinesConfig>>},
    {16, "lines-32x32-x4-b8-cm", run_kernel<Lines<LinesConfig<16, 32, 32, 256, 8, 0, 4>>>},
    {16, "lines-32x64-x4-b6-cm", run_kernel<Lines<LinesConfig<16, 32, 64, 256, 6, 0, 4>>>},
    {16, "lines-64x32-x4-b6-cm", run_kernel<Lines<LinesConfig<16, 64, 32, 256, 6, 0, 4>>>},
    {16, "peel-16x16", run_kernel<Peeled<C128Tile, Skewed<C128Skew, kSkewOrder>>>},
    {16, "tile-16x16-t128", run_kernel<Tiled<C128TileT128>>},
    {16, "tile-32x16", run_kernel<Tiled<TileConfig<16, 16, 32, 16, 256>>>},
    {16, "skew-32x64-b2", run_kernel<Skewed<SkewConfig<16, 16, 32, 64, 256, 32, 2>>>},
    {16, "skew-32x32-b3", run_kernel<Skewed<SkewConfig<16, 16, 32, 32, 256, 32, 3>>>},
    {16, "skew-32x32-b4", run_kernel<Skewed<C128Skew>>},
    {16, "skew-32x32-b4-cm", run_kernel<Skewed<C128Skew, kSkewOrder>>},
    {16, "skew-32x32-b4-cm-stag", run_kernel<StaggeredColumns<C128Skew>>},
    {16, "skew-32x32-b4-cm-stag32", run_kernel<StaggeredColumns<C128Skew, 32>>},
    {16, "skew-32x32-b4-cm-stagc32", run_kernel<StaggeredColumns<C128Skew, 32, true>>},
    // -stagc32u10: balanced only where bands of 32 would be fewer than 10 (run 32)
    {16, "skew-32x32-b4-cm-stagc32u10", run_kernel<StaggeredColumns<C128Skew, 32, true, 10>>},
    {16, "skew-32x32-b4-sweep", run_kernel<Swept<Skewed<C128Skew>>>},
    {16, "skew-32x32-b4-sweep16k", run_kernel<Swept<Skewed<C128Skew>, 16000>>},
    {16, "skew-32x32-b4-g16k", run_kernel<RowGroups<Skewed<C128Skew>>>},
    {16, "skew-32x32-b4-g16k-sp5", run_kernel<SpreadGroups<Skewed<C128Skew>, 5>>},
    {16, "skew-16x64-b4", run_kernel<Skewed<SkewConfig<16, 16, 16, 64, 256, 32, 4>>>},
    {16, "rskew-30x32", run_kernel<Realigned<RealignConfig<16, 30, 32, 256>>>},
    {16, "rskew-62x16-b4", run_kernel<Realigned<RealignConfig<16, 62, 16, 256, 4>>>},
#if XPOSE_HAVE_TMA
    // Hopper TMA (tma.cuh); TILE is input rows x input columns.
    {4, "tma-64x64", run_tma<cuda_tile::TmaConfig<4, 2, 2, 128>>},
    {4, "tma-64x64-t256", run_tma<cuda_tile::TmaConfig<4, 2, 2, 256>>},
    {4, "tma-32x64", run_tma<cuda_tile::TmaConfig<4, 2, 1, 128>>},
    {4, "tma-64x32", run_tma<cuda_tile::TmaConfig<4, 1, 2, 128>>},
    {4, "tma-64x128", run_tma<cuda_tile::TmaConfig<4, 4, 2, 256>>},
    {4, "tma-128x128", run_tma<cuda_tile::TmaConfig<4, 4, 4, 256>>},
    {8, "tma-32x32", run_tma<cuda_tile::TmaConfig<8, 2, 2, 128>>},
    {8, "tma-32x64", run_tma<cuda_tile::TmaConfig<8, 4, 2, 256>>},
    {8, "tma-64x32", run_tma<cuda_tile::TmaConfig<8, 2, 4, 256>>},
    {8, "tma-64x64", run_tma<cuda_tile::TmaConfig<8, 4, 4, 256>>},
    {16, "tma-16x16", run_tma<cuda_tile::TmaConfig<16, 2, 2, 128>>},
    {16, "tma-16x32", run_tma<cuda_tile::TmaConfig<16, 4, 2, 256>>},
    {16, "tma-32x32", run_tma<cuda_tile::TmaConfig<16, 4, 4, 256>>},
    // TMA loads, plain 16-byte stores (tma_load_kernel)
    {4, "tmald-64x64", run_tma<cuda_tile::TmaConfig<4, 2, 2, 256>, false>},
    {4, "tmald-64x32", run_tma<cuda_tile::TmaConfig<4, 1, 2, 128>, false>},
    {4, "tmald-128x64", run_tma<cuda_tile::TmaConfig<4, 2, 4, 256>, false>},
    {8, "tmald-32x32", run_tma<cuda_tile::TmaConfig<8, 2, 2, 256>, false>},
    {8, "tmald-32x64", run_tma<cuda_tile::TmaConfig<8, 4, 2, 256>, false>},
    {16, "tmald-16x16", run_tma<cuda_tile::TmaConfig<16, 2, 2, 256>, false>},
    {16, "tmald-16x32", run_tma<cuda_tile::TmaConfig<16, 4, 2, 256>, false>},
#endif
};

}  // namespace

std::vector<std::string> out_of_place(std::size_t elem_size) {
  std::vector<std::string> names{"default"};
  for (const Entry& e : kEntries)
    if (e.elem == elem_size) names.emplace_back(e.name);
  return names;
}

bool run_out_of_place(const std::string& name, const void* in, void* out, std::size_t elem_size,
                      const TransposeShape& shape, DeviceStream stream) {
  if (name == "default") {
    transpose_cuda(in, out, elem_size, shape, stream);
    return true;
  }
  for (const Entry& e : kEntries) {
    if (e.elem != elem_size || name != e.name) continue;
    const TransposeShape s = shape.resolved();
    if (s.rows == 0 || s.cols == 0 || s.batch == 0) return true;
    if (in == nullptr || out == nullptr)
      throw DimensionMismatch("transpose_cuda: null buffer for a non-empty transpose");
    return e.run(in, out, s, static_cast<cudaStream_t>(stream));
  }
  throw UnsupportedInputError(
      cat("transpose_cuda: no variant '", name, "' for element size ", elem_size));
}

DispatchChoice default_out_of_place(const void* in, const void* out, std::size_t elem_size,
                                    const TransposeShape& shape) {
  const TransposeShape s = shape.resolved();
  return with_kernels(elem_size, "default_out_of_place", [&](auto list) {
    if (copies_in_order(s)) return DispatchChoice{-1, list_size(list), true};
    return DispatchChoice{choose(list, in, out, s), list_size(list)};
  });
}

}  // namespace variants

}  // namespace xpose::kernels
