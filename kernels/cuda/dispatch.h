/// @file
/// The library's kernel lists: each element size's kernels as a type list, in the order the
/// dispatch tries them (transpose_tiled.cu, transpose_inplace.cu), and the one switch from an
/// element size to its list. Plain C++ (no CUDA headers).
#pragma once

#include <cstddef>
#include <utility>

#include "xpose/error.h"

namespace xpose::kernels::cuda_dispatch {

template <class... K>
struct KernelList {};

template <class... K>
constexpr int list_size(KernelList<K...>) {
  return static_cast<int>(sizeof...(K));
}

/// f(L{}) with L the list of `elem_size`-byte elements (U8 ... C128); throws
/// UnsupportedInputError naming `who` for any other size.
template <class U8, class U16, class F32, class F64, class C128, class F>
decltype(auto) with_element_size(std::size_t elem_size, const char* who, F&& f) {
  switch (elem_size) {
    case 1:
      return std::forward<F>(f)(U8{});
    case 2:
      return std::forward<F>(f)(U16{});
    case 4:
      return std::forward<F>(f)(F32{});
    case 8:
      return std::forward<F>(f)(F64{});
    case 16:
      return std::forward<F>(f)(C128{});
    default:
      throw UnsupportedInputError(
          cat(who, ": element size ", elem_size, " bytes (supported: 1, 2, 4, 8, 16)"));
  }
}

}  // namespace xpose::kernels::cuda_dispatch
