// The CUDA stage backend: pieces go to the GPU, are transposed there at memory bandwidth, are
// exchanged (host-staged MPI, or NCCL / CUDA-aware MPI on device buffers) and come back as
// output rows. Built only with CUDA (cuda_backend_stub.cpp stands in otherwise).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "engine/src/cuda_memory.h"
#include "engine/src/stage_backend.h"
#include "kernels/cuda/check.h"
#include "kernels/transpose.h"
#include "mpi/comm.h"
#include "xpose/config.h"

namespace xpose {

bool cuda_device_available() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return count > 0;
}

namespace {

/// Ranks of this node that share each GPU (at least 1).
int ranks_per_device(MPI_Comm comm) {
  int count = 0;
  XPOSE_CHECK_CUDA(cudaGetDeviceCount(&count));
  const auto local = mpi::local_rank(comm);
  return std::max(1, (local.size + count - 1) / count);
}

}  // namespace

bool ranks_share_gpus(MPI_Comm comm) {
  return mpi::allreduce_max(comm, static_cast<std::int64_t>(ranks_per_device(comm))) > 1;
}

int select_cuda_device(MPI_Comm comm, bool quiet) {
  int count = 0;
  XPOSE_CHECK_CUDA(cudaGetDeviceCount(&count));
  if (count == 0) throw UsageError("no GPU is visible");
  const auto local = mpi::local_rank(comm);
  // Launchers that bind one GPU per rank (srun --gpu-bind, CUDA_VISIBLE_DEVICES per rank) leave
  // one device visible: then every rank takes device 0.
  const int device = local.rank % count;
  XPOSE_CHECK_CUDA(cudaSetDevice(device));
  if (local.size > count && local.rank == 0 && !quiet)
    std::fprintf(stderr, "xpose: warning: %d ranks on this node share %d GPU(s); each GPU serves up to %d ranks\n",
                 local.size, count, (local.size + count - 1) / count);
  return device;
}

std::int64_t default_gpu_mem(MPI_Comm comm) {
  std::size_t free_bytes = 0, total = 0;
  XPOSE_CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total));
  return static_cast<std::int64_t>(static_cast<double>(free_bytes) * 0.6) / ranks_per_device(comm);
}

namespace {

class CudaBackend final : public StageBackend {
 public:
  CudaBackend(const Plan& plan, MPI_Comm comm, const BackendChoice& choice, int threads)
      : comm_(comm), elem_(plan.elem_size), threads_(threads) {
    const std::int64_t bytes = plan.buffer_bytes();
    for (auto& b : in_) b = cuda::PinnedBuffer(bytes);
    for (auto& b : out_) b = cuda::PinnedBuffer(bytes);
    d_in_ = cuda::DeviceBuffer(bytes);
    d_send_ = cuda::DeviceBuffer(bytes);
    if (!is_supported_element_size(elem_)) d_tmp_ = cuda::DeviceBuffer(bytes);  // the planner counts it
    if (plan.nranks > 1) {
      exchange_ = mpi::make_exchange(choice.exchange == mpi::ExchangeKind::Mpi ? host_exchange_kind(plan) : choice.exchange,
                                     comm, elem_);
      if (exchange_->on_device()) {
        d_recv_ = cuda::DeviceBuffer(bytes);
        mpi::warm_up(*exchange_, comm, d_send_.data(), d_recv_.data(), stream_.get());
      } else {
        h_send_ = cuda::PinnedBuffer(bytes);
        h_recv_ = cuda::PinnedBuffer(bytes);
        mpi::warm_up(*exchange_, comm, h_send_.data(), h_recv_.data(), stream_.get());
      }
      stream_.sync();
    }
  }

  std::string name() const override { return "cuda"; }
  std::string exchange_name() const override {
    return exchange_ ? mpi::exchange_kind_name(exchange_->kind()) : "none";
  }
  std::byte* input_slot(int i) override { return in_[i].data(); }
  std::byte* output_slot(int i) override { return out_[i].data(); }

  void transform(const StageGeometry& g, int slot, const StageViews*, PhaseTimes& t, Trace& trace) override {
    const auto es = static_cast<std::int64_t>(elem_);
    const std::int64_t k = g.stage.index;
    cudaStream_t s = stream_.get();
    // H2D: one pitched copy per piece, so piece q lands dense as [nb][my_rows][w_q] on the GPU.
    {
      PhaseScope scope(trace, "h2d", "main", t.h2d, k);
      if (g.my_rows > 0) {
        if (g.nranks == 1) {
          XPOSE_CHECK_CUDA(cudaMemcpyAsync(d_in_.data(), in_[slot].data(), bytes(g.nb * g.my_rows * g.sum_w), cudaMemcpyHostToDevice, s));
        } else {
          for (int q = 0; q < g.nranks; ++q)
            if (g.widths[q] > 0)
              XPOSE_CHECK_CUDA(cudaMemcpy2DAsync(d_in_.data() + g.nb * g.my_rows * g.col_prefix[q] * es, bytes(g.widths[q]),
                                                 in_[slot].data() + g.col_prefix[q] * es, bytes(g.sum_w), bytes(g.widths[q]),
                                                 static_cast<std::size_t>(g.nb * g.my_rows), cudaMemcpyHostToDevice, s));
        }
      }
      stream_.sync();
    }
    // Transpose every piece into its send segment [nb][w_q][my_rows] (for one rank: the output,
    // in the output slot's layout). Piece q is on the device as the host slot holds it, its
    // matrices one after the other or interleaved row by row (StageGeometry::in_batch_outer).
    {
      PhaseScope scope(trace, "kernel", "main", t.kernel, k);
      for (int q = 0; q < g.nranks; ++q) {
        if (g.widths[q] == 0 || g.my_rows == 0) continue;
        const std::int64_t offset = g.nb * g.my_rows * g.col_prefix[q] * es;
        kernels::TransposeShape shape = kernels::TransposeShape::dense(g.my_rows, g.widths[q], g.nb);
        if (!g.in_batch_outer) {
          shape.in_pitch = g.nb * g.widths[q];
          shape.in_batch_stride = g.widths[q];
        }
        if (g.nranks == 1) {
          shape.out_pitch = g.slot_out_pitch();
          shape.out_batch_stride = g.slot_out_batch_stride();
        }
        transpose_device(d_in_.data() + offset, d_send_.data() + offset, shape, s);
      }
      stream_.sync();
    }
    if (g.nranks == 1) {
      PhaseScope scope(trace, "d2h", "main", t.d2h, k);
      XPOSE_CHECK_CUDA(cudaMemcpyAsync(out_[slot].data(), d_send_.data(), bytes(g.nb * g.my_w * g.rows_total), cudaMemcpyDeviceToHost, s));
      stream_.sync();
      return;
    }
    mpi::ExchangeLayout layout = g.exchange_layout(comm_);
    if (exchange_->on_device()) {
      {
        PhaseScope scope(trace, "exchange", "main", t.exchange, k);
        exchange_->alltoallv(d_send_.data(), d_recv_.data(), layout, s);
        stream_.sync();
      }
      // D2H and unpack in one: each received piece [w][rows of p] lands at its column offset
      // of the output rows, through a pitched copy.
      PhaseScope scope(trace, "d2h", "main", t.d2h, k);
      unpack_pitched(g, layout, d_recv_.data(), out_[slot].data(), cudaMemcpyDeviceToHost);
      stream_.sync();
      return;
    }
    {
      PhaseScope scope(trace, "d2h", "main", t.d2h, k);
      XPOSE_CHECK_CUDA(cudaMemcpyAsync(h_send_.data(), d_send_.data(), bytes(layout.total_send()), cudaMemcpyDeviceToHost, s));
      stream_.sync();
    }
    {
      PhaseScope scope(trace, "exchange", "main", t.exchange, k);
      exchange_->alltoallv(h_send_.data(), h_recv_.data(), layout, s);
    }
    PhaseScope scope(trace, "unpack", "main", t.unpack, k);
    for (int p = 0; p < g.nranks; ++p) {
      const std::int64_t rp = g.rows_of[p];
      if (rp == 0 || g.my_w == 0) continue;
      const std::byte* src = h_recv_.data() + layout.recv_displs[p] * es;
      for (std::int64_t b = 0; b < g.nb; ++b)
        kernels::copy_2d_cpu(src + b * g.my_w * rp * es, rp * es,
                             out_[slot].data() + (b * g.slot_out_batch_stride() + g.row_offset[p]) * es,
                             g.slot_out_pitch() * es, rp * es, g.my_w, threads_);
    }
  }

 private:
  std::size_t bytes(std::int64_t elems) const { return static_cast<std::size_t>(elems) * elem_; }

  // Elements the CUDA kernels do not take (an axis group moved as one, any size but 1, 2, 4, 8
  // or 16 bytes) are short rows of k words: [R][C][k] -> [C][R][k] is R x (C k) words transposed
  // into scratch ([C][k][R]), then C x nb transposes of k x R words into the output rows. Device
  // memory moves the extra pass at TB/s, far above the PCIe and file rates a stage runs at.
  void transpose_device(const std::byte* in, std::byte* out, const kernels::TransposeShape& shape, cudaStream_t s) {
    if (is_supported_element_size(elem_)) {
      kernels::transpose_cuda(in, out, elem_, shape, s);
      return;
    }
    const kernels::TransposeShape t = shape.resolved();
    std::size_t word = 16;
    while (elem_ % word != 0) word /= 2;
    const auto k = static_cast<std::int64_t>(elem_ / word);
    kernels::TransposeShape a;
    a.rows = t.rows;
    a.cols = t.cols * k;
    a.batch = t.batch;
    a.in_pitch = t.in_pitch * k;
    a.in_batch_stride = t.in_batch_stride * k;
    a.out_pitch = t.rows;
    a.out_batch_stride = t.cols * k * t.rows;
    kernels::transpose_cuda(in, d_tmp_.data(), word, a, s);
    kernels::TransposeShape b;
    b.rows = k;
    b.cols = t.rows;
    b.in_pitch = t.rows;
    b.in_batch_stride = k * t.rows;
    b.out_pitch = k;
    b.out_batch_stride = t.out_pitch * k;
    if (t.batch == 1 || t.out_batch_stride == t.cols * t.out_pitch) {  // all output rows at one stride
      b.batch = t.batch * t.cols;
      kernels::transpose_cuda(d_tmp_.data(), out, word, b, s);
      return;
    }
    b.batch = t.cols;
    for (std::int64_t m = 0; m < t.batch; ++m)
      kernels::transpose_cuda(d_tmp_.data() + m * t.cols * t.rows * static_cast<std::int64_t>(elem_),
                              out + m * t.out_batch_stride * static_cast<std::int64_t>(elem_), word, b, s);
  }

  void unpack_pitched(const StageGeometry& g, const mpi::ExchangeLayout& layout, const std::byte* src_base,
                      std::byte* dst_base, cudaMemcpyKind kind) {
    const auto es = static_cast<std::int64_t>(elem_);
    for (int p = 0; p < g.nranks; ++p) {
      const std::int64_t rp = g.rows_of[p];
      if (rp == 0 || g.my_w == 0) continue;
      for (std::int64_t b = 0; b < g.nb; ++b)
        XPOSE_CHECK_CUDA(cudaMemcpy2DAsync(dst_base + (b * g.slot_out_batch_stride() + g.row_offset[p]) * es,
                                           bytes(g.slot_out_pitch()),
                                           src_base + (layout.recv_displs[p] + b * g.my_w * rp) * es, bytes(rp), bytes(rp),
                                           static_cast<std::size_t>(g.my_w), kind, stream_.get()));
    }
  }

  MPI_Comm comm_;
  std::size_t elem_;
  int threads_;
  cuda::Stream stream_;
  cuda::PinnedBuffer in_[2], out_[2], h_send_, h_recv_;
  cuda::DeviceBuffer d_in_, d_send_, d_recv_, d_tmp_;
  std::unique_ptr<mpi::Exchange> exchange_;
};

}  // namespace

std::unique_ptr<StageBackend> make_cuda_backend(const Plan& plan, MPI_Comm comm, const BackendChoice& choice,
                                                int threads) {
  return std::make_unique<CudaBackend>(plan, comm, choice, threads);
}

mpi::ExchangeKind pick_fastest_exchange(MPI_Comm comm, const std::string& backend, std::int64_t bytes,
                                        std::string* report, std::vector<std::pair<mpi::ExchangeKind, double>>* times_out) {
  std::vector<mpi::ExchangeKind> candidates{mpi::ExchangeKind::Mpi};
  if (backend == "cuda") {
    // NCCL refuses two ranks on one GPU.
    if (XPOSE_HAVE_NCCL && !ranks_share_gpus(comm)) candidates.push_back(mpi::ExchangeKind::Nccl);
    if (mpi::mpi_is_cuda_aware()) candidates.push_back(mpi::ExchangeKind::MpiDevice);
  }
  const int n = mpi::size(comm);
  const std::int64_t per_peer = std::max<std::int64_t>(1, bytes / n / 16) * 16;
  mpi::ExchangeLayout layout;
  layout.send_counts.assign(static_cast<std::size_t>(n), per_peer / 16);
  layout.recv_counts.assign(static_cast<std::size_t>(n), per_peer / 16);
  layout.finalize(comm);
  const std::int64_t total = per_peer * n;
  cuda::PinnedBuffer hs(total), hr(total);
  cuda::DeviceBuffer ds(total), dr(total);
  cuda::Stream stream;
  mpi::ExchangeKind best = mpi::ExchangeKind::Mpi;
  double best_time = std::numeric_limits<double>::infinity();
  std::string text = "exchange auto:";
  for (auto kind : candidates) {
    auto ex = mpi::make_exchange(kind, comm, 16);
    const bool dev = ex->on_device();
    std::vector<double> times;
    for (int rep = 0; rep < 4; ++rep) {  // the first round sets up connections and is dropped
      XPOSE_CHECK_MPI(MPI_Barrier(comm));
      auto t0 = std::chrono::steady_clock::now();
      ex->alltoallv(dev ? static_cast<void*>(ds.data()) : hs.data(), dev ? static_cast<void*>(dr.data()) : hr.data(), layout,
                    stream.get());
      stream.sync();
      double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (rep > 0) times.push_back(mpi::allreduce_max(comm, sec));
    }
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    text += cat(" ", mpi::exchange_kind_name(kind), " ", median * 1e3, " ms,");
    if (times_out) times_out->emplace_back(kind, median);
    if (median < best_time) {
      best_time = median;
      best = kind;
    }
  }
  text += cat(" chose ", mpi::exchange_kind_name(best), " (", format_size(static_cast<double>(total)), " per rank)");
  if (report) *report = text;
  return best;
}

double time_gpu_round_trip(MPI_Comm comm, std::size_t elem_size, std::int64_t bytes) {
  const auto es = static_cast<std::int64_t>(elem_size);
  const std::int64_t rows = 1024;
  const std::int64_t cols = std::max<std::int64_t>(1, bytes / es / rows);
  const std::int64_t total = rows * cols * es;
  cuda::PinnedBuffer h_in(total), h_out(total);
  cuda::DeviceBuffer d_in(total), d_out(total);
  cuda::Stream stream;
  std::vector<double> times;
  for (int rep = 0; rep < 4; ++rep) {  // the first round warms the context and the kernel
    const auto t0 = std::chrono::steady_clock::now();
    XPOSE_CHECK_CUDA(cudaMemcpyAsync(d_in.data(), h_in.data(), static_cast<std::size_t>(total), cudaMemcpyHostToDevice, stream.get()));
    kernels::transpose_cuda(d_in.data(), d_out.data(), elem_size, kernels::TransposeShape::dense(rows, cols), stream.get());
    XPOSE_CHECK_CUDA(cudaMemcpyAsync(h_out.data(), d_out.data(), static_cast<std::size_t>(total), cudaMemcpyDeviceToHost, stream.get()));
    stream.sync();
    if (rep > 0) times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  return mpi::allreduce_max(comm, times[1]);
}

}  // namespace xpose
