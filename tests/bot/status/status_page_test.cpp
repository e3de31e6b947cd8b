// The status page is self-contained and served beside /metrics; nothing else is.
#include "bot/status/status_page.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <cctype>
#include <string>
#include <vector>

#include "bot/metrics/metrics.h"

namespace zh::bot {
namespace {

// Every "//host.tld", with its "http:" or "https:" before it if any: a name with a dot in
// it after "//" (a comment's "// text" has none).
std::vector<std::string> absolute_urls(const std::string& page) {
  const auto host_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-';
  };
  std::vector<std::string> urls;
  for (std::size_t at = page.find("//"); at != std::string::npos; at = page.find("//", at + 2)) {
    std::size_t end = at + 2;
    while (end < page.size() && host_char(page[end])) ++end;
    const std::string host = page.substr(at + 2, end - at - 2);
    if (host.find('.') == std::string::npos) continue;
    std::size_t begin = at;
    for (const char* scheme : {"https:", "http:"}) {
      const std::size_t n = std::char_traits<char>::length(scheme);
      if (at >= n && page.compare(at - n, n, scheme) == 0) {
        begin = at - n;
        break;
      }
    }
    urls.push_back(page.substr(begin, end - begin));
  }
  return urls;
}

TEST(StatusPage, LoadsNothingFromAnotherHost) {
  const std::string page(status_page_html());
  ASSERT_NE(page.find("<!DOCTYPE html>"), std::string::npos);
  ASSERT_NE(page.find("</html>"), std::string::npos);                // the whole file made it in
  EXPECT_NE(page.find("fetch(\"status.json\""), std::string::npos);  // relative: tunnels work
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find("@import"), std::string::npos);
  EXPECT_EQ(page.find("url("), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  // The only absolute URL is the SVG namespace, a name that is never fetched.
  for (const std::string& url : absolute_urls(page))
    EXPECT_EQ(url, "http://www.w3.org") << "the page names another host";
}

TEST(StatusPage, ServedBesideMetricsAndEverythingElseIs404) {
  Metrics metrics;
  HealthServer server(metrics, 0);
  server.add_page("/status.json", "application/json", [] { return std::string("{\"a\":1}"); });
  server.add_page("/status", "text/html; charset=utf-8",
                  [] { return std::string(status_page_html()); });
  server.start();
  httplib::Client client("127.0.0.1", server.port());
  auto res = client.Get("/status");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_EQ(res->body, std::string(status_page_html()));
  res = client.Get("/status.json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->body, "{\"a\":1}");
  EXPECT_EQ(res->get_header_value("Cache-Control"), "no-store");
  for (const char* other : {"/statusXjson", "/status.json.bak", "/", "/status/", "/../etc/passwd",
                            "/zhbot.yaml", "/favicon.ico"}) {
    res = client.Get(other);
    ASSERT_TRUE(res) << other;
    EXPECT_EQ(res->status, 404) << other;
  }
  ASSERT_TRUE(client.Get("/metrics"));
  EXPECT_EQ(client.Get("/metrics")->status, 200);
}

}  // namespace
}  // namespace zh::bot
