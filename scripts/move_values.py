"""Positions from the held-out WTHOR year with every legal move's exact
score, as an OBF file for scripts/move_choice.py (issue 29).

Usage: python3 scripts/move_values.py path/to/mollett EMPTIES COUNT OUT.obf

Replays corpus/wthor/WTH_2018.wtb (never trained on), takes the position at
EMPTIES empty squares of evenly spaced games (COUNT of them, those where the
side to move has two moves or more), solves every child exactly with
`mollett solve --threads 2` and writes each position with its moves' scores,
best first, in the FFO files' format. Deterministic: the same arguments give
the same file.
"""
import os, re, subprocess, sys, tempfile

if len(sys.argv) != 5 or sys.argv[1].startswith("-"):
    sys.exit(__doc__)
binary, empties, count, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
data = open(os.path.join(root, "corpus", "wthor", "WTH_2018.wtb"), "rb").read()
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, me, sq):
    if board[sq] != ".":
        return []
    r, c = divmod(sq, 8)
    out = []
    for dr, dc in DIRS:
        line, rr, cc = [], r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] not in (".", me):
            line.append(rr * 8 + cc)
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] == me:
            out += line
    return out


def legal(board, me):
    return [sq for sq in range(64) if flips(board, me, sq)]


def play(board, me, sq):
    b = list(board)
    for f in flips(board, me, sq) + [sq]:
        b[f] = me
    return b


def obf(board, me):
    return "".join({"X": "X", "O": "O", ".": "-"}[x] for x in board) + " " + me


def name(sq):
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


games = [data[16 + 68 * g: 16 + 68 * (g + 1)] for g in range((len(data) - 16) // 68)]
picked = []
for g in games:
    board = ["."] * 64
    board[27], board[36], board[28], board[35] = "O", "O", "X", "X"
    me = "X"
    for byte in g[8:]:
        if byte == 0:
            break
        sq = (byte // 10 - 1) * 8 + byte % 10 - 1
        if board.count(".") == empties:
            moves = legal(board, me)
            if len(moves) >= 2:
                picked.append((board, me, moves))
            break
        if not flips(board, me, sq):
            me = "O" if me == "X" else "X"  # a pass: the file does not store it
        board = play(board, me, sq)
        me = "O" if me == "X" else "X"
step = max(1, len(picked) // count)
picked = picked[::step][:count]
children = []
for board, me, moves in picked:
    them = "O" if me == "X" else "X"
    children += [obf(play(board, me, sq), them) for sq in moves]
with tempfile.NamedTemporaryFile("w", suffix=".obf", delete=False) as f:
    f.write("\n".join(children) + "\n")
run = subprocess.run([binary, "solve", f.name, "--threads", "2", "--heartbeat", "0"],
                     capture_output=True, text=True)
os.unlink(f.name)
scores = [int(m.group(1)) for m in re.finditer(r"^\s*#\d+\s+\d+\s+\S+\s+([+-]?\d+)\s", run.stdout, re.M)]
if len(scores) != len(children):
    sys.exit(f"solve gave {len(scores)} scores for {len(children)} positions:\n{run.stderr[-2000:]}")
lines, k = [], 0
for board, me, moves in picked:
    vals = sorted(((-scores[k + i], name(sq)) for i, sq in enumerate(moves)), reverse=True)
    k += len(moves)
    lines.append(obf(board, me) + "; " + "; ".join(f"{n.upper()}:{v:+d}" for v, n in vals) + ";")
with open(out, "w") as f:
    f.write(f"# WTHOR 2018 positions at {empties} empties, every move solved exactly "
            f"(scripts/move_values.py {empties} {count})\n")
    f.write("\n".join(lines) + "\n")
print(f"{len(lines)} positions, {len(children)} solves")
