#include "xpose/types.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <limits>

#include "xpose/error.h"

namespace xpose {

namespace {

struct NamedType {
  const char* name;
  ElementType type;
};

const NamedType kNamedTypes[] = {
    {"float32", {ElementKind::Float, 4}},      {"float64", {ElementKind::Float, 8}},
    {"complex64", {ElementKind::Complex, 8}},  {"complex128", {ElementKind::Complex, 16}},
    {"int8", {ElementKind::SignedInt, 1}},     {"int16", {ElementKind::SignedInt, 2}},
    {"int32", {ElementKind::SignedInt, 4}},    {"int64", {ElementKind::SignedInt, 8}},
    {"uint8", {ElementKind::UnsignedInt, 1}},  {"uint16", {ElementKind::UnsignedInt, 2}},
    {"uint32", {ElementKind::UnsignedInt, 4}}, {"uint64", {ElementKind::UnsignedInt, 8}},
};

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

}  // namespace

ElementType ElementType::parse(const std::string& name) {
  for (const auto& t : kNamedTypes)
    if (name == t.name) return t.type;
  std::string known;
  for (const auto& t : kNamedTypes) known += std::string(known.empty() ? "" : ", ") + t.name;
  throw UsageError(cat("unknown dtype '", name, "' (known: ", known, ")"));
}

std::string ElementType::name() const {
  for (const auto& t : kNamedTypes)
    if (t.type == *this) return t.name;
  return cat("bytes", size);
}

std::int64_t checked_mul(std::int64_t a, std::int64_t b) {
  if (a < 0 || b < 0) throw DimensionMismatch(cat("negative size in ", a, " x ", b));
  if (a != 0 && b > std::numeric_limits<std::int64_t>::max() / a)
    throw DimensionMismatch(cat("size overflow: ", a, " x ", b, " does not fit in 64 bits"));
  return a * b;
}

Shape parse_shape(const std::string& text) {
  Shape shape;
  std::string part;
  auto flush = [&] {
    std::string t = trim(part);
    if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError(cat("bad shape '", text, "': expected extents like 1024x2048 or 4x257x1031"));
    errno = 0;
    unsigned long long v = std::strtoull(t.c_str(), nullptr, 10);
    if (errno == ERANGE || v == 0 || v > static_cast<unsigned long long>(
                                             std::numeric_limits<std::int64_t>::max()))
      throw UsageError(cat("bad shape '", text, "': extent '", t, "' must be a positive integer"));
    shape.push_back(static_cast<std::int64_t>(v));
    part.clear();
  };
  for (char c : text) {
    if (c == 'x' || c == 'X' || c == ',') flush();
    else part += c;
  }
  flush();
  try {
    element_count(shape);
  } catch (const DimensionMismatch&) {
    throw UsageError(cat("bad shape '", text, "': the element count does not fit in 64 bits"));
  }
  return shape;
}

std::string format_shape(const Shape& shape) {
  std::string s;
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

std::int64_t element_count(const Shape& shape) {
  std::int64_t n = 1;
  for (auto e : shape) n = checked_mul(n, e);
  return n;
}

std::int64_t parse_size(const std::string& text) {
  std::string t = trim(text);
  std::size_t pos = 0;
  while (pos < t.size() && (std::isdigit(static_cast<unsigned char>(t[pos])) || t[pos] == '.')) ++pos;
  std::string number = t.substr(0, pos), unit = trim(t.substr(pos));
  if (number.empty() || number.find('.') != number.rfind('.'))
    throw UsageError(cat("bad size '", text, "': expected e.g. 4096, 256MiB, 2G, 1.5TiB"));
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  double scale = 0;
  const char* units[] = {"", "K", "M", "G", "T", "P"};
  for (int i = 0; i < 6; ++i) {
    std::string u = units[i];
    if (unit == u || (i > 0 && (unit == u + "IB" || unit == u + "B")) || (i == 0 && unit == "B"))
      scale = std::ldexp(1.0, 10 * i);
  }
  if (scale == 0)
    throw UsageError(cat("bad size '", text, "': unknown unit '", unit, "' (use K, M, G, T, with or without iB)"));
  double bytes = std::stod(number) * scale;
  if (!(bytes < 9.2e18)) throw UsageError(cat("bad size '", text, "': too large"));
  return static_cast<std::int64_t>(bytes);
}

std::string format_size(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int i = 0;
  while (std::fabs(bytes) >= 1024 && i < 5) {
    bytes /= 1024;
    ++i;
  }
  char buf[64];
  if (i == 0) std::snprintf(buf, sizeof buf, "%.0f B", bytes);
  else if (bytes == std::floor(bytes)) std::snprintf(buf, sizeof buf, "%.0f %s", bytes, units[i]);
  else std::snprintf(buf, sizeof buf, "%.1f %s", bytes, units[i]);
  return buf;
}

}  // namespace xpose
