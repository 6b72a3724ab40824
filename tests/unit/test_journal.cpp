// The journal as the run's lock (engine/src/journal.h): created exclusively and never through a
// symbolic link, locked for the run, refused to a second holder with its pid and host, read back
// with its checksum.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/src/journal.h"
#include "xpose/error.h"

namespace xpose {
namespace {

namespace fs = std::filesystem;

struct Dir {
  std::string path;
  Dir() {
    char tmpl[] = "/tmp/xpose-journal-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~Dir() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
};

std::string text_of(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

Journal sample(std::int64_t done) {
  Journal j;
  j.identity.input = "/data/in.h5:/m";
  j.identity.input_bytes = 4096;
  j.identity.input_mtime_ns = 1234567890123;
  j.identity.output = "out.h5:/m";
  j.identity.shape = {3, 0, 4};  // an empty dataset's journal reads back too
  j.identity.element_size = 8;
  j.identity.datatype = "float64 (IEEE, little-endian)";
  j.identity.ranks = 2;
  j.stages_done = done;
  return j;
}

TEST(Journal, TextRoundTripsAndTheChecksumCatchesEdits) {
  Journal j = sample(7);
  j.owner = "pid 42 on host node01";
  auto back = Journal::parse(j.text(), "j");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->stages_done, 7);
  EXPECT_EQ(back->owner, j.owner);
  EXPECT_EQ(back->identity.difference(j.identity), "");
  std::string edited = j.text();
  edited.replace(edited.find("stages_done=7"), 13, "stages_done=9");
  EXPECT_THROW(Journal::parse(edited, "j"), ResumeRefusedError);
  EXPECT_THROW(Journal::parse("", "j"), ResumeRefusedError);
  EXPECT_FALSE(Journal::parse("someone's notes\n", "j"));  // not a journal at all
}

TEST(JournalFile, OneHolderAtATime) {
  Dir dir;
  const std::string path = dir / ".out.h5.xpose-journal";
  JournalFile first = JournalFile::acquire(path, "out.h5:/m");
  EXPECT_TRUE(first.created());
  ASSERT_TRUE(first.write(sample(0)));
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(
      st.st_mode & 0777, 0666 & ~[] {
        mode_t m = ::umask(0);
        ::umask(m);
        return m;
      }());
  const std::string before = text_of(path);
  try {
    JournalFile::acquire(path, "out.h5:/m");
    FAIL() << "a second holder got the lock";
  } catch (const OutputRefusedError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("another xpose run is writing 'out.h5:/m': pid " +
                           std::to_string(::getpid()) + " on host "),
              std::string::npos)
        << message;
  }
  EXPECT_EQ(text_of(path), before);  // the refused one touched nothing
  first.remove();
  EXPECT_FALSE(fs::exists(path));
  JournalFile again = JournalFile::acquire(path, "out.h5:/m");
  EXPECT_TRUE(again.created());
}

TEST(JournalFile, ReadsTheJournalItFinds) {
  Dir dir;
  const std::string path = dir / ".out.h5.xpose-journal";
  {
    JournalFile j = JournalFile::acquire(path, "out.h5:/m");
    j.write(sample(5));
  }  // closed: the lock goes, the file stays (as after a killed run)
  JournalFile j = JournalFile::acquire(path, "out.h5:/m");
  EXPECT_FALSE(j.created());
  ASSERT_TRUE(j.previous());
  EXPECT_EQ(j.previous()->stages_done, 5);
  EXPECT_EQ(j.damage(), "");
}

TEST(JournalFile, RefusesNamesItDidNotCreate) {
  Dir dir;
  const std::string path = dir / ".out.h5.xpose-journal", victim = dir / "victim";
  std::ofstream(victim) << "precious\n";
  fs::create_symlink(victim, path);
  EXPECT_THROW(JournalFile::acquire(path, "out.h5:/m"), OutputRefusedError);
  fs::remove(path);
  fs::create_symlink(dir / "nowhere", path);  // dangling: not created through either
  EXPECT_THROW(JournalFile::acquire(path, "out.h5:/m"), OutputRefusedError);
  EXPECT_FALSE(fs::exists(dir / "nowhere"));
  fs::remove(path);
  std::ofstream(path) << "someone's notes\n";
  EXPECT_THROW(JournalFile::acquire(path, "out.h5:/m"), OutputRefusedError);
  EXPECT_EQ(text_of(path), "someone's notes\n");
  EXPECT_EQ(text_of(victim), "precious\n");
}

TEST(JournalFile, ADamagedJournalIsReportedNotTrusted) {
  Dir dir;
  const std::string path = dir / ".out.h5.xpose-journal";
  std::string text = sample(3).text();
  text.replace(text.find("stages_done=3"), 13, "stages_done=8");
  std::ofstream(path) << text;
  JournalFile j = JournalFile::acquire(path, "out.h5:/m");
  EXPECT_FALSE(j.previous());
  EXPECT_NE(j.damage().find("damaged"), std::string::npos) << j.damage();
}

}  // namespace
}  // namespace xpose
