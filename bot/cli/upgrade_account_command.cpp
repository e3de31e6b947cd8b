// `zhbot upgrade-account`: turns the token's lichess account into a BOT account. Irreversible,
// so it runs only on this explicit command and only with --yes.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include "bot/cli/commands.h"
#include "bot/config/load_config.h"
#include "bot/config/token.h"
#include "bot/lichess/lichess_client.h"

namespace zh::cli {

void add_upgrade_account_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "upgrade-account",
      "upgrade the token's lichess account to a BOT account (irreversible; the account must "
      "not have played any game)");
  auto path = std::make_shared<std::string>();
  auto yes = std::make_shared<bool>(false);
  cmd->add_option("--config,-c", *path, "YAML config file");
  cmd->add_flag("--yes", *yes, "confirm: upgrading cannot be undone");
  cmd->callback([path, yes] {
    const bot::LoadedConfig config =
        bot::load_config(path->empty() ? std::nullopt : std::optional<std::string>(*path));
    const bot::LoadedToken token =
        bot::load_token(std::getenv("LICHESS_BOT_TOKEN"), config.bot.token_file);
    bot::HttpSettings settings;
    settings.base_url = config.bot.base_url;
    settings.token = token.token;
    settings.user_agent = "zhbot/" ZH_VERSION;
    bot::HttpClient http(settings);
    CancelToken cancel;
    bot::LichessClient client(http, steady_clock(), bot::default_random_source(), cancel);

    std::optional<bot::Account> account;
    const bot::ApiResult who = client.get_account(account);
    if (who.status == bot::ApiStatus::kUnauthorized)
      throw std::runtime_error("lichess refused the token (" + who.error +
                               "): it is wrong, revoked, or lacks the bot:play scope");
    if (!who.ok()) throw std::runtime_error("GET /api/account failed: " + who.error);
    if (account->is_bot()) {
      std::cout << account->username << " is already a BOT account; nothing to do.\n";
      return;
    }
    if (!*yes) {
      std::cout << "This would turn '" << account->username
                << "' into a BOT account. That cannot be undone, and the account must not have "
                   "played any game. Run again with --yes to do it.\n";
      throw std::runtime_error("not confirmed (--yes)");
    }
    const bot::ApiResult r = client.upgrade_to_bot();
    if (!r.ok()) throw std::runtime_error("upgrade refused by lichess: " + r.error);
    std::cout << account->username << " is now a BOT account. Start playing with: zhbot run\n";
  });
}

}  // namespace zh::cli
