#!/usr/bin/env bash
# Runs `mollett tune` (SPSA, docs/tuning.md) as a Slurm job. SPSA iterations
# cannot be spread over nodes: iteration k plays from the values iteration k-1
# left. `tune` has no --shard, so neither can the games inside one iteration;
# they spread over the CPUs of one task instead (--concurrency = CPUS). What a
# cluster adds is replicas: REPLICAS=K independent runs of the same tuning, one
# array task each, replica i with seed S+i-1 (S = --seed, default 0), and a
# summary job that shows how far apart their values ended.
#
#   [REPLICAS=K] scripts/slurm/submit-tune.sh RUN_DIR ARGS...
#   scripts/slurm/submit-tune.sh RUN_DIR        # resubmit unfinished replicas + summary
#
# RUN_DIR (on the shared folder) receives tune-i.txt (the iterations; a
# rerun resumes it), values-i.txt (the final set_option lines), logs/ and
# summary.txt. ARGS are `mollett tune` arguments without --out and --resume.
#
# Environment: MOLLETT, CPUS (CPUs per task and the default --concurrency; 1),
# SBATCH_ARGS, THROTTLE, PREPARE_ONLY=1, as for submit-match.sh.
#
# Example: 4 replicas of 2000 iterations, 8 games per iteration on 8 CPUs each.
#   REPLICAS=4 CPUS=8 scripts/slurm/submit-tune.sh /shared/runs/tune-1 \
#     --engine 'cmd=/shared/bin/mollett time=frac' --param endgame=18,12,22,1,0.004 \
#     --iterations 2000 --games-per-iter 8 --tc 2+0.05 --openings /shared/openings.txt --seed 1
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 RUN_DIR ARGS... | $0 RUN_DIR"
RUN_DIR=$(abs "$1")
if [ $# -eq 1 ]; then
    [ "$(cat "$RUN_DIR/kind" 2>/dev/null)" = tune ] || die "$RUN_DIR holds no tune run"
    # resubmit looks for shard-i.done; a tune replica writes replica-i.done.
    n=$(<"$RUN_DIR/shards") todo=()
    for ((i = 1; i <= n; i++)); do [ -f "$RUN_DIR/replica-$i.done" ] || todo+=("$i"); done
    if [ ${#todo[@]} -eq 0 ]; then bash "$SLURM_DIR/tune-summary.sbatch" "$RUN_DIR"; exit; fi
    live=$(live_tasks "$RUN_DIR") keep=()
    for i in "${todo[@]}"; do
        if grep -qx "$i" <<<"$live"; then echo "replica $i is still pending or running in Slurm: not resubmitted"
        else keep+=("$i"); fi
    done
    [ ${#keep[@]} -gt 0 ] || { echo "nothing to resubmit"; exit; }
    submit "$RUN_DIR" "$SLURM_DIR/tune.sbatch" "$SLURM_DIR/tune-summary.sbatch" "$(IFS=,; echo "${keep[*]}")" mollett-tune mollett-tune-summary
    exit
fi
shift
refuse_opts "out resume" "$@"
REPLICAS=${REPLICAS:-1}

seed=0 iterations=100 args=()   # tune's defaults
while [ $# -gt 0 ]; do
    case $1 in
        --seed) seed=${2:-}; shift 2 ;;
        --seed=*) seed=${1#--seed=}; shift ;;
        --iterations) iterations=${2:-}; args+=("$1" "$iterations"); shift 2 ;;
        --iterations=*) iterations=${1#--iterations=}; args+=("$1"); shift ;;
        *) args+=("$1"); shift ;;
    esac
done
[[ $seed =~ ^[0-9]+$ ]] || die "--seed must be a number"
[[ $iterations =~ ^[0-9]+$ ]] || die "--iterations must be a number"

new_run "$RUN_DIR" "$REPLICAS" tune
save_args "$RUN_DIR/args" "${args[@]}"
echo "$seed" > "$RUN_DIR/seed"
echo "$iterations" > "$RUN_DIR/iterations"
echo "run folder $RUN_DIR: $REPLICAS replica(s), seeds $seed..$((seed + REPLICAS - 1)), of: $(<"$RUN_DIR/mollett") tune ${args[*]}"

if [ "${PREPARE_ONLY:-0}" = 1 ]; then
    echo "prepared; run each replica i in 1..$REPLICAS with: SHARD_INDEX=i bash $SLURM_DIR/tune.sbatch $RUN_DIR"
    echo "then summarise with: bash $SLURM_DIR/tune-summary.sbatch $RUN_DIR"
    exit
fi
submit "$RUN_DIR" "$SLURM_DIR/tune.sbatch" "$SLURM_DIR/tune-summary.sbatch" "1-$REPLICAS" mollett-tune mollett-tune-summary
