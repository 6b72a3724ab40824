/// @file
/// Host memory as a type: an owned, page-aligned byte buffer. (Pinned and device buffers are
/// their own types in the CUDA backend, so a pointer's memory space is never a guess.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include <sys/mman.h>

#include "xpose/error.h"
#include "xpose/types.h"

namespace xpose {

class HostBuffer {
 public:
  HostBuffer() = default;
  explicit HostBuffer(std::int64_t bytes) : bytes_(bytes) {
    if (bytes <= 0) return;
    void* p = nullptr;
    // 2 MiB alignment and transparent huge pages: stage buffers are touched once per stage, and
    // first-touch faults on 4 KiB pages cost more than the transpose itself on large buffers.
    const std::size_t align = bytes >= (8 << 20) ? (2u << 20) : 4096;
    if (posix_memalign(&p, align, static_cast<std::size_t>(bytes)) != 0 || p == nullptr)
      throw ResourceError(cat("cannot allocate ", format_size(static_cast<double>(bytes)), " of host memory"));
#ifdef MADV_HUGEPAGE
    if (align > 4096) madvise(p, static_cast<std::size_t>(bytes), MADV_HUGEPAGE);  // advisory: failure is harmless
#endif
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
