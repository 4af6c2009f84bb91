#!/usr/bin/env bash
# Solve a big puzzle file as N shards run by GNU parallel (local slots, or other hosts
# through --sshlogin), then merge the shards into exactly one run's JSON Lines.
#
#   recipes/parallel-solve.sh PUZZLES N OUT [parallel options...]
#
#   recipes/parallel-solve.sh big.txt 8 all.jsonl                    # 8 local jobs
#   recipes/parallel-solve.sh big.txt 32 all.jsonl -j 8 \
#       --sshlogin host1,host2,host3,host4 --transferfile big.txt    # 4 hosts, 8 jobs each
#
# Each job reads the whole file and solves every N-th puzzle (--shard K/N); its
# output comes back to this machine (--results), also from other hosts. sudosat
# merge checks that every shard finished and deals the records back into input
# order; OUT is written whole or not at all.
set -euo pipefail
# each program it runs named, with where to get it, when it is not on PATH (exit 127)
need() { command -v "$1" >/dev/null || { echo "parallel-solve.sh: $1 is not on PATH: $2" >&2; exit 127; }; }
need sudosat "'make install' puts it there, or 'source .venv/bin/activate' in the clone"
need parallel "GNU parallel: 'apt-get install parallel'"
puzzles=$1 shards=$2 out=$3
shift 3
parts=$(mktemp -d)
trap 'rm -rf "$parts"' EXIT
seq 1 "$shards" | parallel --halt now,fail=1 --results "$parts/part-{}.jsonl" "$@" \
    sudosat solve --shard "{}/$shards" --format jsonl --jobs 1 --quiet --fail-on never \
    "$puzzles" >/dev/null
sudosat merge "$parts"/part-*.jsonl --out "$out"
