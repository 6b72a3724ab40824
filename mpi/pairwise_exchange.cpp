// The flat pairwise exchange: P-1 rounds, and in round k rank r sends to r+k and receives from
// r-k (mod P), as FFTW's transpose-pairwise. Every rank has one message in flight each way, so
// no link carries more than the permutation of that round, and a round's cost is one message's
// latency plus its bytes: the baseline the node-aware exchange is measured against.
#include <mpi.h>

#include <cstring>
#include <vector>

#include "mpi/comm.h"
#include "mpi/exchange.h"

namespace xpose::mpi {

namespace {

class PairwiseExchange final : public Exchange {
 public:
  PairwiseExchange(MPI_Comm comm, std::size_t elem_size, const ExchangeOptions& options)
      : comm_(comm), elem_(elem_size), options_(options),
        me_(rank(comm)), n_(size(comm)) {}
  ExchangeKind kind() const override { return ExchangeKind::Pairwise; }
  bool on_device() const override { return false; }
  ExchangeStats last_stats() const override { return stats_; }

  void alltoallv(const void* send, void* recv, const ExchangeLayout& layout, kernels::DeviceStream) override {
    const auto* s = static_cast<const std::byte*>(send);
    auto* r = static_cast<std::byte*>(recv);
    const auto es = static_cast<std::int64_t>(elem_);
    stats_ = {};
    const double t0 = MPI_Wtime();
    if (layout.send_counts[me_] > 0) {
      const auto bytes = static_cast<std::size_t>(layout.send_counts[me_] * es);
      std::byte* dst = r + layout.recv_displs[me_] * es;
      const std::byte* src = s + layout.send_displs[me_] * es;
      if (options_.local_copy) options_.local_copy(dst, src, bytes);
      else std::memcpy(dst, src, bytes);
    }
    if (options_.local_copies_done) options_.local_copies_done();
    const double t1 = MPI_Wtime();
    stats_.rounds_total = n_ - 1;
    for (int k = 1; k < n_; ++k) {
      if (((k - 1) / options_.round_group) % options_.round_stride != 0) continue;
      ++stats_.rounds_run;
      const int to = (me_ + k) % n_, from = (me_ - k + n_) % n_;
      // A pair with nothing to move skips the round on both sides: the counts agree.
      post_receive(requests_, r + layout.recv_displs[from] * es, layout.recv_counts[from] * es, from, kTag, comm_);
      post_send(requests_, s + layout.send_displs[to] * es, layout.send_counts[to] * es, to, kTag, comm_);
      XPOSE_CHECK_MPI(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE));
      requests_.clear();
    }
    stats_.local_seconds = t1 - t0;
    stats_.rounds_seconds = MPI_Wtime() - t1;
  }

 private:
  static constexpr int kTag = 7301;
  MPI_Comm comm_;
  std::size_t elem_;
  std::vector<MPI_Request> requests_;
  ExchangeOptions options_;
  int me_, n_;
  ExchangeStats stats_;
};

}  // namespace

std::unique_ptr<Exchange> make_pairwise_exchange(MPI_Comm comm, std::size_t elem_size, const ExchangeOptions& options) {
  return std::make_unique<PairwiseExchange>(comm, elem_size, options);
}

}  // namespace xpose::mpi
