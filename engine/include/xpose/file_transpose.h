/// @file
/// The file transpose of `xpose transpose` as a library call: an HDF5 dataset in, its transpose
/// in a new file out, streamed through bounded buffers and exchanged between the ranks of a
/// communicator.
///
/// Collective over the communicator. Errors found before any output exists (a missing input,
/// an output that exists, a bad option) throw the same typed xpose::Error on every rank. A
/// failure in the middle of a run removes the partial output and ends the whole job with
/// MPI_Abort and the error's exit code, so that no rank waits forever in a collective; SIGTERM,
/// SIGUSR1 or SIGINT during a run stop every rank after a clean stage and throw
/// InterruptedError (rerun with `resume`).
///
/// @code
///   xpose::FileTransposeOptions opt;
///   opt.input = "big.h5:/fields/u";
///   opt.output = "big_T.h5:/fields/u";
///   opt.host_mem = 8ll << 30;
///   xpose::FileTransposeSummary s = xpose::transpose_file(opt, MPI_COMM_WORLD);
///   std::printf("%.2f s\n", s.wall_seconds);
/// @endcode
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "xpose/comm_handle.h"
#include "xpose/error.h"
#include "xpose/types.h"

namespace xpose {

/// What `xpose transpose` is told on its command line, as plain fields.
struct FileTransposeOptions {
  std::string input;   ///< "FILE.h5:/path/to/dataset"; opened read-only
  std::string output;  ///< "FILE.h5:/path"; a new file, written under a temporary name
  /// The output's axis order (NumPy's `axes`: integers or, for netCDF-4, dimension names).
  /// Empty: the last two axes are swapped and leading axes are a batch.
  std::vector<std::string> axes;
  std::int64_t host_mem = 0;      ///< bytes of stage buffers per rank; 0: as `--host-mem`'s default
  std::int64_t gpu_mem = 0;       ///< bytes of GPU buffers per rank; 0: as `--gpu-mem`'s default
  std::string backend = "auto";   ///< "cpu", "cuda" or "auto" (the faster, by calibration, where every rank sees a GPU)
  std::string exchange = "auto";  ///< "mpi", "nccl", "mpi-device" or "auto"
  /// "auto" (direct reads and writes of contiguous, unfiltered datasets, collective HDF5
  /// otherwise), "collective" or "independent" (always HDF5 and MPI-IO), as `--io`
  std::string io = "auto";
  bool resume = false;            ///< continue an interrupted run from its journal
  bool force = false;             ///< replace the output file if it exists
  bool quiet = false;             ///< no progress; only errors and warnings about what the output lacks
  double progress_interval = 10;  ///< seconds between progress lines when stderr is not a terminal
  std::string trace;  ///< write every rank's phase timeline here (Chrome trace JSON); empty: none
};

/// One phase of a run: its time (the max over ranks) and the bandwidth of the bytes it moves.
struct PhaseSummary {
  std::string name;  ///< read, h2d, kernel or transpose, exchange, unpack, d2h, write, wall
  double seconds = 0;
  double gbps = 0;  ///< 1e9 bytes per second
};

/// What a run did: the document `xpose transpose --json FILE` writes.
struct FileTransposeSummary {
  std::string input;   ///< as given
  std::string output;  ///< as given
  ExitCode status = ExitCode::Ok;
  std::string error;       ///< the one-line message where status is not Ok
  bool completed = false;  ///< the fields below are set (the run finished)
  Shape shape;             ///< the input's shape
  std::int64_t element_size = 0;
  std::int64_t bytes = 0;
  int ranks = 0;
  std::string backend;   ///< "cpu" or "cuda"
  std::string exchange;  ///< the transport between ranks
  /// How `--backend auto` decided, with the figures it weighed; empty where it did not decide.
  std::string backend_choice;
  /// How `--exchange auto` decided, with the figures it weighed; empty where it did not decide.
  std::string exchange_choice;
  std::int64_t stages = 0;
  std::int64_t stage_width = 0;
  std::int64_t memory_per_rank = 0;
  bool overlapped = false;  ///< HDF5 ran on its own thread
  std::string io;           ///< how data was read and written
  std::vector<PhaseSummary> phases;
  double wall_seconds = 0;
  std::int64_t resumed_at_stage = 0;  ///< > 0 where the run continued an interrupted one
  /// Attributes of the input left out of the output: they hold references into the input file
  /// (netCDF-4's DIMENSION_LIST, for one), which would point at nothing there.
  std::vector<std::string> dropped_attributes;

  /// The JSON document (one object and a newline), as `--json` writes it.
  std::string json() const;
};

/// Transposes `options.input` into `options.output` (collective over `comm`; see the file
/// comment for errors). Throws UsageError for bad options.
FileTransposeSummary transpose_file(const FileTransposeOptions& options,
                                    CommHandle comm = CommHandle::world());

/// The bytes of stage buffers per rank that `host_mem = 0` stands for: a quarter of the node's
/// available memory shared by its ranks, at least 64 MiB. Collective (it counts each node's ranks).
std::int64_t default_host_mem(CommHandle comm = CommHandle::world());

}  // namespace xpose
