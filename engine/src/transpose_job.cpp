#include "engine/src/transpose_job.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <thread>
#include <vector>

#include "engine/src/host_buffer.h"
#include "engine/src/io_worker.h"
#include "engine/src/journal.h"
#include "engine/src/stop_signals.h"
#include "engine/src/progress.h"
#include "engine/src/trace.h"
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

/// Start and count of a box over [outer batch axes..., inner, row, col] for a stage.
io::Box stage_box(const Plan& plan, const Stage& s, std::int64_t row0, std::int64_t nrows, std::int64_t col0,
                  std::int64_t ncols) {
  const std::size_t rank = plan.shape.size();
  io::Box box;
  box.start.assign(rank, 0);
  box.count.assign(rank, 1);
  // Unravel the flattened outer index over the batch axes before the innermost one.
  std::int64_t outer = s.outer;
  for (std::size_t d = rank >= 3 ? rank - 3 : 0; d-- > 0;) {
    box.start[d] = outer % plan.shape[d];
    outer /= plan.shape[d];
  }
  if (rank >= 3) {
    box.start[rank - 3] = s.inner_begin;
    box.count[rank - 3] = s.inner_count;
  }
  box.start[rank - 2] = row0;
  box.count[rank - 2] = nrows;
  box.start[rank - 1] = col0;
  box.count[rank - 1] = ncols;
  return box;
}

/// The stage's pieces and output rows inside the mapped input and output files.
StageViews mapped_views(const Plan& plan, const Stage& st, const io::RawStorage& in,
                        const io::RawStorage& out, std::int64_t my_row0, std::int64_t my_out0) {
  StageViews v;
  const io::Box in_first = stage_box(plan, st, my_row0, 1, 0, 1);
  const io::Box out_first = stage_box(plan, st, my_out0 + st.col_offset, 1, 0, 1);
  v.in = in.address(in_first.start);
  v.in_pitch = plan.cols;
  v.in_batch_stride = plan.rows * plan.cols;
  v.in_col.resize(static_cast<std::size_t>(plan.nranks));
  for (int q = 0; q < plan.nranks; ++q) v.in_col[q] = plan.out_rows.offset(q) + st.col_offset;
  v.out = out.address(out_first.start);
  v.out_pitch = plan.rows;
  v.out_batch_stride = plan.cols * plan.rows;
  return v;
}

void write_provenance(io::OutputFile& out, const TransposeOptions& o, const Shape& in_shape) {
  char resolved[PATH_MAX];
  std::string source = realpath(o.in.file.c_str(), resolved) ? std::string(resolved) : o.in.file;
  out.set_attribute("xpose_source_file", source);
  out.set_attribute("xpose_source_path", o.in.path);
  out.set_attribute("xpose_source_shape", std::vector<std::int64_t>(in_shape.begin(), in_shape.end()));
  out.set_attribute("xpose_version", std::string(XPOSE_VERSION));
}

RunIdentity run_identity(const TransposeOptions& o, const Plan& plan, const io::Dataset& in) {
  RunIdentity id;
  char resolved[PATH_MAX];
  id.input = (realpath(o.in.file.c_str(), resolved) ? std::string(resolved) : o.in.file) + ":" + o.in.path;
  struct stat st {};
  if (::stat(o.in.file.c_str(), &st) == 0) {
    id.input_bytes = static_cast<std::int64_t>(st.st_size);
    id.input_mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  }
  id.output = o.out.str();
  id.shape = plan.shape;
  id.element_size = static_cast<std::int64_t>(plan.elem_size);
  id.datatype = in.info().type_description;
  id.ranks = plan.nranks;
  id.stages = plan.num_stages();
  id.stage_width = plan.width;
  id.matrices_per_stage = plan.inner_per_stage;
  id.chunk = o.chunk;
  return id;
}

}  // namespace

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

namespace {

struct Prepared {
  io::InputFile input;
  Plan plan;
};

PlanRequest plan_request(const io::Dataset& in, int nranks, std::int64_t host_mem, const BackendChoice& choice,
                         std::int64_t gpu_mem, std::int64_t max_width) {
  PlanRequest req;
  req.shape = in.info().shape;
  req.elem_size = in.info().element.size;
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
  return req;
}

Prepared prepare(MPI_Comm comm, MPI_Comm io_comm, const TransposeOptions& o, std::int64_t host_mem,
                 const BackendChoice& choice, std::int64_t gpu_mem) {
  Prepared p;
  mpi::collectively(comm, [&] { io::check_output_target(o.out, o.in, o.force); });
  mpi::collectively(comm, [&] { p.input = io::InputFile::open(o.in, io_comm); });
  mpi::collectively(comm, [&] {
    io::check_transposable(p.input.dataset());
    p.plan = make_plan(plan_request(p.input.dataset(), mpi::size(comm), host_mem, choice, gpu_mem, o.max_width));
    if (!o.chunk.empty() && o.chunk.size() != p.plan.shape.size())
      throw UsageError(cat("--chunk ", format_shape(o.chunk), " has ", o.chunk.size(), " axes; the output has ",
                           p.plan.shape.size()));
  });
  return p;
}

/// Buffer counts per backend and transport (DESIGN: in/out host slots are double-buffered so
/// the HDF5 thread reads stage k+1 and writes stage k-1 while stage k is transformed).
BackendChoice buffer_counts(const std::string& backend, mpi::ExchangeKind exchange, int nranks,
                            const BackendChoice& before = {}) {
  BackendChoice c = before;
  c.backend = backend;
  c.exchange = nranks > 1 ? exchange : mpi::ExchangeKind::Mpi;
  const bool host_exchange = nranks > 1 && c.exchange == mpi::ExchangeKind::Mpi;
  c.host_buffers = 4 + (host_exchange ? 2 : 0);
  c.device_buffers = backend == "cuda" ? (nranks > 1 && !host_exchange ? 3 : 2) : 0;
  return c;
}

/// Resolves --backend auto and --exchange auto; every rank reaches the same answer.
BackendChoice choose_backend(MPI_Comm comm, const TransposeOptions& o) {
  const int nranks = mpi::size(comm);
  std::string backend = o.backend;
  if (backend != "cpu" && backend != "cuda" && backend != "auto")
    throw UsageError(cat("--backend must be cpu, cuda or auto, not '", backend, "'"));
  const bool have_gpu = mpi::allreduce_max(comm, std::int64_t{cuda_device_available() ? 0 : 1}) == 0;  // all ranks see one
  if (backend == "auto") backend = have_gpu ? "cuda" : "cpu";
  if (backend == "cuda" && !have_gpu)
    throw UsageError(XPOSE_HAVE_CUDA ? "--backend cuda: no GPU is visible to every rank"
                                     : "--backend cuda: this xpose was built without CUDA");
  mpi::ExchangeKind exchange = o.exchange;
  if (backend == "cpu" && exchange != mpi::ExchangeKind::Auto && !mpi::is_host_exchange(exchange))
    throw UsageError(cat("--exchange ", mpi::exchange_kind_name(exchange), " needs the cuda backend"));
  if (backend == "cuda" && exchange == mpi::ExchangeKind::Nccl && nranks > 1 && ranks_share_gpus(comm))
    throw UsageError("--exchange nccl needs one GPU per rank, and ranks on a node here share GPUs (use mpi)");
  // The host MPI transport's algorithm: the planner's to choose under auto.
  BackendChoice before;
  before.host_exchange = exchange == mpi::ExchangeKind::Pairwise    ? HostExchange::Pairwise
                         : exchange == mpi::ExchangeKind::NodeAware ? HostExchange::NodeAware
                         : exchange == mpi::ExchangeKind::Auto      ? HostExchange::Auto
                                                                    : HostExchange::Alltoall;
  before.ranks_per_node = mpi::node_layout(comm).max_ranks_per_node;
  if (nranks == 1 || backend == "cpu" || mpi::is_host_exchange(exchange)) exchange = mpi::ExchangeKind::Mpi;
  return buffer_counts(backend, exchange, nranks, before);
}

}  // namespace

namespace {

/// The backend and budgets a run with these options would use, without timing the exchange:
/// an undecided `auto` exchange is planned with the most device buffers any transport needs.
std::pair<BackendChoice, std::int64_t> planned_choice(MPI_Comm comm, const TransposeOptions& o) {
  BackendChoice choice = choose_backend(comm, o);
  std::int64_t gpu_mem = 0;
  if (choice.backend == "cuda") {
    select_cuda_device(comm, true);
    gpu_mem = o.gpu_mem > 0 ? o.gpu_mem : default_gpu_mem(comm);
    if (choice.exchange == mpi::ExchangeKind::Auto)
      choice = buffer_counts("cuda", mpi::ExchangeKind::Nccl, mpi::size(comm), choice);
  }
  return {choice, gpu_mem};
}

}  // namespace

Plan plan_for(MPI_Comm comm, const io::Dataset& dataset, const TransposeOptions& o) {
  std::pair<BackendChoice, std::int64_t> choice;
  mpi::collectively(comm, [&] { choice = planned_choice(comm, o); });
  Plan plan;
  mpi::collectively(comm, [&] {
    io::check_transposable(dataset);
    plan = make_plan(plan_request(dataset, mpi::size(comm), o.host_mem > 0 ? o.host_mem : default_host_mem(comm),
                                  choice.first, choice.second, o.max_width));
  });
  return plan;
}

Plan plan_transpose(MPI_Comm comm, const TransposeOptions& o) {
  std::pair<BackendChoice, std::int64_t> choice;
  mpi::collectively(comm, [&] { choice = planned_choice(comm, o); });
  const std::int64_t host_mem = o.host_mem > 0 ? o.host_mem : default_host_mem(comm);
  return prepare(comm, comm, o, host_mem, choice.first, choice.second).plan;
}

void abort_job(MPI_Comm comm, const Error& error, const std::string& temporary_output) {
  std::fprintf(stderr, "xpose: error: %s (rank %d)\n", error.what(), mpi::rank(comm));
  std::fflush(stderr);
  // Only unlink: HDF5 may be busy on the I/O thread, and the job ends here anyway.
  if (!temporary_output.empty()) std::remove(temporary_output.c_str());
  MPI_Abort(comm, static_cast<int>(error.code()));
  std::_Exit(static_cast<int>(error.code()));  // MPI_Abort does not return; belt and braces
}

TransposeReport run_transpose(MPI_Comm comm, const TransposeOptions& o) {
  const auto t_start = Clock::now();
  const int me = mpi::rank(comm);
  const int nranks = mpi::size(comm);
  const std::int64_t host_mem = o.host_mem > 0 ? o.host_mem : default_host_mem(comm);
  const int threads = o.threads > 0 ? o.threads : default_threads(comm);
  TransposeReport report;

  // HDF5's collective I/O runs on its own thread and communicator, so it never interleaves with
  // the exchange's collectives on `comm`. That needs MPI_THREAD_MULTIPLE.
  int level = MPI_THREAD_SINGLE;
  XPOSE_CHECK_MPI(MPI_Query_thread(&level));
  const bool threaded = o.overlap && level == MPI_THREAD_MULTIPLE;
  MPI_Comm io_dup = MPI_COMM_NULL;
  XPOSE_CHECK_MPI(MPI_Comm_dup(comm, &io_dup));
  mpi::OwnedComm io_comm(io_dup);

  BackendChoice choice;
  mpi::collectively(comm, [&] { choice = choose_backend(comm, o); });
  std::int64_t gpu_mem = 0;
  if (choice.backend == "cuda") {
    mpi::collectively(comm, [&] {
      select_cuda_device(comm, o.quiet);
      gpu_mem = o.gpu_mem > 0 ? o.gpu_mem : default_gpu_mem(comm);
    });
    if (choice.exchange == mpi::ExchangeKind::Auto) {
      mpi::ExchangeKind picked = mpi::ExchangeKind::Mpi;
      mpi::collectively(comm, [&] { picked = pick_fastest_exchange(comm, "cuda", 64ll << 20, &report.exchange_choice); });
      choice = buffer_counts("cuda", picked, nranks, choice);
    }
  }

  Prepared prep = prepare(comm, io_comm.get(), o, host_mem, choice, gpu_mem);
  const Plan& plan = prep.plan;
  const io::Dataset& in = prep.input.dataset();
  const auto es = static_cast<std::int64_t>(plan.elem_size);
  const std::int64_t stages = plan.num_stages();

  // Resume: rank 0 reads the journal and decides; every rank follows.
  const RunIdentity identity = run_identity(o, plan, in);
  const std::string journal_path = Journal::path_for(o.out.file);
  std::int64_t first_stage = 0;
  mpi::collectively(comm, [&] {
    if (me != 0) return;
    std::optional<Journal> journal;
    bool damaged = false;
    try {
      journal = Journal::load(journal_path);
    } catch (const ResumeRefusedError&) {
      if (o.resume) throw;  // a damaged journal is never trusted; without --resume it is replaced
      damaged = true;
    }
    const bool partial = ::access(io::temporary_path_for(o.out.file).c_str(), F_OK) == 0;
    if (o.resume && journal && partial) {
      std::string diff = journal->identity.difference(identity);
      if (!diff.empty())
        throw ResumeRefusedError(cat("cannot resume into '", o.out.str(), "': the interrupted run differs in ", diff,
                                     " (run without --resume to start over)"));
      first_stage = journal->stages_done;
      if (!o.quiet)
        std::fprintf(stderr, "xpose: resuming at stage %lld of %lld\n", static_cast<long long>(first_stage),
                     static_cast<long long>(stages));
    } else if (o.resume && !o.quiet) {
      std::fprintf(stderr, "xpose: nothing to resume for '%s'; starting from the beginning\n", o.out.str().c_str());
    } else if ((journal || damaged) && !o.quiet) {
      std::fprintf(stderr, "xpose: starting over: an interrupted run of '%s' is discarded (--resume continues it)\n",
                   o.out.str().c_str());
    }
  });
  XPOSE_CHECK_MPI(MPI_Bcast(&first_stage, 1, MPI_INT64_T, 0, comm));

  io::OutputFile output;
  std::unique_ptr<io::RawStorage> raw_in, raw_out;
  std::unique_ptr<StageBackend> backend;
  bool fused = false;
  try {
    if (first_stage > 0) {
      mpi::collectively(comm, [&] { output = io::OutputFile::reopen(o.out, io_comm.get()); });
    } else {
      mpi::collectively(comm, [&] {
        if (me == 0) io::check_free_space(o.out.file, plan.total_bytes() + (1 << 20));
      });
      mpi::collectively(comm, [&] {
        io::CreateOptions create;
        create.chunk = o.chunk;
        output = io::OutputFile::create(o.out, plan.out_shape, in.type(), create, io_comm.get());
      });
      mpi::collectively(comm, [&] {
        output.copy_attributes_from(in);
        write_provenance(output, o, plan.shape);
        output.set_fixed_attribute("xpose_complete", "no", 3);
        // On disk before the journal names it: from here the file stays valid whatever happens.
        output.flush();
      });
      mpi::collectively(comm, [&] {
        if (me == 0) Journal{identity, 0}.save(journal_path);
      });
    }

    // Direct I/O where every rank can use it (contiguous, unfiltered datasets); HDF5 otherwise.
    if (o.direct_io) {
      io::RawStorage::also_remove_on_write_failure(journal_path);
      raw_in = io::RawStorage::open(o.in.file, in, false);
      raw_out = io::RawStorage::open(output.temporary_path(), output.dataset(), true);
      if (mpi::allreduce_max(comm, std::int64_t{raw_in ? 0 : 1}) != 0) raw_in.reset();
      if (mpi::allreduce_max(comm, std::int64_t{raw_out ? 0 : 1}) != 0) raw_out.reset();
    }
    // The CPU backend works straight on mapped files when both sides are mapped: the transpose
    // reads the input's pages and writes the output's, with no read or write copies.
    fused = choice.backend == "cpu" && raw_in && raw_out && raw_out->address(Shape{}) != nullptr;
    mpi::collectively(comm, [&] {
      backend = choice.backend == "cuda" ? make_cuda_backend(plan, comm, choice, threads)
                                         : make_cpu_backend(plan, comm, threads, fused);
    });
  } catch (const Error&) {
    // Every rank is here with the same error (each step above agrees collectively), so the
    // output can be closed collectively: a fresh one is removed, a resumed one kept.
    raw_out.reset();
    if (first_stage > 0) {
      try {
        output.suspend();
      } catch (const Error&) {
      }
    } else {
      output.discard();
      if (me == 0) std::remove(journal_path.c_str());
    }
    throw;
  }

  report.plan = plan;
  report.backend = backend->name();
  report.exchange = nranks > 1 ? backend->exchange_name() : "none";
  report.overlapped = threaded;
  report.first_stage = first_stage;
  PhaseTimes& t = report.times;

  const std::int64_t my_row0 = plan.in_rows.offset(me);
  const std::int64_t my_out0 = plan.out_rows.offset(me);
  auto stage_bytes = [&](std::int64_t k) {
    const Stage st = plan.stage(k);
    return st.inner_count * plan.rows * plan.total_width(st) * es;
  };
  std::int64_t done_bytes = 0;
  for (std::int64_t k = 0; k < first_stage; ++k) done_bytes += stage_bytes(k);
  Progress progress("transpose", plan.total_bytes(), me == 0 && !o.quiet, o.progress_interval, done_bytes);
  XPOSE_CHECK_MPI(MPI_Barrier(comm));  // a common time origin for every rank's trace
  Trace trace(!o.trace_path.empty());
  const std::string temp_path = output.temporary_path();

  // Every HDF5 call below runs on the I/O worker, in the same order on every rank:
  // read 0, read 1, write 0, read 2, write 1, ... so reads and writes overlap the transforms.
  IoWorker io(threaded);
  // Every stage reads the same input rows (other columns), so the mapped row slab stays mapped:
  // its pages are the file's clean page cache, which the kernel can reclaim, but they count in
  // the resident set. With an explicit --host-mem smaller than the slab and the buffers, the
  // stages read their pieces with pread instead (and the fused CPU path lets its mapped rows go
  // band by band), keeping the resident set within the budget.
  const std::int64_t slab_bytes = plan.batch_outer * plan.batch_inner * plan.in_rows.count(me) * plan.cols * es;
  const std::int64_t buffers_bytes = plan.buffer_bytes() * (fused ? 2 : plan.host_buffers);
  const bool bound_input = raw_in && o.host_mem > 0 && slab_bytes + buffers_bytes > o.host_mem;
  auto transfer_name = [](io::Transfer t) { return t == io::Transfer::Collective ? "collective" : "independent"; };
  report.io = fused ? std::string("mapped input and output: the transpose reads and writes the files' pages")
                    : cat(raw_in ? (bound_input ? "direct (pread)" : "direct (mmap)") : transfer_name(o.read_transfer),
                          " read, ", raw_out ? cat("direct (", raw_out->method(), ")") : transfer_name(o.write_transfer),
                          " write");
  auto read_boxes = [&](std::int64_t k) {  // one piece per destination, from this rank's rows
    const Stage st = plan.stage(k);
    const StageGeometry g = StageGeometry::make(plan, st, me);
    std::vector<io::Box> boxes;
    if (g.my_rows > 0)
      for (int q = 0; q < nranks; ++q)
        if (g.widths[q] > 0)
          boxes.push_back(stage_box(plan, st, my_row0, g.my_rows, plan.out_rows.offset(q) + st.col_offset, g.widths[q]));
    return boxes;
  };
  auto submit_read = [&](std::int64_t k) {
    return io.submit([&, k] {
      if (fused) {
        // The transform reads and writes the mapped files itself; map the stage's output band
        // (and once, a slab that may stay resident) ahead of it, off the critical path.
        PhaseScope scope(trace, "map", "io", t.read, k);
        const Stage st = plan.stage(k);
        const StageGeometry g = StageGeometry::make(plan, st, me);
        if (g.my_w > 0) raw_out->populate({stage_box(plan, st, my_out0 + st.col_offset, g.my_w, 0, plan.rows)}, true);
        return;
      }
      PhaseScope scope(trace, "read", "io", t.read, k);
      const std::vector<io::Box> boxes = read_boxes(k);
      // The union in file order: [nb][my_rows][sum_w], the pieces side by side.
      if (raw_in) {
        raw_in->read(boxes, backend->input_slot(static_cast<int>(k % 2)), threads, bound_input);
      }
      else
        in.read(boxes, backend->input_slot(static_cast<int>(k % 2)), o.read_transfer);
    });
  };
  auto submit_write = [&](std::int64_t k) {
    return io.submit([&, k] {
      const Stage st = plan.stage(k);
      const StageGeometry g = StageGeometry::make(plan, st, me);
      PhaseScope scope(trace, "write", "io", t.write, k);
      std::vector<io::Box> boxes;
      if (g.my_w > 0) boxes.push_back(stage_box(plan, st, my_out0 + st.col_offset, g.my_w, 0, plan.rows));
      // Durable before the journal counts it: a lost node must not lose a counted stage.
      if (fused) {
        raw_out->mark_written(boxes);  // the transform wrote them through the map
        raw_out->sync();
        raw_out->release(boxes);
      } else if (raw_out) {
        raw_out->write(boxes, backend->output_slot(static_cast<int>(k % 2)), threads);
        raw_out->sync();
        raw_out->release(boxes);
      } else {
        output.dataset().write(boxes, backend->output_slot(static_cast<int>(k % 2)), o.write_transfer);
        output.flush();
      }
    });
  };

  StopSignals stop_signals;
  // Tests of the stop and resume paths: XPOSE_TEST_SIGNAL_AT_STAGE=K:SIG makes rank 0 raise
  // signal SIG on itself after transforming stage K (a real signal, at a deterministic point).
  struct {
    std::int64_t stage = -1;
    int signal = 0;
  } test_signal;
  if (const char* spec = std::getenv("XPOSE_TEST_SIGNAL_AT_STAGE")) {
    long long stage = -1;
    if (std::sscanf(spec, "%lld:%d", &stage, &test_signal.signal) != 2)
      throw UsageError(cat("XPOSE_TEST_SIGNAL_AT_STAGE must be STAGE:SIGNAL, not '", spec, "'"));
    test_signal.stage = stage;
  }
  int stop_signal = 0;
  std::int64_t stopped_after = stages;
  try {
    std::vector<std::future<void>> reads(static_cast<std::size_t>(stages)), writes(static_cast<std::size_t>(stages));
    for (std::int64_t k = first_stage; k < std::min<std::int64_t>(first_stage + 2, stages); ++k) reads[k] = submit_read(k);
    std::int64_t local_done = first_stage, journaled = first_stage;
    for (std::int64_t k = first_stage; k < stages; ++k) {
      const StageGeometry g = StageGeometry::make(plan, plan.stage(k), me);
      // Mapping ahead is only advice: a fused stage need not wait for it (pages fault in anyway).
      if (!fused) reads[k].get();
      if (k >= first_stage + 2 && writes[k - 2].valid()) writes[k - 2].get();  // its slot is reused next
      if (fused) {
        StageViews views = mapped_views(plan, plan.stage(k), *raw_in, *raw_out, my_row0, my_out0);
        // Bands of about 16 MiB of input rows: the kernel's fault-around maps whole rows.
        const Stage st = plan.stage(k);
        if (bound_input) {
          views.band_rows = std::max<std::int64_t>(1, (16ll << 20) / (plan.cols * es));
          views.release_input = [&](std::int64_t first, std::int64_t rows) {
            raw_in->release({stage_box(plan, st, my_row0 + first, rows, 0, plan.cols)});
          };
        }
        backend->transform(g, static_cast<int>(k % 2), &views, t, trace);
      } else {
        backend->transform(g, static_cast<int>(k % 2), nullptr, t, trace);
      }
      writes[k] = submit_write(k);
      if (me == 0 && test_signal.stage == k) std::raise(test_signal.signal);
      done_bytes += stage_bytes(k);
      progress.update(done_bytes);
      // One small collective per stage: have all ranks seen a stop signal, and which stages are
      // durable everywhere (for the journal)?
      auto write_done = [&](std::int64_t j) {  // without blocking; rethrows the write's error
        if (!writes[j].valid()) return true;    // already collected
        if (writes[j].wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
        writes[j].get();
        return true;
      };
      while (local_done < k + 1 && write_done(local_done)) ++local_done;
      std::int64_t mine[2] = {-static_cast<std::int64_t>(StopSignals::received()), local_done}, agreed[2];
      XPOSE_CHECK_MPI(MPI_Allreduce(mine, agreed, 2, MPI_INT64_T, MPI_MIN, comm));
      if (me == 0 && agreed[1] > journaled) {
        journaled = agreed[1];
        Journal{identity, journaled}.update(journal_path);
      }
      if (agreed[0] != 0 && k + 1 < stages) {
        stop_signal = static_cast<int>(-agreed[0]);
        stopped_after = k + 1;
        if (k + 1 < stages && reads[k + 1].valid()) reads[k + 1].get();  // let in-flight I/O finish
        if (k + 2 < stages && reads[k + 2].valid()) reads[k + 2].get();
        break;
      }
      if (k + 2 < stages) reads[k + 2] = submit_read(k + 2);
    }
    for (std::int64_t k = std::max<std::int64_t>(first_stage, stopped_after - 2); k < stopped_after; ++k)
      if (writes[k].valid()) writes[k].get();
  } catch (const Error& e) {
    std::remove(journal_path.c_str());  // whichever rank fails: the others are about to be ended
    abort_job(comm, e, temp_path);
  } catch (const std::exception& e) {
    std::remove(journal_path.c_str());
    abort_job(comm, InternalError(e.what()), temp_path);
  }

  if (stop_signal != 0) {
    // Every rank stopped after the same stage and its writes are durable: record it, close the
    // partial file, and leave together (Open MPI's launchers end the job at the first non-zero
    // exit, so no rank may leave before all have flushed).
    mpi::collectively(comm, [&] {
      if (me == 0 && !Journal{identity, stopped_after}.update(journal_path))
        throw IoError(cat("the journal '", journal_path, "' was removed during the run; the stopped run cannot be resumed"));
    });
    raw_out.reset();
    output.suspend();
    progress.finish();
    XPOSE_CHECK_MPI(MPI_Barrier(comm));
    throw InterruptedError(cat("stopped by ", StopSignals::name(stop_signal), " after stage ", stopped_after, " of ",
                               stages, "; the partial output is kept: rerun with --resume to continue"));
  }

  raw_out.reset();  // closes its descriptor; the data is synced
  mpi::collectively(comm, [&] {
    output.set_fixed_attribute("xpose_complete", "yes", 3);
    output.commit();
    if (me == 0) std::remove(journal_path.c_str());
  });
  progress.update(plan.total_bytes());
  progress.finish();

  t.wall = seconds_since(t_start);
  for (double* v : {&t.read, &t.h2d, &t.kernel, &t.exchange, &t.unpack, &t.d2h, &t.write, &t.wall})
    *v = mpi::allreduce_max(comm, *v);
  if (!o.trace_path.empty()) mpi::collectively(comm, [&] { trace.write(comm, o.trace_path); });
  return report;
}

}  // namespace xpose
