// CPU-only builds: the CUDA backend is declared and says clearly that it is absent.
#include "engine/src/stage_backend.h"
#include "xpose/error.h"

namespace xpose {

bool cuda_device_available() { return false; }
bool ranks_share_gpus(MPI_Comm) { return false; }
int select_cuda_device(MPI_Comm, bool) { throw NotCompiledError("the CUDA backend"); }
std::int64_t default_gpu_mem(MPI_Comm) { return 0; }
std::unique_ptr<StageBackend> make_cuda_backend(const Plan&, MPI_Comm, const BackendChoice&, int) {
  throw NotCompiledError("the CUDA backend");
}
mpi::ExchangeKind pick_fastest_exchange(MPI_Comm, const std::string&, std::int64_t, std::string* report,
                                        std::vector<std::pair<mpi::ExchangeKind, double>>*) {
  if (report) *report = "exchange auto: mpi (the only transport of this build)";
  return mpi::ExchangeKind::Mpi;
}
double time_gpu_round_trip(MPI_Comm, std::size_t, std::int64_t) { throw NotCompiledError("the CUDA backend"); }

}  // namespace xpose
