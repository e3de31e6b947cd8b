#include "bot/lichess/stream_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/bot/support/test_server.h"
#include "tests/support/fake_clock.h"

namespace zh::bot {
namespace {

using namespace std::chrono_literals;

// Each test drives the runner against a real loopback server; the fake clock makes backoff and
// rate-limit pauses instant, so every case finishes in well under a few seconds.
class StreamRunnerTest : public ::testing::Test {
 protected:
  StreamStop run(const StreamCallbacks& callbacks) {
    server_.start();
    HttpSettings s;
    s.base_url = server_.base_url();
    s.token = "lip_StreamTestSecret";
    http_ = std::make_unique<HttpClient>(s);
    StreamOptions options;
    options.endpoint = "stream-event";
    options.path = "/api/stream/event";
    options.idle_timeout = Millis(20000);
    options.backoff.jitter = 0.0;
    StreamRunner runner(
        *http_, gate_, clock_, [] { return 0.5; }, options);
    const StreamStop stop = runner.run(callbacks, cancel_);
    connects_ = runner.connects();
    return stop;
  }

  // Serves `chunks` as one chunked 200 response; a final "" chunk means "reset the connection".
  void serve(std::function<std::vector<std::string>(int connection)> script) {
    server_.server().Get("/api/stream/event",
                         [this, script](const httplib::Request&, httplib::Response& res) {
                           const int n = ++hits_;
                           auto chunks = std::make_shared<std::vector<std::string>>(script(n));
                           res.set_chunked_content_provider(
                               "application/x-ndjson", [chunks](size_t, httplib::DataSink& sink) {
                                 for (const auto& c : *chunks) {
                                   if (c.empty())
                                     return false;  // abrupt close: no terminating chunk
                                   sink.write(c.data(), c.size());
                                   std::this_thread::sleep_for(2ms);  // separate TCP reads
                                 }
                                 sink.done();
                                 return true;
                               });
                         });
  }

  test::TestServer server_;
  zh::test::FakeClock clock_;
  RateLimitGate gate_{clock_};
  CancelToken cancel_;
  std::unique_ptr<HttpClient> http_;
  std::atomic<int> hits_{0};
  int connects_ = 0;
};

TEST_F(StreamRunnerTest, ReassemblesSplitLinesAndReconnectsAfterTheServerCloses) {
  serve([](int n) {
    return std::vector<std::string>{"\n", "{\"n\":", std::to_string(n) + "}\r", "\n\n"};
  });
  std::vector<std::string> lines;
  StreamCallbacks cb;
  cb.on_line = [&](std::string_view line) {
    lines.emplace_back(line);
    return lines.size() < 3;
  };
  EXPECT_EQ(run(cb), StreamStop::kHandlerDone);
  EXPECT_EQ(lines, (std::vector<std::string>{"{\"n\":1}", "{\"n\":2}", "{\"n\":3}"}));
  EXPECT_EQ(connects_, 3);
  // A healthy connection resets the backoff: every reconnect waits the initial 1 s.
  EXPECT_EQ(clock_.sleeps(), (std::vector<Millis>{Millis(1000), Millis(1000)}));
}

TEST_F(StreamRunnerTest, ConnectionResetMidLineDropsThePartialLine) {
  serve([](int n) {
    if (n == 1) return std::vector<std::string>{"{\"half\":", ""};
    return std::vector<std::string>{"{\"whole\":1}\n"};
  });
  std::vector<std::string> lines;
  std::vector<StreamEnd> ends;
  StreamCallbacks cb;
  cb.on_line = [&](std::string_view line) {
    lines.emplace_back(line);
    return false;
  };
  cb.on_disconnected = [&](const StreamResult& r, Millis) { ends.push_back(r.end); };
  EXPECT_EQ(run(cb), StreamStop::kHandlerDone);
  EXPECT_EQ(lines, (std::vector<std::string>{"{\"whole\":1}"}));
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_EQ(ends[0], StreamEnd::kNetworkError);
}

TEST_F(StreamRunnerTest, NoBytesForTwentySecondsIsADeadStream) {
  std::atomic<bool> stalled{false}, release{false};
  server_.server().Get("/api/stream/event", [&](const httplib::Request&, httplib::Response& res) {
    const int n = ++hits_;
    res.set_chunked_content_provider("application/x-ndjson",
                                     [&, n](size_t, httplib::DataSink& sink) {
                                       if (n == 1) {
                                         // Silent until the client gave up on it (10 s
                                         // at most, which would end it as a network error).
                                         sink.write("\n", 1);
                                         stalled = true;
                                         for (int i = 0; i < 200 && !release; ++i)
                                           std::this_thread::sleep_for(50ms);
                                         return false;
                                       }
                                       sink.write("{\"second\":1}\n", 13);
                                       sink.done();
                                       return true;
                                     });
  });
  // The clock moves a second at a time until the stream is declared dead: one jump of 20 s
  // could land before the client has read the last byte (a loaded machine, a sanitizer
  // build), which would restart its idle count at the advanced time and never end it.
  std::thread advancer([&] {
    for (int i = 0; i < 3000 && !stalled; ++i) std::this_thread::sleep_for(10ms);
    for (int i = 0; i < 3000 && !release; ++i) {
      clock_.advance(Millis(1000));
      std::this_thread::sleep_for(10ms);
    }
  });
  std::vector<StreamEnd> ends;
  StreamCallbacks cb;
  cb.on_line = [&](std::string_view) { return false; };
  cb.on_disconnected = [&](const StreamResult& r, Millis) {
    ends.push_back(r.end);
    release = true;
  };
  EXPECT_EQ(run(cb), StreamStop::kHandlerDone);
  advancer.join();
  release = true;
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_EQ(ends[0], StreamEnd::kIdleTimeout);
  EXPECT_EQ(hits_.load(), 2);
}

TEST_F(StreamRunnerTest, RateLimitedOpenWaitsTheServersSeconds) {
  server_.server().Get("/api/stream/event", [&](const httplib::Request&, httplib::Response& res) {
    if (++hits_ == 1) {
      res.status = 429;
      res.set_content(R"({"error":"Please don't poll","ratelimit":{"seconds":120}})",
                      "application/json");
      return;
    }
    res.set_content("{\"ok\":1}\n", "application/x-ndjson");
  });
  StreamCallbacks cb;
  cb.on_line = [&](std::string_view) { return false; };
  EXPECT_EQ(run(cb), StreamStop::kHandlerDone);
  EXPECT_EQ(hits_.load(), 2);
  EXPECT_EQ(clock_.sleeps(), (std::vector<Millis>{Millis(120000)}));
}

TEST_F(StreamRunnerTest, RateLimitedOpenWithoutBodyWaitsAMinute) {
  server_.server().Get("/api/stream/event", [&](const httplib::Request&, httplib::Response& res) {
    if (++hits_ == 1) {
      res.status = 429;
      return;
    }
    res.set_content("{\"ok\":1}\n", "application/x-ndjson");
  });
  StreamCallbacks cb;
  cb.on_line = [&](std::string_view) { return false; };
  EXPECT_EQ(run(cb), StreamStop::kHandlerDone);
  EXPECT_EQ(clock_.sleeps(), (std::vector<Millis>{Millis(60000)}));
}

TEST_F(StreamRunnerTest, ServerErrorsBackOffExponentially) {
  server_.server().Get("/api/stream/event", [&](const httplib::Request&, httplib::Response& res) {
    if (++hits_ <= 3) {
      res.status = 500;
      return;
    }
    res.set_content("{\"ok\":1}\n", "application/x-ndjson");
  });
  StreamCallbacks cb;
  cb.on_line = [&](std::string_view) { return false; };
  EXPECT_EQ(run(cb), StreamStop::kHandlerDone);
  EXPECT_EQ(clock_.sleeps(), (std::vector<Millis>{Millis(1000), Millis(2000), Millis(4000)}));
}

TEST_F(StreamRunnerTest, UnauthorizedAndNotFoundStopWithoutRetrying) {
  server_.server().Get("/api/stream/event", [&](const httplib::Request&, httplib::Response& res) {
    res.status = ++hits_ == 1 ? 401 : 404;
  });
  StreamCallbacks cb;
  cb.on_line = [&](std::string_view) { return true; };
  EXPECT_EQ(run(cb), StreamStop::kUnauthorized);
  EXPECT_EQ(hits_.load(), 1);
}

TEST_F(StreamRunnerTest, AThrowingHandlerDoesNotKillTheStream) {
  serve([](int) { return std::vector<std::string>{"garbage\n", "{\"good\":1}\n"}; });
  int calls = 0;
  StreamCallbacks cb;
  cb.on_line = [&](std::string_view line) -> bool {
    ++calls;
    if (line == "garbage") throw std::runtime_error("bad line");
    return false;
  };
  EXPECT_EQ(run(cb), StreamStop::kHandlerDone);
  EXPECT_EQ(calls, 2);
}

TEST_F(StreamRunnerTest, CancelStopsAStalledStreamPromptly) {
  // The server holds the stream open until run() returned (10 s at most): a run() that
  // returns before is one the cancellation ended.
  std::atomic<bool> release{false}, server_gave_up{false};
  server_.server().Get("/api/stream/event", [&](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("application/x-ndjson", [&](size_t, httplib::DataSink& sink) {
      sink.write("\n", 1);
      for (int i = 0; i < 200 && !release; ++i) std::this_thread::sleep_for(50ms);
      server_gave_up = !release;
      return false;
    });
  });
  std::atomic<bool> connected{false};
  std::thread canceller([&] {
    for (int i = 0; i < 3000 && !connected; ++i) std::this_thread::sleep_for(10ms);
    cancel_.cancel();
  });
  StreamCallbacks cb;
  cb.on_line = [&](std::string_view) { return true; };
  cb.on_connected = [&] { connected = true; };
  EXPECT_EQ(run(cb), StreamStop::kCancelled);
  EXPECT_FALSE(server_gave_up) << "run() returned only when the server closed the stream";
  release = true;
  canceller.join();
}

}  // namespace
}  // namespace zh::bot
