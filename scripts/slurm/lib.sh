# Shared by submit.sh and check.sh (sourced, not run). The task scripts
# (*.sbatch) do not source it: sbatch runs a copy of the script from its spool
# folder, so each of them stands alone.

SLURM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SLURM_DIR/../.." && pwd)

die() { echo "$(basename "$0"): $*" >&2; exit 2; }

# The referee binary: $MOLLETT, else `mollett` on PATH, else the repository's
# target/release/mollett. Printed as an absolute path: every node must see the
# same file there (put it on the shared folder).
resolve_mollett() {
    local m=${MOLLETT:-}
    if [ -z "$m" ]; then
        if command -v mollett >/dev/null 2>&1; then m=$(command -v mollett)
        else m=$REPO_ROOT/target/release/mollett; fi
    elif [[ $m != */* ]]; then
        m=$(command -v "$m") || die "MOLLETT=$MOLLETT is not on PATH"
    fi
    [ -x "$m" ] || die "no mollett binary at $m (set MOLLETT, or cargo build --release)"
    echo "$(cd "$(dirname "$m")" && pwd)/$(basename "$m")"
}

# new_run RUN_DIR SHARDS KIND: creates the run folder and records what every
# task needs (the binary, its checksum, the shard count). Refuses a folder that
# already holds a run: resubmit that one with the submit script, KIND and RUN_DIR alone.
new_run() {
    local dir=$1 shards=$2 kind=$3
    [[ $shards =~ ^[1-9][0-9]*$ ]] || die "SHARDS must be a positive number, not '$shards'"
    [ -e "$dir/kind" ] && die "$dir already holds a run; to resubmit its unfinished tasks: $0 $kind $dir"
    mkdir -p "$dir/logs"
    local m; m=$(resolve_mollett)
    echo "$m" > "$dir/mollett"
    sha256sum < "$m" | cut -d' ' -f1 > "$dir/mollett.sha256"
    echo "$shards" > "$dir/shards"
    echo "$kind" > "$dir/kind"
    pwd > "$dir/cwd"   # tasks start here, so relative paths in ARGS mean what they meant here
}

# abs PATH: the absolute form of a path whose folder exists (or is created).
abs() { mkdir -p "$(dirname "$1")" && echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }

# has_opt NAME ARGS...: whether ARGS hold --NAME or --NAME=...
has_opt() {
    local name=$1 a; shift
    for a in "$@"; do [[ $a == "--$name" || $a == "--$name="* ]] && return 0; done
    return 1
}

# refuse_opts "NAME ..." ARGS...: dies if ARGS hold an option the scripts set.
refuse_opts() {
    local names=$1 n; shift
    for n in $names; do
        has_opt "$n" "$@" && die "do not pass --$n: the task scripts set it for each shard"
    done
    return 0
}

# save_args FILE ARGS...: NUL-separated, so engine specs keep their spaces.
save_args() { local f=$1; shift; : > "$f"; [ $# -eq 0 ] || printf '%s\0' "$@" > "$f"; }

# Tasks of RUN_DIR's jobs that Slurm still has pending or running, one index a line.
live_tasks() {
    local dir=$1 ids
    [ -s "$dir/jobs" ] || return 0
    ids=$(awk '$1 == "tasks" {print $2}' "$dir/jobs" | paste -sd, -)
    [ -n "$ids" ] || return 0
    # %K is the array index; a pending array prints a range like 1-8 or 2,5.
    squeue -h -j "$ids" -o '%K' 2>/dev/null | tr ',' '\n' | while IFS=- read -r a b; do
        [[ $a =~ ^[0-9]+$ ]] || continue
        seq "$a" "${b:-$a}"
    done | sort -n -u
}

# unfinished RUN_DIR UNIT: indices without a UNIT-i.done marker (UNIT: shard,
# or replica for tune), comma-separated.
unfinished() {
    local dir=$1 unit=$2 n i out=()
    n=$(<"$dir/shards")
    for ((i = 1; i <= n; i++)); do [ -f "$dir/$unit-$i.done" ] || out+=("$i"); done
    (IFS=,; echo "${out[*]}")
}

# submit RUN_DIR TASK_SCRIPT MERGE_SCRIPT(or -) ARRAY_SPEC JOB_NAME [MERGE_NAME]: submits the
# array (one task per listed shard) and, when MERGE_SCRIPT is given, a merge job
# that runs after every task has ended, however it ended (afterany: the merge
# says which shards are unfinished). Extra sbatch options for both jobs come
# from $SBATCH_ARGS (word-split: partition, account, time limit) and
# Slurm's own SBATCH_* variables; $CPUS sets --cpus-per-task of the tasks and
# $THROTTLE the most tasks running at once (--array=SPEC%THROTTLE).
submit() {
    local dir=$1 task=$2 merge=$3 spec=$4 name=$5 merge_name=${6:-$5-merge} jid mid
    # shellcheck disable=SC2086
    jid=$(sbatch --parsable --job-name="$name" --array="$spec${THROTTLE:+%$THROTTLE}" \
            --cpus-per-task="${CPUS:-1}" --requeue --open-mode=append \
            --output="$dir/logs/task-%a.out" ${SBATCH_ARGS:-} "$task" "$dir") || die "sbatch failed"
    jid=${jid%%;*}
    echo "tasks $jid $spec" >> "$dir/jobs"
    echo "submitted array job $jid (tasks $spec) for $dir"
    if [ "$merge" != - ]; then
        # shellcheck disable=SC2086
        mid=$(sbatch --parsable --job-name="$merge_name" --dependency="afterany:$jid" \
                --cpus-per-task=1 --output="$dir/logs/merge-%j.out" ${SBATCH_ARGS:-} \
                "$merge" "$dir") || die "sbatch of the merge failed"
        mid=${mid%%;*}
        echo "merge $mid" >> "$dir/jobs"
        echo "submitted merge job $mid (after $jid)"
    fi
}

# resubmit RUN_DIR TASK_SCRIPT MERGE_SCRIPT NAME MERGE_NAME UNIT: the shards
# (UNIT: shard, or replica) with no .done marker that Slurm is not still
# running, each with --resume, and a new merge.
resubmit() {
    local dir=$1 task=$2 merge=$3 name=$4 merge_name=$5 unit=$6 todo live i keep=()
    todo=$(unfinished "$dir" "$unit")
    if [ -z "$todo" ]; then
        echo "every $unit of $dir is finished; merging again"
        [ "$merge" = - ] || bash "$merge" "$dir"
        return
    fi
    live=$(live_tasks "$dir")
    for i in ${todo//,/ }; do
        if grep -qx "$i" <<<"$live"; then
            echo "$unit $i is still pending or running in Slurm: not resubmitted"
        else keep+=("$i"); fi
    done
    [ ${#keep[@]} -gt 0 ] || { echo "nothing to resubmit"; return; }
    submit "$dir" "$task" "$merge" "$(IFS=,; echo "${keep[*]}")" "$name" "$merge_name"
}
