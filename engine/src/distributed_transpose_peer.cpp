// DistributedTranspose on device memory within one node, through CUDA IPC ("push"): every rank
// maps the other ranks' output buffers into its own address space once (cached per buffer) and
// its transpose kernels write each block straight into the owner's output, over NVLink where
// there is one. Nothing is packed, staged or received; the host synchronises the ranks.
//
// One run:
//   1. wait for the caller's stream (inputs ready, this rank's output no longer in use);
//   2. export where this rank's output lands (a CUDA IPC handle of its allocation), all-gather
//      every rank's, open the ones not yet mapped. The all-gather is also the entry barrier: no
//      rank starts writing into a peer before that peer has done step 1;
//   3. one transpose per peer (or per piece, pipelined) on its own stream, writing remotely, and
//      the rank's own block on another stream, concurrently;
//   4. wait for those kernels, then MPI_Barrier: when it returns on rank q, every writer's
//      kernels into q's output have completed (each writer synchronised before entering it).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "engine/src/cuda_memory.h"
#include "engine/src/distributed_transpose_impl.h"
#include "kernels/cuda/check.h"
#include "kernels/transpose.h"
#include "mpi/comm.h"

namespace xpose::dtx {

namespace {

/// The two driver calls the runtime lacks (an allocation's base and its unique id), found
/// through the runtime so that nothing links libcuda directly (binaries still start on machines
/// without a driver). Null when the driver does not offer them.
struct DriverCalls {
  PFN_cuMemGetAddressRange_v3020 get_address_range = nullptr;
  PFN_cuPointerGetAttribute_v4000 get_attribute = nullptr;
};

const DriverCalls& driver_calls() {
  static DriverCalls calls;
  static std::once_flag once;
  std::call_once(once, [] {
    // The lookup call came with CUDA 11.3 (three arguments) and changed in 12.0 (a query
    // result) and 12.5 (a version to ask for; the unversioned call is deprecated there). Before
    // 11.3 there is none, and the push exchange is not offered.
    auto find = [](const char* symbol, void** fn) {
#if CUDART_VERSION >= 12000
      cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
      const cudaError_t e =
          cudaGetDriverEntryPointByVersion(symbol, fn, 12000, cudaEnableDefault, &found);
#else
      const cudaError_t e = cudaGetDriverEntryPoint(symbol, fn, cudaEnableDefault, &found);
#endif
      const bool ok = e == cudaSuccess && found == cudaDriverEntryPointSuccess;
#elif CUDART_VERSION >= 11030
      const bool ok = cudaGetDriverEntryPoint(symbol, fn, cudaEnableDefault) == cudaSuccess;
#else
      (void)symbol;
      const bool ok = false;
#endif
      if (!ok) {
        cudaGetLastError();
        *fn = nullptr;
      }
    };
    find("cuMemGetAddressRange", reinterpret_cast<void**>(&calls.get_address_range));
    find("cuPointerGetAttribute", reinterpret_cast<void**>(&calls.get_attribute));
  });
  return calls;
}

/// What one rank tells the others about where its output lands.
struct LandingRecord {
  cudaIpcMemHandle_t handle;  ///< of the whole allocation
  std::uint64_t offset;       ///< bytes from the allocation's base to the landing buffer
  /// The allocation's process-wide unique id: memory freed and allocated again at the same
  /// address gets a new one, so a stale mapping is never reused.
  std::uint64_t buffer_id;
  std::int32_t present;  ///< 0: this rank receives nothing
  std::int32_t unused;
};

/// Handles of this process's allocations already exported, by buffer id (never reused).
struct Exported {
  std::uint64_t buffer_id = 0;
  cudaIpcMemHandle_t handle{};
};
constexpr std::size_t kExportsKept = 16;

constexpr int kRecordBytes = static_cast<int>(sizeof(LandingRecord));

/// Exports the allocation holding `p` through CUDA IPC; false when it cannot be (memory from a
/// stream-ordered pool, managed memory, or a driver without the calls).
bool export_landing(const std::byte* p, LandingRecord& rec, std::vector<Exported>& exported) {
  const DriverCalls& d = driver_calls();
  if (d.get_address_range == nullptr || d.get_attribute == nullptr) return false;
  const auto ptr = reinterpret_cast<CUdeviceptr>(p);
  // Boolean attributes are written as a bool or an int: read into a zeroed wider value.
  unsigned long long capable = 0, id = 0;
  if (d.get_attribute(&capable, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, ptr) !=
          CUDA_SUCCESS ||
      capable == 0)
    return false;
  CUdeviceptr base = 0;
  std::size_t size = 0;
  if (d.get_address_range(&base, &size, ptr) != CUDA_SUCCESS ||
      d.get_attribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, ptr) != CUDA_SUCCESS)
    return false;
  const auto known = std::find_if(exported.begin(), exported.end(),
                                  [&](const Exported& e) { return e.buffer_id == id; });
  if (known != exported.end()) {
    rec.handle = known->handle;
  } else {
    XPOSE_CHECK_CUDA(cudaIpcGetMemHandle(&rec.handle, reinterpret_cast<void*>(base)));
    if (exported.size() >= kExportsKept) exported.erase(exported.begin());
    exported.push_back(Exported{id, rec.handle});
  }
  rec.offset = static_cast<std::uint64_t>(ptr - base);
  rec.buffer_id = id;
  rec.present = 1;
  return true;
}

using OwnedStream = UniqueHandle<cudaStream_t, cuda::StreamTraits>;
using OwnedEvent = UniqueHandle<cudaEvent_t, cuda::EventTraits>;

/// A peer's allocation, opened in this process.
struct Mapping {
  int peer = 0;
  std::uint64_t buffer_id = 0;
  cudaIpcMemHandle_t handle{};
  std::byte* base = nullptr;
  std::uint64_t last_used = 0;  ///< run counter
};

// Mappings kept per peer: enough for a few buffers used in turn (an FFT's ping-pong pair, a
// plan reused on several arrays); the least recently used beyond that are closed.
constexpr std::size_t kMappingsPerPeer = 8;

class PeerEngine final : public Engine {
 public:
  explicit PeerEngine(const EngineConfig& config) : cfg_(config), g_(config.geometry) {
    int least = 0, greatest = 0;
    XPOSE_CHECK_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    local_ = make_stream(least);
    // The remote writes are the long pole: their blocks go first, the local block fills in.
    for (int q = 0; q < g_.nranks; ++q)
      remote_.push_back(q == g_.me ? OwnedStream() : make_stream(greatest));
    done_ = make_event();
  }

  // Never throws: waits for any kernel still writing through a mapping, closes the mappings, and
  // (after a clean last run, so every rank is here) waits for the other ranks to close theirs,
  // so that each may free its buffers once the plan is gone.
  ~PeerEngine() override {
    if (cudaEventSynchronize(done_.get()) != cudaSuccess) cudaGetLastError();
    for (std::size_t q = 0; q < remote_.size(); ++q)
      if (remote_[q] && cudaStreamSynchronize(remote_[q].get()) != cudaSuccess) cudaGetLastError();
    bool closed = true;
    for (auto& m : mappings_)
      if (cudaIpcCloseMemHandle(m.base) != cudaSuccess) {
        cudaGetLastError();
        closed = false;
      }
    if (!closed) std::fprintf(stderr, "xpose: warning: cudaIpcCloseMemHandle failed\n");
    int finalized = 1;
    if (healthy_ && MPI_Finalized(&finalized) == MPI_SUCCESS && !finalized) MPI_Barrier(cfg_.comm);
  }

  void synchronize() override { XPOSE_CHECK_CUDA(cudaEventSynchronize(done_.get())); }

  void forget_buffers() override {
    synchronize();
    agree(cfg_.comm, [&] {
      while (!mappings_.empty()) {
        XPOSE_CHECK_CUDA(cudaIpcCloseMemHandle(mappings_.back().base));
        mappings_.pop_back();
      }
    });
    // No rank frees a buffer before every other rank has closed its mapping of it.
    XPOSE_CHECK_MPI(MPI_Barrier(cfg_.comm));
  }

  void run(const void* in, void* out, bool inplace, std::byte* /*workspace*/,
           CUstream_st* stream) override {
    healthy_ = false;
    const auto* src = static_cast<const std::byte*>(in);
    auto* dst = static_cast<std::byte*>(out);
    auto user = static_cast<cudaStream_t>(stream);
    const auto out_bytes = static_cast<std::size_t>(g_.output_elements()) * g_.elem;
    ++runs_;

    // The other ranks write into this rank's output as soon as they see its record: the
    // caller's work on it and this plan's previous run (its last copy) must be over.
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(user));
    XPOSE_CHECK_CUDA(cudaEventSynchronize(done_.get()));

    // In place, the buffer is still being read while the others write: they write into a
    // landing buffer instead, copied over at the end; likewise when `out` cannot be exported.
    LandingRecord mine{};
    std::byte* landing = nullptr;
    agree(cfg_.comm, [&] {
      if (out_bytes == 0) return;
      if (!inplace && export_landing(dst, mine, exported_)) {
        landing = dst;
        return;
      }
      if (landing_bytes_ < static_cast<std::int64_t>(out_bytes)) {
        landing_ = Allocation();
        landing_bytes_ = 0;
        landing_ = Allocation(MemorySpace::Device, static_cast<std::int64_t>(out_bytes));
        landing_bytes_ = static_cast<std::int64_t>(out_bytes);
      }
      landing = landing_.data();
      if (!export_landing(landing, mine, exported_))
        throw RuntimeFailure(cat("the peer transport cannot export its landing buffer of ",
                                 out_bytes, " bytes through CUDA IPC on rank ", g_.me));
    });

    std::vector<LandingRecord> all(static_cast<std::size_t>(g_.nranks));
    XPOSE_CHECK_MPI(MPI_Allgather(&mine, kRecordBytes, MPI_BYTE, all.data(), kRecordBytes, MPI_BYTE,
                                  cfg_.comm));

    std::vector<std::byte*> target(static_cast<std::size_t>(g_.nranks), nullptr);
    target[g_.me] = landing;
    agree(cfg_.comm, [&] {
      if (g_.n(g_.me) == 0) return;
      for (int q = 0; q < g_.nranks; ++q) {
        if (q == g_.me || g_.m(q) == 0) continue;
        if (!all[q].present)
          throw InternalError(cat("peer transport: rank ", q, " has ", g_.m(q),
                                  " output rows but sent no landing buffer"));
        target[q] = mapped(q, all[q]) + all[q].offset;
      }
    });

    // Remote writes first (the long pole), rank after rank from this one, so that the ranks do
    // not all start on the same peer; then the own block.
    for (int s = 1; s < g_.nranks; ++s) {
      const int q = (g_.me + s) % g_.nranks;
      if (target[q] != nullptr) transpose_to(q, src, target[q], remote_[q].get());
    }
    if (landing != nullptr) transpose_to(g_.me, src, landing, local_.get());

    // Every write this rank issued has completed before it enters the barrier, so when the
    // barrier returns every rank's output is complete.
    for (int q = 0; q < g_.nranks; ++q)
      if (q != g_.me) XPOSE_CHECK_CUDA(cudaStreamSynchronize(remote_[q].get()));
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(local_.get()));
    XPOSE_CHECK_MPI(MPI_Barrier(cfg_.comm));

    if (landing != nullptr && landing != dst)
      XPOSE_CHECK_CUDA(
          cudaMemcpyAsync(dst, landing, out_bytes, cudaMemcpyDeviceToDevice, local_.get()));
    XPOSE_CHECK_CUDA(cudaEventRecord(done_.get(), local_.get()));
    XPOSE_CHECK_CUDA(cudaStreamWaitEvent(user, done_.get(), 0));
    healthy_ = true;
  }

 private:
  std::int64_t es() const { return static_cast<std::int64_t>(g_.elem); }

  static OwnedStream make_stream(int priority) {
    cudaStream_t s = nullptr;
    XPOSE_CHECK_CUDA(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, priority));
    return OwnedStream(s);
  }
  static OwnedEvent make_event() {
    cudaEvent_t e = nullptr;
    XPOSE_CHECK_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    return OwnedEvent(e);
  }

  // This rank's input columns [c(q), c(q) + m(q)) become rows of q's output, at columns
  // [r(me), r(me) + n(me)); pipelined, in pieces of piece_rows output rows.
  void transpose_to(int q, const std::byte* in, std::byte* out, cudaStream_t stream) const {
    const std::int64_t n = g_.n(g_.me), m = g_.m(q);
    if (n == 0 || m == 0) return;
    const std::int64_t step =
        cfg_.schedule == Schedule::Pipelined ? std::max<std::int64_t>(1, cfg_.piece_rows) : m;
    for (std::int64_t first = 0; first < m; first += step) {
      kernels::TransposeShape ts;
      ts.rows = n;
      ts.cols = std::min(step, m - first);
      ts.batch = g_.batch;
      ts.in_pitch = g_.cols;
      ts.out_pitch = g_.rows;
      ts.in_batch_stride = n * g_.cols;
      ts.out_batch_stride = m * g_.rows;
      kernels::transpose_cuda(in + (g_.c(q) + first) * es(),
                              out + (first * g_.rows + g_.r(g_.me)) * es(), g_.elem, ts, stream);
    }
  }

  // Rank q's allocation described by `rec`, opened once and kept.
  std::byte* mapped(int q, const LandingRecord& rec) {
    for (auto& m : mappings_)
      if (m.peer == q && m.buffer_id == rec.buffer_id &&
          std::memcmp(&m.handle, &rec.handle, sizeof rec.handle) == 0) {
        m.last_used = runs_;
        return m.base;
      }
    // Every earlier run is complete (each run ends synchronised), so any older mapping may go.
    std::size_t held = 0;
    auto oldest = mappings_.end();
    for (auto it = mappings_.begin(); it != mappings_.end(); ++it)
      if (it->peer == q) {
        ++held;
        if (oldest == mappings_.end() || it->last_used < oldest->last_used) oldest = it;
      }
    if (held >= kMappingsPerPeer) {
      XPOSE_CHECK_CUDA(cudaIpcCloseMemHandle(oldest->base));
      mappings_.erase(oldest);
    }
    void* base = nullptr;
    XPOSE_CHECK_CUDA(cudaIpcOpenMemHandle(&base, rec.handle, cudaIpcMemLazyEnablePeerAccess));
    Mapping m;
    m.peer = q;
    m.buffer_id = rec.buffer_id;
    m.handle = rec.handle;
    m.base = static_cast<std::byte*>(base);
    m.last_used = runs_;
    mappings_.push_back(m);
    return m.base;
  }

  EngineConfig cfg_;
  Geometry g_;
  OwnedStream local_;
  std::vector<OwnedStream> remote_;  ///< one per peer (none for this rank)
  OwnedEvent done_;
  std::vector<Mapping> mappings_;
  std::vector<Exported> exported_;
  Allocation landing_;  ///< in place, or for outputs CUDA IPC cannot export
  std::int64_t landing_bytes_ = 0;
  std::uint64_t runs_ = 0;
  bool healthy_ = true;  ///< false while a run is under way, and after one that threw
};

/// Why this rank cannot use the peer transport ("" if it can): each peer's GPU must be one this
/// process sees, other than its own, with peer access.
std::string local_peer_reason(MPI_Comm comm, const std::vector<std::string>& uuids) {
  const int me = mpi::rank(comm), n = mpi::size(comm);
  int count = 0, dev = 0;
  XPOSE_CHECK_CUDA(cudaGetDeviceCount(&count));
  XPOSE_CHECK_CUDA(cudaGetDevice(&dev));
  std::vector<std::string> visible(static_cast<std::size_t>(count));
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    XPOSE_CHECK_CUDA(cudaGetDeviceProperties(&prop, d));
    visible[d].assign(prop.uuid.bytes, sizeof prop.uuid.bytes);
  }
  for (int q = 0; q < n; ++q) {
    if (q == me) continue;
    if (uuids[q] == uuids[me])
      return cat("ranks ", std::min(me, q), " and ", std::max(me, q),
                 " use the same GPU, and the peer transport needs one GPU per rank");
    const auto it = std::find(visible.begin(), visible.end(), uuids[q]);
    if (it == visible.end())
      return cat("rank ", me, " does not see the GPU of rank ", q,
                 " (each rank must see every rank's GPU, e.g. no per-rank CUDA_VISIBLE_DEVICES)");
    int can = 0;
    XPOSE_CHECK_CUDA(cudaDeviceCanAccessPeer(&can, dev, static_cast<int>(it - visible.begin())));
    if (!can)
      return cat("the GPUs of ranks ", me, " and ", q,
                 " cannot access each other's memory (cudaDeviceCanAccessPeer)");
  }
  return {};
}

}  // namespace

std::unique_ptr<Engine> make_peer_engine(const EngineConfig& config) {
  return std::make_unique<PeerEngine>(config);
}

namespace device {

std::string peer_unavailable_reason(MPI_Comm comm, const std::vector<std::string>& uuids) {
  const int me = mpi::rank(comm), n = mpi::size(comm);
  std::string reason;
  if (mpi::local_rank(comm).size != n) {
    reason = "the ranks span more than one node, and CUDA IPC works within a node";
  } else {
    try {
      reason = local_peer_reason(comm, uuids);
    } catch (const Error& e) {
      reason = cat("rank ", me, " could not check peer access: ", e.what());
    }
  }
  // Every rank reports the reason of the lowest rank that has one.
  int first = reason.empty() ? n : me;
  XPOSE_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == n) return {};
  int length = me == first ? static_cast<int>(reason.size()) : 0;
  XPOSE_CHECK_MPI(MPI_Bcast(&length, 1, MPI_INT, first, comm));
  reason.resize(static_cast<std::size_t>(length));
  XPOSE_CHECK_MPI(MPI_Bcast(reason.data(), length, MPI_CHAR, first, comm));
  return reason;
}

}  // namespace device

}  // namespace xpose::dtx
