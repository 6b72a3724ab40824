#include "mpi/exchange.h"

#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#include <algorithm>
#include <limits>
#include <numeric>

#include "mpi/comm.h"
#include "xpose/config.h"
#include "xpose/error.h"

namespace xpose::mpi {

const char* exchange_kind_name(ExchangeKind kind) {
  switch (kind) {
    case ExchangeKind::Auto: return "auto";
    case ExchangeKind::Mpi: return "mpi";
    case ExchangeKind::Pairwise: return "mpi-pairwise";
    case ExchangeKind::NodeAware: return "mpi-node";
    case ExchangeKind::MpiDevice: return "mpi-device";
    case ExchangeKind::Nccl: return "nccl";
  }
  return "?";
}

ExchangeKind parse_exchange_kind(const std::string& name) {
  for (auto k : {ExchangeKind::Auto, ExchangeKind::Mpi, ExchangeKind::Pairwise, ExchangeKind::NodeAware,
                 ExchangeKind::MpiDevice, ExchangeKind::Nccl})
    if (name == exchange_kind_name(k)) return k;
  throw UsageError(
      cat("unknown exchange '", name, "' (use auto, mpi, mpi-node, mpi-pairwise, mpi-device or nccl)"));
}

bool is_host_exchange(ExchangeKind kind) {
  return kind == ExchangeKind::Mpi || kind == ExchangeKind::Pairwise || kind == ExchangeKind::NodeAware;
}

void ExchangeLayout::finalize(MPI_Comm comm) {
  auto dense = [](const std::vector<std::int64_t>& counts) {
    std::vector<std::int64_t> displs(counts.size(), 0);
    for (std::size_t i = 1; i < counts.size(); ++i) displs[i] = displs[i - 1] + counts[i - 1];
    return displs;
  };
  if (send_displs.empty()) send_displs = dense(send_counts);
  if (recv_displs.empty()) recv_displs = dense(recv_counts);
  bool local = !send_counts.empty() && send_displs == dense(send_counts) && recv_displs == dense(recv_counts);
  std::int64_t c = send_counts.empty() ? -1 : send_counts[0];
  for (auto v : send_counts) local = local && v == c;
  for (auto v : recv_counts) local = local && v == c;
  // Uniform only if every rank has the same count: compare min and max over ranks.
  std::int64_t lo = local ? c : -2, hi = local ? c : -3;
  std::int64_t both[2] = {-lo, hi}, agreed[2] = {0, 0};
  XPOSE_CHECK_MPI(MPI_Allreduce(both, agreed, 2, MPI_INT64_T, MPI_MAX, comm));
  uniform = local && -agreed[0] == c && agreed[1] == c;
}

std::int64_t ExchangeLayout::total_send() const {
  return std::accumulate(send_counts.begin(), send_counts.end(), std::int64_t{0});
}
std::int64_t ExchangeLayout::total_recv() const {
  return std::accumulate(recv_counts.begin(), recv_counts.end(), std::int64_t{0});
}

namespace {

/// MPI_Alltoall(v) on host (or, with a CUDA-aware MPI, device) buffers. Counts are in bytes where
/// every count and displacement of the call fits an int, else in elements of a contiguous
/// datatype of the element's size (messages up to INT_MAX elements). Bytes first: some MPIs
/// (SimGrid's SMPI among them) pack derived-datatype messages through a scratch copy.
class MpiExchange final : public Exchange {
 public:
  MpiExchange(MPI_Comm comm, std::size_t elem_size, bool device)
      : comm_(comm), elem_(static_cast<std::int64_t>(elem_size)), type_(element_datatype(elem_size)),
        device_(device) {}
  ExchangeKind kind() const override { return device_ ? ExchangeKind::MpiDevice : ExchangeKind::Mpi; }
  bool on_device() const override { return device_; }

  void alltoallv(const void* send, void* recv, const ExchangeLayout& layout,
                 kernels::DeviceStream) override {
    const std::int64_t largest = std::max(largest_extent(layout.send_counts, layout.send_displs),
                                          largest_extent(layout.recv_counts, layout.recv_displs));
    const bool bytes = largest <= std::numeric_limits<int>::max() / elem_;
    const std::int64_t unit = bytes ? elem_ : 1;
    MPI_Datatype type = bytes ? MPI_BYTE : type_.get();
    if (layout.uniform) {
      int count = to_int_count((layout.send_counts.empty() ? 0 : layout.send_counts[0]) * unit, "alltoall");
      XPOSE_CHECK_MPI(MPI_Alltoall(send, count, type, recv, count, type, comm_));
      return;
    }
    const std::size_t n = layout.send_counts.size();
    sc_.resize(n); sd_.resize(n); rc_.resize(n); rd_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      sc_[i] = to_int_count(layout.send_counts[i] * unit, "alltoallv send count");
      sd_[i] = to_int_count(layout.send_displs[i] * unit, "alltoallv send displacement");
      rc_[i] = to_int_count(layout.recv_counts[i] * unit, "alltoallv receive count");
      rd_[i] = to_int_count(layout.recv_displs[i] * unit, "alltoallv receive displacement");
    }
    XPOSE_CHECK_MPI(MPI_Alltoallv(send, sc_.data(), sd_.data(), type, recv, rc_.data(), rd_.data(), type, comm_));
  }

 private:
  static std::int64_t largest_extent(const std::vector<std::int64_t>& counts, const std::vector<std::int64_t>& displs) {
    std::int64_t m = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) m = std::max({m, counts[i], i < displs.size() ? displs[i] : 0});
    return m;
  }

  MPI_Comm comm_;
  std::int64_t elem_;
  OwnedDatatype type_;
  bool device_;
  std::vector<int> sc_, sd_, rc_, rd_;
};

}  // namespace

void Exchange::stage_in_place(const ExchangeLayout&) {
  throw InternalError(cat("the ", exchange_kind_name(kind()), " exchange does not stage in place"));
}
std::byte* Exchange::send_slot(int) { throw InternalError("send_slot: not staged in place"); }
const std::byte* Exchange::recv_slot(int) { throw InternalError("recv_slot: not staged in place"); }
void Exchange::exchange_in_place() { throw InternalError("exchange_in_place: not staged in place"); }

void warm_up(Exchange& exchange, MPI_Comm comm, const void* send, void* recv, kernels::DeviceStream stream) {
  ExchangeLayout layout;
  layout.send_counts.assign(static_cast<std::size_t>(size(comm)), 1);
  layout.recv_counts = layout.send_counts;
  layout.finalize(comm);
  exchange.alltoallv(send, recv, layout, stream);
}

bool mpi_is_cuda_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

std::unique_ptr<Exchange> make_nccl_exchange(MPI_Comm comm, std::size_t elem_size);
std::unique_ptr<Exchange> make_pairwise_exchange(MPI_Comm comm, std::size_t elem_size, const ExchangeOptions& options);
std::unique_ptr<Exchange> make_node_aware_exchange(MPI_Comm comm, std::size_t elem_size,
                                                   const ExchangeOptions& options);

std::unique_ptr<Exchange> make_exchange(ExchangeKind kind, MPI_Comm comm, std::size_t elem_size,
                                        const ExchangeOptions& options) {
  if (options.round_stride < 1 || options.round_group < 1)
    throw InternalError("make_exchange: round_stride and round_group must be positive");
  switch (kind) {
    case ExchangeKind::Mpi:
      return std::make_unique<MpiExchange>(comm, elem_size, false);
    case ExchangeKind::Pairwise:
      return make_pairwise_exchange(comm, elem_size, options);
    case ExchangeKind::NodeAware:
      return make_node_aware_exchange(comm, elem_size, options);
    case ExchangeKind::MpiDevice:
      if (!XPOSE_HAVE_CUDA) throw NotCompiledError("the mpi-device exchange (CUDA)");
      if (!mpi_is_cuda_aware())
        throw UsageError("--exchange mpi-device needs a CUDA-aware MPI, and this MPI library is not");
      return std::make_unique<MpiExchange>(comm, elem_size, true);
    case ExchangeKind::Nccl:
#if XPOSE_HAVE_NCCL
      return make_nccl_exchange(comm, elem_size);
#else
      throw NotCompiledError("the nccl exchange");
#endif
    case ExchangeKind::Auto:
      break;
  }
  throw InternalError("make_exchange: 'auto' must be resolved before the exchange is made");
}

}  // namespace xpose::mpi
