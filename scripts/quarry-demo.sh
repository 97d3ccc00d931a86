#!/usr/bin/env bash
# Plays one whole Reversi game in Quarry, Mollett (black) against GRhino
# (white), under a virtual X server, and saves the final screenshot.
#
#   scripts/quarry-demo.sh [OUTDIR]        (default: target/quarry-demo)
#
# Needs quarry, xvfb, xdotool and imagemagick (Debian packages of those names)
# and target/release/mollett (cargo build --release). Environment overrides:
# MOLLETT, RHINO (GRhino's command line), TIMEOUT (seconds, default 600),
# XDISPLAY (default :97). The user's own ~/.quarry is not touched: Quarry runs
# with a temporary HOME.
#
# Quarry logs GTP only when an engine closes, so the script watches the game
# through a wrapper that copies Mollett's input and output; replaying those
# moves in Mollett tells when the game is over.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(mkdir -p "${1:-$ROOT/target/quarry-demo}" && cd "${1:-$ROOT/target/quarry-demo}" && pwd)
MOLLETT=${MOLLETT:-$ROOT/target/release/mollett}
RHINO=${RHINO:-/usr/games/gtp-rhino -l 1}
TIMEOUT=${TIMEOUT:-600}
XDISPLAY=${XDISPLAY:-:97}
QUARRY=${QUARRY:-/usr/games/quarry}

for tool in Xvfb xdotool import "$QUARRY" "$MOLLETT" "${RHINO%% *}"; do
    command -v "$tool" >/dev/null || { echo "quarry-demo: $tool not found" >&2; exit 2; }
done

QHOME=$(mktemp -d)
rm -f "$OUT"/mollett-in.log "$OUT"/mollett-out.log "$OUT"/gtp* "$OUT"/final.png
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$QHOME"
}
trap cleanup EXIT

# Mollett behind a logging wrapper (Quarry splits its command line on spaces).
cat >"$QHOME/mollett-logged" <<WRAP
#!/bin/sh
tee -a "$OUT/mollett-in.log" | "$MOLLETT" "\$@" | tee -a "$OUT/mollett-out.log"
WRAP
chmod +x "$QHOME/mollett-logged"

# Quarry's configuration: a tab before each '=', quoted values.
cat >"$QHOME/.quarry" <<CFG
[GTP Engine "Mollett"]
Screen name format	= "%n %v"
Name	= "Mollett"
Version	= "0.1.0"
Command line	= "$QHOME/mollett-logged"
Supported games	= "Reversi"

[GTP Engine "GRhino"]
Screen name format	= "%n %v"
Name	= "GRhino"
Command line	= "$RHINO"
Supported games	= "Reversi"

[New Game Parameters]
Game	= "Reversi"
Black is computer	= true
White is computer	= true
Engine playing black	= "Mollett"
Engine playing white	= "GRhino"

[New Reversi Game Parameters]
Board size	= 8
Time control type	= 0
CFG

Xvfb "$XDISPLAY" -screen 0 1024x768x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
PIDS+=($!)
export DISPLAY=$XDISPLAY
for _ in $(seq 50); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done

HOME=$QHOME "$QUARRY" --gtp-log="$OUT/gtp" >"$OUT/quarry.log" 2>&1 &
PIDS+=($!)

# Waits for a window whose title matches $1 and focuses it.
focus() {
    local wid=""
    for _ in $(seq 100); do
        wid=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1) && [ -n "$wid" ] && break
        sleep 0.2
    done
    [ -n "$wid" ] || { echo "quarry-demo: no window '$1'" >&2; exit 1; }
    xdotool windowfocus --sync "$wid"
    sleep 0.3
}

focus "Quarry Control Center"
xdotool key alt+n
focus "New Game"
xdotool key alt+f
sleep 0.5
xdotool key alt+p

# Game over: Mollett, given the game as it saw it, has a final score.
game_over() {
    [ -s "$OUT/mollett-in.log" ] || return 1
    python3 - "$OUT/mollett-in.log" "$OUT/mollett-out.log" <<'PY' | "$MOLLETT" 2>/dev/null | tail -2 | grep -q '^= '
import re, sys
commands = [l.strip() for l in open(sys.argv[1]) if l.strip()]
answers = open(sys.argv[2]).read().split("\n\n")
script = []
for cmd, ans in zip(commands, answers):
    cmd = re.sub(r"^\d+\s+", "", cmd)
    ans = re.sub(r"^[=?]\d*\s*", "", ans.strip())
    word = cmd.split()
    if word and word[0] == "play":
        script.append(cmd)
    elif word and word[0] == "genmove" and ans and not ans.startswith("?"):
        script.append(f"play {word[1]} {ans}")
print("\n".join(script + ["final_score"]))
PY
}

# Quarry need not tell an engine the last move of the game: a long silence
# after some moves also ends the watch (the screenshot shows the result).
quiet() {
    [ -s "$OUT/mollett-out.log" ] && (( $(date +%s) - $(stat -c %Y "$OUT/mollett-in.log") > 30 ))
}

start=$(date +%s)
until game_over || quiet; do
    if (( $(date +%s) - start > TIMEOUT )); then
        import -window root "$OUT/final.png"
        echo "quarry-demo: no game end within ${TIMEOUT}s (screenshot in $OUT/final.png)" >&2
        exit 1
    fi
    sleep 2
done
sleep 2 # let Quarry draw the last move and "game over"
import -window root "$OUT/final.png"
echo "game over after $(( $(date +%s) - start ))s; screenshot: $OUT/final.png"
