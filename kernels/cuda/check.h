/// @file
/// Checks for CUDA runtime calls: a failing call becomes an xpose::RuntimeFailure that names the
/// call, the file:line and CUDA's own message. Self-contained so that any module can include it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>

#include <cuda_runtime.h>

#include "xpose/error.h"

namespace xpose::cuda_detail {

/// Throws RuntimeFailure for a failed CUDA call; `what` is the call's text.
[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* what, const char* file,
                                          int line) {
  throw RuntimeFailure(cat("CUDA call ", what, " failed at ", file, ":", line, ": ",
                           cudaGetErrorName(err), ": ", cudaGetErrorString(err)));
}

}  // namespace xpose::cuda_detail

/// Checks a CUDA runtime call: `XPOSE_CHECK_CUDA(cudaMalloc(&p, n));`
#define XPOSE_CHECK_CUDA(call)                                                            \
  do {                                                                                    \
    const cudaError_t xpose_cuda_err_ = (call);                                           \
    if (xpose_cuda_err_ != cudaSuccess)                                                   \
      ::xpose::cuda_detail::throw_cuda_error(xpose_cuda_err_, #call, __FILE__, __LINE__); \
  } while (0)

/// Checks that the kernel launch just made on this thread was accepted (bad configuration, too
/// many resources, no kernel image for this device). Errors inside the kernel surface later, at
/// the next synchronising call.
#define XPOSE_CHECK_CUDA_LAUNCH(kernel_name)                                                      \
  do {                                                                                            \
    const cudaError_t xpose_cuda_err_ = cudaGetLastError();                                       \
    if (xpose_cuda_err_ != cudaSuccess)                                                           \
      ::xpose::cuda_detail::throw_cuda_error(xpose_cuda_err_, "launch of " kernel_name, __FILE__, \
                                             __LINE__);                                           \
  } while (0)

namespace xpose::cuda_detail {

/// Lets `kernel` launch with `bytes` of dynamic shared memory: above the default 48 KiB a kernel
/// must opt in (cudaFuncAttributeMaxDynamicSharedMemorySize); below it this does nothing.
template <class Kernel>
void allow_dynamic_smem(Kernel* kernel, std::size_t bytes) {
  if (bytes > 48 * 1024)
    XPOSE_CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
}

/// Blocks of `kernel` (`threads` a block, `smem` bytes of dynamic shared memory) that fit on the
/// current device at once: SMs x resident blocks a SM (at least one a SM), for a grid of one
/// wave. The caller first allows the kernel its shared memory where it needs more than 48 KiB.
template <class Kernel>
std::int64_t resident_blocks(Kernel kernel, int threads, std::size_t smem) {
  int device = 0, sms = 0, per_sm = 0;
  XPOSE_CHECK_CUDA(cudaGetDevice(&device));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  XPOSE_CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  return static_cast<std::int64_t>(sms) * (per_sm > 1 ? per_sm : 1);
}

/// The current device's DRAM as the dispatch sees it (run 29): peak bandwidth per SM clock in
/// bytes, memory clock x 2 x bus width over SMs x SM clock (H100 SXM about 12.8, H200 about
/// 18.4), and the bus in 1024-bit stacks (H100 80 GB: 5, H200: 6; 0 where it is not a whole
/// number of them). Asked once per device: the clock attributes are slow to query (asked on every
/// transpose, they took c128 16384² from 0.966 to 0.757 x memcpy on an H100, run 29 review).
/// The same query keeps the shared memory a block may opt in to (device_smem_fits).
struct DeviceDram {
  double bytes_per_sm_clock = 0;
  int stacks = 0;
  int sms = 0;  ///< streaming multiprocessors (0 where the device would not say)
  int smem_optin = 0;  ///< shared memory one block may opt in to, bytes
};
inline DeviceDram query_device_dram(int device) {
  int mem_khz = 0, bus_bits = 0, sms = 0, sm_khz = 0;
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  XPOSE_CHECK_CUDA(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, device));
  DeviceDram d;
  d.bytes_per_sm_clock =
      sms > 0 && sm_khz > 0 ? 2.0 * mem_khz * (bus_bits / 8.0) / (double(sms) * sm_khz) : 0.0;
  d.stacks = bus_bits > 0 && bus_bits % 1024 == 0 ? bus_bits / 1024 : 0;
  d.sms = sms > 0 ? sms : 0;
  XPOSE_CHECK_CUDA(
      cudaDeviceGetAttribute(&d.smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return d;
}
inline DeviceDram device_dram() {
  constexpr int kDevices = 64;
  static std::once_flag once[kDevices];
  static DeviceDram known[kDevices];
  int device = 0;
  XPOSE_CHECK_CUDA(cudaGetDevice(&device));
  if (device < 0 || device >= kDevices) return query_device_dram(device);
  std::call_once(once[device], [device] { known[device] = query_device_dram(device); });
  return known[device];
}

/// Whether the current device lets one block have `bytes` of shared memory (opting in above the
/// default 48 KiB: sm_70 gives 96 KiB, sm_80 163 KiB, sm_90 227 KiB; sm_37 48 KiB). Asked once
/// per device with the rest of DeviceDram: the layout tests of the narrow kernels ask it on every
/// transpose (run 36).
inline bool device_smem_fits(std::size_t bytes) {
  return static_cast<std::size_t>(device_dram().smem_optin) >= bytes;
}

/// Whether `count` (a launch's blocks or tiles) is under `hundredths` / 100 of them per SM of the
/// current device: the small-size rules' test (FewBlocks in place, FewTiles out of place).
inline bool under_per_sm(double count, int hundredths) {
  return count < double(hundredths) / 100 * device_dram().sms;
}

/// Whether `count` is at least `lo` / 100 and under `hi` / 100 of them per SM (under_per_sm's
/// test at both ends, the device asked once): PreferInTileWindow's window.
inline bool per_sm_within(double count, int lo, int hi) {
  const int sms = device_dram().sms;
  return !(count < double(lo) / 100 * sms) && count < double(hi) / 100 * sms;
}

/// DRAM bytes per SM clock from which the dispatch takes the faster memories' forms (run 29: an
/// H200 gives 18.4, an H100 12.8).
constexpr double kHighBandwidth = 15.0;
/// Whether the current device's DRAM gives at least kHighBandwidth bytes per SM clock.
inline bool high_bandwidth_device() {
  return device_dram().bytes_per_sm_clock >= kHighBandwidth;
}

/// Whether rows `pitch` bytes apart, taken at one column offset, all fall on one DRAM stack's
/// interleave: on five-stack devices (H100 80 GB) a pitch that is a multiple of 5 x 64 KiB (run 29
/// call 10: the tiled kernels 0.862-0.864 x memcpy at 320 and 640 KiB output pitches for f32, f64
/// and c128, 0.969-0.982 at the other multiples of 64 KiB up to 768 KiB; run 31: in place, the
/// row-wise order 0.824 at c128 n = 20480 and f64 n = 40960). Other stack counts are not
/// measured. Tests the pitch first, so the device is asked only on such multiples.
inline bool pitch_on_one_stack(std::int64_t pitch) {
  return pitch > 0 && pitch % (5 * 65536) == 0 && device_dram().stacks == 5;
}

}  // namespace xpose::cuda_detail
