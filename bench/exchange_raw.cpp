// The raw transports on their own, for comparison with the exchange phase of a transpose:
// MPI_Alltoall of pinned host buffers, xpose's own host exchanges (pairwise rounds, node-aware),
// and (with NCCL) an all-to-all of device buffers made of ncclSend/ncclRecv in one group. Same
// message sizes as a transpose stage: --bytes per rank.
//
//   mpirun -np 2 bench_exchange_raw --bytes 512MiB [--reps 10] [--jsonl]
//
// --jsonl adds one JSON line per host exchange, the input of `sim/sweep.py fit` that calibrates
// the planner's exchange model on a real cluster (docs/scaling.md).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/arg_list.h"
#include "engine/src/host_buffer.h"
#include "mpi/comm.h"
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
  bool jsonl = false;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--jsonl") jsonl = true;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--jsonl") {
      --i;
      continue;
    }
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
  {
    // xpose's host exchanges as a stage uses them: every piece but a rank's own.
    const int per_node = xpose::mpi::node_layout(MPI_COMM_WORLD).max_ranks_per_node;
    xpose::mpi::ExchangeLayout layout;
    for (int q = 0; q < n; ++q) {
      layout.send_counts.push_back(q == me ? 0 : per_peer / 16);
      layout.recv_counts.push_back(q == me ? 0 : per_peer / 16);
    }
    layout.send_displs.resize(static_cast<std::size_t>(n));
    layout.recv_displs.resize(static_cast<std::size_t>(n));
    for (int q = 0; q < n; ++q) layout.send_displs[q] = layout.recv_displs[q] = q * (per_peer / 16);
    layout.finalize(MPI_COMM_WORLD);
    for (auto kind : {xpose::mpi::ExchangeKind::Pairwise, xpose::mpi::ExchangeKind::NodeAware}) {
      auto ex = xpose::mpi::make_exchange(kind, MPI_COMM_WORLD, 16);
      const double t = time_collective(reps, [&] { ex->alltoallv(hs.data(), hr.data(), layout, nullptr); });
      const char* name = xpose::mpi::exchange_kind_name(kind);
      if (me == 0) {
        std::printf("  %-28s %9.3f ms  %8.2f GB/s per rank (sent to others), %d per node\n", name, t * 1e3,
                    moved / t / 1e9, per_node);
        if (jsonl)
          std::printf("{\"platform\": \"measured\", \"case\": \"raw\", \"algorithm\": \"%s\", \"P\": %d, "
                      "\"L\": %d, \"piece_bytes\": %lld, \"seconds\": %.9g}\n",
                      name, n, per_node, static_cast<long long>(per_peer), t);
      }
    }
  }
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
