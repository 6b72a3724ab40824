/// @file
/// Candidate of run 16 (kernels/NOTES.md): the in-place square transpose for rows off sectors
/// as skewed out-of-place tiles, in bands, through a small ring buffer that stays in L2. The
/// schedule and the ring's addressing are band_plan.h's. Every matrix element is read once and
/// written once from DRAM, as in the tile-pair kernels, but a block's reads and writes no longer
/// have to be the same elements: the row band's pieces are written on whole sectors like the
/// out-of-place skewed kernel's, and the column band's rows in runs of h elements with partial
/// sectors only at the band's edges (tile-pair kernels: at every tile edge).
/// Blocks take tickets (an atomic counter) and wait for the tasks they depend on through
/// per-chunk counters: the ticket order makes the waits deadlock-free. Scratch reads bypass L1
/// (ld.global.cg), because other SMs wrote them during the launch.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/band_plan.h"
#include "kernels/cuda/skew.cuh"

namespace xpose::kernels::cuda_tile {

struct BandParams {
  char* a;             ///< the matrix
  std::int64_t n;
  std::int64_t pitch;  ///< bytes between rows
  int h;               ///< band height
  int ring;            ///< chunks the ring holds
  int q_count;         ///< chunks
  const band::Task* tasks;
  const band::Chunk* chunks;
  int* counters;       ///< [0]: ticket; [1 + q]: S(q) done; [1 + q_count + q]: T(q) done
  char* scratch;       ///< h rows of `sp` bytes
  std::int64_t sp;
};

#if defined(__CUDACC__)
__device__ __forceinline__ void band_wait(const int* c, int want) {
  while (*reinterpret_cast<const volatile int*>(c) < want) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    __nanosleep(64);
#endif
  }
  __threadfence();
}

/// Tile pair (b, c) of a band's diagonal block, through a padded shared tile; one element a
/// lane (these blocks are about h/n of the matrix).
template <class C>
__device__ __forceinline__ void band_diag(const BandParams& p, const band::Task& t,
                                          typename C::Elem* smem) {
  using Elem = typename C::Elem;
  constexpr int T = C::TH;
  constexpr int E = T * T / C::NT;
  const std::int64_t r0 = std::int64_t(t.a) * p.h;
  const std::int64_t r1 = std::min<std::int64_t>(p.n, r0 + p.h);
  const std::int64_t ra = r0 + std::int64_t(t.b) * T, ca = r0 + std::int64_t(t.c) * T;
  auto at = [&](std::int64_t r, std::int64_t c) {
    return reinterpret_cast<Elem*>(p.a + r * p.pitch) + c;
  };
  Elem va[E], vb[E];
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const int idx = threadIdx.x + e * C::NT, rr = idx / T, cc = idx % T;
    va[e] = ra + rr < r1 && ca + cc < r1 ? *at(ra + rr, ca + cc) : Elem{};
    vb[e] = t.b != t.c && ca + rr < r1 && ra + cc < r1 ? *at(ca + rr, ra + cc) : Elem{};
  }
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const int idx = threadIdx.x + e * C::NT;
    smem[(idx / T) * (T + 1) + idx % T] = va[e];
  }
  __syncthreads();
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const int idx = threadIdx.x + e * C::NT, rr = idx / T, cc = idx % T;
    if (ca + rr < r1 && ra + cc < r1) *at(ca + rr, ra + cc) = smem[cc * (T + 1) + rr];
  }
  if (t.b == t.c) return;
  __syncthreads();
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const int idx = threadIdx.x + e * C::NT;
    smem[(idx / T) * (T + 1) + idx % T] = vb[e];
  }
  __syncthreads();
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const int idx = threadIdx.x + e * C::NT, rr = idx / T, cc = idx % T;
    if (ra + rr < r1 && ca + cc < r1) *at(ra + rr, ca + cc) = smem[cc * (T + 1) + rr];
  }
}

template <class C>
__global__ void __launch_bounds__(C::NT) band_diag_kernel(BandParams p) {
  extern __shared__ uint4 band_smem_raw[];
  band_diag<C>(p, p.tasks[blockIdx.x], reinterpret_cast<typename C::Elem*>(band_smem_raw));
}

template <class C, bool DISCARD>
__global__ void __launch_bounds__(C::NT, C::MINB) band_kernel(BandParams p) {
  static_assert(C::TH == C::TW && C::SKEWED, "square skewed tiles");
  using Elem = typename C::Elem;
  using Word = typename C::Word;
  using Pack = typename C::Pack;
  constexpr int T = C::TH;
  extern __shared__ uint4 band_smem_raw[];
  auto* smem = reinterpret_cast<Elem*>(band_smem_raw);
  __shared__ band::Task task;
  if (threadIdx.x == 0) task = p.tasks[atomicAdd(p.counters, 1)];
  __syncthreads();
  const int q = task.a;
  const band::Chunk ch = p.chunks[q];
  const std::int64_t r0 = std::int64_t(ch.band) * p.h;
  const std::int64_t r1 = std::min<std::int64_t>(p.n, r0 + p.h);
  const int kb = band::band_blocks(p.n, p.h, ch.band, T);
  const std::int64_t y0 = r0 + std::int64_t(task.b) * T;
  const std::int64_t x0 = ch.x0;
  const int slot = q % p.ring;
  auto mis_of = [&](std::int64_t row) {
    return static_cast<int>((reinterpret_cast<std::uintptr_t>(p.a + row * p.pitch) % C::A_OUT) /
                            C::S);
  };
  if (task.type == band::kSave) {
    if (threadIdx.x == 0) {
      // The T blocks that read this slot's columns last time: T(q - RING), and T(q - RING - 1)
      // (the slot's first mis elements of a row). With DISCARD, chunk q - RING's discard step,
      // which waited for both; without T blocks there, T(q - RING - 1).
      const int qa = q - p.ring, qb = q - p.ring - 1;
      if (qa >= 0 && p.chunks[qa].has_t) {
        const int kq = band::band_blocks(p.n, p.h, p.chunks[qa].band, T);
        band_wait(p.counters + 1 + p.q_count + qa, band::save_wait_count(DISCARD, kq));
        if (!DISCARD && qb >= 0 && p.chunks[qb].has_t)
          band_wait(p.counters + 1 + p.q_count + qb, band::band_blocks(p.n, p.h, p.chunks[qb].band, T));
      } else if (qb >= 0 && p.chunks[qb].has_t) {
        band_wait(p.counters + 1 + p.q_count + qb, band::band_blocks(p.n, p.h, p.chunks[qb].band, T));
      }
    }
    __syncthreads();
    // The old pieces of rows y0.. (the block's output), into registers.
    Pack sv[C::STORE_ITERS];
#pragma unroll
    for (int it = 0; it < C::STORE_ITERS; ++it) {
      const int s = threadIdx.x + it * C::NT;
      const int cl = s / C::WORDS_OUT, hw = s % C::WORDS_OUT;
      const std::int64_t y = y0 + cl;
      if (cl >= C::TW || y >= r1) continue;
      const char* row = p.a + y * p.pitch;
      const std::int64_t pb = x0 - mis_of(y);
      const std::int64_t pw = pb + hw * C::V;
      const std::int64_t lo = std::max(pb, r1), hi = std::min(pb + T, p.n);
      if (pw >= hi || pw + C::V <= lo) continue;
      if (pw >= lo && pw + C::V <= hi) {
        sv[it].w = load_word<C::HINT>(reinterpret_cast<const Word*>(row + pw * C::S));
      } else {
#pragma unroll
        for (int e = 0; e < C::V; ++e)
          sv[it].e[e] = pw + e >= lo && pw + e < hi ? reinterpret_cast<const Elem*>(row)[pw + e]
                                                    : Elem{};
      }
    }
    // The block's input: rows x0 - M .. of the column band, columns y0 .. y0 + T.
    Pack v[C::LOAD_ITERS];
    int j0[C::LOAD_ITERS];
    issue_rows<C, false>(p.a, p.pitch, p.n, r1, x0 - C::M, T + C::M, y0, v, j0);
    // Save the old pieces: piece word hw of row y goes to ring column slot T + hw V.
#pragma unroll
    for (int it = 0; it < C::STORE_ITERS; ++it) {
      const int s = threadIdx.x + it * C::NT;
      const int cl = s / C::WORDS_OUT, hw = s % C::WORDS_OUT;
      const std::int64_t y = y0 + cl;
      if (cl >= C::TW || y >= r1) continue;
      const std::int64_t pb = x0 - mis_of(y);
      const std::int64_t pw = pb + hw * C::V;
      const std::int64_t lo = std::max(pb, r1), hi = std::min(pb + T, p.n);
      if (pw >= hi || pw + C::V <= lo) continue;
      char* dst = p.scratch + (y - r0) * p.sp +
                  (static_cast<std::int64_t>(slot) * T + hw * C::V) * C::S;
      if (pw >= lo && pw + C::V <= hi) {
        *reinterpret_cast<Word*>(dst) = sv[it].w;
      } else {
#pragma unroll
        for (int e = 0; e < C::V; ++e)
          if (pw + e >= lo && pw + e < hi) reinterpret_cast<Elem*>(dst)[e] = sv[it].e[e];
      }
    }
    scatter_rows<C>(r1, y0, v, j0, smem);
    __syncthreads();
    store_rows<C>(p.a, p.pitch, r1, p.n, y0, x0, C::M, smem, r1);
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      atomicAdd(p.counters + 1 + q, 1);
    }
    return;
  }
  // kTake: rows x0 .. x0 + T of the column band, from the saved pieces.
  if (threadIdx.x == 0) {
    band_wait(p.counters + 1 + q, kb);
    if (ch.next) band_wait(p.counters + 2 + q, kb);
  }
  __syncthreads();
  Pack v[C::LOAD_ITERS];
  int j0[C::LOAD_ITERS];
  const std::int64_t own = std::min<std::int64_t>(T, p.n - x0);
  const std::int64_t wrap = static_cast<std::int64_t>(p.ring) * T;
#pragma unroll
  for (int it = 0; it < C::LOAD_ITERS; ++it) {
    const int s = threadIdx.x + it * C::NT;
    const int il = s / C::WORDS_IN, kw = s % C::WORDS_IN;
    const std::int64_t y = y0 - C::M + il;
    j0[it] = C::TW;
    if (il >= T + C::M || y < r0 || y >= r1) continue;
    const std::int64_t ub = static_cast<std::int64_t>(slot) * T + mis_of(y);  // x0's column
    std::int64_t uw = (ub & ~std::int64_t(C::V - 1)) + std::int64_t(kw) * C::V;
    const std::int64_t j = uw - ub;
    if (j >= own) continue;
    j0[it] = static_cast<int>(j);
    if (uw >= wrap) uw -= static_cast<std::int64_t>(p.ring) * T;
    v[it].w = __ldcg(reinterpret_cast<const Word*>(p.scratch + (y - r0) * p.sp + uw * C::S));
  }
  scatter_rows<C>(p.n, x0, v, j0, smem);
  __syncthreads();
  store_rows<C>(p.a, p.pitch, p.n, r1, x0, y0, C::M, smem, r0);
  __syncthreads();
  int* const done = p.counters + 1 + p.q_count + q;
  __shared__ int last;
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(done, 1) == kb - 1;
  }
  if (!DISCARD) return;
  __syncthreads();
  if (!last) return;
  // The chunk's last T block: once T(q - 1) has read too, slot q's lines are dead.
  if (threadIdx.x == 0 && q > 0 && p.chunks[q - 1].next)
    band_wait(p.counters + p.q_count + q, kb);
  __syncthreads();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  static_assert(T * C::S % 256 == 0, "a slot is whole 128-byte lines");
  constexpr int LINES = T * C::S / 128;
  for (int i = threadIdx.x; i < (r1 - r0) * LINES; i += C::NT) {
    const char* line = p.scratch + (i / LINES) * p.sp +
                       (static_cast<std::int64_t>(slot) * T * C::S + (i % LINES) * 128);
    asm volatile("discard.global.L2 [%0], 128;" ::"l"(line) : "memory");
  }
#endif
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(done, 1);
  }
}

/// Launches band_kernel<C, DISCARD> for each matrix of the batch on `stream`, with bands of h rows, T(q)
/// `lag` chunks after S(q), a ring of `ring` chunks; DISCARD: the ring's dead lines are dropped
/// from L2 (sm_80 onwards; elsewhere they are left to be written back). The schedule, counters and ring live in a
/// cache kept for the last shape (a benchmark candidate: not thread-safe; it frees and allocates
/// when the shape changes, which synchronises the device). False where it does not apply.
template <class C, bool DISCARD>
bool launch_band(void* buf, std::int64_t n, std::int64_t batch, cudaStream_t stream, int h,
                 int lag, int ring) {
  if (n > (std::int64_t(1) << 30) || reinterpret_cast<std::uintptr_t>(buf) % C::S != 0 ||
      !band::band_height_ok(h, C::TH, C::M) || lag < 1 || ring < lag + 2)
    return false;
  struct Cache {
    std::int64_t n = -1;
    int h = 0, lag = 0, ring = 0;
    band::Task* tasks = nullptr;
    band::Task* diag = nullptr;
    band::Chunk* chunks = nullptr;
    int* counters = nullptr;
    char* scratch = nullptr;
    std::int64_t sp = 0;
    int task_count = 0, diag_count = 0, q_count = 0;
  };
  static Cache c;
  if (c.n != n || c.h != h || c.lag != lag || c.ring != ring) {
    XPOSE_CHECK_CUDA(cudaDeviceSynchronize());
    cudaFree(c.tasks);
    cudaFree(c.diag);
    cudaFree(c.chunks);
    cudaFree(c.counters);
    cudaFree(c.scratch);
    c = Cache{};
    const band::Plan plan = band::make_plan(n, h, C::TH, C::M, lag);
    c.task_count = static_cast<int>(plan.tasks.size());
    c.diag_count = static_cast<int>(plan.diag.size());
    XPOSE_CHECK_CUDA(cudaMalloc(&c.diag, plan.diag.size() * sizeof(band::Task)));
    XPOSE_CHECK_CUDA(cudaMemcpy(c.diag, plan.diag.data(), plan.diag.size() * sizeof(band::Task),
                                cudaMemcpyHostToDevice));
    c.q_count = static_cast<int>(plan.chunks.size());
    c.sp = (static_cast<std::int64_t>(ring) * C::TH + 32) * C::S;  // 128-byte multiple (f32)
    XPOSE_CHECK_CUDA(
        cudaMalloc(&c.tasks, std::max<std::size_t>(1, plan.tasks.size()) * sizeof(band::Task)));
    XPOSE_CHECK_CUDA(cudaMalloc(&c.chunks, std::max<std::size_t>(1, plan.chunks.size()) *
                                                 sizeof(band::Chunk)));
    XPOSE_CHECK_CUDA(cudaMalloc(&c.counters, (1 + 2 * std::size_t(c.q_count)) * sizeof(int)));
    XPOSE_CHECK_CUDA(cudaMalloc(&c.scratch, static_cast<std::size_t>(h) * c.sp));
    XPOSE_CHECK_CUDA(cudaMemset(c.scratch, 0, static_cast<std::size_t>(h) * c.sp));
    XPOSE_CHECK_CUDA(cudaMemcpy(c.tasks, plan.tasks.data(), plan.tasks.size() * sizeof(band::Task),
                                cudaMemcpyHostToDevice));
    if (!plan.chunks.empty())
      XPOSE_CHECK_CUDA(cudaMemcpy(c.chunks, plan.chunks.data(),
                                  plan.chunks.size() * sizeof(band::Chunk), cudaMemcpyHostToDevice));
    c.n = n;
    c.h = h;
    c.lag = lag;
    c.ring = ring;
  }
  const std::size_t smem =
      std::max<std::size_t>(C::SMEM_BYTES, std::size_t(C::TH) * (C::TH + 1) * C::S);
  cuda_detail::allow_dynamic_smem(band_kernel<C, DISCARD>, smem);
  cuda_detail::allow_dynamic_smem(band_diag_kernel<C>, smem);
  for (std::int64_t b = 0; b < batch; ++b) {
    BandParams p;
    p.a = static_cast<char*>(buf) + b * n * n * C::S;
    p.n = n;
    p.pitch = n * C::S;
    p.h = h;
    p.ring = ring;
    p.q_count = c.q_count;
    p.tasks = c.tasks;
    p.chunks = c.chunks;
    p.counters = c.counters;
    p.scratch = c.scratch;
    p.sp = c.sp;
    XPOSE_CHECK_CUDA(
        cudaMemsetAsync(c.counters, 0, (1 + 2 * std::size_t(c.q_count)) * sizeof(int), stream));
    p.tasks = c.diag;
    band_diag_kernel<C><<<c.diag_count, C::NT, smem, stream>>>(p);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess && c.task_count > 0) {
      p.tasks = c.tasks;
      band_kernel<C, DISCARD><<<c.task_count, C::NT, smem, stream>>>(p);
      err = cudaGetLastError();
    }
    if (err != cudaSuccess)
      cuda_detail::throw_cuda_error(err, "launch of band_kernel", __FILE__, __LINE__);
  }
  return true;
}
#endif  // __CUDACC__

}  // namespace xpose::kernels::cuda_tile
