"""Strength measurement, run as `python3 -m tools.measure.strength COMMAND` (__main__.py says
how), one concern a module:

  runner      numbered games from numbered openings, N at a time, into a resumable JSONL file
  stats       a side's score, its Elo and 95 % interval, the failures charged to it
  sprt        the sequential probability ratio test on game pairs (pentanomial), its bounds
  sprt_match  an SPRT played as a match until it decides, resumable
  report      a match's results as a line or a Markdown row (clock and time use included)
  ladder      the ladder of Fairy-Stockfish rungs and its report's order
  losses      the lost games: when the side saw it, and the judgement lag behind a judge
"""
