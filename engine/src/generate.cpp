// `xpose generate`: a deterministic pattern written in row bands, collectively, atomically.
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "engine/src/tools.h"
#include "mpi/comm.h"
#include "xpose/config.h"
#include "xpose/error.h"

namespace xpose {

namespace {

constexpr std::uint64_t kGamma = 0x9e3779b97f4a7c15ull;

// splitmix64's finaliser: a bijection of 64-bit words with good avalanche.
inline std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A finite, normal float32 of either sign with magnitude in [2^-20, 2^21): 41 exponents times
// 2^23 mantissas, so equal values are rare and never NaN or Inf.
inline std::uint64_t float32_bits(std::uint64_t h) {
  std::uint64_t sign = h >> 63;
  std::uint64_t exponent = 107 + ((h >> 23) & 0xffffffffull) % 41;
  return (sign << 31) | (exponent << 23) | (h & 0x7fffffull);
}

// The same for float64: magnitude in [2^-40, 2^41).
inline std::uint64_t float64_bits(std::uint64_t h) {
  std::uint64_t sign = h >> 63;
  std::uint64_t exponent = 983 + ((h >> 52) & 0x7ffull) % 81;
  return (sign << 63) | (exponent << 52) | (h & 0xfffffffffffffull);
}

// Stores the low `size` bytes of `bits` little-endian, whatever the host's byte order, so the
// bytes match the little-endian HDF5 types make_h5_type writes.
inline void store_le(std::uint64_t bits, std::size_t size, unsigned char* out) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(out, &bits, size);
#else
  for (std::size_t k = 0; k < size; ++k) out[k] = static_cast<unsigned char>(bits >> (8 * k));
#endif
}

/// Calls fill(h0, h1, element) for each element; h1 is computed only where `Two` says the
/// element needs a second independent word (complex parts, 16-byte elements).
template <bool Two, typename Fill>
void fill_elements(std::uint64_t key, std::int64_t first, std::int64_t count, std::size_t size,
                   unsigned char* out, Fill fill) {
  for (std::int64_t n = 0; n < count; ++n) {
    auto index = static_cast<std::uint64_t>(first + n);
    std::uint64_t h0 = mix(key + (2 * index) * kGamma);
    std::uint64_t h1 = Two ? mix(key + (2 * index + 1) * kGamma) : 0;
    fill(h0, h1, out + static_cast<std::size_t>(n) * size);
  }
}

}  // namespace

void generate_pattern(const ElementType& type, std::uint64_t seed, std::int64_t first,
                      std::int64_t count, void* out) {
  if (first < 0 || count < 0)
    throw InternalError(cat("generate_pattern: bad range first=", first, " count=", count));
  if (type.size == 0 || type.size > 16)
    throw UsageError(cat("generate: no pattern for ", type.size, "-byte elements"));
  auto* bytes = static_cast<unsigned char*>(out);
  const std::uint64_t key = mix(seed ^ 0x5851f42d4c957f2dull);
  const std::size_t size = type.size;
  switch (type.kind) {
    case ElementKind::Float:
      if (size == 4)
        return fill_elements<false>(key, first, count, size, bytes,
                                    [](std::uint64_t h, std::uint64_t, unsigned char* p) {
                                      store_le(float32_bits(h), 4, p);
                                    });
      if (size == 8)
        return fill_elements<false>(key, first, count, size, bytes,
                                    [](std::uint64_t h, std::uint64_t, unsigned char* p) {
                                      store_le(float64_bits(h), 8, p);
                                    });
      break;
    case ElementKind::Complex:
      if (size == 8)
        return fill_elements<true>(key, first, count, size, bytes,
                                   [](std::uint64_t h0, std::uint64_t h1, unsigned char* p) {
                                     store_le(float32_bits(h0), 4, p);
                                     store_le(float32_bits(h1), 4, p + 4);
                                   });
      if (size == 16)
        return fill_elements<true>(key, first, count, size, bytes,
                                   [](std::uint64_t h0, std::uint64_t h1, unsigned char* p) {
                                     store_le(float64_bits(h0), 8, p);
                                     store_le(float64_bits(h1), 8, p + 8);
                                   });
      break;
    default:
      break;
  }
  // Integers and raw bytes: the hash itself, every bit pattern valid.
  auto raw = [size](std::uint64_t h0, std::uint64_t h1, unsigned char* p) {
    store_le(h0, size < 8 ? size : 8, p);
    if (size > 8) store_le(h1, size - 8, p + 8);
  };
  if (size > 8) return fill_elements<true>(key, first, count, size, bytes, raw);
  fill_elements<false>(key, first, count, size, bytes, raw);
}

void generate(MPI_Comm comm, const GenerateOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const int rank = mpi::rank(comm);
  const int nranks = mpi::size(comm);
  const Shape& shape = options.shape;
  io::H5Id type;
  mpi::collectively(comm, [&] {
    if (shape.empty()) throw UsageError("generate needs a shape, e.g. 1024x2048");
    for (auto extent : shape)
      if (extent <= 0)
        throw UsageError(cat("generate: shape ", format_shape(shape), " has an empty axis"));
    element_count(shape);
    if (options.host_mem <= 0)
      throw UsageError(cat("generate: host memory budget ", options.host_mem, " bytes"));
    type = io::make_h5_type(options.type);
    const std::string temp = io::temporary_path_for(options.out.file);
    io::check_output_target(options.out, io::DatasetRef{}, options.force, {temp});
    // generate keeps no journal: a file at its temporary name is never known to be its own.
    struct stat st {};
    if (::lstat(temp.c_str(), &st) == 0)
      throw OutputRefusedError(cat("'", temp, "' exists (left by an interrupted xpose generate, or another "
                                   "program's file): remove it"));
  });

  io::OutputFile out;
  io::CreateOptions create;
  create.chunk = options.chunk;
  if (options.force) create.mode = io::replacement_mode(options.out.file);
  mpi::collectively(
      comm, [&] { out = io::OutputFile::create(options.out, shape, type.get(), create, comm); });

  // FFTW-style blocks of rows, a row being the last axis: rank p writes rows [p*b, (p+1)*b).
  const auto size = static_cast<std::int64_t>(options.type.size);
  const std::int64_t total = element_count(shape);
  const std::int64_t cols = shape.back();
  const std::int64_t rows = total / cols;
  const std::int64_t block = (rows + nranks - 1) / nranks;
  const std::int64_t my_first_row = std::min(rows, block * rank);
  const std::int64_t my_rows = std::min(rows, my_first_row + block) - my_first_row;
  const std::int64_t my_first = my_first_row * cols;
  const std::int64_t my_count = my_rows * cols;
  // Bands of whole rows where a row fits in the budget, else pieces of one row.
  std::int64_t band = std::max<std::int64_t>(1, options.host_mem / size);
  if (band >= cols) band = band / cols * cols;
  const std::int64_t my_steps = (my_count + band - 1) / band;
  // Writes are collective: ranks with fewer (or no) rows join the later ones with nothing.
  const std::int64_t steps = mpi::allreduce_max(comm, my_steps);
  std::vector<unsigned char> buffer(
      static_cast<std::size_t>(std::min(band, std::max<std::int64_t>(my_count, 1)) * size));

  try {
    for (std::int64_t step = 0; step < steps; ++step) {
      mpi::collectively(comm, [&] {
        std::vector<io::Box> boxes;
        if (step < my_steps) {
          std::int64_t at = my_first + step * band;
          std::int64_t n = std::min(band, my_first + my_count - at);
          generate_pattern(options.type, options.seed, at, n, buffer.data());
          boxes = io::boxes_for_range(shape, at, n);
        }
        out.dataset().write(boxes, buffer.data(), io::Transfer::Collective);
      });
    }
    out.set_attribute("xpose_generator", cat("xpose ", XPOSE_VERSION, " seed=", options.seed));
  } catch (...) {
    out.discard();  // every rank is here: each failure above was agreed collectively
    throw;
  }
  out.commit();

  if (rank == 0 && !options.quiet) {
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    double bytes = static_cast<double>(total) * static_cast<double>(size);
    std::printf("generated %s: %s %s, %s in %.2f s (%s/s, %d rank%s, seed %llu)\n",
                options.out.str().c_str(), format_shape(shape).c_str(), options.type.name().c_str(),
                format_size(bytes).c_str(), seconds,
                format_size(seconds > 0 ? bytes / seconds : 0.0).c_str(), nranks,
                nranks == 1 ? "" : "s", static_cast<unsigned long long>(options.seed));
    std::fflush(stdout);
  }
}

}  // namespace xpose
