/// @file
/// Progress on rank 0: a live bar on a terminal, one line every `interval` seconds otherwise
/// (a batch log), nothing with --quiet.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace xpose {

class Progress {
 public:
  /// `enabled` is false on ranks other than 0 and with --quiet.
  /// `already_done` bytes were done before (a resumed run): they count towards the percentage
  /// but not towards the rate.
  Progress(std::string label, std::int64_t total_bytes, bool enabled, double interval_seconds,
           std::int64_t already_done = 0);
  /// Reports that `done_bytes` of the total are complete.
  void update(std::int64_t done_bytes);
  /// Ends the bar (newline on a terminal) with a last report.
  void finish();

 private:
  void print(std::int64_t done, bool final);
  std::string label_;
  std::int64_t total_;
  bool enabled_;
  bool tty_;
  double interval_;
  std::chrono::steady_clock::time_point start_, last_;
  std::int64_t printed_ = -1;  ///< bytes shown by the last line printed (-1: none yet)
  std::int64_t done_ = 0;
  std::int64_t baseline_ = 0;
};

}  // namespace xpose
