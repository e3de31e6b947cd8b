// Options declared once: a table declares each option with its default and fills its struct.
#include "engine/option_table.h"

#include <gtest/gtest.h>

#include "engine/search/params.h"
#include "engine/time/time_manager.h"

namespace zh {
namespace {

enum class Mode { kSlow, kFast };

struct Sample {
  int count;
  double share;
  float temperature;
  bool on;
  std::string name;
  std::string pick;
  Mode mode;
  std::vector<std::string> items;
};

const OptionTable<Sample> kTable{
    "sample",
    {
        {"count", &Sample::count, Int{3, 1, 9}, "a count", "Count_UCI"},
        {"share", &Sample::share, Float{0.5, 0, 1}, "a share"},
        {"temperature", &Sample::temperature, Float{1.5, 0.1, 10}, "a float field"},
        {"on", &Sample::on, Bool{true}, "a switch"},
        {"name", &Sample::name, Text{"zh"}, "a text"},
        {"pick", &Sample::pick, Choice{"b", {"a", "b"}}, "a choice"},
        {"mode", &Sample::mode, Enum<Mode>{"fast", {{"slow", Mode::kSlow}, {"fast", Mode::kFast}}},
         "an enum"},
        {"items", &Sample::items, List{"x, y", {"x", "y", "z"}}, "a checked list"},
    }};

TEST(OptionTable, DeclaresEachOptionOnceWithItsDefaultGroupAndHelp) {
  Options o;
  kTable.declare(o);
  ASSERT_EQ(o.all().size(), 8u);
  EXPECT_EQ(o.at("count").group, "sample");
  EXPECT_EQ(o.at("count").help, "a count");
  EXPECT_EQ(o.at("count").uci_name, "Count_UCI");
  EXPECT_EQ(o.get_int("count"), 3);
  EXPECT_EQ(o.at("mode").choices, (std::vector<std::string>{"slow", "fast"}));
  EXPECT_THROW(kTable.declare(o), std::logic_error);  // a second declaration is a bug
}

TEST(OptionTable, FillsTheStructFromTheCurrentValues) {
  const Sample d = kTable.defaults();
  EXPECT_EQ(d.count, 3);
  EXPECT_DOUBLE_EQ(d.share, 0.5);
  EXPECT_FLOAT_EQ(d.temperature, 1.5f);
  EXPECT_TRUE(d.on);
  EXPECT_EQ(d.name, "zh");
  EXPECT_EQ(d.pick, "b");
  EXPECT_EQ(d.mode, Mode::kFast);
  EXPECT_EQ(d.items, (std::vector<std::string>{"x", "y"}));

  Options o;
  kTable.declare(o);
  o.set("count", "7");
  o.set("on", "off");
  o.set("mode", "slow");
  o.set("items", "z");
  const Sample s = kTable.read(o);
  EXPECT_EQ(s.count, 7);
  EXPECT_FALSE(s.on);
  EXPECT_EQ(s.mode, Mode::kSlow);
  EXPECT_EQ(s.items, (std::vector<std::string>{"z"}));
}

TEST(OptionTable, AListItemOutsideTheAllowedSetNamesOptionItemAndChoices) {
  Options o;
  kTable.declare(o);
  o.set("items", "x, w");
  try {
    kTable.read(o);
    FAIL() << "expected OptionError";
  } catch (const OptionError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'items'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'w'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("x, y, z"), std::string::npos) << msg;
  }
}

TEST(OptionTable, EngineParamsComeFromTheirDeclarations) {
  // The defaults the paper gives live only in the declarations.
  Options o;
  SearchParams::declare(o);
  TimeParams::declare(o);
  EXPECT_EQ(SearchParams::from(o).threads, 2);
  EXPECT_DOUBLE_EQ(SearchParams::from(o).cpuct_init, 2.5);
  EXPECT_EQ(TimeParams::defaults().move_overhead_ms, 300);
  o.set("Move_Overhead", "120");
  o.set("time_jitter", "0.2");
  EXPECT_EQ(TimeParams::from(o).move_overhead_ms, 120);
  EXPECT_DOUBLE_EQ(TimeParams::from(o).jitter, 0.2);
}

}  // namespace
}  // namespace zh
