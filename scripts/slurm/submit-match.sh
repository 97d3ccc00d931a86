#!/usr/bin/env bash
# Runs a match or tournament as a Slurm job array, one shard per task, and
# merges the shards with `mollett report` in a job that waits for them.
#
#   scripts/slurm/submit-match.sh RUN_DIR SHARDS match|tournament ARGS...
#   scripts/slurm/submit-match.sh RUN_DIR     # resubmit unfinished shards + merge
#
# RUN_DIR is a folder on the file system shared by all nodes; it receives the
# run's record (arguments, binary), one result file per shard (shard-i.txt and
# shard-i.txt.ggf), logs/ and, from the merge, report.txt, games.txt and
# games.ggf. ARGS are `mollett match` or `tournament` arguments without --out,
# --shard and --resume, which each task sets. --sprt is not given to the shards
# (each would stop on its own slice) but to the merge's report.
#
# Environment: MOLLETT (the referee binary; default `mollett` on PATH, then
# target/release/mollett), CPUS (CPUs per task and the default --concurrency;
# 1), SBATCH_ARGS (more sbatch options for every job, e.g. "-p long -t 12:00:00"),
# THROTTLE (the most tasks running at once), PREPARE_ONLY=1 (write RUN_DIR,
# submit nothing: for other schedulers, see docs/cluster.md).
#
# Example: a 20,000-game match in 100 tasks of 200 games.
#   MOLLETT=/shared/bin/mollett scripts/slurm/submit-match.sh /shared/runs/sprt-1 100 \
#     match --engine 'name=new cmd=/shared/bin/mollett-new' --engine 'name=old cmd=/shared/bin/mollett-old' \
#     --games 20000 --tc 10+0.1 --openings /shared/openings.txt --seed 1 --sprt elo0=0 elo1=5
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 RUN_DIR SHARDS match|tournament ARGS... | $0 RUN_DIR"
RUN_DIR=$(abs "$1")
if [ $# -eq 1 ]; then
    [ "$(cat "$RUN_DIR/kind" 2>/dev/null)" = match ] || die "$RUN_DIR holds no match run"
    resubmit "$RUN_DIR" "$SLURM_DIR/match.sbatch" "$SLURM_DIR/match-merge.sbatch" mollett-match
    exit
fi
[ $# -ge 3 ] || die "usage: $0 RUN_DIR SHARDS match|tournament ARGS..."
SHARDS=$2
shift 2
case $1 in match|tournament) ;; *) die "the third argument must be match or tournament, not '$1'" ;; esac
refuse_opts "out shard resume" "$@"

# --sprt A B [C D] goes to the report; --variant goes to both.
shard_args=() report_args=()
while [ $# -gt 0 ]; do
    case $1 in
        --sprt)
            report_args+=("$1"); shift
            while [ $# -gt 0 ] && [[ $1 != -* ]]; do report_args+=("$1"); shift; done ;;
        --sprt=*) report_args+=("$1"); shift ;;
        --variant) shard_args+=("$1" "${2:-}"); report_args+=("$1" "${2:-}"); shift 2 ;;
        --variant=*) shard_args+=("$1"); report_args+=("$1"); shift ;;
        *) shard_args+=("$1"); shift ;;
    esac
done

new_run "$RUN_DIR" "$SHARDS" match
save_args "$RUN_DIR/args" "${shard_args[@]}"
save_args "$RUN_DIR/report-args" "${report_args[@]}"
echo "run folder $RUN_DIR: $SHARDS shards of: $(<"$RUN_DIR/mollett") ${shard_args[*]}"

if [ "${PREPARE_ONLY:-0}" = 1 ]; then
    echo "prepared; run each shard i in 1..$SHARDS with: SHARD_INDEX=i bash $SLURM_DIR/match.sbatch $RUN_DIR"
    echo "then merge with: bash $SLURM_DIR/match-merge.sbatch $RUN_DIR"
    exit
fi
submit "$RUN_DIR" "$SLURM_DIR/match.sbatch" "$SLURM_DIR/match-merge.sbatch" "1-$SHARDS" mollett-match
