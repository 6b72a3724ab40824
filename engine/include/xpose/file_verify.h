/// @file
/// The check of `xpose verify` as a library call: is an HDF5 dataset the transpose of another
/// (the last two axes swapped, leading axes a batch), bit for bit? Both files are read
/// independently of the transpose engine (band reads of the output against strided column reads
/// of the input), so the check can catch the engine's own mistakes.
///
/// Collective over the communicator; every rank returns the same result.
///
/// @code
///   xpose::FileVerifyOptions opt;
///   opt.input = "big.h5:/fields/u";
///   opt.output = "big_T.h5:/fields/u";
///   xpose::FileVerifyResult r = xpose::verify_file(opt, MPI_COMM_WORLD);
///   if (r.mismatches > 0) std::printf("wrong: %s\n", r.first_mismatch.c_str());
/// @endcode
#pragma once

#include <cstdint>
#include <string>

#include "xpose/comm_handle.h"
#include "xpose/error.h"

namespace xpose {

/// What `xpose verify` is told on its command line, as plain fields.
struct FileVerifyOptions {
  std::string input;          ///< "FILE.h5:/path/to/dataset": the original; opened read-only
  std::string output;         ///< "FILE.h5:/path": its transpose, to check; opened read-only
  std::int64_t sample = 0;    ///< 0: every element; else this many random elements
  std::int64_t host_mem = 0;  ///< bytes of buffer per rank; 0: as `--host-mem`'s default (256 MiB)
  std::uint64_t seed = 1;     ///< seed of the random sample
};

/// What a check found (the same on every rank).
struct FileVerifyResult {
  std::int64_t checked = 0;     ///< elements compared, summed over ranks
  std::int64_t mismatches = 0;  ///< elements that differ, summed over ranks
  std::string first_mismatch;   ///< e.g. "out[0,5,7] != in[0,7,5]"; empty where none differ
};

/// Compares `options.output` with the transpose of `options.input` (collective over `comm`).
/// Differing elements are counted, not thrown; shapes or datatypes that do not correspond throw
/// VerifyMismatchError, bad options UsageError, unreadable files their typed xpose::Error.
FileVerifyResult verify_file(const FileVerifyOptions& options,
                             CommHandle comm = CommHandle::world());

}  // namespace xpose
