#include "engine/datagen/uci_teacher.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "engine/chess/notation.h"
#include "tests/support/test_paths.h"

namespace zh::datagen {
namespace {
namespace fs = std::filesystem;

// A teacher executable that runs the scripted engine in `mode`.
std::string fake_teacher(const std::string& mode) {
  const fs::path script =
      fs::temp_directory_path() / ("zh-fake-uci-" + mode + "-" + std::to_string(getpid()) + ".sh");
  std::ofstream(script) << "#!/bin/sh\nexec python3 '" << zh::test::data_dir()
                        << "/datagen/fake_uci.py' " << mode << "\n";
  fs::permissions(script, fs::perms::owner_all);
  return script.string();
}

TeacherConfig config(const std::string& mode) {
  TeacherConfig c;
  c.path = fake_teacher(mode);
  c.multipv = 4;
  // Generous: the scripted engine is a Python program, slow to start on a loaded machine.
  c.timeout = std::chrono::seconds(60);
  return c;
}

TEST(UciTeacher, ReadsBestMoveAndLinesBestFirst) {
  UciTeacher teacher(config("ok"));
  teacher.new_game();
  const TeacherAnswer a = teacher.search(Game());
  EXPECT_EQ(to_uci(a.best), "e2e4");
  ASSERT_EQ(a.lines.size(), 2u);
  EXPECT_EQ(a.lines[0].move, a.best);
  EXPECT_EQ(a.lines[0].cp, 20);  // the bound line after it is not taken
  EXPECT_EQ(to_uci(a.lines[1].move), "d2d4");
  EXPECT_EQ(a.lines[1].cp, 10);
}

TEST(UciTeacher, GarbageLinesAreCountedAndIgnored) {
  UciTeacher teacher(config("garbage"));
  const TeacherAnswer a = teacher.search(Game());
  EXPECT_EQ(to_uci(a.best), "e2e4");
  EXPECT_EQ(a.lines[0].cp, 20);  // not the garbage line's 99 with an illegal move
  EXPECT_GE(teacher.ignored_lines(), 2);
}

TEST(UciTeacher, CrashIllegalMoveAndHangAreTeacherErrors) {
  // Each for its own reason (a teacher that never started would throw too).
  const std::pair<const char*, const char*> cases[] = {
      {"crash", "exited during a search"}, {"illegal", "e2e5"}, {"hang", "sent no bestmove"}};
  for (const auto& [mode, why] : cases) {
    TeacherConfig c = config(mode);
    if (std::string(mode) == "hang") c.timeout = std::chrono::seconds(10);
    UciTeacher teacher(c);
    teacher.new_game();  // it is up: the handshake is done
    try {
      teacher.search(Game());
      ADD_FAILURE() << mode << ": no error";
    } catch (const TeacherError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << mode << ": " << e.what();
    }
  }
}

TEST(UciTeacher, RestartGivesAWorkingTeacherAgain) {
  UciTeacher teacher(config("ok"));
  teacher.restart();
  EXPECT_EQ(teacher.restarts(), 1);
  EXPECT_EQ(to_uci(teacher.search(Game()).best), "e2e4");
}

TEST(UciTeacher, AMissingBinaryIsAClearError) {
  TeacherConfig c;
  c.path = "/nonexistent/fairy-stockfish";
  try {
    UciTeacher teacher(c);
    FAIL() << "no error";
  } catch (const TeacherError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/fairy-stockfish"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("--teacher"), std::string::npos);
  }
}

}  // namespace
}  // namespace zh::datagen
