/// @file
/// What turns one stage's input pieces into its output rows: the local transposes and the
/// exchange. The driver (transpose_job.cpp) owns the HDF5 side; a backend owns its buffers
/// (pinned host memory and device memory for CUDA) and its exchange.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/src/planner.h"
#include "engine/src/trace.h"
#include "mpi/exchange.h"

namespace xpose {

/// Seconds per phase: each the maximum over ranks of that rank's total.
struct PhaseTimes {
  double read = 0, h2d = 0, kernel = 0, exchange = 0, unpack = 0, d2h = 0, write = 0, wall = 0;
};

/// The sizes of one stage as seen by one rank.
struct StageGeometry {
  Stage stage;
  int me = 0;
  int nranks = 1;
  std::int64_t nb = 1;          ///< matrices in the stage
  std::int64_t my_rows = 0;     ///< input rows this rank holds
  std::int64_t my_w = 0;        ///< output rows this rank receives in this stage
  std::int64_t sum_w = 0;       ///< columns read: the sum of all widths
  std::int64_t rows_total = 0;  ///< R: the length of an output row
  std::vector<std::int64_t> widths;       ///< w_q for every destination q
  std::vector<std::int64_t> col_prefix;   ///< sum of w_q' for q' < q
  std::vector<std::int64_t> rows_of;      ///< input rows of every rank
  std::vector<std::int64_t> row_offset;   ///< first input row of every rank
  /// Whether the stage's matrices follow each other in the packed input slot ([nb][my_rows][sum_w])
  /// or interleave row by row ([my_rows][nb][sum_w]), and likewise in the output slot ([nb][my_w][R]
  /// or [my_w][nb][R]): the batch axis's place in the axis order (AxisMap::in_batch_outer).
  bool in_batch_outer = true;
  bool out_batch_outer = true;
  bool exchange_free = false;  ///< Plan::exchange_free: only this rank's own piece, no exchange

  /// Elements between input rows / matrices in the packed input slot.
  std::int64_t slot_in_pitch() const { return in_batch_outer ? sum_w : nb * sum_w; }
  std::int64_t slot_in_batch_stride() const { return in_batch_outer ? my_rows * sum_w : sum_w; }
  /// Elements between output rows / matrices in the packed output slot.
  std::int64_t slot_out_pitch() const { return out_batch_outer ? rows_total : nb * rows_total; }
  std::int64_t slot_out_batch_stride() const { return out_batch_outer ? my_w * rows_total : rows_total; }

  static StageGeometry make(const Plan& plan, const Stage& stage, int me);
  /// Per-peer counts in elements: piece q goes to rank q, rank p's piece comes back.
  mpi::ExchangeLayout exchange_layout(MPI_Comm comm) const;
};

/// Where a stage's pieces are read from and its output rows written to, when that is not the
/// backend's own slots: the CPU backend works straight on memory-mapped input and output files.
struct StageViews {
  const std::byte* in = nullptr;          ///< element (first matrix, this rank's first input row, column 0)
  std::int64_t in_pitch = 0;              ///< elements between input rows
  std::int64_t in_batch_stride = 0;       ///< elements between matrices
  std::vector<std::int64_t> in_col;       ///< first column of piece q, relative to `in`
  std::byte* out = nullptr;               ///< element (first matrix, first output row of the stage, 0)
  std::int64_t out_pitch = 0;
  std::int64_t out_batch_stride = 0;
  /// Work through the input in bands of this many rows and call release_input(first, rows) after
  /// each, so a mapped input never has more than about one band resident (0: one band).
  std::int64_t band_rows = 0;
  std::function<void(std::int64_t first_row, std::int64_t rows)> release_input;
};

/// Which backend and transport, and how many stage-sized buffers each needs.
struct BackendChoice {
  std::string backend = "cpu";                       ///< "cpu" or "cuda"
  mpi::ExchangeKind exchange = mpi::ExchangeKind::Mpi;
  /// With the Mpi transport: its algorithm (Auto: the planner's choice; see Plan::host_exchange).
  HostExchange host_exchange = HostExchange::Auto;
  int ranks_per_node = 1;
  bool exchange_free = false;                        ///< Plan::exchange_free
  int host_buffers = 4;
  int device_buffers = 0;
};

/// The host exchange a plan chose, as the exchange to make.
inline mpi::ExchangeKind host_exchange_kind(const Plan& plan) {
  switch (plan.host_exchange) {
    case HostExchange::Pairwise: return mpi::ExchangeKind::Pairwise;
    case HostExchange::NodeAware: return mpi::ExchangeKind::NodeAware;
    default: return mpi::ExchangeKind::Mpi;
  }
}

class StageBackend {
 public:
  virtual ~StageBackend() = default;
  virtual std::string name() const = 0;
  virtual std::string exchange_name() const = 0;
  /// Host slot i (0 or 1) receives the read: [nb][my_rows][sum_w], pieces side by side.
  virtual std::byte* input_slot(int i) = 0;
  /// Host slot i holds the result to write: [nb][my_w][R].
  virtual std::byte* output_slot(int i) = 0;
  /// input_slot(slot) -> output_slot(slot), or views->in -> views->out where the backend
  /// supports views. Collective (the exchange).
  virtual void transform(const StageGeometry& g, int slot, const StageViews* views, PhaseTimes& times,
                         Trace& trace) = 0;
};

/// Host buffers only: the cache-blocked CPU kernel and the host MPI exchange. With `use_views`
/// the stages work on StageViews and the backend keeps no input/output slots.
std::unique_ptr<StageBackend> make_cpu_backend(const Plan& plan, MPI_Comm comm, int threads, bool use_views);

/// The default --gpu-mem: 60% of the free memory of this rank's GPU, shared by the ranks that
/// use the same GPU.
std::int64_t default_gpu_mem(MPI_Comm comm);
/// Whether some node has more ranks than GPUs (collective): then NCCL cannot be used.
bool ranks_share_gpus(MPI_Comm comm);
/// Whether this build has CUDA and this process sees a GPU.
bool cuda_device_available();
/// Selects this rank's GPU from its node-local rank (before anything is allocated); warns once
/// per node when ranks outnumber GPUs. Returns the device index.
int select_cuda_device(MPI_Comm comm, bool quiet);
/// GPU stage buffers, H2D/kernel/D2H on CUDA streams, and the chosen exchange.
std::unique_ptr<StageBackend> make_cuda_backend(const Plan& plan, MPI_Comm comm, const BackendChoice& choice,
                                                int threads);
/// Times the exchanges available to `choice` on `bytes` per rank collectively and returns the
/// fastest (by the MAX over ranks, so every rank agrees). `times`, if given, gets each
/// candidate's median seconds.
mpi::ExchangeKind pick_fastest_exchange(MPI_Comm comm, const std::string& backend, std::int64_t bytes,
                                        std::string* report,
                                        std::vector<std::pair<mpi::ExchangeKind, double>>* times = nullptr);
/// Seconds for `bytes` of `elem_size`-byte elements to go from pinned host memory to this rank's
/// GPU, be transposed there and come back (median of three), the maximum over ranks; the GPU
/// side of backend_model.h's calibration. Collective.
double time_gpu_round_trip(MPI_Comm comm, std::size_t elem_size, std::int64_t bytes);

}  // namespace xpose
