// CPU-only builds: DistributedTranspose on device memory says clearly that it is absent.
#include "engine/src/distributed_transpose_impl.h"
#include "xpose/error.h"

namespace xpose::dtx {

std::unique_ptr<Engine> make_device_engine(const EngineConfig&) {
  throw NotCompiledError("DistributedTranspose on device memory (CUDA)");
}

std::unique_ptr<Engine> make_peer_engine(const EngineConfig&) {
  throw NotCompiledError("DistributedTranspose on device memory (CUDA)");
}

namespace device {
bool compiled() {
  return false;
}
std::byte* allocate(std::int64_t) {
  throw NotCompiledError("device memory (CUDA)");
}
void free(std::byte*) noexcept {}
void fill(std::byte*, int, std::int64_t) {
  throw NotCompiledError("device memory (CUDA)");
}
bool is_device_pointer(const void*) {
  return false;
}
std::string current_device_uuid() {
  throw NotCompiledError("device memory (CUDA)");
}
std::string peer_unavailable_reason(MPI_Comm, const std::vector<std::string>&) {
  throw NotCompiledError("device memory (CUDA)");
}
}  // namespace device

}  // namespace xpose::dtx
