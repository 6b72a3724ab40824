// --backend auto's model (engine/src/backend_model.h) on figures of the shape measured on real
// nodes, and the host half of its calibration on this machine.
#include <gtest/gtest.h>
#include <mpi.h>

#include "engine/src/backend_model.h"

namespace xpose {
namespace {

// A many-core node whose CPU transposition runs at about 0.8 x its copy rate, and a GPU whose
// round trip is a little faster than one host copy.
BackendCalibration many_cores() {
  BackendCalibration c;
  c.bytes = 64 << 20;
  c.host_copy = 0.004;
  c.cpu_transpose = 0.005;
  c.gpu_round_trip = 0.003;
  return c;
}

// The fused CPU path touches each byte once, the GPU path copies it twice on the host: the CPU
// wins.
TEST(BackendModel, ManyCoresFusedPrefersCpu) {
  BackendCalibration c = many_cores();
  const auto d = decide_backend(c, true, 1);
  EXPECT_EQ(d.backend, "cpu") << d.reason;
  EXPECT_NE(d.reason.find("cpu 5.0 ms"), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find("cuda 8.0 ms"), std::string::npos) << d.reason;
}

// Where the CPU path cannot work on mapped files it copies in and out as well: the GPU, which
// overlaps its copies with the device work, wins.
TEST(BackendModel, UnmappedFilesPreferCuda) {
  BackendCalibration c = many_cores();
  EXPECT_EQ(decide_backend(c, false, 1).backend, "cuda");
}

// Few cores: the CPU transposition is slow against the copies and the GPU wins even fused.
TEST(BackendModel, SlowCpuPrefersCuda) {
  BackendCalibration c;
  c.bytes = 64 << 20;
  c.host_copy = 0.010;
  c.cpu_transpose = 0.030;
  c.gpu_round_trip = 0.006;
  EXPECT_EQ(decide_backend(c, true, 1).backend, "cuda");
}

// Between ranks a device transport (NCCL) far faster than the host exchange decides for the GPU;
// without one, the GPU path pays the host exchange too and the CPU keeps its lead.
TEST(BackendModel, DeviceExchangeDecidesBetweenRanks) {
  BackendCalibration c = many_cores();
  c.host_exchange = 0.030;
  c.device_exchange = 0.001;
  c.device_transport = true;
  EXPECT_EQ(decide_backend(c, true, 4).backend, "cuda");
  c.device_exchange = c.host_exchange;
  c.device_transport = false;
  EXPECT_EQ(decide_backend(c, true, 4).backend, "cpu");
}

// No GPU measured (none visible): always the CPU, whatever the figures.
TEST(BackendModel, NoGpuMeansCpu) {
  BackendCalibration c;
  c.bytes = 1 << 20;
  c.host_copy = 1;
  c.cpu_transpose = 100;
  EXPECT_EQ(decide_backend(c, false, 1).backend, "cpu");
}

TEST(BackendModel, HostCalibrationMeasures) {
  BackendCalibration c;
  calibrate_host(MPI_COMM_WORLD, 4, 4 << 20, 2, c);
  EXPECT_EQ(c.bytes, 4 << 20);
  EXPECT_GT(c.cpu_transpose, 0);
  EXPECT_GT(c.host_copy, 0);
}

}  // namespace
}  // namespace xpose
