#include "engine/src/transpose_job.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <vector>

#include "engine/src/host_buffer.h"
#include "engine/src/progress.h"
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

void write_provenance(io::OutputFile& out, const TransposeOptions& o, const Shape& in_shape) {
  char resolved[PATH_MAX];
  std::string source = realpath(o.in.file.c_str(), resolved) ? std::string(resolved) : o.in.file;
  out.set_attribute("xpose_source_file", source);
  out.set_attribute("xpose_source_path", o.in.path);
  out.set_attribute("xpose_source_shape", std::vector<std::int64_t>(in_shape.begin(), in_shape.end()));
  out.set_attribute("xpose_version", std::string(XPOSE_VERSION));
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

Prepared prepare(MPI_Comm comm, const TransposeOptions& o, std::int64_t host_mem) {
  Prepared p;
  mpi::collectively(comm, [&] {
    io::check_output_target(o.out, o.in, o.force);
  });
  mpi::collectively(comm, [&] { p.input = io::InputFile::open(o.in, comm); });
  mpi::collectively(comm, [&] {
    io::check_transposable(p.input.dataset());
    PlanRequest req;
    req.shape = p.input.dataset().info().shape;
    req.elem_size = p.input.dataset().info().element.size;
    req.nranks = mpi::size(comm);
    req.host_mem = host_mem;
    // One rank needs no exchange: the transpose writes straight into the output buffer.
    req.buffers = req.nranks == 1 ? 2 : 3;
    req.max_width = o.max_width;
    p.plan = make_plan(req);
    if (!o.chunk.empty() && o.chunk.size() != req.shape.size())
      throw UsageError(cat("--chunk ", format_shape(o.chunk), " has ", o.chunk.size(), " axes; the output has ",
                           req.shape.size()));
  });
  return p;
}

}  // namespace

Plan plan_transpose(MPI_Comm comm, const TransposeOptions& o) {
  std::int64_t host_mem = o.host_mem > 0 ? o.host_mem : default_host_mem(comm);
  return prepare(comm, o, host_mem).plan;
}

void abort_job(MPI_Comm comm, const Error& error, io::OutputFile* output) {
  std::fprintf(stderr, "xpose: error: %s (rank %d)\n", error.what(), mpi::rank(comm));
  std::fflush(stderr);
  if (output) output->abandon();
  MPI_Abort(comm, static_cast<int>(error.code()));
  std::_Exit(static_cast<int>(error.code()));  // MPI_Abort does not return; this is belt and braces
}

TransposeReport run_transpose(MPI_Comm comm, const TransposeOptions& o) {
  const auto t_start = Clock::now();
  if (o.backend != "cpu") throw UsageError(cat("backend '", o.backend, "' is not available in this version"));
  const int me = mpi::rank(comm);
  const int nranks = mpi::size(comm);
  const std::int64_t host_mem = o.host_mem > 0 ? o.host_mem : default_host_mem(comm);
  const int threads = o.threads > 0 ? o.threads : default_threads(comm);

  Prepared prep = prepare(comm, o, host_mem);
  const Plan& plan = prep.plan;
  const io::Dataset& in = prep.input.dataset();
  const std::size_t s = plan.elem_size;
  const auto es = static_cast<std::int64_t>(s);

  io::OutputFile output;
  mpi::collectively(comm, [&] {
    io::CreateOptions create;
    create.chunk = o.chunk;
    output = io::OutputFile::create(o.out, plan.out_shape, in.type(), create, comm);
  });
  mpi::collectively(comm, [&] {
    output.copy_attributes_from(in);
    write_provenance(output, o, plan.shape);
  });

  HostBuffer stage_in, stage_send, stage_recv;
  std::unique_ptr<mpi::Exchange> exchange;
  mpi::collectively(comm, [&] {
    stage_in = HostBuffer(plan.buffer_bytes());
    stage_send = HostBuffer(plan.buffer_bytes());
    if (nranks > 1) {
      stage_recv = HostBuffer(plan.buffer_bytes());
      exchange = mpi::make_exchange(o.exchange, comm, s);
    }
  });

  TransposeReport report;
  report.plan = plan;
  report.backend = "cpu";
  report.exchange = nranks > 1 ? mpi::exchange_kind_name(o.exchange) : "none";
  PhaseTimes& t = report.times;

  const std::int64_t my_rows = plan.in_rows.count(me);
  const std::int64_t my_row0 = plan.in_rows.offset(me);
  const std::int64_t my_out0 = plan.out_rows.offset(me);
  const std::int64_t rows_total = plan.rows;
  Progress progress("transpose", plan.total_bytes(), me == 0 && !o.quiet, o.progress_interval);
  std::int64_t done_bytes = 0;

  try {
    std::vector<io::Box> boxes;
    mpi::ExchangeLayout layout;
    for (std::int64_t k = 0; k < plan.num_stages(); ++k) {
      const Stage st = plan.stage(k);
      const std::int64_t nb = st.inner_count;
      std::vector<std::int64_t> widths(static_cast<std::size_t>(nranks));
      std::int64_t sum_w = 0;
      for (int q = 0; q < nranks; ++q) sum_w += widths[q] = plan.width_of(q, st);
      const std::int64_t my_w = widths[me];

      // Read: one box per destination, all from this rank's input rows. HDF5 packs the union
      // in file order, so the buffer is [nb][my_rows][sum_w] with the pieces side by side.
      auto t0 = Clock::now();
      boxes.clear();
      if (my_rows > 0)
        for (int q = 0; q < nranks; ++q)
          if (widths[q] > 0)
            boxes.push_back(stage_box(plan, st, my_row0, my_rows, plan.out_rows.offset(q) + st.col_offset, widths[q]));
      in.read(boxes, stage_in.data(), o.read_transfer);
      t.read += seconds_since(t0);

      // Pack: transpose each piece into its own contiguous segment [nb][w_q][my_rows]. With one
      // rank the segment is already the output band [nb][w][R].
      t0 = Clock::now();
      std::byte* packed = stage_send.data();
      std::int64_t col = 0;
      for (int q = 0; q < nranks; ++q) {
        if (widths[q] == 0 || my_rows == 0) continue;
        kernels::TransposeShape ts;
        ts.rows = my_rows;
        ts.cols = widths[q];
        ts.batch = nb;
        ts.in_pitch = sum_w;
        ts.out_pitch = my_rows;
        ts.in_batch_stride = my_rows * sum_w;
        ts.out_batch_stride = widths[q] * my_rows;
        kernels::transpose_cpu(stage_in.data() + col * es, packed + nb * my_rows * col * es, s, ts, threads);
        col += widths[q];
      }
      t.pack += seconds_since(t0);

      const std::byte* band = stage_send.data();
      if (nranks > 1) {
        // Exchange: piece q to rank q; from rank p we get [nb][my_w][rows of p].
        t0 = Clock::now();
        layout = mpi::ExchangeLayout{};
        layout.send_counts.resize(static_cast<std::size_t>(nranks));
        layout.recv_counts.resize(static_cast<std::size_t>(nranks));
        for (int q = 0; q < nranks; ++q) {
          layout.send_counts[q] = nb * my_rows * widths[q];
          layout.recv_counts[q] = nb * my_w * plan.in_rows.count(q);
        }
        layout.finalize(comm);
        exchange->alltoallv(stage_send.data(), stage_recv.data(), layout, nullptr);
        t.exchange += seconds_since(t0);

        // Unpack: the pieces from each rank sit side by side in the output rows [nb][my_w][R].
        t0 = Clock::now();
        for (int p = 0; p < nranks; ++p) {
          const std::int64_t rp = plan.in_rows.count(p);
          if (rp == 0 || my_w == 0) continue;
          const std::byte* src = stage_recv.data() + layout.recv_displs[p] * es;
          for (std::int64_t b = 0; b < nb; ++b)
            kernels::copy_2d_cpu(src + b * my_w * rp * es, rp * es,
                                 stage_in.data() + (b * my_w * rows_total + plan.in_rows.offset(p)) * es,
                                 rows_total * es, rp * es, my_w, threads);
        }
        band = stage_in.data();
        t.unpack += seconds_since(t0);
      }

      // Write: this rank's output rows of the stage, one contiguous band per matrix.
      t0 = Clock::now();
      boxes.clear();
      if (my_w > 0) boxes.push_back(stage_box(plan, st, my_out0 + st.col_offset, my_w, 0, rows_total));
      output.dataset().write(boxes, band, o.write_transfer);
      t.write += seconds_since(t0);

      done_bytes += nb * rows_total * sum_w * es;
      progress.update(done_bytes);
    }
  } catch (const Error& e) {
    abort_job(comm, e, &output);
  } catch (const std::exception& e) {
    abort_job(comm, InternalError(e.what()), &output);
  }

  mpi::collectively(comm, [&] { output.commit(); });
  progress.update(plan.total_bytes());
  progress.finish();

  t.wall = seconds_since(t_start);
  for (double* v : {&t.read, &t.pack, &t.exchange, &t.unpack, &t.write, &t.wall}) *v = mpi::allreduce_max(comm, *v);
  return report;
}

}  // namespace xpose
