/// @file
/// Host memory as a type: an owned, page-aligned byte buffer. (Pinned and device buffers are
/// their own types in the CUDA backend, so a pointer's memory space is never a guess.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include "xpose/error.h"
#include "xpose/types.h"

namespace xpose {

class HostBuffer {
 public:
  HostBuffer() = default;
  explicit HostBuffer(std::int64_t bytes) : bytes_(bytes) {
    if (bytes <= 0) return;
    void* p = nullptr;
    // Page alignment keeps vector loads aligned and lets MPI/IO use the pages directly.
    if (posix_memalign(&p, 4096, static_cast<std::size_t>(bytes)) != 0 || p == nullptr)
      throw ResourceError(cat("cannot allocate ", format_size(static_cast<double>(bytes)), " of host memory"));
    data_.reset(static_cast<std::byte*>(p));
  }
  std::byte* data() { return data_.get(); }
  const std::byte* data() const { return data_.get(); }
  std::int64_t bytes() const { return bytes_; }

 private:
  struct Free {
    void operator()(std::byte* p) const noexcept { std::free(p); }
  };
  std::unique_ptr<std::byte, Free> data_;
  std::int64_t bytes_ = 0;
};

}  // namespace xpose
