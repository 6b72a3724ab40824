/// @file
/// A minimal JSON writer for the --json run summaries (objects, arrays, strings, numbers).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace xpose {

class JsonWriter {
 public:
  JsonWriter& begin_object(const std::string& key = "") { open(key, '{'); return *this; }
  JsonWriter& end_object() { close('}'); return *this; }
  JsonWriter& begin_array(const std::string& key = "") { open(key, '['); return *this; }
  JsonWriter& end_array() { close(']'); return *this; }

  JsonWriter& value(const std::string& key, const std::string& v) { item(key) << quote(v); return *this; }
  JsonWriter& value(const std::string& key, const char* v) { return value(key, std::string(v)); }
  JsonWriter& value(const std::string& key, bool v) { item(key) << (v ? "true" : "false"); return *this; }
  JsonWriter& value(const std::string& key, std::int64_t v) { item(key) << v; return *this; }
  JsonWriter& value(const std::string& key, int v) { return value(key, static_cast<std::int64_t>(v)); }
  JsonWriter& value(const std::string& key, double v) {
    if (std::isfinite(v)) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.6g", v);
      item(key) << buf;
    } else {
      item(key) << "null";
    }
    return *this;
  }
  JsonWriter& value(const std::string& key, const std::vector<std::int64_t>& v) {
    item(key) << '[';
    for (std::size_t i = 0; i < v.size(); ++i) os_ << (i ? "," : "") << v[i];
    os_ << ']';
    return *this;
  }
  JsonWriter& value(const std::string& key, const std::vector<std::string>& v) {
    item(key) << '[';
    for (std::size_t i = 0; i < v.size(); ++i) os_ << (i ? "," : "") << quote(v[i]);
    os_ << ']';
    return *this;
  }
  std::string str() const { return os_.str() + "\n"; }

  static std::string quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
          } else {
            out += c;
          }
      }
    }
    return out + "\"";
  }

 private:
  std::ostringstream& item(const std::string& key) {
    if (!first_.empty() && !first_.back()) os_ << ',';
    if (!first_.empty()) first_.back() = false;
    if (!key.empty()) os_ << quote(key) << ':';
    return os_;
  }
  void open(const std::string& key, char c) {
    item(key) << c;
    first_.push_back(true);
  }
  void close(char c) {
    first_.pop_back();
    os_ << c;
  }
  std::ostringstream os_;
  std::vector<bool> first_;
};

}  // namespace xpose
