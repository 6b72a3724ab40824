/// @file
/// What the xpose library in use was built with, asked at run time (config.h says what the
/// headers were configured with; a program linked against an installed libxpose asks here).
#pragma once

namespace xpose {

/// "MAJOR.MINOR.PATCH".
const char* version() noexcept;
/// Whether device memory (CUDA) is supported: MemorySpace::Device, the cuda backend.
bool built_with_cuda() noexcept;
/// Whether the NCCL transport is built.
bool built_with_nccl() noexcept;

}  // namespace xpose
