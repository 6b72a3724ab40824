/// @file
/// HDF5 access for xpose: RAII handles, dataset inspection, hyperslab reads and writes through
/// MPI-IO (collective or independent), attributes, and atomic output (temporary name, renamed
/// when the run is complete).
///
/// Every H5* call is checked; failures become typed xpose errors (xpose/error.h) that name the
/// call, the file and dataset, and HDF5's own message. HDF5's automatic error printing is off.
#pragma once

#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "xpose/error.h"
#include "xpose/types.h"
#include "xpose/unique_handle.h"

namespace xpose::io {

/// Closes any HDF5 identifier by asking HDF5 what it is.
struct H5IdTraits {
  static hid_t invalid() noexcept { return H5I_INVALID_HID; }
  static void close(hid_t id) noexcept;
};
using H5Id = UniqueHandle<hid_t, H5IdTraits>;

/// Closes a POSIX file descriptor.
struct FdTraits {
  static int invalid() noexcept { return -1; }
  static void close(int fd) noexcept;
};
using UniqueFd = UniqueHandle<int, FdTraits>;

/// What identifies a file's contents for "has it changed?": the inode, its size and its
/// modification time, as fstat reports them.
struct FileStamp {
  std::int64_t device = 0, inode = 0, bytes = 0, mtime_ns = 0;
  /// "size 123 -> 456 bytes", "modified at ... -> ...", or "replaced by another file"; empty if equal.
  std::string difference(const FileStamp& now) const;
};

/// "file.h5:/group/dataset" as given on the command line. The part after the last ':' that
/// starts with '/' is the dataset path; a missing path is a UsageError.
struct DatasetRef {
  std::string file;
  std::string path;
  static DatasetRef parse(const std::string& text);
  std::string str() const { return file + ":" + path; }
};

enum class Layout { Contiguous, Chunked, Compact, Virtual };
const char* layout_name(Layout layout);

struct DatasetInfo {
  Shape shape;                       ///< all dimensions, slowest first (HDF5 order)
  ElementType element;               ///< size, and the kind where it is recognisable
  std::string type_description;      ///< e.g. "float32 (IEEE, little-endian)", "complex128 (compound r,i)"
  Layout layout = Layout::Contiguous;
  Shape chunk;                       ///< chunk dimensions when chunked
  std::vector<std::string> filters;  ///< e.g. {"deflate(4)", "shuffle"}
  std::int64_t storage_bytes = 0;    ///< bytes allocated in the file
};

/// A rectangular selection in a dataset: start and count per dimension.
struct Box {
  Shape start;
  Shape count;
};

/// Whether a read or write is one collective MPI-IO operation or independent per rank.
enum class Transfer { Collective, Independent };

/// An open dataset. Reads and writes use the dataset's own (file) datatype as the memory type,
/// so bytes move unconverted and the output keeps exactly the input's datatype.
class Dataset {
 public:
  Dataset() = default;
  Dataset(H5Id id, std::string label);

  const DatasetInfo& info() const { return info_; }
  hid_t id() const { return id_.get(); }
  hid_t type() const { return type_.get(); }
  const std::string& label() const { return label_; }  ///< "file.h5:/path", for messages

  /// Reads the union of `boxes` into `buffer`: the elements in the file's row-major order over
  /// the union, packed. With Transfer::Collective every rank of the file's communicator must
  /// call, some possibly with no boxes.
  void read(const std::vector<Box>& boxes, void* buffer, Transfer transfer) const;
  /// Writes `buffer` (packed, file row-major order over the union of `boxes`).
  void write(const std::vector<Box>& boxes, const void* buffer, Transfer transfer);
  /// Reads single elements; `coords` holds npoints x rank coordinates. Independent.
  void read_points(const std::vector<std::int64_t>& coords, void* buffer) const;

  /// Sets the raw-data chunk cache of this (chunked) dataset, in bytes. HDF5 fixes the cache
  /// when a dataset is opened, so this reopens the dataset with a new access property list:
  /// collective (like H5Dopen) when the file is open through MPI-IO. A no-op for datasets that
  /// are not chunked (on every rank alike, since the layout is the same everywhere).
  void set_chunk_cache(std::int64_t bytes);

 private:
  H5Id id_;
  H5Id type_;
  std::string label_;
  DatasetInfo info_;
  bool mpio_ = false;  ///< the file is open through MPI-IO: transfer modes apply

  friend class OutputFile;  // abandon() must be able to let go of the handles unclosed
};

/// A file opened read-only. With a communicator of more than one rank the file is opened through
/// MPI-IO; every rank of `comm` must call. Errors are classified: InputNotFoundError (no file,
/// no dataset, a group where a dataset is expected), InputUnreadableError (not a regular file,
/// not HDF5, truncated, corrupt, no permission), UnsupportedInputError (see check_transposable).
/// open itself accepts any dataset, so that `xpose info` can describe one it cannot transpose;
/// callers that transpose run check_transposable next. With one rank the default (sec2) driver is
/// used: faster than MPI-IO, and the same file format. A virtual dataset is read through the sec2
/// driver on every rank too (this HDF5's MPI-IO driver cannot read one). Destroying an InputFile
/// closes the file, which under MPI-IO is collective: every rank destroys it at the same point.
///
/// Every file the dataset is read from (the named one and, behind an external link, the one the
/// dataset lives in) stays open on a descriptor of its own, taken before HDF5 opened it, so
/// check_unchanged() sees what HDF5 reads, and direct reads use that very file.
class InputFile {
 public:
  static InputFile open(const DatasetRef& ref, MPI_Comm comm);
  Dataset& dataset() { return dataset_; }
  const Dataset& dataset() const { return dataset_; }
  hid_t id() const { return file_.get(); }

  /// Whether the dataset's storage is in the file named by the reference (and not in another
  /// file behind an external link): only then may its bytes be read at their offset in that file.
  bool dataset_in_named_file() const { return in_named_file_; }
  /// The descriptor (read-only) of the named file, as opened before HDF5 opened it.
  int descriptor() const { return watched_.empty() ? -1 : watched_.front().fd.get(); }
  /// The named file's stamp when it was opened.
  FileStamp stamp() const { return watched_.empty() ? FileStamp{} : watched_.front().stamp; }
  /// Throws IoError ("the input ... changed during the run") when a file the dataset is read from
  /// has changed size or modification time since open. Cheap (one fstat per file); independent.
  void check_unchanged() const;

 private:
  struct Watched {
    std::string path;
    UniqueFd fd;
    FileStamp stamp;
  };
  H5Id file_;
  Dataset dataset_;
  std::vector<Watched> watched_;
  bool in_named_file_ = true;
};

/// What a file holds, every object once, in name order: groups (the root "/" first), datasets and
/// named datatypes. The file is opened read-only on the calling rank alone; errors are classified
/// as for InputFile::open.
struct FileObject {
  std::string path;
  enum Kind { Group, Dataset, Datatype } kind = Group;
};
std::vector<FileObject> list_objects(const std::string& file);

/// Throws UnsupportedInputError unless the dataset can be transposed: rank >= 2, a fixed-size
/// datatype with no variable-length or reference parts, element size in {1, 2, 4, 8, 16}, a size
/// in bytes that 64 bits can count.
void check_transposable(const Dataset& dataset);

/// Checks an output target before any work is done, identically on every rank:
/// OutputRefusedError when it is the input file (same path or same inode), when it exists and
/// `force` is false, when it exists and is not a regular file (a symbolic link, a device, a
/// directory: `--force` replaces only regular files), or when its directory is missing or not
/// writable. `own_names` are the files xpose will create beside it (temporary output, journal):
/// each must fit the file system's NAME_MAX, must not be the input, and must not be taken by a
/// symbolic link or anything but a regular file (a regular file there is for the caller to judge:
/// it may be an interrupted run's). An empty `in.file` (as for `generate`) skips the comparisons
/// with the input.
void check_output_target(const DatasetRef& out, const DatasetRef& in, bool force,
                         const std::vector<std::string>& own_names = {});

/// Checks that `path` (named by option `what`, e.g. "--json") can be written at the end of a run:
/// an existing regular file that is writable, or a new name in a writable directory.
/// OutputRefusedError otherwise.
void check_writable_path(const std::string& path, const std::string& what);

/// The permission bits a replacement of `path` should get: the old file's, less what the
/// process's umask takes away; -1 when there is no old regular file (then the umask decides).
int replacement_mode(const std::string& path);

/// Throws IoError when the file system holding `file` has less than `bytes` available, so a run
/// that cannot finish fails at once, with the numbers, instead of part way.
void check_free_space(const std::string& file, std::int64_t bytes);

/// Options for a created dataset.
struct CreateOptions {
  Shape chunk;  ///< empty: contiguous (always, for a dataset with no elements: it has no chunks)
  /// Permission bits of the new file (the umask already applied); -1: the umask's default.
  int mode = -1;
  /// The dataset whose layout-independent creation properties the new one takes: its fill value,
  /// attribute creation order tracking and attribute storage thresholds.
  const Dataset* like = nullptr;
  int deflate = -1;  ///< gzip level 0-9 with the shuffle filter before it (needs `chunk`); -1: none
};

/// What copy_attributes_from does with an attribute of `source` whose datatype holds references
/// (they point into the source file, e.g. netCDF-4's DIMENSION_LIST): returns true after writing
/// a replacement onto `target` itself, false to leave it out.
using ReferenceAttributeHook =
    std::function<bool(const Dataset& source, const std::string& name, hid_t target)>;

/// An output file written under a temporary name in the output's directory and renamed to its
/// final name by commit(). Until then the final name is untouched (an existing file with --force
/// is replaced only at commit). If the object is destroyed without commit() the temporary file
/// is removed. All calls are collective over `comm`.
class OutputFile {
 public:
  /// Creates the temporary file, exclusively (a name already taken, by a file or a symbolic link,
  /// is OutputRefusedError and is left alone), and the dataset `ref.path` (intermediate groups
  /// too) with `shape` and a copy of `type`. The file uses the HDF5 1.8 format, which stores
  /// attributes of any size.
  static OutputFile create(const DatasetRef& ref, const Shape& shape, hid_t type,
                           const CreateOptions& options, MPI_Comm comm);
  OutputFile() = default;
  OutputFile(OutputFile&&) noexcept;
  OutputFile& operator=(OutputFile&&) noexcept;
  ~OutputFile();

  Dataset& dataset() { return dataset_; }
  hid_t id() const { return file_.get(); }
  MPI_Comm comm() const { return comm_; }
  const std::string& temporary_path() const { return temp_path_; }
  const std::string& final_path() const { return final_path_; }

  /// Copies every attribute of `source` onto the output dataset, in creation order where the
  /// source tracks it. An attribute holding references goes to `references`; returns the names
  /// of those left out (all of them without a hook).
  std::vector<std::string> copy_attributes_from(const Dataset& source,
                                                const ReferenceAttributeHook& references = {});
  /// Writes (or replaces) a string attribute on the output dataset.
  void set_attribute(const std::string& name, const std::string& value);
  /// Writes a fixed-length (`length` bytes, null-padded) string attribute. An existing one of the
  /// same length is overwritten in place, so the file's layout does not change: a marker set
  /// when a run starts and updated when it ends leaves the same bytes as one written once.
  void set_fixed_attribute(const std::string& name, const std::string& value, std::size_t length);
  /// Writes (or replaces) a 1-D int64 attribute on the output dataset.
  void set_attribute(const std::string& name, const std::vector<std::int64_t>& value);

  /// Reopens the temporary file of an interrupted run (read-write) and its dataset, to resume
  /// writing it. Collective. IoError if it cannot be opened.
  static OutputFile reopen(const DatasetRef& ref, MPI_Comm comm);
  /// Forces everything written so far to stable storage (H5Fflush: metadata, then
  /// MPI_File_sync / fsync). Collective.
  void flush();
  /// Closes the file but keeps it under its temporary name, for a later --resume. Collective.
  void suspend();

  /// Flushes and closes the file, then renames it to its final name. Collective.
  void commit();
  /// Closes and removes the temporary file; never throws. Safe to call on any subset of ranks
  /// just before MPI_Abort: closing an MPI-IO file is collective, so with more than one rank the
  /// HDF5 handles are released unclosed (HDF5 closes them at exit) and only the file is unlinked.
  /// With one rank (no MPI-IO) everything is closed properly. The destructor calls this.
  void abandon() noexcept;
  /// The collective counterpart of abandon(), for failures every rank has agreed on (e.g. after
  /// mpi::collectively threw everywhere): closes the file on every rank, then removes it. Never
  /// throws; every rank of the communicator must call.
  void discard() noexcept;

 private:
  H5Id file_;
  Dataset dataset_;
  std::string temp_path_;
  std::string final_path_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  bool committed_ = false;
  bool collective_ = false;  ///< opened through MPI-IO on more than one rank: close is collective
};

/// A hidden file beside `final_path`: `<dir>/.<basename><suffix>`.
std::string hidden_sibling(const std::string& final_path, const std::string& suffix);
/// The temporary name an output is written under: `<dir>/.<basename>.xpose-partial`.
/// Deterministic, so a later run can find it.
std::string temporary_path_for(const std::string& final_path);

/// The HDF5 datatype written for a `--dtype` name (little-endian; complex as h5py's compound
/// {r, i}). The caller owns the result. UsageError for ElementKind::Other.
H5Id make_h5_type(const ElementType& element);

/// The boxes whose union is the flattened (row-major) element range [first, first + count) of a
/// dataset of `shape`, in row-major order: at most 2 * rank - 1 boxes. Reading or writing them
/// moves exactly that range, packed.
std::vector<Box> boxes_for_range(const Shape& shape, std::int64_t first, std::int64_t count);

/// A one-line description of an HDF5 datatype, e.g. "float32 (IEEE, big-endian)".
std::string describe_type(hid_t type);

/// HDF5's own account of its last failure (then cleared), for error messages.
std::string hdf5_error_message();

/// Copies the attributes of HDF5 object `source` (a dataset or group) onto object `target`, but
/// those named in `skip` and those holding references (which point into the source's file).
/// `label` names the target in messages. In a file open through MPI-IO every rank must call.
void copy_attributes(hid_t source, hid_t target, const std::string& label,
                     const std::vector<std::string>& skip = {});

}  // namespace xpose::io
