/// @file
/// The planner: how the matrix is split over ranks (FFTW-MPI blocks) and, within each rank's
/// memory budget, into stages. Pure arithmetic, no MPI or HDF5, so it is unit-tested directly.
///
/// Stage k reads, from each rank's input rows, one column piece of width w for every
/// destination rank q (columns out_rows.offset(q) + col_offset ...), transposes each piece,
/// exchanges them, and each rank then holds w complete output rows. When a whole column block
/// fits (w = the block), a stage takes several matrices of the innermost batch axis at once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/src/axes.h"
#include "xpose/distribution.h"
#include "xpose/types.h"

namespace xpose {

/// The algorithm of the host MPI exchange (mpi::ExchangeKind Mpi, Pairwise, NodeAware).
enum class HostExchange {
  Auto,       ///< the planner decides between Alltoall and NodeAware with the ExchangeModel
  Alltoall,   ///< flat: the MPI library's MPI_Alltoall(v), P-1 messages per rank
  Pairwise,   ///< flat: xpose's own pairwise rounds
  NodeAware,  ///< one message per pair of nodes, combined in node memory
};
const char* host_exchange_name(HostExchange exchange);

/// Seconds of one stage's exchange on one rank: a cost per message it sends, plus the bytes it
/// sends off its node over its share of the node's bandwidth; the node-aware exchange adds two
/// copies through node memory where the caller does not stage its pieces there in place. Fitted to simulated clusters by sim/sweep.py (docs/scaling.md),
/// and replaced by a cluster's own numbers through XPOSE_EXCHANGE_MODEL.
struct ExchangeModel {
  double flat_latency = 0;         ///< s per message of the flat exchange (P-1 per rank)
  double flat_node_bandwidth = 0;  ///< B/s off one node, flat
  double node_latency = 0;         ///< s per node message of the node-aware exchange (ceil((N-1)/L) per rank)
  double node_node_bandwidth = 0;  ///< B/s off one node, node-aware
  double node_fixed = 0;           ///< s per stage of the node-aware exchange's synchronisation
  double copy_bandwidth = 0;       ///< B/s of one rank's copies into and out of node memory
  std::string source;              ///< where the numbers come from
};
ExchangeModel default_exchange_model();
/// "flat_latency=2e-6,node_bandwidth=9e9,..." (keys: flat_latency, flat_bandwidth, node_latency,
/// node_bandwidth, node_fixed, copy_bandwidth); keys left out keep `base`'s values. UsageError
/// when malformed.
ExchangeModel parse_exchange_model(const std::string& text, const ExchangeModel& base);

/// The model's estimate for one stage whose pieces (one per destination rank) are `piece_bytes`.
struct ExchangeEstimate {
  double seconds = 0;
  std::int64_t messages = 0;       ///< messages each rank sends
  std::int64_t message_bytes = 0;  ///< bytes of each
  double latency_share = 0;        ///< the part of `seconds` spent on per-message costs
};
ExchangeEstimate estimate_stage_exchange(const ExchangeModel& model, HostExchange exchange, int nranks,
                                         int ranks_per_node, std::int64_t piece_bytes, bool in_place = true);

struct PlanRequest {
  Shape shape;                      ///< input shape, rank >= 2, HDF5 order
  std::size_t elem_size = 0;        ///< bytes of a dataset element
  Permutation perm;                 ///< the axis order (axes.h); empty: the last two axes swapped
  std::vector<std::string> dim_names;  ///< dimension names for messages ("" where none)
  int nranks = 1;
  std::int64_t host_mem = 0;        ///< per-rank bytes for host stage buffers
  int host_buffers = 4;             ///< stage-sized host buffers alive at once
  std::int64_t device_mem = 0;      ///< per-rank bytes for device stage buffers
  int device_buffers = 0;           ///< stage-sized device buffers (0: no device)
  std::int64_t max_count = 2147483647;  ///< elements per peer message (MPI int counts)
  std::int64_t max_width = 0;       ///< optional cap on the stage width (0: none); for tests/tuning
  bool exchange_free = false;       ///< Plan::exchange_free
  /// Cap on one stage buffer. Past a few hundred MiB a bigger stage buys no I/O efficiency, but
  /// costs first-touch page faults, page pinning (CUDA) and a longer pipeline fill and drain.
  std::int64_t max_buffer_bytes = 512ll << 20;
  /// The host exchange: forced, or Auto to let the model choose (callers whose transport is not
  /// host MPI force Alltoall).
  HostExchange host_exchange = HostExchange::Alltoall;
  /// Whether the backend packs and unpacks NodeAware's pieces in node memory (the CPU backend):
  /// then node memory takes the place of the send and receive buffers; otherwise it is two more
  /// stage-sized buffers per rank and two more copies.
  bool node_aware_in_place = true;
  int ranks_per_node = 1;  ///< the most ranks on one node (MPI_COMM_TYPE_SHARED or XPOSE_RANKS_PER_NODE)
  ExchangeModel exchange_model = default_exchange_model();
};

/// One stage: which matrices and which column offset inside every destination's block.
struct Stage {
  std::int64_t index = 0;
  std::int64_t outer = 0;         ///< flattened index over all batch axes but the innermost
  std::int64_t inner_begin = 0;   ///< first matrix of the innermost batch axis
  std::int64_t inner_count = 1;   ///< matrices in this stage (nb)
  std::int64_t col_offset = 0;    ///< offset inside each destination's column block
};

struct Plan {
  Shape shape;             ///< input shape
  Shape out_shape;         ///< output shape: the input's axes in the order of `axes`
  AxisMap axes;            ///< how the permutation maps onto the engine's [outer..., batch, R, C]
  Shape engine;            ///< the engine's view: axes.engine_shape()
  std::vector<std::string> dim_names;
  bool explicit_axes = false;             ///< an axis order was given (else the last two swapped)
  std::size_t dataset_elem_size = 0;      ///< bytes of a dataset element
  std::size_t elem_size = 0;              ///< bytes of an engine element (wide: a whole axis group)
  int nranks = 1;
  std::int64_t rows = 0, cols = 0;        ///< R, C of each matrix
  std::int64_t batch_outer = 1;           ///< product of the outer batch axes
  std::int64_t batch_inner = 1;           ///< extent of the stage's batch axis (1 without one)
  BlockDistribution in_rows;              ///< R over ranks: input rows each rank reads
  /// Every rank reads all R input rows of its own output band's columns and writes the band: no
  /// exchange. For files that every rank reads alike (ranks of one node share the page cache), the
  /// same bytes are read in runs of the same length, and the exchange's copies go away.
  bool exchange_free = false;
  BlockDistribution out_rows;             ///< C over ranks: output rows each rank writes
  std::int64_t width = 0;                 ///< w: columns per destination per stage
  std::int64_t inner_per_stage = 1;       ///< nb: matrices per stage
  std::int64_t col_stages = 1;            ///< stages per matrix group
  std::int64_t inner_stages = 1;          ///< groups along the innermost batch axis
  std::int64_t buffer_elems = 0;          ///< elements of one stage buffer (the largest use)
  int host_buffers = 4;
  int device_buffers = 0;
  HostExchange host_exchange = HostExchange::Alltoall;  ///< never Auto in a plan
  int ranks_per_node = 1;
  int nodes = 1;
  std::string exchange_reason;            ///< why this exchange and this width (for `xpose plan`)

  std::int64_t num_stages() const { return batch_outer * inner_stages * col_stages; }
  /// Input rows rank p reads, and the first of them.
  std::int64_t rows_read(int p) const { return exchange_free ? rows : in_rows.count(p); }
  std::int64_t first_row_read(int p) const { return exchange_free ? 0 : in_rows.offset(p); }
  Stage stage(std::int64_t k) const;
  /// Columns of destination q's block handled in stage s (0 once its block is done).
  std::int64_t width_of(int q, const Stage& s) const;
  /// Sum over q of width_of(q, s).
  std::int64_t total_width(const Stage& s) const;
  std::int64_t buffer_bytes() const { return buffer_elems * static_cast<std::int64_t>(elem_size); }
  /// Bytes of all host / device stage buffers of one rank.
  std::int64_t memory_per_rank() const { return buffer_bytes() * host_buffers; }
  std::int64_t device_memory_per_rank() const { return buffer_bytes() * device_buffers; }
  std::int64_t total_bytes() const;
  /// Bytes this rank sends to other ranks over the whole run (its own piece excluded).
  std::int64_t exchanged_bytes(int rank) const;
  /// Bytes of the largest piece one rank sends one destination in a stage.
  std::int64_t piece_bytes() const;
  /// Multi-line human description (for `xpose plan` / `xpose info`).
  std::string describe() const;
};

/// Makes the plan, or throws ResourceError naming the smallest budget that works.
Plan make_plan(const PlanRequest& request);

}  // namespace xpose
