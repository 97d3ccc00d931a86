#!/usr/bin/env bash
# Plays a self-play corpus run (docs/training.md, corpus/README.md) as a Slurm
# job array, one shard per task, each into its own file, and merges the
# shards into one corpus file in a job that waits for them.
#
#   scripts/slurm/submit-selfplay.sh RUN_DIR SHARDS CORPUS_FILE ARGS...
#   scripts/slurm/submit-selfplay.sh RUN_DIR     # resubmit unfinished shards + merge
#
# RUN_DIR is a folder on the file system shared by all nodes: shard i writes
# RUN_DIR/shard-i.games; the merge writes CORPUS_FILE (a new corpus file of its
# own, e.g. corpus/modern-s7.games, with a row in corpus/README.md; if it
# exists, its games are kept and the header must match). Keep the shard files
# out of the folder that `mollett train` reads, or it counts their games twice.
# ARGS are `mollett selfplay` arguments without --corpus, --shard and --out;
# --games is the number of games of the whole run (all shards). For more
# games later, make another run with another --seed into a corpus file of its
# own (a new run of the same seed would replay the games it already has).
#
# Environment: MOLLETT (default `mollett` on PATH, then target/release/mollett),
# CPUS (CPUs per task and the default --threads; 1), SBATCH_ARGS (more sbatch
# options for every job), THROTTLE (the most tasks at once), PREPARE_ONLY=1
# (write RUN_DIR, submit nothing: for other schedulers, see docs/cluster.md).
#
# Example: 200,000 games of seed 7 in 50 tasks of 4 threads.
#   CPUS=4 scripts/slurm/submit-selfplay.sh /shared/runs/modern-s7 50 /shared/corpus/modern-s7.games \
#     --variant modern --games 200000 --depth 8 --exact-empties 20 --random-prob 0.05 --eval learned --seed 7
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 RUN_DIR SHARDS CORPUS_FILE ARGS... | $0 RUN_DIR"
RUN_DIR=$(abs "$1")
if [ $# -eq 1 ]; then
    [ "$(cat "$RUN_DIR/kind" 2>/dev/null)" = selfplay ] || die "$RUN_DIR holds no selfplay run"
    resubmit "$RUN_DIR" "$SLURM_DIR/selfplay.sbatch" "$SLURM_DIR/selfplay-merge.sbatch" mollett-selfplay
    exit
fi
[ $# -ge 3 ] || die "usage: $0 RUN_DIR SHARDS CORPUS_FILE ARGS..."
SHARDS=$2
CORPUS=$(abs "$3")
shift 3
[[ $CORPUS == *.games ]] || die "the corpus file should end in .games: $CORPUS"
refuse_opts "corpus shard out" "$@"

games=100   # selfplay's default
args=("$@")
for ((k = 0; k < ${#args[@]}; k++)); do
    case ${args[k]} in
        --games) games=${args[k + 1]:-} ;;
        --games=*) games=${args[k]#--games=} ;;
    esac
done
[[ $games =~ ^[0-9]+$ ]] || die "--games must be a number"

new_run "$RUN_DIR" "$SHARDS" selfplay
save_args "$RUN_DIR/args" "$@"
echo "$CORPUS" > "$RUN_DIR/corpus"
echo "$games" > "$RUN_DIR/games"
echo "run folder $RUN_DIR: $SHARDS shards of: $(<"$RUN_DIR/mollett") selfplay $*"
echo "merged into $CORPUS"

if [ "${PREPARE_ONLY:-0}" = 1 ]; then
    echo "prepared; run each shard i in 1..$SHARDS with: SHARD_INDEX=i bash $SLURM_DIR/selfplay.sbatch $RUN_DIR"
    echo "then merge with: bash $SLURM_DIR/selfplay-merge.sbatch $RUN_DIR"
    exit
fi
submit "$RUN_DIR" "$SLURM_DIR/selfplay.sbatch" "$SLURM_DIR/selfplay-merge.sbatch" "1-$SHARDS" mollett-selfplay
