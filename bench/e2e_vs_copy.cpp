// End-to-end transpose against two yardsticks measured in the same run: the file-copy ceiling
// (the fastest parallel copy of the input file, bench/file_copy.h: a transpose reads and writes
// every byte once, so it can be no faster) and a plain HDF5 copy of the same dataset (the same
// reads and writes through the same HDF5/MPI-IO layer and rank count, no transpose, no exchange).
// The transpose and the check go through the public API (xpose/file_transpose.h,
// xpose/file_verify.h); the copy calls parallel HDF5 itself.
//
//   mpirun -np 2 bench_e2e_vs_copy --input in.h5:/data --workdir /dev/shm [--host-mem 512MiB] [--reps 3]
//       [--io auto|collective|independent] [--backend auto|cpu|cuda] [--gpu-mem 8GiB] [--exchange auto|mpi|nccl]
//       [--trace FILE] [--ceiling-threads 8,16] [--cold] [--no-verify] [--keep]
// --cold drops the page cache before every timed copy and transpose (as root; for disks);
// --no-verify checks a million random elements instead of all; --keep leaves the transposed file
// (WORKDIR/bench-transposed.h5) for a separate `xpose verify`.
#include <fcntl.h>
#include <hdf5.h>
#include <mpi.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench/arg_list.h"
#include "bench/file_copy.h"
#include "xpose/distribution.h"
#include "xpose/error.h"
#include "xpose/file_transpose.h"
#include "xpose/file_verify.h"
#include "xpose/types.h"
#include "xpose/unique_handle.h"

namespace {

using Clock = std::chrono::steady_clock;

/// An MPI call's result, or RuntimeFailure naming the call where it failed.
void mpi_checked(int rc, const char* call) {
  if (rc != MPI_SUCCESS) throw xpose::RuntimeFailure(xpose::cat(call, " failed (MPI error ", rc, ")"));
}
#define BENCH_MPI(call) mpi_checked((call), #call)

// Drops the page cache (root only; elsewhere a no-op), for cold-cache figures on a disk.
void drop_page_cache(MPI_Comm comm) {
  BENCH_MPI(MPI_Barrier(comm));
  ::sync();
  std::ofstream("/proc/sys/vm/drop_caches") << "3\n";
  BENCH_MPI(MPI_Barrier(comm));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

/// The file of "FILE:/path" (split where the engine splits it: at the last ":/").
std::string file_of(const std::string& ref) {
  const auto colon = ref.rfind(":/");
  if (colon == std::string::npos || colon == 0)
    throw xpose::UsageError(xpose::cat("'", ref, "' names no dataset: expected FILE:/path/to/dataset"));
  return ref.substr(0, colon);
}

// ---- the plain HDF5 copy ---------------------------------------------------------------------

struct H5Close {
  static hid_t invalid() noexcept { return H5I_INVALID_HID; }
  static void close(hid_t id) noexcept { H5Idec_ref(id); }
};
using H5Handle = xpose::UniqueHandle<hid_t, H5Close>;

/// An HDF5 call's result, or IoError where it failed.
template <typename T>
T h5_checked(T result, const char* call, const std::string& what) {
  if (result < 0) throw xpose::IoError(xpose::cat(call, " failed for '", what, "'"));
  return result;
}
#define BENCH_H5(what, call) h5_checked((call), #call, (what))
#define BENCH_H5_ID(what, call) H5Handle(BENCH_H5(what, call))

/// A page-aligned buffer on transparent huge pages where large, as the engine's stage buffers:
/// first-touch faults on 4 KiB pages would bill the copy for what the transpose does not pay.
struct CopyBuffer {
  struct Free {
    void operator()(void* p) const noexcept { std::free(p); }
  };
  std::unique_ptr<void, Free> data;
  explicit CopyBuffer(std::int64_t bytes) {
    void* p = nullptr;
    const std::size_t align = bytes >= (8 << 20) ? (2u << 20) : 4096;
    if (posix_memalign(&p, align, static_cast<std::size_t>(bytes)) != 0 || p == nullptr)
      throw xpose::ResourceError(xpose::cat("cannot allocate ", xpose::format_size(static_cast<double>(bytes))));
#ifdef MADV_HUGEPAGE
    if (align > 4096) madvise(p, static_cast<std::size_t>(bytes), MADV_HUGEPAGE);  // advisory
#endif
    data.reset(p);
  }
};

/// MPI-IO across the ranks; one rank uses HDF5's default (sec2) driver, as the engine does.
H5Handle file_access(MPI_Comm comm, int nranks, const std::string& what) {
  auto fapl = BENCH_H5_ID(what, H5Pcreate(H5P_FILE_ACCESS));
  if (nranks > 1) BENCH_H5(what, H5Pset_fapl_mpio(fapl.get(), comm, MPI_INFO_NULL));
  return fapl;
}

/// Copies the 2-D dataset `in_ref` to a new file `out_file` (dataset /data): each rank
/// streams its block of rows (FFTW's block distribution, as the transpose reads them) in bands of
/// at most `host_mem` bytes through one buffer, every band read then written with `transfer`
/// (H5FD_MPIO_COLLECTIVE or H5FD_MPIO_INDEPENDENT). Returns the seconds from opening the input to
/// the copy being durable (closed and fsync'ed), the max over ranks.
double plain_copy_run(MPI_Comm comm, const std::string& in_ref, const std::string& out_file, std::int64_t host_mem,
                      H5FD_mpio_xfer_t transfer) {
  int me = 0, n = 1;
  BENCH_MPI(MPI_Comm_rank(comm, &me));
  BENCH_MPI(MPI_Comm_size(comm, &n));
  const std::string in_file = file_of(in_ref), in_path = in_ref.substr(in_file.size() + 1);
  // A leftover of an interrupted run goes first; the copy is then created exclusively.
  BENCH_MPI(MPI_Barrier(comm));
  if (me == 0) ::unlink(out_file.c_str());
  BENCH_MPI(MPI_Barrier(comm));

  const auto t0 = Clock::now();
  H5Handle in_fapl = file_access(comm, n, in_file);
  H5Handle in = BENCH_H5_ID(in_file, H5Fopen(in_file.c_str(), H5F_ACC_RDONLY, in_fapl.get()));
  H5Handle in_set = BENCH_H5_ID(in_ref, H5Dopen2(in.get(), in_path.c_str(), H5P_DEFAULT));
  H5Handle type = BENCH_H5_ID(in_ref, H5Dget_type(in_set.get()));  // file type both sides: no conversion
  H5Handle in_space = BENCH_H5_ID(in_ref, H5Dget_space(in_set.get()));
  if (BENCH_H5(in_ref, H5Sget_simple_extent_ndims(in_space.get())) != 2)
    throw xpose::UsageError("bench_e2e_vs_copy takes a 2-D dataset");
  hsize_t dims[2] = {0, 0};
  BENCH_H5(in_ref, H5Sget_simple_extent_dims(in_space.get(), dims, nullptr));
  const std::int64_t rows = static_cast<std::int64_t>(dims[0]), cols = static_cast<std::int64_t>(dims[1]);
  const std::int64_t row_bytes = cols * static_cast<std::int64_t>(BENCH_H5(in_ref, H5Tget_size(type.get())));

  // The copy is created as xpose creates its output (io/h5.cpp), so both write the same layout:
  // 1 MiB-aligned large objects, the 1.8 format, no timestamps, contiguous, allocated at
  // creation, never filled.
  H5Handle out_fapl = file_access(comm, n, out_file);
  BENCH_H5(out_file, H5Pset_alignment(out_fapl.get(), 4 << 20, 1 << 20));
  BENCH_H5(out_file, H5Pset_libver_bounds(out_fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V18));
  auto fcpl = BENCH_H5_ID(out_file, H5Pcreate(H5P_FILE_CREATE));
  BENCH_H5(out_file, H5Pset_obj_track_times(fcpl.get(), 0));
  H5Handle out = BENCH_H5_ID(out_file, H5Fcreate(out_file.c_str(), H5F_ACC_EXCL, fcpl.get(), out_fapl.get()));
  auto dcpl = BENCH_H5_ID(out_file, H5Pcreate(H5P_DATASET_CREATE));
  BENCH_H5(out_file, H5Pset_layout(dcpl.get(), H5D_CONTIGUOUS));
  BENCH_H5(out_file, H5Pset_alloc_time(dcpl.get(), H5D_ALLOC_TIME_EARLY));
  BENCH_H5(out_file, H5Pset_obj_track_times(dcpl.get(), 0));
  BENCH_H5(out_file, H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER));
  H5Handle out_space = BENCH_H5_ID(out_file, H5Screate_simple(2, dims, nullptr));
  H5Handle out_set = BENCH_H5_ID(out_file, H5Dcreate2(out.get(), "/data", type.get(), out_space.get(), H5P_DEFAULT,
                                                      dcpl.get(), H5P_DEFAULT));
  H5Handle dxpl = BENCH_H5_ID(out_file, H5Pcreate(H5P_DATASET_XFER));
  if (n > 1) BENCH_H5(out_file, H5Pset_dxpl_mpio(dxpl.get(), transfer));

  const xpose::BlockDistribution dist(rows, n);
  const std::int64_t band = std::max<std::int64_t>(1, host_mem / row_bytes);
  CopyBuffer buf(std::min(band, std::max<std::int64_t>(1, dist.count(me))) * row_bytes);
  const std::int64_t steps = (dist.block + band - 1) / band;  // the same count on every rank: collective I/O
  for (std::int64_t k = 0; k < steps; ++k) {
    const std::int64_t r0 = dist.offset(me) + k * band;
    const std::int64_t nr = std::max<std::int64_t>(0, std::min(band, dist.offset(me) + dist.count(me) - r0));
    // A rank out of rows still takes part in the collective calls, with nothing selected.
    const hsize_t start[2] = {static_cast<hsize_t>(nr > 0 ? r0 : 0), 0};
    const hsize_t count[2] = {static_cast<hsize_t>(std::max<std::int64_t>(nr, 1)), static_cast<hsize_t>(cols)};
    H5Handle mem = BENCH_H5_ID(in_ref, H5Screate_simple(2, count, nullptr));
    for (hid_t space : {in_space.get(), out_space.get()}) {
      if (nr > 0)
        BENCH_H5(in_ref, H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr));
      else
        BENCH_H5(in_ref, H5Sselect_none(space));
    }
    if (nr == 0) BENCH_H5(in_ref, H5Sselect_none(mem.get()));
    BENCH_H5(in_ref, H5Dread(in_set.get(), type.get(), mem.get(), in_space.get(), dxpl.get(), buf.data.get()));
    BENCH_H5(out_file, H5Dwrite(out_set.get(), type.get(), mem.get(), out_space.get(), dxpl.get(), buf.data.get()));
  }
  // Everything in the output closes before the file (MPI-IO closes files only when nothing in
  // them is open); then rank 0 makes the copy durable, as xpose does its output.
  out_set.reset();
  out_space.reset();
  BENCH_H5(out_file, H5Fclose(out.release()));
  in_set.reset();
  BENCH_H5(in_file, H5Fclose(in.release()));
  if (me == 0) {
    const int fd = ::open(out_file.c_str(), O_RDONLY);
    if (fd < 0 || ::fsync(fd) != 0) {
      if (fd >= 0) ::close(fd);
      throw xpose::IoError(xpose::cat("cannot sync '", out_file, "'"));
    }
    ::close(fd);
  }
  BENCH_MPI(MPI_Barrier(comm));
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// The copy; a failure on any rank ends the job (the others may be inside a collective call),
/// as a failure in the middle of a transpose does.
double plain_copy(MPI_Comm comm, const std::string& in_ref, const std::string& out_file, std::int64_t host_mem,
                  H5FD_mpio_xfer_t transfer) {
  try {
    return plain_copy_run(comm, in_ref, out_file, host_mem, transfer);
  } catch (const xpose::Error& e) {
    std::fprintf(stderr, "bench_e2e_vs_copy: plain HDF5 copy: %s\n", e.what());
    std::fflush(stderr);
    ::unlink(out_file.c_str());
    MPI_Abort(comm, static_cast<int>(e.code()));
  }
  return 0;
}

/// The seconds of phase `name` in a run's summary (0 where the run had no such phase); "kernel"
/// is the CPU backend's "transpose".
double phase_seconds(const xpose::FileTransposeSummary& s, const std::string& name) {
  for (const auto& p : s.phases)
    if (p.name == name || (name == "kernel" && p.name == "transpose")) return p.seconds;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);  // as the xpose command does
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // failures are thrown with their call, not printed
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
    if (io != "auto" && io != "collective" && io != "independent")
      throw xpose::UsageError(xpose::cat("--io must be auto, collective or independent, not '", io, "'"));
    const MPI_Comm comm = MPI_COMM_WORLD;
    int me = 0;
    BENCH_MPI(MPI_Comm_rank(comm, &me));
    const std::string input_file = file_of(input);
    const auto transfer = io == "independent" ? H5FD_MPIO_INDEPENDENT : H5FD_MPIO_COLLECTIVE;

    xpose::FileTransposeOptions t;
    const std::string transposed_file = workdir + "/bench-transposed.h5";
    t.input = input;
    t.output = transposed_file + ":/data";
    t.host_mem = host_mem;  // 0 when not given: the engine's default, as for the command
    t.gpu_mem = gpu_mem;
    t.backend = backend;
    t.exchange = exchange;
    t.io = io;
    t.force = true;
    t.quiet = true;
    const std::string copy_file = workdir + "/bench-copy.h5";
    if (host_mem == 0) host_mem = xpose::default_host_mem(comm);  // the plain copy gets the transpose's budget

    // The ceiling: the input file copied by rank 0 alone, with the node's threads.
    if (ceiling_threads.empty()) {
      const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
      ceiling_threads = {std::max(1, hw / 2), hw};
    }
    xpose::bench::CeilingResult ceiling;
    std::string failed;  // rank 0's failure, handed to every rank (the others wait for it)
    if (me == 0) {
      try {
        ceiling = xpose::bench::copy_ceiling(input_file, workdir + "/bench-file-copy.tmp", ceiling_threads,
                                             cold ? std::function<void()>([] {
                                               ::sync();
                                               std::ofstream("/proc/sys/vm/drop_caches") << "3\n";
                                             })
                                                  : std::function<void()>());
      } catch (const std::exception& e) {
        failed = e.what();
      }
    }
    int failed_length = static_cast<int>(failed.size());
    BENCH_MPI(MPI_Bcast(&failed_length, 1, MPI_INT, 0, comm));
    failed.resize(static_cast<std::size_t>(failed_length));
    BENCH_MPI(MPI_Bcast(failed.data(), failed_length, MPI_CHAR, 0, comm));
    if (failed_length > 0) throw xpose::IoError("file copy ceiling: " + failed);

    std::vector<double> copy_s, xpose_s;
    xpose::FileTransposeSummary last;
    auto remove_on_root = [&](const std::string& path) {
      BENCH_MPI(MPI_Barrier(comm));
      if (me == 0) std::remove(path.c_str());
      BENCH_MPI(MPI_Barrier(comm));
    };
    for (int r = 0; r < reps + 1; ++r) {  // the first round warms the page cache and is dropped
      if (cold) drop_page_cache(comm);
      double c = plain_copy(comm, input, copy_file, host_mem, transfer);
      remove_on_root(copy_file);  // keep memory-backed work dirs from holding three copies
      BENCH_MPI(MPI_Barrier(comm));
      t.trace = r == reps ? trace : "";
      if (cold) drop_page_cache(comm);
      auto t0 = Clock::now();
      last = xpose::transpose_file(t, comm);
      BENCH_MPI(MPI_Barrier(comm));
      double x = std::chrono::duration<double>(Clock::now() - t0).count();
      if (r < reps) remove_on_root(transposed_file);
      if (r > 0) {
        copy_s.push_back(c);
        xpose_s.push_back(x);
      }
    }
    xpose::FileVerifyOptions v;
    v.input = input;
    v.output = t.output;
    v.host_mem = std::min<std::int64_t>(host_mem, 1ll << 30);
    if (!check) v.sample = 1000000;  // a million random elements instead of all
    const xpose::FileVerifyResult result = xpose::verify_file(v, comm);
    const double bytes = static_cast<double>(last.bytes);
    if (me == 0) {
      std::printf("input %s: %s, %s, %d rank(s), host-mem %s, %lld stage(s), io %s, backend %s, exchange %s, median of %d\n",
                  input.c_str(), xpose::format_shape(last.shape).c_str(), xpose::format_size(bytes).c_str(),
                  last.ranks, xpose::format_size(static_cast<double>(host_mem)).c_str(),
                  static_cast<long long>(last.stages), io.c_str(), last.backend.c_str(), last.exchange.c_str(), reps);
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
                  phase_seconds(last, "read"), phase_seconds(last, "h2d"), phase_seconds(last, "kernel"),
                  phase_seconds(last, "exchange"), phase_seconds(last, "unpack"), phase_seconds(last, "d2h"),
                  phase_seconds(last, "write"), last.wall_seconds, last.overlapped ? "yes" : "no");
      if (!last.exchange_choice.empty()) std::printf("%s\n", last.exchange_choice.c_str());
      std::printf("verify%s: %lld elements checked, %lld mismatches\n", check ? "" : " (sample)", static_cast<long long>(result.checked),
                  static_cast<long long>(result.mismatches));
      if (!keep) std::remove(transposed_file.c_str());
    }
    code = result.mismatches == 0 ? 0 : static_cast<int>(xpose::ExitCode::VerifyMismatch);
  } catch (const xpose::Error& e) {
    std::fprintf(stderr, "bench_e2e_vs_copy: %s\n", e.what());
    code = static_cast<int>(e.code());
  }
  MPI_Finalize();
  return code;
}
