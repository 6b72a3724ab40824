// Direct I/O (io/raw_storage.h) against HDF5's own hyperslab reads and writes: the same boxes must
// give the same bytes, and the raw path must decline layouts it cannot serve.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "engine/src/tools.h"
#include "io/h5.h"
#include "io/raw_storage.h"

namespace xpose::io {
namespace {

struct Dir {
  std::string path;
  Dir() {
    char tmpl[] = "/tmp/xpose-raw-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~Dir() { std::filesystem::remove_all(path); }
};

// Writes `shape` of `elem` bytes per element holding the pattern, through xpose generate.
void make_file(const std::string& file, const Shape& shape, const ElementType& type, const Shape& chunk = {}) {
  GenerateOptions g;
  g.out = DatasetRef::parse(file + ":/d");
  g.shape = shape;
  g.type = type;
  g.chunk = chunk;
  g.quiet = true;
  generate(MPI_COMM_SELF, g);
}

std::vector<Box> random_piece_boxes(const Shape& shape, std::mt19937& rng) {
  // Boxes that share every extent but the last (as a stage's read), side by side, with gaps.
  const std::size_t rank = shape.size();
  Box common;
  common.start.assign(rank, 0);
  common.count.assign(rank, 1);
  for (std::size_t d = 0; d + 1 < rank; ++d) {
    common.start[d] = std::uniform_int_distribution<std::int64_t>(0, shape[d] - 1)(rng);
    common.count[d] = std::uniform_int_distribution<std::int64_t>(1, shape[d] - common.start[d])(rng);
  }
  std::vector<Box> boxes;
  std::int64_t c = std::uniform_int_distribution<std::int64_t>(0, 3)(rng);
  while (c < shape.back()) {
    Box b = common;
    b.start.back() = c;
    b.count.back() = std::uniform_int_distribution<std::int64_t>(0, std::min<std::int64_t>(9, shape.back() - c))(rng);
    boxes.push_back(b);
    c += b.count.back() + std::uniform_int_distribution<std::int64_t>(0, 5)(rng);
  }
  std::shuffle(boxes.begin(), boxes.end(), rng);  // the union's order is the file's, not the list's
  return boxes;
}

std::int64_t elements(const std::vector<Box>& boxes) {
  std::int64_t n = 0;
  for (const auto& b : boxes) n += element_count(b.count);
  return n;
}

TEST(RawStorage, ReadsWhatHdf5Reads) {
  Dir dir;
  std::mt19937 rng(7);
  for (const Shape& shape : {Shape{37, 53}, Shape{3, 17, 29}, Shape{2, 3, 5, 41}})
    for (std::size_t elem : {1, 2, 4, 8, 16}) {
      const std::string file = dir.path + "/in-" + format_shape(shape) + "-" + std::to_string(elem) + ".h5";
      make_file(file, shape, elem == 16 ? ElementType::complex128() : ElementType{ElementKind::UnsignedInt, elem});
      auto in = InputFile::open(DatasetRef::parse(file + ":/d"), MPI_COMM_SELF);
      auto raw = RawStorage::open_input(in);
      ASSERT_TRUE(raw) << "contiguous dataset not mapped";
      for (int trial = 0; trial < 20; ++trial) {
        auto boxes = random_piece_boxes(shape, rng);
        const auto n = static_cast<std::size_t>(elements(boxes)) * elem;
        std::vector<unsigned char> a(n + 1, 0xAB), b(n + 1, 0xCD);
        in.dataset().read(boxes, a.data(), Transfer::Independent);
        raw->read(boxes, b.data(), 1 + trial % 3);
        ASSERT_EQ(0, std::memcmp(a.data(), b.data(), n)) << format_shape(shape) << " elem " << elem << " trial " << trial;
        ASSERT_EQ(b[n], 0xCD) << "wrote past the selection";
        std::vector<unsigned char> c(n + 1, 0xEF);  // bounded: positioned reads, nothing mapped
        raw->read(boxes, c.data(), 1 + trial % 3, true);
        ASSERT_EQ(0, std::memcmp(a.data(), c.data(), n)) << format_shape(shape) << " elem " << elem << " trial " << trial << " (bounded)";
        ASSERT_EQ(c[n], 0xEF) << "wrote past the selection (bounded)";
      }
    }
}

TEST(RawStorage, WritesWhatHdf5Reads) {
  Dir dir;
  std::mt19937 rng(11);
  const Shape shape{4, 31, 47};
  const std::size_t elem = 8;
  auto type = make_h5_type(ElementType::float64());
  auto out = OutputFile::create(DatasetRef::parse(dir.path + "/out.h5:/d"), shape, type.get(), {}, MPI_COMM_SELF);
  out.flush();  // the storage exists on disk before raw writes
  auto raw = RawStorage::open_output(out);
  ASSERT_TRUE(raw);
  // Fill every element through raw writes of whole-row bands (as the stage writes do).
  std::vector<double> all(static_cast<std::size_t>(element_count(shape)));
  std::iota(all.begin(), all.end(), 0.5);
  for (std::int64_t b = 0; b < shape[0]; ++b)
    for (std::int64_t r = 0; r < shape[1]; r += 7) {
      const std::int64_t nr = std::min<std::int64_t>(7, shape[1] - r);
      Box box{{b, r, 0}, {1, nr, shape[2]}};
      raw->write({box}, all.data() + (b * shape[1] + r) * shape[2], 2);
    }
  raw->sync();
  raw.reset();
  out.commit();
  auto back = InputFile::open(DatasetRef::parse(dir.path + "/out.h5:/d"), MPI_COMM_SELF);
  std::vector<double> got(all.size(), -1);
  back.dataset().read({Box{{0, 0, 0}, shape}}, got.data(), Transfer::Independent);
  EXPECT_EQ(got, all);
  (void)elem;
  (void)rng;
}

TEST(RawStorage, DeclinesChunkedAndCompressed) {
  Dir dir;
  const std::string file = dir.path + "/c.h5";
  make_file(file, {64, 64}, ElementType::float32(), {16, 16});
  auto in = InputFile::open(DatasetRef::parse(file + ":/d"), MPI_COMM_SELF);
  EXPECT_FALSE(RawStorage::open_input(in));
}

TEST(RawStorage, DeclinesADatasetThatLivesInAnotherFile) {
  // Behind an external link the dataset's offset is one in the link's target file: reading the
  // named file at that offset would give another dataset's bytes.
  Dir dir;
  const std::string target = dir.path + "/target.h5", links = dir.path + "/links.h5";
  make_file(target, {20, 30}, ElementType::float32());
  make_file(links, {50, 50}, ElementType::float64());
  hid_t file = H5Fopen(links.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  ASSERT_GE(H5Lcreate_external(target.c_str(), "/d", file, "/ext", H5P_DEFAULT, H5P_DEFAULT), 0);
  H5Fclose(file);
  auto linked = InputFile::open(DatasetRef::parse(links + ":/ext"), MPI_COMM_SELF);
  EXPECT_FALSE(linked.dataset_in_named_file());
  EXPECT_FALSE(RawStorage::open_input(linked));
  auto direct = InputFile::open(DatasetRef::parse(target + ":/d"), MPI_COMM_SELF);
  EXPECT_TRUE(direct.dataset_in_named_file());
  EXPECT_TRUE(RawStorage::open_input(direct));
  // Both read the same elements through HDF5.
  std::vector<float> a(600, -1.f), b(600, -2.f);
  linked.dataset().read({Box{{0, 0}, {20, 30}}}, a.data(), Transfer::Independent);
  direct.dataset().read({Box{{0, 0}, {20, 30}}}, b.data(), Transfer::Independent);
  EXPECT_EQ(a, b);
  linked.check_unchanged();  // both files are watched, neither changed
}

TEST(RawStorage, RejectsBoxesItCannotServe) {
  Dir dir;
  const std::string file = dir.path + "/in.h5";
  make_file(file, {10, 10}, ElementType::float32());
  auto in = InputFile::open(DatasetRef::parse(file + ":/d"), MPI_COMM_SELF);
  auto raw = RawStorage::open_input(in);
  ASSERT_TRUE(raw);
  std::vector<float> buf(100);
  EXPECT_THROW(raw->read({Box{{0, 0}, {2, 3}}, Box{{1, 5}, {2, 3}}}, buf.data(), 1), IoError);  // rows differ
  EXPECT_THROW(raw->read({Box{{0, 0}, {2, 5}}, Box{{0, 3}, {2, 3}}}, buf.data(), 1), IoError);  // overlap
  EXPECT_THROW(raw->read({Box{{0, 8}, {2, 5}}}, buf.data(), 1), IoError);                       // outside
}

}  // namespace
}  // namespace xpose::io
