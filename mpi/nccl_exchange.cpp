// The NCCL exchange: ncclSend/ncclRecv to every peer inside one group, on device buffers and
// the caller's stream. Counts are bytes in size_t, so no int limit applies. Built with NCCL only.
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>

#include "mpi/comm.h"
#include "mpi/exchange.h"

namespace xpose::mpi {

namespace {

void check_nccl(ncclResult_t rc, const char* call) {
  if (rc != ncclSuccess) throw RuntimeFailure(cat("NCCL call ", call, " failed: ", ncclGetErrorString(rc)));
}

class NcclExchange final : public Exchange {
 public:
  NcclExchange(MPI_Comm comm, std::size_t elem_size) : elem_(elem_size) {
    const int me = rank(comm), n = size(comm);
    ncclUniqueId id;
    if (me == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    XPOSE_CHECK_MPI(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm));
    check_nccl(ncclCommInitRank(&comm_, n, id, me), "ncclCommInitRank");
    n_ = n;
  }
  ~NcclExchange() override {
    if (comm_ && ncclCommDestroy(comm_) != ncclSuccess) std::fprintf(stderr, "xpose: warning: ncclCommDestroy failed\n");
  }
  ExchangeKind kind() const override { return ExchangeKind::Nccl; }
  bool on_device() const override { return true; }

  void alltoallv(const void* send, void* recv, const ExchangeLayout& layout, kernels::DeviceStream stream) override {
    auto* s = static_cast<const char*>(send);
    auto* r = static_cast<char*>(recv);
    check_nccl(ncclGroupStart(), "ncclGroupStart");
    for (int q = 0; q < n_; ++q) {
      if (layout.send_counts[q] > 0)
        check_nccl(ncclSend(s + layout.send_displs[q] * elem_, static_cast<std::size_t>(layout.send_counts[q]) * elem_,
                            ncclUint8, q, comm_, stream),
                   "ncclSend");
      if (layout.recv_counts[q] > 0)
        check_nccl(ncclRecv(r + layout.recv_displs[q] * elem_, static_cast<std::size_t>(layout.recv_counts[q]) * elem_,
                            ncclUint8, q, comm_, stream),
                   "ncclRecv");
    }
    check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  }

 private:
  std::size_t elem_;
  int n_ = 1;
  ncclComm_t comm_ = nullptr;
};

}  // namespace

std::unique_ptr<Exchange> make_nccl_exchange(MPI_Comm comm, std::size_t elem_size) {
  return std::make_unique<NcclExchange>(comm, elem_size);
}

}  // namespace xpose::mpi
