#!/usr/bin/env bash
# Proves scripts/slurm/ on a real Slurm: installs Debian's slurm-wlm, munge and
# grhino, starts a one-node cluster on this machine (munged, slurmctld and
# slurmd, a minimal slurm.conf, everything in a temporary folder, private
# ports), and through submit.sh:
#   1. a 16-game match, Mollett against GRhino, in 4 array tasks plus the
#      merge job: the merged games (moves and results) and totals must equal
#      an unsharded run's;
#   2. a 12-game self-play corpus in 4 tasks plus the merge: the merged corpus
#      must hold exactly the unsharded run's games;
#   3. the same match in 2 tasks, cancelled once the first games are in,
#      then resubmitted (the shards resume): every game exactly once, the
#      same records as the unsharded run;
#   4. the same for the self-play run;
#   5. two tune replicas plus the summary job: replica 1 must make the same
#      iterations as a direct `mollett tune` with its seed;
# then stops the daemons. Not part of .ci/run (it installs packages, starts
# daemons and takes a few minutes on two cores).
#
#   scripts/slurm/check.sh            (as root, on Debian or Ubuntu)
#
# Environment: MOLLETT (default `mollett` on PATH, then target/release/mollett),
# KEEP=1 (keep the temporary folder and print it), SKIP_INSTALL=1 (the
# packages are there already), PORT (slurmctld's port, slurmd takes the next;
# default 16817).
#
# The games must be reproducible for the comparison: Mollett plays at a fixed
# depth with no clock (movetime 0: a search cut by time would depend on the
# machine's load), GRhino with -b 0 (its opening book picks at random) and
# every game starts from an opening of 6 plies (GRhino picks its first move at
# random). Mollett is made weak (depth 2, handcrafted evaluation) so the score
# is mixed, and exact from 20 empties so the games take long enough to be
# cancelled in the middle of a shard.
set -uo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ "$(id -u)" = 0 ] || die "run as root: it installs packages and starts daemons"
MOLLETT=$(resolve_mollett) || exit 2
export MOLLETT
RHINO=/usr/games/gtp-rhino
PORT=${PORT:-16817}

passes=0 fails=0
pass() { echo "PASS: $*"; passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
step() { echo; echo "== $*"; }

step "install slurm-wlm, munge and grhino"
if [ "${SKIP_INSTALL:-0}" != 1 ]; then
    apt-get update -qq || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        slurm-wlm munge grhino > /tmp/mollett-slurm-check-apt.log 2>&1 \
        || { tail -20 /tmp/mollett-slurm-check-apt.log; die "apt-get install failed"; }
fi
for c in slurmctld slurmd munged mungekey sbatch squeue scancel sinfo scontrol "$RHINO"; do
    command -v "$c" >/dev/null || die "$c not found"
done
echo "$(slurmctld -V), munge $(munged -V 2>&1 | awk '{print $1}' | sed 's/munge-//'), $("$MOLLETT" --version)"

T=$(mktemp -d /tmp/mollett-slurm-check.XXXXXX)
chmod 755 "$T"                 # munged runs as the munge user and must reach its folders
SH=$T/shared                   # stands for the cluster's shared folder
REF=$T/reference               # unsharded runs, outside Slurm
mkdir -p "$SH" "$REF" "$T/log" "$T/state" "$T/spool"
NODE=$(hostname -s)
CTLD_PID='' SLURMD_PID='' MUNGED_PID=''

cleanup() {
    local rc=$?
    step "stop the cluster"
    if [ -n "$CTLD_PID" ] && kill -0 "$CTLD_PID" 2>/dev/null; then
        squeue -h -o %i 2>/dev/null | xargs -r scancel 2>/dev/null
    fi
    for p in $SLURMD_PID $CTLD_PID $MUNGED_PID; do kill "$p" 2>/dev/null; done
    for _ in $(seq 50); do
        alive=0
        for p in $SLURMD_PID $CTLD_PID $MUNGED_PID; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ $alive = 0 ] && break
        sleep 0.2
    done
    for p in $SLURMD_PID $CTLD_PID $MUNGED_PID; do
        if kill -0 "$p" 2>/dev/null; then echo "daemon $p still running: killing it"; kill -9 "$p" 2>/dev/null; fi
    done
    wait 2>/dev/null
    echo "daemons stopped (slurmd $SLURMD_PID, slurmctld $CTLD_PID, munged $MUNGED_PID)"
    if [ "${KEEP:-0}" = 1 ]; then echo "kept $T"; else rm -rf "$T"; fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "start a one-node cluster in $T"
install -d -o munge -g munge -m 700 "$T/munge"        # key, seed and log
install -d -o munge -g munge -m 755 "$T/munge-run"    # socket and pid file
runuser -u munge -- mungekey --create --keyfile="$T/munge/munge.key" || die "mungekey failed"
SOCK=$T/munge-run/munge.socket
runuser -u munge -- munged --socket="$SOCK" --key-file="$T/munge/munge.key" \
    --log-file="$T/munge/munged.log" --pid-file="$T/munge-run/munged.pid" \
    --seed-file="$T/munge/munged.seed" || die "munged did not start"
MUNGED_PID=$(<"$T/munge-run/munged.pid")
munge -S "$SOCK" -n | unmunge -S "$SOCK" > /dev/null || die "munge does not work"
echo "munged pid $MUNGED_PID"

export SLURM_CONF=$T/slurm.conf
cat > "$SLURM_CONF" <<EOF
ClusterName=mollettcheck
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCK
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MinJobAge=3600
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=check Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -c -f "$SLURM_CONF" > "$T/log/slurmctld.out" 2>&1 &
CTLD_PID=$!
for _ in $(seq 60); do scontrol ping 2>/dev/null | grep -q UP && break; sleep 0.5; done
scontrol ping | grep -q UP || { tail "$T/log/slurmctld.log"; die "slurmctld did not come up"; }
slurmd -D -f "$SLURM_CONF" -N "$NODE" > "$T/log/slurmd.out" 2>&1 &
SLURMD_PID=$!
for _ in $(seq 60); do [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break; sleep 0.5; done
echo "slurmctld pid $CTLD_PID, slurmd pid $SLURMD_PID"
sinfo
[ "$(sinfo -h -o %T)" = idle ] || { tail "$T/log/slurmd.log"; die "the node is not idle"; }

# ---- helpers -------------------------------------------------------------

# All job ids that the submit scripts recorded for RUN_DIR, comma-separated.
jobs_of() { awk '{print $2}' "$1/jobs" | paste -sd, -; }
# Waits until none of the jobs is pending or running (15 minutes at most).
wait_jobs() {
    local ids=$1 t
    for ((t = 0; t < 1800; t++)); do
        [ -z "$(squeue -h -j "$ids" -o %i 2>/dev/null)" ] && return 0
        sleep 0.5
    done
    echo "jobs $ids still queued after 15 minutes"; squeue; return 1
}
# One line per job or array task: id, name, state, exit code (status:signal).
states() {
    local id
    for id in ${1//,/ }; do scontrol -o show job "$id"; done 2>/dev/null | awk '{
        for (f = 1; f <= NF; f++) { split($f, kv, "="); v[kv[1]] = substr($f, length(kv[1]) + 2) }
        id = v["JobId"]; if (v["ArrayTaskId"] != "") id = v["ArrayJobId"] "_" v["ArrayTaskId"]
        printf "  %-6s %-24s %-10s exit=%s\n", id, v["JobName"], v["JobState"], v["ExitCode"]
        split("", v) }' | sort -V
}
# A match's records without the times: game, pair, players, opening, moves, discs, result, reason.
records() { grep -h '^game=' "$@" | sed 's/ time=[^ ]*//' | sort -t= -k2,2n; }
totals() { grep -E '^(Games|W-D-L|Score|Elo|LOS|Disc difference|Pairs|Faults)' "$1"; }
games_in() { if [ -f "$1" ]; then grep -c '^game=' "$1" || true; else echo 0; fi; }
corpus_games() { if [ -f "$1" ]; then grep -vc '^#' "$1" || true; else echo 0; fi; }
# Game lines of corpus files, sorted by index (only whole lines).
corpus_lines() { local f; for f in "$@"; do grep -v '^#' "$f" | grep -E '^[0-9]+ [A-Za-z0-9]+ [-+]?[0-9]+$'; done | sort -n -k1,1; }
dup_indices() { awk '{print $1}' | sort | uniq -d | paste -sd' ' -; }
show_merge_log() { local f; for f in "$1"/logs/merge-*.out; do echo "  -- $(basename "$f"):"; grep -vE '^\s*$' "$f" | sed 's/^/     /'; done; }

"$MOLLETT" openings --plies 6 --count 8 --max-eval 4 --depth 4 --seed 1 > "$SH/openings.txt" 2>/dev/null
MOLLETT_SPEC="name=mollett cmd=$MOLLETT init=set_option movetime 0 init=set_option depth 2 init=set_option endgame 20 init=set_option eval handcrafted tc=none"
RHINO_SPEC="name=rhino cmd=$RHINO -l 1 -b 0 tc=none"
MATCH=(match --engine "$MOLLETT_SPEC" --engine "$RHINO_SPEC" --games 16 --openings "$SH/openings.txt" --seed 3)
SELFPLAY=(--games 12 --depth 8 --exact-empties 18 --seed 7)

step "unsharded reference runs (outside Slurm)"
"$MOLLETT" "${MATCH[@]}" --quiet --out "$REF/match.txt" > "$REF/match.report"
"$MOLLETT" "${MATCH[@]}" --quiet --out "$REF/match-again.txt" > /dev/null
echo "match, unsharded: $(games_in "$REF/match.txt") games; $(grep W-D-L "$REF/match.report")"
if diff <(records "$REF/match.txt") <(records "$REF/match-again.txt") > /dev/null; then
    pass "GRhino -l 1 -b 0 and Mollett are deterministic here: a second unsharded match has the same 16 records"
else
    fail "a second unsharded match differs: the engines are not deterministic, the comparisons below cannot hold"
fi
"$MOLLETT" selfplay "${SELFPLAY[@]}" --threads 1 --corpus "$REF/selfplay.games" 2> /dev/null
echo "selfplay, unsharded: $(corpus_games "$REF/selfplay.games") games"

# ---- 1. match in 4 tasks -----------------------------------------------------
step "1. match: 16 games in 4 array tasks, then the merge job"
RUN=$SH/match-4
CPUS=1 "$SLURM_DIR/submit.sh" match "$RUN" 4 "${MATCH[@]}"
wait_jobs "$(jobs_of "$RUN")"
states "$(jobs_of "$RUN")"
for i in 1 2 3 4; do echo "  shard $i: $(games_in "$RUN/shard-$i.txt") games: $(grep -o '^game=[0-9]*' "$RUN/shard-$i.txt" | cut -d= -f2 | paste -sd, -)"; done
show_merge_log "$RUN"
echo "merged totals:";     totals "$RUN/report.txt" | sed 's/^/  /'
echo "unsharded totals:";  totals "$REF/match.report" | sed 's/^/  /'
if [ -s "$RUN/report.txt" ] && diff <(totals "$RUN/report.txt") <(totals "$REF/match.report") > /dev/null; then
    pass "merged totals equal the unsharded run's"
else fail "merged totals differ from the unsharded run's"; fi
if diff <(records "$RUN"/shard-*.txt) <(records "$REF/match.txt") > "$T/diff" && [ "$(games_in "$RUN/games.txt")" = 16 ]; then
    pass "the 16 merged games (moves, discs, results) equal the unsharded run's, game by game"
else fail "merged games differ from the unsharded run's:"; head "$T/diff"; fi

# ---- 2. selfplay in 4 tasks --------------------------------------------------
step "2. selfplay: 12 games in 4 array tasks, then the merge job"
RUN=$SH/selfplay-4
CPUS=1 "$SLURM_DIR/submit.sh" selfplay "$RUN" 4 "$SH/corpus/modern-s7.games" "${SELFPLAY[@]}"
wait_jobs "$(jobs_of "$RUN")"
states "$(jobs_of "$RUN")"
show_merge_log "$RUN"
echo "merged corpus: $(corpus_games "$SH/corpus/modern-s7.games") games; unsharded: $(corpus_games "$REF/selfplay.games") games"
if [ "$(head -1 "$SH/corpus/modern-s7.games")" = "$(head -1 "$REF/selfplay.games")" ] \
   && diff <(corpus_lines "$SH/corpus/modern-s7.games") <(corpus_lines "$REF/selfplay.games") > "$T/diff"; then
    pass "the merged corpus holds exactly the unsharded run's 12 games (same header, moves and results)"
else fail "the merged corpus differs from the unsharded run's:"; head "$T/diff"; fi

# ---- 3. match: cancel, resubmit, resume --------------------------------------
step "3. match resume: 16 games in 2 tasks, cancelled after the first games, resubmitted"
RUN=$SH/match-resume
CPUS=1 "$SLURM_DIR/submit.sh" match "$RUN" 2 "${MATCH[@]}"
ARRAY=$(awk '$1 == "tasks" {print $2; exit}' "$RUN/jobs")
for _ in $(seq 1200); do
    [ $(( $(games_in "$RUN/shard-1.txt") + $(games_in "$RUN/shard-2.txt") )) -ge 2 ] && break
    [ -z "$(squeue -h -j "$ARRAY" -o %i)" ] && break
    sleep 0.05
done
scancel "$ARRAY"
echo "scancel $ARRAY after $(games_in "$RUN/shard-1.txt") + $(games_in "$RUN/shard-2.txt") games"
wait_jobs "$(jobs_of "$RUN")"
states "$(jobs_of "$RUN")"
show_merge_log "$RUN"
k1=$(games_in "$RUN/shard-1.txt") k2=$(games_in "$RUN/shard-2.txt")
echo "after the kill: shard 1 has $k1 of 8 games, shard 2 $k2 of 8"
if [ "$k1" -lt 8 ] || [ "$k2" -lt 8 ]; then pass "a shard was killed mid-run"
else fail "both shards finished before the cancel: nothing was resumed"; fi
rm -f "$RUN"/logs/merge-*.out
CPUS=1 "$SLURM_DIR/submit.sh" match "$RUN"
wait_jobs "$(jobs_of "$RUN")"
states "$(jobs_of "$RUN")"
for i in 1 2; do grep -h "^shard $i/2 on" "$RUN/logs/task-$i.out" | sed 's/^/  /'; done
show_merge_log "$RUN"
dups=$(grep -h '^game=' "$RUN"/shard-*.txt | dup_indices)
n=$(cat "$RUN"/shard-*.txt | grep -c '^game=')
echo "after the resume: $n result lines in the shard files, repeated indices: ${dups:-none}"
if [ -z "$dups" ] && [ "$n" = 16 ] && diff <(records "$RUN"/shard-*.txt) <(records "$REF/match.txt") > "$T/diff"; then
    pass "killed and resumed: every game once, none lost, records equal the unsharded run's"
else fail "killed and resumed match lost, repeated or changed games:"; head "$T/diff"; fi
if [ -s "$RUN/report.txt" ] && diff <(totals "$RUN/report.txt") <(totals "$REF/match.report") > /dev/null; then
    pass "resumed run's merged totals equal the unsharded run's"
else fail "resumed run's merged totals differ"; fi

# ---- 4. selfplay: cancel, resubmit, resume -----------------------------------
step "4. selfplay resume: 12 games in 2 tasks, cancelled after the first games, resubmitted"
RUN=$SH/selfplay-resume
CPUS=1 "$SLURM_DIR/submit.sh" selfplay "$RUN" 2 "$SH/corpus/modern-s7-resume.games" "${SELFPLAY[@]}"
ARRAY=$(awk '$1 == "tasks" {print $2; exit}' "$RUN/jobs")
for _ in $(seq 1200); do
    [ $(( $(corpus_games "$RUN/shard-1.games") + $(corpus_games "$RUN/shard-2.games") )) -ge 2 ] && break
    [ -z "$(squeue -h -j "$ARRAY" -o %i)" ] && break
    sleep 0.05
done
scancel "$ARRAY"
echo "scancel $ARRAY after $(corpus_games "$RUN/shard-1.games") + $(corpus_games "$RUN/shard-2.games") games"
wait_jobs "$(jobs_of "$RUN")"
states "$(jobs_of "$RUN")"
show_merge_log "$RUN"
k1=$(corpus_games "$RUN/shard-1.games") k2=$(corpus_games "$RUN/shard-2.games")
echo "after the kill: shard 1 has $k1 of 6 games, shard 2 $k2 of 6"
if [ "$k1" -lt 6 ] || [ "$k2" -lt 6 ]; then pass "a selfplay shard was killed mid-run"
else fail "both selfplay shards finished before the cancel: nothing was resumed"; fi
rm -f "$RUN"/logs/merge-*.out
CPUS=1 "$SLURM_DIR/submit.sh" selfplay "$RUN"
wait_jobs "$(jobs_of "$RUN")"
states "$(jobs_of "$RUN")"
show_merge_log "$RUN"
dups=$(corpus_lines "$RUN"/shard-*.games | dup_indices)
echo "after the resume: $(corpus_lines "$RUN"/shard-*.games | wc -l) games in the shard files, repeated indices: ${dups:-none}"
if [ -z "$dups" ] && diff <(corpus_lines "$RUN"/shard-*.games) <(corpus_lines "$REF/selfplay.games") > "$T/diff" \
   && diff <(corpus_lines "$SH/corpus/modern-s7-resume.games") <(corpus_lines "$REF/selfplay.games") > /dev/null; then
    pass "killed and resumed self-play: every game once, none lost, the unsharded run's games"
else fail "killed and resumed self-play lost, repeated or changed games:"; head "$T/diff"; fi

# ---- 5. tune replicas --------------------------------------------------------
step "5. tune (the depth, for a visible result): 2 replicas (seeds 1, 2) of 4 iterations, then the summary job"
# shellcheck disable=SC2054   # the commas belong to --param
TUNE=(--engine "name=mollett cmd=$MOLLETT init=set_option movetime 0 init=set_option endgame 12 init=set_option eval handcrafted tc=none"
      --param depth=3,1,7,1,0.1 --iterations 4 --games-per-iter 2 --openings "$SH/openings.txt")
"$MOLLETT" tune "${TUNE[@]}" --seed 1 --quiet --out "$REF/tune.txt" > /dev/null
RUN=$SH/tune
REPLICAS=2 CPUS=1 "$SLURM_DIR/submit.sh" tune "$RUN" "${TUNE[@]}" --seed 1
wait_jobs "$(jobs_of "$RUN")"
states "$(jobs_of "$RUN")"
for f in "$RUN"/logs/merge-*.out; do sed 's/^/  /' "$f"; done
if [ -f "$RUN/replica-1.done" ] && [ -f "$RUN/replica-2.done" ] && diff "$RUN/tune-1.txt" "$REF/tune.txt" > "$T/diff"; then
    pass "both replicas finished; replica 1 made the same 4 iterations as a direct tune run with seed 1"
else fail "tune replicas: unfinished, or replica 1 differs from the direct run:"; head "$T/diff"; fi

step "result"
echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
