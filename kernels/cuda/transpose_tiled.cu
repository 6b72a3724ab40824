// Out-of-place CUDA transpose: per element size, the tiled kernel (tiled.cuh) with the tile shape
// measured fastest, where pointers and pitches allow its words and every output row starts on a
// 32-byte sector; otherwise the skewed kernel (skew.cuh), which takes any layout aligned to the
// element size and writes no partial sectors. Launched on the caller's stream. The shapes and
// their measured speeds are in kernels/NOTES.md.
#include <cstdint>

#include "kernels/cuda/skew.cuh"
#include "kernels/cuda/tiled.cuh"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels {

namespace {

using cuda_tile::SkewConfig;
using cuda_tile::TileConfig;

// Output rows that start inside a 32-byte sector make the tiled kernel write partial sectors at
// both ends of every piece (measured 0.84 x memcpy for f32 rows 16 bytes off, 0.83 for c128 at
// 16411², against 0.90 and 0.91 for the skewed kernel there).
bool output_rows_sector_aligned(const void* out, const TransposeShape& s, std::size_t elem_size) {
  constexpr std::int64_t kSector = 32;
  const auto es = static_cast<std::int64_t>(elem_size);
  return reinterpret_cast<std::uintptr_t>(out) % kSector == 0 &&
         (s.out_pitch * es) % kSector == 0 &&
         (s.batch <= 1 || (s.out_batch_stride * es) % kSector == 0);
}

template <class C>
struct Tiled {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return output_rows_sector_aligned(out, s, C::S) && cuda_tile::tiled_accepts<C>(in, out, s);
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    cuda_tile::launch_tiled<C>(in, out, s, st);
  }
};

template <class C>
struct Skewed {
  static bool accepts(const void* in, const void* out, const TransposeShape& s) {
    return cuda_tile::skew_accepts<C>(in, out, s);
  }
  static void launch(const void* in, void* out, const TransposeShape& s, cudaStream_t st) {
    cuda_tile::launch_skew<C>(in, out, s, st);
  }
};

// The first kernel that accepts the layout runs.
template <class K, class... Rest>
void dispatch(const void* in, void* out, std::size_t elem_size, const TransposeShape& s,
              cudaStream_t stream) {
  if (K::accepts(in, out, s)) {
    K::launch(in, out, s, stream);
  } else if constexpr (sizeof...(Rest) > 0) {
    dispatch<Rest...>(in, out, elem_size, s, stream);
  } else {
    throw DimensionMismatch(cat("transpose_cuda: buffers must be aligned to the element size (",
                                elem_size, " bytes); got ", in, " and ", out));
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
    case 1:
      dispatch<Tiled<TileConfig<1, 16, 8, 8, 64>>, Skewed<SkewConfig<1, 16, 128, 64, 256, 32>>>(
          in, out, elem_size, s, st);
      break;
    case 2:
      dispatch<Tiled<TileConfig<2, 16, 8, 8, 64>>, Skewed<SkewConfig<2, 16, 64, 64, 256, 32>>>(
          in, out, elem_size, s, st);
      break;
    case 4:
      dispatch<Tiled<TileConfig<4, 8, 32, 32, 256>>, Skewed<SkewConfig<4, 16, 64, 64, 256, 32, 4>>>(
          in, out, elem_size, s, st);
      break;
    case 8:
      dispatch<Tiled<TileConfig<8, 8, 32, 64, 256, 3>>, Skewed<SkewConfig<8, 16, 64, 64, 256, 32>>>(
          in, out, elem_size, s, st);
      break;
    case 16:
      dispatch<Tiled<TileConfig<16, 16, 16, 16, 256>>,
               Skewed<SkewConfig<16, 16, 32, 32, 256, 32, 3>>>(in, out, elem_size, s, st);
      break;
    default:
      throw UnsupportedInputError(
          cat("transpose_cuda: element size ", elem_size, " bytes (supported: 1, 2, 4, 8, 16)"));
  }
}

}  // namespace xpose::kernels
