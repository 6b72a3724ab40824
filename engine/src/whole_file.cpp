#include "engine/src/whole_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "engine/src/axes.h"
#include "io/dimension_scales.h"
#include "io/h5.h"
#include "mpi/comm.h"

namespace xpose {

namespace {

// Marks a part file while it is being assembled into the output: a part that carries it was
// changed by an interrupted assembly and is not reused by --resume.
constexpr const char* kAssembling = "xpose_assembling";

struct Variable {
  std::string path;
  Shape shape;
  std::size_t elem = 0;
  std::vector<std::string> dims;
  Permutation perm;  ///< empty: copied unchanged
  std::int64_t bytes() const { return element_count(shape) * static_cast<std::int64_t>(elem); }
};

struct Inventory {
  std::vector<io::FileObject> objects;
  std::vector<Variable> reordered;  ///< largest first
  std::vector<Variable> copied;
  std::vector<std::string> scales;
};

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string part_path(const std::string& out, std::size_t k) {
  return directory_of(out) + "/." + base_of(out) + ".xpose-var" + std::to_string(k);
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

/// Every rank reads the file's metadata (serially, the same answer everywhere).
Inventory inspect(const std::string& file, const std::vector<std::string>& axes) {
  Inventory inv;
  inv.objects = io::list_objects(file);
  std::vector<std::string> all_dims;
  for (const auto& obj : inv.objects) {
    if (obj.kind != io::FileObject::Dataset) continue;
    io::InputFile f = io::InputFile::open(io::DatasetRef{file, obj.path}, MPI_COMM_SELF);
    const io::Dataset& d = f.dataset();
    if (io::is_dimension_scale(d.id())) {
      inv.scales.push_back(obj.path);
      all_dims.push_back(base_of(obj.path));
      continue;
    }
    Variable v;
    v.path = obj.path;
    v.shape = d.info().shape;
    v.elem = d.info().element.size;
    v.dims = io::dimension_names(d);
    for (const auto& n : v.dims) all_dims.push_back(n);
    if (v.shape.size() >= 2 && !v.dims.empty()) {
      Permutation perm = reorder_by_names(v.dims, axes);
      if (!is_identity(perm)) {
        io::check_transposable(d);
        if (v.shape.size() > kMaxAxesRank)
          throw UnsupportedInputError(cat("'", d.label(), "' has rank ", v.shape.size(),
                                          ": --axes supports ranks 2 to ", kMaxAxesRank));
        v.perm = perm;
      }
    }
    (v.perm.empty() ? inv.copied : inv.reordered).push_back(v);
  }
  for (const auto& a : axes)
    if (std::find(all_dims.begin(), all_dims.end(), a) == all_dims.end()) {
      std::sort(all_dims.begin(), all_dims.end());
      all_dims.erase(std::unique(all_dims.begin(), all_dims.end()), all_dims.end());
      throw UsageError(cat("--axes: '", file, "' has no dimension '", a, "' (its dimensions: ",
                           all_dims.empty() ? std::string("none") : join(all_dims), ")"));
    }
  std::stable_sort(inv.reordered.begin(), inv.reordered.end(),
                   [](const Variable& a, const Variable& b) { return a.bytes() > b.bytes(); });
  return inv;
}

void check_names(const std::vector<std::string>& axes) {
  if (axes.empty())
    throw UsageError("a whole file (no :/dataset) is reordered by --axes with dimension names");
  for (const auto& a : axes)
    if (is_axis_number(a))
      throw UsageError(
          cat("--axes ", join(axes),
              ": a whole file is reordered by dimension names (axis numbers "
              "differ from variable to variable); name a dataset (FILE:/path) to give numbers"));
}

std::string describe(const Variable& v) {
  std::vector<std::string> out;
  for (int a : v.perm) out.push_back(v.dims[a]);
  return cat(v.path, " (", join(v.dims), ") -> (", join(out), ")");
}

template <typename T>
T h5(T value, const char* call, const std::string& what) {
  if (value < 0) throw IoError(cat(call, " failed for '", what, "': ", io::hdf5_error_message()));
  return value;
}

io::H5Id h5_id(hid_t id, const char* call, const std::string& what) {
  return io::H5Id(h5(id, call, what));
}

bool is_complete_part(const std::string& path) {
  if (::access(path.c_str(), F_OK) != 0) return false;
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) {
    H5Eclear2(H5E_DEFAULT);
    return false;
  }
  io::H5Id file(f);
  const htri_t tainted = H5Aexists(f, kAssembling);
  if (tainted < 0) H5Eclear2(H5E_DEFAULT);
  return tainted == 0;
}

void sync_path(const std::string& path, const char* what) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0 || (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS)) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    throw IoError(cat("cannot sync ", what, " '", path, "': ", std::strerror(err)));
  }
  ::close(fd);
}

/// Rank 0: the largest reordered variable's file (or a new file) becomes the output.
void assemble(const TransposeOptions& o, const Inventory& inv) {
  const std::string& out = o.out.file;
  std::string base_path = inv.reordered.empty() ? io::temporary_path_for(out) : part_path(out, 0);
  io::H5Id base;
  if (inv.reordered.empty()) {
    ::unlink(base_path.c_str());  // an earlier interrupted assembly's: ours
    base = h5_id(H5Fcreate(base_path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT), "H5Fcreate",
                 base_path);
  } else {
    base = h5_id(H5Fopen(base_path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "H5Fopen", base_path);
  }
  {
    io::H5Id space = h5_id(H5Screate(H5S_SCALAR), "H5Screate", base_path);
    if (H5Aexists(base.get(), kAssembling) <= 0) {
      H5Eclear2(H5E_DEFAULT);
      io::H5Id mark = h5_id(
          H5Acreate2(base.get(), kAssembling, H5T_STD_I8LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
          "H5Acreate2", base_path);
    }
    h5(H5Fflush(base.get(), H5F_SCOPE_GLOBAL), "H5Fflush", base_path);
  }
  io::H5Id in =
      h5_id(H5Fopen(o.in.file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "H5Fopen", o.in.file);
  io::DimensionScaleCopier copier(in.get(), base.get(), MPI_COMM_SELF);
  copier.copy_root_attributes();
  io::H5Id lcpl = h5_id(H5Pcreate(H5P_LINK_CREATE), "H5Pcreate", out);
  h5(H5Pset_create_intermediate_group(lcpl.get(), 1), "H5Pset_create_intermediate_group", out);
  io::H5Id ocpypl = h5_id(H5Pcreate(H5P_OBJECT_COPY), "H5Pcreate", out);
  h5(H5Pset_copy_object(ocpypl.get(), H5O_COPY_WITHOUT_ATTR_FLAG), "H5Pset_copy_object", out);
  auto exists = [&](const std::string& path) {
    const htri_t e = H5Lexists(base.get(), path.c_str(), H5P_DEFAULT);
    if (e < 0) H5Eclear2(H5E_DEFAULT);
    return e > 0;
  };
  // Groups with their attributes, named datatypes, then the dimensions.
  for (const auto& obj : inv.objects) {
    if (obj.kind == io::FileObject::Group && obj.path != "/") {
      if (!exists(obj.path)) {
        io::H5Id g =
            h5_id(H5Gcreate2(base.get(), obj.path.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
                  "H5Gcreate2", obj.path);
      }
      io::H5Id from =
          h5_id(H5Gopen2(in.get(), obj.path.c_str(), H5P_DEFAULT), "H5Gopen2", obj.path);
      io::H5Id to =
          h5_id(H5Gopen2(base.get(), obj.path.c_str(), H5P_DEFAULT), "H5Gopen2", obj.path);
      io::copy_attributes(from.get(), to.get(), obj.path);
    } else if (obj.kind == io::FileObject::Datatype && !exists(obj.path)) {
      h5(H5Ocopy(in.get(), obj.path.c_str(), base.get(), obj.path.c_str(), H5P_DEFAULT, lcpl.get()),
         "H5Ocopy", obj.path);
    }
  }
  for (const auto& s : inv.scales) copier.copy_scale(s);
  // A copy of a dataset, its own attributes, attached to the output's dimensions in `perm`.
  auto place = [&](hid_t from_file, const Variable& v, const std::vector<int>& perm, bool copy) {
    if (copy && !exists(v.path))
      h5(H5Ocopy(from_file, v.path.c_str(), base.get(), v.path.c_str(), ocpypl.get(), lcpl.get()),
         "H5Ocopy", v.path);
    io::H5Id from = h5_id(H5Dopen2(from_file, v.path.c_str(), H5P_DEFAULT), "H5Dopen2", v.path);
    io::H5Id to = h5_id(H5Dopen2(base.get(), v.path.c_str(), H5P_DEFAULT), "H5Dopen2", v.path);
    if (copy) io::copy_attributes(from.get(), to.get(), v.path, io::dimension_scale_attributes());
    io::Dataset source(h5_id(H5Dopen2(in.get(), v.path.c_str(), H5P_DEFAULT), "H5Dopen2", v.path),
                       o.in.file + ":" + v.path);
    copier.attach(source, to.get(), perm);
  };
  for (std::size_t k = 0; k < inv.reordered.size(); ++k) {
    const Variable& v = inv.reordered[k];
    if (k == 0) {
      place(base.get(), v, v.perm, false);
      continue;
    }
    const std::string part = part_path(out, k);
    io::H5Id pf = h5_id(H5Fopen(part.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "H5Fopen", part);
    place(pf.get(), v, v.perm, true);
  }
  for (const auto& v : inv.copied) place(in.get(), v, {}, true);
  copier.finish();
  h5(H5Adelete(base.get(), kAssembling), "H5Adelete", base_path);
  h5(H5Fflush(base.get(), H5F_SCOPE_GLOBAL), "H5Fflush", base_path);
  in.reset();
  base.reset();
  sync_path(base_path, "the output");
  if (std::rename(base_path.c_str(), out.c_str()) != 0)
    throw IoError(cat("cannot rename '", base_path, "' to '", out, "': ", std::strerror(errno)));
  const int dir = ::open(directory_of(out).c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    ::fsync(dir);  // best effort: some file systems cannot sync a directory
    ::close(dir);
  }
  for (std::size_t k = 1; k < inv.reordered.size(); ++k) ::unlink(part_path(out, k).c_str());
}

}  // namespace

bool names_whole_file(const std::string& operand) {
  return operand.find(":/") == std::string::npos;
}

std::string plan_whole_file(MPI_Comm comm, const TransposeOptions& o) {
  check_names(o.axes);
  Inventory inv;
  mpi::collectively(comm, [&] { inv = inspect(o.in.file, o.axes); });
  std::string text =
      cat("whole file ", o.in.file, " -> ", o.out.file, ", --axes ", join(o.axes), "\n");
  for (const auto& v : inv.reordered) {
    const AxisMap m = AxisMap::make(v.shape, v.perm);
    text += cat("  reorder  ", describe(v), "  ", format_size(static_cast<double>(v.bytes())),
                ", one pass: ", m.roles(v.dims), "\n");
  }
  for (const auto& v : inv.copied) text += cat("  copy     ", v.path, "\n");
  for (const auto& s : inv.scales) text += cat("  dimension ", s, "\n");
  return text;
}

WholeFileReport run_whole_file(MPI_Comm comm, const TransposeOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const int me = mpi::rank(comm);
  check_names(o.axes);
  Inventory inv;
  mpi::collectively(comm, [&] { inv = inspect(o.in.file, o.axes); });
  mpi::collectively(comm, [&] {
    io::check_output_target(io::DatasetRef{o.out.file, "/"}, io::DatasetRef{o.in.file, "/"},
                            o.force);
  });
  WholeFileReport report;
  for (std::size_t k = 0; k < inv.reordered.size(); ++k) {
    const Variable& v = inv.reordered[k];
    report.reordered.push_back(describe(v));
    report.bytes += v.bytes();
    TransposeOptions sub = o;
    sub.in = io::DatasetRef{o.in.file, v.path};
    sub.out = io::DatasetRef{part_path(o.out.file, k), v.path};
    sub.axes.clear();
    for (int a : v.perm) sub.axes.push_back(std::to_string(a));
    sub.force = true;  // a part of an earlier, interrupted run: ours
    std::int64_t done = 0;
    if (o.resume)
      mpi::collectively(comm, [&] { done = me == 0 && is_complete_part(sub.out.file) ? 1 : 0; });
    done = mpi::allreduce_max(comm, done);
    if (done) {
      if (me == 0 && !o.quiet)
        std::fprintf(stderr, "xpose: %s: done in the interrupted run\n",
                     report.reordered.back().c_str());
      continue;
    }
    sub.quiet = true;
    const TransposeReport r = run_transpose(comm, sub);
    if (me == 0 && !o.quiet)
      std::printf("xpose: %s, %s in %.2f s\n", report.reordered.back().c_str(),
                  format_size(static_cast<double>(v.bytes())).c_str(), r.times.wall);
  }
  for (const auto& v : inv.copied) report.copied.push_back(v.path);
  mpi::collectively(comm, [&] {
    if (me == 0) assemble(o, inv);
  });
  report.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace xpose
