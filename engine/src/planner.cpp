#include "engine/src/planner.h"

#include <algorithm>
#include <sstream>

#include "xpose/error.h"

namespace xpose {

namespace {
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
}  // namespace

Plan make_plan(const PlanRequest& req) {
  const auto& shape = req.shape;
  if (shape.size() < 2)
    throw UnsupportedInputError(cat("cannot transpose a dataset of rank ", shape.size(), " (need >= 2)"));
  if (!is_supported_element_size(req.elem_size))
    throw UnsupportedInputError(cat("element size ", req.elem_size, " bytes is not supported (1, 2, 4, 8 or 16)"));
  if (req.nranks < 1) throw InternalError("make_plan: nranks < 1");
  element_count(shape);  // overflow check

  Plan p;
  p.shape = shape;
  p.out_shape = shape;
  std::swap(p.out_shape[shape.size() - 1], p.out_shape[shape.size() - 2]);
  p.elem_size = req.elem_size;
  p.nranks = req.nranks;
  p.host_buffers = req.host_buffers;
  p.device_buffers = req.device_buffers;
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
  const std::int64_t unit = checked_mul(p.in_rows.block, req.nranks);
  const std::int64_t unit_bytes = checked_mul(unit, static_cast<std::int64_t>(req.elem_size));
  const std::int64_t host_unit = checked_mul(unit_bytes, req.host_buffers);
  std::int64_t units = req.host_mem / host_unit;
  if (units < 1) {
    throw ResourceError(cat("host memory budget too small: one stage needs at least ",
                            format_size(static_cast<double>(host_unit)), " per rank (", req.host_buffers,
                            " buffers of ", p.in_rows.block, " rows x ", req.nranks, " ranks x ", req.elem_size,
                            " B), the budget is ", format_size(static_cast<double>(req.host_mem)),
                            "; raise --host-mem"));
  }
  if (req.device_buffers > 0) {
    const std::int64_t device_unit = checked_mul(unit_bytes, req.device_buffers);
    const std::int64_t device_units = req.device_mem / device_unit;
    if (device_units < 1)
      throw ResourceError(cat("GPU memory budget too small: one stage needs at least ",
                              format_size(static_cast<double>(device_unit)), " per rank (", req.device_buffers,
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
  if (w == cb) nb = std::max<std::int64_t>(1, std::min(p.batch_inner, units / cb));
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
  return element_count(shape) * static_cast<std::int64_t>(elem_size);
}

std::int64_t Plan::exchanged_bytes(int rank) const {
  return batch_outer * batch_inner * in_rows.count(rank) * (cols - out_rows.count(rank)) *
         static_cast<std::int64_t>(elem_size);
}

std::string Plan::describe() const {
  std::ostringstream os;
  const double total = static_cast<double>(total_bytes());
  os << "input shape      " << format_shape(shape) << "  (" << format_size(total) << ", " << elem_size
     << " B elements)\n"
     << "output shape     " << format_shape(out_shape) << "\n";
  if (num_stages() == 0) {
    os << "stages           0  (the dataset is empty: the output is an empty dataset of the output shape;\n"
       << "                 nothing is read, exchanged or written)\n";
    return os.str();
  }
  os << "ranks            " << nranks << "  (input rows per rank " << in_rows.block << ", output rows per rank "
     << out_rows.block << ")\n"
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
