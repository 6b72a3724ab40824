// The CUDA entry points (transpose.h): the current device's profile, the choice
// (kernels/choice.cpp, a pure host function), and the launch of the kernel it names. The kernels
// are those of kernels.def; each family's kernel and launcher is in its own .cuh.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "kernels/choice.h"
#include "kernels/cuda/by_name.h"
#include "kernels/cuda/check.h"
#include "kernels/cuda/inplace.cuh"
#include "kernels/cuda/lines.cuh"
#include "kernels/cuda/narrow.cuh"
#include "kernels/cuda/narrow_skew.cuh"
#include "kernels/cuda/records.cuh"
#include "kernels/cuda/rotated.cuh"
#include "kernels/cuda/skew.cuh"
#include "kernels/cuda/thin.cuh"
#include "kernels/cuda/tiled.cuh"
#include "kernels/cuda/tma.cuh"
#include "kernels/kernel_list.h"
#include "kernels/transpose.h"
#include "xpose/error.h"

namespace xpose::kernels {

namespace {

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using cuda_tile::LinesConfig;
using cuda_tile::NarrowEdge;
using cuda_tile::NarrowSkewConfig;
using cuda_tile::PairOrder;
using cuda_tile::SkewConfig;
using cuda_tile::TileConfig;
using detail::kKernels;
static_assert(TileOrder::kColumnMajor == cuda_tile::kColumnMajor, "one column-major group");

// ---- the current device's profile ------------------------------------------------------------

bool tma_runs_here() {
#if XPOSE_HAVE_TMA
  // An sm_90 image of the TMA kernels, a compute capability 9 device and the driver's encoder.
  return cuda_tile::tma_runs_here<cuda_tile::TmaConfig<4, 2, 4, 256>, false>();
#else
  return false;
#endif
}

DeviceProfile query_profile(int device) {
  int sms = 0, sm_khz = 0, mem_khz = 0, bus_bits = 0, smem = 0, major = 0;
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, device));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  cudaDeviceProp prop{};
  XPOSE_CHECK_CUDA(cudaGetDeviceProperties(&prop, device));  // for the name in messages
  return DeviceProfile::from_properties(cat(prop.name, " (device ", device, ")"), sms, sm_khz,
                                        mem_khz, bus_bits, smem, major,
                                        major >= 9 && tma_runs_here());
}

}  // namespace

// Asked once per device: the clock attributes are slow to query (on every transpose they cost a
// c128 16384^2 transpose a fifth of its speed on an H100).
DeviceProfile current_device_profile() {
  constexpr int kDevices = 64;
  static std::once_flag once[kDevices];
  static DeviceProfile known[kDevices];
  int device = 0;
  XPOSE_CHECK_CUDA(cudaGetDevice(&device));
  if (device < 0 || device >= kDevices) return query_profile(device);
  std::call_once(once[device], [device] { known[device] = query_profile(device); });
  return known[device];
}

namespace {

// ---- one launcher per kernel of kernels.def ---------------------------------------------------

using OutOfPlace = void (*)(const TileOrder&, const void*, void*, const TransposeShape&,
                            cudaStream_t);
using InPlace = void (*)(int group, void*, std::int64_t, std::int64_t, cudaStream_t);
struct Launcher {
  OutOfPlace out_of_place;
  InPlace in_place;
};

int group_of(const TileOrder& o) {
  return static_cast<int>(o.group);
}

template <int S, bool LINES>
void run_records(const TileOrder&, const void* in, void* out, const TransposeShape& s,
                 cudaStream_t st) {
  cuda_tile::launch_records<S, LINES>(in, out, s, st);
}
template <int S, int SHIFTED>
void run_thin(const TileOrder&, const void* in, void* out, const TransposeShape& s,
              cudaStream_t st) {
  const auto f = detail::thin_form(S, SHIFTED, reinterpret_cast<std::uintptr_t>(in),
                                   reinterpret_cast<std::uintptr_t>(out), s);
  cuda_tile::launch_thin<S, SHIFTED>(in, out, s, f, st);
}
template <class C>
void run_tiled(const TileOrder& o, const void* in, void* out, const TransposeShape& s,
               cudaStream_t st) {
  cuda_tile::launch_tiled<C>(in, out, s, st, group_of(o));
}
template <class C>
void run_skew(const TileOrder& o, const void* in, void* out, const TransposeShape& s,
              cudaStream_t st) {
  if (o.spread > 1)  // a kernel of its own: the others keep their code as measured
    cuda_tile::launch_skew<C, true>(in, out, s, st, group_of(o), o.stagger, o.turn, o.spread);
  else
    cuda_tile::launch_skew<C>(in, out, s, st, group_of(o), o.stagger, o.turn);
}
template <class C>
void run_lines(const TileOrder& o, const void* in, void* out, const TransposeShape& s,
               cudaStream_t st) {
  cuda_tile::launch_lines<C>(in, out, s, st, group_of(o));
}
template <class T, int TS, int NT, int MINB, bool ROT, NarrowEdge EDGE>
void run_narrow(const TileOrder& o, const void* in, void* out, const TransposeShape& s,
                cudaStream_t st) {
  if (o.spread > 1)
    cuda_tile::launch_narrow<T, TS, NT, MINB, ROT, EDGE, true>(in, out, s, st, group_of(o),
                                                               o.spread);
  else
    cuda_tile::launch_narrow<T, TS, NT, MINB, ROT, EDGE>(in, out, s, st, group_of(o));
}
template <class C>
void run_narrow_skew(const TileOrder& o, const void* in, void* out, const TransposeShape& s,
                     cudaStream_t st) {
  if (o.spread > 1)
    cuda_tile::launch_narrow_skew<C, true>(in, out, s, st, group_of(o), o.spread);
  else
    cuda_tile::launch_narrow_skew<C>(in, out, s, st, group_of(o));
}
template <class T, int TS, int NT, int MINB, int HINT>
void run_rotated(const TileOrder& o, const void* in, void* out, const TransposeShape& s,
                 cudaStream_t st) {
  cuda_tile::launch_rotated<T, TS, NT, MINB, HINT>(in, out, s, st, group_of(o));
}
#if XPOSE_HAVE_TMA
template <class C>
void run_tma_load(const TileOrder&, const void* in, void* out, const TransposeShape& s,
                  cudaStream_t st) {
  if (!cuda_tile::launch_tma<C, false>(in, out, s, st))
    throw RuntimeFailure("transpose_cuda: the driver did not encode a TMA tensor map");
}
#endif
template <class C, PairOrder O, int P>
void run_pairs(int group, void* buf, std::int64_t n, std::int64_t batch, cudaStream_t st) {
  cuda_tile::launch_inplace<C, O, P>(buf, n, batch, st, group);
}
template <class C, int P, int ALIGN, int SHINT>
void run_strip(int group, void* buf, std::int64_t n, std::int64_t batch, cudaStream_t st) {
  cuda_tile::launch_inplace_strip<C, P, ALIGN, SHINT>(buf, n, batch, st, group);
}
template <class T, int TS, int NT, int MINB, int HINT>
void run_rotated_pairs(int group, void* buf, std::int64_t n, std::int64_t batch,
                       cudaStream_t st) {
  cuda_tile::launch_inplace_rotated<T, TS, NT, MINB, HINT, true, PairOrder::Grouped, true>(
      buf, n, batch, st, group);
}
template <class T, int TS, int NT, int MINB, bool SEQ, NarrowEdge EDGE>
void run_narrow_pairs(int group, void* buf, std::int64_t n, std::int64_t batch,
                      cudaStream_t st) {
  cuda_tile::launch_inplace_narrow<T, TS, NT, MINB, SEQ, EDGE>(buf, n, batch, st, group);
}

// The host side's geometry (kernel_list.h) against the CUDA configurations: one declaration.
constexpr int K(int e, bool in_place, const char* name) {
  return detail::kernel_index(e, in_place, name);
}
template <class C>
constexpr bool same_tiles(int k) {
  return kKernels[k].tile_rows == C::TH && kKernels[k].tile_cols == C::TW &&
         kKernels[k].smem == static_cast<std::int64_t>(C::SMEM_BYTES);
}
template <class C>
constexpr bool same_skew(int k) {
  return same_tiles<C>(k) && kKernels[k].extra_rows == C::M && kKernels[k].a_out == C::A_OUT;
}
template <class C>
constexpr bool same_lines(int k) {
  return kKernels[k].tile_rows == C::TR && kKernels[k].tile_cols == C::TC &&
         kKernels[k].smem == static_cast<std::int64_t>(C::SMEM_BYTES);
}
template <class C>
constexpr bool same_narrow_skew(int k) {
  return same_tiles<C>(k) && kKernels[k].extra_rows == C::M - 1;
}

#define XPOSE_RECORDS(E, NAME, LINES) {run_records<E, LINES>, nullptr},
#define XPOSE_THIN(E, NAME, SHIFTED) {run_thin<E, SHIFTED>, nullptr},
#define XPOSE_TILED(E, NAME, W, BR, BC, NT, MINB, HINT) \
  {run_tiled<TileConfig<E, W, BR, BC, NT, MINB, HINT>>, nullptr},
#define XPOSE_SKEW(E, NAME, W, TH, TW, NT, A_OUT, MINB, HINT) \
  {run_skew<SkewConfig<E, W, TH, TW, NT, A_OUT, MINB, HINT>>, nullptr},
#define XPOSE_LINES(E, NAME, TR, TC, NT, MINB, HINT, PH) \
  {run_lines<LinesConfig<E, TR, TC, NT, MINB, HINT, PH>>, nullptr},
#define XPOSE_NARROW(E, NAME, T, TS, NT, MINB, ROT, EDGE) \
  {run_narrow<T, TS, NT, MINB, ROT, NarrowEdge(EDGE)>, nullptr},
#define XPOSE_NARROW_SKEW(E, NAME, T, TH, TW, NT, MINB, BATCH) \
  {run_narrow_skew<NarrowSkewConfig<T, TH, TW, NT, MINB, BATCH>>, nullptr},
#define XPOSE_ROTATED(E, NAME, T, TS, NT, MINB, HINT) \
  {run_rotated<T, TS, NT, MINB, HINT>, nullptr},
#if XPOSE_HAVE_TMA
#define XPOSE_TMA_LOAD(E, NAME, KC, KR, NT) \
  {run_tma_load<cuda_tile::TmaConfig<E, KC, KR, NT>>, nullptr},
#else
#define XPOSE_TMA_LOAD(E, NAME, KC, KR, NT) {nullptr, nullptr},  // never chosen: profile.tma
#endif
#define XPOSE_PAIRS(E, NAME, W, BR, BC, NT, MINB, HINT, ORDER, GROUP, PAIRS) \
  {nullptr, run_pairs<TileConfig<E, W, BR, BC, NT, MINB, HINT>, PairOrder(ORDER), PAIRS>},
#define XPOSE_STRIP(E, NAME, W, BR, BC, NT, MINB, HINT, GROUP, PAIRS, ALIGN, SHINT) \
  {nullptr, run_strip<TileConfig<E, W, BR, BC, NT, MINB, HINT>, PAIRS, ALIGN, SHINT>},
#define XPOSE_ROTATED_PAIRS(E, NAME, T, TS, NT, MINB, HINT, GROUP) \
  {nullptr, run_rotated_pairs<T, TS, NT, MINB, HINT>},
#define XPOSE_NARROW_PAIRS(E, NAME, T, TS, NT, MINB, GROUP, SEQ, EDGE) \
  {nullptr, run_narrow_pairs<T, TS, NT, MINB, SEQ, NarrowEdge(EDGE)>},
const Launcher kLaunchers[] = {
#include "kernels/cuda/kernels.def"
};
static_assert(sizeof kLaunchers / sizeof kLaunchers[0] == detail::kKernelCount,
              "a launcher for every kernel of kernels.def");

#define XPOSE_TILED(E, NAME, W, BR, BC, NT, MINB, HINT)                                \
  static_assert(same_tiles<TileConfig<E, W, BR, BC, NT, MINB, HINT>>(K(E, false, NAME)) && \
                    kKernels[K(E, false, NAME)].word == W,                             \
                NAME);
#define XPOSE_SKEW(E, NAME, W, TH, TW, NT, A_OUT, MINB, HINT) \
  static_assert(same_skew<SkewConfig<E, W, TH, TW, NT, A_OUT, MINB, HINT>>(K(E, false, NAME)), NAME);
#define XPOSE_LINES(E, NAME, TR, TC, NT, MINB, HINT, PH) \
  static_assert(same_lines<LinesConfig<E, TR, TC, NT, MINB, HINT, PH>>(K(E, false, NAME)), NAME);
#define XPOSE_NARROW(E, NAME, T, TS, NT, MINB, ROT, EDGE)                                    \
  static_assert(kKernels[K(E, false, NAME)].smem ==                                          \
                    static_cast<std::int64_t>(cuda_tile::narrow_tile_bytes<T, TS>()),        \
                NAME);
#define XPOSE_NARROW_SKEW(E, NAME, T, TH, TW, NT, MINB, BATCH) \
  static_assert(same_narrow_skew<NarrowSkewConfig<T, TH, TW, NT, MINB, BATCH>>(K(E, false, NAME)), NAME);
#define XPOSE_ROTATED(E, NAME, T, TS, NT, MINB, HINT)                                       \
  static_assert(kKernels[K(E, false, NAME)].smem ==                                         \
                    static_cast<std::int64_t>(cuda_tile::rotated_oop_smem_bytes<T, TS>()),  \
                NAME);
#if XPOSE_HAVE_TMA
#define XPOSE_TMA_LOAD(E, NAME, KC, KR, NT) \
  static_assert(same_tiles<cuda_tile::TmaConfig<E, KC, KR, NT>>(K(E, false, NAME)), NAME);
#endif
#define XPOSE_PAIRS(E, NAME, W, BR, BC, NT, MINB, HINT, ORDER, GROUP, PAIRS)                   \
  static_assert(kKernels[K(E, true, NAME)].smem ==                                             \
                        2 * PAIRS * static_cast<std::int64_t>(                                 \
                                        TileConfig<E, W, BR, BC, NT, MINB, HINT>::SMEM_BYTES) && \
                    kKernels[K(E, true, NAME)].tile_rows == TileConfig<E, W, BR, BC, NT>::TH,  \
                NAME);
#define XPOSE_STRIP(E, NAME, W, BR, BC, NT, MINB, HINT, GROUP, PAIRS, ALIGN, SHINT) \
  XPOSE_PAIRS(E, NAME, W, BR, BC, NT, MINB, HINT, 2, GROUP, PAIRS)
#define XPOSE_ROTATED_PAIRS(E, NAME, T, TS, NT, MINB, HINT, GROUP)                        \
  static_assert(kKernels[K(E, true, NAME)].smem ==                                        \
                    static_cast<std::int64_t>(cuda_tile::rotated_smem_bytes<T, TS>()) &&  \
                    sizeof(T) == E,                                                       \
                NAME);
#define XPOSE_NARROW_PAIRS(E, NAME, T, TS, NT, MINB, GROUP, SEQ, EDGE)                          \
  static_assert(kKernels[K(E, true, NAME)].smem ==                                              \
                    2 * static_cast<std::int64_t>(cuda_tile::narrow_tile_bytes<T, TS>()),       \
                NAME);
#include "kernels/cuda/kernels.def"

// ---- XPOSE_KERNEL_LOG=1: the choice, once per distinct layout ---------------------------------

bool log_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("XPOSE_KERNEL_LOG");
    return v != nullptr && *v != 0 && std::string(v) != "0";
  }();
  return on;
}

void log_choice(const KernelChoice& c, std::size_t elem, const TransposeShape& s,
                const DeviceProfile& d, const void* in, const void* out, bool in_place) {
  static std::mutex mu;
  static std::set<std::string> seen;
  // A layout: its kind, shape, pitches and strides, the buffers' offsets from 256 bytes.
  const std::string key =
      cat(in_place ? "ip " : "oop ", elem, " ", s.rows, " ", s.cols, " ", s.batch, " ",
          s.in_pitch, " ", s.out_pitch, " ", s.in_batch_stride, " ", s.out_batch_stride, " ",
          reinterpret_cast<std::uintptr_t>(in) % 256, " ",
          reinterpret_cast<std::uintptr_t>(out) % 256, " ", d.name);
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!seen.insert(key).second) return;
  }
  std::fprintf(stderr, "xpose: kernel: %s\n", describe(c, elem, s, d).c_str());
}

void launch(const KernelChoice& c, const void* in, void* out, const TransposeShape& s,
            cudaStream_t st) {
  kLaunchers[c.kernel].out_of_place(c.order, in, out, s, st);
}

// The checks that need no device, so that bad arguments are refused on any machine.
void check_arguments(const void* in, const void* out, std::size_t elem) {
  if (in == nullptr || out == nullptr)
    throw DimensionMismatch("transpose_cuda: null buffer for a non-empty transpose");
  if (elem != 1 && elem != 2 && elem != 4 && elem != 8 && elem != 16)
    throw UnsupportedInputError(
        cat("transpose_cuda: element size ", elem, " bytes (supported: 1, 2, 4, 8, 16)"));
}
void check_out_of_place(const void* in, const void* out, std::size_t elem) {
  check_arguments(in, out, elem);
  if (reinterpret_cast<std::uintptr_t>(in) % elem != 0 ||
      reinterpret_cast<std::uintptr_t>(out) % elem != 0)
    throw DimensionMismatch(cat("transpose_cuda: buffers must be aligned to the element size (",
                                elem, " bytes); got ", in, " and ", out));
}

}  // namespace

void transpose_cuda(const void* in, void* out, std::size_t elem_size, const TransposeShape& shape,
                    DeviceStream stream) {
  const TransposeShape s = shape.resolved();
  if (s.rows == 0 || s.cols == 0 || s.batch == 0) return;
  check_arguments(in, out, elem_size);
  auto* st = static_cast<cudaStream_t>(stream);
  if (copies_in_order(s)) {  // no kernel, on any device
    const auto bytes = static_cast<std::size_t>(s.rows * s.cols * s.batch) * elem_size;
    XPOSE_CHECK_CUDA(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, st));
    return;
  }
  check_out_of_place(in, out, elem_size);
  const DeviceProfile d = current_device_profile();
  const KernelChoice c = choose_out_of_place(in, out, elem_size, s, d);
  if (log_enabled()) log_choice(c, elem_size, s, d, in, out, false);
  launch(c, in, out, s, st);
}

void transpose_inplace_cuda(void* buf, std::size_t elem_size, std::int64_t n, std::int64_t batch,
                            DeviceStream stream) {
  if (n < 0 || batch < 0)
    throw DimensionMismatch(
        cat("transpose_inplace_cuda: negative extent (n=", n, ", batch=", batch, ")"));
  if (n <= 1 || batch == 0) return;  // a 1 x 1 matrix is its own transpose
  if (buf == nullptr) throw DimensionMismatch("transpose_inplace_cuda: null buffer");
  const bool supported =
      elem_size == 1 || elem_size == 2 || elem_size == 4 || elem_size == 8 || elem_size == 16;
  if (supported && reinterpret_cast<std::uintptr_t>(buf) % elem_size != 0)
    throw DimensionMismatch(cat("transpose_inplace_cuda: buffer ", buf,
                                " is not aligned to the element size (", elem_size, " bytes)"));
  if (!supported)
    throw UnsupportedInputError(cat("transpose_inplace_cuda: element size ", elem_size,
                                    " bytes (supported: 1, 2, 4, 8, 16)"));
  const DeviceProfile d = current_device_profile();
  const KernelChoice c = choose_in_place(buf, elem_size, n, batch, d);
  if (log_enabled())
    log_choice(c, elem_size, TransposeShape::dense(n, n, batch), d, buf, buf, true);
  kLaunchers[c.kernel].in_place(static_cast<int>(c.order.group), buf, n, batch,
                                static_cast<cudaStream_t>(stream));
}

// ---- the library's kernels by name (by_name.h) ------------------------------------------------

namespace by_name {

namespace {
std::vector<std::string> names(std::size_t elem, bool in_place) {
  std::vector<std::string> v{"default"};
  for (const KernelInfo& k : kernel_list())
    if (static_cast<std::size_t>(k.elem) == elem && k.in_place == in_place) v.emplace_back(k.name);
  return v;
}
int find(const std::string& name, std::size_t elem, bool in_place, const char* who) {
  const int k = find_kernel(elem, in_place, name);
  if (k < 0)
    throw UnsupportedInputError(
        cat(who, ": no kernel '", name, "' for element size ", elem, " (bench_kernels --list)"));
  return k;
}
}  // namespace

std::vector<std::string> out_of_place(std::size_t elem) {
  return names(elem, false);
}
std::vector<std::string> in_place(std::size_t elem) {
  return names(elem, true);
}

bool run_out_of_place(const std::string& name, const void* in, void* out, std::size_t elem,
                      const TransposeShape& shape, DeviceStream stream, const TileOrder* order) {
  if (name == "default") {
    transpose_cuda(in, out, elem, shape, stream);
    return true;
  }
  const int k = find(name, elem, false, "transpose_cuda");
  const TransposeShape s = shape.resolved();
  if (s.rows == 0 || s.cols == 0 || s.batch == 0) return true;
  check_out_of_place(in, out, elem);
  if (!detail::takes_out_of_place(kKernels[k], reinterpret_cast<std::uintptr_t>(in),
                                  reinterpret_cast<std::uintptr_t>(out), s,
                                  current_device_profile()))
    return false;
  // The family's own order: tiled row-major, the others down the tile columns.
  TileOrder o;
  o.group = kKernels[k].family == detail::Family::kTiled ? 1 : TileOrder::kColumnMajor;
  if (order != nullptr) o = *order;
  kLaunchers[k].out_of_place(o, in, out, s, static_cast<cudaStream_t>(stream));
  return true;
}

bool run_in_place(const std::string& name, void* buf, std::size_t elem, std::int64_t n,
                  std::int64_t batch, DeviceStream stream) {
  if (name == "default") {
    transpose_inplace_cuda(buf, elem, n, batch, stream);
    return true;
  }
  const int k = find(name, elem, true, "transpose_inplace_cuda");
  if (n < 0 || batch < 0)
    throw DimensionMismatch(
        cat("transpose_inplace_cuda: negative extent (n=", n, ", batch=", batch, ")"));
  if (n <= 1 || batch == 0) return true;
  if (buf == nullptr) throw DimensionMismatch("transpose_inplace_cuda: null buffer");
  if (!detail::takes_in_place(kKernels[k], reinterpret_cast<std::uintptr_t>(buf), n,
                              current_device_profile()))
    return false;
  kLaunchers[k].in_place(kKernels[k].group, buf, n, batch, static_cast<cudaStream_t>(stream));
  return true;
}

}  // namespace by_name

}  // namespace xpose::kernels
