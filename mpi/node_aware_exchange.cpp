// The node-aware exchange. Where the flat exchange's messages get small (many ranks, narrow
// stages), each message costs mostly its latency, and a flat all-to-all sends P-1 of them per
// rank. Here the L ranks of a node first combine, in the node's shared memory, their pieces for
// each other node into one outbox; each pair of nodes then exchanges one message of L x L
// pieces, with the N-1 node rounds dealt out over the node's ranks; and each rank reads its
// pieces out of the inboxes. Per rank that is about (N-1)/L messages instead of P-1, each L^2
// times larger. A caller that stages in place (the CPU backend) transposes straight into node
// memory and unpacks straight from it, so that costs no copy the flat exchange does not make;
// through alltoallv it costs two.
//
// Node memory, per call: [outbox for node 0] ... [outbox for node N-1] [inbox from each other
// node]. Outbox n holds, for every local rank i (in order) and every rank q of node n (in
// order), the piece i -> q; the inbox from node m holds the same blocks as m's outbox for this
// node, so both ends agree on every offset from the counts alone. The outbox for this node is
// read in place by its ranks (no message).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "mpi/comm.h"
#include "mpi/exchange.h"

namespace xpose::mpi {

namespace {

/// The node's shared buffer: an MPI shared-memory window, or (simulation, see ExchangeOptions)
/// one malloc of the node's first rank.
class NodeMemory {
 public:
  NodeMemory() = default;
  NodeMemory(const NodeMemory&) = delete;
  NodeMemory& operator=(const NodeMemory&) = delete;
  ~NodeMemory() { release_window(); }

  std::byte* data() const { return base_; }
  std::size_t capacity() const { return capacity_; }

  /// Collective over `node`: every rank asks for the same `bytes`.
  void reserve(MPI_Comm node, std::size_t bytes, bool process_shared) {
    if (bytes <= capacity_ && base_) return;
    // Grow by half again, so a slowly growing layout does not reallocate every call.
    bytes = std::max(bytes, capacity_ + capacity_ / 2);
    bytes = std::max<std::size_t>(bytes, 64);
    const bool first = rank(node) == 0;
    if (process_shared) {
      // The old block may still be read by a slower rank of the node until all are here.
      XPOSE_CHECK_MPI(MPI_Barrier(node));
      if (first) ::free(base_);  // held until the process ends otherwise (see ExchangeOptions)
      std::uint64_t address = 0;
      if (first) {
        void* p = ::malloc(bytes);
        if (!p) throw ResourceError(cat("node-aware exchange: cannot allocate ", bytes, " bytes of node memory"));
        address = reinterpret_cast<std::uintptr_t>(p);
      }
      XPOSE_CHECK_MPI(MPI_Bcast(&address, 1, MPI_UINT64_T, 0, node));
      base_ = reinterpret_cast<std::byte*>(static_cast<std::uintptr_t>(address));
    } else {
      release_window();
      void* mine = nullptr;
      XPOSE_CHECK_MPI(MPI_Win_allocate_shared(static_cast<MPI_Aint>(first ? bytes : 0), 1, MPI_INFO_NULL, node,
                                              &mine, &win_));
      MPI_Aint size = 0;
      int unit = 0;
      void* start = nullptr;
      XPOSE_CHECK_MPI(MPI_Win_shared_query(win_, 0, &size, &unit, &start));
      if (static_cast<std::size_t>(size) < bytes)
        throw RuntimeFailure(cat("node-aware exchange: shared window of ", size, " bytes, asked for ", bytes));
      base_ = static_cast<std::byte*>(start);
      // One passive epoch for the window's life; loads and stores are ordered by sync() below.
      XPOSE_CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_));
    }
    capacity_ = bytes;
  }

  /// Makes every rank's stores to node memory visible to every other rank of the node.
  void sync(MPI_Comm node) const {
    if (win_ != MPI_WIN_NULL) XPOSE_CHECK_MPI(MPI_Win_sync(win_));
    XPOSE_CHECK_MPI(MPI_Barrier(node));
    if (win_ != MPI_WIN_NULL) XPOSE_CHECK_MPI(MPI_Win_sync(win_));
  }

 private:
  void release_window() noexcept {
    if (win_ == MPI_WIN_NULL) return;
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) {
      MPI_Win_unlock_all(win_);
      MPI_Win_free(&win_);
    }
    win_ = MPI_WIN_NULL;
    base_ = nullptr;
    capacity_ = 0;
  }

  MPI_Win win_ = MPI_WIN_NULL;
  std::byte* base_ = nullptr;
  std::size_t capacity_ = 0;
};

class NodeAwareExchange final : public Exchange {
 public:
  NodeAwareExchange(MPI_Comm comm, std::size_t elem_size, const ExchangeOptions& options)
      : comm_(comm), elem_(elem_size), options_(options), me_(rank(comm)), n_(size(comm)),
        layout_(node_layout(comm, options.ranks_per_node)) {}
  ExchangeKind kind() const override { return ExchangeKind::NodeAware; }
  bool on_device() const override { return false; }
  ExchangeStats last_stats() const override { return stats_; }

  bool can_stage_in_place() const override { return true; }

  void stage_in_place(const ExchangeLayout& layout) override {
    if (layout.send_counts[me_] != 0 || layout.recv_counts[me_] != 0)
      throw InternalError("node-aware exchange in place: a rank's piece to itself stays with the caller");
    begin(layout);
  }
  std::byte* send_slot(int q) override { return memory_.data() + send_at_[q] * es(); }
  const std::byte* recv_slot(int p) override { return memory_.data() + recv_at_[p] * es(); }

  void exchange_in_place() override {
    // Every local rank's pieces are in node memory once all are here.
    const double t0 = MPI_Wtime();
    memory_.sync(layout_.node.get());
    const double t1 = MPI_Wtime();
    rounds();
    const double t2 = MPI_Wtime();
    memory_.sync(layout_.node.get());
    stats_.rounds_seconds = t2 - t1;
    stats_.local_seconds += (t1 - t0) + (MPI_Wtime() - t2);
  }

  void alltoallv(const void* send, void* recv, const ExchangeLayout& layout, kernels::DeviceStream) override {
    const auto* s = static_cast<const std::byte*>(send);
    auto* r = static_cast<std::byte*>(recv);
    const std::int64_t e = es();
    auto copy = [&](std::byte* dst, const std::byte* src, std::int64_t elems) {
      if (elems <= 0) return;
      const auto bytes = static_cast<std::size_t>(elems * e);
      if (options_.local_copy) options_.local_copy(dst, src, bytes);
      else std::memcpy(dst, src, bytes);
    };
    const double t0 = MPI_Wtime();
    begin(layout);
    copy(r + layout.recv_displs[me_] * e, s + layout.send_displs[me_] * e, layout.send_counts[me_]);
    for (int q = 0; q < n_; ++q)
      if (q != me_) copy(send_slot(q), s + layout.send_displs[q] * e, layout.send_counts[q]);
    if (options_.local_copies_done) options_.local_copies_done();
    stats_.local_seconds = MPI_Wtime() - t0;
    exchange_in_place();
    const double t1 = MPI_Wtime();
    for (int p = 0; p < n_; ++p)
      if (p != me_) copy(r + layout.recv_displs[p] * e, recv_slot(p), layout.recv_counts[p]);
    if (options_.local_copies_done) options_.local_copies_done();
    stats_.local_seconds += MPI_Wtime() - t1;
  }

 private:
  static constexpr int kTag = 7302;

  std::int64_t es() const { return static_cast<std::int64_t>(elem_); }

  /// Gathers the node's counts, sizes node memory and places every piece of this rank in it.
  void begin(const ExchangeLayout& layout) {
    const double t0 = MPI_Wtime();
    stats_ = {};
    MPI_Comm node = layout_.node.get();
    const int m = layout_.node_index, nodes = layout_.nodes(), li = layout_.local_rank;
    const auto& local = layout_.members[m];
    const int L = static_cast<int>(local.size());
    const auto P = static_cast<std::size_t>(n_);

    // Every local rank's counts, send then receive. Completing this also tells each rank that the
    // others have left the previous call, so its node memory may be overwritten.
    mine_.resize(2 * P);
    std::copy(layout.send_counts.begin(), layout.send_counts.end(), mine_.begin());
    std::copy(layout.recv_counts.begin(), layout.recv_counts.end(), mine_.begin() + n_);
    mine_[me_] = 0;  // a rank's piece to itself never passes through node memory
    mine_[P + me_] = 0;
    all_.resize(2 * P * static_cast<std::size_t>(L));
    XPOSE_CHECK_MPI(MPI_Allgather(mine_.data(), static_cast<int>(2 * P), MPI_INT64_T, all_.data(),
                                  static_cast<int>(2 * P), MPI_INT64_T, node));
    auto sent = [&](int i, int q) { return all_[static_cast<std::size_t>(i) * 2 * P + q]; };
    auto received = [&](int j, int p) { return all_[static_cast<std::size_t>(j) * 2 * P + P + p]; };

    // Box sizes, in elements: outbox n (every local rank to node n), inbox from node n.
    out_base_.assign(static_cast<std::size_t>(nodes) + 1, 0);
    in_base_.assign(static_cast<std::size_t>(nodes) + 1, 0);
    for (int n = 0; n < nodes; ++n) {
      std::int64_t out = 0, in = 0;
      for (int q : layout_.members[n])
        for (int i = 0; i < L; ++i) {
          out += sent(i, q);
          if (n != m) in += received(i, q);
        }
      out_base_[n + 1] = out_base_[n] + out;
      in_base_[n + 1] = in_base_[n] + in;
    }
    const std::int64_t inbox = out_base_[nodes];
    memory_.reserve(node, static_cast<std::size_t>((inbox + in_base_[nodes]) * es()), options_.process_shared_memory);

    // This rank's pieces go after those of the local ranks before it in every outbox; its pieces
    // from node n's rank p come after those of p for the local ranks before it.
    send_at_.assign(P, 0);
    recv_at_.assign(P, 0);
    for (int n = 0; n < nodes; ++n) {
      const auto& ranks = layout_.members[n];
      std::int64_t at = out_base_[n];
      for (int i = 0; i < li; ++i)
        for (int q : ranks) at += sent(i, q);
      for (int q : ranks) {
        send_at_[q] = at;
        at += sent(li, q);
      }
      if (n == m) {  // pieces between local ranks are read from this node's own outbox
        at = out_base_[m];
        for (int i = 0; i < L; ++i)
          for (int q : ranks) {
            if (q == me_) recv_at_[local[i]] = at;
            at += sent(i, q);
          }
      } else {
        at = inbox + in_base_[n];
        for (int p : ranks)
          for (int j = 0; j < L; ++j) {
            if (j == li) recv_at_[p] = at;
            at += received(j, p);
          }
      }
    }
    stats_.local_seconds = MPI_Wtime() - t0;
  }

  /// Node rounds: in round k node m sends its outbox to node m+k and receives from node m-k. The
  /// N-1 rounds are dealt to the node's ranks in blocks of consecutive rounds, and the ranks work
  /// through their blocks side by side, step by step: at any time a node's messages go to nodes
  /// far apart, not to neighbours that share a switch or router with each other.
  void rounds() {
    const int m = layout_.node_index, nodes = layout_.nodes(), li = layout_.local_rank;
    const int L = static_cast<int>(layout_.members[m].size());
    const int group = layout_.max_ranks_per_node;
    const int steps = (nodes - 1 + group - 1) / group;  // rounds per block
    const std::int64_t e = es();
    std::byte* outbox = memory_.data();
    std::byte* inbox = memory_.data() + out_base_[nodes] * e;
    stats_.rounds_total = nodes - 1;
    for (int t = 0; t < steps; ++t) {
      if (t % options_.round_stride != 0) continue;
      for (int block = 0; block < group; ++block) {
        const int k = block * steps + t + 1;
        if (k >= nodes) continue;
        ++stats_.rounds_run;
        if (block % L != li) continue;
        // Block b's rounds belong to local rank b mod L on every node, so both ends agree.
        const int to = (m + k) % nodes, from = (m - k + nodes) % nodes;
        const auto& to_ranks = layout_.members[to];
        const auto& from_ranks = layout_.members[from];
        const int peer_to = to_ranks[static_cast<std::size_t>(block) % to_ranks.size()];
        const int peer_from = from_ranks[static_cast<std::size_t>(block) % from_ranks.size()];
        post_receive(requests_, inbox + in_base_[from] * e, (in_base_[from + 1] - in_base_[from]) * e, peer_from,
                     kTag, comm_);
        post_send(requests_, outbox + out_base_[to] * e, (out_base_[to + 1] - out_base_[to]) * e, peer_to, kTag,
                  comm_);
        XPOSE_CHECK_MPI(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE));
        requests_.clear();
      }
    }
  }

  MPI_Comm comm_;
  std::size_t elem_;
  ExchangeOptions options_;
  int me_, n_;
  NodeLayout layout_;
  NodeMemory memory_;
  std::vector<std::int64_t> mine_, all_, out_base_, in_base_, send_at_, recv_at_;
  std::vector<MPI_Request> requests_;
  ExchangeStats stats_;
};

}  // namespace

std::unique_ptr<Exchange> make_node_aware_exchange(MPI_Comm comm, std::size_t elem_size,
                                                   const ExchangeOptions& options) {
  return std::make_unique<NodeAwareExchange>(comm, elem_size, options);
}

}  // namespace xpose::mpi
