// The kernel choice: the preference table (kernel_table.inc) evaluated for one layout and device
// profile, the tile order it asks for, and the words that describe it.
#include "kernels/choice.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "kernels/kernel_list.h"
#include "kernels/kernel_table.h"
#include "xpose/error.h"

namespace xpose::kernels {

namespace detail {
namespace {
#define K(elem, in_place, name) kernel_index(elem, in_place, name)
#include "kernels/kernel_table.inc"
#undef K
constexpr int kRuleCount = static_cast<int>(sizeof kRules / sizeof kRules[0]);
}  // namespace
}  // namespace detail

using detail::CondKind;
using detail::Family;
using detail::KernelSpec;
using detail::OrderKind;
using detail::Rule;

// ---- device profiles -----------------------------------------------------------------------

DeviceProfile DeviceProfile::from_properties(const std::string& name, int sms, int sm_clock_khz,
                                             int memory_clock_khz, int bus_bits, int smem_optin,
                                             int cc_major, bool tma_built) {
  DeviceProfile d;
  d.name = name;
  d.sms = std::max(sms, 0);
  // Double data rate: two transfers a memory clock over the bus, per SM per SM clock.
  d.dram_bytes_per_sm_clock =
      sms > 0 && sm_clock_khz > 0
          ? 2.0 * memory_clock_khz * (bus_bits / 8.0) / (double(sms) * sm_clock_khz)
          : 0.0;
  d.dram_stacks = bus_bits > 0 && bus_bits % 1024 == 0 ? bus_bits / 1024 : 0;
  d.smem_per_block = smem_optin;
  d.tma = cc_major >= 9 && tma_built;
  return d;
}

namespace {
struct KnownDevice {
  const char* key;
  const char* name;
  int sms, sm_khz, mem_khz, bus_bits, smem_optin, cc_major;
};
// Published properties (cudaDeviceProp) of the devices the table was measured on and of older
// ones whose shared memory decides which kernels can run.
constexpr KnownDevice kKnown[] = {
    {"h100", "NVIDIA H100 80GB HBM3", 132, 1980000, 2619000, 5120, 232448, 9},
    {"h200", "NVIDIA H200", 132, 1980000, 3201000, 6144, 232448, 9},
    {"a100", "NVIDIA A100-SXM4-40GB", 108, 1410000, 1215000, 5120, 166912, 8},
    {"v100", "Tesla V100-SXM2-16GB", 80, 1530000, 877000, 4096, 98304, 7},
    {"t4", "Tesla T4", 40, 1590000, 5001000, 256, 65536, 7},
    {"k80", "Tesla K80", 13, 875000, 2505000, 384, 49152, 3},
};
}  // namespace

DeviceProfile DeviceProfile::named(const std::string& key) {
  for (const KnownDevice& k : kKnown)
    if (key == k.key)
      return from_properties(k.name, k.sms, k.sm_khz, k.mem_khz, k.bus_bits, k.smem_optin,
                             k.cc_major, true);
  throw UnsupportedInputError(cat("no device profile '", key, "' (known: h100, h200, a100, v100, "
                                  "t4, k80)"));
}

std::vector<std::string> DeviceProfile::known_names() {
  std::vector<std::string> names;
  for (const KnownDevice& k : kKnown) names.emplace_back(k.key);
  return names;
}

DeviceProfile DeviceProfile::generic() {
  // No special class: not high-bandwidth, no stacked DRAM, sm_70's shared memory, no TMA.
  DeviceProfile d;
  d.name = "generic GPU";
  d.sms = 80;
  d.dram_bytes_per_sm_clock = 8.0;
  d.dram_stacks = 0;
  d.smem_per_block = 98304;
  d.tma = false;
  return d;
}

// ---- the kernel list -----------------------------------------------------------------------

const std::vector<KernelInfo>& kernel_list() {
  static const std::vector<KernelInfo> list = [] {
    std::vector<KernelInfo> v;
    for (int i = 0; i < detail::kKernelCount; ++i) {
      const KernelSpec& k = detail::kKernels[i];
      v.push_back(KernelInfo{k.name, k.elem, k.in_place, k.instantiation});
    }
    return v;
  }();
  return list;
}

int find_kernel(std::size_t elem, bool in_place, const std::string& name) {
  return detail::kernel_index(static_cast<int>(elem), in_place, name.c_str());
}

namespace {

// A layout as the rules see it; in place: n x n, pitch n, both buffers the same.
struct Layout {
  std::uintptr_t in, out;
  std::int64_t elem;
  TransposeShape s;
  bool in_place;
};

double tiles_over_batch(const TransposeShape& s, std::int64_t tr, std::int64_t tc) {
  return double((s.rows + tr - 1) / tr) * double((s.cols + tc - 1) / tc) *
         double(s.batch > 1 ? s.batch : 1);
}

// count under hundredths / 100 per SM (the small-size rules' test, in the device's own terms).
bool under_per_sm(double count, std::int64_t hundredths, const DeviceProfile& d) {
  return count < double(hundredths) / 100 * d.sms;
}

bool holds(const detail::Cond& c, const Rule& r, const Layout& l, const DeviceProfile& d) {
  const TransposeShape& s = l.s;
  const KernelSpec* specs = detail::kKernels;
  const std::int64_t m = std::min(s.rows, s.cols);
  switch (c.kind) {
    case CondKind::kInOn:
      return detail::input_rows_aligned(l.in, s, l.elem, c.a);
    case CondKind::kInOff:
      return !detail::input_rows_aligned(l.in, s, l.elem, c.a);
    case CondKind::kOutOn:
      return detail::output_rows_aligned(l.out, s, l.elem, c.a);
    case CondKind::kOutOff:
      return !detail::output_rows_aligned(l.out, s, l.elem, c.a);
    case CondKind::kRowsAtMost:
      return s.rows <= c.a;
    case CondKind::kRowsOver:
      return s.rows > c.a;
    case CondKind::kRowsAtLeast:
      return s.rows >= c.a;
    case CondKind::kTilesAtLeast:
      return !under_per_sm(tiles_over_batch(s, c.a, c.b), c.c, d);
    case CondKind::kTilesUnder:
      return under_per_sm(tiles_over_batch(s, c.a, c.b), c.c, d);
    case CondKind::kShortRows:
      return s.rows <= s.cols;
    case CondKind::kShortCols:
      return s.rows > s.cols;
    case CondKind::kShortBetween:
      return c.a <= m && m <= c.b;
    case CondKind::kWideWords:
    case CondKind::kWideOff4:
    case CondKind::kThinBlocks: {
      const KernelSpec& k = specs[r.kernel];
      const auto f = detail::thin_form(int(l.elem), k.option, l.in, l.out, s);
      if (c.kind == CondKind::kWideWords) return f.wide == 1;
      if (c.kind == CondKind::kWideOff4) return f.wide != 1;
      return f.blocks;
    }
    case CondKind::kWhole:
      return s.rows % c.a == 0 && s.cols % c.a == 0;
    case CondKind::kPartialBoth:
      return s.rows % c.a != 0 && s.cols % c.a != 0;
    case CondKind::kPartialUnder: {
      const std::int64_t whole = (s.rows / c.a) * (s.cols / c.a);
      const std::int64_t all = ((s.rows + c.a - 1) / c.a) * ((s.cols + c.a - 1) / c.a);
      return (all - whole) * 100 < c.b * all;
    }
    case CondKind::kRowsAtMostOrWide:
      return s.rows <= c.a || 2 * s.cols >= s.rows;
    case CondKind::kNotShortInPitch:
      return !(s.in_pitch * l.elem == c.a && s.rows * l.elem < c.a);
    case CondKind::kOutOneStack:
      return detail::pitch_on_one_stack(s.out_pitch * l.elem, d);
    case CondKind::kNotOutOneStack:
      return !detail::pitch_on_one_stack(s.out_pitch * l.elem, d);
    case CondKind::kInOneStack:
      return detail::pitch_on_one_stack(s.in_pitch * l.elem, d);
    case CondKind::kTakes: {
      const KernelSpec& k = specs[c.a];
      return l.in_place ? detail::takes_in_place(k, l.in, s.rows, d)
                        : detail::takes_out_of_place(k, l.in, l.out, s, d);
    }
    case CondKind::kBlocksUnder:
      return under_per_sm(double(detail::pair_blocks(specs[c.a], s.rows)) * double(s.batch), c.b,
                          d);
    case CondKind::kBlocksOneUnder:
      return under_per_sm(double(detail::pair_blocks(specs[c.a], s.rows)), c.b, d);
    case CondKind::kBlocksAtLeast:
      return !under_per_sm(double(detail::pair_blocks(specs[r.kernel], s.rows)) * double(s.batch),
                           c.b, d);
    case CondKind::kEdgeAtLeast:
      return s.rows % specs[r.kernel].tile_rows >= c.a;
    case CondKind::kOffLines:
      return (s.rows * l.elem) % 128 != 0;
  }
  return false;
}

bool takes(const KernelSpec& k, const Layout& l, const DeviceProfile& d) {
  return l.in_place ? detail::takes_in_place(k, l.in, l.s.rows, d)
                    : detail::takes_out_of_place(k, l.in, l.out, l.s, d);
}

// Groups of tile rows that keep each column sweep under `cap` rows (column order up to `from`
// rows): the fewest groups of equal height.
std::int64_t capped_columns(const KernelSpec& k, std::int64_t rows, std::int64_t cap,
                            std::int64_t from) {
  if (rows <= from) return TileOrder::kColumnMajor;
  const std::int64_t tiles_y = (rows + k.extra_rows + k.tile_rows - 1) / k.tile_rows;
  const std::int64_t sweeps = (rows + cap - 1) / cap;
  return (tiles_y + sweeps - 1) / sweeps;
}

// The stagger's band height: at most `band` tile rows, cutting the tile rows into a whole
// multiple of five bands, so that on five stacks each turn takes as many tile rows.
std::uint32_t balanced_band(std::int64_t tiles, std::uint32_t band) {
  const std::int64_t per = 5 * static_cast<std::int64_t>(band);
  const std::int64_t k = std::max<std::int64_t>(1, (tiles + per - 1) / per);
  return static_cast<std::uint32_t>(std::max<std::int64_t>(1, (tiles + 5 * k - 1) / (5 * k)));
}

TileOrder order_of(const Rule& r, const KernelSpec& k, const TransposeShape& s) {
  TileOrder o;
  switch (r.order) {
    case OrderKind::kDefault:
      o.group = k.family == Family::kTiled ? 1 : TileOrder::kColumnMajor;
      break;
    case OrderKind::kRowMajor:
      o.group = 1;
      break;
    case OrderKind::kColumns:
      o.group = TileOrder::kColumnMajor;
      break;
    case OrderKind::kSweeps:
      o.group = capped_columns(k, s.rows, r.oa, r.ob);
      break;
    case OrderKind::kSpread:
      o.group = capped_columns(k, s.rows, r.ob, r.oc);
      o.spread = static_cast<std::uint32_t>(r.oa);
      break;
    case OrderKind::kStagger: {
      // Bands turn by 64 KiB of input row (the turn in tile columns).
      o.group = TileOrder::kColumnMajor;
      o.turn = static_cast<std::uint32_t>(65536 / (k.tile_cols * k.elem));
      const auto band = static_cast<std::uint32_t>(r.oa == 0 ? o.turn : r.oa);
      const std::int64_t tiles = (s.rows + k.extra_rows + k.tile_rows - 1) / k.tile_rows;
      const bool balance = r.ob != 0 && (r.oc == 0 || tiles < r.oc * band);
      o.stagger = balance ? balanced_band(tiles, band) : band;
      break;
    }
  }
  return o;
}

bool supported(std::size_t elem) {
  return elem == 1 || elem == 2 || elem == 4 || elem == 8 || elem == 16;
}

}  // namespace

bool copies_in_order(const TransposeShape& s) {
  if (s.rows != 1 && s.cols != 1) return false;
  const std::int64_t n = s.rows * s.cols;
  const std::int64_t in_step = s.rows == 1 ? 1 : s.in_pitch;
  const std::int64_t out_step = s.rows == 1 ? s.out_pitch : 1;
  if (n > 1 && (in_step != 1 || out_step != 1)) return false;
  return s.batch == 1 || (s.in_batch_stride == n && s.out_batch_stride == n);
}

namespace {

std::string instantiation_of(const KernelSpec& k, const Layout& l, const TileOrder& o) {
  char buf[160];
  switch (k.family) {
    case Family::kThin:
      return detail::thin_instantiation(
          k.elem, detail::thin_form(k.elem, k.option, l.in, l.out, l.s), buf, sizeof buf);
    case Family::kRecords: {
      const bool short_rows = l.s.rows <= l.s.cols;
      const auto m = static_cast<int>(std::min(l.s.rows, l.s.cols));
      if (short_rows)
        std::snprintf(buf, sizeof buf, "records_rows_kernel<%d,%d>", k.elem, m);
      else
        std::snprintf(buf, sizeof buf, "records_cols_kernel<%d,%d,%s>", k.elem, m,
                      k.option ? "true" : "false");
      return buf;
    }
    case Family::kSkew:
    case Family::kNarrow:
    case Family::kNarrowSkew:  // a kernel of its own for the spread order
      return std::string(k.instantiation) + (o.spread > 1 ? ",true>" : ",false>");
    default:
      return k.instantiation;
  }
}

KernelChoice choose(const Layout& l, const DeviceProfile& d) {
  for (int i = 0; i < detail::kRuleCount; ++i) {
    const Rule& r = detail::kRules[i];
    if (r.in_place != l.in_place || r.elem != l.elem || (r.hbm && !d.high_bandwidth())) continue;
    bool ok = true;
    for (int c = r.first; ok && c < r.first + r.count; ++c) ok = holds(detail::kConds[c], r, l, d);
    const KernelSpec& k = detail::kKernels[r.kernel];
    if (!ok || !takes(k, l, d)) continue;
    KernelChoice choice;
    choice.kernel = r.kernel;
    choice.rule = i;
    if (!l.in_place) choice.order = order_of(r, k, l.s);
    else choice.order.group = k.group;
    choice.instantiation = instantiation_of(k, l, choice.order);
    return choice;
  }
  return KernelChoice{};
}

}  // namespace

KernelChoice choose_out_of_place(const void* in, const void* out, std::size_t elem,
                                 const TransposeShape& shape, const DeviceProfile& device) {
  if (!supported(elem))
    throw UnsupportedInputError(
        cat("transpose_cuda: element size ", elem, " bytes (supported: 1, 2, 4, 8, 16)"));
  const TransposeShape s = shape.resolved();
  if (copies_in_order(s)) {
    KernelChoice c;
    c.copy = true;
    c.instantiation = "memcpy";
    return c;
  }
  const Layout l{reinterpret_cast<std::uintptr_t>(in), reinterpret_cast<std::uintptr_t>(out),
                 static_cast<std::int64_t>(elem), s, false};
  KernelChoice c = choose(l, device);
  if (c.kernel < 0)
    throw DimensionMismatch(cat("transpose_cuda: buffers must be aligned to the element size (",
                                elem, " bytes); got ", in, " and ", out));
  return c;
}

KernelChoice choose_in_place(const void* buf, std::size_t elem, std::int64_t n,
                             std::int64_t batch, const DeviceProfile& device) {
  if (!supported(elem))
    throw UnsupportedInputError(
        cat("transpose_inplace_cuda: element size ", elem, " bytes (supported: 1, 2, 4, 8, 16)"));
  TransposeShape s;
  s.rows = s.cols = n;
  s.batch = batch;
  s.in_pitch = s.out_pitch = n;
  s.in_batch_stride = s.out_batch_stride = n * n;
  const auto addr = reinterpret_cast<std::uintptr_t>(buf);
  const Layout l{addr, addr, static_cast<std::int64_t>(elem), s, true};
  KernelChoice c = choose(l, device);
  if (c.kernel < 0)
    throw DimensionMismatch(cat("transpose_inplace_cuda: buffer ", buf,
                                " is not aligned to the element size (", elem, " bytes)"));
  return c;
}

RuleInfo rule_info(int rule) {
  if (rule < 0 || rule >= detail::kRuleCount) return RuleInfo{0, "", ""};
  const Rule& r = detail::kRules[rule];
  return RuleInfo{r.line, r.when, r.reason};
}

std::string launch_signature(const KernelChoice& c, const void* out, std::size_t elem,
                             const TransposeShape& shape) {
  if (c.copy) return "memcpy";
  if (c.kernel < 0) return "none";
  const KernelSpec& k = detail::kKernels[c.kernel];
  std::string sig = c.instantiation;
  if (k.in_place) {
    if (c.order.group > 1) sig += " g=" + std::to_string(c.order.group);
    return sig;
  }
  switch (k.family) {
    case Family::kTiled:
    case Family::kSkew:
    case Family::kLines:
    case Family::kNarrow:
    case Family::kNarrowSkew:
    case Family::kRotated: {
      // The group as the launch's tile grid takes it (tiled_params in tile.cuh).
      const TransposeShape s = shape.resolved();
      std::int64_t extra = k.extra_rows;
      if (k.family == Family::kSkew &&
          detail::output_rows_aligned(reinterpret_cast<std::uintptr_t>(out), s,
                                      static_cast<std::int64_t>(elem), k.a_out))
        extra = 0;  // every output row aligned: no skew, no extra rows
      const std::int64_t tiles_x = (s.cols + k.tile_cols - 1) / k.tile_cols;
      const std::int64_t tiles_y = (s.rows + extra + k.tile_rows - 1) / k.tile_rows;
      const std::int64_t g = c.order.group == TileOrder::kColumnMajor ? tiles_y : c.order.group;
      const std::int64_t group = g > 1 && g * tiles_x < (std::int64_t{1} << 32) ? g : 1;
      if (group != 1) sig += " g=" + std::to_string(group);
      if (c.order.stagger != 0)
        sig += " st=" + std::to_string(c.order.stagger) + "/" + std::to_string(c.order.turn);
      if (c.order.spread != 1) sig += " sp=" + std::to_string(c.order.spread);
      return sig;
    }
    default:
      return sig;
  }
}

std::string describe(const KernelChoice& c, std::size_t elem, const TransposeShape& shape,
                     const DeviceProfile& device) {
  const TransposeShape s = shape.resolved();
  std::string text = cat(elem, "-byte ", s.rows, "x", s.cols);
  if (s.batch != 1) text += cat(" x", s.batch);
  if (c.copy) return text + ": a copy in order (cudaMemcpyAsync)";
  if (c.kernel < 0) return text + ": no kernel";
  const KernelSpec& k = detail::kKernels[c.kernel];
  text += cat(" on ", device.name, ": ", k.name, " (", c.instantiation, ")");
  const bool tiles = k.family == Family::kTiled || k.family == Family::kSkew ||
                     k.family == Family::kLines || k.family == Family::kNarrow ||
                     k.family == Family::kNarrowSkew || k.family == Family::kRotated;
  if (tiles) {
    if (c.order.group == TileOrder::kColumnMajor) text += ", down the tile columns";
    else if (c.order.group > 1) text += cat(", groups of ", c.order.group, " tile rows");
    if (c.order.stagger) text += cat(", bands of ", c.order.stagger, " tile rows");
    if (c.order.spread > 1) text += cat(", dealt over ", c.order.spread, " runs");
  }
  const RuleInfo r = rule_info(c.rule);
  const char* type = k.elem == 1 ? "u8" : k.elem == 2 ? "u16" : k.elem == 4 ? "f32" : k.elem == 8 ? "f64" : "c128";
  text += cat("; kernel_table.csv line ", r.line, " (", type, k.in_place ? " in place" : "",
              detail::kRules[c.rule].hbm ? ", hbm devices" : "", ": ",
              *r.when ? r.when : "otherwise", "): ", r.reason);
  return text;
}

std::string describe_out_of_place(std::size_t elem, const TransposeShape& shape,
                                  const DeviceProfile& device, std::int64_t in_offset,
                                  std::int64_t out_offset) {
  // Buffers as cudaMalloc returns them (on 256 bytes at least), shifted as asked.
  const auto* in = reinterpret_cast<const void*>(std::uintptr_t{1} << 32 | in_offset);
  const auto* out = reinterpret_cast<const void*>(std::uintptr_t{2} << 32 | out_offset);
  return describe(choose_out_of_place(in, out, elem, shape, device), elem, shape, device);
}

std::string describe_in_place(std::size_t elem, std::int64_t n, std::int64_t batch,
                              const DeviceProfile& device, std::int64_t offset) {
  const auto* buf = reinterpret_cast<void*>(std::uintptr_t{1} << 32 | offset);
  return describe(choose_in_place(buf, elem, n, batch, device), elem,
                  TransposeShape::dense(n, n, batch), device);
}

}  // namespace xpose::kernels
