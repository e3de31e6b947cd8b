// ChildProcess: pipes or a log file, the environment a child gets, exit statuses, and ending it.
#include "engine/util/child_process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace zh {
namespace {

using namespace std::chrono_literals;

std::string all_output(ChildProcess& child) {
  std::string line, all;
  while (child.read_line(line, 30s) == ChildProcess::ReadStatus::kLine) all += line + "\n";
  return all;
}

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool has_variable(const std::string& env, const std::string& name) {
  return env.rfind(name + "=", 0) == 0 || env.find("\n" + name + "=") != std::string::npos;
}

ChildOptions options(std::filesystem::path log, bool own_group = false) {
  ChildOptions o;
  o.log_file = std::move(log);
  o.own_group = own_group;
  o.grace = 100ms;
  return o;
}

std::filesystem::path temp_file(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("zh-child-" + std::to_string(::getpid()) + "-" + name);
}

TEST(ChildProcess, TheChildSeesNoTokenVariableUnlessOneIsGivenToIt) {
  ::setenv("LICHESS_BOT_TOKEN", "lip_secret_for_test", 1);
  ::setenv("ZH_CHILD_TEST_UNSET", "1", 1);
  ::setenv("SOME_TOKEN_FILE", "lip_other_secret", 1);
  ChildProcess child({"sh", "-c", "env"});
  const std::string env = all_output(child);
  EXPECT_NE(env.find("PATH="), std::string::npos);
  EXPECT_EQ(env.find("lip_secret_for_test"), std::string::npos);
  EXPECT_EQ(env.find("lip_other_secret"), std::string::npos);
  // The harness hands the bot its token on purpose.
  ChildOptions given_options;
  given_options.env_set = {{"LICHESS_BOT_TOKEN", "lip_given"}};
  given_options.env_unset = {"ZH_CHILD_TEST_UNSET"};
  ChildProcess given({"sh", "-c", "env"}, given_options);
  const std::string env2 = all_output(given);
  ::unsetenv("LICHESS_BOT_TOKEN");
  ::unsetenv("SOME_TOKEN_FILE");
  ::unsetenv("ZH_CHILD_TEST_UNSET");
  EXPECT_TRUE(has_variable(env, "ZH_CHILD_TEST_UNSET"));
  EXPECT_NE(env2.find("LICHESS_BOT_TOKEN=lip_given"), std::string::npos);
  EXPECT_EQ(env2.find("lip_secret_for_test"), std::string::npos);
  EXPECT_FALSE(has_variable(env2, "ZH_CHILD_TEST_UNSET"));
}

TEST(ChildProcess, LinesBothWaysAndTheExitStatus) {
  ChildProcess child({"sh", "-c", "read a; echo got $a; exit 3"});
  ASSERT_TRUE(child.write_line("hello"));
  std::string line;
  ASSERT_EQ(child.read_line(line, 30s), ChildProcess::ReadStatus::kLine);
  EXPECT_EQ(line, "got hello");
  EXPECT_EQ(child.read_line(line, 30s), ChildProcess::ReadStatus::kEnd);
  const ExitStatus status = child.wait_exit();
  EXPECT_TRUE(status.exited);
  EXPECT_EQ(status.code, 3);
  EXPECT_FALSE(status.success());
  EXPECT_EQ(status.describe(), "exit code 3");
}

TEST(ChildProcess, AReaderStoppedAndContinuedDoesNotCountItsStopAgainstTheChild) {
  // The whole job stopped with SIGSTOP (tools/measure/quiet.sh pausing the lab), here by the
  // child itself, for longer than the read's timeout, then continued: the wait goes on with what
  // was left of it, and the child's answer, which comes soon after, is read.
  const std::string self = std::to_string(::getpid());
  ChildProcess child({"sh", "-c",
                      "read go; sleep 0.5; kill -STOP " + self + "; sleep 4; kill -CONT " + self +
                          "; sleep 0.2; echo answer"});
  ASSERT_TRUE(child.write_line("go"));
  std::string line;
  ASSERT_EQ(child.read_line(line, 2500ms), ChildProcess::ReadStatus::kLine);
  EXPECT_EQ(line, "answer");
}

TEST(ChildProcess, ALogFileGetsStdoutAndStderr) {
  const auto log = temp_file("log");
  std::filesystem::remove(log);
  {
    ChildProcess child({"sh", "-c", "echo out; echo err >&2"}, options(log));
    const auto status = child.wait_exit(30s);
    ASSERT_TRUE(status.has_value());
    EXPECT_TRUE(status->success());
  }
  EXPECT_EQ(file_text(log), "out\nerr\n");
  std::filesystem::remove(log);
}

TEST(ChildProcess, StopEndsItsWholeGroup) {
  const auto pid_file = temp_file("grandchild");
  std::filesystem::remove(pid_file);
  ChildProcess child({"sh", "-c", "sleep 600 & echo $! > " + pid_file.string() + "; wait"},
                     options("/dev/null", true));
  std::string pid_text;
  for (int i = 0; i < 3000 && pid_text.empty(); ++i) {
    pid_text = file_text(pid_file);
    if (pid_text.empty() || pid_text.back() != '\n') pid_text.clear();
    if (pid_text.empty()) ::usleep(10000);
  }
  ASSERT_FALSE(pid_text.empty());
  const pid_t grandchild = std::stoi(pid_text);
  EXPECT_TRUE(child.running());
  child.stop();
  EXPECT_FALSE(child.running());
  // The grandchild got SIGKILL with the group (it may linger as a zombie of init's until
  // reaped, which kill(0) still reports: wait for it to be gone).
  bool gone = false;
  for (int i = 0; i < 3000 && !gone; ++i) {
    const std::string stat = file_text("/proc/" + std::to_string(grandchild) + "/stat");
    gone = stat.empty() || stat.find(") Z") != std::string::npos;
    if (!gone) ::usleep(10000);
  }
  EXPECT_TRUE(gone);
  std::filesystem::remove(pid_file);
}

TEST(ChildProcess, AProgramThatCannotStartIsAClearError) {
  try {
    ChildProcess child({"/nonexistent/engine"});
    FAIL() << "started a program that does not exist";
  } catch (const ChildError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/engine"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ChildProcess({"zh-no-such-program-anywhere"}), ChildError);
}

}  // namespace
}  // namespace zh
