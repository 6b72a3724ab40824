// The kernel choice (kernels/choice.h) against the golden file tests/data/kernel_choice_golden.tsv:
// the kernel and tile order that the dispatch the table replaced launched for every layout of the
// GPU test matrix and of the record table, on six device profiles. Every case must get the same
// launch, except the deliberate changes of tests/data/kernel_choice_changes.tsv (each with its
// reason), which must each still differ from the golden file as listed. Runs without a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/choice.h"
#include "kernels/transpose.h"
#include "xpose/error.h"

#ifndef XPOSE_TEST_DATA_DIR
#error "XPOSE_TEST_DATA_DIR: the directory of tests/data"
#endif

namespace {

using xpose::kernels::DeviceProfile;
using xpose::kernels::TransposeShape;

struct GoldenCase {
  std::string key;  // the layout's text as in the file
  bool in_place = false;
  std::size_t elem = 0;
  TransposeShape shape;  // in place: rows = cols = n, batch
  std::int64_t in_off = 0, out_off = 0;
  std::vector<std::string> want;  // a launch per profile
};

struct Golden {
  std::vector<std::string> profiles;
  std::vector<GoldenCase> cases;
};

std::string data_path(const char* name) {
  return std::string(XPOSE_TEST_DATA_DIR) + "/" + name;
}

Golden read_golden() {
  Golden g;
  std::ifstream f(data_path("kernel_choice_golden.tsv"));
  if (!f) throw std::runtime_error("cannot open kernel_choice_golden.tsv");
  std::map<std::string, std::string> kernels;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '\t');) cols.push_back(c);
    if (cols[0] == "profiles") {
      g.profiles.assign(cols.begin() + 1, cols.end());
    } else if (cols[0] == "kernel") {
      kernels[cols[1]] = cols[2];
    } else {
      GoldenCase c;
      c.key = cols[0];
      std::stringstream fields(cols[0]);
      std::string kind;
      fields >> kind >> c.elem;
      c.in_place = kind == "ip";
      TransposeShape& s = c.shape;
      if (c.in_place) {
        fields >> s.rows >> s.batch >> c.in_off;
        s.cols = s.rows;
      } else {
        fields >> s.rows >> s.cols >> s.batch >> s.in_pitch >> s.out_pitch >> s.in_batch_stride >>
            s.out_batch_stride >> c.in_off >> c.out_off;
      }
      for (std::size_t p = 1; p < cols.size(); ++p) c.want.push_back(kernels.at(cols[p]));
      g.cases.push_back(c);
    }
  }
  return g;
}

// (layout key, profile) -> {the golden launch, the launch now, reason}
struct Change {
  std::string was, now, reason;
};
std::map<std::pair<std::string, std::string>, Change> read_changes() {
  std::map<std::pair<std::string, std::string>, Change> changes;
  std::ifstream f(data_path("kernel_choice_changes.tsv"));
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '\t');) cols.push_back(c);
    if (cols.size() != 5) throw std::runtime_error("kernel_choice_changes.tsv: 5 columns a line");
    changes[{cols[0], cols[1]}] = Change{cols[2], cols[3], cols[4]};
  }
  return changes;
}

const auto* const kIn = reinterpret_cast<const unsigned char*>(0x10000000000ull);
const auto* const kOut = reinterpret_cast<const unsigned char*>(0x20000000000ull);

// The launch the library makes for the case now (as transpose_cuda / transpose_inplace_cuda).
std::string launch_now(const GoldenCase& c, const DeviceProfile& d) {
  if (c.in_place) {
    if (c.shape.rows <= 1 || c.shape.batch == 0) return "none";
    const auto choice =
        xpose::kernels::choose_in_place(kIn + c.in_off, c.elem, c.shape.rows, c.shape.batch, d);
    return xpose::kernels::launch_signature(choice, kIn + c.in_off, c.elem,
                                            TransposeShape::dense(c.shape.rows, c.shape.rows));
  }
  const TransposeShape s = c.shape.resolved();
  if (s.rows == 0 || s.cols == 0 || s.batch == 0) return "none";
  const auto choice =
      xpose::kernels::choose_out_of_place(kIn + c.in_off, kOut + c.out_off, c.elem, s, d);
  return xpose::kernels::launch_signature(choice, kOut + c.out_off, c.elem, s);
}

TEST(KernelChoice, SameLaunchAsTheGoldenFile) {
  const Golden g = read_golden();
  const auto changes = read_changes();
  ASSERT_EQ(g.profiles.size(), 6u);
  ASSERT_GT(g.cases.size(), 2000u);
  std::set<std::pair<std::string, std::string>> changes_seen;
  std::map<std::string, std::map<std::string, int>> used;  // profile -> kernel name -> cases
  int compared = 0, differ = 0;
  for (std::size_t p = 0; p < g.profiles.size(); ++p) {
    const DeviceProfile d = DeviceProfile::named(g.profiles[p]);
    for (const GoldenCase& c : g.cases) {
      std::string want = c.want[p];
      const auto change = changes.find({c.key, g.profiles[p]});
      if (change != changes.end()) {
        EXPECT_EQ(change->second.was, want) << "a listed change no longer matches the golden file: "
                                            << c.key << " on " << g.profiles[p];
        want = change->second.now;
        changes_seen.insert(change->first);
      }
      const std::string got = launch_now(c, d);
      ++compared;
      if (got != want) {
        if (++differ <= 400)
          ADD_FAILURE() << c.key << " on " << g.profiles[p] << ":\n  want " << want
                        << "\n  got  " << got;
      }
      if (got != "none" && got != "memcpy") {
        const auto choice =
            c.in_place ? xpose::kernels::choose_in_place(kIn + c.in_off, c.elem, c.shape.rows,
                                                         c.shape.batch, d)
                       : xpose::kernels::choose_out_of_place(kIn + c.in_off, kOut + c.out_off,
                                                             c.elem, c.shape.resolved(), d);
        const auto& k = xpose::kernels::kernel_list()[static_cast<std::size_t>(choice.kernel)];
        ++used[g.profiles[p]][std::string(c.in_place ? "ip " : "oop ") + std::to_string(k.elem) +
                              " " + k.name];
      }
    }
  }
  EXPECT_EQ(differ, 0) << differ << " of " << compared << " (layout, profile) launches differ";
  EXPECT_EQ(changes_seen.size(), changes.size()) << "a listed change names no golden case";
  // Which kernels each profile's choices use (kernels/README.md's count comes from this).
  std::map<std::string, int> any;
  for (const auto& [profile, kernels] : used) {
    std::printf("  %s: %zu kernels\n", profile.c_str(), kernels.size());
    for (const auto& [name, n] : kernels) any[name] += n;
  }
  // Every kernel of the library is the choice somewhere: none is compiled in for nothing.
  for (const auto& k : xpose::kernels::kernel_list()) {
    const std::string name = std::string(k.in_place ? "ip " : "oop ") + std::to_string(k.elem) +
                             " " + k.name;
    EXPECT_GT(any[name], 0) << name << " is never chosen";
  }
  std::printf("  %d (layout, profile) launches compared, %zu deliberate changes\n", compared,
              changes.size());
}

// The profile comes from the device's properties; unknown devices get a usable generic one.
TEST(KernelChoice, ProfilesFromProperties) {
  const DeviceProfile h100 = DeviceProfile::named("h100");
  const DeviceProfile h200 = DeviceProfile::named("h200");
  EXPECT_FALSE(h100.high_bandwidth());
  EXPECT_TRUE(h200.high_bandwidth());
  EXPECT_EQ(h100.dram_stacks, 5);
  EXPECT_EQ(h200.dram_stacks, 6);
  EXPECT_NEAR(h100.dram_bytes_per_sm_clock, 12.83, 0.01);
  EXPECT_TRUE(h100.tma);
  EXPECT_FALSE(DeviceProfile::named("a100").tma);
  EXPECT_FALSE(DeviceProfile::generic().high_bandwidth());
  EXPECT_THROW(DeviceProfile::named("no-such-gpu"), xpose::UnsupportedInputError);
  // A device without TMA kernels in the build never gets them.
  const DeviceProfile no_tma =
      DeviceProfile::from_properties("x", 132, 1980000, 3201000, 6144, 232448, 9, false);
  EXPECT_FALSE(no_tma.tma);
}

// describe_* names the kernel, the table row and its reason; XPOSE_KERNEL_LOG prints this line.
TEST(KernelChoice, DescribeSaysKernelAndRule) {
  const DeviceProfile h100 = DeviceProfile::named("h100");
  const std::string d =
      xpose::kernels::describe_out_of_place(4, TransposeShape::dense(16384, 16384), h100);
  EXPECT_NE(d.find("tile-64x64w8"), std::string::npos) << d;
  EXPECT_NE(d.find("kernel_table.csv line"), std::string::npos) << d;
  EXPECT_NE(d.find("x memcpy"), std::string::npos) << d;
  const std::string odd =
      xpose::kernels::describe_out_of_place(4, TransposeShape::dense(16411, 16411), h100);
  EXPECT_NE(odd.find("skew-64x64-p256"), std::string::npos) << odd;
  const std::string ip = xpose::kernels::describe_in_place(8, 16411, 1, h100);
  EXPECT_NE(ip.find("strip-32"), std::string::npos) << ip;
  EXPECT_NE(xpose::kernels::describe_out_of_place(2, TransposeShape::dense(1, 100), h100)
                .find("copy in order"),
            std::string::npos);
  EXPECT_THROW(xpose::kernels::describe_out_of_place(3, TransposeShape::dense(4, 4), h100),
               xpose::UnsupportedInputError);
  // Buffers off the element size: no kernel takes them.
  EXPECT_THROW(xpose::kernels::describe_out_of_place(4, TransposeShape::dense(64, 64), h100, 2),
               xpose::DimensionMismatch);
}

}  // namespace
