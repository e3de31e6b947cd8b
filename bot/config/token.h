#pragma once
// Where the lichess API token comes from: the LICHESS_BOT_TOKEN environment variable, else the
// config's token_file. Never from the command line (other users can read process arguments)
// and never from the YAML file. The token is registered for redaction as soon as it is read.

#include <string>
#include <vector>

namespace zh::bot {

struct LoadedToken {
  std::string token;
  std::string origin;                 // "LICHESS_BOT_TOKEN" or "token_file <path>"
  std::vector<std::string> warnings;  // e.g. a token file readable by others
};

// `env_value` is the variable's value or nullptr. Throws ConfigError when no token is
// configured, the file cannot be read, or the token has characters lichess tokens never have.
LoadedToken load_token(const char* env_value, const std::string& token_file);

// Like load_token, but returns an empty token instead of throwing when none is configured
// (check-config reports it rather than failing).
LoadedToken try_load_token(const char* env_value, const std::string& token_file,
                           std::string& problem);

}  // namespace zh::bot
