/// @file
/// Checks for CUDA runtime calls: a failing call becomes an xpose::RuntimeFailure that names the
/// call, the file:line and CUDA's own message. Self-contained so that any module can include it.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "xpose/error.h"

namespace xpose::cuda_detail {

/// Throws RuntimeFailure for a failed CUDA call; `what` is the call's text.
[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* what, const char* file,
                                          int line) {
  throw RuntimeFailure(cat("CUDA call ", what, " failed at ", file, ":", line, ": ",
                           cudaGetErrorName(err), ": ", cudaGetErrorString(err)));
}

}  // namespace xpose::cuda_detail

/// Checks a CUDA runtime call: `XPOSE_CHECK_CUDA(cudaMalloc(&p, n));`
#define XPOSE_CHECK_CUDA(call)                                                            \
  do {                                                                                    \
    const cudaError_t xpose_cuda_err_ = (call);                                           \
    if (xpose_cuda_err_ != cudaSuccess)                                                   \
      ::xpose::cuda_detail::throw_cuda_error(xpose_cuda_err_, #call, __FILE__, __LINE__); \
  } while (0)

/// Checks that the kernel launch just made on this thread was accepted (bad configuration, too
/// many resources, no kernel image for this device). Errors inside the kernel surface later, at
/// the next synchronising call.
#define XPOSE_CHECK_CUDA_LAUNCH(kernel_name)                                                      \
  do {                                                                                            \
    const cudaError_t xpose_cuda_err_ = cudaGetLastError();                                       \
    if (xpose_cuda_err_ != cudaSuccess)                                                           \
      ::xpose::cuda_detail::throw_cuda_error(xpose_cuda_err_, "launch of " kernel_name, __FILE__, \
                                             __LINE__);                                           \
  } while (0)

namespace xpose::cuda_detail {

/// Lets `kernel` launch with `bytes` of dynamic shared memory: above the default 48 KiB a kernel
/// must opt in (cudaFuncAttributeMaxDynamicSharedMemorySize); below it this does nothing.
template <class Kernel>
void allow_dynamic_smem(Kernel* kernel, std::size_t bytes) {
  if (bytes > 48 * 1024)
    XPOSE_CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
}

}  // namespace xpose::cuda_detail
