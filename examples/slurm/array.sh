#!/usr/bin/env bash
# The real-world report as a Slurm job array: 8 tasks, task K running shard K/8 of the corpus
# (`--shard auto` reads SLURM_ARRAY_TASK_ID, less SLURM_ARRAY_TASK_MIN, and SLURM_ARRAY_TASK_COUNT;
# `--shards` is checked against the count). Each task writes results/<K>/realworld.json on a
# shared file system. Submit, then merge when every task has succeeded:
#
#   job=$(sbatch --parsable examples/slurm/array.sh /shared/corpus)
#   sbatch --dependency=afterok:$job --wrap \
#     'robotstxt-conformance merge results/*/realworld.json --out report --format text'
#
# The merged report equals a single run's except for timing (docs/realworld.md, "At
# scale"). realworld/src/corpus.rs has a test that --array and --shards agree.
#SBATCH --job-name=robotstxt-realworld
#SBATCH --array=0-7
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --output=results/slurm-%A_%a.out
set -euo pipefail

corpus="${1:?usage: sbatch examples/slurm/array.sh CORPUS_DIR_OR_WARC...}"
shift
args=(--corpus "$corpus")
for more in "$@"; do args+=(--corpus "$more"); done

mkdir -p "results/$SLURM_ARRAY_TASK_ID"
exec robotstxt-conformance realworld "${args[@]}" --shard auto --shards 8 \
  --out "results/$SLURM_ARRAY_TASK_ID" --format text
