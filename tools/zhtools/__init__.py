"""The library every measurement tool in tools/ shares, so each concern is written once:

  uci          a UCI engine process (send, read until a prefix, the crazyhouse handshake)
  fairy        Fairy-Stockfish as a UCI process: perft, position description, searches
  referee      the rules of a game, taken from Fairy-Stockfish (never from zhbot): legal moves,
               check, game end under lichess crazyhouse rules
  timecontrol  time controls in lichess notation ("1+1": 1 minute + 1 second a move)
  epd          the position files (openings, suites): FEN ; field value ; ...
  lab          the lab folder outside the checkout where long jobs keep their results

Plain python3, no third-party packages; the tools put tools/ on sys.path and import
`zhtools`.
"""
