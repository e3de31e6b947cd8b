#include "bot/config/config_file.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

#include "engine/evaluator_loader.h"

namespace zh::bot {

namespace {

std::string where(std::string_view source, const YAML::Node& node) {
  std::string s(source);
  const YAML::Mark mark = node.Mark();
  if (mark.line >= 0) s += ":" + std::to_string(mark.line + 1);
  return s;
}

bool is_token_key(const std::string& key) {
  return key == "token" || key == "lichess_token" || key == "api_token";
}

[[noreturn]] void refuse_token(std::string_view source, const YAML::Node& node) {
  // The value is never echoed: it is a secret.
  throw ConfigError(where(source, node) +
                    ": the token is never read from the config file; set the environment "
                    "variable LICHESS_BOT_TOKEN or point lichess.token_file at a file holding it");
}

std::string scalar_text(const YAML::Node& value, const std::string& key, std::string_view source) {
  if (value.IsNull()) return {};
  if (value.IsScalar()) return value.Scalar();
  if (value.IsSequence()) {
    // Lists (variants, speeds, block lists) may be written as YAML sequences.
    std::string joined;
    for (const auto& item : value) {
      if (!item.IsScalar())
        throw ConfigError(where(source, item) + ": " + key + ": list items must be plain values");
      joined += (joined.empty() ? "" : ",") + item.Scalar();
    }
    return joined;
  }
  throw ConfigError(where(source, value) + ": " + key + ": expected a value, found a section");
}

// Keys that earlier versions read, with what replaced them: an operator's old file gets the
// new key named instead of a list of every allowed one.
std::string retired_key_advice(const std::string& full) {
  if (full == "matchmaking.seek_rated")
    return "; it was replaced by matchmaking.seek_mode (rated, casual or random)";
  if (full == "search.mate_in_one")
    return "; it was replaced by search.leaf_mate_plies (0 = off, 1 = the old mate-in-one, the "
           "default searches deeper) and search.root_mate_share";
  return {};
}

// A section or option name. YAML allows lists and maps as keys ("? [a, b]"); converting one to
// text throws yaml-cpp's own exception (found by fuzz_config), so it is refused here.
std::string key_text(const YAML::Node& key, std::string_view source) {
  if (!key.IsScalar())
    throw ConfigError(where(source, key) + ": expected a plain name as key, found a " +
                      (key.IsNull()       ? "null"
                       : key.IsSequence() ? "list"
                                          : "section"));
  return key.Scalar();
}

std::vector<std::string> groups_of(const Options& options) {
  std::vector<std::string> groups;
  for (const auto& o : options.all())
    if (std::find(groups.begin(), groups.end(), o.group) == groups.end()) groups.push_back(o.group);
  return groups;
}

std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

std::string keys_of_group(const Options& options, const std::string& group) {
  std::vector<std::string> keys;
  for (const auto& o : options.all())
    if (o.group == group) keys.push_back(o.name);
  return join(keys);
}

// Double-quoted YAML string (always quoted: values like "on", "no" or "1" stay strings).
std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace

void apply_config_text(std::string_view yaml, std::string_view source, Options& options) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    throw ConfigError(std::string(source) + ":" + std::to_string(e.mark.line + 1) +
                      ": not valid YAML: " + e.msg);
  }
  if (root.IsNull()) return;  // an empty file: all defaults
  if (!root.IsMap())
    throw ConfigError(std::string(source) + ": expected sections (" + join(groups_of(options)) +
                      ") at the top level");
  const auto groups = groups_of(options);
  for (const auto& section : root) {
    const std::string group = key_text(section.first, source);
    if (is_token_key(group)) refuse_token(source, section.first);
    if (std::find(groups.begin(), groups.end(), group) == groups.end())
      throw ConfigError(where(source, section.first) + ": unknown section '" + group +
                        "'; allowed: " + join(groups));
    if (section.second.IsNull()) continue;
    if (!section.second.IsMap())
      throw ConfigError(where(source, section.second) + ": section '" + group +
                        "' must hold key: value lines");
    for (const auto& entry : section.second) {
      const std::string key = key_text(entry.first, source);
      const std::string full = group + "." + key;
      if (is_token_key(key)) refuse_token(source, entry.first);
      const Option* option = options.find(key);
      if (option == nullptr || option->group != group) {
        const std::string advice = retired_key_advice(full);
        throw ConfigError(
            where(source, entry.first) + ": unknown key '" + full + "'" +
            (advice.empty() ? "; section '" + group + "' allows: " + keys_of_group(options, group)
                            : advice));
      }
      try {
        options.set(option->name, scalar_text(entry.second, full, source));
      } catch (const OptionError& e) {
        throw ConfigError(where(source, entry.second) + ": " + full + ": " + e.what());
      }
    }
  }
}

void load_config_file(const std::filesystem::path& path, Options& options) {
  std::ifstream in(path);
  if (!in)
    throw ConfigError("cannot read config file '" + path.string() +
                      "'; check the path (--config) and its permissions");
  std::stringstream text;
  text << in.rdbuf();
  apply_config_text(text.str(), path.string(), options);
}

std::string render_config(const Options& options, bool with_comments) {
  std::ostringstream os;
  bool first = true;
  for (const auto& group : groups_of(options)) {
    if (!first) os << "\n";
    first = false;
    os << group << ":\n";
    for (const auto& o : options.all()) {
      if (o.group != group) continue;
      if (with_comments) {
        os << "  # " << o.help;
        if (o.type != OptionType::kString) os << " (" << o.allowed() << ")";
        os << "\n";
      }
      const std::string value = o.format(o.value);
      const bool text = o.type == OptionType::kString || o.type == OptionType::kCombo;
      // A device-dependent default is shown, not set: a file that set it would pin the CPU
      // value on a GPU as well.
      const char* gpu = with_comments ? DeviceProfile::gpu().default_of(o.name) : nullptr;
      if (gpu)
        os << "  # default " << value << " on a CPU, " << gpu
           << " on a GPU (cuda, sim); uncomment to pin one value for every device\n  # ";
      else
        os << "  ";
      os << o.name << ": " << (text ? quote(value) : value) << "\n";
    }
  }
  return os.str();
}

}  // namespace zh::bot
