//! The suite as a downstream crate sees it: a parser that agrees everywhere passes, one that does
//! not fails until its ledger lists the divergences, and bless, strictness and the environment
//! variable behave as documented.
//!
//! Runs are judged through `Suite::outcomes`, which prints nothing: libtest-mimic's printer would
//! put the `test result: FAILED` lines of the suites expected to fail into this binary's output.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use robotstxt_oracle::knobs::Wildcards;
use robotstxt_oracle::{evaluate, literal, Request};
use robotstxt_spec::ledger::{self, Ledger, UNEXPLAINED};
use robotstxt_spec::suite::{bless_requested, judge, Outcome};
use robotstxt_spec::{Answer, ProfileId, Suite, Verdict};

/// How many trials of a run passed, failed and were ignored.
#[derive(Debug, Default, PartialEq, Eq)]
struct Tally {
    passed: u64,
    failed: u64,
    ignored: u64,
}

/// Counts the outcomes of the trials whose name contains `filter`.
fn tally(outcomes: &[(String, Outcome)], filter: &str) -> Tally {
    let mut t = Tally::default();
    for (_, outcome) in outcomes.iter().filter(|(name, _)| name.contains(filter)) {
        match outcome {
            Outcome::Pass => t.passed += 1,
            Outcome::Fail(_) => t.failed += 1,
            Outcome::Ignored(_) => t.ignored += 1,
        }
    }
    t
}

/// A single fetch's request, with no robots.txt URL.
fn request<'a>(body: &'a [u8], agent: &'a str, url: &'a str) -> Request<'a> {
    Request {
        body,
        agent,
        url,
        fetch: Default::default(),
        robots_url: None,
    }
}

/// The oracle itself as a parser (`either` read as allowed).
fn oracle(body: &[u8], agent: &str, url: &str) -> Answer {
    let request = request(body, agent, url);
    match evaluate(ProfileId::Rfc9309, &request).verdict {
        Verdict::Disallowed => Answer::Disallowed,
        _ => Answer::Allowed,
    }
}

/// Reads `*` and `$` as ordinary characters, as the 1994 and 1996 documents do (K6 wildcards
/// literal), and RFC 9309's base reading everywhere else: a parser whose divergences one knob
/// explains.
fn literal_star(body: &[u8], agent: &str, url: &str) -> Answer {
    let request = request(body, agent, url);
    let mut knobs = ProfileId::Rfc9309.base_knobs();
    knobs.wildcards = Wildcards::Literal;
    if literal::allowed(&knobs, &request) {
        Answer::Allowed
    } else {
        Answer::Disallowed
    }
}

fn run(suite: &Suite, parser: fn(&[u8], &str, &str) -> Answer) -> Tally {
    tally(&suite.outcomes(parser, Ok(false)), "")
}

/// The part of the corpus the runs that fail are limited to (their reports are long).
const PART: &str = "rfc9309/special-chars/";

fn run_part(suite: &Suite, parser: fn(&[u8], &str, &str) -> Answer) -> Tally {
    tally(&suite.outcomes(parser, Ok(false)), PART)
}

/// Entries of the ledger at `path` in [`PART`].
fn entries_in_part(path: &Path) -> u64 {
    let ledger = Ledger::load(path).unwrap();
    ledger.entries.keys().filter(|k| k.contains(PART)).count() as u64
}

#[test]
fn the_oracle_passes_every_askable_check_and_the_rest_are_ignored() {
    let c = run(&Suite::new("oracle").profile(ProfileId::Rfc9309), oracle);
    assert_eq!(c.failed, 0);
    assert!(c.passed > 1000, "{c:?}");
    // History, scope and fetch-outcome checks are ignored, never passed.
    assert!(c.ignored > 50, "{c:?}");
}

#[test]
fn a_divergent_parser_fails_without_a_ledger() {
    let c = run_part(&Suite::new("toy"), literal_star);
    assert!(c.failed > 0, "{c:?}");
}

#[test]
fn bless_then_explain_then_fix_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.yaml");
    let suite = Suite::new("toy").ledger(&path);
    let corpus = robotstxt_spec::embedded::corpus().unwrap();

    // Bless writes every divergence, marked unexplained; the run fails on them.
    let blessed = suite.bless(&corpus, &literal_star).unwrap();
    assert!(blessed.entries > 0 && blessed.unexplained == blessed.entries);
    let written = std::fs::read_to_string(&path).unwrap();
    if cfg!(feature = "causes") {
        // One group per cause, each naming its knob or deviation in words and as its id.
        assert!(
            written.contains("UNEXPLAINED (oracle cause: K6 wildcards: "),
            "{written}"
        );
        assert!(written.contains("  id: K6 wildcards\n"), "{written}");
    } else {
        // Built without the cause search: one placeholder group that says so, no id.
        assert!(
            written.contains("`causes` feature is off; turn it on"),
            "{written}"
        );
        assert!(!written.contains("  id: "), "{written}");
    }
    assert!(written.contains(&format!("corpus: {}", robotstxt_spec::CORPUS_VERSION)));
    let in_part = entries_in_part(&path);
    assert!(in_part > 0);
    let c = run_part(&suite, literal_star);
    assert_eq!(c.failed, in_part);

    // A person explains them: the divergences are ignored with the reason, nothing fails.
    let explained: String = written
        .lines()
        .map(|line| {
            if line.starts_with("- reason: ") && line.contains("UNEXPLAINED") {
                "- reason: stars are literal here\n".to_string()
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    std::fs::write(&path, explained).unwrap();
    let c = run(&suite, literal_star);
    assert_eq!(c.failed, 0, "{c:?}");

    // Blessing again keeps the reasons.
    let again = suite.bless(&corpus, &literal_star).unwrap();
    assert_eq!(again.unexplained, 0);

    // Fixing the parser fails every fixed entry until the ledger is rewritten.
    let c = run_part(&suite, oracle);
    assert_eq!(c.failed, in_part, "{c:?}");
    let after = suite.bless(&corpus, &oracle).unwrap();
    assert_eq!(after.entries, 0);
    assert_eq!(run(&suite, oracle).failed, 0);
}

#[test]
fn a_stale_entry_fails_the_tidy_test() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.yaml");
    std::fs::write(
        &path,
        "parser: toy\ncorpus: 0.1.0\ndivergences:\n  - reason: gone\n    checks:\n      rfc9309::no/such/case#1: allowed\n",
    )
    .unwrap();
    let suite = Suite::new("toy").ledger(&path);
    let c = tally(
        &suite.outcomes(oracle as fn(&[u8], &str, &str) -> Answer, Ok(false)),
        "ledger::",
    );
    assert_eq!((c.passed, c.failed), (0, 1), "{c:?}");
}

#[test]
fn a_malformed_ledger_is_one_failing_test_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.yaml");
    std::fs::write(&path, "parser: toy\ncorpus: 0.1.0\nsurprise: 1\n").unwrap();
    let error = Ledger::load(&path).unwrap_err();
    assert!(
        error.contains("ledger.yaml:3:1") && error.contains("surprise"),
        "{error}"
    );
    let c = tally(
        &Suite::new("toy")
            .ledger(&path)
            .outcomes(oracle as fn(&[u8], &str, &str) -> Answer, Ok(false)),
        "",
    );
    assert_eq!((c.passed, c.failed), (0, 1));
}

#[test]
fn judge_says_what_to_do() {
    let entry = |answer: &str, reason: &str| robotstxt_spec::ledger::Entry {
        answer: answer.into(),
        reason: reason.into(),
        id: None,
        message: None,
    };
    let ledger = Some(Path::new("tests/l.yaml"));
    let fail = |o: Outcome| match o {
        Outcome::Fail(m) => m,
        other => panic!("expected a failure, got {other:?}"),
    };
    assert_eq!(
        judge(&Answer::Allowed, Verdict::Allowed, None, None, ledger, "x"),
        Outcome::Pass
    );
    assert_eq!(
        judge(
            &Answer::Disallowed,
            Verdict::Either,
            None,
            None,
            ledger,
            "x"
        ),
        Outcome::Pass
    );
    let m = fail(judge(
        &Answer::Allowed,
        Verdict::Disallowed,
        None,
        None,
        ledger,
        "x",
    ));
    assert!(m.starts_with("unexpected divergence") && m.contains("tests/l.yaml"));
    let m = fail(judge(
        &Answer::Allowed,
        Verdict::Allowed,
        Some(&entry("disallowed", "why")),
        None,
        ledger,
        "x",
    ));
    assert!(m.starts_with("fixed") && m.contains("remove the entry"));
    let m = fail(judge(
        &Answer::Allowed,
        Verdict::Disallowed,
        Some(&entry("unsupported", "why")),
        None,
        ledger,
        "x",
    ));
    assert!(m.starts_with("changed"));
    let m = fail(judge(
        &Answer::Allowed,
        Verdict::Disallowed,
        Some(&entry("allowed", UNEXPLAINED)),
        None,
        ledger,
        "x",
    ));
    assert!(m.starts_with("unexplained"));
    assert_eq!(
        judge(
            &Answer::Allowed,
            Verdict::Disallowed,
            Some(&entry("allowed", "why")),
            None,
            ledger,
            "x"
        ),
        Outcome::Ignored("accepted divergence: why".into())
    );
    let m = fail(judge(
        &Answer::unsupported("no"),
        Verdict::Either,
        None,
        None,
        ledger,
        "x",
    ));
    assert!(m.starts_with("unexpected divergence"));
    // A failure: fixed, or listed by hand by its message's pattern as a known exception.
    let thrown = Answer::Error {
        message: "EmptyRobots: nothing to parse".into(),
    };
    let m = fail(judge(&thrown, Verdict::Allowed, None, None, ledger, "x"));
    assert!(
        m.starts_with("error: the parser answered") && m.contains("`message:`"),
        "{m}"
    );
    let known = robotstxt_spec::ledger::Entry {
        message: Some("EmptyRobots:*".into()),
        ..entry("error", "the library refuses empty files")
    };
    assert_eq!(
        judge(&thrown, Verdict::Allowed, Some(&known), None, ledger, "x"),
        Outcome::Ignored("accepted failure: the library refuses empty files".into())
    );
    let other = Answer::Error {
        message: "KeyError".into(),
    };
    let m = fail(judge(
        &other,
        Verdict::Allowed,
        Some(&known),
        None,
        ledger,
        "x",
    ));
    assert!(
        m.contains("the ledger accepts `error` with a message matching `EmptyRobots:*`"),
        "{m}"
    );
    let m = fail(judge(
        &Answer::panicked("boom"),
        Verdict::Allowed,
        Some(&known),
        None,
        ledger,
        "x",
    ));
    assert!(m.starts_with("crash: the parser panicked (boom)"), "{m}");
}

#[test]
fn the_bless_variable_is_strict() {
    assert_eq!(bless_requested(None, None), Ok(false));
    assert_eq!(bless_requested(Some("0"), Some("true")), Ok(false));
    assert_eq!(bless_requested(Some("1"), None), Ok(true));
    let e = bless_requested(Some("yes"), None).unwrap_err();
    assert!(e.contains("\"yes\" is not understood"), "{e}");
    let e = bless_requested(Some("1"), Some("true")).unwrap_err();
    assert!(e.contains("refused when CI is set"), "{e}");
}

#[test]
fn bless_without_a_ledger_file_is_an_error_and_a_bad_variable_fails_the_run() {
    let corpus = robotstxt_spec::embedded::corpus().unwrap();
    let e = Suite::new("toy").bless(&corpus, &oracle).unwrap_err();
    assert!(e.contains("no ledger file"), "{e}");
    let c = tally(
        &Suite::new("toy").outcomes(oracle as fn(&[u8], &str, &str) -> Answer, Err("bad".into())),
        "",
    );
    assert_eq!((c.passed, c.failed), (0, 1));
}

#[test]
fn fetch_outcomes_are_asked_only_of_a_parser_that_takes_them() {
    struct Fetching(AtomicBool);
    impl robotstxt_spec::Parser for Fetching {
        fn check(&self, body: &[u8], agent: &str, url: &str) -> Answer {
            oracle(body, agent, url)
        }
        fn takes_fetch_outcomes(&self) -> bool {
            true
        }
        fn check_fetch(
            &self,
            fetch: robotstxt_spec::Fetch,
            body: &[u8],
            agent: &str,
            url: &str,
        ) -> Answer {
            self.0.store(true, Ordering::Relaxed);
            let request = Request {
                body,
                agent,
                url,
                fetch,
                robots_url: None,
            };
            match evaluate(ProfileId::Rfc9309, &request).verdict {
                Verdict::Disallowed => Answer::Disallowed,
                _ => Answer::Allowed,
            }
        }
    }
    let corpus = robotstxt_spec::embedded::corpus().unwrap();
    let fetching = Fetching(AtomicBool::new(false));
    let suite = Suite::new("fetching");
    let plain = suite.divergences(&corpus, &oracle);
    let with_fetch = suite.divergences(&corpus, &fetching);
    assert!(fetching.0.load(Ordering::Relaxed));
    assert!(with_fetch.len() > plain.len());
    assert!(with_fetch.values().all(Option::is_none));
}

#[test]
fn the_embedded_corpus_is_the_directory() {
    let embedded = robotstxt_spec::embedded::corpus().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec-cases");
    let loaded = robotstxt_spec::cases::Corpus::load(&root).unwrap();
    assert_eq!(embedded.cases.len(), loaded.cases.len());
    for (a, b) in embedded.cases.iter().zip(&loaded.cases) {
        assert_eq!(
            (&a.id, a.checks.len(), &a.body),
            (&b.id, b.checks.len(), &b.body)
        );
    }
}

#[test]
fn checks_newer_than_the_ledger_are_reported_as_new_until_blessed() {
    let new = |answer: &Answer, expected| {
        judge(
            answer,
            expected,
            None,
            Some("0.2.0".parse().unwrap()),
            None,
            "x",
        )
    };
    assert_eq!(new(&Answer::Allowed, Verdict::Allowed), Outcome::Pass);
    match new(&Answer::Allowed, Verdict::Disallowed) {
        Outcome::Ignored(m) => {
            assert!(m.starts_with("new in corpus 0.2.0: bless to accept"), "{m}")
        }
        other => panic!("{other:?}"),
    }

    // A ledger written against an older corpus than every check: the toy's divergences are new.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.yaml");
    std::fs::write(&path, "parser: toy\ncorpus: 0.0.9\ndivergences: []\n").unwrap();
    let suite = Suite::new("toy").ledger(&path);
    let outcomes = suite.outcomes(literal_star as fn(&[u8], &str, &str) -> Answer, Ok(false));
    let part = tally(&outcomes, PART);
    assert_eq!(part.failed, 0, "{part:?}");
    let new_ones = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Ignored(m) if m.starts_with("new in corpus ")))
        .count();
    assert!(new_ones > 0);

    // Bless records the corpus version: the same divergences are now listed (and fail until
    // explained), none is new any more.
    let corpus = robotstxt_spec::embedded::corpus().unwrap();
    let blessed = suite.bless(&corpus, &literal_star).unwrap();
    assert_eq!(blessed.entries, new_ones);
    let after = suite.outcomes(literal_star as fn(&[u8], &str, &str) -> Answer, Ok(false));
    assert_eq!(tally(&after, "").failed as usize, new_ones);
    assert!(!after
        .iter()
        .any(|(_, o)| matches!(o, Outcome::Ignored(m) if m.starts_with("new in"))));
}

#[test]
fn a_ledger_from_a_newer_corpus_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.yaml");
    std::fs::write(&path, "parser: toy\ncorpus: 9.0.0\n").unwrap();
    let outcomes = Suite::new("toy")
        .ledger(&path)
        .outcomes(oracle as fn(&[u8], &str, &str) -> Answer, Ok(false));
    assert_eq!(outcomes.len(), 1);
    match &outcomes[0] {
        (name, Outcome::Fail(m)) if name == "ledger::loads" => {
            assert!(m.contains("newer than this robotstxt-spec's corpus"), "{m}")
        }
        other => panic!("{other:?}"),
    }
}

/// The tidy test of `spec-cases/CHECKS`: one line per check of the corpus, none newer than
/// `spec-cases/VERSION`.
#[test]
fn every_check_has_its_first_corpus_version_recorded() {
    let corpus = robotstxt_spec::embedded::corpus().unwrap();
    let versions = robotstxt_spec::embedded::check_versions().unwrap_or_else(|e| panic!("{e:#?}"));
    let current = robotstxt_spec::embedded::corpus_version();
    let problems = versions.verify(&corpus, current);
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));

    // A check without a line says what line to add; a line without a check says to remove it.
    let mut missing = versions.clone();
    let (id, _) = missing.0.pop_first().unwrap();
    missing.0.insert("no/such/case#1".into(), current);
    let problems = missing.verify(&corpus, current);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains(&format!("add the line `{id} {current}`")),
        "{problems:?}"
    );
    assert!(problems[1].contains("`no/such/case#1`") && problems[1].contains("remove the line"));
}

/// Panics on URLs with a user name (as a real crate did), agrees with the oracle elsewhere.
fn panics_on_userinfo(body: &[u8], agent: &str, url: &str) -> Answer {
    if url.contains('@') {
        panic!("userinfo is not supported: {url}");
    }
    oracle(body, agent, url)
}

#[test]
fn a_panicking_parser_is_a_crash_answer_with_message_and_case_in_tests_and_bless() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.yaml");
    let suite = Suite::new("toy").ledger(&path);
    let outcomes = suite.outcomes(
        panics_on_userinfo as fn(&[u8], &str, &str) -> Answer,
        Ok(false),
    );
    let crashed: Vec<&String> = outcomes
        .iter()
        .filter_map(|(_, o)| match o {
            Outcome::Fail(report) if report.contains("crash: the parser panicked") => Some(report),
            _ => None,
        })
        .collect();
    assert!(!crashed.is_empty(), "no check has a user name?");
    // The report names the case, the answer and the panic's message.
    assert!(
        crashed[0].contains("case ") && crashed[0].contains("url: "),
        "{}",
        crashed[0]
    );
    assert!(
        crashed[0].contains("userinfo is not supported"),
        "{}",
        crashed[0]
    );
    assert_eq!(tally(&outcomes, "").failed as usize, crashed.len());

    // Bless does not crash, writes a ledger, and records no panic as a divergence.
    let corpus = robotstxt_spec::embedded::corpus().unwrap();
    let blessed = suite.bless(&corpus, &panics_on_userinfo).unwrap();
    assert_eq!(blessed.crashes.len(), crashed.len());
    assert!(blessed.crashes[0].contains("userinfo is not supported"));
    let written = Ledger::load(&path).unwrap();
    assert_eq!(written.entries.len(), blessed.entries);
    assert!(written.entries.values().all(|e| e.answer != "crash"));
}

/// Answers `error` on URLs with a user name, agrees with the oracle elsewhere.
fn errs_on_userinfo(body: &[u8], agent: &str, url: &str) -> Answer {
    if url.contains('@') {
        return Answer::Error {
            message: "no user names".into(),
        };
    }
    oracle(body, agent, url)
}

#[test]
fn an_error_answer_fails_its_check_and_bless_never_records_it() {
    let m = match judge(
        &Answer::Error {
            message: "bad".into(),
        },
        Verdict::Either,
        None,
        None,
        None,
        "x",
    ) {
        Outcome::Fail(m) => m,
        other => panic!("expected a failure, got {other:?}"),
    };
    assert!(
        m.starts_with("error: the parser answered error (bad); fix the parser"),
        "{m}"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.yaml");
    let suite = Suite::new("toy").ledger(&path);
    let corpus = robotstxt_spec::embedded::corpus().unwrap();
    let blessed = suite.bless(&corpus, &errs_on_userinfo).unwrap();
    assert!(!blessed.crashes.is_empty(), "no check has a user name?");
    assert!(
        blessed.crashes[0].ends_with(": error (no user names)"),
        "{:?}",
        blessed.crashes
    );
    let written = Ledger::load(&path).unwrap();
    assert_eq!(written.entries.len(), blessed.entries);
    assert!(written.entries.values().all(|e| e.answer != "error"));
}

#[test]
fn a_check_listed_twice_is_an_error_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.yaml");
    std::fs::write(
        &path,
        "parser: toy\ncorpus: 0.1.0\ndivergences:\n  - reason: a\n    checks:\n      rfc9309::x/y#1: allowed\n  - reason: b\n    checks:\n      rfc9309::x/y#2: allowed\n      rfc9309::x/y#1: disallowed\n",
    )
    .unwrap();
    let error = Ledger::load(&path).unwrap_err();
    assert!(
        error.ends_with("ledger.yaml:10: rfc9309::x/y#1 is listed twice (first at line 6); a check has one entry"),
        "{error}"
    );
    assert!(ledger::is_unexplained(
        "UNEXPLAINED (oracle cause: K6 wildcards): x"
    ));
}

#[test]
fn every_corpus_url_can_be_asked_with_check() {
    let corpus = robotstxt_spec::embedded::corpus().unwrap();
    for case in &corpus.cases {
        for check in &case.checks {
            robotstxt_spec::cases::model::check_request_url(&check.url)
                .unwrap_or_else(|e| panic!("{}#{}: {e}", case.id, check.number));
        }
    }
}

#[test]
fn ignored_runs_the_accepted_divergences_as_failures_with_their_reports() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.yaml");
    let suite = Suite::new("toy").ledger(&path);
    let corpus = robotstxt_spec::embedded::corpus().unwrap();
    suite.bless(&corpus, &literal_star).unwrap();
    let written = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        written
            .replace("'UNEXPLAINED", "'stars are literal; was UNEXPLAINED")
            .replace("- reason: UNEXPLAINED", "- reason: stars are literal"),
    )
    .unwrap();
    let in_part = entries_in_part(&path);
    assert!(in_part > 0);
    // A plain run ignores them; `--ignored` fails each (and shows no passing check).
    // The runs' own output goes to a log file, not into this binary's output.
    let log = dir.path().join("runs.log");
    let log = log.to_str().unwrap();
    let args = |extra: &[&str]| {
        let mut argv = vec!["suite", "--quiet", "--test-threads", "1", "--logfile", log];
        argv.extend_from_slice(extra);
        argv.push(PART);
        libtest_mimic::Arguments::from_iter(argv)
    };
    let plain = suite.conclude(&args(&[]), literal_star, Ok(false));
    assert_eq!(plain.num_failed, 0, "{plain:?}");
    let ignored = suite.conclude(&args(&["--ignored"]), literal_star, Ok(false));
    assert_eq!(ignored.num_failed, in_part, "{ignored:?}");
    assert_eq!(ignored.num_passed, 0, "{ignored:?}");
    let all = suite.conclude(&args(&["--include-ignored"]), literal_star, Ok(false));
    assert_eq!(all.num_failed, in_part, "{all:?}");
    assert_eq!(all.num_passed, plain.num_passed, "{all:?}");
}

/// The line to cite counts the checks asked, the answers the profile expects and the divergences
/// the ledger accepts with a reason (not the UNEXPLAINED ones); a failing run's line says so and
/// its badge says `failing`.
#[test]
fn the_line_to_cite_and_the_badge_match_the_run() {
    let (figures, failed) = Suite::new("oracle")
        .profile(ProfileId::Rfc9309)
        .figures(oracle as fn(&[u8], &str, &str) -> Answer);
    let f = figures[ProfileId::Rfc9309.index()];
    assert_eq!(failed, 0);
    assert!(f.checks > 1000 && f.agree == f.checks, "{f:?}");
    assert_eq!(f.documented, 0);
    assert_eq!(figures[ProfileId::Google.index()].checks, 0);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.yaml");
    let badge = dir.path().join("badge.svg");
    let suite = Suite::new("toy").ledger(&path).badge(&badge);
    let corpus = robotstxt_spec::embedded::corpus().unwrap();
    let blessed = suite.bless(&corpus, &literal_star).unwrap();
    assert!(blessed.unexplained > 0);
    // UNEXPLAINED entries fail their tests and are not documented divergences.
    let (figures, failed) = suite.figures(literal_star as fn(&[u8], &str, &str) -> Answer);
    let f = figures[ProfileId::Rfc9309.index()];
    assert_eq!(failed, blessed.unexplained);
    assert_eq!(f.documented, 0);
    assert_eq!(f.checks - f.agree, blessed.entries);
    let lines = suite.lines(&figures, failed);
    assert!(
        lines[0].starts_with(&format!("NOT PASSING ({failed} failed tests): RFC 9309: ")),
        "{lines:?}"
    );
    suite.write_badges(&figures, failed).unwrap();
    let svg = std::fs::read_to_string(&badge).unwrap();
    assert!(svg.contains(">failing</text>"), "{svg}");
    // Reasons written: the entries are documented, the run passes, the badge gives the rate.
    let written = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        written
            .replace("'UNEXPLAINED", "'stars are literal; was UNEXPLAINED")
            .replace("- reason: UNEXPLAINED", "- reason: stars are literal"),
    )
    .unwrap();
    let (figures, failed) = suite.figures(literal_star as fn(&[u8], &str, &str) -> Answer);
    let f = figures[ProfileId::Rfc9309.index()];
    assert_eq!(failed, 0);
    assert_eq!(f.documented, blessed.entries);
    let lines = suite.lines(&figures, failed);
    assert_eq!(lines, [robotstxt_spec::badge::line(&f)]);
    assert!(
        lines[0].ends_with(&format!(
            "; {} documented divergences; corpus {}",
            blessed.entries,
            robotstxt_spec::CORPUS_VERSION
        )),
        "{lines:?}"
    );
    suite.write_badges(&figures, failed).unwrap();
    let svg = std::fs::read_to_string(&badge).unwrap();
    assert!(svg.contains(&format!(">{}</text>", f.rate())), "{svg}");
}
