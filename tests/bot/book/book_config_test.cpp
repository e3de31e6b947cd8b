#include "bot/config/book_config.h"

#include <gtest/gtest.h>

#include "bot/config/config_file.h"
#include "bot/config/load_config.h"

namespace zh::bot {
namespace {

std::string error_of(const std::string& yaml) {
  Options o;
  declare_all_options(o);
  try {
    apply_config_text(yaml, "test.yaml", o);
    BotConfig::from(o);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

TEST(BookConfig, IsOffByDefault) {
  const BotConfig c = BotConfig::defaults();
  EXPECT_FALSE(c.book.enabled);
  EXPECT_FALSE(c.book.explorer);
  EXPECT_EQ(c.book.selection, book::Selection::kWeighted);
  // lichess's explorer host since March 2026 (the .ovh one answers nothing without a token).
  EXPECT_EQ(c.book.explorer_url, "https://explorer.lichess.org/lichess");
  EXPECT_FALSE(c.book.explorer_send_token);
}

TEST(BookConfig, TheTokenGoesInClearTextToNoOtherMachine) {
  EXPECT_NE(error_of("book:\n  book_explorer_url: http://explorer.example/lichess\n"
                     "  book_explorer_send_token: true\n")
                .find("option 'book_explorer_send_token'"),
            std::string::npos);
  EXPECT_EQ(error_of("book:\n  book_explorer_url: https://explorer.example/lichess\n"
                     "  book_explorer_send_token: true\n"),
            "no error");
  EXPECT_EQ(error_of("book:\n  book_explorer_url: http://127.0.0.1:9/lichess\n"
                     "  book_explorer_send_token: true\n"),
            "no error");
}

TEST(BookConfig, ReadsTheBookSection) {
  Options o;
  declare_all_options(o);
  apply_config_text(
      "book:\n  book_enabled: true\n  book_file: my.book\n  book_max_ply: 10\n"
      "  book_selection: best\n  book_min_weight: 5\n",
      "test.yaml", o);
  const BookConfig c = BotConfig::from(o).book;
  EXPECT_TRUE(c.enabled);
  EXPECT_EQ(c.file, "my.book");
  EXPECT_EQ(c.max_ply, 10);
  EXPECT_EQ(c.min_weight, 5);
  EXPECT_EQ(c.selection, book::Selection::kBest);
}

TEST(BookConfig, RefusesBadValuesByKey) {
  EXPECT_NE(error_of("book:\n  book_selection: random\n").find("book.book_selection"),
            std::string::npos);
  EXPECT_NE(error_of("book:\n  book_max_ply: -1\n").find("book.book_max_ply"), std::string::npos);
  EXPECT_NE(
      error_of("book:\n  book_explorer_timeout_ms: 60000\n").find("book.book_explorer_timeout_ms"),
      std::string::npos);
  EXPECT_NE(error_of("book:\n  book_enabled: true\n").find("option 'book_file'"),
            std::string::npos);
  EXPECT_EQ(error_of("book:\n  book_enabled: true\n  book_explorer: true\n"), "no error");
  EXPECT_NE(error_of("book:\n  book_explorer_url: ftp://x\n").find("option 'book_explorer_url'"),
            std::string::npos);
  EXPECT_NE(error_of("book:\n  enabled: true\n").find("unknown key 'book.enabled'"),
            std::string::npos);
}

}  // namespace
}  // namespace zh::bot
