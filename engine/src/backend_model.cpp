#include "engine/src/backend_model.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "engine/src/host_buffer.h"
#include "kernels/transpose.h"
#include "mpi/comm.h"
#include "xpose/error.h"
#include "xpose/types.h"

namespace xpose {

BackendDecision decide_backend(const BackendCalibration& c, bool fused_cpu_path, int nranks) {
  const double copy = c.host_copy;
  double cpu = c.cpu_transpose + (fused_cpu_path ? 0.0 : 2 * copy);
  double gpu = std::max(2 * copy, c.gpu_round_trip);
  if (nranks > 1) {
    cpu += c.host_exchange + copy;  // the exchange, then the received pieces unpacked
    gpu += c.device_transport ? c.device_exchange : c.device_exchange + copy;
  }
  const auto ms = [](double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", s * 1e3);
    return std::string(text);
  };
  BackendDecision d;
  d.backend = c.gpu_round_trip > 0 && gpu < cpu ? "cuda" : "cpu";
  d.reason = cat("backend auto: ", d.backend, " (per ", format_size(static_cast<double>(c.bytes)), ": cpu ", ms(cpu),
                 " ms = transposition ", ms(c.cpu_transpose), fused_cpu_path ? " on the mapped files" : cat(" + 2 copies of ", ms(copy)),
                 nranks > 1 ? cat(" + exchange ", ms(c.host_exchange), " + unpack ", ms(copy)) : std::string(),
                 "; cuda ", ms(gpu), " ms = max(2 staging copies of ", ms(copy), ", GPU round trip ",
                 ms(c.gpu_round_trip), ")",
                 nranks > 1 ? cat(" + exchange ", ms(c.device_exchange), c.device_transport ? "" : cat(" + unpack ", ms(copy)))
                            : std::string(),
                 ")");
  return d;
}

void calibrate_host(MPI_Comm comm, std::size_t elem_size, std::int64_t bytes, int threads, BackendCalibration& c) {
  using Clock = std::chrono::steady_clock;
  const auto es = static_cast<std::int64_t>(elem_size);
  const std::int64_t rows = 1024;
  const std::int64_t cols = std::max<std::int64_t>(1, bytes / es / rows);
  c.bytes = rows * cols * es;
  HostBuffer a(c.bytes), b(c.bytes);
  std::memset(a.data(), 1, static_cast<std::size_t>(c.bytes));
  std::memset(b.data(), 0, static_cast<std::size_t>(c.bytes));
  // Median of three after a first run that warms the pages and the threads.
  auto time = [&](auto&& work) {
    std::vector<double> t;
    for (int rep = 0; rep < 4; ++rep) {
      const auto t0 = Clock::now();
      work();
      if (rep > 0) t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[1];
  };
  const double transpose = time([&] {
    kernels::transpose_cpu(a.data(), b.data(), elem_size, kernels::TransposeShape::dense(rows, cols), threads);
  });
  const double copy = time([&] { kernels::copy_2d_cpu(a.data(), cols * es, b.data(), cols * es, cols * es, rows, threads); });
  c.cpu_transpose = mpi::allreduce_max(comm, transpose);
  c.host_copy = mpi::allreduce_max(comm, copy);
}

}  // namespace xpose
