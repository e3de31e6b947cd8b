#include "bot/metrics/metrics.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <chrono>

#include "bot/metrics/health_probe.h"

namespace zh::bot {
namespace {

TEST(Metrics, RendersPrometheusText) {
  Metrics m;
  m.set_games_active(2);
  m.add_game_result("win");
  m.add_game_result("win");
  m.add_game_result("draw");
  m.add_move();
  m.add_stream_reconnect("event");
  m.add_http_response("move", 200);
  m.add_http_response("move", 429);
  m.add_http_response("account", 0);
  m.observe_move_overhead_ms(1.5);
  m.observe_move_overhead_ms(2.5);
  m.add_decline("tooFast");
  m.add_decline("tooFast");
  m.add_decline("casual");
  m.add_seek_challenge("180+2", true);
  m.add_seek_challenge("60+1", false);
  const std::string text = m.render();
  for (const char* line :
       {"zhbot_games_active 2\n", "zhbot_games_total{result=\"win\"} 2\n",
        "zhbot_games_total{result=\"draw\"} 1\n", "zhbot_games_total{result=\"loss\"} 0\n",
        "zhbot_moves_total 1\n", "zhbot_stream_reconnects_total{stream=\"event\"} 1\n",
        "zhbot_http_requests_total 3\n",
        "zhbot_http_errors_total{endpoint=\"move\",code=\"429\"} 1\n",
        "zhbot_http_errors_total{endpoint=\"account\",code=\"0\"} 1\n",
        "zhbot_move_overhead_ms_sum 4\n", "zhbot_move_overhead_ms_count 2\n",
        "zhbot_challenges_declined_total{reason=\"tooFast\"} 2\n",
        "zhbot_challenges_declined_total{reason=\"casual\"} 1\n",
        "zhbot_matchmaking_challenges_total{clock=\"180+2\",mode=\"rated\"} 1\n",
        "zhbot_matchmaking_challenges_total{clock=\"60+1\",mode=\"casual\"} 1\n",
        "# TYPE zhbot_games_total counter\n"})
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
  EXPECT_EQ(text.find("code=\"200\""), std::string::npos);
}

TEST(Metrics, OverheadQuantilesOverTheRecentWindow) {
  Metrics m;
  for (int i = 1; i <= 100; ++i) m.observe_move_overhead_ms(i);
  std::string text = m.render();
  EXPECT_NE(text.find("zhbot_move_overhead_ms{quantile=\"0.5\"} 51\n"), std::string::npos) << text;
  EXPECT_NE(text.find("zhbot_move_overhead_ms{quantile=\"0.99\"} 99\n"), std::string::npos);
  EXPECT_NE(text.find("zhbot_move_overhead_ms_max 100\n"), std::string::npos);
  // Old values leave the window.
  for (std::size_t i = 0; i < Metrics::kOverheadWindow; ++i) m.observe_move_overhead_ms(0.5);
  text = m.render();
  EXPECT_NE(text.find("zhbot_move_overhead_ms{quantile=\"0.99\"} 0.5\n"), std::string::npos);
}

TEST(HealthServer, HealthFollowsTheEventStreamAndMetricsAreServed) {
  Metrics m;
  HealthServer server(m, 0);
  server.start();
  ASSERT_GT(server.port(), 0);
  httplib::Client client("127.0.0.1", server.port());
  auto r = client.Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503);
  m.set_event_stream_connected(true);
  r = client.Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  r = client.Get("/metrics");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_NE(r->body.find("zhbot_event_stream_connected 1"), std::string::npos);
  server.stop();
}

TEST(HealthServer, AFailingEvaluatorMakesHealthzRedAndShowsInMetrics) {
  Metrics m;
  m.set_event_stream_connected(true);
  std::atomic<bool> healthy{true};
  m.set_evaluator_source([&] {
    EvaluatorFigures f;
    f.healthy = healthy.load();
    f.failures = healthy.load() ? 0 : 3;
    f.queue_wait_us = 250;
    f.forward_us = 1200;
    return f;
  });
  HealthServer server(m, 0);
  server.start();
  httplib::Client client("127.0.0.1", server.port());
  auto r = client.Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  healthy = false;
  r = client.Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503);
  EXPECT_NE(r->body.find("evaluator"), std::string::npos);
  r = client.Get("/metrics");
  ASSERT_TRUE(r);
  EXPECT_NE(r->body.find("zhbot_evaluator_healthy 0"), std::string::npos);
  EXPECT_NE(r->body.find("zhbot_inference_failures_total 3"), std::string::npos);
  EXPECT_NE(r->body.find("zhbot_inference_queue_wait_us 250"), std::string::npos);
  EXPECT_NE(r->body.find("zhbot_inference_forward_us 1200"), std::string::npos);
  healthy = true;
  r = client.Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  server.stop();
}

TEST(HealthServer, BusyPortIsAClearError) {
  Metrics m;
  HealthServer first(m, 0);
  first.start();
  HealthServer second(m, first.port());
  try {
    second.start();
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("metrics_port"), std::string::npos);
  }
}

TEST(HealthProbe, HealthyOnlyWhileTheServerAnswers200) {
  Metrics m;
  HealthServer server(m, 0);
  server.start();
  HealthProbeResult r = probe_health(server.port(), std::chrono::milliseconds(2000));
  EXPECT_FALSE(r.healthy);
  EXPECT_NE(r.detail.find("HTTP 503 event stream disconnected"), std::string::npos) << r.detail;
  m.set_event_stream_connected(true);
  r = probe_health(server.port(), std::chrono::milliseconds(2000));
  EXPECT_TRUE(r.healthy) << r.detail;
  EXPECT_NE(r.detail.find("HTTP 200 ok"), std::string::npos) << r.detail;
  const int port = server.port();
  server.stop();
  r = probe_health(port, std::chrono::milliseconds(2000));
  EXPECT_FALSE(r.healthy);
  EXPECT_NE(r.detail.find("no answer"), std::string::npos) << r.detail;
}

}  // namespace
}  // namespace zh::bot
