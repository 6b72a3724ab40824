/// @file
/// Dimension scales, the way netCDF-4 stores its dimensions in HDF5: a dimension is a 1-D dataset
/// (its coordinate variable, or a placeholder whose NAME says it is "not a netCDF variable")
/// marked as a scale, and a variable's axis i is attached to it (the variable's DIMENSION_LIST and
/// the scale's REFERENCE_LIST hold object references). netCDF also numbers the dimensions
/// (_Netcdf4Dimid on each scale) and lists a variable's dimension numbers (_Netcdf4Coordinates).
///
/// References point into their own file, so an output file gets its own copies of the scales,
/// attached in the output's axis order, with the numbering rebuilt to match. That is what lets
/// ncdump, netCDF4-python and xarray open a reordered variable as var(lat, lon, time).
#pragma once

#include <hdf5.h>
#include <mpi.h>

#include <map>
#include <string>
#include <vector>

#include "io/h5.h"

namespace xpose::io {

/// The scale attached to one axis of a dataset.
struct DimensionScale {
  std::string path;  ///< the scale dataset's path in the dataset's file; "" where none is attached
  std::string name;  ///< the dimension's name: netCDF's (the scale's link name) or the scale's NAME
};

/// The scale of each axis of `dataset` (the first one where an axis has several). Empty when no
/// axis has one, so `empty()` means "not a netCDF-4 variable".
std::vector<DimensionScale> dimension_scales(const Dataset& dataset);
/// The dimension names alone ("" where an axis has none); empty when no axis has a scale.
std::vector<std::string> dimension_names(const Dataset& dataset);
/// Whether a dataset is itself a dimension scale (a netCDF dimension or coordinate variable).
bool is_dimension_scale(hid_t dataset);
/// The attributes the dimension-scale machinery owns (CLASS, NAME, REFERENCE_LIST,
/// DIMENSION_LIST, _Netcdf4Dimid, _Netcdf4Coordinates): a copy of a dataset leaves them out and
/// lets DimensionScaleCopier write them for the copy's file.
const std::vector<std::string>& dimension_scale_attributes();

/// Copies scales from an input file into an output file and attaches output datasets to the
/// copies. Every call is collective over `comm` (the output file's communicator): every rank
/// makes the same HDF5 calls, and rank 0 alone writes the scales' values.
class DimensionScaleCopier {
 public:
  DimensionScaleCopier(hid_t input_file, hid_t output_file, MPI_Comm comm);

  /// Attaches axis i of `target` (a dataset of the output file) to a copy of the scale of axis
  /// perm[i] of `source` (a dataset of the input file), copying the scale dataset on first use
  /// (its values, its attributes, its chunking where it is extendible). perm may be empty: the
  /// same order.
  void attach(const Dataset& source, hid_t target, const std::vector<int>& perm);
  /// Copies a scale (and nothing attached to it) if it is not copied yet.
  void copy_scale(const std::string& path);
  /// Copies the root group's attributes (netCDF's _NCProperties and the global attributes).
  void copy_root_attributes();
  /// Numbers the copied dimensions 0, 1, ... in the input's order and writes _Netcdf4Dimid on
  /// the scales and _Netcdf4Coordinates on the attached datasets and coordinate variables, where
  /// the input had them. Call once, after every attach().
  void finish();

 private:
  struct Scale {
    int input_dimid = -1;      ///< the input's _Netcdf4Dimid, -1 if none
    bool coordinates = false;  ///< the input scale has _Netcdf4Coordinates (a coordinate variable)
  };
  struct Attached {
    std::string path;                 ///< the output dataset
    std::vector<std::string> scales;  ///< scale path of each axis ("" for none)
    bool coordinates = false;         ///< the source had _Netcdf4Coordinates
  };

  hid_t input_;
  hid_t output_;
  MPI_Comm comm_;
  std::map<std::string, Scale> scales_;
  std::vector<Attached> attached_;
};

}  // namespace xpose::io
