/// @file
/// CUDA memory spaces and handles as types: pinned host buffers, device buffers, streams and
/// events, each an owned handle that frees itself (and never throws while doing so).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "kernels/cuda/check.h"
#include "xpose/types.h"
#include "xpose/unique_handle.h"

namespace xpose::cuda {

struct PinnedTraits {
  static void* invalid() noexcept { return nullptr; }
  static void close(void* p) noexcept {
    if (cudaFreeHost(p) != cudaSuccess) std::fprintf(stderr, "xpose: warning: cudaFreeHost failed\n");
  }
};
struct DeviceTraits {
  static void* invalid() noexcept { return nullptr; }
  static void close(void* p) noexcept {
    if (cudaFree(p) != cudaSuccess) std::fprintf(stderr, "xpose: warning: cudaFree failed\n");
  }
};
struct StreamTraits {
  static cudaStream_t invalid() noexcept { return nullptr; }
  static void close(cudaStream_t s) noexcept { cudaStreamDestroy(s); }
};
struct EventTraits {
  static cudaEvent_t invalid() noexcept { return nullptr; }
  static void close(cudaEvent_t e) noexcept { cudaEventDestroy(e); }
};

/// Page-locked host memory: the H2D/D2H copies run at full PCIe speed and asynchronously.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::int64_t bytes) {
    if (bytes <= 0) return;
    void* p = nullptr;
    if (cudaHostAlloc(&p, static_cast<std::size_t>(bytes), cudaHostAllocDefault) != cudaSuccess)
      throw ResourceError(cat("cannot allocate ", format_size(static_cast<double>(bytes)),
                              " of pinned host memory (lower --host-mem)"));
    ptr_.reset(p);
  }
  std::byte* data() const { return static_cast<std::byte*>(ptr_.get()); }

 private:
  UniqueHandle<void*, PinnedTraits> ptr_;
};

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::int64_t bytes) {
    if (bytes <= 0) return;
    void* p = nullptr;
    if (cudaMalloc(&p, static_cast<std::size_t>(bytes)) != cudaSuccess) {
      cudaGetLastError();  // clear the sticky-free error state of a failed allocation
      throw ResourceError(cat("cannot allocate ", format_size(static_cast<double>(bytes)),
                              " of GPU memory (lower --gpu-mem)"));
    }
    ptr_.reset(p);
  }
  std::byte* data() const { return static_cast<std::byte*>(ptr_.get()); }

 private:
  UniqueHandle<void*, DeviceTraits> ptr_;
};

class Stream {
 public:
  Stream() {
    cudaStream_t s = nullptr;
    XPOSE_CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    s_.reset(s);
  }
  cudaStream_t get() const { return s_.get(); }
  void sync() const { XPOSE_CHECK_CUDA(cudaStreamSynchronize(s_.get())); }

 private:
  UniqueHandle<cudaStream_t, StreamTraits> s_;
};

}  // namespace xpose::cuda
