#include "engine/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>

#include "engine/util/strings.h"

namespace zh {

namespace {

// Default UCI spelling: each word capitalised ("move_overhead_ms" -> "Move_Overhead_Ms").
std::string default_uci_name(std::string_view name) {
  std::string out(name);
  bool start = true;
  for (char& c : out) {
    if (start) c = char(std::toupper(static_cast<unsigned char>(c)));
    start = c == '_';
  }
  return out;
}

std::string format_double(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// The fields every declaration sets; the add_* functions add their type's range or choices.
Option declared(std::string_view name, OptionType type, OptionValue default_value,
                std::string_view group, std::string_view help, std::string_view uci_name) {
  Option o;
  o.name = name;
  o.uci_name = uci_name;
  o.group = group;
  o.help = help;
  o.type = type;
  o.default_value = std::move(default_value);
  return o;
}

}  // namespace

std::string Option::type_name() const {
  switch (type) {
    case OptionType::kBool:
      return "bool";
    case OptionType::kInt:
      return "int";
    case OptionType::kFloat:
      return "float";
    case OptionType::kString:
      return "string";
    case OptionType::kCombo:
      return "combo";
  }
  return "?";
}

std::string Option::format(const OptionValue& v) const {
  if (const bool* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const double* d = std::get_if<double>(&v)) return format_double(*d);
  return std::get<std::string>(v);
}

std::string Option::allowed() const {
  switch (type) {
    case OptionType::kBool:
      return "true or false";
    case OptionType::kInt:
      return "an integer in [" + std::to_string(std::int64_t(min)) + ", " +
             std::to_string(std::int64_t(max)) + "]";
    case OptionType::kFloat:
      return "a number in [" + format_double(min) + ", " + format_double(max) + "]";
    case OptionType::kString:
      return "any text";
    case OptionType::kCombo: {
      std::string s = "one of ";
      for (std::size_t i = 0; i < choices.size(); ++i) s += (i ? ", " : "") + choices[i];
      return s;
    }
  }
  return "?";
}

std::string Options::normalise(std::string_view name) {
  std::string out = lower(trim(name));
  for (char& c : out)
    if (c == '-' || c == ' ') c = '_';
  return out;
}

void Options::add(Option o) {
  const std::string key = normalise(o.name);
  if (index_.count(key)) throw std::logic_error("option '" + o.name + "' is declared twice");
  if (o.uci_name.empty()) o.uci_name = default_uci_name(o.name);
  const std::string uci_key = normalise(o.uci_name);
  if (uci_key != key && index_.count(uci_key))
    throw std::logic_error("option UCI name '" + o.uci_name + "' is declared twice");
  o.value = o.default_value;
  options_.push_back(std::move(o));
  index_[key] = options_.size() - 1;
  if (uci_key != key) index_[uci_key] = options_.size() - 1;
}

void Options::add_bool(std::string_view name, bool default_value, std::string_view group,
                       std::string_view help, std::string_view uci_name) {
  add(declared(name, OptionType::kBool, default_value, group, help, uci_name));
}

void Options::add_int(std::string_view name, std::int64_t default_value, std::int64_t min,
                      std::int64_t max, std::string_view group, std::string_view help,
                      std::string_view uci_name) {
  if (default_value < min || default_value > max)
    throw std::logic_error("option '" + std::string(name) + "' default is out of its range");
  Option o = declared(name, OptionType::kInt, default_value, group, help, uci_name);
  o.min = double(min);
  o.max = double(max);
  add(std::move(o));
}

void Options::add_float(std::string_view name, double default_value, double min, double max,
                        std::string_view group, std::string_view help, std::string_view uci_name) {
  if (!(default_value >= min && default_value <= max))
    throw std::logic_error("option '" + std::string(name) + "' default is out of its range");
  Option o = declared(name, OptionType::kFloat, default_value, group, help, uci_name);
  o.min = min;
  o.max = max;
  add(std::move(o));
}

void Options::add_string(std::string_view name, std::string_view default_value,
                         std::string_view group, std::string_view help, std::string_view uci_name) {
  add(declared(name, OptionType::kString, std::string(default_value), group, help, uci_name));
}

void Options::add_combo(std::string_view name, std::string_view default_value,
                        std::vector<std::string> choices, std::string_view group,
                        std::string_view help, std::string_view uci_name) {
  if (std::find(choices.begin(), choices.end(), default_value) == choices.end())
    throw std::logic_error("option '" + std::string(name) + "' default is not one of its choices");
  Option o = declared(name, OptionType::kCombo, std::string(default_value), group, help, uci_name);
  o.choices = std::move(choices);
  add(std::move(o));
}

const Option* Options::find(std::string_view name) const {
  auto it = index_.find(normalise(name));
  return it == index_.end() ? nullptr : &options_[it->second];
}

const Option& Options::at(std::string_view name) const {
  if (const Option* o = find(name)) return *o;
  throw OptionError("unknown option '" + std::string(name) + "'");
}

Option& Options::mutable_at(std::string_view name) { return const_cast<Option&>(at(name)); }

namespace {

[[noreturn]] void wrong_type(const Option& o, const char* asked) {
  throw OptionError("option '" + o.name + "' is a " + o.type_name() + ", not a " + asked);
}

}  // namespace

bool Options::get_bool(std::string_view name) const {
  const Option& o = at(name);
  if (o.type != OptionType::kBool) wrong_type(o, "bool");
  return std::get<bool>(o.value);
}

std::int64_t Options::get_int(std::string_view name) const {
  const Option& o = at(name);
  if (o.type != OptionType::kInt) wrong_type(o, "int");
  return std::get<std::int64_t>(o.value);
}

double Options::get_float(std::string_view name) const {
  const Option& o = at(name);
  if (o.type != OptionType::kFloat) wrong_type(o, "float");
  return std::get<double>(o.value);
}

const std::string& Options::get_string(std::string_view name) const {
  const Option& o = at(name);
  if (o.type != OptionType::kString && o.type != OptionType::kCombo) wrong_type(o, "string");
  return std::get<std::string>(o.value);
}

void Options::set(std::string_view name, std::string_view raw) {
  Option& o = mutable_at(name);
  assign(o, raw);
  o.user_set = true;
}

void Options::set_default(std::string_view name, std::string_view raw) {
  Option& o = mutable_at(name);
  if (!o.user_set) assign(o, raw);
}

void Options::assign(Option& o, std::string_view raw) {
  const std::string text = trim(raw);
  auto bad = [&]() -> OptionError {
    return OptionError("option '" + o.name + "': value '" + text + "' is not allowed; expected " +
                       o.allowed());
  };
  switch (o.type) {
    case OptionType::kBool: {
      const std::string t = lower(text);
      if (t == "true" || t == "on" || t == "yes" || t == "1") {
        o.value = true;
      } else if (t == "false" || t == "off" || t == "no" || t == "0") {
        o.value = false;
      } else {
        throw bad();
      }
      return;
    }
    case OptionType::kInt: {
      std::int64_t v = 0;
      const char* end = text.data() + text.size();
      auto [ptr, ec] = std::from_chars(text.data(), end, v);
      if (ec != std::errc() || ptr != end) throw bad();
      if (double(v) < o.min || double(v) > o.max) throw bad();
      o.value = v;
      return;
    }
    case OptionType::kFloat: {
      double v = 0;
      const char* end = text.data() + text.size();
      auto [ptr, ec] = std::from_chars(text.data(), end, v);
      if (ec != std::errc() || ptr != end || !std::isfinite(v)) throw bad();
      if (v < o.min || v > o.max) throw bad();
      o.value = v;
      return;
    }
    case OptionType::kString:
      // "<empty>" is how UCI spells an empty string default; GUIs echo it back.
      o.value = text == "<empty>" ? std::string() : text;
      return;
    case OptionType::kCombo: {
      // Choices match case-insensitively (GUIs send "Crazyhouse"); the declared spelling is kept.
      for (const auto& c : o.choices) {
        if (lower(c) == lower(text)) {
          o.value = c;
          return;
        }
      }
      throw bad();
    }
  }
}

void Options::set_value(std::string_view name, const OptionValue& value) {
  const Option& o = at(name);
  // One validation path: typed values go through the text parser.
  if (o.type == OptionType::kString) {
    if (!std::holds_alternative<std::string>(value)) wrong_type(o, "string value");
    mutable_at(name).value = value;
    mutable_at(name).user_set = true;
    return;
  }
  set(name, o.format(value));
}

void Options::reset_to_defaults() {
  for (auto& o : options_) {
    o.value = o.default_value;
    o.user_set = false;
  }
}

std::string Options::uci_line(const Option& o) {
  std::string s = "option name " + o.uci_name + " type ";
  switch (o.type) {
    case OptionType::kBool:
      s += "check default " + o.format(o.default_value);
      break;
    case OptionType::kInt:
      s += "spin default " + o.format(o.default_value) + " min " +
           std::to_string(std::int64_t(o.min)) + " max " + std::to_string(std::int64_t(o.max));
      break;
    case OptionType::kFloat:
      // UCI has no float type; a string keeps the exact value and GUIs pass it through.
      s += "string default " + o.format(o.default_value);
      break;
    case OptionType::kString: {
      const std::string d = o.format(o.default_value);
      s += "string default " + (d.empty() ? std::string("<empty>") : d);
      break;
    }
    case OptionType::kCombo:
      s += "combo default " + o.format(o.default_value);
      for (const auto& c : o.choices) s += " var " + c;
      break;
  }
  return s;
}

std::string Options::help_text() const {
  std::vector<std::string> groups;
  for (const auto& o : options_)
    if (std::find(groups.begin(), groups.end(), o.group) == groups.end()) groups.push_back(o.group);
  std::ostringstream os;
  for (const auto& g : groups) {
    os << "[" << g << "]\n";
    for (const auto& o : options_) {
      if (o.group != g) continue;
      os << "  " << o.name << " (" << o.type_name() << ", default "
         << (o.format(o.default_value).empty() ? "\"\"" : o.format(o.default_value)) << "; "
         << o.allowed() << ")\n      " << o.help << "\n";
    }
  }
  return os.str();
}

}  // namespace zh
