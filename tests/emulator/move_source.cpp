#include "tests/emulator/move_source.h"

#include <random>

#include "engine/chess/notation.h"
#include "tests/emulator/uci_process.h"

namespace zh::emulator {
namespace {

class IdleSource : public MoveSource {
 public:
  std::string choose(const TurnView&) override { return ""; }
};

class RandomSource : public MoveSource {
 public:
  explicit RandomSource(std::uint64_t seed) : rng_(seed) {}
  std::string choose(const TurnView& turn) override {
    const MoveList moves = turn.position.legal_moves();
    if (moves.empty()) return "";
    std::uniform_int_distribution<int> pick(0, moves.size() - 1);
    return to_uci(moves[pick(rng_)]);
  }

 private:
  std::mt19937_64 rng_;
};

class EngineSource : public MoveSource {
 public:
  static constexpr std::chrono::seconds kHandshakeTimeout{60};

  EngineSource(const std::string& path, int skill, int movetime_ms)
      : engine_(path), movetime_ms_(movetime_ms) {
    // A hang detector, not a speed check: on a loaded 2-core machine (make test beside the lab's
    // jobs) a starting engine once took more than 10 s to answer.
    engine_.send("uci");
    engine_.read_until("uciok", kHandshakeTimeout);
    engine_.send("setoption name UCI_Variant value crazyhouse");
    engine_.send("setoption name Skill Level value " + std::to_string(skill));
    engine_.send("setoption name Threads value 1");
    engine_.send("ucinewgame");
    engine_.send("isready");
    engine_.read_until("readyok", kHandshakeTimeout);
  }

  std::string choose(const TurnView& turn) override {
    std::string position = "position startpos";
    if (!turn.moves.empty()) {
      position += " moves";
      for (const auto& m : turn.moves) position += " " + m;
    }
    engine_.send(position);
    if (movetime_ms_ > 0) {
      engine_.send("go movetime " + std::to_string(movetime_ms_));
    } else {
      engine_.send("go wtime " + std::to_string(turn.wtime) + " btime " +
                   std::to_string(turn.btime) + " winc " + std::to_string(turn.increment) +
                   " binc " + std::to_string(turn.increment));
    }
    const Millis budget = movetime_ms_ > 0 ? movetime_ms_ : std::max(turn.wtime, turn.btime);
    const std::string line =
        engine_.read_until("bestmove", std::chrono::milliseconds(budget + 10'000));
    // "bestmove e2e4 ponder e7e5" -> "e2e4"; "(none)" when it has no move.
    std::string move = line.substr(9);
    move = move.substr(0, move.find(' '));
    return move == "(none)" ? "" : move;
  }

 private:
  UciProcess engine_;
  int movetime_ms_;
};

class ScriptSource : public MoveSource {
 public:
  ScriptSource(std::vector<std::string> moves, std::unique_ptr<MoveSource> then)
      : moves_(std::move(moves)), then_(std::move(then)) {}
  std::string choose(const TurnView& turn) override {
    if (next_ < moves_.size()) return moves_[next_++];
    return then_->choose(turn);
  }

 private:
  std::vector<std::string> moves_;
  std::size_t next_ = 0;
  std::unique_ptr<MoveSource> then_;
};

std::unique_ptr<MoveSource> make_plain(OpponentSpec::Kind kind, const OpponentSpec& spec,
                                       std::uint64_t seed, const std::string& engine) {
  switch (kind) {
    case OpponentSpec::Kind::kEngine:
      return std::make_unique<EngineSource>(spec.engine_path.empty() ? engine : spec.engine_path,
                                            spec.skill, spec.movetime_ms);
    case OpponentSpec::Kind::kRandom:
      return std::make_unique<RandomSource>(seed);
    case OpponentSpec::Kind::kScript:
    case OpponentSpec::Kind::kIdle:
      break;
  }
  return std::make_unique<IdleSource>();
}

}  // namespace

std::unique_ptr<MoveSource> make_move_source(const OpponentSpec& spec, std::uint64_t seed,
                                             const std::string& default_engine) {
  if (spec.kind != OpponentSpec::Kind::kScript)
    return make_plain(spec.kind, spec, seed, default_engine);
  const auto then = spec.after_script == OpponentSpec::Kind::kScript ? OpponentSpec::Kind::kIdle
                                                                     : spec.after_script;
  return std::make_unique<ScriptSource>(spec.moves, make_plain(then, spec, seed, default_engine));
}

}  // namespace zh::emulator
