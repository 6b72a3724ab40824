/// @file
/// The resume journal: beside the output, `.NAME.xpose-journal` records how many stages of the
/// temporary output `.NAME.xpose-partial` are complete and durable, together with what the run
/// was (input identity, plan, options), so `--resume` continues exactly that run or refuses.
///
/// The journal is also the run's lock: rank 0 creates it (exclusively, never through a symbolic
/// link) or opens it before anything else of the output is touched, and holds an advisory lock
/// on it for the whole run, so a second run on the same output is refused at once. The kernel
/// drops the lock when the process dies, so `--resume` after a killed job still works.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "xpose/types.h"

namespace xpose {

/// Everything that must match for a resumed run to write the same bytes as the first one.
struct RunIdentity {
  std::string input;                ///< resolved input file path and dataset
  std::int64_t input_bytes = 0;     ///< input file size
  std::int64_t input_mtime_ns = 0;  ///< input file modification time
  std::string output;               ///< output file path (as resolved) and dataset
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
  std::string owner;  ///< "pid P on host H" of the run that wrote it (not part of the identity)

  /// "<dir>/.<name>.xpose-journal" for an output file "<dir>/<name>".
  static std::string path_for(const std::string& output_file);
  /// The text of a journal, with its checksum line.
  std::string text() const;
  /// Reads a journal's text. ResumeRefusedError if it is damaged (torn, edited, empty);
  /// std::nullopt if it is not an xpose journal at all.
  static std::optional<Journal> parse(const std::string& text, const std::string& path);
};

/// The journal file of one output, open and locked by this process (rank 0) for a run.
class JournalFile {
 public:
  /// Opens the journal at `path`, creating it when there is none, and locks it. A journal that
  /// was there is read (previous(), damage()). OutputRefusedError when another process holds the
  /// lock ("another xpose run is writing OUT: pid P on host H"), when the name is a symbolic link
  /// or not a regular file, or when the file there is not an xpose journal. Where the file system
  /// has no locks, a warning says so and the run goes on unlocked.
  static JournalFile acquire(const std::string& path, const std::string& output);
  JournalFile() = default;
  JournalFile(JournalFile&& other) noexcept;
  JournalFile& operator=(JournalFile&& other) noexcept;
  JournalFile(const JournalFile&) = delete;
  JournalFile& operator=(const JournalFile&) = delete;
  ~JournalFile();  ///< closes, which releases the lock; the file stays

  bool held() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }
  /// No journal was there: this run created the file.
  bool created() const { return created_; }
  /// The journal that was there, when it could be read.
  const std::optional<Journal>& previous() const { return previous_; }
  /// Why the journal that was there cannot be trusted (torn, edited, empty); empty if it can.
  const std::string& damage() const { return damage_; }

  /// Rewrites the journal in place (one write at offset 0, fsync), as this process's: it never
  /// recreates the file, so a journal that a failing rank has just removed stays removed (false
  /// then), and a process killed mid-write leaves a torn journal that the checksum exposes.
  bool write(Journal journal);
  /// Removes the journal while still holding its lock, then closes it. Never throws.
  void remove() noexcept;

 private:
  int fd_ = -1;
  std::string path_;
  bool created_ = false;
  std::optional<Journal> previous_;
  std::string damage_;
};

}  // namespace xpose
