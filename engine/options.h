#pragma once
// Typed options, declared once with their default and help text. The same declarations feed
// UCI `option` lines, the YAML config schema and --help, so there is no second set of defaults.
//
// Names are snake_case (the YAML key). Lookup ignores case and treats '_', '-' and ' ' alike,
// so `cpuct_init`, `--cpuct-init` and UCI `CPuct_Init` all name the same option. An option may
// carry a conventional UCI spelling (`Threads`, `UCI_Variant`) for GUIs that look for it.

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace zh {

// Thrown for an unknown option or a value it does not allow; the message names the option,
// the value and what is allowed.
class OptionError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

enum class OptionType { kBool, kInt, kFloat, kString, kCombo };

using OptionValue = std::variant<bool, std::int64_t, double, std::string>;

struct Option {
  std::string name;      // snake_case, the YAML key
  std::string uci_name;  // the UCI spelling
  std::string group;     // "search", "time", "evaluator", ... (a YAML section)
  std::string help;
  OptionType type = OptionType::kBool;
  OptionValue default_value;
  OptionValue value;
  double min = 0;  // kInt / kFloat
  double max = 0;
  std::vector<std::string> choices;  // kCombo
  bool user_set = false;             // given by set()/set_value() (not a default)

  std::string type_name() const;                   // "bool", "int", "float", "string", "combo"
  std::string format(const OptionValue& v) const;  // text form of a value of this option
  std::string allowed() const;                     // "an integer in [1, 256]", "one of a, b"
};

class Options {
 public:
  // --- declaration (throws std::logic_error on a duplicate name or a default out of range) ---
  void add_bool(std::string_view name, bool default_value, std::string_view group,
                std::string_view help, std::string_view uci_name = {});
  void add_int(std::string_view name, std::int64_t default_value, std::int64_t min,
               std::int64_t max, std::string_view group, std::string_view help,
               std::string_view uci_name = {});
  void add_float(std::string_view name, double default_value, double min, double max,
                 std::string_view group, std::string_view help, std::string_view uci_name = {});
  void add_string(std::string_view name, std::string_view default_value, std::string_view group,
                  std::string_view help, std::string_view uci_name = {});
  void add_combo(std::string_view name, std::string_view default_value,
                 std::vector<std::string> choices, std::string_view group, std::string_view help,
                 std::string_view uci_name = {});

  // --- typed access (throws OptionError for an unknown name or the wrong type) ---
  bool get_bool(std::string_view name) const;
  std::int64_t get_int(std::string_view name) const;
  double get_float(std::string_view name) const;
  const std::string& get_string(std::string_view name) const;  // kString and kCombo

  // Parses text ("true"/"false"/"on"/"off"/"1"/"0", numbers, combo choices, any string) and
  // stores it; throws OptionError naming the option, the value and what is allowed.
  void set(std::string_view name, std::string_view text);
  // Typed setters with the same range checks.
  void set_value(std::string_view name, const OptionValue& value);
  // A default that depends on other options (GPU-sized values on CUDA): replaces the value
  // unless set() or set_value() gave one. Throws like set().
  void set_default(std::string_view name, std::string_view text);
  void reset_to_defaults();

  bool contains(std::string_view name) const { return find(name) != nullptr; }
  const Option* find(std::string_view name) const;
  const Option& at(std::string_view name) const;  // throws OptionError
  // Every option in declaration order.
  const std::vector<Option>& all() const { return options_; }

  // `option name Threads type spin default 2 min 1 max 256` (UCI protocol form).
  static std::string uci_line(const Option& o);
  // Human-readable reference of every option, grouped, for --help and docs.
  std::string help_text() const;

 private:
  void add(Option o);
  Option& mutable_at(std::string_view name);
  static void assign(Option& o, std::string_view text);  // parse, check, store
  static std::string normalise(std::string_view name);

  std::vector<Option> options_;
  std::map<std::string, std::size_t> index_;  // normalised name -> position in options_
};

}  // namespace zh
