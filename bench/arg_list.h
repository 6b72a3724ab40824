/// @file
/// Command-line values for the bench programs (bench_kernels, bench_copy_ceiling, ...):
/// comma-separated lists, whole numbers, shapes and repetition counts.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace xpose::bench {

/// "a,b,,c" -> {"a", "b", "c"}: the items between commas, empty ones dropped.
inline std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  std::size_t p = 0;
  while (p <= list.size()) {
    const std::size_t q = std::min(list.find(',', p), list.size());
    if (q > p) out.push_back(list.substr(p, q - p));
    p = q + 1;
  }
  return out;
}

/// `text` as a whole number in [lo, hi]: false for anything else (empty, trailing characters,
/// out of range), so that a mistyped count is refused instead of read as 0 or 1.
inline bool parse_whole(const std::string& text, long long lo, long long hi, long long& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return false;
  out = v;
  return true;
}

/// "RxC" with R, C >= 1 and R x C <= max_elems: false for anything else (the outputs then left
/// alone).
inline bool parse_shape(const std::string& text, long long max_elems, long long& rows,
                        long long& cols) {
  const std::size_t x = text.find('x');
  long long r = 0, c = 0;
  if (x == std::string::npos || !parse_whole(text.substr(0, x), 1, max_elems, r) ||
      !parse_whole(text.substr(x + 1), 1, max_elems, c) || r > max_elems / c)
    return false;
  rows = r;
  cols = c;
  return true;
}

/// The value of --reps: a count of timed runs from 1 to 100000, or false after a one-line message
/// on stderr.
inline bool read_reps(const std::string& text, int& reps) {
  long long r = 0;
  if (!parse_whole(text, 1, 100000, r)) {
    std::fprintf(stderr, "--reps: '%s' is not a count (1 to 100000)\n", text.c_str());
    return false;
  }
  reps = static_cast<int>(r);
  return true;
}

}  // namespace xpose::bench
