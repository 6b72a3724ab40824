// The flat pairwise exchange: P-1 rounds, and in round k rank r sends to r+k and receives from
// r-k (mod P), as FFTW's transpose-pairwise. Every rank has one message in flight each way, so
// no link carries more than the permutation of that round, and a round's cost is one message's
// latency plus its bytes: the baseline the node-aware exchange is measured against.
#include <mpi.h>

#include <cstring>

#include "mpi/comm.h"
#include "mpi/exchange.h"

namespace xpose::mpi {

namespace {

class PairwiseExchange final : public Exchange {
 public:
  PairwiseExchange(MPI_Comm comm, std::size_t elem_size, const ExchangeOptions& options)
      : comm_(comm), elem_(elem_size), type_(element_datatype(elem_size)), options_(options),
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
      if ((k - 1) % options_.round_stride != 0) continue;
      ++stats_.rounds_run;
      const int to = (me_ + k) % n_, from = (me_ - k + n_) % n_;
      // A pair with nothing to move skips the round on both sides: the counts agree.
      MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
      if (layout.recv_counts[from] > 0)
        XPOSE_CHECK_MPI(MPI_Irecv(r + layout.recv_displs[from] * es,
                                  to_int_count(layout.recv_counts[from], "pairwise receive"), type_.get(), from,
                                  kTag, comm_, &req[0]));
      if (layout.send_counts[to] > 0)
        XPOSE_CHECK_MPI(MPI_Isend(s + layout.send_displs[to] * es, to_int_count(layout.send_counts[to], "pairwise send"),
                                  type_.get(), to, kTag, comm_, &req[1]));
      XPOSE_CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    }
    stats_.local_seconds = t1 - t0;
    stats_.rounds_seconds = MPI_Wtime() - t1;
  }

 private:
  static constexpr int kTag = 7301;
  MPI_Comm comm_;
  std::size_t elem_;
  OwnedDatatype type_;
  ExchangeOptions options_;
  int me_, n_;
  ExchangeStats stats_;
};

}  // namespace

std::unique_ptr<Exchange> make_pairwise_exchange(MPI_Comm comm, std::size_t elem_size, const ExchangeOptions& options) {
  return std::make_unique<PairwiseExchange>(comm, elem_size, options);
}

}  // namespace xpose::mpi
