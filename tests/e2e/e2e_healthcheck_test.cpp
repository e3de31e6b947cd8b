// `zhbot healthcheck` (the container images' HEALTHCHECK) against the real daemon: it reads the
// metrics port from the daemon's own config file and exits 0 only while the daemon is connected.
#include <fstream>

#include "tests/e2e/e2e_fixture.h"
#include "tests/support/test_paths.h"

namespace zh::e2e {
namespace {

class E2eHealthcheck : public E2eTest {
 protected:
  // Runs `zhbot healthcheck --config <config>`; its output goes to healthcheck.log.
  ExitStatus healthcheck(const std::filesystem::path& config) {
    ChildProcess probe({zh::test::zhbot_bin(), "healthcheck", "--config", config.string()},
                       harness_child(dir_ / "healthcheck.log"));
    const auto status = probe.wait_exit(60s);
    return status ? *status : probe.stop();
  }

  static bool exited_with(const ExitStatus& s, int code) { return s.exited && s.code == code; }
};

TEST_F(E2eHealthcheck, ZeroWhileTheDaemonIsConnectedOneOnceItHasStopped) {
  start_emulator();
  const int port = free_loopback_port();
  ASSERT_GT(port, 0);
  BotProcess& bot = start_bot(settings().set("operations", "metrics_port", std::to_string(port)));
  const auto config = dir_ / "zhbot.yaml";  // the file the daemon runs with
  EXPECT_TRUE(eventually([&] { return exited_with(healthcheck(config), 0); }, 60s))
      << read_text(dir_ / "healthcheck.log");
  EXPECT_NE(read_text(dir_ / "healthcheck.log").find("HTTP 200"), std::string::npos);
  stop_now(bot);
  EXPECT_TRUE(exited_with(healthcheck(config), 1));
  EXPECT_NE(read_text(dir_ / "healthcheck.log").find("no answer"), std::string::npos)
      << read_text(dir_ / "healthcheck.log");
}

TEST_F(E2eHealthcheck, AConfigWithoutAMetricsPortIsUnhealthyAndSaysWhy) {
  start_emulator();
  const auto config = dir_ / "no-metrics.yaml";
  std::ofstream(config) << settings().set("operations", "metrics_port", "0").yaml();
  EXPECT_TRUE(exited_with(healthcheck(config), 1));
  EXPECT_NE(read_text(dir_ / "healthcheck.log").find("metrics_port is 0"), std::string::npos)
      << read_text(dir_ / "healthcheck.log");
}

}  // namespace
}  // namespace zh::e2e
