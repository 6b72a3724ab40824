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
  if (s.batch > 1 && (s.in_batch_stride < s.rows * s.in_pitch - (s.in_pitch - s.cols) ||
                      s.out_batch_stride < s.cols * s.out_pitch - (s.out_pitch - s.rows)))
    throw DimensionMismatch(cat("transpose: batch stride smaller than one matrix (in ",
                                s.in_batch_stride, ", out ", s.out_batch_stride, ")"));
  return s;
}

}  // namespace xpose::kernels
