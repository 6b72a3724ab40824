#include "engine/src/axes.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <numeric>

#include "xpose/error.h"

namespace xpose {

namespace {

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

}  // namespace

bool is_axis_number(const std::string& s) {
  std::size_t i = s.size() > 1 && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i >= s.size() || s.size() - i > 9) return false;
  for (; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

namespace {

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? sep : "") + parts[i];
  return s;
}

std::string axis_name(int axis, const std::vector<std::string>& names) {
  if (axis >= 0 && static_cast<std::size_t>(axis) < names.size() && !names[axis].empty())
    return names[axis];
  return std::to_string(axis);
}

}  // namespace

std::vector<std::string> split_axes(const std::string& text) {
  std::vector<std::string> out;
  std::string part;
  for (char c : text + ",") {
    if (c != ',') {
      part += c;
      continue;
    }
    std::string t = trim(part);
    if (t.empty())
      throw UsageError(cat("bad --axes '", text, "': expected e.g. 2,0,1 or lat,lon,time"));
    out.push_back(t);
    part.clear();
  }
  return out;
}

void check_permutation(const Permutation& perm, std::size_t rank) {
  std::vector<int> seen(rank, 0);
  if (perm.size() != rank)
    throw UsageError(
        cat("--axes ", format_axes(perm), " names ", perm.size(), " axes, the dataset has ", rank));
  for (int a : perm) {
    if (a < 0 || static_cast<std::size_t>(a) >= rank)
      throw UsageError(
          cat("--axes ", format_axes(perm), ": axis ", a, " is out of range for rank ", rank));
    if (seen[a]++)
      throw UsageError(cat("--axes ", format_axes(perm), ": axis ", a, " appears twice"));
  }
}

Permutation resolve_axes(const std::vector<std::string>& axes, const Shape& shape,
                         const std::vector<std::string>& names, const std::string& label) {
  const std::size_t rank = shape.size();
  if (rank < 2)
    throw UnsupportedInputError(
        cat("'", label, "' has rank ", rank, ": reordering axes needs at least 2"));
  if (rank > kMaxAxesRank)
    throw UnsupportedInputError(cat("'", label, "' has rank ", rank, " (shape ",
                                    format_shape(shape), "): --axes supports ranks 2 to ",
                                    kMaxAxesRank));
  if (axes.empty()) throw UsageError("--axes is empty");
  const bool numbers = std::all_of(axes.begin(), axes.end(), is_axis_number);
  const bool any_number = std::any_of(axes.begin(), axes.end(), is_axis_number);
  if (any_number && !numbers)
    throw UsageError(cat("--axes ", join(axes, ","), " mixes axis numbers and dimension names"));
  if (numbers) {
    Permutation perm;
    for (const auto& a : axes) {
      int v = std::atoi(a.c_str());
      if (v < -static_cast<int>(rank) || v >= static_cast<int>(rank))
        throw UsageError(cat("--axes ", join(axes, ","), ": axis ", a, " is out of range for '",
                             label, "' of rank ", rank));
      perm.push_back(v < 0 ? v + static_cast<int>(rank) : v);
    }
    if (perm.size() != rank)
      throw UsageError(cat("--axes ", join(axes, ","), " names ", perm.size(), " axes; '", label,
                           "' has ", rank, " (shape ", format_shape(shape), ")"));
    check_permutation(perm, rank);
    return perm;
  }
  std::vector<std::string> dims(names.begin(), names.end());
  dims.resize(rank);
  const bool named =
      std::any_of(dims.begin(), dims.end(), [](const std::string& d) { return !d.empty(); });
  if (!named)
    throw UsageError(
        cat("--axes ", join(axes, ","), ": '", label,
            "' has no dimension names (no dimension scales); give axis numbers, e.g. --axes ",
            format_axes(swap_last_two(rank))));
  for (const auto& a : axes) {
    const auto n = std::count(dims.begin(), dims.end(), a);
    if (n == 0)
      throw UsageError(cat("--axes: '", label, "' has no dimension '", a,
                           "' (its dimensions: ", join(dims, ", "), ")"));
    if (n > 1)
      throw UsageError(
          cat("--axes: '", label, "' has dimension '", a, "' more than once; give axis numbers"));
    if (std::count(axes.begin(), axes.end(), a) > 1)
      throw UsageError(cat("--axes ", join(axes, ","), " names '", a, "' twice"));
  }
  return reorder_by_names(dims, axes);
}

Permutation reorder_by_names(const std::vector<std::string>& dims,
                             const std::vector<std::string>& order) {
  Permutation perm(dims.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<int> positions, chosen;
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (!dims[i].empty() && std::find(order.begin(), order.end(), dims[i]) != order.end())
      positions.push_back(static_cast<int>(i));
  for (const auto& name : order) {
    auto it = std::find(dims.begin(), dims.end(), name);
    if (it == dims.end()) continue;
    if (std::find(it + 1, dims.end(), name) != dims.end())
      throw UsageError(
          cat("dimension '", name, "' appears more than once in one variable; give axis numbers"));
    chosen.push_back(static_cast<int>(it - dims.begin()));
  }
  for (std::size_t k = 0; k < positions.size(); ++k) perm[positions[k]] = chosen[k];
  return perm;
}

Permutation swap_last_two(std::size_t rank) {
  Permutation perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  if (rank >= 2) std::swap(perm[rank - 1], perm[rank - 2]);
  return perm;
}

bool is_identity(const Permutation& perm) {
  for (std::size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int>(i)) return false;
  return true;
}

Shape permute_shape(const Shape& shape, const Permutation& perm) {
  Shape out;
  for (int a : perm) out.push_back(shape.at(static_cast<std::size_t>(a)));
  return out;
}

std::string format_axes(const Permutation& perm) {
  std::string s;
  for (std::size_t i = 0; i < perm.size(); ++i) s += (i ? "," : "") + std::to_string(perm[i]);
  return s;
}

void regions_for_range(const Shape& shape, std::int64_t first, std::int64_t count,
                       std::vector<Region>& out) {
  const std::size_t rank = shape.size();
  const std::int64_t total = element_count(shape);
  if (first < 0 || count < 0 || first > total - count)
    throw DimensionMismatch(
        cat("range [", first, ", ", first + count, ") outside shape ", format_shape(shape)));
  if (rank == 0) {
    if (count > 0) out.push_back(Region{});
    return;
  }
  // span[k]: elements in one step of axis k-1, i.e. the product of extents k..rank-1.
  std::vector<std::int64_t> span(rank + 1, 1);
  for (std::size_t k = rank; k-- > 0;) span[k] = span[k + 1] * shape[k];
  std::int64_t at = first;
  const std::int64_t end = first + count;
  while (at < end) {
    // The largest aligned block that starts at `at` and fits: whole trailing sub-arrays.
    std::size_t k = 1;
    while (k < rank && !(at % span[k] == 0 && at + span[k] <= end)) ++k;
    Region r;
    r.start.resize(rank);
    r.count.assign(rank, 1);
    std::int64_t rest = at;
    for (std::size_t d = 0; d < rank; ++d) {
      r.start[d] = rest / span[d + 1];
      rest %= span[d + 1];
    }
    const std::int64_t steps = std::min((end - at) / span[k], shape[k - 1] - r.start[k - 1]);
    r.count[k - 1] = steps;
    for (std::size_t d = k; d < rank; ++d) r.count[d] = shape[d];
    out.push_back(std::move(r));
    at += steps * span[k];
  }
}

// ---- AxisMap -----------------------------------------------------------------------------------

AxisMap AxisMap::swap_last_two(const Shape& shape) {
  const std::size_t n = shape.size();
  if (n < 2)
    throw UnsupportedInputError(cat("cannot transpose a dataset of rank ", n, " (need >= 2)"));
  AxisMap m;
  m.in_shape_ = shape;
  m.perm_ = xpose::swap_last_two(n);
  m.out_shape_ = permute_shape(shape, m.perm_);
  for (std::size_t a = 0; a < n; ++a) m.groups_.push_back(Group{{static_cast<int>(a)}, shape[a]});
  for (std::size_t a = 0; a < n; ++a) {
    m.engine_.push_back(static_cast<int>(a));
    m.role_.push_back(a + 2 == n ? kRows : a + 1 == n ? kCols : a + 3 == n ? kBatch : kOuter);
  }
  m.in_order_.resize(n);
  std::iota(m.in_order_.begin(), m.in_order_.end(), 0);
  m.out_order_ = m.perm_;
  m.finish();
  return m;
}

AxisMap AxisMap::make(const Shape& shape, const Permutation& perm) {
  const std::size_t n = shape.size();
  check_permutation(perm, n);
  element_count(shape);  // overflow check
  AxisMap m;
  m.in_shape_ = shape;
  m.perm_ = perm;
  m.out_shape_ = permute_shape(shape, perm);
  // Axes of length 1 take no part (one of length 0 does: it empties the engine view too). The
  // others, in output order, form groups of runs that are also consecutive in the input.
  std::vector<int> in_rank(n, -1);  // position of an axis among the input's long axes
  int long_axes = 0;
  for (std::size_t a = 0; a < n; ++a)
    if (shape[a] != 1) in_rank[a] = long_axes++;
  int prev = -1;
  for (int a : perm) {
    if (shape[a] == 1) continue;
    if (prev >= 0 && in_rank[a] == in_rank[prev] + 1) {
      m.groups_.back().axes.push_back(a);
      m.groups_.back().extent *= shape[a];
    } else {
      m.groups_.push_back(Group{{a}, shape[a]});
      m.out_order_.push_back(static_cast<int>(m.groups_.size()) - 1);
    }
    prev = a;
  }
  m.in_order_ = m.out_order_;
  std::sort(m.in_order_.begin(), m.in_order_.end(),
            [&](int x, int y) { return m.groups_[x].axes[0] < m.groups_[y].axes[0]; });
  if (m.groups_.size() >= 2 && m.in_order_.back() == m.out_order_.back()) {
    m.element_ = m.in_order_.back();
    m.in_order_.pop_back();
    m.out_order_.pop_back();
  }
  if (m.in_order_.size() <= 1) {
    // The identity (after length-1 axes and the element are set aside): one row of columns.
    m.engine_ = {-1, m.in_order_.empty() ? -1 : m.in_order_[0]};
    m.role_ = {kRows, kCols};
    m.finish();
    return m;
  }
  const int cols = m.in_order_.back(), rows = m.out_order_.back();
  // The largest other group is the stage's batch (several per stage at one stride); the rest are
  // outer batch axes, walked in output order so the writes advance through the output file.
  int batch = -1;
  for (int g : m.out_order_)
    if (g != rows && g != cols && (batch < 0 || m.groups_[g].extent >= m.groups_[batch].extent))
      batch = g;
  for (int g : m.out_order_)
    if (g != rows && g != cols && g != batch) {
      m.engine_.push_back(g);
      m.role_.push_back(kOuter);
    }
  if (batch >= 0) {
    m.engine_.push_back(batch);
    m.role_.push_back(kBatch);
  }
  m.engine_.push_back(rows);
  m.role_.push_back(kRows);
  m.engine_.push_back(cols);
  m.role_.push_back(kCols);
  m.finish();
  return m;
}

void AxisMap::finish() {
  engine_shape_.clear();
  for (int g : engine_) engine_shape_.push_back(g < 0 ? 1 : groups_[g].extent);
}

std::int64_t AxisMap::element_extent() const {
  return element_ < 0 ? 1 : groups_[element_].extent;
}

Shape AxisMap::merged_in_shape() const {
  Shape s;
  for (int g : in_order_) s.push_back(groups_[g].extent);
  if (s.empty()) s.push_back(1);  // nothing but length-1 axes (and the element)
  return s;
}

Shape AxisMap::merged_out_shape() const {
  Shape s;
  for (int g : out_order_) s.push_back(groups_[g].extent);
  if (s.empty()) s.push_back(1);
  return s;
}

std::int64_t AxisMap::stride_in(const std::vector<int>& order, std::size_t e) const {
  const int g = engine_.at(e);
  std::int64_t stride = 1;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if (*it == g) return stride;
    stride *= groups_[*it].extent;
  }
  return stride;  // a stand-in of length 1: any stride past the whole array will do
}

std::int64_t AxisMap::in_stride(std::size_t e) const {
  return stride_in(in_order_, e);
}
std::int64_t AxisMap::out_stride(std::size_t e) const {
  return stride_in(out_order_, e);
}

namespace {
int position(const std::vector<int>& order, int g) {
  auto it = std::find(order.begin(), order.end(), g);
  return it == order.end() ? -1 : static_cast<int>(it - order.begin());
}
}  // namespace

bool AxisMap::in_batch_outer() const {
  for (std::size_t e = 0; e < engine_.size(); ++e)
    if (role_[e] == kBatch) {
      const int rows = engine_[engine_.size() - 2];
      return rows < 0 || position(in_order_, engine_[e]) < position(in_order_, rows);
    }
  return true;
}

bool AxisMap::out_batch_outer() const {
  for (std::size_t e = 0; e < engine_.size(); ++e)
    if (role_[e] == kBatch) {
      const int cols = engine_.back();
      return cols < 0 || position(out_order_, engine_[e]) < position(out_order_, cols);
    }
  return true;
}

Region AxisMap::to_merged(const Region& engine, const std::vector<int>& order) const {
  if (engine.start.size() != engine_.size() || engine.count.size() != engine_.size())
    throw InternalError(cat("AxisMap: a region of rank ", engine.start.size(), " for ",
                            engine_.size(), " engine axes"));
  Region r;
  if (order.empty()) {  // as merged_in_shape(): one axis of length 1
    std::int64_t count = 1;
    for (auto c : engine.count) count *= c;
    return Region{{0}, {count}};
  }
  for (int g : order) {
    const std::size_t e =
        static_cast<std::size_t>(std::find(engine_.begin(), engine_.end(), g) - engine_.begin());
    r.start.push_back(engine.start[e]);
    r.count.push_back(engine.count[e]);
  }
  return r;
}

Region AxisMap::merged_in(const Region& engine) const {
  return to_merged(engine, in_order_);
}
Region AxisMap::merged_out(const Region& engine) const {
  return to_merged(engine, out_order_);
}

void AxisMap::to_dataset(const Region& engine, bool output, std::vector<Region>& out) const {
  const std::size_t n = in_shape_.size();
  if (engine.start.size() != engine_.size() || engine.count.size() != engine_.size())
    throw InternalError(cat("AxisMap: a region of rank ", engine.start.size(), " for ",
                            engine_.size(), " engine axes"));
  for (std::size_t e = 0; e < engine_.size(); ++e)
    if (engine.count[e] == 0) return;  // selects nothing
  // Dataset position of input axis a: a itself, or its place in the output.
  std::vector<int> where(n);
  for (std::size_t i = 0; i < n; ++i) where[output ? perm_[i] : i] = static_cast<int>(i);
  // Per group, the regions of its own axes that cover the engine range.
  std::vector<std::vector<Region>> parts(groups_.size());
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    Shape sub;
    for (int a : groups_[g].axes) sub.push_back(in_shape_[a]);
    std::int64_t first = 0, count = groups_[g].extent;
    const auto it = std::find(engine_.begin(), engine_.end(), static_cast<int>(g));
    if (it != engine_.end()) {
      first = engine.start[it - engine_.begin()];
      count = engine.count[it - engine_.begin()];
    }
    regions_for_range(sub, first, count, parts[g]);
  }
  // Every combination of the groups' regions is one dataset region; length-1 axes are (0, 1).
  std::vector<std::size_t> pick(groups_.size(), 0);
  while (true) {
    Region r;
    r.start.assign(n, 0);
    r.count.assign(n, 1);
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      const Region& p = parts[g][pick[g]];
      for (std::size_t k = 0; k < groups_[g].axes.size(); ++k) {
        const int d = where[groups_[g].axes[k]];
        r.start[d] = p.start[k];
        r.count[d] = p.count[k];
      }
    }
    out.push_back(std::move(r));
    std::size_t g = 0;
    while (g < groups_.size() && ++pick[g] == parts[g].size()) pick[g++] = 0;
    if (g == groups_.size()) break;
  }
}

void AxisMap::dataset_in(const Region& engine, std::vector<Region>& out) const {
  to_dataset(engine, false, out);
}
void AxisMap::dataset_out(const Region& engine, std::vector<Region>& out) const {
  to_dataset(engine, true, out);
}

std::string AxisMap::roles(const std::vector<std::string>& names) const {
  static const char* kRoleNames[] = {"outer batch", "batch", "rows", "cols"};
  auto group_text = [&](int g) {
    if (g < 0) return std::string("-");
    std::vector<std::string> parts;
    for (int a : groups_[g].axes) parts.push_back(axis_name(a, names));
    return cat(join(parts, "*"), " (", groups_[g].extent, ")");
  };
  std::vector<std::string> parts;
  for (std::size_t e = 0; e < engine_.size(); ++e)
    if (engine_[e] >= 0 || role_[e] == kRows)
      parts.push_back(cat(kRoleNames[role_[e]], " ", group_text(engine_[e])));
  if (element_ >= 0) parts.push_back(cat("element ", group_text(element_)));
  return join(parts, ", ");
}

std::string AxisMap::describe(const std::vector<std::string>& names) const {
  std::vector<std::string> in, out;
  for (std::size_t a = 0; a < perm_.size(); ++a)
    in.push_back(axis_name(static_cast<int>(a), names));
  for (int a : perm_) out.push_back(axis_name(a, names));
  return cat("(", join(in, ", "), ") -> (", join(out, ", "), ")");
}

}  // namespace xpose
