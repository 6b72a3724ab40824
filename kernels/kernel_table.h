/// @file
/// The preference table's C++ form (kernel_table.inc, generated from kernel_table.csv by
/// kernel_table.py): each rule is an element size, a kind, a device class, conditions on the
/// layout, a kernel and a tile order. Internal to kernels/ (choice.cpp evaluates it).
#pragma once

#include <cstdint>

namespace xpose::kernels::detail {

/// One condition of a rule (kernel_table.csv's header says each one in words).
enum class CondKind {
  kInOn,              ///< in%a
  kInOff,             ///< in!%a
  kOutOn,             ///< out%a
  kOutOff,            ///< out!%a
  kRowsAtMost,        ///< rows<=a
  kRowsOver,          ///< rows>a
  kRowsAtLeast,       ///< rows>=a (in place: n>=a)
  kTilesAtLeast,      ///< tiles(a x b) per SM >= c / 100
  kTilesUnder,        ///< tiles(a x b) per SM < c / 100
  kShortRows,         ///< rows <= cols
  kShortCols,         ///< rows > cols
  kShortBetween,      ///< a <= min(rows, cols) <= b
  kWideWords,         ///< the wide matrix's rows on 4 bytes
  kWideOff4,          ///< ... off 4 bytes
  kThinBlocks,        ///< the thin kernel moves P x P blocks
  kWhole,             ///< no a x a tile clipped
  kPartialBoth,       ///< rows and cols both off multiples of a
  kPartialUnder,      ///< under b % of the a x a tiles clipped
  kRowsAtMostOrWide,  ///< rows <= a, or 2 cols >= rows
  kNotShortInPitch,   ///< not (input rows a bytes apart, rows x elem < a)
  kOutOneStack,       ///< output pitch on one DRAM stack
  kNotOutOneStack,
  kInOneStack,        ///< input pitch on one DRAM stack
  kTakes,             ///< kernel a takes the layout
  kBlocksUnder,       ///< in place: kernel a's blocks over the batch per SM < b / 100
  kBlocksOneUnder,    ///< ... for one matrix
  kBlocksAtLeast,     ///< the rule's kernel's blocks over the batch per SM >= b / 100
  kEdgeAtLeast,       ///< in place: n mod the rule kernel's tile side >= a
  kOffLines,          ///< in place: rows off 128-byte lines
};

struct Cond {
  CondKind kind;
  std::int64_t a, b, c;
};

/// How a kernel walks its tiles (kernel_table.csv's order column).
enum class OrderKind {
  kDefault,   ///< the family's own: tiled row-major, the others down the tile columns
  kRowMajor,
  kColumns,
  kSweeps,    ///< columns up to b input rows, else groups of at most a rows
  kSpread,    ///< kSweeps' groups (b, c) dealt over a runs
  kStagger,   ///< columns in bands of a tile rows turning by 64 KiB; b: balanced; c: only
              ///< where bands of a would be fewer than c (0: always)
};

struct Rule {
  bool in_place;
  int elem;
  bool hbm;  ///< only on high-bandwidth devices (DeviceProfile::high_bandwidth)
  int kernel;
  OrderKind order;
  std::int64_t oa, ob, oc;
  int first, count;  ///< its conditions in kConds
  int line;          ///< in kernel_table.csv
  const char* when;
  const char* reason;
};

}  // namespace xpose::kernels::detail
