/// @file
/// Comma-separated command-line lists for the bench programs (bench_kernels, bench_copy_ceiling).
#pragma once

#include <algorithm>
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

}  // namespace xpose::bench
