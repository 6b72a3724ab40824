#include "engine/src/transpose_job.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <thread>
#include <vector>

#include "engine/src/backend_model.h"
#include "engine/src/host_buffer.h"
#include "engine/src/io_worker.h"
#include "engine/src/journal.h"
#include "engine/src/progress.h"
#include "engine/src/stop_signals.h"
#include "engine/src/trace.h"
#include "io/dimension_scales.h"
#include "io/raw_storage.h"
#include "kernels/transpose.h"
#include "mpi/comm.h"
#include "xpose/config.h"

namespace xpose {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::int64_t mem_available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::int64_t value = 0;
  std::string unit;
  while (meminfo >> key >> value >> unit)
    if (key == "MemAvailable:") return value * 1024;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::int64_t>(pages) * page : (4ll << 30);
}

/// The region of a stage in engine coordinates [outer..., batch, rows, cols] (planner.h): input
/// rows [row0, row0 + nrows) and columns [col0, col0 + ncols) of the stage's matrices. An output
/// band is the same region with every row and the columns that become its output rows.
Region stage_region(const Plan& plan, const Stage& s, std::int64_t row0, std::int64_t nrows, std::int64_t col0,
                    std::int64_t ncols) {
  const std::size_t rank = plan.engine.size();
  Region r;
  r.start.assign(rank, 0);
  r.count.assign(rank, 1);
  // Unravel the flattened outer index over the outer batch axes.
  std::int64_t outer = s.outer;
  for (std::size_t d = rank >= 3 ? rank - 3 : 0; d-- > 0;) {
    r.start[d] = outer % plan.engine[d];
    outer /= plan.engine[d];
  }
  if (rank >= 3) {
    r.start[rank - 3] = s.inner_begin;
    r.count[rank - 3] = s.inner_count;
  }
  r.start[rank - 2] = row0;
  r.count[rank - 2] = nrows;
  r.start[rank - 1] = col0;
  r.count[rank - 1] = ncols;
  return r;
}

io::Box as_box(Region r) { return io::Box{std::move(r.start), std::move(r.count)}; }

/// Engine regions as boxes of the raw storage, which views the data as the merged axes (in file
/// order) of wide elements (AxisMap::merged_in_shape / merged_out_shape).
std::vector<io::Box> raw_in_boxes(const Plan& plan, const std::vector<Region>& regions) {
  std::vector<io::Box> boxes;
  for (const auto& r : regions) boxes.push_back(as_box(plan.axes.merged_in(r)));
  return boxes;
}
std::vector<io::Box> raw_out_boxes(const Plan& plan, const std::vector<Region>& regions) {
  std::vector<io::Box> boxes;
  for (const auto& r : regions) boxes.push_back(as_box(plan.axes.merged_out(r)));
  return boxes;
}
/// Engine regions as hyperslabs of the datasets themselves (a merged range may take several).
std::vector<io::Box> h5_in_boxes(const Plan& plan, const std::vector<Region>& regions) {
  std::vector<Region> parts;
  for (const auto& r : regions) plan.axes.dataset_in(r, parts);
  std::vector<io::Box> boxes;
  for (auto& r : parts) boxes.push_back(as_box(std::move(r)));
  return boxes;
}
std::vector<io::Box> h5_out_boxes(const Plan& plan, const std::vector<Region>& regions) {
  std::vector<Region> parts;
  for (const auto& r : regions) plan.axes.dataset_out(r, parts);
  std::vector<io::Box> boxes;
  for (auto& r : parts) boxes.push_back(as_box(std::move(r)));
  return boxes;
}

/// The stage's pieces and output rows inside the mapped input and output files.
StageViews mapped_views(const Plan& plan, const Stage& st, const io::RawStorage& in,
                        const io::RawStorage& out, std::int64_t my_row0, std::int64_t my_out0) {
  StageViews v;
  const std::size_t n = plan.engine.size();
  v.in = in.address(plan.axes.merged_in(stage_region(plan, st, my_row0, 1, 0, 1)).start);
  v.in_pitch = plan.axes.in_stride(n - 2);
  v.in_batch_stride = n >= 3 ? plan.axes.in_stride(n - 3) : plan.rows * plan.cols;
  v.in_col.resize(static_cast<std::size_t>(plan.nranks));
  for (int q = 0; q < plan.nranks; ++q) v.in_col[q] = plan.out_rows.offset(q) + st.col_offset;
  v.out = out.address(plan.axes.merged_out(stage_region(plan, st, 0, 1, my_out0 + st.col_offset, 1)).start);
  v.out_pitch = plan.axes.out_stride(n - 1);
  v.out_batch_stride = n >= 3 ? plan.axes.out_stride(n - 3) : plan.cols * plan.rows;
  return v;
}

std::string resolved(const std::string& path) {
  char buffer[PATH_MAX];
  return realpath(path.c_str(), buffer) ? std::string(buffer) : path;
}

void write_provenance(io::OutputFile& out, const TransposeOptions& o, const Shape& in_shape) {
  out.set_attribute("xpose_source_file", resolved(o.in.file));
  out.set_attribute("xpose_source_path", o.in.path);
  out.set_attribute("xpose_source_shape",
                    std::vector<std::int64_t>(in_shape.begin(), in_shape.end()));
  out.set_attribute("xpose_version", std::string(XPOSE_VERSION));
}

RunIdentity run_identity(const TransposeOptions& o, const Plan& plan, const io::InputFile& input) {
  RunIdentity id;
  id.input = resolved(o.in.file) + ":" + o.in.path;
  id.input_bytes = input.stamp().bytes;
  id.input_mtime_ns = input.stamp().mtime_ns;
  id.output = o.out.str();
  id.shape = plan.shape;
  id.element_size = static_cast<std::int64_t>(plan.elem_size);
  id.datatype = input.dataset().info().type_description;
  id.ranks = plan.nranks;
  id.stages = plan.num_stages();
  id.stage_width = plan.width;
  id.matrices_per_stage = plan.inner_per_stage;
  id.chunk = o.chunk;
  if (plan.explicit_axes) id.axes = format_axes(plan.axes.perm());
  if (o.compress_level >= 0) id.compression = cat("gzip:", o.compress_level);
  return id;
}

/// The files xpose writes beside an output: the temporary output and the journal.
std::vector<std::string> own_names(const io::DatasetRef& out) {
  return {io::temporary_path_for(out.file), Journal::path_for(out.file)};
}

/// What becomes of the input's reference-typed attributes: netCDF-4's DIMENSION_LIST (a
/// variable's dimension scales, in the input file) is rebuilt for the output by
/// rebuild_dimension_scales, right after the attributes are copied; any other is left out and
/// named in a warning.
io::ReferenceAttributeHook reference_attributes_hook() {
  return [](const io::Dataset& source, const std::string& name, hid_t) {
    return name == "DIMENSION_LIST" && !io::dimension_scales(source).empty();
  };
}

/// netCDF-4 in, netCDF-4 out: the output gets copies of the input dataset's dimension scales,
/// attached in the output's axis order, and the input file's global attributes.
void rebuild_dimension_scales(const io::InputFile& input, io::OutputFile& output, const Plan& plan) {
  if (io::dimension_scales(input.dataset()).empty()) return;
  io::DimensionScaleCopier copier(input.id(), output.id(), output.comm());
  copier.copy_root_attributes();
  copier.attach(input.dataset(), output.dataset().id(), plan.axes.perm());
  copier.finish();
}

/// Chunks for a compressed output without --chunk: about 1 MiB of whole trailing rows, so a
/// stage's band of output rows covers whole chunks where it can.
Shape default_chunk(const Plan& plan) {
  Shape chunk(plan.out_shape.size(), 1);
  std::int64_t bytes = static_cast<std::int64_t>(plan.dataset_elem_size);
  for (std::size_t d = chunk.size(); d-- > 0;) {
    const std::int64_t take =
        std::max<std::int64_t>(1, std::min<std::int64_t>(plan.out_shape[d], (std::int64_t{1} << 20) / bytes));
    chunk[d] = take;
    bytes *= take;
    if (take < plan.out_shape[d]) break;
  }
  return chunk;
}

/// Every option in range, before anything is opened. The command line parses and range-checks
/// what a user types; this is the check for every caller of the engine.
void check_options(const TransposeOptions& o) {
  if (o.backend != "cpu" && o.backend != "cuda" && o.backend != "auto")
    throw UsageError(cat("--backend must be cpu, cuda or auto, not '", o.backend, "'"));
  if (o.host_mem < 0) throw UsageError(cat("--host-mem must be positive, not ", o.host_mem));
  if (o.gpu_mem < 0) throw UsageError(cat("--gpu-mem must be positive, not ", o.gpu_mem));
  if (o.threads < 0) throw UsageError(cat("--threads must be at least 1, not ", o.threads));
  if (o.max_width < 0)
    throw UsageError(cat("--max-stage-width must be at least 1, not ", o.max_width));
  if (!(o.progress_interval > 0) || !std::isfinite(o.progress_interval))
    throw UsageError(
        cat("--progress-interval must be a positive number of seconds, not ", o.progress_interval));
  for (auto c : o.chunk)
    if (c <= 0)
      throw UsageError(cat("--chunk ", format_shape(o.chunk), ": extents must be positive"));
}

/// Hooks of the fault-injection tests (tests/faults), read from the environment in one place:
///   XPOSE_TEST_SIGNAL_AT_STAGE=K:SIG  rank 0 raises SIG on itself after transforming stage K;
///   XPOSE_TEST_HOLD_AT_STAGE=K:FILE   once every rank has read and checked stage K's input, rank 0
///                                     creates FILE and waits, before its transform, until FILE is
///                                     removed.
/// Real signals and real file-system events, at deterministic points of a run.
struct TestHooks {
  std::int64_t signal_stage = -1;
  int signal = 0;
  std::int64_t hold_stage = -1;
  std::string hold_file;

  static TestHooks from_environment() {
    TestHooks h;
    if (const char* spec = std::getenv("XPOSE_TEST_SIGNAL_AT_STAGE")) {
      long long stage = -1;
      if (std::sscanf(spec, "%lld:%d", &stage, &h.signal) != 2)
        throw UsageError(cat("XPOSE_TEST_SIGNAL_AT_STAGE must be STAGE:SIGNAL, not '", spec, "'"));
      h.signal_stage = stage;
    }
    if (const char* spec = std::getenv("XPOSE_TEST_HOLD_AT_STAGE")) {
      long long stage = -1;
      int used = 0;
      if (std::sscanf(spec, "%lld:%n", &stage, &used) != 1 || used == 0 || spec[used] == '\0')
        throw UsageError(cat("XPOSE_TEST_HOLD_AT_STAGE must be STAGE:FILE, not '", spec, "'"));
      h.hold_stage = stage;
      h.hold_file = spec + used;
    }
    return h;
  }

  void hold(std::int64_t stage) const {
    if (stage != hold_stage) return;
    { std::ofstream(hold_file + ".tmp") << ::getpid() << "\n"; }
    std::rename((hold_file + ".tmp").c_str(), hold_file.c_str());  // whole when it appears
    const auto until = Clock::now() + std::chrono::minutes(2);
    while (::access(hold_file.c_str(), F_OK) == 0 && Clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
};

PlanRequest plan_request(const io::Dataset& in, const std::vector<std::string>& axes, int nranks,
                         std::int64_t host_mem, const BackendChoice& choice, std::int64_t gpu_mem,
                         std::int64_t max_width) {
  PlanRequest req;
  req.shape = in.info().shape;
  req.elem_size = in.info().element.size;
  req.dim_names = io::dimension_names(in);
  if (!axes.empty()) req.perm = resolve_axes(axes, req.shape, req.dim_names, in.label());
  req.nranks = nranks;
  req.host_mem = host_mem;
  req.host_buffers = choice.host_buffers;
  req.device_mem = gpu_mem;
  req.device_buffers = choice.device_buffers;
  // Only the host MPI transport has algorithms to choose from.
  req.host_exchange = choice.exchange == mpi::ExchangeKind::Mpi ? choice.host_exchange : HostExchange::Alltoall;
  req.ranks_per_node = choice.ranks_per_node;
  req.node_aware_in_place = choice.backend == "cpu";  // the CUDA backend copies through it
  if (const char* model = std::getenv("XPOSE_EXCHANGE_MODEL"))
    req.exchange_model = parse_exchange_model(model, req.exchange_model);
  req.max_width = max_width;
  req.exchange_free = choice.exchange_free;
  return req;
}

/// Buffer counts per backend and transport (DESIGN: in/out host slots are double-buffered so
/// the HDF5 thread reads stage k+1 and writes stage k-1 while stage k is transformed).
/// `before` carries the host exchange's algorithm and the ranks per node.
BackendChoice buffer_counts(const std::string& backend, mpi::ExchangeKind exchange, int nranks,
                            const BackendChoice& before) {
  BackendChoice c = before;
  c.backend = backend;
  c.exchange = nranks > 1 ? exchange : mpi::ExchangeKind::Mpi;
  const bool host_exchange = nranks > 1 && c.exchange == mpi::ExchangeKind::Mpi;
  c.host_buffers = 4 + (host_exchange ? 2 : 0);
  c.device_buffers = backend == "cuda" ? (nranks > 1 && !host_exchange ? 3 : 2) : 0;
  return c;
}

/// Resolves --backend auto and --exchange auto; every rank reaches the same answer.
BackendChoice resolve_backend(MPI_Comm comm, const TransposeOptions& o) {
  const int nranks = mpi::size(comm);
  std::string backend = o.backend;
  if (backend != "cpu" && backend != "cuda" && backend != "auto")
    throw UsageError(cat("--backend must be cpu, cuda or auto, not '", backend, "'"));
  const bool have_gpu = mpi::allreduce_max(comm, std::int64_t{cuda_device_available() ? 0 : 1}) ==
                        0;  // all ranks see one
  if (backend == "auto") backend = have_gpu ? "cuda" : "cpu";
  if (backend == "cuda" && !have_gpu)
    throw UsageError(XPOSE_HAVE_CUDA ? "--backend cuda: no GPU is visible to every rank"
                                     : "--backend cuda: this xpose was built without CUDA");
  mpi::ExchangeKind exchange = o.exchange;
  if (backend == "cpu" && exchange != mpi::ExchangeKind::Auto && !mpi::is_host_exchange(exchange))
    throw UsageError(
        cat("--exchange ", mpi::exchange_kind_name(exchange), " needs the cuda backend"));
  if (backend == "cuda" && exchange == mpi::ExchangeKind::Nccl && nranks > 1 &&
      ranks_share_gpus(comm))
    throw UsageError(
        "--exchange nccl needs one GPU per rank, and ranks on a node here share GPUs (use mpi)");
  // The host MPI transport's algorithm: the planner's to choose under auto.
  BackendChoice before;
  before.host_exchange = exchange == mpi::ExchangeKind::Pairwise    ? HostExchange::Pairwise
                         : exchange == mpi::ExchangeKind::NodeAware ? HostExchange::NodeAware
                         : exchange == mpi::ExchangeKind::Auto      ? HostExchange::Auto
                                                                    : HostExchange::Alltoall;
  const mpi::NodeLayout nodes = mpi::node_layout(comm);
  before.ranks_per_node = nodes.max_ranks_per_node;
  if (nranks == 1 || backend == "cpu" || mpi::is_host_exchange(exchange)) exchange = mpi::ExchangeKind::Mpi;
  // CPU ranks of one node read the input from one page cache: each reads the rows of its own
  // output band and no piece is exchanged (the exchange cost a 2-rank run of a 64 x 4194304
  // transpose a third of its time). --exchange mpi keeps the exchange; so do nodes cut by
  // XPOSE_RANKS_PER_NODE, which stand in for separate machines.
  if (backend == "cpu" && nranks > 1 && o.exchange == mpi::ExchangeKind::Auto && nodes.nodes() == 1) {
    BackendChoice c = buffer_counts(backend, exchange, 1, before);
    c.exchange_free = true;
    return c;
  }
  return buffer_counts(backend, exchange, nranks, before);
}

/// The backend and budgets a run with these options would use, without timing the exchange:
/// an undecided `auto` exchange is planned with the most device buffers any transport needs.
std::pair<BackendChoice, std::int64_t> planned_choice(MPI_Comm comm, const TransposeOptions& o) {
  BackendChoice choice = resolve_backend(comm, o);
  std::int64_t gpu_mem = 0;
  if (choice.backend == "cuda") {
    select_cuda_device(comm, true);
    gpu_mem = gpu_mem_budget(comm, o);
    if (choice.exchange == mpi::ExchangeKind::Auto)
      choice = buffer_counts("cuda", mpi::ExchangeKind::Nccl, mpi::size(comm), choice);
  }
  return {choice, gpu_mem};
}

/// Everything about the options, the input and the output's names that can be checked before
/// any work, on every rank alike; opens the input (on `io_comm`). `writes_files`: also the
/// paths the run writes at its end (--trace).
io::InputFile open_checked(MPI_Comm comm, MPI_Comm io_comm, const TransposeOptions& o,
                           bool writes_files) {
  mpi::collectively(comm, [&] {
    check_options(o);
    if (mpi::rank(comm) != 0) return;
    io::check_output_target(o.out, o.in, o.force, own_names(o.out));
    if (writes_files && !o.trace_path.empty()) io::check_writable_path(o.trace_path, "--trace");
  });
  io::InputFile input;
  mpi::collectively(comm, [&] { input = io::InputFile::open(o.in, io_comm); });
  mpi::collectively(comm, [&] {
    io::check_transposable(input.dataset());
    const Shape& shape = input.dataset().info().shape;
    if (!o.chunk.empty() && o.chunk.size() != shape.size())
      throw UsageError(cat("--chunk ", format_shape(o.chunk), " has ", o.chunk.size(),
                           " axes; the output has ", shape.size()));
    if (o.compress_level >= 0 && mpi::size(comm) > 1 && o.write_transfer == io::Transfer::Independent)
      throw UsageError("--compress with --io independent: parallel HDF5 writes compressed data collectively only");
  });
  return input;
}

/// One `xpose transpose`, as the named steps of run_transpose. Errors before the output exists
/// are agreed by every rank and thrown; from the stage loop on, a failure ends the job.
class TransposeRun {
 public:
  TransposeRun(MPI_Comm comm, const TransposeOptions& o)
      : comm_(comm),
        o_(o),
        me_(mpi::rank(comm)),
        nranks_(mpi::size(comm)),
        t_start_(Clock::now()),
        hooks_(TestHooks::from_environment()) {}

  void check_before_work();
  void choose_backend();
  void weigh_backends();
  void claim_output();
  void set_up_output();
  void run_stages();
  TransposeReport finish();

 private:
  void prepare_output();
  void open_io();
  void read_stage(std::int64_t k);
  void write_stage(std::int64_t k);
  void transform_stage(std::int64_t k);
  bool empty() const { return plan_.num_stages() == 0; }
  bool empty_input() const { return element_count(input_.dataset().info().shape) == 0; }

  MPI_Comm comm_;
  const TransposeOptions& o_;
  const int me_, nranks_;
  const Clock::time_point t_start_;
  const TestHooks hooks_;
  bool threaded_ = false;
  mpi::OwnedComm io_comm_;
  io::InputFile input_;
  BackendChoice choice_;
  std::int64_t host_mem_ = 0, gpu_mem_ = 0;
  int threads_ = 1;
  Plan plan_;
  RunIdentity identity_;
  std::string temp_path_, journal_path_;
  JournalFile journal_;  // rank 0 only: the lock of the output
  bool stale_partial_ = false;
  std::int64_t first_stage_ = 0;
  io::OutputFile output_;
  std::unique_ptr<io::RawStorage> raw_in_, raw_out_;
  std::unique_ptr<StageBackend> backend_;
  bool fused_ = false, bound_input_ = false, populate_ahead_ = false;
  std::int64_t my_row0_ = 0, my_out0_ = 0;  ///< this rank's first input row and output row
  TransposeReport report_;
  std::optional<Trace> trace_;
  std::optional<Progress> progress_;
  int stop_signal_ = 0;
  std::int64_t stopped_after_ = 0;
  // The direct paths' own I/O workers (last: they go first, before what their tasks use).
  std::unique_ptr<IoWorker> own_read_io_, own_write_io_;
  std::atomic<std::int64_t> durable_{0};  ///< stages on stable storage; the write worker's count
  Clock::time_point last_sync_;
};

/// 1. Options, the input, the output's names and sizes: everything checkable before any work.
void TransposeRun::check_before_work() {
  // HDF5's collective I/O runs on its own thread and communicator, so it never interleaves with
  // the exchange's collectives on `comm`. That needs MPI_THREAD_MULTIPLE.
  int level = MPI_THREAD_SINGLE;
  XPOSE_CHECK_MPI(MPI_Query_thread(&level));
  threaded_ = o_.overlap && level == MPI_THREAD_MULTIPLE;
  MPI_Comm io_dup = MPI_COMM_NULL;
  XPOSE_CHECK_MPI(MPI_Comm_dup(comm_, &io_dup));
  io_comm_ = mpi::OwnedComm(io_dup);
  input_ = open_checked(comm_, io_comm_.get(), o_, true);
  temp_path_ = io::temporary_path_for(o_.out.file);
  journal_path_ = Journal::path_for(o_.out.file);
}

/// 2. Backend, transport and budgets (each option defaulted here, once), then the plan.
void TransposeRun::choose_backend() {
  mpi::collectively(comm_, [&] { choice_ = resolve_backend(comm_, o_); });
  host_mem_ = host_mem_budget(comm_, o_);
  threads_ = thread_count(comm_, o_);
  if (choice_.backend == "cuda") {
    mpi::collectively(comm_, [&] {
      select_cuda_device(comm_, o_.quiet);
      gpu_mem_ = gpu_mem_budget(comm_, o_);
    });
    if (o_.backend == "auto" && !empty_input()) weigh_backends();
  }
  if (choice_.backend == "cuda") {
    if (choice_.exchange == mpi::ExchangeKind::Auto) {
      mpi::ExchangeKind picked = mpi::ExchangeKind::Mpi;
      mpi::collectively(comm_, [&] {
        picked = pick_fastest_exchange(comm_, "cuda", 64ll << 20, &report_.exchange_choice);
      });
      choice_ = buffer_counts("cuda", picked, nranks_, choice_);
    }
  }
  mpi::collectively(comm_, [&] {
    plan_ = make_plan(
        plan_request(input_.dataset(), o_.axes, nranks_, host_mem_, choice_, gpu_mem_, o_.max_width));
    identity_ = run_identity(o_, plan_, input_);
  });
}

/// --backend auto where a GPU is visible: backend_model.h's calibration and model decide
/// between the GPU and the CPU path (and, between ranks, the GPU path's transport).
void TransposeRun::weigh_backends() {
  const std::size_t es = input_.dataset().info().element.size;
  // The CPU path is fused where the input can be mapped and the output is written through a map.
  bool fused = false;
  mpi::collectively(comm_, [&] {
    const auto slash = o_.out.file.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : o_.out.file.substr(0, std::max<std::size_t>(1, slash));
    fused = o_.direct_io && io::RawStorage::open_input(input_) != nullptr && io::RawStorage::maps_writes_in(dir);
  });
  fused = mpi::allreduce_max(comm_, std::int64_t{fused ? 0 : 1}) == 0;
  // A block small enough for a small budget (the buffers come later), large enough to time.
  const std::int64_t block = std::clamp<std::int64_t>(host_mem_ / 8, 4ll << 20, 64ll << 20);
  BackendCalibration c;
  mpi::collectively(comm_, [&] {
    calibrate_host(comm_, es, block, threads_, c);
    c.gpu_round_trip = time_gpu_round_trip(comm_, es, c.bytes);
  });
  mpi::ExchangeKind picked = mpi::ExchangeKind::Mpi;
  if (nranks_ > 1) {
    std::vector<std::pair<mpi::ExchangeKind, double>> times;
    mpi::collectively(comm_, [&] {
      picked = pick_fastest_exchange(comm_, "cuda", c.bytes, &report_.exchange_choice, &times);
    });
    for (const auto& [kind, seconds] : times)
      if (kind == mpi::ExchangeKind::Mpi) c.host_exchange = seconds;
    if (o_.exchange != mpi::ExchangeKind::Auto)  // the user's transport
      picked = mpi::is_host_exchange(o_.exchange) ? mpi::ExchangeKind::Mpi : o_.exchange;
    c.device_exchange = c.host_exchange;
    for (const auto& [kind, seconds] : times)
      if (kind == picked) c.device_exchange = seconds;
    c.device_transport = picked != mpi::ExchangeKind::Mpi;
  }
  const BackendDecision d = decide_backend(c, fused, nranks_);
  report_.backend_choice = d.reason;
  if (d.backend == "cpu") {
    choice_ = buffer_counts("cpu", mpi::ExchangeKind::Mpi, nranks_, choice_);
    gpu_mem_ = 0;
    report_.exchange_choice.clear();
  } else if (nranks_ > 1 && choice_.exchange == mpi::ExchangeKind::Auto) {
    choice_ = buffer_counts("cuda", picked, nranks_, choice_);  // timed above: not again
  }
}

/// 3. The output's names, taken: rank 0 locks the journal (a second run on the same output is
/// refused here, touching nothing), judges what lies at the output's names and decides whether
/// the run resumes.
void TransposeRun::claim_output() {
  try {
    mpi::collectively(comm_, [&] {
      if (me_ != 0) return;
      journal_ = JournalFile::acquire(journal_path_, o_.out.str());
      // Again, now that no other run can change them: one that finished meanwhile may have
      // published the output.
      io::check_output_target(o_.out, o_.in, o_.force, own_names(o_.out));
      struct stat st {};
      const bool partial = ::lstat(temp_path_.c_str(), &st) == 0;  // a regular file: checked above
      if (partial && journal_.created())
        throw OutputRefusedError(cat("'", temp_path_,
                                     "' exists, but no xpose journal claims it (another program's "
                                     "file, or a run killed as it started): remove it"));
      stale_partial_ = partial;
      const auto& previous = journal_.previous();
      if (o_.resume && !journal_.damage().empty()) throw ResumeRefusedError(journal_.damage());
      if (o_.resume && previous && partial) {
        const std::string diff = previous->identity.difference(identity_);
        if (!diff.empty())
          throw ResumeRefusedError(cat("cannot resume into '", o_.out.str(),
                                       "': the interrupted run differs in ", diff,
                                       " (run without --resume to start over)"));
        first_stage_ = previous->stages_done;
        if (!o_.quiet)
          std::fprintf(stderr, "xpose: resuming at stage %lld of %lld\n",
                       static_cast<long long>(first_stage_),
                       static_cast<long long>(plan_.num_stages()));
      } else if (o_.resume && !o_.quiet) {
        std::fprintf(stderr, "xpose: nothing to resume for '%s'; starting from the beginning\n",
                     o_.out.str().c_str());
      } else if ((previous || !journal_.damage().empty()) && !o_.quiet) {
        std::fprintf(stderr,
                     "xpose: starting over: an interrupted run of '%s' is discarded (--resume "
                     "continues it)\n",
                     o_.out.str().c_str());
      }
      // From here the journal names this run, for a second run's message.
      journal_.write(Journal{identity_, first_stage_, {}});
    });
  } catch (const Error&) {
    if (journal_.held() && journal_.created()) journal_.remove();
    throw;
  }
  XPOSE_CHECK_MPI(MPI_Bcast(&first_stage_, 1, MPI_INT64_T, 0, comm_));
}

/// 4 and 5. The partial output and the I/O paths. A failure here is agreed by every rank: a
/// fresh output is removed with its journal, a resumed one kept for another try.
void TransposeRun::set_up_output() {
  try {
    prepare_output();
    open_io();
  } catch (const Error&) {
    raw_out_.reset();
    if (first_stage_ > 0) {
      try {
        output_.suspend();
      } catch (const Error&) {
      }
    } else {
      output_.discard();
      if (me_ == 0) journal_.remove();
    }
    throw;
  }
}

/// 4. The partial output: created (exclusively, with the input's attributes and creation
/// properties) or, to resume, reopened.
void TransposeRun::prepare_output() {
  if (first_stage_ > 0) {
    mpi::collectively(comm_, [&] { output_ = io::OutputFile::reopen(o_.out, io_comm_.get()); });
    return;
  }
  mpi::collectively(comm_, [&] {
    if (me_ != 0) return;
    // An interrupted run's partial output (its journal claimed it), started over.
    if (stale_partial_ && ::unlink(temp_path_.c_str()) != 0 && errno != ENOENT)
      throw OutputRefusedError(
          cat("cannot remove the interrupted run's '", temp_path_, "': ", std::strerror(errno)));
    io::check_free_space(o_.out.file, plan_.total_bytes() + (1 << 20));
  });
  mpi::collectively(comm_, [&] {
    io::CreateOptions create;
    create.chunk = o_.chunk.empty() && o_.compress_level >= 0 ? default_chunk(plan_) : o_.chunk;
    create.deflate = o_.compress_level;
    create.like = &input_.dataset();
    if (o_.force) create.mode = io::replacement_mode(o_.out.file);
    output_ = io::OutputFile::create(o_.out, plan_.out_shape, input_.dataset().type(), create,
                                     io_comm_.get());
  });
  mpi::collectively(comm_, [&] {
    report_.dropped_attributes =
        output_.copy_attributes_from(input_.dataset(), reference_attributes_hook());
    rebuild_dimension_scales(input_, output_, plan_);
    write_provenance(output_, o_, plan_.shape);
    output_.set_fixed_attribute("xpose_complete", "no", 3);
    // On disk before a journal counts any stage of it: from here the file stays valid.
    output_.flush();
  });
  if (me_ == 0 && !report_.dropped_attributes.empty()) {
    std::string names;
    for (const auto& n : report_.dropped_attributes)
      names += cat(names.empty() ? "" : ", ", "'", n, "'");
    std::fprintf(
        stderr,
        "xpose: warning: not carried over to '%s' (they hold references into the input file): %s\n",
        o_.out.str().c_str(), names.c_str());
  }
}

/// 5. Direct I/O where every rank can use it, HDF5 otherwise; the backend and its buffers.
void TransposeRun::open_io() {
  auto transfer_name = [](io::Transfer t) {
    return t == io::Transfer::Collective ? "collective" : "independent";
  };
  if (empty()) {
    report_.io = "none (the dataset is empty)";
    return;
  }
  io::RawStorage::remove_on_fault(temp_path_, journal_path_);
  if (o_.direct_io) {
    raw_in_ = io::RawStorage::open_input(input_);
    raw_out_ = io::RawStorage::open_output(output_);
    // Merged axes of wide elements (axes.h): the same bytes at the same offsets.
    if (raw_in_) raw_in_->view_as(plan_.axes.merged_in_shape(), plan_.elem_size);
    if (raw_out_) raw_out_->view_as(plan_.axes.merged_out_shape(), plan_.elem_size);
    if (mpi::allreduce_max(comm_, std::int64_t{raw_in_ ? 0 : 1}) != 0) raw_in_.reset();
    if (mpi::allreduce_max(comm_, std::int64_t{raw_out_ ? 0 : 1}) != 0) raw_out_.reset();
  }
  // The CPU backend works straight on mapped files when both sides are mapped: the transpose
  // reads the input's pages and writes the output's, with no read or write copies.
  fused_ = choice_.backend == "cpu" && raw_in_ && raw_out_ && raw_out_->address(Shape{}) != nullptr;
  // Under an explicit --host-mem that the rank's input slab exceeds, pieces of the input read
  // through the map would keep whole page-cache folios (up to 2 MiB each on current kernels)
  // mapped for every piece of a few KiB they touch: a stage of pieces 1 MiB apart mapped the
  // whole 512 MiB slab. Such runs read their pieces with pread into the stage buffers instead.
  if (fused_ && o_.host_mem > 0) {
    const std::int64_t slab = plan_.batch_outer * plan_.batch_inner * plan_.rows_read(me_) * plan_.cols *
                              static_cast<std::int64_t>(plan_.elem_size);
    if (mpi::allreduce_max(comm_, slab + 2 * plan_.buffer_bytes() > o_.host_mem ? std::int64_t{1} : 0) != 0)
      fused_ = false;
  }
  mpi::collectively(comm_, [&] {
    backend_ = choice_.backend == "cuda" ? make_cuda_backend(plan_, comm_, choice_, threads_)
                                         : make_cpu_backend(plan_, comm_, threads_, fused_);
  });
  // Every stage reads the same input rows (other columns), so the mapped row slab stays mapped:
  // its pages are the file's clean page cache, which the kernel can reclaim, but they count in
  // the resident set. With an explicit --host-mem smaller than the slab and the buffers, the
  // stages read their pieces with pread instead (and the fused CPU path lets its mapped rows go
  // band by band), keeping the resident set within the budget.
  const auto es = static_cast<std::int64_t>(plan_.elem_size);
  const std::int64_t slab_bytes =
      plan_.batch_outer * plan_.batch_inner * plan_.rows_read(me_) * plan_.cols * es;
  const std::int64_t buffers_bytes = plan_.buffer_bytes() * (fused_ ? 2 : plan_.host_buffers);
  bound_input_ = raw_in_ && o_.host_mem > 0 && slab_bytes + buffers_bytes > o_.host_mem;
  report_.io =
      fused_
          ? std::string("mapped input and output: the transpose reads and writes the files' pages")
          : cat(raw_in_ ? (bound_input_ ? "direct (pread)" : "direct (mmap)")
                        : transfer_name(o_.read_transfer),
                " read, ",
                raw_out_ ? cat("direct (", raw_out_->method(), ")")
                         : transfer_name(o_.write_transfer),
                " write");
}

/// The input pieces of stage `k` into the backend's slot (or, fused, the output band mapped
/// ahead): a task of the read worker. The input is checked first: a change is an error here.
void TransposeRun::read_stage(std::int64_t k) {
  const Plan& plan = plan_;
  PhaseTimes& t = report_.times;
  const char* lane = own_read_io_ ? "read" : "io";
  const Stage st = plan.stage(k);
  const StageGeometry g = StageGeometry::make(plan, st, me_);
  auto populate_band = [&] {
    if (g.my_w > 0)
      raw_out_->populate(
          raw_out_boxes(plan, {stage_region(plan, st, 0, plan.rows, my_out0_ + st.col_offset, g.my_w)}), true,
          threads_);
  };
  if (fused_) {
    // The transform reads and writes the mapped files itself; map the stage's output band
    // (and once, a slab that may stay resident) ahead of it, off the critical path.
    PhaseScope scope(*trace_, "map", lane, t.read, k);
    populate_band();
    return;
  }
  {
    PhaseScope scope(*trace_, "read", lane, t.read, k);
    input_.check_unchanged();
    std::vector<Region> regions;  // one piece per destination, from this rank's rows
    if (g.my_rows > 0)
      for (int q = 0; q < nranks_; ++q)
        if (g.widths[q] > 0)
          regions.push_back(stage_region(plan, st, my_row0_, g.my_rows,
                                         plan.out_rows.offset(q) + st.col_offset, g.widths[q]));
    // The union in file order: [nb][my_rows][sum_w] (or [my_rows][nb][sum_w] where the batch
    // axis is inside the rows: AxisMap::in_batch_outer), the pieces side by side.
    std::byte* slot = backend_->input_slot(static_cast<int>(k % 2));
    try {
      if (raw_in_)
        raw_in_->read(raw_in_boxes(plan, regions), slot, threads_, bound_input_);
      else
        input_.dataset().read(h5_in_boxes(plan, regions), slot, o_.read_transfer);
    } catch (const Error&) {
      input_.check_unchanged();  // a read that failed because the input shrank says so
      throw;
    }
  }
  // A mapped output's pages for this stage's band, allocated here, ahead of its write:
  // faulting them in during the write made the write phase the pipeline's slowest.
  if (populate_ahead_) {
    PhaseScope scope(*trace_, "map", "read", t.read, k);
    populate_band();
  }
}

/// Stage `k`'s output band to the file, durable before the journal counts it (a lost node must
/// not lose a counted stage): a task of the write worker.
void TransposeRun::write_stage(std::int64_t k) {
  const Plan& plan = plan_;
  const Stage st = plan.stage(k);
  const StageGeometry g = StageGeometry::make(plan, st, me_);
  PhaseScope scope(*trace_, "write", own_write_io_ ? "write" : "io", report_.times.write, k);
  std::vector<Region> regions;
  if (g.my_w > 0) regions.push_back(stage_region(plan, st, 0, plan.rows, my_out0_ + st.col_offset, g.my_w));
  if (!raw_out_) {
    output_.dataset().write(h5_out_boxes(plan, regions), backend_->output_slot(static_cast<int>(k % 2)),
                            o_.write_transfer);
    output_.flush();
    durable_ = k + 1;
    return;
  }
  const std::vector<io::Box> boxes = raw_out_boxes(plan, regions);
  if (fused_)
    raw_out_->mark_written(boxes);  // the transform wrote them through the map
  else
    raw_out_->write(boxes, backend_->output_slot(static_cast<int>(k % 2)), threads_);
  // A sync a stage kept the disk idle while the next band was copied: start the band's
  // writeback now and make everything written durable about once a second.
  if (k + 1 == plan.num_stages() || Clock::now() - last_sync_ >= std::chrono::seconds(1)) {
    raw_out_->sync();
    last_sync_ = Clock::now();
    durable_ = k + 1;
  } else {
    raw_out_->start_writeback();
  }
  raw_out_->release(boxes);
}

/// Stage `k`'s local transposes and exchange: from the backend's slots, or (fused) straight
/// from the mapped input's pages to the mapped output's. Collective.
void TransposeRun::transform_stage(std::int64_t k) {
  const Plan& plan = plan_;
  const Stage st = plan.stage(k);
  const StageGeometry g = StageGeometry::make(plan, st, me_);
  if (!fused_) {
    backend_->transform(g, static_cast<int>(k % 2), nullptr, report_.times, *trace_);
    return;
  }
  StageViews views = mapped_views(plan, st, *raw_in_, *raw_out_, my_row0_, my_out0_);
  if (bound_input_) {
    // Bands of about 16 MiB of the input the stage reads (its pieces of nb x rows rows; a band
    // of one long row would leave the kernel a 1-row transpose scattering single elements).
    const auto es = static_cast<std::int64_t>(plan.elem_size);
    views.band_rows = std::max<std::int64_t>(1, (16ll << 20) / std::max<std::int64_t>(1, g.nb * g.sum_w * es));
    views.release_input = [&](std::int64_t first, std::int64_t rows) {
      raw_in_->release(raw_in_boxes(plan, {stage_region(plan, st, my_row0_ + first, rows, 0, plan.cols)}));
    };
  }
  backend_->transform(g, static_cast<int>(k % 2), &views, report_.times, *trace_);
}

/// 6. The stage loop: read(k+1) and write(k-1) on the I/O workers while stage k is transformed
/// and exchanged; one small agreement per stage (stop signals, durable stages for the journal).
/// Any failure here ends the job (abort_job): the ranks may be anywhere.
void TransposeRun::run_stages() {
  const Plan& plan = plan_;
  const std::int64_t stages = plan.num_stages();
  report_.plan = plan;
  report_.backend = backend_ ? backend_->name() : choice_.backend;
  report_.exchange = nranks_ > 1 && backend_ ? backend_->exchange_name() : "none";
  report_.overlapped = threaded_;
  report_.first_stage = first_stage_;
  my_row0_ = plan.first_row_read(me_);
  my_out0_ = plan.out_rows.offset(me_);
  auto stage_bytes = [&](std::int64_t k) {
    const Stage st = plan.stage(k);
    return st.inner_count * plan.rows * plan.total_width(st) *
           static_cast<std::int64_t>(plan.elem_size);
  };
  std::int64_t done_bytes = 0;
  for (std::int64_t k = 0; k < first_stage_; ++k) done_bytes += stage_bytes(k);
  progress_.emplace("transpose", plan.total_bytes(), me_ == 0 && !o_.quiet, o_.progress_interval,
                    done_bytes);
  XPOSE_CHECK_MPI(MPI_Barrier(comm_));  // a common time origin for every rank's trace
  trace_.emplace(!o_.trace_path.empty());
  stopped_after_ = stages;

  // Every HDF5 call runs on one I/O worker, in the same order on every rank: read 0, read 1,
  // write 0, read 2, write 1, ... so reads and writes overlap the transforms. Direct reads and
  // writes touch no HDF5 and get a worker each, so that a stage's read, the previous stage's
  // write and the transform between them all run at once.
  IoWorker hdf5_io(threaded_);
  if (o_.overlap && raw_in_) own_read_io_ = std::make_unique<IoWorker>(true);
  if (o_.overlap && raw_out_) own_write_io_ = std::make_unique<IoWorker>(true);
  IoWorker& read_io = own_read_io_ ? *own_read_io_ : hdf5_io;
  IoWorker& write_io = own_write_io_ ? *own_write_io_ : hdf5_io;
  // Output bands mapped ahead stay resident until written: up to three bands beyond the buffers,
  // so only where an explicit --host-mem leaves room for them.
  const std::int64_t buffers_bytes = plan.buffer_bytes() * (fused_ ? 2 : plan.host_buffers);
  populate_ahead_ = !fused_ && raw_out_ && raw_out_->address(Shape{}) != nullptr && own_read_io_ &&
                    own_write_io_ &&
                    !(o_.host_mem > 0 && buffers_bytes + 3 * plan.buffer_bytes() > o_.host_mem);
  durable_ = first_stage_;
  last_sync_ = Clock::now();
  auto submit_read = [&](std::int64_t k) { return read_io.submit([this, k] { read_stage(k); }); };
  auto submit_write = [&](std::int64_t k) {
    return write_io.submit([this, k] { write_stage(k); });
  };

  StopSignals stop_signals;
  try {
    std::vector<std::future<void>> reads(static_cast<std::size_t>(stages)),
        writes(static_cast<std::size_t>(stages));
    for (std::int64_t k = first_stage_; k < std::min<std::int64_t>(first_stage_ + 2, stages); ++k)
      reads[k] = submit_read(k);
    std::int64_t local_done = first_stage_, journaled = first_stage_;
    for (std::int64_t k = first_stage_; k < stages; ++k) {
      // Mapping ahead is only advice: a fused stage need not wait for it (pages fault in anyway),
      // but it reads the input right here, so its check is here too.
      if (fused_)
        input_.check_unchanged();
      else
        reads[k].get();
      if (k >= first_stage_ + 2 && writes[k - 2].valid())
        writes[k - 2].get();  // its slot is reused next
      if (hooks_.hold_stage == k) {
        // Every rank's check of this stage is done before the test acts on the files.
        XPOSE_CHECK_MPI(MPI_Barrier(comm_));
        if (me_ == 0) hooks_.hold(k);
      }
      transform_stage(k);
      writes[k] = submit_write(k);
      if (me_ == 0 && hooks_.signal_stage == k) std::raise(hooks_.signal);
      done_bytes += stage_bytes(k);
      progress_->update(done_bytes);
      // One small collective per stage: have all ranks seen a stop signal, and which stages are
      // durable everywhere (for the journal)?
      auto write_done = [&](std::int64_t j) {  // without blocking; rethrows the write's error
        if (!writes[j].valid()) return true;   // already collected
        if (writes[j].wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
        writes[j].get();
        return true;
      };
      while (local_done < k + 1 && write_done(local_done)) ++local_done;
      std::int64_t mine[2] = {-static_cast<std::int64_t>(StopSignals::received()),
                              std::min(local_done, durable_.load())},
                   agreed[2];
      XPOSE_CHECK_MPI(MPI_Allreduce(mine, agreed, 2, MPI_INT64_T, MPI_MIN, comm_));
      if (me_ == 0 && agreed[1] > journaled) {
        journaled = agreed[1];
        journal_.write(Journal{identity_, journaled, {}});
      }
      if (agreed[0] != 0 && k + 1 < stages) {
        stop_signal_ = static_cast<int>(-agreed[0]);
        stopped_after_ = k + 1;
        if (k + 1 < stages && reads[k + 1].valid()) reads[k + 1].get();  // let in-flight I/O finish
        if (k + 2 < stages && reads[k + 2].valid()) reads[k + 2].get();
        break;
      }
      if (k + 2 < stages) reads[k + 2] = submit_read(k + 2);
    }
    for (std::int64_t k = std::max<std::int64_t>(first_stage_, stopped_after_ - 2);
         k < stopped_after_; ++k)
      if (writes[k].valid()) writes[k].get();
    // Reads run on their own worker, and a fused stage never waits for its mapping-ahead task:
    // none may still be running when the storage it maps is closed.
    for (auto& r : reads)
      if (r.valid()) r.wait();
    own_read_io_.reset();
    own_write_io_.reset();
  } catch (const Error& e) {
    std::remove(journal_path_.c_str());  // whichever rank fails: the others are about to be ended
    abort_job(comm_, e, temp_path_);
  } catch (const std::exception& e) {
    std::remove(journal_path_.c_str());
    abort_job(comm_, InternalError(e.what()), temp_path_);
  }
}

/// 7. A stopped run is kept for --resume (exit 75); a finished one is checked against its input
/// once more and published under its final name, and the journal goes.
TransposeReport TransposeRun::finish() {
  const std::int64_t stages = plan_.num_stages();
  if (stop_signal_ != 0) {
    // Every rank stopped after the same stage and its writes are durable: record it, close the
    // partial file, and leave together (Open MPI's launchers end the job at the first non-zero
    // exit, so no rank may leave before all have flushed).
    mpi::collectively(comm_, [&] {
      if (raw_out_) raw_out_->sync();  // the last stages' writeback may only have been started
    });
    mpi::collectively(comm_, [&] {
      if (me_ == 0 && !journal_.write(Journal{identity_, stopped_after_, {}}))
        throw IoError(cat("the journal '", journal_path_,
                          "' was removed during the run; the stopped run cannot be resumed"));
    });
    raw_out_.reset();
    output_.suspend();
    progress_->finish();
    XPOSE_CHECK_MPI(MPI_Barrier(comm_));
    throw InterruptedError(cat("stopped by ", StopSignals::name(stop_signal_), " after stage ",
                               stopped_after_, " of ", stages,
                               "; the partial output is kept: rerun with --resume to continue"));
  }

  raw_out_.reset();  // closes its descriptor; the data is synced
  try {
    // The input once more: a change after the last stage's read would be in the output.
    mpi::collectively(comm_, [&] { input_.check_unchanged(); });
    mpi::collectively(comm_, [&] {
      output_.set_fixed_attribute("xpose_complete", "yes", 3);
      output_.commit();
    });
  } catch (const Error&) {
    output_.discard();  // every rank is here (agreed); a failed commit has removed it already
    if (me_ == 0) journal_.remove();
    throw;
  }
  if (me_ == 0) journal_.remove();
  progress_->update(plan_.total_bytes());
  progress_->finish();

  PhaseTimes& t = report_.times;
  t.wall = seconds_since(t_start_);
  for (double* v : {&t.read, &t.h2d, &t.kernel, &t.exchange, &t.unpack, &t.d2h, &t.write, &t.wall})
    *v = mpi::allreduce_max(comm_, *v);
  if (!o_.trace_path.empty()) {
    // The output is complete: a timeline that cannot be written is worth a warning, not a failure.
    try {
      mpi::collectively(comm_, [&] { trace_->write(comm_, o_.trace_path); });
    } catch (const Error& e) {
      if (me_ == 0)
        std::fprintf(stderr, "xpose: warning: the output is complete, but %s\n", e.what());
    }
  }
  return report_;
}

}  // namespace

void set_io_mode(TransposeOptions& o, const std::string& mode) {
  if (mode != "auto" && mode != "collective" && mode != "independent")
    throw UsageError(cat("--io must be auto, collective or independent, not '", mode, "'"));
  o.read_transfer = o.write_transfer =
      mode == "independent" ? io::Transfer::Independent : io::Transfer::Collective;
  o.direct_io = mode == "auto";
}

std::int64_t default_host_mem(MPI_Comm comm) {
  const auto local = mpi::local_rank(comm);
  std::int64_t share = mem_available_bytes() / 4 / std::max(1, local.size);
  return std::max<std::int64_t>(share, 64ll << 20);
}

int default_threads(MPI_Comm comm) {
  const auto local = mpi::local_rank(comm);
  int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, cores / std::max(1, local.size));
}

std::int64_t host_mem_budget(MPI_Comm comm, const TransposeOptions& o) {
  return o.host_mem > 0 ? o.host_mem : default_host_mem(comm);
}

std::int64_t gpu_mem_budget(MPI_Comm comm, const TransposeOptions& o) {
  return o.gpu_mem > 0 ? o.gpu_mem : default_gpu_mem(comm);
}

int thread_count(MPI_Comm comm, const TransposeOptions& o) {
  return o.threads > 0 ? o.threads : default_threads(comm);
}

Plan plan_for(MPI_Comm comm, const io::Dataset& dataset, const TransposeOptions& o) {
  std::pair<BackendChoice, std::int64_t> choice;
  mpi::collectively(comm, [&] {
    check_options(o);
    choice = planned_choice(comm, o);
  });
  const std::int64_t host_mem = host_mem_budget(comm, o);
  Plan plan;
  mpi::collectively(comm, [&] {
    io::check_transposable(dataset);
    plan = make_plan(
        plan_request(dataset, o.axes, mpi::size(comm), host_mem, choice.first, choice.second, o.max_width));
  });
  return plan;
}

Plan plan_transpose(MPI_Comm comm, const TransposeOptions& o) {
  io::InputFile input = open_checked(comm, comm, o, false);
  return plan_for(comm, input.dataset(), o);
}

void abort_job(MPI_Comm comm, const Error& error, const std::string& temporary_output) {
  std::fprintf(stderr, "xpose: error: %s (rank %d)\n", error.what(), mpi::rank(comm));
  std::fflush(stderr);
  // Only unlink: HDF5 may be busy on the I/O thread, and the job ends here anyway.
  if (!temporary_output.empty()) std::remove(temporary_output.c_str());
  MPI_Abort(comm, static_cast<int>(error.code()));
  std::_Exit(static_cast<int>(error.code()));  // MPI_Abort does not return; belt and braces
}

TransposeReport run_transpose(MPI_Comm comm, const TransposeOptions& options) {
  TransposeRun run(comm, options);
  run.check_before_work();  // options, input, output names, sizes: nothing is written yet
  run.choose_backend();     // backend, transport, budgets, plan
  run.claim_output();       // the journal locked; our names judged; resume decided
  run.set_up_output();      // the partial output, the I/O paths, the backend's buffers
  run.run_stages();         // the stage loop; a failure from here on ends the job
  return run.finish();      // commit (or keep a stopped run resumable) and the report
}

}  // namespace xpose
