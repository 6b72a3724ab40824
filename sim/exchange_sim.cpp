// One stage's exchange of a transpose, with xpose's own exchange code (mpi/) and the planner's
// stage schedule, on synthetic data: built with SimGrid's smpicxx and run under smpirun on a
// simulated cluster (sim/platforms/). No HDF5 and no CUDA: parallel HDF5 built for Open MPI does
// not start under SMPI.
//
//   smpirun -np 4096 -platform sim/platforms/fat-tree-4to1.xml -hostfile HOSTS
//           --cfg=smpi/simulate-computation:no ... xpose_exchange_sim --weak 1GiB
//
// (sim/sweep.py writes the host file and the options.)
//
// The node-aware exchange runs in place, as the CPU backend uses it (pieces written into and read
// from node memory by the transpose and the unpack, which the flat exchange has too); with
// --copies, through its alltoallv as the CUDA backend's host path uses it, whose two copies
// through node memory are charged as modelled time (--copy-bw). Without --check the buffers hold
// no meaningful data (SMPI folds them, see sim/sweep.py) and no copy is done; with --check every
// element of the stage is filled from its (row, column) in the input matrix and every received
// element is compared: for small unshared runs.
//
// Prints one JSON line (rank 0): the stage, the exchange, simulated seconds, and with sampled
// rounds (--sample-rounds) the time scaled to all rounds.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/src/planner.h"
#include "mpi/comm.h"
#include "mpi/exchange.h"
#include "xpose/error.h"
#include "xpose/types.h"

namespace {

using namespace xpose;

struct Options {
  std::string exchange = "planned";  // planned, mpi, mpi-pairwise, mpi-node
  Shape shape;                       // strong scaling: this matrix
  std::int64_t weak_bytes = 0;       // weak scaling: each rank's stage holds this many bytes
  std::size_t elem = 4;
  std::int64_t host_mem = 64ll << 30;
  std::int64_t max_buffer = -1;      // -1: the planner's default
  std::int64_t stage = 0;
  std::int64_t sample_rounds = 0;    // 0: all rounds
  double copy_bw = 10e9;
  bool check = false;
  bool dry_run = false;
  bool copies = false;  // node-aware through alltoallv's copies, as the CUDA backend uses it
  std::string model;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(cat(a, " needs a value"));
      return argv[++i];
    };
    auto whole = [&](const std::string& text) -> std::int64_t {
      char* end = nullptr;
      const long long v = std::strtoll(text.c_str(), &end, 10);
      if (*end != '\0' || v < 0) throw UsageError(cat(a, ": '", text, "' is not a whole number"));
      return v;
    };
    if (a == "--exchange") o.exchange = value();
    else if (a == "--shape") o.shape = parse_shape(value());
    else if (a == "--weak") o.weak_bytes = parse_size(value());
    else if (a == "--elem") o.elem = static_cast<std::size_t>(whole(value()));
    else if (a == "--host-mem") o.host_mem = parse_size(value());
    else if (a == "--max-buffer") o.max_buffer = parse_size(value());
    else if (a == "--stage") o.stage = whole(value());
    else if (a == "--sample-rounds") o.sample_rounds = whole(value());
    else if (a == "--copy-bw") o.copy_bw = std::stod(value());
    else if (a == "--model") o.model = value();
    else if (a == "--check") o.check = true;
    else if (a == "--dry-run") o.dry_run = true;
    else if (a == "--copies") o.copies = true;
    else throw UsageError(cat("unknown option '", a, "'"));
  }
  if (o.shape.empty() == (o.weak_bytes == 0)) throw UsageError("give one of --shape R,C and --weak SIZE");
  return o;
}

/// The bytes of input element (b, r, c): a hash, so a misplaced element cannot match by chance.
void element_value(std::byte* dst, std::size_t elem, std::int64_t b, std::int64_t r, std::int64_t c) {
  std::uint64_t v = (static_cast<std::uint64_t>(b) * 0x9E3779B97F4A7C15ull) ^
                    (static_cast<std::uint64_t>(r) * 0xC2B2AE3D27D4EB4Full) ^ static_cast<std::uint64_t>(c);
  v ^= v >> 29;
  v *= 0xBF58476D1CE4E5B9ull;
  v ^= v >> 32;
  for (std::size_t k = 0; k < elem; ++k) dst[k] = static_cast<std::byte>(v >> (8 * (k % 8)));
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const int me = mpi::rank(MPI_COMM_WORLD), P = mpi::size(MPI_COMM_WORLD);
  const mpi::NodeLayout nodes = mpi::node_layout(MPI_COMM_WORLD);

  PlanRequest req;
  req.elem_size = o.elem;
  if (o.weak_bytes > 0) {
    // A square matrix whose rows per rank b give every rank a stage of P b^2 elements.
    const auto b = static_cast<std::int64_t>(
        std::sqrt(static_cast<double>(o.weak_bytes) / (static_cast<double>(P) * static_cast<double>(o.elem))));
    req.shape = {b * P, b * P};
  } else {
    req.shape = o.shape;
  }
  req.nranks = P;
  req.host_mem = o.host_mem;
  req.host_buffers = 6;  // the CPU backend's: read and write slots, send and receive
  if (o.max_buffer >= 0) req.max_buffer_bytes = o.max_buffer;
  req.ranks_per_node = nodes.max_ranks_per_node;
  req.node_aware_in_place = !o.copies;
  if (!o.model.empty()) req.exchange_model = parse_exchange_model(o.model, req.exchange_model);
  mpi::ExchangeKind kind = mpi::ExchangeKind::Mpi;
  if (o.exchange == "planned") {
    req.host_exchange = HostExchange::Auto;
  } else {
    kind = mpi::parse_exchange_kind(o.exchange);
    if (!mpi::is_host_exchange(kind)) throw UsageError("--exchange: planned, mpi, mpi-pairwise or mpi-node");
    req.host_exchange = kind == mpi::ExchangeKind::NodeAware  ? HostExchange::NodeAware
                        : kind == mpi::ExchangeKind::Pairwise ? HostExchange::Pairwise
                                                              : HostExchange::Alltoall;
  }
  const Plan plan = make_plan(req);
  const HostExchange ran = o.exchange == "planned" ? plan.host_exchange : req.host_exchange;
  if (o.exchange == "planned")
    kind = plan.host_exchange == HostExchange::NodeAware ? mpi::ExchangeKind::NodeAware : mpi::ExchangeKind::Mpi;
  if (o.stage >= plan.num_stages()) throw UsageError(cat("--stage ", o.stage, ": the plan has ", plan.num_stages()));
  const Stage stage = plan.stage(o.stage);

  // The stage as the CPU backend lays it out: piece q is [nb][w_q][my_rows], and what comes from
  // rank p lands as [nb][my_w][rows_p]. The backend keeps its own piece out of the exchange; the
  // library all-to-all gets it too, so a uniform stage is one MPI_Alltoall as SMPI's algorithms
  // expect.
  const std::int64_t nb = stage.inner_count, my_rows = plan.in_rows.count(me);
  const std::int64_t my_w = plan.width_of(me, stage);
  const bool with_self = kind == mpi::ExchangeKind::Mpi;
  mpi::ExchangeLayout layout;
  const auto n = static_cast<std::size_t>(P);
  layout.send_counts.assign(n, 0);
  layout.recv_counts.assign(n, 0);
  layout.send_displs.assign(n, 0);
  layout.recv_displs.assign(n, 0);
  std::int64_t col_prefix = 0;
  for (int q = 0; q < P; ++q) {
    const std::int64_t w = plan.width_of(q, stage);
    layout.send_displs[q] = nb * my_rows * col_prefix;
    layout.recv_displs[q] = nb * my_w * plan.in_rows.offset(q);
    if (q != me || with_self) {
      layout.send_counts[q] = nb * my_rows * w;
      layout.recv_counts[q] = nb * my_w * plan.in_rows.count(q);
    }
    col_prefix += w;
  }
  layout.finalize(MPI_COMM_WORLD);
  const auto es = static_cast<std::int64_t>(o.elem);
  const std::int64_t send_bytes = nb * my_rows * col_prefix * es;
  const std::int64_t recv_bytes = nb * my_w * plan.rows * es;
  // Under SMPI with smpi/auto-shared-malloc-thresh these are folded: no memory behind them.
  auto* send = static_cast<std::byte*>(::malloc(static_cast<std::size_t>(std::max<std::int64_t>(send_bytes, 1))));
  auto* recv = static_cast<std::byte*>(::malloc(static_cast<std::size_t>(std::max<std::int64_t>(recv_bytes, 1))));
  if (!send || !recv) throw ResourceError("cannot allocate the stage buffers");

  auto input_col = [&](int q, std::int64_t j) { return plan.out_rows.offset(q) + stage.col_offset + j; };
  auto input_row = [&](int p, std::int64_t i) { return plan.in_rows.offset(p) + i; };
  if (o.check) {
    for (int q = 0; q < P; ++q)
      for (std::int64_t b = 0; b < nb; ++b)
        for (std::int64_t j = 0; j < plan.width_of(q, stage); ++j)
          for (std::int64_t i = 0; i < my_rows; ++i)
            element_value(send + (layout.send_displs[q] + (b * plan.width_of(q, stage) + j) * my_rows + i) * es,
                          o.elem, stage.inner_begin + b, input_row(me, i), input_col(q, j));
    std::memset(recv, 0, static_cast<std::size_t>(recv_bytes));
  }

  // Copies through node memory: done for real only when checking, charged as time always.
  double pending = 0;
  mpi::ExchangeOptions xo;
  xo.process_shared_memory = true;  // SMPI ranks are threads of one process
  xo.local_copy = [&](void* dst, const void* src, std::size_t bytes) {
    if (o.check) std::memcpy(dst, src, bytes);
    pending += static_cast<double>(bytes);
  };
  xo.local_copies_done = [&] {
    if (pending > 0) smpi_execute(pending / o.copy_bw);
    pending = 0;
  };
  if (o.sample_rounds > 0 && kind != mpi::ExchangeKind::Mpi) {
    // Round groups of ranks-per-node rounds: node rounds run that many at a time, and pairwise
    // rounds cycle through the alignments of partners with node boundaries in as many.
    const std::int64_t rounds = kind == mpi::ExchangeKind::NodeAware ? nodes.nodes() - 1 : P - 1;
    const std::int64_t group = nodes.max_ranks_per_node;
    if (kind == mpi::ExchangeKind::Pairwise) xo.round_group = static_cast<int>(group);
    const std::int64_t groups = (rounds + group - 1) / group;
    xo.round_stride = static_cast<int>(std::max<std::int64_t>(1, groups / o.sample_rounds));
  }
  auto exchange = mpi::make_exchange(kind, MPI_COMM_WORLD, o.elem, xo);

  XPOSE_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  const double t0 = MPI_Wtime();
  // Node-aware in place, as the CPU backend packs into and unpacks from node memory: the pieces
  // are written where the transpose would write them (with --check: the same pattern).
  const bool in_place = exchange->can_stage_in_place() && !o.copies;
  if (o.dry_run) {
  } else if (in_place) {
    exchange->stage_in_place(layout);
    if (o.check)
      for (int q = 0; q < P; ++q)
        if (layout.send_counts[q] > 0)
          std::memcpy(exchange->send_slot(q), send + layout.send_displs[q] * es,
                      static_cast<std::size_t>(layout.send_counts[q] * es));
    exchange->exchange_in_place();
    if (o.check)
      for (int p = 0; p < P; ++p)
        if (layout.recv_counts[p] > 0)
          std::memcpy(recv + layout.recv_displs[p] * es, exchange->recv_slot(p),
                      static_cast<std::size_t>(layout.recv_counts[p] * es));
  } else {
    exchange->alltoallv(send, recv, layout, nullptr);
  }
  const double elapsed = MPI_Wtime() - t0;
  const mpi::ExchangeStats stats = exchange->last_stats();
  const double wall = mpi::allreduce_max(MPI_COMM_WORLD, elapsed);
  const double rounds = mpi::allreduce_max(MPI_COMM_WORLD, stats.rounds_seconds);
  const double local = mpi::allreduce_max(MPI_COMM_WORLD, stats.local_seconds);
  const double scale = stats.rounds_run > 0 ? static_cast<double>(stats.rounds_total) / stats.rounds_run : 1.0;

  std::int64_t bad = 0;
  if (o.check && !o.dry_run) {
    std::vector<std::byte> want(o.elem);
    for (int p = 0; p < P; ++p) {
      if (layout.recv_counts[p] == 0) continue;
      const std::int64_t rp = plan.in_rows.count(p);
      for (std::int64_t b = 0; b < nb; ++b)
        for (std::int64_t j = 0; j < my_w; ++j)
          for (std::int64_t i = 0; i < rp; ++i) {
            element_value(want.data(), o.elem, stage.inner_begin + b, input_row(p, i), input_col(me, j));
            bad += std::memcmp(want.data(), recv + (layout.recv_displs[p] + (b * my_w + j) * rp + i) * es, o.elem) != 0;
          }
    }
    bad = mpi::allreduce_sum(MPI_COMM_WORLD, bad);
  }
  const std::int64_t checked = o.check ? mpi::allreduce_sum(MPI_COMM_WORLD, layout.total_recv()) : 0;
  if (me == 0) {
    std::printf(
        "{\"ranks\": %d, \"ranks_per_node\": %d, \"nodes\": %d, \"shape\": \"%s\", \"elem\": %zu, "
        "\"exchange\": \"%s\", \"asked\": \"%s\", \"stages\": %lld, \"stage\": %lld, \"width\": %lld, "
        "\"piece_bytes\": %lld, \"stage_bytes\": %lld, \"rounds_run\": %lld, \"rounds_total\": %lld, "
        "\"wall_s\": %.9g, \"local_s\": %.9g, \"rounds_s\": %.9g, \"seconds\": %.9g, "
        "\"estimate_s\": %.9g, \"checked\": %lld, \"bad\": %lld, \"dry_run\": %s, \"reason\": \"%s\"}\n",
        P, nodes.max_ranks_per_node, nodes.nodes(), format_shape(plan.shape).c_str(), o.elem,
        mpi::exchange_kind_name(kind), o.exchange.c_str(), static_cast<long long>(plan.num_stages()),
        static_cast<long long>(o.stage), static_cast<long long>(plan.width),
        static_cast<long long>(nb * plan.in_rows.block * plan.width * es), static_cast<long long>(send_bytes),
        static_cast<long long>(stats.rounds_run), static_cast<long long>(stats.rounds_total), wall, local, rounds,
        wall + rounds * (scale - 1),
        estimate_stage_exchange(req.exchange_model, ran, P, nodes.max_ranks_per_node, plan.piece_bytes(), !o.copies)
            .seconds,
        static_cast<long long>(checked), static_cast<long long>(bad), o.dry_run ? "true" : "false",
        plan.exchange_reason.c_str());
    std::fflush(stdout);
  }
  ::free(send);
  ::free(recv);
  return bad == 0 ? 0 : static_cast<int>(ExitCode::VerifyMismatch);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  try {
    code = run(argc, argv);
  } catch (const xpose::Error& e) {
    std::fprintf(stderr, "xpose_exchange_sim: %s\n", e.what());
    code = static_cast<int>(e.code());
  }
  MPI_Finalize();
  return code;
}
