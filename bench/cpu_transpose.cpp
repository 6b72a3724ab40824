// CPU transpose against memcpy of the same bytes, on the same number of threads.
//
//   bench_cpu_transpose [--threads N] [--size N] [--reps N] [--types f32,f64,c128,u8]
//                       [--isa portable|sse2|avx2] [--hugepages]
//
// --size is the side of the float32 matrix (default 8192); the other types use a square of the
// same bytes. Every run gets fresh non-zero data and its output is verified. Bandwidth counts
// read + write (2 x bytes / time); "x memcpy" divides by memcpy at the same thread count, "x copy"
// by the faster of memcpy and copy_2d_cpu.
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "bench/arg_list.h"
#include "kernels/cpu/thread_pool.h"
#include "kernels/cpu/transpose_cpu_internal.h"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace {

using xpose::kernels::TransposeShape;
namespace cpu = xpose::kernels::cpu;

struct Options {
  int threads = 2;
  std::int64_t size = 8192;
  int reps = 11;
  std::string types = "f32,f64,c128,u8";
  std::string isa;
  bool hugepages = false;
};

struct ElemType {
  const char* name;
  std::size_t size;
};
const ElemType kTypes[] = {{"f32", 4}, {"f64", 8}, {"c128", 16}, {"u8", 1}};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "bench_cpu_transpose: %s\nusage: bench_cpu_transpose [--threads N] [--size N] "
               "[--reps N] [--types f32,f64,c128,u8] [--isa portable|sse2|avx2] [--hugepages]\n",
               why.c_str());
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    auto value = [&]() -> std::string {
      if (k + 1 >= argc) usage("missing value after " + a);
      return argv[++k];
    };
    auto whole = [&](long long hi) -> long long {
      const std::string v = value();
      long long out = 0;
      if (!xpose::bench::parse_whole(v, 1, hi, out))
        usage(a + ": '" + v + "' is not a whole number from 1 to " + std::to_string(hi));
      return out;
    };
    if (a == "--threads")
      o.threads = static_cast<int>(whole(4096));
    else if (a == "--size")
      o.size = whole(1LL << 31);
    else if (a == "--reps")
      o.reps = static_cast<int>(whole(100000));
    else if (a == "--types")
      o.types = value();
    else if (a == "--isa")
      o.isa = value();
    else if (a == "--hugepages")
      o.hugepages = true;
    else
      usage("unknown argument " + a);
  }
  return o;
}

// Page-aligned buffer, touched once so page faults stay out of the timings.
struct Buffer {
  std::unique_ptr<unsigned char, decltype(&std::free)> mem{nullptr, &std::free};
  std::size_t bytes = 0;
  Buffer(std::size_t n, bool hugepages) : bytes(n) {
    const std::size_t rounded = (n + (2u << 20) - 1) / (2u << 20) * (2u << 20);
    mem.reset(static_cast<unsigned char*>(std::aligned_alloc(2u << 20, rounded)));
    if (!mem) throw xpose::ResourceError(xpose::cat("cannot allocate ", rounded, " bytes"));
    if (hugepages) madvise(mem.get(), rounded, MADV_HUGEPAGE);
    std::memset(mem.get(), 0, rounded);
  }
  unsigned char* data() { return mem.get(); }
};

// The payload of element k under `seed`: the top bytes of a multiplicative hash (cheap, and
// they depend on every bit of k), distinct per run so a stale output fails; never zero.
template <std::size_t ES>
inline void payload(unsigned char* dst, std::uint64_t k, std::uint64_t seed) {
  constexpr int shift = ES >= 8 ? 0 : static_cast<int>(64 - 8 * ES);
  std::uint64_t v[2];
  v[0] = (((2 * k + seed) * 0x9E3779B97F4A7C15ULL) >> shift) | 1;
  v[1] = (((2 * k + 1 + seed) * 0x9E3779B97F4A7C15ULL) >> shift) | 1;
  std::memcpy(dst, v, ES);
}

// Runs fn(begin, end) over [0, n) split across `threads` std::threads (fill and verify only).
void split(std::int64_t n, int threads, const std::function<void(std::int64_t, std::int64_t)>& fn) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] { fn(n * t / threads, n * (t + 1) / threads); });
  for (auto& th : pool) th.join();
}

template <std::size_t ES>
void fill(unsigned char* p, std::int64_t count, std::uint64_t seed) {
  split(count, 2, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t k = b; k < e; ++k)
      payload<ES>(p + k * ES, static_cast<std::uint64_t>(k), seed);
  });
}

// out (n x n) must be the transpose of the matrix fill() wrote with `seed`.
template <std::size_t ES>
bool verify_transpose(const unsigned char* out, std::int64_t n, std::uint64_t seed) {
  std::atomic<bool> ok{true};
  split(n, 2, [&](std::int64_t b, std::int64_t e) {
    unsigned char want[16];
    for (std::int64_t j = b; j < e && ok; ++j)
      for (std::int64_t i = 0; i < n; ++i) {
        payload<ES>(want, static_cast<std::uint64_t>(i * n + j), seed);
        if (std::memcmp(out + (j * n + i) * ES, want, ES) != 0) {
          std::fprintf(stderr, "mismatch at output (%lld, %lld)\n", static_cast<long long>(j),
                       static_cast<long long>(i));
          ok = false;
          return;
        }
      }
  });
  return ok;
}

// Element size as a compile-time constant for fill and verify.
template <class Fn>
auto with_elem_size(std::size_t es, Fn&& fn) {
  switch (es) {
    case 1:
      return fn(std::integral_constant<std::size_t, 1>{});
    case 2:
      return fn(std::integral_constant<std::size_t, 2>{});
    case 4:
      return fn(std::integral_constant<std::size_t, 4>{});
    case 8:
      return fn(std::integral_constant<std::size_t, 8>{});
    default:
      return fn(std::integral_constant<std::size_t, 16>{});
  }
}

// memcpy of `bytes` split into one contiguous piece per thread, on the kernels' own pool so it
// pays the same dispatch costs as the transpose.
void threaded_memcpy(unsigned char* dst, const unsigned char* src, std::size_t bytes, int threads) {
  cpu::ThreadPool::instance().run(threads, threads, [&](std::int64_t t) {
    const std::size_t b = bytes * t / threads;
    const std::size_t e = bytes * (t + 1) / threads;
    std::memcpy(dst + b, src + b, e - b);
  });
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

struct Row {
  std::string type;
  std::int64_t n;
  std::string op;
  int threads;
  double ms;
};

}  // namespace

int main(int argc, char** argv) try {
  const Options opt = parse(argc, argv);
  if (!opt.isa.empty()) {
    const cpu::CpuIsa isa = opt.isa == "avx2"   ? cpu::CpuIsa::avx2
                            : opt.isa == "sse2" ? cpu::CpuIsa::sse2
                            : opt.isa == "portable"
                                ? cpu::CpuIsa::portable
                                : (usage("unknown --isa " + opt.isa), cpu::CpuIsa::portable);
    cpu::set_cpu_isa(isa);
  }
  std::printf("cpu: %s, %u hardware threads; kernels: %s; hugepages: %s; median of %d runs\n",
              cpu_model().c_str(), std::thread::hardware_concurrency(),
              cpu::cpu_isa_name(cpu::active_cpu_isa()), opt.hugepages ? "madvise" : "no", opt.reps);

  const double f32_bytes = 4.0 * static_cast<double>(opt.size) * static_cast<double>(opt.size);
  std::vector<Row> rows;
  std::vector<int> thread_counts = {1};
  if (opt.threads != 1) thread_counts.push_back(opt.threads);
  std::uint64_t seed = 0x5eed;
  bool all_ok = true;

  for (const ElemType& type : kTypes) {
    if (("," + opt.types + ",").find("," + std::string(type.name) + ",") == std::string::npos)
      continue;
    const std::size_t es = type.size;
    const auto n = static_cast<std::int64_t>(std::llround(std::sqrt(f32_bytes / es)));
    const std::size_t bytes = static_cast<std::size_t>(n * n) * es;
    Buffer in(bytes, opt.hugepages), out(bytes, opt.hugepages);
    const auto shape = TransposeShape::dense(n, n);

    auto measure = [&](const std::string& op, int threads, auto&& run, auto&& check) {
      std::vector<double> ms;
      for (int rep = -2; rep < opt.reps; ++rep) {  // two warm-up runs
        ++seed;
        with_elem_size(es, [&](auto c) { fill<c()>(in.data(), n * n, seed); });
        const auto t0 = std::chrono::steady_clock::now();
        run(threads);
        const auto t1 = std::chrono::steady_clock::now();
        if (!check(seed)) {
          std::fprintf(stderr, "%s %s threads=%d: WRONG OUTPUT\n", type.name, op.c_str(), threads);
          all_ok = false;
          return;
        }
        if (rep >= 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      }
      rows.push_back({type.name, n, op, threads, median(ms)});
    };
    auto same_bytes = [&](std::uint64_t) { return std::memcmp(in.data(), out.data(), bytes) == 0; };

    for (int t : thread_counts)
      measure(
          "memcpy", t, [&](int th) { threaded_memcpy(out.data(), in.data(), bytes, th); },
          same_bytes);
    for (int t : thread_counts)
      measure(
          "copy_2d_cpu", t,
          [&](int th) {
            xpose::kernels::copy_2d_cpu(in.data(), n * es, out.data(), n * es, n * es, n, th);
          },
          same_bytes);
    for (int t : thread_counts)
      measure(
          "transpose_cpu", t,
          [&](int th) { xpose::kernels::transpose_cpu(in.data(), out.data(), es, shape, th); },
          [&](std::uint64_t s) {
            return with_elem_size(es,
                                  [&](auto c) { return verify_transpose<c()>(out.data(), n, s); });
          });
  }

  // "x copy" divides by the faster of memcpy and copy_2d_cpu (chunked memcpy) at the same
  // thread count: on some machines the chunked copy beats one large memcpy.
  std::printf(
      "\n| type | n x n | MiB | operation | threads | median ms | GB/s (2 x bytes) | x memcpy | "
      "x copy |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (const Row& r : rows) {
    const ElemType* type = nullptr;
    for (const auto& t : kTypes)
      if (r.type == t.name) type = &t;
    const double bytes = static_cast<double>(r.n * r.n) * static_cast<double>(type->size);
    double memcpy_ms = 0, copy_ms = 0;
    for (const Row& m : rows) {
      if (m.type != r.type || m.threads != r.threads) continue;
      if (m.op == "memcpy") memcpy_ms = m.ms;
      if (m.op == "memcpy" || m.op == "copy_2d_cpu")
        copy_ms = copy_ms == 0 ? m.ms : std::min(copy_ms, m.ms);
    }
    std::printf("| %s | %lld x %lld | %.0f | %s | %d | %.2f | %.2f | %.2f | %.2f |\n",
                r.type.c_str(), static_cast<long long>(r.n), static_cast<long long>(r.n),
                bytes / (1 << 20), r.op.c_str(), r.threads, r.ms, 2 * bytes / (r.ms * 1e6),
                memcpy_ms / r.ms, copy_ms / r.ms);
  }
  return all_ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_cpu_transpose: %s\n", e.what());
  return 1;
}
