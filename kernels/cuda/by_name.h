/// @file
/// The library's CUDA kernels (kernels/cuda/kernels.def) by name, beside the choice: the GPU
/// tests run each one over their layouts, bench_kernels --compare times them side by side, and
/// bench_kernel_counters runs one under a profiler. Plain C++ (no CUDA headers); CPU-only builds
/// throw NotCompiledError (not_compiled.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/choice.h"
#include "kernels/transpose.h"

namespace xpose::kernels::by_name {

/// Names of the out-of-place kernels for this element size, "default" (transpose_cuda) first.
std::vector<std::string> out_of_place(std::size_t elem_size);
/// Names of the in-place kernels, "default" (transpose_inplace_cuda) first.
std::vector<std::string> in_place(std::size_t elem_size);

/// Runs out-of-place kernel `name` (same contract as transpose_cuda), its tiles in `order`, or
/// where that is null in the family's own order (tiled: row-major; the others down the tile
/// columns; the spread order is for the skew and narrow families only). Returns false,
/// launching nothing, where the kernel does not take this layout on this device; throws
/// UnsupportedInputError for an unknown name.
bool run_out_of_place(const std::string& name, const void* in, void* out, std::size_t elem_size,
                      const TransposeShape& shape, DeviceStream stream,
                      const TileOrder* order = nullptr);
/// Runs in-place kernel `name` (same contract as transpose_inplace_cuda); false where it does
/// not take this buffer / n on this device.
bool run_in_place(const std::string& name, void* buf, std::size_t elem_size, std::int64_t n,
                  std::int64_t batch, DeviceStream stream);

}  // namespace xpose::kernels::by_name
