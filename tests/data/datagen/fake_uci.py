#!/usr/bin/env python3
"""A scripted UCI engine for the teacher-driver tests. Mode (argv[1]):
ok       answers every search with two MultiPV lines and bestmove e2e4
garbage  the same, mixed with lines no engine should print
crash    exits as soon as it is asked to search
illegal  answers bestmove e2e5
hang     never answers a search
"""
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        print("id name fake\nuciok", flush=True)
    elif cmd[0] == "isready":
        print("readyok", flush=True)
    elif cmd[0] == "quit":
        break
    elif cmd[0] == "go":
        if mode == "crash":
            sys.exit(3)
        if mode == "hang":
            continue
        if mode == "garbage":
            print("\x00\x01 nonsense\ninfo depth x score banana\ninfo multipv 1 score cp 99 pv zz9")
            print("bestmovement soon")
        print("info depth 1 multipv 2 score cp 10 nodes 5 pv d2d4 d7d5")
        print("info depth 1 multipv 1 score cp 20 nodes 5 pv e2e4 e7e5")
        print("info depth 2 multipv 1 score cp 25 lowerbound nodes 9 pv g1f3")
        print("bestmove %s ponder e7e5" % ("e2e5" if mode == "illegal" else "e2e4"), flush=True)
