// In-place square CUDA transpose: the triangular staggered kernel (inplace.cuh). Per element size,
// the widest square tile whose words the buffer and n allow, down to one element per access.
// (inplace_words_kernel, which keeps 16-byte words for any n, measured slower: kernels/NOTES.md.)
#include <cstdint>

#include "kernels/cuda/inplace.cuh"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels {

namespace {

using cuda_tile::PairOrder;
using cuda_tile::TileConfig;

// Tile pairs through register-transposed word blocks: n a whole number of words.
template <class C>
struct Tiled {
  static bool accepts(void* buf, std::int64_t n) { return cuda_tile::inplace_accepts<C>(buf, n); }
  static void launch(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t st) {
    cuda_tile::launch_inplace<C, PairOrder::Staggered>(buf, n, batch, st);
  }
};

template <class K, class... Rest>
void dispatch(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream) {
  if constexpr (sizeof...(Rest) == 0) {
    K::launch(buf, n, batch, stream);
  } else {
    if (K::accepts(buf, n))
      K::launch(buf, n, batch, stream);
    else
      dispatch<Rest...>(buf, n, batch, stream);
  }
}

}  // namespace

void transpose_inplace_cuda(void* buf, std::size_t elem_size, std::int64_t n, std::int64_t batch,
                            DeviceStream stream) {
  if (n < 0 || batch < 0)
    throw DimensionMismatch(
        cat("transpose_inplace_cuda: negative extent (n=", n, ", batch=", batch, ")"));
  if (n <= 1 || batch == 0) return;  // a 1 x 1 matrix is its own transpose
  if (buf == nullptr) throw DimensionMismatch("transpose_inplace_cuda: null buffer");
  const bool supported =
      elem_size == 1 || elem_size == 2 || elem_size == 4 || elem_size == 8 || elem_size == 16;
  if (supported && reinterpret_cast<std::uintptr_t>(buf) % elem_size != 0)
    throw DimensionMismatch(cat("transpose_inplace_cuda: buffer ", buf,
                                " is not aligned to the element size (", elem_size, " bytes)"));
  auto* st = static_cast<cudaStream_t>(stream);
  switch (elem_size) {
    case 1:
      dispatch<Tiled<TileConfig<1, 16, 8, 8, 64>>, Tiled<TileConfig<1, 4, 32, 32, 256>>,
               Tiled<TileConfig<1, 1, 32, 32, 256>>>(buf, n, batch, st);
      break;
    case 2:
      dispatch<Tiled<TileConfig<2, 16, 8, 8, 64>>, Tiled<TileConfig<2, 4, 32, 32, 256>>,
               Tiled<TileConfig<2, 2, 32, 32, 256>>>(buf, n, batch, st);
      break;
    case 4:
      dispatch<Tiled<TileConfig<4, 16, 16, 16, 256>>, Tiled<TileConfig<4, 8, 32, 32, 256>>,
               Tiled<TileConfig<4, 4, 64, 64, 256>>>(buf, n, batch, st);
      break;
    case 8:
      dispatch<Tiled<TileConfig<8, 16, 16, 16, 256>>, Tiled<TileConfig<8, 8, 32, 32, 256>>>(
          buf, n, batch, st);
      break;
    case 16:
      dispatch<Tiled<TileConfig<16, 16, 32, 32, 256>>>(buf, n, batch, st);
      break;
    default:
      throw UnsupportedInputError(cat("transpose_inplace_cuda: element size ", elem_size,
                                      " bytes (supported: 1, 2, 4, 8, 16)"));
  }
}

}  // namespace xpose::kernels
