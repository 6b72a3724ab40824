/// @file
/// Timing with CUDA events for the bench programs: each run waited for on its own
/// (bench_copy_ceiling, bench_inplace_pattern, bench_pitch), or all runs queued back to back
/// (bench_kernels, bench_pitch --back-to-back).
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

/// Calls fn() `warmup` times untimed, then `reps` times, each between two events of its own on
/// `stream`, all queued before one wait, so the runs follow each other without a gap. Returns the
/// times in ms.
template <class F>
std::vector<double> time_back_to_back(cudaStream_t stream, int warmup, int reps, F&& fn) {
  for (int r = 0; r < warmup; ++r) fn();
  std::vector<cudaEvent_t> ev(2 * static_cast<std::size_t>(reps));
  for (auto& e : ev) XPOSE_CHECK_CUDA(cudaEventCreate(&e));
  for (int r = 0; r < reps; ++r) {
    XPOSE_CHECK_CUDA(cudaEventRecord(ev[2 * r], stream));
    fn();
    XPOSE_CHECK_CUDA(cudaEventRecord(ev[2 * r + 1], stream));
  }
  XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream));
  std::vector<double> t(reps);
  for (int r = 0; r < reps; ++r) {
    float ms = 0;
    XPOSE_CHECK_CUDA(cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]));
    t[r] = ms;
  }
  for (auto e : ev) XPOSE_CHECK_CUDA(cudaEventDestroy(e));
  return t;
}

}  // namespace xpose::bench
