/// @file
/// Timing with CUDA events for the bench programs that wait for each run on its own
/// (bench_copy_ceiling, bench_inplace_pattern).
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "kernels/cuda/check.h"

namespace xpose::bench {

/// Calls fn() `warmup` times untimed, then `reps` times, each between two events on `stream` and
/// waited for before the next, so a time is one run's alone. Returns the times in ms.
template <class F>
std::vector<double> time_each_run(cudaStream_t stream, int warmup, int reps, F&& fn) {
  cudaEvent_t e0, e1;
  XPOSE_CHECK_CUDA(cudaEventCreate(&e0));
  XPOSE_CHECK_CUDA(cudaEventCreate(&e1));
  std::vector<double> t;
  for (int r = 0; r < warmup + reps; ++r) {
    XPOSE_CHECK_CUDA(cudaEventRecord(e0, stream));
    fn();
    XPOSE_CHECK_CUDA(cudaEventRecord(e1, stream));
    XPOSE_CHECK_CUDA(cudaEventSynchronize(e1));
    float ms = 0;
    XPOSE_CHECK_CUDA(cudaEventElapsedTime(&ms, e0, e1));
    if (r >= warmup) t.push_back(ms);
  }
  XPOSE_CHECK_CUDA(cudaEventDestroy(e0));
  XPOSE_CHECK_CUDA(cudaEventDestroy(e1));
  return t;
}

}  // namespace xpose::bench
