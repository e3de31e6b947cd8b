#pragma once
// The lichess-facing subcommands of the zhbot executable (the engine's own are in
// engine/cli/commands.h).

namespace CLI {
class App;
}

namespace zh::cli {

void add_check_config_command(CLI::App& app);
void add_upgrade_account_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_healthcheck_command(CLI::App& app);
void add_status_command(CLI::App& app);

}  // namespace zh::cli
