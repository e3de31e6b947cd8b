#include "engine/uci/uci.h"

#include <sstream>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/util/strings.h"

namespace zh {

namespace {

constexpr const char* kVariant = "crazyhouse";

}  // namespace

std::string uci_info_line(const SearchInfo& info) {
  std::ostringstream os;
  os << "info depth " << info.depth << " seldepth " << info.seldepth << " multipv 1 score ";
  if (info.mate)
    os << "mate " << *info.mate;
  else
    os << "cp " << info.cp;
  os << " nodes " << info.nodes << " nps " << info.nps << " hashfull " << info.hashfull << " time "
     << info.time_ms;
  if (!info.pv.empty()) {
    os << " pv";
    for (Move m : info.pv) os << ' ' << to_uci(m);
  }
  return os.str();
}

class UciLoop::Listener final : public SearchListener {
 public:
  explicit Listener(UciLoop& loop) : loop_(loop) {}
  void on_info(const SearchInfo& info) override { loop_.send(uci_info_line(info)); }
  void on_bestmove(const BestMove& best) override {
    std::string line =
        "bestmove " + (best.move.is_null() ? std::string("0000") : to_uci(best.move));
    if (!best.ponder.is_null()) line += " ponder " + to_uci(best.ponder);
    loop_.send(line);
  }
  void on_message(const std::string& text) override { loop_.send("info string " + text); }

 private:
  UciLoop& loop_;
};

UciLoop::UciLoop(Engine& engine, std::ostream& out, std::string engine_name)
    : engine_(engine), out_(out), name_(std::move(engine_name)) {
  listener_ = std::make_shared<Listener>(*this);
}

UciLoop::~UciLoop() {
  engine_.stop();
  engine_.wait();
}

void UciLoop::send(const std::string& line) {
  std::lock_guard lock(out_mutex_);
  out_ << line << '\n';
  out_.flush();
}

void UciLoop::run(std::istream& in) {
  // A tied input stream (std::cin is tied to std::cout) flushes the output before every read,
  // from this thread and without out_mutex_, while the search thread may be writing its
  // bestmove: a data race in the stream buffer, which now and then wrote a line twice. A GUI
  // then read the second copy as the answer to its next `go` (an illegal move, the previous
  // one). send() flushes every line itself, so the tie only did harm.
  std::ostream* const tied = in.tie(nullptr);
  for (std::string line; std::getline(in, line);)
    if (!handle(line)) break;
  engine_.stop();
  engine_.wait();
  in.tie(tied);
}

bool UciLoop::handle(const std::string& raw) {
  std::string line = raw;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::istringstream is(line);
  std::string cmd;
  is >> cmd;
  std::string args;
  std::getline(is, args);
  try {
    if (cmd.empty()) {
      return true;
    } else if (cmd == "uci") {
      cmd_uci();
    } else if (cmd == "isready") {
      for (const auto& warning : engine_.ensure_ready()) send("info string WARNING: " + warning);
      send("readyok");
    } else if (cmd == "ucinewgame") {
      engine_.new_game();
    } else if (cmd == "setoption") {
      cmd_setoption(args);
    } else if (cmd == "position") {
      cmd_position(args);
    } else if (cmd == "go") {
      cmd_go(args);
    } else if (cmd == "stop") {
      engine_.stop();
    } else if (cmd == "ponderhit") {
      engine_.ponderhit();
    } else if (cmd == "quit") {
      return false;
    } else if (cmd == "d") {
      send("info string fen " + engine_.game().position().fen());
    } else {
      send("info string unknown command '" + cmd + "'");
    }
  } catch (const std::exception& e) {
    send("info string error: " + std::string(e.what()));
    if (cmd == "isready") send("readyok");
  }
  return true;
}

void UciLoop::cmd_uci() {
  send("id name " + name_);
  send("id author the zhbot authors");
  send(std::string("option name UCI_Variant type combo default ") + kVariant + " var " + kVariant);
  send("option name Ponder type check default false");
  const Options options = engine_.options();
  for (const Option& o : options.all()) send(Options::uci_line(o));
  send("uciok");
}

void UciLoop::cmd_setoption(const std::string& args) {
  // setoption name <name, may contain spaces> [value <value, may contain spaces>]
  const auto tokens = split_words(args);
  std::string name, value;
  std::string* target = nullptr;
  for (const auto& t : tokens) {
    if (target != &value && lower(t) == "name") {
      target = &name;
    } else if (target == &name && lower(t) == "value") {
      target = &value;
    } else if (target) {
      if (!target->empty()) *target += ' ';
      *target += t;
    }
  }
  if (name.empty()) {
    send("info string setoption needs 'name <option> value <value>'");
    return;
  }
  const std::string key = lower(name);
  if (key == "uci_variant") {
    if (lower(value) != kVariant)
      send("info string variant '" + value + "' is not supported; zhbot plays crazyhouse only");
    return;
  }
  if (key == "ponder") {
    ponder_enabled_ = lower(value) == "true";
    return;
  }
  engine_.set_option(name, value);  // throws OptionError with the allowed values
}

void UciLoop::cmd_position(const std::string& args) {
  position_valid_ = false;  // until the engine has it
  const auto tokens = split_words(args);
  if (tokens.empty()) throw std::invalid_argument("position needs 'startpos' or 'fen <FEN>'");
  std::size_t i = 0;
  std::string fen;
  if (tokens[0] == "startpos") {
    i = 1;
  } else if (tokens[0] == "fen") {
    for (i = 1; i < tokens.size() && tokens[i] != "moves"; ++i) {
      if (!fen.empty()) fen += ' ';
      fen += tokens[i];
    }
    if (fen.empty()) throw std::invalid_argument("position fen needs a FEN");
  } else {
    throw std::invalid_argument("position needs 'startpos' or 'fen <FEN>', got '" + tokens[0] +
                                "'");
  }
  std::vector<std::string> moves;
  if (i < tokens.size()) {
    if (tokens[i] != "moves")
      throw std::invalid_argument("expected 'moves', got '" + tokens[i] + "'");
    moves.assign(tokens.begin() + std::ptrdiff_t(i) + 1, tokens.end());
  }
  engine_.set_position(fen, moves);
  position_valid_ = true;
}

void UciLoop::cmd_go(const std::string& args) {
  if (!position_valid_) {
    send("info string error: the last position command was rejected; send a valid one");
    send("bestmove 0000");
    return;
  }
  const auto tokens = split_words(args);
  SearchLimits limits;
  bool any_limit = false;
  auto number = [&](std::size_t& i) -> std::int64_t {
    if (i + 1 >= tokens.size()) throw std::invalid_argument("go " + tokens[i] + " needs a number");
    const std::string& t = tokens[++i];
    std::size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(t, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != t.size()) throw std::invalid_argument("go: '" + t + "' is not a number");
    return v;
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (t == "wtime") {
      limits.wtime = number(i);
    } else if (t == "btime") {
      limits.btime = number(i);
    } else if (t == "winc") {
      limits.winc = number(i);
    } else if (t == "binc") {
      limits.binc = number(i);
    } else if (t == "movestogo") {
      limits.movestogo = int(number(i));
    } else if (t == "movetime") {
      limits.movetime = number(i);
    } else if (t == "nodes") {
      limits.nodes = number(i);
    } else if (t == "infinite") {
      limits.infinite = true;
    } else if (t == "ponder") {
      limits.ponder = true;
    } else if (t == "depth" || t == "mate") {
      // MCTS has no depth to stop at. Next to a clock or another limit it is ignored (a GUI
      // must still get its move in time); alone it searches until stop, like `go infinite`.
      number(i);
      send("info string go " + t + " is not supported by MCTS; ignored");
      continue;
    } else {
      send("info string go: ignoring unknown token '" + t + "'");
      continue;
    }
    if (t != "ponder") any_limit = true;
  }
  if (!any_limit) limits.infinite = true;  // a bare `go` searches until stop
  try {
    engine_.go(limits, listener_);
  } catch (const std::exception& e) {
    // The GUI waits for a bestmove after every go.
    send("info string error: " + std::string(e.what()));
    send("bestmove 0000");
  }
}

}  // namespace zh
