// Out-of-place CUDA transpose: picks, per element size, the widest tile shape whose W-byte words
// the pointers and pitches allow, and launches it on the caller's stream. The shapes and their
// measured speeds are in kernels/NOTES.md.
#include "kernels/cuda/tiled.cuh"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels {

namespace {

using cuda_tile::launch_tiled;
using cuda_tile::TileConfig;
using cuda_tile::tiled_accepts;

// Tries each shape in turn; the last one (W = S) accepts any layout.
template <class C, class... Rest>
void dispatch(const void* in, void* out, const TransposeShape& s, cudaStream_t stream) {
  if constexpr (sizeof...(Rest) == 0) {
    launch_tiled<C>(in, out, s, stream);
  } else {
    if (tiled_accepts<C>(in, out, s))
      launch_tiled<C>(in, out, s, stream);
    else
      dispatch<Rest...>(in, out, s, stream);
  }
}

}  // namespace

void transpose_cuda(const void* in, void* out, std::size_t elem_size, const TransposeShape& shape,
                    DeviceStream stream) {
  const TransposeShape s = shape.resolved();
  if (s.rows == 0 || s.cols == 0 || s.batch == 0) return;
  if (in == nullptr || out == nullptr)
    throw DimensionMismatch("transpose_cuda: null buffer for a non-empty transpose");
  auto* st = static_cast<cudaStream_t>(stream);
  switch (elem_size) {
    case 1:  // 16x16-byte blocks transposed in registers; 4x4 when rows are only 4-aligned
      dispatch<TileConfig<1, 16, 8, 8, 64>, TileConfig<1, 4, 32, 32, 256>,
               TileConfig<1, 1, 32, 32, 256>>(in, out, s, st);
      break;
    case 2:
      dispatch<TileConfig<2, 16, 8, 8, 64>, TileConfig<2, 4, 32, 32, 256>,
               TileConfig<2, 2, 32, 32, 256>>(in, out, s, st);
      break;
    case 4:
      dispatch<TileConfig<4, 16, 16, 16, 256>, TileConfig<4, 8, 32, 32, 256>,
               TileConfig<4, 4, 64, 64, 256>>(in, out, s, st);
      break;
    case 8:
      dispatch<TileConfig<8, 16, 16, 16, 256>, TileConfig<8, 8, 32, 32, 256>>(in, out, s, st);
      break;
    case 16:
      dispatch<TileConfig<16, 16, 32, 32, 256>>(in, out, s, st);
      break;
    default:
      throw UnsupportedInputError(
          cat("transpose_cuda: element size ", elem_size, " bytes (supported: 1, 2, 4, 8, 16)"));
  }
}

}  // namespace xpose::kernels
