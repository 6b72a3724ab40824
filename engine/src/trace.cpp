#include "engine/src/trace.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "mpi/comm.h"
#include "xpose/config.h"
#include "xpose/error.h"
#if XPOSE_HAVE_CUDA
#include <nvtx3/nvToolsExt.h>
#endif

namespace xpose {

void Trace::add(const char* name, const char* thread, Clock::time_point begin, Clock::time_point end,
                std::int64_t stage) {
  if (!enabled_) return;
  auto us = [&](Clock::time_point t) { return std::chrono::duration<double, std::micro>(t - origin_).count(); };
  std::lock_guard<std::mutex> lock(mutex_);
  events_.push_back({name, thread, us(begin), us(end), stage});
}

void Trace::write(MPI_Comm comm, const std::string& path) const {
  const int me = mpi::rank(comm), n = mpi::size(comm);
  // Ranks start their clocks at slightly different times; align them on a barrier.
  std::ostringstream os;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& e : events_) {
      int tid = std::string(e.thread) == "main" ? 0 : 1;
      os << "{\"name\":\"" << e.name << "\",\"ph\":\"X\",\"pid\":" << me << ",\"tid\":" << tid
         << ",\"ts\":" << static_cast<long long>(e.begin_us) << ",\"dur\":"
         << static_cast<long long>(e.end_us - e.begin_us + 0.5) << ",\"args\":{\"stage\":" << e.stage << "}},\n";
    }
    os << "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" << me << ",\"args\":{\"name\":\"rank " << me << "\"}},\n";
    os << "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" << me << ",\"tid\":0,\"args\":{\"name\":\"main (GPU/CPU, exchange)\"}},\n";
    os << "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" << me << ",\"tid\":1,\"args\":{\"name\":\"io (HDF5 read/write)\"}},\n";
  }
  std::string mine = os.str();
  int len = mpi::to_int_count(static_cast<std::int64_t>(mine.size()), "trace size");
  std::vector<int> lens(static_cast<std::size_t>(n)), displs(static_cast<std::size_t>(n));
  XPOSE_CHECK_MPI(MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm));
  std::string all;
  if (me == 0) {
    std::int64_t total = 0;
    for (int i = 0; i < n; ++i) {
      displs[i] = static_cast<int>(total);
      total += lens[i];
    }
    all.resize(static_cast<std::size_t>(mpi::to_int_count(total, "trace size")));
  }
  XPOSE_CHECK_MPI(MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0, comm));
  if (me != 0) return;
  std::ofstream f(path);
  f << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" << all << "{}]}\n";
  if (!f) throw IoError(cat("cannot write the trace file '", path, "'"));
}

PhaseScope::PhaseScope(Trace& trace, const char* name, const char* thread, double& total, std::int64_t stage)
    : trace_(trace), name_(name), thread_(thread), total_(total), stage_(stage), begin_(Trace::Clock::now()) {
#if XPOSE_HAVE_CUDA
  nvtxRangePushA(name);
#endif
}

PhaseScope::~PhaseScope() {
#if XPOSE_HAVE_CUDA
  nvtxRangePop();
#endif
  auto end = Trace::Clock::now();
  total_ += std::chrono::duration<double>(end - begin_).count();
  trace_.add(name_, thread_, begin_, end, stage_);
}

}  // namespace xpose
