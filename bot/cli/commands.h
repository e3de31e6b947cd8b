#pragma once
// Each subcommand of the zhbot executable registers itself on the CLI11 app.

namespace CLI {
class App;
}

namespace zh::cli {

void add_perft_command(CLI::App& app);
void add_nnbench_command(CLI::App& app);
void add_uci_command(CLI::App& app);
void add_analyse_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_check_config_command(CLI::App& app);
void add_upgrade_account_command(CLI::App& app);
void add_run_command(CLI::App& app);

}  // namespace zh::cli
