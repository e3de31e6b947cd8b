#pragma once
// The YAML config file: top-level keys are option groups (lichess, challenge, matchmaking, game,
// chat, operations, book, and the engine's search/time/evaluator), their keys the option names.
// Every value goes through the typed option system, so a bad value is reported with the key, the
// value and what is allowed. The token is never read from this file.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/options.h"

namespace zh::bot {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Applies YAML text to `options`; `source` names the file in messages. Throws ConfigError.
void apply_config_text(std::string_view yaml, std::string_view source, Options& options);
// Reads and applies a file; throws ConfigError (also for a missing or unreadable file).
void load_config_file(const std::filesystem::path& path, Options& options);

// Every option as YAML, grouped by section, each preceded by its help and allowed values when
// `with_comments`. Loading the result gives back the same values.
std::string render_config(const Options& options, bool with_comments);

}  // namespace zh::bot
