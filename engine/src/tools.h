/// @file
/// `xpose generate` and `xpose verify`: the sample-data generator and the independent checker.
/// Verify computes its answer another way than the engine (band reads of the output rows against
/// strided column reads of the input, compared element by element), so it can catch engine bugs.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "io/h5.h"
#include "xpose/types.h"

namespace xpose {

struct GenerateOptions {
  io::DatasetRef out;
  Shape shape;                          ///< HDF5 order: leading extents are a batch
  ElementType type = ElementType::float32();
  bool force = false;                   ///< replace an existing output file
  Shape chunk;                          ///< empty: contiguous
  std::int64_t host_mem = 256ll << 20;  ///< bytes of buffer per rank
  std::uint64_t seed = 0;
  bool quiet = false;
};

/// Writes the deterministic pattern of `options.type` over `options.shape` (collective, out of
/// core, atomic: temporary name then rename).
void generate(MPI_Comm comm, const GenerateOptions& options);

/// The pattern itself: elements [first, first + count) of the flattened dataset, written to
/// `out` (count * type.size bytes). Values come from a 64-bit hash of the linear index and the
/// seed, mapped to finite values of the type (no NaN or Inf), so almost all elements differ.
void generate_pattern(const ElementType& type, std::uint64_t seed, std::int64_t first,
                      std::int64_t count, void* out);

struct VerifyOptions {
  io::DatasetRef in;
  io::DatasetRef out;
  std::int64_t sample = 0;              ///< 0: every element; else this many random elements
  std::int64_t host_mem = 256ll << 20;  ///< bytes of buffer per rank
  std::uint64_t seed = 1;
  bool quiet = false;
};

struct VerifyResult {
  std::int64_t checked = 0;     ///< elements compared, summed over ranks
  std::int64_t mismatches = 0;  ///< elements that differ, summed over ranks
  std::string first_mismatch;   ///< e.g. "out[0,5,7] != in[0,7,5]", empty if none
};

/// Checks OUT == IN^T (last two axes swapped, batch kept) bitwise on every element or on a
/// random sample. Shapes and datatypes must correspond, else VerifyMismatchError. Collective; all
/// ranks return the same result.
VerifyResult verify(MPI_Comm comm, const VerifyOptions& options);

}  // namespace xpose
