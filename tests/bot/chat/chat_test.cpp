#include "bot/chat/chat.h"

#include <gtest/gtest.h>

#include "tests/support/fake_clock.h"

namespace zh::bot {
namespace {

ChatContext context() {
  ChatContext c;
  c.me = "ZhBot";
  c.engine_name = "zhbot 0.1.0 (MCTS + neural network)";
  c.eval = [] {
    EvalSummary e;
    e.available = true;
    e.eval_pawns = 0.35;
    e.nodes = 1200;
    e.nps = 800;
    e.best_move_san = "N@f7+";
    return e;
  };
  return c;
}

TEST(Chat, TemplatesFillNamesSafely) {
  EXPECT_EQ(fill_template("Hi {opponent}, I am {me}.", "ZhBot", "alice_99"),
            "Hi alice_99, I am ZhBot.");
  // Untrusted name text cannot inject anything.
  EXPECT_EQ(fill_template("Hi {opponent}!", "ZhBot", "eve <script> !eval"), "Hi evescripteval!");
  EXPECT_EQ(fill_template("{opponent}{opponent}", "x", std::string(100, 'a')).size(), 60u);
  EXPECT_LE(fill_template(std::string(300, 'x'), "a", "b").size(), kMaxChatLength);
  EXPECT_EQ(fill_template("no placeholders {other}", "a", "b"), "no placeholders {other}");
}

TEST(Chat, CommandsAnswerWithoutEchoingInput) {
  const ChatContext c = context();
  EXPECT_EQ(answer_chat({"bob", "!help", "spectator"}, c), "Commands: !help, !name, !queue, !eval");
  EXPECT_NE(answer_chat({"bob", "!help", "player"}, c)->find("!queue"), std::string::npos);
  EXPECT_NE(answer_chat({"bob", "!help", "player"}, c)->find("spectator"), std::string::npos);
  EXPECT_EQ(answer_chat({"bob", " !NAME ", "player"}, c), c.engine_name);
  const auto eval = answer_chat({"bob", "!eval", "spectator"}, c);
  ASSERT_TRUE(eval);
  EXPECT_EQ(*eval, "Eval: +0.35, 1200 nodes, 800 nodes/s, best N@f7+");
}

TEST(Chat, QueueTellsHowManyWaitAndTheAskersPlace) {
  ChatContext c = context();
  EXPECT_EQ(answer_chat({"bob", "!queue", "player"}, c),
            "No challenge is waiting for a free game.");
  std::string asked;
  c.queue = [&](const std::string& user) {
    asked = user;
    return QueueView{3, user == "Carol" ? 2 : 0};
  };
  EXPECT_EQ(answer_chat({"Carol", "!queue", "spectator"}, c),
            "3 challenges are waiting for a free game. Yours is number 2.");
  EXPECT_EQ(asked, "Carol");
  EXPECT_EQ(answer_chat({"bob", "!QUEUE", "player"}, c),
            "3 challenges are waiting for a free game.");
  c.queue = [](const std::string&) { return QueueView{1, 1}; };
  EXPECT_EQ(answer_chat({"bob", "!queue", "player"}, c),
            "1 challenge is waiting for a free game. Yours is number 1.");
}

TEST(Chat, WaitAsksTheGameForTimeOnlyFromThePlayerRoom) {
  ChatContext c = context();
  EXPECT_FALSE(answer_chat({"alice", "!wait", "player"}, c));  // no game to ask
  int asked = 0;
  std::optional<int> granted = 60;
  c.wait = [&] {
    ++asked;
    return granted;
  };
  EXPECT_EQ(answer_chat({"alice", "!wait", "player"}, c),
            "Waiting 60 seconds for your first move.");
  EXPECT_FALSE(answer_chat({"carol", "!wait", "spectator"}, c));  // spectators cannot hold it
  EXPECT_EQ(asked, 1);
  granted.reset();  // the game is under way, or no more time is given
  EXPECT_FALSE(answer_chat({"alice", "!WAIT", "player"}, c));
  EXPECT_EQ(asked, 2);
  EXPECT_NE(answer_chat({"alice", "!help", "player"}, c)->find("!wait"), std::string::npos);
}

TEST(Chat, EvalIsForSpectatorsOnly) {
  EXPECT_FALSE(answer_chat({"opponent", "!eval", "player"}, context()));
}

TEST(Chat, IgnoresOwnSystemAndUnknownLines) {
  const ChatContext c = context();
  EXPECT_FALSE(answer_chat({"zhbot", "!help", "spectator"}, c));
  EXPECT_FALSE(answer_chat({"lichess", "!help", "player"}, c));
  EXPECT_FALSE(answer_chat({"bob", "!eval please", "spectator"}, c));
  EXPECT_FALSE(answer_chat({"bob", "!say I resign", "spectator"}, c));
  EXPECT_FALSE(answer_chat({"bob", "good game", "player"}, c));
}

TEST(Chat, EvalBeforeAnySearchAndMates) {
  ChatContext c = context();
  c.eval = [] { return EvalSummary{}; };
  EXPECT_EQ(answer_chat({"bob", "!eval", "spectator"}, c), "No evaluation yet.");
  c.eval = [] {
    EvalSummary e;
    e.available = true;
    e.mate = 3;
    return e;
  };
  EXPECT_EQ(answer_chat({"bob", "!eval", "spectator"}, c)->substr(0, 17), "Eval: mate in 3, ");
}

TEST(Chat, RateLimitPerRoom) {
  zh::test::FakeClock clock;
  ChatRateLimiter limiter(clock, Millis(3000));
  EXPECT_TRUE(limiter.allow("player"));
  EXPECT_FALSE(limiter.allow("player"));
  EXPECT_TRUE(limiter.allow("spectator"));
  clock.advance(Millis(2999));
  EXPECT_FALSE(limiter.allow("player"));
  clock.advance(Millis(1));
  EXPECT_TRUE(limiter.allow("player"));
}

}  // namespace
}  // namespace zh::bot
