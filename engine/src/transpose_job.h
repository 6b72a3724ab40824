/// @file
/// `xpose transpose`: the stage loop of DESIGN.md driving the HDF5 reads and writes, the local
/// transposes and the exchange.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/src/planner.h"
#include "io/h5.h"
#include "engine/src/stage_backend.h"
#include "mpi/exchange.h"

namespace xpose {

/// The options of a transpose. Each one's default is applied in one place: here for plain
/// values, host_mem_budget(), gpu_mem_budget() and thread_count() for those the machine decides.
struct TransposeOptions {
  io::DatasetRef in;
  io::DatasetRef out;
  std::int64_t host_mem = 0;        ///< per-rank host stage buffer budget; 0 = default_host_mem()
  std::int64_t gpu_mem = 0;         ///< per-rank GPU stage buffer budget; 0 = default_gpu_mem()
  bool force = false;
  Shape chunk;                      ///< output chunking; empty = contiguous
  int compress_level = -1;          ///< gzip level (with shuffle) for the output; -1: none
  int threads = 0;                  ///< CPU threads per rank; 0 = cores / ranks per node
  io::Transfer read_transfer = io::Transfer::Collective;
  io::Transfer write_transfer = io::Transfer::Collective;
  bool direct_io = true;            ///< raw reads/writes of contiguous datasets (io/raw_storage.h)
  mpi::ExchangeKind exchange = mpi::ExchangeKind::Auto;
  std::string backend = "auto";     ///< cpu, cuda, or auto (cuda where a GPU is visible)
  bool overlap = true;              ///< run HDF5 on its own thread, overlapping the stages
  bool quiet = false;
  double progress_interval = 10.0;  ///< seconds between progress lines in a batch log
  std::int64_t max_width = 0;       ///< cap on the stage width (testing and tuning)
  std::string trace_path;           ///< write a Chrome trace-event timeline here
  bool resume = false;              ///< continue an interrupted run from its journal
  /// The output's axis order (axes.h): axis numbers ("2", "0", "1", NumPy's meaning) or dimension
  /// names ("lat", "lon", "time"); empty: the last two axes swapped.
  std::vector<std::string> axes;
};

struct TransposeReport {
  Plan plan;
  PhaseTimes times;
  std::string backend;
  std::string exchange;
  std::string exchange_choice;  ///< how --exchange auto decided, if it did
  std::string backend_choice;   ///< how --backend auto decided, if it weighed the two
  bool overlapped = false;
  std::int64_t first_stage = 0;  ///< > 0 when the run resumed an interrupted one
  std::string io;                ///< how data was read and written, e.g. "direct read, direct write"
  /// Attributes of the input left out of the output (they hold references into the input file).
  std::vector<std::string> dropped_attributes;
};

/// Sets how data is read and written, from `--io`'s value: auto (direct reads and writes of
/// contiguous, unfiltered datasets, collective HDF5 otherwise), collective or independent (always
/// HDF5 and MPI-IO). UsageError for anything else.
void set_io_mode(TransposeOptions& options, const std::string& mode);

/// The default --host-mem: a quarter of the node's available memory shared by its ranks,
/// at least 64 MiB.
std::int64_t default_host_mem(MPI_Comm comm);
/// CPU threads per rank when --threads is not given: the node's cores over its ranks.
int default_threads(MPI_Comm comm);
/// The budgets and thread count a run with these options uses: the option where given, else
/// the default above (collective: the defaults count the ranks of each node).
std::int64_t host_mem_budget(MPI_Comm comm, const TransposeOptions& options);
std::int64_t gpu_mem_budget(MPI_Comm comm, const TransposeOptions& options);
int thread_count(MPI_Comm comm, const TransposeOptions& options);

/// The plan for `dataset` under these options' backend and budgets (no output involved).
Plan plan_for(MPI_Comm comm, const io::Dataset& dataset, const TransposeOptions& options);
/// Plans a transpose without doing it (opens the input, checks the output target).
Plan plan_transpose(MPI_Comm comm, const TransposeOptions& options);

/// Runs the transpose. Errors found before any output exists throw on every rank (collective
/// agreement), having written nothing; a failure in the middle of the run removes the temporary
/// output and the journal and aborts the job with the error's exit code, so no rank waits
/// forever in a collective. An input that changes during the run (size or modification time,
/// checked before each stage's read and at the end) ends it with IoError, uncommitted.
TransposeReport run_transpose(MPI_Comm comm, const TransposeOptions& options);

/// Prints the message of a fatal mid-run error, removes the temporary output file (if any) and
/// ends the whole job with MPI_Abort and the error's exit code.
[[noreturn]] void abort_job(MPI_Comm comm, const Error& error, const std::string& temporary_output);

}  // namespace xpose
