/// @file
/// How `--backend auto` chooses between the CPU and the GPU path of a file transpose, where a GPU
/// is visible. Both paths read and write every byte of the files once; what differs is the work
/// around that, and a short calibration on this node (a block of the run's element size, with
/// the rank's threads, in memory) measures it:
///   CPU: the transposition itself; where the files are mapped (the fused path) it reads and
///        writes their pages directly, otherwise it adds a copy from the read buffer and one to
///        the write buffer.
///   GPU: a copy into pinned memory before the device and one out of it after, on the I/O
///        threads (they share the host's memory bandwidth), overlapped with H2D, kernel and D2H.
/// Between ranks the CPU path adds the host exchange and its unpack copy; the GPU path its own
/// transport (NCCL or CUDA-aware MPI on device buffers where one is faster). The cheaper path per
/// byte wins; a tie goes to the CPU, which needs no device.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace xpose {

/// Seconds for one block on this node (each the maximum over ranks, so all agree).
struct BackendCalibration {
  std::int64_t bytes = 0;        ///< the block's size
  double cpu_transpose = 0;      ///< host-to-host transposition with the rank's threads
  double host_copy = 0;          ///< a parallel copy of the block with the rank's threads
  double gpu_round_trip = 0;     ///< H2D + kernel + D2H from and to pinned memory; 0: not measured
  double host_exchange = 0;      ///< the block through the host exchange (several ranks only)
  double device_exchange = 0;    ///< the block through the GPU path's transport (several ranks only)
  bool device_transport = false; ///< the GPU path's transport works on device buffers
};

struct BackendDecision {
  std::string backend;  ///< "cpu" or "cuda"
  std::string reason;   ///< one line: the two estimates and what they are made of
};

/// The model above, on measured figures: pure, so its choices can be tested without a GPU.
BackendDecision decide_backend(const BackendCalibration& c, bool fused_cpu_path, int nranks);

/// Measures the CPU side of `c` (transposition and copy of `bytes` of `elem_size`-byte elements
/// with `threads` threads), collectively: every rank gets the maximum over ranks.
void calibrate_host(MPI_Comm comm, std::size_t elem_size, std::int64_t bytes, int threads, BackendCalibration& c);

}  // namespace xpose
