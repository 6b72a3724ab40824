// The CUDA kernels on the layouts axis orders bring (engine/src/axes.h): batches whose matrices
// interleave row by row (a batch axis between the rows and the columns), against the CPU oracle,
// with poisoned outputs. Skips where no GPU is visible. (Wide elements on the GPU go through two
// launches of these kernels in the CUDA stage backend; the CLI tests cover them with
// test_axes.py --extra "--backend cuda".)
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "kernels/cuda/check.h"
#include "kernels/transpose.h"

namespace {

using xpose::kernels::TransposeShape;

bool gpu_here() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return n > 0;
}

std::size_t span(std::int64_t batch, std::int64_t stride, std::int64_t h, std::int64_t pitch,
                 std::int64_t w, std::size_t elem) {
  return static_cast<std::size_t>((batch - 1) * stride + (h - 1) * pitch + w) * elem;
}

TEST(AxesGpu, InterleavedBatchesMatchTheCpuOracle) {
  if (!gpu_here()) GTEST_SKIP() << "no GPU visible";
  std::mt19937 rng(50);
  for (std::size_t elem : {1u, 2u, 4u, 8u, 16u}) {
    for (auto [rows, cols, batch] :
         {std::tuple{5, 7, 3}, {64, 300, 4}, {16, 2049, 2}, {33, 1, 5}, {1, 100, 3}}) {
      for (int variant = 0; variant < 3; ++variant) {
        TransposeShape s;
        s.rows = rows;
        s.cols = cols;
        s.batch = batch;
        if (variant != 1) {  // input [rows][batch][cols]
          s.in_pitch = batch * cols;
          s.in_batch_stride = cols;
        }
        if (variant != 2) {  // output [cols][batch][rows]
          s.out_pitch = batch * rows;
          s.out_batch_stride = rows;
        }
        s = s.resolved();
        const std::size_t in_bytes = span(batch, s.in_batch_stride, rows, s.in_pitch, cols, elem);
        const std::size_t out_bytes =
            span(batch, s.out_batch_stride, cols, s.out_pitch, rows, elem);
        std::vector<unsigned char> in(in_bytes), want(out_bytes, 0xcd), got(out_bytes);
        for (auto& b : in) b = static_cast<unsigned char>(rng());
        xpose::kernels::transpose_naive(in.data(), want.data(), elem, s);
        void *d_in = nullptr, *d_out = nullptr;
        XPOSE_CHECK_CUDA(cudaMalloc(&d_in, in_bytes));
        XPOSE_CHECK_CUDA(cudaMalloc(&d_out, out_bytes));
        XPOSE_CHECK_CUDA(cudaMemcpy(d_in, in.data(), in_bytes, cudaMemcpyHostToDevice));
        XPOSE_CHECK_CUDA(cudaMemset(d_out, 0xcd, out_bytes));
        xpose::kernels::transpose_cuda(d_in, d_out, elem, s, nullptr);
        XPOSE_CHECK_CUDA(cudaMemcpy(got.data(), d_out, out_bytes, cudaMemcpyDeviceToHost));
        XPOSE_CHECK_CUDA(cudaFree(d_in));
        XPOSE_CHECK_CUDA(cudaFree(d_out));
        ASSERT_EQ(want, got) << "elem " << elem << " " << rows << "x" << cols << " batch " << batch
                             << " variant " << variant;
      }
    }
  }
}

}  // namespace
