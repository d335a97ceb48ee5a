//! Adapters that hang, garble or lose step with the protocol: a hung adapter costs a timeout and a
//! probe, not one timeout per check (`run`, `fuzz`); an adapter that garbles every answer is
//! declared broken after a few and `fuzz --execs` ends at once; an answer too many or too few is
//! named where it happens; an adapter hanging on some inputs gives `fuzz` its executions and a
//! timeout bucket, and a hung one ends `fuzz` at its deadline; and no process an adapter started
//! outlives the run, also when the run is stopped by SIGTERM.
//!
//! The adapters are small Python programs (`python3` is part of the set-up, README). Only the
//! hang tests need a clock: their adapters never answer, so nothing healthy is judged against
//! the short timeout they use; what they assert is counted (starts, answers), never timed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use robotstxt_adapters::registry::{Options, UserAdapter};
use robotstxt_adapters::subprocess::{BROKEN_AFTER, HUNG};
use robotstxt_adapters::{open, Answer, Query};

const EXE: &str = env!("CARGO_BIN_EXE_robotstxt-conformance");

/// The per-check timeout where a check must time out once (one answer too few, the last request):
/// what that test waits, and what the healthy answers of its adapter are judged against (a
/// Python program answering a line in milliseconds; its start and handshake are timed apart, with
/// 30 s).
const ONE_TIMEOUT: Duration = Duration::from_secs(4);
/// The per-check timeout of the hanging adapters, which never answer: nothing healthy is judged
/// against it (the handshake has a timeout of its own).
const HANG_SECONDS: &str = "1";
/// The per-check timeout of `fault-hang-crawl-delay`, which answers every body without
/// `Crawl-delay` at once and hangs on the others.
const CRAWL_DELAY_HANG_SECONDS: &str = "2";
/// How long `fuzz` runs against the adapter that never answers: it is declared hung after about
/// two [`HANG_SECONDS`] (a timeout and the probe) and the run then ends at this deadline.
const HUNG_FUZZ_SECONDS: &str = "6";
/// How long `fuzz` runs against `fault-hang-crawl-delay`: one of the seed's first three inputs
/// holds `Crawl-delay`, so the first timeout comes about [`CRAWL_DELAY_HANG_SECONDS`] in, and the
/// deadline then cuts a batch.
const CRAWL_DELAY_FUZZ_SECONDS: &str = "10";

/// Writes the adapter program: it records its pid and starts a grandchild (`sleep 600`) whose
/// pid it records too (in `<dir>/pids`), then answers as `mode` says: `hang` never answers,
/// `too-many` adds an answer after each request's last, `too-few` leaves out the last answer of
/// a request of two checks or more, `garble` writes a line that is not JSON for each check.
/// Answers are `allowed`.
fn adapter(dir: &Path, mode: &str) -> String {
    let program = dir.join("adapter.py");
    std::fs::write(
        &program,
        r#"import json, os, subprocess, sys, time
dir, mode = sys.argv[1], sys.argv[2]
child = subprocess.Popen(["sleep", "600"])
with open(os.path.join(dir, "pids"), "a") as f:
    f.write("%d %d\n" % (os.getpid(), child.pid))
def send(m):
    sys.stdout.write(json.dumps(m) + "\n"); sys.stdout.flush()
send({"protocol": "robotstxt-adapter/1", "id": "x", "library": "x", "version": "1",
      "language": "Python", "licence": "MIT", "source": "test", "profile": "rfc9309", "url": "full"})
for line in sys.stdin:
    checks = json.loads(line)["checks"]
    if mode == "hang":
        time.sleep(3600)
    if mode == "garble":
        sys.stdout.write("".join("not json %d\n" % i for i in range(len(checks)))); sys.stdout.flush()
        continue
    n = len(checks) - 1 if mode == "too-few" and len(checks) >= 2 else len(checks)
    lines = [json.dumps({"check": i, "answer": "allowed"}) for i in range(n)]
    if mode == "too-many":
        lines.append(json.dumps({"check": n, "answer": "allowed"}))
    sys.stdout.write("".join(l + "\n" for l in lines)); sys.stdout.flush()
"#,
    )
    .unwrap();
    format!("{} {} {mode}", program.display(), dir.display())
}

/// The pids the adapter processes recorded: (adapter, grandchild) per start.
fn pids(dir: &Path) -> Vec<(u32, u32)> {
    std::fs::read_to_string(dir.join("pids"))
        .unwrap_or_default()
        .lines()
        .map(|l| {
            let (a, b) = l.split_once(' ').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect()
}

/// Whether `pid` is a live process (a zombie is not: it has ended and waits to be reaped).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X')),
        Err(_) => false,
    }
}

/// Asserts that no process any start of the adapter made is alive. A SIGKILL sent to a group
/// takes effect when each process is next scheduled, so a process is given a generous while to
/// finish dying (the run waited for the adapter itself; only its child may lag).
fn none_left(dir: &Path) {
    let started = pids(dir);
    assert!(!started.is_empty(), "the adapter never started");
    for _ in 0..300 {
        if started.iter().all(|(a, b)| !alive(*a) && !alive(*b)) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    for (adapter, grandchild) in started {
        assert!(
            !alive(adapter),
            "adapter process {adapter} outlived the run"
        );
        assert!(
            !alive(grandchild),
            "the adapter's child {grandchild} outlived the run"
        );
    }
}

fn options(dir: &Path, mode: &str, timeout: Duration) -> Options {
    Options {
        user: vec![UserAdapter::parse(&format!("x = python3 {}", adapter(dir, mode))).unwrap()],
        timeout,
        ..Options::default()
    }
}

fn query(n: usize) -> Query {
    Query::new("FooBot", format!("http://example.com/{n}"))
}

fn kinds(answers: &[Vec<Answer>]) -> Vec<Vec<&'static str>> {
    answers
        .iter()
        .map(|a| a.iter().map(Answer::kind).collect())
        .collect()
}

#[test]
fn one_answer_too_many_is_blamed_on_the_request_that_got_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut adapter = open("x", &options(dir.path(), "too-many", ONE_TIMEOUT)).unwrap();
    let queries: Vec<Vec<Query>> = (0..3)
        .map(|i| vec![query(2 * i), query(2 * i + 1)])
        .collect();
    let items: Vec<(&[u8], &[Query])> = queries.iter().map(|q| (&b""[..], &q[..])).collect();
    let answers = adapter.answer_many(&items);
    // Requests 1 and 2: their extra answer arrived before the next request's first; the next
    // request was sent again to a fresh process and answered.
    for (i, first) in [(0, "http://example.com/0"), (1, "http://example.com/2")] {
        for answer in &answers[i] {
            let Answer::Error { message } = answer else {
                panic!("request {i}: {answers:?}");
            };
            assert!(
                message.contains(&format!(
                    "the request #{} of the batch (2 checks; the first: FooBot {first}) got one \
                     answer too many (check 2 after its last, check 1)",
                    i + 1
                )),
                "{message}"
            );
        }
    }
    // One request at a time (as `run` asks): the fault is named on the request that got the
    // extra answer or, when it arrives only after that request's answers were returned, on the
    // next request's first check, which says so. Which of the two happens depends on when the
    // process's extra line arrives (the batch's last extra answer too may land on `first`), so
    // the test asks what holds either way: every answer is a verdict or names the fault, never a
    // timeout or a crash, and the fault is named at least once.
    let first = adapter.answer(b"", &[query(10), query(11)]);
    let second = adapter.answer(b"", &[query(12)]);
    let names_fault = |a: &Answer| {
        a.detail().is_some_and(|d| {
            d.contains("got one answer too many")
                && (d.contains("the previous request (of ") || d.contains("after its last"))
        })
    };
    let both: Vec<&Answer> = first.iter().chain(&second).collect();
    assert!(
        both.iter().all(|a| a.verdict().is_some() || names_fault(a)),
        "{first:?} then {second:?}"
    );
    assert!(
        both.iter().any(|a| names_fault(a)),
        "{first:?} then {second:?}"
    );
    drop(adapter);
    none_left(dir.path());
}

#[test]
fn one_answer_too_few_is_that_requests_error_not_a_timeout_per_request() {
    let dir = tempfile::tempdir().unwrap();
    let mut adapter = open("x", &options(dir.path(), "too-few", ONE_TIMEOUT)).unwrap();
    let queries: Vec<Vec<Query>> = (0..3)
        .map(|i| vec![query(2 * i), query(2 * i + 1)])
        .collect();
    let items: Vec<(&[u8], &[Query])> = queries.iter().map(|q| (&b""[..], &q[..])).collect();
    let answers = adapter.answer_many(&items);
    assert_eq!(
        kinds(&answers),
        [
            ["allowed", "error"],
            ["allowed", "error"],
            ["allowed", "timeout"]
        ],
        "{answers:?}"
    );
    let message = answers[1][1].detail().unwrap();
    assert!(
        message.contains(
            "the request #2 of the batch (2 checks; the first: FooBot http://example.com/2) got \
             1 answers for its 2 checks (one answer too few)"
        ),
        "{message}"
    );
    // The last request has no next one to show the gap: its missing answer is a timeout that
    // says how many of its checks were answered.
    let message = answers[2][1].detail().unwrap();
    assert!(
        message.contains(
            "1 of its checks were answered; the parser is slow on this check, or the adapter \
             wrote one answer too few"
        ),
        "{message}"
    );
    drop(adapter);
    none_left(dir.path());
}

/// A corpus of `cases` cases of three checks each.
fn cases_dir(dir: &Path, cases: usize) -> PathBuf {
    let root = dir.join("cases");
    std::fs::create_dir_all(root.join("hang")).unwrap();
    for i in 0..cases {
        std::fs::write(
            root.join(format!("hang/c{i}.yaml")),
            "title: A case\ncite: [rfc9309#2.2.2]\nbody: |\n  User-agent: *\n  Disallow: /p\nchecks:\n\
             - {agent: FooBot, url: /p, expect: disallowed}\n\
             - {agent: FooBot, url: /q, expect: allowed}\n\
             - {agent: FooBot, url: /p/x, expect: disallowed}\n",
        )
        .unwrap();
    }
    root
}

#[test]
fn a_hung_adapter_costs_run_a_timeout_and_a_probe_and_leaves_no_process() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases_dir(dir.path(), 4);
    let output = Command::new(EXE)
        .args(["run", "--format", "json", "--cases-dir"])
        .arg(&cases)
        .args(["--timeout", HANG_SECONDS, "--adapter-command"])
        .arg(format!("x = python3 {}", adapter(dir.path(), "hang")))
        .arg("--out")
        .arg(dir.path().join("out"))
        .arg("--ledgers")
        .arg(dir.path().join("no-ledgers"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let results: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let rows = results["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 12);
    let messages: Vec<&str> = rows
        .iter()
        .map(|r| {
            assert_eq!(r["adapters"]["x"]["answer"]["answer"], "timeout", "{r}");
            r["adapters"]["x"]["answer"]["message"].as_str().unwrap()
        })
        .collect();
    // One check waited for; the restarted process did not answer the probe either, so every other
    // check is marked at once.
    let waited = messages.iter().filter(|m| !m.starts_with(HUNG)).count();
    assert_eq!(waited, 1, "{messages:#?}");
    assert!(
        messages[0].contains("did not answer a trivial probe body")
            && messages[0].contains("declared hung"),
        "{messages:#?}"
    );
    // Started once, and restarted once for the probe; never after it.
    assert_eq!(pids(dir.path()).len(), 2, "{messages:#?}");
    none_left(dir.path());
}

#[test]
fn an_adapter_garbling_every_answer_ends_fuzz_execs_as_broken_after_a_few_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("findings");
    let output = Command::new(EXE)
        .args([
            "fuzz",
            "--execs",
            "2000",
            "--seed",
            "1",
            "--recheck-every",
            "0",
        ])
        .args(["--format", "json", "--timeout", "120", "--adapter-command"])
        .arg(format!("x = python3 {}", adapter(dir.path(), "garble")))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("x: declared broken"), "{stderr}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["execs"], 2000, "{summary}");
    assert!(
        summary["stopped"]["x"]
            .as_str()
            .is_some_and(|s| s.contains("declared broken") && s.contains("not json")),
        "{summary}"
    );
    // The inputs asked after it was declared broken are counted as not asked, never as findings.
    assert_eq!(
        summary["not_asked"]["x"].as_u64(),
        Some(2000 - BROKEN_AFTER as u64),
        "{summary}"
    );
    // Started to find out whether it is available, then by the job: once, once again after each
    // garbled answer but the last, and once for the probe that garbled too; never again.
    assert_eq!(pids(dir.path()).len(), 2 + BROKEN_AFTER);
    none_left(dir.path());
}

#[test]
fn a_hung_user_adapter_ends_fuzz_at_its_deadline_and_leaves_no_process() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("findings");
    // No --adapter: the adapter given is the one asked.
    let mut child = Command::new(EXE)
        .args([
            "fuzz",
            "--seconds",
            HUNG_FUZZ_SECONDS,
            "--timeout",
            HANG_SECONDS,
            "--seed",
            "1",
        ])
        .args(["--batch", "64", "--recheck-every", "0", "--format", "json"])
        .arg("--adapter-command")
        .arg(format!("x = python3 {}", adapter(dir.path(), "hang")))
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A generous bound, so that a regression fails instead of hanging the suite; the run itself
    // is judged by what it did, not how long it took.
    let mut waited = 0;
    while child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(200));
        waited += 1;
        assert!(waited < 5 * 60 * 10, "fuzz did not end at its deadline");
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("adapters: x"), "{stderr}");
    assert!(stderr.contains("x: declared hung"), "{stderr}");
    let summary: serde_json::Value = serde_json::from_slice(
        output
            .stdout
            .trim_ascii_end()
            .rsplit(|b| *b == b'\n')
            .next()
            .unwrap(),
    )
    .unwrap();
    assert!(summary["execs"].as_u64().unwrap() > 0, "{summary}");
    none_left(dir.path());
}

/// An adapter that hangs on some inputs (bodies holding `Crawl-delay`) under `fuzz --seconds`:
/// each such input is a `timeout` finding, the process is restarted and the next input asked, and
/// the batch the deadline cuts keeps the answers it got, so the run reports executions and its
/// timeouts instead of nothing. Bounded by the deadline; what is asserted is counted.
#[test]
fn an_adapter_hanging_on_some_inputs_gives_fuzz_execs_and_a_timeout_bucket() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("findings");
    let id = "fault-hang-crawl-delay";
    let output = Command::new(EXE)
        .args([
            "fuzz",
            "--seconds",
            CRAWL_DELAY_FUZZ_SECONDS,
            "--timeout",
            CRAWL_DELAY_HANG_SECONDS,
            "--seed",
            "1",
        ])
        .args(["--recheck-every", "0", "--format", "json", "--adapter", id])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(!stderr.contains("declared hung"), "{stderr}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert!(summary["execs"].as_u64().unwrap() > 0, "{summary}");
    assert!(
        summary["timeouts"][id].as_u64().unwrap_or(0) > 0,
        "{summary}"
    );
    let buckets = summary["bucket_list"].as_array().unwrap();
    assert!(
        buckets
            .iter()
            .any(|b| b["signature"]["kind"] == "timeout" && b["signature"]["adapter"] == id),
        "{summary}"
    );
}

#[test]
fn sigterm_ends_the_run_and_every_adapter_process() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases_dir(dir.path(), 1);
    let mut child = Command::new(EXE)
        .args(["run", "--cases-dir"])
        .arg(&cases)
        .args(["--timeout", "600", "--adapter-command"])
        .arg(format!("x = python3 {}", adapter(dir.path(), "hang")))
        .arg("--out")
        .arg(dir.path().join("out"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait for the adapter to start (it records its pids first thing).
    let mut waited = 0;
    while pids(dir.path()).is_empty() {
        std::thread::sleep(Duration::from_millis(100));
        waited += 1;
        assert!(waited < 600, "the adapter did not start");
    }
    assert!(alive(pids(dir.path())[0].1));
    // SAFETY: kill(2) on the child we started.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert!(!status.success());
    none_left(dir.path());
}
