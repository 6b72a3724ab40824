/// @file
/// Direct access to the raw bytes of a contiguous, unfiltered HDF5 dataset. HDF5 keeps the file's
/// metadata; the data, which such a dataset stores row-major at one file offset, is read through
/// a read-only memory map and written, from several threads, through a shared writable map on
/// local file systems (tmpfs, ext4, xfs, btrfs: page faults run in parallel where positioned
/// writes to one file serialise on its inode lock) or with positioned writes elsewhere.
/// XPOSE_DIRECT_WRITE=mmap|pwrite overrides the choice (for measurements). A stage's
/// strided column pieces then cost memory copies instead of one system call per piece per row
/// (measured: 8 KiB pieces read through HDF5 ran at 0.7 GB/s, a plain copy at 2.7 GB/s).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/h5.h"

namespace xpose::io {

class RawStorage {
 public:
  /// Maps the input's dataset for reading, through the very file HDF5 opened (its descriptor,
  /// not its name). nullptr where the dataset is not contiguous, is filtered, uses external
  /// storage, has no allocated storage, or lives in another file than the named one (behind an
  /// external link): then HDF5 reads it.
  static std::unique_ptr<RawStorage> open_input(const InputFile& input);
  /// The same for writing the output's dataset in its temporary file (which must already hold
  /// the dataset's allocated storage).
  static std::unique_ptr<RawStorage> open_output(OutputFile& output);
  /// Whether an output written in `directory` would be written through a shared map (local file
  /// systems) rather than with positioned writes, before any output exists.
  static bool maps_writes_in(const std::string& directory);
  ~RawStorage();
  /// The files to remove when a mapped access faults (SIGBUS: the output's file system is full,
  /// or the input was truncated), since the process ends on the spot: the partial output and the
  /// journal. The message then says which of the two it was.
  static void remove_on_fault(const std::string& partial_output, const std::string& journal);
  RawStorage(const RawStorage&) = delete;
  RawStorage& operator=(const RawStorage&) = delete;

  /// Same contract as Dataset::read for boxes that share every extent but the last and do not
  /// overlap (the stage reads: one box per destination, side by side): the elements of the union
  /// in file row-major order, packed. `threads` copy in parallel. Throws IoError on a bad box.
  /// With `bounded` (inputs larger than the memory budget), the pieces are read with pread and
  /// no page of the file is mapped into the process; otherwise they are copied from the map, and
  /// the pages stay mapped, as the next stages read the same rows again.
  void read(const std::vector<Box>& boxes, void* buffer, int threads, bool bounded = false) const;
  /// The counterpart of read for writes.
  void write(const std::vector<Box>& boxes, const void* buffer, int threads);
  /// Forces written data to stable storage (fdatasync).
  void sync();
  /// Starts writing the data written since the last sync back to the file, without waiting
  /// (sync_file_range); sync() still makes it durable.
  void start_writeback();

  /// Views the same bytes as an array of `shape` with `elem_size`-byte elements (the merged axes
  /// and wide elements of an axis order): boxes and addresses are in that shape from then on.
  /// InternalError when the byte count differs.
  void view_as(const Shape& shape, std::size_t elem_size);

  std::int64_t file_offset() const { return offset_; }
  /// The mapped address of the element at `index` (one coordinate per dimension); nullptr when
  /// the storage is not mapped (positioned writes). Kernels may read or write there directly.
  std::byte* address(const Shape& index) const;
  /// Records that `boxes` were written through address(), so sync() makes them durable.
  void mark_written(const std::vector<Box>& boxes);
  /// Maps the pages spanning `boxes` ahead of use (MADV_POPULATE_READ/WRITE where the kernel
  /// has them): one system call instead of a page fault per page, split over `threads` (a new
  /// tmpfs or sparse file allocates and zeroes every page it maps, which one thread does at a
  /// fraction of the memory bandwidth). Advisory.
  void populate(const std::vector<Box>& boxes, bool for_writing, int threads = 1) const;
  /// Drops this process's mappings of the pages spanning `boxes` (the data stays in the file and
  /// the page cache; written pages must have been synced). Without it, every page a run touched
  /// would stay mapped and count as the process's resident memory; with it, a run keeps about
  /// one stage of each file mapped, within its --host-mem budget.
  void release(const std::vector<Box>& boxes) const;
  /// "mmap" or "pwrite" for a writable storage, "mmap" for a readable one.
  const char* method() const { return map_ ? "mmap" : "pwrite"; }

 private:
  RawStorage() = default;
  static std::unique_ptr<RawStorage> map(int fd, const std::string& path, const Dataset& dataset, bool writable);
  struct Run {
    std::int64_t file, memory, bytes;  ///< byte offsets and length
  };
  std::vector<Run> runs(const std::vector<Box>& boxes) const;
  /// The whole pages of the map that `boxes` touch: (offset into the map, length); length 0 if none.
  std::pair<std::int64_t, std::int64_t> mapped_span(const std::vector<Box>& boxes) const;

  std::string path_;
  int fd_ = -1;
  bool writable_ = false;
  std::int64_t offset_ = 0;      ///< file offset of the first element
  std::int64_t bytes_ = 0;       ///< bytes of the dataset
  std::size_t elem_ = 0;
  Shape shape_;
  void* map_ = nullptr;          ///< map of [map_offset_, offset_ + bytes_)
  std::int64_t dirty_begin_ = -1, dirty_end_ = -1;  ///< file range written since the last sync
  std::size_t map_length_ = 0;
  std::int64_t map_offset_ = 0;
};

}  // namespace xpose::io
