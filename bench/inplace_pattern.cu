// bench_inplace_pattern: the in-place transpose's memory traffic without its transposition, for
// square float32 matrices. Beside cudaMemcpy D2D of the same bytes and the library's in-place
// transpose (transpose_inplace_cuda), it times copies that read the regions an in-place block
// owns and write every element back where it was read, flipped (bench/inplace_pattern.cuh):
// the strip kernel's accesses exactly (the f32 kernel at odd n where the rotated kernel's shared
// memory does not fit), the same regions with 16-byte words, and larger square regions. A copy
// no faster than the kernel says the kernel is held by its traffic. The "swap" variants are
// in-place transposes on the rotated squares' traffic (the prototype of the library's
// inplace_rotated_kernel), checked as transposes.
//
//   bench_inplace_pattern [--n N[:PITCH][,...]] [--reps R]
// N:PITCH: rows PITCH elements apart (padded; the copies only, the transpose needs PITCH = N).
// Median of R timed runs (default 20) after 3 warm-ups; GB/s = 2 x n^2 x 4 bytes / time.
// Checks, every element, on the device: the memcpy's copy; the transpose after its first run and
// after the timed runs (an even count of transposes is the identity); each flip copy after its
// first run (every element flipped exactly once) and after the timed runs.
// Exit status: 0 all right, 1 a result wrong, 2 bad options, 10 a CUDA failure (no device, no
// driver, out of memory), with a one-line message.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "bench/arg_list.h"
#include "bench/device_pattern.cuh"
#include "bench/inplace_pattern.cuh"
#include "bench/stats.h"
#include "bench/timing.cuh"
#include "kernels/cuda/check.h"
#include "kernels/transpose.h"

namespace {

using namespace xpose::bench;
using xpose::kernels::cuda_tile::kFetch256;

/// A matrix side and its row pitch in elements (pitch > n: rows padded, for the copies only).
struct Side {
  std::int64_t n;
  std::int64_t pitch;
};

/// How a variant changes the matrix in one run.
enum class Effect { kCopy, kTranspose, kFlip };

struct Variant {
  std::string name;
  Effect effect;
  std::function<void(std::uint32_t*, std::uint32_t*, Side, cudaStream_t)> run;
  bool any_pitch = true;  ///< false: runs on dense matrices only (pitch = n)
};

std::uint64_t tiles_of(std::int64_t n, int ts) {
  return static_cast<std::uint64_t>((n + ts - 1) / ts);
}

template <int TS, int P>
PatternParams params(std::uint32_t* m, Side side, int group, unsigned& blocks) {
  const std::int64_t n = side.n;
  PatternParams p;
  p.m = m;
  p.n = n;
  p.pitch = side.pitch;
  p.tiles = tiles_of(n, TS);
  p.group = static_cast<std::uint64_t>(group);
  p.pairs = p.tiles * (p.tiles + 1) / 2;
  blocks = static_cast<unsigned>(std::min<std::uint64_t>((p.pairs + P - 1) / P, 0x7fffffff));
  return p;
}

template <int P, int NT, int MINB, int HINT, bool BARRIER>
Variant strip_elem(const char* name, int group) {
  return {name, Effect::kFlip, [group](std::uint32_t* a, std::uint32_t*, Side n,
                                       cudaStream_t st) {
            unsigned blocks = 0;
            const PatternParams p = params<32, P>(a, n, group, blocks);
            pattern_strip_elem<P, NT, MINB, HINT, BARRIER><<<blocks, NT, 0, st>>>(p);
          }};
}

template <int TS, int P, int NT, int MINB, int HINT, bool BARRIER>
Variant words(const char* name, int group) {
  return {name, Effect::kFlip, [group](std::uint32_t* a, std::uint32_t*, Side n,
                                       cudaStream_t st) {
            unsigned blocks = 0;
            const PatternParams p = params<TS, P>(a, n, group, blocks);
            pattern_words<TS, P, NT, MINB, HINT, BARRIER><<<blocks, NT, 0, st>>>(p);
          }};
}

template <int TS, int P, int NT, int MINB, int HINT>
Variant rotated(const char* name, int group) {
  return {name, Effect::kFlip, [group](std::uint32_t* a, std::uint32_t*, Side n,
                                       cudaStream_t st) {
            unsigned blocks = 0;
            const PatternParams p = params<TS, P>(a, n, group, blocks);
            pattern_rotated<TS, P, NT, MINB, HINT><<<blocks, NT, 0, st>>>(p);
          }};
}

template <int TS, int NT, int MINB, int HINT>
Variant rotated_swap(const char* name, int group) {
  return {name, Effect::kTranspose,
          [group](std::uint32_t* a, std::uint32_t*, Side n, cudaStream_t st) {
            unsigned blocks = 0;
            const PatternParams p = params<TS, 1>(a, n, group, blocks);
            constexpr std::size_t smem = rotated_swap_smem<TS>();
            xpose::cuda_detail::allow_dynamic_smem(pattern_rotated_swap<TS, NT, MINB, HINT>, smem);
            pattern_rotated_swap<TS, NT, MINB, HINT><<<blocks, NT, smem, st>>>(p);
          }};
}

template <int TS, int P, int NT, int MINB>
Variant words_async(const char* name, int group) {
  return {name, Effect::kFlip, [group](std::uint32_t* a, std::uint32_t*, Side n,
                                       cudaStream_t st) {
            unsigned blocks = 0;
            const PatternParams p = params<TS, P>(a, n, group, blocks);
            constexpr std::size_t smem = pattern_words_smem<TS, P>();
            xpose::cuda_detail::allow_dynamic_smem(pattern_words_async<TS, P, NT, MINB>, smem);
            pattern_words_async<TS, P, NT, MINB><<<blocks, NT, smem, st>>>(p);
          }};
}

/// Checks every element of the buffer of n rows, `pitch` elements apart: element (r, c), c < n,
/// must hold input element (c, r) when `transposed`, else (r, c), XOR kFlip when `flipped`; the
/// padding (c >= n) must be untouched. `copy`: only the first n^2 elements, unchanged (a memcpy).
__global__ void check_matrix(const std::uint32_t* m, std::int64_t n, std::int64_t pitch, bool copy,
                             bool transposed, bool flipped, std::uint64_t seed,
                             unsigned long long* bad) {
  const std::uint64_t count = static_cast<std::uint64_t>(copy ? n : pitch) * n;
  unsigned long long local = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const std::uint64_t r = i / pitch, c = i % pitch;
    std::uint32_t want = pattern_word(seed, i, 0);
    if (!copy && static_cast<std::int64_t>(c) < n)
      want = pattern_word(seed, transposed ? c * pitch + r : i, 0) ^ (flipped ? kFlip : 0u);
    local += m[i] != want;
  }
  if (local) atomicAdd(bad, local);
}

int run(int reps, const std::vector<Side>& sides) {
  int sms = 0;
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop{};
  XPOSE_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("# device: %s, %d SMs; %d warm-up + %d timed runs, median; GB/s = 2 x bytes / time\n",
              prop.name, sms, 3, reps);
  cudaStream_t st;
  XPOSE_CHECK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  unsigned long long* bad = nullptr;
  XPOSE_CHECK_CUDA(cudaMalloc(&bad, sizeof(*bad)));

  constexpr int F = kFetch256;
  const std::vector<Variant> variants = {
      {"cudaMemcpyAsync D2D", Effect::kCopy,
       [](std::uint32_t* a, std::uint32_t* b, Side n, cudaStream_t s) {
         XPOSE_CHECK_CUDA(cudaMemcpyAsync(b, a, n.n * n.n * 4, cudaMemcpyDeviceToDevice, s));
       }},
      {"library in place (transpose_inplace_cuda)", Effect::kTranspose,
       [](std::uint32_t* a, std::uint32_t*, Side n, cudaStream_t s) {
         xpose::kernels::transpose_inplace_cuda(a, 4, n.n, 1, s);
       },
       false},
      // The strip kernel's accesses (F32Strip: P = 4, 512 threads, 2 blocks an SM, G = 8,
      // 256-byte fetches on every load).
      strip_elem<4, 512, 2, F, true>("strip 4x32, elements", 8),
      strip_elem<4, 512, 2, F, false>("strip 4x32, elements, no barrier", 8),
      // The same regions and order, 16-byte words.
      words<32, 4, 512, 2, F, true>("strip 4x32, words", 8),
      // Square region pairs, 16-byte words, groups about 256 rows tall.
      words<64, 1, 512, 2, F, true>("square 64, words, G=4", 4),
      words<96, 1, 512, 1, F, true>("square 96, words, t512 G=3", 3),
      // Staged in shared memory by cp.async (sm_80 onwards), as a kernel of large regions would.
      words_async<64, 1, 256, 3>("square 64, cp.async, t256 b3 G=4", 4),
      words_async<128, 1, 1024, 1>("square 128, cp.async, t1024 G=2", 2),
      // One element an access, both sides' rows rotated onto 128-byte lines.
      rotated<64, 1, 512, 2, F>("square 64, rotated, G=4", 4),
      rotated<128, 1, 1024, 1, F>("square 128, rotated, t1024 G=2", 2),
      rotated<96, 1, 512, 1, F>("square 96, rotated, t512 G=3", 3),
      // Transposes on the rotated squares' traffic (the two tiles exchanged in shared memory).
      rotated_swap<64, 512, 2, F>("swap 64, rotated, G=4", 4),
      rotated_swap<128, 1024, 1, F>("swap 128, rotated, t1024 G=2", 2),
      rotated_swap<96, 512, 1, F>("swap 96, rotated, t512 G=3", 3),
  };

  int failures = 0;
  for (const Side side : sides) {
    const std::int64_t n = side.n, pitch = side.pitch;
    const std::int64_t bytes = n * n * 4;  // the matrix's (GB/s counts these)
    const std::int64_t buffer = n * pitch * 4;
    std::uint32_t *a = nullptr, *b = nullptr;
    XPOSE_CHECK_CUDA(cudaMalloc(&a, buffer + 256));  // slack: pattern_words reads whole words
    XPOSE_CHECK_CUDA(cudaMalloc(&b, buffer + 256));
    const auto seed = static_cast<std::uint64_t>(n * 7 + pitch);
    auto check = [&](const std::uint32_t* m, bool copy, bool transposed, bool flipped) {
      XPOSE_CHECK_CUDA(cudaMemsetAsync(bad, 0, sizeof(*bad), st));
      check_matrix<<<sms * 8, 256, 0, st>>>(m, n, pitch, copy, transposed, flipped, seed, bad);
      unsigned long long nbad = 0;
      XPOSE_CHECK_CUDA(cudaMemcpyAsync(&nbad, bad, sizeof(nbad), cudaMemcpyDeviceToHost, st));
      XPOSE_CHECK_CUDA(cudaStreamSynchronize(st));
      return nbad;
    };
    double memcpy_gbps = 0, library_gbps = 0;
    std::printf("\n%-44s %11s %9s %9s %7s %7s %6s  %s\n", "n x n float32", "n:pitch", "ms", "GB/s",
                "x mcpy", "x lib", "iqr%", "check (first run / after all)");
    char label[48];
    std::snprintf(label, sizeof label, "%lld:%lld", static_cast<long long>(n),
                  static_cast<long long>(pitch));
    for (const Variant& v : variants) {
      if (!v.any_pitch && pitch != n) continue;
      fill_kernel<4><<<sms * 8, 256, 0, st>>>(reinterpret_cast<unsigned char*>(a),
                                              static_cast<std::uint64_t>(n) * pitch, seed);
      XPOSE_CHECK_CUDA(cudaMemsetAsync(b, 0x5a, buffer, st));
      // First run, untimed, checked.
      v.run(a, b, side, st);
      XPOSE_CHECK_CUDA(cudaGetLastError());
      const unsigned long long bad1 =
          v.effect == Effect::kCopy ? check(b, true, false, false)
                                    : check(a, false, v.effect == Effect::kTranspose,
                                            v.effect == Effect::kFlip);
      const Spread time =
          median_spread(time_each_run(st, 3, reps, [&] { v.run(a, b, side, st); }));
      XPOSE_CHECK_CUDA(cudaGetLastError());
      const bool odd_runs = (1 + 3 + reps) % 2 == 1;  // an odd count of runs: changed once
      const unsigned long long bad2 =
          v.effect == Effect::kCopy
              ? check(b, true, false, false)
              : check(a, false, v.effect == Effect::kTranspose && odd_runs,
                      v.effect == Effect::kFlip && odd_runs);
      const double med = time.median, iqr = time.iqr_pct;
      const double gbps = read_write_gbps(double(bytes), med);
      if (v.effect == Effect::kCopy && memcpy_gbps == 0) memcpy_gbps = gbps;
      if (v.name.rfind("library", 0) == 0 && library_gbps == 0) library_gbps = gbps;
      failures += bad1 != 0 || bad2 != 0;
      char verdict[96];
      if (bad1 == 0 && bad2 == 0)
        std::snprintf(verdict, sizeof verdict, "ok");
      else
        std::snprintf(verdict, sizeof verdict, "FAILED: %llu / %llu elements wrong", bad1, bad2);
      char vs_mcpy[16] = "-", vs_lib[16] = "-";  // "-": no memcpy / transpose at this side
      if (memcpy_gbps > 0) std::snprintf(vs_mcpy, sizeof vs_mcpy, "%.4f", gbps / memcpy_gbps);
      if (library_gbps > 0) std::snprintf(vs_lib, sizeof vs_lib, "%.4f", gbps / library_gbps);
      std::printf("%-44s %11s %9.4f %9.1f %7s %7s %6.2f  %s\n", v.name.c_str(), label, med, gbps,
                  vs_mcpy, vs_lib, iqr, verdict);
    }
    XPOSE_CHECK_CUDA(cudaFree(a));
    XPOSE_CHECK_CUDA(cudaFree(b));
  }
  XPOSE_CHECK_CUDA(cudaFree(bad));
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 20;
  std::vector<Side> sides = {{16411, 16411}, {16384, 16384}};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) {
      if (!read_reps(argv[++i], reps)) return 2;
    } else if (a == "--n" && i + 1 < argc) {
      sides.clear();
      for (const std::string& item : split_list(argv[++i])) {
        const std::size_t colon = item.find(':');
        long long v = 0, pv = 0;
        if (!parse_whole(item.substr(0, colon), 1, 65536, v) ||
            (colon != std::string::npos && !parse_whole(item.substr(colon + 1), v, 65536, pv))) {
          std::fprintf(stderr,
                       "--n: '%s' is not a matrix side N (1 to 65536) or N:PITCH (N to 65536)\n",
                       item.c_str());
          return 2;
        }
        sides.push_back({v, colon == std::string::npos ? v : pv});
      }
      if (sides.empty()) {
        std::fprintf(stderr, "--n: no sides given\n");
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: bench_inplace_pattern [--n N[:PITCH][,...]] [--reps R]\n");
      return a == "--help" || a == "-h" ? 0 : 2;
    }
  }
  try {
    return run(reps, sides);
  } catch (const std::exception& e) {  // e.g. no CUDA device or driver: one line, not an abort
    std::fprintf(stderr, "bench_inplace_pattern: %s\n", e.what());
    return 10;
  }
}
