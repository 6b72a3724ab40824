// Uses xpose through its installed public headers alone: an in-memory distributed transpose of a
// 9 x 7 matrix, every element checked, and the file transpose of argv[1] into argv[2], checked
// with verify_file; argv[3], another pattern of argv[1]'s shape, must not pass that check.
#include <mpi.h>
#include <xpose/distributed_transpose.h>
#include <xpose/file_transpose.h>
#include <xpose/file_verify.h>
#include <xpose/version.h>

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int bad = 0;
  try {
    const std::int64_t rows = 9, cols = 7;
    xpose::DistributedTranspose plan(MPI_COMM_WORLD, rows, cols, xpose::ElementType::float64());
    const std::int64_t r0 = plan.input_row_offset(), c0 = plan.output_row_offset();
    std::vector<double> in(static_cast<std::size_t>(plan.local_input_elements()));
    std::vector<double> out(static_cast<std::size_t>(plan.local_output_elements()));
    for (std::int64_t i = 0; i < plan.local_input_rows(); ++i)
      for (std::int64_t j = 0; j < cols; ++j) in[i * cols + j] = 1000.0 * (r0 + i) + j;
    plan.execute(in.data(), out.data());
    for (std::int64_t j = 0; j < plan.local_output_rows(); ++j)
      for (std::int64_t i = 0; i < rows; ++i) bad += out[j * rows + i] != 1000.0 * i + (c0 + j);
    if (argc == 4) {
      xpose::FileTransposeOptions options;
      options.input = argv[1];
      options.output = argv[2];
      options.quiet = true;
      const xpose::FileTransposeSummary summary = xpose::transpose_file(options, MPI_COMM_WORLD);
      if (plan.rank() == 0) std::printf("%s", summary.json().c_str());
      std::int64_t elements = 1;
      for (auto n : summary.shape) elements *= n;
      xpose::FileVerifyOptions check;
      check.input = argv[1];
      check.output = argv[2];
      const xpose::FileVerifyResult good = xpose::verify_file(check, MPI_COMM_WORLD);
      check.input = argv[3];
      const xpose::FileVerifyResult other = xpose::verify_file(check, MPI_COMM_WORLD);
      if (good.checked != elements || good.mismatches != 0 || other.checked != elements ||
          other.mismatches == 0 || other.first_mismatch.empty())
        bad += 1;
      if (plan.rank() == 0)
        std::printf(
            "downstream: verify_file: %lld of %lld differ; against another input %lld"
            " (first %s)\n",
            static_cast<long long>(good.mismatches), static_cast<long long>(good.checked),
            static_cast<long long>(other.mismatches), other.first_mismatch.c_str());
    }
    if (plan.rank() == 0)
      std::printf("downstream: xpose %s on %d rank(s), %d wrong element(s) on rank 0\n",
                  xpose::version(), plan.ranks(), bad);
  } catch (const xpose::Error& e) {
    std::fprintf(stderr, "downstream: %s\n", e.what());
    bad = 1;
  }
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any ? 1 : 0;
}
