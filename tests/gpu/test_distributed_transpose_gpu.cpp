// DistributedTranspose on device memory, at whatever rank count the binary runs (ctest: 1;
// bench/run_inmem_gpu.sh: 2 ranks on 2 GPUs): every transport this machine offers (staged MPI,
// NCCL where each rank has its own GPU, MPI on device buffers where the MPI is CUDA-aware), both
// schedules, in place and out of place, uneven shapes, every element size, batches, ordering on
// the caller's stream, plan reuse, a measured plan with a wisdom file, and refused arguments.
// Outputs are poisoned first and every element is checked on the host. Every test skips, on all
// ranks together, unless every rank sees a GPU.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "engine/src/stage_backend.h"
#include "kernels/cuda/check.h"
#include "xpose/distributed_transpose.h"
#include "xpose/error.h"

namespace xpose {
namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}
std::int64_t sum_over_ranks(std::int64_t v) {
  std::int64_t s = 0;
  MPI_Allreduce(&v, &s, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

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

// Element (b, i, j) of the global input.
void element(std::byte* dst, std::size_t s, std::int64_t b, std::int64_t i, std::int64_t j,
             std::uint64_t seed) {
  std::uint64_t v = (static_cast<std::uint64_t>(b) * 0x100000001B3ull) ^
                    (static_cast<std::uint64_t>(i) << 32) ^ static_cast<std::uint64_t>(j) ^ seed;
  v *= 0x9E3779B97F4A7C15ull;
  v ^= v >> 29;
  for (std::size_t k = 0; k < s; ++k) dst[k] = static_cast<std::byte>((v >> (8 * (k % 8))) + 7 * k);
}

std::vector<std::byte> host_input(const DistributedTranspose& plan, std::uint64_t seed) {
  const std::size_t s = plan.element_type().size;
  const std::int64_t n = plan.local_input_rows(), C = plan.cols();
  std::vector<std::byte> in(plan.local_input_bytes());
  for (std::int64_t b = 0; b < plan.batch(); ++b)
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < C; ++j)
        element(&in[((b * n + i) * C + j) * s], s, b, plan.input_row_offset() + i, j, seed);
  return in;
}

std::int64_t count_wrong(const DistributedTranspose& plan, const std::byte* out,
                         std::uint64_t seed) {
  const std::size_t s = plan.element_type().size;
  const std::int64_t m = plan.local_output_rows(), R = plan.rows();
  std::vector<std::byte> want(s);
  std::int64_t wrong = 0;
  for (std::int64_t b = 0; b < plan.batch(); ++b)
    for (std::int64_t j = 0; j < m; ++j)
      for (std::int64_t i = 0; i < R; ++i) {
        element(want.data(), s, b, i, plan.output_row_offset() + j, seed);
        wrong += std::memcmp(want.data(), out + ((b * m + j) * R + i) * s, s) != 0;
      }
  return wrong;
}

// One execute on device buffers, checked on the host. Returns wrong elements on this rank.
std::int64_t run_once(DistributedTranspose& plan, bool inplace, std::uint64_t seed,
                      cudaStream_t stream) {
  const auto in = host_input(plan, seed);
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
        const auto in = host_input(plan, seed);
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
    for (auto t : {Transport::Nccl, Transport::MpiDevice})
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

}  // namespace
}  // namespace xpose
