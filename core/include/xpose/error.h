/// @file
/// Typed errors and the exit codes the command line maps them to.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace xpose {

/// Process exit codes. They are part of the command-line interface: documented in `xpose --help`
/// and README.md, and tested. Never renumber one.
enum class ExitCode : int {
  Ok = 0,
  Internal = 1,             ///< a bug or an unexpected condition
  Usage = 2,                ///< bad command line
  InputNotFound = 3,        ///< missing file or dataset, or a group where a dataset is expected
  InputUnreadable = 4,      ///< not an HDF5 file, truncated or corrupt
  InputUnsupported = 5,     ///< rank < 2, variable-length or other unsupported type, bad element size
  OutputRefused = 6,        ///< output exists (no --force), equals the input, or its directory is bad
  IoFailure = 7,            ///< a read or write failed during the run (disk full, I/O error)
  VerifyMismatch = 8,       ///< `xpose verify` found elements that differ
  Resources = 9,            ///< memory budget too small, allocation failed
  Runtime = 10,             ///< MPI, CUDA or NCCL failure
  ResumeRefused = 11,       ///< --resume against a different input, plan or option set
  Interrupted = 75,         ///< stopped by SIGTERM/SIGUSR1 after a clean stage: resumable
};

/// Short name of an exit code, for messages and JSON summaries.
const char* exit_code_name(ExitCode code) noexcept;

/// Base of every xpose error: a one-line message and the exit code it maps to.
class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const noexcept { return code_; }

 private:
  ExitCode code_;
};

#define XPOSE_DEFINE_ERROR(Name, Code)                                         \
  class Name : public Error {                                                  \
   public:                                                                     \
    explicit Name(const std::string& message) : Error(ExitCode::Code, message) {} \
  }

XPOSE_DEFINE_ERROR(InternalError, Internal);
XPOSE_DEFINE_ERROR(UsageError, Usage);
XPOSE_DEFINE_ERROR(InputNotFoundError, InputNotFound);
XPOSE_DEFINE_ERROR(InputUnreadableError, InputUnreadable);
XPOSE_DEFINE_ERROR(UnsupportedInputError, InputUnsupported);
XPOSE_DEFINE_ERROR(OutputRefusedError, OutputRefused);
XPOSE_DEFINE_ERROR(IoError, IoFailure);
XPOSE_DEFINE_ERROR(VerifyMismatchError, VerifyMismatch);
XPOSE_DEFINE_ERROR(ResourceError, Resources);
XPOSE_DEFINE_ERROR(RuntimeFailure, Runtime);
XPOSE_DEFINE_ERROR(ResumeRefusedError, ResumeRefused);
XPOSE_DEFINE_ERROR(InterruptedError, Interrupted);
#undef XPOSE_DEFINE_ERROR

/// Thrown where a backend was not compiled into this build (e.g. CUDA in a CPU-only build).
class NotCompiledError : public Error {
 public:
  explicit NotCompiledError(const std::string& what)
      : Error(ExitCode::Usage, what + " is not available: this xpose was built without it") {}
};

/// Shape or size arguments that do not fit together.
class DimensionMismatch : public Error {
 public:
  explicit DimensionMismatch(const std::string& message) : Error(ExitCode::Internal, message) {}
};

namespace detail {
inline void append(std::ostringstream&) {}
template <typename T, typename... Rest>
void append(std::ostringstream& os, const T& first, const Rest&... rest) {
  os << first;
  append(os, rest...);
}
}  // namespace detail

/// Builds a message from pieces: `cat("need ", n, " bytes")`.
template <typename... Parts>
std::string cat(const Parts&... parts) {
  std::ostringstream os;
  detail::append(os, parts...);
  return os.str();
}

}  // namespace xpose
