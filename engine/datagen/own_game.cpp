#include "engine/datagen/own_game.h"

#include <stdexcept>

namespace zh::datagen {
namespace {

class BestMoveListener final : public SearchListener {
 public:
  void on_info(const SearchInfo&) override {}
  void on_bestmove(const BestMove& b) override { best = b; }
  BestMove best;
};

Options zhbot_options(const OwnGameOptions& o) {
  Options options;
  Engine::declare_options(options);
  options.set("threads", "1");  // one search thread per worker: the workers fill the cores
  for (const std::string& pair : o.engine_options) {
    const auto eq = pair.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument("--zhbot-option '" + pair + "' must be written NAME=VALUE");
    options.set(pair.substr(0, eq), pair.substr(eq + 1));
  }
  return options;
}

}  // namespace

void check_own_game_options(const OwnGameOptions& o) {
  if (o.nodes < 1) throw std::invalid_argument("--zhbot-nodes must be >= 1");
  if (o.sampled_moves < 0) throw std::invalid_argument("--zhbot-sampled-moves must be >= 0");
  if (!(o.temperature > 0 && o.temperature <= 10))
    throw std::invalid_argument("--zhbot-temperature must be in (0, 10]");
  if (o.opponent_nodes < 1) throw std::invalid_argument("--opponent-nodes must be >= 1");
  for (int level : o.skill_levels)
    if (level < 0 || level > 20)
      throw std::invalid_argument("--skill-levels: " + std::to_string(level) +
                                  " is not a Fairy-Stockfish Skill Level (0..20)");
  zhbot_options(o);  // throws OptionError naming a bad --zhbot-option
}

LoadedEvaluator load_own_game_evaluator(const OwnGameOptions& o) {
  return load_evaluator(zhbot_options(o), LoadPolicy::exact());
}

OwnGamePlayers::OwnGamePlayers(const OwnGameOptions& options, const TeacherConfig& teacher,
                               const LoadedEvaluator& evaluator)
    : options_(options), engine_([evaluator](const Options&) { return evaluator; }) {
  engine_.set_option("threads", "1");
  for (const std::string& pair : options.engine_options) {
    const auto eq = pair.find('=');
    engine_.set_option(pair.substr(0, eq), pair.substr(eq + 1));
  }
  engine_.set_option("temperature", std::to_string(options.temperature));
  engine_.set_option("dirichlet_noise", options.dirichlet_noise ? "true" : "false");
  for (int level : options.skill_levels) {
    TeacherConfig c = teacher;
    c.nodes = options.opponent_nodes;
    c.depth = 0;
    c.multipv = 1;
    c.skill_level = level;
    opponents_.push_back(std::make_unique<UciTeacher>(c));
  }
}

UciTeacher* OwnGamePlayers::opponent_of(std::int64_t number) {
  if (opponents_.empty()) return nullptr;
  return opponents_[std::size_t(number % std::int64_t(opponents_.size()))].get();
}

int OwnGamePlayers::skill_of(std::int64_t number) const {
  if (options_.skill_levels.empty()) return -1;
  return options_.skill_levels[std::size_t(number % std::int64_t(options_.skill_levels.size()))];
}

bool OwnGamePlayers::zhbot_is_white(std::int64_t number) const {
  // Alternates with each pass over the Skill Levels, so every level meets both colours.
  const std::int64_t levels = std::max<std::int64_t>(1, std::int64_t(opponents_.size()));
  return (number / levels) % 2 == 0;
}

void OwnGamePlayers::new_game() {
  engine_.new_game();
  for (auto& o : opponents_) o->new_game();
}

void OwnGamePlayers::restart_opponents() {
  for (auto& o : opponents_) o->restart();
}

Move OwnGamePlayers::zhbot_move(const Game& game, std::uint64_t seed) {
  engine_.set_option("seed", std::to_string(seed % (std::uint64_t(1) << 62) + 1));
  engine_.set_game(game);
  auto listener = std::make_shared<BestMoveListener>();
  SearchLimits limits;
  limits.nodes = options_.nodes;
  limits.sampled_moves = options_.sampled_moves;
  engine_.go(limits, listener);
  engine_.wait();
  if (!listener->best.error.empty())
    throw std::runtime_error("zhbot's search failed: " + listener->best.error);
  if (listener->best.move.is_null())
    throw std::runtime_error("zhbot found no move in " + game.position().fen());
  return listener->best.move;
}

PlayedGame play_own_game(UciTeacher& teacher, OwnGamePlayers& players, std::int64_t number,
                         std::uint64_t game_id, std::mt19937_64& rng, const GameOptions& options,
                         SeenPositions& seen, const std::atomic<bool>& stop) {
  players.new_game();
  UciTeacher* opponent = players.opponent_of(number);
  const Color zhbot = players.zhbot_is_white(number) ? kWhite : kBlack;
  const int random_plies =
      std::uniform_int_distribution<int>(0, std::max(0, options.random_plies_max))(rng);
  auto choose = [&](const Game& game, const TeacherAnswer&, int ply) {
    const Position& pos = game.position();
    if (ply < random_plies) {
      const MoveList legal = pos.legal_moves();
      return legal[std::uniform_int_distribution<int>(0, legal.count - 1)(rng)];
    }
    if (opponent && pos.side_to_move() != zhbot) return opponent->search(game).best;
    return players.zhbot_move(game, rng());
  };
  return play_labelled_game(teacher, game_id, options, seen, stop, choose, kFlagOwnGame);
}

}  // namespace zh::datagen
