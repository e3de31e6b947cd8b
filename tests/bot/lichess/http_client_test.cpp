#include "bot/lichess/http_client.h"

#include <gtest/gtest.h>

#include <string>

#include "bot/lichess/redact.h"
#include "tests/bot/support/test_server.h"

namespace zh::bot {
namespace {

constexpr const char* kToken = "lip_HttpTestSecret0123456789";

HttpSettings settings_for(const test::TestServer& server) {
  HttpSettings s;
  s.base_url = server.base_url();
  s.token = kToken;
  s.user_agent = "zhbot/test";
  s.request_timeout = Millis(3000);
  return s;
}

TEST(HttpClient, SendsUserAgentBearerTokenAndFormBody) {
  test::TestServer server;
  std::string ua, auth, body, content_type;
  server.server().Post("/echo", [&](const httplib::Request& req, httplib::Response& res) {
    ua = req.get_header_value("User-Agent");
    auth = req.get_header_value("Authorization");
    content_type = req.get_header_value("Content-Type");
    body = req.body;
    res.set_content(R"({"ok":true})", "application/json");
  });
  server.start();
  HttpClient http(settings_for(server));
  const HttpResponse r = http.post("/echo", "room=player&text=hi+there");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, R"({"ok":true})");
  EXPECT_EQ(ua, "zhbot/test");
  EXPECT_EQ(auth, std::string("Bearer ") + kToken);
  EXPECT_EQ(content_type, "application/x-www-form-urlencoded");
  EXPECT_EQ(body, "room=player&text=hi+there");
}

TEST(HttpClient, ReportsStatusAndRetryAfter) {
  test::TestServer server;
  server.server().Get("/limited", [](const httplib::Request&, httplib::Response& res) {
    res.status = 429;
    res.set_header("Retry-After", "42");
    res.set_content("<html>too many requests</html>", "text/html");
  });
  server.start();
  HttpClient http(settings_for(server));
  const HttpResponse r = http.get("/limited");
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(r.retry_after_s, 42);
}

TEST(HttpClient, NetworkErrorIsStatusZeroAndNeverShowsTheToken) {
  register_secret(kToken);
  int port = 0;
  {
    test::TestServer closed;  // bind then close: the port is free, nobody listens
    closed.start();
    port = closed.port();
  }
  HttpSettings s;
  s.base_url = "http://127.0.0.1:" + std::to_string(port);
  s.token = kToken;
  HttpClient http(s);
  const HttpResponse r = http.get("/api/account");
  EXPECT_EQ(r.status, 0);
  EXPECT_FALSE(r.error.empty());
  EXPECT_EQ(r.error.find(kToken), std::string::npos);
}

TEST(HttpClient, RejectsBaseUrlsThatAreNotHttp) {
  HttpSettings s;
  s.base_url = "ftp://lichess.org";
  EXPECT_THROW(HttpClient{s}, std::invalid_argument);
  s.base_url = "lichess.org";
  EXPECT_THROW(HttpClient{s}, std::invalid_argument);
  s.base_url = "https://lichess.org/";
  HttpClient ok(s);
  EXPECT_EQ(ok.settings().base_url, "https://lichess.org");
}

TEST(HttpClient, UrlEncoding) {
  EXPECT_EQ(HttpClient::url_encode("Good luck & have fun!"), "Good+luck+%26+have+fun%21");
  EXPECT_EQ(HttpClient::url_encode("a=b\n"), "a%3Db%0A");
}

TEST(HttpClient, DescribeUrlMasksCredentials) {
  EXPECT_EQ(describe_url("https://user:pw@example.org/x"), "https://***@example.org/x");
  EXPECT_EQ(describe_url("https://lichess.org"), "https://lichess.org");
}

}  // namespace
}  // namespace zh::bot
