#pragma once
// A LichessClient that talks to a TestServer on 127.0.0.1, for tests of the bot's lichess side.

#include <memory>
#include <string>

#include "bot/lichess/http_client.h"
#include "bot/lichess/lichess_client.h"
#include "tests/bot/support/test_server.h"

namespace zh::bot::test {

struct LoopbackClient {
  // The server must be started; jitter is fixed at the midpoint so backoffs are exact.
  LoopbackClient(const TestServer& server, Clock& clock) {
    HttpSettings settings;
    settings.base_url = server.base_url();
    settings.token = "lip_LoopbackTestToken";
    http = std::make_unique<HttpClient>(settings);
    client = std::make_unique<LichessClient>(
        *http, clock, [] { return 0.5; }, cancel);
  }

  CancelToken cancel;
  std::unique_ptr<HttpClient> http;
  std::unique_ptr<LichessClient> client;
};

}  // namespace zh::bot::test
