/// @file
/// Command-line values for the bench programs (bench_kernels, bench_copy_ceiling): comma-separated
/// lists and whole numbers.
#pragma once

#include <algorithm>
#include <cerrno>
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

}  // namespace xpose::bench
