/// @file
/// The all-to-all exchange behind one interface, with one dispatch point (make_exchange):
/// host-staged MPI, MPI on device buffers (CUDA-aware MPI), and NCCL.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/transpose.h"

namespace xpose::mpi {

/// Which transport moves the pieces.
enum class ExchangeKind {
  Auto,       ///< time the available ones collectively at start and keep the fastest
  Mpi,        ///< MPI_Alltoall(v) on host buffers (portable; the path between nodes)
  MpiDevice,  ///< MPI_Alltoall(v) on device buffers (needs a CUDA-aware MPI)
  Nccl,       ///< ncclSend/ncclRecv in a group on device buffers
};
const char* exchange_kind_name(ExchangeKind kind);
ExchangeKind parse_exchange_kind(const std::string& name);

/// Per-peer counts and displacements, in elements.
struct ExchangeLayout {
  std::vector<std::int64_t> send_counts, send_displs;
  std::vector<std::int64_t> recv_counts, recv_displs;
  /// True when every count on every rank is the same and displacements are dense, so
  /// MPI_Alltoall can be used. Computed by finalize() (collective).
  bool uniform = false;

  /// Fills displacements from counts (dense, in rank order) when they are empty, and decides
  /// `uniform` by agreement over `comm`. Collective.
  void finalize(MPI_Comm comm);
  std::int64_t total_send() const;
  std::int64_t total_recv() const;
};

/// An exchange between all ranks of a communicator.
class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual ExchangeKind kind() const = 0;
  /// Whether send/recv buffers must be device memory.
  virtual bool on_device() const = 0;
  /// Delivers send[send_displs[q] ...] to rank q's recv[recv_displs[me] ...]. Device exchanges
  /// are ordered on `stream`; the host exchange is synchronous and ignores it.
  virtual void alltoallv(const void* send, void* recv, const ExchangeLayout& layout,
                         kernels::DeviceStream stream) = 0;
};

/// Sends one element to every peer, so a transport that connects lazily (NCCL, MPI's shared
/// memory and network paths) has its connections up before the timed work starts. `send` and
/// `recv` hold at least `nranks` elements in the exchange's memory space. Collective.
void warm_up(Exchange& exchange, MPI_Comm comm, const void* send, void* recv, kernels::DeviceStream stream);

/// The one dispatch point. `kind` must not be Auto here (the caller resolves Auto by timing).
/// Throws NotCompiledError for transports this build lacks, and UsageError for MpiDevice when
/// the MPI library is not CUDA-aware.
std::unique_ptr<Exchange> make_exchange(ExchangeKind kind, MPI_Comm comm, std::size_t elem_size);

/// Whether the MPI library reports CUDA support (MPIX_Query_cuda_support where available).
bool mpi_is_cuda_aware();

}  // namespace xpose::mpi
