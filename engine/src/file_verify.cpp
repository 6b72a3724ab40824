#include "xpose/file_verify.h"

#include <mpi.h>

#include "engine/src/tools.h"

namespace xpose {

FileVerifyResult verify_file(const FileVerifyOptions& options, CommHandle comm) {
  VerifyOptions o;
  o.in = io::DatasetRef::parse(options.input);
  o.out = io::DatasetRef::parse(options.output);
  o.sample = options.sample;
  if (options.host_mem != 0) o.host_mem = options.host_mem;  // else the engine's default
  o.seed = options.seed;
  o.quiet = true;
  const VerifyResult r = verify(comm.get<MPI_Comm>(), o);
  FileVerifyResult result;
  result.checked = r.checked;
  result.mismatches = r.mismatches;
  result.first_mismatch = r.first_mismatch;
  return result;
}

}  // namespace xpose
