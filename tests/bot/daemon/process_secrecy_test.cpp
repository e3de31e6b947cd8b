#include "bot/daemon/process_secrecy.h"

#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace zh::bot {
namespace {

// Everything a child started with the default (inherited) environment sees.
std::string child_environment() {
  std::string out;
  FILE* pipe = ::popen("env", "r");
  if (!pipe) return out;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

TEST(ProcessSecrecy, AScrubbedVariableIsGoneForThisProcessAndItsChildren) {
  ::setenv("ZH_SECRECY_TEST_TOKEN", "lip_childMustNotSee42", 1);
  ASSERT_NE(child_environment().find("lip_childMustNotSee42"), std::string::npos)
      << "the test cannot see a child's environment";
  char* before = std::getenv("ZH_SECRECY_TEST_TOKEN");
  scrub_environment_variable("ZH_SECRECY_TEST_TOKEN");
  EXPECT_EQ(std::getenv("ZH_SECRECY_TEST_TOKEN"), nullptr);
  // The bytes themselves are overwritten (the start-up environment block is what
  // /proc/<pid>/environ shows), not just unlinked from environ.
  EXPECT_EQ(std::string(before).find("lip_"), std::string::npos);
  const std::string env = child_environment();
  EXPECT_EQ(env.find("lip_childMustNotSee42"), std::string::npos);
  EXPECT_EQ(env.find("ZH_SECRECY_TEST_TOKEN"), std::string::npos);
}

TEST(ProcessSecrecy, ScrubbingAnUnsetVariableIsHarmless) {
  ::unsetenv("ZH_SECRECY_TEST_UNSET");
  scrub_environment_variable("ZH_SECRECY_TEST_UNSET");
  EXPECT_EQ(std::getenv("ZH_SECRECY_TEST_UNSET"), nullptr);
}

TEST(ProcessSecrecy, AProcessThatDisabledCoreDumpsCrashesWithoutACore) {
  // In a child: the settings change the whole process, and it has to crash.
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // Ask for cores first, as a generous system would, so the call has something to undo.
    rlimit unlimited{RLIM_INFINITY, RLIM_INFINITY};
    ::setrlimit(RLIMIT_CORE, &unlimited);
    if (!disable_core_dumps()) ::_exit(3);
    rlimit now{};
    ::getrlimit(RLIMIT_CORE, &now);
    if (now.rlim_cur != 0 || now.rlim_max != 0) ::_exit(4);
    if (::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0) ::_exit(5);
    ::chdir(::testing::TempDir().c_str());  // a core, if any, would land here
    std::signal(SIGABRT, SIG_DFL);
    std::abort();  // a core-dumping signal
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << "child exited with " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGABRT);
  EXPECT_FALSE(WCOREDUMP(status)) << "the kernel wrote a core dump";
}

}  // namespace
}  // namespace zh::bot
