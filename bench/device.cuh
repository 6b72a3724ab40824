/// @file
/// The GPU a bench rank uses: its node-local rank modulo the visible devices, as xpose's own
/// ranks choose (one rank per GPU; launchers that bind one GPU per rank leave device 0).
#pragma once

#include <cuda_runtime.h>
#include <mpi.h>

#include "kernels/cuda/check.h"
#include "mpi/check.h"

namespace xpose::bench {

inline int select_device(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  XPOSE_CHECK_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  int local = 0;
  XPOSE_CHECK_MPI(MPI_Comm_rank(node, &local));
  XPOSE_CHECK_MPI(MPI_Comm_free(&node));
  int count = 0;
  XPOSE_CHECK_CUDA(cudaGetDeviceCount(&count));
  const int device = count > 0 ? local % count : 0;
  XPOSE_CHECK_CUDA(cudaSetDevice(device));
  return device;
}

}  // namespace xpose::bench
