//! Fault injection: parsers that panic, abort, segfault, hang, print garbage or exit mid-stream
//! must not stop a run or lose other answers. Each fault adapter answers like the oracle except
//! for the agent `FaultBot`, where it misbehaves, or, for the input faults, on some bodies (a
//! hang on `Crawl-delay`, garbage on every body or on `Sitemap`). One test puts every fault
//! adapter through a whole `run`, which completes and reports each.
//!
//! Only a hang needs a clock. Every other test gives its adapter a per-check timeout it cannot
//! reach on a healthy machine or a loaded one ([`GENEROUS`]); the hang tests use [`HANG`], still
//! a thousand times what a healthy check takes, and hang once each so the suite waits little.

use std::process::Command;
use std::time::Duration;

use robotstxt_adapters::faults::FAULT_AGENT;
use robotstxt_adapters::registry::{Options, UserAdapter};
use robotstxt_adapters::{open, Answer, Query};

const BODY: &[u8] = b"User-agent: *\nDisallow: /private\n";
const EXE: &str = env!("CARGO_BIN_EXE_robotstxt-conformance");

/// A per-check timeout no healthy check comes near (one check of this file took 24 µs, at most
/// 4 ms, in a debug worker here): a test that is not about hangs must not depend on speed.
const GENEROUS: Duration = Duration::from_secs(120);

/// The per-check timeout of the hang tests: what a hang costs them (five hangs in this file, two
/// tests at a time), and what the healthy checks of the hanging adapter are judged against, a
/// thousand times the slowest one measured ([`GENEROUS`]). Only the answer is timed: a process's
/// start and handshake have a timeout of their own (30 s).
const HANG: Duration = Duration::from_secs(4);

fn isolated(timeout: Duration) -> Options {
    Options {
        worker: Some(vec![EXE.into(), "adapter".into(), "serve".into()]),
        timeout,
        ..Options::default()
    }
}

fn queries() -> Vec<Query> {
    vec![
        Query::new("FooBot", "http://example.com/private/a"),
        Query::new(FAULT_AGENT, "http://example.com/x"),
        Query::new("FooBot", "http://example.com/public"),
        Query::new(FAULT_AGENT, "http://example.com/y"),
        Query::new("FooBot", "http://example.com/private/b"),
    ]
}

/// Runs `id` isolated; the answers around each fault must be the real ones.
fn answers_of(id: &str) -> Vec<Answer> {
    let mut adapter = open(id, &isolated(GENEROUS)).unwrap_or_else(|e| panic!("{e}"));
    let answers = adapter.answer(BODY, &queries());
    assert_eq!(answers.len(), 5, "{answers:?}");
    assert_eq!(answers[0], Answer::Disallowed, "{answers:?}");
    assert_eq!(answers[2], Answer::Allowed, "{answers:?}");
    assert_eq!(answers[4], Answer::Disallowed, "{answers:?}");
    // The adapter is still usable afterwards (restarted if it died).
    let again = adapter.answer(BODY, &queries()[..1]);
    assert_eq!(again, vec![Answer::Disallowed]);
    answers
}

fn assert_kind(answer: &Answer, kind: &str, detail: &str) {
    assert_eq!(answer.kind(), kind, "{answer:?}");
    assert!(
        answer.detail().unwrap_or_default().contains(detail),
        "{answer:?} should mention `{detail}`"
    );
}

#[test]
fn a_panic_is_a_crash_and_the_worker_survives() {
    let answers = answers_of("fault-panic");
    assert_kind(&answers[1], "crash", "injected panic");
    assert_kind(&answers[3], "crash", "injected panic");
}

#[test]
fn an_abort_is_a_crash_and_the_worker_is_restarted() {
    let answers = answers_of("fault-abort");
    assert_kind(&answers[1], "crash", "SIGABRT");
    assert_kind(&answers[3], "crash", "SIGABRT");
}

#[test]
fn a_segfault_is_a_crash_and_the_worker_is_restarted() {
    let answers = answers_of("fault-segfault");
    assert_kind(&answers[1], "crash", "SIGSEGV");
}

#[test]
fn a_hang_is_a_timeout_and_the_worker_is_restarted() {
    // One hang (it costs HANG), between two real answers; the restarted worker answers again.
    let mut adapter = open("fault-hang", &isolated(HANG)).unwrap_or_else(|e| panic!("{e}"));
    let answers = adapter.answer(BODY, &queries()[..3]);
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert_eq!(answers[0], Answer::Disallowed, "{answers:?}");
    assert_kind(&answers[1], "timeout", &format!("{HANG:?}"));
    assert_eq!(answers[2], Answer::Allowed, "{answers:?}");
    let again = adapter.answer(BODY, &queries()[4..]);
    assert_eq!(again, vec![Answer::Disallowed]);
}

#[test]
fn garbage_output_is_an_error_and_the_worker_is_restarted() {
    let answers = answers_of("fault-garbage");
    assert_kind(&answers[1], "error", "malformed response");
}

#[test]
fn an_exit_mid_stream_is_a_crash_with_its_status() {
    let answers = answers_of("fault-exit");
    assert_kind(&answers[1], "crash", "exit status 3");
}

#[test]
fn a_panic_in_process_is_caught() {
    let options = Options {
        worker: None,
        ..Options::default()
    };
    let mut adapter = open("fault-panic", &options).unwrap();
    let answers = adapter.answer(BODY, &queries());
    assert_kind(&answers[1], "crash", "injected panic");
    assert_eq!(answers[2], Answer::Allowed);
}

#[test]
fn a_program_without_a_handshake_is_unavailable_with_the_reason() {
    let options = Options {
        user: vec![UserAdapter::parse("silly = echo not-a-handshake").unwrap()],
        ..Options::default()
    };
    let why = open("silly", &options).err().expect("unavailable");
    assert!(why.reason.contains("malformed handshake"), "{why}");
    let options = Options {
        user: vec![UserAdapter::parse("missing = /nonexistent/adapter --flag").unwrap()],
        ..Options::default()
    };
    let why = open("missing", &options).err().expect("unavailable");
    assert!(why.reason.contains("cannot start"), "{why}");
}

#[test]
fn a_user_adapter_runs_from_a_command_line() {
    let options = Options {
        user: vec![
            UserAdapter::parse(&format!("mine = '{EXE}' adapter serve fault-exit")).unwrap(),
        ],
        timeout: GENEROUS,
        ..Options::default()
    };
    let mut adapter = open("mine", &options).unwrap();
    assert_eq!(adapter.identity().id, "mine");
    let answers = adapter.answer(BODY, &queries());
    assert_eq!(answers[0], Answer::Disallowed);
    assert_kind(&answers[1], "crash", "exit status 3");
    assert_eq!(answers[2], Answer::Allowed);
}

/// The whole `run` command survives every fault kind at once, reports each, and keeps every
/// other answer; with no ledger the faults are unexpected, so it exits 1.
#[test]
fn a_run_with_every_fault_completes_and_reports_each() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    std::fs::create_dir_all(cases.join("faults")).unwrap();
    std::fs::write(
        cases.join("faults/trigger.yaml"),
        format!(
            "title: Checks that trigger injected faults\ncite: [rfc9309#2.2.2]\n\
             body: |\n  User-agent: *\n  Disallow: /private\nchecks:\n\
             - {{agent: FooBot, url: 'http://example.com/private/a', expect: disallowed}}\n\
             - {{agent: {FAULT_AGENT}, url: 'http://example.com/x', expect: allowed}}\n\
             - {{agent: FooBot, url: 'http://example.com/public', expect: allowed}}\n"
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let mut command = Command::new(EXE);
    command
        .args(["run", "--format", "json", "--cases-dir"])
        .arg(&cases)
        .arg("--timeout")
        .arg(HANG.as_secs().to_string())
        .arg("--out")
        .arg(&out)
        .arg("--ledgers")
        .arg(dir.path().join("no-ledgers"));
    for id in robotstxt_adapters::faults::FAULT_IDS {
        command.args(["--adapter", id]);
    }
    let output = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
    let results: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let rows = results["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let expected = [
        ("fault-panic", "crash"),
        ("fault-abort", "crash"),
        ("fault-segfault", "crash"),
        ("fault-hang", "timeout"),
        ("fault-garbage", "error"),
        ("fault-exit", "crash"),
    ];
    for (id, kind) in expected {
        assert_eq!(
            rows[0]["adapters"][id]["answer"]["answer"], "disallowed",
            "{id}"
        );
        assert_eq!(rows[1]["adapters"][id]["answer"]["answer"], kind, "{id}");
        assert_eq!(
            rows[1]["adapters"][id]["status"], "unexpected-divergence",
            "{id}"
        );
        assert_eq!(
            rows[2]["adapters"][id]["answer"]["answer"], "allowed",
            "{id}"
        );
    }
    for file in ["results.json", "summary.md", "matrix.html", "junit.xml"] {
        assert!(out.join(file).is_file(), "{file} not written");
    }
}

/// Twelve bodies, each with three checks; the middle check of every fifth body (from the third)
/// is asked for [`FAULT_AGENT`].
fn batch() -> Vec<(Vec<u8>, Vec<Query>)> {
    (0..12)
        .map(|i| {
            let body = format!("User-agent: *\nDisallow: /p{i}\n").into_bytes();
            let agent = if i % 5 == 2 { FAULT_AGENT } else { "FooBot" };
            let queries = vec![
                Query::new("FooBot", format!("http://example.com/p{i}/a")),
                Query::new(agent, format!("http://example.com/p{i}")),
                Query::new("FooBot", "http://example.com/q"),
            ];
            (body, queries)
        })
        .collect()
}

/// The answers' kinds, item by item.
fn kinds(answers: &[Vec<Answer>]) -> Vec<Vec<&'static str>> {
    answers
        .iter()
        .map(|a| a.iter().map(Answer::kind).collect())
        .collect()
}

/// A pipelined batch (all requests written before the first answer is read) gets the answers the
/// bodies get one round trip at a time, also when the process dies, garbles or aborts mid-batch:
/// the failing check gets the failure, and every later body is answered by the restarted process.
#[test]
fn a_pipelined_batch_answers_as_one_body_at_a_time() {
    let batch = batch();
    let items: Vec<(&[u8], &[Query])> = batch.iter().map(|(b, q)| (&b[..], &q[..])).collect();
    for id in ["fault-exit", "fault-garbage", "fault-abort"] {
        let mut adapter = open(id, &isolated(GENEROUS)).unwrap_or_else(|e| panic!("{e}"));
        let pipelined = adapter.answer_many(&items);
        let mut adapter = open(id, &isolated(GENEROUS)).unwrap_or_else(|e| panic!("{e}"));
        let one_by_one: Vec<Vec<Answer>> = items
            .iter()
            .map(|(body, queries)| adapter.answer(body, queries))
            .collect();
        assert_eq!(kinds(&pipelined), kinds(&one_by_one), "{id}");
        for (i, answers) in pipelined.iter().enumerate() {
            let expected = if i % 5 == 2 {
                if id == "fault-garbage" {
                    "error"
                } else {
                    "crash"
                }
            } else {
                "disallowed"
            };
            assert_eq!(
                answers[0],
                Answer::Disallowed,
                "{id}, body {i}: {answers:?}"
            );
            assert_eq!(answers[1].kind(), expected, "{id}, body {i}: {answers:?}");
            assert_eq!(answers[2], Answer::Allowed, "{id}, body {i}: {answers:?}");
        }
    }
}

/// A hang mid-batch is that check's timeout; the process is restarted and the rest of the batch,
/// its other checks included, is answered (one hang, so the test waits [`HANG`] once).
#[test]
fn a_hang_mid_batch_is_a_timeout_and_the_batch_goes_on() {
    let batch: Vec<(Vec<u8>, Vec<Query>)> = batch().into_iter().take(5).collect();
    let items: Vec<(&[u8], &[Query])> = batch.iter().map(|(b, q)| (&b[..], &q[..])).collect();
    let mut adapter = open("fault-hang", &isolated(HANG)).unwrap_or_else(|e| panic!("{e}"));
    let answers = adapter.answer_many(&items);
    let expected: Vec<Vec<&str>> = (0..5)
        .map(|i| {
            let middle = if i == 2 { "timeout" } else { "disallowed" };
            vec!["disallowed", middle, "allowed"]
        })
        .collect();
    assert_eq!(kinds(&answers), expected, "{answers:?}");
}

/// A body holding `Crawl-delay` hangs `fault-hang-crawl-delay`.
const HANGING_BODY: &[u8] = b"User-agent: *\nCrawl-delay: 5\nDisallow: /private\n";

/// A timeout belongs to the body, not to the adapter: after it the process is restarted and
/// answers a trivial probe, so the adapter is not hung and every later body is asked and
/// answered. The hanging body's first two checks time out (two timeouts: the second says the body
/// itself holds the parser up) and its last check is not asked again.
#[test]
fn a_body_that_hangs_the_parser_is_that_bodys_timeout_and_later_bodies_are_answered() {
    let mut adapter =
        open("fault-hang-crawl-delay", &isolated(HANG)).unwrap_or_else(|e| panic!("{e}"));
    let queries = [
        Query::new("FooBot", "http://example.com/private/a"),
        Query::new("FooBot", "http://example.com/public"),
        Query::new("FooBot", "http://example.com/private/b"),
    ];
    let items: Vec<(&[u8], &[Query])> =
        vec![(HANGING_BODY, &queries), (BODY, &queries), (BODY, &queries)];
    let answers = adapter.answer_many(&items);
    assert_eq!(
        kinds(&answers),
        [
            ["timeout", "timeout", "timeout"],
            ["disallowed", "allowed", "disallowed"],
            ["disallowed", "allowed", "disallowed"],
        ],
        "{answers:?}"
    );
    assert_kind(&answers[0][0], "timeout", "no answer within");
    assert_kind(&answers[0][2], "timeout", "not asked again");
    for answer in answers.iter().flatten() {
        assert!(
            !robotstxt_adapters::subprocess::is_not_asked(answer),
            "{answer:?}"
        );
    }
    // Asked again, one body at a time: still answered, the hanging body still its own timeout.
    assert_eq!(
        adapter.answer(BODY, &queries[..1]),
        vec![Answer::Disallowed]
    );
}

/// Bodies `0..n`, each different, with one check.
fn bodies(n: usize, sitemap_every: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| {
            let sitemap = if sitemap_every > 0 && i % sitemap_every == 0 {
                "Sitemap: https://example.com/s.xml\n"
            } else {
                ""
            };
            format!("User-agent: *\nDisallow: /private{i}\n{sitemap}").into_bytes()
        })
        .collect()
}

/// An adapter that garbles every answer is declared broken after [`BROKEN_AFTER`] garbled
/// answers on different bodies, with the last lines it wrote, and is not restarted again: every
/// later check is answered at once, marked as not asked.
#[test]
fn an_adapter_garbling_every_answer_is_declared_broken_with_its_last_lines() {
    use robotstxt_adapters::subprocess::{is_broken, BROKEN_AFTER};
    let bodies = bodies(8, 0);
    let queries = [Query::new("FooBot", "http://example.com/a")];
    let items: Vec<(&[u8], &[Query])> = bodies.iter().map(|b| (&b[..], &queries[..])).collect();
    let mut adapter = open("fault-garble", &isolated(GENEROUS)).unwrap_or_else(|e| panic!("{e}"));
    let answers = adapter.answer_many(&items);
    for (i, answer) in answers.iter().map(|a| &a[0]).enumerate() {
        if i < BROKEN_AFTER {
            assert_kind(answer, "error", "malformed response");
            assert!(!is_broken(answer), "{i}: {answer:?}");
        } else {
            assert!(is_broken(answer), "{i}: {answer:?}");
            assert_kind(answer, "error", "garbage{not json");
        }
    }
    // Later calls too, at once.
    let again = adapter.answer(&bodies[0], &queries);
    assert!(is_broken(&again[0]), "{again:?}");
}

/// Garbled answers on some bodies only, or again and again on one body, do not make an adapter
/// broken: a good answer in between starts the count again, one body counts once, and when
/// different bodies garble in a row (as a minimiser's variants of one input all may) the
/// restarted process answers the trivial probe, so the garbling is the inputs'.
#[test]
fn garbling_on_some_bodies_or_on_one_body_is_not_broken() {
    use robotstxt_adapters::subprocess::is_not_asked;
    let queries = [Query::new("FooBot", "http://example.com/private3")];
    // Every other body holds `Sitemap`.
    let some = bodies(9, 2);
    let items: Vec<(&[u8], &[Query])> = some.iter().map(|b| (&b[..], &queries[..])).collect();
    let mut adapter =
        open("fault-garble-sitemap", &isolated(GENEROUS)).unwrap_or_else(|e| panic!("{e}"));
    let answers = adapter.answer_many(&items);
    for (i, answer) in answers.iter().map(|a| &a[0]).enumerate() {
        assert!(!is_not_asked(answer), "{i}: {answer:?}");
        if i % 2 == 0 {
            assert_kind(answer, "error", "malformed response");
        } else {
            assert!(answer.verdict().is_some(), "{i}: {answer:?}");
        }
    }
    // Eight different garbling bodies in a row: each is its own error, never "broken".
    let all: Vec<Vec<u8>> = bodies(8, 1);
    let items: Vec<(&[u8], &[Query])> = all.iter().map(|b| (&b[..], &queries[..])).collect();
    for answer in adapter.answer_many(&items).iter().map(|a| &a[0]) {
        assert!(!is_not_asked(answer), "{answer:?}");
        assert_kind(answer, "error", "malformed response");
    }
    // One garbling body asked five times in a row.
    let one = [some[0].clone()];
    let items: Vec<(&[u8], &[Query])> =
        std::iter::repeat_n((&one[0][..], &queries[..]), 5).collect();
    let answers = adapter.answer_many(&items);
    for answer in answers.iter().map(|a| &a[0]) {
        assert_kind(answer, "error", "malformed response");
    }
}
