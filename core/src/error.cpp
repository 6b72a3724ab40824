#include "xpose/error.h"

namespace xpose {

const char* exit_code_name(ExitCode code) noexcept {
  switch (code) {
    case ExitCode::Ok: return "ok";
    case ExitCode::Internal: return "internal-error";
    case ExitCode::Usage: return "usage";
    case ExitCode::InputNotFound: return "input-not-found";
    case ExitCode::InputUnreadable: return "input-unreadable";
    case ExitCode::InputUnsupported: return "input-unsupported";
    case ExitCode::OutputRefused: return "output-refused";
    case ExitCode::IoFailure: return "io-failure";
    case ExitCode::VerifyMismatch: return "verify-mismatch";
    case ExitCode::Resources: return "resources";
    case ExitCode::Runtime: return "runtime";
    case ExitCode::ResumeRefused: return "resume-refused";
    case ExitCode::Interrupted: return "interrupted";
  }
  return "unknown";
}

}  // namespace xpose
