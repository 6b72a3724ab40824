// The raw transports on their own, for comparison with the exchange phase of a transpose:
// MPI_Alltoall of pinned host buffers, and (with NCCL) an all-to-all of device buffers made of
// ncclSend/ncclRecv in one group. Same message sizes as a transpose stage: --bytes per rank.
//
//   mpirun -np 2 bench_exchange_raw --bytes 512MiB [--reps 10]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/arg_list.h"
#include "engine/src/host_buffer.h"
#include "mpi/exchange.h"
#include "xpose/config.h"
#include "xpose/error.h"
#include "xpose/types.h"
#if XPOSE_HAVE_CUDA
#include <cuda_runtime.h>

#include "engine/src/cuda_memory.h"
#include "engine/src/stage_backend.h"
#endif
#if XPOSE_HAVE_NCCL
#include <nccl.h>
#endif

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename Fn>
double time_collective(int reps, Fn&& fn) {
  std::vector<double> t;
  for (int r = 0; r < reps + 1; ++r) {  // the first round sets up connections: dropped
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    fn();
    double dt = MPI_Wtime() - t0, worst = 0;
    MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (r > 0) t.push_back(worst);
  }
  return median(t);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  std::int64_t bytes = 256ll << 20;
  int reps = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--bytes") bytes = xpose::parse_size(argv[i + 1]);
    else if (a == "--reps") {
      long long r = 0;
      if (!xpose::bench::parse_whole(argv[i + 1], 1, 100000, r)) {
        if (me == 0)
          std::fprintf(stderr, "--reps: '%s' is not a whole number from 1 to 100000\n", argv[i + 1]);
        MPI_Finalize();
        return 2;
      }
      reps = static_cast<int>(r);
    }
  }
  const std::int64_t per_peer = bytes / n / 16 * 16;
  const std::int64_t total = per_peer * n;
  const double moved = static_cast<double>(per_peer) * (n - 1);  // bytes each rank sends to others
  if (me == 0)
    std::printf("raw all-to-all, %d ranks, %s per rank (%s per peer), median of %d\n", n,
                xpose::format_size(static_cast<double>(total)).c_str(),
                xpose::format_size(static_cast<double>(per_peer)).c_str(), reps);
#if XPOSE_HAVE_CUDA
  xpose::select_cuda_device(MPI_COMM_WORLD, true);
  xpose::cuda::PinnedBuffer hs(total), hr(total);
#else
  xpose::HostBuffer hs(total), hr(total);
#endif
  MPI_Datatype chunk;
  MPI_Type_contiguous(16, MPI_BYTE, &chunk);
  MPI_Type_commit(&chunk);
  const int count = static_cast<int>(per_peer / 16);
  double t_mpi = time_collective(reps, [&] {
    MPI_Alltoall(hs.data(), count, chunk, hr.data(), count, chunk, MPI_COMM_WORLD);
  });
  if (me == 0)
    std::printf("  %-28s %9.3f ms  %8.2f GB/s per rank (sent to others)\n", "MPI_Alltoall, pinned host", t_mpi * 1e3,
                moved / t_mpi / 1e9);
#if XPOSE_HAVE_CUDA
  if (xpose::mpi::mpi_is_cuda_aware()) {  // the raw transport of the mpi-device backend
    xpose::cuda::DeviceBuffer ds(total), dr(total);
    double t_dev = time_collective(reps, [&] {
      MPI_Alltoall(ds.data(), count, chunk, dr.data(), count, chunk, MPI_COMM_WORLD);
    });
    if (me == 0)
      std::printf("  %-28s %9.3f ms  %8.2f GB/s per rank (sent to others)\n", "MPI_Alltoall, device (CUDA-aware)",
                  t_dev * 1e3, moved / t_dev / 1e9);
  } else if (me == 0) {
    std::printf("  MPI_Alltoall, device: skipped (this MPI library is not CUDA-aware)\n");
  }
#endif
#if XPOSE_HAVE_NCCL
  {
    xpose::cuda::DeviceBuffer ds(total), dr(total);
    xpose::cuda::Stream stream;
    ncclUniqueId id;
    if (me == 0) ncclGetUniqueId(&id);
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    ncclComm_t comm;
    if (ncclCommInitRank(&comm, n, id, me) != ncclSuccess) {
      std::fprintf(stderr, "ncclCommInitRank failed\n");
      MPI_Abort(MPI_COMM_WORLD, 10);
    }
    double t_nccl = time_collective(reps, [&] {
      ncclGroupStart();
      for (int q = 0; q < n; ++q) {
        ncclSend(ds.data() + q * per_peer, static_cast<std::size_t>(per_peer), ncclUint8, q, comm, stream.get());
        ncclRecv(dr.data() + q * per_peer, static_cast<std::size_t>(per_peer), ncclUint8, q, comm, stream.get());
      }
      ncclGroupEnd();
      stream.sync();
    });
    if (me == 0)
      std::printf("  %-28s %9.3f ms  %8.2f GB/s per rank (sent to others)\n", "NCCL send/recv, device", t_nccl * 1e3,
                  moved / t_nccl / 1e9);
    ncclCommDestroy(comm);
  }
#endif
  MPI_Type_free(&chunk);
  MPI_Finalize();
  return 0;
}
