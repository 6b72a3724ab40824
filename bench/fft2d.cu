// bench_fft2d: a distributed 2-D FFT on GPUs with cuFFT and xpose. Each rank holds a slab of
// rows (FFTW-MPI's blocks) of an R x C complex matrix in device memory: a batch of 1-D cuFFT
// transforms along its rows, xpose's transpose (the result rows are the input's columns), a batch
// of 1-D transforms again. The result, the 2-D DFT transposed (C x R, as FFTW_MPI_TRANSPOSED_OUT
// leaves it), is gathered to rank 0 and checked against a single-rank 2-D cuFFT of the same data
// (double precision): relative L2 error at most 1e-5 in single precision, 1e-12 in double.
//
//   mpirun -np 2 bench_fft2d [--rows R] [--cols C] [--precision single|double] [--reps N]
//       [--transport auto|mpi|mpi-device|nccl] [--schedule auto|bulk|pipelined] [--inplace]
//
// Exit code 0 when the error is within the limit, 8 when it is not.
#include <cuda_runtime.h>
#include <cufft.h>
#include <mpi.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/arg_list.h"
#include "bench/stats.h"
#include "bench/device.cuh"
#include "kernels/cuda/check.h"
#include "mpi/check.h"
#include "xpose/distributed_transpose.h"

#define BENCH_CHECK_CUFFT(call)                                                                  \
  do {                                                                                           \
    const cufftResult rc_ = (call);                                                              \
    if (rc_ != CUFFT_SUCCESS)                                                                    \
      throw xpose::RuntimeFailure(xpose::cat("cuFFT call ", #call, " failed at ", __FILE__, ":", \
                                             __LINE__, ": cufftResult ", int(rc_)));             \
  } while (0)

namespace {

struct Args {
  std::int64_t rows = 4096, cols = 6144;
  bool single = true;
  int reps = 10;
  xpose::Transport transport = xpose::Transport::Auto;
  xpose::Schedule schedule = xpose::Schedule::Auto;
  bool inplace = false;
};

// Uniform-looking values in [-1, 1) from the global index (same formula as the CPU test).
double uniform(std::uint64_t k) {
  k = (k + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
  k ^= k >> 31;
  k *= 0x94D049BB133111EBull;
  k ^= k >> 29;
  return static_cast<double>(k >> 11) * 0x1p-52 - 1.0;
}

// cuFFT's two precisions behind one interface.
template <typename Real>
struct Cufft;

template <>
struct Cufft<float> {
  using Complex = cufftComplex;
  static constexpr cufftType type = CUFFT_C2C;
  static xpose::ElementType element() { return xpose::ElementType::complex64(); }
  static cufftResult exec(cufftHandle p, void* data) {
    auto* z = static_cast<cufftComplex*>(data);
    return cufftExecC2C(p, z, z, CUFFT_FORWARD);
  }
  static constexpr double limit = 1e-5;
};

template <>
struct Cufft<double> {
  using Complex = cufftDoubleComplex;
  static constexpr cufftType type = CUFFT_Z2Z;
  static xpose::ElementType element() { return xpose::ElementType::complex128(); }
  static cufftResult exec(cufftHandle p, void* data) {
    auto* z = static_cast<cufftDoubleComplex*>(data);
    return cufftExecZ2Z(p, z, z, CUFFT_FORWARD);
  }
  static constexpr double limit = 1e-12;
};

/// A batch of `count` in-place 1-D transforms of length `length` over contiguous rows.
class RowFfts {
 public:
  RowFfts(int length, int count, cufftType type, cudaStream_t stream) : count_(count) {
    if (count == 0) return;
    int n[1] = {length};
    BENCH_CHECK_CUFFT(
        cufftPlanMany(&plan_, 1, n, nullptr, 1, length, nullptr, 1, length, type, count));
    BENCH_CHECK_CUFFT(cufftSetStream(plan_, stream));
  }
  ~RowFfts() {
    if (count_ > 0) cufftDestroy(plan_);
  }
  RowFfts(const RowFfts&) = delete;
  RowFfts& operator=(const RowFfts&) = delete;
  template <typename Real>
  void run(void* data) {
    if (count_ > 0) BENCH_CHECK_CUFFT(Cufft<Real>::exec(plan_, data));
  }

 private:
  int count_;
  cufftHandle plan_ = 0;
};

/// Gathers every rank's bytes to rank 0 in rank order (counts in elements of `elem` bytes).
std::vector<char> gather(const void* mine, std::int64_t count, std::size_t elem) {
  int n = 0, me = 0;
  XPOSE_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
  XPOSE_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  MPI_Datatype type;
  XPOSE_CHECK_MPI(MPI_Type_contiguous(static_cast<int>(elem), MPI_BYTE, &type));
  XPOSE_CHECK_MPI(MPI_Type_commit(&type));
  if (count > INT32_MAX) throw xpose::UsageError("fft2d: too many elements to gather");
  int c = static_cast<int>(count);
  std::vector<int> counts(n), displs(n);
  XPOSE_CHECK_MPI(MPI_Gather(&c, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD));
  std::vector<char> all;
  if (me == 0) {
    std::int64_t total = 0;
    for (int p = 0; p < n; ++p) {
      if (total > INT32_MAX) throw xpose::UsageError("fft2d: too many elements to gather");
      displs[p] = static_cast<int>(total);
      total += counts[p];
    }
    all.resize(static_cast<std::size_t>(total) * elem);
  }
  XPOSE_CHECK_MPI(MPI_Gatherv(mine, c, type, all.data(), counts.data(), displs.data(), type, 0,
                              MPI_COMM_WORLD));
  XPOSE_CHECK_MPI(MPI_Type_free(&type));
  return all;
}

double max_over_ranks(double v) {
  double m = 0;
  XPOSE_CHECK_MPI(MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  return m;
}

template <typename Real>
int run(const Args& a) {
  using Complex = std::complex<Real>;
  int me = 0, ranks = 1;
  XPOSE_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  XPOSE_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &ranks));
  xpose::bench::select_device(MPI_COMM_WORLD);
  const std::int64_t R = a.rows, C = a.cols;

  xpose::DistributedTranspose::Options opt;
  opt.memory = xpose::MemorySpace::Device;
  opt.transport = a.transport;
  opt.schedule = a.schedule;
  xpose::DistributedTranspose plan(MPI_COMM_WORLD, R, C, Cufft<Real>::element(), opt);
  if (me == 0) std::printf("%s", plan.report().c_str());
  const std::int64_t n = plan.local_input_rows(), m = plan.local_output_rows();

  // This rank's rows of the input, on the host (kept for the reference).
  std::vector<Complex> input(static_cast<std::size_t>(n * C));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < C; ++j) {
      const auto k = static_cast<std::uint64_t>((plan.input_row_offset() + i) * C + j);
      input[i * C + j] =
          Complex(static_cast<Real>(uniform(2 * k)), static_cast<Real>(uniform(2 * k + 1)));
    }

  cudaStream_t stream;
  XPOSE_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  void *d_a = nullptr, *d_b = nullptr;
  const std::size_t a_bytes = a.inplace ? plan.local_inplace_bytes() : plan.local_input_bytes();
  XPOSE_CHECK_CUDA(cudaMalloc(&d_a, std::max<std::size_t>(a_bytes, 16)));
  XPOSE_CHECK_CUDA(cudaMalloc(&d_b, std::max<std::size_t>(plan.local_output_bytes(), 16)));
  void* result = a.inplace ? d_a : d_b;
  RowFfts pass1(static_cast<int>(C), static_cast<int>(n), Cufft<Real>::type, stream);
  RowFfts pass2(static_cast<int>(R), static_cast<int>(m), Cufft<Real>::type, stream);

  cudaEvent_t e0, e1, e2, e3;
  for (auto* e : {&e0, &e1, &e2, &e3}) XPOSE_CHECK_CUDA(cudaEventCreate(e));
  std::vector<double> total, transpose;
  for (int r = 0; r <= a.reps; ++r) {  // repetition 0 warms up (first use of the transports): untimed
    if (!input.empty())
      XPOSE_CHECK_CUDA(cudaMemcpyAsync(d_a, input.data(), plan.local_input_bytes(),
                                       cudaMemcpyHostToDevice, stream));
    if (!a.inplace && plan.local_output_bytes() > 0)
      XPOSE_CHECK_CUDA(cudaMemsetAsync(d_b, 0xFF, plan.local_output_bytes(), stream));
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream));
    XPOSE_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    XPOSE_CHECK_CUDA(cudaEventRecord(e0, stream));
    pass1.run<Real>(d_a);
    XPOSE_CHECK_CUDA(cudaEventRecord(e1, stream));
    if (a.inplace)
      plan.execute_inplace(d_a, stream);
    else
      plan.execute(d_a, d_b, stream);
    XPOSE_CHECK_CUDA(cudaEventRecord(e2, stream));
    pass2.run<Real>(result);
    XPOSE_CHECK_CUDA(cudaEventRecord(e3, stream));
    XPOSE_CHECK_CUDA(cudaEventSynchronize(e3));
    float t_all = 0, t_x = 0;
    XPOSE_CHECK_CUDA(cudaEventElapsedTime(&t_all, e0, e3));
    XPOSE_CHECK_CUDA(cudaEventElapsedTime(&t_x, e1, e2));
    if (r > 0) {
      total.push_back(max_over_ranks(t_all));
      transpose.push_back(max_over_ranks(t_x));
    }
  }

  // The check: gather input and result; rank 0 transforms the whole input in double precision.
  std::vector<Complex> out(static_cast<std::size_t>(m * R));
  if (!out.empty())
    XPOSE_CHECK_CUDA(
        cudaMemcpy(out.data(), result, plan.local_output_bytes(), cudaMemcpyDeviceToHost));
  const auto all_in = gather(input.data(), n * C, sizeof(Complex));
  const auto all_out = gather(out.data(), m * R, sizeof(Complex));
  double rel = 0;
  if (me == 0) {
    const auto* in_c = reinterpret_cast<const Complex*>(all_in.data());
    const auto* out_c = reinterpret_cast<const Complex*>(all_out.data());
    std::vector<cufftDoubleComplex> ref(static_cast<std::size_t>(R * C));
    for (std::size_t k = 0; k < ref.size(); ++k)
      ref[k] = {double(in_c[k].real()), double(in_c[k].imag())};
    void* d_ref = nullptr;
    XPOSE_CHECK_CUDA(cudaMalloc(&d_ref, ref.size() * sizeof(cufftDoubleComplex)));
    XPOSE_CHECK_CUDA(cudaMemcpy(d_ref, ref.data(), ref.size() * sizeof(cufftDoubleComplex),
                                cudaMemcpyHostToDevice));
    cufftHandle p2d;
    BENCH_CHECK_CUFFT(cufftPlan2d(&p2d, static_cast<int>(R), static_cast<int>(C), CUFFT_Z2Z));
    auto* z = static_cast<cufftDoubleComplex*>(d_ref);
    BENCH_CHECK_CUFFT(cufftExecZ2Z(p2d, z, z, CUFFT_FORWARD));
    XPOSE_CHECK_CUDA(cudaDeviceSynchronize());
    BENCH_CHECK_CUFFT(cufftDestroy(p2d));
    XPOSE_CHECK_CUDA(cudaMemcpy(ref.data(), d_ref, ref.size() * sizeof(cufftDoubleComplex),
                                cudaMemcpyDeviceToHost));
    XPOSE_CHECK_CUDA(cudaFree(d_ref));
    double err = 0, norm = 0;
    for (std::int64_t i = 0; i < R; ++i)
      for (std::int64_t j = 0; j < C; ++j) {
        const auto& w = ref[i * C + j];
        const auto& g = out_c[j * R + i];  // the result is transposed
        const double dr = double(g.real()) - w.x, di = double(g.imag()) - w.y;
        err += dr * dr + di * di;
        norm += w.x * w.x + w.y * w.y;
      }
    rel = std::sqrt(err / norm);
  }
  XPOSE_CHECK_MPI(MPI_Bcast(&rel, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
  const bool ok = rel <= Cufft<Real>::limit && std::isfinite(rel);
  if (me == 0) {
    const double total_ms = xpose::bench::median_spread(total).median;
    const double transpose_ms = xpose::bench::median_spread(transpose).median;
    std::printf("fft2d %" PRId64 " x %" PRId64
                " %s on %d GPU rank(s), %s/%s%s: total %.3f ms, "
                "transpose %.3f ms (median of %d)\n",
                R, C, a.single ? "complex64" : "complex128", ranks,
                xpose::transport_name(plan.transport()), xpose::schedule_name(plan.schedule()),
                a.inplace ? " in place" : "", total_ms, transpose_ms, a.reps);
    std::printf("fft2d relative L2 error %.3e (limit %.0e): %s\n", rel, Cufft<Real>::limit,
                ok ? "OK" : "FAILED");
    std::printf("RESULT fft2d_%s_error=%.3e ok=%d total_ms=%.4f transpose_ms=%.4f\n",
                a.single ? "single" : "double", rel, ok ? 1 : 0, total_ms, transpose_ms);
  }
  for (auto e : {e0, e1, e2, e3}) cudaEventDestroy(e);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaStreamDestroy(stream);
  return ok ? 0 : 8;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  Args a;
  int rc = 0;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string s = argv[i];
      auto next = [&]() -> std::string {
        if (i + 1 >= argc) throw xpose::UsageError(s + " needs a value");
        return argv[++i];
      };
      auto whole = [&](long long lo, long long hi) -> long long {
        const std::string v = next();
        long long out = 0;
        if (!xpose::bench::parse_whole(v, lo, hi, out))
          throw xpose::UsageError(xpose::cat(s, ": '", v, "' is not a whole number from ", lo,
                                             " to ", hi));
        return out;
      };
      if (s == "--rows")
        a.rows = whole(1, INT32_MAX);
      else if (s == "--cols")
        a.cols = whole(1, INT32_MAX);
      else if (s == "--precision") {
        const std::string p = next();
        if (p != "single" && p != "double") throw xpose::UsageError("--precision single|double");
        a.single = p == "single";
      } else if (s == "--reps")
        a.reps = static_cast<int>(whole(1, 100000));
      else if (s == "--transport")
        a.transport = xpose::parse_transport(next());
      else if (s == "--schedule")
        a.schedule = xpose::parse_schedule(next());
      else if (s == "--inplace")
        a.inplace = true;
      else
        throw xpose::UsageError(
            "usage: bench_fft2d [--rows R] [--cols C] [--precision single|double] [--reps N] "
            "[--transport T] [--schedule S] [--inplace]");
    }
    if (a.rows < 1 || a.cols < 1 || a.rows > INT32_MAX || a.cols > INT32_MAX)
      throw xpose::UsageError("rows and cols must be between 1 and 2^31 - 1");
    rc = a.single ? run<float>(a) : run<double>(a);
  } catch (const xpose::Error& e) {
    std::fprintf(stderr, "bench_fft2d: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, static_cast<int>(e.code()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_fft2d: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return rc;
}
