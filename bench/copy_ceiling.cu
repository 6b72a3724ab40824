// bench_copy_ceiling: how close kernels that only copy get to cudaMemcpy D2D, the ceiling the
// transposes are held against (bench_kernels). A transpose's kernel moves the same bytes as a
// copy, so the best copy kernel bounds what the SMs can reach with loads and stores; the gap
// between it and cudaMemcpy is what no kernel shape can win back. Also says whether cudaMemcpy
// D2D runs on a copy engine: it is issued on a second stream while a kernel holds every SM, and
// a copy that ends before that kernel did not need the SMs. The tile copies (square float32
// matrices only) move ROWS x PIECE-byte tiles either to the same place or to the transposed tile
// places with their rows kept: the tiled transpose's traffic without its transposition, in
// several block orders.
//
//   bench_copy_ceiling [--reps N] [--mib M[,M...]]
// Median of N timed runs (default 20) after 3 warm-ups; GB/s = 2 x bytes / time; every copy's
// output checked word by word on the device against the formula that filled the input
// (bench/device_pattern.cuh). Exit status: 0 all copies right, 1 a copy wrong, 2 bad options,
// 10 a CUDA failure (no device, no driver, out of memory), with a one-line message.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "bench/arg_list.h"
#include "bench/copy_kernels.cuh"
#include "bench/device_pattern.cuh"
#include "bench/stats.h"
#include "bench/timing.cuh"
#include "kernels/cuda/check.h"

namespace {

using namespace xpose::bench;
using xpose::kernels::cuda_tile::kLoadStreaming;
using xpose::kernels::cuda_tile::kStoreStreaming;

// Spins for about `cycles` clock cycles on every thread (holds the SMs).
__global__ void spin(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

struct Variant {
  std::string name;
  std::function<void(const uint4*, uint4*, std::int64_t, cudaStream_t)> run;
  int tile_words = 0;  ///< copy_tiles: 16-byte words of a tile row (0: not a tile copy)
  int tile_rows = 0;   ///< copy_tiles<.., true>: rows of the tiles it permutes (see verify_tiles)
  /// copy_tiles: whether its tile grid and block order fit a square float32 matrix of this side
  bool (*fits)(std::int64_t side) = nullptr;
};

/// The side of the square float32 matrix `words` 16-byte words hold, in floats, when there is
/// one with a side that is a multiple of 16; else 0. Constant time: the tile copies call it
/// between their timing events.
std::int64_t square_f32_side(std::int64_t words) {
  const std::int64_t elems = words * 4;
  std::int64_t n = static_cast<std::int64_t>(std::sqrt(static_cast<double>(elems)));
  while (n > 0 && n * n > elems) --n;  // the floating-point root may be one off either way
  while ((n + 1) * (n + 1) <= elems) ++n;
  return n > 0 && n % 16 == 0 && n * n == elems ? n : 0;
}

template <int ROWS, int WB, int PIECE, bool PERMUTE, int ORDER = kTilesRowMajor>
Variant tiles(const char* name) {
  return {name,
          [](const uint4* in, uint4* out, std::int64_t w, cudaStream_t st) {
            const std::int64_t n = square_f32_side(w), row_bytes = n * 4;
            const std::int64_t across = row_bytes / PIECE, down = n / ROWS;
            copy_tiles<ROWS, WB, PIECE, PERMUTE, ORDER>
                <<<static_cast<unsigned>(across * down), 256, 0, st>>>(
                    reinterpret_cast<const char*>(in), reinterpret_cast<char*>(out), row_bytes,
                    across, down);
          },
          PIECE / 16, PERMUTE ? ROWS : 0, [](std::int64_t side) {
            if (side == 0 || side % ROWS != 0 || (side * 4) % PIECE != 0) return false;
            const std::int64_t across = side * 4 / PIECE, down = side / ROWS;
            if (ORDER == kTilesGroup8) return down % 8 == 0;
            if (ORDER == kTilesSquare32) return across % 32 == 0 && down % 32 == 0;
            return true;
          }};
}

/// Checks copy_tiles<ROWS, .., true>'s output in 16-byte words, tiles of ROWS rows of P words:
/// word (R, c) of the permuted grid holds input word (ti * ROWS + R % ROWS, tj * P + c % P) with
/// tj = R / ROWS, ti = c / P.
__global__ void verify_tiles(const uint4* out, std::int64_t words, std::int64_t row_words,
                             int rows, int p, std::uint64_t seed, unsigned long long* bad,
                             unsigned long long* first_bad) {
  const std::int64_t down = (words / row_words) / rows, out_row_words = down * p;
  unsigned long long local = 0;
  for (std::int64_t o = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; o < words;
       o += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t R = o / out_row_words, c = o % out_row_words;
    const std::int64_t src = ((c / p) * rows + R % rows) * row_words + (R / rows) * p + c % p;
    uint4 want;
    pattern_element<16>(seed, static_cast<std::uint64_t>(src),
                        reinterpret_cast<unsigned char*>(&want));
    const uint4 got = out[o];
    if (got.x != want.x || got.y != want.y || got.z != want.z || got.w != want.w) {
      ++local;
      atomicMin(first_bad, static_cast<unsigned long long>(o));
    }
  }
  if (local) atomicAdd(bad, local);
}

template <int U, int HINT>
Variant unrolled(const char* name, int threads) {
  return {name, [threads](const uint4* in, uint4* out, std::int64_t w, cudaStream_t st) {
            const std::int64_t per_block = std::int64_t(threads) * U;
            copy_unrolled<U, HINT>
                <<<static_cast<unsigned>((w + per_block - 1) / per_block), threads, 0, st>>>(
                    in, out, w);
          }};
}

/// The measurements, after the options are read (CUDA failures throw RuntimeFailure).
int run(int reps, const std::vector<std::int64_t>& mibs) {
  int sms = 0;
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop{};
  XPOSE_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("# device: %s, %d SMs; %d warm-up + %d timed runs, median; GB/s = 2 x bytes / time\n",
              prop.name, sms, 3, reps);
  cudaStream_t st, other;
  XPOSE_CHECK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  XPOSE_CHECK_CUDA(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
  cudaEvent_t e0, e1, e2;
  XPOSE_CHECK_CUDA(cudaEventCreate(&e0));
  XPOSE_CHECK_CUDA(cudaEventCreate(&e1));
  XPOSE_CHECK_CUDA(cudaEventCreate(&e2));
  unsigned long long* bad = nullptr;  // count of wrong words, index of the first
  XPOSE_CHECK_CUDA(cudaMalloc(&bad, 2 * sizeof(*bad)));

  const std::vector<Variant> variants = {
      {"cudaMemcpyAsync D2D",
       [](const uint4* in, uint4* out, std::int64_t w, cudaStream_t s) {
         XPOSE_CHECK_CUDA(cudaMemcpyAsync(out, in, w * 16, cudaMemcpyDeviceToDevice, s));
       }},
      {"stride 16B, 16 blocks/SM x 256",
       [sms](const uint4* in, uint4* out, std::int64_t w, cudaStream_t s) {
         copy_stride<<<sms * 16, 256, 0, s>>>(in, out, w);
       }},
      {"stride 16B, 4 blocks/SM x 512",
       [sms](const uint4* in, uint4* out, std::int64_t w, cudaStream_t s) {
         copy_stride<<<sms * 4, 512, 0, s>>>(in, out, w);
       }},
      unrolled<1, 0>("1 x 16B a thread, t256", 256),
      unrolled<2, 0>("2 x 16B a thread, t256", 256),
      unrolled<4, 0>("4 x 16B a thread, t256", 256),
      unrolled<8, 0>("8 x 16B a thread, t256", 256),
      unrolled<4, 0>("4 x 16B a thread, t1024", 1024),
      unrolled<4, kStoreStreaming>("4 x 16B, st.cs", 256),
      unrolled<4, kLoadStreaming>("4 x 16B, ld.cs", 256),
      unrolled<4, kLoadStreaming | kStoreStreaming>("4 x 16B, ld.cs st.cs", 256),
      // Square f32 matrices only (skipped otherwise): the tiled transpose's traffic without
      // its transposition.
      // tiles ROWS x PIECE bytes, WB-byte words: a warp instruction covers 32 x WB bytes, i.e.
      // PIECE / (32 WB) rows.
      tiles<64, 16, 256, false>("tiles 64 x 256B w16, same place"),
      tiles<64, 16, 256, true>("tiles 64 x 256B w16, permuted"),
      tiles<64, 8, 256, true>("tiles 64 x 256B w8, permuted"),
      tiles<32, 16, 256, true>("tiles 32 x 256B w16, permuted"),
      tiles<32, 8, 256, true>("tiles 32 x 256B w8, permuted"),
      tiles<16, 16, 256, true>("tiles 16 x 256B w16, permuted"),
      tiles<16, 8, 256, true>("tiles 16 x 256B w8, permuted"),
      tiles<128, 16, 256, true>("tiles 128 x 256B w16, permuted"),
      tiles<32, 16, 512, true>("tiles 32 x 512B w16, permuted"),
      tiles<16, 16, 512, true>("tiles 16 x 512B w16, permuted"),
      // Block orders, 64 x 256-byte tiles permuted (16384^2 and 32768^2 f32: 256 / 512 tiles a
      // side, multiples of 32).
      tiles<64, 16, 256, true, kTilesColMajor>("tiles 64 x 256B, permuted, col-major"),
      tiles<64, 16, 256, true, kTilesGroup8>("tiles 64 x 256B, permuted, groups of 8"),
      tiles<64, 16, 256, true, kTilesSquare32>("tiles 64 x 256B, permuted, 32x32 squares"),
      tiles<64, 16, 256, true, kTilesDiagonal>("tiles 64 x 256B, permuted, diagonal"),
      tiles<64, 16, 256, false, kTilesDiagonal>("tiles 64 x 256B, same place, diagonal"),
  };

  int failures = 0;
  for (const std::int64_t mib : mibs) {
    const std::int64_t bytes = mib << 20;
    const std::int64_t words = bytes / 16;
    uint4 *a = nullptr, *b = nullptr;
    XPOSE_CHECK_CUDA(cudaMalloc(&a, bytes));
    XPOSE_CHECK_CUDA(cudaMalloc(&b, bytes));
    const auto seed = static_cast<std::uint64_t>(mib);
    fill_kernel<16><<<sms * 8, 256, 0, st>>>(reinterpret_cast<unsigned char*>(a),
                                             static_cast<std::uint64_t>(words), seed);
    double memcpy_gbps = 0;
    std::printf("\n%-42s %10s %9s %9s %7s %6s  %s\n", "copy", "MiB", "ms", "GB/s", "x mcpy", "iqr%",
                "check");
    const std::int64_t side = square_f32_side(words);
    for (const Variant& v : variants) {
      if (v.fits != nullptr && !v.fits(side)) {
        std::printf("%-42s %10lld skipped: not a square float32 matrix of whole tiles (and "
                    "whole groups of its block order)\n",
                    v.name.c_str(), static_cast<long long>(mib));
        continue;
      }
      XPOSE_CHECK_CUDA(cudaMemsetAsync(b, 0x5a, bytes, st));
      const Spread time =
          median_spread(time_each_run(st, 3, reps, [&] { v.run(a, b, words, st); }));
      XPOSE_CHECK_CUDA(cudaGetLastError());
      XPOSE_CHECK_CUDA(cudaMemsetAsync(bad, 0, sizeof(*bad), st));
      XPOSE_CHECK_CUDA(cudaMemsetAsync(bad + 1, 0xff, sizeof(*bad), st));
      if (v.tile_rows > 0)
        verify_tiles<<<sms * 8, 256, 0, st>>>(b, words, side / 4, v.tile_rows, v.tile_words,
                                              seed, bad, bad + 1);
      else
        verify_kernel<16><<<sms * 8, 256, 0, st>>>(reinterpret_cast<const unsigned char*>(b), 1,
                                                   words, false, seed, bad, bad + 1);
      unsigned long long nbad = 0;
      XPOSE_CHECK_CUDA(cudaMemcpyAsync(&nbad, bad, sizeof(nbad), cudaMemcpyDeviceToHost, st));
      XPOSE_CHECK_CUDA(cudaStreamSynchronize(st));
      const double med = time.median, iqr = time.iqr_pct;
      const double gbps = read_write_gbps(double(bytes), med);
      if (memcpy_gbps == 0) memcpy_gbps = gbps;
      failures += nbad != 0;
      std::printf("%-42s %10lld %9.4f %9.1f %7.4f %6.2f  %s\n", v.name.c_str(),
                  static_cast<long long>(mib), med, gbps, gbps / memcpy_gbps, iqr,
                  nbad == 0 ? "ok" : "FAILED");
    }
    // Copy engine or SMs: cudaMemcpyAsync on a second stream while a kernel holds every SM.
    int khz = 0;
    XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    const long long cycles = static_cast<long long>(khz) * 200;  // ~200 ms
    XPOSE_CHECK_CUDA(cudaEventRecord(e0, st));
    spin<<<sms * 16, 128, 0, st>>>(cycles);
    XPOSE_CHECK_CUDA(cudaEventRecord(e1, st));
    XPOSE_CHECK_CUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, other));
    XPOSE_CHECK_CUDA(cudaEventRecord(e2, other));
    XPOSE_CHECK_CUDA(cudaDeviceSynchronize());
    float spin_ms = 0, copy_end_ms = 0;
    XPOSE_CHECK_CUDA(cudaEventElapsedTime(&spin_ms, e0, e1));
    XPOSE_CHECK_CUDA(cudaEventElapsedTime(&copy_end_ms, e0, e2));
    std::printf(
        "# cudaMemcpyAsync D2D beside a kernel holding every SM: SM kernel ends at %.1f ms, "
        "the copy at %.1f ms: %s\n",
        spin_ms, copy_end_ms,
        copy_end_ms < spin_ms ? "the copy ran without the SMs (a copy engine)"
                              : "the copy waited for the SMs (a kernel, or serialised)");
    XPOSE_CHECK_CUDA(cudaFree(a));
    XPOSE_CHECK_CUDA(cudaFree(b));
  }
  XPOSE_CHECK_CUDA(cudaFree(bad));
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 20;
  std::vector<std::int64_t> mibs = {1024, 4096};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) {
      if (!read_reps(argv[++i], reps)) return 2;
    } else if (a == "--mib" && i + 1 < argc) {
      mibs.clear();
      for (const std::string& item : split_list(argv[++i])) {
        long long m = 0;
        if (!parse_whole(item, 1, 1LL << 20, m)) {
          std::fprintf(stderr, "--mib: '%s' is not a size in MiB (1 to 1048576)\n", item.c_str());
          return 2;
        }
        mibs.push_back(m);
      }
      if (mibs.empty()) {
        std::fprintf(stderr, "--mib: no sizes given\n");
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: bench_copy_ceiling [--reps N] [--mib M[,M...]]\n");
      return a == "--help" || a == "-h" ? 0 : 2;
    }
  }
  try {
    return run(reps, mibs);
  } catch (const std::exception& e) {  // e.g. no CUDA device or driver: one line, not an abort
    std::fprintf(stderr, "bench_copy_ceiling: %s\n", e.what());
    return 10;
  }
}
