#include "xpose/file_transpose.h"

#include <mpi.h>

#include "engine/src/file_transpose_summary.h"
#include "engine/src/json.h"

namespace xpose {

FileTransposeSummary summarize(const TransposeOptions& o, const TransposeReport* r, ExitCode status,
                               const std::string& error) {
  FileTransposeSummary s;
  s.input = o.in.str();
  s.output = o.out.str();
  s.status = status;
  s.error = error;
  if (!r) return s;
  const Plan& plan = r->plan;
  s.completed = true;
  s.shape = plan.shape;
  s.element_size = static_cast<std::int64_t>(plan.elem_size);
  s.bytes = plan.total_bytes();
  s.ranks = plan.nranks;
  s.backend = r->backend;
  s.exchange = r->exchange;
  s.backend_choice = r->backend_choice;
  s.exchange_choice = r->exchange_choice;
  s.stages = plan.num_stages();
  s.stage_width = plan.width;
  s.memory_per_rank = plan.memory_per_rank();
  s.overlapped = r->overlapped;
  s.io = r->io;
  s.wall_seconds = r->times.wall;
  s.resumed_at_stage = r->first_stage;
  s.dropped_attributes = r->dropped_attributes;

  // Each phase with the bytes it moves, for its bandwidth.
  const double bytes = static_cast<double>(plan.total_bytes());
  std::int64_t exchanged = 0;
  for (int p = 0; p < plan.nranks; ++p) exchanged += plan.exchanged_bytes(p);
  const bool cuda = r->backend == "cuda";
  auto add = [&](const char* name, double seconds, double moved) {
    s.phases.push_back({name, seconds, seconds > 0 ? moved / seconds / 1e9 : 0.0});
  };
  add("read", r->times.read, bytes);
  if (cuda) add("h2d", r->times.h2d, bytes);
  add(cuda ? "kernel" : "transpose", r->times.kernel, 2 * bytes);
  if (plan.nranks > 1) add("exchange", r->times.exchange, static_cast<double>(exchanged));
  if (plan.nranks > 1 && r->times.unpack > 0) add("unpack", r->times.unpack, 2 * bytes);
  if (cuda) add("d2h", r->times.d2h, bytes);
  add("write", r->times.write, bytes);
  add("wall", r->times.wall, bytes);
  return s;
}

std::string FileTransposeSummary::json() const {
  JsonWriter j;
  j.begin_object();
  j.value("command", "transpose").value("input", input).value("output", output);
  j.value("status", exit_code_name(status)).value("exit_code", static_cast<int>(status));
  if (!error.empty()) j.value("error", error);
  if (completed) {
    j.value("shape", std::vector<std::int64_t>(shape.begin(), shape.end()));
    j.value("element_size", element_size);
    j.value("bytes", bytes).value("ranks", ranks);
    j.value("backend", backend).value("exchange", exchange).value("stages", stages);
    if (!backend_choice.empty()) j.value("backend_choice", backend_choice);
    if (!exchange_choice.empty()) j.value("exchange_choice", exchange_choice);
    j.value("stage_width", stage_width).value("memory_per_rank", memory_per_rank);
    j.value("overlapped", overlapped).value("io", io);
    j.begin_object("phases");
    for (const auto& p : phases)
      j.begin_object(p.name).value("seconds", p.seconds).value("GBps", p.gbps).end_object();
    j.end_object();
    j.value("wall_seconds", wall_seconds);
    j.value("resumed_at_stage", resumed_at_stage);
    j.value("dropped_attributes", dropped_attributes);
  }
  j.end_object();
  return j.str();
}

FileTransposeSummary transpose_file(const FileTransposeOptions& options, CommHandle comm) {
  // Every check here depends on the options alone, so every rank throws alike; the ranges of
  // the options are run_transpose's to check (one place for every caller).
  TransposeOptions o;
  o.in = io::DatasetRef::parse(options.input);
  o.out = io::DatasetRef::parse(options.output);
  o.axes = options.axes;  // numbers or dimension names, resolved against the input (axes.h)
  o.host_mem = options.host_mem;
  o.gpu_mem = options.gpu_mem;
  o.backend = options.backend;
  o.exchange = mpi::parse_exchange_kind(options.exchange);
  set_io_mode(o, options.io);
  o.resume = options.resume;
  o.force = options.force;
  o.quiet = options.quiet;
  o.progress_interval = options.progress_interval;
  o.trace_path = options.trace;
  const TransposeReport report = run_transpose(comm.get<MPI_Comm>(), o);
  return summarize(o, &report);
}

std::int64_t default_host_mem(CommHandle comm) {
  return default_host_mem(comm.get<MPI_Comm>());  // the engine's (transpose_job.h)
}

}  // namespace xpose
