/// @file
/// The run summary shared by `xpose transpose` (its table and --json) and transpose_file().
#pragma once

#include <string>

#include "engine/src/transpose_job.h"
#include "xpose/file_transpose.h"

namespace xpose {

/// The summary of a run of `options`: the run's figures where `report` is given, else only
/// the status and the error.
FileTransposeSummary summarize(const TransposeOptions& options, const TransposeReport* report,
                               ExitCode status = ExitCode::Ok, const std::string& error = "");

}  // namespace xpose
