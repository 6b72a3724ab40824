/// @file
/// Internals of the CPU kernels that tests and benchmarks may reach: which instruction set the
/// micro-kernels use and when the streamed path starts, so every path can be tested on one
/// machine.
#pragma once

#include <cstdint>

namespace xpose::kernels::cpu {

/// Instruction sets the CPU micro-kernels are written for. `portable` is plain C++ (any
/// architecture); `sse2` is the x86-64 baseline; `avx2` is chosen at run time where supported.
enum class CpuIsa { portable, sse2, avx2 };

/// Name of an instruction set, for messages and benchmark tables.
const char* cpu_isa_name(CpuIsa isa) noexcept;

/// The best instruction set this build and this processor support.
CpuIsa best_cpu_isa() noexcept;

/// The instruction set the kernels use now: best_cpu_isa() unless overridden.
CpuIsa active_cpu_isa() noexcept;

/// Makes the kernels use `isa` (tests use this to cover every path). Throws
/// UnsupportedInputError where this processor or build cannot run it.
void set_cpu_isa(CpuIsa isa);

/// Size (bytes moved per call) from which transpose_cpu takes the streamed path: tiles staged
/// in an L1 buffer and written with non-temporal stores. Below it, tiles go straight to the
/// output with normal stores.
std::int64_t stream_min_bytes() noexcept;

/// Sets stream_min_bytes() (tests use 0 to stream everything); negative restores the default.
void set_stream_min_bytes(std::int64_t bytes) noexcept;

/// Restores the previous instruction set when it goes out of scope.
class ScopedCpuIsa {
 public:
  explicit ScopedCpuIsa(CpuIsa isa) : saved_(active_cpu_isa()) { set_cpu_isa(isa); }
  ~ScopedCpuIsa() {
    try {
      set_cpu_isa(saved_);
    } catch (...) {  // saved_ was valid when saved; never throw from a destructor
    }
  }
  ScopedCpuIsa(const ScopedCpuIsa&) = delete;
  ScopedCpuIsa& operator=(const ScopedCpuIsa&) = delete;

 private:
  CpuIsa saved_;
};

/// Restores the previous stream_min_bytes() when it goes out of scope.
class ScopedStreamMinBytes {
 public:
  explicit ScopedStreamMinBytes(std::int64_t bytes) : saved_(stream_min_bytes()) {
    set_stream_min_bytes(bytes);
  }
  ~ScopedStreamMinBytes() { set_stream_min_bytes(saved_); }
  ScopedStreamMinBytes(const ScopedStreamMinBytes&) = delete;
  ScopedStreamMinBytes& operator=(const ScopedStreamMinBytes&) = delete;

 private:
  std::int64_t saved_;
};

}  // namespace xpose::kernels::cpu
