/// @file
/// The library's CUDA kernels as host-side data (kernels/cuda/kernels.def): each one's family,
/// geometry and shared memory, and what each family can take (alignment, shared memory, the TMA
/// unit). Plain C++: the choice (choice.cpp) runs it on any build. Internal to kernels/.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/choice.h"
#include "kernels/transpose.h"

namespace xpose::kernels::detail {

enum class Family {
  kRecords,       ///< records.cuh: a short side of at most 16, u8 / u16
  kThin,          ///< thin.cuh: a short side of at most 256 in one block
  kTiled,         ///< tiled.cuh: W-byte words both ways
  kSkew,          ///< skew.cuh: any rows, output pieces on 32-byte sectors
  kLines,         ///< lines.cuh: every warp access inside one aligned line
  kNarrow,        ///< narrow.cuh: 4-byte words on rows of any alignment (u8, u16)
  kNarrowSkew,    ///< narrow_skew.cuh: the same, output pieces on sectors
  kRotated,       ///< rotated.cuh: rows rotated onto 128-byte lines
  kTmaLoad,       ///< tma.cuh: Hopper bulk tensor loads, plain stores
  kPairs,         ///< inplace.cuh: tile pairs of W-byte words, P pairs a block
  kStrip,         ///< inplace.cuh: pairs with the mirror strip on 128-byte lines
  kRotatedPairs,  ///< inplace.cuh: pairs with both tiles' rows on 128-byte lines
  kNarrowPairs,   ///< narrow.cuh: pairs of 4-byte words (u8, u16)
};

struct KernelSpec {
  const char* name;
  int elem;
  Family family;
  bool in_place;
  const char* instantiation;  ///< skew, narrow, narrow skew: without the spread flag
  int tile_rows;              ///< input rows of a tile (in place: the pair tiles' side)
  int tile_cols;              ///< input columns of a tile
  int extra_rows;             ///< rows a launch's tile grid adds above the first
  int word;                   ///< bytes a global access (tiled, pairs, strip)
  std::int64_t smem;          ///< shared memory a block, bytes
  int pairs;                  ///< in place: tile pairs a block
  int group;                  ///< in place: tile rows a group (interleaved: runs)
  int fetch;                  ///< skew: bytes L2 fetches a load at (128 or 256)
  int a_out;                  ///< skew: output pieces' alignment in bytes
  int option;                 ///< thin: ThinShifted; records: 1 for whole lines
};

// ---- the kernels' geometry, as the CUDA configurations compute it (launch.cu checks it) -----

constexpr int rotated_pitch(int elem, int ts) {  // inplace.cuh's rotated_pitch
  return elem >= 4 ? ts + 1 : ts + 4 / elem;
}
constexpr std::int64_t narrow_tile_bytes(int elem, int ts) {  // narrow.cuh's
  const std::int64_t rotated = std::int64_t(ts) * rotated_pitch(elem, ts) * elem;
  const std::int64_t words = std::int64_t(ts) * ts * elem;
  return rotated > words ? rotated : words;
}
constexpr int narrow_skew_pitch(int elem, int th) {  // NarrowSkewConfig::pitch()
  const int e = 4 / elem, hg = (th + 32 / elem) / e;
  int p = hg;
  while ((e * p) % 8 != 0 || ((e * p / 8) & 1) == 0) ++p;
  return p;
}
constexpr int skew_extra_rows(int elem, int a_out) {  // SkewConfig::M
  return a_out > elem ? a_out / elem - 1 : 0;
}
constexpr std::int64_t skew_smem(int elem, int th, int tw, int a_out) {  // SkewConfig
  const int swz = 128 / (elem > 4 ? elem : 4);
  const int pitch = (th + skew_extra_rows(elem, a_out) + swz - 1) / swz * swz;
  return std::int64_t(tw) * pitch * elem;
}

constexpr KernelSpec spec(const char* name, int elem, Family f, bool in_place, const char* inst,
                          int rows, int cols, int extra, int word, std::int64_t smem,
                          int pairs = 1, int group = 1, int fetch = 0, int a_out = 0,
                          int option = 0) {
  return KernelSpec{name, elem, f,     in_place, inst,  rows,  cols,  extra,
                    word, smem, pairs, group,    fetch, a_out, option};
}

/// kernels.def's kernels in order; KernelChoice::kernel indexes this.
inline constexpr KernelSpec kKernels[] = {
#define XPOSE_RECORDS(E, NAME, LINES) \
  spec(NAME, E, Family::kRecords, false, "", 0, 0, 0, 0, 0, 1, 1, 0, 0, LINES ? 1 : 0),
#define XPOSE_THIN(E, NAME, SHIFTED) \
  spec(NAME, E, Family::kThin, false, "", 0, 0, 0, 0, 0, 1, 1, 0, 0, SHIFTED),
#define XPOSE_TILED(E, NAME, W, BR, BC, NT, MINB, HINT)                                         \
  spec(NAME, E, Family::kTiled, false,                                                          \
       "tiled_kernel<TileConfig<" #E "," #W "," #BR "," #BC "," #NT "," #MINB "," #HINT ">>", \
       BR*(W / E), BC*(W / E), 0, W, std::int64_t(BC) * (W / E) * BR * W),
#define XPOSE_SKEW(E, NAME, W, TH, TW, NT, A_OUT, MINB, HINT)                                \
  spec(NAME, E, Family::kSkew, false,                                                       \
       "skew_kernel<SkewConfig<" #E "," #W "," #TH "," #TW "," #NT "," #A_OUT "," #MINB "," \
       #HINT ">",                                                                            \
       TH, TW, skew_extra_rows(E, A_OUT), W, skew_smem(E, TH, TW, A_OUT), 1, 1,              \
       (HINT & 4) ? 256 : 128, A_OUT),
#define XPOSE_LINES(E, NAME, TR, TC, NT, MINB, HINT, PH)                                    \
  spec(NAME, E, Family::kLines, false,                                                      \
       "lines_kernel<LinesConfig<" #E "," #TR "," #TC "," #NT "," #MINB "," #HINT "," #PH \
       ">>",                                                                                 \
       TR, TC, 0, E, std::int64_t(TC) * (TR + 1) * E),
#define XPOSE_NARROW(E, NAME, T, TS, NT, MINB, ROT, EDGE)                                   \
  spec(NAME, E, Family::kNarrow, false,                                                     \
       "narrow_kernel<" #T "," #TS "," #NT "," #MINB "," #ROT ",(NarrowEdge)" #EDGE, TS, TS, \
       0, 4, narrow_tile_bytes(E, TS)),
#define XPOSE_NARROW_SKEW(E, NAME, T, TH, TW, NT, MINB, BATCH)                                  \
  spec(NAME, E, Family::kNarrowSkew, false,                                                     \
       "narrow_skew_kernel<NarrowSkewConfig<" #T "," #TH "," #TW "," #NT "," #MINB "," #BATCH \
       ">",                                                                                      \
       TH, TW, 32 / E - 1, 4, std::int64_t(TW) * narrow_skew_pitch(E, TH) * 4),
#define XPOSE_ROTATED(E, NAME, T, TS, NT, MINB, HINT)                                        \
  spec(NAME, E, Family::kRotated, false,                                                     \
       "rotated_kernel<" #T "," #TS "," #NT "," #MINB "," #HINT ">", TS, TS, 0, E,          \
       std::int64_t(TS) * rotated_pitch(E, TS) * E),
#define XPOSE_TMA_LOAD(E, NAME, KC, KR, NT)                                                     \
  spec(NAME, E, Family::kTmaLoad, false,                                                        \
       "tma_load_kernel<TmaConfig<" #E "," #KC "," #KR "," #NT ",1>>", 128 / E * KR,            \
       128 / E * KC, 0, 16, std::int64_t(128 / E * KR) * (128 / E * KC) * E + 1024),
#define XPOSE_PAIRS(E, NAME, W, BR, BC, NT, MINB, HINT, ORDER, GROUP, PAIRS)                  \
  spec(NAME, E, Family::kPairs, true,                                                          \
       PAIRS == 1 ? "inplace_kernel<TileConfig<" #E "," #W "," #BR "," #BC "," #NT "," #MINB \
                    "," #HINT ">,(PairOrder)" #ORDER ">"                                     \
                  : "inplace_multi_kernel<TileConfig<" #E "," #W "," #BR "," #BC "," #NT     \
                    "," #MINB "," #HINT ">,(PairOrder)" #ORDER "," #PAIRS ">",               \
       BR*(W / E), BC*(W / E), 0, W, 2 * PAIRS * std::int64_t(BC) * (W / E) * BR * W, PAIRS, \
       GROUP),
#define XPOSE_STRIP(E, NAME, W, BR, BC, NT, MINB, HINT, GROUP, PAIRS, ALIGN, SHINT)            \
  spec(NAME, E, Family::kStrip, true,                                                           \
       "inplace_strip_kernel<TileConfig<" #E "," #W "," #BR "," #BC "," #NT "," #MINB "," #HINT \
       ">," #PAIRS "," #ALIGN "," #SHINT ">",                                                  \
       BR*(W / E), BC*(W / E), 0, W, 2 * PAIRS * std::int64_t(BC) * (W / E) * BR * W, PAIRS,  \
       GROUP),
#define XPOSE_ROTATED_PAIRS(E, NAME, T, TS, NT, MINB, HINT, GROUP)                            \
  spec(NAME, E, Family::kRotatedPairs, true,                                                   \
       "inplace_rotated_kernel<" #T "," #TS "," #NT "," #MINB "," #HINT ",true,(PairOrder)2," \
       "true>",                                                                                \
       TS, TS, 0, E, 2 * std::int64_t(TS) * rotated_pitch(E, TS) * E, 1, GROUP),
#define XPOSE_NARROW_PAIRS(E, NAME, T, TS, NT, MINB, GROUP, SEQ, EDGE)                      \
  spec(NAME, E, Family::kNarrowPairs, true,                                                  \
       "inplace_narrow_kernel<" #T "," #TS "," #NT "," #MINB "," #SEQ ",(NarrowEdge)" #EDGE \
       ">",                                                                                  \
       TS, TS, 0, 4, 2 * narrow_tile_bytes(E, TS), 1, GROUP),
#include "kernels/cuda/kernels.def"
};
inline constexpr int kKernelCount = static_cast<int>(sizeof kKernels / sizeof kKernels[0]);

constexpr bool same_name(const char* a, const char* b) {
  while (*a != 0 && *a == *b) ++a, ++b;
  return *a == *b;
}
/// Index of kernel `name` of `elem`-byte elements in kKernels; -1 where there is none.
constexpr int kernel_index(int elem, bool in_place, const char* name) {
  for (int i = 0; i < kKernelCount; ++i)
    if (kKernels[i].elem == elem && kKernels[i].in_place == in_place &&
        same_name(kKernels[i].name, name))
      return i;
  return -1;
}

/// Whether kernel `k` can take the out-of-place layout `s` (resolved) from `in` to `out` on
/// `device`: the family's alignment, the block's shared memory, the TMA unit.
bool takes_out_of_place(const KernelSpec& k, std::uintptr_t in, std::uintptr_t out,
                        const TransposeShape& s, const DeviceProfile& device);
/// Whether in-place kernel `k` can take dense n x n matrices at `buf` on `device`.
bool takes_in_place(const KernelSpec& k, std::uintptr_t buf, std::int64_t n,
                    const DeviceProfile& device);
/// Blocks in-place kernel `k` launches for one n x n matrix (pairs on and above the diagonal,
/// k.pairs a block).
std::int64_t pair_blocks(const KernelSpec& k, std::int64_t n);

// ---- layout facts the families and the rules share -------------------------------------------

/// Every output / input row of `s` starts on an `align`-byte boundary: pointer, pitch and (with
/// more than one matrix) batch stride.
bool output_rows_aligned(std::uintptr_t out, const TransposeShape& s, std::int64_t elem,
                         std::int64_t align);
bool input_rows_aligned(std::uintptr_t in, const TransposeShape& s, std::int64_t elem,
                        std::int64_t align);
/// Rows `pitch` bytes apart all fall on one DRAM stack at a given column offset: a multiple of 5
/// x 64 KiB on a five-stack device (H100 80 GB), where a stack's interleave repeats every 5 x 64
/// KiB of address.
bool pitch_on_one_stack(std::int64_t pitch, const DeviceProfile& device);

/// How the thin kernel moves a layout (thin.cuh's ThinForm, host side).
struct ThinForm {
  bool short_rows;  ///< rows <= cols: the input is the wide matrix
  int wide;         ///< 0 element by element, 1 4-byte words, 2 shifted words
  bool tall_words;  ///< the tall matrix dense and on 4 bytes
  bool blocks;      ///< P x P blocks of the tall side
};
ThinForm thin_form(int elem, int shifted, std::uintptr_t in, std::uintptr_t out,
                   const TransposeShape& s);
/// The thin kernel's template for that form (thin.cuh's pick).
const char* thin_instantiation(int elem, const ThinForm& f, char* buf, std::size_t size);

}  // namespace xpose::kernels::detail
