// The HDF5 layer and generate/verify on every rank count: collective writes of row blocks (some
// ranks empty), column-piece reads through MPI-IO, errors agreed on every rank, atomic output.
// Every rank checks with EXPECT (never ASSERT) and reaches every collective, so one failing rank
// cannot leave the others waiting.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "engine/src/tools.h"
#include "io/h5.h"
#include "mpi/comm.h"

namespace xpose {
namespace {

namespace fs = std::filesystem;
using io::Box;
using io::DatasetRef;
using io::H5Id;
using io::InputFile;
using io::OutputFile;
using io::Transfer;

const MPI_Comm kWorld = MPI_COMM_WORLD;

int my_rank() {
  return mpi::rank(kWorld);
}
int ranks() {
  return mpi::size(kWorld);
}

/// One directory for all ranks: rank 0 makes it and removes it after everyone is done.
class SharedTempDir {
 public:
  SharedTempDir() {
    std::string path;
    if (my_rank() == 0) {
      const char* base = std::getenv("TMPDIR");
      std::string pattern = std::string(base && *base ? base : "/tmp") + "/xpose-iop-XXXXXX";
      std::vector<char> buf(pattern.begin(), pattern.end());
      buf.push_back('\0');
      if (mkdtemp(buf.data())) path = buf.data();
    }
    int length = static_cast<int>(path.size());
    MPI_Bcast(&length, 1, MPI_INT, 0, kWorld);
    path.resize(static_cast<std::size_t>(length));
    MPI_Bcast(path.data(), length, MPI_CHAR, 0, kWorld);
    path_ = path;
    EXPECT_FALSE(path_.empty());
  }
  ~SharedTempDir() {
    MPI_Barrier(kWorld);
    std::error_code ec;
    if (my_rank() == 0) fs::remove_all(path_, ec);
  }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

/// The exit code an action throws on this rank (Ok if none).
ExitCode code_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.code();
  }
  return ExitCode::Ok;
}

/// True on every rank when `value` is the same on every rank.
bool same_everywhere(std::int64_t value) {
  return mpi::allreduce_max(kWorld, value) == -mpi::allreduce_max(kWorld, -value);
}

/// FFTW-style block of `n` for this rank: [first, first + count).
std::pair<std::int64_t, std::int64_t> my_block(std::int64_t n) {
  const std::int64_t b = (n + ranks() - 1) / ranks();
  const std::int64_t first = std::min(n, b * my_rank());
  return {first, std::min(n, first + b) - first};
}

/// value(r, c) = r * 1000 + c, as uint32.
std::uint32_t value_at(std::int64_t r, std::int64_t c) {
  return static_cast<std::uint32_t>(r * 1000 + c);
}

void write_and_read_back(const Shape& shape) {
  SharedTempDir dir;
  const std::string file = dir / "m.h5";
  const std::int64_t rows = shape[0], cols = shape[1];
  H5Id type = io::make_h5_type(ElementType::parse("uint32"));
  auto [r0, nr] = my_block(rows);
  {
    OutputFile out;
    EXPECT_EQ(code_of([&] {
                mpi::collectively(kWorld, [&] {
                  out = OutputFile::create(DatasetRef{file, "/g/m"}, shape, type.get(), {}, kWorld);
                });
              }),
              ExitCode::Ok);
    std::vector<std::uint32_t> band(static_cast<std::size_t>(std::max<std::int64_t>(nr * cols, 1)));
    for (std::int64_t r = 0; r < nr; ++r)
      for (std::int64_t c = 0; c < cols; ++c)
        band[static_cast<std::size_t>(r * cols + c)] = value_at(r0 + r, c);
    // Ranks without rows still take part in the collective write, with no boxes.
    std::vector<Box> boxes;
    if (nr > 0) boxes.push_back(Box{{r0, 0}, {nr, cols}});
    EXPECT_EQ(code_of([&] { out.dataset().write(boxes, band.data(), Transfer::Collective); }),
              ExitCode::Ok);
    EXPECT_EQ(code_of([&] { out.commit(); }), ExitCode::Ok);
  }
  EXPECT_TRUE(exists(file));
  EXPECT_FALSE(exists(io::temporary_path_for(file)));

  InputFile in;
  EXPECT_EQ(code_of([&] { in = InputFile::open(DatasetRef{file, "/g/m"}, kWorld); }), ExitCode::Ok);
  EXPECT_EQ(in.dataset().info().shape, shape);
  // The engine's read: from this rank's rows, one column piece per destination rank q (the
  // FFTW blocks of the columns), all in one collective call.
  const std::int64_t cb = (cols + ranks() - 1) / ranks();
  std::vector<Box> pieces;
  std::vector<std::int64_t> columns;
  for (int q = 0; q < ranks(); ++q) {
    std::int64_t c0 = std::min(cols, cb * q), w = std::min(cols, c0 + cb) - c0;
    if (nr == 0 || w == 0) continue;
    pieces.push_back(Box{{r0, c0}, {nr, w}});
    for (std::int64_t c = c0; c < c0 + w; ++c) columns.push_back(c);
  }
  std::vector<std::uint32_t> got(static_cast<std::size_t>(nr) * columns.size() + 1, 0xdeadbeef);
  EXPECT_EQ(code_of([&] { in.dataset().read(pieces, got.data(), Transfer::Collective); }),
            ExitCode::Ok);
  std::int64_t bad = 0;
  for (std::int64_t r = 0; r < nr; ++r)
    for (std::size_t k = 0; k < columns.size(); ++k)
      bad += got[static_cast<std::size_t>(r) * columns.size() + k] != value_at(r0 + r, columns[k]);
  EXPECT_EQ(bad, 0) << "shape " << format_shape(shape);
  // Every rank reads a column of its own choosing, independently: a strided MPI-IO read.
  std::int64_t col = my_rank() % cols;
  std::vector<std::uint32_t> column(static_cast<std::size_t>(rows));
  EXPECT_EQ(code_of([&] {
              in.dataset().read({Box{{0, col}, {rows, 1}}}, column.data(), Transfer::Independent);
            }),
            ExitCode::Ok);
  for (std::int64_t r = 0; r < rows; ++r)
    EXPECT_EQ(column[static_cast<std::size_t>(r)], value_at(r, col));
  // And single points.
  std::vector<std::uint32_t> points(2);
  EXPECT_EQ(code_of([&] {
              in.dataset().read_points({rows - 1, col, 0, cols - 1}, points.data());
            }),
            ExitCode::Ok);
  EXPECT_EQ(points[0], value_at(rows - 1, col));
  EXPECT_EQ(points[1], value_at(0, cols - 1));
}

TEST(IoParallel, CollectiveRowBlocksThenColumnPieces) {
  write_and_read_back({7, 10});
}

TEST(IoParallel, SomeRanksHaveNoRows) {
  write_and_read_back({2, 9});
}

TEST(IoParallel, InputErrorsAreTheSameOnEveryRank) {
  SharedTempDir dir;
  const std::string good = dir / "in.h5", text = dir / "notes.txt";
  if (my_rank() == 0) {
    std::vector<float> m(12, 1.f);
    H5Id f(H5Fcreate(good.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    hsize_t dims[2] = {3, 4};
    H5Id s(H5Screate_simple(2, dims, nullptr));
    H5Id d(H5Dcreate2(f.get(), "/data", H5T_IEEE_F32LE, s.get(), H5P_DEFAULT, H5P_DEFAULT,
                      H5P_DEFAULT));
    H5Dwrite(d.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, m.data());
    H5Id g(H5Gcreate2(f.get(), "/grp", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    hsize_t ten[1] = {10};
    H5Id s1(H5Screate_simple(1, ten, nullptr));
    H5Id v(
        H5Dcreate2(f.get(), "/vec", H5T_STD_I8LE, s1.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    std::ofstream(text) << "not hdf5\n";
  }
  MPI_Barrier(kWorld);
  auto open = [&](const std::string& file, const std::string& path) {
    return code_of([&] {
      InputFile in = InputFile::open(DatasetRef{file, path}, kWorld);
      mpi::collectively(kWorld, [&] { io::check_transposable(in.dataset()); });
    });
  };
  struct Case {
    std::string file, path;
    ExitCode code;
  } cases[] = {{dir / "missing.h5", "/data", ExitCode::InputNotFound},
               {text, "/data", ExitCode::InputUnreadable},
               {good, "/nope", ExitCode::InputNotFound},
               {good, "/grp", ExitCode::InputNotFound},
               {good, "/vec", ExitCode::InputUnsupported},
               {good, "/data", ExitCode::Ok}};
  for (const auto& c : cases) {
    ExitCode code = open(c.file, c.path);
    EXPECT_EQ(code, c.code) << c.file << ":" << c.path;
    EXPECT_TRUE(same_everywhere(static_cast<std::int64_t>(code)));
  }
  // Output checks are local and give the same verdict everywhere.
  ExitCode same = code_of([&] {
    io::check_output_target(DatasetRef{good, "/t"}, DatasetRef{good, "/data"}, true);
  });
  EXPECT_EQ(same, ExitCode::OutputRefused);
  ExitCode fine = code_of([&] {
    io::check_output_target(DatasetRef{dir / "o.h5", "/t"}, DatasetRef{good, "/data"}, false);
  });
  EXPECT_EQ(fine, ExitCode::Ok);
}

TEST(IoParallel, DiscardAndAbandonLeaveNoFiles) {
  SharedTempDir dir;
  H5Id type = io::make_h5_type(ElementType::float64());
  const std::string a = dir / "a.h5", b = dir / "b.h5";
  {
    OutputFile out;
    EXPECT_EQ(code_of([&] {
                out = OutputFile::create(DatasetRef{a, "/t"}, {4, 4}, type.get(), {}, kWorld);
              }),
              ExitCode::Ok);
    MPI_Barrier(kWorld);
    EXPECT_TRUE(exists(io::temporary_path_for(a)));
    out.discard();  // every rank: a collective close, then the file is removed
    MPI_Barrier(kWorld);
    EXPECT_FALSE(exists(io::temporary_path_for(a)));
  }
  {
    OutputFile out;
    EXPECT_EQ(code_of([&] {
                out = OutputFile::create(DatasetRef{b, "/t"}, {4, 4}, type.get(), {}, kWorld);
              }),
              ExitCode::Ok);
    MPI_Barrier(kWorld);
    // The local path (what a rank does before MPI_Abort): no collective call, the file goes.
    if (my_rank() == ranks() - 1) out.abandon();
    MPI_Barrier(kWorld);
    EXPECT_FALSE(exists(io::temporary_path_for(b)));
  }  // the other ranks abandon here, in the destructor
  MPI_Barrier(kWorld);
  EXPECT_FALSE(exists(a));
  EXPECT_FALSE(exists(b));
  EXPECT_FALSE(exists(io::temporary_path_for(b)));
}

/// Rank 0 writes OUT = IN^T with plain serial HDF5.
void naive_transpose(const std::string& in_file, const std::string& out_file) {
  if (my_rank() == 0) {
    H5Id fi(H5Fopen(in_file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    H5Id di(H5Dopen2(fi.get(), "/m", H5P_DEFAULT));
    H5Id type(H5Dget_type(di.get()));
    H5Id si(H5Dget_space(di.get()));
    int n = H5Sget_simple_extent_ndims(si.get());
    std::vector<hsize_t> dims(static_cast<std::size_t>(n));
    H5Sget_simple_extent_dims(si.get(), dims.data(), nullptr);
    const std::size_t s = H5Tget_size(type.get());
    std::vector<unsigned char> a(static_cast<std::size_t>(H5Sget_simple_extent_npoints(si.get())) *
                                 s);
    H5Dread(di.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, a.data());
    const std::size_t rows = dims[n - 2], cols = dims[n - 1], batch = a.size() / s / rows / cols;
    std::vector<unsigned char> t(a.size());
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j)
          std::memcpy(&t[((b * cols + j) * rows + i) * s], &a[((b * rows + i) * cols + j) * s], s);
    std::swap(dims[n - 1], dims[n - 2]);
    H5Id fo(H5Fcreate(out_file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    H5Id so(H5Screate_simple(n, dims.data(), nullptr));
    H5Id d(H5Dcreate2(fo.get(), "/m", type.get(), so.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Dwrite(d.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, t.data());
  }
  MPI_Barrier(kWorld);
}

/// Rank 0 flips the first byte of one element.
void flip_element(const std::string& file, const Shape& at) {
  if (my_rank() == 0) {
    H5Id f(H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    H5Id d(H5Dopen2(f.get(), "/m", H5P_DEFAULT));
    H5Id type(H5Dget_type(d.get()));
    H5Id space(H5Dget_space(d.get()));
    std::vector<hsize_t> coords(at.begin(), at.end());
    H5Sselect_elements(space.get(), H5S_SELECT_SET, 1, coords.data());
    hsize_t one[1] = {1};
    H5Id mem(H5Screate_simple(1, one, nullptr));
    std::vector<unsigned char> v(H5Tget_size(type.get()));
    H5Dread(d.get(), type.get(), mem.get(), space.get(), H5P_DEFAULT, v.data());
    v[0] ^= 0x33;
    H5Dwrite(d.get(), type.get(), mem.get(), space.get(), H5P_DEFAULT, v.data());
  }
  MPI_Barrier(kWorld);
}

TEST(IoParallel, GenerateThenVerifyAgreeOnEveryRank) {
  SharedTempDir dir;
  const std::string in = dir / "in.h5", out = dir / "out.h5";
  const Shape shape{3, 7, 5};
  GenerateOptions g;
  g.out = DatasetRef{in, "/m"};
  g.shape = shape;
  g.type = ElementType::complex64();
  g.host_mem = 100;  // bands of one row (5 elements of 8 bytes) and less
  g.seed = 11;
  g.quiet = true;
  EXPECT_EQ(code_of([&] { generate(kWorld, g); }), ExitCode::Ok);
  EXPECT_FALSE(exists(io::temporary_path_for(in)));
  {
    // Each rank checks the whole file against the pattern, reading it independently.
    InputFile file;
    EXPECT_EQ(code_of([&] { file = InputFile::open(g.out, kWorld); }), ExitCode::Ok);
    const std::int64_t total = element_count(shape);
    std::vector<unsigned char> got(static_cast<std::size_t>(total) * 8), want(got.size());
    EXPECT_EQ(code_of([&] {
                file.dataset().read(io::boxes_for_range(shape, 0, total), got.data(),
                                    Transfer::Independent);
              }),
              ExitCode::Ok);
    generate_pattern(g.type, g.seed, 0, total, want.data());
    EXPECT_EQ(got, want);
  }
  naive_transpose(in, out);

  VerifyOptions v;
  v.in = DatasetRef{in, "/m"};
  v.out = DatasetRef{out, "/m"};
  v.quiet = true;
  for (std::int64_t host_mem : {std::int64_t{16}, std::int64_t{200}, std::int64_t{1} << 20}) {
    v.host_mem = host_mem;
    VerifyResult r;
    EXPECT_EQ(code_of([&] { r = verify(kWorld, v); }), ExitCode::Ok);
    EXPECT_EQ(r.checked, element_count(shape)) << "host_mem " << host_mem;
    EXPECT_EQ(r.mismatches, 0);
  }
  flip_element(out, {2, 4, 6});
  for (std::int64_t host_mem : {std::int64_t{16}, std::int64_t{1} << 20}) {
    v.host_mem = host_mem;
    VerifyResult r;
    EXPECT_EQ(code_of([&] { r = verify(kWorld, v); }), ExitCode::Ok);
    EXPECT_EQ(r.mismatches, 1);
    EXPECT_EQ(r.first_mismatch.rfind("out[2,4,6] != in[2,6,4]", 0), 0u) << r.first_mismatch;
    EXPECT_TRUE(same_everywhere(static_cast<std::int64_t>(r.first_mismatch.size())));
  }
  // Samples are split over the ranks but drawn the same way whatever their number.
  v.sample = 3000;
  v.host_mem = 1 << 20;
  VerifyResult sampled;
  EXPECT_EQ(code_of([&] { sampled = verify(kWorld, v); }), ExitCode::Ok);
  EXPECT_EQ(sampled.checked, 3000);
  EXPECT_GT(sampled.mismatches, 0);  // 3000 draws from 105 elements: the flipped one is hit
  EXPECT_EQ(sampled.first_mismatch.rfind("out[2,4,6] != in[2,6,4]", 0), 0u)
      << sampled.first_mismatch;
  EXPECT_TRUE(same_everywhere(sampled.mismatches));
  // Shape mismatch: the input against itself.
  v.sample = 0;
  v.out = v.in;
  EXPECT_EQ(code_of([&] { verify(kWorld, v); }), ExitCode::VerifyMismatch);
}

TEST(IoParallel, GenerateChunkedWithCollectiveWrites) {
  SharedTempDir dir;
  const std::string in = dir / "in.h5";
  GenerateOptions g;
  g.out = DatasetRef{in, "/deep/m"};
  g.shape = {9, 13};
  g.type = ElementType::parse("int16");
  g.chunk = {4, 4};
  g.host_mem = 30;
  g.quiet = true;
  EXPECT_EQ(code_of([&] { generate(kWorld, g); }), ExitCode::Ok);
  InputFile file;
  EXPECT_EQ(code_of([&] { file = InputFile::open(g.out, kWorld); }), ExitCode::Ok);
  EXPECT_EQ(file.dataset().info().layout, io::Layout::Chunked);
  std::vector<std::int16_t> got(9 * 13), want(9 * 13);
  EXPECT_EQ(code_of([&] {
              file.dataset().read({Box{{0, 0}, {9, 13}}}, got.data(), Transfer::Collective);
            }),
            ExitCode::Ok);
  generate_pattern(g.type, 0, 0, 9 * 13, want.data());
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace xpose
