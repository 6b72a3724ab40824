#include "io/raw_storage.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <thread>

namespace xpose::io {

namespace {

/// Runs fn(i) for i in [0, n) on up to `threads` threads, in contiguous blocks.
template <typename Fn>
void parallel_for(std::int64_t n, int threads, std::int64_t min_per_thread, Fn fn) {
  const int t = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, n / std::max<std::int64_t>(1, min_per_thread))));
  if (t <= 1) {
    for (std::int64_t i = 0; i < n; ++i) fn(i);
    return;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(t));
  for (int k = 0; k < t; ++k)
    pool.emplace_back([&, k] {
      try {
        for (std::int64_t i = n * k / t; i < n * (k + 1) / t; ++i) fn(i);
      } catch (...) {
        errors[static_cast<std::size_t>(k)] = std::current_exception();
      }
    });
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

// A mapped access that cannot be served raises SIGBUS instead of returning an error: a write
// into a file system that has run out of space, or a read of an input truncated while mapped.
// The run checks free space before it starts and the input's size before each stage; this is
// the net for what those checks cannot foresee. A fault may come on any thread of the kernel's
// pool, in the middle of a transpose, with nothing worth unwinding: so the handler reports once,
// removes the partial output and the journal, and ends the process with the I/O exit code (the
// launcher then ends the job). A SIGBUS outside the maps is not ours: the default action runs.
// Only async-signal-safe calls in the handler.
struct MappedRegion {
  std::uintptr_t begin = 0, end = 0;
  char path[4096] = {0};
};
MappedRegion g_regions[2];  // [0]: the input, [1]: the output
volatile std::sig_atomic_t g_region_armed[2] = {0, 0};
char g_remove[2][4096];
int g_fault_taken = 0;

void say(const char* text) {
  ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

extern "C" void on_sigbus(int signal, siginfo_t* info, void*) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  int region = -1;
  for (int r = 0; r < 2; ++r)
    if (g_region_armed[r] && address >= g_regions[r].begin && address < g_regions[r].end) region = r;
  if (region < 0) {
    ::signal(signal, SIG_DFL);  // returning re-runs the access, which now ends the process
    return;
  }
  if (__atomic_exchange_n(&g_fault_taken, 1, __ATOMIC_SEQ_CST) != 0)
    for (;;) ::pause();  // another thread reports and ends the process
  if (region == 0) {
    say("xpose: error: the input '");
    say(g_regions[0].path);
    say("' changed during the run (it was truncated while being read); the output is not committed\n");
  } else {
    say("xpose: error: writing the output failed (file system full?); the partial output is removed\n");
  }
  for (auto& path : g_remove)
    if (path[0]) ::unlink(path);
  ::_exit(static_cast<int>(ExitCode::IoFailure));
}

void arm_fault_guard(int region, const std::string& path, const void* map, std::size_t length) {
  g_region_armed[region] = 0;
  g_regions[region].begin = reinterpret_cast<std::uintptr_t>(map);
  g_regions[region].end = g_regions[region].begin + length;
  std::snprintf(g_regions[region].path, sizeof g_regions[region].path, "%s", path.c_str());
  g_region_armed[region] = 1;
  struct sigaction action {};
  action.sa_sigaction = on_sigbus;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, nullptr);
}

/// Whether writes through a shared map suit the file system `fs` describes.
bool map_writes(const struct statfs& fs) {
  if (const char* forced = std::getenv("XPOSE_DIRECT_WRITE")) return std::string(forced) == "mmap";
  switch (static_cast<unsigned long>(fs.f_type)) {
    case 0x01021994UL:  // tmpfs
    case 0xEF53UL:      // ext2/3/4
    case 0x58465342UL:  // xfs
    case 0x9123683EUL:  // btrfs
      return true;
    default:
      return false;  // network and parallel file systems: positioned writes
  }
}

bool map_writes(int fd) {
  struct statfs fs {};
  return ::fstatfs(fd, &fs) == 0 && map_writes(fs);
}

}  // namespace

bool RawStorage::maps_writes_in(const std::string& directory) {
  struct statfs fs {};
  return ::statfs(directory.empty() ? "." : directory.c_str(), &fs) == 0 && map_writes(fs);
}

void RawStorage::remove_on_fault(const std::string& partial_output, const std::string& journal) {
  std::snprintf(g_remove[0], sizeof g_remove[0], "%s", partial_output.c_str());
  std::snprintf(g_remove[1], sizeof g_remove[1], "%s", journal.c_str());
}

std::unique_ptr<RawStorage> RawStorage::open_input(const InputFile& input) {
  if (!input.dataset_in_named_file() || input.descriptor() < 0) return nullptr;
  const int fd = ::fcntl(input.descriptor(), F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return nullptr;
  const std::string& label = input.dataset().label();
  return map(fd, label.substr(0, label.rfind(":/")), input.dataset(), false);
}

std::unique_ptr<RawStorage> RawStorage::open_output(OutputFile& output) {
  // The temporary file was created exclusively by this run; O_NOFOLLOW in case its name has
  // been replaced by a link since.
  const int fd = ::open(output.temporary_path().c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return nullptr;
  return map(fd, output.temporary_path(), output.dataset(), true);
}

std::unique_ptr<RawStorage> RawStorage::map(int fd, const std::string& path, const Dataset& dataset, bool writable) {
  std::unique_ptr<RawStorage> raw(new RawStorage());
  raw->fd_ = fd;  // owned from here: the destructor closes it
  raw->path_ = path;
  raw->writable_ = writable;
  const auto& info = dataset.info();
  if (info.layout != Layout::Contiguous || !info.filters.empty()) return nullptr;
  hid_t dcpl = H5Dget_create_plist(dataset.id());
  if (dcpl < 0) return nullptr;
  const int external = H5Pget_external_count(dcpl);
  H5Pclose(dcpl);
  if (external != 0) return nullptr;
  const haddr_t address = H5Dget_offset(dataset.id());
  if (address == HADDR_UNDEF) {
    H5Eclear2(H5E_DEFAULT);
    return nullptr;
  }
  raw->offset_ = static_cast<std::int64_t>(address);
  raw->elem_ = info.element.size;
  raw->shape_ = info.shape;
  raw->bytes_ = element_count(info.shape) * static_cast<std::int64_t>(info.element.size);
  struct stat st {};
  if (::fstat(raw->fd_, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < raw->offset_ + raw->bytes_)
    return nullptr;  // not allocated yet (or a truncated input: HDF5 then reports it)
  if (raw->bytes_ > 0 && (!writable || map_writes(raw->fd_))) {
    const std::int64_t page = ::sysconf(_SC_PAGESIZE);
    raw->map_offset_ = raw->offset_ / page * page;
    raw->map_length_ = static_cast<std::size_t>(raw->offset_ + raw->bytes_ - raw->map_offset_);
    void* map = ::mmap(nullptr, raw->map_length_, writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED,
                       raw->fd_, raw->map_offset_);
    if (map == MAP_FAILED) {
      if (!writable) return nullptr;
    } else {
      raw->map_ = map;
      arm_fault_guard(writable ? 1 : 0, path, map, raw->map_length_);
    }
  }
  return raw;
}

void RawStorage::view_as(const Shape& shape, std::size_t elem_size) {
  const std::int64_t bytes = checked_mul(element_count(shape), static_cast<std::int64_t>(elem_size));
  if (bytes != bytes_ || shape.empty() || elem_size == 0)
    throw InternalError(cat("raw access to '", path_, "': a view of ", format_shape(shape), " x ", elem_size,
                            " B does not cover the dataset's ", bytes_, " bytes"));
  shape_ = shape;
  elem_ = elem_size;
}

RawStorage::~RawStorage() {
  if (map_) g_region_armed[writable_ ? 1 : 0] = 0;
  if (map_) ::munmap(map_, map_length_);
  if (fd_ >= 0) ::close(fd_);
}

std::vector<RawStorage::Run> RawStorage::runs(const std::vector<Box>& input) const {
  std::vector<Run> out;
  if (input.empty()) return out;
  const std::size_t rank = shape_.size();
  std::vector<Box> boxes;
  for (const auto& b : input)
    if (element_count(b.count) > 0) boxes.push_back(b);  // empty boxes select nothing
  if (boxes.empty()) return out;
  std::sort(boxes.begin(), boxes.end(), [](const Box& a, const Box& b) { return a.start.back() < b.start.back(); });
  for (const auto& b : boxes) {
    if (b.start.size() != rank || b.count.size() != rank)
      throw IoError(cat("raw access to '", path_, "': a box of rank ", b.start.size(), " for a dataset of rank ", rank));
    for (std::size_t d = 0; d < rank; ++d)
      if (b.start[d] < 0 || b.count[d] < 0 || b.start[d] + b.count[d] > shape_[d])
        throw IoError(cat("raw access to '", path_, "': box outside the dataset ", format_shape(shape_)));
    for (std::size_t d = 0; d + 1 < rank; ++d)
      if (b.start[d] != boxes[0].start[d] || b.count[d] != boxes[0].count[d])
        throw IoError(cat("raw access to '", path_, "': boxes must differ only in their last axis"));
  }
  for (std::size_t i = 1; i < boxes.size(); ++i)
    if (boxes[i].start.back() < boxes[i - 1].start.back() + boxes[i - 1].count.back())
      throw IoError(cat("raw access to '", path_, "': overlapping boxes"));
  std::int64_t row_elems = 0;  // elements of one row of the union
  for (const auto& b : boxes) row_elems += b.count.back();
  if (row_elems == 0) return out;
  std::int64_t rows = 1;
  for (std::size_t d = 0; d + 1 < rank; ++d) rows *= boxes[0].count[d];
  const auto s = static_cast<std::int64_t>(elem_);
  out.reserve(static_cast<std::size_t>(rows * static_cast<std::int64_t>(boxes.size())));
  std::vector<std::int64_t> index(rank - 1, 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    // Linear element offset of this row's first element (column 0) in the dataset.
    std::int64_t linear = 0;
    for (std::size_t d = 0; d + 1 < rank; ++d) linear = linear * shape_[d] + boxes[0].start[d] + index[d];
    linear *= shape_.back();
    std::int64_t mem = r * row_elems;
    for (const auto& b : boxes) {
      if (b.count.back() == 0) continue;
      Run run{offset_ + (linear + b.start.back()) * s, mem * s, b.count.back() * s};
      // Adjacent in the file and in memory: one run (whole rows merge into bands).
      if (!out.empty() && out.back().file + out.back().bytes == run.file && out.back().memory + out.back().bytes == run.memory)
        out.back().bytes += run.bytes;
      else
        out.push_back(run);
      mem += b.count.back();
    }
    for (std::size_t d = rank - 1; d-- > 0;) {  // next row index, last axis fastest
      if (++index[d] < boxes[0].count[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

std::byte* RawStorage::address(const Shape& index) const {
  if (!map_) return nullptr;
  std::int64_t linear = 0;
  for (std::size_t d = 0; d < shape_.size(); ++d) linear = linear * shape_[d] + (d < index.size() ? index[d] : 0);
  return static_cast<std::byte*>(map_) + (offset_ - map_offset_) + linear * static_cast<std::int64_t>(elem_);
}

void RawStorage::mark_written(const std::vector<Box>& boxes) {
  for (const Run& r : runs(boxes)) {
    dirty_begin_ = dirty_begin_ < 0 ? r.file : std::min(dirty_begin_, r.file);
    dirty_end_ = std::max(dirty_end_, r.file + r.bytes);
  }
}

std::pair<std::int64_t, std::int64_t> RawStorage::mapped_span(const std::vector<Box>& boxes) const {
  std::int64_t lo = -1, hi = -1;
  for (const Run& r : runs(boxes)) {
    lo = lo < 0 ? r.file : std::min(lo, r.file);
    hi = std::max(hi, r.file + r.bytes);
  }
  if (!map_ || lo < 0) return {0, 0};
  const std::int64_t page = ::sysconf(_SC_PAGESIZE);
  lo = std::max(map_offset_, lo / page * page);
  hi = std::min(map_offset_ + static_cast<std::int64_t>(map_length_), (hi + page - 1) / page * page);
  return {lo - map_offset_, std::max<std::int64_t>(0, hi - lo)};
}

void RawStorage::populate(const std::vector<Box>& boxes, bool for_writing, int threads) const {
#if defined(MADV_POPULATE_READ) && defined(MADV_POPULATE_WRITE)
  const auto [offset, length] = mapped_span(boxes);
  if (length <= 0) return;
  constexpr std::int64_t kChunk = 16ll << 20;  // whole pages (and huge pages) per call
  const std::int64_t chunks = (length + kChunk - 1) / kChunk;
  parallel_for(chunks, threads, 1, [&](std::int64_t i) {
    const std::int64_t begin = offset + i * kChunk;
    ::madvise(static_cast<std::byte*>(map_) + begin, static_cast<std::size_t>(std::min(kChunk, offset + length - begin)),
              for_writing ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
  });
#else
  (void)boxes;
  (void)for_writing;
  (void)threads;
#endif
}

void RawStorage::release(const std::vector<Box>& boxes) const {
  const auto [offset, length] = mapped_span(boxes);
  // Advisory: if it fails the pages merely stay mapped.
  if (length > 0) ::madvise(static_cast<std::byte*>(map_) + offset, static_cast<std::size_t>(length), MADV_DONTNEED);
}

void RawStorage::read(const std::vector<Box>& boxes, void* buffer, int threads, bool bounded) const {
  if (writable_ || !map_) throw InternalError(cat("raw storage of '", path_, "' was opened for reading"));
  const auto all = runs(boxes);
  auto* dst = static_cast<std::byte*>(buffer);
  if (bounded) {
    // Positioned reads: the file's pages are copied from the page cache and never mapped, so
    // none of them joins the resident set. (Mapping a stage's pieces and letting them go again
    // costs a page fault per piece and stage, and fault-around maps whole neighbourhoods: a
    // 32 GiB run spent 26 s of 37 s mapping pages again.) Each run is a piece of one row.
    parallel_for(static_cast<std::int64_t>(all.size()), threads, 64, [&](std::int64_t i) {
      const Run& r = all[static_cast<std::size_t>(i)];
      std::int64_t done = 0;
      while (done < r.bytes) {
        ssize_t n = ::pread(fd_, dst + r.memory + done, static_cast<std::size_t>(r.bytes - done), r.file + done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
          throw IoError(cat("cannot read '", path_, "' at offset ", r.file + done, ": ",
                            n < 0 ? std::strerror(errno) : "unexpected end of file (truncated?)"));
        done += n;
      }
    });
    return;
  }
  const auto* base = static_cast<const std::byte*>(map_) + (offset_ - map_offset_) - offset_;
  // Each run is small (a piece of one row); give each thread many.
  parallel_for(static_cast<std::int64_t>(all.size()), threads, 256, [&](std::int64_t i) {
    const Run& r = all[static_cast<std::size_t>(i)];
    std::memcpy(dst + r.memory, base + r.file, static_cast<std::size_t>(r.bytes));
  });
}

void RawStorage::write(const std::vector<Box>& boxes, const void* buffer, int threads) {
  if (!writable_) throw InternalError(cat("raw storage of '", path_, "' was opened for reading"));
  // Split long runs (whole bands) into pieces so several threads write at once.
  const std::int64_t piece = map_ ? (4ll << 20) : (16ll << 20);
  std::vector<Run> pieces;
  for (const Run& r : runs(boxes))
    for (std::int64_t o = 0; o < r.bytes; o += piece)
      pieces.push_back({r.file + o, r.memory + o, std::min(piece, r.bytes - o)});
  for (const Run& r : pieces) {
    dirty_begin_ = dirty_begin_ < 0 ? r.file : std::min(dirty_begin_, r.file);
    dirty_end_ = std::max(dirty_end_, r.file + r.bytes);
  }
  const auto* src = static_cast<const std::byte*>(buffer);
  if (map_) {
    auto* base = static_cast<std::byte*>(map_) - map_offset_;
    parallel_for(static_cast<std::int64_t>(pieces.size()), threads, 1, [&](std::int64_t i) {
      const Run& r = pieces[static_cast<std::size_t>(i)];
      std::memcpy(base + r.file, src + r.memory, static_cast<std::size_t>(r.bytes));
    });
    return;
  }
  parallel_for(static_cast<std::int64_t>(pieces.size()), threads, 1, [&](std::int64_t i) {
    const Run& r = pieces[static_cast<std::size_t>(i)];
    std::int64_t done = 0;
    while (done < r.bytes) {
      ssize_t n = ::pwrite(fd_, src + r.memory + done, static_cast<std::size_t>(r.bytes - done), r.file + done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw IoError(cat("cannot write '", path_, "' at offset ", r.file + done, ": ",
                          n < 0 ? std::strerror(errno) : "no progress (disk full?)"));
      done += n;
    }
  });
}

void RawStorage::start_writeback() {
  if (!writable_ || dirty_begin_ < 0) return;
  // Advisory: a failure here shows up again at sync().
  ::sync_file_range(fd_, dirty_begin_, dirty_end_ - dirty_begin_, SYNC_FILE_RANGE_WRITE);
}

void RawStorage::sync() {
  if (!writable_) return;
  if (map_ && dirty_begin_ >= 0) {
    const std::int64_t page = ::sysconf(_SC_PAGESIZE);
    const std::int64_t begin = dirty_begin_ / page * page;
    auto* base = static_cast<std::byte*>(map_) - map_offset_;
    // A full disk shows up here for mapped writes (or as SIGBUS on a sparse file system that
    // cannot allocate: outputs are allocated before the first write, see OutputFile::create).
    if (::msync(base + begin, static_cast<std::size_t>(dirty_end_ - begin), MS_SYNC) != 0)
      throw IoError(cat("cannot write '", path_, "': ", std::strerror(errno)));
  }
  dirty_begin_ = dirty_end_ = -1;
  if (::fdatasync(fd_) != 0 && errno != EINVAL && errno != EROFS)
    throw IoError(cat("cannot sync '", path_, "': ", std::strerror(errno)));
}

}  // namespace xpose::io
