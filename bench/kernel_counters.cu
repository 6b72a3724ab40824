// bench_kernel_counters: runs each named case once, for a profiler (Nsight Compute) to read the
// hardware counters of the kernels (DRAM and L2 bytes, pipe loads) against a plain copy of the
// same bytes. It times nothing itself beyond one CUDA-event figure per case and checks every
// output element, so a counter reading always belongs to a correct transpose.
//
//   bench_kernel_counters CASE [CASE...]
//   CASE = oop:ELEM:ROWSxCOLS[:KERNEL] | ip:ELEM:N[:KERNEL] | copy:ELEM:ROWSxCOLS
// ELEM is 1, 2, 4, 8 or 16 bytes (filled with device_pattern.cuh's formula); KERNEL a name from
// `bench_kernels --list` ("default" if left out). Example: ncu --clock-control none --metrics
// dram__bytes_read.sum,dram__bytes_write.sum
//            bench_kernel_counters copy:4:16411x16411 oop:4:16411x16411 ip:4:16411
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/arg_list.h"
#include "bench/copy_kernels.cuh"
#include "bench/device_pattern.cuh"
#include "bench/stats.h"
#include "kernels/cuda/check.h"
#include "kernels/cuda/by_name.h"
#include "kernels/transpose.h"

namespace {

using namespace xpose::kernels;
using namespace xpose::bench;

constexpr std::uint64_t kSeed = 20261122;

// fill_kernel / verify_kernel (device_pattern.cuh) for an element size known only at run time.
void fill(void* buf, std::size_t elem, std::uint64_t count) {
  auto* p = static_cast<unsigned char*>(buf);
  switch (elem) {
    case 1:
      fill_kernel<1><<<1024, 256>>>(p, count, kSeed);
      break;
    case 2:
      fill_kernel<2><<<1024, 256>>>(p, count, kSeed);
      break;
    case 4:
      fill_kernel<4><<<1024, 256>>>(p, count, kSeed);
      break;
    case 8:
      fill_kernel<8><<<1024, 256>>>(p, count, kSeed);
      break;
    default:
      fill_kernel<16><<<1024, 256>>>(p, count, kSeed);
      break;
  }
  XPOSE_CHECK_CUDA_LAUNCH("fill_kernel");
}

// Elements of the rows x cols result `buf` that do not hold input element (c, r) (`transposed`)
// or (r, c).
unsigned long long count_wrong(const void* buf, std::size_t elem, std::int64_t rows,
                               std::int64_t cols, bool transposed, unsigned long long* dev) {
  const auto* p = static_cast<const unsigned char*>(buf);
  const unsigned long long init[2] = {0, ~0ull};
  XPOSE_CHECK_CUDA(cudaMemcpy(dev, init, sizeof init, cudaMemcpyHostToDevice));
  switch (elem) {
    case 1:
      verify_kernel<1><<<1024, 256>>>(p, rows, cols, transposed, kSeed, dev, dev + 1);
      break;
    case 2:
      verify_kernel<2><<<1024, 256>>>(p, rows, cols, transposed, kSeed, dev, dev + 1);
      break;
    case 4:
      verify_kernel<4><<<1024, 256>>>(p, rows, cols, transposed, kSeed, dev, dev + 1);
      break;
    case 8:
      verify_kernel<8><<<1024, 256>>>(p, rows, cols, transposed, kSeed, dev, dev + 1);
      break;
    default:
      verify_kernel<16><<<1024, 256>>>(p, rows, cols, transposed, kSeed, dev, dev + 1);
      break;
  }
  XPOSE_CHECK_CUDA_LAUNCH("verify_kernel");
  unsigned long long wrong = 0;
  XPOSE_CHECK_CUDA(cudaMemcpy(&wrong, dev, sizeof wrong, cudaMemcpyDeviceToHost));
  return wrong;
}

struct Case {
  std::string kind, variant = "default";
  std::size_t elem = 0;
  std::int64_t rows = 0, cols = 0;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(
      stderr,
      "bench_kernel_counters: %s\nusage: bench_kernel_counters CASE [CASE...]\n"
      "  CASE = oop:ELEM:ROWSxCOLS[:KERNEL] | ip:ELEM:N[:KERNEL] | copy:ELEM:ROWSxCOLS\n",
      why.c_str());
  std::exit(2);
}

Case parse(const std::string& s) {
  std::vector<std::string> f;
  for (std::size_t p = 0;;) {
    const std::size_t q = s.find(':', p);
    f.push_back(s.substr(p, q == std::string::npos ? std::string::npos : q - p));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  if (f.size() < 3 || f.size() > 4) usage("bad case '" + s + "'");
  Case c;
  c.kind = f[0];
  if (c.kind != "oop" && c.kind != "ip" && c.kind != "copy") usage("bad kind in '" + s + "'");
  long long elem = 0;
  if (!parse_whole(f[1], 1, 16, elem) || (elem & (elem - 1)) != 0)
    usage("ELEM must be 1, 2, 4, 8 or 16 in '" + s + "'");
  c.elem = static_cast<std::size_t>(elem);
  const std::size_t x = f[2].find('x');
  long long rows = 0, cols = 0;
  if (!parse_whole(f[2].substr(0, x), 1, 1LL << 31, rows) ||
      !parse_whole(x == std::string::npos ? f[2] : f[2].substr(x + 1), 1, 1LL << 31, cols) ||
      (c.kind == "ip" && rows != cols))
    usage("bad shape in '" + s + "'");
  c.rows = rows;
  c.cols = cols;
  if (f.size() == 4) c.variant = f[3];
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) usage("no case given");
  std::vector<Case> cases;
  for (int i = 1; i < argc; ++i) cases.push_back(parse(argv[i]));
  int failures = 0;
  try {
    unsigned long long* bad = nullptr;
    XPOSE_CHECK_CUDA(cudaMalloc(&bad, 2 * sizeof *bad));  // count, first wrong index
    cudaEvent_t t0, t1;
    XPOSE_CHECK_CUDA(cudaEventCreate(&t0));
    XPOSE_CHECK_CUDA(cudaEventCreate(&t1));
    for (const Case& c : cases) {
      const std::int64_t elems = c.rows * c.cols;
      const std::size_t bytes = static_cast<std::size_t>(elems) * c.elem;
      void *a = nullptr, *b = nullptr;
      XPOSE_CHECK_CUDA(cudaMalloc(&a, bytes));
      if (c.kind != "ip") XPOSE_CHECK_CUDA(cudaMalloc(&b, bytes));
      fill(a, c.elem, static_cast<std::uint64_t>(elems));
      if (b) XPOSE_CHECK_CUDA(cudaMemset(b, 0xff, bytes));
      XPOSE_CHECK_CUDA(cudaDeviceSynchronize());
      XPOSE_CHECK_CUDA(cudaEventRecord(t0));
      bool ran = true;
      if (c.kind == "copy") {
        // The copy the transposes are held against: 16-byte words, grid-stride.
        copy_stride<<<132 * 16, 256>>>(static_cast<const uint4*>(a), static_cast<uint4*>(b),
                                       static_cast<std::int64_t>(bytes / 16));
      } else if (c.kind == "oop") {
        TransposeShape s;
        s.rows = c.rows;
        s.cols = c.cols;
        ran = by_name::run_out_of_place(c.variant, a, b, c.elem, s, nullptr);
      } else {
        ran = by_name::run_in_place(c.variant, a, c.elem, c.rows, 1, nullptr);
      }
      XPOSE_CHECK_CUDA(cudaGetLastError());
      XPOSE_CHECK_CUDA(cudaEventRecord(t1));
      XPOSE_CHECK_CUDA(cudaEventSynchronize(t1));
      float ms = 0;
      XPOSE_CHECK_CUDA(cudaEventElapsedTime(&ms, t0, t1));
      unsigned long long nbad = 0;
      const char* verdict = "declined";
      if (ran) {
        const void* out = c.kind == "ip" ? a : b;
        nbad = c.kind == "copy"  // copy_stride moves whole 16-byte words: the elements they hold
                   ? count_wrong(out, c.elem, static_cast<std::int64_t>(bytes / 16 * 16 / c.elem),
                                 1, false, bad)
                   : count_wrong(out, c.elem, c.cols, c.rows, true, bad);
        verdict = nbad ? "WRONG" : "verified";
        failures += nbad != 0;
      }
      std::printf("%-5s %2zu B %6lldx%-6lld %-18s %8.3f ms %7.1f GB/s  %s\n", c.kind.c_str(),
                  c.elem, static_cast<long long>(c.rows), static_cast<long long>(c.cols),
                  c.variant.c_str(), ms, ran ? read_write_gbps(double(bytes), ms) : 0.0, verdict);
      XPOSE_CHECK_CUDA(cudaFree(a));
      if (b) XPOSE_CHECK_CUDA(cudaFree(b));
    }
    XPOSE_CHECK_CUDA(cudaFree(bad));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_kernel_counters: %s\n", e.what());
    return 10;
  }
  return failures ? 1 : 0;
}
