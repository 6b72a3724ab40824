/// @file
/// The resume journal: beside the output, `.NAME.xpose-journal` records how many stages of the
/// temporary output `.NAME.xpose-partial` are complete and durable, together with what the run
/// was (input identity, plan, options), so `--resume` continues exactly that run or refuses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "xpose/types.h"

namespace xpose {

/// Everything that must match for a resumed run to write the same bytes as the first one.
struct RunIdentity {
  std::string input;               ///< resolved input file path and dataset
  std::int64_t input_bytes = 0;    ///< input file size
  std::int64_t input_mtime_ns = 0; ///< input file modification time
  std::string output;              ///< output file path (as resolved) and dataset
  Shape shape;
  std::int64_t element_size = 0;
  std::string datatype;
  int ranks = 0;
  std::int64_t stages = 0;
  std::int64_t stage_width = 0;
  std::int64_t matrices_per_stage = 0;
  Shape chunk;
  std::string axes;         ///< the axis order ("1,2,0"); "" for the default (the last two swapped)
  std::string compression;  ///< "gzip:4"; "" for none

  /// The first field that differs, as "input size: 123 in the journal, 456 now"; empty if none.
  std::string difference(const RunIdentity& now) const;
};

struct Journal {
  RunIdentity identity;
  std::int64_t stages_done = 0;

  /// "<dir>/.<name>.xpose-journal" for an output file "<dir>/<name>".
  static std::string path_for(const std::string& output_file);
  /// Reads a journal; std::nullopt if there is none; ResumeRefusedError if it is unreadable.
  static std::optional<Journal> load(const std::string& path);
  /// Creates or replaces the journal atomically (temporary file, fsync, rename), so a crash
  /// leaves the old or the new one.
  void save(const std::string& path) const;
  /// Rewrites an existing journal in place (one write at offset 0, fsync). Used while stages run:
  /// it never creates the file, so a journal that a failing rank has just removed stays removed
  /// (false then), and it leaves no temporary file behind when the process is killed. A torn
  /// write is caught on load by the checksum line.
  bool update(const std::string& path) const;
};

}  // namespace xpose
