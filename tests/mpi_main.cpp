// Shared GoogleTest main for every xpose test binary: initialises MPI, lets rank 0 print the
// full report while other ranks print failures only, and reduces the result with
// MPI_Allreduce(MAX) so every rank agrees on the exit code.
#include <gtest/gtest.h>
#include <mpi.h>

namespace {

// Forwards only failures (and the final summary line) from non-zero ranks.
class FailuresOnly : public testing::TestEventListener {
 public:
  explicit FailuresOnly(testing::TestEventListener* inner, int rank) : inner_(inner), rank_(rank) {}
  ~FailuresOnly() override { delete inner_; }
  void OnTestProgramStart(const testing::UnitTest&) override {}
  void OnTestIterationStart(const testing::UnitTest&, int) override {}
  void OnEnvironmentsSetUpStart(const testing::UnitTest&) override {}
  void OnEnvironmentsSetUpEnd(const testing::UnitTest&) override {}
  void OnTestSuiteStart(const testing::TestSuite&) override {}
  void OnTestStart(const testing::TestInfo&) override {}
  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (result.failed()) {
      std::fprintf(stderr, "[rank %d] ", rank_);
      inner_->OnTestPartResult(result);
    }
  }
  void OnTestEnd(const testing::TestInfo&) override {}
  void OnTestSuiteEnd(const testing::TestSuite&) override {}
  void OnEnvironmentsTearDownStart(const testing::UnitTest&) override {}
  void OnEnvironmentsTearDownEnd(const testing::UnitTest&) override {}
  void OnTestIterationEnd(const testing::UnitTest&, int) override {}
  void OnTestProgramEnd(const testing::UnitTest&) override {}

 private:
  testing::TestEventListener* inner_;
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = testing::UnitTest::GetInstance()->listeners();
    auto* printer = listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailuresOnly(printer, rank));
  }
  int local = RUN_ALL_TESTS();
  int global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return global;
}
