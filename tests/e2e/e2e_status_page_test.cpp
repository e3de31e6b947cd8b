// The status page as a person sees it (issue 66): the real daemon plays a game against the
// emulator while headless Chromium loads /status; the rendered DOM must show the game, its board
// (an SVG with pieces), both clocks and the challenge queue, and they must change as the game
// goes on. A screenshot of the page is kept with the run's files when the test fails.
#include <cctype>
#include <set>

#include "tests/e2e/e2e_fixture.h"
#include "tests/e2e/headless_browser.h"

namespace zh::e2e {
namespace {

constexpr auto kScriptBudget = 2500ms;  // virtual time for the page's first fetch and render

// What the rendered page shows of one game.
struct PageGame {
  bool present = false;
  int plies = -1;
  std::map<std::string, long> clock_ms;  // "white", "black"
  std::multiset<std::string> pieces;     // "e4:P", "pocket:n", ...
  bool board_svg = false;
};

// The attribute `name` of the first tag in `tag_text`, or "". (Read by hand: GCC 12 reports a
// false maybe-uninitialized inside <regex> in the sanitizer builds.)
std::string attribute(const std::string& tag_text, const std::string& name) {
  const std::string key = name + "=\"";
  for (auto at = tag_text.find(key); at != std::string::npos; at = tag_text.find(key, at + 1)) {
    const bool word_start =
        at == 0 ||
        !(std::isalnum(static_cast<unsigned char>(tag_text[at - 1])) || tag_text[at - 1] == '_');
    if (!word_start) continue;
    const auto begin = at + key.size();
    const auto end = tag_text.find('"', begin);
    return end == std::string::npos ? "" : tag_text.substr(begin, end - begin);
  }
  return "";
}

// Every opening tag of `dom` (`<name ...>`) whose class attribute starts with `cls`.
std::vector<std::string> tags_with_class(const std::string& dom, const std::string& cls) {
  std::vector<std::string> out;
  for (auto at = dom.find('<'); at != std::string::npos; at = dom.find('<', at + 1)) {
    auto name_end = at + 1;
    while (name_end < dom.size() && dom[name_end] >= 'a' && dom[name_end] <= 'z') ++name_end;
    if (name_end == at + 1 || name_end >= dom.size() || dom[name_end] != ' ') continue;
    const auto close = dom.find('>', name_end);
    if (close == std::string::npos) break;
    const std::string tag = dom.substr(at, close + 1 - at);
    if (tag.find("class=\"") != std::string::npos && attribute(tag, "class").rfind(cls, 0) == 0)
      out.push_back(tag);
  }
  return out;
}

PageGame read_game(const std::string& dom, const std::string& game_id) {
  PageGame g;
  const auto start = dom.find("<div class=\"game\" data-game-id=\"" + game_id + "\"");
  if (start == std::string::npos) return g;
  // The card runs to the next game card, or to the queue's section.
  auto end = dom.find("<div class=\"game\"", start + 1);
  if (end == std::string::npos) end = dom.find("id=\"queue\"", start);
  const std::string card = dom.substr(start, end == std::string::npos ? end : end - start);
  g.present = true;
  g.board_svg = card.find("<svg class=\"board\"") != std::string::npos;
  const std::string plies_tag = "<span class=\"plies\">";
  if (const auto at = card.find(plies_tag); at != std::string::npos)
    g.plies = std::stoi(card.substr(at + plies_tag.size()));
  for (const auto& tag : tags_with_class(card, "clock ")) {
    const std::string ms = attribute(tag, "data-ms");
    if (!ms.empty()) g.clock_ms[attribute(tag, "data-color")] = std::stol(ms);
  }
  for (const auto& tag : tags_with_class(card, "piece"))
    g.pieces.insert(attribute(tag, "data-square") + ":" + attribute(tag, "data-piece"));
  return g;
}

class E2eStatusPage : public E2eTest {};

TEST_F(E2eStatusPage, ShowsTheGameItsBoardClocksAndQueueAndFollowsTheGame) {
  const auto chromium = HeadlessBrowser::find();
  if (!chromium) GTEST_SKIP() << "chromium is not installed (deploy/install-deps.sh installs it)";
  start_emulator({"--challenge-ttl-ms", "120000"});
  const int port = free_loopback_port();
  ASSERT_GT(port, 0);
  BotSettings s = settings();
  s.set("operations", "metrics_port", std::to_string(port))
      .set("challenge", "max_concurrent_games", "1");
  BotProcess& bot = start_bot(s);
  ASSERT_TRUE(bot.wait_log("event stream connected", 30s)) << bot.log();

  // A slow opponent (a move every 700 ms, resigning at ply 40) leaves time to look twice.
  const Json slow = {{"type", "random"}, {"resign_at_ply", 40}, {"delay_ms", 700}};
  const std::string game = accepted_game(emu_->challenge(challenge_spec("Ann", false, slow, 300)));
  ASSERT_FALSE(game.empty());
  // One challenge waits for the slot; a correspondence one is declined.
  const std::string waiting = emu_->challenge(challenge_spec("Bob", false, slow, 180, 2));
  Json days = challenge_spec("Corr", false, engine_opponent(), 180, 0);
  days["days"] = 3;
  const std::string declined = emu_->challenge(days);
  ASSERT_EQ(declined_reason(declined), "tooslow");  // lichess lower-cases the key
  ASSERT_TRUE(bot.wait_log("waits for a free slot", 20s)) << bot.log();
  emu_->wait_plies(game, 4, 60s);

  HeadlessBrowser browser(*chromium, dir_);
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/status";
  const std::string first_dom = browser.dump_dom(url, kScriptBudget);
  ASSERT_FALSE(first_dom.empty()) << read_text(dir_ / "chromium-dom-1.log");
  const PageGame first = read_game(first_dom, game);
  const bool shot = browser.screenshot(url, dir_ / "status-page.png", kScriptBudget);
  ASSERT_TRUE(first.present) << first_dom;
  EXPECT_TRUE(first.board_svg);
  EXPECT_GE(first.pieces.size(), 20u);  // 32 at the start; captures go to the pockets
  EXPECT_GE(first.plies, 4);
  EXPECT_EQ(first.clock_ms.size(), 2u) << "both clocks";
  EXPECT_NE(first_dom.find("data-challenge-id=\"" + waiting + "\""), std::string::npos)
      << "the queued challenge";
  EXPECT_NE(first_dom.find("tooSlow"), std::string::npos) << "the decline and its reason";
  EXPECT_NE(first_dom.find("Ann"), std::string::npos) << "the opponent";
  EXPECT_NE(first_dom.find("healthy"), std::string::npos);
  EXPECT_TRUE(shot) << read_text(dir_ / "chromium-screenshot.log");

  // Some plies later the page shows the game moved on.
  emu_->wait_plies(game, first.plies + 4, 60s);
  const std::string second_dom = browser.dump_dom(url, kScriptBudget);
  const PageGame second = read_game(second_dom, game);
  if (second.present) {
    EXPECT_GT(second.plies, first.plies);
    EXPECT_NE(second.pieces, first.pieces) << "the board follows the moves";
    EXPECT_NE(second.clock_ms, first.clock_ms) << "the clocks run";
  } else {
    // Over already: then it heads the finished games.
    EXPECT_NE(second_dom.find("<tr data-game-id=\"" + game + "\""), std::string::npos)
        << second_dom;
  }
  expect_clean_finish(game, 120s);
  // Once over, the game leaves the live list for the finished ones.
  const std::string after = browser.dump_dom(url, kScriptBudget);
  EXPECT_FALSE(read_game(after, game).present);
  EXPECT_NE(after.find("<tr data-game-id=\"" + game + "\""), std::string::npos) << after;
}

}  // namespace
}  // namespace zh::e2e
