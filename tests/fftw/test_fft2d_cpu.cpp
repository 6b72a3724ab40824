// The distributed 2-D FFT client on the CPU backend: a batch of 1-D FFTW transforms along the
// local rows, xpose's transpose, a batch of 1-D transforms along the new local rows. The result
// (the 2-D DFT, transposed) is gathered to rank 0 and checked against a single-rank 2-D DFT of
// the same data in double precision: relative L2 error <= 1e-5 in single, <= 1e-12 in double.
#include <fftw3.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include "xpose/distributed_transpose.h"

namespace xpose {
namespace {

// The 1-D passes in either precision.
template <typename Real>
struct Fft1d;

template <>
struct Fft1d<double> {
  static ElementType type() { return ElementType::complex128(); }
  static void forward_rows(std::complex<double>* data, int length, int count) {
    if (count == 0) return;
    auto* z = reinterpret_cast<fftw_complex*>(data);
    fftw_plan p = fftw_plan_many_dft(1, &length, count, z, nullptr, 1, length, z, nullptr, 1,
                                     length, FFTW_FORWARD, FFTW_ESTIMATE);
    ASSERT_NE(p, nullptr);
    fftw_execute(p);
    fftw_destroy_plan(p);
  }
};

template <>
struct Fft1d<float> {
  static ElementType type() { return ElementType::complex64(); }
  static void forward_rows(std::complex<float>* data, int length, int count) {
    if (count == 0) return;
    auto* z = reinterpret_cast<fftwf_complex*>(data);
    fftwf_plan p = fftwf_plan_many_dft(1, &length, count, z, nullptr, 1, length, z, nullptr, 1,
                                       length, FFTW_FORWARD, FFTW_ESTIMATE);
    ASSERT_NE(p, nullptr);
    fftwf_execute(p);
    fftwf_destroy_plan(p);
  }
};

// Uniform-looking values in [-1, 1) from the global index.
double uniform(std::uint64_t k) {
  k = (k + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
  k ^= k >> 31;
  k *= 0x94D049BB133111EBull;
  k ^= k >> 29;
  return static_cast<double>(k >> 11) * 0x1p-52 - 1.0;
}

// Gathers every rank's `count` elements to rank 0, in rank order.
template <typename T>
std::vector<T> gather(const std::vector<T>& mine, std::int64_t count) {
  int n = 0, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int bytes = static_cast<int>(count * static_cast<std::int64_t>(sizeof(T)));
  std::vector<int> counts(n), displs(n);
  MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<T> all;
  if (me == 0) {
    int total = 0;
    for (int p = 0; p < n; ++p) {
      displs[p] = total;
      total += counts[p];
    }
    all.resize(static_cast<std::size_t>(total) / sizeof(T));
  }
  MPI_Gatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, 0,
              MPI_COMM_WORLD);
  return all;
}

/// The relative L2 error of the distributed 2-D FFT of an R x C matrix (same on every rank).
template <typename Real>
double fft2d_error(std::int64_t R, std::int64_t C, Schedule schedule, bool inplace) {
  using Complex = std::complex<Real>;
  DistributedTranspose::Options opt;
  opt.planning = Planning::Estimate;
  opt.schedule = schedule;
  opt.chunk_bytes = 256;
  DistributedTranspose plan(MPI_COMM_WORLD, R, C, Fft1d<Real>::type(), opt);
  const std::int64_t n = plan.local_input_rows(), m = plan.local_output_rows();

  std::vector<Complex> input(static_cast<std::size_t>(n * C));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < C; ++j) {
      const auto k = static_cast<std::uint64_t>((plan.input_row_offset() + i) * C + j);
      input[i * C + j] =
          Complex(static_cast<Real>(uniform(2 * k)), static_cast<Real>(uniform(2 * k + 1)));
    }

  // Pass 1 along the C-long rows, the transpose, pass 2 along the R-long rows.
  std::vector<Complex> work = input;
  work.resize(std::max(plan.local_inplace_bytes() / sizeof(Complex), work.size()));
  Fft1d<Real>::forward_rows(work.data(), static_cast<int>(C), static_cast<int>(n));
  std::vector<Complex> result(static_cast<std::size_t>(m * R));
  if (inplace) {
    plan.execute_inplace(work.data());
    std::copy(work.begin(), work.begin() + m * R, result.begin());
  } else {
    plan.execute(work.data(), result.data());
  }
  Fft1d<Real>::forward_rows(result.data(), static_cast<int>(R), static_cast<int>(m));

  // Rank 0: the 2-D DFT of the whole input in double precision, against the gathered result
  // (C x R: element (j, i) of the result is element (i, j) of the DFT).
  const auto all_in = gather(input, n * C);
  const auto all_out = gather(result, m * R);
  double rel = 0;
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0) {
    std::vector<std::complex<double>> ref(static_cast<std::size_t>(R * C));
    for (std::size_t k = 0; k < ref.size(); ++k) ref[k] = std::complex<double>(all_in[k]);
    auto* z = reinterpret_cast<fftw_complex*>(ref.data());
    fftw_plan p = fftw_plan_dft_2d(static_cast<int>(R), static_cast<int>(C), z, z, FFTW_FORWARD,
                                   FFTW_ESTIMATE);
    fftw_execute(p);
    fftw_destroy_plan(p);
    double err = 0, norm = 0;
    for (std::int64_t i = 0; i < R; ++i)
      for (std::int64_t j = 0; j < C; ++j) {
        const auto want = ref[i * C + j];
        const auto got = std::complex<double>(all_out[j * R + i]);
        err += std::norm(got - want);
        norm += std::norm(want);
      }
    rel = std::sqrt(err / norm);
  }
  MPI_Bcast(&rel, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return rel;
}

struct Shape2 {
  std::int64_t rows, cols;
};
// 3 rows leave rank 3 of 4 without input; 13 x 17 is uneven everywhere; 1 x N and N x 1.
const Shape2 kShapes[] = {{64, 48}, {3, 8}, {13, 17}, {1, 16}, {16, 1}, {120, 90}};

TEST(Fft2dCpu, SinglePrecisionWithin1e5) {
  for (const auto& sh : kShapes)
    for (auto schedule : {Schedule::Bulk, Schedule::Pipelined})
      for (bool inplace : {false, true}) {
        const double e = fft2d_error<float>(sh.rows, sh.cols, schedule, inplace);
        EXPECT_LE(e, 1e-5) << sh.rows << "x" << sh.cols << " " << schedule_name(schedule)
                           << (inplace ? " in place" : "");
      }
}

TEST(Fft2dCpu, DoublePrecisionWithin1e12) {
  for (const auto& sh : kShapes)
    for (auto schedule : {Schedule::Bulk, Schedule::Pipelined})
      for (bool inplace : {false, true}) {
        const double e = fft2d_error<double>(sh.rows, sh.cols, schedule, inplace);
        EXPECT_LE(e, 1e-12) << sh.rows << "x" << sh.cols << " " << schedule_name(schedule)
                            << (inplace ? " in place" : "");
      }
}

}  // namespace
}  // namespace xpose
