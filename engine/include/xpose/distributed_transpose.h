/// @file
/// In-memory distributed transpose for FFT pipelines: planned once, executed many times.
///
/// A global `rows x cols` row-major matrix (or a batch of them) is split over the ranks of a
/// communicator by rows, as FFTW-MPI splits it (blocks of ceil(n/P) rows; trailing ranks may
/// hold fewer rows or none). execute() leaves on every rank its rows of the `cols x rows`
/// transpose, split the same way. So data laid out for FFTW_MPI_TRANSPOSED_IN/OUT (default block
/// sizes) is handed over as is.
///
/// Local layouts, in elements, for a batch of `batch` matrices:
///  - input on rank p:  `batch x local_input_rows() x cols`; element (b, i, j) holds global
///    A[b][input_row_offset() + i][j];
///  - output on rank p: `batch x local_output_rows() x rows`; element (b, j, i) receives global
///    A[b][i][output_row_offset() + j].
///
/// The memory space is part of the plan (Options::memory): a Host plan takes host pointers and
/// uses the CPU kernels; a Device plan takes CUDA device pointers (the caller selects the GPU
/// with cudaSetDevice before planning) and uses the CUDA kernels.
///
/// Constructing a plan and every execute are collective over the communicator. Errors that
/// depend on one rank only (a null pointer, a failed allocation) are agreed on before any data
/// moves, so every rank throws the same typed xpose::Error; a CUDA, MPI or NCCL failure in the
/// middle of an exchange is thrown where it happens (RuntimeFailure) and the job should abort.
///
/// Example (device memory, one GPU per rank):
/// @code
///   xpose::DistributedTranspose::Options opt;
///   opt.memory = xpose::MemorySpace::Device;
///   xpose::DistributedTranspose plan(MPI_COMM_WORLD, n0, n1, xpose::ElementType::complex64(),
///   opt);
///   // cudaMalloc plan.local_input_bytes() and plan.local_output_bytes(), fill the input rows
///   plan.execute(d_in, d_out, stream);  // ordered on `stream`, like a kernel launch
/// @endcode
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "xpose/comm_handle.h"
#include "xpose/distribution.h"
#include "xpose/error.h"
#include "xpose/types.h"

// Declared, not included: public headers stay free of cuda_runtime.h. A cudaStream_t converts.
struct CUstream_st;

namespace xpose {

/// Where the buffers given to DistributedTranspose::execute live.
enum class MemorySpace {
  Host,    ///< host memory; CPU kernels and the host MPI exchange
  Device,  ///< CUDA device memory of the current device; CUDA kernels
};

/// Which transport moves blocks between ranks.
enum class Transport {
  Auto,       ///< chosen by the plan (timed, or by a rule with Planning::Estimate)
  Mpi,        ///< MPI on host buffers; a Device plan stages through pinned host memory
  MpiDevice,  ///< MPI on device buffers: needs a CUDA-aware MPI (refused otherwise)
  Nccl,       ///< NCCL send/receive on device buffers: one GPU per rank (refused otherwise)
  /// Device memory of one node through CUDA IPC: each rank's kernels write its blocks straight
  /// into the other ranks' outputs. Needs every rank on one node, each with its own GPU, and
  /// peer access between every pair (refused otherwise). execute() is host-synchronous.
  Peer,
};

/// How local transposes and transfers are ordered.
enum class Schedule {
  Auto,       ///< chosen by the plan
  Bulk,       ///< pack every block, one all-to-all, unpack every block
  Pipelined,  ///< per peer and per piece: pack, send; unpack each piece as it lands, so the
              ///< local transposes hide behind the transfers
};

/// How a plan resolves Transport::Auto, Schedule::Auto and a zero chunk size.
enum class Planning {
  Estimate,  ///< a fixed rule, no timing
  Measure,   ///< time the candidates on scratch buffers and keep the fastest by the MAX over
             ///< ranks (as FFTW_MEASURE does); falls back to Estimate if the scratch buffers
             ///< cannot be allocated
};

/// "auto", "mpi", "mpi-device", "nccl", "peer".
const char* transport_name(Transport transport);
/// "auto", "bulk", "pipelined".
const char* schedule_name(Schedule schedule);
/// Inverse of transport_name; throws UsageError on anything else.
Transport parse_transport(const std::string& name);
/// Inverse of schedule_name; throws UsageError on anything else.
Schedule parse_schedule(const std::string& name);

/// Everything a plan can be told. The defaults plan a host transpose of one matrix, measured.
struct DistributedTransposeOptions {
  MemorySpace memory = MemorySpace::Host;  ///< where execute's buffers live
  std::int64_t batch = 1;                  ///< matrices per execute (see the file comment)
  Transport transport = Transport::Auto;   ///< force a transport, or let the plan choose
  Schedule schedule = Schedule::Auto;      ///< force a schedule, or let the plan choose
  /// Bytes per piece of the pipelined schedule (rounded to whole output rows; 0: chosen).
  std::int64_t chunk_bytes = 0;
  Planning planning = Planning::Measure;  ///< how Auto choices are made
  /// A text file of earlier choices ("wisdom"). When it holds an entry for this problem (ranks,
  /// nodes, shape, element size, batch, memory space and the requested choices), the plan uses
  /// it and skips the timing; after a measured choice, the entry is added (rank 0 writes the
  /// file, atomically). Empty: none.
  std::string wisdom_file;
  /// Whether the plan allocates its own workspace (at construction; grown once by the first
  /// execute_inplace if that needs more). With false, call set_workspace() before executing.
  bool allocate_workspace = true;
  int threads = 0;       ///< CPU threads for host kernels; 0: the hardware's
  bool verbose = false;  ///< rank 0 prints the choice and the timings to stderr
};

/// A planned distributed transpose (see the file comment). Move-only.
class DistributedTranspose {
 public:
  using Options = DistributedTransposeOptions;
  /// A CUDA stream (cudaStream_t); nullptr is the default stream. Ignored by Host plans.
  using Stream = CUstream_st*;

  /// Plans the transpose of a global `rows x cols` matrix of `type` over `comm` (collective;
  /// an MPI_Comm converts to a CommHandle). The communicator is duplicated, so the plan's
  /// messages never meet the caller's.
  /// Throws UsageError (bad sizes or options, a transport this machine cannot use),
  /// UnsupportedInputError (element size not 1, 2, 4, 8 or 16), NotCompiledError (Device memory,
  /// NCCL or CUDA-aware MPI missing from this build), ResourceError (allocation failed).
  DistributedTranspose(CommHandle comm, std::int64_t rows, std::int64_t cols, ElementType type,
                       const Options& options = Options());
  /// Waits for the plan's last device run, then frees its buffers and communicators. Collective
  /// (the communicator is freed): destroy plans on every rank, before MPI_Finalize.
  ~DistributedTranspose();
  /// Plans move; a moved-from plan may only be destroyed or assigned to.
  DistributedTranspose(DistributedTranspose&&) noexcept;
  /// Move assignment (the plan assigned over is destroyed: collective).
  DistributedTranspose& operator=(DistributedTranspose&&) noexcept;
  DistributedTranspose(const DistributedTranspose&) = delete;
  DistributedTranspose& operator=(const DistributedTranspose&) = delete;

  /// Global rows R of the input (the output has C rows of R elements).
  std::int64_t rows() const;
  /// Global columns C of the input.
  std::int64_t cols() const;
  /// Matrices per execute.
  std::int64_t batch() const;
  /// The element type planned for.
  ElementType element_type() const;
  /// This rank and the rank count of the plan's communicator.
  int rank() const;
  /// Number of ranks.
  int ranks() const;

  /// Input rows this rank holds (FFTW-MPI's local_n0); 0 on trailing empty ranks.
  std::int64_t local_input_rows() const;
  /// First global input row of this rank (FFTW-MPI's local_0_start).
  std::int64_t input_row_offset() const;
  /// Output rows this rank receives (FFTW-MPI's local_n1 of the transposed layout).
  std::int64_t local_output_rows() const;
  /// First global output row of this rank (FFTW-MPI's local_1_start).
  std::int64_t output_row_offset() const;
  /// How input rows are split over all ranks.
  BlockDistribution input_distribution() const;
  /// How output rows are split over all ranks.
  BlockDistribution output_distribution() const;
  /// Elements of this rank's input: batch * local_input_rows * cols.
  std::int64_t local_input_elements() const;
  /// Elements of this rank's output: batch * local_output_rows * rows.
  std::int64_t local_output_elements() const;
  /// Bytes of this rank's input.
  std::size_t local_input_bytes() const;
  /// Bytes of this rank's output.
  std::size_t local_output_bytes() const;
  /// Bytes a buffer for execute_inplace must hold: max(input, output).
  std::size_t local_inplace_bytes() const;

  /// Workspace bytes execute() needs on this rank (in the plan's memory space).
  std::size_t workspace_size() const;
  /// Workspace bytes execute_inplace() needs on this rank (0 on one rank with rows == cols).
  std::size_t workspace_size_inplace() const;
  /// Hands the plan a caller-owned workspace of `bytes` bytes in the plan's memory space
  /// (replacing any the plan allocated, which is freed). It must stay valid while the plan
  /// executes. Too small a workspace is reported by the execute that needs more (UsageError).
  void set_workspace(void* workspace, std::size_t bytes);

  /// Out-of-place transpose (collective): `in` holds local_input_bytes(), `out` receives
  /// local_output_bytes(); they must not overlap, and `in` is left unchanged. On a Device plan
  /// the work is ordered on `stream` (it starts after the work queued there before it, and work
  /// queued after it sees the result); with the NCCL or device MPI transports the call returns
  /// without waiting for the GPU, with the staged MPI transport after the transfers, with the
  /// peer transport once every block has landed (it first waits for `stream`, since the other
  /// ranks write into `out` directly). The peer transport keeps `out` mapped in the other ranks'
  /// processes for later calls: see forget_buffers().
  void execute(const void* in, void* out, Stream stream = nullptr);
  /// In-place transpose (collective): `buffer` holds local_inplace_bytes(); on entry its first
  /// local_input_bytes() are the input, on return its first local_output_bytes() the output.
  /// With the peer transport the blocks land in a buffer of local_output_bytes() that the plan
  /// allocates on first use (the other ranks cannot write into `buffer` while it is still being
  /// read), then are copied into `buffer`, ordered on `stream`.
  void execute_inplace(void* buffer, Stream stream = nullptr);

  /// Forgets the buffers given to earlier executes (collective). The peer transport keeps the
  /// other ranks' outputs mapped (CUDA IPC) so repeated executes on the same buffers open them
  /// once; CUDA leaves freeing memory that another process still maps undefined, so call this
  /// before freeing such an output while the plan lives (destroying the plan does it too).
  /// Other transports keep nothing, and it returns at once.
  void forget_buffers();

  /// The transport in use (never Auto; Mpi on one rank, where nothing is exchanged).
  Transport transport() const;
  /// The schedule in use (never Auto).
  Schedule schedule() const;
  /// Bytes per piece of the pipelined schedule (whole output rows; the bulk schedule sends one
  /// piece per peer).
  std::int64_t chunk_bytes() const;
  /// How the choice was made and, when measured, every candidate's time: for logs.
  std::string report() const;
  /// The plan's communicator (a duplicate of the one given): `comm().get<MPI_Comm>()`.
  CommHandle comm() const;

  /// Transports a plan for `memory` could use on `comm`, by agreement of all ranks (collective),
  /// preferred first: Peer where every rank is on one node with its own GPU and every pair of
  /// GPUs has peer access; Nccl where built and no two ranks share a GPU; MpiDevice where the MPI
  /// is CUDA-aware; Mpi always. A Device query needs the current device selected on every rank.
  static std::vector<Transport> available_transports(CommHandle comm, MemorySpace memory);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace xpose
