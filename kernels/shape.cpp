#include "kernels/transpose.h"

#include "xpose/error.h"

namespace xpose::kernels {

TransposeShape TransposeShape::resolved() const {
  TransposeShape s = *this;
  if (s.rows < 0 || s.cols < 0 || s.batch < 0)
    throw DimensionMismatch(cat("transpose: negative extent (rows=", s.rows, ", cols=", s.cols,
                                ", batch=", s.batch, ")"));
  if (s.in_pitch == 0) s.in_pitch = s.cols;
  if (s.out_pitch == 0) s.out_pitch = s.rows;
  if (s.in_batch_stride == 0) s.in_batch_stride = s.rows * s.in_pitch;
  if (s.out_batch_stride == 0) s.out_batch_stride = s.cols * s.out_pitch;
  if (s.in_pitch < s.cols || s.out_pitch < s.rows)
    throw DimensionMismatch(cat("transpose: pitch smaller than a row (in_pitch=", s.in_pitch,
                                " < cols=", s.cols, " or out_pitch=", s.out_pitch,
                                " < rows=", s.rows, ")"));
  // Matrices one after the other, or interleaved row by row; anything else would overlap.
  auto disjoint = [&](std::int64_t stride, std::int64_t pitch, std::int64_t height, std::int64_t width) {
    return stride >= height * pitch - (pitch - width) || (stride >= width && pitch >= s.batch * stride -
                                                                                          (stride - width));
  };
  if (s.batch > 1 && (!disjoint(s.in_batch_stride, s.in_pitch, s.rows, s.cols) ||
                      !disjoint(s.out_batch_stride, s.out_pitch, s.cols, s.rows)))
    throw DimensionMismatch(cat("transpose: matrices of the batch overlap (batch strides in ", s.in_batch_stride,
                                ", out ", s.out_batch_stride, "; pitches ", s.in_pitch, ", ", s.out_pitch, ")"));
  return s;
}

}  // namespace xpose::kernels
