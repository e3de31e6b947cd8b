#pragma once
// One declaration per option, as lc0 declares its OptionIds: the name, the typed default with
// its range, the help text and the struct field the value goes to, in one line. A table
// declares its options on an Options object and fills its struct from one, so an option's name
// is written once and its default exists only here (the structs carry none of their own).
//
//   const OptionTable<TimeParams> kTable{"time", {
//       {"move_overhead_ms", &TimeParams::move_overhead_ms, Int{300, 0, 60000}, "help"},
//   }};
//   kTable.declare(options);                  // adds the option with its default
//   TimeParams p = kTable.read(options);      // p.move_overhead_ms = the current value

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/options.h"
#include "engine/util/strings.h"

namespace zh {

// The typed defaults (and ranges) a field may be declared with.
struct Int {
  std::int64_t value, min, max;
};
struct Float {
  double value, min, max;
};
struct Bool {
  bool value;
};
struct Text {
  std::string_view value;
};
// One of a fixed set, read as the chosen text. The default is owned: one worked out at run
// time (the evaluator backend of highest priority) may be given.
struct Choice {
  std::string value;
  std::vector<std::string> choices;
};
template <class E>
struct Enum {  // one of a fixed set, read as the enum value that goes with it
  std::string_view value;
  std::vector<std::pair<std::string, E>> choices;
};
struct List {  // comma-separated; when `allowed` is not empty every item must be one of it
  std::string_view value;
  std::vector<std::string> allowed;
};

template <class Config>
class OptionField {
 public:
  template <class Member, class Spec>
  OptionField(std::string_view name, Member Config::*field, Spec spec, std::string_view help,
              std::string_view uci_name = {}) {
    declare_ = [=, name = std::string(name), help = std::string(help), uci = std::string(uci_name)](
                   Options& o, std::string_view group) {
      declare_spec(o, name, spec, group, help, uci);
    };
    read_ = [field, name = std::string(name), spec](const Options& o, Config& c) {
      c.*field = read_spec<Member>(o, name, spec);
    };
  }

  void declare(Options& o, std::string_view group) const { declare_(o, group); }
  void read(const Options& o, Config& c) const { read_(o, c); }

 private:
  static void declare_spec(Options& o, const std::string& n, const Int& s, std::string_view g,
                           const std::string& h, const std::string& u) {
    o.add_int(n, s.value, s.min, s.max, g, h, u);
  }
  static void declare_spec(Options& o, const std::string& n, const Float& s, std::string_view g,
                           const std::string& h, const std::string& u) {
    o.add_float(n, s.value, s.min, s.max, g, h, u);
  }
  static void declare_spec(Options& o, const std::string& n, const Bool& s, std::string_view g,
                           const std::string& h, const std::string& u) {
    o.add_bool(n, s.value, g, h, u);
  }
  static void declare_spec(Options& o, const std::string& n, const Text& s, std::string_view g,
                           const std::string& h, const std::string& u) {
    o.add_string(n, s.value, g, h, u);
  }
  static void declare_spec(Options& o, const std::string& n, const List& s, std::string_view g,
                           const std::string& h, const std::string& u) {
    o.add_string(n, s.value, g, h, u);
  }
  static void declare_spec(Options& o, const std::string& n, const Choice& s, std::string_view g,
                           const std::string& h, const std::string& u) {
    o.add_combo(n, s.value, s.choices, g, h, u);
  }
  template <class E>
  static void declare_spec(Options& o, const std::string& n, const Enum<E>& s, std::string_view g,
                           const std::string& h, const std::string& u) {
    std::vector<std::string> names;
    for (const auto& [text, value] : s.choices) names.push_back(text);
    o.add_combo(n, s.value, std::move(names), g, h, u);
  }

  template <class Member>
  static Member read_spec(const Options& o, const std::string& n, const Int&) {
    return static_cast<Member>(o.get_int(n));
  }
  template <class Member>
  static Member read_spec(const Options& o, const std::string& n, const Float&) {
    return static_cast<Member>(o.get_float(n));
  }
  template <class Member>
  static Member read_spec(const Options& o, const std::string& n, const Bool&) {
    return o.get_bool(n);
  }
  template <class Member>
  static Member read_spec(const Options& o, const std::string& n, const Text&) {
    return o.get_string(n);
  }
  template <class Member>
  static Member read_spec(const Options& o, const std::string& n, const Choice&) {
    return o.get_string(n);
  }
  template <class Member, class E>
  static Member read_spec(const Options& o, const std::string& n, const Enum<E>& s) {
    const std::string& text = o.get_string(n);
    for (const auto& [name, value] : s.choices)
      if (name == text) return value;
    throw OptionError("option '" + n + "': no value for '" + text + "'");  // unreachable
  }
  template <class Member>
  static Member read_spec(const Options& o, const std::string& n, const List& s) {
    std::vector<std::string> items = split_list(o.get_string(n));
    if (s.allowed.empty()) return items;
    for (const auto& item : items) {
      bool known = false;
      for (const auto& a : s.allowed) known = known || a == item;
      if (!known) {
        std::string list;
        for (const auto& a : s.allowed) list += (list.empty() ? "" : ", ") + a;
        throw OptionError("option '" + n + "': value '" + item +
                          "' is not allowed; expected a comma-separated list of " + list);
      }
    }
    return items;
  }

  std::function<void(Options&, std::string_view)> declare_;
  std::function<void(const Options&, Config&)> read_;
};

template <class Config>
class OptionTable {
 public:
  OptionTable(std::string_view group, std::initializer_list<OptionField<Config>> fields)
      : group_(group), fields_(fields) {}

  // Adds every option of the table, with its default, to `options`.
  void declare(Options& options) const {
    for (const auto& f : fields_) f.declare(options, group_);
  }
  // Fills the table's fields of `config` from the current values.
  void read(const Options& options, Config& config) const {
    for (const auto& f : fields_) f.read(options, config);
  }
  Config read(const Options& options) const {
    Config config{};
    read(options, config);
    return config;
  }
  // The struct as the declarations' defaults fill it.
  Config defaults() const {
    Options options;
    declare(options);
    return read(options);
  }

 private:
  std::string group_;
  std::vector<OptionField<Config>> fields_;
};

}  // namespace zh
