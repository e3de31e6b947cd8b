#pragma once
// The UCI front end: a thin text shell over engine/engine.h, as cutechess-cli and lichess-bot
// drive it. Commands: uci, isready, ucinewgame, setoption, position, go (wtime btime winc binc
// movestogo movetime nodes infinite ponder), stop, ponderhit, quit, and `d` (print the FEN).
// Bad input gets an `info string` that says what was wrong and changes nothing.

#include <istream>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>

#include "engine/engine.h"

namespace zh {

class UciLoop {
 public:
  UciLoop(Engine& engine, std::ostream& out, std::string engine_name);
  ~UciLoop();

  // Reads commands until `quit` or end of input; waits for a running search to finish. `in`
  // is untied meanwhile: only send() may touch the output.
  void run(std::istream& in);
  // Handles one command line; returns false for `quit`.
  bool handle(const std::string& line);

  // Thread-safe output of one line.
  void send(const std::string& line);

 private:
  class Listener;
  void cmd_uci();
  void cmd_setoption(const std::string& args);
  void cmd_position(const std::string& args);
  void cmd_go(const std::string& args);

  Engine& engine_;
  std::ostream& out_;
  std::mutex out_mutex_;
  std::string name_;
  bool ponder_enabled_ = false;
  // False after a position command was rejected: a go then answers 0000 rather than search the
  // position before it, whose best move is illegal in the game the GUI meant.
  bool position_valid_ = true;
  std::shared_ptr<Listener> listener_;
};

// Formats a search info as a UCI `info` line.
std::string uci_info_line(const SearchInfo& info);

}  // namespace zh
