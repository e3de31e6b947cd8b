#!/usr/bin/python3
"""Writes the neural-network test data of zhbot into this folder.

Run with Debian's interpreter (python3-torch 1.13):  /usr/bin/python3 make_test_data.py
Needs /usr/games/fairy-stockfish (legal moves and FENs after move sequences).

Everything here is computed independently of the C++ code it checks:
  * the 34 CrazyAra v1.0 input planes are encoded from the FEN text in Python;
  * move -> policy index follows the paper's table, written again in Python;
  * legal moves come from Fairy-Stockfish.
Outputs (deterministic: fixed seed, fixed positions):
  tiny.pt               a small residual net (TorchScript, zhbot.json metadata), < 1 MB
  tiny_planes.pt        the same weights, policy returned as [B,81,8,8]
  wrong_planes.pt       expects 30 input planes
  wrong_policy.pt       policy output [B,2272] (CrazyAra's old flat head)
  wrong_version.pt      declares input version 3.0 in its metadata
  value_only.pt         returns a single tensor
  reference.json        positions with plane fingerprints and the tiny net's value and priors
"""
import json
import os
import subprocess
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
FAIRY = "/usr/games/fairy-stockfish"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"

# (name, start fen, moves, repetitions); the FEN after the moves comes from Fairy-Stockfish.
POSITIONS = [
    ("start", START, [], 0),
    ("crazyara_test", "5r2/ppp2pkp/3p4/2bP4/2Pnp1N1/3P2pP/PP2n1P1/R2Q1R1K[PBRQnbb] w - - 0 28",
     ["Q@f6", "g7g8", "R@h8"], 0),
    ("after_e4_black", START, ["e2e4"], 0),
    ("en_passant", START, ["e2e4", "g8f6", "e4e5", "d7d5"], 0),
    ("pockets_both", START, ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "g1f3", "g8f6"], 0),
    ("promoted_black_to_move", "r3k2r/1P6/8/8/8/8/6p1/R3K2R[] w KQkq - 0 30", ["b7a8q"], 0),
    ("promoted_white_to_move", "r3k2r/1P6/8/8/8/8/6p1/R3K2R[] b KQkq - 0 30", ["g2h1q"], 0),
    ("partial_castling_counters", "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R[Nb] w Kq - 13 25", [], 0),
    ("repetition_1", START, ["g1f3", "g8f6", "f3g1", "f6g8"], 1),
    ("repetition_2_black", START, ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1",
                                   "f6g8", "e2e3"], 2),
    ("full_pockets", "4k3/8/8/8/8/8/8/4K3[QQRRBBNNPPPPPPPPqqrrbbnnpppppppp] b - - 37 60", [], 0),
]
TEMPERATURES = [1.0, 1.7]


# ---------------------------------------------------------------------------------------
# Fairy-Stockfish: FEN after moves, legal moves.
def fairy(commands):
    text = "uci\nsetoption name UCI_Variant value crazyhouse\n" + "\n".join(commands) + \
        "\nisready\n"
    out = subprocess.run([FAIRY], input=text, capture_output=True, text=True, timeout=30,
                         check=True).stdout
    return out.splitlines()


def fen_after(fen, moves):
    cmd = "position fen " + fen + (" moves " + " ".join(moves) if moves else "")
    for line in fairy([cmd, "d"]):
        if line.startswith("Fen: "):
            result = line[5:].strip()
            break
    else:
        sys.exit("fairy-stockfish printed no Fen line")
    # Fairy prints the pocket of a kings-only board as "[]"; plies it ignored would show as a
    # wrong side to move or move number, so check the ply count.
    plies = len(moves)
    start_ply = (int(fen.split()[-1]) - 1) * 2 + (fen.split()[1] == "b")
    end_ply = (int(result.split()[-1]) - 1) * 2 + (result.split()[1] == "b")
    if end_ply - start_ply != plies:
        sys.exit("fairy-stockfish rejected a move in %s %s" % (fen, moves))
    return result


def legal_moves(fen):
    moves = []
    for line in fairy(["position fen " + fen, "go perft 1"]):
        m = line.split(":")[0]
        if ":" in line and not line.startswith("Nodes") and len(m) in (4, 5):
            moves.append(m)
    return moves


# ---------------------------------------------------------------------------------------
# FEN parsing and the 34 input planes (CrazyAra v1.0).
PIECES = "pnbrqk"


def parse_fen(fen):
    parts = fen.split()
    board_text = parts[0]
    pocket = ""
    if "[" in board_text:
        board_text, pocket = board_text.split("[")
        pocket = pocket.rstrip("]")
    rows = board_text.split("/")
    if len(rows) == 9:  # pocket written as a ninth rank
        pocket = rows.pop()
    board = {}   # square -> (colour 'w'/'b', piece index)
    promoted = set()
    for i, row in enumerate(rows):
        rank = 7 - i
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            elif ch == "~":
                promoted.add(rank * 8 + file - 1)
            else:
                board[rank * 8 + file] = ("w" if ch.isupper() else "b", PIECES.index(ch.lower()))
                file += 1
    pockets = {"w": [0] * 5, "b": [0] * 5}
    for ch in pocket:
        pockets["w" if ch.isupper() else "b"][PIECES.index(ch.lower())] += 1
    ep = parts[3]
    return {
        "board": board, "promoted": promoted, "pockets": pockets, "side": parts[1],
        "castling": parts[2], "ep": None if ep == "-" else (int(ep[1]) - 1) * 8 + "abcdefgh".index(ep[0]),
        "halfmove": int(parts[4]), "fullmove": int(parts[5]),
    }


def encode(fen, repetitions, normalize=True):
    p = parse_fen(fen)
    me = p["side"]
    you = "b" if me == "w" else "w"
    planes = [[0.0] * 64 for _ in range(34)]

    def sq(s):  # black to move sees the board upside down
        return s ^ 56 if me == "b" else s

    def full(i, v):
        planes[i] = [float(v)] * 64

    for s, (colour, piece) in p["board"].items():
        planes[(0 if colour == me else 6) + piece][sq(s)] = 1.0
        if s in p["promoted"]:
            planes[24 if colour == me else 25][sq(s)] = 1.0
    if repetitions >= 1:
        full(12, 1)
    if repetitions >= 2:
        full(13, 1)
    for k in range(5):
        for colour, base in ((me, 14), (you, 19)):
            n = p["pockets"][colour][k]
            if n:
                full(base + k, n / 32.0 if normalize else n)
    if p["ep"] is not None:
        planes[26][sq(p["ep"])] = 1.0
    if me == "w":
        full(27, 1)
    full(28, p["fullmove"] / 500.0 if normalize else p["fullmove"])
    rights = p["castling"]
    mine, theirs = ("KQ", "kq") if me == "w" else ("kq", "KQ")
    for i, r in enumerate((mine[0], mine[1], theirs[0], theirs[1])):
        if r in rights:
            full(29 + i, 1)
    if p["halfmove"]:
        full(33, p["halfmove"] / 40.0 if normalize else p["halfmove"])
    return [v for plane in planes for v in plane]


def fingerprint(flat):
    best = max(flat)
    return {"sum": sum(flat), "max": best, "key": sum(i * v for i, v in enumerate(flat)),
            "argmax": flat.index(best)}


# ---------------------------------------------------------------------------------------
# Policy map: move text -> flat index (paper Table 2), black mirrored by rank.
DIRECTIONS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]  # (dr, df)
KNIGHT = [(2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1)]


def square_of(text):
    return (int(text[1]) - 1) * 8 + "abcdefgh".index(text[0])


def mirror(uci):
    return "".join(str(9 - int(c)) if c.isdigit() else c for c in uci)


def policy_index(uci, side):
    if side == "b":
        uci = mirror(uci)
    if "@" in uci:
        return (76 + "PNBRQ".index(uci[0])) * 64 + square_of(uci[2:4])
    frm, to = square_of(uci[0:2]), square_of(uci[2:4])
    dr, df = to // 8 - frm // 8, to % 8 - frm % 8
    if len(uci) == 5:
        return (64 + "nbrq".index(uci[4]) * 3 + df + 1) * 64 + frm
    if (dr, df) in KNIGHT:
        return (56 + KNIGHT.index((dr, df))) * 64 + frm
    dist = max(abs(dr), abs(df))
    direction = DIRECTIONS.index(((dr > 0) - (dr < 0), (df > 0) - (df < 0)))
    return (direction * 7 + dist - 1) * 64 + frm


# ---------------------------------------------------------------------------------------
# A tiny AlphaZero-style net: stem, residual blocks, value head (tanh), policy-map head.
def conv_bn(cin, cout, k):
    return nn.Sequential(nn.Conv2d(cin, cout, k, padding=k // 2, bias=False), nn.BatchNorm2d(cout))


class Block(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.a = conv_bn(ch, ch, 3)
        self.b = conv_bn(ch, ch, 3)

    def forward(self, x):
        return F.relu(x + self.b(F.relu(self.a(x))))


class TinyNet(nn.Module):
    def __init__(self, planes=34, ch=16, blocks=1, policy=5184, policy_as_planes=False):
        super().__init__()
        self.policy_as_planes = policy_as_planes
        self.stem = conv_bn(planes, ch, 3)
        self.body = nn.Sequential(*[Block(ch) for _ in range(blocks)])
        self.v_conv = conv_bn(ch, 2, 1)
        self.v_fc1 = nn.Linear(2 * 64, 32)
        self.v_fc2 = nn.Linear(32, 1)
        self.p_conv = nn.Conv2d(ch, 81, 3, padding=1)
        self.policy = policy

    def forward(self, x):
        x = self.body(F.relu(self.stem(x)))
        v = torch.tanh(self.v_fc2(F.relu(self.v_fc1(F.relu(self.v_conv(x)).flatten(1)))))
        p = self.p_conv(x)
        if self.policy != 5184:
            return v, p.flatten(1)[:, :self.policy]
        if self.policy_as_planes:
            return v, p
        return v, p.flatten(1)


class ValueOnly(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        v, _ = self.net(x)
        return v


def randomize(net, seed):
    torch.manual_seed(seed)
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):  # non-trivial folded statistics
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
            m.weight.data.uniform_(0.7, 1.3)
            m.bias.data.uniform_(-0.1, 0.1)
    net.p_conv.weight.data *= 4.0  # spread the logits so priors differ clearly
    net.v_fc1.weight.data *= 3.0  # and the values
    net.v_fc2.weight.data *= 3.0
    net.eval()
    return net


def save(module, name, metadata):
    extra = {"zhbot.json": json.dumps(metadata, sort_keys=True)} if metadata else {}
    scripted = torch.jit.script(module)
    scripted.save(os.path.join(HERE, name), _extra_files=extra)
    return scripted


def main():
    torch.manual_seed(20240601)
    meta = {"input_version": "1.0", "policy_format": "map81x8x8", "architecture": "tiny res 1x16",
            "training": "random weights (test model)"}
    net = randomize(TinyNet(), 1)
    save(net, "tiny.pt", meta)
    planes_net = TinyNet(policy_as_planes=True)
    planes_net.load_state_dict(net.state_dict())
    planes_net.eval()
    save(planes_net, "tiny_planes.pt", meta)
    save(randomize(TinyNet(planes=30), 2), "wrong_planes.pt", meta)
    save(randomize(TinyNet(policy=2272), 3), "wrong_policy.pt", meta)
    save(net, "wrong_version.pt", dict(meta, input_version="3.0"))
    save(ValueOnly(net), "value_only.pt", None)

    positions = []
    with torch.no_grad():
        for name, fen, moves, reps in POSITIONS:
            final = fen_after(fen, moves)
            side = final.split()[1]
            x = torch.tensor(encode(final, reps), dtype=torch.float32).reshape(1, 34, 8, 8)
            v, p = net(x)
            legal = legal_moves(final)
            logits = torch.tensor([p[0, policy_index(m, side)].item() for m in legal],
                                  dtype=torch.float64)
            entry = {
                "name": name, "fen": final, "start_fen": fen, "moves": moves,
                "repetitions": reps,
                "planes": fingerprint(encode(final, reps)),
                "planes_raw": fingerprint(encode(final, reps, normalize=False)),
                "value": v.item(),
                "priors": {},
                "policy_indices": {m: policy_index(m, side) for m in legal},
            }
            for t in TEMPERATURES:
                probs = torch.softmax(logits / t, dim=0)
                entry["priors"]["%.1f" % t] = {m: probs[i].item() for i, m in enumerate(legal)}
            positions.append(entry)
    with open(os.path.join(HERE, "reference.json"), "w") as f:
        json.dump({"model": "tiny.pt", "positions": positions}, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
