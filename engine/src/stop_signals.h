/// @file
/// SIGTERM, SIGUSR1 and SIGINT ask a transpose to stop after its current stage: the handler
/// only records the signal; the stage loop agrees on it collectively and stops cleanly.
#pragma once

namespace xpose {

/// Installs the handlers for the lifetime of the object, restoring the previous ones after.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  /// The signal received (SIGTERM, SIGUSR1 or SIGINT), or 0.
  static int received();
  static const char* name(int signal);
};

}  // namespace xpose
