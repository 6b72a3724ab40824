// bench_pitch: the library's out-of-place transpose on rows padded apart, against cudaMemcpy D2D
// of the same bytes. Answers one question: is the plateau of the
// aligned square shapes (about 0.96-0.97 x memcpy at 32768^2) the transposed write pattern as
// such, or the power-of-two distance between the rows it writes? The matrix and its elements are
// the same for every padding; only the pitches move (input rows cols + pad elements apart,
// output rows rows + pad apart), so a ratio that moves with the padding is the address pattern.
//
//   bench_pitch [--reps N] [--types f32,f64,c128] [--shapes RxC[,RxC...]] [--pads B[,B...]]
//               [--shifts K[,K...]] [--back-to-back]
// --pads: bytes added to every row of both matrices (default 0,256,512,1024,4096; each a
// multiple of 256, so the rows stay on the tiled kernels' alignment). --shifts: where the output
// starts, in KiB past the start of its allocation (default 0; the input always starts at its
// allocation's start): the same matrix at other relative places of input and output, each with
// its own memcpy between the same two places. Median of N timed runs (default 20) after 3
// warm-ups, each run waited for alone, or with --back-to-back all runs queued between their
// events and waited for once (as bench_kernels does); GB/s = 2 x matrix bytes / time. memcpy: cudaMemcpyAsync of the
// dense matrix's bytes; memcpy2D: cudaMemcpy2DAsync of the padded input's rows (the same layout
// as the transpose's input, not transposed). Every transposed element is checked on the device
// against the input it must hold, and the padding of the output must still hold its poison.
// Exit status: 0 all right, 1 a wrong element, 2 bad options, 10 a CUDA failure.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "bench/arg_list.h"
#include "bench/device_pattern.cuh"
#include "bench/stats.h"
#include "bench/timing.cuh"
#include "kernels/cuda/check.h"
#include "kernels/transpose.h"

namespace {

using namespace xpose::bench;
using xpose::kernels::TransposeShape;

constexpr unsigned char kPoison = 0x5a;

/// Element (r, c) of the rows x cols input, rows `pitch` bytes apart, holds pattern index
/// r * cols + c (the dense index, whatever the padding).
template <int S>
__global__ void fill_pitched(unsigned char* buf, std::int64_t rows, std::int64_t cols,
                             std::int64_t pitch, std::uint64_t seed) {
  const std::uint64_t count = static_cast<std::uint64_t>(rows) * cols;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const std::uint64_t r = i / cols, c = i % cols;
    pattern_element<S>(seed, i, buf + r * pitch + c * S);
  }
}

/// The cols x rows output, rows `pitch` bytes apart: element (c, r) must hold input element (r, c),
/// and every padding byte after a row must still hold kPoison. Counts the wrong elements and bytes.
template <int S>
__global__ void verify_pitched(const unsigned char* out, std::int64_t rows, std::int64_t cols,
                               std::int64_t pitch, std::uint64_t seed, unsigned long long* bad) {
  const std::int64_t row_bytes = rows * S, pad = pitch - row_bytes;
  const std::uint64_t elems = static_cast<std::uint64_t>(cols) * rows;
  const std::uint64_t count = elems + static_cast<std::uint64_t>(cols) * pad;
  unsigned long long local = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    if (i < elems) {
      const std::uint64_t c = i / rows, r = i % rows;
      unsigned char want[S];
      pattern_element<S>(seed, r * cols + c, want);
      const unsigned char* got = out + c * pitch + r * S;
      bool same = true;
      for (int k = 0; k < S; ++k) same &= got[k] == want[k];
      local += !same;
    } else {
      const std::uint64_t j = i - elems;
      local += out[(j / pad) * pitch + row_bytes + j % pad] != kPoison;
    }
  }
  if (local) atomicAdd(bad, local);
}

struct Shape {
  std::int64_t rows, cols;
};

/// Median of `reps` timed calls of fn after 3 warm-ups: each waited for alone, or (back_to_back)
/// all queued before one wait.
template <class F>
Spread timed(cudaStream_t st, int reps, bool back_to_back, F&& fn) {
  return median_spread(back_to_back ? time_back_to_back(st, 3, reps, fn)
                                    : time_each_run(st, 3, reps, fn));
}

struct Options {
  int reps = 20;
  bool back_to_back = false;
  std::vector<Shape> shapes = {{16384, 16384}, {32768, 32768}};
  std::vector<std::int64_t> pads = {0, 256, 512, 1024, 4096};
  std::vector<std::int64_t> shifts_kib = {0};
};

template <int S>
int run_type(const char* type, const Options& opt, cudaStream_t st, int sms,
             unsigned long long* bad) {
  int failures = 0;
  std::int64_t max_pad = 0, max_shift = 0;
  for (std::int64_t p : opt.pads) max_pad = std::max(max_pad, p);
  for (std::int64_t k : opt.shifts_kib) max_shift = std::max(max_shift, k << 10);
  for (const Shape& sh : opt.shapes) {
    const std::int64_t dense = sh.rows * sh.cols * S;
    const std::int64_t cap = std::max(sh.rows * (sh.cols * S + max_pad),
                                      sh.cols * (sh.rows * S + max_pad));
    unsigned char *a = nullptr, *pool = nullptr;
    XPOSE_CHECK_CUDA(cudaMalloc(&a, cap));
    XPOSE_CHECK_CUDA(cudaMalloc(&pool, cap + max_shift));
    for (const std::int64_t shift_kib : opt.shifts_kib) {
      unsigned char* b = pool + (shift_kib << 10);
      const Spread mc = timed(st, opt.reps, opt.back_to_back, [&] {
        XPOSE_CHECK_CUDA(cudaMemcpyAsync(b, a, dense, cudaMemcpyDeviceToDevice, st));
      });
      const double mc_gbps = read_write_gbps(double(dense), mc.median);
      std::printf("%-5s %6lldx%-6lld %7lld %6s %9s %9s | %8.1f  memcpy (iqr %.2f %%)\n", type,
                  static_cast<long long>(sh.rows), static_cast<long long>(sh.cols),
                  static_cast<long long>(shift_kib), "-", "-", "-", mc_gbps, mc.iqr_pct);
      for (const std::int64_t pad : opt.pads) {
        const std::int64_t in_pitch = sh.cols * S + pad, out_pitch = sh.rows * S + pad;
        const std::uint64_t seed = 0x1234 + static_cast<std::uint64_t>(pad) * 7 + S;
        fill_pitched<S><<<sms * 8, 256, 0, st>>>(a, sh.rows, sh.cols, in_pitch, seed);
        XPOSE_CHECK_CUDA(cudaGetLastError());
        TransposeShape ts;
        ts.rows = sh.rows;
        ts.cols = sh.cols;
        ts.in_pitch = in_pitch / S;
        ts.out_pitch = out_pitch / S;
        ts = ts.resolved();
        const Spread m2 = timed(st, opt.reps, opt.back_to_back, [&] {
          XPOSE_CHECK_CUDA(cudaMemcpy2DAsync(b, in_pitch, a, in_pitch, sh.cols * S, sh.rows,
                                             cudaMemcpyDeviceToDevice, st));
        });
        XPOSE_CHECK_CUDA(cudaMemsetAsync(b, kPoison, cap, st));
        const Spread tx = timed(st, opt.reps, opt.back_to_back, [&] {
          xpose::kernels::transpose_cuda(a, b, S, ts, st);
        });
        XPOSE_CHECK_CUDA(cudaMemsetAsync(bad, 0, sizeof(*bad), st));
        verify_pitched<S><<<sms * 8, 256, 0, st>>>(b, sh.rows, sh.cols, out_pitch, seed, bad);
        XPOSE_CHECK_CUDA(cudaGetLastError());
        unsigned long long nbad = 0;
        XPOSE_CHECK_CUDA(cudaMemcpyAsync(&nbad, bad, sizeof(nbad), cudaMemcpyDeviceToHost, st));
        XPOSE_CHECK_CUDA(cudaStreamSynchronize(st));
        failures += nbad != 0;
        const double t_gbps = read_write_gbps(double(dense), tx.median),
                     m2_gbps = read_write_gbps(double(dense), m2.median);
        std::printf(
            "%-5s %6lldx%-6lld %7lld %6lld %9lld %9lld | %8.1f %8.1f %7.4f %7.4f %6.2f  %s\n",
            type, static_cast<long long>(sh.rows), static_cast<long long>(sh.cols),
            static_cast<long long>(shift_kib), static_cast<long long>(pad),
            static_cast<long long>(in_pitch), static_cast<long long>(out_pitch), t_gbps, m2_gbps,
            t_gbps / mc_gbps, m2_gbps / mc_gbps, tx.iqr_pct, nbad == 0 ? "ok" : "FAILED");
      }
    }
    XPOSE_CHECK_CUDA(cudaFree(a));
    XPOSE_CHECK_CUDA(cudaFree(pool));
  }
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  std::vector<std::string> types = {"f32", "f64", "c128"};
  const char* usage =
      "usage: bench_pitch [--reps N] [--types f32,f64,c128] [--shapes RxC[,RxC...]] "
      "[--pads B[,B...]] [--shifts KIB[,KIB...]] [--back-to-back]\n";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) {
      if (!read_reps(argv[++i], opt.reps)) return 2;
    } else if (a == "--types" && i + 1 < argc) {
      types = split_list(argv[++i]);
      for (const std::string& t : types)
        if (t != "f32" && t != "f64" && t != "c128") {
          std::fprintf(stderr, "--types: '%s' is not one of f32, f64, c128\n", t.c_str());
          return 2;
        }
    } else if (a == "--shapes" && i + 1 < argc) {
      opt.shapes.clear();
      for (const std::string& item : split_list(argv[++i])) {
        long long r = 0, c = 0;
        if (!parse_shape(item, 1LL << 30, r, c)) {
          std::fprintf(stderr, "--shapes: '%s' is not RxC with 1 <= R*C <= 32768^2\n",
                       item.c_str());
          return 2;
        }
        opt.shapes.push_back({r, c});
      }
    } else if (a == "--pads" && i + 1 < argc) {
      opt.pads.clear();
      for (const std::string& item : split_list(argv[++i])) {
        long long p = 0;
        if (!parse_whole(item, 0, 1 << 20, p) || p % 256 != 0) {
          std::fprintf(stderr, "--pads: '%s' is not a byte count that is a multiple of 256\n",
                       item.c_str());
          return 2;
        }
        opt.pads.push_back(p);
      }
    } else if (a == "--shifts" && i + 1 < argc) {
      opt.shifts_kib.clear();
      for (const std::string& item : split_list(argv[++i])) {
        long long k = 0;
        if (!parse_whole(item, 0, 1 << 22, k)) {
          std::fprintf(stderr, "--shifts: '%s' is not a KiB count (0 to 4194304)\n",
                       item.c_str());
          return 2;
        }
        opt.shifts_kib.push_back(k);
      }
    } else if (a == "--back-to-back") {
      opt.back_to_back = true;
    } else {
      std::fputs(usage, a == "--help" || a == "-h" ? stdout : stderr);
      return a == "--help" || a == "-h" ? 0 : 2;
    }
  }
  if (opt.shapes.empty() || opt.pads.empty() || opt.shifts_kib.empty() || types.empty()) {
    std::fputs(usage, stderr);
    return 2;
  }
  try {
    int sms = 0;
    XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop{};
    XPOSE_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::printf("# device: %s, %d SMs; 3 warm-up + %d timed runs, median; GB/s = 2 x matrix "
                "bytes / time; ratios to memcpy of the dense matrix; %s\n",
                prop.name, sms, opt.reps,
                opt.back_to_back ? "runs queued back to back" : "each run waited for alone");
    std::printf("%-5s %13s %7s %6s %9s %9s | %8s %8s %7s %7s %6s  %s\n", "type", "shape",
                "out KiB", "pad B",
                "in pitch", "out pitch", "xpose", "mcpy2D", "x mcpy", "2D/mcpy", "iqr%", "check");
    cudaStream_t st;
    XPOSE_CHECK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    unsigned long long* bad = nullptr;
    XPOSE_CHECK_CUDA(cudaMalloc(&bad, sizeof(*bad)));
    int failures = 0;
    for (const std::string& t : types) {
      if (t == "f32") failures += run_type<4>("f32", opt, st, sms, bad);
      if (t == "f64") failures += run_type<8>("f64", opt, st, sms, bad);
      if (t == "c128") failures += run_type<16>("c128", opt, st, sms, bad);
    }
    XPOSE_CHECK_CUDA(cudaFree(bad));
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_pitch: %s\n", e.what());
    return 10;
  }
}
