// Single-rank tests of the HDF5 layer (io/h5.h) and of `generate` / `verify`, against the real
// HDF5 library. Every test works in its own temporary directory, removed at the end.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "engine/src/tools.h"
#include "io/h5.h"

namespace xpose {
namespace {

namespace fs = std::filesystem;
using io::Box;
using io::DatasetRef;
using io::H5Id;
using io::InputFile;
using io::OutputFile;
using io::Transfer;

const MPI_Comm kSelf = MPI_COMM_SELF;

/// A fresh directory under $TMPDIR (or /tmp), removed with everything in it.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/xpose-io-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path_, ec);
  }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

/// Writes one dataset with plain HDF5 calls (the independent way in), creating the file when
/// `fresh` and intermediate groups as needed.
void write_raw(const std::string& file, const std::string& path, hid_t type, const Shape& shape,
               const void* data, hid_t dcpl = H5P_DEFAULT, bool fresh = true) {
  H5Id f(fresh ? H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)
               : H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  ASSERT_TRUE(f) << file;
  std::vector<hsize_t> dims(shape.begin(), shape.end());
  H5Id space(shape.empty() ? H5Screate(H5S_SCALAR)
                           : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr));
  H5Id lcpl(H5Pcreate(H5P_LINK_CREATE));
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  H5Id d(H5Dcreate2(f.get(), path.c_str(), type, space.get(), lcpl.get(), dcpl, H5P_DEFAULT));
  ASSERT_TRUE(d) << path;
  if (data) {
    ASSERT_GE(H5Dwrite(d.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), 0);
  }
}

/// Reads a whole dataset with plain HDF5 calls, in its own file type.
std::vector<unsigned char> read_raw(const std::string& file, const std::string& path) {
  H5Id f(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  H5Id d(H5Dopen2(f.get(), path.c_str(), H5P_DEFAULT));
  H5Id t(H5Dget_type(d.get()));
  H5Id s(H5Dget_space(d.get()));
  std::vector<unsigned char> out(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s.get())) *
                                 H5Tget_size(t.get()));
  EXPECT_GE(H5Dread(d.get(), t.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), 0);
  return out;
}

/// The exit code an action throws (Ok if it does not), checking the message is one line.
ExitCode code_of(const std::function<void()>& action, std::string* message = nullptr) {
  try {
    action();
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_FALSE(what.empty());
    if (message) *message = what;
    return e.code();
  }
  return ExitCode::Ok;
}

/// Opens and checks, as the transpose does.
void open_and_check(const std::string& file, const std::string& path) {
  InputFile in = InputFile::open(DatasetRef{file, path}, kSelf);
  io::check_transposable(in.dataset());
}

std::vector<std::uint16_t> iota16(std::size_t n) {
  std::vector<std::uint16_t> v(n);
  for (std::size_t k = 0; k < n; ++k) v[k] = static_cast<std::uint16_t>(k);
  return v;
}

// ---- names, types, ranges -------------------------------------------------------------------

TEST(IoRef, ParsesFileAndPath) {
  auto r = DatasetRef::parse("data/a.h5:/g/x");
  EXPECT_EQ(r.file, "data/a.h5");
  EXPECT_EQ(r.path, "/g/x");
  EXPECT_EQ(r.str(), "data/a.h5:/g/x");
  auto c = DatasetRef::parse("dir:with:colons/a.h5:/x");
  EXPECT_EQ(c.file, "dir:with:colons/a.h5");
  EXPECT_EQ(c.path, "/x");
  EXPECT_EQ(code_of([] { DatasetRef::parse("a.h5"); }), ExitCode::Usage);
  EXPECT_EQ(code_of([] { DatasetRef::parse("a.h5:x"); }), ExitCode::Usage);
  EXPECT_EQ(code_of([] { DatasetRef::parse("a.h5:/"); }), ExitCode::Usage);
  EXPECT_EQ(code_of([] { DatasetRef::parse(":/x"); }), ExitCode::Usage);
}

TEST(IoTypes, MakeH5TypeMatchesTheStandardTypes) {
  struct Case {
    const char* name;
    hid_t expected;
  } cases[] = {{"float32", H5T_IEEE_F32LE}, {"float64", H5T_IEEE_F64LE}, {"int8", H5T_STD_I8LE},
               {"int16", H5T_STD_I16LE},    {"int32", H5T_STD_I32LE},    {"int64", H5T_STD_I64LE},
               {"uint8", H5T_STD_U8LE},     {"uint16", H5T_STD_U16LE},   {"uint32", H5T_STD_U32LE},
               {"uint64", H5T_STD_U64LE}};
  for (const auto& c : cases) {
    H5Id t = io::make_h5_type(ElementType::parse(c.name));
    EXPECT_GT(H5Tequal(t.get(), c.expected), 0) << c.name;
  }
  for (std::size_t size : {8u, 16u}) {
    H5Id t = io::make_h5_type({ElementKind::Complex, size});
    ASSERT_EQ(H5Tget_class(t.get()), H5T_COMPOUND);
    EXPECT_EQ(H5Tget_size(t.get()), size);
    ASSERT_EQ(H5Tget_nmembers(t.get()), 2);
    char* r = H5Tget_member_name(t.get(), 0);
    char* i = H5Tget_member_name(t.get(), 1);
    EXPECT_STREQ(r, "r");
    EXPECT_STREQ(i, "i");
    H5free_memory(r);
    H5free_memory(i);
    EXPECT_EQ(H5Tget_member_offset(t.get(), 1), size / 2);
    H5Id part(H5Tget_member_type(t.get(), 1));
    EXPECT_GT(H5Tequal(part.get(), size == 8 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE), 0);
  }
  EXPECT_EQ(code_of([] { io::make_h5_type(ElementType::bytes(4)); }), ExitCode::Usage);
}

TEST(IoTypes, BoxesForRangeCoverExactlyTheRangeInOrder) {
  const Shape shape{2, 3, 4};
  const std::int64_t total = 24;
  for (std::int64_t first = 0; first <= total; ++first)
    for (std::int64_t count = 0; first + count <= total; ++count) {
      auto boxes = io::boxes_for_range(shape, first, count);
      EXPECT_LE(boxes.size(), 5u);
      std::vector<std::int64_t> covered;  // linear indices, in the order the boxes give them
      for (const auto& b : boxes)
        for (std::int64_t i = 0; i < b.count[0]; ++i)
          for (std::int64_t j = 0; j < b.count[1]; ++j)
            for (std::int64_t k = 0; k < b.count[2]; ++k)
              covered.push_back(((b.start[0] + i) * 3 + b.start[1] + j) * 4 + b.start[2] + k);
      std::vector<std::int64_t> expected;
      for (std::int64_t x = first; x < first + count; ++x) expected.push_back(x);
      ASSERT_EQ(covered, expected) << "first " << first << " count " << count;
    }
  EXPECT_EQ(code_of([&] { io::boxes_for_range(shape, 20, 5); }), ExitCode::Internal);
}

// ---- reads and writes -----------------------------------------------------------------------

/// Creates OUT with `type` and `shape`, writes `data` as two row bands, commits.
void write_output(const std::string& file, const std::string& path, hid_t type, const Shape& shape,
                  const void* data, const io::CreateOptions& options = {}) {
  OutputFile out = OutputFile::create(DatasetRef{file, path}, shape, type, options, kSelf);
  const std::int64_t total = element_count(shape);
  const std::int64_t half = total / shape.back() / 2 * shape.back();
  const std::size_t size = H5Tget_size(type);
  auto* bytes = static_cast<const unsigned char*>(data);
  out.dataset().write(io::boxes_for_range(shape, 0, half), bytes, Transfer::Collective);
  out.dataset().write(io::boxes_for_range(shape, half, total - half),
                      bytes + static_cast<std::size_t>(half) * size, Transfer::Independent);
  out.commit();
}

TEST(IoReadWrite, RoundTripEveryElementSize) {
  TempDir dir;
  const Shape shape{5, 7};
  H5Id opaque16(H5Tcreate(H5T_OPAQUE, 16));
  H5Tset_tag(opaque16.get(), "sixteen bytes");
  std::vector<std::pair<std::string, H5Id>> types;
  types.emplace_back("uint8", io::make_h5_type(ElementType::parse("uint8")));
  types.emplace_back("int16", io::make_h5_type(ElementType::parse("int16")));
  types.emplace_back("float32", io::make_h5_type(ElementType::parse("float32")));
  types.emplace_back("float64", io::make_h5_type(ElementType::parse("float64")));
  types.emplace_back("complex128", io::make_h5_type(ElementType::complex128()));
  types.emplace_back("opaque16", H5Id(H5Tcopy(opaque16.get())));
  for (const auto& [name, type] : types) {
    const std::size_t size = H5Tget_size(type.get());
    std::vector<unsigned char> data(35 * size);
    for (std::size_t k = 0; k < data.size(); ++k) data[k] = static_cast<unsigned char>(k * 7 + 3);
    const std::string file = dir / (name + ".h5");
    write_output(file, "/m", type.get(), shape, data.data());
    InputFile in = InputFile::open(DatasetRef{file, "/m"}, kSelf);
    EXPECT_EQ(in.dataset().info().shape, shape);
    EXPECT_EQ(in.dataset().info().element.size, size) << name;
    EXPECT_GT(H5Tequal(in.dataset().type(), type.get()), 0) << name;
    std::vector<unsigned char> back(data.size());
    in.dataset().read({Box{{0, 0}, {5, 7}}}, back.data(), Transfer::Collective);
    EXPECT_EQ(back, data) << name;
    // One column, all rows: a strided read.
    std::vector<unsigned char> column(5 * size);
    in.dataset().read({Box{{0, 3}, {5, 1}}}, column.data(), Transfer::Independent);
    for (std::size_t r = 0; r < 5; ++r)
      EXPECT_EQ(std::memcmp(&column[r * size], &data[(r * 7 + 3) * size], size), 0) << name;
  }
}

TEST(IoReadWrite, UnionOfBoxesComesBackPackedRowMajor) {
  TempDir dir;
  const std::string file = dir / "m.h5";
  const auto values = iota16(6 * 10);  // value = row * 10 + column
  write_raw(file, "/m", H5T_STD_U16LE, {6, 10}, values.data());
  InputFile in = InputFile::open(DatasetRef{file, "/m"}, kSelf);
  auto expect_rows = [&](const std::vector<Box>& boxes, std::int64_t r0, std::int64_t r1,
                         const std::vector<int>& columns) {
    std::vector<std::uint16_t> got(static_cast<std::size_t>(r1 - r0) * columns.size(), 0xffff);
    in.dataset().read(boxes, got.data(), Transfer::Independent);
    std::vector<std::uint16_t> expected;
    for (auto r = r0; r < r1; ++r)
      for (int c : columns) expected.push_back(static_cast<std::uint16_t>(r * 10 + c));
    EXPECT_EQ(got, expected);
  };
  // The engine's pattern: equal pieces at a constant stride, then a shorter last one.
  expect_rows({Box{{1, 0}, {3, 3}}, Box{{1, 4}, {3, 3}}, Box{{1, 8}, {3, 2}}}, 1, 4,
              {0, 1, 2, 4, 5, 6, 8, 9});
  // Equal pieces only (one strided hyperslab).
  expect_rows({Box{{0, 1}, {6, 2}}, Box{{0, 4}, {6, 2}}, Box{{0, 7}, {6, 2}}}, 0, 6,
              {1, 2, 4, 5, 7, 8});
  // Any order and widths: still the file's row-major order over the union.
  expect_rows({Box{{2, 7}, {2, 1}}, Box{{2, 0}, {2, 2}}, Box{{2, 3}, {2, 3}}}, 2, 4,
              {0, 1, 3, 4, 5, 7});
  // Overlapping boxes count once.
  expect_rows({Box{{0, 0}, {1, 4}}, Box{{0, 2}, {1, 4}}}, 0, 1, {0, 1, 2, 3, 4, 5});
  // Empty boxes and no boxes select nothing, and read nothing.
  std::vector<std::uint16_t> untouched(4, 7);
  in.dataset().read({Box{{0, 0}, {0, 3}}}, untouched.data(), Transfer::Collective);
  in.dataset().read({}, nullptr, Transfer::Collective);
  EXPECT_EQ(untouched, std::vector<std::uint16_t>(4, 7));
  // Boxes outside the dataset are a bug in the caller, reported with the values.
  EXPECT_EQ(code_of([&] {
              in.dataset().read({Box{{5, 0}, {2, 1}}}, untouched.data(), Transfer::Collective);
            }),
            ExitCode::Internal);
  EXPECT_EQ(code_of([&] {
              in.dataset().read({Box{{0}, {1}}}, untouched.data(), Transfer::Collective);
            }),
            ExitCode::Internal);
}

TEST(IoReadWrite, ThreeDimensionalBatchBoxes) {
  TempDir dir;
  const std::string file = dir / "b.h5";
  std::vector<std::int32_t> values(3 * 4 * 5);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<std::int32_t>(k);
  write_output(file, "/deep/b", H5T_STD_I32LE, {3, 4, 5}, values.data());
  InputFile in = InputFile::open(DatasetRef{file, "/deep/b"}, kSelf);
  // Columns 1..2 and 4 of rows 1..2, in batches 0 and 2 (a strided run along the batch axis).
  std::vector<Box> boxes{Box{{0, 1, 1}, {1, 2, 2}}, Box{{2, 1, 1}, {1, 2, 2}},
                         Box{{0, 1, 4}, {1, 2, 1}}, Box{{2, 1, 4}, {1, 2, 1}}};
  std::vector<std::int32_t> got(12);
  in.dataset().read(boxes, got.data(), Transfer::Independent);
  std::vector<std::int32_t> expected;
  for (int b : {0, 2})
    for (int r : {1, 2})
      for (int c : {1, 2, 4}) expected.push_back((b * 4 + r) * 5 + c);
  EXPECT_EQ(got, expected);
  // Points come back in the order they are asked for.
  std::vector<std::int32_t> points(3);
  in.dataset().read_points({2, 3, 4, 0, 0, 0, 1, 2, 3}, points.data());
  EXPECT_EQ(points, (std::vector<std::int32_t>{59, 0, 33}));
  EXPECT_EQ(code_of([&] { in.dataset().read_points({0, 0}, points.data()); }), ExitCode::Internal);
  EXPECT_EQ(code_of([&] {
              in.dataset().read_points({3, 0, 0}, points.data());
            }),
            ExitCode::Internal);
}

TEST(IoReadWrite, BigEndianFloatInputKeepsItsExactType) {
  TempDir dir;
  const std::string in_file = dir / "be.h5", out_file = dir / "out.h5";
  std::vector<float> values(4 * 6);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = 0.5f + static_cast<float>(k);
  // Written from native floats, stored big-endian: HDF5 converts on the way in.
  {
    H5Id f(H5Fcreate(in_file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    hsize_t dims[2] = {4, 6};
    H5Id s(H5Screate_simple(2, dims, nullptr));
    H5Id d(
        H5Dcreate2(f.get(), "/x", H5T_IEEE_F32BE, s.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    ASSERT_GE(H5Dwrite(d.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  }
  InputFile in = InputFile::open(DatasetRef{in_file, "/x"}, kSelf);
  EXPECT_NO_THROW(io::check_transposable(in.dataset()));
  EXPECT_EQ(in.dataset().info().element, ElementType::float32());
  EXPECT_NE(in.dataset().info().type_description.find("big-endian"), std::string::npos)
      << in.dataset().info().type_description;
  std::vector<unsigned char> raw(values.size() * 4);
  in.dataset().read({Box{{0, 0}, {4, 6}}}, raw.data(), Transfer::Collective);
  // The bytes move unconverted: big-endian 0.5f is 3f 00 00 00.
  EXPECT_EQ(raw[0], 0x3f);
  EXPECT_EQ(raw[3], 0x00);
  write_output(out_file, "/y", in.dataset().type(), {4, 6}, raw.data());
  InputFile out = InputFile::open(DatasetRef{out_file, "/y"}, kSelf);
  EXPECT_GT(H5Tequal(out.dataset().type(), H5T_IEEE_F32BE), 0);
  EXPECT_EQ(read_raw(out_file, "/y"), raw);
}

TEST(IoReadWrite, CompoundComplexIsRecognised) {
  TempDir dir;
  const std::string file = dir / "c.h5";
  // h5py's complex128: compound {r: <f8, i: <f8}.
  H5Id type(H5Tcreate(H5T_COMPOUND, 16));
  H5Tinsert(type.get(), "r", 0, H5T_IEEE_F64LE);
  H5Tinsert(type.get(), "i", 8, H5T_IEEE_F64LE);
  std::vector<double> values(2 * 3 * 4);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<double>(k) - 3.25;
  write_raw(file, "/z", type.get(), {3, 4}, values.data());
  InputFile in = InputFile::open(DatasetRef{file, "/z"}, kSelf);
  EXPECT_NO_THROW(io::check_transposable(in.dataset()));
  EXPECT_EQ(in.dataset().info().element, ElementType::complex128());
  EXPECT_EQ(in.dataset().info().type_description, "complex128 (compound r,i)");
  H5Id ours = io::make_h5_type(ElementType::complex128());
  EXPECT_GT(H5Tequal(in.dataset().type(), ours.get()), 0);
  std::vector<double> got(4);
  in.dataset().read({Box{{1, 2}, {2, 1}}}, got.data(), Transfer::Independent);
  EXPECT_EQ(got, (std::vector<double>{values[12], values[13], values[20], values[21]}));
}

TEST(IoReadWrite, ChunkedGzipInputIsReadableAndDescribed) {
  TempDir dir;
  const std::string file = dir / "z.h5";
  std::vector<float> values(20 * 30);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<float>(k % 17);
  H5Id dcpl(H5Pcreate(H5P_DATASET_CREATE));
  hsize_t chunk[2] = {7, 11};
  H5Pset_chunk(dcpl.get(), 2, chunk);
  H5Pset_shuffle(dcpl.get());
  H5Pset_deflate(dcpl.get(), 4);
  write_raw(file, "/z", H5T_IEEE_F32LE, {20, 30}, values.data(), dcpl.get());
  InputFile in = InputFile::open(DatasetRef{file, "/z"}, kSelf);
  const auto& info = in.dataset().info();
  EXPECT_EQ(info.layout, io::Layout::Chunked);
  EXPECT_STREQ(io::layout_name(info.layout), "chunked");
  EXPECT_EQ(info.chunk, (Shape{7, 11}));
  EXPECT_EQ(info.filters, (std::vector<std::string>{"shuffle", "deflate(4)"}));
  EXPECT_GT(info.storage_bytes, 0);
  EXPECT_LT(info.storage_bytes, static_cast<std::int64_t>(values.size() * 4));
  EXPECT_NO_THROW(io::check_transposable(in.dataset()));
  auto check_columns = [&] {
    std::vector<float> got(20 * 4);
    in.dataset().read({Box{{0, 9}, {20, 2}}, Box{{0, 20}, {20, 2}}}, got.data(),
                      Transfer::Independent);
    for (int r = 0; r < 20; ++r)
      for (int k = 0; k < 4; ++k) {
        int c = (k < 2 ? 9 : 18) + k;
        EXPECT_EQ(got[static_cast<std::size_t>(r * 4 + k)],
                  values[static_cast<std::size_t>(r * 30 + c)]);
      }
  };
  check_columns();
  in.dataset().set_chunk_cache(1 << 20);  // reopens the dataset
  check_columns();
  EXPECT_EQ(in.dataset().info().chunk, (Shape{7, 11}));
}

// ---- classification of bad inputs -----------------------------------------------------------

class IoErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = dir_ / "in.h5";
    std::vector<float> m(4 * 5, 1.0f);
    write_raw(file_, "/data", H5T_IEEE_F32LE, {4, 5}, m.data());
    H5Id f(H5Fopen(file_.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    H5Id g(H5Gcreate2(f.get(), "/grp", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Id g2(H5Gcreate2(f.get(), "/grp/inner", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Lcreate_soft("/nowhere", f.get(), "/dangling", H5P_DEFAULT, H5P_DEFAULT);
  }
  void add(const std::string& path, hid_t type, const Shape& shape, const void* data = nullptr) {
    write_raw(file_, path, type, shape, data, H5P_DEFAULT, false);
  }
  TempDir dir_;
  std::string file_;
};

TEST_F(IoErrors, MissingFileIsNotFound) {
  std::string message;
  EXPECT_EQ(code_of([&] { open_and_check(dir_ / "missing.h5", "/data"); }, &message),
            ExitCode::InputNotFound);
  EXPECT_NE(message.find("no such file"), std::string::npos) << message;
  EXPECT_EQ(code_of([&] { open_and_check(dir_ / "nodir/missing.h5", "/data"); }),
            ExitCode::InputNotFound);
}

TEST_F(IoErrors, TextFileDirectoryAndTruncatedFileAreUnreadable) {
  const std::string text = dir_ / "notes.txt";
  std::ofstream(text) << std::string(4000, 'x');
  std::string message;
  EXPECT_EQ(code_of([&] { open_and_check(text, "/data"); }, &message), ExitCode::InputUnreadable);
  EXPECT_EQ(message, "input '" + text + "': not an HDF5 file");
  EXPECT_EQ(code_of([&] { open_and_check(dir_.path(), "/data"); }), ExitCode::InputUnreadable);
  const std::string empty = dir_ / "empty.h5";
  std::ofstream(empty).close();
  EXPECT_EQ(code_of([&] { open_and_check(empty, "/data"); }), ExitCode::InputUnreadable);

  const std::string cut = dir_ / "cut.h5";
  std::vector<double> big(200 * 200, 2.0);
  write_raw(cut, "/data", H5T_IEEE_F64LE, {200, 200}, big.data());
  fs::resize_file(cut, fs::file_size(cut) / 2);
  EXPECT_EQ(code_of([&] { open_and_check(cut, "/data"); }, &message), ExitCode::InputUnreadable);
  EXPECT_NE(message.find(cut), std::string::npos) << message;
}

TEST_F(IoErrors, MissingDatasetsAndGroupsAreNotFound) {
  std::string message;
  EXPECT_EQ(code_of([&] { open_and_check(file_, "/nope"); }, &message), ExitCode::InputNotFound);
  EXPECT_EQ(code_of([&] { open_and_check(file_, "/no/such/path"); }, &message),
            ExitCode::InputNotFound);
  EXPECT_NE(message.find("no 'no' in '/'"), std::string::npos) << message;
  EXPECT_EQ(code_of([&] { open_and_check(file_, "/grp/missing"); }), ExitCode::InputNotFound);
  EXPECT_EQ(code_of([&] { open_and_check(file_, "/grp"); }, &message), ExitCode::InputNotFound);
  EXPECT_EQ(message, "'/grp' in '" + file_ + "' is a group, not a dataset");
  EXPECT_EQ(code_of([&] { open_and_check(file_, "/grp/inner/"); }), ExitCode::InputNotFound);
  EXPECT_EQ(code_of([&] { open_and_check(file_, "/data/below"); }, &message),
            ExitCode::InputNotFound);
  EXPECT_NE(message.find("is a dataset, not a group"), std::string::npos) << message;
  EXPECT_EQ(code_of([&] { open_and_check(file_, "/dangling"); }, &message),
            ExitCode::InputNotFound);
  EXPECT_NE(message.find("dangling"), std::string::npos) << message;
  // The well-formed path next to them opens (with or without a doubled slash).
  EXPECT_EQ(code_of([&] { open_and_check(file_, "/data"); }), ExitCode::Ok);
  EXPECT_EQ(code_of([&] { open_and_check(file_, "//data"); }), ExitCode::Ok);
}

TEST_F(IoErrors, UnsupportedShapesAndTypes) {
  std::vector<float> vec(10, 0.f);
  add("/vec", H5T_IEEE_F32LE, {10}, vec.data());
  float one = 1.f;
  add("/scalar", H5T_IEEE_F32LE, {}, &one);
  H5Id vstr(H5Tcopy(H5T_C_S1));
  H5Tset_size(vstr.get(), H5T_VARIABLE);
  add("/vlen_string", vstr.get(), {2, 2});
  H5Id vseq(H5Tvlen_create(H5T_STD_I32LE));
  add("/vlen_seq", vseq.get(), {2, 2});
  H5Id opaque3(H5Tcreate(H5T_OPAQUE, 3));
  H5Tset_tag(opaque3.get(), "three");
  add("/opaque3", opaque3.get(), {2, 2});
  H5Id wide(H5Tcreate(H5T_COMPOUND, 32));
  H5Tinsert(wide.get(), "a", 0, H5T_IEEE_F64LE);
  H5Tinsert(wide.get(), "b", 8, H5T_IEEE_F64LE);
  H5Tinsert(wide.get(), "c", 16, H5T_IEEE_F64LE);
  H5Tinsert(wide.get(), "d", 24, H5T_IEEE_F64LE);
  add("/compound32", wide.get(), {2, 2});
  // A 16-byte compound hiding a variable-length string: the size is fine, the content is not.
  H5Id hiding(H5Tcreate(H5T_COMPOUND, 16));
  H5Tinsert(hiding.get(), "n", 0, H5T_STD_I64LE);
  H5Tinsert(hiding.get(), "s", 8, vstr.get());
  add("/compound_vlen", hiding.get(), {2, 2});
  add("/refs", H5T_STD_REF_OBJ, {2, 2});
  struct Case {
    const char* path;
    const char* says;
  } cases[] = {{"/vec", "rank 1"},
               {"/scalar", "rank 0"},
               {"/vlen_string", "variable-length string"},
               {"/vlen_seq", "variable-length"},
               {"/opaque3", "3-byte"},
               {"/compound32", "32-byte"},
               {"/compound_vlen", "variable-length string (member 's')"},
               {"/refs", "reference"}};
  for (const auto& c : cases) {
    std::string message;
    EXPECT_EQ(code_of([&] { open_and_check(file_, c.path); }, &message), ExitCode::InputUnsupported)
        << c.path;
    EXPECT_NE(message.find(c.says), std::string::npos) << message;
    // open alone describes it (what `xpose info` shows).
    EXPECT_EQ(code_of([&] {
                InputFile::open(DatasetRef{file_, c.path}, kSelf);
              }),
              ExitCode::Ok)
        << c.path;
  }
}

TEST_F(IoErrors, FixedSizeTypesOfEveryKindAreAccepted) {
  H5Id enum8(H5Tenum_create(H5T_STD_I8LE));
  std::int8_t no = 0, yes = 1;
  H5Tenum_insert(enum8.get(), "FALSE", &no);
  H5Tenum_insert(enum8.get(), "TRUE", &yes);
  H5Id bits(H5Tcopy(H5T_STD_B16LE));
  H5Id str8(H5Tcopy(H5T_C_S1));
  H5Tset_size(str8.get(), 8);
  hsize_t two[1] = {2};
  H5Id pair(H5Tarray_create2(H5T_STD_I32BE, 1, two));
  H5Id opaque4(H5Tcreate(H5T_OPAQUE, 4));
  H5Tset_tag(opaque4.get(), "four");
  H5Id i16x2(H5Tcreate(H5T_COMPOUND, 4));
  H5Tinsert(i16x2.get(), "a", 0, H5T_STD_I16LE);
  H5Tinsert(i16x2.get(), "b", 2, H5T_STD_U16BE);
  struct Case {
    const char* path;
    hid_t type;
    ElementType element;
    const char* says;
  } cases[] = {{"/enum", enum8.get(), {ElementKind::Other, 1}, "enum"},
               {"/bits", bits.get(), {ElementKind::Other, 2}, "bitfield"},
               {"/str8", str8.get(), {ElementKind::Other, 8}, "fixed string (8 bytes"},
               {"/pair", pair.get(), {ElementKind::Other, 8}, "array [2] of int32 (big-endian)"},
               {"/opaque4", opaque4.get(), {ElementKind::Other, 4}, "tag 'four'"},
               {"/i16x2", i16x2.get(), {ElementKind::Other, 4}, "compound {a: int16"},
               {"/i64be", H5T_STD_I64BE, {ElementKind::SignedInt, 8}, "int64 (big-endian)"},
               {"/u32", H5T_STD_U32LE, {ElementKind::UnsignedInt, 4}, "uint32 (little-endian)"},
               {"/f64", H5T_IEEE_F64LE, ElementType::float64(), "float64 (IEEE, little-endian)"}};
  for (const auto& c : cases) {
    add(c.path, c.type, {3, 2});
    InputFile in = InputFile::open(DatasetRef{file_, c.path}, kSelf);
    EXPECT_NO_THROW(io::check_transposable(in.dataset())) << c.path;
    EXPECT_EQ(in.dataset().info().element, c.element) << c.path;
    EXPECT_NE(in.dataset().info().type_description.find(c.says), std::string::npos)
        << c.path << ": " << in.dataset().info().type_description;
  }
}

// ---- output targets and atomic output -------------------------------------------------------

TEST(IoOutput, CheckOutputTargetRefusesTheInputAndExistingFiles) {
  TempDir dir;
  const std::string in_file = dir / "in.h5";
  std::vector<float> m(4, 0.f);
  write_raw(in_file, "/data", H5T_IEEE_F32LE, {2, 2}, m.data());
  const DatasetRef in{in_file, "/data"};
  auto code = [&](const std::string& out, bool force) {
    return code_of([&] { io::check_output_target(DatasetRef{out, "/t"}, in, force); });
  };
  EXPECT_EQ(code(in_file, true), ExitCode::OutputRefused);                  // same path
  EXPECT_EQ(code(dir.path() + "/./in.h5", true), ExitCode::OutputRefused);  // another spelling
  EXPECT_EQ(code(dir.path() + "/../" + fs::path(dir.path()).filename().string() + "/in.h5", true),
            ExitCode::OutputRefused);
  fs::create_symlink(in_file, dir / "link.h5");
  EXPECT_EQ(code(dir / "link.h5", true), ExitCode::OutputRefused);  // a symbolic link to it
  fs::create_hard_link(in_file, dir / "hard.h5");
  EXPECT_EQ(code(dir / "hard.h5", true), ExitCode::OutputRefused);  // the same inode
  std::ofstream(dir / "old.h5") << "precious";
  EXPECT_EQ(code(dir / "old.h5", false), ExitCode::OutputRefused);  // exists, no force
  EXPECT_EQ(code(dir / "old.h5", true), ExitCode::Ok);
  EXPECT_EQ(code(dir / "new.h5", false), ExitCode::Ok);
  EXPECT_EQ(code(dir / "no/such/dir/out.h5", true), ExitCode::OutputRefused);
  fs::create_directory(dir / "sub");
  EXPECT_EQ(code(dir / "sub", true), ExitCode::OutputRefused);  // a directory
  // No input (generate): only the output side is checked.
  EXPECT_EQ(code_of([&] {
              io::check_output_target(DatasetRef{in_file, "/t"}, {}, true);
            }),
            ExitCode::Ok);
}

TEST(IoOutput, CheckOutputTargetRefusesNamesXposeDidNotCreate) {
  TempDir dir;
  const std::string in_file = dir / "in.h5";
  std::vector<float> m(4, 0.f);
  write_raw(in_file, "/data", H5T_IEEE_F32LE, {2, 2}, m.data());
  const DatasetRef in{in_file, "/data"};
  const std::string out = dir / "out.h5", partial = io::temporary_path_for(out);
  auto code = [&](const std::string& target, bool force, std::vector<std::string> own, std::string* message = nullptr) {
    return code_of([&] { io::check_output_target(DatasetRef{target, "/t"}, in, force, own); }, message);
  };
  EXPECT_EQ(code(out, false, {partial}), ExitCode::Ok);
  fs::create_symlink(dir / "victim", partial);  // dangling or not: refused, named
  std::string message;
  EXPECT_EQ(code(out, false, {partial}, &message), ExitCode::OutputRefused);
  EXPECT_NE(message.find(".out.h5.xpose-partial' is a symbolic link"), std::string::npos) << message;
  fs::remove(partial);
  ASSERT_EQ(mkfifo(partial.c_str(), 0600), 0);
  EXPECT_EQ(code(out, false, {partial}), ExitCode::OutputRefused);
  fs::remove(partial);
  std::ofstream(partial) << "maybe an interrupted run's";
  EXPECT_EQ(code(out, false, {partial}), ExitCode::Ok);  // a regular file is the caller's to judge
  // The input under one of the output's own names.
  const std::string o2 = dir / "o2.h5";
  fs::copy_file(in_file, io::temporary_path_for(o2));
  EXPECT_EQ(code_of([&] {
              io::check_output_target(DatasetRef{o2, "/t"}, DatasetRef{io::temporary_path_for(o2), "/data"}, false,
                                      {io::temporary_path_for(o2)});
            }),
            ExitCode::OutputRefused);
  // Names past NAME_MAX once '.' and '.xpose-partial' are added.
  const std::string long_out = dir / (std::string(245, 'o') + ".h5");
  EXPECT_EQ(code(long_out, false, {}), ExitCode::Ok);
  EXPECT_EQ(code(long_out, false, {io::temporary_path_for(long_out)}, &message), ExitCode::OutputRefused);
  EXPECT_NE(message.find("too long"), std::string::npos) << message;
  // --force replaces regular files only, and never through a symbolic link.
  ASSERT_EQ(mkfifo(out.c_str(), 0600), 0);
  EXPECT_EQ(code(out, true, {}), ExitCode::OutputRefused);
  fs::remove(out);
  std::ofstream(dir / "victim") << "precious";
  fs::create_symlink(dir / "victim", out);
  EXPECT_EQ(code(out, true, {}), ExitCode::OutputRefused);
}

TEST(IoOutput, CreateIsExclusiveAndKeepsWhatIsThere) {
  TempDir dir;
  const std::string out = dir / "out.h5", partial = io::temporary_path_for(out);
  std::ofstream(dir / "victim") << "precious";
  fs::create_symlink(dir / "victim", partial);
  H5Id type = io::make_h5_type(ElementType::float32());
  EXPECT_EQ(code_of([&] { OutputFile::create(DatasetRef{out, "/t"}, {2, 2}, type.get(), {}, kSelf); }),
            ExitCode::OutputRefused);
  EXPECT_TRUE(fs::is_symlink(partial));  // neither removed nor written through
  std::string text;
  std::getline(std::ifstream(dir / "victim"), text);
  EXPECT_EQ(text, "precious");
  fs::remove(partial);
  io::CreateOptions mode;
  mode.mode = 0600;
  OutputFile o = OutputFile::create(DatasetRef{out, "/t"}, {2, 2}, type.get(), mode, kSelf);
  struct stat st {};
  ASSERT_EQ(::stat(partial.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(IoOutput, CheckOutputTargetRefusesAReadOnlyDirectory) {
  if (geteuid() == 0)
    GTEST_SKIP() << "running as root: access() reports every directory writable, so a read-only "
                    "directory cannot be told apart here";
  TempDir dir;
  fs::create_directory(dir / "ro");
  fs::permissions(dir / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_EQ(code_of([&] {
              io::check_output_target(DatasetRef{dir / "ro/out.h5", "/t"}, {}, true);
            }),
            ExitCode::OutputRefused);
}

TEST(IoOutput, CommitPublishesAndAbandonLeavesNothing) {
  TempDir dir;
  const std::string final_file = dir / "out.h5";
  const std::string temp = dir / ".out.h5.xpose-partial";
  EXPECT_EQ(io::temporary_path_for(final_file), temp);
  EXPECT_EQ(io::temporary_path_for("x.h5"), ".x.h5.xpose-partial");
  H5Id type = io::make_h5_type(ElementType::float32());
  std::vector<float> data(6 * 4);
  for (std::size_t k = 0; k < data.size(); ++k) data[k] = static_cast<float>(k);
  {
    OutputFile out =
        OutputFile::create(DatasetRef{final_file, "/a/b/t"}, {6, 4}, type.get(), {}, kSelf);
    EXPECT_EQ(out.temporary_path(), temp);
    EXPECT_EQ(out.final_path(), final_file);
    EXPECT_TRUE(exists(temp));
    EXPECT_FALSE(exists(final_file));
    EXPECT_EQ(out.dataset().info().layout, io::Layout::Contiguous);
    EXPECT_EQ(out.dataset().info().storage_bytes, 6 * 4 * 4);  // allocated early
    out.dataset().write({Box{{0, 0}, {6, 4}}}, data.data(), Transfer::Collective);
    out.commit();
    EXPECT_TRUE(exists(final_file));
    EXPECT_FALSE(exists(temp));
    EXPECT_EQ(code_of([&] { out.commit(); }), ExitCode::Internal);
  }
  EXPECT_TRUE(exists(final_file));  // destroying a committed output keeps it
  auto bytes = read_raw(final_file, "/a/b/t");
  EXPECT_EQ(std::memcmp(bytes.data(), data.data(), bytes.size()), 0);

  const std::string other = dir / "other.h5";
  {
    OutputFile out = OutputFile::create(DatasetRef{other, "/t"}, {2, 2}, type.get(), {}, kSelf);
    EXPECT_TRUE(exists(io::temporary_path_for(other)));
  }
  EXPECT_FALSE(exists(other));
  EXPECT_FALSE(exists(io::temporary_path_for(other)));
  {
    OutputFile out = OutputFile::create(DatasetRef{other, "/t"}, {2, 2}, type.get(), {}, kSelf);
    OutputFile moved = std::move(out);
    out.abandon();  // the moved-from object owns nothing
    EXPECT_TRUE(exists(io::temporary_path_for(other)));
    moved.abandon();
    EXPECT_FALSE(exists(io::temporary_path_for(other)));
    moved.abandon();  // twice is harmless
  }
  EXPECT_FALSE(exists(other));
  std::set<std::string> left;
  for (const auto& e : fs::directory_iterator(dir.path())) left.insert(e.path().filename());
  EXPECT_EQ(left, std::set<std::string>{"out.h5"});
}

TEST(IoOutput, ForceReplacesTheOldFileOnlyAtCommit) {
  TempDir dir;
  const std::string file = dir / "out.h5";
  std::ofstream(file) << "precious";
  H5Id type = io::make_h5_type(ElementType::parse("int32"));
  std::vector<std::int32_t> data{1, 2, 3, 4};
  OutputFile out = OutputFile::create(DatasetRef{file, "/t"}, {2, 2}, type.get(), {}, kSelf);
  out.dataset().write({Box{{0, 0}, {2, 2}}}, data.data(), Transfer::Collective);
  std::string before;
  std::getline(std::ifstream(file), before);
  EXPECT_EQ(before, "precious");
  out.commit();
  EXPECT_GT(H5Fis_hdf5(file.c_str()), 0);
}

TEST(IoOutput, ChunkOptionIsCheckedAndClamped) {
  TempDir dir;
  H5Id type = io::make_h5_type(ElementType::float64());
  io::CreateOptions bad;
  bad.chunk = {4, 4, 4};
  EXPECT_EQ(code_of([&] {
              OutputFile::create(DatasetRef{dir / "c.h5", "/t"}, {5, 7}, type.get(), bad, kSelf);
            }),
            ExitCode::Usage);
  io::CreateOptions zero;
  zero.chunk = {0, 4};
  EXPECT_EQ(code_of([&] {
              OutputFile::create(DatasetRef{dir / "c.h5", "/t"}, {5, 7}, type.get(), zero, kSelf);
            }),
            ExitCode::Usage);
  EXPECT_FALSE(exists(io::temporary_path_for(dir / "c.h5")));
  io::CreateOptions big;
  big.chunk = {100, 3};
  OutputFile out =
      OutputFile::create(DatasetRef{dir / "c.h5", "/t"}, {5, 7}, type.get(), big, kSelf);
  EXPECT_EQ(out.dataset().info().layout, io::Layout::Chunked);
  EXPECT_EQ(out.dataset().info().chunk, (Shape{5, 3}));
  std::vector<double> data(35, 1.5);
  out.dataset().write({Box{{0, 0}, {5, 7}}}, data.data(), Transfer::Collective);
  out.commit();
  auto bytes = read_raw(dir / "c.h5", "/t");
  EXPECT_EQ(std::memcmp(bytes.data(), data.data(), bytes.size()), 0);
}

/// Reads a string attribute (fixed or variable length) with plain HDF5.
std::string read_string_attribute(hid_t object, const char* name) {
  H5Id attr(H5Aopen(object, name, H5P_DEFAULT));
  H5Id type(H5Aget_type(attr.get()));
  if (H5Tis_variable_str(type.get()) > 0) {
    char* text = nullptr;
    EXPECT_GE(H5Aread(attr.get(), type.get(), &text), 0);
    std::string s = text ? text : "";
    H5free_memory(text);
    return s;
  }
  std::string s(H5Tget_size(type.get()), '\0');
  EXPECT_GE(H5Aread(attr.get(), type.get(), s.data()), 0);
  return s.substr(0, s.find('\0'));
}

TEST(IoOutput, AttributesAreCopiedAndSet) {
  TempDir dir;
  const std::string in_file = dir / "in.h5", out_file = dir / "out.h5";
  std::vector<float> m(4, 0.f);
  write_raw(in_file, "/data", H5T_IEEE_F32LE, {2, 2}, m.data());
  {
    H5Id f(H5Fopen(in_file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    H5Id d(H5Dopen2(f.get(), "/data", H5P_DEFAULT));
    H5Id scalar(H5Screate(H5S_SCALAR));
    std::int32_t answer = 42;
    H5Id a1(H5Acreate2(d.get(), "answer", H5T_STD_I32LE, scalar.get(), H5P_DEFAULT, H5P_DEFAULT));
    H5Awrite(a1.get(), H5T_NATIVE_INT32, &answer);
    hsize_t three[1] = {3};
    H5Id vec(H5Screate_simple(1, three, nullptr));
    double units[3] = {1.5, 2.5, -3.0};
    H5Id a2(H5Acreate2(d.get(), "scale", H5T_IEEE_F64BE, vec.get(), H5P_DEFAULT, H5P_DEFAULT));
    H5Awrite(a2.get(), H5T_NATIVE_DOUBLE, units);
    H5Id vstr(H5Tcopy(H5T_C_S1));
    H5Tset_size(vstr.get(), H5T_VARIABLE);
    H5Tset_cset(vstr.get(), H5T_CSET_UTF8);
    const char* text = "metres per second";
    H5Id a3(H5Acreate2(d.get(), "units", vstr.get(), scalar.get(), H5P_DEFAULT, H5P_DEFAULT));
    H5Awrite(a3.get(), vstr.get(), &text);
    const char* names[3] = {"x", "yy", "zzz"};
    H5Id a4(H5Acreate2(d.get(), "axes", vstr.get(), vec.get(), H5P_DEFAULT, H5P_DEFAULT));
    H5Awrite(a4.get(), vstr.get(), names);
    H5Id fixed(H5Tcopy(H5T_C_S1));
    H5Tset_size(fixed.get(), 6);
    H5Id a5(H5Acreate2(d.get(), "note", fixed.get(), scalar.get(), H5P_DEFAULT, H5P_DEFAULT));
    H5Awrite(a5.get(), fixed.get(), "hello");
    H5Id vseq(H5Tvlen_create(H5T_STD_I16LE));
    std::int16_t s1[2] = {1, 2}, s2[1] = {3};
    hvl_t ragged[2] = {{2, s1}, {1, s2}};
    hsize_t two[1] = {2};
    H5Id vec2(H5Screate_simple(1, two, nullptr));
    H5Id a6(H5Acreate2(d.get(), "ragged", vseq.get(), vec2.get(), H5P_DEFAULT, H5P_DEFAULT));
    H5Awrite(a6.get(), vseq.get(), ragged);
  }
  InputFile in = InputFile::open(DatasetRef{in_file, "/data"}, kSelf);
  H5Id type = io::make_h5_type(ElementType::float32());
  OutputFile out = OutputFile::create(DatasetRef{out_file, "/t"}, {2, 2}, type.get(), {}, kSelf);
  out.copy_attributes_from(in.dataset());
  out.copy_attributes_from(in.dataset());  // again: attributes are replaced, not duplicated
  out.set_attribute("xpose_note", "first");
  out.set_attribute("xpose_note", "transposé");  // replaced, UTF-8 kept
  out.set_attribute("xpose_shape", std::vector<std::int64_t>{2, -3, 1ll << 40});
  out.set_attribute("xpose_empty", std::vector<std::int64_t>{});
  out.dataset().write({Box{{0, 0}, {2, 2}}}, m.data(), Transfer::Collective);
  out.commit();

  H5Id f(H5Fopen(out_file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  H5Id d(H5Dopen2(f.get(), "/t", H5P_DEFAULT));
  H5O_info_t info{};
  H5Oget_info2(d.get(), &info, H5O_INFO_NUM_ATTRS);
  EXPECT_EQ(info.num_attrs, 9u);
  std::int32_t answer = 0;
  H5Id a1(H5Aopen(d.get(), "answer", H5P_DEFAULT));
  H5Aread(a1.get(), H5T_NATIVE_INT32, &answer);
  EXPECT_EQ(answer, 42);
  H5Id a2(H5Aopen(d.get(), "scale", H5P_DEFAULT));
  H5Id a2type(H5Aget_type(a2.get()));
  EXPECT_GT(H5Tequal(a2type.get(), H5T_IEEE_F64BE), 0);  // the type is kept, not converted
  double units[3] = {0, 0, 0};
  H5Aread(a2.get(), H5T_NATIVE_DOUBLE, units);
  EXPECT_EQ(units[2], -3.0);
  EXPECT_EQ(read_string_attribute(d.get(), "units"), "metres per second");
  EXPECT_EQ(read_string_attribute(d.get(), "note"), "hello");
  EXPECT_EQ(read_string_attribute(d.get(), "xpose_note"), "transposé");
  {
    H5Id a4(H5Aopen(d.get(), "axes", H5P_DEFAULT));
    H5Id t(H5Aget_type(a4.get()));
    char* names[3] = {nullptr, nullptr, nullptr};
    ASSERT_GE(H5Aread(a4.get(), t.get(), names), 0);
    EXPECT_STREQ(names[2], "zzz");
    H5Id s(H5Aget_space(a4.get()));
    H5Dvlen_reclaim(t.get(), s.get(), H5P_DEFAULT, names);
  }
  {
    H5Id a6(H5Aopen(d.get(), "ragged", H5P_DEFAULT));
    H5Id t(H5Aget_type(a6.get()));
    hvl_t ragged[2] = {};
    ASSERT_GE(H5Aread(a6.get(), t.get(), ragged), 0);
    EXPECT_EQ(ragged[0].len, 2u);
    EXPECT_EQ(static_cast<std::int16_t*>(ragged[1].p)[0], 3);
    H5Id s(H5Aget_space(a6.get()));
    H5Dvlen_reclaim(t.get(), s.get(), H5P_DEFAULT, ragged);
  }
  std::int64_t shape[3] = {0, 0, 0};
  H5Id a7(H5Aopen(d.get(), "xpose_shape", H5P_DEFAULT));
  H5Aread(a7.get(), H5T_NATIVE_INT64, shape);
  EXPECT_EQ(shape[1], -3);
  EXPECT_EQ(shape[2], 1ll << 40);
}

// ---- generate and verify --------------------------------------------------------------------

TEST(Generate, PatternIsDeterministicFiniteAndDistinct) {
  const std::int64_t n = 10000;
  std::vector<float> a(n), b(n), c(n);
  generate_pattern(ElementType::float32(), 7, 0, n, a.data());
  generate_pattern(ElementType::float32(), 7, 0, n, b.data());
  generate_pattern(ElementType::float32(), 8, 0, n, c.data());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::vector<float> tail(10);
  generate_pattern(ElementType::float32(), 7, 123, 10, tail.data());
  EXPECT_TRUE(std::equal(tail.begin(), tail.end(), a.begin() + 123));
  for (float v : a) ASSERT_TRUE(std::isfinite(v)) << v;
  EXPECT_GT(std::set<float>(a.begin(), a.end()).size(), static_cast<std::size_t>(n - 10));

  std::vector<double> d(2 * n);
  generate_pattern(ElementType::complex128(), 3, 0, n, d.data());
  for (double v : d) ASSERT_TRUE(std::isfinite(v)) << v;
  EXPECT_GT(std::set<double>(d.begin(), d.end()).size(), static_cast<std::size_t>(2 * n - 2));
  std::vector<float> z(2 * n);
  generate_pattern(ElementType::complex64(), 3, 0, n, z.data());
  for (float v : z) ASSERT_TRUE(std::isfinite(v)) << v;
  std::vector<double> f64(n);
  generate_pattern(ElementType::float64(), 3, 0, n, f64.data());
  for (double v : f64) ASSERT_TRUE(std::isfinite(v)) << v;

  for (const char* name : {"int8", "uint16", "int32", "uint64"}) {
    ElementType t = ElementType::parse(name);
    std::vector<unsigned char> x(t.size * 64), y(t.size * 64);
    generate_pattern(t, 1, 100, 64, x.data());
    generate_pattern(t, 2, 100, 64, y.data());
    EXPECT_NE(x, y) << name;
  }
}

/// Writes OUT = IN^T (last two axes) with plain HDF5: the slow, obvious way.
void naive_transpose(const std::string& in_file, const std::string& out_file,
                     const std::string& path) {
  H5Id fi(H5Fopen(in_file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  H5Id di(H5Dopen2(fi.get(), path.c_str(), H5P_DEFAULT));
  H5Id type(H5Dget_type(di.get()));
  H5Id si(H5Dget_space(di.get()));
  int rank = H5Sget_simple_extent_ndims(si.get());
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(si.get(), dims.data(), nullptr);
  const std::size_t size = H5Tget_size(type.get());
  std::vector<unsigned char> a(static_cast<std::size_t>(H5Sget_simple_extent_npoints(si.get())) *
                               size);
  H5Dread(di.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, a.data());
  const std::size_t rows = dims[rank - 2], cols = dims[rank - 1],
                    batch = a.size() / size / rows / cols;
  std::vector<unsigned char> t(a.size());
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        std::memcpy(&t[((b * cols + j) * rows + i) * size], &a[((b * rows + i) * cols + j) * size],
                    size);
  Shape out_shape(dims.begin(), dims.end());
  std::swap(out_shape[rank - 1], out_shape[rank - 2]);
  write_raw(out_file, path, type.get(), out_shape, t.data());
}

/// Overwrites one element (its first byte flipped) with plain HDF5.
void flip_element(const std::string& file, const std::string& path, const Shape& at) {
  H5Id f(H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  H5Id d(H5Dopen2(f.get(), path.c_str(), H5P_DEFAULT));
  H5Id type(H5Dget_type(d.get()));
  H5Id space(H5Dget_space(d.get()));
  std::vector<hsize_t> coords(at.begin(), at.end());
  H5Sselect_elements(space.get(), H5S_SELECT_SET, 1, coords.data());
  hsize_t one[1] = {1};
  H5Id mem(H5Screate_simple(1, one, nullptr));
  std::vector<unsigned char> value(H5Tget_size(type.get()));
  H5Dread(d.get(), type.get(), mem.get(), space.get(), H5P_DEFAULT, value.data());
  value[0] ^= 0x5a;
  H5Dwrite(d.get(), type.get(), mem.get(), space.get(), H5P_DEFAULT, value.data());
}

GenerateOptions generate_options(const std::string& file, const Shape& shape, ElementType type,
                                 std::int64_t host_mem) {
  GenerateOptions g;
  g.out = DatasetRef{file, "/m"};
  g.shape = shape;
  g.type = type;
  g.host_mem = host_mem;
  g.seed = 7;
  g.quiet = true;
  return g;
}

TEST(Generate, WritesThePatternInBandsAtomically) {
  TempDir dir;
  struct Case {
    Shape shape;
    ElementType type;
    std::int64_t host_mem;
    Shape chunk;
  } cases[] = {{{13, 17}, ElementType::float32(), 100, {}},  // bands of one whole row
               {{13, 17}, ElementType::float32(), 40, {}},   // pieces of rows
               {{3, 5, 4}, ElementType::complex64(), 1 << 20, {}},
               {{4, 9, 6}, ElementType::parse("int16"), 50, {2, 4, 4}}};
  for (const auto& c : cases) {
    const std::string file = dir / "g.h5";
    GenerateOptions g = generate_options(file, c.shape, c.type, c.host_mem);
    g.chunk = c.chunk;
    g.force = true;
    generate(kSelf, g);
    EXPECT_FALSE(exists(io::temporary_path_for(file)));
    std::vector<unsigned char> expected(static_cast<std::size_t>(element_count(c.shape)) *
                                        c.type.size);
    generate_pattern(c.type, 7, 0, element_count(c.shape), expected.data());
    EXPECT_EQ(read_raw(file, "/m"), expected) << format_shape(c.shape);
    InputFile in = InputFile::open(DatasetRef{file, "/m"}, kSelf);
    EXPECT_EQ(in.dataset().info().element, c.type);
    EXPECT_EQ(in.dataset().info().layout,
              c.chunk.empty() ? io::Layout::Contiguous : io::Layout::Chunked);
    std::string attr = read_string_attribute(in.dataset().id(), "xpose_generator");
    EXPECT_EQ(attr.rfind("xpose ", 0), 0u) << attr;
    EXPECT_NE(attr.find("seed=7"), std::string::npos) << attr;
  }
  // Without force an existing file is refused, and left as it was.
  GenerateOptions again = generate_options(dir / "g.h5", {2, 2}, ElementType::float32(), 1024);
  EXPECT_EQ(code_of([&] { generate(kSelf, again); }), ExitCode::OutputRefused);
  EXPECT_EQ(code_of([&] {
              generate(kSelf, generate_options(dir / "b.h5", {2, 2}, ElementType::bytes(4), 64));
            }),
            ExitCode::Usage);
  EXPECT_FALSE(exists(dir / "b.h5"));
}

VerifyOptions verify_options(const std::string& in, const std::string& out, std::int64_t host_mem,
                             std::int64_t sample = 0) {
  VerifyOptions v;
  v.in = DatasetRef{in, "/m"};
  v.out = DatasetRef{out, "/m"};
  v.host_mem = host_mem;
  v.sample = sample;
  v.quiet = true;
  return v;
}

TEST(Verify, AcceptsTheTransposeAndFindsOneFlippedElement) {
  TempDir dir;
  struct Case {
    Shape shape;
    ElementType type;
    Shape flip;  // in output coordinates
  } cases[] = {{{13, 17}, ElementType::float32(), {5, 7}},
               {{3, 5, 4}, ElementType::parse("int16"), {1, 2, 3}},
               {{2, 3, 4, 5}, ElementType::complex128(), {1, 0, 4, 2}},
               {{1, 1}, ElementType::parse("uint8"), {0, 0}}};
  for (const auto& c : cases) {
    const std::string in = dir / "in.h5", out = dir / "out.h5";
    GenerateOptions g = generate_options(in, c.shape, c.type, 1 << 20);
    g.force = true;
    generate(kSelf, g);
    fs::remove(out);
    naive_transpose(in, out, "/m");
    const std::int64_t total = element_count(c.shape);
    // Budgets from "one element per tile" to "everything at once".
    for (std::int64_t host_mem :
         {std::int64_t{1}, std::int64_t{64}, std::int64_t{1000}, std::int64_t{1} << 20}) {
      VerifyResult r = verify(kSelf, verify_options(in, out, host_mem));
      EXPECT_EQ(r.checked, total) << format_shape(c.shape) << " host_mem " << host_mem;
      EXPECT_EQ(r.mismatches, 0);
      EXPECT_EQ(r.first_mismatch, "");
    }
    flip_element(out, "/m", c.flip);
    Shape in_at = c.flip;
    std::swap(in_at[in_at.size() - 1], in_at[in_at.size() - 2]);
    auto text = [](const Shape& s) {
      std::string t;
      for (std::size_t d = 0; d < s.size(); ++d) t += (d ? "," : "") + std::to_string(s[d]);
      return t;
    };
    const std::string expected = "out[" + text(c.flip) + "] != in[" + text(in_at) + "]";
    for (std::int64_t host_mem : {std::int64_t{1}, std::int64_t{100}, std::int64_t{1} << 20}) {
      VerifyResult r = verify(kSelf, verify_options(in, out, host_mem));
      EXPECT_EQ(r.checked, total);
      EXPECT_EQ(r.mismatches, 1) << format_shape(c.shape);
      EXPECT_EQ(r.first_mismatch.rfind(expected, 0), 0u) << r.first_mismatch;
    }
  }
}

TEST(Verify, SampleModePassesAndFindsAPlantedError) {
  TempDir dir;
  const std::string in = dir / "in.h5", out = dir / "out.h5";
  generate(kSelf, generate_options(in, {2, 3, 4}, ElementType::float64(), 1 << 20));
  naive_transpose(in, out, "/m");
  VerifyResult ok = verify(kSelf, verify_options(in, out, 1 << 20, 2000));
  EXPECT_EQ(ok.checked, 2000);
  EXPECT_EQ(ok.mismatches, 0);
  VerifyResult small_batches = verify(kSelf, verify_options(in, out, 100, 50));
  EXPECT_EQ(small_batches.checked, 50);
  EXPECT_EQ(small_batches.mismatches, 0);
  flip_element(out, "/m", {1, 3, 2});
  // 2000 draws from 24 elements miss a given one with probability (23/24)^2000 ~ 1e-37.
  VerifyResult bad = verify(kSelf, verify_options(in, out, 1 << 20, 2000));
  EXPECT_EQ(bad.checked, 2000);
  EXPECT_GT(bad.mismatches, 0);
  EXPECT_EQ(bad.first_mismatch.rfind("out[1,3,2] != in[1,2,3]", 0), 0u) << bad.first_mismatch;
  EXPECT_EQ(code_of([&] { verify(kSelf, verify_options(in, out, 1 << 20, -1)); }), ExitCode::Usage);
}

TEST(Verify, ShapeAndTypeMismatchesAreReported) {
  TempDir dir;
  const std::string in = dir / "in.h5", same = dir / "same.h5", ints = dir / "ints.h5";
  generate(kSelf, generate_options(in, {3, 5}, ElementType::float32(), 1 << 20));
  std::string message;
  // Not transposed: the shape is the input's own.
  EXPECT_EQ(code_of([&] { verify(kSelf, verify_options(in, in, 1 << 20)); }, &message),
            ExitCode::VerifyMismatch);
  EXPECT_NE(message.find("shape mismatch"), std::string::npos) << message;
  generate(kSelf, generate_options(ints, {5, 3}, ElementType::parse("int32"), 1 << 20));
  EXPECT_EQ(code_of([&] { verify(kSelf, verify_options(in, ints, 1 << 20)); }, &message),
            ExitCode::VerifyMismatch);
  EXPECT_NE(message.find("datatype mismatch"), std::string::npos) << message;
  // A big-endian float32 transpose has the right shape and size but another type.
  write_raw(same, "/m", H5T_IEEE_F32BE, {5, 3}, nullptr);
  EXPECT_EQ(code_of([&] { verify(kSelf, verify_options(in, same, 1 << 20)); }),
            ExitCode::VerifyMismatch);
  EXPECT_EQ(code_of([&] { verify(kSelf, verify_options(in, dir / "missing.h5", 1 << 20)); }),
            ExitCode::InputNotFound);
}

}  // namespace
}  // namespace xpose
