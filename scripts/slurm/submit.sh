#!/usr/bin/env bash
# Submits a sharded Mollett run to Slurm (docs/cluster.md): a job array, one
# task per shard (or tune replica), each into its own file in RUN_DIR, then a
# job that waits for them and merges (or summarises) what they wrote.
#
#   scripts/slurm/submit.sh match    RUN_DIR SHARDS match|tournament ARGS...
#   scripts/slurm/submit.sh selfplay RUN_DIR SHARDS CORPUS_FILE ARGS...
#   scripts/slurm/submit.sh analyze  RUN_DIR SHARDS ARGS...
#   [REPLICAS=K] scripts/slurm/submit.sh tune RUN_DIR ARGS...
#   scripts/slurm/submit.sh JOB RUN_DIR     # resubmit unfinished tasks + merge
#
# RUN_DIR is a folder on the file system shared by all nodes; ARGS are the
# `mollett` subcommand's arguments without those each task sets (refused):
#   match    --out --shard --resume. Shard i writes shard-i.txt (and .ggf);
#            the merge report.txt, games.txt and games.ggf. --sprt goes to the
#            merge's report, not to the shards (each would stop on its own slice).
#   selfplay --corpus --shard --out. Shard i writes shard-i.games; the merge
#            CORPUS_FILE (a new corpus file of its own, with a row in
#            corpus/README.md; if it exists, its games are kept and the header
#            must match). --games counts the games of the whole run. Keep the
#            shard files out of the folder `mollett train` reads.
#   analyze  --shard --out --resume --json --summary (docs/analyze.md). Shard i
#            writes shard-i.jsonl; the merge summary.txt and all.jsonl, the
#            summary an unsharded run prints.
#   tune     --out --resume (docs/tuning.md). SPSA's iterations are sequential,
#            so a cluster adds replicas: K independent runs, replica i with seed
#            S+i-1 (S = --seed, default 0), into tune-i.txt and values-i.txt;
#            the summary job shows how far apart their values ended.
#
# Environment: MOLLETT (the referee binary; default `mollett` on PATH, then
# target/release/mollett), CPUS (CPUs per task and the default --concurrency
# or --threads; 1), SBATCH_ARGS (more sbatch options for every job, e.g.
# "-p long -t 12:00:00"), THROTTLE (the most tasks running at once),
# PREPARE_ONLY=1 (write RUN_DIR, submit nothing: for other schedulers, see
# docs/cluster.md).
#
# Example: a 20,000-game match in 100 tasks of 200 games.
#   MOLLETT=/shared/bin/mollett scripts/slurm/submit.sh match /shared/runs/sprt-1 100 \
#     match --engine 'name=new cmd=/shared/bin/mollett-new' --engine 'name=old cmd=/shared/bin/mollett-old' \
#     --games 20000 --tc 10+0.1 --openings /shared/openings.txt --seed 1 --sprt elo0=0 elo1=5
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

JOB=${1:-}
case $JOB in
    match) usage="match RUN_DIR SHARDS match|tournament ARGS..." ;;
    selfplay) usage="selfplay RUN_DIR SHARDS CORPUS_FILE ARGS..." ;;
    analyze) usage="analyze RUN_DIR SHARDS ARGS..." ;;
    tune) usage="tune RUN_DIR ARGS..." ;;
    *) die "usage: $0 match|selfplay|analyze|tune RUN_DIR ...; the first argument must be the job, not '$JOB'" ;;
esac
[ $# -ge 2 ] || die "usage: $0 $usage | $0 $JOB RUN_DIR"
RUN_DIR=$(abs "$2")
shift 2
# What the array runs, the job after it, and what a task is called.
TASK=$SLURM_DIR/$JOB.sbatch NAME=mollett-$JOB
if [ "$JOB" = tune ]; then
    MERGE=$SLURM_DIR/tune-summary.sbatch MERGE_NAME=mollett-tune-summary UNIT=replica MERGE_VERB=summarise
else
    MERGE=$SLURM_DIR/$JOB-merge.sbatch MERGE_NAME=mollett-$JOB-merge UNIT=shard MERGE_VERB=merge
fi

if [ $# -eq 0 ]; then
    [ "$(cat "$RUN_DIR/kind" 2>/dev/null)" = "$JOB" ] || die "$RUN_DIR holds no $JOB run"
    resubmit "$RUN_DIR" "$TASK" "$MERGE" "$NAME" "$MERGE_NAME" "$UNIT"
    exit
fi

case $JOB in
match)
    [ $# -ge 2 ] || die "usage: $0 $usage"
    SHARDS=$1
    shift
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
    ;;
selfplay)
    [ $# -ge 2 ] || die "usage: $0 $usage"
    SHARDS=$1
    CORPUS=$(abs "$2")
    shift 2
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
    ;;
analyze)
    [ $# -ge 2 ] || die "usage: $0 $usage"
    SHARDS=$1
    shift
    refuse_opts "shard out resume json summary" "$@"
    new_run "$RUN_DIR" "$SHARDS" analyze
    save_args "$RUN_DIR/args" "$@"
    echo "run folder $RUN_DIR: $SHARDS shards of: $(<"$RUN_DIR/mollett") analyze $*"
    ;;
tune)
    refuse_opts "out resume" "$@"
    SHARDS=${REPLICAS:-1}
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
    new_run "$RUN_DIR" "$SHARDS" tune
    save_args "$RUN_DIR/args" "${args[@]}"
    echo "$seed" > "$RUN_DIR/seed"
    echo "$iterations" > "$RUN_DIR/iterations"
    echo "run folder $RUN_DIR: $SHARDS replica(s), seeds $seed..$((seed + SHARDS - 1)), of: $(<"$RUN_DIR/mollett") tune ${args[*]}"
    ;;
esac

if [ "${PREPARE_ONLY:-0}" = 1 ]; then
    echo "prepared; run each $UNIT i in 1..$SHARDS with: SHARD_INDEX=i bash $TASK $RUN_DIR"
    echo "then $MERGE_VERB with: bash $MERGE $RUN_DIR"
    exit
fi
submit "$RUN_DIR" "$TASK" "$MERGE" "1-$SHARDS" "$NAME" "$MERGE_NAME"
