#include <algorithm>
#include <functional>

#include "engine/src/host_buffer.h"
#include "engine/src/stage_backend.h"
#include "kernels/transpose.h"
#include "mpi/comm.h"

namespace xpose {

StageGeometry StageGeometry::make(const Plan& plan, const Stage& stage, int me) {
  StageGeometry g;
  g.stage = stage;
  g.me = me;
  g.nranks = plan.nranks;
  g.nb = stage.inner_count;
  g.rows_total = plan.rows;
  g.my_rows = plan.rows_read(me);
  g.exchange_free = plan.exchange_free;
  const auto n = static_cast<std::size_t>(plan.nranks);
  g.widths.resize(n);
  g.col_prefix.resize(n);
  g.rows_of.resize(n);
  g.row_offset.resize(n);
  for (int q = 0; q < plan.nranks; ++q) {
    g.col_prefix[q] = g.sum_w;
    g.widths[q] = plan.exchange_free && q != me ? 0 : plan.width_of(q, stage);
    g.sum_w += g.widths[q];
    g.rows_of[q] = plan.exchange_free && q != me ? 0 : plan.rows_read(q);
    g.row_offset[q] = plan.first_row_read(q);
  }
  g.my_w = g.widths[me];
  g.in_batch_outer = plan.axes.in_batch_outer();
  g.out_batch_outer = plan.axes.out_batch_outer();
  return g;
}

mpi::ExchangeLayout StageGeometry::exchange_layout(MPI_Comm comm) const {
  mpi::ExchangeLayout layout;
  layout.send_counts.resize(static_cast<std::size_t>(nranks));
  layout.recv_counts.resize(static_cast<std::size_t>(nranks));
  for (int q = 0; q < nranks; ++q) {
    layout.send_counts[q] = nb * my_rows * widths[q];
    layout.recv_counts[q] = nb * my_w * rows_of[q];
  }
  layout.finalize(comm);
  return layout;
}

namespace {

class CpuBackend final : public StageBackend {
 public:
  CpuBackend(const Plan& plan, MPI_Comm comm, int threads, bool use_views)
      : comm_(comm), elem_(plan.elem_size), threads_(threads) {
    const std::int64_t bytes = plan.buffer_bytes();
    if (!use_views) {
      for (auto& b : in_) b = HostBuffer(bytes);
      for (auto& b : out_) b = HostBuffer(bytes);
    }
    if (plan.nranks > 1 && !plan.exchange_free) {
      exchange_ = mpi::make_exchange(host_exchange_kind(plan), comm, elem_);
      // An exchange that stages in place (node-aware) takes the pieces in its own node memory.
      in_place_ = exchange_->can_stage_in_place();
      send_ = HostBuffer(in_place_ ? static_cast<std::int64_t>(plan.nranks * elem_) : bytes);
      recv_ = HostBuffer(in_place_ ? static_cast<std::int64_t>(plan.nranks * elem_) : bytes);
      mpi::warm_up(*exchange_, comm, send_.data(), recv_.data(), nullptr);
    }
  }
  std::string name() const override { return "cpu"; }
  std::string exchange_name() const override { return exchange_ ? mpi::exchange_kind_name(exchange_->kind()) : "none"; }
  std::byte* input_slot(int i) override { return in_[i].data(); }
  std::byte* output_slot(int i) override { return out_[i].data(); }

  void transform(const StageGeometry& g, int slot, const StageViews* views, PhaseTimes& t, Trace& trace) override {
    StageViews own;
    if (!views) {  // the slots as views: pieces side by side, output rows [nb][my_w][R]
      own.in = in_[slot].data();
      own.in_pitch = g.slot_in_pitch();
      own.in_batch_stride = g.slot_in_batch_stride();
      own.in_col = g.col_prefix;
      own.out = out_[slot].data();
      own.out_pitch = g.slot_out_pitch();
      own.out_batch_stride = g.slot_out_batch_stride();
      views = &own;
    }
    const StageViews& v = *views;
    const auto es = static_cast<std::int64_t>(elem_);
    const std::int64_t k = g.stage.index;
    auto piece_shape = [&](int q) {
      kernels::TransposeShape ts;
      ts.rows = g.my_rows;
      ts.cols = g.widths[q];
      ts.batch = g.nb;
      ts.in_pitch = v.in_pitch;
      ts.in_batch_stride = v.in_batch_stride;
      return ts;
    };
    // Per-peer counts; this rank's own piece is kept locally (below).
    mpi::ExchangeLayout layout;
    if (g.nranks > 1 && !g.exchange_free) {
      PhaseScope scope(trace, "exchange", "main", t.exchange, k);
      const auto n = static_cast<std::size_t>(g.nranks);
      layout.send_counts.assign(n, 0);
      layout.recv_counts.assign(n, 0);
      layout.send_displs.assign(n, 0);
      layout.recv_displs.assign(n, 0);
      for (int q = 0; q < g.nranks; ++q) {
        if (q == g.me) continue;
        layout.send_counts[q] = g.nb * g.my_rows * g.widths[q];
        layout.send_displs[q] = g.nb * g.my_rows * g.col_prefix[q];
        layout.recv_counts[q] = g.nb * g.my_w * g.rows_of[q];
        layout.recv_displs[q] = g.nb * g.my_w * g.row_offset[q];
      }
      layout.finalize(comm_);
      if (in_place_) exchange_->stage_in_place(layout);
    }
    {
      // This rank's own piece goes straight to its output rows; every other piece becomes a
      // contiguous [nb][w_q][my_rows] segment of the send buffer. In bands of input rows, so a
      // mapped input can be let go of band by band.
      PhaseScope scope(trace, "transpose", "main", t.kernel, k);
      const std::int64_t band = v.band_rows > 0 ? v.band_rows : std::max<std::int64_t>(1, g.my_rows);
      for (std::int64_t r0 = 0; r0 < g.my_rows; r0 += band) {
        const std::int64_t rows = std::min(band, g.my_rows - r0);
        for (int q = 0; q < g.nranks; ++q) {
          if (g.widths[q] == 0) continue;
          kernels::TransposeShape ts = piece_shape(q);
          ts.rows = rows;
          std::byte* dst;
          if (q == g.me) {
            ts.out_pitch = v.out_pitch;
            ts.out_batch_stride = v.out_batch_stride;
            dst = v.out + (g.row_offset[g.me] + r0) * es;
          } else {
            ts.out_pitch = g.my_rows;
            ts.out_batch_stride = g.widths[q] * g.my_rows;
            dst = (in_place_ ? exchange_->send_slot(q) : send_.data() + layout.send_displs[q] * es) + r0 * es;
          }
          kernels::transpose_cpu(v.in + (r0 * v.in_pitch + v.in_col[q]) * es, dst, elem_, ts, threads_);
        }
        if (v.release_input) v.release_input(r0, rows);
      }
    }
    if (g.nranks == 1 || g.exchange_free) return;
    {
      PhaseScope scope(trace, "exchange", "main", t.exchange, k);
      if (in_place_) exchange_->exchange_in_place();
      else exchange_->alltoallv(send_.data(), recv_.data(), layout, nullptr);
    }
    // Unpack: the pieces from each rank sit side by side in the output rows.
    PhaseScope scope(trace, "unpack", "main", t.unpack, k);
    for (int p = 0; p < g.nranks; ++p) {
      const std::int64_t rp = g.rows_of[p];
      if (p == g.me || rp == 0 || g.my_w == 0) continue;
      const std::byte* src = in_place_ ? exchange_->recv_slot(p) : recv_.data() + layout.recv_displs[p] * es;
      for (std::int64_t b = 0; b < g.nb; ++b)
        kernels::copy_2d_cpu(src + b * g.my_w * rp * es, rp * es, v.out + (b * v.out_batch_stride + g.row_offset[p]) * es,
                             v.out_pitch * es, rp * es, g.my_w, threads_);
    }
  }

 private:
  MPI_Comm comm_;
  std::size_t elem_;
  int threads_;
  HostBuffer in_[2], out_[2], send_, recv_;
  std::unique_ptr<mpi::Exchange> exchange_;
  bool in_place_ = false;
};

}  // namespace

std::unique_ptr<StageBackend> make_cpu_backend(const Plan& plan, MPI_Comm comm, int threads, bool use_views) {
  return std::make_unique<CpuBackend>(plan, comm, threads, use_views);
}

}  // namespace xpose
