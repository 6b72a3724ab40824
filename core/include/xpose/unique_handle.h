/// @file
/// One move-only RAII owner for every C handle xpose holds: HDF5 `hid_t`s, CUDA streams and
/// events, pinned buffers, MPI communicators and datatypes.
#pragma once

#include <utility>

namespace xpose {

/// `Traits` provides `static T invalid() noexcept` and `static void close(T) noexcept`.
/// Destructors never throw: a failing close is reported by the traits (to stderr), not thrown.
template <typename T, typename Traits>
class UniqueHandle {
 public:
  UniqueHandle() noexcept : handle_(Traits::invalid()) {}
  explicit UniqueHandle(T handle) noexcept : handle_(handle) {}
  UniqueHandle(const UniqueHandle&) = delete;
  UniqueHandle& operator=(const UniqueHandle&) = delete;
  UniqueHandle(UniqueHandle&& other) noexcept : handle_(other.release()) {}
  UniqueHandle& operator=(UniqueHandle&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  ~UniqueHandle() { reset(); }

  T get() const noexcept { return handle_; }
  explicit operator bool() const noexcept { return handle_ != Traits::invalid(); }
  T release() noexcept { return std::exchange(handle_, Traits::invalid()); }
  void reset(T handle = Traits::invalid()) noexcept {
    T old = std::exchange(handle_, handle);
    if (old != Traits::invalid()) Traits::close(old);
  }

 private:
  T handle_;
};

}  // namespace xpose
