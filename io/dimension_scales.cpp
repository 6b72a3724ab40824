#include "io/dimension_scales.h"

#include <H5DSpublic.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>

#include "mpi/comm.h"

namespace xpose::io {

namespace {

// netCDF-4 marks a dimension without a coordinate variable with this NAME (and a length).
constexpr const char* kNetcdfPlaceholder = "This is a netCDF dimension but not a netCDF variable";
// Attributes the scale machinery owns: written anew in the output, never copied.
const std::vector<std::string> kScaleAttributes = {
    "CLASS", "NAME", "REFERENCE_LIST", "DIMENSION_LIST", "_Netcdf4Dimid", "_Netcdf4Coordinates"};

template <typename T>
T check(T value, const char* call, const std::string& what) {
  if (value < 0) throw IoError(cat(call, " failed for '", what, "': ", hdf5_error_message()));
  return value;
}

H5Id checked_id(hid_t id, const char* call, const std::string& what) {
  return H5Id(check(id, call, what));
}

std::string object_path(hid_t object) {
  const ssize_t length = check(H5Iget_name(object, nullptr, 0), "H5Iget_name", "an HDF5 object");
  std::string name(static_cast<std::size_t>(length) + 1, '\0');
  check(H5Iget_name(object, name.data(), name.size()), "H5Iget_name", "an HDF5 object");
  name.resize(static_cast<std::size_t>(length));
  return name;
}

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool has_attribute(hid_t object, const char* name) {
  const htri_t exists = H5Aexists(object, name);
  if (exists < 0) H5Eclear2(H5E_DEFAULT);
  return exists > 0;
}

/// A string attribute (fixed or variable length); "" when absent or not a string.
std::string string_attribute(hid_t object, const char* name) {
  if (!has_attribute(object, name)) return "";
  const std::string what = cat("attribute '", name, "'");
  H5Id attr = checked_id(H5Aopen(object, name, H5P_DEFAULT), "H5Aopen", what);
  H5Id type = checked_id(H5Aget_type(attr.get()), "H5Aget_type", what);
  if (H5Tget_class(type.get()) != H5T_STRING) return "";
  H5Id space = checked_id(H5Aget_space(attr.get()), "H5Aget_space", what);
  if (check(H5Sget_simple_extent_npoints(space.get()), "H5Sget_simple_extent_npoints", what) != 1)
    return "";
  if (H5Tis_variable_str(type.get()) > 0) {
    H5Id memory = checked_id(H5Tcopy(H5T_C_S1), "H5Tcopy", what);
    check(H5Tset_size(memory.get(), H5T_VARIABLE), "H5Tset_size", what);
    char* text = nullptr;
    check(H5Aread(attr.get(), memory.get(), &text), "H5Aread", what);
    std::string value = text ? text : "";
    H5free_memory(text);
    return value;
  }
  const std::size_t size = H5Tget_size(type.get());
  std::string value(size, '\0');
  H5Id memory = checked_id(H5Tcopy(type.get()), "H5Tcopy", what);
  check(H5Aread(attr.get(), memory.get(), value.data()), "H5Aread", what);
  value.resize(std::strlen(value.c_str()));
  return value;
}

int int_attribute(hid_t object, const char* name, int fallback) {
  if (!has_attribute(object, name)) return fallback;
  const std::string what = cat("attribute '", name, "'");
  H5Id attr = checked_id(H5Aopen(object, name, H5P_DEFAULT), "H5Aopen", what);
  H5Id space = checked_id(H5Aget_space(attr.get()), "H5Aget_space", what);
  if (check(H5Sget_simple_extent_npoints(space.get()), "H5Sget_simple_extent_npoints", what) != 1)
    return fallback;
  int value = fallback;
  check(H5Aread(attr.get(), H5T_NATIVE_INT, &value), "H5Aread", what);
  return value;
}

/// Writes a 32-bit integer attribute, scalar or 1-D, as netCDF-4 does; replaces an existing one.
void write_ints(hid_t object, const char* name, const std::vector<int>& values, bool scalar) {
  const std::string what = cat("attribute '", name, "'");
  if (has_attribute(object, name)) check(H5Adelete(object, name), "H5Adelete", what);
  hsize_t dims[1] = {values.size()};
  H5Id space = scalar ? checked_id(H5Screate(H5S_SCALAR), "H5Screate", what)
                      : checked_id(H5Screate_simple(1, dims, nullptr), "H5Screate_simple", what);
  H5Id attr =
      checked_id(H5Acreate2(object, name, H5T_STD_I32LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                 "H5Acreate2", what);
  check(H5Awrite(attr.get(), H5T_NATIVE_INT, values.data()), "H5Awrite", what);
}

herr_t first_scale(hid_t, unsigned, hid_t scale, void* data) {
  *static_cast<std::string*>(data) = object_path(scale);
  return 1;  // the first is enough: netCDF attaches one scale per axis
}

bool file_is_mpio(hid_t file) {
  H5Id fapl = checked_id(H5Fget_access_plist(file), "H5Fget_access_plist", "output file");
  return check(H5Pget_driver(fapl.get()), "H5Pget_driver", "output file") == H5FD_MPIO;
}

}  // namespace

const std::vector<std::string>& dimension_scale_attributes() {
  return kScaleAttributes;
}

bool is_dimension_scale(hid_t dataset) {
  const htri_t scale = H5DSis_scale(dataset);
  if (scale < 0) H5Eclear2(H5E_DEFAULT);
  return scale > 0;
}

std::vector<DimensionScale> dimension_scales(const Dataset& dataset) {
  const std::size_t rank = dataset.info().shape.size();
  std::vector<DimensionScale> scales(rank);
  bool any = false;
  for (std::size_t i = 0; i < rank; ++i) {
    const int n = H5DSget_num_scales(dataset.id(), static_cast<unsigned>(i));
    if (n < 0) H5Eclear2(H5E_DEFAULT);
    if (n <= 0) continue;
    std::string path;
    check(H5DSiterate_scales(dataset.id(), static_cast<unsigned>(i), nullptr, first_scale, &path),
          "H5DSiterate_scales", dataset.label());
    if (path.empty()) continue;
    H5Id scale = checked_id(H5Dopen2(dataset.id(), path.c_str(), H5P_DEFAULT), "H5Dopen2", path);
    std::string name = string_attribute(scale.get(), "NAME");
    if (name.empty() || name.rfind(kNetcdfPlaceholder, 0) == 0) name = base_name(path);
    scales[i] = DimensionScale{path, name};
    any = true;
  }
  if (!any) scales.clear();
  return scales;
}

std::vector<std::string> dimension_names(const Dataset& dataset) {
  std::vector<std::string> names;
  for (const auto& s : dimension_scales(dataset)) names.push_back(s.name);
  return names;
}

DimensionScaleCopier::DimensionScaleCopier(hid_t input_file, hid_t output_file, MPI_Comm comm)
    : input_(input_file), output_(output_file), comm_(comm) {}

void DimensionScaleCopier::copy_scale(const std::string& path) {
  if (scales_.count(path)) return;
  const std::string what = cat("dimension scale '", path, "'");
  H5Id in = checked_id(H5Dopen2(input_, path.c_str(), H5P_DEFAULT), "H5Dopen2", what);
  H5Id type = checked_id(H5Dget_type(in.get()), "H5Dget_type", what);
  H5Id in_space = checked_id(H5Dget_space(in.get()), "H5Dget_space", what);
  const int rank =
      check(H5Sget_simple_extent_ndims(in_space.get()), "H5Sget_simple_extent_ndims", what);
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 1))), maxdims(dims.size());
  check(H5Sget_simple_extent_dims(in_space.get(), dims.data(), maxdims.data()),
        "H5Sget_simple_extent_dims", what);
  H5Id in_dcpl = checked_id(H5Dget_create_plist(in.get()), "H5Dget_create_plist", what);

  // The same shape, extendible where the input's is (netCDF's unlimited dimension needs chunks);
  // no filters: a scale is small. Space allocated at creation, as parallel HDF5 requires.
  H5Id dcpl = checked_id(H5Pcreate(H5P_DATASET_CREATE), "H5Pcreate", what);
  if (check(H5Pget_layout(in_dcpl.get()), "H5Pget_layout", what) == H5D_CHUNKED) {
    std::vector<hsize_t> chunk(dims.size());
    check(H5Pget_chunk(in_dcpl.get(), rank, chunk.data()), "H5Pget_chunk", what);
    check(H5Pset_chunk(dcpl.get(), rank, chunk.data()), "H5Pset_chunk", what);
  }
  H5D_fill_value_t fill = H5D_FILL_VALUE_UNDEFINED;
  check(H5Pfill_value_defined(in_dcpl.get(), &fill), "H5Pfill_value_defined", what);
  const std::size_t size = H5Tget_size(type.get());
  if (fill == H5D_FILL_VALUE_USER_DEFINED && H5Tdetect_class(type.get(), H5T_VLEN) <= 0 &&
      H5Tis_variable_str(type.get()) <= 0) {
    std::vector<unsigned char> value(size);
    check(H5Pget_fill_value(in_dcpl.get(), type.get(), value.data()), "H5Pget_fill_value", what);
    check(H5Pset_fill_value(dcpl.get(), type.get(), value.data()), "H5Pset_fill_value", what);
  }
  check(H5Pset_alloc_time(dcpl.get(), H5D_ALLOC_TIME_EARLY), "H5Pset_alloc_time", what);
  check(H5Pset_obj_track_times(dcpl.get(), 0), "H5Pset_obj_track_times", what);
  H5Id lcpl = checked_id(H5Pcreate(H5P_LINK_CREATE), "H5Pcreate", what);
  check(H5Pset_create_intermediate_group(lcpl.get(), 1), "H5Pset_create_intermediate_group", what);
  H5Id space =
      checked_id(H5Screate_simple(rank, dims.data(), maxdims.data()), "H5Screate_simple", what);
  const htri_t exists = H5Lexists(output_, path.c_str(), H5P_DEFAULT);
  if (exists < 0) H5Eclear2(H5E_DEFAULT);
  if (exists > 0) {
    // Copied by an earlier copier into this file (a whole file is assembled variable by
    // variable): the same dimension, renumbered with the rest by finish().
    H5Id out = checked_id(H5Dopen2(output_, path.c_str(), H5P_DEFAULT), "H5Dopen2", what);
    if (!is_dimension_scale(out.get()))
      throw UsageError(cat("the output already holds '", path,
                           "', the path of a dimension of the input: name the "
                           "output dataset differently"));
    scales_[path] = Scale{int_attribute(in.get(), "_Netcdf4Dimid", -1),
                          has_attribute(in.get(), "_Netcdf4Coordinates")};
    return;
  }
  H5Id out = checked_id(H5Dcreate2(output_, path.c_str(), type.get(), space.get(), lcpl.get(),
                                   dcpl.get(), H5P_DEFAULT),
                        "H5Dcreate2", what);

  // The values: every rank reads them (small), rank 0 writes them, collectively where MPI-IO is.
  const bool variable =
      H5Tdetect_class(type.get(), H5T_VLEN) > 0 || H5Tis_variable_str(type.get()) > 0;
  const hssize_t points =
      check(H5Sget_simple_extent_npoints(in_space.get()), "H5Sget_simple_extent_npoints", what);
  const bool mpio = file_is_mpio(output_);
  if (points > 0 && (!variable || !mpio)) {
    std::vector<unsigned char> values(static_cast<std::size_t>(points) * size);
    check(H5Dread(in.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), "H5Dread",
          what);
    H5Id file_space = checked_id(H5Dget_space(out.get()), "H5Dget_space", what);
    H5Id memory =
        checked_id(H5Screate_simple(rank, dims.data(), nullptr), "H5Screate_simple", what);
    if (mpi::rank(comm_) != 0) {
      check(H5Sselect_none(file_space.get()), "H5Sselect_none", what);
      check(H5Sselect_none(memory.get()), "H5Sselect_none", what);
    }
    H5Id dxpl = checked_id(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate", what);
    if (mpio) check(H5Pset_dxpl_mpio(dxpl.get(), H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio", what);
    check(
        H5Dwrite(out.get(), type.get(), memory.get(), file_space.get(), dxpl.get(), values.data()),
        "H5Dwrite", what);
    if (variable) H5Dvlen_reclaim(type.get(), memory.get(), H5P_DEFAULT, values.data());
  } else if (points > 0 && mpi::rank(comm_) == 0) {
    std::fprintf(
        stderr,
        "xpose: warning: the values of '%s' (variable-length) are not copied by parallel HDF5\n",
        path.c_str());
  }
  copy_attributes(in.get(), out.get(), what, kScaleAttributes);
  std::string name = string_attribute(in.get(), "NAME");
  if (name.empty()) name = base_name(path);
  check(H5DSset_scale(out.get(), name.c_str()), "H5DSset_scale", what);
  scales_[path] = Scale{int_attribute(in.get(), "_Netcdf4Dimid", -1),
                        has_attribute(in.get(), "_Netcdf4Coordinates")};
}

void DimensionScaleCopier::attach(const Dataset& source, hid_t target,
                                  const std::vector<int>& perm) {
  const std::vector<DimensionScale> scales = dimension_scales(source);
  if (scales.empty()) return;
  const std::size_t rank = scales.size();
  if (!perm.empty() && perm.size() != rank)
    throw InternalError(cat("attach: an axis order of ", perm.size(), " axes for '", source.label(),
                            "' of rank ", rank));
  Attached a;
  a.path = object_path(target);
  a.coordinates = has_attribute(source.id(), "_Netcdf4Coordinates");
  for (std::size_t i = 0; i < rank; ++i) {
    const DimensionScale& s = scales[perm.empty() ? i : static_cast<std::size_t>(perm[i])];
    a.scales.push_back(s.path);
    if (s.path.empty()) continue;
    copy_scale(s.path);
    H5Id scale = checked_id(H5Dopen2(output_, s.path.c_str(), H5P_DEFAULT), "H5Dopen2", s.path);
    if (check(H5DSis_attached(target, scale.get(), static_cast<unsigned>(i)), "H5DSis_attached",
              a.path) > 0)
      continue;
    check(H5DSattach_scale(target, scale.get(), static_cast<unsigned>(i)), "H5DSattach_scale",
          a.path);
  }
  attached_.push_back(std::move(a));
}

void DimensionScaleCopier::copy_root_attributes() {
  H5Id in = checked_id(H5Gopen2(input_, "/", H5P_DEFAULT), "H5Gopen2", "input root group");
  H5Id out = checked_id(H5Gopen2(output_, "/", H5P_DEFAULT), "H5Gopen2", "output root group");
  copy_attributes(in.get(), out.get(), "output root group");
}

void DimensionScaleCopier::finish() {
  // netCDF numbers dimensions in creation order; the copies keep the input's relative order.
  std::vector<std::string> order;
  for (const auto& s : scales_) order.push_back(s.first);
  std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
    const int x = scales_[a].input_dimid < 0 ? INT_MAX : scales_[a].input_dimid;
    const int y = scales_[b].input_dimid < 0 ? INT_MAX : scales_[b].input_dimid;
    return x < y;
  });
  std::map<std::string, int> dimid;
  for (std::size_t k = 0; k < order.size(); ++k) dimid[order[k]] = static_cast<int>(k);
  for (const auto& path : order) {
    const Scale& s = scales_[path];
    H5Id scale = checked_id(H5Dopen2(output_, path.c_str(), H5P_DEFAULT), "H5Dopen2", path);
    if (s.input_dimid >= 0) write_ints(scale.get(), "_Netcdf4Dimid", {dimid[path]}, true);
    if (s.coordinates) write_ints(scale.get(), "_Netcdf4Coordinates", {dimid[path]}, false);
  }
  for (const auto& a : attached_) {
    H5Id target = checked_id(H5Dopen2(output_, a.path.c_str(), H5P_DEFAULT), "H5Dopen2", a.path);
    const bool complete = std::none_of(a.scales.begin(), a.scales.end(),
                                       [](const std::string& p) { return p.empty(); });
    if (a.coordinates && complete) {
      std::vector<int> ids;
      for (const auto& p : a.scales) ids.push_back(dimid[p]);
      write_ints(target.get(), "_Netcdf4Coordinates", ids, false);
    } else if (has_attribute(target.get(), "_Netcdf4Coordinates")) {
      check(H5Adelete(target.get(), "_Netcdf4Coordinates"), "H5Adelete",
            a.path);  // it would name the input's order
    }
  }
}

}  // namespace xpose::io
