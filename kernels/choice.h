/// @file
/// Which CUDA kernel transposes a layout, decided on the host, without a GPU: a pure function of
/// the element size, the layout (shape, pitches, the buffers' alignment) and a device profile.
///
/// Two parts. What a kernel *can* take is code (kernel_list.cpp: alignment, shared memory, the
/// TMA unit). Which of the kernels that can take a layout is *preferred* is data: the rules of
/// kernel_table.csv, tried in order, the first whose conditions hold and whose kernel takes the
/// layout wins (kernel_table.inc is generated from the CSV by tools/kernel_table.py). The CUDA
/// entry points (transpose.h) run what choose_* returns; describe_* says it in words, and
/// XPOSE_KERNEL_LOG=1 prints it once per distinct layout. Plain C++ (no CUDA headers): the choice
/// is the same, and testable, in builds without CUDA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/transpose.h"

namespace xpose::kernels {

/// What the choice needs to know of a device, derived from the device's own properties.
struct DeviceProfile {
  std::string name;                   ///< for messages
  int sms = 0;                        ///< streaming multiprocessors
  double dram_bytes_per_sm_clock = 0; ///< peak DRAM bytes per SM clock cycle
  int dram_stacks = 0;                ///< 1024-bit HBM stacks on the bus (0: not a whole number)
  std::int64_t smem_per_block = 0;    ///< shared memory one block may opt in to, bytes
  bool tma = false;                   ///< Hopper bulk tensor copies usable (device and build)

  /// DRAM bytes per SM clock from which the faster memories' rules apply (an H200 gives 18.8,
  /// an H100 SXM 12.8): the rules' device class "hbm".
  static constexpr double kHighBandwidth = 15.0;
  bool high_bandwidth() const { return dram_bytes_per_sm_clock >= kHighBandwidth; }

  /// The profile of a device with these properties (cudaDeviceProp's names): clocks in kHz,
  /// the memory bus in bits, the opt-in shared memory a block in bytes. `tma_built`: the library
  /// was built with the TMA kernels for this device's architecture.
  static DeviceProfile from_properties(const std::string& name, int sms, int sm_clock_khz,
                                       int memory_clock_khz, int bus_bits, int smem_optin,
                                       int cc_major, bool tma_built);
  /// For a machine without a GPU (xpose info --kernels): an unknown GPU of no special class.
  static DeviceProfile generic();
  /// Known devices' profiles by name (h100, h200, a100, v100, t4, k80), from their published
  /// properties; throws UnsupportedInputError for another name.
  static DeviceProfile named(const std::string& name);
  static std::vector<std::string> known_names();
};

/// One kernel of the library (kernels/cuda/kernels.def).
struct KernelInfo {
  const char* name;           ///< unique among the kernels of its element size and kind
  int elem;                   ///< element bytes
  bool in_place;
  const char* instantiation;  ///< the CUDA template it runs
};

/// The library's kernels, in kernels.def's order (KernelChoice::kernel indexes this).
const std::vector<KernelInfo>& kernel_list();
/// Index of kernel `name` of `elem`-byte elements (in place or not); -1 where there is none.
int find_kernel(std::size_t elem, bool in_place, const std::string& name);

/// The order a launch walks its tiles in (tile_of in kernels/cuda/tile.cuh).
struct TileOrder {
  static constexpr std::int64_t kColumnMajor = -1;
  std::int64_t group = 1;     ///< tile rows a group (1: row-major; kColumnMajor: one group)
  std::uint32_t stagger = 0;  ///< tile rows a band that turns by `turn` tile columns (0: none)
  std::uint32_t turn = 0;
  std::uint32_t spread = 1;   ///< tile rows dealt over this many runs (1: none)
};

/// What a transpose runs.
struct KernelChoice {
  bool copy = false;  ///< a copy in order (cudaMemcpyAsync), no kernel
  int kernel = -1;    ///< index into kernel_list()
  int rule = -1;      ///< the table row that chose it (kernel_rules()), -1 for a copy
  TileOrder order;
  std::string instantiation;  ///< the CUDA template with its run-time form (thin, records)
};

/// A side of 1 whose elements are consecutive in both buffers, the matrices without gaps: a
/// copy in order (cudaMemcpyAsync), whatever the device. `shape` resolved.
bool copies_in_order(const TransposeShape& shape);

/// The current CUDA device's profile (asked once per device). CUDA builds only: elsewhere
/// NotCompiledError.
DeviceProfile current_device_profile();

/// The out-of-place choice for `shape` (resolved) from `in` to `out` (addresses are only tested
/// for alignment, never read). Throws DimensionMismatch where no kernel takes the layout
/// (buffers off the element size) and UnsupportedInputError for another element size.
KernelChoice choose_out_of_place(const void* in, const void* out, std::size_t elem,
                                 const TransposeShape& shape, const DeviceProfile& device);
/// The in-place choice for `batch` dense n x n matrices at `buf` (n >= 2).
KernelChoice choose_in_place(const void* buf, std::size_t elem, std::int64_t n,
                             std::int64_t batch, const DeviceProfile& device);

/// One row of the preference table, for messages.
struct RuleInfo {
  int line;            ///< line in kernels/kernel_table.csv
  const char* when;    ///< its conditions as written there
  const char* reason;  ///< the measured reason
};
RuleInfo rule_info(int rule);

/// The choice in one line: kernel, its form and order, the table row (line, conditions) and its
/// reason. The effective tile order (group, stagger, spread) as the launch will use it.
std::string describe(const KernelChoice& choice, std::size_t elem, const TransposeShape& shape,
                     const DeviceProfile& device);
/// The kernel line alone, as the golden test compares it: "<instantiation>[ g=G][ st=S/T][ sp=P]"
/// with the launch's effective group; "memcpy" for a copy.
std::string launch_signature(const KernelChoice& choice, const void* out, std::size_t elem,
                             const TransposeShape& shape);

/// describe() for buffers on 256-byte boundaries shifted by `in_offset` / `out_offset` bytes.
std::string describe_out_of_place(std::size_t elem, const TransposeShape& shape,
                                  const DeviceProfile& device, std::int64_t in_offset = 0,
                                  std::int64_t out_offset = 0);
std::string describe_in_place(std::size_t elem, std::int64_t n, std::int64_t batch,
                              const DeviceProfile& device, std::int64_t offset = 0);

}  // namespace xpose::kernels
