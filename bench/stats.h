/// @file
/// The statistic every bench program reports for repeated timings: the median and the spread of
/// the middle half; and the bandwidth they report. Host-only, so the unit tests check it without
/// a GPU.
#pragma once

#include <algorithm>
#include <vector>

namespace xpose::bench {

struct Spread {
  double median = 0;   ///< the middle value; for an even count, the mean of the two middle ones
  double iqr_pct = 0;  ///< (third quartile - first quartile) / median, in %
};

/// Median and interquartile spread of `t` (any order; empty: zeros).
inline Spread median_spread(std::vector<double> t) {
  if (t.empty()) return {};
  std::sort(t.begin(), t.end());
  const std::size_t n = t.size();
  Spread s;
  s.median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  const double q1 = t[n / 4], q3 = t[(3 * n) / 4];
  s.iqr_pct = s.median > 0 ? 100.0 * (q3 - q1) / s.median : 0;
  return s;
}

/// GB/s of a copy or transpose of `bytes` that took `ms`: every byte read once and written once
/// (2 x bytes / time), the figure every bench program prints beside memcpy's.
inline double read_write_gbps(double bytes, double ms) { return 2.0 * bytes / (ms * 1e-3) / 1e9; }

}  // namespace xpose::bench
