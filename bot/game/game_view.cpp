#include "bot/game/game_view.h"

#include "bot/game/game_record.h"
#include "bot/status/board_view.h"

namespace zh::bot {

GameView make_game_view(const GameViewInput& in) {
  const GameFull& full = *in.full;
  const GamePlayer& opp = in.us == kWhite ? full.black : full.white;
  const GamePlayer& me = in.us == kWhite ? full.white : full.black;
  GameView v;
  v.id = full.id;
  v.url = in.url;
  v.color = in.us == kWhite ? "white" : "black";
  v.opponent = {player_display_name(opp), opp.title, opp.rating};
  v.our_rating = me.rating;
  v.rated = full.rated;
  v.speed = full.speed;
  v.initial_ms = full.clock_initial_ms;
  v.increment_ms = full.clock_increment_ms;
  v.white_ms = in.state->wtime_ms;
  v.black_ms = in.state->btime_ms;
  v.clocks_at_unix_ms = in.now_unix_ms;
  if (in.game) v.board = board_view(*in.game);
  v.thinking = in.thinking;
  v.eval = in.eval;
  v.nodes = in.nodes;
  v.nps = in.nps;
  if (in.eval_history) v.eval_history = *in.eval_history;
  return v;
}

std::optional<EvalPoint> eval_point(const ThinkResult& result, int ply) {
  if (!result.book.empty()) return std::nullopt;
  return EvalPoint{ply, result.cp, result.mate};
}

}  // namespace zh::bot
