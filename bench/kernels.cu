// bench_kernels: the CUDA transposes against their ceilings and baselines, in one run, on the
// same buffers: cudaMemcpy D2D (the ceiling), xpose's out-of-place and in-place kernels, the
// seed kernel (32x33 padded tile), the classic in-place kernel (every tile launched, lower half
// idle), the naive kernel (uncoalesced writes) and cuBLAS geam. Every output is verified on the
// device, every element, against the formula that filled the input. Bandwidth is 2 x bytes /
// time (read + write), beside memcpy's.
//
//   bench_kernels [--csv FILE] [--reps N] [--huge] [--huge-only] [--extra] [--filter WORD]
//   [--variant NAME[,NAME...]] [--compare] [--list] [--shapes RxC[,RxC...]] [--types T[,T...]]
//   [--batch B]
// --extra: also f32 shapes whose rows are 16, 32 or 64 bytes off 128-byte lines on one side;
// --huge: also 131072^2 float32 in place (64 GiB). --variant: instead of the list above, time
// memcpy, cuBLAS geam and the named kernels of the library (kernels/cuda/kernels.def; "default"
// is transpose_cuda / transpose_inplace_cuda; a name an element size lacks is skipped there).
// --compare: the record shapes (f32, f64, c128 at 16384^2, 32768^2, 20000x30000, 16411^2) with
// every kernel of the library that takes them (or the --variant ones), 2 warm-up + 10 timed runs
// unless --reps says otherwise, then a table of the best per shape; with --csv, the default's
// rows carry the kernel_table.csv line that chose its kernel (kernels/kernel_table.py check reads
// them). --list: the kernels' names per element size (no GPU needed). --shapes: these shapes
// instead of the record shapes (each at most 32 GiB, two buffers of the largest must fit the
// device); --types: only these of f32, f64, c128 (u8 and u16, which the default table runs at
// 16384^2 only, run on the shapes when named). --batch B: each shape as B consecutive matrices
// (memcpy of all of them, the kernels with that batch count; geam does not apply), label RxCbB.
// --quick is accepted and changes nothing (the list above is the short one).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench/arg_list.h"
#include "bench/stats.h"
#include "bench/device_pattern.cuh"
#include "bench/timing.cuh"
#include "kernels/choice.h"
#include "kernels/cuda/by_name.h"
#include "kernels/cuda/check.h"
#include "kernels/cuda/inplace.cuh"
#include "kernels/transpose.h"

namespace {

/// The most one of the two device buffers every shape runs in may hold: 2 x 32768^2 elements of
/// 16 bytes (32 GiB, so two fit on an 80 GB card). The buffers are sized to the largest shape
/// asked for (the goal shapes: 16 GiB).
constexpr std::size_t kMaxBytes = std::size_t(2) * 32768 * 32768 * 16;

using namespace xpose::kernels;
using namespace xpose::kernels::cuda_tile;
using namespace xpose::bench;

#define BENCH_CHECK_CUBLAS(call)                                                           \
  do {                                                                                     \
    const cublasStatus_t st_ = (call);                                                     \
    if (st_ != CUBLAS_STATUS_SUCCESS)                                                      \
      throw xpose::RuntimeFailure(xpose::cat(#call, " failed: cuBLAS status ", int(st_))); \
  } while (0)

// ---- baselines (bench only) ------------------------------------------------------------------

// The seed kernel (seeds 000/004): 32x32 tile padded to 33 columns, 32x8 threads, one element
// per access, here with a 1-D grid so it runs on every shape.
template <int S>
__global__ void __launch_bounds__(256) seed_kernel(TiledParams p) {
  using E = typename Bytes<S>::type;
  __shared__ E tile[32][33];
  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  for (std::uint64_t t = blockIdx.x; t < p.tiles; t += gridDim.x) {
    const std::int64_t r0 = std::int64_t(t / p.tiles_x) * 32, c0 = std::int64_t(t % p.tiles_x) * 32;
    for (int j = ty; j < 32; j += 8)
      if (r0 + j < p.rows && c0 + tx < p.cols)
        tile[j][tx] =
            *reinterpret_cast<const E*>(p.in + (r0 + j) * p.in_pitch_bytes + (c0 + tx) * S);
    __syncthreads();
    for (int j = ty; j < 32; j += 8)
      if (c0 + j < p.cols && r0 + tx < p.rows)
        *reinterpret_cast<E*>(p.out + (c0 + j) * p.out_pitch_bytes + (r0 + tx) * S) = tile[tx][j];
    __syncthreads();
  }
}

// Naive: coalesced reads, writes strided by the output pitch (seed 004's transposeNaiveV2).
template <int S>
__global__ void __launch_bounds__(256) naive_kernel(TiledParams p) {
  using E = typename Bytes<S>::type;
  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  for (std::uint64_t t = blockIdx.x; t < p.tiles; t += gridDim.x) {
    const std::int64_t r0 = std::int64_t(t / p.tiles_x) * 32, c0 = std::int64_t(t % p.tiles_x) * 32;
    for (int j = ty; j < 32; j += 8)
      if (r0 + j < p.rows && c0 + tx < p.cols)
        *reinterpret_cast<E*>(p.out + (c0 + tx) * p.out_pitch_bytes + (r0 + j) * S) =
            *reinterpret_cast<const E*>(p.in + (r0 + j) * p.in_pitch_bytes + (c0 + tx) * S);
  }
}

TiledParams simple_params(const void* in, void* out, std::int64_t rows, std::int64_t cols, int s) {
  TiledParams p{};
  p.in = static_cast<const char*>(in);
  p.out = static_cast<char*>(out);
  p.rows = rows;
  p.cols = cols;
  p.batch = 1;
  p.in_pitch_bytes = cols * s;
  p.out_pitch_bytes = rows * s;
  p.tiles_x = static_cast<std::uint32_t>((cols + 31) / 32);
  p.tiles_y = static_cast<std::uint32_t>((rows + 31) / 32);
  p.tiles = p.tiles_x * p.tiles_y;
  p.group = 1;
  return p;
}

template <int S>
void launch_seed(const void* in, void* out, std::int64_t rows, std::int64_t cols, cudaStream_t st) {
  const TiledParams p = simple_params(in, out, rows, cols, S);
  seed_kernel<S><<<std::min<std::uint32_t>(p.tiles, 0x7fffffff), 256, 0, st>>>(p);
  XPOSE_CHECK_CUDA_LAUNCH("seed_kernel");
}

template <int S>
void launch_naive(const void* in, void* out, std::int64_t rows, std::int64_t cols,
                  cudaStream_t st) {
  const TiledParams p = simple_params(in, out, rows, cols, S);
  naive_kernel<S><<<std::min<std::uint32_t>(p.tiles, 0x7fffffff), 256, 0, st>>>(p);
  XPOSE_CHECK_CUDA_LAUNCH("naive_kernel");
}

// ---- what is timed ---------------------------------------------------------------------------

struct Variant {
  std::string kernel;  // column "kernel": memcpy, xpose, xpose-inplace, seed, naive,
                       // classic-inplace, cublas-*
  std::string detail;  // tile shape or routine
  bool inplace = false;
  bool memcpy_like = false;  // output in input order (the memcpy ceiling)
  // Returns false when it does not apply to this layout (alignment).
  std::function<bool(const void* in, void* out, std::int64_t rows, std::int64_t cols, cudaStream_t)>
      run;
};

// One tile shape of the out-of-place kernel; group > 1 numbers tiles in groups of tile rows.
template <class C, PairOrder O>
Variant inplace_variant(const char* kernel, const char* detail) {
  Variant v;
  v.kernel = kernel;
  v.detail = detail;
  v.inplace = true;
  v.run = [](const void*, void* buf, std::int64_t rows, std::int64_t cols, cudaStream_t st) {
    if (rows != cols || !inplace_accepts<C>(buf, rows)) return false;
    launch_inplace<C, O>(buf, rows, 1, st);
    return true;
  };
  return v;
}

// The in-place kernel for any n (element-wise shared tiles, aligned words).
cublasHandle_t g_cublas = nullptr;
// --batch: matrices a case transposes at once (memcpy and the named kernels only; geam and
// the fixed baselines do not apply past 1).
std::int64_t g_batch = 1;

template <int S>
void add_geam(std::vector<Variant>& vs) {
  auto add = [&](const char* name, auto fn) {
    Variant v;
    v.kernel = "cublas-geam";
    v.detail = name;
    v.run = [fn](const void* in, void* out, std::int64_t rows, std::int64_t cols, cudaStream_t st) {
      if (g_batch != 1) return false;
      BENCH_CHECK_CUBLAS(cublasSetStream(g_cublas, st));
      // Row-major R x C input = column-major C x R; C (column-major R x C, ldc R) = A^T.
      fn(int(rows), int(cols), in, int(cols), out, int(rows));
      return true;
    };
    vs.push_back(v);
  };
  if (S == 4)
    add("Sgeam", [](int m, int n, const void* a, int lda, void* c, int ldc) {
      const float one = 1, zero = 0;
      BENCH_CHECK_CUBLAS(cublasSgeam(g_cublas, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one,
                                     static_cast<const float*>(a), lda, &zero,
                                     static_cast<float*>(c), ldc, static_cast<float*>(c), ldc));
    });
  if (S == 8) {
    add("Dgeam", [](int m, int n, const void* a, int lda, void* c, int ldc) {
      const double one = 1, zero = 0;
      BENCH_CHECK_CUBLAS(cublasDgeam(g_cublas, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one,
                                     static_cast<const double*>(a), lda, &zero,
                                     static_cast<double*>(c), ldc, static_cast<double*>(c), ldc));
    });
    add("Cgeam", [](int m, int n, const void* a, int lda, void* c, int ldc) {
      const cuComplex one{1, 0}, zero{0, 0};
      BENCH_CHECK_CUBLAS(cublasCgeam(
          g_cublas, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, static_cast<const cuComplex*>(a), lda,
          &zero, static_cast<cuComplex*>(c), ldc, static_cast<cuComplex*>(c), ldc));
    });
  }
  if (S == 16)
    add("Zgeam", [](int m, int n, const void* a, int lda, void* c, int ldc) {
      const cuDoubleComplex one{1, 0}, zero{0, 0};
      BENCH_CHECK_CUBLAS(cublasZgeam(g_cublas, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one,
                                     static_cast<const cuDoubleComplex*>(a), lda, &zero,
                                     static_cast<cuDoubleComplex*>(c), ldc,
                                     static_cast<cuDoubleComplex*>(c), ldc));
    });
}

// The variants timed for one element size, ceiling and library kernels first.
template <int S>
std::vector<Variant> variants_for() {
  std::vector<Variant> vs;
  {
    Variant v;
    v.kernel = "memcpy";
    v.detail = "cudaMemcpyAsync D2D";
    v.memcpy_like = true;
    v.run = [](const void* in, void* out, std::int64_t rows, std::int64_t cols, cudaStream_t st) {
      XPOSE_CHECK_CUDA(cudaMemcpyAsync(out, in, std::size_t(rows) * cols * S * g_batch,
                                       cudaMemcpyDeviceToDevice, st));
      return true;
    };
    vs.push_back(v);
  }
  {
    Variant v;
    v.kernel = "xpose";
    v.detail = "transpose_cuda";
    v.run = [](const void* in, void* out, std::int64_t rows, std::int64_t cols, cudaStream_t st) {
      transpose_cuda(in, out, S, TransposeShape::dense(rows, cols), st);
      return true;
    };
    vs.push_back(v);
  }
  {
    Variant v;
    v.kernel = "xpose-inplace";
    v.detail = "transpose_inplace_cuda";
    v.inplace = true;
    v.run = [](const void*, void* buf, std::int64_t rows, std::int64_t cols, cudaStream_t st) {
      if (rows != cols) return false;
      transpose_inplace_cuda(buf, S, rows, 1, st);
      return true;
    };
    vs.push_back(v);
  }
  add_geam<S>(vs);
  {
    Variant v;
    v.kernel = "seed";
    v.detail = "32x33 padded, 32x8 thr";
    v.run = [](const void* in, void* out, std::int64_t rows, std::int64_t cols, cudaStream_t st) {
      launch_seed<S>(in, out, rows, cols, st);
      return true;
    };
    vs.push_back(v);
  }
  {
    Variant v;
    v.kernel = "naive";
    v.detail = "uncoalesced writes";
    v.run = [](const void* in, void* out, std::int64_t rows, std::int64_t cols, cudaStream_t st) {
      launch_naive<S>(in, out, rows, cols, st);
      return true;
    };
    vs.push_back(v);
  }
  // Tile shapes: TileConfig<S, W, BR, BC, NT, MINB, HINT> is a (BR*W/S) x (BC*W/S) tile of
  // W-byte words, NT threads, registers capped for MINB blocks per SM, HINT: cache hints
  // (tile.cuh's k* bits). SkewConfig<S, W, TH, TW, NT, A_OUT>: output pieces aligned to A_OUT.
  if constexpr (S == 4) {
    vs.push_back(inplace_variant<TileConfig<4, 16, 16, 16, 256>, PairOrder::Classic>(
        "classic-inplace", "64x64 w16, all tiles"));
  } else if constexpr (S == 8) {
    vs.push_back(inplace_variant<TileConfig<8, 16, 16, 16, 256>, PairOrder::Classic>(
        "classic-inplace", "32x32 w16, all tiles"));
  } else if constexpr (S == 16) {
    vs.push_back(inplace_variant<TileConfig<16, 16, 32, 32, 256>, PairOrder::Classic>(
        "classic-inplace", "32x32, all tiles"));
  } else if constexpr (S == 1) {
    vs.push_back(inplace_variant<TileConfig<1, 16, 8, 8, 64>, PairOrder::Classic>(
        "classic-inplace", "128x128 w16, all tiles"));
  } else if constexpr (S == 2) {
    vs.push_back(inplace_variant<TileConfig<2, 16, 8, 8, 64>, PairOrder::Classic>(
        "classic-inplace", "64x64 w16, all tiles"));
  }
  return vs;
}

// memcpy, cuBLAS geam and the library's kernels by name (all, or those in `only`).
template <int S>
std::vector<Variant> kernels_for(const std::vector<std::string>& only) {
  std::vector<Variant> vs = variants_for<S>();
  vs.erase(std::remove_if(
               vs.begin(), vs.end(),
               [](const Variant& v) { return v.kernel != "memcpy" && v.kernel != "cublas-geam"; }),
           vs.end());
  auto wanted = [&](const std::string& n) {
    return only.empty() || std::find(only.begin(), only.end(), n) != only.end();
  };
  for (const std::string& name : by_name::out_of_place(S)) {
    if (!wanted(name)) continue;
    Variant v;
    v.kernel = "cand";
    v.detail = name;
    v.run = [name](const void* in, void* out, std::int64_t rows, std::int64_t cols,
                   cudaStream_t st) {
      return by_name::run_out_of_place(name, in, out, S,
                                        TransposeShape::dense(rows, cols, g_batch), st);
    };
    vs.push_back(v);
  }
  for (const std::string& name : by_name::in_place(S)) {
    if (!wanted(name)) continue;
    Variant v;
    v.kernel = "cand-inplace";
    v.detail = name;
    v.inplace = true;
    v.run = [name](const void*, void* buf, std::int64_t rows, std::int64_t cols, cudaStream_t st) {
      if (rows != cols) return false;
      return by_name::run_in_place(name, buf, S, rows, g_batch, st);
    };
    vs.push_back(v);
  }
  return vs;
}

// ---- timing ----------------------------------------------------------------------------------

struct Options {
  std::string csv;
  int reps = 20;
  int warmup = 3;
  bool huge = false;
  bool huge_only = false;
  bool quick = false;
  bool extra = false;
  std::string filter;
  std::vector<std::string> variants;  // --variant: kernels by name
  bool compare = false;
  std::vector<std::pair<std::int64_t, std::int64_t>> shapes;  // --shapes: rows x cols
  std::vector<std::string> types;                             // --types: f32, f64, c128, u8, u16
  std::int64_t batch = 1;                                     // --batch: matrices a case
  bool has_type(const char* t) const { return types.empty() || names_type(t); }
  bool names_type(const char* t) const {
    return std::find(types.begin(), types.end(), t) != types.end();
  }
};

struct Row {
  std::string type, shape, kernel, detail;
  double ms = 0, gbps = 0, ratio = 0, spread = 0;
  std::string status;  // ok, FAIL(n), n/a
  int rule = 0;        // the default's kernel_table.csv line (0: not the default)
  std::string chosen;  // the default's kernel
};

class Bench {
 public:
  Bench(const Options& opt, cudaStream_t st) : opt_(opt), stream_(st) {
    XPOSE_CHECK_CUDA(cudaMalloc(&bad_, 2 * sizeof(unsigned long long)));
  }
  ~Bench() { cudaFree(bad_); }

  template <int S>
  void fill(void* buf, std::int64_t count, std::uint64_t seed) {
    fill_kernel<S><<<4096, 256, 0, stream_>>>(static_cast<unsigned char*>(buf), count, seed);
    XPOSE_CHECK_CUDA_LAUNCH("fill_kernel");
  }

  // Mismatching elements of a rows x cols result (every element checked).
  template <int S>
  unsigned long long verify(const void* buf, std::int64_t rows, std::int64_t cols, bool transposed,
                            std::uint64_t seed, unsigned long long* first = nullptr,
                            std::int64_t batch = 1) {
    const unsigned long long init[2] = {0, ~0ULL};
    XPOSE_CHECK_CUDA(cudaMemcpyAsync(bad_, init, sizeof init, cudaMemcpyHostToDevice, stream_));
    verify_kernel<S><<<8192, 256, 0, stream_>>>(static_cast<const unsigned char*>(buf), rows, cols,
                                                transposed, seed, bad_, bad_ + 1, batch);
    XPOSE_CHECK_CUDA_LAUNCH("verify_kernel");
    unsigned long long got[2];
    XPOSE_CHECK_CUDA(cudaMemcpyAsync(got, bad_, sizeof got, cudaMemcpyDeviceToHost, stream_));
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream_));
    if (first) *first = got[1];
    return got[0];
  }

  // Median and spread (max - min over the middle half, in %) of `reps` timed calls of fn, queued
  // back to back.
  template <class F>
  std::pair<double, double> time(F&& fn) {
    const Spread s = median_spread(time_back_to_back(stream_, opt_.warmup, opt_.reps, fn));
    return {s.median, s.iqr_pct};
  }

  // One element size, one shape: every variant on buffers a (input) and b (output / in place).
  template <int S>
  void run_case(const char* type, std::int64_t rows, std::int64_t cols, void* a, void* b,
                std::vector<Row>& rows_out) {
    const std::int64_t nb = g_batch;
    const std::string shape = std::to_string(rows) + "x" + std::to_string(cols) +
                              (nb > 1 ? "b" + std::to_string(nb) : std::string());
    const std::uint64_t seed = 0x5eed0000ULL + rows * 131 + cols * 7 + S;
    const double bytes = double(rows) * double(cols) * S * double(nb);
    const std::size_t nbytes = std::size_t(rows) * cols * S * std::size_t(nb);
    if (nbytes > capacity_) {
      std::fprintf(stderr, "%s %s: skipped, %zu bytes is more than the buffers' %zu\n", type,
                   shape.c_str(), nbytes, capacity_);
      return;
    }
    fill<S>(a, rows * cols * nb, seed);
    double memcpy_gbps = 0;
    const std::vector<Variant> list = opt_.compare || !opt_.variants.empty()
                                          ? kernels_for<S>(opt_.variants)
                                          : variants_for<S>();
    for (const Variant& v : list) {
      if (!opt_.filter.empty() && v.kernel != "memcpy" &&
          (v.kernel + " " + v.detail).find(opt_.filter) == std::string::npos)
        continue;
      Row r{type, shape, v.kernel, v.detail};
      try {
        if (v.detail == "default" || v.kernel == "xpose" || v.kernel == "xpose-inplace") {
          // Which kernel and table row the library's choice gives this layout here.
          const auto d = xpose::kernels::current_device_profile();
          const TransposeShape s = TransposeShape::dense(rows, cols, nb);
          const auto c = v.inplace
                             ? (rows == cols ? xpose::kernels::choose_in_place(b, S, rows, nb, d)
                                             : xpose::kernels::KernelChoice{})
                             : xpose::kernels::copies_in_order(s)
                                   ? xpose::kernels::KernelChoice{}
                                   : xpose::kernels::choose_out_of_place(a, b, S, s, d);
          if (c.kernel >= 0) {
            r.rule = xpose::kernels::rule_info(c.rule).line;
            r.chosen = xpose::kernels::kernel_list()[static_cast<std::size_t>(c.kernel)].name;
          }
        }
        unsigned long long bad = 0, first = 0;
        bool applies = true;
        std::pair<double, double> t{0, 0};
        if (v.inplace) {
          // b holds the matrix; one transpose, check, then warm-up + timed runs, check again.
          fill<S>(b, rows * cols * nb, seed);
          applies = v.run(nullptr, b, rows, cols, stream_);
          if (applies) {
            bad = verify<S>(b, cols, rows, true, seed, &first, nb);
            t = time([&] { v.run(nullptr, b, rows, cols, stream_); });
            const bool odd = (1 + opt_.warmup + opt_.reps) % 2 == 1;
            bad += verify<S>(b, rows, cols, odd, seed, &first, nb);
          }
        } else {
          XPOSE_CHECK_CUDA(cudaMemsetAsync(b, 0xa5, nbytes, stream_));  // poison
          applies = v.run(a, b, rows, cols, stream_);
          if (applies) {
            const bool same_order = v.memcpy_like;
            bad = verify<S>(b, same_order ? rows : cols, same_order ? cols : rows, !same_order,
                            seed, &first, nb);
            t = time([&] { v.run(a, b, rows, cols, stream_); });
            bad += verify<S>(b, same_order ? rows : cols, same_order ? cols : rows, !same_order,
                             seed, &first, nb);
          }
        }
        if (!applies) {
          r.status = "n/a";
        } else {
          r.ms = t.first;
          r.spread = t.second;
          r.gbps = read_write_gbps(double(bytes), t.first);
          if (v.memcpy_like) memcpy_gbps = r.gbps;
          r.ratio = memcpy_gbps > 0 ? r.gbps / memcpy_gbps : 0;
          if (bad == 0) {
            r.status = "ok";
          } else {
            r.status = "FAIL(" + std::to_string(bad) + " first " + std::to_string(first) + ")";
            failures_++;
          }
        }
      } catch (const std::exception& e) {
        r.status = std::string("ERROR ") + e.what();
        failures_++;
        cudaGetLastError();
      }
      print_row(r);
      rows_out.push_back(r);
    }
  }

  static void print_header() {
    std::printf("%-6s %-12s %-18s %-26s %9s %8s %7s %6s  %s\n", "type", "shape", "kernel", "detail",
                "ms", "GB/s", "x mcpy", "iqr%", "verified");
  }
  static void print_row(const Row& r) {
    if (r.status == "n/a") return;
    std::printf("%-6s %-12s %-18s %-26s %9.3f %8.1f %7.3f %6.1f  %s%s\n", r.type.c_str(),
                r.shape.c_str(), r.kernel.c_str(), r.detail.c_str(), r.ms, r.gbps, r.ratio,
                r.spread, r.status.c_str(),
                r.chosen.empty() ? "" : ("  " + r.chosen + " (table line " +
                                         std::to_string(r.rule) + ")").c_str());
    std::fflush(stdout);
  }

  int failures() const { return failures_; }
  cudaStream_t stream() const { return stream_; }
  void set_capacity(std::size_t bytes) { capacity_ = bytes; }

 private:
  Options opt_;
  cudaStream_t stream_;
  unsigned long long* bad_ = nullptr;
  int failures_ = 0;
  std::size_t capacity_ = 0;  // bytes in each of run_case's buffers
};

// 131072 x 131072 float32 (64 GiB) in place: fill, transpose, check every element; then time.
void run_huge(Bench& bench, const Options& opt, std::vector<Row>& rows_out) {
  const std::int64_t n = 131072;
  const std::size_t nbytes = std::size_t(n) * n * 4;
  std::size_t free_b = 0, total_b = 0;
  XPOSE_CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
  std::printf("\n# huge: %" PRId64 "^2 float32 = %.1f GiB in place; device free %.1f GiB of %.1f\n",
              n, nbytes / 1073741824.0, free_b / 1073741824.0, total_b / 1073741824.0);
  if (free_b < nbytes + (std::size_t(1) << 30)) {
    std::printf("# huge: not enough device memory, skipped\n");
    return;
  }
  void* buf = nullptr;
  XPOSE_CHECK_CUDA(cudaMalloc(&buf, nbytes));
  // The ceiling, measured beside it on what memory is left: a 4 GiB D2D copy.
  XPOSE_CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
  const std::size_t half = std::min<std::size_t>(std::size_t(4) << 30, (free_b - (512u << 20)) / 2);
  void *ca = nullptr, *cb = nullptr;
  XPOSE_CHECK_CUDA(cudaMalloc(&ca, half));
  XPOSE_CHECK_CUDA(cudaMalloc(&cb, half));
  bench.fill<4>(ca, std::int64_t(half / 4), 7);
  const auto tm = bench.time([&] {
    XPOSE_CHECK_CUDA(cudaMemcpyAsync(cb, ca, half, cudaMemcpyDeviceToDevice, bench.stream()));
  });
  const double memcpy_gbps = read_write_gbps(double(half), tm.first);
  XPOSE_CHECK_CUDA(cudaFree(ca));
  XPOSE_CHECK_CUDA(cudaFree(cb));
  const std::string shape = "131072x131072";
  Row mr{"f32", shape, "memcpy", "4 GiB D2D beside", tm.first, memcpy_gbps, 1.0, tm.second, "ok"};
  Bench::print_row(mr);
  rows_out.push_back(mr);

  struct H {
    const char* kernel;
    const char* detail;
    std::function<void()> run;
  };
  std::vector<H> hs = {
      {"xpose-inplace", "transpose_inplace_cuda",
       [&] { transpose_inplace_cuda(buf, 4, n, 1, bench.stream()); }},
      {"classic-inplace", "64x64 w16, all tiles",
       [&] {
         launch_inplace<TileConfig<4, 16, 16, 16, 256>, PairOrder::Classic>(buf, n, 1,
                                                                            bench.stream());
       }},
  };
  const std::uint64_t seed = 0x600d;
  for (const H& h : hs) {
    Row r{"f32", shape, h.kernel, h.detail};
    bench.fill<4>(buf, n * n, seed);
    h.run();
    unsigned long long first = 0;
    unsigned long long bad = bench.verify<4>(buf, n, n, true, seed, &first);
    const auto t = bench.time(h.run);
    const bool odd = (1 + opt.warmup + opt.reps) % 2 == 1;
    bad += bench.verify<4>(buf, n, n, odd, seed, &first);
    r.ms = t.first;
    r.spread = t.second;
    r.gbps = read_write_gbps(double(nbytes), t.first);
    r.ratio = r.gbps / memcpy_gbps;
    r.status = bad == 0 ? "ok" : "FAIL(" + std::to_string(bad) + ")";
    Bench::print_row(r);
    rows_out.push_back(r);
  }
  XPOSE_CHECK_CUDA(cudaFree(buf));
}

// The winner per shape among the kernels (rows of one memcpy row onwards), against memcpy,
// cuBLAS and the library defaults; the goals from the issue beside them.
void print_compare(const std::vector<Row>& rows) {
  std::printf(
      "\n# compare: best kernel per shape (x mcpy: over memcpy in the same run; in place"
      " x oop: in-place GB/s over the best out-of-place kernel's)\n");
  std::printf("%-5s %-12s %7s %-8s %6s  %-18s %6s %-5s %6s %-6s  %6s %-18s %6s %-5s\n", "type",
              "shape", "memcpy", "goal", "dflt", "best out of place", "x mcpy", "goal", "geam",
              "beats", "ip dft", "best in place", "x oop", "goal");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].kernel != "memcpy") continue;
    const Row *dflt = nullptr, *best = nullptr, *geam = nullptr, *idflt = nullptr, *ibest = nullptr;
    for (std::size_t j = i + 1; j < rows.size() && rows[j].kernel != "memcpy"; ++j) {
      const Row& r = rows[j];
      if (r.status != "ok") continue;
      if (r.kernel == "cublas-geam" && (!geam || r.gbps > geam->gbps)) geam = &r;
      if (r.kernel == "cand") {
        if (r.detail == "default") dflt = &r;
        if (!best || r.gbps > best->gbps) best = &r;
      }
      if (r.kernel == "cand-inplace") {
        if (r.detail == "default") idflt = &r;
        if (!ibest || r.gbps > ibest->gbps) ibest = &r;
      }
    }
    const Row& m = rows[i];
    const bool aligned_goal = m.shape == "16384x16384" || m.shape == "32768x32768";
    const double goal = aligned_goal ? 0.97 : 0.93;
    auto ratio = [&](const Row* r) { return r && m.gbps > 0 ? r->gbps / m.gbps : 0.0; };
    const double oop_ref = best ? best->gbps : 0;
    std::printf(
        "%-5s %-12s %7.0f >=%-6.2f %6.3f  %-18s %6.3f %-5s %6.3f %-6s  %6.3f %-18s %6.3f %-5s\n",
        m.type.c_str(), m.shape.c_str(), m.gbps, goal, ratio(dflt),
        best ? best->detail.c_str() : "-", ratio(best), ratio(best) >= goal ? "met" : "MISS",
        ratio(geam), best && geam ? (best->gbps > geam->gbps ? "yes" : "NO") : "-",
        idflt && oop_ref > 0 ? idflt->gbps / oop_ref : 0.0, ibest ? ibest->detail.c_str() : "-",
        ibest && oop_ref > 0 ? ibest->gbps / oop_ref : 0.0,
        !ibest                          ? "-"
        : ibest->gbps / oop_ref >= 0.95 ? "met"
                                        : "MISS");
  }
}

int run(const Options& opt) {
  int device = 0;
  XPOSE_CHECK_CUDA(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  XPOSE_CHECK_CUDA(cudaGetDeviceProperties(&prop, device));
  const char* device_name = prop.name;
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::printf(
      "# device: %s, %d SMs, %.1f GiB, L2 %.0f MB, DRAM %.1f B per SM clock, driver %d, runtime "
      "%d\n",
      prop.name, prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0,
      prop.l2CacheSize / 1e6, xpose::kernels::current_device_profile().dram_bytes_per_sm_clock, driver,
      runtime);
  std::printf("# %d warm-up + %d timed runs each, median; GB/s = 2 x bytes / time\n", opt.warmup,
              opt.reps);
  cudaStream_t st = nullptr;
  XPOSE_CHECK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  BENCH_CHECK_CUBLAS(cublasCreate(&g_cublas));
  std::vector<Row> rows;
  int failures = 0;
  g_batch = opt.batch;
  {
    Bench bench(opt, st);
    if (!opt.huge_only) {
      struct Shape {
        std::int64_t r, c;
      };
      std::vector<Shape> shapes = {{16384, 16384}, {32768, 32768}, {20000, 30000}, {16411, 16411}};
      if (!opt.shapes.empty()) {
        shapes.clear();
        for (const auto& rc : opt.shapes) shapes.push_back({rc.first, rc.second});
      }
      const bool small_types = !opt.compare && opt.types.empty();
      // Buffers for the largest shape of the widest type asked for (u8 / u16 at 16384^2 at
      // least, the --extra shapes under 1 GiB).
      const std::size_t widest = opt.has_type("c128")  ? 16
                                 : opt.has_type("f64") ? 8
                                 : opt.has_type("f32") ? 4
                                 : opt.names_type("u16") ? 2
                                                         : 1;
      std::size_t capacity = std::size_t(16384) * 16400 * 4;
      for (const Shape& s : shapes)
        capacity = std::max(capacity,
                            std::size_t(s.r) * std::size_t(s.c) * widest * std::size_t(opt.batch));
      capacity = std::min(capacity, kMaxBytes);
      bench.set_capacity(capacity);
      void *a = nullptr, *b = nullptr;
      XPOSE_CHECK_CUDA(cudaMalloc(&a, capacity));
      XPOSE_CHECK_CUDA(cudaMalloc(&b, capacity));
      Bench::print_header();
      if (opt.has_type("f32"))
        for (const Shape& s : shapes) bench.run_case<4>("f32", s.r, s.c, a, b, rows);
      if (opt.extra) {
        // Which side's alignment costs: rows 64, 32 or 16 bytes off 128-byte lines on the read
        // side only (16384 x C) or the write side only (R x 16384).
        for (const Shape& s : std::vector<Shape>{{16384, 16400},
                                                 {16400, 16384},
                                                 {16384, 16392},
                                                 {16392, 16384},
                                                 {16384, 16388},
                                                 {16388, 16384}})
          bench.run_case<4>("f32", s.r, s.c, a, b, rows);
      }
      if (opt.has_type("f64"))
        for (const Shape& s : shapes) bench.run_case<8>("f64", s.r, s.c, a, b, rows);
      if (opt.has_type("c128"))
        for (const Shape& s : shapes) bench.run_case<16>("c128", s.r, s.c, a, b, rows);
      if (small_types) {
        bench.run_case<1>("u8", 16384, 16384, a, b, rows);
        bench.run_case<2>("u16", 16384, 16384, a, b, rows);
      }
      // 1- and 2-byte elements on the shapes only when --types names them.
      if (opt.names_type("u8"))
        for (const Shape& s : shapes) bench.run_case<1>("u8", s.r, s.c, a, b, rows);
      if (opt.names_type("u16"))
        for (const Shape& s : shapes) bench.run_case<2>("u16", s.r, s.c, a, b, rows);
      XPOSE_CHECK_CUDA(cudaFree(a));
      XPOSE_CHECK_CUDA(cudaFree(b));
    }
    if (opt.huge || opt.huge_only) run_huge(bench, opt, rows);
    failures = bench.failures();
  }
  BENCH_CHECK_CUBLAS(cublasDestroy(g_cublas));
  XPOSE_CHECK_CUDA(cudaStreamDestroy(st));

  if (opt.compare || !opt.variants.empty()) print_compare(rows);

  // Summary: the library kernels and the best of the rest, per shape.
  std::printf("\n# summary (x mcpy = GB/s over cudaMemcpy D2D in the same run)\n");
  std::printf("%-6s %-14s %9s %9s %7s %9s %7s %9s %9s %9s\n", "type", "shape", "memcpy", "xpose",
              "x mcpy", "inplace", "x xpose", "geam", "seed", "classic");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].kernel != "memcpy") continue;
    auto find = [&](const char* k) -> const Row* {
      for (std::size_t j = i + 1; j < rows.size() && rows[j].kernel != "memcpy"; ++j)
        if (rows[j].kernel == k && rows[j].status != "n/a") return &rows[j];
      return nullptr;
    };
    const Row *x = find("xpose"), *ip = find("xpose-inplace"), *g = find("cublas-geam"),
              *sd = find("seed"), *cl = find("classic-inplace");
    auto v = [](const Row* r) { return r ? r->gbps : 0.0; };
    std::printf("%-6s %-14s %9.1f %9.1f %7.3f %9.1f %7.3f %9.1f %9.1f %9.1f\n",
                rows[i].type.c_str(), rows[i].shape.c_str(), rows[i].gbps, v(x), x ? x->ratio : 0,
                v(ip), ip && x && x->gbps > 0 ? ip->gbps / x->gbps : 0, v(g), v(sd), v(cl));
  }
  if (!opt.csv.empty()) {
    FILE* f = std::fopen(opt.csv.c_str(), "w");
    if (!f) throw xpose::IoError("cannot write " + opt.csv);
    std::fprintf(f,
                 "device,type,shape,kernel,detail,ms,gbps,ratio_memcpy,iqr_pct,status,chosen,"
                 "rule\n");
    for (const Row& r : rows)
      if (r.status != "n/a")
        std::fprintf(f, "\"%s\",%s,%s,%s,\"%s\",%.4f,%.2f,%.4f,%.2f,\"%s\",%s,%d\n", device_name,
                     r.type.c_str(), r.shape.c_str(), r.kernel.c_str(), r.detail.c_str(), r.ms,
                     r.gbps, r.ratio, r.spread, r.status.c_str(), r.chosen.c_str(), r.rule);
    std::fclose(f);
  }
  std::printf("# %s\n", failures ? "SOME OUTPUTS FAILED VERIFICATION" : "all outputs verified");
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  bool reps_set = false, list = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--csv")
      opt.csv = next();
    else if (a == "--reps") {
      const std::string v = next();
      long long r = 0;
      if (!parse_whole(v, 4, 100000, r)) {  // the spread needs a quarter of the runs
        std::fprintf(stderr, "--reps: '%s' is not a count (4 to 100000)\n", v.c_str());
        return 2;
      }
      opt.reps = static_cast<int>(r), reps_set = true;
    } else if (a == "--huge")
      opt.huge = true;
    else if (a == "--huge-only")
      opt.huge_only = true;
    else if (a == "--quick")
      opt.quick = true;
    else if (a == "--extra")
      opt.extra = true;
    else if (a == "--filter")
      opt.filter = next();
    else if (a == "--variant") {
      opt.variants = split_list(next());
    } else if (a == "--compare") {
      opt.compare = true;
    } else if (a == "--batch") {
      const std::string v = next();
      long long b = 0;
      if (!parse_whole(v, 1, 65536, b)) {
        std::fprintf(stderr, "--batch: '%s' is not a count (1 to 65536)\n", v.c_str());
        return 2;
      }
      opt.batch = b;
    } else if (a == "--shapes") {
      for (const std::string& item : split_list(next())) {
        long long r = 0, c = 0;
        if (!parse_shape(item, static_cast<long long>(kMaxBytes), r, c)) {
          std::fprintf(stderr, "--shapes: '%s' is not RxC with 1 <= R*C <= 32 x 32768^2\n",
                       item.c_str());
          return 2;
        }
        opt.shapes.emplace_back(r, c);
      }
    } else if (a == "--types") {
      for (const std::string& t : split_list(next())) {
        if (t != "f32" && t != "f64" && t != "c128" && t != "u8" && t != "u16") {
          std::fprintf(stderr, "--types: '%s' is not one of f32, f64, c128, u8, u16\n", t.c_str());
          return 2;
        }
        opt.types.push_back(t);
      }
    } else if (a == "--list")
      list = true;
    else {
      std::fprintf(
          stderr,
          "usage: bench_kernels [--csv FILE] [--reps N] [--huge] [--huge-only] [--extra] "
          "[--filter WORD] [--variant NAME[,NAME...]] [--compare] [--list] [--shapes RxC[,RxC...]] "
          "[--types f32|f64|c128|u8|u16[,...]] [--batch B]\n");
      return 2;
    }
  }
  // Kernel names are checked here, before any CUDA call: a typo must not time nothing.
  const std::size_t sizes[] = {1, 2, 4, 8, 16};
  if (list) {
    for (std::size_t e : sizes) {
      std::printf("%2zu-byte out of place:", e);
      for (const auto& n : by_name::out_of_place(e)) std::printf(" %s", n.c_str());
      std::printf("\n%2zu-byte in place:    ", e);
      for (const auto& n : by_name::in_place(e)) std::printf(" %s", n.c_str());
      std::printf("\n");
    }
    return 0;
  }
  for (const std::string& name : opt.variants) {
    bool known = false;
    for (std::size_t e : sizes) {
      for (const auto& n : by_name::out_of_place(e)) known |= n == name;
      for (const auto& n : by_name::in_place(e)) known |= n == name;
    }
    if (!known) {
      std::fprintf(stderr, "bench_kernels: no kernel named '%s' (--list shows them)\n",
                   name.c_str());
      return 2;
    }
  }
  if (opt.batch > 1 && !opt.compare && opt.variants.empty()) {
    std::fprintf(stderr, "bench_kernels: --batch needs --compare or --variant (the library's kernels only)\n");
    return 2;
  }
  if (opt.compare && !reps_set) {
    opt.reps = 10;
    opt.warmup = 2;
  }
  try {
    return run(opt);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_kernels: %s\n", e.what());
    return 10;
  }
}
