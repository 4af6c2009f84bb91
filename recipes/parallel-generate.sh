#!/usr/bin/env bash
# Make COUNT puzzles from seed SEED as N shards run by GNU parallel (local slots, or
# other hosts through --sshlogin), then merge them: the very puzzles, in the very
# order, of `sudosat generate --puzzles COUNT --seed SEED --format jsonl`.
#
#   recipes/parallel-generate.sh COUNT SEED N OUT [parallel options...] [-- generate options...]
#
#   recipes/parallel-generate.sh 10000 1 8 book.jsonl
#   recipes/parallel-generate.sh 1000 7 16 killers.jsonl --sshlogin host1,host2 -- --variant killer
#
# Puzzle i comes from seed SEED + i whoever makes it, so shard K of N makes the
# puzzles of seeds SEED+K-1, SEED+K-1+N, ... and merge deals them back in turn.
set -euo pipefail
# each program it runs named, with where to get it, when it is not on PATH (exit 127)
need() { command -v "$1" >/dev/null || { echo "parallel-generate.sh: $1 is not on PATH: $2" >&2; exit 127; }; }
need sudosat "'make install' puts it there, or 'source .venv/bin/activate' in the clone"
need parallel "GNU parallel: 'apt-get install parallel'"
count=$1 seed=$2 shards=$3 out=$4
shift 4
options=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do options+=("$1"); shift; done
[ $# -gt 0 ] && shift  # the --
parts=$(mktemp -d)
trap 'rm -rf "$parts"' EXIT
seq 1 "$shards" | parallel --halt now,fail=1 --results "$parts/part-{}.jsonl" "${options[@]}" \
    sudosat generate --puzzles "$count" --seed "$seed" --shard "{}/$shards" --format jsonl \
    --quiet "$@" >/dev/null
sudosat merge "$parts"/part-*.jsonl --out "$out"
