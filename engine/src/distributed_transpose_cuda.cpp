// DistributedTranspose on device memory: the CUDA kernels pack and unpack on the plan's own
// streams, ordered against the caller's stream with events, and the pieces travel by NCCL
// (device buffers), by a CUDA-aware MPI (device buffers) or by MPI through pinned host buffers.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "engine/src/cuda_memory.h"
#include "engine/src/distributed_transpose_impl.h"
#include "kernels/cuda/check.h"
#include "kernels/transpose.h"
#include "mpi/comm.h"

namespace xpose::dtx {

// ---- device helpers ------------------------------------------------------------------------

namespace device {

bool compiled() {
  return true;
}

std::byte* allocate(std::int64_t bytes) {
  if (bytes <= 0) return nullptr;
  void* p = nullptr;
  const cudaError_t err = cudaMalloc(&p, static_cast<std::size_t>(bytes));
  if (err != cudaSuccess) {
    cudaGetLastError();  // a failed allocation must not fail the next, unrelated call
    throw ResourceError(cat("cannot allocate ", format_size(static_cast<double>(bytes)),
                            " of GPU memory (", cudaGetErrorString(err), ")"));
  }
  return static_cast<std::byte*>(p);
}

void free(std::byte* p) noexcept {
  if (p != nullptr && cudaFree(p) != cudaSuccess)
    std::fprintf(stderr, "xpose: warning: cudaFree failed\n");
}

void fill(std::byte* p, int value, std::int64_t bytes) {
  if (bytes <= 0) return;
  XPOSE_CHECK_CUDA(cudaMemset(p, value, static_cast<std::size_t>(bytes)));
  XPOSE_CHECK_CUDA(cudaDeviceSynchronize());
}

bool is_device_pointer(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  if (attr.type == cudaMemoryTypeManaged) return true;
  if (attr.type != cudaMemoryTypeDevice) return false;
  int current = 0;
  XPOSE_CHECK_CUDA(cudaGetDevice(&current));
  return attr.device == current;
}

std::string current_device_uuid() {
  int dev = 0;
  XPOSE_CHECK_CUDA(cudaGetDevice(&dev));
  cudaDeviceProp prop{};
  XPOSE_CHECK_CUDA(cudaGetDeviceProperties(&prop, dev));
  return std::string(prop.uuid.bytes, sizeof prop.uuid.bytes);
}

}  // namespace device

// ---- the device engine ---------------------------------------------------------------------

namespace {

using OwnedStream = UniqueHandle<cudaStream_t, cuda::StreamTraits>;
using OwnedEvent = UniqueHandle<cudaEvent_t, cuda::EventTraits>;
using OwnedPinned = UniqueHandle<void*, cuda::PinnedTraits>;

OwnedStream make_stream(int priority) {
  cudaStream_t s = nullptr;
  XPOSE_CHECK_CUDA(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, priority));
  return OwnedStream(s);
}

OwnedEvent make_event() {
  cudaEvent_t e = nullptr;
  XPOSE_CHECK_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  return OwnedEvent(e);
}

/// Events indexed by piece, created on first use and reused by later runs (a wait already
/// enqueued keeps the record it saw, so re-recording is safe).
class EventPool {
 public:
  cudaEvent_t at(std::size_t i) {
    while (events_.size() <= i) events_.push_back(make_event());
    return events_[i].get();
  }

 private:
  std::vector<OwnedEvent> events_;
};

void wait(cudaStream_t stream, cudaEvent_t event) {
  XPOSE_CHECK_CUDA(cudaStreamWaitEvent(stream, event, 0));
}

void record(cudaEvent_t event, cudaStream_t stream) {
  XPOSE_CHECK_CUDA(cudaEventRecord(event, stream));
}

/// Non-blocking completion test.
bool event_done(cudaEvent_t event) {
  const cudaError_t err = cudaEventQuery(event);
  if (err == cudaSuccess) return true;
  if (err == cudaErrorNotReady) {
    cudaGetLastError();  // "not ready" is an answer, not an error: keep it out of later checks
    return false;
  }
  ::xpose::cuda_detail::throw_cuda_error(err, "cudaEventQuery(piece)", __FILE__, __LINE__);
}

class PinnedRegion {
 public:
  std::byte* get(std::int64_t bytes) {
    if (bytes > bytes_) {
      ptr_.reset();
      bytes_ = 0;
      void* p = nullptr;
      if (cudaHostAlloc(&p, static_cast<std::size_t>(bytes), cudaHostAllocDefault) != cudaSuccess) {
        cudaGetLastError();
        throw ResourceError(cat("cannot allocate ", format_size(static_cast<double>(bytes)),
                                " of pinned host memory for the staged MPI transport"));
      }
      ptr_.reset(p);
      bytes_ = bytes;
    }
    return static_cast<std::byte*>(ptr_.get());
  }

 private:
  OwnedPinned ptr_;
  std::int64_t bytes_ = 0;
};

class DeviceEngine final : public Engine {
 public:
  explicit DeviceEngine(const EngineConfig& config)
      : cfg_(config),
        g_(config.geometry),
        out_of_place_(PieceLayout::make(g_, config.piece_rows, false)),
        in_place_(PieceLayout::make(g_, config.piece_rows, true)) {
    int least = 0, greatest = 0;
    XPOSE_CHECK_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    pack_ = make_stream(least);
    unpack_ = make_stream(least);
    // Transfers get the highest priority: NCCL's kernels then take SMs ahead of queued packs and
    // unpacks, which have slack, instead of waiting behind them.
    comm_ = make_stream(greatest);
    d2h_ = make_stream(least);
    h2d_ = make_stream(least);
    start_ = make_event();
    all_packed_ = make_event();
    done_ = make_event();
    for (auto& e : ends_) e = make_event();
    const bool mpi = cfg_.transport == Transport::Mpi || cfg_.transport == Transport::MpiDevice;
    if (g_.nranks > 1 && mpi) type_ = mpi::element_datatype(g_.elem);
    // Pinning gigabytes takes long: done here, not in the first (timed) run. In place, which
    // also stages this rank's own block, grows them on first use.
    if (g_.nranks > 1 && cfg_.transport == Transport::Mpi) {
      send_pinned_.get(out_of_place_.send_elements * es());
      recv_pinned_.get(out_of_place_.receive_elements * es());
    }
  }

  void synchronize() override { XPOSE_CHECK_CUDA(cudaEventSynchronize(done_.get())); }

  void run(const void* in, void* out, bool inplace, std::byte* workspace,
           CUstream_st* stream) override {
    const auto* src = static_cast<const std::byte*>(in);
    auto* dst = static_cast<std::byte*>(out);
    auto user = static_cast<cudaStream_t>(stream);
    // Everything starts after the caller's queued work and after this plan's previous run (which
    // may have run on another caller stream).
    record(start_.get(), user);
    for (cudaStream_t s : streams()) {
      wait(s, start_.get());
      wait(s, done_.get());
    }
    if (inplace && g_.nranks == 1 && g_.rows == g_.cols) {
      kernels::transpose_inplace_cuda(dst, g_.elem, g_.rows, g_.batch, pack_.get());
    } else {
      const PieceLayout& L = inplace ? in_place_ : out_of_place_;
      std::byte* send = workspace;
      std::byte* recv = workspace ? workspace + L.receive_region_offset(g_.elem) : nullptr;
      if (g_.nranks == 1) {
        enqueue_packs(L, src, send, dst);
        if (L.inplace && L.self.rows > 0) unpack_device(L.self, send, dst, pack_.get());
      } else if (cfg_.transport == Transport::Nccl) {
        run_nccl(L, src, dst, send, recv);
      } else {
        run_mpi(L, src, dst, send, recv);
      }
    }
    finish(user);
  }

 private:
  std::int64_t es() const { return static_cast<std::int64_t>(g_.elem); }
  std::vector<cudaStream_t> streams() const {
    return {pack_.get(), unpack_.get(), comm_.get(), d2h_.get(), h2d_.get()};
  }

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
    kernels::transpose_cuda(in + (g_.c(p.peer) + p.first) * es(), send + p.offset * es(), g_.elem,
                            ts, pack_.get());
  }

  // A piece from rank p.peer lands in output rows [first, + rows), columns [r(p), + n(p)): rows
  // of n(p) elements, long for any real problem, so a pitched copy runs near copy bandwidth.
  void unpack(const Piece& p, const std::byte* region, std::byte* out, cudaMemcpyKind kind,
              cudaStream_t stream) const {
    const std::int64_t n = g_.n(p.peer), m = g_.m(g_.me);
    const auto row_bytes = static_cast<std::size_t>(n * es());
    for (std::int64_t b = 0; b < g_.batch; ++b)
      XPOSE_CHECK_CUDA(cudaMemcpy2DAsync(
          out + ((b * m + p.first) * g_.rows + g_.r(p.peer)) * es(),
          static_cast<std::size_t>(g_.rows * es()), region + (p.offset + b * p.rows * n) * es(),
          row_bytes, row_bytes, static_cast<std::size_t>(p.rows), kind, stream));
  }
  void unpack_device(const Piece& p, const std::byte* region, std::byte* out,
                     cudaStream_t stream) const {
    unpack(p, region, out, cudaMemcpyDeviceToDevice, stream);
  }

  // Out of place, this rank's own block goes straight from input to output.
  void transpose_self(const std::byte* in, std::byte* out, cudaStream_t stream) const {
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
    kernels::transpose_cuda(in + g_.c(g_.me) * es(), out + g_.r(g_.me) * es(), g_.elem, ts, stream);
  }

  // On pack_: every send piece (event packed_[i] after each), this rank's own block in place,
  // the event all_packed_, then (out of place) the own block straight to the output, which so
  // overlaps the first transfers.
  void enqueue_packs(const PieceLayout& L, const std::byte* in, std::byte* send, std::byte* out) {
    for (std::size_t i = 0; i < L.sends.size(); ++i) {
      pack(L.sends[i], in, send);
      record(packed_.at(i), pack_.get());
    }
    if (L.inplace && L.self.rows > 0) pack(L.self, in, send);
    record(all_packed_.get(), pack_.get());
    if (!L.inplace) transpose_self(in, out, pack_.get());
  }

  void run_nccl(const PieceLayout& L, const std::byte* in, std::byte* out, std::byte* send,
                std::byte* recv) {
    enqueue_packs(L, in, send, out);
    // In place, nothing may land in the buffer before every piece has left it.
    if (L.inplace) wait(unpack_.get(), all_packed_.get());
    if (cfg_.schedule == Schedule::Bulk) {
      wait(comm_.get(), all_packed_.get());
      cfg_.exchange->alltoallv(send, recv, L.bulk_exchange(g_.nranks), comm_.get());
      record(received_.at(0), comm_.get());
      wait(unpack_.get(), received_.at(0));
      for (const auto& p : L.receives) unpack_device(p, recv, out, unpack_.get());
    } else {
      // Step s sends to me+s and receives from me-s; the k-th pieces both ways share one NCCL
      // group, so every rank walks the same (step, index) order and no pair can deadlock.
      for (int s = 1; s < g_.nranks; ++s) {
        const auto [sb, se] = L.send_steps[s];
        const auto [rb, re] = L.receive_steps[s];
        const std::size_t pieces = std::max(se - sb, re - rb);
        for (std::size_t k = 0; k < pieces; ++k) {
          const Piece* sp = sb + k < se ? &L.sends[sb + k] : nullptr;
          const Piece* rp = rb + k < re ? &L.receives[rb + k] : nullptr;
          if (sp) wait(comm_.get(), packed_.at(sb + k));
          cfg_.exchange->alltoallv(send, recv, L.step_exchange(g_.nranks, sp, rp), comm_.get());
          if (rp) {
            record(received_.at(rb + k), comm_.get());
            wait(unpack_.get(), received_.at(rb + k));
            unpack_device(*rp, recv, out, unpack_.get());
          }
        }
      }
    }
    if (L.inplace && L.self.rows > 0) unpack_device(L.self, send, out, unpack_.get());
  }

  // MPI moves the pieces from the host thread: device buffers with a CUDA-aware MPI, else pinned
  // host copies (pack, D2H per piece; on arrival a pitched H2D copy straight into the output).
  void run_mpi(const PieceLayout& L, const std::byte* in, std::byte* out, std::byte* send,
               std::byte* recv) {
    const bool staged = cfg_.transport == Transport::Mpi;
    // The previous run's copies out of the pinned receive buffer must finish before new pieces
    // land in it.
    XPOSE_CHECK_CUDA(cudaEventSynchronize(done_.get()));
    std::byte* send_h = staged ? send_pinned_.get(L.send_elements * es()) : nullptr;
    std::byte* recv_h = staged ? recv_pinned_.get(L.receive_elements * es()) : nullptr;
    std::byte* send_at = staged ? send_h : send;
    std::byte* recv_at = staged ? recv_h : recv;
    cudaStream_t land = staged ? h2d_.get() : unpack_.get();
    const cudaMemcpyKind land_kind = staged ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice;

    if (cfg_.schedule == Schedule::Bulk) {
      enqueue_packs(L, in, send, out);
      if (staged) {
        wait(d2h_.get(), all_packed_.get());
        for (const auto& p : L.sends) stage_out(p, send, send_h);
        XPOSE_CHECK_CUDA(cudaStreamSynchronize(d2h_.get()));
      } else {
        XPOSE_CHECK_CUDA(cudaEventSynchronize(all_packed_.get()));
      }
      cfg_.exchange->alltoallv(send_at, recv_at, L.bulk_exchange(g_.nranks), nullptr);
      if (L.inplace) wait(land, all_packed_.get());
      for (const auto& p : L.receives) unpack(p, recv_at, out, land_kind, land);
    } else {
      const std::size_t nr = L.receives.size(), ns = L.sends.size();
      recv_reqs_.assign(nr, MPI_REQUEST_NULL);
      send_reqs_.assign(ns, MPI_REQUEST_NULL);
      done_idx_.resize(std::max<std::size_t>(nr, 1));
      for (std::size_t i = 0; i < nr; ++i) {
        const Piece& p = L.receives[i];
        XPOSE_CHECK_MPI(MPI_Irecv(recv_at + p.offset * es(), mpi::to_int_count(p.count, "piece"),
                                  type_.get(), p.peer, tag(p), cfg_.comm, &recv_reqs_[i]));
      }
      enqueue_packs(L, in, send, out);
      if (staged)
        for (std::size_t i = 0; i < ns; ++i) {
          wait(d2h_.get(), packed_.at(i));
          stage_out(L.sends[i], send, send_h);
          record(staged_.at(i), d2h_.get());
        }
      if (L.inplace) wait(land, all_packed_.get());
      std::size_t next = 0, pending = nr;
      while (next < ns || pending > 0) {
        bool progressed = false;
        while (next < ns && event_done(staged ? staged_.at(next) : packed_.at(next))) {
          const Piece& p = L.sends[next];
          XPOSE_CHECK_MPI(MPI_Isend(send_at + p.offset * es(), mpi::to_int_count(p.count, "piece"),
                                    type_.get(), p.peer, tag(p), cfg_.comm, &send_reqs_[next]));
          ++next;
          progressed = true;
        }
        if (pending > 0) {
          int count = 0;
          XPOSE_CHECK_MPI(MPI_Testsome(static_cast<int>(nr), recv_reqs_.data(), &count,
                                       done_idx_.data(), MPI_STATUSES_IGNORE));
          if (count != MPI_UNDEFINED && count > 0) {
            for (int i = 0; i < count; ++i)
              unpack(L.receives[done_idx_[i]], recv_at, out, land_kind, land);
            pending -= static_cast<std::size_t>(count);
            progressed = true;
          }
        }
        if (!progressed) std::this_thread::yield();
      }
      if (ns > 0)
        XPOSE_CHECK_MPI(MPI_Waitall(static_cast<int>(ns), send_reqs_.data(), MPI_STATUSES_IGNORE));
    }
    if (L.inplace && L.self.rows > 0) {
      wait(unpack_.get(), all_packed_.get());
      unpack_device(L.self, send, out, unpack_.get());
    }
  }

  void stage_out(const Piece& p, const std::byte* send, std::byte* send_h) {
    XPOSE_CHECK_CUDA(cudaMemcpyAsync(send_h + p.offset * es(), send + p.offset * es(),
                                     static_cast<std::size_t>(p.count * es()),
                                     cudaMemcpyDeviceToHost, d2h_.get()));
  }

  // Every stream of this run joins pack_, whose event done_ the caller's stream waits for.
  void finish(cudaStream_t user) {
    const auto all = streams();
    for (std::size_t i = 1; i < all.size(); ++i) {
      record(ends_[i].get(), all[i]);
      wait(pack_.get(), ends_[i].get());
    }
    record(done_.get(), pack_.get());
    wait(user, done_.get());
  }

  static int tag(const Piece& p) { return static_cast<int>(p.index % 32767); }

  EngineConfig cfg_;
  Geometry g_;
  PieceLayout out_of_place_, in_place_;
  OwnedStream pack_, unpack_, comm_, d2h_, h2d_;
  OwnedEvent start_, all_packed_, done_, ends_[5];
  EventPool packed_, staged_, received_;
  PinnedRegion send_pinned_, recv_pinned_;
  mpi::OwnedDatatype type_;
  std::vector<MPI_Request> recv_reqs_, send_reqs_;
  std::vector<int> done_idx_;
};

}  // namespace

std::unique_ptr<Engine> make_device_engine(const EngineConfig& config) {
  return std::make_unique<DeviceEngine>(config);
}

}  // namespace xpose::dtx
