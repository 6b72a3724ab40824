#include "kernels/cpu/thread_pool.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

namespace xpose::kernels::cpu {

namespace {
// Set while a thread runs pool tasks, so a nested call runs inline instead of waiting on
// the pool it is part of (which would deadlock).
thread_local bool t_in_task = false;

// More workers than this would only oversubscribe the machine.
constexpr int kMaxThreads = 1024;

// After a job, workers poll for the next one this long before sleeping: waking a sleeping
// thread costs 20-50 us here (a virtual machine), longer than a small transpose takes.
constexpr auto kSpinBeforeSleep = std::chrono::microseconds(100);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(_M_X64)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

struct InTaskScope {
  bool saved = t_in_task;
  InTaskScope() { t_in_task = true; }
  ~InTaskScope() { t_in_task = saved; }
};
}  // namespace

int resolve_threads(int threads) noexcept {
  if (threads > 0) return std::min(threads, kMaxThreads);
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(std::min<unsigned>(hw, kMaxThreads));
}

ThreadPool& ThreadPool::instance() {
  static ThreadPool pool;
  return pool;
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadPool::start_workers(int count) {
  // Called with submit_mutex_ held, so no job is running and workers_ is ours to grow.
  while (static_cast<int>(workers_.size()) < count) {
    const int index = static_cast<int>(workers_.size());
    workers_.emplace_back([this, index] { worker_main(index); });
  }
}

void ThreadPool::run_inline(std::int64_t n_tasks, TaskFn fn) {
  InTaskScope scope;
  for (std::int64_t t = 0; t < n_tasks; ++t) fn.call(fn.ctx, t);
}

void ThreadPool::drain() noexcept {
  InTaskScope scope;
  for (;;) {
    const std::int64_t t = next_.fetch_add(1, std::memory_order_relaxed);
    if (t >= n_tasks_) return;
    try {
      fn_.call(fn_.ctx, t);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
      next_.store(n_tasks_, std::memory_order_relaxed);  // skip what has not started
    }
  }
}

void ThreadPool::run_erased(std::int64_t n_tasks, int threads, TaskFn fn) {
  if (n_tasks <= 0) return;
  threads = static_cast<int>(std::min<std::int64_t>(resolve_threads(threads), n_tasks));
  if (threads <= 1 || t_in_task) {
    run_inline(n_tasks, fn);
    return;
  }

  std::lock_guard<std::mutex> submit(submit_mutex_);
  start_workers(threads - 1);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    fn_ = fn;
    n_tasks_ = n_tasks;
    next_.store(0, std::memory_order_relaxed);
    error_ = nullptr;
    job_workers_ = threads - 1;
    job_open_ = true;
    ++generation_;
  }
  wake_.notify_all();

  // The caller works too; it does not wait for workers to wake up, only for those that joined
  // to leave, so a short job is not held up by a sleeping worker.
  drain();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_open_ = false;  // from here no worker joins
  }
  const auto spin_until = std::chrono::steady_clock::now() + kSpinBeforeSleep;
  for (int k = 0; active_.load(std::memory_order_acquire) != 0; ++k) {
    cpu_relax();
    if (k % 64 == 63 && std::chrono::steady_clock::now() > spin_until) break;
  }
  std::exception_ptr error;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return active_.load(std::memory_order_acquire) == 0; });
    error = error_;
    error_ = nullptr;
  }
  if (error) std::rethrow_exception(error);
}

void ThreadPool::worker_main(int index) {
  std::uint64_t seen = 0;
  for (;;) {
    const auto spin_until = std::chrono::steady_clock::now() + kSpinBeforeSleep;
    for (int k = 0; generation_.load(std::memory_order_acquire) == seen &&
                    !stop_.load(std::memory_order_relaxed);
         ++k) {
      cpu_relax();
      if (k % 64 == 63 && std::chrono::steady_clock::now() > spin_until) break;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    if (!job_open_ || index >= job_workers_) continue;
    active_.fetch_add(1, std::memory_order_relaxed);  // under mutex_, so the caller sees it
    lock.unlock();
    drain();
    if (active_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      lock.lock();  // the caller tests active_ under mutex_: no lost wake-up
      done_.notify_one();
    }
  }
}

}  // namespace xpose::kernels::cpu
