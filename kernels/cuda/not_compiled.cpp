// CPU-only builds: the CUDA kernels exist as declarations and say clearly that they are absent.
// (The kernel choice, kernels/choice.cpp, is plain C++ and works in every build.)
#include "kernels/choice.h"
#include "kernels/cuda/by_name.h"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels {

void transpose_cuda(const void*, void*, std::size_t, const TransposeShape&, DeviceStream) {
  throw NotCompiledError("the CUDA transpose kernel");
}

void transpose_inplace_cuda(void*, std::size_t, std::int64_t, std::int64_t, DeviceStream) {
  throw NotCompiledError("the CUDA in-place transpose kernel");
}

DeviceProfile current_device_profile() {
  throw NotCompiledError("the CUDA device query");
}

namespace by_name {

std::vector<std::string> out_of_place(std::size_t) {
  return {};
}

std::vector<std::string> in_place(std::size_t) {
  return {};
}

bool run_out_of_place(const std::string&, const void*, void*, std::size_t, const TransposeShape&,
                      DeviceStream, const TileOrder*) {
  throw NotCompiledError("the CUDA transpose kernels");
}

bool run_in_place(const std::string&, void*, std::size_t, std::int64_t, std::int64_t,
                  DeviceStream) {
  throw NotCompiledError("the CUDA in-place transpose kernels");
}

}  // namespace by_name

}  // namespace xpose::kernels
