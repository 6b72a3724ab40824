/// @file
/// An MPI communicator passed through code that does not include <mpi.h>.
///
/// The public API takes communicators as CommHandle, so its headers need no <mpi.h> and a
/// language binding can be compiled without MPI's headers. C++ callers pass an MPI_Comm as it
/// is (it converts implicitly); bindings pass the handle's value (mpi4py:
/// `MPI._handleof(comm)`). A handle does not own its communicator.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>

namespace xpose {

namespace detail {
/// What an MPI_Comm can be: a pointer (Open MPI) or an integer (MPICH and its derivatives).
template <typename T>
constexpr bool is_mpi_handle_type =
    (std::is_pointer<T>::value || (std::is_integral<T>::value && !std::is_same<T, bool>::value)) &&
    sizeof(T) <= sizeof(std::uint64_t);
}  // namespace detail

class CommHandle {
 public:
  /// From an MPI_Comm, implicitly, so MPI_COMM_WORLD passes where a CommHandle is expected.
  template <typename MpiComm,
            typename std::enable_if<detail::is_mpi_handle_type<MpiComm>, int>::type = 0>
  CommHandle(MpiComm comm) noexcept : value_(to_value(comm)) {}  // NOLINT(runtime/explicit)

  /// MPI_COMM_WORLD of the MPI this xpose was built with.
  static CommHandle world();
  /// From the integer value of an MPI_Comm handle, as mpi4py's `MPI._handleof(comm)` gives it.
  static CommHandle from_value(std::uint64_t value) noexcept { return CommHandle(Value{value}); }

  /// The handle's integer value (the inverse of from_value).
  std::uint64_t value() const noexcept { return value_; }
  /// Back to the MPI type: `handle.get<MPI_Comm>()`.
  template <typename MpiComm>
  MpiComm get() const noexcept {
    static_assert(sizeof(MpiComm) <= sizeof(std::uint64_t), "not an MPI handle type");
    if constexpr (std::is_pointer<MpiComm>::value)
      return reinterpret_cast<MpiComm>(static_cast<std::uintptr_t>(value_));
    else
      return static_cast<MpiComm>(value_);
  }

  /// This process's rank in the communicator.
  int rank() const;
  /// Number of ranks.
  int size() const;

 private:
  struct Value {
    std::uint64_t v;
  };
  explicit CommHandle(Value v) noexcept : value_(v.v) {}
  template <typename MpiComm>
  static std::uint64_t to_value(MpiComm comm) noexcept {
    if constexpr (std::is_pointer<MpiComm>::value)
      return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(comm));
    else
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(comm));
  }
  std::uint64_t value_;
};

/// Runs `work` on every rank of `comm`, then agrees: if it threw on any rank, every rank throws
/// the same xpose::Error (the lowest failing rank's code and message). A check that fails on
/// one rank cannot leave the others waiting in the next collective.
void collectively(CommHandle comm, const std::function<void()>& work);

/// MPI's life cycle, for bindings that may be the first to use MPI in a process (the Python
/// module without mpi4py): they initialize MPI themselves and finalize it at exit.
namespace mpi_runtime {
/// MPI_Init_thread(MPI_THREAD_MULTIPLE) unless MPI is initialized already; true if it did.
/// MULTIPLE lets the file transpose run its HDF5 I/O on its own thread.
bool initialize();
/// True between MPI_Init and MPI_Finalize.
bool active();
/// MPI_Finalize if MPI is active (collective: every rank calls it).
void finalize();
/// MPI_Get_library_version of the MPI xpose was built with (another binding's MPI must match).
std::string library_version();
}  // namespace mpi_runtime

}  // namespace xpose
