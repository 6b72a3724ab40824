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
    {"input", "input"},           {"input_bytes", "input file size"},
    {"input_mtime_ns", "input modification time"},
    {"output", "output"},         {"shape", "input shape"},
    {"element_size", "element size"}, {"datatype", "datatype"},
    {"ranks", "rank count"},      {"stages", "stage count"},
    {"stage_width", "stage width (set by --host-mem/--gpu-mem and the backend)"},
    {"matrices_per_stage", "matrices per stage"}, {"chunk", "output chunking"},
    {"axes", "axis order (--axes)"}, {"compression", "output compression"}};

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

std::string journal_text(const Journal& j) {
  std::ostringstream os;
  os << kMagic << "\n";
  for (const auto& [key, value] : fields(j.identity)) os << key << "=" << value << "\n";
  os << "stages_done=" << j.stages_done << "\n";
  std::string text = os.str();
  return text + "check=" + checksum(text) + "\n";
}

}  // namespace

std::string RunIdentity::difference(const RunIdentity& now) const {
  auto then_fields = fields(*this), now_fields = fields(now);
  // Report in a useful order: what the user most likely changed first.
  for (const char* key : {"input", "output", "input_bytes", "input_mtime_ns", "shape", "datatype", "element_size",
                          "axes", "ranks", "chunk", "compression", "stage_width", "matrices_per_stage", "stages"}) {
    if (then_fields[key] != now_fields[key])
      return cat(kFieldNames.at(key), ": '", then_fields[key], "' in the journal, '", now_fields[key], "' now");
  }
  return "";
}

std::string Journal::path_for(const std::string& output_file) {
  auto slash = output_file.rfind('/');
  std::string dir = slash == std::string::npos ? "" : output_file.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? output_file : output_file.substr(slash + 1);
  return dir + "." + base + ".xpose-journal";
}

std::optional<Journal> Journal::load(const std::string& path) {
  std::ifstream f(path);
  if (!f) {
    if (errno == ENOENT) return std::nullopt;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    throw ResumeRefusedError(cat("cannot read the journal '", path, "': ", std::strerror(errno)));
  }
  std::string line;
  if (!std::getline(f, line) || line != kMagic)
    throw ResumeRefusedError(cat("'", path, "' is not an xpose journal (remove it to start over)"));
  std::map<std::string, std::string> kv;
  std::string body = line + "\n";
  while (std::getline(f, line)) {
    auto eq = line.find('=');
    if (eq != std::string::npos && line.compare(0, eq, "check") == 0) {
      if (line.substr(eq + 1) != checksum(body))
        throw ResumeRefusedError(
            cat("the journal '", path, "' is damaged (its checksum does not match); remove it to start over"));
      kv["check"] = line.substr(eq + 1);
      break;
    }
    body += line + "\n";
    if (eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 1);
  }
  if (kv.count("check") == 0)
    throw ResumeRefusedError(cat("the journal '", path, "' is damaged (no checksum line); remove it to start over"));
  Journal j;
  try {
    auto& id = j.identity;
    id.input = kv.at("input");
    id.input_bytes = std::stoll(kv.at("input_bytes"));
    id.input_mtime_ns = std::stoll(kv.at("input_mtime_ns"));
    id.output = kv.at("output");
    id.shape = parse_shape(kv.at("shape"));
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
  } catch (const std::exception& e) {
    throw ResumeRefusedError(cat("the journal '", path, "' is damaged (", e.what(), "); remove it to start over"));
  }
  return j;
}

void Journal::save(const std::string& path) const {
  const std::string text = journal_text(*this);
  const std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw IoError(cat("cannot write the journal '", tmp, "': ", std::strerror(errno)));
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ok = ::fsync(fd) == 0 && ok;
  ok = ::close(fd) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    std::remove(tmp.c_str());
    throw IoError(cat("cannot write the journal '", path, "': ", std::strerror(err)));
  }
}

bool Journal::update(const std::string& path) const {
  const std::string text = journal_text(*this);
  int fd = ::open(path.c_str(), O_WRONLY);
  if (fd < 0) {
    if (errno == ENOENT) return false;  // removed by a failing rank (or by hand): not recreated
    throw IoError(cat("cannot write the journal '", path, "': ", std::strerror(errno)));
  }
  bool ok = ::pwrite(fd, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size());
  ok = ok && ::ftruncate(fd, static_cast<off_t>(text.size())) == 0;
  ok = ok && ::fsync(fd) == 0;
  int err = errno;
  ok = ::close(fd) == 0 && ok;
  if (!ok) throw IoError(cat("cannot write the journal '", path, "': ", std::strerror(err ? err : errno)));
  return true;
}

}  // namespace xpose
