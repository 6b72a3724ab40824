/// @file
/// Every candidate CUDA kernel of the library, selectable by name at run time: the GPU tests run
/// each one over the whole test matrix, and `bench_kernels --compare` / `--variant` time them
/// side by side, so that the library's choice per layout can be made from one run's numbers.
/// Plain C++ (no CUDA headers); implemented in transpose_tiled.cu and transpose_inplace.cu.
/// CPU-only builds throw NotCompiledError (not_compiled.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/transpose.h"

namespace xpose::kernels::variants {

/// Names of the out-of-place candidates for this element size, "default" (transpose_cuda) first.
std::vector<std::string> out_of_place(std::size_t elem_size);

/// Names of the in-place candidates for this element size, "default" (transpose_inplace_cuda)
/// first.
std::vector<std::string> in_place(std::size_t elem_size);

/// Runs out-of-place candidate `name` (same contract as transpose_cuda). Returns false, launching
/// nothing, where the candidate does not take this layout (alignment); throws
/// UnsupportedInputError for an unknown name.
bool run_out_of_place(const std::string& name, const void* in, void* out, std::size_t elem_size,
                      const TransposeShape& shape, DeviceStream stream);

/// Runs in-place candidate `name` (same contract as transpose_inplace_cuda); false where it does
/// not take this buffer / n.
bool run_in_place(const std::string& name, void* buf, std::size_t elem_size, std::int64_t n,
                  std::int64_t batch, DeviceStream stream);

/// Which of the library's kernels the default would run, without launching anything: its
/// position in the element size's dispatch list (transpose_tiled.cu, transpose_inplace.cu; -1
/// where none takes the layout) and the list's length. The tests count these to show which
/// kernels a set of layouts reached. `copy`: out of place, a layout the default copies with
/// cudaMemcpyAsync instead (a side of 1, elements consecutive in both buffers, no gaps between
/// matrices); index is then -1.
struct DispatchChoice {
  int index = -1;
  int count = 0;
  bool copy = false;
};
DispatchChoice default_out_of_place(const void* in, const void* out, std::size_t elem_size,
                                    const TransposeShape& shape);
DispatchChoice default_in_place(void* buf, std::size_t elem_size, std::int64_t n,
                                std::int64_t batch = 1);

}  // namespace xpose::kernels::variants
