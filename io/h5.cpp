#include "io/h5.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <utility>

#include "mpi/comm.h"

namespace xpose::io {

namespace {

// ---- errors ---------------------------------------------------------------------------------

// HDF5 prints its error stack to stderr by default; we turn every failure into a typed error
// carrying that stack instead.
void ensure_init() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
}

std::string one_line(std::string text) {
  for (auto& c : text)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

herr_t collect_error(unsigned, const H5E_error2_t* entry, void* data) {
  auto* parts = static_cast<std::vector<std::string>*>(data);
  std::string desc = entry->desc ? one_line(entry->desc) : std::string();
  if (desc.empty()) {
    char minor[160] = {0};
    if (H5Eget_msg(entry->min_num, nullptr, minor, sizeof minor) > 0) desc = one_line(minor);
  }
  if (!desc.empty() && (parts->empty() || parts->back() != desc)) parts->push_back(desc);
  return 0;
}

/// HDF5's own account of the last failure (outermost call first, innermost reason last), then
/// clears the stack so the next failure starts clean.
std::string hdf5_message() {
  std::vector<std::string> parts;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, collect_error, &parts);
  H5Eclear2(H5E_DEFAULT);
  if (parts.empty()) return "no details from HDF5";
  // Deep stacks repeat themselves; the first two and the last three entries say what matters.
  if (parts.size() > 5) parts.erase(parts.begin() + 2, parts.end() - 3);
  std::string text;
  for (const auto& p : parts) text += (text.empty() ? "" : ": ") + p;
  return text;
}

const char* base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/// The function name in a stringified call: "H5Dread(a, b)" -> "H5Dread".
std::string call_name(const char* expr) {
  std::string s(expr);
  auto paren = s.find('(');
  return paren == std::string::npos ? s : s.substr(0, paren);
}

template <typename E, typename T>
T h5_check(T value, const char* expr, const std::string& what, const char* file, int line) {
  if (value < 0)
    throw E(cat(call_name(expr), " failed for '", what, "': ", hdf5_message(), " [",
                base_name(file), ":", line, "]"));
  return value;
}

// Checks an H5* return (negative = failure) and throws ErrorType naming the call and `what`.
#define XPOSE_H5(ErrorType, what, expr) \
  ::xpose::io::h5_check<ErrorType>((expr), #expr, (what), __FILE__, __LINE__)
// The same for calls that return a new identifier, which is then owned.
#define XPOSE_H5_ID(ErrorType, what, expr) ::xpose::io::H5Id(XPOSE_H5(ErrorType, what, expr))

std::vector<hsize_t> to_hsize(const Shape& shape) {
  return std::vector<hsize_t>(shape.begin(), shape.end());
}

// ---- datatypes ------------------------------------------------------------------------------
// The description helpers below degrade to "?" instead of throwing when HDF5 cannot answer: a
// description is never worth failing a run. Sizes, which decide what is read, are checked.

std::size_t type_size(hid_t type, const std::string& what) {
  std::size_t size = H5Tget_size(type);
  if (size == 0) throw IoError(cat("H5Tget_size failed for '", what, "': ", hdf5_message()));
  return size;
}

const char* order_name(hid_t type) {
  switch (H5Tget_order(type)) {
    case H5T_ORDER_LE:
      return "little-endian";
    case H5T_ORDER_BE:
      return "big-endian";
    case H5T_ORDER_VAX:
      return "VAX order";
    default:
      return "mixed order";
  }
}

bool is_ieee_float(hid_t type) {
  const hid_t ieee[] = {H5T_IEEE_F32LE, H5T_IEEE_F32BE, H5T_IEEE_F64LE, H5T_IEEE_F64BE};
  for (hid_t t : ieee)
    if (H5Tequal(type, t) > 0) return true;
  return false;
}

/// Two float members of one type, the second right after the first, nothing else: h5py's
/// complex layout (whatever the member names).
bool is_complex_compound(hid_t type) {
  if (H5Tget_class(type) != H5T_COMPOUND || H5Tget_nmembers(type) != 2) return false;
  H5Id a(H5Tget_member_type(type, 0)), b(H5Tget_member_type(type, 1));
  if (!a || !b) return false;
  if (H5Tget_class(a.get()) != H5T_FLOAT || H5Tequal(a.get(), b.get()) <= 0) return false;
  std::size_t part = H5Tget_size(a.get());
  return H5Tget_member_offset(type, 0) == 0 && H5Tget_member_offset(type, 1) == part &&
         H5Tget_size(type) == 2 * part;
}

std::string member_name(hid_t type, unsigned index) {
  char* name = H5Tget_member_name(type, index);
  if (!name) return "?";
  std::string s(name);
  H5free_memory(name);
  return s;
}

/// The first part of `type` that has no fixed size in the file (variable-length sequence or
/// string) or that points elsewhere in the file (reference); empty when there is none.
/// H5Tdetect_class alone is not enough: from the API it reports a variable-length string as a
/// string, not as variable-length, also inside compounds.
std::string variable_part(hid_t type) {
  switch (H5Tget_class(type)) {
    case H5T_VLEN:
      return "variable-length sequence";
    case H5T_REFERENCE:
      return "reference";
    case H5T_STRING:
      return H5Tis_variable_str(type) > 0 ? "variable-length string" : "";
    case H5T_ARRAY: {
      H5Id super(H5Tget_super(type));
      return super ? variable_part(super.get()) : "unreadable array base type";
    }
    case H5T_COMPOUND: {
      int n = H5Tget_nmembers(type);
      for (int i = 0; i < n; ++i) {
        H5Id member(H5Tget_member_type(type, static_cast<unsigned>(i)));
        if (!member) return "unreadable compound member";
        std::string part = variable_part(member.get());
        if (!part.empty()) return part + " (member '" + member_name(type, i) + "')";
      }
      return "";
    }
    default:
      break;
  }
  if (H5Tdetect_class(type, H5T_VLEN) > 0) return "variable-length part";
  if (H5Tdetect_class(type, H5T_REFERENCE) > 0) return "reference";
  return "";
}

ElementType element_of(hid_t type) {
  std::size_t size = H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      return {H5Tget_sign(type) == H5T_SGN_2 ? ElementKind::SignedInt : ElementKind::UnsignedInt,
              size};
    case H5T_FLOAT:
      return {ElementKind::Float, size};
    case H5T_COMPOUND:
      return {is_complex_compound(type) ? ElementKind::Complex : ElementKind::Other, size};
    default:
      return {ElementKind::Other, size};
  }
}

std::string describe(hid_t type, int depth) {
  std::size_t size = H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_INTEGER: {
      bool sign = H5Tget_sign(type) == H5T_SGN_2;
      std::string name = cat(sign ? "int" : "uint", size * 8);
      return size == 1 ? name : cat(name, " (", order_name(type), ")");
    }
    case H5T_FLOAT:
      return cat("float", size * 8, " (", is_ieee_float(type) ? "IEEE" : "non-IEEE", ", ",
                 order_name(type), ")");
    case H5T_COMPOUND: {
      int n = H5Tget_nmembers(type);
      if (is_complex_compound(type)) {
        H5Id part(H5Tget_member_type(type, 0));
        std::string s = cat("complex", size * 8, " (compound ", member_name(type, 0), ",",
                            member_name(type, 1));
        if (part && H5Tget_order(part.get()) == H5T_ORDER_BE) s += ", big-endian";
        return s + ")";
      }
      std::string s = cat("compound {");
      for (int i = 0; i < n; ++i) {
        if (i == 4 || depth > 2) {
          s += ", ...";
          break;
        }
        H5Id member(H5Tget_member_type(type, static_cast<unsigned>(i)));
        s += cat(i ? ", " : "", member_name(type, static_cast<unsigned>(i)), ": ",
                 member ? describe(member.get(), depth + 1) : "?");
      }
      return cat(s, "} (", size, " bytes)");
    }
    case H5T_STRING: {
      if (H5Tis_variable_str(type) > 0) return "variable-length string";
      return cat("fixed string (", size, " bytes, ",
                 H5Tget_cset(type) == H5T_CSET_UTF8 ? "UTF-8" : "ASCII", ")");
    }
    case H5T_ENUM: {
      H5Id base(H5Tget_super(type));
      return cat("enum of ", H5Tget_nmembers(type), " values (",
                 base ? describe(base.get(), depth + 1) : "?", ")");
    }
    case H5T_OPAQUE: {
      char* tag = H5Tget_tag(type);
      std::string s = cat("opaque (", size, " bytes");
      if (tag && *tag) s += cat(", tag '", tag, "'");
      if (tag) H5free_memory(tag);
      return s + ")";
    }
    case H5T_BITFIELD:
      return cat("bitfield (", size, " bytes, ", order_name(type), ")");
    case H5T_ARRAY: {
      int rank = H5Tget_array_ndims(type);
      std::string dims;
      if (rank > 0 && rank <= H5S_MAX_RANK) {
        hsize_t d[H5S_MAX_RANK];
        H5Tget_array_dims2(type, d);
        for (int i = 0; i < rank; ++i) dims += cat(i ? "x" : "", d[i]);
      }
      H5Id base(H5Tget_super(type));
      return cat("array [", dims, "] of ", base ? describe(base.get(), depth + 1) : "?");
    }
    case H5T_VLEN: {
      H5Id base(H5Tget_super(type));
      return cat("variable-length sequence of ", base ? describe(base.get(), depth + 1) : "?");
    }
    case H5T_REFERENCE:
      return "reference";
    case H5T_TIME:
      return cat("time (", size, " bytes)");
    default:
      return cat("unknown datatype (", size, " bytes)");
  }
}

/// "deflate(4)", "shuffle", "scaleoffset(2,0)": the name HDF5 records with its parameters,
/// leaving out parameters HDF5 derives itself (shuffle's and fletcher32's).
std::string filter_text(H5Z_filter_t id, const char* name, const unsigned* values,
                        std::size_t nvalues) {
  std::string base = name && *name ? name : cat("filter ", id);
  // HDF5's built-in filters record long names ("deflate", "shuffle", "fletcher32", ...).
  if (id == H5Z_FILTER_SHUFFLE) return "shuffle";
  if (id == H5Z_FILTER_FLETCHER32) return "fletcher32";
  if (id == H5Z_FILTER_DEFLATE) return cat("deflate(", nvalues ? values[0] : 0u, ")");
  if (nvalues == 0) return base;
  std::string s = base + "(";
  for (std::size_t i = 0; i < nvalues; ++i) s += cat(i ? "," : "", values[i]);
  return s + ")";
}

// ---- files and paths ------------------------------------------------------------------------

H5Id file_access_plist(MPI_Comm comm, const std::string& what) {
  auto fapl = XPOSE_H5_ID(IoError, what, H5Pcreate(H5P_FILE_ACCESS));
  // One rank: the default sec2 driver is faster and needs no MPI-IO.
  if (mpi::size(comm) > 1)
    XPOSE_H5(IoError, what, H5Pset_fapl_mpio(fapl.get(), comm, MPI_INFO_NULL));
  return fapl;
}

bool driver_is_mpio(hid_t object, const std::string& label) {
  auto file = XPOSE_H5_ID(IoError, label, H5Iget_file_id(object));
  auto fapl = XPOSE_H5_ID(IoError, label, H5Fget_access_plist(file.get()));
  hid_t driver = XPOSE_H5(IoError, label, H5Pget_driver(fapl.get()));
  return driver == H5FD_MPIO;
}

std::string directory_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string real_path(const std::string& path) {
  std::unique_ptr<char, decltype(&std::free)> resolved(realpath(path.c_str(), nullptr), &std::free);
  return resolved ? std::string(resolved.get()) : std::string();
}

/// Where `path` points once symbolic links and "." or ".." are resolved, also when the file
/// itself does not exist yet (then its directory is resolved). Empty if the directory is missing.
std::string canonical_target(const std::string& path) {
  std::string full = real_path(path);
  if (!full.empty()) return full;
  std::string dir = real_path(directory_of(path));
  if (dir.empty()) return "";
  return (dir == "/" ? dir : dir + "/") + base_of(path);
}

const char* file_kind(mode_t mode) {
  if (S_ISREG(mode)) return "regular file";
  if (S_ISDIR(mode)) return "directory";
  if (S_ISLNK(mode)) return "symbolic link";
  if (S_ISFIFO(mode)) return "FIFO";
  if (S_ISCHR(mode)) return "character device";
  if (S_ISBLK(mode)) return "block device";
  if (S_ISSOCK(mode)) return "socket";
  return "special file";
}

FileStamp stamp_of(const struct stat& st) {
  FileStamp s;
  s.device = static_cast<std::int64_t>(st.st_dev);
  s.inode = static_cast<std::int64_t>(st.st_ino);
  s.bytes = static_cast<std::int64_t>(st.st_size);
  s.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return s;
}

/// The process's umask, read without changing it (umask() would, for every thread at once).
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

/// Local checks on an input file before HDF5 opens it, so that the common mistakes get a
/// precise class and message.
void check_input_file(const std::string& file) {
  struct stat st {};
  if (file.empty()) throw InputNotFoundError("input file name is empty");
  if (::stat(file.c_str(), &st) != 0) {
    int err = errno;
    if (err == ENOENT || err == ENOTDIR)
      throw InputNotFoundError(cat("input '", file, "': no such file"));
    throw InputUnreadableError(cat("input '", file, "': ", std::strerror(err)));
  }
  if (S_ISDIR(st.st_mode))
    throw InputUnreadableError(cat("input '", file, "': is a directory, not an HDF5 file"));
  // A FIFO would block the open forever, a device would be read without end.
  if (!S_ISREG(st.st_mode))
    throw InputUnreadableError(cat("input '", file, "': is a ", file_kind(st.st_mode), ", not a regular file"));
  if (::access(file.c_str(), R_OK) != 0)
    throw InputUnreadableError(
        cat("input '", file, "': not readable (", std::strerror(errno), ")"));
  htri_t is_hdf5 = H5Fis_hdf5(file.c_str());
  if (is_hdf5 == 0) throw InputUnreadableError(cat("input '", file, "': not an HDF5 file"));
  if (is_hdf5 < 0)
    throw InputUnreadableError(cat("input '", file, "': cannot be read as HDF5: ", hdf5_message()));
}

const char* object_type_name(H5O_type_t type) {
  switch (type) {
    case H5O_TYPE_GROUP:
      return "group";
    case H5O_TYPE_DATASET:
      return "dataset";
    case H5O_TYPE_NAMED_DATATYPE:
      return "named datatype";
    default:
      return "object of unknown type";
  }
}

/// Opens `path` in `file`, checking each level first so that a missing link, a dangling link or
/// a group in the way becomes InputNotFoundError with a message that names the culprit.
H5Id open_dataset_checked(hid_t file, const DatasetRef& ref) {
  std::vector<std::string> parts;
  std::string part;
  for (char c : ref.path + "/") {
    if (c != '/') {
      part += c;
    } else if (!part.empty()) {
      parts.push_back(part);
      part.clear();
    }
  }
  if (parts.empty())
    throw InputNotFoundError(
        cat("'", ref.path, "' in '", ref.file, "' is the root group, not a dataset"));
  std::string prefix;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    std::string parent = prefix.empty() ? "/" : prefix;
    prefix += "/" + parts[k];
    bool last = k + 1 == parts.size();
    htri_t exists = H5Lexists(file, prefix.c_str(), H5P_DEFAULT);
    if (exists < 0)
      throw InputUnreadableError(cat("'", ref.path, "' in '", ref.file, "': cannot look up '",
                                     prefix, "': ", hdf5_message()));
    if (exists == 0) {
      if (last)
        throw InputNotFoundError(cat("'", ref.path, "' in '", ref.file, "' does not exist"));
      throw InputNotFoundError(cat("'", ref.path, "' in '", ref.file, "' does not exist (no '",
                                   parts[k], "' in '", parent, "')"));
    }
    // The link may be soft or external and point nowhere.
    htri_t resolves = H5Oexists_by_name(file, prefix.c_str(), H5P_DEFAULT);
    if (resolves <= 0) {
      if (resolves < 0) H5Eclear2(H5E_DEFAULT);
      throw InputNotFoundError(
          cat("'", ref.path, "' in '", ref.file, "': '", prefix, "' is a dangling link"));
    }
    H5O_info_t info{};
    if (H5Oget_info_by_name2(file, prefix.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) < 0)
      throw InputUnreadableError(cat("'", ref.path, "' in '", ref.file, "': cannot inspect '",
                                     prefix, "': ", hdf5_message()));
    if (last && info.type != H5O_TYPE_DATASET)
      throw InputNotFoundError(cat("'", prefix, "' in '", ref.file, "' is a ",
                                   object_type_name(info.type), ", not a dataset"));
    if (!last && info.type != H5O_TYPE_GROUP)
      throw InputNotFoundError(cat("'", ref.path, "' in '", ref.file, "' does not exist ('", prefix,
                                   "' is a ", object_type_name(info.type), ", not a group)"));
  }
  hid_t id = H5Dopen2(file, prefix.c_str(), H5P_DEFAULT);
  if (id < 0)
    throw InputUnreadableError(
        cat("'", ref.path, "' in '", ref.file, "': cannot open the dataset: ", hdf5_message()));
  return H5Id(id);
}

// ---- selections -----------------------------------------------------------------------------

struct Selection {
  H5Id file_space;
  H5Id mem_space;
  std::int64_t count = 0;
};

void check_box(const Box& box, const Shape& shape, const std::string& label) {
  auto rank = shape.size();
  if (box.start.size() != rank || box.count.size() != rank)
    throw DimensionMismatch(cat("box of rank ", box.start.size(), "/", box.count.size(), " on '",
                                label, "' of rank ", rank));
  for (std::size_t d = 0; d < rank; ++d)
    if (box.start[d] < 0 || box.count[d] < 0 || box.start[d] > shape[d] - box.count[d])
      throw DimensionMismatch(cat("box start ", format_shape(box.start), " count ",
                                  format_shape(box.count), " outside '", label, "' of shape ",
                                  format_shape(shape)));
}

bool empty_box(const Box& box) {
  return std::any_of(box.count.begin(), box.count.end(), [](std::int64_t c) { return c == 0; });
}

/// The dimension along which `b` is `a` shifted by a positive step, if that is the only
/// difference between them; -1 otherwise.
int shift_dimension(const Box& a, const Box& b) {
  if (a.count != b.count) return -1;
  int dim = -1;
  for (std::size_t d = 0; d < a.start.size(); ++d) {
    if (a.start[d] == b.start[d]) continue;
    if (dim >= 0 || b.start[d] < a.start[d] + a.count[d]) return -1;  // two dims, or overlap
    dim = static_cast<int>(d);
  }
  return dim;
}

/// The union of `boxes` as a file selection. Runs of equal boxes at a constant stride along one
/// dimension (the engine's column pieces, one per destination rank) become one strided
/// hyperslab; everything else is OR-ed in box by box.
Selection select_boxes(const Dataset& ds, const std::vector<Box>& boxes) {
  const Shape& shape = ds.info().shape;
  const std::string& label = ds.label();
  std::vector<const Box*> live;
  for (const auto& box : boxes) {
    check_box(box, shape, label);
    if (!empty_box(box)) live.push_back(&box);
  }
  // In file order: runs are found among neighbours, and HDF5 1.10 has been seen to misplace
  // reads of OR-ed hyperslabs given out of order.
  std::sort(live.begin(), live.end(), [](const Box* a, const Box* b) { return a->start < b->start; });
  Selection sel;
  sel.file_space = XPOSE_H5_ID(IoError, label, H5Dget_space(ds.id()));
  const std::size_t rank = shape.size();
  bool first = true;
  for (std::size_t i = 0; i < live.size();) {
    const Box& a = *live[i];
    std::size_t run = 1;
    int dim = -1;
    std::int64_t step = 0;
    if (i + 1 < live.size() && (dim = shift_dimension(a, *live[i + 1])) >= 0) {
      step = live[i + 1]->start[dim] - a.start[dim];
      // A strided hyperslab needs a positive stride no shorter than a block; boxes in another
      // order (or overlapping) are selected one by one.
      run = step >= a.count[dim] && step > 0 ? 2 : 1;
      while (run > 1 && i + run < live.size()) {
        const Box& b = *live[i + run];
        if (shift_dimension(*live[i + run - 1], b) != dim ||
            b.start[dim] != a.start[dim] + static_cast<std::int64_t>(run) * step)
          break;
        ++run;
      }
    }
    std::vector<hsize_t> start = to_hsize(a.start), block = to_hsize(a.count);
    std::vector<hsize_t> stride(rank, 1), count(rank, 1);
    if (run > 1) {
      stride[dim] = static_cast<hsize_t>(step);
      count[dim] = run;
    }
    XPOSE_H5(IoError, label,
             H5Sselect_hyperslab(sel.file_space.get(), first ? H5S_SELECT_SET : H5S_SELECT_OR,
                                 start.data(), stride.data(), count.data(), block.data()));
    first = false;
    i += run;
  }
  if (first) XPOSE_H5(IoError, label, H5Sselect_none(sel.file_space.get()));
  hssize_t npoints = XPOSE_H5(IoError, label, H5Sget_select_npoints(sel.file_space.get()));
  sel.count = static_cast<std::int64_t>(npoints);
  hsize_t mem_dims[1] = {static_cast<hsize_t>(std::max<std::int64_t>(sel.count, 1))};
  sel.mem_space = XPOSE_H5_ID(IoError, label, H5Screate_simple(1, mem_dims, nullptr));
  if (sel.count == 0) XPOSE_H5(IoError, label, H5Sselect_none(sel.mem_space.get()));
  return sel;
}

H5Id transfer_plist(bool mpio, Transfer transfer, const std::string& label) {
  if (!mpio) return H5Id();
  auto dxpl = XPOSE_H5_ID(IoError, label, H5Pcreate(H5P_DATASET_XFER));
  XPOSE_H5(IoError, label,
           H5Pset_dxpl_mpio(dxpl.get(), transfer == Transfer::Collective ? H5FD_MPIO_COLLECTIVE
                                                                         : H5FD_MPIO_INDEPENDENT));
  return dxpl;
}

// HDF5 wants a non-null buffer whenever a file selection is given, even an empty one.
unsigned char empty_buffer[16];

bool has_variable_parts(hid_t type) {
  return !variable_part(type).empty();
}

std::int64_t next_prime(std::int64_t n) {
  auto is_prime = [](std::int64_t v) {
    if (v < 2) return false;
    for (std::int64_t d = 2; d * d <= v; ++d)
      if (v % d == 0) return false;
    return true;
  };
  while (!is_prime(n)) ++n;
  return n;
}

void remove_quietly(const std::string& path) noexcept {
  if (!path.empty()) ::unlink(path.c_str());  // ENOENT: another rank was first
}

}  // namespace

// ---- handles, references --------------------------------------------------------------------

void H5IdTraits::close(hid_t id) noexcept {
  if (id < 0) return;
  herr_t rc = 0;
  H5I_type_t type = H5Iget_type(id);
  switch (type) {
    case H5I_FILE:
      rc = H5Fclose(id);
      break;
    case H5I_DATASET:
      rc = H5Dclose(id);
      break;
    case H5I_DATASPACE:
      rc = H5Sclose(id);
      break;
    case H5I_DATATYPE:
      rc = H5Tclose(id);
      break;
    case H5I_ATTR:
      rc = H5Aclose(id);
      break;
    case H5I_GROUP:
      rc = H5Gclose(id);
      break;
    case H5I_GENPROP_LST:
      rc = H5Pclose(id);
      break;
    case H5I_BADID:
      H5Eclear2(H5E_DEFAULT);
      return;  // already closed with its file
    default:
      rc = H5Idec_ref(id) < 0 ? -1 : 0;
      break;
  }
  if (rc < 0) {
    std::string message = hdf5_message();
    std::fprintf(stderr, "xpose: warning: closing HDF5 identifier %lld failed: %s\n",
                 static_cast<long long>(id), message.c_str());
  }
}

void FdTraits::close(int fd) noexcept {
  if (fd >= 0) ::close(fd);
}

std::string FileStamp::difference(const FileStamp& now) const {
  if (device != now.device || inode != now.inode) return "it was replaced by another file";
  if (bytes != now.bytes) return cat("its size went from ", bytes, " to ", now.bytes, " bytes");
  if (mtime_ns != now.mtime_ns) return "it was modified";
  return "";
}

DatasetRef DatasetRef::parse(const std::string& text) {
  auto colon = text.rfind(":/");
  if (colon == std::string::npos || colon == 0)
    throw UsageError(cat("'", text, "' names no dataset: expected FILE:/path/to/dataset"));
  DatasetRef ref{text.substr(0, colon), text.substr(colon + 1)};
  if (ref.path.find_first_not_of('/') == std::string::npos)
    throw UsageError(cat("'", text, "' names the root group: expected FILE:/path/to/dataset"));
  return ref;
}

const char* layout_name(Layout layout) {
  switch (layout) {
    case Layout::Contiguous:
      return "contiguous";
    case Layout::Chunked:
      return "chunked";
    case Layout::Compact:
      return "compact";
    case Layout::Virtual:
      return "virtual";
  }
  return "unknown";
}

std::string describe_type(hid_t type) {
  return describe(type, 0);
}

// ---- Dataset --------------------------------------------------------------------------------

Dataset::Dataset(H5Id id, std::string label) : id_(std::move(id)), label_(std::move(label)) {
  ensure_init();
  type_ = XPOSE_H5_ID(IoError, label_, H5Dget_type(id_.get()));
  auto space = XPOSE_H5_ID(IoError, label_, H5Dget_space(id_.get()));
  int rank = XPOSE_H5(IoError, label_, H5Sget_simple_extent_ndims(space.get()));
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  XPOSE_H5(IoError, label_, H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr));
  info_.shape.assign(dims.begin(), dims.end());
  info_.element = element_of(type_.get());
  info_.element.size = type_size(type_.get(), label_);
  info_.type_description = describe_type(type_.get());

  auto dcpl = XPOSE_H5_ID(IoError, label_, H5Dget_create_plist(id_.get()));
  switch (XPOSE_H5(IoError, label_, H5Pget_layout(dcpl.get()))) {
    case H5D_CHUNKED:
      info_.layout = Layout::Chunked;
      break;
    case H5D_COMPACT:
      info_.layout = Layout::Compact;
      break;
    case H5D_VIRTUAL:
      info_.layout = Layout::Virtual;
      break;
    default:
      info_.layout = Layout::Contiguous;
      break;
  }
  if (info_.layout == Layout::Chunked) {
    std::vector<hsize_t> chunk(static_cast<std::size_t>(rank));
    XPOSE_H5(IoError, label_, H5Pget_chunk(dcpl.get(), rank, chunk.data()));
    info_.chunk.assign(chunk.begin(), chunk.end());
  }
  int nfilters = XPOSE_H5(IoError, label_, H5Pget_nfilters(dcpl.get()));
  for (int i = 0; i < nfilters; ++i) {
    unsigned flags = 0, config = 0;
    std::array<unsigned, 16> values{};
    std::size_t nvalues = values.size();
    char name[128] = {0};
    H5Z_filter_t filter =
        XPOSE_H5(IoError, label_,
                 H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags, &nvalues,
                                values.data(), sizeof name, name, &config));
    info_.filters.push_back(
        filter_text(filter, name, values.data(), std::min(nvalues, values.size())));
  }
  info_.storage_bytes = static_cast<std::int64_t>(H5Dget_storage_size(id_.get()));
  mpio_ = driver_is_mpio(id_.get(), label_);
}

void Dataset::read(const std::vector<Box>& boxes, void* buffer, Transfer transfer) const {
  Selection sel = select_boxes(*this, boxes);
  H5Id dxpl = transfer_plist(mpio_, transfer, label_);
  XPOSE_H5(IoError, label_,
           H5Dread(id_.get(), type_.get(), sel.mem_space.get(), sel.file_space.get(),
                   dxpl ? dxpl.get() : H5P_DEFAULT, buffer ? buffer : empty_buffer));
}

void Dataset::write(const std::vector<Box>& boxes, const void* buffer, Transfer transfer) {
  Selection sel = select_boxes(*this, boxes);
  H5Id dxpl = transfer_plist(mpio_, transfer, label_);
  XPOSE_H5(IoError, label_,
           H5Dwrite(id_.get(), type_.get(), sel.mem_space.get(), sel.file_space.get(),
                    dxpl ? dxpl.get() : H5P_DEFAULT, buffer ? buffer : empty_buffer));
}

void Dataset::read_points(const std::vector<std::int64_t>& coords, void* buffer) const {
  const std::size_t rank = info_.shape.size();
  if (rank == 0 || coords.size() % rank != 0)
    throw DimensionMismatch(cat(coords.size(), " point coordinates for '", label_, "' of rank ",
                                rank, ": not a whole number of points"));
  const std::size_t npoints = coords.size() / rank;
  if (npoints == 0) return;  // independent: nothing to take part in
  for (std::size_t p = 0; p < npoints; ++p)
    for (std::size_t d = 0; d < rank; ++d) {
      std::int64_t c = coords[p * rank + d];
      if (c < 0 || c >= info_.shape[d])
        throw DimensionMismatch(cat("point ", p, " coordinate ", c, " in dimension ", d,
                                    " outside '", label_, "' of shape ",
                                    format_shape(info_.shape)));
    }
  std::vector<hsize_t> points(coords.begin(), coords.end());
  auto file_space = XPOSE_H5_ID(IoError, label_, H5Dget_space(id_.get()));
  XPOSE_H5(IoError, label_,
           H5Sselect_elements(file_space.get(), H5S_SELECT_SET, npoints, points.data()));
  hsize_t mem_dims[1] = {npoints};
  auto mem_space = XPOSE_H5_ID(IoError, label_, H5Screate_simple(1, mem_dims, nullptr));
  H5Id dxpl = transfer_plist(mpio_, Transfer::Independent, label_);
  XPOSE_H5(IoError, label_,
           H5Dread(id_.get(), type_.get(), mem_space.get(), file_space.get(),
                   dxpl ? dxpl.get() : H5P_DEFAULT, buffer));
}

void Dataset::set_chunk_cache(std::int64_t bytes) {
  if (info_.layout != Layout::Chunked || !id_) return;
  if (bytes < 0) throw UsageError(cat("chunk cache of ", bytes, " bytes for '", label_, "'"));
  std::int64_t chunk_bytes = static_cast<std::int64_t>(info_.element.size);
  for (auto c : info_.chunk) chunk_bytes = checked_mul(chunk_bytes, c);
  // HDF5's advice: about 100 hash slots per chunk that fits, a prime number of them.
  std::int64_t chunks = std::max<std::int64_t>(1, bytes / std::max<std::int64_t>(chunk_bytes, 1));
  std::int64_t slots =
      next_prime(std::min<std::int64_t>(std::max<std::int64_t>(chunks * 100, 521), 16'777'216));
  auto dapl = XPOSE_H5_ID(IoError, label_, H5Pcreate(H5P_DATASET_ACCESS));
  // w0 = 1: a chunk read in full is not read again (each pass reads a new piece).
  XPOSE_H5(IoError, label_,
           H5Pset_chunk_cache(dapl.get(), static_cast<std::size_t>(slots),
                              static_cast<std::size_t>(bytes), 1.0));
  auto file = XPOSE_H5_ID(IoError, label_, H5Iget_file_id(id_.get()));
  ssize_t length = XPOSE_H5(IoError, label_, H5Iget_name(id_.get(), nullptr, 0));
  std::string name(static_cast<std::size_t>(length) + 1, '\0');
  XPOSE_H5(IoError, label_, H5Iget_name(id_.get(), name.data(), name.size()));
  name.resize(static_cast<std::size_t>(length));
  id_ = XPOSE_H5_ID(IoError, label_, H5Dopen2(file.get(), name.c_str(), dapl.get()));
}

// ---- InputFile ------------------------------------------------------------------------------

namespace {

/// Opens `path` read-only and stamps it. O_NONBLOCK: a FIFO put in the file's place after the
/// checks must not block the open (it is then refused as not a regular file).
std::pair<UniqueFd, FileStamp> open_watched(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (!fd) throw InputUnreadableError(cat("input '", path, "': cannot be opened: ", std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0)
    throw InputUnreadableError(cat("input '", path, "': cannot be inspected: ", std::strerror(errno)));
  if (!S_ISREG(st.st_mode))
    throw InputUnreadableError(cat("input '", path, "': is a ", file_kind(st.st_mode), ", not a regular file"));
  return {std::move(fd), stamp_of(st)};
}

unsigned long file_number(hid_t object, const std::string& label) {
  H5O_info_t info{};
  XPOSE_H5(InputUnreadableError, label, H5Oget_info2(object, &info, H5O_INFO_BASIC));
  return info.fileno;
}

}  // namespace

InputFile InputFile::open(const DatasetRef& ref, MPI_Comm comm) {
  ensure_init();
  // The cheap checks run once, on rank 0; collectively() hands their verdict to every rank
  // before anyone enters the collective H5Fopen.
  mpi::collectively(comm, [&] {
    if (mpi::rank(comm) == 0) check_input_file(ref.file);
  });
  InputFile in;
  auto open_hdf5 = [&](hid_t fapl) {
    hid_t file = H5Fopen(ref.file.c_str(), H5F_ACC_RDONLY, fapl);
    if (file < 0)
      throw InputUnreadableError(cat(
          "input '", ref.file, "': cannot be opened (truncated or corrupt?): ", hdf5_message()));
    in.file_ = H5Id(file);
    in.dataset_ = Dataset(open_dataset_checked(file, ref), ref.str());
  };
  mpi::collectively(comm, [&] {
    // The descriptor first, then HDF5's open by name, then the name again: both must be the
    // same file, or the input was replaced in between.
    auto [fd, stamp] = open_watched(ref.file);
    in.watched_.push_back(Watched{ref.file, std::move(fd), stamp});
    open_hdf5(file_access_plist(comm, ref.file).get());
    struct stat now {};
    if (::stat(ref.file.c_str(), &now) != 0 || stamp_of(now).difference(stamp).size() > 0)
      throw IoError(cat("the input '", ref.file, "' changed while it was being opened"));
  });
  if (mpi::size(comm) > 1 && in.dataset_.info().layout == Layout::Virtual) {
    // Every rank reads the virtual dataset through its own sec2 handle instead (the layout is
    // the same on every rank, so all of them close the MPI-IO file here together).
    mpi::collectively(comm, [&] {
      in.dataset_ = Dataset();
      in.file_.reset();
      open_hdf5(H5P_DEFAULT);
    });
  }
  mpi::collectively(comm, [&] {
    // Behind an external link the dataset lives in another file, at an offset of that file.
    in.in_named_file_ = file_number(in.dataset_.id(), ref.str()) == file_number(in.file_.get(), ref.file);
    if (in.in_named_file_) return;
    ssize_t length = XPOSE_H5(InputUnreadableError, ref.str(), H5Fget_name(in.dataset_.id(), nullptr, 0));
    std::string name(static_cast<std::size_t>(length) + 1, '\0');
    XPOSE_H5(InputUnreadableError, ref.str(), H5Fget_name(in.dataset_.id(), name.data(), name.size()));
    name.resize(static_cast<std::size_t>(length));
    try {
      auto [fd, stamp] = open_watched(name);
      in.watched_.push_back(Watched{name, std::move(fd), stamp});
    } catch (const Error&) {
      // HDF5 found it by its own search rules (HDF5_EXT_PREFIX): it is read, just not watched.
    }
  });
  return in;
}

void InputFile::check_unchanged() const {
  for (const auto& w : watched_) {
    struct stat st {};
    if (::fstat(w.fd.get(), &st) != 0)
      throw IoError(cat("the input '", w.path, "' cannot be inspected: ", std::strerror(errno)));
    const std::string change = w.stamp.difference(stamp_of(st));
    if (!change.empty())
      throw IoError(cat("the input '", w.path, "' changed during the run (", change,
                        "); the output is not committed"));
  }
}

namespace {
herr_t visit_object(hid_t, const char* name, const H5O_info_t* info, void* data) {
  auto* out = static_cast<std::vector<FileObject>*>(data);
  const std::string path = std::string(name) == "." ? "/" : "/" + std::string(name);
  switch (info->type) {
    case H5O_TYPE_GROUP:
      out->push_back({path, FileObject::Group});
      break;
    case H5O_TYPE_DATASET:
      out->push_back({path, FileObject::Dataset});
      break;
    case H5O_TYPE_NAMED_DATATYPE:
      out->push_back({path, FileObject::Datatype});
      break;
    default:
      break;
  }
  return 0;
}
}  // namespace

std::vector<FileObject> list_objects(const std::string& file) {
  ensure_init();
  check_input_file(file);
  hid_t id = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0)
    throw InputUnreadableError(cat("input '", file, "': cannot be opened (truncated or corrupt?): ", hdf5_message()));
  H5Id f(id);
  std::vector<FileObject> objects;
  XPOSE_H5(InputUnreadableError, file,
           H5Ovisit2(f.get(), H5_INDEX_NAME, H5_ITER_INC, visit_object, &objects, H5O_INFO_BASIC));
  return objects;
}

void check_transposable(const Dataset& dataset) {
  const DatasetInfo& info = dataset.info();
  const std::string& label = dataset.label();
  if (info.shape.size() < 2)
    throw UnsupportedInputError(cat("'", label, "' has rank ", info.shape.size(), " (shape ",
                                    format_shape(info.shape),
                                    "): a transpose needs at least 2 dimensions"));
  std::string variable = variable_part(dataset.type());
  if (!variable.empty())
    throw UnsupportedInputError(cat("'", label, "' has datatype ", info.type_description,
                                    " with a ", variable,
                                    ": only fixed-size datatypes can be transposed"));
  if (!is_supported_element_size(info.element.size))
    throw UnsupportedInputError(cat("'", label, "' has ", info.element.size, "-byte elements (",
                                    info.type_description,
                                    "): supported element sizes are 1, 2, 4, 8 and 16 bytes"));
  try {
    checked_mul(element_count(info.shape), static_cast<std::int64_t>(info.element.size));
  } catch (const DimensionMismatch&) {
    throw UnsupportedInputError(cat("'", label, "' has shape ", format_shape(info.shape), " of ",
                                    info.element.size, "-byte elements: its size in bytes does not fit "
                                    "in 64 bits"));
  }
  // A filter this HDF5 cannot decode would only fail later, in the middle of the run.
  auto dcpl = XPOSE_H5_ID(IoError, label, H5Dget_create_plist(dataset.id()));
  int nfilters = XPOSE_H5(IoError, label, H5Pget_nfilters(dcpl.get()));
  for (int i = 0; i < nfilters; ++i) {
    unsigned flags = 0, config = 0;
    std::size_t nvalues = 0;
    char name[128] = {0};
    H5Z_filter_t filter = XPOSE_H5(IoError, label,
                                   H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags,
                                                  &nvalues, nullptr, sizeof name, name, &config));
    htri_t available = H5Zfilter_avail(filter);
    if (available <= 0) {
      if (available < 0) H5Eclear2(H5E_DEFAULT);
      throw UnsupportedInputError(cat("'", label, "' is compressed with filter ",
                                      *name ? name : "?", " (id ", filter,
                                      "), which this HDF5 cannot decode (set HDF5_PLUGIN_PATH?)"));
    }
  }
}

// ---- output ---------------------------------------------------------------------------------

namespace {

/// Whether `a` and `b` name the same file: the same path once resolved, or the same inode.
bool same_file(const std::string& a, const std::string& b) {
  if (canonical_target(a) == canonical_target(b)) return true;
  struct stat sa {}, sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

long name_max(const std::string& dir) {
  long n = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  return n > 0 ? n : NAME_MAX;
}

}  // namespace

void check_output_target(const DatasetRef& out, const DatasetRef& in, bool force,
                         const std::vector<std::string>& own_names) {
  const std::string& file = out.file;
  if (file.empty() || file.back() == '/')
    throw OutputRefusedError(cat("output '", file, "': not a file name"));
  std::string dir = directory_of(file);
  struct stat dir_st {};
  if (::stat(dir.c_str(), &dir_st) != 0 || !S_ISDIR(dir_st.st_mode))
    throw OutputRefusedError(cat("output '", file, "': directory '", dir, "' does not exist"));
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw OutputRefusedError(cat("output '", file, "': directory '", dir, "' is not writable (",
                                 std::strerror(errno), ")"));
  const long max_name = name_max(dir);
  for (const std::string& name : own_names) {
    const std::size_t length = base_of(name).size();
    if (static_cast<long>(length) > max_name || name.size() >= PATH_MAX)
      throw OutputRefusedError(cat("output '", file, "': the name is too long for the files xpose writes beside it ('",
                                   base_of(name), "' has ", length, " characters, the file system allows ", max_name,
                                   "); choose a shorter output name"));
  }
  if (!in.file.empty()) {
    if (same_file(file, in.file))
      throw OutputRefusedError(cat("output '", file, "' is the input file '", in.file,
                                   "': xpose never writes over its input"));
    for (const std::string& name : own_names)
      if (same_file(name, in.file))
        throw OutputRefusedError(cat("the input '", in.file, "' has the name of a file xpose writes for the output ('",
                                     name, "'): xpose never writes over its input; rename it or choose another output"));
  }
  for (const std::string& name : own_names) {
    struct stat st {};
    if (::lstat(name.c_str(), &st) != 0) continue;
    if (S_ISLNK(st.st_mode))
      throw OutputRefusedError(cat("'", name, "' is a symbolic link, which xpose did not create and will not write "
                                   "through: remove it"));
    if (!S_ISREG(st.st_mode))
      throw OutputRefusedError(cat("'", name, "' is a ", file_kind(st.st_mode), ", which xpose did not create: remove it"));
  }
  struct stat out_st {};
  if (::lstat(file.c_str(), &out_st) != 0) return;
  if (S_ISDIR(out_st.st_mode)) throw OutputRefusedError(cat("output '", file, "' is a directory"));
  if (!S_ISREG(out_st.st_mode))
    throw OutputRefusedError(cat("output '", file, "' is a ", file_kind(out_st.st_mode),
                                 ": xpose replaces only regular files"));
  if (!force) throw OutputRefusedError(cat("output '", file, "' exists (use --force to replace it)"));
}

void check_writable_path(const std::string& path, const std::string& what) {
  if (path.empty() || path.back() == '/') throw OutputRefusedError(cat(what, " '", path, "': not a file name"));
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode))
      throw OutputRefusedError(cat(what, " '", path, "' is a ", file_kind(st.st_mode), ", not a regular file"));
    if (::access(path.c_str(), W_OK) != 0)
      throw OutputRefusedError(cat(what, " '", path, "' is not writable (", std::strerror(errno), ")"));
    return;
  }
  const std::string dir = directory_of(path);
  struct stat dir_st {};
  if (::stat(dir.c_str(), &dir_st) != 0 || !S_ISDIR(dir_st.st_mode))
    throw OutputRefusedError(cat(what, " '", path, "': directory '", dir, "' does not exist"));
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw OutputRefusedError(cat(what, " '", path, "': directory '", dir, "' is not writable (", std::strerror(errno), ")"));
  if (static_cast<long>(base_of(path).size()) > name_max(dir))
    throw OutputRefusedError(cat(what, " '", path, "': the name is too long for the file system"));
}

int replacement_mode(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return -1;
  return static_cast<int>(st.st_mode & 0777 & ~current_umask());
}

void check_free_space(const std::string& file, std::int64_t bytes) {
  struct statvfs fs {};
  const std::string dir = directory_of(file);
  if (::statvfs(dir.c_str(), &fs) != 0) return;  // unknown: the writes will tell
  const auto available = static_cast<std::int64_t>(fs.f_bavail) * static_cast<std::int64_t>(fs.f_frsize);
  if (available < bytes)
    throw IoError(cat("not enough space for '", file, "': it needs ", format_size(static_cast<double>(bytes)), ", '", dir,
                      "' has ", format_size(static_cast<double>(available)), " available"));
}

std::string hidden_sibling(const std::string& final_path, const std::string& suffix) {
  auto slash = final_path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : final_path.substr(0, slash + 1);
  return dir + "." + base_of(final_path) + suffix;
}

std::string temporary_path_for(const std::string& final_path) {
  return hidden_sibling(final_path, ".xpose-partial");
}

namespace {

/// The creation properties of `source` that do not depend on the layout: the fill value (what
/// readers see for elements never written) and how attributes are stored and ordered.
void copy_creation_properties(const Dataset& source, hid_t dcpl, const std::string& label) {
  auto from = XPOSE_H5_ID(IoError, source.label(), H5Dget_create_plist(source.id()));
  H5D_fill_value_t fill = H5D_FILL_VALUE_UNDEFINED;
  XPOSE_H5(IoError, source.label(), H5Pfill_value_defined(from.get(), &fill));
  if (fill == H5D_FILL_VALUE_USER_DEFINED) {
    std::vector<unsigned char> value(type_size(source.type(), source.label()));
    XPOSE_H5(IoError, source.label(), H5Pget_fill_value(from.get(), source.type(), value.data()));
    XPOSE_H5(IoError, label, H5Pset_fill_value(dcpl, source.type(), value.data()));
  }
  unsigned order = 0, max_compact = 0, min_dense = 0;
  XPOSE_H5(IoError, source.label(), H5Pget_attr_creation_order(from.get(), &order));
  if (order != 0) XPOSE_H5(IoError, label, H5Pset_attr_creation_order(dcpl, order));
  XPOSE_H5(IoError, source.label(), H5Pget_attr_phase_change(from.get(), &max_compact, &min_dense));
  XPOSE_H5(IoError, label, H5Pset_attr_phase_change(dcpl, max_compact, min_dense));
}

}  // namespace

OutputFile OutputFile::create(const DatasetRef& ref, const Shape& shape, hid_t type,
                              const CreateOptions& options, MPI_Comm comm) {
  ensure_init();
  const std::string label = ref.str();
  if (shape.empty()) throw UsageError(cat("output '", label, "': a dataset needs a shape"));
  Shape chunk = options.chunk;
  if (!chunk.empty()) {
    if (chunk.size() != shape.size())
      throw UsageError(cat("chunk ", format_shape(chunk), " has rank ", chunk.size(),
                           " but the dataset ", format_shape(shape), " has rank ", shape.size()));
    for (std::size_t d = 0; d < chunk.size(); ++d) {
      if (chunk[d] <= 0)
        throw UsageError(cat("chunk ", format_shape(chunk), ": extents must be positive"));
      chunk[d] = std::max<std::int64_t>(1, std::min(chunk[d], shape[d]));
    }
    std::int64_t chunk_bytes =
        checked_mul(element_count(chunk), static_cast<std::int64_t>(type_size(type, label)));
    if (chunk_bytes >= (std::int64_t{1} << 32))
      throw UsageError(cat("chunk ", format_shape(chunk), " holds ", format_size(chunk_bytes),
                           ": HDF5 chunks must be smaller than 4 GiB"));
  }

  // A dataset with no elements has no chunks either (HDF5 wants chunks no larger than the
  // dataset's fixed extents), so it is stored contiguous.
  if (element_count(shape) == 0) chunk.clear();

  OutputFile out;
  out.comm_ = comm;
  out.collective_ = mpi::size(comm) > 1;
  out.final_path_ = ref.file;
  const std::string temp = temporary_path_for(ref.file);
  H5Id fapl = file_access_plist(comm, temp);
  // Large objects (the dataset) start on a 1 MiB boundary, so the ranks' contiguous bands line up
  // with file-system blocks and stripes; small metadata stays packed.
  XPOSE_H5(IoError, temp, H5Pset_alignment(fapl.get(), 4 << 20, 1 << 20));
  // The 1.8 format (any HDF5 since 2008 reads it): attributes of any size go to dense storage,
  // and attribute creation order can be tracked as the input does.
  XPOSE_H5(IoError, temp, H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V18));
  // Exclusive (O_EXCL on rank 0, under MPI-IO too): a name taken meanwhile, by a file or by a
  // symbolic link (dangling or not), fails here and is left alone.
  // No object timestamps, on the root group either: two runs that write the same data write the
  // same bytes (an interrupted and resumed run too).
  auto fcpl = XPOSE_H5_ID(IoError, temp, H5Pcreate(H5P_FILE_CREATE));
  XPOSE_H5(IoError, temp, H5Pset_obj_track_times(fcpl.get(), 0));
  hid_t file = H5Fcreate(temp.c_str(), H5F_ACC_EXCL, fcpl.get(), fapl.get());
  if (file < 0) {
    const std::string message = hdf5_message();
    struct stat st {};
    if (::lstat(temp.c_str(), &st) == 0)
      throw OutputRefusedError(cat("'", temp, "' appeared (a ", file_kind(st.st_mode),
                                   ") while xpose was creating it: xpose leaves it alone"));
    throw IoError(cat("H5Fcreate failed for '", temp, "': ", message));
  }
  out.file_ = H5Id(file);
  // From here on `out` owns the temporary file: if anything throws, its destructor removes it.
  out.temp_path_ = temp;
  if (options.mode >= 0) {
    mpi::collectively(comm, [&] {
      if (mpi::rank(comm) != 0) return;
      UniqueFd fd(::open(temp.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
      struct stat st {};
      if (!fd || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) ||
          ::fchmod(fd.get(), static_cast<mode_t>(options.mode)) != 0)
        throw IoError(cat("cannot set the permissions of '", temp, "': ", std::strerror(errno)));
    });
  }

  // The groups on the dataset's path, without timestamps (as the dataset, below).
  auto gcpl = XPOSE_H5_ID(IoError, label, H5Pcreate(H5P_GROUP_CREATE));
  XPOSE_H5(IoError, label, H5Pset_obj_track_times(gcpl.get(), 0));
  for (std::size_t at = ref.path.find('/', 1); at != std::string::npos; at = ref.path.find('/', at + 1)) {
    const std::string group = ref.path.substr(0, at);
    if (group.empty() || group.back() == '/') continue;
    if (XPOSE_H5(IoError, label, H5Lexists(out.file_.get(), group.c_str(), H5P_DEFAULT)) > 0) continue;
    XPOSE_H5_ID(IoError, label, H5Gcreate2(out.file_.get(), group.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT));
  }
  auto lcpl = XPOSE_H5_ID(IoError, label, H5Pcreate(H5P_LINK_CREATE));
  XPOSE_H5(IoError, label, H5Pset_create_intermediate_group(lcpl.get(), 1));
  auto dcpl = XPOSE_H5_ID(IoError, label, H5Pcreate(H5P_DATASET_CREATE));
  if (chunk.empty()) {
    if (options.deflate >= 0) throw UsageError(cat("output '", label, "': compression needs a chunked layout"));
    XPOSE_H5(IoError, label, H5Pset_layout(dcpl.get(), H5D_CONTIGUOUS));
  } else {
    auto dims = to_hsize(chunk);
    XPOSE_H5(IoError, label, H5Pset_chunk(dcpl.get(), static_cast<int>(dims.size()), dims.data()));
  }
  if (options.deflate >= 0) {
    if (options.deflate > 9) throw UsageError(cat("gzip level ", options.deflate, " (0 to 9)"));
    // Shuffle first: bytes of equal significance side by side compress far better.
    XPOSE_H5(IoError, label, H5Pset_shuffle(dcpl.get()));
    XPOSE_H5(IoError, label, H5Pset_deflate(dcpl.get(), static_cast<unsigned>(options.deflate)));
  }
  // Early: the space (and a chunked dataset's index) exists at create time, so every rank sees
  // the same addresses and the file's metadata does not change while data is written; a file
  // flushed once after creation stays valid for --resume whatever happens to the run.
  XPOSE_H5(IoError, label, H5Pset_alloc_time(dcpl.get(), H5D_ALLOC_TIME_EARLY));
  // No object timestamps: two runs that write the same data write the same bytes.
  XPOSE_H5(IoError, label, H5Pset_obj_track_times(dcpl.get(), 0));
  // Every element gets written; filling first would double the write traffic.
  XPOSE_H5(IoError, label, H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER));
  if (options.like) copy_creation_properties(*options.like, dcpl.get(), label);

  auto dims = to_hsize(shape);
  auto space = XPOSE_H5_ID(IoError, label,
                           H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr));
  auto file_type = XPOSE_H5_ID(IoError, label, H5Tcopy(type));
  auto dataset = XPOSE_H5_ID(IoError, label,
                             H5Dcreate2(out.file_.get(), ref.path.c_str(), file_type.get(),
                                        space.get(), lcpl.get(), dcpl.get(), H5P_DEFAULT));
  out.dataset_ = Dataset(std::move(dataset), label);
  return out;
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : file_(std::move(other.file_)),
      dataset_(std::move(other.dataset_)),
      temp_path_(std::exchange(other.temp_path_, std::string())),
      final_path_(std::move(other.final_path_)),
      comm_(other.comm_),
      committed_(other.committed_),
      collective_(other.collective_) {}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    if (!committed_) abandon();
    dataset_ = std::move(other.dataset_);
    file_ = std::move(other.file_);
    temp_path_ = std::exchange(other.temp_path_, std::string());
    final_path_ = std::move(other.final_path_);
    comm_ = other.comm_;
    committed_ = other.committed_;
    collective_ = other.collective_;
  }
  return *this;
}

OutputFile::~OutputFile() {
  if (!committed_) abandon();
}

void OutputFile::abandon() noexcept {
  if (committed_) return;
  if (collective_) {
    // Closing would be collective (metadata flush, MPI_File_close) and the other ranks may not
    // be here: leave the handles to HDF5's own shutdown.
    (void)dataset_.id_.release();
    (void)dataset_.type_.release();
    (void)file_.release();
    dataset_ = Dataset();
  } else {
    dataset_ = Dataset();
    file_.reset();
  }
  remove_quietly(temp_path_);
  temp_path_.clear();
}

void OutputFile::discard() noexcept {
  if (committed_) return;
  if (!collective_) {
    abandon();
    return;
  }
  try {
    dataset_ = Dataset();
    file_.reset();  // collective: every rank is here
    MPI_Barrier(comm_);
    if (mpi::rank(comm_) == 0) remove_quietly(temp_path_);
    MPI_Barrier(comm_);
  } catch (...) {
    remove_quietly(temp_path_);
  }
  temp_path_.clear();
}

OutputFile OutputFile::reopen(const DatasetRef& ref, MPI_Comm comm) {
  ensure_init();
  OutputFile out;
  out.comm_ = comm;
  out.collective_ = mpi::size(comm) > 1;
  out.final_path_ = ref.file;
  out.temp_path_ = temporary_path_for(ref.file);
  H5Id fapl = file_access_plist(comm, out.temp_path_);
  out.file_ = XPOSE_H5_ID(IoError, out.temp_path_,
                          H5Fopen(out.temp_path_.c_str(), H5F_ACC_RDWR, fapl.get()));
  auto dataset = XPOSE_H5_ID(IoError, ref.str(), H5Dopen2(out.file_.get(), ref.path.c_str(), H5P_DEFAULT));
  out.dataset_ = Dataset(std::move(dataset), ref.str());
  return out;
}

void OutputFile::flush() {
  if (!file_) throw InternalError(cat("output '", final_path_, "' is not open"));
  XPOSE_H5(IoError, temp_path_, H5Fflush(file_.get(), H5F_SCOPE_GLOBAL));
}

void OutputFile::suspend() {
  if (!file_) throw InternalError(cat("output '", final_path_, "' is not open"));
  mpi::collectively(comm_, [&] {
    dataset_ = Dataset();
    hid_t file = file_.release();
    if (H5Fclose(file) < 0) throw IoError(cat("H5Fclose failed for '", temp_path_, "': ", hdf5_message()));
  });
  committed_ = true;  // the temporary file stays for --resume: nothing to abandon
}

void OutputFile::commit() {
  if (committed_) throw InternalError(cat("output '", final_path_, "' committed twice"));
  if (!file_) throw InternalError(cat("output '", final_path_, "' is not open (abandoned?)"));
  const bool root = mpi::rank(comm_) == 0;
  try {
    mpi::collectively(comm_, [&] {
      dataset_ = Dataset();  // the file only closes once nothing in it is open
      hid_t file = file_.release();
      if (H5Fclose(file) < 0)
        throw IoError(cat("H5Fclose failed for '", temp_path_, "': ", hdf5_message()));
    });
    // Every rank has closed (the agreement above is the barrier); rank 0 makes the data durable,
    // then publishes it under the final name in one atomic step.
    mpi::collectively(comm_, [&] {
      if (!root) return;
      int fd = ::open(temp_path_.c_str(), O_RDONLY);
      if (fd < 0 || (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS)) {
        int err = errno;
        if (fd >= 0) ::close(fd);
        throw IoError(cat("output '", final_path_, "': cannot sync '", temp_path_,
                          "': ", std::strerror(err)));
      }
      ::close(fd);
      if (std::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
        int err = errno;
        std::string message = cat("output '", final_path_, "': cannot rename '", temp_path_,
                                  "' to it: ", std::strerror(err));
        if (err == EISDIR || err == EACCES || err == EPERM || err == ENOTDIR || err == EROFS)
          throw OutputRefusedError(message);
        throw IoError(message);
      }
      int dir = ::open(directory_of(final_path_).c_str(), O_RDONLY | O_DIRECTORY);
      if (dir >= 0) {
        ::fsync(dir);  // best effort: some file systems cannot sync a directory
        ::close(dir);
      }
    });
  } catch (...) {
    // Every rank got here together (collectively agreed), and the file is closed or released.
    if (root) remove_quietly(temp_path_);
    temp_path_.clear();
    committed_ = true;  // nothing left to abandon
    throw;
  }
  committed_ = true;
}

// ---- attributes -----------------------------------------------------------------------------

namespace {

void delete_if_present(hid_t object, const std::string& name, const std::string& label) {
  if (XPOSE_H5(IoError, label, H5Aexists(object, name.c_str())) > 0)
    XPOSE_H5(IoError, label, H5Adelete(object, name.c_str()));
}

herr_t collect_attribute_name(hid_t, const char* name, const H5A_info_t*, void* data) {
  static_cast<std::vector<std::string>*>(data)->push_back(name);
  return 0;
}

/// Copies one attribute of HDF5 object `source`; false, copying nothing, for one that holds
/// references (they point into the source file: copied, they would point at nothing).
bool copy_plain_attribute(hid_t source, hid_t target, const std::string& name, const std::string& label) {
  const std::string what = cat(label, " attribute '", name, "'");
  auto attr = XPOSE_H5_ID(IoError, what, H5Aopen(source, name.c_str(), H5P_DEFAULT));
  // H5Aget_type gives the in-memory form (variable-length parts as pointers); the copy is
  // transient, so a named datatype of the source file does not follow it.
  auto stored = XPOSE_H5_ID(IoError, what, H5Aget_type(attr.get()));
  if (XPOSE_H5(IoError, what, H5Tdetect_class(stored.get(), H5T_REFERENCE)) > 0) return false;
  auto type = XPOSE_H5_ID(IoError, what, H5Tcopy(stored.get()));
  auto space = XPOSE_H5_ID(IoError, what, H5Aget_space(attr.get()));
  hssize_t npoints = XPOSE_H5(IoError, what, H5Sget_simple_extent_npoints(space.get()));
  std::size_t size = type_size(type.get(), what);
  std::vector<unsigned char> buffer(static_cast<std::size_t>(std::max<hssize_t>(npoints, 1)) *
                                    std::max<std::size_t>(size, 1));
  if (npoints > 0) XPOSE_H5(IoError, what, H5Aread(attr.get(), type.get(), buffer.data()));
  bool variable = has_variable_parts(type.get());
  try {
    delete_if_present(target, name, label);
    auto copy = XPOSE_H5_ID(
        IoError, what,
        H5Acreate2(target, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
    if (npoints > 0) XPOSE_H5(IoError, what, H5Awrite(copy.get(), type.get(), buffer.data()));
  } catch (...) {
    if (variable && npoints > 0)
      H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, buffer.data());
    throw;
  }
  if (variable && npoints > 0)
    XPOSE_H5(IoError, what, H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, buffer.data()));
  return true;
}

/// Copies one attribute; false for one that holds references and that `references` did not
/// rebuild.
bool copy_attribute(const Dataset& source_dataset, hid_t target, const std::string& name, const std::string& label,
                    const ReferenceAttributeHook& references) {
  if (copy_plain_attribute(source_dataset.id(), target, name, label)) return true;
  delete_if_present(target, name, label);
  return references && references(source_dataset, name, target);
}

}  // namespace

std::vector<std::string> OutputFile::copy_attributes_from(const Dataset& source,
                                                          const ReferenceAttributeHook& references) {
  std::vector<std::string> left_out;
  // Attribute writes are collective in parallel HDF5; every rank writes the same values.
  mpi::collectively(comm_, [&] {
    left_out.clear();
    const std::string& label = dataset_.label();
    auto dcpl = XPOSE_H5_ID(IoError, source.label(), H5Dget_create_plist(source.id()));
    unsigned order = 0;
    XPOSE_H5(IoError, source.label(), H5Pget_attr_creation_order(dcpl.get(), &order));
    // In creation order where the source records it (netCDF-4 does), so the output lists them alike.
    const H5_index_t index_type = (order & H5P_CRT_ORDER_TRACKED) ? H5_INDEX_CRT_ORDER : H5_INDEX_NAME;
    std::vector<std::string> names;
    hsize_t index = 0;
    XPOSE_H5(IoError, source.label(),
             H5Aiterate2(source.id(), index_type, H5_ITER_INC, &index, collect_attribute_name, &names));
    for (const auto& name : names)
      if (!copy_attribute(source, dataset_.id(), name, label, references)) left_out.push_back(name);
  });
  return left_out;
}

void copy_attributes(hid_t source, hid_t target, const std::string& label, const std::vector<std::string>& skip) {
  std::vector<std::string> names;
  hsize_t index = 0;
  XPOSE_H5(IoError, label, H5Aiterate2(source, H5_INDEX_NAME, H5_ITER_INC, &index, collect_attribute_name, &names));
  for (const auto& name : names)
    if (std::find(skip.begin(), skip.end(), name) == skip.end()) copy_plain_attribute(source, target, name, label);
}

std::string hdf5_error_message() { return hdf5_message(); }

void OutputFile::set_attribute(const std::string& name, const std::string& value) {
  mpi::collectively(comm_, [&] {
    const std::string what = cat(dataset_.label(), " attribute '", name, "'");
    delete_if_present(dataset_.id(), name, dataset_.label());
    // A variable-length UTF-8 string: h5py reads it back as str, netCDF and h5dump as text.
    auto type = XPOSE_H5_ID(IoError, what, H5Tcopy(H5T_C_S1));
    XPOSE_H5(IoError, what, H5Tset_size(type.get(), H5T_VARIABLE));
    XPOSE_H5(IoError, what, H5Tset_cset(type.get(), H5T_CSET_UTF8));
    auto space = XPOSE_H5_ID(IoError, what, H5Screate(H5S_SCALAR));
    auto attr = XPOSE_H5_ID(
        IoError, what,
        H5Acreate2(dataset_.id(), name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
    const char* text = value.c_str();
    XPOSE_H5(IoError, what, H5Awrite(attr.get(), type.get(), &text));
  });
}

void OutputFile::set_fixed_attribute(const std::string& name, const std::string& value, std::size_t length) {
  mpi::collectively(comm_, [&] {
    const std::string what = cat(dataset_.label(), " attribute '", name, "'");
    if (value.size() > length) throw InternalError(cat(what, ": '", value, "' is longer than ", length, " bytes"));
    auto type = XPOSE_H5_ID(IoError, what, H5Tcopy(H5T_C_S1));
    XPOSE_H5(IoError, what, H5Tset_size(type.get(), length));
    XPOSE_H5(IoError, what, H5Tset_strpad(type.get(), H5T_STR_NULLPAD));
    std::string padded = value;
    padded.resize(length, '\0');
    H5Id attr;
    if (XPOSE_H5(IoError, what, H5Aexists(dataset_.id(), name.c_str())) > 0) {
      attr = XPOSE_H5_ID(IoError, what, H5Aopen(dataset_.id(), name.c_str(), H5P_DEFAULT));
      auto existing = XPOSE_H5_ID(IoError, what, H5Aget_type(attr.get()));
      if (XPOSE_H5(IoError, what, H5Tequal(existing.get(), type.get())) <= 0) {
        attr.reset();
        XPOSE_H5(IoError, what, H5Adelete(dataset_.id(), name.c_str()));
      }
    }
    if (!attr) {
      auto space = XPOSE_H5_ID(IoError, what, H5Screate(H5S_SCALAR));
      attr = XPOSE_H5_ID(IoError, what,
                         H5Acreate2(dataset_.id(), name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
    }
    XPOSE_H5(IoError, what, H5Awrite(attr.get(), type.get(), padded.data()));
  });
}

void OutputFile::set_attribute(const std::string& name, const std::vector<std::int64_t>& value) {
  mpi::collectively(comm_, [&] {
    const std::string what = cat(dataset_.label(), " attribute '", name, "'");
    delete_if_present(dataset_.id(), name, dataset_.label());
    hsize_t dims[1] = {value.size()};
    auto space = value.empty() ? XPOSE_H5_ID(IoError, what, H5Screate(H5S_NULL))
                               : XPOSE_H5_ID(IoError, what, H5Screate_simple(1, dims, nullptr));
    auto attr = XPOSE_H5_ID(IoError, what,
                            H5Acreate2(dataset_.id(), name.c_str(), H5T_STD_I64LE, space.get(),
                                       H5P_DEFAULT, H5P_DEFAULT));
    if (!value.empty())
      XPOSE_H5(IoError, what, H5Awrite(attr.get(), H5T_NATIVE_INT64, value.data()));
  });
}

// ---- types and ranges -----------------------------------------------------------------------

H5Id make_h5_type(const ElementType& element) {
  ensure_init();
  const std::string what = element.name();
  switch (element.kind) {
    case ElementKind::Float:
      if (element.size == 4) return XPOSE_H5_ID(IoError, what, H5Tcopy(H5T_IEEE_F32LE));
      if (element.size == 8) return XPOSE_H5_ID(IoError, what, H5Tcopy(H5T_IEEE_F64LE));
      break;
    case ElementKind::SignedInt:
    case ElementKind::UnsignedInt: {
      bool sign = element.kind == ElementKind::SignedInt;
      hid_t base = -1;
      switch (element.size) {
        case 1:
          base = sign ? H5T_STD_I8LE : H5T_STD_U8LE;
          break;
        case 2:
          base = sign ? H5T_STD_I16LE : H5T_STD_U16LE;
          break;
        case 4:
          base = sign ? H5T_STD_I32LE : H5T_STD_U32LE;
          break;
        case 8:
          base = sign ? H5T_STD_I64LE : H5T_STD_U64LE;
          break;
        default:
          break;
      }
      if (base >= 0) return XPOSE_H5_ID(IoError, what, H5Tcopy(base));
      break;
    }
    case ElementKind::Complex:
      if (element.size == 8 || element.size == 16) {
        // Exactly h5py's layout: members "r" and "i", each a little-endian IEEE float.
        std::size_t part = element.size / 2;
        hid_t part_type = part == 4 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
        auto type = XPOSE_H5_ID(IoError, what, H5Tcreate(H5T_COMPOUND, element.size));
        XPOSE_H5(IoError, what, H5Tinsert(type.get(), "r", 0, part_type));
        XPOSE_H5(IoError, what, H5Tinsert(type.get(), "i", part, part_type));
        return type;
      }
      break;
    case ElementKind::Other:
      break;
  }
  throw UsageError(cat("no HDF5 datatype for dtype '", what, "' (", element.size, " bytes)"));
}

std::vector<Box> boxes_for_range(const Shape& shape, std::int64_t first, std::int64_t count) {
  const std::size_t rank = shape.size();
  const std::int64_t total = element_count(shape);
  if (rank == 0 || first < 0 || count < 0 || first > total - count)
    throw DimensionMismatch(cat("element range [", first, ", ", first + count, ") outside shape ",
                                format_shape(shape)));
  // span[k]: elements in one step of dimension k-1, i.e. the product of extents k..rank-1.
  std::vector<std::int64_t> span(rank + 1, 1);
  for (std::size_t k = rank; k-- > 0;) span[k] = span[k + 1] * shape[k];
  std::vector<Box> boxes;
  std::int64_t at = first;
  const std::int64_t end = first + count;
  while (at < end) {
    // The largest aligned block that starts at `at` and fits: whole trailing sub-arrays.
    std::size_t k = 1;
    while (k < rank && !(at % span[k] == 0 && at + span[k] <= end)) ++k;
    Box box;
    box.start.resize(rank);
    box.count.assign(rank, 1);
    std::int64_t rest = at;
    for (std::size_t d = 0; d < rank; ++d) {
      box.start[d] = rest / span[d + 1];
      rest %= span[d + 1];
    }
    std::int64_t steps = std::min((end - at) / span[k], shape[k - 1] - box.start[k - 1]);
    box.count[k - 1] = steps;
    for (std::size_t d = k; d < rank; ++d) box.count[d] = shape[d];
    boxes.push_back(std::move(box));
    at += steps * span[k];
  }
  return boxes;
}

}  // namespace xpose::io
