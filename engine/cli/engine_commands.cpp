#include "engine/cli/commands.h"

namespace zh::cli {

void add_engine_commands(CLI::App& app) {
  add_perft_command(app);
  add_nnbench_command(app);
  add_uci_command(app);
  add_analyse_command(app);
  add_bench_command(app);
  add_graph_bench_command(app);
  add_datagen_command(app);
  add_nneval_command(app);
  add_selfplay_command(app);
  add_book_command(app);
}

}  // namespace zh::cli
