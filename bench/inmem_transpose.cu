// bench_inmem_transpose: xpose's in-memory distributed transpose on device memory (default
// 32768 x 32768 complex64 over the ranks, one GPU each), every transport and schedule this
// machine offers (peer, nccl, mpi-device, mpi), against a raw MPI_Alltoall of the same bytes from
// host buffers and a local cudaMemcpy D2D of the same bytes, measured in the same run.
//
//   mpirun -np 2 bench_inmem_transpose [--rows R] [--cols C] [--batch B] [--reps N]
//       [--chunks MiB,MiB,..] [--no-host] [--no-inplace] [--no-auto] [--wisdom FILE] [--csv FILE]
//
// Each time is the median over N runs (after one warm-up) of the slowest rank's time (CUDA
// events on the caller's stream; MPI_Wtime for the host MPI_Alltoall). Bandwidth is the bytes
// each rank holds divided by the time ("GB/s/rank"); ratios are to the raw MPI_Alltoall. Every
// output is verified on the device, every element, against the formula that filled the input.
// --no-host skips the slow host paths (staged MPI transport, raw MPI_Alltoall).
#include <cuda_runtime.h>
#include <mpi.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "bench/arg_list.h"
#include "bench/stats.h"
#include "bench/device.cuh"
#include "kernels/cuda/check.h"
#include "mpi/check.h"
#include "xpose/distributed_transpose.h"

namespace {

using xpose::DistributedTranspose;
using xpose::Schedule;
using xpose::Transport;

struct Args {
  std::int64_t rows = 32768, cols = 32768, batch = 1;
  int reps = 10;
  std::vector<std::int64_t> chunks_mib = {16, 64, 256};
  bool host = true, inplace = true, auto_plan = true;
  std::string wisdom, csv;
};

// Element (b, i, j) of the input is (i + 1, j + 1 + b * cols) as two floats: exact while the
// values stay below 2^24 (any batch * cols up to 16 M).
__global__ void fill_input(float2* a, std::int64_t n, std::int64_t cols, std::int64_t row0,
                           std::int64_t batch) {
  const std::int64_t total = batch * n * cols;
  for (std::int64_t k = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; k < total;
       k += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t b = k / (n * cols), r = k % (n * cols), i = r / cols, j = r % cols;
    a[k] = make_float2(float(row0 + i + 1), float(j + 1 + b * cols));
  }
}

// Output element (b, j, i) must be input element (b, i, col0 + j).
__global__ void count_wrong(const float2* out, std::int64_t m, std::int64_t rows, std::int64_t col0,
                            std::int64_t cols, std::int64_t batch, unsigned long long* wrong) {
  const std::int64_t total = batch * m * rows;
  unsigned long long mine = 0;
  for (std::int64_t k = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; k < total;
       k += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t b = k / (m * rows), r = k % (m * rows), j = r / rows, i = r % rows;
    const float2 v = out[k];
    mine += (v.x != float(i + 1) || v.y != float(col0 + j + 1 + b * cols)) ? 1 : 0;
  }
  if (mine) atomicAdd(wrong, mine);
}

double max_over_ranks(double v) {
  double m = 0;
  XPOSE_CHECK_MPI(MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  return m;
}

std::int64_t sum_over_ranks(std::int64_t v) {
  std::int64_t s = 0;
  XPOSE_CHECK_MPI(MPI_Allreduce(&v, &s, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD));
  return s;
}

struct Row {
  std::string name, transport, schedule;
  std::int64_t chunk = 0;
  bool inplace = false;
  double ms = 0;
  std::int64_t wrong = -1;  // -1: not a transpose (baselines)
};

class Bench {
 public:
  explicit Bench(const Args& a) : a_(a) {
    XPOSE_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me_));
    XPOSE_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &ranks_));
    const int dev = xpose::bench::select_device(MPI_COMM_WORLD);
    cudaDeviceProp prop{};
    XPOSE_CHECK_CUDA(cudaGetDeviceProperties(&prop, dev));
    gpu_ = prop.name;
    // A plan without workspace or exchange, for the local sizes.
    DistributedTranspose::Options o;
    o.memory = xpose::MemorySpace::Device;
    o.planning = xpose::Planning::Estimate;
    o.transport = Transport::Mpi;
    o.allocate_workspace = false;
    o.batch = a.batch;
    DistributedTranspose probe(MPI_COMM_WORLD, a.rows, a.cols, xpose::ElementType::complex64(), o);
    n_ = probe.local_input_rows();
    m_ = probe.local_output_rows();
    row0_ = probe.input_row_offset();
    col0_ = probe.output_row_offset();
    in_bytes_ = probe.local_input_bytes();
    out_bytes_ = probe.local_output_bytes();
    inplace_bytes_ = probe.local_inplace_bytes();
    XPOSE_CHECK_CUDA(cudaMalloc(&d_in_, std::max<std::size_t>(in_bytes_, 16)));
    XPOSE_CHECK_CUDA(cudaMalloc(&d_out_, std::max<std::size_t>(out_bytes_, 16)));
    XPOSE_CHECK_CUDA(cudaMalloc(&d_wrong_, sizeof(unsigned long long)));
    XPOSE_CHECK_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    XPOSE_CHECK_CUDA(cudaEventCreate(&e0_));
    XPOSE_CHECK_CUDA(cudaEventCreate(&e1_));
    if (in_bytes_ > 0) {
      fill_input<<<4096, 256, 0, stream_>>>(static_cast<float2*>(d_in_), n_, a.cols, row0_,
                                            a.batch);
      XPOSE_CHECK_CUDA(cudaGetLastError());
    }
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream_));
  }
  ~Bench() {
    cudaFree(d_in_);
    cudaFree(d_out_);
    cudaFree(d_wrong_);
    cudaStreamDestroy(stream_);
    cudaEventDestroy(e0_);
    cudaEventDestroy(e1_);
  }

  int run() {
    if (me_ == 0)
      std::printf("# xpose in-memory transpose: %" PRId64 " x %" PRId64 " complex64, batch %" PRId64
                  ", %d ranks (%s), %.2f GiB per rank, median of %d\n",
                  a_.rows, a_.cols, a_.batch, ranks_, gpu_.c_str(),
                  static_cast<double>(in_bytes_) / (1 << 30), a_.reps);
    if (a_.host) raw_alltoall();
    time_local_copy();
    const auto transports =
        DistributedTranspose::available_transports(MPI_COMM_WORLD, xpose::MemorySpace::Device);
    for (auto t : transports) {
      if (t == Transport::Mpi && !a_.host && ranks_ > 1) continue;
      run_config(t, Schedule::Bulk, 0, false);
      for (auto c : a_.chunks_mib) run_config(t, Schedule::Pipelined, c << 20, false);
    }
    if (a_.inplace) {
      // In place with the two preferred transports (the peer transport lands in its own buffer
      // and copies over; the others stage through their workspace).
      const std::int64_t chunk = a_.chunks_mib.size() > 1 ? a_.chunks_mib[1] << 20 : 64 << 20;
      for (std::size_t i = 0; i < std::min<std::size_t>(2, transports.size()); ++i) {
        if (transports[i] == Transport::Mpi && !a_.host && ranks_ > 1) continue;
        const bool peer = transports[i] == Transport::Peer;
        run_config(transports[i], peer ? Schedule::Bulk : Schedule::Pipelined, peer ? 0 : chunk,
                   true);
      }
    }
    if (a_.auto_plan) run_auto();
    print();
    std::int64_t bad = 0;
    for (const auto& r : rows_) bad += r.wrong > 0;
    return bad ? 8 : 0;
  }

 private:
  // Median over reps of the slowest rank's time for fn, in ms, after one warm-up. `prepare` runs
  // before each timed call, outside the timing.
  double time_gpu(const std::function<void()>& fn, const std::function<void()>& prepare = {}) {
    if (prepare) prepare();
    fn();
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream_));
    std::vector<double> t;
    for (int r = 0; r < a_.reps; ++r) {
      if (prepare) prepare();
      XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream_));
      XPOSE_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
      XPOSE_CHECK_CUDA(cudaEventRecord(e0_, stream_));
      fn();
      XPOSE_CHECK_CUDA(cudaEventRecord(e1_, stream_));
      XPOSE_CHECK_CUDA(cudaEventSynchronize(e1_));
      float ms = 0;
      XPOSE_CHECK_CUDA(cudaEventElapsedTime(&ms, e0_, e1_));
      t.push_back(max_over_ranks(ms));
    }
    return xpose::bench::median_spread(t).median;
  }

  std::int64_t verify(const void* out) {
    XPOSE_CHECK_CUDA(cudaMemsetAsync(d_wrong_, 0, sizeof(unsigned long long), stream_));
    if (out_bytes_ > 0) {
      count_wrong<<<4096, 256, 0, stream_>>>(static_cast<const float2*>(out), m_, a_.rows, col0_,
                                             a_.cols, a_.batch, d_wrong_);
      XPOSE_CHECK_CUDA(cudaGetLastError());
    }
    unsigned long long wrong = 0;
    XPOSE_CHECK_CUDA(
        cudaMemcpyAsync(&wrong, d_wrong_, sizeof wrong, cudaMemcpyDeviceToHost, stream_));
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream_));
    return sum_over_ranks(static_cast<std::int64_t>(wrong));
  }

  void raw_alltoall() {
    if (a_.rows % ranks_ != 0 || a_.cols % ranks_ != 0) {
      if (me_ == 0)
        std::printf("# raw MPI_Alltoall skipped: rows and cols must divide by the ranks\n");
      return;
    }
    const std::size_t bytes = in_bytes_;
    std::vector<char> send(bytes, 1), recv(bytes, 0);  // touched: no first-touch faults timed
    MPI_Datatype type;
    XPOSE_CHECK_MPI(MPI_Type_contiguous(8, MPI_BYTE, &type));
    XPOSE_CHECK_MPI(MPI_Type_commit(&type));
    const auto per_peer = static_cast<std::int64_t>(bytes / 8 / static_cast<std::size_t>(ranks_));
    if (per_peer > INT32_MAX) throw xpose::UsageError("raw MPI_Alltoall: count past INT_MAX");
    auto once = [&] {
      XPOSE_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
      const double t0 = MPI_Wtime();
      XPOSE_CHECK_MPI(MPI_Alltoall(send.data(), static_cast<int>(per_peer), type, recv.data(),
                                   static_cast<int>(per_peer), type, MPI_COMM_WORLD));
      return max_over_ranks(MPI_Wtime() - t0);
    };
    once();
    std::vector<double> t;
    for (int r = 0; r < a_.reps; ++r) t.push_back(once() * 1e3);
    XPOSE_CHECK_MPI(MPI_Type_free(&type));
    raw_ms_ = xpose::bench::median_spread(t).median;
    rows_.push_back({"raw MPI_Alltoall, host buffers", "-", "-", 0, false, raw_ms_, -1});
  }

  void time_local_copy() {
    const double ms = time_gpu([&] {
      if (in_bytes_ > 0)
        XPOSE_CHECK_CUDA(cudaMemcpyAsync(d_out_, d_in_, std::min(in_bytes_, out_bytes_),
                                         cudaMemcpyDeviceToDevice, stream_));
    });
    rows_.push_back({"cudaMemcpy D2D, local, same bytes", "-", "-", 0, false, ms, -1});
  }

  void run_config(Transport t, Schedule s, std::int64_t chunk, bool inplace) {
    DistributedTranspose::Options o;
    o.memory = xpose::MemorySpace::Device;
    o.planning = xpose::Planning::Estimate;
    o.transport = t;
    o.schedule = s;
    o.chunk_bytes = chunk;
    o.batch = a_.batch;
    DistributedTranspose plan(MPI_COMM_WORLD, a_.rows, a_.cols, xpose::ElementType::complex64(), o);
    Row r;
    r.transport = xpose::transport_name(plan.transport());
    r.schedule = xpose::schedule_name(plan.schedule());
    r.chunk = s == Schedule::Pipelined ? plan.chunk_bytes() : 0;
    r.inplace = inplace;
    std::ostringstream name;
    name << "xpose " << r.transport << "/" << r.schedule;
    if (s == Schedule::Pipelined) name << " " << (plan.chunk_bytes() >> 20) << " MiB";
    if (inplace) name << " in place";
    r.name = name.str();
    if (me_ == 0) std::fprintf(stderr, "  timing %s\n", r.name.c_str());
    if (inplace) {
      void* buf = nullptr;
      XPOSE_CHECK_CUDA(cudaMalloc(&buf, std::max<std::size_t>(inplace_bytes_, 16)));
      r.ms = time_gpu([&] { plan.execute_inplace(buf, stream_); },
                      [&] {
                        if (in_bytes_ > 0)
                          XPOSE_CHECK_CUDA(cudaMemcpyAsync(buf, d_in_, in_bytes_,
                                                           cudaMemcpyDeviceToDevice, stream_));
                      });
      r.wrong = verify(buf);
      plan.forget_buffers();  // the peer transport may keep buffers mapped in the other ranks
      XPOSE_CHECK_CUDA(cudaFree(buf));
    } else {
      r.ms = time_gpu([&] { plan.execute(d_in_, d_out_, stream_); }, [&] { poison_output(); });
      r.wrong = verify(d_out_);
    }
    rows_.push_back(r);
  }

  void run_auto() {
    DistributedTranspose::Options o;
    o.memory = xpose::MemorySpace::Device;
    o.batch = a_.batch;
    o.wisdom_file = a_.wisdom;
    XPOSE_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    const double t0 = MPI_Wtime();
    DistributedTranspose plan(MPI_COMM_WORLD, a_.rows, a_.cols, xpose::ElementType::complex64(), o);
    const double planning = max_over_ranks(MPI_Wtime() - t0);
    if (me_ == 0) std::printf("# auto plan (%.2f s to plan):\n%s", planning, plan.report().c_str());
    Row r;
    r.transport = xpose::transport_name(plan.transport());
    r.schedule = xpose::schedule_name(plan.schedule());
    r.chunk = plan.schedule() == Schedule::Pipelined ? plan.chunk_bytes() : 0;
    r.name = "xpose auto (" + r.transport + "/" + r.schedule + ")";
    r.ms = time_gpu([&] { plan.execute(d_in_, d_out_, stream_); }, [&] { poison_output(); });
    r.wrong = verify(d_out_);
    rows_.push_back(r);
  }

  // NaNs in every output element before each run, on the bench's stream (a memset on the legacy
  // stream would not be ordered before work on a non-blocking one).
  void poison_output() {
    if (out_bytes_ > 0) XPOSE_CHECK_CUDA(cudaMemsetAsync(d_out_, 0xFF, out_bytes_, stream_));
  }

  void print() const {
    if (me_ != 0) return;
    std::printf("%-44s %10s %11s %9s %8s\n", "config", "median ms", "GB/s/rank", "x raw MPI",
                "wrong");
    const double gb = static_cast<double>(in_bytes_) / 1e9;
    const Row* best = nullptr;
    const Row* best_staged = nullptr;
    const Row* best_peer = nullptr;
    const Row* best_nccl = nullptr;
    for (const auto& r : rows_) {
      char ratio[32] = "-";
      if (raw_ms_ > 0) std::snprintf(ratio, sizeof ratio, "%.3f", r.ms / raw_ms_);
      char wrong[32] = "-";
      if (r.wrong >= 0) std::snprintf(wrong, sizeof wrong, "%" PRId64, r.wrong);
      std::printf("%-44s %10.3f %11.1f %9s %8s\n", r.name.c_str(), r.ms, gb / (r.ms * 1e-3), ratio,
                  wrong);
      if (r.wrong == 0 && r.name.rfind("xpose", 0) == 0) {
        if (!best || r.ms < best->ms) best = &r;
        if (r.transport == "mpi" && (!best_staged || r.ms < best_staged->ms)) best_staged = &r;
        if (r.transport == "peer" && (!best_peer || r.ms < best_peer->ms)) best_peer = &r;
        if (r.transport == "nccl" && (!best_nccl || r.ms < best_nccl->ms)) best_nccl = &r;
      }
    }
    if (best) std::printf("# best xpose: %s, %.3f ms\n", best->name.c_str(), best->ms);
    if (best_staged && raw_ms_ > 0)
      std::printf("# best host-staged MPI: %s, %.3f ms = %.3f x raw MPI_Alltoall (goal <= 1.15)\n",
                  best_staged->name.c_str(), best_staged->ms, best_staged->ms / raw_ms_);
    if (best_peer)
      std::printf("# best peer: %s, %.3f ms\n", best_peer->name.c_str(), best_peer->ms);
    if (best_nccl)
      std::printf("# best nccl: %s, %.3f ms\n", best_nccl->name.c_str(), best_nccl->ms);
    std::printf("RESULT best_ms=%.4f raw_mpi_ms=%.4f staged_ms=%.4f peer_ms=%.4f nccl_ms=%.4f\n",
                best ? best->ms : -1.0, raw_ms_ > 0 ? raw_ms_ : -1.0,
                best_staged ? best_staged->ms : -1.0, best_peer ? best_peer->ms : -1.0,
                best_nccl ? best_nccl->ms : -1.0);
    if (!a_.csv.empty()) {
      FILE* f = std::fopen(a_.csv.c_str(), "w");
      if (!f) {
        std::fprintf(stderr, "cannot write %s\n", a_.csv.c_str());
        return;
      }
      std::fprintf(f,
                   "config,transport,schedule,chunk_bytes,inplace,median_ms,gbps_per_rank,ratio_"
                   "raw_mpi,wrong\n");
      for (const auto& r : rows_)
        std::fprintf(f, "\"%s\",%s,%s,%" PRId64 ",%d,%.4f,%.2f,%.4f,%" PRId64 "\n", r.name.c_str(),
                     r.transport.c_str(), r.schedule.c_str(), r.chunk, r.inplace ? 1 : 0, r.ms,
                     gb / (r.ms * 1e-3), raw_ms_ > 0 ? r.ms / raw_ms_ : 0.0, r.wrong);
      std::fclose(f);
    }
  }

  Args a_;
  int me_ = 0, ranks_ = 1;
  std::string gpu_;
  std::int64_t n_ = 0, m_ = 0, row0_ = 0, col0_ = 0;
  std::size_t in_bytes_ = 0, out_bytes_ = 0, inplace_bytes_ = 0;
  void* d_in_ = nullptr;
  void* d_out_ = nullptr;
  unsigned long long* d_wrong_ = nullptr;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t e0_ = nullptr, e1_ = nullptr;
  double raw_ms_ = 0;
  std::vector<Row> rows_;
};

/// `text` as a whole number in [lo, hi], or a one-line message and exit status 2.
std::int64_t whole_or_abort(const std::string& opt, const std::string& text, long long lo,
                            long long hi) {
  long long v = 0;
  if (!xpose::bench::parse_whole(text, lo, hi, v)) {
    std::fprintf(stderr, "%s: '%s' is not a whole number from %lld to %lld\n", opt.c_str(),
                 text.c_str(), lo, hi);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return v;
}

std::vector<std::int64_t> parse_list(const std::string& opt, const std::string& s) {
  std::vector<std::int64_t> v;
  for (const std::string& item : xpose::bench::split_list(s))
    v.push_back(whole_or_abort(opt, item, 1, 1LL << 20));
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", s.c_str());
        MPI_Abort(MPI_COMM_WORLD, 2);
      }
      return argv[++i];
    };
    if (s == "--rows")
      a.rows = whole_or_abort(s, next(), 1, 1LL << 40);
    else if (s == "--cols")
      a.cols = whole_or_abort(s, next(), 1, 1LL << 40);
    else if (s == "--batch")
      a.batch = whole_or_abort(s, next(), 1, 1LL << 40);
    else if (s == "--reps")
      a.reps = static_cast<int>(whole_or_abort(s, next(), 1, 100000));
    else if (s == "--chunks")
      a.chunks_mib = parse_list(s, next());
    else if (s == "--no-host")
      a.host = false;
    else if (s == "--no-inplace")
      a.inplace = false;
    else if (s == "--no-auto")
      a.auto_plan = false;
    else if (s == "--wisdom")
      a.wisdom = next();
    else if (s == "--csv")
      a.csv = next();
    else {
      std::fprintf(stderr,
                   "usage: bench_inmem_transpose [--rows R] [--cols C] [--batch B] [--reps N] "
                   "[--chunks MiB,..] [--no-host] [--no-inplace] [--no-auto] [--wisdom FILE] "
                   "[--csv FILE]\n");
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  int rc = 0;
  try {
    Bench bench(a);
    rc = bench.run();
  } catch (const xpose::Error& e) {
    std::fprintf(stderr, "bench_inmem_transpose: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, static_cast<int>(e.code()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_inmem_transpose: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return rc;
}
