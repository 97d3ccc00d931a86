#!/usr/bin/env bash
# The older name of `scripts/slurm/submit.sh analyze ...`, which docs and habits still use.
exec bash "$(dirname "${BASH_SOURCE[0]}")/submit.sh" analyze "$@"
