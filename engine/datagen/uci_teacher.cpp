#include "engine/datagen/uci_teacher.h"

#include <sstream>

#include "engine/chess/notation.h"
#include "engine/util/clock.h"

namespace zh::datagen {

UciTeacher::UciTeacher(TeacherConfig config) : config_(std::move(config)) { start(); }

UciTeacher::~UciTeacher() {
  if (process_) process_->write_line("quit");
}

void UciTeacher::start() {
  try {
    process_ = std::make_unique<ChildProcess>(std::vector<std::string>{config_.path});
  } catch (const ChildError& e) {
    throw TeacherError(std::string("teacher engine: ") + e.what() +
                       " (install fairy-stockfish or pass --teacher PATH)");
  }
  send("uci");
  expect("uciok");
  send("setoption name UCI_Variant value crazyhouse");
  send("setoption name Threads value 1");
  send("setoption name Hash value " + std::to_string(config_.hash_mb));
  send("setoption name MultiPV value " + std::to_string(config_.multipv));
  if (config_.skill_level >= 0)
    send("setoption name Skill Level value " + std::to_string(config_.skill_level));
  send("isready");
  expect("readyok");
}

void UciTeacher::restart() {
  ++restarts_;
  process_.reset();
  start();
}

void UciTeacher::send(const std::string& line) {
  if (!process_->write_line(line))
    throw TeacherError("teacher engine " + config_.path + " stopped reading its input");
}

std::string UciTeacher::expect(const std::string& prefix) {
  std::string line;
  for (;;) {
    switch (process_->read_line(line, config_.timeout)) {
      case ChildProcess::ReadStatus::kEnd:
        throw TeacherError("teacher engine " + config_.path + " exited (waiting for '" + prefix +
                           "')");
      case ChildProcess::ReadStatus::kTimeout:
        throw TeacherError("teacher engine " + config_.path + " sent no '" + prefix + "' in " +
                           std::to_string(config_.timeout.count()) + " ms");
      case ChildProcess::ReadStatus::kLine:
        if (line == prefix || line.rfind(prefix + " ", 0) == 0) return line;
        break;
    }
  }
}

void UciTeacher::new_game() {
  send("ucinewgame");
  send("isready");
  expect("readyok");
}

bool parse_info_line(const std::string& text, const Position& pos, int& rank, TeacherLine& out) {
  std::istringstream in(text);
  std::string word;
  in >> word;
  if (word != "info") return false;
  rank = 1;
  bool have_score = false;
  bool bound = false;
  std::string first;
  while (in >> word) {
    if (word == "multipv") {
      if (!(in >> rank) || rank < 1) return false;
    } else if (word == "score") {
      std::string kind;
      int value = 0;
      if (!(in >> kind >> value)) return false;
      if (kind == "cp") {
        out.cp = value;
        out.mate = 0;
      } else if (kind == "mate") {
        out.mate = value;
        out.cp = 0;
      } else {
        return false;
      }
      have_score = true;
    } else if (word == "lowerbound" || word == "upperbound") {
      bound = true;
    } else if (word == "pv") {
      in >> first;
      break;
    } else if (word == "string") {
      return false;
    }
  }
  if (!have_score || bound || first.empty()) return false;
  try {
    out.move = parse_uci(pos, first);
  } catch (const MoveError&) {
    return false;
  }
  return true;
}

TeacherAnswer UciTeacher::search(const Game& game) {
  std::string cmd = "position fen " + game.start().fen();
  if (!game.moves().empty()) {
    cmd += " moves";
    for (Move m : game.moves()) {
      cmd += ' ';
      cmd += to_uci(m);
    }
  }
  const auto started = zh::steady_clock().now();
  send(cmd);
  send(config_.depth > 0 && config_.nodes <= 0 ? "go depth " + std::to_string(config_.depth)
                                               : "go nodes " + std::to_string(config_.nodes));
  const Position& pos = game.position();
  std::vector<TeacherLine> by_rank(std::size_t(config_.multipv));
  std::vector<bool> seen(by_rank.size(), false);
  std::string line;
  std::string best_text;
  for (;;) {
    const auto status = process_->read_line(line, config_.timeout);
    if (status == ChildProcess::ReadStatus::kEnd)
      throw TeacherError("teacher engine " + config_.path + " exited during a search");
    if (status == ChildProcess::ReadStatus::kTimeout)
      throw TeacherError("teacher engine " + config_.path + " sent no bestmove in " +
                         std::to_string(config_.timeout.count()) + " ms");
    if (line.rfind("bestmove ", 0) == 0 || line == "bestmove") {
      std::istringstream in(line);
      in >> best_text >> best_text;
      break;
    }
    int rank = 0;
    TeacherLine parsed;
    if (parse_info_line(line, pos, rank, parsed)) {
      if (rank <= config_.multipv) {
        by_rank[std::size_t(rank - 1)] = parsed;
        seen[std::size_t(rank - 1)] = true;
      }
    } else if (line.rfind("info", 0) != 0) {
      ++ignored_lines_;
    }
  }
  search_seconds_ += std::chrono::duration<double>(zh::steady_clock().now() - started).count();

  TeacherAnswer answer;
  if (best_text == "(none)" || best_text.empty()) {
    if (pos.count_legal_moves() != 0)
      throw TeacherError("teacher engine answered no move in " + pos.fen() +
                         ", which has legal moves");
    return answer;
  }
  try {
    answer.best = parse_uci(pos, best_text);
  } catch (const MoveError& e) {
    throw TeacherError("teacher engine answered an illegal move '" + best_text + "' in " +
                       pos.fen() + ": " + e.what());
  }
  // The best move first with its score; then the other lines in rank order, once each.
  // (A bestmove without an info line of its own takes the first line's score.)
  TeacherLine best{answer.best, seen[0] ? by_rank[0].cp : 0, seen[0] ? by_rank[0].mate : 0};
  for (std::size_t r = 0; r < by_rank.size(); ++r)
    if (seen[r] && by_rank[r].move == answer.best) {
      best = by_rank[r];
      break;
    }
  answer.lines.push_back(best);
  for (std::size_t r = 0; r < by_rank.size(); ++r) {
    if (!seen[r] || by_rank[r].move == answer.best) continue;
    bool duplicate = false;
    for (const auto& l : answer.lines) duplicate |= l.move == by_rank[r].move;
    if (!duplicate) answer.lines.push_back(by_rank[r]);
  }
  return answer;
}

}  // namespace zh::datagen
