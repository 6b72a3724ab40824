/// @file
/// Local (single-process) transpose kernels, declared once for every backend. The CPU versions
/// are the reference every GPU test compares against, and the CPU backend of the engine.
///
/// Layout: a batch of `batch` matrices, each `rows x cols`, row-major. Element (b, i, j) of the
/// input is at  in  + (b * in_batch_stride  + i * in_pitch  + j) * elem_size  and goes to
///              out + (b * out_batch_stride + j * out_pitch + i) * elem_size.
/// Pitches and strides are in elements, so a kernel can read a sub-block of one buffer and write
/// a sub-block of another (the engine packs exchange pieces this way). The matrices of a batch
/// may also interleave row by row (batch stride >= a row, pitch >= batch x batch stride): an
/// axis order that puts the batch axis between the rows and the columns.
#pragma once

#include <cstddef>
#include <cstdint>

// Declared, not included: this header stays free of cuda_runtime.h.
struct CUstream_st;

namespace xpose::kernels {

using DeviceStream = CUstream_st*;

struct TransposeShape {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t batch = 1;
  std::int64_t in_pitch = 0;          ///< elements between input rows; 0 means cols
  std::int64_t out_pitch = 0;         ///< elements between output rows; 0 means rows
  std::int64_t in_batch_stride = 0;   ///< elements between input matrices; 0 means rows*in_pitch
  std::int64_t out_batch_stride = 0;  ///< elements between output matrices; 0 means cols*out_pitch

  /// Fills the zero (defaulted) pitches and strides, and checks the rest: throws
  /// DimensionMismatch on negative extents or pitches smaller than a row.
  TransposeShape resolved() const;

  static TransposeShape dense(std::int64_t rows, std::int64_t cols, std::int64_t batch = 1) {
    TransposeShape s;
    s.rows = rows;
    s.cols = cols;
    s.batch = batch;
    return s.resolved();
  }
};

// ---- CPU (kernels/cpu) ----------------------------------------------------------------------

/// Cache-blocked, multi-threaded out-of-place transpose of host memory. Elements of 1, 2, 4, 8 or
/// 16 bytes go through register micro-kernels; any other size (an axis group moved as one wide
/// element) is copied element by element in cache tiles. `threads` <= 0 means the number of
/// hardware threads. in and out must not overlap.
void transpose_cpu(const void* in, void* out, std::size_t elem_size, const TransposeShape& shape,
                   int threads = 0);

/// The obvious double loop, single-threaded: the oracle the fast kernels are tested against.
void transpose_naive(const void* in, void* out, std::size_t elem_size, const TransposeShape& shape);

/// In-place transpose of `batch` square n x n matrices (dense, pitch n) in host memory.
void transpose_inplace_cpu(void* buf, std::size_t elem_size, std::int64_t n, std::int64_t batch = 1,
                           int threads = 0);

/// 2-D copy: `rows` rows of `row_bytes` bytes, from src (pitch src_pitch bytes) to dst (pitch
/// dst_pitch bytes), multi-threaded. Used to unpack received pieces into output rows.
void copy_2d_cpu(const void* src, std::int64_t src_pitch, void* dst, std::int64_t dst_pitch,
                 std::int64_t row_bytes, std::int64_t rows, int threads = 0);

// ---- CUDA (kernels/cuda); in builds without CUDA these throw NotCompiledError ----------------

/// Out-of-place transpose of device memory, launched on `stream` (asynchronous), by the kernel
/// kernels/choice.h chooses for the layout and the device (XPOSE_KERNEL_LOG=1 prints it, once
/// per distinct layout, on stderr). A layout that is a copy in order (a side of 1, the elements
/// consecutive in both buffers, no gaps between matrices) goes to cudaMemcpyAsync on `stream`.
void transpose_cuda(const void* in, void* out, std::size_t elem_size, const TransposeShape& shape,
                    DeviceStream stream);

/// In-place transpose of `batch` dense square n x n device matrices: the triangular kernels (only
/// the tile pairs on or above the diagonal are launched), chosen as transpose_cuda's, launched
/// on `stream` (asynchronous).
void transpose_inplace_cuda(void* buf, std::size_t elem_size, std::int64_t n, std::int64_t batch,
                            DeviceStream stream);

}  // namespace xpose::kernels
