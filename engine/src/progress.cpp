#include "engine/src/progress.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include "xpose/types.h"

namespace xpose {

namespace {

/// Whether stderr ends on a terminal. Under mpirun or srun a rank's stderr is a pipe to the
/// launcher, which is this process's parent on the launcher's node: then the launcher's own
/// stderr decides (a terminal: live bar; a batch log: lines).
bool stderr_is_terminal() {
  if (isatty(STDERR_FILENO) == 1) return true;
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/fd/2", static_cast<int>(getppid()));
  int fd = ::open(path, O_WRONLY | O_NOCTTY);
  if (fd < 0) return false;
  bool tty = isatty(fd) == 1;
  ::close(fd);
  return tty;
}

}  // namespace

Progress::Progress(std::string label, std::int64_t total_bytes, bool enabled, double interval_seconds,
                   std::int64_t already_done)
    : label_(std::move(label)),
      total_(total_bytes),
      enabled_(enabled),
      tty_(enabled && stderr_is_terminal()),
      interval_(interval_seconds),
      start_(std::chrono::steady_clock::now()),
      last_(start_),
      done_(already_done),
      baseline_(already_done) {}

void Progress::update(std::int64_t done_bytes) {
  done_ = done_bytes;
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  double since = std::chrono::duration<double>(now - last_).count();
  if (since < (tty_ ? 0.2 : interval_)) return;
  last_ = now;
  print(done_bytes, false);
}

void Progress::finish() {
  if (!enabled_) return;
  if (!tty_ && printed_ == done_) return;  // a batch log already has this line
  print(done_, true);
}

void Progress::print(std::int64_t done, bool final) {
  printed_ = done;
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  double frac = total_ > 0 ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
  double rate = elapsed > 0 ? static_cast<double>(done - baseline_) / elapsed : 0.0;
  double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : 0.0;
  char eta_text[32];
  std::snprintf(eta_text, sizeof eta_text, "%02d:%02d:%02d", static_cast<int>(eta / 3600),
                static_cast<int>(eta / 60) % 60, static_cast<int>(eta) % 60);
  if (tty_) {
    const int width = 30;
    int filled = static_cast<int>(frac * width + 0.5);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '.');
    std::fprintf(stderr, "\r%s [%s] %5.1f%%  %s / %s  %s/s  ETA %s ", label_.c_str(), bar.c_str(), 100 * frac,
                 format_size(static_cast<double>(done)).c_str(), format_size(static_cast<double>(total_)).c_str(),
                 format_size(rate).c_str(), eta_text);
    if (final) std::fputc('\n', stderr);
  } else {
    std::fprintf(stderr, "%s: %5.1f%%  %s of %s  %s/s  elapsed %.1f s  ETA %s\n", label_.c_str(), 100 * frac,
                 format_size(static_cast<double>(done)).c_str(), format_size(static_cast<double>(total_)).c_str(),
                 format_size(rate).c_str(), elapsed, eta_text);
  }
  std::fflush(stderr);
}

}  // namespace xpose
