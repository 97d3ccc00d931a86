#!/usr/bin/env python3
"""A tiny GTP Othello engine for the match runner's tests.

Plays the first legal move in a1..h8 order (modern rules only) and misbehaves
on request at its Nth `genmove` since start-up:
  --crash N      exit without answering
  --hang N       never answer
  --illegal N    answer d4 (a centre square, never empty)
  --garbage N    answer a line that is not GTP
  --flood N      write one line without end (until killed)
  --slow N:SECS  sleep SECS, then answer (N=0: every move)
  --nopass       refuse `play <colour> pass` like GRhino (passes implied)
  --upper        answer moves in upper case, passes as PASS
  --nboard       speak the NBoard protocol instead (first legal move, `=== PA` to pass)
  --log FILE     append every command received to FILE
  --value V      list `last_value` and answer it with V (any text: 1e300, nan);
                 with --nboard, V is the value in every `=== MOVE/V/0.01`
  --value-id P   answer `last_value` with the id P followed by the real one
                 (`=10` + `14`: an id no command had)
  --value-slow N:SECS  sleep SECS before answering the Nth `last_value`
  --peak P       strength from `set_option skill V`: resign at own move
                 21 - 2|V - P| of a game (rounded down; closer to P lasts longer)
No `newgame` (so no classic rules) and no `setboard`.
"""
import sys
import time

args = sys.argv[1:]
opt = {}
i = 0
while i < len(args):
    a = args[i]
    if a in ("--nopass", "--upper", "--nboard"):
        opt[a] = True
        i += 1
    else:
        opt[a] = args[i + 1]
        i += 2

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def start():
    b = ["."] * 64
    b[27] = b[36] = "W"
    b[28] = b[35] = "B"
    return b


def flips(b, sq, me):
    if b[sq] != ".":
        return []
    other = "W" if me == "B" else "B"
    out = []
    r0, c0 = divmod(sq, 8)
    for dr, dc in DIRS:
        r, c, line = r0 + dr, c0 + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and b[r * 8 + c] == other:
            line.append(r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and b[r * 8 + c] == me:
            out += line
    return out


def legal(b, me):
    return [s for s in range(64) if flips(b, s, me)]


def name(sq):
    s = "abcdefgh"[sq % 8] + str(sq // 8 + 1)
    return s.upper() if "--upper" in opt else s


def colour(word):
    return "B" if word.lower() in ("b", "black") else "W"


board = start()
genmoves = 0
game_genmoves = 0
values = 0
options = {}
log = open(opt["--log"], "a") if "--log" in opt else None


def nboard():
    """The NBoard protocol: the game arrives whole with `set game`."""
    import re
    b, side = start(), "B"
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "ping":
            print("pong " + words[1], flush=True)
        elif words[:2] == ["set", "game"]:
            ggf = line.split("game", 1)[1]
            bo = re.search(r"BO\[8 ([-*O]{64}) ([*O])\]", ggf)
            b = ["B" if c == "*" else "W" if c == "O" else "." for c in bo.group(1)]
            side = "B" if bo.group(2) == "*" else "W"
            for tag, mv in re.findall(r";?([BW])\[([A-Za-z0-9]+)", ggf[bo.end():]):
                side = tag
                if mv.upper() != "PA":
                    sq = "abcdefgh".find(mv[0].lower()) + 8 * (int(mv[1]) - 1)
                    for s in flips(b, sq, side) + [sq]:
                        b[s] = side
                side = "W" if side == "B" else "B"
        elif words[0] == "go":
            moves = legal(b, side)
            print("status thinking", flush=True)
            value = opt.get("--value", "0.00")
            print("=== " + (name(moves[0]).upper() + "/" + value + "/0.01" if moves else "PA"), flush=True)
        elif words[0] == "quit":
            break


if "--nboard" in opt:
    nboard()
    sys.exit(0)


def at(key):
    return key in opt and int(opt[key].split(":")[0]) in (genmoves, 0)


def answer(ident, text="", ok=True):
    sys.stdout.write(("=" if ok else "?") + ident + " " + text + "\n\n")
    sys.stdout.flush()


def resigns():
    """With --peak: the further skill is from the peak, the sooner it resigns."""
    if "--peak" not in opt or "skill" not in options:
        return False
    lasts = int(20 - 2 * abs(float(options["skill"]) - float(opt["--peak"])))
    return game_genmoves > lasts


for line in sys.stdin:
    if log:
        log.write(line)
        log.flush()
    words = line.split()
    if not words:
        continue
    ident = ""
    if words[0].isdigit():
        ident = words.pop(0)
    if not words:
        continue
    cmd, rest = words[0], words[1:]
    if cmd == "protocol_version":
        answer(ident, "2")
    elif cmd == "name":
        answer(ident, "fake")
    elif cmd == "version":
        answer(ident, "1")
    elif cmd == "list_commands":
        answer(ident, "\n".join(["protocol_version", "name", "version", "known_command",
                                 "list_commands", "quit", "boardsize", "clear_board",
                                 "play", "genmove", "time_settings", "time_left",
                                 "set_option"] + (["last_value"] if "--value" in opt else [])))
    elif cmd == "known_command":
        answer(ident, "false")
    elif cmd in ("boardsize", "komi", "time_settings", "time_left"):
        answer(ident)
    elif cmd == "clear_board":
        board = start()
        game_genmoves = 0
        answer(ident)
    elif cmd == "set_option" and len(rest) == 2:
        options[rest[0]] = rest[1]
        answer(ident)
    elif cmd == "quit":
        answer(ident)
        break
    elif cmd == "last_value" and "--value" in opt:
        values += 1
        if "--value-slow" in opt and int(opt["--value-slow"].split(":")[0]) == values:
            time.sleep(float(opt["--value-slow"].split(":")[1]))
        answer(opt.get("--value-id", "") + ident, opt["--value"])
    elif cmd == "play" and len(rest) == 2:
        me, mv = colour(rest[0]), rest[1].lower()
        if mv in ("pass", "pa"):
            if "--nopass" in opt:
                answer(ident, "syntax error", ok=False)
            else:
                answer(ident)
            continue
        sq = "abcdefgh".find(mv[0]) + 8 * (int(mv[1]) - 1)
        f = flips(board, sq, me)
        if not f:
            answer(ident, "illegal move", ok=False)
            continue
        for s in f + [sq]:
            board[s] = me
        answer(ident)
    elif cmd == "genmove" and rest:
        genmoves += 1
        game_genmoves += 1
        me = colour(rest[0])
        if resigns():
            answer(ident, "resign")
            continue
        if at("--crash"):
            sys.exit(3)
        if at("--hang"):
            time.sleep(3600)
        if at("--flood"):
            chunk = "x" * 65536
            try:
                while True:
                    sys.stdout.write(chunk)
                    sys.stdout.flush()
            except BrokenPipeError:
                sys.exit(0)
        if at("--garbage"):
            sys.stdout.write("hello, world\n\n")
            sys.stdout.flush()
            continue
        if at("--illegal"):
            answer(ident, name(27))
            continue
        if at("--slow"):
            time.sleep(float(opt["--slow"].split(":")[1]))
        moves = legal(board, me)
        if not moves:
            answer(ident, "PASS" if "--upper" in opt else "pass")
            continue
        sq = moves[0]
        for s in flips(board, sq, me) + [sq]:
            board[s] = me
        answer(ident, name(sq))
    else:
        answer(ident, "unknown command", ok=False)
