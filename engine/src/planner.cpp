#include "engine/src/planner.h"

#include <algorithm>
#include <sstream>

#include "xpose/error.h"

namespace xpose {

namespace {
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
}  // namespace

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

  // One unit of (width x matrices) costs rows_block x P elements in the largest buffer: the read
  // buffer holds rows_block rows of P pieces, the receive buffer w rows of R <= rows_block x P.
  p.exchange_free = req.exchange_free && req.nranks > 1;
  const std::int64_t unit = p.exchange_free ? p.rows : checked_mul(p.in_rows.block, req.nranks);
  const std::int64_t unit_bytes = checked_mul(unit, static_cast<std::int64_t>(p.elem_size));
  const std::int64_t host_unit = checked_mul(unit_bytes, req.host_buffers);
  std::int64_t units = req.host_mem / host_unit;
  if (units < 1) {
    throw ResourceError(cat("host memory budget too small: one stage needs at least ",
                            format_size(static_cast<double>(host_unit)), " per rank (", req.host_buffers,
                            " buffers of ", p.in_rows.block, " rows x ", req.nranks, " ranks x ", p.elem_size,
                            " B), the budget is ", format_size(static_cast<double>(req.host_mem)),
                            "; raise --host-mem"));
  }
  if (p.device_buffers > 0) {
    const std::int64_t device_unit = checked_mul(unit_bytes, p.device_buffers);
    const std::int64_t device_units = req.device_mem / device_unit;
    if (device_units < 1)
      throw ResourceError(cat("GPU memory budget too small: one stage needs at least ",
                              format_size(static_cast<double>(device_unit)), " per rank (", p.device_buffers,
                              " buffers), the budget is ", format_size(static_cast<double>(req.device_mem)),
                              "; raise --gpu-mem"));
    units = std::min(units, device_units);
  }
  units = std::min(units, req.max_count / unit);
  if (req.max_buffer_bytes > 0) units = std::min(units, std::max<std::int64_t>(1, req.max_buffer_bytes / unit_bytes));
  if (units < 1)
    throw ResourceError(cat("one stage of ", unit, " elements per destination column exceeds the MPI count limit"));
  const std::int64_t cb = p.out_rows.block;
  std::int64_t w = std::min(units, cb);
  if (req.max_width > 0) w = std::min(w, req.max_width);
  std::int64_t nb = 1;
  if (!p.axes.out_batch_outer()) {
    // The batch axis lies inside the output rows ([C][B][R]): a stage of every matrix writes
    // runs of B x R elements, one matrix at a time runs of R. All matrices first, then columns.
    nb = std::max<std::int64_t>(1, std::min(p.batch_inner, units));
    w = std::max<std::int64_t>(1, std::min(units / nb, cb));
    if (req.max_width > 0) w = std::min(w, req.max_width);
  } else if (w == cb) {
    nb = std::max<std::int64_t>(1, std::min(p.batch_inner, units / cb));
  }
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
  return os.str();
}

}  // namespace xpose
