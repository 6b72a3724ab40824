/// @file
/// Whole files, as NCO's ncpdq reorders them: `xpose transpose in.nc out.nc --axes lat,lon,time`
/// reorders every variable that has some of the named dimensions (a variable with a subset gets
/// those in the given order, in the positions they hold; axes.h), and copies everything else:
/// the other variables, the dimensions and coordinate variables, groups, attributes.
///
/// Each reordered variable is one run of the engine (run_transpose, resumable on its own) into a
/// file of its own beside the output (`.NAME.xpose-var<k>`); the largest one's file then becomes
/// the output: rank 0 adds the rest to it (the other reordered variables and the copied objects,
/// with HDF5's object copy), rebuilds the dimension scales for all of them, and renames it into
/// place. So the largest variable is written once; the others are written twice.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "engine/src/transpose_job.h"

namespace xpose {

struct WholeFileReport {
  std::vector<std::string> reordered;  ///< "/tas (time,lat,lon) -> (lat,lon,time)"
  std::vector<std::string> copied;     ///< paths of the variables copied unchanged
  std::int64_t bytes = 0;              ///< bytes of the reordered variables
  double wall = 0;                     ///< seconds, the whole job
};

/// Whether command-line operands name whole files (no ":/dataset" part).
bool names_whole_file(const std::string& operand);

/// Runs a whole-file reorder: `options.in.file` into `options.out.file` (their paths unused),
/// `options.axes` dimension names. Collective. Errors found before any work throw on every rank;
/// the per-variable runs end the job on a failure in their stage loops, as run_transpose does.
WholeFileReport run_whole_file(MPI_Comm comm, const TransposeOptions& options);

/// What a whole-file run would do, one line per object (for `xpose plan`). Collective.
std::string plan_whole_file(MPI_Comm comm, const TransposeOptions& options);

}  // namespace xpose
