#include "bot/game/game_record.h"

namespace zh::bot {

std::string player_display_name(const GamePlayer& p) {
  return p.ai_level ? "Stockfish level " + std::to_string(*p.ai_level) : p.name;
}

GameRecord::GameRecord(std::string game_id, const BotConfig& config,
                       std::shared_ptr<spdlog::logger> log)
    : game_id_(std::move(game_id)), config_(config), log_(std::move(log)) {}

void GameRecord::note_move(int ply, Color us, const ThinkResult& r,
                           std::optional<std::int64_t> clock_after_ms) {
  PgnMoveNote note;
  const int sign = us == kWhite ? 1 : -1;  // the PGN speaks from White's side
  if (!r.book.empty())
    note.label = r.book;  // no search, so no evaluation to show
  else if (r.mate)
    note.eval_mate = sign * *r.mate;
  else
    note.eval_cp = sign * r.cp;
  note.clock_ms = clock_after_ms;
  if (int(notes_.size()) <= ply) notes_.resize(ply + 1);
  notes_[ply] = note;
}

std::optional<std::filesystem::path> GameRecord::save(const GameFull& full,
                                                      const std::vector<std::string>& uci_moves,
                                                      const std::string& status,
                                                      const std::string& winner) {
  if (config_.pgn_dir.empty()) return std::nullopt;
  PgnGame g;
  g.game_id = game_id_;
  if (config_.base_url.find("lichess.org") == std::string::npos) g.site_base = config_.base_url;
  g.rated = full.rated;
  g.start_time_ms = full.created_at_ms;
  g.white = player_display_name(full.white);
  g.black = player_display_name(full.black);
  g.white_title = full.white.title;
  g.black_title = full.black.title;
  g.white_elo = full.white.rating;
  g.black_elo = full.black.rating;
  g.clock_initial_ms = full.clock_initial_ms;
  g.clock_increment_ms = full.clock_increment_ms;
  g.initial_fen = full.initial_fen;
  g.uci_moves = uci_moves;
  g.notes = notes_;
  g.status = status;
  g.winner = winner;
  try {
    std::filesystem::path path = save_pgn(config_.pgn_dir, g);
    log_->info("PGN saved to {}", path.string());
    return path;
  } catch (const std::exception& e) {
    log_->error("PGN not saved: {}", e.what());
    return std::nullopt;
  }
}

}  // namespace zh::bot
