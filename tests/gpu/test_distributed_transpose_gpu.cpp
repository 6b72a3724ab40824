// DistributedTranspose on device memory, at whatever rank count the binary runs (ctest: 1;
// bench/run_inmem_gpu.sh: 2 ranks on 2 GPUs): every transport this machine offers (staged MPI,
// NCCL where each rank has its own GPU, MPI on device buffers where the MPI is CUDA-aware), both
// schedules, in place and out of place, uneven shapes, every element size, batches, ordering on
// the caller's stream, plan reuse, a measured plan with a wisdom file, and refused arguments.
// The peer transport (CUDA IPC, where every rank has its own GPU on one node) also gets its own
// tests: the CPU reference transpose, repeated executes on the same and on other buffers (its
// cache of mappings), outputs CUDA IPC cannot export, two plans at once.
// Outputs are poisoned first and every element is checked on the host. Every test skips, on all
// ranks together, unless every rank sees a GPU.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/src/stage_backend.h"
#include "kernels/cuda/check.h"
#include "kernels/transpose.h"
#include "xpose/distributed_transpose.h"
#include "xpose/error.h"
#include "tests/distributed_reference.h"

namespace xpose {
namespace {

using namespace test;

bool gpu_on_every_rank() {
  int mine = cuda_device_available() ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

// Device memory owned by a test.
class DeviceBytes {
 public:
  explicit DeviceBytes(std::size_t bytes) : bytes_(bytes) {
    if (bytes > 0) XPOSE_CHECK_CUDA(cudaMalloc(&p_, bytes));
  }
  ~DeviceBytes() {
    if (p_) cudaFree(p_);
  }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
  std::byte* get() const { return static_cast<std::byte*>(p_); }
  std::size_t size() const { return bytes_; }

 private:
  void* p_ = nullptr;
  std::size_t bytes_;
};

// One execute on device buffers, checked on the host. Returns wrong elements on this rank.
std::int64_t run_once(DistributedTranspose& plan, bool inplace, std::uint64_t seed,
                      cudaStream_t stream) {
  const auto in = make_input(plan, 0, seed);
  std::vector<std::byte> out(plan.local_output_bytes());
  if (inplace) {
    DeviceBytes buf(plan.local_inplace_bytes());
    // Everything on `stream`: a copy or memset on the legacy stream would not be ordered
    // before work on a non-blocking stream.
    if (buf.size() > 0) XPOSE_CHECK_CUDA(cudaMemsetAsync(buf.get(), 0xCD, buf.size(), stream));
    if (!in.empty())
      XPOSE_CHECK_CUDA(
          cudaMemcpyAsync(buf.get(), in.data(), in.size(), cudaMemcpyHostToDevice, stream));
    plan.execute_inplace(buf.get(), stream);
    if (!out.empty())
      XPOSE_CHECK_CUDA(
          cudaMemcpyAsync(out.data(), buf.get(), out.size(), cudaMemcpyDeviceToHost, stream));
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream));
    plan.forget_buffers();  // the buffer is freed while the plan lives
  } else {
    DeviceBytes d_in(in.size()), d_out(out.size());
    if (!in.empty())
      XPOSE_CHECK_CUDA(
          cudaMemcpyAsync(d_in.get(), in.data(), in.size(), cudaMemcpyHostToDevice, stream));
    if (!out.empty()) XPOSE_CHECK_CUDA(cudaMemsetAsync(d_out.get(), 0xCD, out.size(), stream));
    plan.execute(d_in.get(), d_out.get(), stream);
    if (!out.empty())
      XPOSE_CHECK_CUDA(
          cudaMemcpyAsync(out.data(), d_out.get(), out.size(), cudaMemcpyDeviceToHost, stream));
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream));
    plan.forget_buffers();  // the buffers are freed while the plan lives
    // The input is left unchanged.
    std::vector<std::byte> back(in.size());
    if (!in.empty())
      XPOSE_CHECK_CUDA(cudaMemcpy(back.data(), d_in.get(), in.size(), cudaMemcpyDeviceToHost));
    if (back != in) return 1 + count_wrong(plan, out.data(), seed);
  }
  return count_wrong(plan, out.data(), seed);
}

class OwnedStream {
 public:
  OwnedStream() { XPOSE_CHECK_CUDA(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~OwnedStream() { cudaStreamDestroy(s_); }
  OwnedStream(const OwnedStream&) = delete;
  OwnedStream& operator=(const OwnedStream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class DistributedTransposeGpu : public testing::Test {
 protected:
  void SetUp() override {
    if (!gpu_on_every_rank()) GTEST_SKIP() << "no GPU visible on every rank";
    select_cuda_device(MPI_COMM_WORLD, /*quiet=*/true);
  }
};

DistributedTranspose::Options device_options(Transport t, Schedule s, std::int64_t chunk) {
  DistributedTranspose::Options opt;
  opt.memory = MemorySpace::Device;
  opt.planning = Planning::Estimate;
  opt.transport = t;
  opt.schedule = s;
  opt.chunk_bytes = chunk;
  return opt;
}

struct Case {
  std::int64_t rows, cols;
  std::size_t elem;
  std::int64_t batch;
};
// Uneven splits, empty ranks (1 x 7, 7 x 1, 1 x 1 at 2+ ranks), every element size, batches,
// a square (in place on one rank: the triangular kernel), and one matrix with long rows.
const Case kCases[] = {{5, 3, 8, 1},    {13, 17, 1, 3}, {13, 17, 2, 1},    {13, 17, 4, 2},
                       {64, 48, 16, 1}, {64, 64, 8, 2}, {300, 257, 8, 2},  {1, 7, 4, 1},
                       {7, 1, 16, 1},   {1, 1, 8, 1},   {1030, 2050, 4, 1}};

TEST_F(DistributedTransposeGpu, EveryTransportScheduleAndPlacement) {
  const auto transports =
      DistributedTranspose::available_transports(MPI_COMM_WORLD, MemorySpace::Device);
  if (world_rank() == 0) {
    std::string names;
    for (auto t : transports) names += std::string(" ") + transport_name(t);
    std::printf("transports on %d rank(s):%s\n", world_size(), names.c_str());
  }
  struct Variant {
    Schedule schedule;
    std::int64_t chunk;
    const char* name;
  };
  const Variant variants[] = {{Schedule::Bulk, 0, "bulk"},
                              {Schedule::Pipelined, 1, "pipelined one-row pieces"},
                              {Schedule::Pipelined, 4096, "pipelined 4 KiB pieces"}};
  OwnedStream stream;
  // One plan serves both placements and two runs (a plan with NCCL costs a communicator).
  for (auto t : transports)
    for (const auto& v : variants)
      for (const auto& c : kCases) {
        auto opt = device_options(t, v.schedule, v.chunk);
        opt.batch = c.batch;
        DistributedTranspose plan(MPI_COMM_WORLD, c.rows, c.cols, ElementType::bytes(c.elem), opt);
        if (world_size() > 1) {
          EXPECT_EQ(plan.transport(), t);
          EXPECT_EQ(plan.schedule(), v.schedule);
        }
        for (bool inplace : {false, true})
          for (std::uint64_t seed : {1u, 2u}) {
            std::ostringstream what;
            what << transport_name(t) << " " << v.name << " " << c.rows << "x" << c.cols << " elem "
                 << c.elem << " batch " << c.batch << (inplace ? " in place" : "") << " seed "
                 << seed << " on " << world_size() << " ranks";
            EXPECT_EQ(sum_over_ranks(run_once(plan, inplace, seed, stream.get())), 0) << what.str();
          }
      }
}

// The input is copied in, transposed and copied out on one stream with no synchronisation in
// between, three times over with fresh data and alternating streams: the plan's own streams must
// follow the caller's, and a run must not touch its workspace before the previous one is done.
TEST_F(DistributedTransposeGpu, OrderedOnTheCallersStream) {
  for (auto t : DistributedTranspose::available_transports(MPI_COMM_WORLD, MemorySpace::Device))
    for (auto schedule : {Schedule::Bulk, Schedule::Pipelined}) {
      auto opt = device_options(t, schedule, 1 << 20);
      DistributedTranspose plan(MPI_COMM_WORLD, 2048, 1536, ElementType::complex64(), opt);
      OwnedStream a, b;
      void* h_in = nullptr;
      void* h_out = nullptr;
      XPOSE_CHECK_CUDA(cudaMallocHost(&h_in, std::max<std::size_t>(plan.local_input_bytes(), 1)));
      XPOSE_CHECK_CUDA(cudaMallocHost(&h_out, std::max<std::size_t>(plan.local_output_bytes(), 1)));
      DeviceBytes d_in(plan.local_input_bytes()), d_out(plan.local_output_bytes());
      std::int64_t wrong = 0;
      for (std::uint64_t seed : {11u, 12u, 13u}) {
        cudaStream_t s = seed % 2 ? a.get() : b.get();
        const auto in = make_input(plan, 0, seed);
        if (!in.empty()) std::memcpy(h_in, in.data(), in.size());
        if (d_in.size() > 0)
          XPOSE_CHECK_CUDA(
              cudaMemcpyAsync(d_in.get(), h_in, d_in.size(), cudaMemcpyHostToDevice, s));
        if (d_out.size() > 0) XPOSE_CHECK_CUDA(cudaMemsetAsync(d_out.get(), 0xCD, d_out.size(), s));
        plan.execute(d_in.get(), d_out.get(), s);
        if (d_out.size() > 0)
          XPOSE_CHECK_CUDA(
              cudaMemcpyAsync(h_out, d_out.get(), d_out.size(), cudaMemcpyDeviceToHost, s));
        XPOSE_CHECK_CUDA(cudaStreamSynchronize(s));
        wrong += count_wrong(plan, static_cast<const std::byte*>(h_out), seed);
      }
      plan.forget_buffers();
      cudaFreeHost(h_in);
      cudaFreeHost(h_out);
      EXPECT_EQ(sum_over_ranks(wrong), 0) << transport_name(t) << " " << schedule_name(schedule);
    }
}

TEST_F(DistributedTransposeGpu, MeasuredPlanAndWisdom) {
  long pid = static_cast<long>(::getpid());
  MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  const std::string path = cat("/tmp/xpose-gpu-wisdom-", pid);
  if (world_rank() == 0) std::remove(path.c_str());
  MPI_Barrier(MPI_COMM_WORLD);
  DistributedTranspose::Options opt;
  opt.memory = MemorySpace::Device;
  opt.wisdom_file = path;
  DistributedTranspose measured(MPI_COMM_WORLD, 1024, 768, ElementType::complex64(), opt);
  if (world_rank() == 0) std::printf("%s", measured.report().c_str());
  OwnedStream stream;
  EXPECT_EQ(sum_over_ranks(run_once(measured, false, 5, stream.get())), 0);
  if (world_size() > 1) {
    DistributedTranspose again(MPI_COMM_WORLD, 1024, 768, ElementType::complex64(), opt);
    EXPECT_NE(again.report().find("wisdom"), std::string::npos) << again.report();
    EXPECT_EQ(again.transport(), measured.transport());
    EXPECT_EQ(again.schedule(), measured.schedule());
    EXPECT_EQ(again.chunk_bytes(), measured.chunk_bytes());
    EXPECT_EQ(sum_over_ranks(run_once(again, true, 6, stream.get())), 0);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::remove(path.c_str());
}

TEST_F(DistributedTransposeGpu, RefusesHostPointersAndUnusableTransports) {
  auto opt = device_options(Transport::Auto, Schedule::Auto, 0);
  DistributedTranspose plan(MPI_COMM_WORLD, 8 * world_size(), 4 * world_size(),
                            ElementType::float32(), opt);
  std::vector<std::byte> host_in(plan.local_input_bytes()), host_out(plan.local_output_bytes());
  EXPECT_THROW(plan.execute(host_in.data(), host_out.data()), UsageError);
  const auto usable =
      DistributedTranspose::available_transports(MPI_COMM_WORLD, MemorySpace::Device);
  if (world_size() > 1)
    for (auto t : {Transport::Peer, Transport::Nccl, Transport::MpiDevice})
      if (std::find(usable.begin(), usable.end(), t) == usable.end()) {
        auto forced = device_options(t, Schedule::Auto, 0);
        try {
          DistributedTranspose refused(MPI_COMM_WORLD, 16, 16, ElementType::float32(), forced);
          ADD_FAILURE() << transport_name(t) << " was accepted but is not available";
        } catch (const Error& e) {
          EXPECT_EQ(e.code(), ExitCode::Usage) << e.what();
          if (world_rank() == 0) std::printf("refused as expected: %s\n", e.what());
        }
      }
}

// ---- the peer transport ----------------------------------------------------------------------

// Whether every rank can use the peer transport; otherwise `why` says why (the same on every
// rank: the reason the plan gives when it is forced).
bool peer_available(std::string& why) {
  if (world_size() < 2) {
    why = "one rank: nothing to exchange";
    return false;
  }
  const auto usable =
      DistributedTranspose::available_transports(MPI_COMM_WORLD, MemorySpace::Device);
  if (std::find(usable.begin(), usable.end(), Transport::Peer) != usable.end()) return true;
  try {
    DistributedTranspose refused(MPI_COMM_WORLD, 4, 4, ElementType::float32(),
                                 device_options(Transport::Peer, Schedule::Auto, 0));
    why = "not listed by available_transports, yet accepted when forced";
  } catch (const Error& e) {
    why = e.what();
  }
  return false;
}

// This rank's output by the CPU reference: the whole global input built on the host, transposed
// with transpose_naive, and this rank's rows of the result.
std::vector<std::byte> reference_output(const DistributedTranspose& plan, std::uint64_t seed) {
  const std::size_t s = plan.element_type().size;
  const std::int64_t R = plan.rows(), C = plan.cols(), B = plan.batch();
  std::vector<std::byte> global(static_cast<std::size_t>(B * R * C) * s);
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t i = 0; i < R; ++i)
      for (std::int64_t j = 0; j < C; ++j)
        element(&global[((b * R + i) * C + j) * s], s, b, i, j, seed);
  std::vector<std::byte> transposed(global.size());
  kernels::transpose_naive(global.data(), transposed.data(), s,
                           kernels::TransposeShape::dense(R, C, B));
  const std::int64_t m = plan.local_output_rows(), c0 = plan.output_row_offset();
  std::vector<std::byte> mine(plan.local_output_bytes());
  for (std::int64_t b = 0; b < B; ++b)
    if (m > 0)
      std::memcpy(&mine[static_cast<std::size_t>(b * m * R) * s],
                  &transposed[static_cast<std::size_t>((b * C + c0) * R) * s],
                  static_cast<std::size_t>(m * R) * s);
  return mine;
}

// Elements of `d_out` (device) that differ from the CPU reference, on this rank.
std::int64_t wrong_against_reference(const DistributedTranspose& plan, const std::byte* d_out,
                                     std::uint64_t seed) {
  const auto want = reference_output(plan, seed);
  std::vector<std::byte> got(want.size());
  if (!got.empty())
    XPOSE_CHECK_CUDA(cudaMemcpy(got.data(), d_out, got.size(), cudaMemcpyDeviceToHost));
  const std::size_t s = plan.element_type().size;
  std::int64_t wrong = 0;
  for (std::size_t k = 0; k < got.size(); k += s) wrong += std::memcmp(&got[k], &want[k], s) != 0;
  return wrong;
}

// Fills `d_in` with seed's input and poisons `d_out`, synchronously.
void load(const DistributedTranspose& plan, std::byte* d_in, std::byte* d_out, std::uint64_t seed) {
  const auto in = make_input(plan, 0, seed);
  if (!in.empty()) XPOSE_CHECK_CUDA(cudaMemcpy(d_in, in.data(), in.size(), cudaMemcpyHostToDevice));
  if (plan.local_output_bytes() > 0)
    XPOSE_CHECK_CUDA(cudaMemset(d_out, 0xCD, plan.local_output_bytes()));
  XPOSE_CHECK_CUDA(cudaDeviceSynchronize());
}

class PeerTransportGpu : public DistributedTransposeGpu {
 protected:
  void SetUp() override {
    DistributedTransposeGpu::SetUp();
    if (IsSkipped()) return;
    std::string why;
    if (!peer_available(why)) GTEST_SKIP() << "peer transport not available: " << why;
  }
};

// Uneven splits, empty ranks, every element size, batch 3; both schedules; each plan executes
// out of place on two output buffers in turn (A, B, B, A: mappings opened once and reused) and
// in place twice, every result against the CPU reference.
TEST_F(PeerTransportGpu, MatchesTheCpuReference) {
  const Case cases[] = {{13, 17, 1, 3},   {13, 17, 2, 3},    {13, 17, 4, 3}, {64, 48, 16, 3},
                        {300, 257, 8, 3}, {1, 7, 8, 3},      {7, 1, 4, 3},   {5, 3, 16, 1},
                        {1, 1, 2, 1},     {1030, 2050, 8, 1}};
  OwnedStream stream;
  for (auto schedule : {Schedule::Bulk, Schedule::Pipelined})
    for (const auto& c : cases) {
      auto opt = device_options(Transport::Peer, schedule, 4096);
      opt.batch = c.batch;
      DistributedTranspose plan(MPI_COMM_WORLD, c.rows, c.cols, ElementType::bytes(c.elem), opt);
      EXPECT_EQ(plan.transport(), Transport::Peer);
      EXPECT_EQ(plan.workspace_size(), 0u);
      std::ostringstream what;
      what << schedule_name(schedule) << " " << c.rows << "x" << c.cols << " elem " << c.elem
           << " batch " << c.batch << " on " << world_size() << " ranks";
      DeviceBytes d_in(plan.local_input_bytes()), out_a(plan.local_output_bytes()),
          out_b(plan.local_output_bytes());
      std::int64_t wrong = 0;
      std::uint64_t seed = 100;
      for (std::byte* out : {out_a.get(), out_b.get(), out_b.get(), out_a.get()}) {
        load(plan, d_in.get(), out, ++seed);
        plan.execute(d_in.get(), out, stream.get());
        XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream.get()));
        wrong += wrong_against_reference(plan, out, seed);
      }
      EXPECT_EQ(sum_over_ranks(wrong), 0) << what.str() << " out of place";
      DeviceBytes buf(plan.local_inplace_bytes());
      wrong = 0;
      for (int k = 0; k < 2; ++k) {
        const auto in = make_input(plan, 0, ++seed);
        if (buf.size() > 0) XPOSE_CHECK_CUDA(cudaMemset(buf.get(), 0xCD, buf.size()));
        if (!in.empty())
          XPOSE_CHECK_CUDA(cudaMemcpy(buf.get(), in.data(), in.size(), cudaMemcpyHostToDevice));
        XPOSE_CHECK_CUDA(cudaDeviceSynchronize());  // legacy-stream copies before `stream`
        plan.execute_inplace(buf.get(), stream.get());
        XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream.get()));
        wrong += wrong_against_reference(plan, buf.get(), seed);
      }
      EXPECT_EQ(sum_over_ranks(wrong), 0) << what.str() << " in place";
      plan.forget_buffers();
    }
}

// Outputs freed and allocated again between executes (forget_buffers in between), and outputs
// CUDA IPC cannot export (stream-ordered pool memory, managed memory): they land in the plan's
// own buffer and are copied over.
TEST_F(PeerTransportGpu, FreshAndUnexportableOutputs) {
  auto opt = device_options(Transport::Peer, Schedule::Bulk, 0);
  opt.batch = 2;
  DistributedTranspose plan(MPI_COMM_WORLD, 257, 300, ElementType::complex64(), opt);
  OwnedStream stream;
  std::int64_t wrong = 0;
  for (std::uint64_t seed : {21u, 22u, 23u}) {
    DeviceBytes d_in(plan.local_input_bytes()), d_out(plan.local_output_bytes());
    load(plan, d_in.get(), d_out.get(), seed);
    plan.execute(d_in.get(), d_out.get(), stream.get());
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream.get()));
    wrong += wrong_against_reference(plan, d_out.get(), seed);
    plan.forget_buffers();
  }
  EXPECT_EQ(sum_over_ranks(wrong), 0) << "fresh buffers";

  int dev = 0, pools = 0, managed = 0;
  XPOSE_CHECK_CUDA(cudaGetDevice(&dev));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, dev));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, dev));
  int both = pools && managed ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &both, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!both) {
    if (world_rank() == 0) std::printf("no memory pools or managed memory: fallback untested\n");
    return;
  }
  DeviceBytes d_in(plan.local_input_bytes());
  const std::size_t out_bytes = std::max<std::size_t>(plan.local_output_bytes(), 1);
  void* pooled = nullptr;
  void* unified = nullptr;
  XPOSE_CHECK_CUDA(cudaMallocAsync(&pooled, out_bytes, stream.get()));
  XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream.get()));
  XPOSE_CHECK_CUDA(cudaMallocManaged(&unified, out_bytes));
  wrong = 0;
  std::uint64_t seed = 30;
  for (void* out : {pooled, unified, pooled}) {
    auto* o = static_cast<std::byte*>(out);
    load(plan, d_in.get(), o, ++seed);
    plan.execute(d_in.get(), o, stream.get());
    XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream.get()));
    wrong += wrong_against_reference(plan, o, seed);
  }
  plan.forget_buffers();
  XPOSE_CHECK_CUDA(cudaFreeAsync(pooled, stream.get()));
  XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream.get()));
  XPOSE_CHECK_CUDA(cudaFree(unified));
  EXPECT_EQ(sum_over_ranks(wrong), 0) << "pool and managed outputs";
}

// Two peer plans alive at once on the same buffers (CUDA counts the second opening of a
// handle), and a plan destroyed while the other keeps its mappings.
TEST_F(PeerTransportGpu, TwoPlansOnTheSameBuffers) {
  const auto opt = device_options(Transport::Peer, Schedule::Bulk, 0);
  OwnedStream stream;
  auto first =
      std::make_unique<DistributedTranspose>(MPI_COMM_WORLD, 96, 80, ElementType::float32(), opt);
  DistributedTranspose second(MPI_COMM_WORLD, 96, 80, ElementType::float32(), opt);
  DeviceBytes d_in(first->local_input_bytes()), d_out(first->local_output_bytes());
  std::int64_t wrong = 0;
  std::uint64_t seed = 40;
  for (int k = 0; k < 2; ++k)
    for (DistributedTranspose* plan : {first.get(), &second}) {
      load(*plan, d_in.get(), d_out.get(), ++seed);
      plan->execute(d_in.get(), d_out.get(), stream.get());
      XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream.get()));
      wrong += wrong_against_reference(*plan, d_out.get(), seed);
    }
  first.reset();  // collective: closes its mappings only
  load(second, d_in.get(), d_out.get(), ++seed);
  second.execute(d_in.get(), d_out.get(), stream.get());
  XPOSE_CHECK_CUDA(cudaStreamSynchronize(stream.get()));
  wrong += wrong_against_reference(second, d_out.get(), seed);
  second.forget_buffers();
  EXPECT_EQ(sum_over_ranks(wrong), 0);
}

// A measured plan times the peer transport with the others and says so in its report.
TEST_F(PeerTransportGpu, MeasuredAmongTheCandidates) {
  DistributedTranspose::Options opt;
  opt.memory = MemorySpace::Device;
  DistributedTranspose plan(MPI_COMM_WORLD, 2048, 1536, ElementType::complex64(), opt);
  if (world_rank() == 0) std::printf("%s", plan.report().c_str());
  EXPECT_NE(plan.report().find("peer/bulk: "), std::string::npos) << plan.report();
  OwnedStream stream;
  EXPECT_EQ(sum_over_ranks(run_once(plan, false, 50, stream.get())), 0)
      << transport_name(plan.transport());
}

}  // namespace
}  // namespace xpose
