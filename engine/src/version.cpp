#include "xpose/version.h"

#include "xpose/config.h"

namespace xpose {

const char* version() noexcept {
  return XPOSE_VERSION;
}
bool built_with_cuda() noexcept {
  return XPOSE_HAVE_CUDA != 0;
}
bool built_with_nccl() noexcept {
  return XPOSE_HAVE_NCCL != 0;
}

}  // namespace xpose
