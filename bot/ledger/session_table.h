#pragma once
// The games the daemon is playing: one GameSession per game id, with the opponent it is
// against, and the ids of games already over (the event stream replays gameStart on every
// reconnect, and a finished game must not be started again). Its own lock; the sessions'
// threads are joined outside it.

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bot/game/game_session.h"
#include "bot/ledger/seen_ids.h"

namespace zh::bot {

class SessionTable {
 public:
  using Factory = std::function<std::unique_ptr<GameSession>()>;

  // Starts the game unless it runs already or is over; `make` is called under the lock so a
  // replayed gameStart cannot start it twice. True when a session was started.
  // `bot`: the opponent is a bot (for games_reserved_for_humans).
  bool start(const std::string& game_id, const std::string& opponent_id, bool bot,
             const Factory& make);
  bool finished(const std::string& game_id) const;
  bool contains(const std::string& game_id) const;
  // gameFinish: remembers the id and tells the session, when there is one.
  void on_game_finish(const GameInfo& game);
  // Removes the sessions that are done (remembering their ids) and hands them to the caller,
  // who destroys them (joining their threads) without the lock held.
  std::vector<std::unique_ptr<GameSession>> take_done();
  // Every session, for the end of the run.
  std::vector<std::unique_ptr<GameSession>> take_all();
  void shutdown_all();

  int running() const;  // sessions not yet done
  int running_bots() const;
  int with_opponent(const std::string& opponent_id) const;
  int size() const;

 private:
  struct Running {
    std::unique_ptr<GameSession> session;
    std::string opponent_id;
    bool bot = false;
  };
  mutable std::mutex mutex_;
  std::map<std::string, Running> sessions_;
  SeenIds finished_;
};

}  // namespace zh::bot
