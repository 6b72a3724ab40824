#include "engine/src/stop_signals.h"

#include <csignal>

namespace xpose {

namespace {

volatile std::sig_atomic_t g_signal = 0;
struct sigaction g_previous[3];
const int kSignals[3] = {SIGTERM, SIGUSR1, SIGINT};

extern "C" void record_signal(int signal) { g_signal = signal; }

}  // namespace

StopSignals::StopSignals() {
  g_signal = 0;
  struct sigaction action {};
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a signal must not make an in-flight read or write fail
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &action, &g_previous[i]);
}

StopSignals::~StopSignals() {
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &g_previous[i], nullptr);
}

int StopSignals::received() { return g_signal; }

const char* StopSignals::name(int signal) {
  switch (signal) {
    case SIGTERM: return "SIGTERM";
    case SIGUSR1: return "SIGUSR1";
    case SIGINT: return "SIGINT";
  }
  return "a signal";
}

}  // namespace xpose
