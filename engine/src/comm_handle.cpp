#include "xpose/comm_handle.h"

#include <mpi.h>

#include "mpi/check.h"
#include "mpi/comm.h"

namespace xpose {

CommHandle CommHandle::world() {
  return CommHandle(MPI_COMM_WORLD);
}

int CommHandle::rank() const {
  int r = 0;
  XPOSE_CHECK_MPI(MPI_Comm_rank(get<MPI_Comm>(), &r));
  return r;
}

int CommHandle::size() const {
  int n = 0;
  XPOSE_CHECK_MPI(MPI_Comm_size(get<MPI_Comm>(), &n));
  return n;
}

void collectively(CommHandle comm, const std::function<void()>& work) {
  mpi::collectively(comm.get<MPI_Comm>(), work);
}

namespace mpi_runtime {

bool initialize() {
  int initialized = 0;
  XPOSE_CHECK_MPI(MPI_Initialized(&initialized));
  if (initialized) return false;
  int provided = 0;
  XPOSE_CHECK_MPI(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided));
  return true;
}

bool active() {
  int initialized = 0, finalized = 0;
  XPOSE_CHECK_MPI(MPI_Initialized(&initialized));
  XPOSE_CHECK_MPI(MPI_Finalized(&finalized));
  return initialized && !finalized;
}

void finalize() {
  if (active()) XPOSE_CHECK_MPI(MPI_Finalize());
}

std::string library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  XPOSE_CHECK_MPI(MPI_Get_library_version(text, &length));
  return std::string(text, static_cast<std::size_t>(length));
}

}  // namespace mpi_runtime
}  // namespace xpose
