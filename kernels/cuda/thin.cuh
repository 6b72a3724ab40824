/// @file
/// Thin matrices: one side (the short side, m elements) at most kThinMax. The tiled and skewed
/// kernels cut such a matrix into tiles of 32 to 256 elements a side, so most of their tiles are
/// partial: a 1298424 x 68 f32 input makes two tile columns, one of 64 columns and one of 4, and
/// the blocks of the second move 1/16 of what the first move in about the same time (0.51 x
/// memcpy). Here a block takes the whole short side and a slab of w positions
/// along the long side, so that every block moves m x w elements:
///   short rows (input m x len): the block reads w consecutive elements of each input row and
///     writes w output rows of m elements each (one contiguous run where the output is dense);
///   short columns (input len x m): it reads w input rows of m elements and writes w
///     consecutive elements of each output row.
/// The shared slab is m rows of ld = w + pad elements (pad: one 4-byte word or one element, so
/// that consecutive lanes on consecutive rows of the slab hit distinct banks), rows of 32768 / m
/// bytes rounded down to a power of two (at most 16384, at least 128: 1024 bytes for m = 17-32,
/// 128 for m = 129-256), so that a block moves 16-32 KiB, except that short input rows from m = 6
/// to 32 take 1024-byte slab rows (launch_thin); at most 37 KiB of shared memory. A thread finds
/// its first tall element's row and column by one multiply-shift division by m a slab and steps
/// them from there (some u16 word kernels keep one division an element). Accesses of one
/// element, or of 4-byte words for 1- and 2-byte elements (on the wide matrix also where its rows
/// are off 4 bytes: shifted words; on the tall one, where m is a multiple of 4 / S, in P x P
/// blocks transposed in registers); plain loads and stores, shuffles, funnel shifts and byte
/// permutes, so it builds for sm_35 on.
#pragma once

#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/cuda/check.h"
#include "kernels/cuda/tile.cuh"
#include "kernels/kernel_list.h"
#include "kernels/transpose.h"

namespace xpose::kernels::cuda_tile {

/// The longest short side the thin kernel takes.
constexpr std::int64_t kThinMax = 256;
constexpr int kThinThreads = 256;
/// How far thin_tall's loops are unrolled (x memcpy against unrolled 1 / 2 / 4 times): the
/// word loop (1- and 2-byte elements) twice, u8 24 x L 0.59 / 0.66 / 0.44; the element
/// loop (4- to 16-byte elements) four times, f32 L x 24 0.78 / 0.77 / 0.90.
constexpr int kThinUnrollWords = 2;
constexpr int kThinUnrollElems = 4;

struct ThinParams {
  const unsigned char* in;
  unsigned char* out;
  std::int64_t m;                    ///< short side, elements
  std::int64_t len;                  ///< long side, elements
  std::int64_t in_pitch, out_pitch;  ///< bytes between rows
  std::int64_t in_batch, out_batch;  ///< bytes between matrices
  std::int64_t batch;
  std::uint64_t magic;  ///< ceil(2^32 / m): e / m = (e * magic) >> 32 for e < 2^24
  int w, log_w, ld;     ///< slab width (a power of two), its log2, slab row length
};

/// How thin_wide moves the wide matrix's rows.
enum ThinWide : int {
  kThinWideElems = 0,    ///< one element an access
  kThinWideWords = 1,    ///< 4-byte words; 1- and 2-byte elements on rows on 4 bytes
  kThinWideShifted = 2,  ///< 4-byte words on rows off 4 bytes; 1- and 2-byte elements
};

/// The 4-byte word at `w` (on 4 bytes), of which only the elements inside [lo, hi) are read (one
/// element at a time), the others 0: the first and last words of a row piece off 4 bytes.
template <int S>
__device__ __forceinline__ std::uint32_t thin_load_part(const unsigned char* w,
                                                        const unsigned char* lo,
                                                        const unsigned char* hi) {
  using T = typename Bytes<S>::type;
  if (w >= lo && w + 4 <= hi) return *reinterpret_cast<const std::uint32_t*>(w);
  std::uint32_t v = 0;
#pragma unroll
  for (int t = 0; t < 4 / S; ++t) {
    const unsigned char* e = w + t * S;
    if (e >= lo && e < hi)
      v |= static_cast<std::uint32_t>(*reinterpret_cast<const T*>(e)) << (8 * S * t);
  }
  return v;
}

/// Stores the elements of `v` that fall inside [lo, hi) into the word at `w` (on 4 bytes): the
/// whole word where it is inside, else one element at a time (the rest belongs to other rows or
/// slabs).
template <int S>
__device__ __forceinline__ void thin_store_part(unsigned char* w, std::uint32_t v,
                                                const unsigned char* lo, const unsigned char* hi) {
  using T = typename Bytes<S>::type;
  constexpr std::uint32_t kMask = S == 1 ? 0xffu : 0xffffu;
  if (w >= lo && w + 4 <= hi) {
    *reinterpret_cast<std::uint32_t*>(w) = v;
    return;
  }
#pragma unroll
  for (int t = 0; t < 4 / S; ++t) {
    unsigned char* e = w + t * S;
    if (e >= lo && e < hi) *reinterpret_cast<T*>(e) = static_cast<T>((v >> (8 * S * t)) & kMask);
  }
}

/// The wide matrix (m rows of len elements: the input where rows are short, else the output) is
/// moved row by row: slab row r <-> row r, positions l0 .. l0 + wl - 1, consecutive lanes on
/// consecutive positions. WIDE (ThinWide) = kThinWideWords: 4-byte words, the last partial word
/// element by element. kThinWideShifted: the row piece starts d = 1-3 bytes past a 4-byte
/// boundary (d differs from row to row), so lane k takes the aligned word k of the piece's
/// span; reading, slab word k is the funnel shift by d of global words k and k + 1 (the latter
/// from the next lane by a shuffle; lane 31 loads it); writing, global word k is the funnel shift
/// of slab words k - 1 and k; the span's first and last words go element by element where they
/// reach past the piece. A warp stays on one row: a slab row is at least 128 bytes, 32 words.
template <int S, bool TO_SLAB, int WIDE>
__device__ __forceinline__ void thin_wide(const ThinParams& p, unsigned char* base,
                                          std::int64_t pitch, std::int64_t l0, int wl,
                                          typename Bytes<S>::type* slab) {
  using T = typename Bytes<S>::type;
  const int m = static_cast<int>(p.m);
  if constexpr (WIDE == kThinWideShifted && S < 4) {
    constexpr int P = 4 / S;  // elements a word
    const int log_wpr = p.log_w - (P == 4 ? 2 : 1);
    const int wpr = 1 << log_wpr;
    const int nb = wl * S;  // bytes of the piece
    // Every lane of a warp takes this loop's iterations together (m * wpr and kThinThreads are
    // multiples of 32), as the shuffle needs.
    for (int i = threadIdx.x; i < (m << log_wpr); i += kThinThreads) {
      const int r = i >> log_wpr, k = i & (wpr - 1);
      unsigned char* a = base + r * pitch + l0 * S;  // the piece: [a, a + nb)
      const int d = static_cast<int>(reinterpret_cast<std::uintptr_t>(a) & 3u);
      unsigned char* span = a - d;  // its first word
      auto* sh = reinterpret_cast<std::uint32_t*>(slab + r * p.ld);
      const bool live = 4 * k < d + nb;  // global word k holds piece bytes
      if (TO_SLAB) {
        const std::uint32_t lo = live ? thin_load_part<S>(span + 4 * k, a, a + nb) : 0u;
        std::uint32_t hi = __shfl_down_sync(0xffffffffu, lo, 1);
        if ((threadIdx.x & 31) == 31 && 4 * (k + 1) < d + nb)
          hi = thin_load_part<S>(span + 4 * (k + 1), a, a + nb);
        if (4 * k < nb) sh[k] = __funnelshift_r(lo, hi, 8 * d);
      } else {
        // Global word k: piece bytes 4k - d .. 4k - d + 3, from slab words k - 1 and k.
        if (live) {
          const std::uint32_t prev = k > 0 ? sh[k - 1] : 0u;
          const std::uint32_t cur = 4 * k < nb ? sh[k] : 0u;
          thin_store_part<S>(span + 4 * k, __funnelshift_rc(prev, cur, 32 - 8 * d), a, a + nb);
        }
        // The span's word wpr (a whole slab, d > 0): only the slab's last word feeds it.
        if (k == wpr - 1 && 4 * wpr < d + nb)
          thin_store_part<S>(span + 4 * wpr, __funnelshift_rc(sh[k], 0u, 32 - 8 * d), a, a + nb);
      }
    }
  } else if constexpr (WIDE == kThinWideWords && S < 4) {
    constexpr int P = 4 / S;  // elements a word
    const int log_wpr = p.log_w - (P == 4 ? 2 : 1);
    const int wpr = 1 << log_wpr;
    for (int i = threadIdx.x; i < (m << log_wpr); i += kThinThreads) {
      const int r = i >> log_wpr, j0 = (i & (wpr - 1)) * P;
      if (j0 >= wl) continue;
      unsigned char* g = base + r * pitch + (l0 + j0) * S;
      T* sh = slab + r * p.ld + j0;
      if (j0 + P <= wl) {
        if (TO_SLAB)
          *reinterpret_cast<std::uint32_t*>(sh) = *reinterpret_cast<const std::uint32_t*>(g);
        else
          *reinterpret_cast<std::uint32_t*>(g) = *reinterpret_cast<const std::uint32_t*>(sh);
      } else {
        for (int t = 0; t < wl - j0; ++t) {
          if (TO_SLAB)
            sh[t] = reinterpret_cast<const T*>(g)[t];
          else
            reinterpret_cast<T*>(g)[t] = sh[t];
        }
      }
    }
  } else {
    for (int i = threadIdx.x; i < (m << p.log_w); i += kThinThreads) {
      const int r = i >> p.log_w, j = i & (p.w - 1);
      if (j >= wl) continue;
      T* g = reinterpret_cast<T*>(base + r * pitch + (l0 + j) * S);
      if (TO_SLAB)
        slab[r * p.ld + j] = *g;
      else
        *g = slab[r * p.ld + j];
    }
  }
}

/// The P x P block of S-byte elements (P = 4 / S) in words w[0..P-1], element u of word t being
/// block element (t, u), transposed in place: afterwards element t of word u is (t, u).
template <int S>
__device__ __forceinline__ void thin_block_transpose(std::uint32_t (&w)[4 / S]) {
  if constexpr (S == 1) {
    const std::uint32_t t0 = __byte_perm(w[0], w[1], 0x5140), t1 = __byte_perm(w[2], w[3], 0x5140);
    const std::uint32_t t2 = __byte_perm(w[0], w[1], 0x7362), t3 = __byte_perm(w[2], w[3], 0x7362);
    w[0] = __byte_perm(t0, t1, 0x5410);
    w[1] = __byte_perm(t0, t1, 0x7632);
    w[2] = __byte_perm(t2, t3, 0x5410);
    w[3] = __byte_perm(t2, t3, 0x7632);
  } else {
    const std::uint32_t a = w[0], b = w[1];
    w[0] = __byte_perm(a, b, 0x5410);
    w[1] = __byte_perm(a, b, 0x7632);
  }
}

/// The tall matrix (len rows of m elements) is moved as rows l0 .. l0 + wl - 1: element e of
/// them (row e / m, column e % m) <-> slab column e / m, row e % m, consecutive lanes on
/// consecutive elements (the slab's rows are one word apart mod 32 banks, so consecutive lanes
/// hit distinct banks). VEC (1- and 2-byte elements; the rows dense and on 4 bytes, so they are
/// one contiguous run): 4-byte words of the run, each lane taking its word's elements in a
/// rotated order so that the lanes of a warp stay on distinct banks. Elements one at a time, and
/// words where STEP_WORDS (thin_step_words): a thread divides by m once per slab, and from one
/// element or word to its next (kThinThreads on) its row and column step by a quotient and
/// remainder found once, with one wrap of the column (the division per element, a 64-bit
/// multiply, made u8 thin issue-bound). Other words: one division an element.
/// BLOCKS (m a multiple of P = 4 / S, thin_blocks): P x P element blocks, P words in, a transpose
/// in registers (thin_block_transpose), P words out.
template <int S, bool TO_SLAB, bool VEC, bool STEP_WORDS, bool BLOCKS>
__device__ __forceinline__ void thin_tall(const ThinParams& p, unsigned char* base,
                                          std::int64_t pitch, std::int64_t l0, int wl,
                                          typename Bytes<S>::type* slab) {
  using T = typename Bytes<S>::type;
  const int m = static_cast<int>(p.m);
  const int n = wl * m;
  auto div = [&](int e) {
    return static_cast<int>((static_cast<std::uint64_t>(e) * p.magic) >> 32);
  };
  int first_tail = 0;
  if constexpr (VEC && S < 4) {
    constexpr int P = 4 / S;
    constexpr std::uint32_t kMask = S == 1 ? 0xffu : 0xffffu;
    auto* run = reinterpret_cast<std::uint32_t*>(base + l0 * m * S);
    const int words = n / P;
    if constexpr (BLOCKS) {
      // P x P blocks (m a multiple of P): P tall rows (P * jq ..) by one word of each (word cq,
      // elements P * cq ..), which is one word of each of P slab rows; transposed in registers.
      const int mq = m / P;  // words a tall row
      const int units = (wl + P - 1) / P * mq;
      const int sq = div(kThinThreads * P), sr = kThinThreads - sq * mq;  // jq, cq steps
      int jq = div(static_cast<int>(threadIdx.x) * P);
      int cq = static_cast<int>(threadIdx.x) - jq * mq;
#pragma unroll 1
      for (int k = threadIdx.x; k < units; k += kThinThreads) {
        std::uint32_t w[P];
        if (TO_SLAB) {
#pragma unroll
          for (int u = 0; u < P; ++u) w[u] = P * jq + u < wl ? run[(P * jq + u) * mq + cq] : 0u;
          thin_block_transpose<S>(w);
#pragma unroll
          for (int t = 0; t < P; ++t)
            *reinterpret_cast<std::uint32_t*>(slab + (P * cq + t) * p.ld + P * jq) = w[t];
        } else {
#pragma unroll
          for (int t = 0; t < P; ++t)
            w[t] = *reinterpret_cast<const std::uint32_t*>(slab + (P * cq + t) * p.ld + P * jq);
          thin_block_transpose<S>(w);
#pragma unroll
          for (int u = 0; u < P; ++u)
            if (P * jq + u < wl) run[(P * jq + u) * mq + cq] = w[u];
        }
        jq += sq;
        cq += sr;
        if (cq >= mq) {
          cq -= mq;
          ++jq;
        }
      }
    } else if (STEP_WORDS && m >= P) {
      // (j0, c0): slab column and row of the word's first element; an element t of the word
      // wraps at most once past m.
      const int sq = div(kThinThreads * P), sr = kThinThreads * P - sq * m;
      int j0 = div(static_cast<int>(threadIdx.x) * P);
      int c0 = static_cast<int>(threadIdx.x) * P - j0 * m;
#pragma unroll kThinUnrollWords
      for (int i = threadIdx.x; i < words; i += kThinThreads) {
        std::uint32_t word = TO_SLAB ? run[i] : 0u;
#pragma unroll
        for (int t = 0; t < P; ++t) {
          const int tt = (t + i) & (P - 1);
          int c = c0 + tt, j = j0;
          if (c >= m) {
            c -= m;
            ++j;
          }
          if (TO_SLAB)
            slab[c * p.ld + j] = static_cast<T>((word >> (8 * S * tt)) & kMask);
          else
            word |= static_cast<std::uint32_t>(slab[c * p.ld + j]) << (8 * S * tt);
        }
        if (!TO_SLAB) run[i] = word;
        j0 += sq;
        c0 += sr;
        if (c0 >= m) {
          c0 -= m;
          ++j0;
        }
      }
    } else {
      for (int i = threadIdx.x; i < words; i += kThinThreads) {
        std::uint32_t word = TO_SLAB ? run[i] : 0u;
#pragma unroll
        for (int t = 0; t < P; ++t) {
          const int tt = (t + i) & (P - 1);
          const int e = i * P + tt;
          const int j = div(e), c = e - j * m;
          if (TO_SLAB)
            slab[c * p.ld + j] = static_cast<T>((word >> (8 * S * tt)) & kMask);
          else
            word |= static_cast<std::uint32_t>(slab[c * p.ld + j]) << (8 * S * tt);
        }
        if (!TO_SLAB) run[i] = word;
      }
    }
    first_tail = words * P;
  }
  if constexpr (VEC && S < 4 && !STEP_WORDS) {  // one division an element, whole
    for (int e = first_tail + threadIdx.x; e < n; e += kThinThreads) {
      const int j = div(e), c = e - j * m;
      T* g = reinterpret_cast<T*>(base + (l0 + j) * pitch + c * S);
      if (TO_SLAB)
        slab[c * p.ld + j] = *g;
      else
        *g = slab[c * p.ld + j];
    }
    return;
  }
  const int e0 = first_tail + static_cast<int>(threadIdx.x);
  if (e0 >= n) return;
  // Element e at slab column j, row c; the tall row's start `row` steps with j.
  const int q = div(kThinThreads), r = kThinThreads - q * m;
  int j = div(e0), c = e0 - j * m;
  unsigned char* row = base + (l0 + j) * pitch;
  const std::int64_t q_pitch = q * pitch;
  constexpr int kUnroll = VEC && S < 4 ? 1 : kThinUnrollElems;  // after words: under 4 elements
#pragma unroll kUnroll
  for (int e = e0; e < n; e += kThinThreads) {
    T* g = reinterpret_cast<T*>(row + c * S);
    if (TO_SLAB)
      slab[c * p.ld + j] = *g;
    else
      *g = slab[c * p.ld + j];
    j += q;
    c += r;
    row += q_pitch;
    if (c >= m) {
      c -= m;
      ++j;
      row += pitch;
    }
  }
}

/// Whether thin_tall steps the words' rows and columns (else one division an element). x memcpy
/// at m = 3-200, stepped / dividing: u8 ahead everywhere (on 4
/// bytes rows 0.61-0.66 / 0.55-0.61, columns 0.74-0.77 / 0.58-0.59; off them 0.44-0.53 /
/// 0.40-0.47); u16 ahead on short columns with the wide rows on 4 bytes (0.79-0.85 / 0.73-0.77),
/// behind elsewhere (rows on 4 bytes level but -4 % at m = 8; off 4 bytes rows -1..-3 %, columns
/// -5..-13 %).
template <int S, bool SHORT_ROWS, int WIDE>
constexpr bool thin_step_words() {
  return S == 1 || (!SHORT_ROWS && WIDE == kThinWideWords);
}

/// Where the tall side goes in P x P blocks when m is a multiple of P (thin_tall's BLOCKS; the
/// tall rows in words). x memcpy, m = 4-200, the loops / blocks: u8 on 4 bytes
/// short rows 0.60-0.66 / 0.70-0.76, short columns 0.74-0.77 / 0.83-0.93; u16 short rows on 4
/// bytes 0.64-0.71 / 0.70-0.76, off them 0.38-0.50 / 0.40-0.53. Not where a measured m lost more
/// than 2 % or the median gained under 3 %: u8 short rows off 4
/// bytes (0.49 / 0.40-0.45: the block kernel there took 58 registers), u8 short columns off 4
/// bytes (x4-x128 +13-30 %, x200 -3 %), u16 short columns (on 4 bytes -4..+1 %, off them
/// -1.5..+9 %, median +2.8 %).
constexpr bool thin_blocks(int elem, bool short_rows, int wide) {
  return (elem == 1 && wide == kThinWideWords) ||
         (elem == 2 && short_rows && wide != kThinWideElems);
}

/// Where the thin kernel asks for 5 blocks an SM (at most 48 registers, thin_kernel_capped): the
/// tall input in stepped words and the wide output element by element; there the word loop
/// unrolled twice took 96 registers, 2 blocks an SM (u8 L x 24 off 4 bytes 0.35 x memcpy; capped
/// 0.51-0.53). Elsewhere the compiler's choice.
template <int S, bool SHORT_ROWS, int WIDE, bool VEC_TALL>
constexpr bool thin_capped() {
  return !SHORT_ROWS && WIDE == kThinWideElems && VEC_TALL &&
         thin_step_words<S, SHORT_ROWS, WIDE>();
}

/// SHORT_ROWS: the input is the wide matrix (m x len), else the tall one (len x m). WIDE: how the
/// wide matrix goes (ThinWide, thin_wide); VEC_TALL: 4-byte words on the tall one for 1- and
/// 2-byte elements (thin_tall).
template <int S, bool SHORT_ROWS, int WIDE, bool VEC_TALL, bool BLOCKS>
__device__ __forceinline__ void thin_body(const ThinParams& p) {
  using T = typename Bytes<S>::type;
  constexpr bool kStepWords = thin_step_words<S, SHORT_ROWS, WIDE>();
  extern __shared__ __align__(16) unsigned char thin_smem[];
  T* slab = reinterpret_cast<T*>(thin_smem);
  const std::int64_t slabs = (p.len + p.w - 1) / p.w;
  for (std::int64_t k = blockIdx.x + std::int64_t(gridDim.x) * blockIdx.y; k < slabs * p.batch;
       k += std::int64_t(gridDim.x) * gridDim.y) {
    const std::int64_t b = k / slabs;
    const std::int64_t l0 = (k - b * slabs) * p.w;
    const int wl = static_cast<int>(p.len - l0 < p.w ? p.len - l0 : p.w);  // positions in the slab
    auto* in = const_cast<unsigned char*>(p.in) + b * p.in_batch;
    unsigned char* out = p.out + b * p.out_batch;
    if (SHORT_ROWS) {
      thin_wide<S, true, WIDE>(p, in, p.in_pitch, l0, wl, slab);
      __syncthreads();
      thin_tall<S, false, VEC_TALL, kStepWords, BLOCKS>(p, out, p.out_pitch, l0, wl, slab);
    } else {
      thin_tall<S, true, VEC_TALL, kStepWords, BLOCKS>(p, in, p.in_pitch, l0, wl, slab);
      __syncthreads();
      thin_wide<S, false, WIDE>(p, out, p.out_pitch, l0, wl, slab);
    }
    __syncthreads();  // the next slab overwrites shared memory
  }
}

template <int S, bool SHORT_ROWS, int WIDE, bool VEC_TALL, bool BLOCKS = false>
__global__ void __launch_bounds__(kThinThreads) thin_kernel(ThinParams p) {
  thin_body<S, SHORT_ROWS, WIDE, VEC_TALL, BLOCKS>(p);
}

template <int S, bool SHORT_ROWS, int WIDE, bool VEC_TALL>
__global__ void __launch_bounds__(kThinThreads, 5) thin_kernel_capped(ThinParams p) {
  thin_body<S, SHORT_ROWS, WIDE, VEC_TALL, false>(p);
}

namespace thin_detail {

using ThinKernel = void (*)(ThinParams);

template <int S, bool SR, int WIDE>
ThinKernel pick_tall(bool vt, bool blocks) {
  (void)blocks;
  if (!vt) return thin_kernel<S, SR, WIDE, false>;
  if constexpr (thin_blocks(S, SR, WIDE)) {
    if (blocks) return thin_kernel<S, SR, WIDE, true, true>;
  }
  if constexpr (thin_capped<S, SR, WIDE, true>())
    return thin_kernel_capped<S, SR, WIDE, true>;
  else
    return thin_kernel<S, SR, WIDE, true>;
}

/// thin_kernel<S, SR, wide, vt> (or thin_kernel_capped, thin_capped; with P x P blocks where
/// `blocks`, ThinForm::blocks); the word forms (wide != kThinWideElems, vt) exist for 1- and
/// 2-byte elements only, the shifted ones where SHIFTED (kernels.def's THIN: 0 never, 1 short
/// rows, 2 always) lets thin_form give them.
template <int S, bool SR, int SHIFTED>
ThinKernel pick(int wide, bool vt, bool blocks) {
  if constexpr (S < 4) {
    if (wide == kThinWideWords) return pick_tall<S, SR, kThinWideWords>(vt, blocks);
    if constexpr (SHIFTED == 2 || (SHIFTED == 1 && SR)) {
      if (wide == kThinWideShifted) return pick_tall<S, SR, kThinWideShifted>(vt, blocks);
    }
    return pick_tall<S, SR, kThinWideElems>(vt, blocks);
  } else {
    (void)vt;
    (void)blocks;
    return thin_kernel<S, SR, kThinWideElems, false>;
  }
}

}  // namespace thin_detail

/// Launches thin_kernel<S, ...> on `stream` in form `f` (kernels/kernel_list.h's thin_form, which
/// the choice also names the kernel by): short rows where rows <= cols; for 1- and 2-byte
/// elements 4-byte words on the wide matrix where its rows start on 4 bytes (else shifted words
/// or element by element), and on the tall one where it is dense and starts on 4 bytes. `s`
/// resolved, non-empty and taken.
template <int S, int SHIFTED>
void launch_thin(const void* in, void* out, const TransposeShape& s, const detail::ThinForm& f,
                 cudaStream_t stream) {
  const bool short_rows = f.short_rows;
  ThinParams p;
  p.in = static_cast<const unsigned char*>(in);
  p.out = static_cast<unsigned char*>(out);
  p.m = short_rows ? s.rows : s.cols;
  p.len = short_rows ? s.cols : s.rows;
  p.in_pitch = s.in_pitch * S;
  p.out_pitch = s.out_pitch * S;
  p.in_batch = s.in_batch_stride * S;
  p.out_batch = s.out_batch_stride * S;
  p.batch = s.batch;
  p.magic = ((std::uint64_t{1} << 32) + static_cast<std::uint64_t>(p.m) - 1) /
            static_cast<std::uint64_t>(p.m);
  // Bytes of a slab row: where the input's columns are short, slabs of about
  // 32 KiB (32768 / m rounded down to a power of two, at most 16384 a row); where its rows are,
  // the same up to m = 5 and rows of 1024 bytes from 6 to 32 (32 KiB slabs lost 2-11 % at m =
  // 8-16 there). Both: 512 bytes a row up to m = 64, 256 to 128, 128 to 256.
  int slab_bytes = 16384;
  while (slab_bytes > 128 && static_cast<std::int64_t>(slab_bytes) * p.m > 32768) slab_bytes /= 2;
  if (short_rows && p.m > 5) slab_bytes = std::min(slab_bytes, 1024);
  p.w = std::max(1, slab_bytes / S);
  p.log_w = 0;
  while ((1 << p.log_w) < p.w) ++p.log_w;
  p.ld = p.w + std::max(1, 4 / S);  // slab rows one 4-byte word (or element) apart mod 32 banks
  const std::size_t smem = static_cast<std::size_t>(p.m) * p.ld * S;
  // One block a slab (slabs of the batch's matrices one after another), grid-stride past 2^31.
  const std::int64_t slabs = (p.len + p.w - 1) / p.w * s.batch;
  const std::int64_t gx = std::min<std::int64_t>(slabs, 0x7fffffff);
  const std::int64_t gy = std::min<std::int64_t>((slabs + gx - 1) / gx, 65535);
  const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
  const thin_detail::ThinKernel kernel =
      short_rows ? thin_detail::pick<S, true, SHIFTED>(f.wide, f.tall_words, f.blocks)
                 : thin_detail::pick<S, false, SHIFTED>(f.wide, f.tall_words, f.blocks);
  kernel<<<grid, kThinThreads, smem, stream>>>(p);
  XPOSE_CHECK_CUDA_LAUNCH("thin_kernel");
}

}  // namespace xpose::kernels::cuda_tile
