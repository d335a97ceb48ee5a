#!/usr/bin/env bash
# examples/spark: the real-world report on PySpark in local mode (two executors), checked against
# a single run over the same corpus. Installs what it needs: Debian's Java runtime (apt) and a
# virtual environment with pyspark and py4j pinned by hash (PyPI), both once.
#
# The corpus: the first 48 files of the protego test data (by name; fetched once into its cache by
# the binary itself) as 48 separate paths, and one .warc.gz of 7 captures that this script writes
# with Python's own gzip (an independent writer for the Rust reader). The list becomes the RDD;
# the merged realworld.json must equal the single run's byte for byte once the fields named
# `seconds` (timing) are removed from both.
#
# The parsers: ROBOTSTXT_SPARK_ADAPTERS (a comma list of adapter ids, or `all`; default two
# in-process parsers, google-cpp's process and one Python peer). What is checked is the merge, not
# the parsers: each run's fixed cost is its bucket examples' examination (every parser answers the
# corpus's sample questions, docs/fuzzing.md), so with all 23 the three runs here took minutes.
#
# Environment: ROBOTSTXT_SPARK_VENV (default ~/.cache/robotstxt-conformance/spark-venv),
# ROBOTSTXT_REALWORLD_DIR (the protego cache), CARGO_TARGET_DIR (the binary's build).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/robotstxt-conformance"

echo "== Java 17+ (Debian: openjdk-17-jre-headless)"
if ! command -v java >/dev/null; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq openjdk-17-jre-headless
fi
java -version 2>&1 | head -n 1

echo "== pyspark and py4j, pinned by hash"
venv="${ROBOTSTXT_SPARK_VENV:-$cache/spark-venv}"
stamp="$venv/robotstxt-conformance-installed.txt"
pinned="$(cat "$here/requirements-build.txt" "$here/requirements.txt")"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$pinned" ]; then
  python3 -m venv --clear "$venv"
  pip=("$venv/bin/python" -m pip install --no-input --disable-pip-version-check --require-hashes --no-deps)
  "${pip[@]}" -r "$here/requirements-build.txt"
  # pyspark is an sdist only (about 450 MB): built here with the pinned setuptools.
  "${pip[@]}" --no-build-isolation -r "$here/requirements.txt"
  printf '%s' "$pinned" >"$stamp"
fi
python="$venv/bin/python"
"$python" -c 'import pyspark; print("pyspark", pyspark.__version__)'

echo "== the binary (release)"
(cd "$root" && cargo build --quiet --release)
binary="${CARGO_TARGET_DIR:-$root/target}/release/robotstxt-conformance"

work="$(mktemp -d)"
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT

echo "== the corpus: 48 protego files and one WARC of 7 captures"
protego="${ROBOTSTXT_REALWORLD_DIR:-$cache/realworld}/protego-0.7.0/test_data"
if [ ! -f "${protego%/test_data}/COMPLETE" ]; then
  # The first use fetches the data from PyPI (verified by hash) into the cache.
  "$binary" realworld --limit 1 --profile rfc9309 --format json >/dev/null
fi
find "$protego" -maxdepth 1 -type f | LC_ALL=C sort | sed -n 1,48p >"$work/paths.txt"
"$python" - "$work/captures.warc.gz" <<'PY'
import gzip, sys, zlib

def record(kind, rid, uri, block, content_type="application/http; msgtype=response"):
    head = (f"WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: {rid}\r\n"
            f"WARC-Date: 2026-11-23T00:00:00Z\r\nWARC-Target-URI: {uri}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(block)}\r\n\r\n").encode()
    return gzip.compress(head + block + b"\r\n\r\n")

def http(head, body=b""):
    return head.encode() + b"\r\n\r\n" + body

chunked = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in [b"User-agent: *\r\n", b"Disallow: /c/\r\n"]) + b"0\r\n\r\n"
records = [
    record("warcinfo", "<urn:uuid:spark-0>", "", b"software: examples/spark/test.sh\r\n", "application/warc-fields"),
    record("response", "<urn:uuid:spark-1>", "http://a.example/robots.txt",
           http("HTTP/1.1 200 OK\r\nContent-Type: text/plain", b"User-agent: *\nDisallow: /private\nAllow: /private/ok$\n")),
    record("response", "<urn:uuid:spark-2>", "http://b.example/robots.txt",
           http("HTTP/1.1 404 Not Found", b"<html><body>Not found</body></html>")),
    record("response", "<urn:uuid:spark-3>", "http://c.example/robots.txt",
           http("HTTP/1.1 503 Service Unavailable", b"User-agent: *\nAllow: /\n")),
    record("response", "<urn:uuid:spark-4>", "http://d.example/robots.txt",
           http("HTTP/1.1 301 Moved Permanently\r\nLocation: https://d.example/robots.txt")),
    record("response", "<urn:uuid:spark-5>", "http://e.example/robots.txt",
           http("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked", chunked)),
    record("response", "<urn:uuid:spark-6>", "http://f.example/robots.txt",
           http("HTTP/1.1 200 OK\r\nContent-Encoding: gzip", gzip.compress(b"User-agent: a\r\nDisallow: /*.php$\r\n"))),
    record("request", "<urn:uuid:spark-7>", "http://a.example/robots.txt",
           b"GET /robots.txt HTTP/1.1\r\nHost: a.example\r\n\r\n", "application/http; msgtype=request"),
]
with open(sys.argv[1], "wb") as f:
    f.write(b"".join(records))
PY
echo "$work/captures.warc.gz" >>"$work/paths.txt"
wc -l <"$work/paths.txt"

adapters="${ROBOTSTXT_SPARK_ADAPTERS:-robotstxt,texting-robots,google-cpp,py-protego}"
echo "== a single run (adapters: $adapters)"
start=$(date +%s%N)
"$binary" realworld --corpus-list "$work/paths.txt" --adapter "$adapters" --out "$work/single" --format text >"$work/single.txt"
single_ms=$((($(date +%s%N) - start) / 1000000))

echo "== Spark, local[2], 2 partitions, each piped through realworld --partial -"
start=$(date +%s%N)
"$python" "$here/realworld_job.py" --binary "$binary" --list "$work/paths.txt" \
  --out "$work/spark" --master 'local[2]' --partitions 2 -- --adapter "$adapters" >"$work/spark.txt"
spark_ms=$((($(date +%s%N) - start) / 1000000))
ls "$work/spark/partials"

echo "== the merged realworld.json equals the single run's (timing fields removed)"
untimed() {
  "$python" -c '
import json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k != "seconds"}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
print(json.dumps(strip(json.load(open(sys.argv[1]))), indent=1, sort_keys=True))
' "$1"
}
untimed "$work/single/realworld.json" >"$work/single.untimed.json"
untimed "$work/spark/realworld.json" >"$work/spark.untimed.json"
files=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["files"])' "$work/single/realworld.json" 2>/dev/null || echo "?")
if ! cmp "$work/single.untimed.json" "$work/spark.untimed.json"; then
  diff "$work/single.untimed.json" "$work/spark.untimed.json" | head -n 40 >&2
  echo "error: Spark's merged realworld.json differs from the single run's" >&2
  exit 1
fi
echo "single run: ${single_ms} ms; Spark local[2] (JVM start, 2 partitions, merge): ${spark_ms} ms; files: $files"
echo "1 passed, 0 failed"
