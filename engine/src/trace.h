/// @file
/// Phase timing for the per-phase report, the --trace timeline (Chrome trace-event JSON, which
/// Perfetto and chrome://tracing open) and NVTX ranges for Nsight Systems, from one RAII scope.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace xpose {

class Trace {
 public:
  using Clock = std::chrono::steady_clock;
  explicit Trace(bool enabled = false) : enabled_(enabled), origin_(Clock::now()) {}
  bool enabled() const { return enabled_; }
  /// Records one complete event; `thread` names the lane ("main", "io", ...). Thread-safe.
  void add(const char* name, const char* thread, Clock::time_point begin, Clock::time_point end,
           std::int64_t stage);
  /// Gathers every rank's events to rank 0 and writes them there as one JSON file (one process
  /// lane per rank). Collective.
  void write(MPI_Comm comm, const std::string& path) const;

 private:
  struct Event {
    const char* name;
    const char* thread;
    double begin_us, end_us;
    std::int64_t stage;
  };
  bool enabled_;
  Clock::time_point origin_;
  mutable std::mutex mutex_;
  std::vector<Event> events_;
};

/// Times one phase: adds the seconds to `total`, records a trace event and opens an NVTX range.
class PhaseScope {
 public:
  PhaseScope(Trace& trace, const char* name, const char* thread, double& total, std::int64_t stage = -1);
  ~PhaseScope();
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;

 private:
  Trace& trace_;
  const char* name_;
  const char* thread_;
  double& total_;
  std::int64_t stage_;
  Trace::Clock::time_point begin_;
};

}  // namespace xpose
