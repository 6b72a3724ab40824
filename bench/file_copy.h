/// @file
/// The file-copy ceiling: a file transpose reads and writes every byte once, so it can be no
/// faster than the fastest copy of the same file on the same machine. Two parallel copies, each
/// thread its own byte range: through pread/pwrite, and through two shared maps and memcpy. Both
/// end with the data durable (fdatasync / msync), as xpose's output is.
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace xpose::bench {

enum class CopyMethod { Pread, Mmap };

inline const char* copy_method_name(CopyMethod m) { return m == CopyMethod::Pread ? "pread/pwrite" : "mmap+memcpy"; }

namespace file_copy_detail {

inline std::runtime_error sys_error(const std::string& what, const std::string& path) {
  return std::runtime_error(what + " '" + path + "': " + std::strerror(errno));
}

/// Thread t's byte range of `size`, cut on 2 MiB boundaries so no two threads share a page.
inline void range_of(std::int64_t size, int threads, int t, std::int64_t& begin, std::int64_t& end) {
  constexpr std::int64_t kAlign = 2 << 20;
  const std::int64_t per = (size / threads + kAlign - 1) / kAlign * kAlign;
  begin = std::min(size, per * t);
  end = t == threads - 1 ? size : std::min(size, per * (t + 1));
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace file_copy_detail

/// Drops `path`'s clean pages from the page cache (after a sync), so the next read comes from
/// the device. No effect on tmpfs, whose pages are the file.
inline void drop_file_cache(const std::string& path) {
  file_copy_detail::Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY);
  if (f.fd < 0) return;
  ::fdatasync(f.fd);
  ::posix_fadvise(f.fd, 0, 0, POSIX_FADV_DONTNEED);
}

/// Copies `src` to a new file `dst` (created exclusively; removed first if it exists) with
/// `threads` threads and returns the seconds taken, from opening the files to the data being
/// durable. Throws std::runtime_error on any failure.
inline double copy_file(const std::string& src, const std::string& dst, CopyMethod method, int threads) {
  using namespace file_copy_detail;
  using Clock = std::chrono::steady_clock;
  ::unlink(dst.c_str());
  const auto t0 = Clock::now();
  Fd in, out;
  in.fd = ::open(src.c_str(), O_RDONLY);
  if (in.fd < 0) throw sys_error("cannot open", src);
  struct stat st {};
  if (::fstat(in.fd, &st) != 0) throw sys_error("cannot stat", src);
  const std::int64_t size = st.st_size;
  out.fd = ::open(dst.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
  if (out.fd < 0) throw sys_error("cannot create", dst);
  if (::ftruncate(out.fd, size) != 0) throw sys_error("cannot size", dst);
  threads = std::max(1, threads);

  void* in_map = MAP_FAILED;
  void* out_map = MAP_FAILED;
  if (method == CopyMethod::Mmap && size > 0) {
    in_map = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_SHARED, in.fd, 0);
    if (in_map == MAP_FAILED) throw sys_error("cannot map", src);
    out_map = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ | PROT_WRITE, MAP_SHARED, out.fd, 0);
    if (out_map == MAP_FAILED) {
      ::munmap(in_map, static_cast<std::size_t>(size));
      throw sys_error("cannot map", dst);
    }
  }
  std::atomic<int> failed{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::int64_t begin = 0, end = 0;
      range_of(size, threads, t, begin, end);
      if (method == CopyMethod::Mmap) {
        std::memcpy(static_cast<char*>(out_map) + begin, static_cast<const char*>(in_map) + begin,
                    static_cast<std::size_t>(end - begin));
        return;
      }
      constexpr std::size_t kBlock = 8 << 20;
      std::vector<char> buf(kBlock);
      for (std::int64_t p = begin; p < end;) {
        const auto want = static_cast<std::size_t>(std::min<std::int64_t>(kBlock, end - p));
        const ssize_t got = ::pread(in.fd, buf.data(), want, p);
        if (got <= 0) {
          failed = 1;
          return;
        }
        for (ssize_t done = 0; done < got;) {
          const ssize_t w = ::pwrite(out.fd, buf.data() + done, static_cast<std::size_t>(got - done), p + done);
          if (w <= 0) {
            failed = 1;
            return;
          }
          done += w;
        }
        p += got;
      }
    });
  }
  for (auto& th : pool) th.join();
  if (method == CopyMethod::Mmap && size > 0) {
    const int synced = ::msync(out_map, static_cast<std::size_t>(size), MS_SYNC);
    ::munmap(out_map, static_cast<std::size_t>(size));
    ::munmap(in_map, static_cast<std::size_t>(size));
    if (synced != 0) throw sys_error("cannot sync", dst);
  }
  if (failed) throw std::runtime_error("copy of '" + src + "' to '" + dst + "' failed (read or write error)");
  if (::fdatasync(out.fd) != 0) throw sys_error("cannot sync", dst);
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct CeilingResult {
  double seconds = 0;  ///< the fastest copy
  CopyMethod method = CopyMethod::Mmap;
  int threads = 1;
  std::vector<std::string> lines;  ///< one per method and thread count: "mmap+memcpy 8 threads 5.60 s"
};

/// The ceiling: the fastest of both methods at each thread count, one run each;
/// `before_each` (e.g. dropping the page cache) runs before every copy. The copy `dst` is
/// removed afterwards.
inline CeilingResult copy_ceiling(const std::string& src, const std::string& dst, const std::vector<int>& thread_counts,
                                  const std::function<void()>& before_each = {}) {
  CeilingResult best;
  best.seconds = -1;
  for (CopyMethod m : {CopyMethod::Pread, CopyMethod::Mmap}) {
    for (int threads : thread_counts) {
      if (before_each) before_each();
      const double s = copy_file(src, dst, m, threads);
      ::unlink(dst.c_str());
      char line[128];
      std::snprintf(line, sizeof line, "%-13s %3d threads %9.3f s", copy_method_name(m), threads, s);
      best.lines.emplace_back(line);
      if (best.seconds < 0 || s < best.seconds) {
        best.seconds = s;
        best.method = m;
        best.threads = threads;
      }
    }
  }
  return best;
}

}  // namespace xpose::bench
