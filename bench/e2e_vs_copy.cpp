// End-to-end transpose against two yardsticks measured in the same run: the file-copy ceiling
// (the fastest parallel copy of the input file, bench/file_copy.h: a transpose reads and writes
// every byte once, so it can be no faster) and a plain HDF5 copy of the same dataset (the same
// reads and writes through the same HDF5/MPI-IO layer and rank count, no transpose, no exchange).
//
//   mpirun -np 2 bench_e2e_vs_copy --input in.h5:/data --workdir /dev/shm [--host-mem 512MiB] [--reps 3]
//       [--io auto|collective|independent] [--backend auto|cpu|cuda] [--gpu-mem 8GiB] [--exchange auto|mpi|nccl]
//       [--trace FILE] [--ceiling-threads 8,16] [--cold] [--no-verify] [--keep]
// --cold drops the page cache before every timed copy and transpose (as root; for disks);
// --no-verify checks a million random elements instead of all; --keep leaves the transposed file
// (WORKDIR/bench-transposed.h5) for a separate `xpose verify`.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>
#include <string>
#include <vector>

#include "bench/arg_list.h"
#include "bench/file_copy.h"
#include "engine/src/host_buffer.h"
#include "engine/src/tools.h"
#include "engine/src/transpose_job.h"
#include "io/h5.h"
#include "mpi/comm.h"

namespace {

using Clock = std::chrono::steady_clock;

// Drops the page cache (root only; elsewhere a no-op), for cold-cache figures on a disk.
void drop_page_cache(MPI_Comm comm) {
  MPI_Barrier(comm);
  ::sync();
  std::ofstream("/proc/sys/vm/drop_caches") << "3\n";
  MPI_Barrier(comm);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// Copy: each rank streams its FFTW block of rows (of every matrix) in bands within the budget.
double plain_copy(MPI_Comm comm, const xpose::io::DatasetRef& in_ref, const xpose::io::DatasetRef& out_ref,
                  std::int64_t host_mem, xpose::io::Transfer transfer) {
  MPI_Barrier(comm);
  auto t0 = Clock::now();
  auto input = xpose::io::InputFile::open(in_ref, comm);
  const auto& info = input.dataset().info();
  xpose::io::CreateOptions create;
  auto out = xpose::io::OutputFile::create(out_ref, info.shape, input.dataset().type(), create, comm);
  const int me = xpose::mpi::rank(comm), n = xpose::mpi::size(comm);
  if (info.shape.size() != 2) throw xpose::UsageError("bench_e2e_vs_copy takes a 2-D dataset");
  const std::int64_t rows = info.shape[0], cols = info.shape[1];
  const std::int64_t row_bytes = cols * static_cast<std::int64_t>(info.element.size);
  xpose::BlockDistribution dist(rows, n);
  const std::int64_t band = std::max<std::int64_t>(1, host_mem / row_bytes);
  xpose::HostBuffer buf(std::min(band, std::max<std::int64_t>(1, dist.count(me))) * row_bytes);
  const std::int64_t steps = (dist.block + band - 1) / band;  // same count on every rank: collective I/O
  for (std::int64_t k = 0; k < steps; ++k) {
    std::int64_t r0 = dist.offset(me) + k * band;
    std::int64_t nr = std::max<std::int64_t>(0, std::min(band, dist.offset(me) + dist.count(me) - r0));
    std::vector<xpose::io::Box> boxes;
    if (nr > 0) boxes.push_back({{r0, 0}, {nr, cols}});
    input.dataset().read(boxes, buf.data(), transfer);
    out.dataset().write(boxes, buf.data(), transfer);
  }
  out.commit();
  MPI_Barrier(comm);
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);  // as the xpose command does
  int code = 0;
  try {
    std::string input, workdir = "/tmp";
    std::int64_t host_mem = 0;
    int reps = 3;
    std::string io = "auto", backend = "auto", exchange = "auto", trace;
    std::int64_t gpu_mem = 0;
    bool check = true, keep = false, cold = false;
    std::vector<int> ceiling_threads;
    for (int i = 1; i < argc; i += 2) {
      std::string a = argv[i];
      if (a == "--no-verify" || a == "--keep" || a == "--cold") {
        if (a == "--cold") cold = true;
        else (a == "--keep" ? keep : check) = a == "--keep";
        --i;
        continue;
      }
      if (i + 1 >= argc) throw xpose::UsageError("missing value for " + a);
      if (a == "--input") input = argv[i + 1];
      else if (a == "--workdir") workdir = argv[i + 1];
      else if (a == "--host-mem") host_mem = xpose::parse_size(argv[i + 1]);
      else if (a == "--reps") {
        long long r = 0;
        if (!xpose::bench::parse_whole(argv[i + 1], 1, 100000, r))
          throw xpose::UsageError(xpose::cat("--reps: '", argv[i + 1], "' is not a whole number from 1 to 100000"));
        reps = static_cast<int>(r);
      }
      else if (a == "--io") io = argv[i + 1];
      else if (a == "--backend") backend = argv[i + 1];
      else if (a == "--exchange") exchange = argv[i + 1];
      else if (a == "--gpu-mem") gpu_mem = xpose::parse_size(argv[i + 1]);
      else if (a == "--trace") trace = argv[i + 1];
      else if (a == "--ceiling-threads") {
        for (const auto& item : xpose::bench::split_list(argv[i + 1])) {
          long long n = 0;
          if (!xpose::bench::parse_whole(item, 1, 1024, n))
            throw xpose::UsageError(xpose::cat("--ceiling-threads: '", item, "' is not a count from 1 to 1024"));
          ceiling_threads.push_back(static_cast<int>(n));
        }
      }
      else throw xpose::UsageError("unknown option " + a);
    }
    if (input.empty()) throw xpose::UsageError("usage: bench_e2e_vs_copy --input FILE:/dset [--workdir DIR] [--host-mem SIZE] [--reps N] [--io collective|independent]");
    const MPI_Comm comm = MPI_COMM_WORLD;
    const int me = xpose::mpi::rank(comm);
    const auto transfer = io == "independent" ? xpose::io::Transfer::Independent : xpose::io::Transfer::Collective;

    xpose::TransposeOptions t;
    t.in = xpose::io::DatasetRef::parse(input);
    t.out = xpose::io::DatasetRef::parse(workdir + "/bench-transposed.h5:/data");
    t.host_mem = host_mem;  // 0 when not given: the engine's default, as for the command
    t.force = true;
    t.quiet = true;
    t.read_transfer = t.write_transfer = transfer;
    t.direct_io = io == "auto";
    t.backend = backend;
    t.exchange = xpose::mpi::parse_exchange_kind(exchange);
    t.gpu_mem = gpu_mem;
    const auto copy_ref = xpose::io::DatasetRef::parse(workdir + "/bench-copy.h5:/data");
    host_mem = xpose::host_mem_budget(comm, t);  // the plain copy gets the transpose's budget

    // The ceiling: the input file copied by rank 0 alone, with the node's threads.
    if (ceiling_threads.empty()) {
      const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
      ceiling_threads = {std::max(1, hw / 2), hw};
    }
    xpose::bench::CeilingResult ceiling;
    MPI_Barrier(comm);
    if (me == 0)
      ceiling = xpose::bench::copy_ceiling(t.in.file, workdir + "/bench-file-copy.tmp", ceiling_threads,
                                           cold ? std::function<void()>([] {
                                             ::sync();
                                             std::ofstream("/proc/sys/vm/drop_caches") << "3\n";
                                           })
                                                : std::function<void()>());
    MPI_Barrier(comm);

    std::vector<double> copy_s, xpose_s;
    xpose::TransposeReport last;
    auto remove_on_root = [&](const std::string& path) {
      MPI_Barrier(comm);
      if (me == 0) std::remove(path.c_str());
      MPI_Barrier(comm);
    };
    for (int r = 0; r < reps + 1; ++r) {  // the first round warms the page cache and is dropped
      if (cold) drop_page_cache(comm);
      double c = plain_copy(comm, t.in, copy_ref, host_mem, transfer);
      remove_on_root(copy_ref.file);  // keep memory-backed work dirs from holding three copies
      MPI_Barrier(comm);
      t.trace_path = r == reps ? trace : "";
      if (cold) drop_page_cache(comm);
      auto t0 = Clock::now();
      last = xpose::run_transpose(comm, t);
      MPI_Barrier(comm);
      double x = std::chrono::duration<double>(Clock::now() - t0).count();
      if (r < reps) remove_on_root(t.out.file);
      if (r > 0) {
        copy_s.push_back(c);
        xpose_s.push_back(x);
      }
    }
    xpose::VerifyOptions v;
    v.in = t.in;
    v.out = t.out;
    v.host_mem = std::min<std::int64_t>(host_mem, 1ll << 30);
    v.quiet = true;
    if (!check) v.sample = 1000000;  // a million random elements instead of all
    auto result = xpose::verify(comm, v);
    const double bytes = static_cast<double>(last.plan.total_bytes());
    if (me == 0) {
      std::printf("input %s: %s, %s, %d rank(s), host-mem %s, %lld stage(s), io %s, backend %s, exchange %s, median of %d\n",
                  input.c_str(), xpose::format_shape(last.plan.shape).c_str(), xpose::format_size(bytes).c_str(),
                  last.plan.nranks, xpose::format_size(static_cast<double>(host_mem)).c_str(),
                  static_cast<long long>(last.plan.num_stages()), io.c_str(), last.backend.c_str(),
                  last.exchange.c_str(), reps);
      for (const auto& line : ceiling.lines) std::printf("file copy: %s\n", line.c_str());
      std::printf("%-22s %10s %12s %14s %14s\n", "", "seconds", "GB/s (r+w)", "x HDF5 copy", "x copy ceiling");
      const double c = median(copy_s), x = median(xpose_s), f = ceiling.seconds;
      std::printf("%-22s %10.3f %12.2f %14.2f %14.2f  (%s, %d threads)\n", "file copy ceiling", f, 2 * bytes / f / 1e9,
                  f / c, 1.0, xpose::bench::copy_method_name(ceiling.method), ceiling.threads);
      std::printf("%-22s %10.3f %12.2f %14.2f %14.2f\n", "plain HDF5 copy", c, 2 * bytes / c / 1e9, 1.0, c / f);
      std::printf("%-22s %10.3f %12.2f %14.2f %14.2f\n", "xpose transpose", x, 2 * bytes / x / 1e9, x / c, x / f);
      std::printf("xpose io: %s\n", last.io.c_str());
      std::printf("last transpose phases (s): read %.3f  h2d %.3f  kernel %.3f  exchange %.3f  unpack %.3f  d2h %.3f"
                  "  write %.3f  wall %.3f  (overlapped: %s)\n",
                  last.times.read, last.times.h2d, last.times.kernel, last.times.exchange, last.times.unpack,
                  last.times.d2h, last.times.write, last.times.wall, last.overlapped ? "yes" : "no");
      if (!last.exchange_choice.empty()) std::printf("%s\n", last.exchange_choice.c_str());
      std::printf("verify%s: %lld elements checked, %lld mismatches\n", check ? "" : " (sample)", static_cast<long long>(result.checked),
                  static_cast<long long>(result.mismatches));
      if (!keep) std::remove(t.out.file.c_str());
    }
    code = result.mismatches == 0 ? 0 : 8;
  } catch (const xpose::Error& e) {
    std::fprintf(stderr, "bench_e2e_vs_copy: %s\n", e.what());
    code = static_cast<int>(e.code());
  }
  MPI_Finalize();
  return code;
}
