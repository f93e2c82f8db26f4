#!/usr/bin/env bash
# A sharded `bddl check` with GNU parallel: N shards on this machine, or
# on several with --sshloginfile (each machine needs bddl and the same
# paths). Each shard appends to results/results-I.jsonl, so rerunning the
# script after an interruption resumes; the shards are then merged.
#
#   deploy/parallel/bddl-check.sh 4 'runs/**/*.jsonl.gz'
#   PARALLEL_OPTS='--sshloginfile nodes.txt' deploy/parallel/bddl-check.sh 32 'runs/**/*.jsonl.gz'
#
# Extra arguments after the episodes go to bddl check (--activities, --kb).
set -euo pipefail

if [ "$#" -lt 2 ]; then
  echo "usage: $0 SHARDS EPISODES [bddl check flags...]" >&2
  exit 2
fi
shards=$1
episodes=$2
shift 2
mkdir -p results

# Exit 1 of a shard means some episode failed its goal: not a failed shard.
# shellcheck disable=SC2086
seq 0 $((shards - 1)) | parallel ${PARALLEL_OPTS:-} --jobs "$shards" --line-buffer \
  'bddl check --shard {}/'"$shards"' --jobs 1 --no-progress --episode '"'$episodes'"' --out results/results-{}.jsonl '"$*"'; s=$?; [ $s -le 1 ]'

bddl results merge results/results-*.jsonl -o results/results.jsonl
