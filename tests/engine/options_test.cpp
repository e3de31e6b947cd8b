#include "engine/options.h"

#include <gtest/gtest.h>

namespace zh {
namespace {

Options sample() {
  Options o;
  o.add_bool("ponder", false, "uci", "think on the opponent's time", "Ponder");
  o.add_int("threads", 2, 1, 256, "search", "search threads", "Threads");
  o.add_float("cpuct_init", 2.5, 0.0, 100.0, "search", "exploration constant");
  o.add_string("model", "", "evaluator", "TorchScript file");
  o.add_combo("backend", "uniform", {"uniform", "material", "torch"}, "evaluator", "backend");
  return o;
}

TEST(Options, DefaultsAreTypedAndReadable) {
  const Options o = sample();
  EXPECT_FALSE(o.get_bool("ponder"));
  EXPECT_EQ(o.get_int("threads"), 2);
  EXPECT_DOUBLE_EQ(o.get_float("cpuct_init"), 2.5);
  EXPECT_EQ(o.get_string("model"), "");
  EXPECT_EQ(o.get_string("backend"), "uniform");
  ASSERT_EQ(o.all().size(), 5u);
  EXPECT_EQ(o.all()[2].uci_name, "Cpuct_Init");
}

TEST(Options, LookupIgnoresCaseAndSeparators) {
  Options o = sample();
  o.set("CPuct-Init", "3.25");
  EXPECT_DOUBLE_EQ(o.get_float("cpuct_init"), 3.25);
  o.set("Threads", "4");
  EXPECT_EQ(o.get_int("THREADS"), 4);
  o.set("backend", "Torch");  // combo choices are case-insensitive, stored as declared
  EXPECT_EQ(o.get_string("backend"), "torch");
  o.set("ponder", "on");
  EXPECT_TRUE(o.get_bool("Ponder"));
}

TEST(Options, BadValuesNameTheOptionTheValueAndWhatIsAllowed) {
  Options o = sample();
  try {
    o.set("threads", "0");
    FAIL() << "0 threads accepted";
  } catch (const OptionError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("threads"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'0'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[1, 256]"), std::string::npos) << msg;
  }
  EXPECT_THROW(o.set("threads", "2x"), OptionError);
  EXPECT_THROW(o.set("cpuct_init", "nan"), OptionError);
  EXPECT_THROW(o.set("cpuct_init", "-1"), OptionError);
  EXPECT_THROW(o.set("ponder", "maybe"), OptionError);
  EXPECT_THROW(o.set("backend", "onnx"), OptionError);
  EXPECT_THROW(o.set("no_such_option", "1"), OptionError);
  EXPECT_THROW((void)o.get_int("cpuct_init"), OptionError);
  // A rejected value leaves the old one in place.
  EXPECT_EQ(o.get_int("threads"), 2);
}

TEST(Options, UciLinesFollowTheProtocol) {
  const Options o = sample();
  EXPECT_EQ(Options::uci_line(o.at("ponder")), "option name Ponder type check default false");
  EXPECT_EQ(Options::uci_line(o.at("threads")),
            "option name Threads type spin default 2 min 1 max 256");
  EXPECT_EQ(Options::uci_line(o.at("model")), "option name Model type string default <empty>");
  EXPECT_EQ(Options::uci_line(o.at("backend")),
            "option name Backend type combo default uniform var uniform var material var torch");
  Options m = sample();
  m.set("model", "<empty>");
  EXPECT_EQ(m.get_string("model"), "");
}

TEST(Options, DeclarationErrorsAreCaught) {
  Options o = sample();
  EXPECT_THROW(o.add_int("threads", 1, 1, 2, "x", "dup"), std::logic_error);
  EXPECT_THROW(o.add_int("n", 5, 1, 2, "x", "out of range"), std::logic_error);
  EXPECT_THROW(o.add_combo("c", "z", {"a", "b"}, "x", "bad default"), std::logic_error);
}

TEST(Options, ResetAndHelp) {
  Options o = sample();
  o.set("threads", "8");
  o.reset_to_defaults();
  EXPECT_EQ(o.get_int("threads"), 2);
  const std::string help = o.help_text();
  EXPECT_NE(help.find("[search]"), std::string::npos);
  EXPECT_NE(help.find("threads (int, default 2; an integer in [1, 256])"), std::string::npos)
      << help;
}

}  // namespace
}  // namespace zh
