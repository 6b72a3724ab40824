/// @file
/// The all-to-all exchange behind one interface, with one dispatch point (make_exchange):
/// host-staged MPI (the library's MPI_Alltoall(v), a pairwise schedule of our own, or the
/// node-aware exchange), MPI on device buffers (CUDA-aware MPI), and NCCL.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/transpose.h"

namespace xpose::mpi {

/// Which transport moves the pieces.
enum class ExchangeKind {
  Auto,       ///< time the available ones collectively at start and keep the fastest
  Mpi,        ///< MPI_Alltoall(v) on host buffers (portable; the path between nodes)
  Pairwise,   ///< host buffers, P-1 rounds, round k pairs rank r with r+k and r-k (flat)
  NodeAware,  ///< host buffers: a node's ranks combine their pieces for each other node in
              ///< shared memory, so each node pair exchanges one message (node_aware_exchange.cpp)
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

/// Whether the kind moves host buffers through MPI (Mpi, Pairwise, NodeAware).
bool is_host_exchange(ExchangeKind kind);

/// Settings of the round-based host exchanges (Pairwise, NodeAware). Production runs leave them
/// at their defaults; the SimGrid build (sim/) sets them.
struct ExchangeOptions {
  /// Run one round group in `round_stride` (1: all). What arrives is then incomplete: this is for
  /// simulations, which scale the rounds' time by rounds_total / rounds_run (ExchangeStats).
  int round_stride = 1;
  /// Pairwise: consecutive rounds per group (ranks per node covers every alignment of a round's
  /// partners with node boundaries). NodeAware groups its node rounds by ranks per node itself.
  int round_group = 1;
  /// Copies between a rank's buffers and node memory (and its piece to itself); std::memcpy when
  /// empty. A simulator substitutes the copy's modelled time.
  std::function<void(void* dst, const void* src, std::size_t bytes)> local_copy;
  /// Called after each phase of local copies, before the node synchronises: where a simulator
  /// charges the phase's modelled time (once, not per piece).
  std::function<void()> local_copies_done;
  /// NodeAware: node memory from the node's first rank's malloc, its address broadcast, instead of
  /// an MPI shared window. Valid only where ranks are threads of one process (SimGrid's SMPI,
  /// whose folded allocations then hold the node buffers of thousands of simulated ranks).
  bool process_shared_memory = false;
  /// NodeAware: ranks per node; 0 takes XPOSE_RANKS_PER_NODE, else the real nodes (node_layout).
  int ranks_per_node = 0;
};

/// What the last alltoallv call of a round-based exchange did (zeros for the others).
struct ExchangeStats {
  double local_seconds = 0;   ///< copies into and out of node memory, node synchronisation
  double rounds_seconds = 0;  ///< the rounds of messages between ranks (or nodes)
  std::int64_t rounds_run = 0, rounds_total = 0;
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
  virtual ExchangeStats last_stats() const { return {}; }

  /// Staging in place, for exchanges that move pieces through memory of their own (NodeAware):
  /// after stage_in_place(layout), the caller writes piece q (q != its rank) straight to
  /// send_slot(q); exchange_in_place() moves them; then rank p's piece is read at recv_slot(p)
  /// until the next stage_in_place. That saves the exchange a copy of every piece each way. A
  /// rank's piece to itself stays with the caller (its counts must be 0). Both calls collective.
  virtual bool can_stage_in_place() const { return false; }
  virtual void stage_in_place(const ExchangeLayout& layout);
  virtual std::byte* send_slot(int q);
  virtual const std::byte* recv_slot(int p);
  virtual void exchange_in_place();
};

/// Sends one element to every peer, so a transport that connects lazily (NCCL, MPI's shared
/// memory and network paths) has its connections up before the timed work starts. `send` and
/// `recv` hold at least `nranks` elements in the exchange's memory space. Collective.
void warm_up(Exchange& exchange, MPI_Comm comm, const void* send, void* recv, kernels::DeviceStream stream);

/// The one dispatch point. `kind` must not be Auto here (the caller resolves Auto by timing).
/// Throws NotCompiledError for transports this build lacks, and UsageError for MpiDevice when
/// the MPI library is not CUDA-aware.
std::unique_ptr<Exchange> make_exchange(ExchangeKind kind, MPI_Comm comm, std::size_t elem_size,
                                        const ExchangeOptions& options = {});

/// Whether the MPI library reports CUDA support (MPIX_Query_cuda_support where available).
bool mpi_is_cuda_aware();

}  // namespace xpose::mpi
