/// @file
/// Inside DistributedTranspose: the geometry of one rank, where every exchanged piece sits, and
/// the engines that run a schedule on host (distributed_transpose_host.cpp) or device memory
/// (distributed_transpose_cuda.cpp; a stub in CPU-only builds).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mpi/exchange.h"
#include "xpose/distributed_transpose.h"
#include "xpose/distribution.h"

namespace xpose::dtx {

/// Sizes seen by one rank. Input rows of rank p: [r(p), r(p) + n(p)); output rows of rank q:
/// [c(q), c(q) + m(q)).
struct Geometry {
  int me = 0;
  int nranks = 1;
  std::int64_t rows = 0;  ///< R
  std::int64_t cols = 0;  ///< C
  std::int64_t batch = 1;
  std::size_t elem = 1;
  BlockDistribution in_rows;   ///< R over the ranks
  BlockDistribution out_rows;  ///< C over the ranks

  Geometry() = default;
  Geometry(int me_, int nranks_, std::int64_t rows_, std::int64_t cols_, std::int64_t batch_,
           std::size_t elem_)
      : me(me_),
        nranks(nranks_),
        rows(rows_),
        cols(cols_),
        batch(batch_),
        elem(elem_),
        in_rows(rows_, nranks_),
        out_rows(cols_, nranks_) {}

  std::int64_t n(int p) const { return in_rows.count(p); }
  std::int64_t r(int p) const { return in_rows.offset(p); }
  std::int64_t m(int q) const { return out_rows.count(q); }
  std::int64_t c(int q) const { return out_rows.offset(q); }
  std::int64_t input_elements() const { return batch * n(me) * cols; }
  std::int64_t output_elements() const { return batch * m(me) * rows; }
};

/// One exchanged piece: output rows [first, first + rows) of the receiver's block, coming from
/// the sender's input rows. Stored contiguously as batch x rows x n(sender), so the sender's
/// pack is a transpose and the receiver's unpack a 2-D copy of long rows.
struct Piece {
  int peer = 0;            ///< destination (in sends) or source (in receives)
  int step = 0;            ///< 1 .. P-1: peer = me + step (send) or me - step (receive), mod P
  std::int64_t index = 0;  ///< position within the peer's block
  std::int64_t first = 0;  ///< first output row within the receiver's block
  std::int64_t rows = 0;
  std::int64_t offset = 0;  ///< elements from the start of the send or receive region
  std::int64_t count = 0;   ///< elements
};

/// Where every piece of one rank sits in its workspace, for a piece height (in output rows) and a
/// placement. The workspace is the send region, then (aligned) the receive region.
struct PieceLayout {
  std::int64_t piece_rows = 1;
  bool inplace = false;
  std::vector<Piece> sends;     ///< ordered by (step, index): the order every schedule uses
  std::vector<Piece> receives;  ///< ordered by (step, index)
  /// In-place only: this rank's own block, packed with the rest before the buffer is overwritten
  /// (rows == 0 when there is none).
  Piece self;
  std::int64_t send_elements = 0;
  std::int64_t receive_elements = 0;

  static PieceLayout make(const Geometry& g, std::int64_t piece_rows, bool inplace);
  /// Byte offset of the receive region in the workspace.
  std::size_t receive_region_offset(std::size_t elem) const;
  /// Bytes of workspace this layout needs.
  std::size_t workspace_bytes(std::size_t elem) const;
  /// Whole blocks for one all-to-all (pieces must be one per peer); self is never exchanged.
  mpi::ExchangeLayout bulk_exchange(int nranks) const;
  /// The sends and receives of one step that share `index`, as an exchange layout with one
  /// peer each way (either may be absent).
  mpi::ExchangeLayout step_exchange(int nranks, const Piece* send, const Piece* receive) const;
  /// For each step s (0 .. P-1; step 0 is always empty): the [begin, end) indices of its pieces
  /// in `sends` and in `receives`.
  std::vector<std::pair<std::size_t, std::size_t>> send_steps, receive_steps;
};

/// What an engine needs: the geometry, the choice, and the shared resources of the plan.
struct EngineConfig {
  Geometry geometry;
  Transport transport = Transport::Mpi;
  Schedule schedule = Schedule::Bulk;
  std::int64_t piece_rows = 1;
  MPI_Comm comm = MPI_COMM_NULL;      ///< the plan's own (duplicated) communicator
  mpi::Exchange* exchange = nullptr;  ///< for bulk all-to-alls and NCCL steps; null on one rank
  int threads = 0;
};

/// Runs one (transport, schedule, piece height). Collective.
class Engine {
 public:
  virtual ~Engine() = default;
  /// `in` == `out` for in-place. `workspace` holds layout(inplace).workspace_bytes().
  virtual void run(const void* in, void* out, bool inplace, std::byte* workspace,
                   CUstream_st* stream) = 0;
  /// Waits until the work of the last run is complete (device engines); for timing.
  virtual void synchronize() {}
  /// Drops what the engine keeps about earlier runs' buffers (the peer engine's CUDA IPC
  /// mappings), so the caller may free them. Collective.
  virtual void forget_buffers() {}
};

std::unique_ptr<Engine> make_host_engine(const EngineConfig& config);
/// Throws NotCompiledError in builds without CUDA.
std::unique_ptr<Engine> make_device_engine(const EngineConfig& config);
/// Transport::Peer (distributed_transpose_peer.cpp): push through CUDA IPC. Throws
/// NotCompiledError in builds without CUDA.
std::unique_ptr<Engine> make_peer_engine(const EngineConfig& config);

// ---- device helpers (CUDA builds; the stub throws NotCompiledError or answers "no") ----------
namespace device {
bool compiled();
/// cudaMalloc; throws ResourceError with the size when it fails.
std::byte* allocate(std::int64_t bytes);
void free(std::byte* p) noexcept;
/// cudaMemset and a device-wide synchronisation (scratch buffers for timing).
void fill(std::byte* p, int value, std::int64_t bytes);
/// Whether `p` is device (or managed) memory that kernels of the current device can use.
bool is_device_pointer(const void* p);
/// UUID of the current device, 16 bytes.
std::string current_device_uuid();
/// Why Transport::Peer cannot be used on `comm` ("" when it can), the same answer on every rank
/// (collective). `uuids` holds every rank's current_device_uuid(), in rank order.
std::string peer_unavailable_reason(MPI_Comm comm, const std::vector<std::string>& uuids);
}  // namespace device

/// Frees memory of one space (a namespace-scope type: a nested one with a default member
/// initialiser is not default-constructible inside its still incomplete class).
struct FreeMemory {
  MemorySpace space = MemorySpace::Host;
  void operator()(std::byte* p) const noexcept;
};

/// Memory of one space that frees itself.
class Allocation {
 public:
  Allocation() = default;
  Allocation(MemorySpace space, std::int64_t bytes);
  std::byte* data() const { return ptr_.get(); }
  std::int64_t bytes() const { return bytes_; }

 private:
  std::unique_ptr<std::byte, FreeMemory> ptr_;
  std::int64_t bytes_ = 0;
};

/// Runs `work` on every rank and agrees on failure like mpi::collectively, but rethrows the
/// typed error (UsageError, ResourceError, ...) that matches the exit code.
void agree(MPI_Comm comm, const std::function<void()>& work);

}  // namespace xpose::dtx
