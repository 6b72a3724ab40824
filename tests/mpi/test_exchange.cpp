// The host MPI exchanges at every rank count: uniform counts (MPI_Alltoall), uneven counts and
// empty ranks (MPI_Alltoallv), every element size, for the library's all-to-all, the pairwise
// schedule and the node-aware exchange (with node boundaries faked inside this machine: 1, 2
// and 3 ranks per "node", so 4 ranks make 4, 2 or 2 uneven nodes); and collective error
// agreement.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "mpi/comm.h"
#include "mpi/exchange.h"
#include "xpose/error.h"

namespace xpose::mpi {
namespace {

// Element e of the message from rank p to rank q carries (p, q, e) in its first bytes.
void fill(std::byte* dst, std::size_t s, int p, int q, std::int64_t e) {
  std::uint64_t v = (static_cast<std::uint64_t>(p) << 48) ^ (static_cast<std::uint64_t>(q) << 32) ^
                    static_cast<std::uint64_t>(e);
  v *= 0x9E3779B97F4A7C15ull;
  for (std::size_t b = 0; b < s; ++b) dst[b] = static_cast<std::byte>((v >> (8 * (b % 8))) + b);
}

// With `in_place`, through stage_in_place/send_slot/recv_slot, the way the CPU backend packs and
// unpacks, and without a rank's piece to itself.
void run_exchange(Exchange& ex, std::size_t s, bool uneven, int scale = 1, bool in_place = false) {
  const int me = rank(MPI_COMM_WORLD), n = size(MPI_COMM_WORLD);
  // count(p -> q): uneven gives some pairs nothing at all
  auto count = [&](int p, int q) -> std::int64_t {
    if (!uneven) return 5 * scale;
    return (p + 2 * q) % 3 == 0 ? 0 : scale * (1 + (p * 7 + q * 3) % 11);
  };
  auto counted = [&](int p, int q) -> std::int64_t { return in_place && p == q ? 0 : count(p, q); };
  ExchangeLayout layout;
  for (int q = 0; q < n; ++q) {
    layout.send_counts.push_back(counted(me, q));
    layout.recv_counts.push_back(counted(q, me));
  }
  layout.finalize(MPI_COMM_WORLD);
  bool all_equal = true;
  for (int p = 0; p < n; ++p)
    for (int q = 0; q < n; ++q) all_equal = all_equal && counted(p, q) == counted(0, 0);
  EXPECT_EQ(layout.uniform, all_equal);
  std::vector<std::byte> send(static_cast<std::size_t>(layout.total_send()) * s + 1);
  std::vector<std::byte> recv(static_cast<std::size_t>(layout.total_recv()) * s + 1, std::byte{0xAB});
  EXPECT_FALSE(ex.on_device());
  std::vector<std::byte> want(s);
  std::int64_t bad = 0;
  if (in_place) {
    ASSERT_TRUE(ex.can_stage_in_place());
    ex.stage_in_place(layout);
    for (int q = 0; q < n; ++q)
      for (std::int64_t e = 0; e < counted(me, q); ++e) fill(ex.send_slot(q) + e * s, s, me, q, e);
    ex.exchange_in_place();
    for (int p = 0; p < n; ++p)
      for (std::int64_t e = 0; e < counted(p, me); ++e) {
        fill(want.data(), s, p, me, e);
        bad += std::memcmp(want.data(), ex.recv_slot(p) + e * s, s) != 0;
      }
  } else {
    for (int q = 0; q < n; ++q)
      for (std::int64_t e = 0; e < count(me, q); ++e) fill(&send[(layout.send_displs[q] + e) * s], s, me, q, e);
    ex.alltoallv(send.data(), recv.data(), layout, nullptr);
    for (int p = 0; p < n; ++p)
      for (std::int64_t e = 0; e < count(p, me); ++e) {
        fill(want.data(), s, p, me, e);
        bad += std::memcmp(want.data(), &recv[(layout.recv_displs[p] + e) * s], s) != 0;
      }
  }
  EXPECT_EQ(bad, 0) << exchange_kind_name(ex.kind()) << " element size " << s << (uneven ? " uneven" : " uniform")
                    << " x" << scale << (in_place ? " in place" : "");
}

void run_every_size(ExchangeKind kind, const ExchangeOptions& options = {}) {
  for (std::size_t s : {1, 2, 4, 8, 16}) {
    auto ex = make_exchange(kind, MPI_COMM_WORLD, s, options);
    EXPECT_EQ(ex->kind(), kind);
    // The same exchange again with other counts: buffers it keeps (node memory) are reused or grown.
    run_exchange(*ex, s, false);
    run_exchange(*ex, s, true);
    run_exchange(*ex, s, true, 300);
    run_exchange(*ex, s, false);
    if (ex->can_stage_in_place()) {  // in place, alternating with copies through the same memory
      run_exchange(*ex, s, true, 1, true);
      run_exchange(*ex, s, false, 200, true);
      run_exchange(*ex, s, true, 7);
      run_exchange(*ex, s, false, 3, true);
    }
  }
}

TEST(Exchange, UniformEveryElementSize) {
  for (std::size_t s : {1, 2, 4, 8, 16}) run_exchange(*make_exchange(ExchangeKind::Mpi, MPI_COMM_WORLD, s), s, false);
}

TEST(Exchange, UnevenAndEmptyEveryElementSize) {
  for (std::size_t s : {1, 2, 4, 8, 16}) run_exchange(*make_exchange(ExchangeKind::Mpi, MPI_COMM_WORLD, s), s, true);
}

TEST(Exchange, PairwiseEveryElementSize) { run_every_size(ExchangeKind::Pairwise); }

// 1: every rank a node (all pieces cross nodes); 2: 4 ranks as 2 nodes; 3: nodes of 3 and 1.
TEST(NodeAwareExchange, FakedNodesEveryElementSize) {
  for (int per_node : {1, 2, 3}) {
    ExchangeOptions options;
    options.ranks_per_node = per_node;
    run_every_size(ExchangeKind::NodeAware, options);
  }
}

// The node boundaries of this run: the real ones, or XPOSE_RANKS_PER_NODE (16 ranks as 4 nodes of
// 4 on a 16-core machine: XPOSE_RANKS_PER_NODE=4 mpiexec -n 16 ...).
TEST(NodeAwareExchange, NodesOfThisRun) { run_every_size(ExchangeKind::NodeAware); }

TEST(NodeAwareExchange, FakedNodesFollowTheCount) {
  const int n = size(MPI_COMM_WORLD);
  auto layout = node_layout(MPI_COMM_WORLD, 2);
  EXPECT_EQ(layout.nodes(), (n + 1) / 2);
  EXPECT_EQ(layout.members[layout.node_index].size(), static_cast<std::size_t>(size(layout.node.get())));
  EXPECT_EQ(layout.node_of[rank(MPI_COMM_WORLD)], rank(MPI_COMM_WORLD) / 2);
  EXPECT_EQ(layout.max_ranks_per_node, std::min(n, 2));
}

TEST(PairwiseExchange, SampledRoundsAreCounted) {
  const int n = size(MPI_COMM_WORLD);
  ExchangeOptions options;
  options.round_stride = 2;
  auto ex = make_exchange(ExchangeKind::Pairwise, MPI_COMM_WORLD, 4, options);
  ExchangeLayout layout;
  layout.send_counts.assign(static_cast<std::size_t>(n), 3);
  layout.recv_counts = layout.send_counts;
  layout.finalize(MPI_COMM_WORLD);
  std::vector<float> send(static_cast<std::size_t>(3 * n), 1.0f), recv(send.size(), 0.0f);
  ex->alltoallv(send.data(), recv.data(), layout, nullptr);
  EXPECT_EQ(ex->last_stats().rounds_total, n - 1);
  EXPECT_EQ(ex->last_stats().rounds_run, n / 2);  // rounds 1, 3, 5, ...
}

TEST(Exchange, ParsesKinds) {
  EXPECT_EQ(parse_exchange_kind("nccl"), ExchangeKind::Nccl);
  EXPECT_EQ(parse_exchange_kind("mpi-device"), ExchangeKind::MpiDevice);
  EXPECT_EQ(parse_exchange_kind("mpi-node"), ExchangeKind::NodeAware);
  EXPECT_EQ(parse_exchange_kind("mpi-pairwise"), ExchangeKind::Pairwise);
  EXPECT_THROW(parse_exchange_kind("carrier-pigeon"), UsageError);
}

TEST(Collectively, EveryRankGetsTheLowestFailingRanksError) {
  const int me = rank(MPI_COMM_WORLD), n = size(MPI_COMM_WORLD);
  const int failing = n - 1;  // only the last rank fails
  try {
    collectively(MPI_COMM_WORLD, [&] {
      if (me == failing) throw OutputRefusedError(cat("refused by rank ", me));
    });
    FAIL() << "no error on rank " << me;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::OutputRefused);
    EXPECT_EQ(std::string(e.what()), cat("refused by rank ", failing));
  }
  EXPECT_NO_THROW(collectively(MPI_COMM_WORLD, [] {}));
}

TEST(LocalRank, CoversTheNode) {
  auto local = local_rank(MPI_COMM_WORLD);
  EXPECT_GE(local.rank, 0);
  EXPECT_LT(local.rank, local.size);
  EXPECT_EQ(allreduce_sum(MPI_COMM_WORLD, local.rank == 0 ? 1 : 0) >= 1, true);
}

}  // namespace
}  // namespace xpose::mpi
