// DistributedTranspose on host memory: where the pieces sit (shared with the device engine), the
// bulk and pipelined schedules over MPI with the CPU kernels, and the small helpers both use.
#include <algorithm>
#include <cstdlib>
#include <thread>

#include "engine/src/distributed_transpose_impl.h"
#include "kernels/transpose.h"
#include "mpi/comm.h"

namespace xpose::dtx {

namespace {

constexpr std::size_t kRegionAlign = 256;

std::size_t align_up(std::size_t v, std::size_t a) {
  return (v + a - 1) / a * a;
}

}  // namespace

// ---- PieceLayout ---------------------------------------------------------------------------

PieceLayout PieceLayout::make(const Geometry& g, std::int64_t piece_rows, bool inplace) {
  PieceLayout L;
  L.piece_rows = std::max<std::int64_t>(1, piece_rows);
  L.inplace = inplace;
  const int P = g.nranks, me = g.me;
  // Blocks in rank order; this rank's own block is in the send region only in place, where the
  // input must be packed away before the buffer is overwritten.
  std::vector<std::int64_t> send_block(P, 0), recv_block(P, 0);
  for (int q = 0; q < P; ++q) {
    send_block[q] = L.send_elements;
    if (q != me || inplace) L.send_elements += g.batch * g.n(me) * g.m(q);
    recv_block[q] = L.receive_elements;
    if (q != me) L.receive_elements += g.batch * g.m(me) * g.n(q);
  }
  L.send_steps.assign(P, {0, 0});
  L.receive_steps.assign(P, {0, 0});
  const std::int64_t w = L.piece_rows;
  for (int s = 1; s < P; ++s) {
    const int dst = (me + s) % P, src = (me - s + P) % P;
    L.send_steps[s].first = L.sends.size();
    // A pair exchanges pieces only when both sides have rows: both compute the same predicate.
    if (g.n(me) > 0 && g.m(dst) > 0)
      for (std::int64_t k = 0, first = 0; first < g.m(dst); ++k, first += w) {
        Piece p;
        p.peer = dst;
        p.step = s;
        p.index = k;
        p.first = first;
        p.rows = std::min(w, g.m(dst) - first);
        p.offset = send_block[dst] + g.batch * g.n(me) * first;
        p.count = g.batch * g.n(me) * p.rows;
        L.sends.push_back(p);
      }
    L.send_steps[s].second = L.sends.size();
    L.receive_steps[s].first = L.receives.size();
    if (g.n(src) > 0 && g.m(me) > 0)
      for (std::int64_t k = 0, first = 0; first < g.m(me); ++k, first += w) {
        Piece p;
        p.peer = src;
        p.step = s;
        p.index = k;
        p.first = first;
        p.rows = std::min(w, g.m(me) - first);
        p.offset = recv_block[src] + g.batch * g.n(src) * first;
        p.count = g.batch * g.n(src) * p.rows;
        L.receives.push_back(p);
      }
    L.receive_steps[s].second = L.receives.size();
  }
  if (inplace && g.n(me) > 0 && g.m(me) > 0) {
    L.self.peer = me;
    L.self.rows = g.m(me);
    L.self.offset = send_block[me];
    L.self.count = g.batch * g.n(me) * g.m(me);
  }
  return L;
}

std::size_t PieceLayout::receive_region_offset(std::size_t elem) const {
  return align_up(static_cast<std::size_t>(send_elements) * elem, kRegionAlign);
}

std::size_t PieceLayout::workspace_bytes(std::size_t elem) const {
  if (receive_elements == 0) return static_cast<std::size_t>(send_elements) * elem;
  return receive_region_offset(elem) + static_cast<std::size_t>(receive_elements) * elem;
}

mpi::ExchangeLayout PieceLayout::bulk_exchange(int nranks) const {
  mpi::ExchangeLayout x;
  x.send_counts.assign(nranks, 0);
  x.send_displs.assign(nranks, 0);
  x.recv_counts.assign(nranks, 0);
  x.recv_displs.assign(nranks, 0);
  for (const auto& p : sends) {
    if (p.index != 0)
      throw InternalError("bulk exchange: more than one piece per peer (piece height too small)");
    x.send_counts[p.peer] = p.count;
    x.send_displs[p.peer] = p.offset;
  }
  for (const auto& p : receives) {
    x.recv_counts[p.peer] = p.count;
    x.recv_displs[p.peer] = p.offset;
  }
  x.uniform = false;  // this rank's own block is never sent, so the counts are never all equal
  return x;
}

mpi::ExchangeLayout PieceLayout::step_exchange(int nranks, const Piece* send,
                                               const Piece* receive) const {
  mpi::ExchangeLayout x;
  x.send_counts.assign(nranks, 0);
  x.send_displs.assign(nranks, 0);
  x.recv_counts.assign(nranks, 0);
  x.recv_displs.assign(nranks, 0);
  if (send) {
    x.send_counts[send->peer] = send->count;
    x.send_displs[send->peer] = send->offset;
  }
  if (receive) {
    x.recv_counts[receive->peer] = receive->count;
    x.recv_displs[receive->peer] = receive->offset;
  }
  x.uniform = false;
  return x;
}

// ---- Allocation, agree ---------------------------------------------------------------------

Allocation::Allocation(MemorySpace space, std::int64_t bytes) : ptr_(nullptr, FreeMemory{space}) {
  if (bytes <= 0) return;
  if (space == MemorySpace::Device) {
    ptr_.reset(device::allocate(bytes));
  } else {
    void* p = nullptr;
    // 2 MiB alignment lets the kernel back large buffers with huge pages.
    const std::size_t align = bytes >= (8 << 20) ? (2u << 20) : 4096;
    if (posix_memalign(&p, align, static_cast<std::size_t>(bytes)) != 0 || p == nullptr)
      throw ResourceError(
          cat("cannot allocate ", format_size(static_cast<double>(bytes)), " of host memory"));
    ptr_.reset(static_cast<std::byte*>(p));
  }
  bytes_ = bytes;
}

void FreeMemory::operator()(std::byte* p) const noexcept {
  if (space == MemorySpace::Device)
    device::free(p);
  else
    std::free(p);
}

void agree(MPI_Comm comm, const std::function<void()>& work) {
  try {
    mpi::collectively(comm, work);
  } catch (const Error& e) {
    const std::string what = e.what();
    switch (e.code()) {
      case ExitCode::Usage:
        throw UsageError(what);
      case ExitCode::InputUnsupported:
        throw UnsupportedInputError(what);
      case ExitCode::Resources:
        throw ResourceError(what);
      case ExitCode::Runtime:
        throw RuntimeFailure(what);
      case ExitCode::Internal:
        throw InternalError(what);
      default:
        throw;
    }
  }
}

// ---- the host engine -----------------------------------------------------------------------

namespace {

class HostEngine final : public Engine {
 public:
  explicit HostEngine(const EngineConfig& config)
      : cfg_(config),
        g_(config.geometry),
        out_of_place_(PieceLayout::make(g_, config.piece_rows, false)),
        in_place_(PieceLayout::make(g_, config.piece_rows, true)) {
    if (g_.nranks > 1) type_ = mpi::element_datatype(g_.elem);
  }

  void run(const void* in, void* out, bool inplace, std::byte* workspace, CUstream_st*) override {
    const auto* src = static_cast<const std::byte*>(in);
    auto* dst = static_cast<std::byte*>(out);
    if (inplace && g_.nranks == 1 && g_.rows == g_.cols) {
      kernels::transpose_inplace_cpu(dst, g_.elem, g_.rows, g_.batch, cfg_.threads);
      return;
    }
    const PieceLayout& L = inplace ? in_place_ : out_of_place_;
    std::byte* send = workspace;
    std::byte* recv = workspace ? workspace + L.receive_region_offset(g_.elem) : nullptr;
    if (cfg_.schedule == Schedule::Bulk)
      run_bulk(L, src, dst, send, recv);
    else
      run_pipelined(L, src, dst, send, recv);
  }

 private:
  std::int64_t es() const { return static_cast<std::int64_t>(g_.elem); }

  // Input columns [c(q) + first, + rows) of every local row become the contiguous piece.
  void pack(const Piece& p, const std::byte* in, std::byte* send) const {
    const std::int64_t n = g_.n(g_.me);
    kernels::TransposeShape ts;
    ts.rows = n;
    ts.cols = p.rows;
    ts.batch = g_.batch;
    ts.in_pitch = g_.cols;
    ts.out_pitch = n;
    ts.in_batch_stride = n * g_.cols;
    ts.out_batch_stride = p.rows * n;
    kernels::transpose_cpu(in + (g_.c(p.peer) + p.first) * es(), send + p.offset * es(), g_.elem,
                           ts, cfg_.threads);
  }

  // A piece from rank p.peer lands in output rows [first, + rows), columns [r(p), + n(p)).
  void unpack(const Piece& p, const std::byte* region, std::byte* out) const {
    const std::int64_t n = g_.n(p.peer), m = g_.m(g_.me);
    for (std::int64_t b = 0; b < g_.batch; ++b)
      kernels::copy_2d_cpu(region + (p.offset + b * p.rows * n) * es(), n * es(),
                           out + ((b * m + p.first) * g_.rows + g_.r(p.peer)) * es(),
                           g_.rows * es(), n * es(), p.rows, cfg_.threads);
  }

  // Out of place, this rank's own block goes straight from input to output.
  void transpose_self(const std::byte* in, std::byte* out) const {
    const std::int64_t n = g_.n(g_.me), m = g_.m(g_.me);
    if (n == 0 || m == 0) return;
    kernels::TransposeShape ts;
    ts.rows = n;
    ts.cols = m;
    ts.batch = g_.batch;
    ts.in_pitch = g_.cols;
    ts.out_pitch = g_.rows;
    ts.in_batch_stride = n * g_.cols;
    ts.out_batch_stride = m * g_.rows;
    kernels::transpose_cpu(in + g_.c(g_.me) * es(), out + g_.r(g_.me) * es(), g_.elem, ts,
                           cfg_.threads);
  }

  void run_bulk(const PieceLayout& L, const std::byte* in, std::byte* out, std::byte* send,
                std::byte* recv) {
    for (const auto& p : L.sends) pack(p, in, send);
    if (L.inplace && L.self.rows > 0) pack(L.self, in, send);
    if (!L.inplace) transpose_self(in, out);
    if (g_.nranks > 1) {
      const auto layout = L.bulk_exchange(g_.nranks);
      cfg_.exchange->alltoallv(send, recv, layout, nullptr);
    }
    for (const auto& p : L.receives) unpack(p, recv, out);
    if (L.inplace && L.self.rows > 0) unpack(L.self, send, out);
  }

  // Receives are all posted first; each piece is sent as soon as it is packed, and (out of
  // place) pieces that have landed are unpacked between packs.
  void run_pipelined(const PieceLayout& L, const std::byte* in, std::byte* out, std::byte* send,
                     std::byte* recv) {
    const std::size_t nr = L.receives.size(), ns = L.sends.size();
    recv_reqs_.assign(nr, MPI_REQUEST_NULL);
    send_reqs_.assign(ns, MPI_REQUEST_NULL);
    done_.resize(std::max<std::size_t>(nr, 1));
    for (std::size_t i = 0; i < nr; ++i) {
      const Piece& p = L.receives[i];
      XPOSE_CHECK_MPI(MPI_Irecv(recv + p.offset * es(), mpi::to_int_count(p.count, "piece"),
                                type_.get(), p.peer, tag(p), cfg_.comm, &recv_reqs_[i]));
    }
    std::size_t pending = nr;
    auto drain = [&](bool block) {
      if (pending == 0) return;
      int count = 0;
      if (block)
        XPOSE_CHECK_MPI(MPI_Waitsome(static_cast<int>(nr), recv_reqs_.data(), &count, done_.data(),
                                     MPI_STATUSES_IGNORE));
      else
        XPOSE_CHECK_MPI(MPI_Testsome(static_cast<int>(nr), recv_reqs_.data(), &count, done_.data(),
                                     MPI_STATUSES_IGNORE));
      if (count == MPI_UNDEFINED) return;
      for (int i = 0; i < count; ++i) unpack(L.receives[done_[i]], recv, out);
      pending -= static_cast<std::size_t>(count);
    };
    if (L.inplace && L.self.rows > 0) pack(L.self, in, send);
    const std::size_t first_step_end = g_.nranks > 1 ? L.send_steps[1].second : 0;
    for (std::size_t i = 0; i < ns; ++i) {
      const Piece& p = L.sends[i];
      pack(p, in, send);
      XPOSE_CHECK_MPI(MPI_Isend(send + p.offset * es(), mpi::to_int_count(p.count, "piece"),
                                type_.get(), p.peer, tag(p), cfg_.comm, &send_reqs_[i]));
      // In place, nothing may be written to the buffer until every piece is packed.
      if (!L.inplace) {
        drain(false);
        if (i + 1 == first_step_end) transpose_self(in, out);
      }
    }
    if (!L.inplace && first_step_end == 0) transpose_self(in, out);
    if (L.inplace && L.self.rows > 0) unpack(L.self, send, out);
    while (pending > 0) drain(true);
    if (ns > 0)
      XPOSE_CHECK_MPI(MPI_Waitall(static_cast<int>(ns), send_reqs_.data(), MPI_STATUSES_IGNORE));
  }

  // Pieces between one pair travel in order (MPI does not overtake on one tag); the index as tag
  // is a second guard. The planner keeps indices below 32767, MPI's smallest allowed tag bound.
  static int tag(const Piece& p) { return static_cast<int>(p.index % 32767); }

  EngineConfig cfg_;
  Geometry g_;
  PieceLayout out_of_place_, in_place_;
  mpi::OwnedDatatype type_;
  std::vector<MPI_Request> recv_reqs_, send_reqs_;
  std::vector<int> done_;
};

}  // namespace

std::unique_ptr<Engine> make_host_engine(const EngineConfig& config) {
  return std::make_unique<HostEngine>(config);
}

}  // namespace xpose::dtx
