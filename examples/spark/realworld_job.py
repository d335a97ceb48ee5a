"""The real-world report on Spark: corpus paths in, one merged report out.

The list of corpus paths (robots.txt files, directories, WARC files; local paths every executor
can read) becomes an RDD. Each partition pipes its paths through

    robotstxt-conformance realworld --corpus-list - --partial - [ARGS...]

which reads them from standard input and prints the partition's mergeable results as one JSON
line. The driver writes those lines to files and runs

    robotstxt-conformance merge FILE... --out OUT

whose realworld.json equals a single run's over the same list, except the timing fields.

Usage (local mode, as examples/spark/test.sh runs it):

    python realworld_job.py --binary target/release/robotstxt-conformance \
        --list paths.txt --out report/ --master 'local[2]' --partitions 2 [-- ARGS...]

On a cluster, submit it with spark-submit instead (the --master here is then ignored by
spark-submit's own) and give paths the executors can read, with the binary installed on each.
"""

import argparse
import os
import shlex
import subprocess
import sys

from pyspark import SparkConf, SparkContext


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the robotstxt-conformance binary")
    parser.add_argument("--list", required=True, help="corpus paths, one per line")
    parser.add_argument("--out", required=True, help="the merged report's directory")
    parser.add_argument("--work", help="where the partitions' results go (default: OUT/partials)")
    parser.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    parser.add_argument("--partitions", type=int, default=2, help="how many partitions")
    parser.add_argument("args", nargs="*", help="more realworld arguments, after --")
    options = parser.parse_args()

    binary = os.path.abspath(options.binary)
    with open(options.list, encoding="utf-8") as f:
        paths = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    if not paths:
        print(f"{options.list}: no corpus path", file=sys.stderr)
        return 2
    # Never more partitions than paths: an empty partition would pipe an empty list.
    partitions = max(1, min(options.partitions, len(paths)))

    conf = SparkConf().setMaster(options.master).setAppName("robotstxt-conformance realworld")
    context = SparkContext(conf=conf)
    context.setLogLevel("ERROR")
    try:
        command = [binary, "realworld", "--corpus-list", "-", "--partial", "-", *options.args]
        # RDD.pipe starts the command with only the variables given here: the ones that say where
        # the binary finds its parsers' runtimes and caches (PATH, HOME, XDG_*, ROBOTSTXT_*).
        env = {
            name: value
            for name, value in os.environ.items()
            if name in ("PATH", "HOME", "LANG") or name.startswith(("XDG_", "ROBOTSTXT_"))
        }
        # checkCode: a partition whose command fails fails the job (with its exit status).
        lines = (
            context.parallelize(paths, partitions)
            .pipe(shlex.join(command), env=env, checkCode=True)
            .collect()
        )
    finally:
        context.stop()

    results = [line for line in lines if line.strip()]
    if len(results) != partitions:
        print(
            f"expected one result line per partition ({partitions}), got {len(results)}",
            file=sys.stderr,
        )
        return 1
    work = options.work or os.path.join(options.out, "partials")
    os.makedirs(work, exist_ok=True)
    files = []
    for index, line in enumerate(results):
        path = os.path.join(work, f"partial-{index:05}.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(line + "\n")
        files.append(path)
    merge = [binary, "merge", *files, "--out", options.out, "--format", "text"]
    return subprocess.run(merge, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
