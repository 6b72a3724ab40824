/// @file
/// Element types, shapes and size strings shared by the engine, the CLI and the public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace xpose {

/// What an element is. The engine moves raw bytes and needs only the size; the kind matters to
/// `generate`, to FFT clients and to messages.
enum class ElementKind { SignedInt, UnsignedInt, Float, Complex, Other };

struct ElementType {
  ElementKind kind = ElementKind::Other;
  std::size_t size = 0;  ///< bytes: 1, 2, 4, 8 or 16

  static ElementType float32() { return {ElementKind::Float, 4}; }
  static ElementType float64() { return {ElementKind::Float, 8}; }
  static ElementType complex64() { return {ElementKind::Complex, 8}; }
  static ElementType complex128() { return {ElementKind::Complex, 16}; }
  static ElementType bytes(std::size_t n) { return {ElementKind::Other, n}; }

  /// Parses the `--dtype` names: float32, float64, complex64, complex128, int8 ... uint64.
  static ElementType parse(const std::string& name);
  /// The `--dtype` name, or "bytes<N>" for ElementKind::Other.
  std::string name() const;

  friend bool operator==(const ElementType& a, const ElementType& b) {
    return a.kind == b.kind && a.size == b.size;
  }
};

/// True for the element sizes every kernel and the exchange support.
constexpr bool is_supported_element_size(std::size_t size) {
  return size == 1 || size == 2 || size == 4 || size == 8 || size == 16;
}

using Shape = std::vector<std::int64_t>;

/// "4x257x1031" -> {4, 257, 1031}. Every extent must be a positive integer.
Shape parse_shape(const std::string& text);
/// {4, 257, 1031} -> "4x257x1031".
std::string format_shape(const Shape& shape);
/// Product of the extents, with an error instead of a silent 64-bit overflow.
std::int64_t element_count(const Shape& shape);

/// "256MiB", "1G", "4096", "1.5GiB" -> bytes. K/M/G/T are powers of 1024 with or without "iB"
/// (and "B"); a plain number is bytes.
std::int64_t parse_size(const std::string& text);
/// 268435456 -> "256 MiB" (binary units, at most one decimal).
std::string format_size(double bytes);

/// a * b, throwing DimensionMismatch instead of overflowing.
std::int64_t checked_mul(std::int64_t a, std::int64_t b);

}  // namespace xpose
