// bench_file_copy_ceiling: the fastest copy of a file on this machine, the ceiling a file
// transpose is held against (it reads and writes every byte once). Parallel copies, each thread
// its own byte range, through pread/pwrite and through two shared maps and memcpy, at each thread
// count; the best of them is the ceiling.
//
//   bench_file_copy_ceiling --input FILE [--workdir DIR] [--threads 1,2,4,8,16] [--cold]
//
// --cold drops the input from the page cache before each copy (and, as root, the whole page
// cache through /proc/sys/vm/drop_caches), for figures on a disk; on tmpfs it changes nothing.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "bench/arg_list.h"
#include "bench/file_copy.h"

namespace {

void drop_all_caches() {
  ::sync();
  std::ofstream f("/proc/sys/vm/drop_caches");
  if (f) f << "3\n";
}

int usage(const char* why) {
  std::fprintf(stderr, "bench_file_copy_ceiling: %s\nusage: bench_file_copy_ceiling --input FILE [--workdir DIR] "
               "[--threads 1,2,4,8,16] [--cold]\n", why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string input, workdir;
  std::vector<int> threads;
  bool cold = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--cold") {
      cold = true;
      continue;
    }
    if (i + 1 >= argc) return usage(("missing value for " + a).c_str());
    const std::string v = argv[++i];
    if (a == "--input") input = v;
    else if (a == "--workdir") workdir = v;
    else if (a == "--threads") {
      for (const auto& item : xpose::bench::split_list(v)) {
        long long n = 0;
        if (!xpose::bench::parse_whole(item, 1, 1024, n)) return usage(("--threads: '" + item + "' is not 1 to 1024").c_str());
        threads.push_back(static_cast<int>(n));
      }
    } else {
      return usage(("unknown option " + a).c_str());
    }
  }
  if (input.empty()) return usage("--input is required");
  if (workdir.empty()) {
    const auto slash = input.rfind('/');
    workdir = slash == std::string::npos ? "." : input.substr(0, slash);
  }
  if (threads.empty()) {
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    for (int t = 1; t <= hw; t *= 2) threads.push_back(t);
  }
  const std::string dst = workdir + "/.bench-file-copy-ceiling.tmp";
  try {
    std::function<void()> before_each;
    if (cold)
      before_each = [&] {
        drop_all_caches();
        xpose::bench::drop_file_cache(input);
      };
    const auto best = xpose::bench::copy_ceiling(input, dst, threads, before_each);
    std::printf("file copy of %s%s:\n", input.c_str(), cold ? " (cold cache)" : "");
    for (const auto& line : best.lines) std::printf("  %s\n", line.c_str());
    std::printf("ceiling: %.3f s (%s, %d threads)\n", best.seconds, xpose::bench::copy_method_name(best.method),
                best.threads);
  } catch (const std::exception& e) {
    ::unlink(dst.c_str());
    std::fprintf(stderr, "bench_file_copy_ceiling: %s\n", e.what());
    return 7;
  }
  return 0;
}
