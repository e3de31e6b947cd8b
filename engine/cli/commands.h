#pragma once
// The engine's command-line tools. They need the engine library alone (plus LibTorch for
// nnbench), so they build on a machine that has nothing of the bot's libraries
// (`-DZH_BUILD_BOT=OFF`); the full `zhbot` executable registers them next to the bot's own.

namespace CLI {
class App;
}

namespace zh::cli {

void add_perft_command(CLI::App& app);
void add_nnbench_command(CLI::App& app);
void add_uci_command(CLI::App& app);
void add_analyse_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_graph_bench_command(CLI::App& app);
void add_datagen_command(CLI::App& app);
void add_nneval_command(CLI::App& app);
void add_selfplay_command(CLI::App& app);
void add_book_command(CLI::App& app);

// Every command above, in the order `zhbot --help` lists them.
void add_engine_commands(CLI::App& app);

}  // namespace zh::cli
