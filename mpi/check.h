/// @file
/// Checked MPI calls: a failing call becomes xpose::RuntimeFailure naming the call, the
/// file:line and MPI's own message.
#pragma once

#include <mpi.h>

#include <string>

#include "xpose/error.h"

namespace xpose::mpi {

[[noreturn]] void throw_mpi_error(int code, const char* call, const char* file, int line);

}  // namespace xpose::mpi

#define XPOSE_CHECK_MPI(call)                                                  \
  do {                                                                         \
    int xpose_mpi_rc_ = (call);                                                \
    if (xpose_mpi_rc_ != MPI_SUCCESS)                                          \
      ::xpose::mpi::throw_mpi_error(xpose_mpi_rc_, #call, __FILE__, __LINE__); \
  } while (0)
