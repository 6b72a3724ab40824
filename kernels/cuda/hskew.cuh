/// @file
/// Candidate (run 15): in place for 4-byte elements at any n, with one side of every block on
/// 32-byte sectors. The strip kernel's block (128 rows x 32 columns above the diagonal, and its
/// mirror, a strip of 32 rows x 128 elements) is skewed row by row: row i of the upper side
/// starts phi(i) elements (0-7) past the window's column, so that it starts on a sector. The
/// upper side then moves whole 16-byte words, each row piece exactly 4 sectors, and its words go
/// to shared memory whole. The mirror becomes 39 rows: 25 whole ones, and 7 at each end that it
/// shares element by element with the windows above and below (an element (j, i) is the block's
/// where phi(i) <= j - 32k < phi(i) + 32). Mirror rows are read and written one element a lane,
/// rotated onto 128-byte lines as in the strip kernel. The elements next to the diagonal that
/// no window holds (row i of band I, columns i+1 .. 128(I+1) + phi(i) - 1) are swapped by one
/// block per band through a 136 x 136 shared square.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "kernels/cuda/check.h"
#include "kernels/cuda/tile.cuh"
#include "kernels/cuda/triangular.h"
#include "xpose/error.h"

namespace xpose::kernels::cuda_tile {

namespace hskew {

constexpr int H = 128;               ///< upper rows a block (a band)
constexpr int W = 32;                ///< upper columns a block (a window)
constexpr int NT = 512;              ///< threads a block
constexpr int BR = W + 7;            ///< mirror rows a block
constexpr int A_FLOATS = W * H + 8 * (H / 8);  ///< upper side, row r at a_row(r)
constexpr int B_PITCH = 72;          ///< mirror, by upper row c, at b_row(c) (39 used)
constexpr int B_FLOATS = B_PITCH * H;
constexpr int DQ = H + 8;            ///< side of a diagonal block's square
constexpr int DP = DQ + 1;
constexpr int SMEM_FLOATS =
    A_FLOATS + B_FLOATS > DQ * DP ? A_FLOATS + B_FLOATS : DQ * DP;
constexpr int B_TASKS = BR * (H / 32);             ///< warp accesses of the mirror (156)
constexpr int B_PER_WARP = (B_TASKS + NT / 32 - 1) / (NT / 32);  ///< 10

XPOSE_HD std::int64_t lesser(std::int64_t a, std::int64_t b) {
  return a < b ? a : b;
}

/// First block number of band I when every band's windows are numbered in turn: band I has
/// K - 4(I + 1) windows (K windows of 32 columns in a row), so S(I) = I (K - 4) - 2 I (I - 1).
XPOSE_HD std::int64_t band_first(std::int64_t K, std::int64_t I) {
  return I * (K - 4) - 2 * I * (I - 1);
}

/// The band of main block b (0 <= b < band_first(K, bands)): the largest I < bands with
/// band_first(K, I) <= b. A double sqrt estimate, fixed up exactly.
XPOSE_HD std::int64_t band_of_block(std::int64_t K, std::int64_t bands, std::int64_t b) {
  // band_first(I) <= b  <=>  2 I^2 - (K - 2) I + b >= 0, so I <= ((K - 2) - sqrt(D)) / 4.
  const double kk = static_cast<double>(K - 2);
  double disc = kk * kk - 8.0 * static_cast<double>(b);
  if (disc < 0) disc = 0;
  double est = (kk - sqrt(disc)) * 0.25;
  if (est < 0) est = 0;
  std::int64_t I = static_cast<std::int64_t>(est);
  if (I > bands - 1) I = bands - 1;
  while (I > 0 && band_first(K, I) > b) --I;
  while (I + 1 < bands && band_first(K, I + 1) <= b) ++I;
  return I;
}

/// Band I and window k of main block b, in groups of G bands taken window by window: the
/// blocks (I, k), (I + 1, k), ... of a group run one after another, so their mirror pieces,
/// side by side in rows 32k .. 32k + 38, are written together. Band I holds windows
/// 4(I + 1) .. K - 1; inside a group the first windows form a staircase (4 windows of one band,
/// 4 of two, ...).
XPOSE_HD void block_of(std::int64_t K, std::int64_t bands, std::int64_t G, std::int64_t b,
                       std::int64_t& I, std::int64_t& k) {
  const std::int64_t g0 = band_of_block(K, bands, b) / G * G;
  const std::int64_t rows = bands - g0 < G ? bands - g0 : G;
  const std::int64_t q = b - band_first(K, g0);
  const std::int64_t stair = 2 * rows * (rows - 1);
  std::int64_t m;
  if (q < stair) {
    std::int64_t h = 1;
    while (2 * h * (h + 1) <= q) ++h;
    const std::int64_t q1 = q - 2 * h * (h - 1);
    m = 4 * (h - 1) + q1 / h;
    I = g0 + q1 % h;
  } else {
    const std::int64_t q2 = q - stair;
    m = 4 * (rows - 1) + q2 / rows;
    I = g0 + q2 % rows;
  }
  k = 4 * (g0 + 1) + m;
}

/// Elements from row i's start to its first sector boundary (0-7), for a matrix whose element
/// 0 is `base8` elements into its sector and whose rows are n elements apart.
XPOSE_HD int phase(std::uint32_t base8, std::uint32_t n8, std::int64_t i) {
  return static_cast<int>((8u - ((base8 + static_cast<std::uint32_t>(i & 7) * n8) & 7u)) & 7u);
}

/// Shared-memory row of upper row r (its words stored whole): 16-byte aligned, and r's bank
/// group 8 * ((r / 8) % 4), so a mirror access (32 consecutive r, column t - phi(r)) meets 32
/// banks when phi runs through 0-7 (odd n).
XPOSE_HD int a_row(int r) {
  return W * r + 8 * (r >> 3);
}

/// Shared-memory row of the mirror elements of upper row c (index t = mirror row): b_row(c) +
/// phi(c) is 16-byte aligned (the upper side reads 4 at once), and b_row(c) mod 32 runs through
/// all 32 banks over 32 consecutive c (odd n), so the mirror's column-wise stores do not collide.
XPOSE_HD int b_row(int c, int ph) {
  const int tgt = 8 * ((c >> 3) & 3) + 4 * (ph >> 2) + ((4 - (ph & 3)) & 3);
  return B_PITCH * c + ((tgt - B_PITCH * c) & 31);
}

}  // namespace hskew

struct HskewParams {
  char* buf;
  std::int64_t n;
  std::int64_t batch;
  std::int64_t stride_bytes;
  std::int64_t bands;        ///< ceil(n / 128): one diagonal block each
  std::int64_t win_bands;    ///< bands that have windows: (K - 1) / 4
  std::int64_t windows;      ///< K = ceil(n / 32)
  std::int64_t main_blocks;  ///< band_first(K, win_bands)
  std::int64_t group;        ///< bands a group
  int part;                  ///< 0: diagonal blocks, then windows; 1: diagonal only; 2: windows only
};

/// One band's elements next to the diagonal (and their mirror), through a shared square. The
/// loads go in four batches of registers (a loop of one load at a time left the 129 blocks of
/// 16411² waiting on latency while they held half the SMs' block slots).
__device__ __forceinline__ void hskew_diagonal(const HskewParams& p, char* m, std::int64_t I,
                                               std::uint32_t* __restrict__ s) {
  using namespace hskew;
  constexpr int SLOTS = DQ * DQ;
  constexpr int PER = (SLOTS + NT - 1) / NT;
  constexpr int BATCHES = 4;
  constexpr int HALF = (PER + BATCHES - 1) / BATCHES;
  const std::int64_t n = p.n;
  const std::int64_t o = I * H;
  const int ext = static_cast<int>(lesser(DQ, n - o));
  const int rows = static_cast<int>(lesser(H, n - o));
  const std::uint32_t base8 = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(m) >> 2) & 7u;
  const std::uint32_t n8 = static_cast<std::uint32_t>(n & 7);
  const bool windows = I < p.win_bands;
  // (a, b) local: in the band's upper part and not in a window.
  auto upper = [&](int a, int b) {
    if (a >= rows || b <= a) return false;
    const std::int64_t lim = windows ? lesser(H + phase(base8, n8, o + a), n - o) : n - o;
    return b < lim;
  };
  auto mine = [&](int e) {
    const int a = e / DQ, b = e % DQ;
    return e < SLOTS && a < ext && b < ext && (upper(a, b) || upper(b, a));
  };
  auto* mat = reinterpret_cast<std::uint32_t*>(m) + o * n + o;
#pragma unroll 1
  for (int h = 0; h < BATCHES; ++h) {
    std::uint32_t v[HALF];
#pragma unroll
    for (int x = 0; x < HALF; ++x) {
      const int e = threadIdx.x + NT * (h * HALF + x);
      v[x] = mine(e) ? mat[(e / DQ) * n + e % DQ] : 0u;
    }
#pragma unroll
    for (int x = 0; x < HALF; ++x) {
      const int e = threadIdx.x + NT * (h * HALF + x);
      if (mine(e)) s[(e / DQ) * DP + e % DQ] = v[x];
    }
  }
  __syncthreads();
#pragma unroll 4
  for (int e = threadIdx.x; e < SLOTS; e += NT)
    if (mine(e)) mat[(e / DQ) * n + e % DQ] = s[(e % DQ) * DP + e / DQ];
  __syncthreads();
}

/// Where lane `lane` of mirror access `a` of warp `warp` goes: the element (c0 + t, r0 + e) and
/// whether it is the block's.
struct MirrorSlot {
  std::uint32_t* at;
  int t, e, ph;
  bool mine;
};
__device__ __forceinline__ MirrorSlot mirror_slot(std::uint32_t* mb, std::int64_t n,
                                                  std::int64_t rows_left, std::uint32_t base8,
                                                  std::uint32_t n8, int warp, int lane, int a) {
  using namespace hskew;
  const int task = warp + (NT / 32) * a;
  const int t = task >> 2, q = task & 3;
  std::uint32_t* row = mb + t * n;
  const int off = static_cast<int>((reinterpret_cast<std::uintptr_t>(row) >> 2) & 31);
  const int e = (((32 - off) & 31) + 32 * q + lane) & (H - 1);
  const int ph = phase(base8, n8, e);  // r0 is a multiple of 8
  const bool mine = task < B_TASKS && t < rows_left && t >= ph && t < ph + W;
  return {row + e, t, e, ph, mine};
}

/// Block (I, k): the upper rows 128 I .. 128 I + 127, columns 32 k + phi(i) .. + 31, and their
/// mirror, swapped through shared memory. Addresses are worked out again in each phase (the
/// empty asm statements hide the bases' values from one phase to the next): kept live across
/// the phases, they spilled 200 bytes a thread.
template <int HINT>
__device__ __forceinline__ void hskew_main(const HskewParams& p, char* m, std::int64_t I,
                                           std::int64_t k, std::uint32_t* __restrict__ sa,
                                           std::uint32_t* __restrict__ sb) {
  using namespace hskew;
  std::int64_t n = p.n;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const std::int64_t r0 = I * H, c0 = k * W;
  const std::int64_t rows_left = n - c0;  // mirror rows inside the matrix
  const std::uint32_t base8 = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(m) >> 2) & 7u;
  const std::uint32_t n8 = static_cast<std::uint32_t>(n & 7);
  auto* ub = reinterpret_cast<std::uint32_t*>(m) + r0 * n + c0;  // (r0, c0)
  auto* mb = reinterpret_cast<std::uint32_t*>(m) + c0 * n + r0;  // (c0, r0)
  // Upper side: 128 rows x 8 words; thread word w = tid + NT x: row w / 8, word w % 8.
  uint4 va[2];
#pragma unroll
  for (int x = 0; x < 2; ++x) {
    const int w = tid + NT * x, r = w >> 3, u = (w & 7) * 4;
    const int j = phase(base8, n8, r) + u;  // from c0
    const std::uint32_t* src = ub + r * n + j;
    if (c0 + j + 3 < n) {
      va[x] = load_word<HINT>(reinterpret_cast<const uint4*>(src));
    } else {
      va[x] = make_uint4(0, 0, 0, 0);
      if (c0 + j < n) va[x].x = src[0];
      if (c0 + j + 1 < n) va[x].y = src[1];
      if (c0 + j + 2 < n) va[x].z = src[2];
    }
  }
  std::uint32_t vb[B_PER_WARP];
#pragma unroll
  for (int a = 0; a < B_PER_WARP; ++a) {
    const MirrorSlot ms = mirror_slot(mb, n, rows_left, base8, n8, warp, lane, a);
    vb[a] = ms.mine ? load_word<HINT>(ms.at) : 0u;
  }
  asm volatile("" : "+l"(mb), "+l"(n));
#pragma unroll
  for (int x = 0; x < 2; ++x) {
    const int w = tid + NT * x, r = w >> 3, u = (w & 7) * 4;
    *reinterpret_cast<uint4*>(sa + a_row(r) + u) = va[x];
  }
#pragma unroll
  for (int a = 0; a < B_PER_WARP; ++a) {
    const MirrorSlot ms = mirror_slot(mb, n, rows_left, base8, n8, warp, lane, a);
    if (ms.mine) sb[b_row(ms.e, ms.ph) + ms.t] = vb[a];
  }
  __syncthreads();
  asm volatile("" : "+l"(mb), "+l"(ub), "+l"(n));
  // Upper side from the mirror's elements: 4 at once from b_row(r) + phi(r) + u.
#pragma unroll
  for (int x = 0; x < 2; ++x) {
    const int w = tid + NT * x, r = w >> 3, u = (w & 7) * 4;
    const int ph = phase(base8, n8, r);
    const int j = ph + u;
    std::uint32_t* dst = ub + r * n + j;
    const uint4 v = *reinterpret_cast<const uint4*>(sb + b_row(r, ph) + j);
    if (c0 + j + 3 < n) {
      *reinterpret_cast<uint4*>(dst) = v;
    } else {
      if (c0 + j < n) dst[0] = v.x;
      if (c0 + j + 1 < n) dst[1] = v.y;
      if (c0 + j + 2 < n) dst[2] = v.z;
    }
  }
  // Mirror from the upper side's elements.
#pragma unroll
  for (int a = 0; a < B_PER_WARP; ++a) {
    const MirrorSlot ms = mirror_slot(mb, n, rows_left, base8, n8, warp, lane, a);
    if (ms.mine) *ms.at = sa[a_row(ms.e) + ms.t - ms.ph];
  }
  __syncthreads();
}

/// Diagonal blocks first (one a band), then the windows in groups of p.group bands.
template <int HINT>
__global__ void __launch_bounds__(hskew::NT, 2) inplace_hskew_kernel(HskewParams p) {
  extern __shared__ uint4 hskew_smem_raw[];
  auto* s = reinterpret_cast<std::uint32_t*>(hskew_smem_raw);
  const std::int64_t diag = p.part == 2 ? 0 : p.bands;
  const std::int64_t total = diag + (p.part == 1 ? 0 : p.main_blocks);
  for (std::int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    char* m = p.buf + b * p.stride_bytes;
    for (std::int64_t x = blockIdx.x; x < total; x += gridDim.x) {
      if (x < diag) {
        hskew_diagonal(p, m, x, s);
      } else {
        std::int64_t I, k;
        hskew::block_of(p.windows, p.win_bands, p.group, x - diag, I, k);
        hskew_main<HINT>(p, m, I, k, s, s + hskew::A_FLOATS);
      }
    }
  }
}

/// Launches inplace_hskew_kernel over `batch` dense n x n matrices of 4-byte elements at `buf`;
/// `split`: the windows in one launch, then the diagonal blocks in a second (for profiling).
template <int HINT>
void launch_inplace_hskew(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream,
                          int group, bool split = false) {
  using namespace hskew;
  HskewParams p;
  p.buf = static_cast<char*>(buf);
  p.n = n;
  p.batch = batch;
  p.stride_bytes = n * n * 4;
  p.bands = (n + H - 1) / H;
  p.windows = (n + W - 1) / W;
  p.win_bands = p.windows >= 5 ? (p.windows - 1) / 4 : 0;
  p.main_blocks = band_first(p.windows, p.win_bands);
  p.group = group > 1 ? group : 1;
  if (p.bands + p.main_blocks >= (std::int64_t{1} << 31))
    throw DimensionMismatch(cat("transpose_inplace_cuda: n = ", n, " is too large"));
  const std::int64_t gy = std::min<std::int64_t>(batch, 65535);
  constexpr std::size_t bytes = SMEM_FLOATS * 4;
  cuda_detail::allow_dynamic_smem(inplace_hskew_kernel<HINT>, bytes);
  for (int part : split ? std::initializer_list<int>{2, 1} : std::initializer_list<int>{0}) {
    p.part = part;
    const std::int64_t total =
        (part == 2 ? 0 : p.bands) + (part == 1 ? 0 : p.main_blocks);
    if (total == 0) continue;
    inplace_hskew_kernel<HINT>
        <<<dim3(static_cast<unsigned>(total), static_cast<unsigned>(gy)), NT, bytes, stream>>>(p);
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
      cuda_detail::throw_cuda_error(err, "launch of inplace_hskew_kernel", __FILE__, __LINE__);
  }
}

}  // namespace xpose::kernels::cuda_tile
