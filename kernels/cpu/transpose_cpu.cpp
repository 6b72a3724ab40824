// PLACEHOLDER: naive versions so the tree builds; replaced by the cache-blocked kernel.
#include <cstring>

#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels {

void transpose_naive(const void* in, void* out, std::size_t elem_size, const TransposeShape& shape) {
  const auto s = shape.resolved();
  auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t i = 0; i < s.rows; ++i)
      for (std::int64_t j = 0; j < s.cols; ++j)
        std::memcpy(dst + (b * s.out_batch_stride + j * s.out_pitch + i) * elem_size,
                    src + (b * s.in_batch_stride + i * s.in_pitch + j) * elem_size, elem_size);
}

void transpose_cpu(const void* in, void* out, std::size_t elem_size, const TransposeShape& shape, int) {
  transpose_naive(in, out, elem_size, shape);
}

void transpose_inplace_cpu(void* buf, std::size_t elem_size, std::int64_t n, std::int64_t batch, int) {
  auto* p = static_cast<unsigned char*>(buf);
  unsigned char tmp[16];
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = i + 1; j < n; ++j) {
        auto* x = p + (b * n * n + i * n + j) * elem_size;
        auto* y = p + (b * n * n + j * n + i) * elem_size;
        std::memcpy(tmp, x, elem_size);
        std::memcpy(x, y, elem_size);
        std::memcpy(y, tmp, elem_size);
      }
}

void copy_2d_cpu(const void* src, std::int64_t src_pitch, void* dst, std::int64_t dst_pitch,
                 std::int64_t row_bytes, std::int64_t rows, int) {
  for (std::int64_t r = 0; r < rows; ++r)
    std::memcpy(static_cast<unsigned char*>(dst) + r * dst_pitch,
                static_cast<const unsigned char*>(src) + r * src_pitch, static_cast<std::size_t>(row_bytes));
}

}  // namespace xpose::kernels
