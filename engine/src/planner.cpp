#include "engine/src/planner.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "xpose/error.h"

namespace xpose {

namespace {
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::string format_seconds(double s) {
  std::ostringstream os;
  os.precision(3);
  if (s < 1e-3) os << s * 1e6 << " us";
  else if (s < 1) os << s * 1e3 << " ms";
  else os << s << " s";
  return os.str();
}
}  // namespace

const char* host_exchange_name(HostExchange exchange) {
  switch (exchange) {
    case HostExchange::Auto: return "auto";
    case HostExchange::Alltoall: return "mpi";
    case HostExchange::Pairwise: return "mpi-pairwise";
    case HostExchange::NodeAware: return "mpi-node";
  }
  return "?";
}

ExchangeModel default_exchange_model() {
  ExchangeModel m;
  m.flat_latency = 3e-6;
  m.flat_node_bandwidth = 10e9;
  m.node_latency = 5e-6;
  m.node_node_bandwidth = 10e9;
  m.copy_bandwidth = 10e9;
  m.source = "built-in";
  return m;
}

ExchangeModel parse_exchange_model(const std::string& text, const ExchangeModel& base) {
  ExchangeModel m = base;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq);
    double value = 0;
    std::size_t used = 0;
    try {
      value = eq == std::string::npos ? 0 : std::stod(item.substr(eq + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (eq == std::string::npos || used == 0 || used != item.size() - eq - 1 || !(value >= 0) ||
        (value == 0 && key != "node_fixed"))
      throw UsageError(cat("exchange model: '", item, "' is not key=positive number"));
    if (key == "flat_latency") m.flat_latency = value;
    else if (key == "flat_bandwidth") m.flat_node_bandwidth = value;
    else if (key == "node_latency") m.node_latency = value;
    else if (key == "node_bandwidth") m.node_node_bandwidth = value;
    else if (key == "node_fixed") m.node_fixed = value;
    else if (key == "copy_bandwidth") m.copy_bandwidth = value;
    else
      throw UsageError(cat("exchange model: unknown key '", key,
                           "' (flat_latency, flat_bandwidth, node_latency, node_bandwidth, node_fixed, copy_bandwidth)"));
  }
  m.source = "XPOSE_EXCHANGE_MODEL";
  return m;
}

ExchangeEstimate estimate_stage_exchange(const ExchangeModel& model, HostExchange exchange, int nranks,
                                         int ranks_per_node, std::int64_t piece_bytes, bool in_place) {
  ExchangeEstimate e;
  const std::int64_t P = nranks;
  const std::int64_t L = std::clamp<std::int64_t>(ranks_per_node, 1, P);
  const std::int64_t N = ceil_div(P, L);
  const double piece = static_cast<double>(piece_bytes);
  // Bytes each rank sends off its node, the same for both: its pieces for the other nodes.
  const double off_node = piece * static_cast<double>(P - L);
  double latency = 0, bytes = 0;
  if (exchange == HostExchange::NodeAware) {
    e.messages = ceil_div(N - 1, L);
    e.message_bytes = static_cast<std::int64_t>(piece) * L * L;
    latency = model.node_fixed + model.node_latency * static_cast<double>(e.messages);
    bytes = off_node * static_cast<double>(L) / model.node_node_bandwidth;
    if (!in_place) bytes += 2 * piece * static_cast<double>(P - 1) / model.copy_bandwidth;
  } else {
    e.messages = P - 1;
    e.message_bytes = piece_bytes;
    latency = model.flat_latency * static_cast<double>(e.messages);
    bytes = off_node * static_cast<double>(L) / model.flat_node_bandwidth;
  }
  e.seconds = latency + bytes;
  e.latency_share = e.seconds > 0 ? latency / e.seconds : 0;
  return e;
}

Plan make_plan(const PlanRequest& req) {
  if (req.shape.size() < 2)
    throw UnsupportedInputError(cat("cannot transpose a dataset of rank ", req.shape.size(), " (need >= 2)"));
  if (!is_supported_element_size(req.elem_size))
    throw UnsupportedInputError(cat("element size ", req.elem_size, " bytes is not supported (1, 2, 4, 8 or 16)"));
  if (req.nranks < 1) throw InternalError("make_plan: nranks < 1");
  element_count(req.shape);  // overflow check
  if (!req.perm.empty() && req.shape.size() > kMaxAxesRank)
    throw UnsupportedInputError(cat("rank ", req.shape.size(), ": --axes supports ranks 2 to ", kMaxAxesRank));

  Plan p;
  p.shape = req.shape;
  p.axes = req.perm.empty() ? AxisMap::swap_last_two(req.shape) : AxisMap::make(req.shape, req.perm);
  p.explicit_axes = !req.perm.empty();
  p.dim_names = req.dim_names;
  p.out_shape = p.axes.out_shape();
  p.engine = p.axes.engine_shape();
  const Shape& shape = p.engine;
  p.dataset_elem_size = req.elem_size;
  // A wide element moves as one: the MPI datatype and the kernels take its size as an int.
  const std::int64_t elem = checked_mul(static_cast<std::int64_t>(req.elem_size), p.axes.element_extent());
  if (elem > (1ll << 30))
    throw ResourceError(cat("the axis order moves ", format_size(static_cast<double>(elem)),
                            " blocks as one element; at most 1 GiB is supported"));
  p.elem_size = static_cast<std::size_t>(elem);
  p.nranks = req.nranks;
  p.host_buffers = req.host_buffers;
  // The CUDA kernels take a wide element as a short row, through a scratch buffer (cuda_backend).
  p.device_buffers = req.device_buffers + (req.device_buffers > 0 && !is_supported_element_size(p.elem_size) ? 1 : 0);
  p.rows = shape[shape.size() - 2];
  p.cols = shape[shape.size() - 1];
  p.batch_inner = shape.size() > 2 ? shape[shape.size() - 3] : 1;
  p.batch_outer = 1;
  for (std::size_t i = 0; i + 3 < shape.size(); ++i) p.batch_outer *= shape[i];
  p.in_rows = BlockDistribution(p.rows, req.nranks);
  p.out_rows = BlockDistribution(p.cols, req.nranks);
  if (element_count(shape) == 0) {
    // An empty dataset (an extent of 0): nothing to read, exchange or write, no stage, no buffer;
    // the output is an empty dataset of the swapped shape.
    p.width = 0;
    p.col_stages = 0;
    p.inner_per_stage = 0;
    p.inner_stages = 0;
    return p;
  }

  p.ranks_per_node = std::clamp(req.ranks_per_node, 1, req.nranks);
  p.nodes = static_cast<int>(ceil_div(req.nranks, p.ranks_per_node));

  // One unit of (width x matrices) costs rows_block x P elements in the largest buffer: the read
  // buffer holds rows_block rows of P pieces, the receive buffer w rows of R <= rows_block x P.
  p.exchange_free = req.exchange_free && req.nranks > 1;
  const bool exchanges = req.nranks > 1 && !p.exchange_free;
  const std::int64_t unit = p.exchange_free ? p.rows : checked_mul(p.in_rows.block, req.nranks);
  const std::int64_t unit_bytes = checked_mul(unit, static_cast<std::int64_t>(p.elem_size));
  // Units the memory budgets allow with `host_buffers` stage buffers (0: none).
  auto memory_units = [&](int host_buffers) {
    std::int64_t units = req.host_mem / checked_mul(unit_bytes, host_buffers);
    if (p.device_buffers > 0) units = std::min(units, req.device_mem / checked_mul(unit_bytes, p.device_buffers));
    return std::min(units, req.max_count / unit);
  };
  const std::int64_t host_unit = checked_mul(unit_bytes, req.host_buffers);
  if (req.host_mem / host_unit < 1) {
    throw ResourceError(cat("host memory budget too small: one stage needs at least ",
                            format_size(static_cast<double>(host_unit)), " per rank (", req.host_buffers,
                            " buffers of ", p.in_rows.block, " rows x ", req.nranks, " ranks x ", p.elem_size,
                            " B), the budget is ", format_size(static_cast<double>(req.host_mem)),
                            "; raise --host-mem"));
  }
  if (p.device_buffers > 0) {
    const std::int64_t device_unit = checked_mul(unit_bytes, p.device_buffers);
    if (req.device_mem / device_unit < 1)
      throw ResourceError(cat("GPU memory budget too small: one stage needs at least ",
                              format_size(static_cast<double>(device_unit)), " per rank (", p.device_buffers,
                              " buffers), the budget is ", format_size(static_cast<double>(req.device_mem)),
                              "; raise --gpu-mem"));
  }
  if (memory_units(req.host_buffers) < 1)
    throw ResourceError(cat("one stage of ", unit, " elements per destination column exceeds the MPI count limit"));
  const std::int64_t cb = p.out_rows.block;

  // A candidate exchange with its stage width: the widest the budgets allow, capped at
  // max_buffer_bytes unless that leaves a stage mostly paying per-message latency (small pieces
  // at many ranks), where a wider stage is fewer stages of the same latency.
  struct Candidate {
    HostExchange exchange;
    int host_buffers = 0;
    std::int64_t units = 0, width = 0, nb = 1, stages = 0;
    ExchangeEstimate stage;
    double total = 0;
  };
  constexpr double kLatencyShare = 0.1;
  const ExchangeModel& model = req.exchange_model;
  // Width, matrices per stage and stage count for a number of units.
  auto shape_stages = [&](Candidate& c, std::int64_t units) {
    c.units = units;
    if (!p.axes.out_batch_outer()) {
      // The batch axis lies inside the output rows ([C][B][R]): a stage of every matrix writes
      // runs of B x R elements, one matrix at a time runs of R. All matrices first, then columns.
      c.nb = std::max<std::int64_t>(1, std::min(p.batch_inner, units));
      c.width = std::max<std::int64_t>(1, std::min(units / c.nb, cb));
      if (req.max_width > 0) c.width = std::min(c.width, req.max_width);
    } else {
      c.width = std::min(units, cb);
      if (req.max_width > 0) c.width = std::min(c.width, req.max_width);
      c.nb = c.width == cb ? std::max<std::int64_t>(1, std::min(p.batch_inner, units / cb)) : 1;
    }
    c.stages = ceil_div(cb, c.width) * ceil_div(p.batch_inner, c.nb) * p.batch_outer;
    const std::int64_t piece = checked_mul(checked_mul(p.in_rows.block, c.width * c.nb), static_cast<std::int64_t>(p.elem_size));
    c.stage = estimate_stage_exchange(model, c.exchange, req.nranks, p.ranks_per_node, piece, req.node_aware_in_place);
    c.total = c.stage.seconds * static_cast<double>(c.stages);
  };
  auto make_candidate = [&](HostExchange exchange) {
    Candidate c;
    c.exchange = exchange;
    c.host_buffers = req.host_buffers + (exchange == HostExchange::NodeAware && !req.node_aware_in_place ? 2 : 0);
    const std::int64_t fit = memory_units(c.host_buffers);
    if (fit < 1) return c;
    std::int64_t units = fit;
    if (req.max_buffer_bytes > 0) units = std::min(units, std::max<std::int64_t>(1, req.max_buffer_bytes / unit_bytes));
    shape_stages(c, units);
    if (exchanges && units < fit && c.stages > 1 && c.stage.latency_share > kLatencyShare) {
      // The byte term grows with the stage, the latency term does not: grow until it is small.
      const double share = c.stage.latency_share;
      const double grow = share / (1 - share) * (1 - kLatencyShare) / kLatencyShare;
      shape_stages(c, std::min(fit, static_cast<std::int64_t>(std::ceil(static_cast<double>(units) * grow))));
    }
    return c;
  };

  const bool multi_node = exchanges && p.nodes > 1 && p.ranks_per_node > 1;
  Candidate chosen;
  if (!exchanges) {
    // Nothing crosses between ranks: no exchange to choose, and its buffers are not counted.
    chosen = make_candidate(HostExchange::Alltoall);
    p.exchange_reason = req.nranks == 1 ? "one rank: nothing is exchanged"
                                        : "none: each rank reads the input rows of its own output band "
                                          "(CPU ranks of one node; --exchange mpi keeps the exchange)";
  } else if (req.host_exchange == HostExchange::Auto) {
    Candidate flat = make_candidate(HostExchange::Alltoall);
    chosen = flat;
    if (multi_node) {
      Candidate node = make_candidate(HostExchange::NodeAware);
      const auto& f = flat.stage;
      if (node.units >= 1 && node.total < flat.total) {
        chosen = node;
        p.exchange_reason = cat(
            "node-aware: the flat exchange's pieces of ", format_size(static_cast<double>(f.message_bytes)), " would spend ",
            static_cast<int>(f.latency_share * 100 + 0.5), "% of a stage on ", f.messages,
            " messages per rank (est. ", format_seconds(flat.total), " of exchange in all); ", p.ranks_per_node,
            " ranks per node combine them into ", node.stage.messages, " messages of ",
            format_size(static_cast<double>(node.stage.message_bytes)), " per rank (est. ", format_seconds(node.total), ")");
      } else {
        p.exchange_reason = cat(
            "flat: pieces of ", format_size(static_cast<double>(f.message_bytes)), ", ", f.messages,
            " messages per rank, est. ", format_seconds(flat.total), " of exchange in all",
            node.units >= 1 ? cat("; node-aware (", p.ranks_per_node, " ranks per node) est. ", format_seconds(node.total))
                            : std::string("; node-aware does not fit the memory budget"));
      }
    } else {
      p.exchange_reason = p.nodes == 1 ? "flat: all ranks share one node" : "flat: one rank per node";
    }
  } else {
    chosen = make_candidate(req.host_exchange);
    if (chosen.units < 1)
      throw ResourceError(cat("host memory budget too small for the ", host_exchange_name(req.host_exchange),
                              " exchange (it needs ", chosen.host_buffers, " stage buffers); raise --host-mem"));
    p.exchange_reason = cat(host_exchange_name(req.host_exchange), ": as asked");
  }
  if (!exchanges) chosen.exchange = HostExchange::Alltoall;
  p.host_exchange = chosen.exchange;
  p.host_buffers = chosen.host_buffers;
  const std::int64_t w = chosen.width, nb = chosen.nb;
  // Balance: equal stages rather than full ones and a short last one.
  p.col_stages = ceil_div(cb, w);
  p.width = ceil_div(cb, p.col_stages);
  p.inner_stages = ceil_div(p.batch_inner, nb);
  p.inner_per_stage = ceil_div(p.batch_inner, p.inner_stages);
  p.buffer_elems = p.inner_per_stage * p.width * unit;
  return p;
}

Stage Plan::stage(std::int64_t k) const {
  Stage s;
  s.index = k;
  const std::int64_t col = k % col_stages;
  const std::int64_t rest = k / col_stages;
  const std::int64_t ib = rest % inner_stages;
  s.outer = rest / inner_stages;
  s.inner_begin = ib * inner_per_stage;
  s.inner_count = std::min(inner_per_stage, batch_inner - s.inner_begin);
  s.col_offset = col * width;
  return s;
}

std::int64_t Plan::width_of(int q, const Stage& s) const {
  return std::clamp<std::int64_t>(out_rows.count(q) - s.col_offset, 0, width);
}

std::int64_t Plan::total_width(const Stage& s) const {
  std::int64_t sum = 0;
  for (int q = 0; q < nranks; ++q) sum += width_of(q, s);
  return sum;
}

std::int64_t Plan::total_bytes() const {
  return element_count(engine) * static_cast<std::int64_t>(elem_size);
}

std::int64_t Plan::exchanged_bytes(int rank) const {
  if (exchange_free) return 0;
  return batch_outer * batch_inner * in_rows.count(rank) * (cols - out_rows.count(rank)) *
         static_cast<std::int64_t>(elem_size);
}

std::int64_t Plan::piece_bytes() const {
  return in_rows.block * width * inner_per_stage * static_cast<std::int64_t>(elem_size);
}

std::string Plan::describe() const {
  std::ostringstream os;
  const double total = static_cast<double>(total_bytes());
  os << "input shape      " << format_shape(shape) << "  (" << format_size(total) << ", " << dataset_elem_size
     << " B elements)\n"
     << "output shape     " << format_shape(out_shape) << "\n"
     << "axes             " << format_axes(axes.perm()) << "  " << axes.describe(dim_names)
     << (explicit_axes ? "" : ", the last two swapped") << "\n";
  if (num_stages() == 0) {
    os << "stages           0  (the dataset is empty: the output is an empty dataset of the output shape;\n"
       << "                 nothing is read, exchanged or written)\n";
    return os.str();
  }
  os << "pass             1 of 1, a batched 2-D transpose: " << axes.roles(dim_names) << "; " << elem_size
     << " B elements\n"
     << "ranks            " << nranks << "  (input rows per rank " << (exchange_free ? rows : in_rows.block)
     << ", output rows per rank " << out_rows.block
     << (exchange_free ? "; each rank reads the input rows of its own output band: no exchange" : "") << ")\n"
     << "stages           " << num_stages() << "  (" << col_stages << " per matrix x " << inner_stages * batch_outer
     << " matrix groups)\n"
     << "stage width      " << width << " columns per destination rank, " << inner_per_stage
     << " matrix(es) per stage\n"
     << "memory per rank  " << format_size(static_cast<double>(memory_per_rank())) << " host (" << host_buffers
     << " buffers of " << format_size(static_cast<double>(buffer_bytes())) << ")";
  if (device_buffers > 0)
    os << ", " << format_size(static_cast<double>(device_memory_per_rank())) << " GPU (" << device_buffers << " buffers)";
  os << "\n"
     << "bytes read       " << format_size(total) << "\n"
     << "bytes written    " << format_size(total) << "\n";
  std::int64_t exchanged = 0;
  for (int r = 0; r < nranks; ++r) exchanged += exchanged_bytes(r);
  os << "bytes exchanged  " << format_size(static_cast<double>(exchanged)) << "  (between ranks, all ranks together)\n";
  if (nranks > 1)
    os << "host exchange    " << (exchange_free ? "none" : host_exchange_name(host_exchange)) << "  (" << ranks_per_node << " rank(s) per node, "
       << nodes << " node(s); " << exchange_reason << ")\n";
  return os.str();
}

}  // namespace xpose
