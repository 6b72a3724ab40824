// CPU-only builds: the CUDA kernels exist as declarations and say clearly that they are absent.
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels {

void transpose_cuda(const void*, void*, std::size_t, const TransposeShape&, DeviceStream) {
  throw NotCompiledError("the CUDA transpose kernel");
}

void transpose_inplace_cuda(void*, std::size_t, std::int64_t, std::int64_t, DeviceStream) {
  throw NotCompiledError("the CUDA in-place transpose kernel");
}

}  // namespace xpose::kernels
