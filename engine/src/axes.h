/// @file
/// Axis orders (NumPy's `axes`: output axis i is input axis perm[i]) and how the engine carries
/// one out. Pure arithmetic, no MPI or HDF5, so it is unit-tested directly.
///
/// The engine does one thing: a batch of R x C transposes, rows split over ranks. Any axis order
/// reduces to it. Axes of length 1 take no part; axes that stay adjacent and in order merge into
/// one group; then
///  - the group that ends both the input and the output is the *element*: it moves as one wide
///    element of (its extent x the dataset's element size) bytes;
///  - the last other group of the input is C (the columns: contiguous in the input), the last
///    other group of the output is R (the rows: contiguous in the output);
///  - every other group is a batch axis: the largest is the stage's batch (several matrices per
///    stage, at one stride), the rest are outer batch axes (one index per stage).
/// So every permutation takes one pass: (time, lat, lon) -> (lat, lon, time) is (time, lat*lon)
/// transposed; (a, b, c) -> (b, a, c) is (a, b) transposed with c-long elements; (2, 3, 1, 0) of
/// (A, B, C, D) is C*D transposed against A with B as a batch between them. Reads stay runs of
/// the column group and writes runs of the row group, as in a 2-D transpose.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "xpose/types.h"

namespace xpose {

/// The largest rank an explicit axis order may have (more is UnsupportedInputError, exit 5).
constexpr std::size_t kMaxAxesRank = 8;

/// Output axis i is input axis perm[i].
using Permutation = std::vector<int>;

/// Splits an `--axes` value, "2,0,1" or "lat,lon,time", into its entries (spaces trimmed).
/// UsageError on an empty list or an empty entry.
std::vector<std::string> split_axes(const std::string& text);

/// Whether an --axes entry is an axis number ("2", "-1") rather than a dimension name.
bool is_axis_number(const std::string& entry);

/// The permutation that `axes` names for a dataset of `shape` whose dimensions are called
/// `names` (one per axis, "" where a dimension has no name; may be empty when none has).
///  - all entries integers: NumPy's meaning (negative ones count from the end); every axis once;
///  - all entries names: each names a different dimension; the named dimensions take, in the
///    order given, the positions they hold, and the others stay where they are (NCO ncpdq's
///    `-a`); naming every dimension gives exactly that order.
/// UsageError for anything else (the message names the dataset `label` and what it has);
/// UnsupportedInputError when the dataset has more than kMaxAxesRank axes or fewer than 2.
Permutation resolve_axes(const std::vector<std::string>& axes, const Shape& shape,
                         const std::vector<std::string>& names, const std::string& label);

/// The order applied to variables whose dimensions include some of `order` (by name): those take,
/// in this order, the positions they hold; the rest stay. Identity when fewer than 2 are named.
Permutation reorder_by_names(const std::vector<std::string>& dims,
                             const std::vector<std::string>& order);

/// Swaps the last two axes (the order without --axes).
Permutation swap_last_two(std::size_t rank);
bool is_identity(const Permutation& perm);
/// UsageError unless perm holds every axis of `rank` once.
void check_permutation(const Permutation& perm, std::size_t rank);
/// {extent[perm[0]], extent[perm[1]], ...}.
Shape permute_shape(const Shape& shape, const Permutation& perm);
/// "2,0,1".
std::string format_axes(const Permutation& perm);

/// Start and count per axis.
struct Region {
  Shape start;
  Shape count;
};

/// Appends the regions whose union is the flattened (row-major) range [first, first + count) of
/// an array of `shape`, in order: at most 2 * rank - 1 of them.
void regions_for_range(const Shape& shape, std::int64_t first, std::int64_t count,
                       std::vector<Region>& out);

/// How one engine pass covers a permutation. Engine coordinates are [outer..., batch, rows, cols]
/// (engine_shape(); rank 2 without a batch); each engine axis is one group of input axes, or a
/// stand-in of length 1 where a role has no group (an identity order has no rows).
class AxisMap {
 public:
  AxisMap() = default;
  /// Today's layout without --axes: the last two axes swapped, every axis its own group, the
  /// leading ones outer batches and the third from last the stage's batch (no merging).
  static AxisMap swap_last_two(const Shape& shape);
  /// Any permutation, merged and assigned roles as in the file comment. UsageError for a bad
  /// permutation.
  static AxisMap make(const Shape& shape, const Permutation& perm);

  const Shape& in_shape() const { return in_shape_; }
  const Shape& out_shape() const { return out_shape_; }
  const Permutation& perm() const { return perm_; }
  const Shape& engine_shape() const { return engine_shape_; }
  /// Dataset elements in one engine element (1 without an element group).
  std::int64_t element_extent() const;

  /// The groups without the element, in input / output order, as extents in engine elements:
  /// the shape the raw bytes of the input / output have when viewed with wide elements.
  Shape merged_in_shape() const;
  Shape merged_out_shape() const;
  /// Strides, in engine elements, of engine axis `e` in the merged input / output.
  std::int64_t in_stride(std::size_t e) const;
  std::int64_t out_stride(std::size_t e) const;
  /// Whether the stage's batch axis comes before the rows in the input (before the columns in
  /// the output): then a stage's packed read is [batch][rows][cols] (its write
  /// [batch][cols][rows]), otherwise [rows][batch][cols] ([cols][batch][rows]). True without a
  /// batch group.
  bool in_batch_outer() const;
  bool out_batch_outer() const;

  /// An engine region as a region of the merged input / output.
  Region merged_in(const Region& engine) const;
  Region merged_out(const Region& engine) const;
  /// An engine region as regions of the dataset's own axes (their union, in file order, is the
  /// same elements in the same order), appended to `out`.
  void dataset_in(const Region& engine, std::vector<Region>& out) const;
  void dataset_out(const Region& engine, std::vector<Region>& out) const;

  /// One line: how the permutation is done, e.g. "(64, 4194304) transposed, rows = axes 0 (64),
  /// ...".
  std::string describe(const std::vector<std::string>& names = {}) const;
  /// Axis groups in engine order with their roles, e.g. "batch [1], rows [0], cols [2,3]".
  std::string roles(const std::vector<std::string>& names = {}) const;

 private:
  struct Group {
    std::vector<int> axes;  ///< input axes, in order; adjacent in input and output
    std::int64_t extent = 1;
  };
  enum Role { kOuter, kBatch, kRows, kCols };

  void finish();
  Region to_merged(const Region& engine, const std::vector<int>& order) const;
  void to_dataset(const Region& engine, bool output, std::vector<Region>& out) const;
  std::int64_t stride_in(const std::vector<int>& order, std::size_t e) const;

  Shape in_shape_, out_shape_;
  Permutation perm_;
  std::vector<Group> groups_;
  std::vector<int> engine_;     ///< group of each engine axis; -1 for a stand-in of length 1
  std::vector<Role> role_;      ///< role of each engine axis
  int element_ = -1;            ///< the element group, or -1
  std::vector<int> in_order_;   ///< non-element groups in input order
  std::vector<int> out_order_;  ///< non-element groups in output order
  Shape engine_shape_;
};

}  // namespace xpose
