#!/usr/bin/env bash
# Reviews a game database (`mollett analyze`, docs/analyze.md) as a Slurm job
# array, one shard per task, each into its own analysis file, then prints the
# whole run's summary in a job that waits for them.
#
#   scripts/slurm/submit-analyze.sh RUN_DIR SHARDS ARGS...
#   scripts/slurm/submit-analyze.sh RUN_DIR     # resubmit unfinished shards + merge
#
# RUN_DIR is a folder on the file system shared by all nodes: shard i writes
# RUN_DIR/shard-i.jsonl (one JSON line a move, as it is reviewed) and the
# merge RUN_DIR/summary.txt and RUN_DIR/all.jsonl. ARGS are `mollett analyze`
# arguments (the game files first) without --shard, --out, --resume, --json
# and --summary. A shard is game i, i+n, ... of all the files in order;
# each move's review depends on its position only, so the merged summary is
# the one an unsharded run prints.
#
# Environment: as submit-selfplay.sh (MOLLETT, CPUS, SBATCH_ARGS, THROTTLE,
# PREPARE_ONLY=1).
#
# Example: WTHOR 2018 in 20 tasks.
#   scripts/slurm/submit-analyze.sh /shared/runs/wthor-2018 20 /shared/wthor/WTH_2018.wtb --depth 16
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 RUN_DIR SHARDS ARGS... | $0 RUN_DIR"
RUN_DIR=$(abs "$1")
if [ $# -eq 1 ]; then
    [ "$(cat "$RUN_DIR/kind" 2>/dev/null)" = analyze ] || die "$RUN_DIR holds no analyze run"
    resubmit "$RUN_DIR" "$SLURM_DIR/analyze.sbatch" "$SLURM_DIR/analyze-merge.sbatch" mollett-analyze
    exit
fi
[ $# -ge 3 ] || die "usage: $0 RUN_DIR SHARDS ARGS..."
SHARDS=$2
shift 2
refuse_opts "shard out resume json summary" "$@"

new_run "$RUN_DIR" "$SHARDS" analyze
save_args "$RUN_DIR/args" "$@"
echo "run folder $RUN_DIR: $SHARDS shards of: $(<"$RUN_DIR/mollett") analyze $*"

if [ "${PREPARE_ONLY:-0}" = 1 ]; then
    echo "prepared; run each shard i in 1..$SHARDS with: SHARD_INDEX=i bash $SLURM_DIR/analyze.sbatch $RUN_DIR"
    echo "then merge with: bash $SLURM_DIR/analyze-merge.sbatch $RUN_DIR"
    exit
fi
submit "$RUN_DIR" "$SLURM_DIR/analyze.sbatch" "$SLURM_DIR/analyze-merge.sbatch" "1-$SHARDS" mollett-analyze
