/// @file
/// One thread that runs every HDF5 call of a run, in submission order. HDF5 is not thread-safe,
/// so all its calls stay on this thread; and because every rank submits the same tasks in the
/// same order, the collective MPI-IO calls inside them match up across ranks.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>

namespace xpose {

class IoWorker {
 public:
  /// With `threaded` false, tasks run inline in submit() (MPI without THREAD_MULTIPLE).
  explicit IoWorker(bool threaded);
  ~IoWorker();
  IoWorker(const IoWorker&) = delete;
  IoWorker& operator=(const IoWorker&) = delete;

  /// Queues `task`; the future reports its completion or rethrows its exception.
  std::future<void> submit(std::function<void()> task);
  bool threaded() const { return threaded_; }

 private:
  void loop();
  bool threaded_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::packaged_task<void()>> queue_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace xpose
