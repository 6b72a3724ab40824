/// @file
/// A small persistent thread pool for the CPU kernels. Creating threads costs tens of
/// microseconds, more than a small transpose takes, so the workers live for the whole process.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace xpose::kernels::cpu {

/// Number of threads a kernel call uses: `threads` if positive, else the hardware threads
/// (at least 1).
int resolve_threads(int threads) noexcept;

/// Runs independent tasks 0..n-1 on the calling thread plus up to `threads - 1` pool workers.
/// Tasks are handed out one at a time from a shared counter (dynamic scheduling), so uneven
/// tasks balance. One job runs at a time: a second caller waits for the first. A call made
/// from inside a task runs its tasks inline on that thread (no nested parallelism). After a
/// job, workers poll for the next one for about 100 us before sleeping, so back-to-back calls
/// do not pay a thread wake-up each.
class ThreadPool {
 public:
  /// The process-wide pool; workers are started lazily, as calls ask for them.
  static ThreadPool& instance();

  ThreadPool() = default;
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Calls `fn(task)` for every task in [0, n_tasks) on at most `threads` threads (the caller
  /// included) and returns when all are done. The first exception a task throws is rethrown
  /// here; tasks not yet started are then skipped.
  template <typename Fn>
  void run(std::int64_t n_tasks, int threads, Fn&& fn) {
    using F = std::remove_reference_t<Fn>;
    TaskFn erased{const_cast<void*>(static_cast<const void*>(&fn)),
                  [](void* ctx, std::int64_t task) { (*static_cast<F*>(ctx))(task); }};
    run_erased(n_tasks, threads, erased);
  }

 private:
  struct TaskFn {
    void* ctx = nullptr;
    void (*call)(void*, std::int64_t) = nullptr;
  };

  void run_erased(std::int64_t n_tasks, int threads, TaskFn fn);
  void run_inline(std::int64_t n_tasks, TaskFn fn);
  void drain() noexcept;
  void worker_main(int index);
  void start_workers(int count);

  std::mutex submit_mutex_;  // one job at a time
  std::mutex mutex_;         // guards everything below except next_
  std::condition_variable wake_;
  std::condition_variable done_;
  std::vector<std::thread> workers_;
  std::atomic<bool> stop_{false};

  // The current job. Workers join it only while job_open_ is set, so a worker that wakes late
  // never touches a job its caller has already finished.
  std::atomic<std::uint64_t> generation_{0};  // written under mutex_, read by spinning workers
  bool job_open_ = false;
  int job_workers_ = 0;         // workers with index < job_workers_ may join
  std::atomic<int> active_{0};  // workers inside the current job
  TaskFn fn_;
  std::int64_t n_tasks_ = 0;
  std::atomic<std::int64_t> next_{0};
  std::exception_ptr error_;
};

}  // namespace xpose::kernels::cpu
