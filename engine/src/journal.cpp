#include "engine/src/journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "xpose/error.h"

namespace xpose {

namespace {

const char* kMagic = "xpose-journal 1";

std::map<std::string, std::string> fields(const RunIdentity& id) {
  return {{"input", id.input},
          {"input_bytes", std::to_string(id.input_bytes)},
          {"input_mtime_ns", std::to_string(id.input_mtime_ns)},
          {"output", id.output},
          {"shape", format_shape(id.shape)},
          {"element_size", std::to_string(id.element_size)},
          {"datatype", id.datatype},
          {"ranks", std::to_string(id.ranks)},
          {"stages", std::to_string(id.stages)},
          {"stage_width", std::to_string(id.stage_width)},
          {"matrices_per_stage", std::to_string(id.matrices_per_stage)},
          {"chunk", id.chunk.empty() ? "contiguous" : format_shape(id.chunk)},
          {"axes", id.axes.empty() ? "default" : id.axes},
          {"compression", id.compression.empty() ? "none" : id.compression}};
}

const std::map<std::string, std::string> kFieldNames = {
    {"input", "input"},
    {"input_bytes", "input file size"},
    {"input_mtime_ns", "input modification time"},
    {"output", "output"},
    {"shape", "input shape"},
    {"element_size", "element size"},
    {"datatype", "datatype"},
    {"ranks", "rank count"},
    {"stages", "stage count"},
    {"stage_width", "stage width (set by --host-mem/--gpu-mem and the backend)"},
    {"matrices_per_stage", "matrices per stage"},
    {"chunk", "output chunking"},
    {"axes", "axis order (--axes)"},
    {"compression", "output compression"}};

// FNV-1a over the journal's text before its check line: a torn or edited journal is refused.
std::string checksum(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

/// A shape as format_shape writes it; extents may be 0 (an empty dataset).
Shape parse_shape_allowing_zero(const std::string& text) {
  Shape shape;
  std::istringstream in(text);
  std::string part;
  while (std::getline(in, part, 'x')) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError(cat("bad shape '", text, "'"));
    shape.push_back(std::stoll(part));
  }
  return shape;
}

/// "pid P on host H": what a second run is told about the one that holds the lock.
std::string this_process() {
  char host[256] = {0};
  if (::gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "?");
  return cat("pid ", static_cast<long long>(::getpid()), " on host ", host);
}

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  for (off_t at = 0;;) {
    ssize_t n = ::pread(fd, buffer, sizeof buffer, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    at += n;
    if (text.size() > (1 << 20)) break;  // a journal is a few hundred bytes
  }
  return text;
}

/// The owner line of a journal's text, checksum or not (for the message to a second run).
std::string owner_in(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("owner=", 0) == 0) return line.substr(6);
  return "";
}

}  // namespace

std::string RunIdentity::difference(const RunIdentity& now) const {
  auto then_fields = fields(*this), now_fields = fields(now);
  // Report in a useful order: what the user most likely changed first.
  for (const char* key :
       {"input", "output", "input_bytes", "input_mtime_ns", "shape", "datatype", "element_size",
        "axes", "ranks", "chunk", "compression", "stage_width", "matrices_per_stage", "stages"}) {
    if (then_fields[key] != now_fields[key])
      return cat(kFieldNames.at(key), ": '", then_fields[key], "' in the journal, '",
                 now_fields[key], "' now");
  }
  return "";
}

std::string Journal::path_for(const std::string& output_file) {
  auto slash = output_file.rfind('/');
  std::string dir = slash == std::string::npos ? "" : output_file.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? output_file : output_file.substr(slash + 1);
  return dir + "." + base + ".xpose-journal";
}

std::string Journal::text() const {
  std::ostringstream os;
  os << kMagic << "\n";
  for (const auto& [key, value] : fields(identity)) os << key << "=" << value << "\n";
  os << "stages_done=" << stages_done << "\n";
  if (!owner.empty()) os << "owner=" << owner << "\n";
  std::string body = os.str();
  return body + "check=" + checksum(body) + "\n";
}

std::optional<Journal> Journal::parse(const std::string& text, const std::string& path) {
  if (text.empty())
    throw ResumeRefusedError(cat("the journal '", path,
                                 "' is empty (a run was stopped as it started); "
                                 "run without --resume to start over"));
  std::istringstream f(text);
  std::string line;
  if (!std::getline(f, line) || line != kMagic) return std::nullopt;
  std::map<std::string, std::string> kv;
  std::string body = line + "\n";
  while (std::getline(f, line)) {
    auto eq = line.find('=');
    if (eq != std::string::npos && line.compare(0, eq, "check") == 0) {
      if (line.substr(eq + 1) != checksum(body))
        throw ResumeRefusedError(
            cat("the journal '", path,
                "' is damaged (its checksum does not match); run without --resume to start over"));
      kv["check"] = line.substr(eq + 1);
      break;
    }
    body += line + "\n";
    if (eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 1);
  }
  if (kv.count("check") == 0)
    throw ResumeRefusedError(
        cat("the journal '", path,
            "' is damaged (no checksum line); run without --resume to start over"));
  Journal j;
  try {
    auto& id = j.identity;
    id.input = kv.at("input");
    id.input_bytes = std::stoll(kv.at("input_bytes"));
    id.input_mtime_ns = std::stoll(kv.at("input_mtime_ns"));
    id.output = kv.at("output");
    id.shape = parse_shape_allowing_zero(kv.at("shape"));
    id.element_size = std::stoll(kv.at("element_size"));
    id.datatype = kv.at("datatype");
    id.ranks = std::stoi(kv.at("ranks"));
    id.stages = std::stoll(kv.at("stages"));
    id.stage_width = std::stoll(kv.at("stage_width"));
    id.matrices_per_stage = std::stoll(kv.at("matrices_per_stage"));
    if (kv.at("chunk") != "contiguous") id.chunk = parse_shape(kv.at("chunk"));
    // Journals of runs before axis orders and compression name neither: the defaults.
    if (kv.count("axes") && kv.at("axes") != "default") id.axes = kv.at("axes");
    if (kv.count("compression") && kv.at("compression") != "none") id.compression = kv.at("compression");
    j.stages_done = std::stoll(kv.at("stages_done"));
    if (kv.count("owner")) j.owner = kv.at("owner");
  } catch (const std::exception& e) {
    throw ResumeRefusedError(cat("the journal '", path, "' is damaged (", e.what(),
                                 "); run without --resume to start over"));
  }
  return j;
}

JournalFile JournalFile::acquire(const std::string& path, const std::string& output) {
  for (int attempt = 0; attempt < 10; ++attempt) {
    bool created = false;
    // O_NOFOLLOW: a symbolic link planted at the name is refused, not written through.
    int fd = ::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0 && errno == ENOENT) {
      fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
      if (fd < 0 && errno == EEXIST) continue;  // another run created it just now: open that one
      created = fd >= 0;
    }
    if (fd < 0) {
      const int err = errno;
      if (err == ELOOP)
        throw OutputRefusedError(
            cat("'", path,
                "' is a symbolic link, which xpose did not create and will not write "
                "through: remove it"));
      throw OutputRefusedError(cat("cannot open the journal '", path, "': ", std::strerror(err)));
    }
    JournalFile j;
    j.fd_ = fd;
    j.path_ = path;
    struct stat st {};
    if (::fstat(fd, &st) != 0)
      throw IoError(cat("cannot inspect the journal '", path, "': ", std::strerror(errno)));
    if (!S_ISREG(st.st_mode))
      throw OutputRefusedError(
          cat("'", path, "' is not a regular file, and xpose did not create it: remove it"));
    // One lock per open file (OFD): a second run, on this node or another (NFS, Lustre with
    // locks), gets EAGAIN at once; nothing waits.
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    int rc = ::fcntl(fd, F_OFD_SETLK, &lock);
    if (rc != 0 && errno == EINVAL) rc = ::fcntl(fd, F_SETLK, &lock);  // a kernel without OFD locks
    if (rc != 0) {
      const int err = errno;
      if (err == EAGAIN || err == EACCES) {
        const std::string owner = owner_in(read_all(fd));
        throw OutputRefusedError(
            cat("another xpose run is writing '", output,
                "': ", owner.empty() ? "its pid and host are not recorded yet" : owner,
                " (it holds the lock on '", path, "')"));
      }
      if (err != ENOLCK && err != EOPNOTSUPP && err != ENOSYS && err != EINVAL)
        throw IoError(cat("cannot lock the journal '", path, "': ", std::strerror(err)));
      std::fprintf(stderr,
                   "xpose: warning: the file system of '%s' offers no file locks (%s): a second "
                   "run on the same "
                   "output would not be refused\n",
                   path.c_str(), std::strerror(err));
    }
    // The name must still lead to the file now locked: a run that finished in between has
    // removed it (and a new one may have been created): start again.
    struct stat now {};
    if (::lstat(path.c_str(), &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino)
      continue;
    j.created_ = created;
    if (!created) {
      try {
        j.previous_ = Journal::parse(read_all(fd), path);
        if (!j.previous_)
          throw OutputRefusedError(
              cat("'", path, "' is not an xpose journal, and xpose did not create it: remove it"));
      } catch (const ResumeRefusedError& e) {
        j.damage_ = e.what();
      }
    }
    return j;
  }
  throw IoError(cat("cannot lock the journal '", path, "': it keeps being replaced"));
}

JournalFile::JournalFile(JournalFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      path_(std::move(other.path_)),
      created_(other.created_),
      previous_(std::move(other.previous_)),
      damage_(std::move(other.damage_)) {}

JournalFile& JournalFile::operator=(JournalFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    created_ = other.created_;
    previous_ = std::move(other.previous_);
    damage_ = std::move(other.damage_);
  }
  return *this;
}

JournalFile::~JournalFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool JournalFile::write(Journal journal) {
  if (fd_ < 0) throw InternalError(cat("the journal '", path_, "' is not held"));
  journal.owner = this_process();
  const std::string text = journal.text();
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && st.st_nlink == 0)
    return false;  // removed by a failing rank (or by hand)
  bool ok = ::pwrite(fd_, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size());
  ok = ok && ::ftruncate(fd_, static_cast<off_t>(text.size())) == 0;
  ok = ok && ::fsync(fd_) == 0;
  if (!ok) throw IoError(cat("cannot write the journal '", path_, "': ", std::strerror(errno)));
  return true;
}

void JournalFile::remove() noexcept {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());  // while the lock is held: no second run can have taken this file
  ::close(fd_);
  fd_ = -1;
}

}  // namespace xpose
