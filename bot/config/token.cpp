#include "bot/config/token.h"

#include <sys/stat.h>

#include <fstream>

#include "bot/config/config_file.h"
#include "bot/lichess/redact.h"
#include "engine/util/strings.h"

namespace zh::bot {

namespace {

void check_characters(const std::string& token, const std::string& origin) {
  for (char c : token) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok)
      throw ConfigError("the token from " + origin +
                        " has characters a lichess token never has (allowed: letters, digits, "
                        "'_'); check for quotes or a stray 'Bearer ' prefix");
  }
}

}  // namespace

LoadedToken load_token(const char* env_value, const std::string& token_file) {
  LoadedToken out;
  if (env_value != nullptr && !trim(env_value).empty()) {
    out.token = trim(env_value);
    out.origin = "LICHESS_BOT_TOKEN";
  } else if (!token_file.empty()) {
    std::ifstream in(token_file);
    if (!in)
      throw ConfigError("cannot read token_file '" + token_file +
                        "'; check the path in lichess.token_file and its permissions");
    std::string first_line;
    std::getline(in, first_line);
    out.token = trim(first_line);
    out.origin = "token_file " + token_file;
    if (out.token.empty()) throw ConfigError("token_file '" + token_file + "' is empty");
    struct stat st {};
    if (::stat(token_file.c_str(), &st) == 0 && (st.st_mode & (S_IRGRP | S_IROTH)) != 0)
      out.warnings.push_back("token_file '" + token_file +
                             "' is readable by other users; run: chmod 600 " + token_file);
  } else {
    throw ConfigError(
        "no lichess API token: set LICHESS_BOT_TOKEN or lichess.token_file in the config (create "
        "a token with the bot:play scope at "
        "https://lichess.org/account/oauth/token/create?scopes[]=bot:play)");
  }
  register_secret(out.token);
  check_characters(out.token, out.origin);
  return out;
}

LoadedToken try_load_token(const char* env_value, const std::string& token_file,
                           std::string& problem) {
  try {
    return load_token(env_value, token_file);
  } catch (const ConfigError& e) {
    problem = e.what();
    return {};
  }
}

}  // namespace zh::bot
