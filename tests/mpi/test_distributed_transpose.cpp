// DistributedTranspose on host memory at every rank count: FFTW-MPI block distribution, uneven
// and empty ranks (5 rows over 4 ranks, 1xN, Nx1), batches, every element size, in place and
// out of place, both schedules (pieces of one row up to whole blocks), plan reuse, caller
// workspaces, measured plans with a wisdom file, and errors agreed on by every rank.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "xpose/config.h"
#include "xpose/distributed_transpose.h"
#include "xpose/error.h"
#include "tests/distributed_reference.h"

namespace xpose {
namespace {

using namespace test;

struct Shape2 {
  std::int64_t rows, cols;
};

// Shapes with uneven splits and empty ranks at every rank count up to 4.
const Shape2 kShapes[] = {{1, 1}, {1, 7}, {7, 1}, {5, 3}, {3, 5}, {13, 17}, {64, 48}, {33, 2}};
const std::size_t kSizes[] = {1, 2, 4, 8, 16};

std::string label(const Shape2& sh, std::size_t s, std::int64_t batch, const char* what) {
  std::ostringstream os;
  os << sh.rows << "x" << sh.cols << " elem " << s << " batch " << batch << " " << what << " on "
     << world_size() << " ranks";
  return os.str();
}

// Runs the plan twice (out of place, or in place), poisoning the output first, and checks every
// element on every rank; the count of wrong elements is summed so every rank asserts the same.
void check_plan(DistributedTranspose& plan, bool inplace, const std::string& what) {
  for (std::uint64_t seed : {1u, 2u}) {
    std::int64_t wrong = 0;
    if (inplace) {
      auto buf = make_input(plan, plan.local_inplace_bytes() - plan.local_input_bytes(), seed);
      plan.execute_inplace(buf.empty() ? nullptr : buf.data());
      wrong = count_wrong(plan, buf.data(), seed);
    } else {
      auto in = make_input(plan, 0, seed);
      const auto copy = in;
      std::vector<std::byte> out(plan.local_output_bytes(), std::byte{0xCD});
      plan.execute(in.empty() ? nullptr : in.data(), out.empty() ? nullptr : out.data());
      wrong = count_wrong(plan, out.data(), seed);
      wrong += in != copy;  // the input is left as it was
    }
    EXPECT_EQ(sum_over_ranks(wrong), 0) << what << " seed " << seed;
  }
}

DistributedTranspose::Options estimate(Schedule schedule, std::int64_t chunk_bytes) {
  DistributedTranspose::Options opt;
  opt.planning = Planning::Estimate;
  opt.schedule = schedule;
  opt.chunk_bytes = chunk_bytes;
  return opt;
}

TEST(DistributedTranspose, DistributionIsFftwMpis) {
  const int P = world_size(), me = world_rank();
  for (const auto& sh : kShapes) {
    DistributedTranspose plan(MPI_COMM_WORLD, sh.rows, sh.cols, ElementType::complex64(),
                              estimate(Schedule::Auto, 0));
    const std::int64_t b0 = (sh.rows + P - 1) / P, b1 = (sh.cols + P - 1) / P;
    EXPECT_EQ(plan.input_row_offset(), std::min(sh.rows, b0 * me));
    EXPECT_EQ(plan.local_input_rows(), std::max<std::int64_t>(0, std::min(b0, sh.rows - b0 * me)));
    EXPECT_EQ(plan.output_row_offset(), std::min(sh.cols, b1 * me));
    EXPECT_EQ(plan.local_output_rows(), std::max<std::int64_t>(0, std::min(b1, sh.cols - b1 * me)));
    EXPECT_EQ(sum_over_ranks(plan.local_input_rows()), sh.rows);
    EXPECT_EQ(sum_over_ranks(plan.local_output_rows()), sh.cols);
    EXPECT_EQ(plan.local_input_elements(), plan.local_input_rows() * sh.cols);
    EXPECT_EQ(plan.local_output_bytes(),
              static_cast<std::size_t>(plan.local_output_rows() * sh.rows * 8));
    EXPECT_EQ(plan.ranks(), P);
    EXPECT_EQ(plan.rank(), me);
  }
}

class EverySchedule : public testing::TestWithParam<bool> {};

TEST_P(EverySchedule, EveryShapeSizeAndBatch) {
  const bool inplace = GetParam();
  struct Variant {
    Schedule schedule;
    std::int64_t chunk_bytes;
    const char* name;
  };
  // chunk 1 byte rounds up to pieces of one output row: the most pieces per peer.
  const Variant variants[] = {{Schedule::Bulk, 0, "bulk"},
                              {Schedule::Pipelined, 1, "pipelined, one-row pieces"},
                              {Schedule::Pipelined, 200, "pipelined, 200-byte pieces"},
                              {Schedule::Pipelined, 0, "pipelined, default pieces"}};
  for (const auto& v : variants)
    for (const auto& sh : kShapes)
      for (std::size_t s : kSizes)
        for (std::int64_t batch : {1, 3}) {
          auto opt = estimate(v.schedule, v.chunk_bytes);
          opt.batch = batch;
          DistributedTranspose plan(MPI_COMM_WORLD, sh.rows, sh.cols, ElementType::bytes(s), opt);
          EXPECT_EQ(plan.transport(), Transport::Mpi);
          if (world_size() > 1) {
            EXPECT_EQ(plan.schedule(), v.schedule);
          }
          check_plan(plan, inplace, label(sh, s, batch, v.name) + (inplace ? " in place" : ""));
        }
}

INSTANTIATE_TEST_SUITE_P(Placement, EverySchedule, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "InPlace" : "OutOfPlace";
                         });

TEST(DistributedTranspose, LargerMatricesBothSchedules) {
  for (auto schedule : {Schedule::Bulk, Schedule::Pipelined})
    for (bool inplace : {false, true}) {
      auto opt = estimate(schedule, 4096);
      opt.batch = 2;
      DistributedTranspose plan(MPI_COMM_WORLD, 517, 300, ElementType::complex64(), opt);
      check_plan(plan, inplace, cat("517x300 complex64 ", schedule_name(schedule)));
    }
}

TEST(DistributedTranspose, PlanIsMovable) {
  DistributedTranspose a(MPI_COMM_WORLD, 9, 11, ElementType::float64(),
                         estimate(Schedule::Auto, 0));
  DistributedTranspose b = std::move(a);
  check_plan(b, false, "moved plan");
}

TEST(DistributedTranspose, SquareOnOneRankInPlaceNeedsNoWorkspace) {
  DistributedTranspose plan(MPI_COMM_WORLD, 40, 40, ElementType::float32(),
                            estimate(Schedule::Auto, 0));
  if (world_size() == 1) {
    EXPECT_EQ(plan.workspace_size(), 0u);
    EXPECT_EQ(plan.workspace_size_inplace(), 0u);
  }
  check_plan(plan, true, "square in place");
}

TEST(DistributedTranspose, CallerWorkspace) {
  auto opt = estimate(Schedule::Pipelined, 64);
  opt.allocate_workspace = false;
  opt.batch = 2;
  DistributedTranspose plan(MPI_COMM_WORLD, 23, 19, ElementType::complex128(), opt);
  const bool any_need = sum_over_ranks(static_cast<std::int64_t>(plan.workspace_size())) > 0;
  std::vector<std::byte> in(plan.local_input_bytes() + 1), out(plan.local_output_bytes() + 1);
  if (any_need) {
    // Every rank throws, also those that need no workspace themselves.
    EXPECT_THROW(plan.execute(in.data(), out.data()), UsageError);
  }
  std::vector<std::byte> ws(std::max(plan.workspace_size(), plan.workspace_size_inplace()) + 1);
  plan.set_workspace(ws.data(), ws.size());
  check_plan(plan, false, "caller workspace");
  check_plan(plan, true, "caller workspace in place");
  // Too small for in place (where that needs more than out of place) is refused.
  plan.set_workspace(ws.data(), plan.workspace_size());
  const bool any_more = sum_over_ranks(plan.workspace_size_inplace() > plan.workspace_size()) > 0;
  if (any_more) {
    std::vector<std::byte> buf(plan.local_inplace_bytes() + 1);
    EXPECT_THROW(plan.execute_inplace(buf.data()), UsageError);
  }
}

// A temporary file name that every rank agrees on.
std::string shared_temp_path(const char* stem) {
  long pid = static_cast<long>(::getpid());
  MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  return cat("/tmp/xpose-test-", stem, "-", pid);
}

TEST(DistributedTranspose, MeasuredChoiceIsStoredAndReloaded) {
  const std::string path = shared_temp_path("wisdom");
  if (world_rank() == 0) std::remove(path.c_str());
  MPI_Barrier(MPI_COMM_WORLD);
  DistributedTranspose::Options opt;
  opt.planning = Planning::Measure;
  opt.wisdom_file = path;
  opt.batch = 2;
  DistributedTranspose measured(MPI_COMM_WORLD, 96, 80, ElementType::complex64(), opt);
  check_plan(measured, false, "measured plan");
  const std::string report = measured.report();
  EXPECT_NE(measured.transport(), Transport::Auto);
  EXPECT_NE(measured.schedule(), Schedule::Auto);
  if (world_size() > 1) {
    EXPECT_NE(report.find("measured"), std::string::npos) << report;
    std::int64_t lines = 0;
    if (world_rank() == 0) {
      std::ifstream in(path);
      std::string line;
      while (std::getline(in, line)) lines += line.rfind("xpose-wisdom-1 ", 0) == 0;
    }
    EXPECT_EQ(sum_over_ranks(lines), 1);
    DistributedTranspose reloaded(MPI_COMM_WORLD, 96, 80, ElementType::complex64(), opt);
    EXPECT_NE(reloaded.report().find("wisdom"), std::string::npos) << reloaded.report();
    EXPECT_EQ(reloaded.transport(), measured.transport());
    EXPECT_EQ(reloaded.schedule(), measured.schedule());
    EXPECT_EQ(reloaded.chunk_bytes(), measured.chunk_bytes());
    check_plan(reloaded, true, "plan from wisdom");
    // Another shape is another key: measured again, and the file then holds two entries.
    DistributedTranspose other(MPI_COMM_WORLD, 80, 96, ElementType::complex64(), opt);
    EXPECT_NE(other.report().find("measured"), std::string::npos) << other.report();
    lines = 0;
    if (world_rank() == 0) {
      std::ifstream in(path);
      std::string line;
      while (std::getline(in, line)) lines += line.rfind("xpose-wisdom-1 ", 0) == 0;
    }
    EXPECT_EQ(sum_over_ranks(lines), 2);
  } else {
    EXPECT_NE(report.find("one rank"), std::string::npos) << report;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::remove(path.c_str());
}

TEST(DistributedTranspose, DamagedWisdomIsIgnored) {
  const std::string path = shared_temp_path("bad-wisdom");
  if (world_rank() == 0) {
    std::ofstream out(path);
    out << "garbage\nxpose-wisdom-1 ranks=" << world_size()
        << " nodes=1 rows=30 cols=20 elem=4 batch=1 memory=host request=auto/auto/0 | "
           "transport=nccl schedule=teleport piece_rows=x\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  DistributedTranspose::Options opt;
  opt.wisdom_file = path;
  DistributedTranspose plan(MPI_COMM_WORLD, 30, 20, ElementType::float32(), opt);
  EXPECT_EQ(plan.transport(), Transport::Mpi);
  check_plan(plan, false, "plan past a damaged wisdom file");
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::remove(path.c_str());
}

TEST(DistributedTranspose, BadArgumentsThrowTypedErrorsOnEveryRank) {
  const auto opt = estimate(Schedule::Auto, 0);
  EXPECT_THROW(DistributedTranspose(MPI_COMM_WORLD, 0, 5, ElementType::float32(), opt), UsageError);
  EXPECT_THROW(DistributedTranspose(MPI_COMM_WORLD, 5, -1, ElementType::float32(), opt),
               UsageError);
  EXPECT_THROW(DistributedTranspose(MPI_COMM_WORLD, 5, 5, ElementType::bytes(3), opt),
               UnsupportedInputError);
  auto bad = opt;
  bad.batch = 0;
  EXPECT_THROW(DistributedTranspose(MPI_COMM_WORLD, 5, 5, ElementType::float32(), bad), UsageError);
  bad = opt;
  bad.chunk_bytes = -5;
  EXPECT_THROW(DistributedTranspose(MPI_COMM_WORLD, 5, 5, ElementType::float32(), bad), UsageError);
  bad = opt;
  bad.transport = Transport::Nccl;  // device transport on a host plan
  EXPECT_THROW(DistributedTranspose(MPI_COMM_WORLD, 5, 5, ElementType::float32(), bad), UsageError);
  bad = opt;
  bad.batch = std::int64_t{1} << 40;
  EXPECT_THROW(
      DistributedTranspose(MPI_COMM_WORLD, 1 << 20, 1 << 20, ElementType::complex128(), bad),
      UsageError);
  if (!XPOSE_HAVE_CUDA) {
    bad = opt;
    bad.memory = MemorySpace::Device;
    EXPECT_THROW(DistributedTranspose(MPI_COMM_WORLD, 5, 5, ElementType::float32(), bad),
                 NotCompiledError);
  }
  EXPECT_EQ(DistributedTranspose::available_transports(MPI_COMM_WORLD, MemorySpace::Host),
            std::vector<Transport>{Transport::Mpi});
}

TEST(DistributedTranspose, NullBufferOnOneRankFailsOnEveryRank) {
  const int P = world_size(), me = world_rank();
  DistributedTranspose plan(MPI_COMM_WORLD, 4 * P, 3 * P, ElementType::float64(),
                            estimate(Schedule::Auto, 0));
  std::vector<std::byte> in(plan.local_input_bytes()), out(plan.local_output_bytes());
  // Only the last rank passes a null input; it holds rows, so that is an error there.
  const void* src = me == P - 1 ? nullptr : in.data();
  try {
    plan.execute(src, out.data());
    ADD_FAILURE() << "no error on rank " << me;
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(cat("rank ", P - 1)), std::string::npos) << e.what();
  }
  // Overlapping input and output.
  std::vector<std::byte> both(plan.local_inplace_bytes() * 2 + 16);
  EXPECT_THROW(plan.execute(both.data(), both.data() + 8), UsageError);
  // The plan still works afterwards.
  check_plan(plan, false, "after refused calls");
}

TEST(DistributedTranspose, NamesRoundTrip) {
  for (auto t : {Transport::Auto, Transport::Mpi, Transport::MpiDevice, Transport::Nccl})
    EXPECT_EQ(parse_transport(transport_name(t)), t);
  for (auto s : {Schedule::Auto, Schedule::Bulk, Schedule::Pipelined})
    EXPECT_EQ(parse_schedule(schedule_name(s)), s);
  EXPECT_THROW(parse_transport("pigeon"), UsageError);
  EXPECT_THROW(parse_schedule("sometime"), UsageError);
}

}  // namespace
}  // namespace xpose
