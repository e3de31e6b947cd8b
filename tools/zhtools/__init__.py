"""The library every measurement tool shares, so each concern is written once:

  uci          a UCI engine process (send, read until a prefix, the crazyhouse handshake)
  fairy        Fairy-Stockfish as a UCI process: perft, position description, searches
  referee      the rules of a game, taken from Fairy-Stockfish (never from zhbot): legal moves,
               check, game end under lichess crazyhouse rules
  match        one refereed game between two engines (zhbot or Fairy-Stockfish), clocks and
               pondering included: what the strength ladder and the play check both play
  timecontrol  time controls in lichess notation ("1+1": 1 minute + 1 second a move)
  epd          the position files (openings, suites): FEN ; field value ; ...
  lab          the lab folder outside the checkout where long jobs keep their results
  steps        resumable steps: a marker per finished step, a lock per step shared by runs
  recipe       the next network's recipe (tools/lab/recipe.toml), the lab tools' defaults
  chunk_import teacher chunks taken in (the shared folder's, a GPU session's), checked
  shipped      the shipped network's file, from config/zhbot.yaml

Plain python3, no third-party packages (training.check_chunk runs as a child process), imported
as tools.zhtools from the checkout's root.
"""
import os

# The checkout: the tools' data (openings, suites) and default build paths are found from here.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
