#include "bot/status/status_json.h"

namespace zh::bot {

namespace {

using nlohmann::json;

// An optional value, or null.
template <typename T>
json maybe(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json player_json(const StatusPlayer& p) {
  return {{"name", p.name}, {"title", p.title}, {"rating", maybe(p.rating)}};
}

json eval_json(const EvalPoint& e) {
  return {{"ply", e.ply}, {"cp", e.cp}, {"mate", maybe(e.mate)}};
}

json board_json(const BoardView& b) {
  return {{"fen", b.fen},
          {"side_to_move", b.side_to_move},
          {"pockets", {{"white", b.pocket_white}, {"black", b.pocket_black}}},
          {"last_move", b.last_move},
          {"recent_moves", b.recent_san},
          {"plies", b.plies}};
}

json game_json(const GameView& g) {
  json history = json::array();
  for (const auto& e : g.eval_history) history.push_back(eval_json(e));
  return {{"id", g.id},
          {"url", g.url},
          {"color", g.color},
          {"opponent", player_json(g.opponent)},
          {"our_rating", maybe(g.our_rating)},
          {"rated", g.rated},
          {"speed", g.speed},
          {"clock",
           {{"initial_ms", maybe(g.initial_ms)},
            {"increment_ms", maybe(g.increment_ms)},
            {"white_ms", g.white_ms},
            {"black_ms", g.black_ms},
            {"at_unix_ms", g.clocks_at_unix_ms}}},
          {"board", board_json(g.board)},
          {"thinking", g.thinking},
          {"eval", g.eval ? eval_json(*g.eval) : json(nullptr)},
          {"nodes", g.nodes},
          {"nps", g.nps},
          {"eval_history", history}};
}

json queue_json(const std::vector<QueuedChallenge>& queue) {
  json out = json::array();
  for (const auto& c : queue)
    out.push_back({{"id", c.id},
                   {"challenger", player_json(c.challenger)},
                   {"speed", c.speed},
                   {"time_control", c.time_control},
                   {"rated", c.rated},
                   {"arrived_unix_ms", c.arrived_unix_ms}});
  return out;
}

json matchmaking_json(const MatchmakingView& m) {
  json declined = json::array();
  for (const auto& d : m.declined_by)
    declined.push_back(
        {{"user", d.user}, {"reason", d.reason}, {"until_unix_ms", d.until_unix_ms}});
  return {{"enabled", m.enabled},
          {"challenging", m.challenging},
          {"challenge_clock", m.challenge_clock},
          {"next_seek_unix_ms", maybe(m.next_seek_unix_ms)},
          {"bot_games_paused_until_unix_ms", m.bot_games_paused_until_unix_ms},
          {"bot_games_24h", m.bot_games_24h},
          {"declined_by", declined}};
}

json declines_json(const std::vector<DeclinedChallenge>& declines) {
  json out = json::array();
  for (const auto& d : declines)
    out.push_back({{"id", d.id},
                   {"challenger", player_json(d.challenger)},
                   {"time_control", d.time_control},
                   {"reason", d.reason},
                   {"detail", d.detail},
                   {"at_unix_ms", d.at_unix_ms}});
  return out;
}

json finished_json(const std::vector<FinishedGame>& finished) {
  json out = json::array();
  for (const auto& f : finished)
    out.push_back({{"id", f.id},
                   {"url", f.url},
                   {"color", f.color},
                   {"opponent", player_json(f.opponent)},
                   {"result", f.result},
                   {"rated", f.rated},
                   {"speed", f.speed},
                   {"our_rating", maybe(f.our_rating)},
                   {"rating_diff", maybe(f.rating_diff)},
                   {"plies", f.plies},
                   {"ended_unix_ms", f.ended_unix_ms}});
  return out;
}

json connection_json(const ConnectionView& c) {
  return {{"account", c.account},
          {"title", c.title},
          {"rating", maybe(c.rating)},
          {"event_stream_up", c.event_stream_up},
          {"up_since_unix_ms", c.up_since_unix_ms},
          {"reconnects", c.reconnects},
          {"last_error", c.last_error},
          {"last_error_unix_ms", c.last_error_unix_ms},
          {"draining", c.draining}};
}

json evaluator_json(const EvaluatorView& e) {
  return {{"backend", e.backend},
          {"device", e.device},
          {"precision", e.precision},
          {"healthy", e.healthy},
          {"failures", e.failures},
          {"nodes_per_second", e.nodes_per_second},
          {"batch_fill", maybe(e.batch_fill)},
          {"forward_us", maybe(e.forward_us)}};
}

}  // namespace

bool status_healthy(const StatusSnapshot& s) {
  return s.connection.event_stream_up && s.evaluator.healthy;
}

json status_json(const StatusSnapshot& s) {
  json games = json::array();
  for (const auto& g : s.games) games.push_back(game_json(g));
  json ratings = json::array();
  for (const auto& r : s.rating_history)
    ratings.push_back({{"at_unix_ms", r.at_unix_ms}, {"rating", r.rating}});
  return {{"version", s.version},
          {"now_unix_ms", s.now_unix_ms},
          {"started_unix_ms", s.started_unix_ms},
          {"healthy", status_healthy(s)},
          {"connection", connection_json(s.connection)},
          {"evaluator", evaluator_json(s.evaluator)},
          {"games", games},
          {"queue", queue_json(s.desk.queue)},
          {"matchmaking", matchmaking_json(s.desk.matchmaking)},
          {"declines", declines_json(s.declines)},
          {"finished", finished_json(s.finished)},
          {"rating_history", ratings}};
}

}  // namespace zh::bot
