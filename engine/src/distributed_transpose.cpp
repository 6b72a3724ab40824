// DistributedTranspose: argument checks, the choice of transport and schedule (rule, timing or
// wisdom file), the workspace, and execute's agreement on its arguments.
#include "xpose/distributed_transpose.h"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "engine/src/distributed_transpose_impl.h"
#include "mpi/comm.h"
#include "mpi/exchange.h"
#include "xpose/config.h"

namespace xpose {

const char* transport_name(Transport transport) {
  switch (transport) {
    case Transport::Auto:
      return "auto";
    case Transport::Mpi:
      return "mpi";
    case Transport::MpiDevice:
      return "mpi-device";
    case Transport::Nccl:
      return "nccl";
    case Transport::Peer:
      return "peer";
  }
  return "?";
}

const char* schedule_name(Schedule schedule) {
  switch (schedule) {
    case Schedule::Auto:
      return "auto";
    case Schedule::Bulk:
      return "bulk";
    case Schedule::Pipelined:
      return "pipelined";
  }
  return "?";
}

Transport parse_transport(const std::string& name) {
  for (auto t :
       {Transport::Auto, Transport::Mpi, Transport::MpiDevice, Transport::Nccl, Transport::Peer})
    if (name == transport_name(t)) return t;
  throw UsageError(cat("unknown transport '", name, "' (use auto, mpi, mpi-device, nccl or peer)"));
}

Schedule parse_schedule(const std::string& name) {
  for (auto s : {Schedule::Auto, Schedule::Bulk, Schedule::Pipelined})
    if (name == schedule_name(s)) return s;
  throw UsageError(cat("unknown schedule '", name, "' (use auto, bulk or pipelined)"));
}

namespace {

using dtx::Allocation;
using dtx::Geometry;
using dtx::PieceLayout;

constexpr std::int64_t kMiB = std::int64_t{1} << 20;
// Tags of pipelined pieces stay below 32767, the smallest MPI_TAG_UB the standard allows.
constexpr std::int64_t kMaxPiecesPerPeer = 32767;

const char* memory_name(MemorySpace m) {
  return m == MemorySpace::Device ? "device" : "host";
}

struct Candidate {
  Transport transport = Transport::Mpi;
  Schedule schedule = Schedule::Bulk;
  std::int64_t piece_rows = 1;
  double seconds = -1;  ///< measured (MAX over ranks), or -1
  bool pruned = false;  ///< measured once only: far slower than the best so far
  bool failed = false;  ///< its first run failed (the transport was dropped)

  bool same_choice(const Candidate& o) const {
    return transport == o.transport && schedule == o.schedule && piece_rows == o.piece_rows;
  }
};

/// Bytes of the largest piece with `piece_rows` output rows.
std::int64_t piece_bytes(const Geometry& g, std::int64_t piece_rows) {
  return g.batch * g.in_rows.block * piece_rows * static_cast<std::int64_t>(g.elem);
}

std::string describe(const Candidate& c, const Geometry& g) {
  if (c.schedule == Schedule::Bulk) return cat(transport_name(c.transport), "/bulk");
  return cat(transport_name(c.transport), "/pipelined, pieces of ", c.piece_rows, " rows (",
             format_size(static_cast<double>(piece_bytes(g, c.piece_rows))), ")");
}

struct TransportSupport {
  std::vector<Transport> usable;
  std::map<Transport, std::string> why_not;  ///< a reason for each unusable transport
  std::map<Transport, bool> not_compiled;    ///< reasons that are "not in this build"

  bool has(Transport t) const { return std::find(usable.begin(), usable.end(), t) != usable.end(); }
  [[noreturn]] void refuse(Transport t) const {
    if (not_compiled.count(t) && not_compiled.at(t)) throw NotCompiledError(why_not.at(t));
    throw UsageError(cat("transport ", transport_name(t), " cannot be used: ", why_not.at(t)));
  }
};

/// Collective; the same answer on every rank. `usable` is in order of preference.
TransportSupport transport_support(MPI_Comm comm, MemorySpace memory) {
  TransportSupport s;
  if (memory == MemorySpace::Host) {
    s.usable.push_back(Transport::Mpi);
    for (auto t : {Transport::MpiDevice, Transport::Nccl, Transport::Peer})
      s.why_not[t] = "it moves device memory, and this plan is for host memory";
    return s;
  }
  // Every rank's GPU, by UUID: NCCL refuses two ranks on one GPU ("duplicate GPU"), and the peer
  // transport needs to find each peer's GPU among the devices this process sees.
  const int n = mpi::size(comm);
  std::vector<std::string> uuids(static_cast<std::size_t>(n));
  {
    const std::string uuid = dtx::device::current_device_uuid();
    std::vector<char> all(static_cast<std::size_t>(n) * 16);
    XPOSE_CHECK_MPI(MPI_Allgather(uuid.data(), 16, MPI_BYTE, all.data(), 16, MPI_BYTE, comm));
    for (int i = 0; i < n; ++i) uuids[i].assign(&all[static_cast<std::size_t>(i) * 16], 16);
  }
  // Peer first: within a node it moves blocks at NVLink speed with no staging at all.
  const std::string peer_reason = dtx::device::peer_unavailable_reason(comm, uuids);
  if (peer_reason.empty())
    s.usable.push_back(Transport::Peer);
  else
    s.why_not[Transport::Peer] = peer_reason;
  if (!XPOSE_HAVE_NCCL) {
    s.why_not[Transport::Nccl] = "the nccl transport";
    s.not_compiled[Transport::Nccl] = true;
  } else {
    int a = -1, b = -1;
    for (int i = 0; i < n && a < 0; ++i)
      for (int j = i + 1; j < n; ++j)
        if (uuids[i] == uuids[j]) {
          a = i;
          b = j;
          break;
        }
    if (a < 0)
      s.usable.push_back(Transport::Nccl);
    else
      s.why_not[Transport::Nccl] =
          cat("ranks ", a, " and ", b, " use the same GPU, and NCCL needs one GPU per rank");
  }
  const std::int64_t unaware =
      mpi::allreduce_max(comm, std::int64_t{mpi::mpi_is_cuda_aware() ? 0 : 1});
  if (unaware == 0)
    s.usable.push_back(Transport::MpiDevice);
  else
    s.why_not[Transport::MpiDevice] =
        "the MPI library is not CUDA-aware (on every rank), so it cannot read device memory; "
        "use mpi (staged through host memory) or nccl";
  s.usable.push_back(Transport::Mpi);
  return s;
}

/// Splits on a separator.
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

struct DistributedTranspose::Impl {
  mpi::OwnedComm comm;
  Geometry g;
  ElementType type;
  Options opt;
  Candidate chosen;
  std::string how;                  ///< how the choice was made
  std::vector<Candidate> measured;  ///< every candidate timed
  std::string notes;
  std::map<Transport, std::unique_ptr<mpi::Exchange>> exchanges;
  std::unique_ptr<dtx::Engine> engine;
  Allocation own_workspace;
  std::byte* workspace = nullptr;
  std::size_t workspace_bytes = 0;
  std::size_t need_out_of_place = 0, need_in_place = 0;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  // Members die in reverse order, the workspace before the engine: a device run still in flight
  // must finish before its buffers are freed. Never throws.
  ~Impl() {
    try {
      if (engine) engine->synchronize();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "xpose: warning: DistributedTranspose: %s\n", e.what());
    }
  }

  std::size_t elem() const { return g.elem; }

  mpi::Exchange* exchange_for(Transport t) {
    // The peer transport writes through CUDA IPC mappings and needs no exchange.
    if (g.nranks == 1 || t == Transport::Peer) return nullptr;
    auto it = exchanges.find(t);
    if (it != exchanges.end()) return it->second.get();
    mpi::ExchangeKind kind = mpi::ExchangeKind::Mpi;
    if (t == Transport::MpiDevice) kind = mpi::ExchangeKind::MpiDevice;
    if (t == Transport::Nccl) kind = mpi::ExchangeKind::Nccl;
    auto ex = mpi::make_exchange(kind, comm.get(), g.elem);  // collective for NCCL
    return (exchanges[t] = std::move(ex)).get();
  }

  std::unique_ptr<dtx::Engine> make_engine(const Candidate& c) {
    dtx::EngineConfig cfg;
    cfg.geometry = g;
    cfg.transport = c.transport;
    cfg.schedule = c.schedule;
    cfg.piece_rows = c.piece_rows;
    cfg.comm = comm.get();
    cfg.exchange = exchange_for(c.transport);
    cfg.threads = opt.threads;
    if (opt.memory == MemorySpace::Host) return dtx::make_host_engine(cfg);
    // One rank exchanges nothing: the device engine transposes locally whatever was asked.
    if (c.transport == Transport::Peer && g.nranks > 1) return dtx::make_peer_engine(cfg);
    return dtx::make_device_engine(cfg);
  }

  // Piece heights are the same on every rank: they come from global block sizes only.
  std::int64_t piece_rows_for(std::int64_t chunk_bytes) const {
    const std::int64_t block_out = std::max<std::int64_t>(1, g.out_rows.block);
    const std::int64_t per_row =
        std::max<std::int64_t>(1, g.batch * g.in_rows.block * static_cast<std::int64_t>(g.elem));
    const std::int64_t lowest = (block_out + kMaxPiecesPerPeer - 1) / kMaxPiecesPerPeer;
    return std::clamp<std::int64_t>(chunk_bytes / per_row, std::max<std::int64_t>(1, lowest),
                                    block_out);
  }

  /// Candidates in order of preference (the first is the Estimate choice).
  std::vector<Candidate> candidates(const TransportSupport& support) const {
    std::vector<std::int64_t> chunks;
    if (opt.chunk_bytes > 0)
      chunks = {opt.chunk_bytes};
    else if (opt.memory == MemorySpace::Device)
      chunks = {64 * kMiB, 256 * kMiB, 16 * kMiB};
    else
      chunks = {8 * kMiB, 1 * kMiB};
    const std::int64_t block_out = std::max<std::int64_t>(1, g.out_rows.block);
    // MPI counts and displacements are ints (of elements): the bulk all-to-all needs whole
    // regions below INT_MAX, a pipelined piece its own count.
    const std::int64_t region =
        std::max({g.batch * g.n(g.me) * g.cols, g.batch * g.m(g.me) * g.rows, std::int64_t{0}});
    const bool bulk_fits_int = mpi::allreduce_max(comm.get(), region) <= INT_MAX;
    std::vector<Candidate> out;
    auto add = [&](Candidate c) {
      for (const auto& o : out)
        if (o.same_choice(c)) return;
      out.push_back(c);
    };
    for (Transport t : support.usable) {
      if (opt.transport != Transport::Auto && t != opt.transport) continue;
      const bool mpi_counts = t == Transport::Mpi || t == Transport::MpiDevice;
      auto add_pipelined = [&] {
        if (opt.schedule == Schedule::Bulk) return;
        for (auto chunk : chunks) {
          Candidate c{t, Schedule::Pipelined, piece_rows_for(chunk)};
          if (mpi_counts &&
              piece_bytes(g, c.piece_rows) / static_cast<std::int64_t>(g.elem) > INT_MAX)
            continue;
          add(c);
        }
      };
      auto add_bulk = [&] {
        if (opt.schedule == Schedule::Pipelined || (mpi_counts && !bulk_fits_int)) return;
        add(Candidate{t, Schedule::Bulk, block_out});
      };
      // The host MPI path prefers one all-to-all (shared-memory MPI copies with the CPU anyway);
      // device paths prefer to hide the kernels behind the transfers; the peer transport has no
      // transfers to hide behind: one kernel per peer is its simplest form.
      if (opt.memory == MemorySpace::Host || t == Transport::Peer) {
        add_bulk();
        add_pipelined();
      } else {
        add_pipelined();
        add_bulk();
      }
    }
    return out;
  }

  std::string wisdom_key() const {
    const auto local = mpi::local_rank(comm.get());
    const std::int64_t nodes =
        mpi::allreduce_sum(comm.get(), std::int64_t{local.rank == 0 ? 1 : 0});
    return cat("ranks=", g.nranks, " nodes=", nodes, " rows=", g.rows, " cols=", g.cols,
               " elem=", g.elem, " batch=", g.batch, " memory=", memory_name(opt.memory),
               " request=", transport_name(opt.transport), "/", schedule_name(opt.schedule), "/",
               opt.chunk_bytes);
  }

  /// Rank 0 reads the file; every rank gets the same entry (or none).
  bool load_wisdom(const std::string& key, const std::vector<Candidate>& cands, Candidate& out) {
    std::string value;
    if (g.me == 0) {
      std::ifstream in(opt.wisdom_file);
      std::string line;
      const std::string prefix = "xpose-wisdom-1 " + key + " |";
      while (std::getline(in, line))
        if (line.compare(0, prefix.size(), prefix) == 0) value = line.substr(prefix.size());
    }
    int length = static_cast<int>(value.size());
    XPOSE_CHECK_MPI(MPI_Bcast(&length, 1, MPI_INT, 0, comm.get()));
    value.resize(static_cast<std::size_t>(length));
    XPOSE_CHECK_MPI(MPI_Bcast(value.data(), length, MPI_CHAR, 0, comm.get()));
    if (value.empty()) return false;
    Candidate c;
    bool have_t = false, have_s = false, have_w = false;
    try {
      for (const auto& field : split(value, ' ')) {
        const auto eq = field.find('=');
        if (eq == std::string::npos) continue;
        const std::string k = field.substr(0, eq), v = field.substr(eq + 1);
        if (k == "transport") c.transport = parse_transport(v), have_t = true;
        if (k == "schedule") c.schedule = parse_schedule(v), have_s = true;
        if (k == "piece_rows") c.piece_rows = std::stoll(v), have_w = true;
        if (k == "seconds") c.seconds = std::stod(v);
      }
    } catch (const std::exception&) {
      return false;  // a damaged entry is ignored, as if absent
    }
    if (!have_t || !have_s || !have_w) return false;
    // Only a choice this machine can make now, within what was asked for.
    for (const auto& cand : cands)
      if (cand.transport == c.transport && cand.schedule == c.schedule) {
        if (c.schedule == Schedule::Bulk) c.piece_rows = cand.piece_rows;
        if (c.piece_rows < 1 || c.piece_rows > std::max<std::int64_t>(1, g.out_rows.block))
          return false;
        if (c.schedule == Schedule::Pipelined &&
            c.piece_rows != piece_rows_for(piece_bytes(g, c.piece_rows)))
          return false;
        out = c;
        return true;
      }
    return false;
  }

  /// Rank 0 replaces the entry for `key` and renames the new file into place.
  void store_wisdom(const std::string& key, const Candidate& c) {
    if (g.me != 0) return;
    std::vector<std::string> lines;
    {
      std::ifstream in(opt.wisdom_file);
      std::string line;
      const std::string prefix = "xpose-wisdom-1 " + key + " |";
      while (std::getline(in, line))
        if (!line.empty() && line.compare(0, prefix.size(), prefix) != 0) lines.push_back(line);
    }
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.6g", c.seconds);
    lines.push_back(cat("xpose-wisdom-1 ", key, " | transport=", transport_name(c.transport),
                        " schedule=", schedule_name(c.schedule), " piece_rows=", c.piece_rows,
                        " seconds=", seconds));
    const std::string tmp = cat(opt.wisdom_file, ".tmp.", ::getpid());
    {
      std::ofstream out(tmp, std::ios::trunc);
      for (const auto& l : lines) out << l << '\n';
      out.flush();
      if (!out) {
        notes += cat("wisdom: cannot write ", tmp, "; the choice was not stored\n");
        std::remove(tmp.c_str());
        return;
      }
    }
    if (std::rename(tmp.c_str(), opt.wisdom_file.c_str()) != 0) {
      notes += cat("wisdom: cannot rename ", tmp, " to ", opt.wisdom_file, ": ",
                   std::strerror(errno), "\n");
      std::remove(tmp.c_str());
    }
  }

  /// Times every candidate on scratch buffers; false when they cannot be allocated.
  bool measure(std::vector<Candidate>& cands) {
    Allocation in, out, scratch_ws;
    try {
      dtx::agree(comm.get(), [&] {
        in = Allocation(opt.memory, g.input_elements() * static_cast<std::int64_t>(elem()));
        out = Allocation(opt.memory, g.output_elements() * static_cast<std::int64_t>(elem()));
        if (workspace_bytes < need_out_of_place)
          scratch_ws = Allocation(opt.memory, static_cast<std::int64_t>(need_out_of_place));
        if (opt.memory == MemorySpace::Device)
          dtx::device::fill(in.data(), 0x5a, in.bytes());
        else if (in.bytes() > 0)
          std::memset(in.data(), 0x5a, static_cast<std::size_t>(in.bytes()));
      });
    } catch (const ResourceError& e) {
      notes += cat("measure: no room for scratch buffers (", e.what(), "): estimated instead\n");
      return false;
    }
    std::byte* ws = workspace_bytes >= need_out_of_place ? workspace : scratch_ws.data();
    double best = std::numeric_limits<double>::infinity();
    std::size_t best_index = 0;
    std::vector<Transport> dropped;
    std::string failure;
    for (std::size_t i = 0; i < cands.size(); ++i) {
      auto& c = cands[i];
      // A transport whose first candidate was far behind is not tried further: its schedules
      // differ by less than that, and each try costs (pinning staging buffers, slow runs).
      if (std::find(dropped.begin(), dropped.end(), c.transport) != dropped.end()) {
        c.pruned = true;
        continue;
      }
      auto eng = make_engine(c);
      auto once = [&] {
        XPOSE_CHECK_MPI(MPI_Barrier(comm.get()));
        const double t0 = MPI_Wtime();
        eng->run(in.data(), out.data(), false, ws, nullptr);
        eng->synchronize();
        return mpi::allreduce_max(comm.get(), MPI_Wtime() - t0);
      };
      double first = 0;  // also the warm-up (connections, first touch)
      try {
        first = once();
      } catch (const RuntimeFailure& e) {
        // Peer access can be offered and CUDA IPC still refused (a container that isolates the
        // processes): the opening is agreed on by every rank, so all of them drop it here.
        if (c.transport != Transport::Peer) throw;
        notes += cat("measure: ", describe(c, g), " failed, transport dropped: ", e.what(), "\n");
        failure = e.what();
        c.failed = true;
        dropped.push_back(c.transport);
        continue;
      }
      if (first > 4 * best) {
        c.seconds = first;
        c.pruned = true;
        dropped.push_back(c.transport);
        continue;
      }
      // The repetition count comes from an agreed time, so every rank runs the same number.
      const int reps = std::clamp(static_cast<int>(0.2 / std::max(first, 1e-6)), 2, 7);
      std::vector<double> t;
      for (int r = 0; r < reps; ++r) t.push_back(once());
      std::sort(t.begin(), t.end());
      c.seconds = t[t.size() / 2];
      if (c.seconds < best) {
        best = c.seconds;
        best_index = i;
      }
    }
    if (best == std::numeric_limits<double>::infinity())
      throw RuntimeFailure(cat("DistributedTranspose: no candidate ran: ", failure));
    measured = cands;
    chosen = cands[best_index];
    return true;
  }

  void plan() {
    const std::int64_t block_out = std::max<std::int64_t>(1, g.out_rows.block);
    {
      const PieceLayout oop = PieceLayout::make(g, block_out, false);
      const PieceLayout ip = PieceLayout::make(g, block_out, true);
      need_out_of_place = oop.workspace_bytes(elem());
      // One rank with a square matrix transposes in place with no workspace at all.
      need_in_place = (g.nranks == 1 && g.rows == g.cols) ? 0 : ip.workspace_bytes(elem());
    }
    if (opt.allocate_workspace)
      dtx::agree(comm.get(), [&] {
        own_workspace = Allocation(opt.memory, static_cast<std::int64_t>(need_out_of_place));
        workspace = own_workspace.data();
        workspace_bytes = need_out_of_place;
      });
    if (g.nranks == 1) {
      chosen = Candidate{Transport::Mpi, Schedule::Bulk, block_out};
      how = "one rank: a local transpose, nothing is exchanged";
      engine = make_engine(chosen);
      return;
    }
    const TransportSupport support = transport_support(comm.get(), opt.memory);
    if (opt.transport != Transport::Auto && !support.has(opt.transport))
      support.refuse(opt.transport);
    std::vector<Candidate> cands = candidates(support);
    if (cands.empty())
      throw UsageError(cat("no schedule fits: transport ", transport_name(opt.transport),
                           ", schedule ", schedule_name(opt.schedule), ", chunk ", opt.chunk_bytes,
                           " bytes (MPI counts would pass INT_MAX elements)"));
    const std::string key = opt.wisdom_file.empty() ? std::string() : wisdom_key();
    if (cands.size() == 1) {
      chosen = cands[0];
      how = "the only candidate for the options given";
    } else if (!key.empty() && load_wisdom(key, cands, chosen)) {
      how = cat("from the wisdom file ", opt.wisdom_file);
    } else if (opt.planning == Planning::Measure && measure(cands)) {
      how = "measured (median time of each candidate, the MAX over ranks)";
      if (!key.empty()) store_wisdom(key, chosen);
    } else {
      chosen = cands[0];
      how = "estimated (rule: no timing)";
    }
    engine = make_engine(chosen);
    // Exchanges the choice does not use are released (an unused NCCL communicator holds memory).
    for (auto it = exchanges.begin(); it != exchanges.end();)
      it = it->first == chosen.transport ? std::next(it) : exchanges.erase(it);
    if (chosen.transport == Transport::Peer) {
      // The peer transport packs nothing: it needs no workspace (in place, its engine keeps a
      // landing buffer that the other ranks can map).
      need_out_of_place = need_in_place = 0;
      if (opt.allocate_workspace) {
        own_workspace = Allocation();
        workspace = nullptr;
        workspace_bytes = 0;
      }
    }
  }

  void check_buffer(const void* p, std::size_t bytes, const char* what) const {
    if (bytes == 0) return;
    if (p == nullptr)
      throw UsageError(cat("DistributedTranspose: null ", what, " on rank ", g.me, " (", bytes,
                           " bytes expected)"));
    if (opt.memory == MemorySpace::Device && !dtx::device::is_device_pointer(p))
      throw UsageError(cat("DistributedTranspose: the ", what, " on rank ", g.me,
                           " is not memory of the current GPU, and the plan is for device memory"));
  }

  void ensure_workspace(bool inplace) {
    const std::size_t need = inplace ? need_in_place : need_out_of_place;
    if (workspace_bytes >= need) return;
    if (!opt.allocate_workspace)
      throw UsageError(cat("DistributedTranspose: the workspace on rank ", g.me, " has ",
                           workspace_bytes, " bytes and ", inplace ? "execute_inplace" : "execute",
                           " needs ", need, " (see workspace_size", inplace ? "_inplace" : "",
                           "())"));
    if (engine) engine->synchronize();  // the old workspace may still be in use on the GPU
    own_workspace = Allocation();
    own_workspace = Allocation(opt.memory, static_cast<std::int64_t>(need));
    workspace = own_workspace.data();
    workspace_bytes = need;
  }
};

DistributedTranspose::DistributedTranspose(CommHandle handle, std::int64_t rows,
                                           std::int64_t cols, ElementType type,
                                           const Options& options)
    : impl_(std::make_unique<Impl>()) {
  const MPI_Comm comm = handle.get<MPI_Comm>();
  auto& I = *impl_;
  if (options.memory == MemorySpace::Device && !dtx::device::compiled())
    throw NotCompiledError("DistributedTranspose on device memory (CUDA)");
  const int me = mpi::rank(comm), nranks = mpi::size(comm);
  dtx::agree(comm, [&] {
    if (rows < 1 || cols < 1)
      throw UsageError(cat("DistributedTranspose: rows and cols must be at least 1 (got ", rows,
                           " x ", cols, ")"));
    if (options.batch < 1)
      throw UsageError(
          cat("DistributedTranspose: batch must be at least 1 (got ", options.batch, ")"));
    if (!is_supported_element_size(type.size))
      throw UnsupportedInputError(cat("DistributedTranspose: element size ", type.size,
                                      " bytes (supported: 1, 2, 4, 8, 16)"));
    if (options.chunk_bytes < 0 || options.threads < 0)
      throw UsageError(cat("DistributedTranspose: chunk_bytes (", options.chunk_bytes,
                           ") and threads (", options.threads, ") must not be negative"));
    if (options.memory == MemorySpace::Host && options.transport != Transport::Auto &&
        options.transport != Transport::Mpi)
      throw UsageError(cat("DistributedTranspose: transport ", transport_name(options.transport),
                           " moves device memory, and the plan is for host memory"));
    try {
      checked_mul(checked_mul(checked_mul(options.batch, rows), cols),
                  static_cast<std::int64_t>(type.size));
    } catch (const DimensionMismatch& e) {
      throw UsageError(cat("DistributedTranspose: ", options.batch, " x ", rows, " x ", cols,
                           " elements of ", type.size, " bytes: ", e.what()));
    }
  });
  MPI_Comm dup = MPI_COMM_NULL;
  XPOSE_CHECK_MPI(MPI_Comm_dup(comm, &dup));
  I.comm.reset(dup);
  I.g = Geometry(me, nranks, rows, cols, options.batch, type.size);
  I.type = type;
  I.opt = options;
  I.plan();
  if (options.verbose && me == 0) std::fprintf(stderr, "%s", report().c_str());
}

DistributedTranspose::~DistributedTranspose() = default;
DistributedTranspose::DistributedTranspose(DistributedTranspose&&) noexcept = default;
DistributedTranspose& DistributedTranspose::operator=(DistributedTranspose&&) noexcept = default;

std::int64_t DistributedTranspose::rows() const {
  return impl_->g.rows;
}
std::int64_t DistributedTranspose::cols() const {
  return impl_->g.cols;
}
std::int64_t DistributedTranspose::batch() const {
  return impl_->g.batch;
}
ElementType DistributedTranspose::element_type() const {
  return impl_->type;
}
int DistributedTranspose::rank() const {
  return impl_->g.me;
}
int DistributedTranspose::ranks() const {
  return impl_->g.nranks;
}
std::int64_t DistributedTranspose::local_input_rows() const {
  return impl_->g.n(impl_->g.me);
}
std::int64_t DistributedTranspose::input_row_offset() const {
  return impl_->g.r(impl_->g.me);
}
std::int64_t DistributedTranspose::local_output_rows() const {
  return impl_->g.m(impl_->g.me);
}
std::int64_t DistributedTranspose::output_row_offset() const {
  return impl_->g.c(impl_->g.me);
}
BlockDistribution DistributedTranspose::input_distribution() const {
  return impl_->g.in_rows;
}
BlockDistribution DistributedTranspose::output_distribution() const {
  return impl_->g.out_rows;
}
std::int64_t DistributedTranspose::local_input_elements() const {
  return impl_->g.input_elements();
}
std::int64_t DistributedTranspose::local_output_elements() const {
  return impl_->g.output_elements();
}
std::size_t DistributedTranspose::local_input_bytes() const {
  return static_cast<std::size_t>(impl_->g.input_elements()) * impl_->g.elem;
}
std::size_t DistributedTranspose::local_output_bytes() const {
  return static_cast<std::size_t>(impl_->g.output_elements()) * impl_->g.elem;
}
std::size_t DistributedTranspose::local_inplace_bytes() const {
  return std::max(local_input_bytes(), local_output_bytes());
}
std::size_t DistributedTranspose::workspace_size() const {
  return impl_->need_out_of_place;
}
std::size_t DistributedTranspose::workspace_size_inplace() const {
  return impl_->need_in_place;
}

void DistributedTranspose::set_workspace(void* workspace, std::size_t bytes) {
  auto& I = *impl_;
  if (I.engine) I.engine->synchronize();  // the old workspace may still be in use on the GPU
  I.own_workspace = Allocation();
  I.workspace = static_cast<std::byte*>(workspace);
  I.workspace_bytes = workspace ? bytes : 0;
}

void DistributedTranspose::execute(const void* in, void* out, Stream stream) {
  auto& I = *impl_;
  dtx::agree(I.comm.get(), [&] {
    I.check_buffer(in, local_input_bytes(), "input");
    I.check_buffer(out, local_output_bytes(), "output");
    const auto* a = static_cast<const std::byte*>(in);
    const auto* b = static_cast<const std::byte*>(out);
    if (local_input_bytes() > 0 && local_output_bytes() > 0 && a < b + local_output_bytes() &&
        b < a + local_input_bytes())
      throw UsageError(cat("DistributedTranspose::execute: input and output overlap on rank ",
                           I.g.me, " (use execute_inplace)"));
    I.ensure_workspace(false);
  });
  I.engine->run(in, out, false, I.workspace, stream);
}

void DistributedTranspose::execute_inplace(void* buffer, Stream stream) {
  auto& I = *impl_;
  dtx::agree(I.comm.get(), [&] {
    I.check_buffer(buffer, local_inplace_bytes(), "buffer");
    I.ensure_workspace(true);
  });
  I.engine->run(buffer, buffer, true, I.workspace, stream);
}

void DistributedTranspose::forget_buffers() {
  impl_->engine->forget_buffers();
}

Transport DistributedTranspose::transport() const {
  return impl_->chosen.transport;
}
Schedule DistributedTranspose::schedule() const {
  return impl_->chosen.schedule;
}
std::int64_t DistributedTranspose::chunk_bytes() const {
  return piece_bytes(impl_->g, impl_->chosen.piece_rows);
}
CommHandle DistributedTranspose::comm() const {
  return impl_->comm.get();
}

std::string DistributedTranspose::report() const {
  const auto& I = *impl_;
  std::ostringstream os;
  os << "xpose DistributedTranspose: " << I.g.nranks << " rank(s), " << I.g.batch << " x "
     << I.g.rows << " x " << I.g.cols << " " << I.type.name() << ", " << memory_name(I.opt.memory)
     << " memory\n  choice: " << describe(I.chosen, I.g) << ": " << I.how << "\n";
  for (const auto& c : I.measured) {
    char t[32];
    std::snprintf(t, sizeof t, "%.3f ms", c.seconds * 1e3);
    if (c.failed)
      os << "    " << describe(c, I.g) << ": failed (see below)\n";
    else if (c.pruned && c.seconds < 0)
      os << "    " << describe(c, I.g)
         << ": not tried (its transport was dropped: far behind, or failed)\n";
    else
      os << "    " << describe(c, I.g) << ": " << t << (c.pruned ? " (one run, pruned)" : "")
         << "\n";
  }
  if (!I.notes.empty()) os << "  " << I.notes;
  return os.str();
}

std::vector<Transport> DistributedTranspose::available_transports(CommHandle comm,
                                                                  MemorySpace memory) {
  if (memory == MemorySpace::Device && !dtx::device::compiled())
    throw NotCompiledError("DistributedTranspose on device memory (CUDA)");
  return transport_support(comm.get<MPI_Comm>(), memory).usable;
}

}  // namespace xpose
