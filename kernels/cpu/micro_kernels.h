/// @file
/// Register-level transposes of small square blocks, one set per instruction set. Each kernel
/// `Micro` has `M` (the block side, in elements), `Smaller` (a kernel with a smaller M for the
/// edges, or void) and
///   `run(in, in_pitch, out, out_pitch)`: out[c][r] = in[r][c] for r, c < M, pitches in bytes.
/// Private to kernels/cpu: included by transpose_cpu.cpp only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) || defined(_M_X64)
#define XPOSE_CPU_X86 1
#include <immintrin.h>
#else
#define XPOSE_CPU_X86 0
#endif

#if defined(__GNUC__) || defined(__clang__)
#define XPOSE_ALWAYS_INLINE inline __attribute__((always_inline))
// AVX2 kernels are not always_inline: GCC would refuse to inline them into the generic tile
// loops (default target). The avx2 entry points are `flatten`ed instead, which inlines the loops
// and then the kernels into a function compiled for AVX2.
#define XPOSE_TARGET_AVX2 __attribute__((target("avx2")))
#define XPOSE_TARGET_AVX2_FLATTEN __attribute__((target("avx2"), flatten))
#else
#define XPOSE_ALWAYS_INLINE inline
#define XPOSE_TARGET_AVX2
#define XPOSE_TARGET_AVX2_FLATTEN
#endif

namespace xpose::kernels::cpu {

using Byte = unsigned char;

/// Copies one element of S bytes; a constant-size memcpy compiles to plain moves.
template <std::size_t S>
XPOSE_ALWAYS_INLINE void copy_elem(Byte* dst, const Byte* src) {
  std::memcpy(dst, src, S);
}

/// Transposes an h x w block element by element: the edges that no full micro block covers.
template <std::size_t S>
XPOSE_ALWAYS_INLINE void transpose_scalar(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                          std::ptrdiff_t op, std::int64_t h, std::int64_t w) {
  for (std::int64_t c = 0; c < w; ++c) {
    Byte* o = out + c * op;
    const Byte* i = in + c * static_cast<std::ptrdiff_t>(S);
    for (std::int64_t r = 0; r < h; ++r) copy_elem<S>(o + r * S, i + r * ip);
  }
}

/// Plain C++ block: any architecture. The compiler keeps the loads and stores in registers.
template <std::size_t S>
struct MicroPortable {
  static constexpr int M = 4;
  using Smaller = void;
  static XPOSE_ALWAYS_INLINE void run(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                      std::ptrdiff_t op) {
    transpose_scalar<S>(in, ip, out, op, M, M);
  }
};

#if XPOSE_CPU_X86

// ---- SSE2 (x86-64 baseline) -------------------------------------------------------------

template <std::size_t S>
struct MicroSse2;

/// 8x8 bytes: 8-byte row loads, three rounds of interleaving (8-, 16-, 32-bit).
template <>
struct MicroSse2<1> {
  static constexpr int M = 8;
  using Smaller = void;
  static XPOSE_ALWAYS_INLINE void run(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                      std::ptrdiff_t op) {
    auto ld = [&](int r) { return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + r * ip)); };
    const __m128i a0 = _mm_unpacklo_epi8(ld(0), ld(1));
    const __m128i a1 = _mm_unpacklo_epi8(ld(2), ld(3));
    const __m128i a2 = _mm_unpacklo_epi8(ld(4), ld(5));
    const __m128i a3 = _mm_unpacklo_epi8(ld(6), ld(7));
    const __m128i b0 = _mm_unpacklo_epi16(a0, a1);
    const __m128i b1 = _mm_unpackhi_epi16(a0, a1);
    const __m128i b2 = _mm_unpacklo_epi16(a2, a3);
    const __m128i b3 = _mm_unpackhi_epi16(a2, a3);
    const __m128i c[4] = {_mm_unpacklo_epi32(b0, b2), _mm_unpackhi_epi32(b0, b2),
                          _mm_unpacklo_epi32(b1, b3), _mm_unpackhi_epi32(b1, b3)};
    for (int k = 0; k < 4; ++k) {
      _mm_storel_epi64(reinterpret_cast<__m128i*>(out + (2 * k) * op), c[k]);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(out + (2 * k + 1) * op),
                       _mm_unpackhi_epi64(c[k], c[k]));
    }
  }
};

/// 8x8 of 16-bit: three rounds of interleaving (16-, 32-, 64-bit).
template <>
struct MicroSse2<2> {
  static constexpr int M = 8;
  using Smaller = void;
  static XPOSE_ALWAYS_INLINE void run(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                      std::ptrdiff_t op) {
    auto ld = [&](int r) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + r * ip)); };
    const __m128i r0 = ld(0), r1 = ld(1), r2 = ld(2), r3 = ld(3);
    const __m128i r4 = ld(4), r5 = ld(5), r6 = ld(6), r7 = ld(7);
    const __m128i a0 = _mm_unpacklo_epi16(r0, r1), a1 = _mm_unpackhi_epi16(r0, r1);
    const __m128i a2 = _mm_unpacklo_epi16(r2, r3), a3 = _mm_unpackhi_epi16(r2, r3);
    const __m128i a4 = _mm_unpacklo_epi16(r4, r5), a5 = _mm_unpackhi_epi16(r4, r5);
    const __m128i a6 = _mm_unpacklo_epi16(r6, r7), a7 = _mm_unpackhi_epi16(r6, r7);
    const __m128i b0 = _mm_unpacklo_epi32(a0, a2), b1 = _mm_unpackhi_epi32(a0, a2);
    const __m128i b2 = _mm_unpacklo_epi32(a1, a3), b3 = _mm_unpackhi_epi32(a1, a3);
    const __m128i b4 = _mm_unpacklo_epi32(a4, a6), b5 = _mm_unpackhi_epi32(a4, a6);
    const __m128i b6 = _mm_unpacklo_epi32(a5, a7), b7 = _mm_unpackhi_epi32(a5, a7);
    auto st = [&](int r, __m128i v) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + r * op), v);
    };
    st(0, _mm_unpacklo_epi64(b0, b4));
    st(1, _mm_unpackhi_epi64(b0, b4));
    st(2, _mm_unpacklo_epi64(b1, b5));
    st(3, _mm_unpackhi_epi64(b1, b5));
    st(4, _mm_unpacklo_epi64(b2, b6));
    st(5, _mm_unpackhi_epi64(b2, b6));
    st(6, _mm_unpacklo_epi64(b3, b7));
    st(7, _mm_unpackhi_epi64(b3, b7));
  }
};

/// 4x4 of 32-bit.
template <>
struct MicroSse2<4> {
  static constexpr int M = 4;
  using Smaller = void;
  static XPOSE_ALWAYS_INLINE void run(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                      std::ptrdiff_t op) {
    auto ld = [&](int r) { return _mm_loadu_ps(reinterpret_cast<const float*>(in + r * ip)); };
    __m128 r0 = ld(0), r1 = ld(1), r2 = ld(2), r3 = ld(3);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_storeu_ps(reinterpret_cast<float*>(out), r0);
    _mm_storeu_ps(reinterpret_cast<float*>(out + op), r1);
    _mm_storeu_ps(reinterpret_cast<float*>(out + 2 * op), r2);
    _mm_storeu_ps(reinterpret_cast<float*>(out + 3 * op), r3);
  }
};

/// 2x2 of 64-bit.
template <>
struct MicroSse2<8> {
  static constexpr int M = 2;
  using Smaller = void;
  static XPOSE_ALWAYS_INLINE void run(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                      std::ptrdiff_t op) {
    const __m128d r0 = _mm_loadu_pd(reinterpret_cast<const double*>(in));
    const __m128d r1 = _mm_loadu_pd(reinterpret_cast<const double*>(in + ip));
    _mm_storeu_pd(reinterpret_cast<double*>(out), _mm_unpacklo_pd(r0, r1));
    _mm_storeu_pd(reinterpret_cast<double*>(out + op), _mm_unpackhi_pd(r0, r1));
  }
};

/// 2x2 of 128-bit: each element is one register, so this is four moves.
template <>
struct MicroSse2<16> {
  static constexpr int M = 2;
  using Smaller = void;
  static XPOSE_ALWAYS_INLINE void run(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                      std::ptrdiff_t op) {
    auto ld = [](const Byte* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); };
    auto st = [](Byte* p, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); };
    const __m128i a = ld(in), b = ld(in + 16), c = ld(in + ip), d = ld(in + ip + 16);
    st(out, a);
    st(out + 16, c);
    st(out + op, b);
    st(out + op + 16, d);
  }
};

// ---- AVX2 (chosen at run time) ----------------------------------------------------------

template <std::size_t S>
struct MicroAvx2 : MicroSse2<S> {};  // 2-byte: the SSE2 block already writes whole 16 bytes

/// 16x16 bytes. Each register holds row k in its low lane and row k+8 in its high lane, so
/// three rounds of in-lane interleaving transpose both 8x16 halves at once; a final qword
/// permute joins each column's two halves.
template <>
struct MicroAvx2<1> {
  static constexpr int M = 16;
  using Smaller = MicroSse2<1>;
  static inline XPOSE_TARGET_AVX2 void run(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                           std::ptrdiff_t op) {
#define XPOSE_LD(r) _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + (r)*ip))
#define XPOSE_LD2(r) \
  _mm256_inserti128_si256(_mm256_castsi128_si256(XPOSE_LD(r)), XPOSE_LD(r + 8), 1)
    const __m256i a0 = XPOSE_LD2(0), a1 = XPOSE_LD2(1), a2 = XPOSE_LD2(2), a3 = XPOSE_LD2(3);
    const __m256i a4 = XPOSE_LD2(4), a5 = XPOSE_LD2(5), a6 = XPOSE_LD2(6), a7 = XPOSE_LD2(7);
#undef XPOSE_LD2
#undef XPOSE_LD
    const __m256i b0 = _mm256_unpacklo_epi8(a0, a1), b1 = _mm256_unpackhi_epi8(a0, a1);
    const __m256i b2 = _mm256_unpacklo_epi8(a2, a3), b3 = _mm256_unpackhi_epi8(a2, a3);
    const __m256i b4 = _mm256_unpacklo_epi8(a4, a5), b5 = _mm256_unpackhi_epi8(a4, a5);
    const __m256i b6 = _mm256_unpacklo_epi8(a6, a7), b7 = _mm256_unpackhi_epi8(a6, a7);
    const __m256i c0 = _mm256_unpacklo_epi16(b0, b2), c1 = _mm256_unpackhi_epi16(b0, b2);
    const __m256i c2 = _mm256_unpacklo_epi16(b1, b3), c3 = _mm256_unpackhi_epi16(b1, b3);
    const __m256i c4 = _mm256_unpacklo_epi16(b4, b6), c5 = _mm256_unpackhi_epi16(b4, b6);
    const __m256i c6 = _mm256_unpacklo_epi16(b5, b7), c7 = _mm256_unpackhi_epi16(b5, b7);
    // d_k: columns 2k and 2k+1, rows 0-7 in the low lane and rows 8-15 in the high lane.
    const __m256i d[8] = {_mm256_unpacklo_epi32(c0, c4), _mm256_unpackhi_epi32(c0, c4),
                          _mm256_unpacklo_epi32(c1, c5), _mm256_unpackhi_epi32(c1, c5),
                          _mm256_unpacklo_epi32(c2, c6), _mm256_unpackhi_epi32(c2, c6),
                          _mm256_unpacklo_epi32(c3, c7), _mm256_unpackhi_epi32(c3, c7)};
    for (int k = 0; k < 8; ++k) {
      const __m256i e = _mm256_permute4x64_epi64(d[k], 0xD8);  // qwords 0, 2, 1, 3
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + (2 * k) * op), _mm256_castsi256_si128(e));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + (2 * k + 1) * op),
                       _mm256_extracti128_si256(e, 1));
    }
  }
};

/// 8x8 of 32-bit: interleave pairs, then quads, then swap 128-bit lanes.
template <>
struct MicroAvx2<4> {
  static constexpr int M = 8;
  using Smaller = MicroSse2<4>;
  static inline XPOSE_TARGET_AVX2 void run(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                           std::ptrdiff_t op) {
    // No lambdas here: they would not inherit the avx2 target of the enclosing function.
#define XPOSE_LD(r) _mm256_loadu_ps(reinterpret_cast<const float*>(in + (r)*ip))
    const __m256 r0 = XPOSE_LD(0), r1 = XPOSE_LD(1), r2 = XPOSE_LD(2), r3 = XPOSE_LD(3);
    const __m256 r4 = XPOSE_LD(4), r5 = XPOSE_LD(5), r6 = XPOSE_LD(6), r7 = XPOSE_LD(7);
#undef XPOSE_LD
    const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
    const __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    const __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
    const __m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
#define XPOSE_ST(r, v) _mm256_storeu_ps(reinterpret_cast<float*>(out + (r)*op), v)
    XPOSE_ST(0, _mm256_permute2f128_ps(s0, s4, 0x20));
    XPOSE_ST(1, _mm256_permute2f128_ps(s1, s5, 0x20));
    XPOSE_ST(2, _mm256_permute2f128_ps(s2, s6, 0x20));
    XPOSE_ST(3, _mm256_permute2f128_ps(s3, s7, 0x20));
    XPOSE_ST(4, _mm256_permute2f128_ps(s0, s4, 0x31));
    XPOSE_ST(5, _mm256_permute2f128_ps(s1, s5, 0x31));
    XPOSE_ST(6, _mm256_permute2f128_ps(s2, s6, 0x31));
    XPOSE_ST(7, _mm256_permute2f128_ps(s3, s7, 0x31));
#undef XPOSE_ST
  }
};

/// 4x4 of 64-bit: interleave pairs, then swap 128-bit lanes.
template <>
struct MicroAvx2<8> {
  static constexpr int M = 4;
  using Smaller = MicroSse2<8>;
  static inline XPOSE_TARGET_AVX2 void run(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                           std::ptrdiff_t op) {
#define XPOSE_LD(r) _mm256_loadu_pd(reinterpret_cast<const double*>(in + (r)*ip))
    const __m256d r0 = XPOSE_LD(0), r1 = XPOSE_LD(1), r2 = XPOSE_LD(2), r3 = XPOSE_LD(3);
#undef XPOSE_LD
    const __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    const __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
#define XPOSE_ST(r, v) _mm256_storeu_pd(reinterpret_cast<double*>(out + (r)*op), v)
    XPOSE_ST(0, _mm256_permute2f128_pd(t0, t2, 0x20));
    XPOSE_ST(1, _mm256_permute2f128_pd(t1, t3, 0x20));
    XPOSE_ST(2, _mm256_permute2f128_pd(t0, t2, 0x31));
    XPOSE_ST(3, _mm256_permute2f128_pd(t1, t3, 0x31));
#undef XPOSE_ST
  }
};

/// 2x2 of 128-bit: one lane swap per output row.
template <>
struct MicroAvx2<16> {
  static constexpr int M = 2;
  using Smaller = void;
  static inline XPOSE_TARGET_AVX2 void run(const Byte* in, std::ptrdiff_t ip, Byte* out,
                                           std::ptrdiff_t op) {
    const __m256i r0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in));
    const __m256i r1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + ip));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_permute2x128_si256(r0, r1, 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + op),
                        _mm256_permute2x128_si256(r0, r1, 0x31));
  }
};

#endif  // XPOSE_CPU_X86

// ---- streaming row copies ---------------------------------------------------------------
// Copy one tile row from an L1 buffer to its place in the output. The whole cache lines go out
// with non-temporal stores, which skip the read-for-ownership a normal store pays (a third
// memory stream); the partial lines at either end use normal stores, because the neighbouring
// tile writes their other part later and a partial non-temporal line is costly.

XPOSE_ALWAYS_INLINE void stream_row_portable(Byte* dst, const Byte* src, std::size_t n) {
  std::memcpy(dst, src, n);
}

#if XPOSE_CPU_X86
// The whole 64-byte lines [first, last) inside dst[0, n); first == last == dst + n if none.
XPOSE_ALWAYS_INLINE void whole_lines(Byte* dst, std::size_t n, Byte*& first, Byte*& last) {
  const auto a = reinterpret_cast<std::uintptr_t>(dst);
  const std::uintptr_t f = (a + 63) & ~std::uintptr_t{63};
  const std::uintptr_t l = (a + n) & ~std::uintptr_t{63};
  first = l > f ? dst + (f - a) : dst + n;
  last = l > f ? dst + (l - a) : dst + n;
}

XPOSE_ALWAYS_INLINE void stream_row_sse2(Byte* dst, const Byte* src, std::size_t n) {
  Byte *first, *last;
  whole_lines(dst, n, first, last);
  std::memcpy(dst, src, static_cast<std::size_t>(first - dst));
  for (Byte* p = first; p < last; p += 64) {
    const Byte* q = src + (p - dst);
    for (int k = 0; k < 64; k += 16)
      _mm_stream_si128(reinterpret_cast<__m128i*>(p + k),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + k)));
  }
  std::memcpy(last, src + (last - dst), n - static_cast<std::size_t>(last - dst));
}

inline XPOSE_TARGET_AVX2 void stream_row_avx2(Byte* dst, const Byte* src, std::size_t n) {
  Byte *first, *last;
  whole_lines(dst, n, first, last);
  std::memcpy(dst, src, static_cast<std::size_t>(first - dst));
  for (Byte* p = first; p < last; p += 64) {
    const Byte* q = src + (p - dst);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q)));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p + 32),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 32)));
  }
  std::memcpy(last, src + (last - dst), n - static_cast<std::size_t>(last - dst));
}
#endif

/// Orders earlier non-temporal stores before what follows (they are weakly ordered), so the
/// pool's completion handshake publishes them.
XPOSE_ALWAYS_INLINE void stream_fence() {
#if XPOSE_CPU_X86
  _mm_sfence();
#endif
}

// ---- instruction-set policies -----------------------------------------------------------

struct PortableIsa {
  template <std::size_t S>
  using Micro = MicroPortable<S>;
  static constexpr bool kCanStream = false;
  static XPOSE_ALWAYS_INLINE void stream_row(Byte* dst, const Byte* src, std::size_t n) {
    stream_row_portable(dst, src, n);
  }
};

#if XPOSE_CPU_X86
struct Sse2Isa {
  template <std::size_t S>
  using Micro = MicroSse2<S>;
  static constexpr bool kCanStream = true;
  static XPOSE_ALWAYS_INLINE void stream_row(Byte* dst, const Byte* src, std::size_t n) {
    stream_row_sse2(dst, src, n);
  }
};

struct Avx2Isa {
  template <std::size_t S>
  using Micro = MicroAvx2<S>;
  static constexpr bool kCanStream = true;
  static inline XPOSE_TARGET_AVX2 void stream_row(Byte* dst, const Byte* src, std::size_t n) {
    stream_row_avx2(dst, src, n);
  }
};
#endif

}  // namespace xpose::kernels::cpu
