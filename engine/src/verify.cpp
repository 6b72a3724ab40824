// `xpose verify`: OUT == IN^T, checked another way than the engine computes it. Each rank reads
// bands of its own output rows (contiguous) and the matching column bands of the input (strided),
// within the memory budget, and compares them element by element; or reads random points.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "engine/src/tools.h"
#include "mpi/comm.h"
#include "xpose/error.h"

namespace xpose {

namespace {

constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();

inline std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// The high 64 bits of a * b.
inline std::uint64_t mul_high(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32, b_lo = b & 0xffffffffu,
                      b_hi = b >> 32;
  const std::uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi;
  const std::uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + lo_hi;
  return a_hi * b_hi + (hi_lo >> 32) + (cross >> 32);
}

/// Row-major multi-index of `linear` in `shape`.
Shape unravel(std::int64_t linear, const Shape& shape) {
  Shape index(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    index[d] = linear % shape[d];
    linear /= shape[d];
  }
  return index;
}

std::string index_text(const Shape& index) {
  std::string s;
  for (std::size_t d = 0; d < index.size(); ++d) s += cat(d ? "," : "", index[d]);
  return s;
}

std::string hex(const unsigned char* bytes, std::size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (std::size_t k = 0; k < size; ++k) {
    s += digits[bytes[k] >> 4];
    s += digits[bytes[k] & 15];
  }
  return s;
}

/// What a rank found: mismatches, and the lowest output linear index that differs.
struct Findings {
  std::int64_t checked = 0;
  std::int64_t mismatches = 0;
  std::int64_t first = kNone;
  std::string first_text;

  /// `out_index` is the output element's multi-index; the input's swaps the last two axes.
  void mismatch(const Shape& out_shape, std::int64_t out_linear, const unsigned char* out_bytes,
                const unsigned char* in_bytes, std::size_t size) {
    ++mismatches;
    if (out_linear >= first) return;
    first = out_linear;
    Shape o = unravel(out_linear, out_shape);
    Shape i = o;
    std::swap(i[i.size() - 1], i[i.size() - 2]);
    first_text = cat("out[", index_text(o), "] != in[", index_text(i), "] (bytes ",
                     hex(out_bytes, size), " vs ", hex(in_bytes, size), ")");
  }
};

/// One tile: `batches` matrices, output rows [j0, j0+w) and input rows [i0, i0+h). `out` holds
/// out[b][j][i] (h per row), `in` holds in[b][i][j] (w per row).
template <std::size_t S>
void compare_tile(const unsigned char* out, const unsigned char* in, std::int64_t batches,
                  std::int64_t w, std::int64_t h, const Shape& out_shape, std::int64_t b0,
                  std::int64_t j0, std::int64_t i0, Findings& found) {
  const std::int64_t rows = out_shape[out_shape.size() - 2];  // C: output rows per matrix
  const std::int64_t cols = out_shape.back();                 // R: output columns
  constexpr std::int64_t kBlock = 64;                         // keeps both sides' lines in cache
  for (std::int64_t b = 0; b < batches; ++b) {
    const unsigned char* ob = out + static_cast<std::size_t>(b * w * h) * S;
    const unsigned char* ib = in + static_cast<std::size_t>(b * w * h) * S;
    for (std::int64_t jb = 0; jb < w; jb += kBlock)
      for (std::int64_t ibk = 0; ibk < h; ibk += kBlock)
        for (std::int64_t j = jb; j < std::min(w, jb + kBlock); ++j)
          for (std::int64_t i = ibk; i < std::min(h, ibk + kBlock); ++i) {
            const unsigned char* po = ob + static_cast<std::size_t>(j * h + i) * S;
            const unsigned char* pi = ib + static_cast<std::size_t>(i * w + j) * S;
            if (std::memcmp(po, pi, S) != 0) {
              std::int64_t linear = ((b0 + b) * rows + (j0 + j)) * cols + (i0 + i);
              found.mismatch(out_shape, linear, po, pi, S);
            }
          }
  }
  found.checked += batches * w * h;
}

void compare_tile_any(std::size_t size, const unsigned char* out, const unsigned char* in,
                      std::int64_t batches, std::int64_t w, std::int64_t h, const Shape& out_shape,
                      std::int64_t b0, std::int64_t j0, std::int64_t i0, Findings& found) {
  switch (size) {
    case 1:
      return compare_tile<1>(out, in, batches, w, h, out_shape, b0, j0, i0, found);
    case 2:
      return compare_tile<2>(out, in, batches, w, h, out_shape, b0, j0, i0, found);
    case 4:
      return compare_tile<4>(out, in, batches, w, h, out_shape, b0, j0, i0, found);
    case 8:
      return compare_tile<8>(out, in, batches, w, h, out_shape, b0, j0, i0, found);
    case 16:
      return compare_tile<16>(out, in, batches, w, h, out_shape, b0, j0, i0, found);
    default:
      throw InternalError(cat("verify: element size ", size));
  }
}

/// Boxes covering `batches` consecutive (flattened) batch matrices from `b0`, each restricted to
/// rows [r0, r0+nr) and columns [c0, c0+nc) of its matrix.
std::vector<io::Box> matrix_boxes(const Shape& lead, std::int64_t b0, std::int64_t batches,
                                  std::int64_t r0, std::int64_t nr, std::int64_t c0,
                                  std::int64_t nc) {
  std::vector<io::Box> boxes;
  if (lead.empty()) {
    boxes.push_back(io::Box{{r0, c0}, {nr, nc}});
    return boxes;
  }
  for (auto box : io::boxes_for_range(lead, b0, batches)) {
    box.start.push_back(r0);
    box.start.push_back(c0);
    box.count.push_back(nr);
    box.count.push_back(nc);
    boxes.push_back(std::move(box));
  }
  return boxes;
}

/// Full comparison of this rank's FFTW-style block of output rows (the input's columns).
void verify_full(MPI_Comm comm, const io::Dataset& in, const io::Dataset& out, std::int64_t budget,
                 Findings& found) {
  const Shape& in_shape = in.info().shape;
  const Shape& out_shape = out.info().shape;
  const std::size_t n = in_shape.size();
  const std::size_t size = in.info().element.size;
  const std::int64_t rows = in_shape[n - 2], cols = in_shape[n - 1];
  const Shape lead(in_shape.begin(), in_shape.end() - 2);
  const std::int64_t batches = element_count(lead);
  const int rank = mpi::rank(comm), nranks = mpi::size(comm);
  const std::int64_t block = (cols + nranks - 1) / nranks;
  const std::int64_t j_begin = std::min(cols, block * rank);
  const std::int64_t j_end = std::min(cols, j_begin + block);
  const std::int64_t mine = j_end - j_begin;
  if (mine == 0 || rows == 0 || batches == 0) return;

  // Two buffers (output tile, input tile) of at most `tile` elements each.
  const std::int64_t tile =
      std::max<std::int64_t>(1, budget / (2 * static_cast<std::int64_t>(size)));
  std::int64_t k = 1, w = mine, h = rows;
  if (mine * rows <= tile) {
    k = std::min(batches, tile / (mine * rows));  // small matrices: several per read
  } else {
    h = std::min(rows, tile);
    w = std::max<std::int64_t>(1, std::min(mine, tile / h));
  }
  std::vector<unsigned char> out_buf(static_cast<std::size_t>(k * w * h) * size);
  std::vector<unsigned char> in_buf(out_buf.size());
  for (std::int64_t b0 = 0; b0 < batches; b0 += k) {
    const std::int64_t kb = std::min(k, batches - b0);
    for (std::int64_t j0 = j_begin; j0 < j_end; j0 += w) {
      const std::int64_t wj = std::min(w, j_end - j0);
      for (std::int64_t i0 = 0; i0 < rows; i0 += h) {
        const std::int64_t hi = std::min(h, rows - i0);
        // Output rows j0.. are contiguous in the file; the input columns are a strided read.
        out.read(matrix_boxes(lead, b0, kb, j0, wj, i0, hi), out_buf.data(),
                 io::Transfer::Independent);
        in.read(matrix_boxes(lead, b0, kb, i0, hi, j0, wj), in_buf.data(),
                io::Transfer::Independent);
        compare_tile_any(size, out_buf.data(), in_buf.data(), kb, wj, hi, out_shape, b0, j0, i0,
                         found);
      }
    }
  }
}

/// Random elements: sample number g (over all ranks) is a hash of the seed and g, so the sample
/// is the same whatever the rank count; each rank checks its block of sample numbers.
void verify_sample(MPI_Comm comm, const io::Dataset& in, const io::Dataset& out,
                   std::int64_t samples, std::uint64_t seed, std::int64_t budget, Findings& found) {
  const Shape& in_shape = in.info().shape;
  const Shape& out_shape = out.info().shape;
  const std::size_t n = in_shape.size();
  const std::size_t size = in.info().element.size;
  const std::int64_t total = element_count(in_shape);
  if (total == 0) return;
  const int rank = mpi::rank(comm), nranks = mpi::size(comm);
  const std::int64_t base = samples / nranks, extra = samples % nranks;
  const std::int64_t my_first = base * rank + std::min<std::int64_t>(rank, extra);
  const std::int64_t my_count = base + (rank < extra ? 1 : 0);
  // Per point: two coordinate tuples and two elements.
  const std::int64_t per_point = 2 * static_cast<std::int64_t>(size + n * sizeof(std::int64_t));
  const std::int64_t batch =
      std::max<std::int64_t>(1, std::min<std::int64_t>(budget / per_point, 1 << 20));
  const std::uint64_t key = mix(seed ^ 0x2545f4914f6cdd1dull);
  std::vector<std::int64_t> in_coords, out_coords;
  std::vector<std::int64_t> out_linear;
  std::vector<unsigned char> in_buf, out_buf;
  for (std::int64_t done = 0; done < my_count; done += batch) {
    const std::int64_t m = std::min(batch, my_count - done);
    in_coords.resize(static_cast<std::size_t>(m) * n);
    out_coords.resize(in_coords.size());
    out_linear.resize(static_cast<std::size_t>(m));
    for (std::int64_t p = 0; p < m; ++p) {
      std::uint64_t h =
          mix(key + static_cast<std::uint64_t>(my_first + done + p) * 0x9e3779b97f4a7c15ull);
      // Multiply-shift maps the hash onto [0, total) without modulo bias worth the name.
      auto linear = static_cast<std::int64_t>(mul_high(h, static_cast<std::uint64_t>(total)));
      Shape at = unravel(linear, in_shape);
      std::int64_t* ic = &in_coords[static_cast<std::size_t>(p) * n];
      std::int64_t* oc = &out_coords[static_cast<std::size_t>(p) * n];
      for (std::size_t d = 0; d < n; ++d) ic[d] = oc[d] = at[d];
      std::swap(oc[n - 1], oc[n - 2]);
      std::int64_t ol = 0;
      for (std::size_t d = 0; d < n; ++d) ol = ol * out_shape[d] + oc[d];
      out_linear[static_cast<std::size_t>(p)] = ol;
    }
    in_buf.resize(static_cast<std::size_t>(m) * size);
    out_buf.resize(in_buf.size());
    in.read_points(in_coords, in_buf.data());
    out.read_points(out_coords, out_buf.data());
    for (std::int64_t p = 0; p < m; ++p) {
      const unsigned char* po = out_buf.data() + static_cast<std::size_t>(p) * size;
      const unsigned char* pi = in_buf.data() + static_cast<std::size_t>(p) * size;
      if (std::memcmp(po, pi, size) != 0)
        found.mismatch(out_shape, out_linear[static_cast<std::size_t>(p)], po, pi, size);
    }
    found.checked += m;
  }
}

/// Every rank ends with the sums and the description of the lowest differing index.
VerifyResult agree(MPI_Comm comm, const Findings& found) {
  VerifyResult result;
  result.checked = mpi::allreduce_sum(comm, found.checked);
  result.mismatches = mpi::allreduce_sum(comm, found.mismatches);
  std::int64_t first = kNone;
  XPOSE_CHECK_MPI(MPI_Allreduce(&found.first, &first, 1, MPI_INT64_T, MPI_MIN, comm));
  if (first == kNone) return result;
  // Several ranks can hold the same index (random samples may repeat): the lowest one speaks.
  int mine = found.first == first ? mpi::rank(comm) : INT_MAX, owner = INT_MAX;
  XPOSE_CHECK_MPI(MPI_Allreduce(&mine, &owner, 1, MPI_INT, MPI_MIN, comm));
  std::string text = found.first == first ? found.first_text : std::string();
  int length = static_cast<int>(text.size());
  XPOSE_CHECK_MPI(MPI_Bcast(&length, 1, MPI_INT, owner, comm));
  text.resize(static_cast<std::size_t>(length));
  XPOSE_CHECK_MPI(MPI_Bcast(text.data(), length, MPI_CHAR, owner, comm));
  result.first_mismatch = text;
  return result;
}

}  // namespace

VerifyResult verify(MPI_Comm comm, const VerifyOptions& options) {
  mpi::collectively(comm, [&] {
    if (options.sample < 0)
      throw UsageError(cat("verify: --sample ", options.sample, " must be 0 (all) or positive"));
    if (options.host_mem <= 0)
      throw UsageError(cat("verify: host memory budget ", options.host_mem, " bytes"));
  });
  io::InputFile in = io::InputFile::open(options.in, comm);
  io::InputFile out = io::InputFile::open(options.out, comm);
  const io::Dataset& a = in.dataset();
  const io::Dataset& b = out.dataset();
  mpi::collectively(comm, [&] {
    io::check_transposable(a);
    io::check_transposable(b);
    Shape expected = a.info().shape;
    std::swap(expected[expected.size() - 1], expected[expected.size() - 2]);
    if (b.info().shape != expected)
      throw VerifyMismatchError(cat("shape mismatch: '", options.out.str(), "' is ",
                                    format_shape(b.info().shape), " but the transpose of '",
                                    options.in.str(), "' (", format_shape(a.info().shape), ") is ",
                                    format_shape(expected)));
    if (H5Tequal(a.type(), b.type()) <= 0)
      throw VerifyMismatchError(cat("datatype mismatch: '", options.in.str(), "' is ",
                                    a.info().type_description, ", '", options.out.str(), "' is ",
                                    b.info().type_description));
  });

  // Chunked files are read across their chunks; give each a cache (collective: it reopens the
  // dataset) from the budget, so a chunk is not decompressed once per band.
  std::int64_t budget = options.host_mem;
  for (io::Dataset* d : {&in.dataset(), &out.dataset()}) {
    if (d->info().layout != io::Layout::Chunked) continue;
    std::int64_t cache = budget / 4;
    mpi::collectively(comm, [&] { d->set_chunk_cache(cache); });
    budget -= cache;
  }

  Findings found;
  mpi::collectively(comm, [&] {
    if (options.sample > 0)
      verify_sample(comm, a, b, options.sample, options.seed, budget, found);
    else
      verify_full(comm, a, b, budget, found);
  });
  return agree(comm, found);
}

}  // namespace xpose
